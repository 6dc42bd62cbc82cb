#!/bin/bash
# register_layout over an mkey whose layout is still in place is refused
# at validate; what a step does to that layout is what its references
# declare (rdmascn_ref.layout), not which step type it is: a send with
# invalidate_rkey_of: and a local invalidate of the mkey drop it, a step
# that only names the mkey (a send from it) or invalidates another one
# does not, and a parallel step ends the search.
set -u
rdmascn=$1
fails=0 n=0
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# scenario FILE STEP...: the mkeys k and k2 on a devx context, k
# registered first, then each STEP, then k registered again (the last
# step, at line 14 + the number of STEPs).
scenario() {
	local f=$1
	shift
	cat >"$f" <<'YAML'
scenario: mkey-layout
contexts: [{id: ctx, device: any}]
mlx5_contexts: [{id: dx, context: ctx, flags: [devx]}]
pds: [{id: pd, context: dx}]
cqs: [{id: cq, context: dx, cqe: 16}]
mrs: [{id: m, pd: pd, length: 4096, access: [local_write]}]
mlx5_mkeys:
  - {id: k, pd: pd, mr_list: [{mr: m, length: 1024}]}
  - {id: k2, pd: pd, mr_list: [{mr: m, length: 1024}]}
mlx5_qps:
  - {id: q, pd: pd, type: rc, send_cq: cq, recv_cq: cq, send_ops: [local_inv, send_with_inv], mlx5_send_ops: [mr_list]}
steps:
  - register_layout: {qp: q, mkey: k}
YAML
	for s in "$@"; do
		echo "  - $s" >>"$f"
	done
	echo "  - register_layout: {qp: q, mkey: k}" >>"$f"
}

valid() { # FILE STEP...
	local f=$1 rc
	n=$((n + 1))
	scenario "$@"
	"$rdmascn" validate "$f" >out 2>err
	rc=$?
	if [ $rc -ne 0 ] || [ -s err ]; then
		echo "FAIL $f: exit $rc (want 0)"; cat out err
		fails=$((fails + 1))
	fi
}

refused() { # FILE STEP...: the second register_layout refused
	local f=$1 rc line want
	n=$((n + 1))
	scenario "$@"
	line=$(($# + 13))
	want="$f:$line:36: step $(($# + 1)) (register_layout): mkey: 'k' has a layout already (registered at 13:5): invalidate it first (invalidate: {qp: ..., mr: k})"
	"$rdmascn" validate "$f" >out 2>err
	rc=$?
	if [ $rc -ne 2 ] || [ -s out ] || [ "$(cat err)" != "$want" ]; then
		echo "FAIL $f: exit $rc (want 2)"
		echo "--- want"; echo "$want"
		echo "--- got"; cat out err
		fails=$((fails + 1))
	fi
}

# The mlx5 plugin is built beside rdmascn; without it there is no mkey.
"$rdmascn" plugins | grep -q '^mlx5 ' || { echo "SKIP: no mlx5 plugin"; exit 77; }

valid invalidate.yaml "invalidate: {qp: q, mr: k}"
valid send_inv.yaml "send: {qp: q, local: m, length: 64, invalidate_rkey_of: k}"
valid parallel.yaml "parallel: {steps: [{sleep: {ms: 1}}]}"
valid later.yaml "invalidate: {qp: q, mr: k}" "sleep: {ms: 1}"
refused nothing.yaml
refused send_from.yaml "send: {qp: q, local: k, length: 64}"
refused other.yaml "invalidate: {qp: q, mr: k2}"
refused sleep.yaml "sleep: {ms: 1}" "write: {qp: q, local: k, remote: m, length: 64}"

echo "$n cases, $fails failed"
[ $fails -eq 0 ]
