#!/bin/bash
# Inside the Soft-RoCE VM: per-QP counters on rxe.  rxe has no counter
# binding (its driver has no counter ops), so a run records that as a
# skip of rxe0/1 with its reason, once, in the root qp_counters, fails
# nothing, binds nothing, and --check-leaks still passes; -v says it.
# The errno the engine recorded is the one iproute2's `rdma statistic qp
# bind` gets for the same QP.  A SIGINT mid-step tears down as before.
#   fabric_qpcounters.sh RDMASCN [SCENARIO]
set -u
rdmascn=$1
scn=${2:-$(dirname "$0")/../../scenarios/rc_pingpong.yaml}
hold=$(dirname "$0")/scn/hold.yaml
. "$(dirname "$0")/lib.sh"

# 1. A run with traffic: passed, the skip in the record, nothing leaked.
run_scn "$tmp/out" "$tmp/err" --check-leaks -v "$scn"
[ $rc = 0 ] || { cat "$tmp/out" "$tmp/err"; fail "run: exit $rc, want 0"; }
# (The record's values in the leak check's jq: a jq start is most of a
# second here.)
assert_clean "$tmp/out" "$tmp/err" "run on rxe0" \
	why='.qp_counters["rxe0/1"].skipped // ""' qpc='.qp_counters' \
	ports='.qp_counters | keys' \
	bound='.qp_counters["rxe0/1"] | has("bound")' \
	deltas='[.steps[] | select(.figures.qp_counters)] | length' \
	errno='.qp_counters["rxe0/1"].errno'
[ -n "$why" ] || fail "no skip reason for rxe0/1: $qpc"
case $why in
*RDMA_NLDEV_CMD_STAT_SET*) ;;
*) fail "the skip does not name the request: $why" ;;
esac
[ "$ports" = '["rxe0/1"]' ] || fail "qp_counters has other ports: $qpc"
[ "$bound" = false ] || fail "rxe0/1 says it bound: $qpc"
[ "$deltas" = 0 ] || fail "a step has per-QP deltas on rxe"
has "-v line" "$tmp/out" "^qp counters: rxe0/1: none bound: "
ok "rxe0/1 skipped ($errno): $why; passed, no leaks"

# 2. Without -v the skip is in the record only.
run_scn "$tmp/out" "$tmp/err" --check-leaks "$scn"
[ $rc = 0 ] || { cat "$tmp/out" "$tmp/err"; fail "quiet run: exit $rc"; }
grep -q '^qp counters:' "$tmp/out" && fail "the skip is shown without -v"
[ -n "$(rec -r '.qp_counters["rxe0/1"].skipped // empty')" ] ||
	fail "no skip in the record without -v"
ok "without -v: the skip in the record, no line"

# 3. What iproute2 gets binding one of our QPs, while it exists; then a
# SIGINT mid-step: exit 130, torn down, nothing left.
run_bg ab --check-leaks "$hold"
qpn=$(rdma -j res show qp | jq -r --argjson p $pid \
	'.[] | select(.pid == $p and .type == "RC") | .lqpn' | head -n1)
[ -n "$qpn" ] || { kill -KILL $pid; fail "no RC QP of pid $pid in rdma res"; }
said=$(rdma statistic qp bind link rxe0/1 lqpn "$qpn" 2>&1)
brc=$?
# Its request's attributes, byte for byte, are the engine's (the unit
# test qp_counters.requests checks those against the same layout).
if command -v strace >/dev/null; then
	le() { local i; for i in $(seq 0 $(($2 - 1))); do
		printf '\\x%02x' $((($1 >> (8 * i)) & 255)); done; }
	a32() { printf '\\x08\\x00'; le "$1" 2; le "$2" 4; }
	idx=$(rdma -j dev show rxe0 | jq -r '.[0].ifindex')
	want="$(a32 74 2)$(a32 75 19)$(a32 1 "$idx")$(a32 3 1)$(a32 21 "$qpn")"
	line=$(strace -e trace=sendto -xx -s 256 rdma statistic qp bind \
		link rxe0/1 lqpn "$qpn" 2>&1 | grep -m1 'nlmsg_type=0x1410')
	got=$(sed -n 's/.*}, "\([^"]*\)".*/\1/p' <<<"$line")
	[ "$got" = "$want" ] || { kill -KILL $pid; fail "iproute2's bind: $line, want $want"; }
	ok "iproute2's bind request has the engine's attributes: $got"
fi
kill -INT $pid
wait $pid
rc=$?
[ $brc != 0 ] || fail "rdma bound qp $qpn on rxe0/1: $said"
[ $rc = 130 ] || { cat "$tmp/out" "$tmp/err"; fail "SIGINT: exit $rc"; }
grep -q '^leaks: none' "$tmp/out" || { cat "$tmp/out" "$tmp/err"; fail "SIGINT: leaks"; }
[ "$(jq -r '.qp_counters["rxe0/1"].errno' "$tmp/rec.json")" = "$errno" ] ||
	fail "the held run's errno is not $errno: $(jq -c .qp_counters "$tmp/rec.json")"
ok "rdma statistic qp bind link rxe0/1 lqpn $qpn: '$said' (the engine: $errno); SIGINT: 130, no leaks"
