#!/bin/bash
# SPDX-License-Identifier: MIT
# rdmascn compare OLD NEW on hand-made run records (tests/cli/records/):
# a record against itself passes; against a copy whose latency.typical is
# 20% higher it fails naming that figure (and not throughput.MB/s, 2%
# lower: within the default 5%); a wider tolerance lets it pass; -j is
# JSON; unreadable or malformed input is invalid (2) with one clear line.
set -u
rdmascn=$1 schema=$2 checker=$3
dir=$(dirname "$0")/records
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

run() { # WANT_RC ARGS...
	local want=$1 rc
	shift
	"$rdmascn" compare "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = "$want" ] ||
		fail "compare $*: exit $rc, want $want: $(head -n 2 "$tmp/err")"
}

# The hand-made records are run records: the schema and its promises.
for r in base slower; do
	python3 "$checker" "$schema" "$dir/$r.json" 0 ||
		fail "$r.json is not a valid run record"
done

run 0 "$dir/base.json" "$dir/base.json"
grep -q 'latency.typical .* 2.500 .* 2.500 usec .*x1.000 .*lower is better' \
	"$tmp/out" || fail "self compare: no latency.typical row: $(cat "$tmp/out")"
grep -q 'throughput.MB/s .*higher is better' "$tmp/out" ||
	fail "self compare: no throughput.MB/s row"
[ -s "$tmp/err" ] && fail "self compare: stderr: $(cat "$tmp/err")"

run 1 "$dir/base.json" "$dir/slower.json"
grep -q "step 'lat': latency.typical regressed: 2.5 -> 3 usec (20.0% worse, tolerance 5%)" \
	"$tmp/err" || fail "slower: regression not named: $(cat "$tmp/err")"
grep -q 'MB/s' "$tmp/err" && fail "slower: MB/s (2% lower) named"
grep -q 'latency.typical .*REGRESSED' "$tmp/out" ||
	fail "slower: row not marked: $(cat "$tmp/out")"

run 0 --tolerance 25 "$dir/base.json" "$dir/slower.json"
# The other way round latency.typical improved, MB/s is 2% higher.
run 0 "$dir/slower.json" "$dir/base.json"

run 1 -j "$dir/base.json" "$dir/slower.json"
python3 - "$tmp/out" <<'PY' || fail "-j: $(head -c 300 "$tmp/out")"
import json, sys
r = json.load(open(sys.argv[1]))
bad = [f for f in r["figures"] if f["regressed"]]
assert r["regressed"] == 1 and len(bad) == 1, r
assert bad[0]["figure"] == "latency.typical" and bad[0]["ratio"] == 1.2, bad
assert bad[0]["better"] == "lower" and bad[0]["step"] == "step 'lat'", bad
PY

invalid() { # WHAT-ON-STDERR ARGS...
	local want=$1
	shift
	run 2 "$@"
	[ "$(wc -l <"$tmp/err")" = 1 ] && grep -qF -- "$want" "$tmp/err" ||
		fail "compare $*: want one line with '$want', got: $(cat "$tmp/err")"
	[ -s "$tmp/out" ] && fail "compare $*: printed on stdout"
}
invalid "malformed.json: not a run record: the JSON ends early" \
	"$dir/base.json" "$dir/malformed.json"
invalid "/nonexistent.json: No such file or directory" \
	/nonexistent.json "$dir/base.json"
echo '{"format": "x"}' >"$tmp/nosteps.json"
invalid 'nosteps.json: not a run record (no "steps" list' \
	"$dir/base.json" "$tmp/nosteps.json"
printf '{"steps": []} x' >"$tmp/trailing.json"
invalid "trailing.json: not a run record: more after the JSON" \
	"$tmp/trailing.json" "$dir/base.json"
run 2 --tolerance fast "$dir/base.json" "$dir/base.json"
run 2 "$dir/base.json"

[ $fails = 0 ] && echo "compare: all passed"
[ $fails = 0 ]
