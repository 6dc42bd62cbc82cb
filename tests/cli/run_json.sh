#!/bin/bash
# rdmascn run --json: every scenario's dry run writes a record that the
# run record's schema accepts and that keeps the record's promises
# (tests/schema/run_record.py); '-' puts it on stdout and the text on
# stderr; the text report is the same with or without --json; a file
# that cannot be written is an error that names it.
#   run_json.sh RDMASCN SCENARIO_DIR SCHEMA CHECKER
set -u
rdmascn=$1 dir=$2 schema=$3 check=$4
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fails=0 n=0
bad() { fails=$((fails + 1)); echo "FAIL: $*"; }

for f in "$dir"/*.yaml; do
	n=$((n + 1))
	"$rdmascn" run -n "$f" >"$tmp/plain" 2>&1
	"$rdmascn" run -n --json "$tmp/r.json" "$f" >"$tmp/text" 2>&1
	rc=$?
	cmp -s "$tmp/plain" "$tmp/text" ||
		bad "$f: the text differs with --json"
	/usr/bin/python3 "$check" "$schema" "$tmp/r.json" $rc ||
		bad "$f: record"
	# A matrix (scenarios/rc_sweep.yaml): a record per cell, each a dry
	# run with calls and the cell's params, and no port counters (a dry
	# run reads none).
	[ "$(jq '[if .cells then .cells[] else . end |
		  .dry_run == true and (.calls | length) > 0 and
		  ((.cell.params // {}) as $c | .scenario.params |
		   contains($c)) and
		  ([paths | select(.[-1] == "counters")] == [])] | all' \
		  "$tmp/r.json")" = true ] ||
		bad "$f: a dry run's record has no calls, not its cell's params, or counters"
done

# A record with params as resolved, on stdout; the text on stderr; no
# counters read in a dry run, even with --counters=all.
n=$((n + 1))
f=$dir/rc_write.yaml
"$rdmascn" run -n --counters=all --set size=128 --json - "$f" >"$tmp/out" 2>"$tmp/err"
[ "$(jq -r .scenario.params.size "$tmp/out")" = 128 ] &&
	[ "$(jq '[paths | select(.[-1] == "counters")] | length' "$tmp/out")" = 0 ] &&
	grep -q '^dry run done: ' "$tmp/err" ||
	bad "--json -: $(head -c 300 "$tmp/out")"

# A call's arguments are typed: numbers are numbers, names and hex stay
# text.  A dry run makes no call, so none has an outcome.
n=$((n + 1))
q='.calls[] | select(.name == "ibv_create_cq") | .fields'
[ "$(jq -c "[$q | (.cqe | type), (.context | type)] | unique" \
	"$tmp/out")" = '["number","string"]' ] &&
[ "$(jq -c "[$q.cqe]" "$tmp/out")" = '[256]' ] &&
[ "$(jq '[.calls[] | select(has("ok") or has("duration_ns"))] | length' \
	"$tmp/out")" = 0 ] ||
	bad "typed call fields: $(jq -c "[$q]" "$tmp/out")"

n=$((n + 1))
"$rdmascn" run -n --json /nonexistent/dir/r.json "$f" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 3 ] && grep -q '^rdmascn: --json /nonexistent/dir/r.json: ' \
	"$tmp/err" || bad "unwritable --json: exit $rc, $(cat "$tmp/err")"

# No device here: the run could not run, and its record says why.
if ! "$rdmascn" devices >/dev/null 2>&1; then
	n=$((n + 1))
	"$rdmascn" run --json "$tmp/r.json" "$f" >/dev/null 2>&1
	rc=$?
	/usr/bin/python3 "$check" "$schema" "$tmp/r.json" $rc &&
	[ $rc = 3 ] &&
	[ "$(jq -r '.errors[0].message | startswith("no RDMA device")' \
		"$tmp/r.json")" = true ] &&
	[ "$(jq -r '[.objects[].outcome] | unique | join(",")' \
		"$tmp/r.json")" = pending ] ||
		bad "no device: exit $rc, $(jq -c '{verdict, errors}' "$tmp/r.json")"
fi

echo "$((n - fails)) passed, $fails failed"
[ $fails = 0 ]
