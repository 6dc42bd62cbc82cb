#!/bin/bash
# Inside the Soft-RoCE VM, on the veth wire (lib.sh's veth_rxe_up: rxe_a
# on veth2, rxe_b on veth3): the impair and link steps.  netem really
# makes rxe_a retransmit; loss, blackhole and link_flap pass as their
# files say, with --check-leaks and their records; no netem is left on
# veth2 after any run, a SIGINT or SIGTERM mid-impairment included; the
# skip without CAP_NET_ADMIN; a root qdisc that is not the kernel's
# default is refused, named.
set -u
rdmascn=$1
fab=$2/fabric
. "$(dirname "$0")/lib.sh"

t_all=$SECONDS
# A subshell (a background one killed early) inherits this trap and
# would run it: only the script itself cleans up.
trap 'st_=$?; [ "$BASHPID" = $$ ] || exit $st_; status $st_; veth_rxe_down; records_ok; rc_=$?; rm -rf "$tmp"; exit $rc_' EXIT
veth_rxe_up || fail "could not set up the veth pair and rxe_a, rxe_b"

# No netem on veth2 now: a run left none.
no_netem() {
	if tc qdisc show dev veth2 | grep -q netem; then
		tc qdisc show dev veth2
		fail "$1: a netem is left on veth2"
	fi
}
hw() { cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2"; }

# 1. loss: 2% on veth2; the stream passes, rxe_a retransmitted.
retry0=$(hw rxe_a completer_retry_err)
expect "loss.yaml" 0 "$fab/loss.yaml"
no_netem "loss.yaml"
retries=$(($(hw rxe_a completer_retry_err) - retry0))
[ $retries -gt 0 ] || fail "loss.yaml: rxe_a's completer_retry_err did not move under 2% loss"
[ "$(rec '[.steps[] | select(.id == "lossy") | .figures |
	   .wire.netdev == "veth2" and (.netem.loss_pct - 2 | fabs) < 0.001
	   and .netem.delay_ms == 0 and .transport_timeout == null] |
	  . == [true]')" = true ] ||
	fail "loss.yaml: the impair step's figures: $(rec -c '.steps[] | select(.id == "lossy")')"
ok "loss.yaml: 2% loss on veth2, the stream passed, completer_retry_err +$retries, no netem left"

# 2. blackhole: 100% loss, retry_cnt 1: the write ends in retry_exc_err,
# as expected, within about the transport timeout.
expect "blackhole.yaml" 0 "$fab/blackhole.yaml"
no_netem "blackhole.yaml"
[ "$(rec '[.steps[] | select(.id == "lost") | .outcome] == ["passed"]
	  and ([.steps[] | select(.id == "blackhole") |
		.figures.transport_timeout | .qp == "a" and .timeout == 14
		and .retry_cnt == 1 and .expected_ms > 0] | all)')" = true ] ||
	fail "blackhole.yaml: $(rec -c '.steps')"
exp_ms=$(rec '.steps[] | select(.id == "blackhole") | .figures.transport_timeout.expected_ms')
took=$(rec '.steps[] | select(.id == "lost") | .duration_ms')
ok "blackhole.yaml: retry_exc_err after $took ms (expected within ~$exp_ms ms), no netem left"

# 3. link_flap: both port events recorded as provoked, on ca (veth2's)
# and on cb (veth3's: the far end loses its carrier too, a moment
# later; each link step waits for both), a write after.  (rxe may say
# "active" twice: on the netdev's up, and again on its carrier's.)
expect "link_flap.yaml" 0 "$fab/link_flap.yaml"
[ "$(rec '[.events[] | select(.provoked) | "\(.context) \(.event) \(.step)"] |
	  unique == ["ca port active 2", "ca port error 1", "cb port active 2",
		   "cb port error 1"]')" = true ] ||
	fail "link_flap.yaml: the events: $(rec -c '.events')"
[ "$(cat /sys/class/net/veth2/operstate)" = up ] || fail "link_flap.yaml: veth2 is left $(cat /sys/class/net/veth2/operstate)"
ok "link_flap.yaml: port error and port active on ca and cb recorded in their steps, veth2 up, the write after passed"

# 4. For a time, every knob: what tc reads back is what the file asked
# (libnl's units), and it is gone after.
dur=$(dirname "$0")/scn/impair_duration.yaml
"$rdmascn" run --check-leaks --json "$tmp/rec.json" "$dur" >"$tmp/out" 2>"$tmp/err" &
pid=$!
q=
for i in $(seq 1 100); do
	q=$(tc qdisc show dev veth2 | grep "netem 5253:") && break
	sleep 0.05
done
wait $pid
rc=$?
[ $rc = 0 ] || { cat "$tmp/out" "$tmp/err"; fail "impair_duration: exit $rc"; }
keep_rec "$tmp/rec.json" 0 "impair_duration"
for want in "limit 500" "delay 10ms  1ms" "loss 1% 25%" "duplicate 0.5%" \
	    "reorder 5%" "corrupt 0.1%" "gap 2"; do
	case "$q" in *"$want"*) ;; *) fail "impair_duration: tc shows '$q', no '$want'" ;; esac
done
no_netem "impair_duration"
[ "$(rec '.steps[0].duration_ms >= 1500 and .steps[0].outcome == "passed"')" = true ] ||
	fail "impair_duration: $(rec -c '.steps[0]')"
ok "impair for 1500 ms: tc read back '$q', gone after"

# ... and SIGINT while it holds: removed by the step's stop.
rm -f "$tmp/rec.json"
"$rdmascn" run --check-leaks --json "$tmp/rec.json" "$dur" --set ms=60000 \
	>"$tmp/out" 2>"$tmp/err" &
pid=$!
for i in $(seq 1 100); do
	tc qdisc show dev veth2 | grep -q "netem 5253:" && break
	sleep 0.05
done
tc qdisc show dev veth2 | grep -q "netem 5253:" ||
	{ kill -KILL $pid; fail "impair_duration: no netem 5253: within 5 s"; }
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || { cat "$tmp/out" "$tmp/err"; fail "SIGINT during duration_ms: exit $rc, want 130"; }
no_netem "SIGINT during duration_ms"
assert_clean "$tmp/out" "$tmp/err" "SIGINT during duration_ms"
ok "SIGINT during duration_ms 60000: exit 130, the netem gone"

# 5. A signal mid-impairment: the netem is on while the stream runs, and
# gone after the interrupted run, torn down cleanly.
for sig in INT TERM; do
	run_bg ab --check-leaks "$fab/loss.yaml" \
		--set iters=100000000
	tc qdisc show dev veth2 | grep -q "netem 5253:" ||
		{ kill -KILL $pid; tc qdisc show dev veth2; fail "SIG$sig: no netem 5253: on veth2 during the stream"; }
	kill -$sig $pid
	wait $pid
	rc=$?
	want=$([ $sig = INT ] && echo 130 || echo 143)
	[ $rc = "$want" ] || { cat "$tmp/out" "$tmp/err"; fail "SIG$sig mid-impairment: exit $rc, want $want"; }
	no_netem "SIG$sig mid-impairment"
	assert_clean "$tmp/out" "$tmp/err" "SIG$sig mid-impairment"
	ok "SIG$sig mid-impairment: exit $rc, the netem gone, torn down cleanly"
done

# 6. A nested step that fails, an impair step past its deadline: the
# netem is gone after either; a link left down is up after teardown.
sed 's/expect: retry_exc_err/expect: success/' "$fab/blackhole.yaml" >"$tmp/bh_fail.yaml"
run_scn "$tmp/out" "$tmp/err" --check-leaks "$tmp/bh_fail.yaml"
[ $rc = 1 ] || { cat "$tmp/out" "$tmp/err"; fail "blackhole expecting success: exit $rc, want 1"; }
grep -q "retry_exc_err" "$tmp/err" || { cat "$tmp/err"; fail "blackhole expecting success: retry_exc_err not named"; }
no_netem "blackhole expecting success"
assert_clean "$tmp/out" "$tmp/err" "blackhole expecting success"
sed 's/      loss: "${loss}"/      loss: "${loss}"\n      deadline_ms: 1500/' "$fab/loss.yaml" >"$tmp/loss_dl.yaml"
run_scn "$tmp/out" "$tmp/err" --check-leaks "$tmp/loss_dl.yaml" --set iters=100000000
[ $rc = 1 ] || { cat "$tmp/out" "$tmp/err"; fail "impair deadline: exit $rc, want 1"; }
grep -q "deadline 1500 ms passed" "$tmp/err" || { cat "$tmp/err"; fail "impair deadline: no deadline message"; }
no_netem "impair deadline"
assert_clean "$tmp/out" "$tmp/err" "impair deadline"
run_scn "$tmp/out" "$tmp/err" --check-leaks "$(dirname "$0")/scn/link_down.yaml"
[ $rc = 0 ] || { cat "$tmp/out" "$tmp/err"; fail "link left down: exit $rc"; }
[ "$(cat /sys/class/net/veth2/operstate)" = up ] ||
	fail "link left down: veth2 is $(cat /sys/class/net/veth2/operstate) after the run"
assert_clean "$tmp/out" "$tmp/err" "link left down"
for i in $(seq 1 100); do
	rdma link show rxe_a/1 | grep -q "state ACTIVE" && break
	sleep 0.05
done
ok "a failed nested step (exit 1) and an impair deadline (exit 1) leave no netem; a link left down is up after teardown"

# 7. Without CAP_NET_ADMIN the impair step is skipped (77), naming it.
setpriv --bounding-set=-net_admin --inh-caps=-net_admin \
	"$rdmascn" run "$fab/loss.yaml" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 77 ] || { cat "$tmp/out" "$tmp/err"; fail "no CAP_NET_ADMIN: exit $rc, want 77"; }
grep -q "loss.yaml:[0-9]*:[0-9]*: .*needs CAP_NET_ADMIN .*(netdev veth2 of rxe_a)" "$tmp/err" ||
	{ cat "$tmp/err"; fail "no CAP_NET_ADMIN: the skip does not name it"; }
no_netem "no CAP_NET_ADMIN"
ok "no CAP_NET_ADMIN: skipped (77): $(grep -m1 CAP_NET_ADMIN "$tmp/err")"

# 8. A root qdisc that is not the kernel's default is not replaced: the
# step cannot run (3), naming it; ours left by a killed run, likewise.
tc qdisc add dev veth2 root handle 1: prio || fail "tc qdisc add prio"
run_scn "$tmp/out" "$tmp/err" "$fab/loss.yaml"
[ $rc = 3 ] || { cat "$tmp/out" "$tmp/err"; fail "foreign root qdisc: exit $rc, want 3"; }
grep -q "veth2 has root qdisc prio 1: of someone else's" "$tmp/err" ||
	{ cat "$tmp/err"; fail "foreign root qdisc: not named"; }
tc qdisc show dev veth2 | grep -q "qdisc prio 1: root" || fail "foreign root qdisc: it was changed"
tc qdisc del dev veth2 root
tc qdisc add dev veth2 root handle 5253: netem loss 1% || fail "tc qdisc add netem"
run_scn "$tmp/out" "$tmp/err" "$fab/loss.yaml"
[ $rc = 3 ] || { cat "$tmp/out" "$tmp/err"; fail "leftover netem: exit $rc, want 3"; }
grep -q "veth2 already has a netem of rdmascn's (handle 5253:)" "$tmp/err" ||
	{ cat "$tmp/err"; fail "leftover netem: not named"; }
tc qdisc del dev veth2 root
ok "a prio root qdisc and a leftover netem 5253: are refused (exit 3), named, left alone"

ok "impair and link on the veth wire: $((SECONDS - t_all)) s"
