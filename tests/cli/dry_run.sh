#!/bin/bash
# `rdmascn run --dry-run` needs no device: for every scenario it prints
# the verbs calls, numbered, each tagged with its object; the objects come
# in plan order, and the teardown calls in exact reverse.
set -u
rdmascn=$1
scndir=$2
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$scndir"/*.yaml; do
	name=$(basename "$f" .yaml)
	"$rdmascn" run --dry-run "$f" >"$tmp/dry" 2>"$tmp/err" ||
		{ cat "$tmp/dry" "$tmp/err"; fail "$name: dry run exit $?"; }
	[ -s "$tmp/err" ] && { cat "$tmp/err"; fail "$name: dry run wrote to stderr"; }
	"$rdmascn" plan "$f" | sed -n '/^create:/,/^steps:/p' |
		sed -n "s/^ *[0-9]*  \([a-z_0-9]* '[^']*'\) .*/\1/p" >"$tmp/plan"
	# The objects the create calls are for, each once, in order.
	sed -n '/^create:/,/^teardown:/p' "$tmp/dry" |
		sed -n "s/^  \[[0-9]*\] .*  # \(.*\)$/\1/p" | uniq >"$tmp/made"
	diff -u "$tmp/plan" "$tmp/made" >"$tmp/diff" ||
		{ cat "$tmp/diff"; fail "$name: create calls not in plan order"; }
	sed -n '/^teardown:/,$p' "$tmp/dry" |
		sed -n "s/^       .*  # \(.*\)$/\1/p" | uniq >"$tmp/torn"
	tac "$tmp/plan" | diff -u - "$tmp/torn" >"$tmp/diff" ||
		{ cat "$tmp/diff"; fail "$name: teardown calls not the reverse"; }
	grep -v '^  \[\|^       \|^create:\|^teardown:\|^dry run' "$tmp/dry" &&
		fail "$name: unexpected lines in the dry run"
	echo "ok $name: $(grep -c '^  \[' "$tmp/dry") calls, $(wc -l <"$tmp/plan") objects, teardown reversed"
done
# The attributes are there: a QP's capabilities, a connection's RTR.
"$rdmascn" run --dry-run "$scndir/rc_pingpong.yaml" >"$tmp/dry"
grep -q "ibv_create_qp(.*max_recv_wr=500" "$tmp/dry" || { cat "$tmp/dry"; fail "no max_recv_wr=500 in ibv_create_qp"; }
grep -q "ibv_modify_qp(.*RTR" "$tmp/dry" || { cat "$tmp/dry"; fail "no RTR modify"; }
