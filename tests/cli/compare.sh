#!/bin/bash
# SPDX-License-Identifier: MIT
# rdmascn compare OLD NEW on hand-made run records (tests/cli/records/):
# a record against itself passes; against a copy whose latency.typical is
# 20% higher it fails naming that figure (and not throughput.MB/s, 2%
# lower: within the default 5%); a wider tolerance lets it pass; -j is
# JSON; unreadable or malformed input is invalid (2) with one clear line.
# Focus: by default only each step's headline figures (latency.typical,
# throughput.MB/s) are judged, the others shown; --figure GLOB shows and
# judges only what it names; -t GLOB=PCT gives figures their own
# tolerance (the last that names one wins); a glob that names no figure
# is refused; rates below 1 keep four significant digits.  The ports'
# counters come in a table of their own, judged only when named.
set -u
rdmascn=$1 schema=$2 checker=$3
dir=$(dirname "$0")/records
tmp=$(mktemp -d) || exit 1
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
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

# Records that differ in one way each, made from base.json.
mk() { # NAME PYTHON-ON-r
	python3 - "$dir/base.json" "$tmp/$1.json" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
lat = [s for s in r["steps"] if s.get("id") == "lat"][0]["figures"]["latency"]
tp = [s for s in r["steps"] if "throughput" in s.get("figures", {})][0]["figures"]["throughput"]
exec(sys.argv[3])
json.dump(r, open(sys.argv[2], "w"))
PY
}
# Only the tails moved: avg, stdev, p99, p99.9, max half as much again.
mk tails 'for k in ("avg", "stdev", "p99", "p99.9", "max"): lat[k] *= 1.5'
run 0 --figure latency.typical "$dir/base.json" "$tmp/tails.json"
[ -s "$tmp/err" ] && fail "tails, --figure latency.typical: stderr: $(cat "$tmp/err")"
[ "$(grep -c '^  ' "$tmp/out")" = 2 ] &&
	grep -q '^  latency.typical .*tolerance 5%$' "$tmp/out" ||
	fail "tails, --figure latency.typical: not that row alone: $(cat "$tmp/out")"
# The default judges the headline only: the tails are shown, not judged.
run 0 "$dir/base.json" "$tmp/tails.json"
grep -q '^  latency.p99 .*x1.500 .*lower is better, not judged$' "$tmp/out" ||
	fail "tails, default: p99 not shown as not judged: $(cat "$tmp/out")"
# Judged when named: each tail regressed, and nothing else.
run 1 --figure 'latency.*' "$dir/base.json" "$tmp/tails.json"
[ "$(grep -c 'regressed' "$tmp/err")" = 5 ] &&
	grep -q "step 'lat': latency.p99 regressed: 4.02 -> 6.03 usec (50.0% worse, tolerance 5%)" "$tmp/err" &&
	! grep -q 'throughput' "$tmp/out" ||
	fail "tails, --figure 'latency.*': $(cat "$tmp/out" "$tmp/err")"
run 1 --figure '*' "$dir/base.json" "$tmp/tails.json"
run 0 --figure 'latency.typical' --figure 'throughput.*' "$dir/base.json" "$tmp/tails.json"

# Per-figure tolerances: slower.json's typical latency is 20% worse.
run 0 -t latency.typical=25 "$dir/base.json" "$dir/slower.json"
# A bare number is every other figure's: MB/s, 2% lower, fails at 1%.
run 1 -t '1,latency.typical=25' "$dir/base.json" "$dir/slower.json"
grep -q '^  throughput.MB/s .*tolerance 1%  REGRESSED$' "$tmp/out" &&
	grep -q "throughput.MB/s regressed: 6250 -> 6125 MB/s (2.0% worse, tolerance 1%)" "$tmp/err" &&
	! grep -q "latency.typical regressed" "$tmp/err" ||
	fail "-t 1,latency.typical=25: $(cat "$tmp/out" "$tmp/err")"
run 1 -t 'latency.*=25,latency.typical=10' "$dir/base.json" "$dir/slower.json"
grep -q "latency.typical regressed: .*tolerance 10%)" "$tmp/err" ||
	fail "-t latency.*=25,latency.typical=10: the last glob does not win: $(cat "$tmp/err")"
run 0 -t 'latency.typical=10' -t 'latency.*=25' "$dir/base.json" "$dir/slower.json"
run 1 -j -t latency.typical=10 "$dir/base.json" "$dir/slower.json"
python3 - "$tmp/out" <<'PY' || fail "-j with -t: $(head -c 300 "$tmp/out")"
import json, sys
r = json.load(open(sys.argv[1]))
rows = {f["figure"]: f for f in r["figures"]}
assert rows["latency.typical"]["judged"] and rows["latency.typical"]["tolerance_pct"] == 10, rows
assert not rows["latency.p99"]["judged"] and "tolerance_pct" not in rows["latency.p99"], rows
assert rows["throughput.MB/s"]["judged"] and rows["throughput.MB/s"]["tolerance_pct"] == 5, rows
PY

# Small rates: significant digits, not 0.000.
mk slow 'tp["Mpps"] = 0.00123; tp["Gb/s"] = 0.0456'
run 0 "$tmp/slow.json" "$tmp/slow.json"
grep -q '^  throughput.Mpps  *0\.001230  *0\.001230 Mpps' "$tmp/out" &&
	grep -q '^  throughput.Gb/s  *0\.04560  *0\.04560 Gb/s' "$tmp/out" ||
	fail "small rates: $(grep -E 'Mpps|Gb/s' "$tmp/out")"
grep -q ' 0\.000 ' "$tmp/out" && fail "small rates: 0.000 printed"

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
usage() { # FIRST-STDERR-LINE ARGS...: a usage error, exit 2
	local want=$1
	shift
	run 2 "$@"
	[ "$(head -n 1 "$tmp/err")" = "$want" ] ||
		fail "compare $*: want '$want', got: $(head -n 1 "$tmp/err")"
}
names="latency.min, latency.typical, latency.avg, latency.stdev, latency.p99, latency.p99.9, latency.max, throughput.messages, throughput.elapsed_ms, throughput.MB/s, throughput.Gb/s, throughput.Mpps"
usage "--figure 'latncy.typical' names no figure (figures: $names)." \
	--figure latncy.typical "$dir/base.json" "$dir/base.json"
usage "--tolerance 'throughput.mbs' names no figure (figures: $names)." \
	-t 5,throughput.mbs=3 "$dir/base.json" "$dir/base.json"
usage "--tolerance takes a percentage (0 or more), or FIGURE=PCT, not 'x'." \
	-t latency.typical=x "$dir/base.json" "$dir/base.json"
usage "--figure 'counters.' names no figure (figures: $names)." \
	--figure counters. "$dir/base.json" "$dir/base.json"
run 2 "$dir/base.json"

# Counters: each that moved on either side, old, new and the difference,
# for the step and the run; informational unless --figure names one
# (counters.NAME on any port, or counters.DEV/PORT.NAME), then more is
# worse, and from 0 any count is.
mk ctr 'c = {"rxe0/1": {"sent_pkts": 2000, "rcvd_seq_err": 0, "link_downed": 0}}
[s for s in r["steps"] if s.get("id") == "lat"][0]["figures"]["counters"] = c
r["counters"] = {"rxe0/1": {"sent_pkts": 2004, "rcvd_seq_err": 0}}'
mk ctr2 'c = {"rxe0/1": {"sent_pkts": 2010, "rcvd_seq_err": 3, "link_downed": 0}}
[s for s in r["steps"] if s.get("id") == "lat"][0]["figures"]["counters"] = c
r["counters"] = {"rxe0/1": {"sent_pkts": 2014, "rcvd_seq_err": 3}}'
python3 "$checker" "$schema" "$tmp/ctr.json" 0 ||
	fail "ctr.json (base.json with counters) is not a valid run record"
run 0 "$tmp/ctr.json" "$tmp/ctr2.json"
grep -q "^step 'lat'$" "$tmp/out" &&
	grep -q '^  rxe0/1 sent_pkts  *2000  *2010  *+10  not judged$' "$tmp/out" &&
	grep -q '^  rxe0/1 rcvd_seq_err  *0  *3  *+3  not judged$' "$tmp/out" &&
	grep -q '^run$' "$tmp/out" &&
	grep -q '^  rxe0/1 sent_pkts  *2004  *2014  *+10  not judged$' "$tmp/out" &&
	! grep -q 'link_downed' "$tmp/out" && [ ! -s "$tmp/err" ] ||
	fail "counters side by side: $(cat "$tmp/out" "$tmp/err")"
run 1 --figure counters.rcvd_seq_err "$tmp/ctr.json" "$tmp/ctr2.json"
grep -q "step 'lat': counter rxe0/1 rcvd_seq_err regressed: 0 -> 3 (from none)" "$tmp/err" &&
	grep -q "run: counter rxe0/1 rcvd_seq_err regressed: 0 -> 3 (from none)" "$tmp/err" &&
	[ "$(grep -c '^  ' "$tmp/out")" = 3 ] && ! grep -q sent_pkts "$tmp/out" ||
	fail "--figure counters.rcvd_seq_err: $(cat "$tmp/out" "$tmp/err")"
# 2000 -> 2010 is 0.5% more: within 1%, not within 0.1%.
run 0 --figure 'counters.rxe0/1.sent_pkts' -t 1 "$tmp/ctr.json" "$tmp/ctr2.json"
run 1 --figure 'counters.rxe0/1.sent_pkts' -t 'counters.*=0.1' "$tmp/ctr.json" "$tmp/ctr2.json"
grep -q "step 'lat': counter rxe0/1 sent_pkts regressed: 2000 -> 2010 (0.5% more, tolerance 0.1%)" "$tmp/err" ||
	fail "--figure counters.rxe0/1.sent_pkts -t 0.1: $(cat "$tmp/err")"
run 0 -j "$tmp/ctr.json" "$tmp/ctr2.json"
python3 - "$tmp/out" <<'PY' || fail "-j counters: $(head -c 400 "$tmp/out")"
import json, sys
r = json.load(open(sys.argv[1]))
rows = {(c["step"], c["at"], c["counter"]): c for c in r["counters"]}
c = rows[("step 'lat'", "rxe0/1", "sent_pkts")]
assert c["old"] == 2000 and c["new"] == 2010 and c["difference"] == 10, c
assert not c["judged"] and "regressed" not in c, c
assert rows[("run", "rxe0/1", "rcvd_seq_err")]["difference"] == 3, rows
assert ("step 'lat'", "rxe0/1", "link_downed") not in rows, rows
assert r["regressed"] == 0, r
PY
# A counter one record lacks: shown with '-', not judged as moved.
run 0 --figure counters.sent_pkts "$dir/base.json" "$tmp/ctr2.json"
grep -q '^  rxe0/1 sent_pkts  *-  *2010  *-  tolerance 5%$' "$tmp/out" ||
	fail "a counter only in the new record: $(cat "$tmp/out")"

[ $fails = 0 ] && echo "compare: all passed"
[ $fails = 0 ]
