#!/bin/bash
# Counted entries on the command line, with no device: rc_many with
# n=1000 (2000 QPs, 1000 connections, two steps of 1000 elements) is
# 14 lines of YAML; `plan` folds each counted entry into one line and
# `plan -v` lists the elements; `graph` draws one node per entry; the dry
# run makes every element, pairs ab[i] with a[i] and b[i], tears down in
# exact reverse, and its record lists every element; a list names all
# elements of a counted entry.
#   count.sh RDMASCN SCENARIO_DIR
set -u
rdmascn=$1 dir=$2
f=$dir/rc_many.yaml
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -q -- "$2" "$1" || { cat "$1"; fail "no '$2'"; }; }

n=$(grep -vc '^#' "$f")
[ "$n" -lt 15 ] || fail "rc_many.yaml is $n lines of YAML, not under 15"
echo "ok rc_many.yaml: $n lines of YAML"

"$rdmascn" plan --set n=1000 "$f" >"$tmp/plan" || fail "plan exit $?"
has "$tmp/plan" "^ *1005  qp 'a' ×1000  *line 25  <- pd=pd, send_cq=cq, recv_cq=cq$"
has "$tmp/plan" "^ *3005  connection 'ab' ×1000  *line 27  <- a=a\[i\], b=b\[i\]$"
# A step is numbered as the run and its record number it: 2[0]..2[999].
has "$tmp/plan" "^ *1  step 1\[0\]\.\.1\[999\] (write)  *line 29  <- qp=a\[i\], local=src, remote=dst\[i\]$"
has "$tmp/plan" "^ *2  step 2\[0\]\.\.2\[999\] (verify)  *line 30  <- mr=dst\[i\], equals=src$"
has "$tmp/plan" "^ *1  connection 'ab' ×1000$"
[ "$(wc -l <"$tmp/plan")" = 22 ] || { cat "$tmp/plan"; fail "plan is not 22 lines"; }
echo "ok plan folded: $(wc -l <"$tmp/plan") lines"

"$rdmascn" plan -v --set n=1000 "$f" >"$tmp/planv" || fail "plan -v exit $?"
[ "$(sed -n '/^create:/,/^steps:/p' "$tmp/planv" | grep -c "^ *[0-9]")" = 4004 ] ||
	fail "plan -v: not 4004 objects"
has "$tmp/planv" "^ *3007  connection 'ab\[2\]'  *line 27  <- a=a\[2\], b=b\[2\]$"
has "$tmp/planv" "^ *1\[999\]  step 1\[999\] (write)  *line 29  <- qp=a\[999\], local=src, remote=dst\[999\]$"
sed -n '/^teardown:/,$p' "$tmp/planv" | sed -n 2p | grep -q "connection 'ab\[999\]'" ||
	fail "plan -v: teardown does not start with ab[999]"
echo "ok plan -v: every element, teardown from ab[999]"

"$rdmascn" graph --set n=1000 "$f" >"$tmp/dot" || fail "graph exit $?"
has "$tmp/dot" '^		"a" \[label="qp\\na ×1000"\];$'
# A counted step's node is numbered as plan numbers it, with its count.
has "$tmp/dot" '^		"step 1 (write)" \[label="write\\nstep 1\[0\]\.\.1\[999\] (write) ×1000"\];$'
has "$tmp/dot" '^		"step 2 (verify)" \[label="verify\\nstep 2\[0\]\.\.2\[999\] (verify) ×1000"\];$'
[ "$(grep -c ' \[label=' "$tmp/dot")" -lt 30 ] || fail "graph: more than one node per entry"
[ "$(grep -c '^	"ab" -> "a" \[label="a"\];$' "$tmp/dot")" = 1 ] ||
	fail "graph: the edge ab -> a is not there once"
# No node or edge names an element ("a[1]"); labels number steps.
grep -Eq '"[^" ]+\[[0-9]+\]"' "$tmp/dot" && fail "graph: an element is drawn"
echo "ok graph folded: $(grep -c ' \[label=' "$tmp/dot") nodes and edges"

start=$(date +%s%N)
"$rdmascn" run --dry-run --json "$tmp/r.json" --set n=1000 "$f" >"$tmp/dry" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "dry run exit $?"; }
ms=$(( ($(date +%s%N) - start) / 1000000 ))
has "$tmp/dry" '^dry run done: 4004 objects, 2000 steps$'
has "$tmp/dry" "dest_qp_num=qpn(b\[999\]) .*# connection 'ab\[999\]'$"
has "$tmp/dry" "ibv_modify_qp(qp=b\[999\] qp_state=RTR .*dest_qp_num=qpn(a\[999\]) "
[ "$(grep -c 'ibv_create_qp(' "$tmp/dry")" = 2000 ] || fail "not 2000 ibv_create_qp"
[ "$(grep -c 'ibv_destroy_qp(' "$tmp/dry")" = 2000 ] || fail "not 2000 ibv_destroy_qp"
sed -n '/^teardown:/,$p' "$tmp/dry" | grep -m2 'ibv_destroy_qp' | tr '\n' ' ' |
	grep -q "qp=b\[999\].*qp=b\[998\]" || fail "teardown not from b[999] down"
[ "$(jq '.objects | length' "$tmp/r.json")" = 4004 ] || fail "record: not 4004 objects"
[ "$(jq -r '.objects[] | select(.id == "a[17]") | "\(.kind) \(.line)"' "$tmp/r.json")" = "qp 25" ] ||
	fail "record: no qp a[17] at line 25"
[ "$(jq -r '.plan_steps[1999].no' "$tmp/r.json")" = "2[999]" ] ||
	fail "record: the last step is not 2[999]"
# Plan's numbers are the record's: the first and last of each step.
for i in 0 999 1000 1999; do
	no=$(jq -r ".plan_steps[$i].no" "$tmp/r.json")
	grep -q "^ *${no%%\[*}  step .*${no//[][]/\\&}" "$tmp/plan" ||
		{ cat "$tmp/plan"; fail "record's step $no is not plan's"; }
done
# A counted step with an id: its elements' ids.
sed 's/  - write: {qp: a,/  - write: {id: w, qp: a,/' "$f" >"$tmp/w.yaml"
"$rdmascn" plan --set n=1000 "$tmp/w.yaml" >"$tmp/planw" || fail "plan w exit $?"
has "$tmp/planw" "^ *1  step 'w\[0\]'\.\.'w\[999\]'  *line 29  <- qp=a\[i\]"
"$rdmascn" graph --set n=1000 "$tmp/w.yaml" >"$tmp/dotw" || fail "graph w exit $?"
has "$tmp/dotw" '^		"w" \[label="write\\nw\[0\]\.\.w\[999\] ×1000"\];$'
echo "ok dry run of 2000 QPs in ${ms} ms: ab[i] joins a[i] and b[i], teardown reversed, record per element"

# A list names every element; after: a counted entry, all of them.
cat >"$tmp/list.yaml" <<'YAML'
contexts: [{id: ctx, device: any}]
pds: [{id: pd, context: ctx}]
cqs: [{id: cq, context: ctx, cqe: 64}]
mrs: [{id: m, pd: pd, length: 64, access: [local_write, remote_write]}]
qps:
  - {id: a, count: 3, pd: pd, type: rc, send_cq: cq, recv_cq: cq}
  - {id: b, count: 3, pd: pd, type: rc, send_cq: cq, recv_cq: cq}
connections: [{id: ab, a: a, b: b}]
steps:
  - stream: {qps: [a], local: m, remote: m, size: 8}
  - write: {qp: "a[1]", local: m, remote: m, length: 8, after: [ab]}
YAML
"$rdmascn" plan "$tmp/list.yaml" >"$tmp/plan" || fail "list: plan exit $?"
has "$tmp/plan" "^ *1  step 1 (stream)  *line 10  <- qps=a\[\*\], local=m, remote=m$"
has "$tmp/plan" "^ *2  step 2 (write)  *line 11  <- after=ab\[\*\], qp=a\[1\], local=m, remote=m$"
"$rdmascn" run --dry-run "$tmp/list.yaml" >"$tmp/dry" || fail "list: dry run exit $?"
echo "ok qps: [a] names a[0] .. a[2]; after: [ab] waits for every ab[i]"
