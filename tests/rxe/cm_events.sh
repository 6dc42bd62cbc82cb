#!/bin/bash
# Inside the Soft-RoCE VM: rdma_cm events come through the step loops.
# A connection via rdma_cm comes up and is torn down cleanly; then rxe0 is
# deleted while a sleep step holds the connection: librdmacm delivers
# RDMA_CM_EVENT_DEVICE_REMOVAL on every cm id, the first fails the step
# (named, at its FILE:LINE:COL), each is printed as an `event` line, and
# teardown neither calls rdma_disconnect() on the ids the kernel closed
# nor waits for a DISCONNECTED that cannot come.  rxe0 is added back and
# works.
#
# What rxe on the 6.1 kernel does on `rdma link delete rxe0` while a
# process holds it: the cm ids get DEVICE_REMOVAL at once; the verbs
# context gets no IBV_EVENT_DEVICE_FATAL (rxe cannot disassociate a
# context), so the rdma_cm event is the only one and the test is
# deterministic; the unregistration waits until the process has exited
# (librdmacm keeps a context of its own open until then), and the RDMA
# netlink no longer lists the dying device, so --check-leaks can ask no
# device: asserted as such, not taken as proof of anything.
set -u
rdmascn=$1
scn=$(dirname "$0")/scn/hold_cm.yaml
. "$(dirname "$0")/lib.sh"

# Where the sleep step is: FILE:LINE:COL of its type key.
line=$(grep -n -- '- sleep:' "$scn" | cut -d: -f1)
col=$(($(sed -n "${line}p" "$scn" | sed 's/sleep:.*//' | wc -c)))
loc="hold_cm.yaml:$line:$col"

# rxe0 up on veth0 with its RoCE v2 GID, as rdmascn-softroce sets it up.
wait_rxe0() {
	for _ in $(seq 100); do
		[ -e /sys/class/infiniband/rxe0/ports/1/gids/1 ] &&
		grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null &&
		[ "$(cat /sys/class/infiniband/rxe0/ports/1/gids/1 2>/dev/null)" != 0000:0000:0000:0000:0000:0000:0000:0000 ] &&
		return 0
		sleep 0.05
	done
	return 1
}

# 1. Nothing happens during the step: it passes, the connection is torn
# down (DREQ, DISCONNECTED, DREP, DISCONNECTED), nothing leaked.
expect "rdma_cm connection" 0 --set hold_ms=300 "$scn"
has "rdma_cm connection" "$tmp/out" "^created +7 connection 'link' +via rdma_cm .* RTS .* RTS"
has "rdma_cm connection" "$tmp/out" "^step 1 +sleep +'hold' +passed"
ok "rdma_cm connection: up, a quiet step, torn down, no leaks"

# 2. The device goes during the step.
run_bg link -v --check-leaks --set hold_ms=30000 --set async=on "$scn"
t0=$(date +%s%N)
rdma link delete rxe0 >"$tmp/del" 2>&1 &
dpid=$!
wait $pid
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
wait $dpid
drc=$?
rdma link add rxe0 type rxe netdev veth0 || fail "could not add rxe0 back"
wait_rxe0 || fail "rxe0 did not come back ACTIVE with its GID"
[ $drc = 0 ] || { cat "$tmp/del"; fail "rdma link delete rxe0: exit $drc"; }

what="device removal"
[ $rc = 1 ] || { cat "$tmp/out" "$tmp/err"; fail "$what: exit $rc, want 1"; }
slow_within $ms 10000 ||
	{ cat "$tmp/out" "$tmp/err"; fail "$what: took $ms ms to end, $slow_said ms"; }
ids="(listen_id \(b's side, listening\)|a_id \(a's side, qp 'a'\)|b_id \(b's side, qp 'b'\))"
has "$what" "$tmp/err" "^[^ ]*$loc: step 1 \(sleep\) 'hold': rdma_cm event RDMA_CM_EVENT_DEVICE_REMOVAL on $ids of connection 'link'\$"
has "$what" "$tmp/out" "^step 1 +sleep +'hold' +failed .*: rdma_cm event RDMA_CM_EVENT_DEVICE_REMOVAL on $ids of connection 'link'\$"
has "$what" "$tmp/out" "^event +RDMA_CM_EVENT_DEVICE_REMOVAL on $ids of connection 'link'\$"
# The created objects were destroyed in exact reverse ...
if [ "$(created "$tmp/out" | tac)" != "$(destroyed "$tmp/out")" ]; then
	echo "--- created:"; created "$tmp/out"
	echo "--- destroyed:"; destroyed "$tmp/out"
	fail "$what: teardown is not the reverse of creation"
fi
# ... without an error: stderr has the step's failure, the calls -v
# traces and the leak check's note, nothing else.
others=$(grep -v -e "^[^ ]*$loc: step 1 (sleep) 'hold': " -e '^  \[[0-9]*\] ' \
	-e '^       [a-z_]*(' -e '^rdmascn: --check-leaks: ' "$tmp/err")
[ -z "$others" ] || { cat "$tmp/err"; fail "$what: teardown reported: $others"; }
# The kernel closed the ids: no rdma_disconnect() on them, and so no
# wait for DISCONNECTED (each up to 1 s).
if grep -q 'rdma_disconnect(' "$tmp/err"; then
	grep -e 'rdma_' "$tmp/err"
	fail "$what: teardown called rdma_disconnect() on an id the device removal closed"
fi
grep -q 'rdma_destroy_id(id=a_id)' "$tmp/err" || { cat "$tmp/err"; fail "$what: the cm ids were not destroyed"; }
# The leak check could see no device: the removed one is not listed any
# more and the new rxe0 cannot exist before this process ended.
has "$what" "$tmp/err" "^rdmascn: --check-leaks: 0 device\(s\) asked"
has "$what" "$tmp/out" "^leaks: not checked \(no RDMA device left to ask\)$"
ok "rdma link delete rxe0 during the step: $(grep -c '^event *RDMA_CM_EVENT_DEVICE_REMOVAL' "$tmp/out") DEVICE_REMOVAL event(s), step failed at $loc, exit 1 after $ms ms ($slow_said ms), torn down in reverse, no rdma_disconnect, leak check had no device to ask"

# 3. rxe0 is back: a connection via rdma_cm works on it, nothing leaked.
expect "rdma_cm after re-adding rxe0" 0 --set hold_ms=300 "$scn"
ok "rxe0 added back: an rdma_cm connection comes up and goes down cleanly"
