# Shared by the device tests: run a scenario and read its report.
# shellcheck shell=bash
. "$(dirname "${BASH_SOURCE[0]}")/tap.sh"

# Scratch space for the reports, gone when the test ends.
tmp=$(mktemp -d)
mkdir "$tmp/recs"
trap 'records_ok; rc_=$?; rm -rf "$tmp"; exit $rc_' EXIT

# The run record's schema, and what checks a record against it and its
# promises (exit code, verdict, teardown the reverse of creation).
rec_schema=$(dirname "$0")/../../schemas/rdmascn-run.schema.json
rec_check=$(dirname "$0")/../schema/run_record.py
# The JUnit XSD, and what checks a JUnit file against it and its record.
junit_xsd=$(dirname "$0")/../junit/junit.xsd
junit_check=$(dirname "$0")/../junit/check.py

nrec=0
# run_scn OUT ERR ARGS...: rdmascn run ARGS, stdout to OUT, stderr to ERR,
# its record to $tmp/rec.json and its JUnit XML to $tmp/rec.xml (kept, to
# be checked when the test ends: one python under TCG takes seconds to
# start); sets $rc.
run_scn() {
	local out=$1 err=$2
	shift 2
	rm -f "$tmp/rec.json" "$tmp/rec.xml"
	"$rdmascn" run --json "$tmp/rec.json" --junit "$tmp/rec.xml" "$@" \
		>"$out" 2>"$err"
	rc=$?
	if [ -e "$tmp/rec.json" ]; then
		nrec=$((nrec + 1))
		cp "$tmp/rec.json" "$tmp/recs/$nrec.json"
		echo "$tmp/recs/$nrec.json:$rc run $*" >>"$tmp/recs/list"
		if [ -e "$tmp/rec.xml" ]; then
			cp "$tmp/rec.xml" "$tmp/recs/$nrec.xml"
			echo "$tmp/recs/$nrec.xml $tmp/recs/$nrec.json" \
				>>"$tmp/recs/junit"
		fi
	fi
}
# A test that passed has every run's record checked: the schema, its
# exit code, verdict and teardown (tests/schema/run_record.py); and its
# JUnit file: the XSD, a testcase per step (tests/junit/check.py).
records_ok() {
	local st=$?
	[ $st = 0 ] && [ -s "$tmp/recs/list" ] || return $st
	/usr/bin/python3 "$rec_check" "$rec_schema" "$tmp/recs/list" ||
		{ echo "not ok $((nok + 1)) - run records (see above)"; return 1; }
	ok "$(wc -l <"$tmp/recs/list") run records: schema, exit code, verdict, teardown"
	[ -s "$tmp/recs/junit" ] || return 0
	/usr/bin/python3 "$junit_check" "$junit_xsd" "$tmp/recs/junit" ||
		{ echo "not ok $((nok + 1)) - JUnit files (see above)"; return 1; }
	ok "$(wc -l <"$tmp/recs/junit") JUnit files: the XSD, a testcase per step"
}
# rec JQ: a value of the last run's record.
rec() { jq -r "$@" "$tmp/rec.json"; }

# The objects a report says were created, in order, one per line.
created() { sed -n "s/^created *[0-9]* \([a-z_0-9]* '[^']*'\).*/\1/p" "$1"; }
# ... and destroyed, in the order they were.
destroyed() { sed -n "s/^destroyed [0-9]* \(.*\)$/\1/p" "$1"; }

# Teardown was the exact reverse of creation, and nothing leaked.
assert_clean() {
	local out=$1 err=$2 what=$3
	if [ "$(created "$out" | tac)" != "$(destroyed "$out")" ]; then
		echo "--- created:"; created "$out"
		echo "--- destroyed:"; destroyed "$out"
		fail "$what: teardown is not the reverse of creation"
	fi
	grep -q '^leaks: none' "$out" || { cat "$out" "$err"; fail "$what: leak check did not pass"; }
	# A matrix's record has a record per cell (scenarios/rc_sweep.yaml).
	[ "$(rec '[if .cells then .cells[] else . end |
		  .leaks.checked and .leaks.count == 0] | all')" = true ] ||
		fail "$what: the record's leaks: $(rec -c '[if .cells then .cells[] else . end | .leaks]')"
}

# expect NAME WANT_RC FILE [ARGS]: run it with --check-leaks into
# $tmp/out and $tmp/err, check the exit code and a clean teardown.
expect() {
	local name=$1 want=$2
	shift 2
	run_scn "$tmp/out" "$tmp/err" --check-leaks "$@"
	[ $rc = "$want" ] || { cat "$tmp/out" "$tmp/err"; fail "$name: exit $rc, want $want"; }
	assert_clean "$tmp/out" "$tmp/err" "$name"
	ok "$name: exit $rc, teardown the reverse of creation, no leaks"
}
# pass_or_skip NAME CAP FILE: run FILE with --check-leaks.  With CAP (what
# rxe lacks) it must be skipped (77) naming it, with nothing created;
# without, it must pass with a clean teardown.
pass_or_skip() {
	local name=$1 cap=$2 f=$3
	run_scn "$tmp/out" "$tmp/err" --check-leaks "$f"
	if [ -n "$cap" ]; then
		[ $rc = 77 ] || { cat "$tmp/out" "$tmp/err"; fail "$name: exit $rc, want 77"; }
		grep -q "has no $cap" "$tmp/err" ||
			{ cat "$tmp/err"; fail "$name: the skip does not name $cap"; }
		grep -q '^created' "$tmp/out" && fail "$name: skipped after creating objects"
		ok "$name: skipped: $(grep -m1 "has no" "$tmp/err")"
	else
		[ $rc = 0 ] || { cat "$tmp/out" "$tmp/err"; fail "$name: exit $rc, want 0"; }
		assert_clean "$tmp/out" "$tmp/err" "$name"
		ok "$name: $(tail -n1 "$tmp/out")"
	fi
}
# has NAME FILE REGEX: the output says it.
has() {
	grep -Eq -- "$3" "$2" || { cat "$tmp/out" "$tmp/err"; fail "$1: no /$3/"; }
}

# run_bg CONN ARGS...: rdmascn run ARGS in the background into $tmp/out
# and $tmp/err, back once connection CONN is up and the steps have had
# 0.3 s to start; sets $pid.
run_bg() {
	local conn=$1 i
	shift
	"$rdmascn" run "$@" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	for i in $(seq 1 400); do
		grep -q "^created.*connection '$conn'" "$tmp/out" 2>/dev/null && break
		sleep 0.05
	done
	grep -q "^created.*connection '$conn'" "$tmp/out" ||
		{ kill -KILL $pid; cat "$tmp/out" "$tmp/err"; fail "never got to the step"; }
	sleep 0.3
}
