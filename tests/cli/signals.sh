#!/bin/bash
# SIGINT and SIGTERM without a device (dry runs): a signal during a later
# cell of a matrix stops it (the flag that ignores signals belongs to one
# teardown, not to the process), with exit 128+N, the cells never reached
# counted and listed as "not run" in the text, --json and --junit; with
# --jobs the cells' processes are stopped too; a --json into a FIFO
# nobody reads ends on SIGTERM, not only on SIGKILL.
#   signals.sh RDMASCN SCENARIO_DIR SCHEMA RECORD_CHECK XSD JUNIT_CHECK
set -u
rdmascn=$1 dir=$2 schema=$3 rcheck=$4 xsd=$5 jcheck=$6
tmp=$(mktemp -d)
pids=()
# A subshell (a background one killed early) inherits this trap and
# would run it: only the script itself cleans up.
trap '[ "$BASHPID" = $$ ] || exit; for p in "${pids[@]}"; do kill -KILL $p 2>/dev/null; done; rm -rf "$tmp"' EXIT
fails=0 n=0
bad() { fails=$((fails + 1)); echo "FAIL: $*"; }

# A matrix of DIMS dimensions of 100 values each (10^DIMS cells).
matrix() {
	local vals dims=$1 d
	vals=$(seq -s, 0 99)
	{
		echo "scenario: big"
		echo "params: {$(for d in $(seq 1 "$dims"); do printf 'p%d: 0, ' $d; done | sed 's/, $//')}"
		echo "matrix:"
		for d in $(seq 1 "$dims"); do echo "  p$d: [$vals]"; done
		echo "contexts: [{id: ctx, device: any}]"
		# Enough in each cell that the matrix takes seconds, not
		# less than the signal's wait (about 10 s on a quiet host).
		echo "pds: [{id: pd, context: ctx, count: 50}]"
	} >"$2"
}
matrix 2 "$tmp/mid.yaml"

# killed_after WHEN SIG ARGS...: run rdmascn ARGS in the background,
# send SIG once WHEN holds (a command; tried for up to 20 s) and 0.3 s
# more; $rc its exit code, $ms how long it took to end after the signal
# (it is killed after 10 s).
killed_after() {
	local when=$1 sig=$2 t0 pid i
	shift 2
	"$rdmascn" "$@" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	pids+=($pid)
	for i in $(seq 200); do eval "$when" && break; sleep 0.1; done
	sleep 0.3
	t0=$(date +%s%N)
	kill -"$sig" $pid
	( sleep 10; kill -KILL $pid 2>/dev/null ) &
	local watchdog=$!
	wait $pid
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	kill $watchdog 2>/dev/null
	wait $watchdog 2>/dev/null
}

# 1. 10^4 dry-run cells (the most a matrix may have): SIGINT after the
# first cells stops the matrix.  (Its table is most of the time it takes
# to end; the bounds allow a loaded host.)
n=$((n + 1))
killed_after "grep -q '^cell 3 of' $tmp/out" INT run -n "$tmp/mid.yaml"
unrun=$(grep -c '^  .* not run$' "$tmp/out")
[ $rc = 130 ] && [ $ms -lt 8000 ] && [ "$unrun" -gt 0 ] &&
	grep -q "^matrix: 10000 cells, $unrun not run$" "$tmp/out" &&
	grep -q '^verdict: interrupted (exit 130)$' "$tmp/out" &&
	grep -q 'interrupted by SIGINT' "$tmp/err" ||
	bad "SIGINT in a 10^4-cell matrix: exit $rc after $ms ms, $unrun not run, $(head -1 "$tmp/out")"

# 2. The same with --json and --junit, serial and with --jobs: every cell
# is in both, those not reached as "not run"; the children end too.
for jobs in 1 3; do
	n=$((n + 1))
	killed_after "grep -q '^cell 3 of' $tmp/out" TERM run -n --jobs $jobs --json "$tmp/r.json" \
		--junit "$tmp/r.xml" "$tmp/mid.yaml"
	unrun=$(jq '[.cells[] | select(.verdict == "not run")] | length' "$tmp/r.json")
	[ $rc = 143 ] && [ $ms -lt 8000 ] &&
		[ "$(jq '.cells | length' "$tmp/r.json")" = 10000 ] &&
		[ "$unrun" -gt 0 ] &&
		[ "$(jq .matrix.not_run "$tmp/r.json")" = "$unrun" ] &&
		grep -q "^matrix: 10000 cells, $unrun not run$" "$tmp/out" &&
		[ "$(xmllint --xpath 'count(//testcase[@name="cell"]/skipped)' "$tmp/r.xml")" = "$unrun" ] &&
		/usr/bin/python3 "$rcheck" "$schema" "$tmp/r.json" 143 &&
		/usr/bin/python3 "$jcheck" "$xsd" "$tmp/r.xml" "$tmp/r.json" &&
		! pgrep -P $$ -x rdmascn >/dev/null ||
		bad "SIGTERM, --jobs $jobs: exit $rc after $ms ms, $unrun not run"
done

# 3. --json into a FIFO nobody opens: the run is done, the open blocks;
# SIGTERM ends it, 143.
n=$((n + 1))
mkfifo "$tmp/fifo"
killed_after "grep -q '^dry run done' $tmp/out" TERM run -n --json "$tmp/fifo" \
	"$dir/rc_write.yaml"
[ $rc = 143 ] && [ $ms -lt 2000 ] ||
	bad "--json FIFO without a reader, SIGTERM: exit $rc after $ms ms"

# 4. ... and one opened but never read: the write blocks once the pipe
# is full (rc_many's record is most of a megabyte); SIGINT ends it, 130.
n=$((n + 1))
exec 7<>"$tmp/fifo"   # a reader that never reads
killed_after "grep -q '^verdict\|dry run done' $tmp/out" INT run -n \
	--json "$tmp/fifo" "$dir/rc_many.yaml"
exec 7>&-
[ $rc = 130 ] && [ $ms -lt 2000 ] ||
	bad "--json FIFO never read, SIGINT: exit $rc after $ms ms"

echo "$((n - fails)) of $n signal checks passed"
[ $fails = 0 ]
