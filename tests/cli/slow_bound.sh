#!/bin/bash
# The device tests' wall-clock bounds (tests/rxe/slow.sh), on the host
# with a stand-in reference run (a sleep) against a quiet time of 100 ms:
# a time under its bound passes without a reference run; one over it
# passes when the reference run says the host is that much slower, and
# fails when it is over even the scaled bound (a hang still fails), or
# when the reference run fails; the factor is never under 1, rounds up,
# and never falls within a test; a step's reported time is at least its
# own and past it by under a bound so scaled.
#
#   slow_bound.sh RXE-DIR
set -u
rxe=$(cd "$1" && pwd)
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
# is WHAT GOT WANT
is() {
	[ "$2" = "$3" ] || bad "$1: got '$2', want '$3'"
}

slow_quiet_ms=100
slow_ref=(false)
. "$rxe/slow.sh"

# The arithmetic: percent rounded up, at least 100; a bound rounded up,
# never under its base.
slow_of v 50 100; is "slow_of 50 100" "$v" 100
slow_of v 100 100; is "slow_of 100 100" "$v" 100
slow_of v 250 100; is "slow_of 250 100" "$v" 250
slow_of v 1001 1000; is "slow_of 1001 1000" "$v" 101
slow_scale v 15 100; is "slow_scale 15 100" "$v" 15
slow_scale v 15 250; is "slow_scale 15 250" "$v" 38
slow_scale v 15 40; is "slow_scale 15 40" "$v" 15
slow_scale v 10000 137; is "slow_scale 10000 137" "$v" 13700

# Under its bound: no reference run (it would fail: false).
slow_within 14 15; is "14 s under 15" "$? $slow_said" "0 under 15"
is "no reference run under the bound" "$slow_pct $slow_ref_ms" "100 "

# A step's time: at least its own, past it by under the bound; a time
# under its own (a timer fired early) or none fails.
slow_took nap 250.3 200 100; is "a 200 ms sleep took 250.3" "$?" 0
slow_took nap 199.9 200 100; is "a 200 ms sleep took 199.9" "$?" 1
[[ $slow_said == *"under 200 ms"* ]] || bad "an early timer is not said: $slow_said"
slow_took nap '' 200 100; is "a step without a time" "$?" 1

# Over its bound with a failing reference run: fails, saying so.
slow_within 15 15; is "15 s, reference failing" "$?" 1
[[ $slow_said == *"reference run failed"* ]] ||
	bad "a failed reference run is not said: $slow_said"
slow_bound 10000; is "slow_bound, reference failing" "$slow_b" 10000

# A reference run 3x its quiet time (a 0.3 s sleep against 100 ms): 19
# s is under 15 x 3, 100 s is not, nor is 0 s under a bound of 0.
slow_ref=(sleep 0.3)
slow_within 19 15; is "19 s over 15, host 3x slow" "$?" 0
[ "$slow_pct" -ge 300 ] || bad "a 0.3 s reference against 100 ms: $slow_pct%"
[[ $slow_said == "under "*" (15 x "*"reference run "*" ms, 100 ms quiet)" ]] ||
	bad "the scaled bound is not said: $slow_said"
slow_within 100 15 && bad "100 s under 15 on a 3x slow host: $slow_said"
[[ $slow_said == "not under "* ]] || bad "the failed bound is not said: $slow_said"
slow_within 0 0 && bad "0 under 0: $slow_said"
slow_bound 10000
[ "$slow_b" -ge 30000 ] || bad "a 10 s deadline on a 3x slow host: $slow_b"
slow_took nap 450.0 200 100; is "a 200 ms sleep took 450 ms, host 3x slow" "$?" 0
slow_took nap 5000.0 200 100 && bad "a 200 ms sleep took 5 s on a 3x slow host: $slow_said"

# The factor never falls: a quick reference run after a slow one.
was=$slow_pct
slow_ref=(true)
slow_within 20 15
is "the factor after a quick reference run" "$slow_pct" "$was"

[ $fails = 0 ] || exit 1
echo "slow_bound: passed"
