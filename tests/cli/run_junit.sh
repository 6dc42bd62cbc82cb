#!/bin/bash
# rdmascn run --junit: every scenario's dry run writes JUnit XML that the
# XSD accepts and that a JUnit reader finds as one testsuite with set-up,
# a testcase per step and teardown (tests/junit/check.py, against the
# record of the same run); the text report is the same with or without
# it; '-' puts it on stdout; a file that cannot be written is named;
# libxml2 is loaded only for it; with no device the set-up testcase is
# an error that says why.
#   run_junit.sh RDMASCN SCENARIO_DIR XSD CHECKER [MORE_SCENARIO_DIR...]
set -u
rdmascn=$1 dir=$2 xsd=$3 check=$4
shift 4
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fails=0 n=0
bad() { fails=$((fails + 1)); echo "FAIL: $*"; }

: >"$tmp/list"
more=()
for d in "$@"; do more+=("$d"/*.yaml); done
for f in "$dir"/*.yaml "${more[@]}"; do
	[ -e "$f" ] || continue
	n=$((n + 1))
	b=$(basename "$(dirname "$f")")-$(basename "$f" .yaml)
	"$rdmascn" run -n "$f" >"$tmp/plain" 2>&1
	"$rdmascn" run -n --json "$tmp/$b.json" --junit "$tmp/$b.xml" "$f" \
		>"$tmp/text" 2>&1
	cmp -s "$tmp/plain" "$tmp/text" ||
		bad "$f: the text differs with --junit"
	echo "$tmp/$b.xml $tmp/$b.json" >>"$tmp/list"
done
n=$((n + 1))
/usr/bin/python3 "$check" "$xsd" "$tmp/list" || bad "dry runs' JUnit"

# On stdout, the text on stderr.
n=$((n + 1))
f=$dir/rc_pingpong.yaml
"$rdmascn" run -n --junit - "$f" >"$tmp/out.xml" 2>"$tmp/err"
xmllint --noout --schema "$xsd" "$tmp/out.xml" 2>/dev/null &&
	grep -q '^dry run done: ' "$tmp/err" ||
	bad "--junit -: $(head -c 300 "$tmp/out.xml")"

n=$((n + 1))
"$rdmascn" run -n --junit - --json - "$f" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q 'cannot both go to stdout' "$tmp/err" ||
	bad "--junit - --json -: exit $rc, $(cat "$tmp/err")"

n=$((n + 1))
"$rdmascn" run -n --junit /nonexistent/dir/r.xml "$f" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 3 ] && grep -q '^rdmascn: --junit /nonexistent/dir/r.xml: ' \
	"$tmp/err" || bad "unwritable --junit: exit $rc, $(cat "$tmp/err")"

# libxml2 (and ICU, libstdc++ under it) is loaded only when a JUnit
# file is written: a run without --junit starts without it, one with it
# loads it (glibc's LD_DEBUG=libs names each library it initialises).
n=$((n + 1))
LD_DEBUG=libs "$rdmascn" run -n "$f" >/dev/null 2>"$tmp/libs"
LD_DEBUG=libs "$rdmascn" run -n --junit "$tmp/lazy.xml" "$f" >/dev/null \
	2>"$tmp/libs_junit"
grep -q 'calling init: .*libjson-c' "$tmp/libs" &&
	! grep -q 'calling init: .*libxml2' "$tmp/libs" &&
	grep -q 'calling init: .*libxml2' "$tmp/libs_junit" &&
	xmllint --noout --schema "$xsd" "$tmp/lazy.xml" 2>/dev/null ||
	bad "libxml2 loaded $(grep -c 'init: .*libxml2' "$tmp/libs") time(s) without --junit, $(grep -c 'init: .*libxml2' "$tmp/libs_junit") with it"

# No device here: set-up is an error naming why, the steps are skipped.
if ! "$rdmascn" devices >/dev/null 2>&1; then
	n=$((n + 1))
	"$rdmascn" run --junit "$tmp/nodev.xml" --json "$tmp/nodev.json" \
		"$f" >/dev/null 2>&1
	/usr/bin/python3 "$check" "$xsd" "$tmp/nodev.xml" "$tmp/nodev.json" &&
	xmllint --xpath 'string(//testcase[@name="set-up"]/error/@message)' \
		"$tmp/nodev.xml" | grep -q '^no RDMA device' &&
	[ "$(xmllint --xpath 'count(//testcase/skipped)' "$tmp/nodev.xml")" = 1 ] ||
		bad "no device: $(cat "$tmp/nodev.xml")"
fi

echo "$((n - fails)) passed, $fails failed"
[ $fails = 0 ]
