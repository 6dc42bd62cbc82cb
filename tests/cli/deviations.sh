#!/bin/bash
# --deviations FILE without a device: a bad file is named at FILE:LINE:COL
# (exit 2), a missing one too; a good one changes nothing in a dry run
# (no device to match); a scenario's own deviations: validate.
#   deviations.sh RDMASCN SCENARIO
set -u
rdmascn=$1 scn=$2
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fails=0 n=0
bad() { fails=$((fails + 1)); echo "FAIL: $*"; }

printf 'deviations:\n  - provider: rxe\n    known: later\n    reason: x\n' \
	>"$tmp/bad.yaml"
n=$((n + 1))
"$rdmascn" run -n --deviations "$tmp/bad.yaml" "$scn" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "^$tmp/bad.yaml:3:12: deviations: known: 'later' is not fail or skip$" "$tmp/err" ||
	bad "bad file: exit $rc, $(cat "$tmp/err")"

printf 'scenario: x\n' >"$tmp/none.yaml"
n=$((n + 1))
"$rdmascn" run -n --deviations "$tmp/none.yaml" "$scn" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "a deviations file is a mapping with a 'deviations:' list" "$tmp/err" ||
	bad "no list: exit $rc, $(cat "$tmp/err")"

n=$((n + 1))
"$rdmascn" run -n --deviations "$tmp/missing.yaml" "$scn" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "missing.yaml" "$tmp/err" ||
	bad "missing file: exit $rc, $(cat "$tmp/err")"

printf 'deviations:\n  - provider: "*"\n    reason: every device\n' >"$tmp/all.yaml"
n=$((n + 1))
"$rdmascn" run -n "$scn" >"$tmp/plain" 2>&1
"$rdmascn" run -n --deviations "$tmp/all.yaml" --json "$tmp/r.json" "$scn" \
	>"$tmp/out" 2>&1
rc=$?
[ $rc = 0 ] && cmp -s "$tmp/plain" "$tmp/out" &&
	[ "$(jq -r 'has("deviation")' "$tmp/r.json")" = false ] ||
	bad "dry run with deviations: exit $rc, $(diff "$tmp/plain" "$tmp/out")"

# In the file: validated with the scenario, its step ids checked.
{ cat "$scn"; printf 'deviations:\n  - provider: rxe\n    steps: [send]\n    known: skip\n    reason: x\n'; } >"$tmp/own.yaml"
n=$((n + 1))
"$rdmascn" validate "$tmp/own.yaml" >"$tmp/out" 2>&1 ||
	bad "own deviations: $(cat "$tmp/out")"

echo "$((n - fails)) passed, $fails failed"
[ $fails = 0 ]
