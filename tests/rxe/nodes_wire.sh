#!/bin/bash
# Inside the Soft-RoCE VM: uniformity across nodes (moved out of
# nodes.sh, which runs beside other tests on rxe0; this one makes the
# VM's rxe_a and rxe_b, which another test's `device: any` could open,
# so it runs alone).
set -u
rdmascn=$1
. "$(dirname "$0")/lib.sh"
export RDMASCN_NODES_DEADLINE_MS=20000
# Every run here holds the run's key (docs/nodes.md, "Who can join").
RDMASCN_KEY=$(head -c 32 /dev/urandom | base64)
export RDMASCN_KEY

# 13. Uniformity: two rxe devices on the two ends of a veth pair, node a
# on rxe_a (veth2, 10.98.0.1), node b on rxe_b (veth3, 10.98.0.2), the
# traffic between the two local addresses sent over the veth rather than
# lo (a routing table each way ahead of the local one, the far end
# accepting a local source).  Equal netdev MTUs: a real pingpong over
# the veth.  4200 on veth2 (active MTU 4096) and 1500 on veth3 (1024):
# both nodes exit 3 at the connection, naming both nodes and values,
# nothing leaked.
un=$(dirname "$0")/scn/nodes_uniform.yaml
un_t0=$(date +%s)
trap 'veth_rxe_down; records_ok; rc_=$?; rm -rf "$tmp"; exit $rc_' EXIT
veth_rxe_up || fail "uniformity: could not set up the veth pair and rxe_a, rxe_b"
tx0=$(cat /sys/class/net/veth2/statistics/tx_packets)
by_hand "$un" 0 b a -- --set iters=20
tx=$(($(cat /sys/class/net/veth2/statistics/tx_packets) - tx0))
[ $tx -ge 20 ] || fail "uniformity: equal MTUs passed but veth2 sent $tx packets"
keep_rec "$tmp/a.json" 0 "uniform node a"
ok "equal MTUs on rxe_a and rxe_b: a pingpong over the veth passed on both nodes ($tx packets out of veth2), no leaks"

ip link set veth2 mtu 4200 && ip link set veth3 mtu 1500 ||
	fail "uniformity: could not set the MTUs"
want="connection 'ab': node 'a' (rxe_a port 1) has active MTU 4096, node 'b' (rxe_b port 1) has 1024"
by_hand "$un" 3 b a -- --set iters=20
for n in a b; do
	grep -qF "$want" "$tmp/$n.out" "$tmp/$n.err" ||
		{ cat "$tmp/$n.out" "$tmp/$n.err"; fail "MTU mismatch: node $n does not say: $want"; }
	[ "$(jq -r '[.objects[] | select(.kind == "connection") | .outcome] | join(",")' "$tmp/$n.json")" = failed ] ||
		fail "MTU mismatch: node $n's connection: $(jq -c '[.objects[] | select(.kind == "connection")]' "$tmp/$n.json")"
	[ "$(jq -r '.steps[0].outcome' "$tmp/$n.json")" != passed ] ||
		fail "MTU mismatch: node $n ran the step"
done
keep_rec "$tmp/a.json" 3 "uniform mismatch node a"
veth_rxe_down
ok "MTU mismatch (veth2 4200, veth3 1500): both nodes exit 3 at the connection, no leaks: $want (uniformity checks: $(($(date +%s) - un_t0)) s)"
