#!/bin/bash
# Inside the Soft-RoCE VM: SIGINT and SIGTERM at several points of a run
# end it with a clean teardown (the reverse of creation, nothing leaked)
# and exit 130 / 143; a second SIGINT during teardown does not stop it.
# A port going down during a step fails it through its async event.
set -u
rdmascn=$1
scn=$(dirname "$0")/scn/hold.yaml
. "$(dirname "$0")/lib.sh"

check_interrupted() {
	local what=$1 want=$2 sig=$3
	[ $rc = "$want" ] || { cat "$tmp/out" "$tmp/err"; fail "$what: exit $rc, want $want"; }
	grep -q "interrupted by $sig; torn down" "$tmp/err" || { cat "$tmp/err"; fail "$what: no interruption message"; }
	assert_clean "$tmp/out" "$tmp/err" "$what"
}

# 1. While building: the signal is raised just before call N.
"$rdmascn" run --dry-run "$scn" >"$tmp/dry" || fail "dry run exit $?"
calls=$(grep -c '^  \[[0-9]*\] ' "$tmp/dry")
for n in 1 2 $((calls / 2)) "$calls"; do
	RDMASCN_FAULT=$n:SIGINT run_scn "$tmp/out" "$tmp/err" --check-leaks "$scn"
	check_interrupted "SIGINT before call $n" 130 SIGINT
	ok "SIGINT before call $n of $calls: $(created "$tmp/out" | wc -l) created, all destroyed, exit 130"
done
RDMASCN_FAULT=3:SIGTERM run_scn "$tmp/out" "$tmp/err" --check-leaks "$scn"
check_interrupted "SIGTERM before call 3" 143 SIGTERM
ok "SIGTERM before call 3: exit 143"

# 2. From outside, during a step: kill once everything exists.
for sig in INT TERM; do
	run_bg ab --check-leaks "$scn"
	t0=$(date +%s%N)
	kill -$sig $pid
	wait $pid
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	want=$([ $sig = INT ] && echo 130 || echo 143)
	check_interrupted "SIG$sig during the sleep step" "$want" "SIG$sig"
	slow_within $ms 10000 || fail "SIG$sig: took $ms ms to end, $slow_said ms"
	ok "SIG$sig during the step: exit $want after $ms ms ($slow_said ms), torn down, no leaks"
done

# 3. A second SIGINT during teardown is noted, not obeyed.
RDMASCN_FAULT=$calls:SIGINT,ibv_destroy_qp:SIGINT run_scn "$tmp/out" "$tmp/err" --check-leaks "$scn"
check_interrupted "SIGINT, then SIGINT during teardown" 130 SIGINT
grep -q 'tearing down; this signal does not stop that' "$tmp/err" ||
	{ cat "$tmp/err"; fail "the second SIGINT was not noted"; }
ok "second SIGINT during teardown: noted, teardown finished, exit 130"

# 4. Not a signal but the same path: the device's asynchronous events
# come through the step's loop, and a port going down fails the step,
# named, with a clean teardown.
run_bg ab --check-leaks --set hold_ms=20000 "$scn"
ip link set veth0 down
wait $pid
rc=$?
ip link set veth0 up
[ $rc = 1 ] || { cat "$tmp/out" "$tmp/err"; fail "port down: exit $rc, want 1"; }
grep -q "hold.yaml:[0-9]*:[0-9]*: step 1 (sleep) 'hold': asynchronous event port error on port 1 of context 'ctx'" "$tmp/err" ||
	{ cat "$tmp/err"; fail "port down: the event is not named"; }
assert_clean "$tmp/out" "$tmp/err" "port down"
ok "port down during a step: IBV_EVENT_PORT_ERR failed it, torn down, no leaks"
