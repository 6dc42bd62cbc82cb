#!/bin/bash
# RDMASCN_FAIL_ALLOC=N fails the Nth allocation (engine/base/alloc.h).  The
# very first one comes before any file is read: validate, plan and graph
# say "rdmascn CMD: out of memory" and exit 3.  Then validate with each
# allocation failing in turn, until one N is past them all: exit 3 and
# one line saying "out of memory", nothing on stdout (under ASan, also
# nothing leaked: LeakSanitizer changes the exit code).
set -u
rdmascn=$1
fails=0 n=0
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

cat >s.yaml <<'YAML'
scenario: alloc-fail
params: {size: 4096, access: {default: local_write, env: RDMASCN_TEST_ACCESS}}
contexts: [{id: ctx, device: any}]
pds: [{id: pd, context: ctx}]
cqs: [{id: cq, context: ctx, cqe: 16}]
mrs: [{id: buf, pd: pd, length: "${size}", access: ["${access}"]}]
qps: [{id: a, pd: pd, type: rc, send_cq: cq, recv_cq: cq}]
steps:
  - write: {qp: a, local: buf, remote: buf}
YAML

bad() { fails=$((fails + 1)); echo "FAIL: $*"; }

for cmd in validate plan graph; do
	n=$((n + 1))
	RDMASCN_FAIL_ALLOC=1 "$rdmascn" $cmd s.yaml >out 2>err
	rc=$?
	if [ $rc -ne 3 ] || [ -s out ] ||
	   [ "$(cat err)" != "rdmascn $cmd: out of memory" ]; then
		bad "$cmd, first allocation failing: exit $rc, stderr" \
		    "'$(tr '\n' '|' <err)'"
	fi
done

for ((i = 1; ; i++)); do
	n=$((n + 1))
	RDMASCN_FAIL_ALLOC=$i "$rdmascn" validate s.yaml >out 2>err
	rc=$?
	[ $rc -eq 0 ] && break
	if [ $rc -ne 3 ] || [ -s out ] || [ "$(wc -l <err)" -ne 1 ] ||
	   ! grep -q 'out of memory$' err; then
		bad "validate, allocation $i failing: exit $rc, stderr" \
		    "'$(head -c 300 err | tr '\n' '|')'"
	fi
	if [ $i -ge 5000 ]; then
		bad "validate still failing at allocation $i"
		break
	fi
done

echo "$((n - fails)) passed, $fails failed ($i allocations tried)"
[ $fails -eq 0 ]
