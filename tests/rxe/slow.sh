# Wall-clock bounds that hold on the code, not on the host's load.
# shellcheck shell=bash
#
# A device test's "the nodes ended within 15 s" was set on a quiet host.
# Under TCG, on a host shared with other work, every part of a run is
# slower by about as much as the host is loaded, and such a bound failed
# on the load (19 s seen at a load of 10), not on the code.  So a bound
# is scaled by how slow this VM is when the time is taken: the time of a
# reference run (a loopback rc_pingpong of 20 round trips under
# --check-leaks: a process start, verbs on rxe, a teardown and a leak
# check, what the bounded runs do) against its time on a quiet host,
# never below 1.  On a quiet host a bound is today's; a run that hangs,
# or waits for a deadline several times its bound, still fails.
#
# The factor is measured only where a bound needs it, as each reference
# run costs a second or more under TCG: before a run whose deadline it
# scales (slow_bound), and once a time is over its bound (slow_within),
# when the load is still the one the time was taken under.  It is the
# largest measured in the test: the load that slowed one run may have
# gone by the time the next one is measured.
#
# Sourced by tests/rxe/lib.sh; tests/cli/slow_bound.sh checks the
# arithmetic on the host with a stand-in reference run.

# The reference run's median time on a quiet host, in ms (one VM on the
# 2-core machine; the fastest of nine runs at a host load of 9, 1050 ms,
# rounded down: no quiet host was to be had when it was set).
slow_quiet_ms=${slow_quiet_ms:-1000}
# The slowness measured so far, in percent (100: as fast as quiet), and
# what the last slow_within or slow_bound said of its bound.
slow_pct=100
slow_said=
# The last reference run's median (ms), and slow_bound's bound.
slow_ref_ms=
slow_b=
# The reference run; a test may set its own (an array).
if [ -z "${slow_ref+x}" ]; then
	slow_ref=("${rdmascn:-rdmascn}" run -q --check-leaks --set iters=20
		  "$(dirname "${BASH_SOURCE[0]}")/../../scenarios/rc_pingpong.yaml")
fi

# slow_of VAR MS QUIET: how much slower MS is than QUIET, in percent,
# rounded up, at least 100, into VAR (no $(...): a fork each).
slow_of() {
	local p=$((($2 * 100 + $3 - 1) / $3))
	[ $p -ge 100 ] || p=100
	printf -v "$1" '%d' $p
}
# slow_scale VAR BASE PCT: BASE scaled by PCT percent, rounded up, into
# VAR; never under BASE.
slow_scale() {
	local p=$3
	[ "$p" -ge 100 ] || p=100
	printf -v "$1" '%d' $((($2 * p + 99) / 100))
}
# slow_measure: the median of three reference runs, in slow_ref_ms, its
# slowness into slow_pct when larger; returns 1 (slow_pct kept) when a
# run fails.  $EPOCHREALTIME, not date: a process start is what is slow
# under TCG.
slow_measure() {
	local i t0 t ms=() x y z
	for i in 1 2 3; do
		t0=${EPOCHREALTIME/./}
		"${slow_ref[@]}" >/dev/null 2>&1 || return 1
		t=${EPOCHREALTIME/./}
		ms+=($(((t - t0) / 1000)))
	done
	x=${ms[0]} y=${ms[1]} z=${ms[2]}
	# The median of three.
	if [ $x -gt $y ]; then i=$x x=$y y=$i; fi
	if [ $y -gt $z ]; then y=$z; fi
	if [ $x -gt $y ]; then y=$x; fi
	slow_ref_ms=$y
	slow_of i "$y" "$slow_quiet_ms"
	[ "$i" -le "$slow_pct" ] || slow_pct=$i
}
# slow_said_of BASE B: slow_said for BASE scaled to B.
slow_said_of() {
	printf -v slow_said '%s (%s x %d.%02d: reference run %s ms, %s ms quiet)' \
		"$2" "$1" $((slow_pct / 100)) $((slow_pct % 100)) \
		"$slow_ref_ms" "$slow_quiet_ms"
}
# slow_bound BASE: BASE (a deadline, in any unit) scaled by the slowness
# measured now, in slow_b; slow_said says how.
slow_bound() {
	if ! slow_measure; then
		slow_b=$1
		slow_said="$1 (the reference run failed: not scaled)"
		return
	fi
	slow_scale slow_b "$1" "$slow_pct"
	slow_said_of "$1" "$slow_b"
}
# slow_took WHAT MS AT_LEAST OVER: a step's time MS (a text report's
# "123.4 ms") is at least AT_LEAST ms (a timer does not fire early) and
# past it by under OVER ms, OVER scaled as slow_within does (a timer
# fires late on a loaded host); slow_said says which bound held.
slow_took() {
	local ms=${2%%.*}
	[[ $ms =~ ^[0-9]+$ ]] || { slow_said="no time: '$2'"; return 1; }
	if [ "$ms" -lt "$3" ]; then
		slow_said="$2 ms is under $3 ms"
		return 1
	fi
	slow_within $((ms - $3)) "$4" || { slow_said="$1 past $3 ms by $((ms - $3)) ms, $slow_said"; return 1; }
	slow_said="$1 past $3 ms by $((ms - $3)) ms, $slow_said"
}
# slow_within T BASE: T (a time) is under the bound BASE (in T's unit),
# or, over it, under BASE scaled by the slowness measured now.  Either
# way slow_said says which bound, for the check's message.
slow_within() {
	local t=$1 base=$2 b
	if [ "$t" -lt "$base" ]; then
		slow_said="under $base"
		return 0
	fi
	if ! slow_measure; then
		slow_said="not under $base (the reference run failed: not scaled)"
		return 1
	fi
	slow_scale b "$base" "$slow_pct"
	slow_said_of "$base" "$b"
	if [ "$t" -lt "$b" ]; then
		slow_said="under $slow_said"
		return 0
	fi
	slow_said="not under $slow_said"
	return 1
}
