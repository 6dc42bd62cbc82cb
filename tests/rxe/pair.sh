#!/bin/bash
# In both VMs of `rdmascn softroce --pair` (RDMASCN_SOFTROCE_HOST 0 or 1):
# the bed first (hostname, rxe0 on the NIC, the peer reachable by IP and
# by RDMA: ibv_rc_pingpong), then scenarios/nodes/rc_pingpong, write_bw
# and rdma_cm across the two VMs, host 0 playing the first node, with
# --check-leaks on both and host 0's merged record checked.
#
# Usage: pair.sh RDMASCN SCENARIOS-DIR
set -u
rdmascn=$1
scn=$2/nodes
. "$(dirname "$0")/lib.sh"
h=${RDMASCN_SOFTROCE_HOST:?not in rdmascn softroce --pair}
peer=${RDMASCN_SOFTROCE_PEER:?not in rdmascn softroce --pair}
unset OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_SIZE SLURM_PROCID SLURM_NTASKS \
	PMI_RANK PMI_SIZE PMIX_RANK

# 1. The bed.
[ "$(hostname)" = "rdmascn-h$h" ] || fail "hostname '$(hostname)', want rdmascn-h$h"
rdma link show rxe0/1 | grep -q 'state ACTIVE .*netdev eth' ||
	{ rdma link; fail "rxe0 is not ACTIVE on the NIC"; }
busybox ping -c 1 -W 10 "$peer" >"$tmp/ping" || { cat "$tmp/ping"; fail "no ping to $peer"; }
if [ "$h" = 0 ]; then
	timeout 120 ibv_rc_pingpong -d rxe0 -g 1 -n 10 >"$tmp/pp" 2>&1
	rc=$?
else
	# Host 0 may boot later: retry while its TCP port is closed.
	for i in $(seq 60); do
		timeout 120 ibv_rc_pingpong -d rxe0 -g 1 -n 10 "$peer" >"$tmp/pp" 2>&1
		rc=$?
		[ $rc = 0 ] && break
		grep -q "Couldn't connect" "$tmp/pp" || break
		sleep 1
	done
fi
[ $rc = 0 ] || { cat "$tmp/pp"; fail "ibv_rc_pingpong to the other VM: exit $rc"; }
ok "bed: $(hostname), rxe0 ACTIVE, ping and ibv_rc_pingpong to $peer ($(grep -o '[0-9.]* usec/iter' "$tmp/pp"))"

# 2. The scenarios across the VMs: host 0 is the first node, where the
# nodes meet, at 10.99.1.1: not loopback, so the run needs a key, the
# same on both hosts (docs/nodes.md, "Who can join").  Without it, host
# 0's run is refused before it listens.
if [ "$h" = 0 ]; then
	"$rdmascn" run --node a --rendezvous 10.99.1.1 "$scn/rc_pingpong.yaml" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] && grep -q "not a loopback address, and the run has no key" "$tmp/err" ||
		{ cat "$tmp/out" "$tmp/err"; fail "no key at 10.99.1.1: exit $rc, want 2 naming the key"; }
	ok "no key at 10.99.1.1: refused with exit 2 before listening"
fi
export RDMASCN_KEY=rdmascn-pair-test-key-0123456789abcdef
run_node() {
	local f=$1 node=$2
	shift 2
	run_scn "$tmp/out" "$tmp/err" --node "$node" --check-leaks "$@" "$f"
	[ $rc = 0 ] || { cat "$tmp/out" "$tmp/err"; fail "${f##*/} node $node: exit $rc"; }
	assert_clean "$tmp/out" "$tmp/err" "${f##*/} node $node"
}
nodes=(a b)
# Its addresses are 127.0.0.1 (the nodes branch's file, for one host):
# the nodes meet at host 0 all the same.
run_node "$scn/rc_pingpong.yaml" "${nodes[$h]}" --rendezvous 10.99.1.1 --set iters=20
ok "rc_pingpong across the VMs: node ${nodes[$h]} passed, torn down, no leaks"
merged_ok() {
	[ "$h" = 0 ] || return 0
	# The leader's record holds every other node's (node_runs).
	[ "$(rec '[.node.name, .node_runs[]?.node.name] | sort | join(",")')" = "$1" ] ||
		{ rec -c '[.node, [.node_runs[]?.node]]'; fail "$2: the merged record does not hold nodes $1"; }
	[ "$(rec '[.leaks.count, .node_runs[]?.leaks.count] | join(" ")')" = "0 0" ] ||
		fail "$2: leaks in the merged record: $(rec -c '[.leaks, [.node_runs[]?.leaks]]')"
}
merged_ok a,b rc_pingpong
nodes=(c s)
run_node "$scn/write_bw.yaml" "${nodes[$h]}" --set addr_c=10.99.1.1 \
	--set addr_s=10.99.1.2 --set size=4096 --set iters=200 --set depth=16 \
	--set cq_mod=8
ok "write_bw across the VMs: node ${nodes[$h]} passed, torn down, no leaks"
merged_ok c,s write_bw
# rdma_cm across the VMs: b (host 1) listens at its GID's IPv4 address,
# 10.99.1.2, on the port it tells a through the rendezvous.
nodes=(a b)
run_node "$scn/rdma_cm.yaml" "${nodes[$h]}" --set addr_a=10.99.1.1 \
	--set addr_b=10.99.1.2 --set iters=20
ok "rdma_cm across the VMs: node ${nodes[$h]} passed, torn down, no leaks"
merged_ok a,b rdma_cm
# Without a key, --insecure: the run works all the same, and says once
# that anyone could have joined.
RDMASCN_KEY= run_node "$scn/rc_pingpong.yaml" "${nodes[$h]}" --insecure \
	--rendezvous 10.99.1.1 --set iters=20
[ "$(grep -c 'warning: --insecure: the nodes meet at 10.99.1.1 without a key' "$tmp/err")" = 1 ] ||
	{ cat "$tmp/err"; fail "--insecure: not one warning"; }
ok "--insecure without a key: node ${nodes[$h]} passed, warned once"
