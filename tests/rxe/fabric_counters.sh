#!/bin/bash
# Inside the Soft-RoCE VM: the port counters around each step
# (scenarios/fabric/counters.yaml), rxe_a -> rxe_b over the veth pair of
# lib.sh's veth_rxe_up.  The send stream's record says the sender's
# rdma_sends and the receiver's rdma_recvs moved by the iterations, the
# sender's sent_pkts by at least that, no error counter moved, the verify
# step read none, and the run's totals are at the root; the text prints
# no counter line (none of the errors moved), --counters=all prints the
# ones that moved, --counters=off records none (and fails the gates); on
# rxe0 in loopback both sides' counts land on rxe0/1.  Every record is
# checked against the schema when the test ends.  Last, the cost: a short
# run with counters against one without.
#
#   fabric_counters.sh RDMASCN SCENARIOS
set -u
rdmascn=$1 scn=$2
. "$(dirname "$0")/lib.sh"
trap 'st_=$?; [ "$BASHPID" = $$ ] || exit $st_; status $st_; veth_rxe_down; records_ok; rc_=$?; rm -rf "$tmp"; exit $rc_' EXIT
f=$scn/fabric/counters.yaml
iters=500
# What the text report calls an error counter (exec/counters.c).
errs='(^|_)(err|discard)|^(duplicate_request|out_of_seq_request|out_of_sequence|link_downed|out_of_buffer|np_cnp_sent|rp_cnp_handled|np_ecn_marked_roce_packets|VL15_dropped)$'

veth_rxe_up || fail "could not set up the veth pair and rxe_a, rxe_b"

expect "counters.yaml rxe_a -> rxe_b" 0 "$f" --set iters=$iters
# One jq for the record: sends recvs sent_pkts error-sum verify-has root.
got=$(rec --arg e "$errs" '
	.steps[0].figures.counters as $c |
	[$c["rxe_a/1"].rdma_sends, $c["rxe_b/1"].rdma_recvs,
	 $c["rxe_a/1"].sent_pkts,
	 ([$c[] | to_entries[] | select(.key | test($e)) | .value] | add),
	 (.steps[1].figures.counters != null),
	 .counters["rxe_a/1"].rdma_sends, .counters["rxe_b/1"].rdma_recvs,
	 ($c | keys | join(","))] | map(tostring) | join(" ")')
read -r sends recvs pkts errsum verify_has root_sends root_recvs keys <<<"$got"
[ "$sends" = $iters ] && [ "$recvs" = $iters ] ||
	fail "rdma_sends $sends, rdma_recvs $recvs, want $iters each: $got"
[ "$pkts" -ge $iters ] 2>/dev/null || fail "sent_pkts $pkts < $iters: $got"
[ "$errsum" = 0 ] || fail "error counters moved: $(rec -c '.steps[0].figures.counters')"
[ "$verify_has" = false ] || fail "the verify step read counters"
[ "$root_sends" -ge $iters ] 2>/dev/null && [ "$root_recvs" -ge $iters ] 2>/dev/null ||
	fail "root counters: rdma_sends $root_sends, rdma_recvs $root_recvs"
[ "$keys" = "rxe_a/1,rxe_b/1" ] || fail "counted at $keys, want rxe_a/1,rxe_b/1"
grep -Eq '^(  counter |counter   run )' "$tmp/out" && { cat "$tmp/out"; fail "the text printed counters, none of the errors moved"; }
ok "rxe_a -> rxe_b: rdma_sends $sends, rdma_recvs $recvs, sent_pkts $pkts, errors 0, at $keys; run's at the root; no counter line"

run_scn "$tmp/out" "$tmp/err" --counters=all "$f" --set iters=$iters
[ $rc = 0 ] || { cat "$tmp/out" "$tmp/err"; fail "--counters=all: exit $rc"; }
has "--counters=all" "$tmp/out" "^  counter rxe_a/1 rdma_sends $iters$"
has "--counters=all" "$tmp/out" "^  counter rxe_b/1 rdma_recvs $iters$"
has "--counters=all" "$tmp/out" "^counter   run rxe_a/1 rdma_sends [0-9]+$"
ok "--counters=all: $(grep -c counter "$tmp/out") counter lines, e.g. $(grep -m1 'rdma_sends' "$tmp/out")"

# Off: nothing read, so the stream's counter gates are not measured, a
# failure that says why.
run_scn "$tmp/out" "$tmp/err" --counters=off "$f" --set iters=$iters
[ $rc = 1 ] || { cat "$tmp/out" "$tmp/err"; fail "--counters=off: exit $rc, want 1"; }
has "--counters=off" "$tmp/err" "gate: counters.rdma_sends: not measured: no counters were read \(none are with --counters=off\)"
n=$(rec '[paths | select(.[-1] == "counters")] | length')
[ "$n" = 0 ] || fail "--counters=off: $n counters in the record"
ok "--counters=off: no counters in the record; its gates not measured, exit 1"

veth_rxe_down
# Loopback on one device: the sends and the receives both count on
# rxe0/1; nothing crosses a netdev, so netem could not touch it.
expect "counters.yaml on rxe0 alone" 0 "$f" --set a=rxe0 --set b=rxe0 --set iters=$iters
got=$(rec '.steps[0].figures.counters | [.["rxe0/1"].rdma_sends,
	.["rxe0/1"].rdma_recvs, .["rxe0/1"].sent_pkts, .["rxe0/1"].rcvd_pkts,
	(keys | join(","))] | map(tostring) | join(" ")')
read -r sends recvs pkts rpkts keys <<<"$got"
[ "$sends" = $iters ] && [ "$recvs" = $iters ] && [ "$keys" = rxe0/1 ] ||
	fail "rxe0 loopback: $got"
ok "rxe0 loopback: rdma_sends $sends, rdma_recvs $recvs, sent_pkts $pkts, rcvd_pkts $rpkts at $keys"

# The cost: a run pays a snapshot's reads twice per step that reaches a
# QP and once more for the run, and waits out the lifespan after a step
# shorter than that (a 10-send stream is).
life=$(cat /sys/class/infiniband/rxe0/ports/1/hw_counters/lifespan)
for c in errors off; do
	run_scn "$tmp/out" "$tmp/err" --counters=$c "$f" --set a=rxe0 --set b=rxe0 --set iters=10
	# Off: the same run, its counter gates not measured (exit 1).
	[ $rc = "$([ $c = off ] && echo 1 || echo 0)" ] ||
		fail "--counters=$c, 10 iterations: exit $rc"
	eval "ms_$c=$(rec '.durations_ms.steps * 10 | round / 10')"
done
ok "cost: lifespan $life ms; the steps phase of a 10-send run took ${ms_errors} ms with counters, ${ms_off} ms without"
