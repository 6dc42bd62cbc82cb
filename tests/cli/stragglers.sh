#!/bin/bash
# SPDX-License-Identifier: MIT
# Stragglers and each: gates, told again from runs recorded on rxe0
# (tests/cli/strag/record.sh and record_nodes.sh say how): strag.json, a
# counted pingpong and stream of four elements each whose each: gate
# held; miss.json, the same with the each: bound at 0.001 usec, missed
# by every element; nodes.json and nodes_miss.json, the leader's records
# of four pingpongs measured on node a and four measured on node b, the
# latter's each: bound missed on b.
# Told again, each gives the run's text and JUnit; the text ends with
# the straggler summary, the record holds it as numbers that agree with
# the elements' figures, JUnit as a property; every element's each: miss
# is named, and the run went on past them.
set -u
rdmascn=$1 schema=$2 checker=$3
dir=$(dirname "$0")/strag
tmp=$(mktemp -d) || exit 1
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fails=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rec() { jq -r "$2" "$dir/$1.json"; }
# A number as C's %g prints it (bash's printf uses long double).
g() { awk -v v="$1" 'BEGIN { printf "%g", v }'; }

for r in strag:0 miss:1 nodes:0 nodes_miss:1; do
	name=${r%:*} code=${r#*:}
	python3 "$checker" "$schema" "$dir/$name.json" "$code" ||
		fail "$name.json is not a valid run record"
	"$rdmascn" report "$dir/$name.json" >"$tmp/$name.txt" \
		2>"$tmp/$name.err" || fail "report $name.json: exit $?"
	cmp -s "$dir/$name.txt" "$tmp/$name.txt" ||
		fail "report $name.json: text differs: $(diff "$dir/$name.txt" "$tmp/$name.txt" | head)"
	cmp -s "$dir/$name.err" "$tmp/$name.err" ||
		fail "report $name.json: stderr differs: $(cat "$tmp/$name.err")"
	"$rdmascn" report -f junit -o "$tmp/$name.xml" "$dir/$name.json" ||
		fail "report -f junit $name.json: exit $?"
	# A failed run's errors move to the end of system-out.
	cmp -s <(sort "$dir/$name.junit.xml") <(sort "$tmp/$name.xml") ||
		fail "report -f junit $name.json: lines differ"
done
echo "ok both records told again as the runs wrote them"

# The record: every element says which of which step it is.
[ "$(rec strag '[.steps[] | .element | "\(.step)[\(.index)]/\(.count)"] | join(" ")')" = \
	"1[0]/4 1[1]/4 1[2]/4 1[3]/4 2[0]/4 2[1]/4 2[2]/4 2[3]/4" ] ||
	fail "elements: $(rec strag -c '[.steps[].element]')"

# The summary's numbers are the elements': the median of the four
# typical latencies, the slowest the highest, the fastest the lowest,
# each ratio value / median; throughput's slowest is its lowest.
check_summary() {
	local name=$1 i=$2 fig=$3 worst=$4
	jq -e --argjson i "$i" --arg fig "$fig" --arg worst "$worst" '
		.stragglers[$i] as $s
		| ($fig | split(".")) as $f
		| [.steps[], .node_runs[]?.steps[]
		   | select(.element.step == $s.step and .figures != null)
		   | {e: .id, v: .figures[$f[0]][$f[1]]}] as $els
		| ($els | map(.v) | sort) as $v
		| (($v[1] + $v[2]) / 2) as $median
		| ($els | sort_by(.v) | if $worst == "high" then reverse
		   else . end) as $order
		| $s.figure == $fig and $s.elements == 4
		  and ($s.median - $median | fabs) < 1e-9
		  and ($s.slowest | length) == 2 and ($s.fastest | length) == 2
		  and $s.slowest[0].element == $order[0].e
		  and $s.slowest[1].element == $order[1].e
		  and $s.fastest[0].element == $order[3].e
		  and $s.fastest[1].element == $order[2].e
		  and ([$s.slowest[], $s.fastest[]]
		       | all(((.value / $median) - .ratio | fabs) < 1e-9))
	' "$dir/$name.json" >/dev/null ||
		fail "$name: stragglers[$i]: $(jq -c ".stragglers[$i]" "$dir/$name.json")"
}
for name in strag miss; do
	check_summary "$name" 0 latency.typical high
	check_summary "$name" 1 throughput.MB/s low
done
for name in nodes nodes_miss; do
	check_summary "$name" 0 latency.typical high
	check_summary "$name" 1 latency.typical high
done
echo "ok the summary: median, slowest, fastest and ratios from the elements' figures"

# The text ends with it, before the verdict: one head line a step and
# figure, then the elements, slowest first.
want="stragglers step 1 (pingpong) 'lat' latency.typical over 4 elements: median $(g "$(rec strag '.stragglers[0].median')") usec"
grep -qxF -- "$want" "$dir/strag.txt" || fail "text: no '$want'"
want="  slowest $(rec strag '.stragglers[0].slowest[0].element') $(g "$(rec strag '.stragglers[0].slowest[0].value')") usec $(printf %.2f "$(rec strag '.stragglers[0].slowest[0].ratio')")x median"
grep -qxF -- "$want" "$dir/strag.txt" || fail "text: no '$want'"
[ "$(grep -A10 '^stragglers step 1 ' "$dir/strag.txt" | grep -c '^  \(slowest\|fastest\) ')" = 8 ] ||
	fail "text: not two slowest and two fastest a figure"
[ "$(tail -n1 "$dir/strag.txt")" = "passed: 23 objects, 8 steps" ] ||
	fail "text: the verdict is not last"
grep -q '^stragglers' <(sed -n '/^destroyed 1 /,$p' "$dir/strag.txt") ||
	fail "text: the summary is not after teardown"
echo "ok the text report ends with the summary"

# JUnit: a property a summary, with the same lines.
grep -qF "<property name=\"stragglers.1.latency.typical\" value=\"step 1 (pingpong) 'lat' latency.typical over 4 elements: median" \
	"$dir/strag.junit.xml" || fail "junit: no stragglers property"
grep -qF '<property name="stragglers.2.throughput.MB/s"' \
	"$dir/strag.junit.xml" || fail "junit: no throughput property"

# A record of fewer than three elements has no summary.
jq 'del(.stragglers) | .steps |= map(select(.element.index < 2))' \
	"$dir/strag.json" >"$tmp/two.json"
"$rdmascn" report "$tmp/two.json" >"$tmp/two.txt" 2>&1 ||
	fail "report two.json: exit $?"
grep -q '^stragglers' "$tmp/two.txt" && fail "two elements: a summary"

# each: every element out of bounds is named, with its value, at the
# bound's FILE:LINE:COL; the stream after it still ran; exit 1.
for i in 0 1 2 3; do
	v=$(rec miss ".steps[$i].figures.latency.typical")
	want="strag.yaml:21:44: step 1[$i] (pingpong) 'lat[$i]': gate: latency.typical <= 0.001 usec each: lat[$i] has $(g "$v") usec"
	grep -qxF -- "$want" "$dir/miss.err" || fail "each: no '$want'"
	[ "$(rec miss ".steps[$i] | .outcome, (.gates[0] | .each, .passed)" | tr '\n' ' ')" = "failed true false " ] ||
		fail "each: lat[$i]: $(rec miss -c ".steps[$i]")"
done
[ "$(rec miss '[.steps[4:][] | .outcome] | unique | join(",")')" = passed ] ||
	fail "each: the stream did not run past the misses"
[ "$(rec miss '.exit_code')" = 1 ] || fail "each: exit $(rec miss .exit_code)"
grep -q "^failed: strag.yaml:21:44: step 1\[0\] (pingpong) 'lat\[0\]': gate: latency.typical <= 0.001 usec each: lat\[0\] has" \
	"$dir/miss.txt" || fail "each: verdict line: $(tail -n1 "$dir/miss.txt")"
[ "$(grep -c '<failure message=".*each: lat\[[0-3]\] has' "$dir/miss.junit.xml")" = 4 ] ||
	fail "each: JUnit has not four failed elements"
# The dry run says each: beside the bound.
"$rdmascn" run --dry-run "$dir/strag.yaml" >"$tmp/dry.txt" 2>&1 ||
	fail "dry run: exit $?"
# Each element by its own number (1[2], not the plan's 3rd step).
grep -qxF "gate      step 1[2] 'lat[2]' (pingpong): latency.typical max 1e+06 usec each" \
	"$tmp/dry.txt" ||
	fail "dry run: no each gate: $(grep gate "$tmp/dry.txt")"
echo "ok each: names every element that missed, and the run went on"

# Across nodes: the leader's record keeps each node's figures per
# element; back's elements were measured on b (node_runs), and the
# leader's own entries of them (the answering half, no figures) do not
# count twice; each element names its node pair.
[ "$(rec nodes '[.steps[] | select(.element.step == "2") | .figures] | map(select(. != null)) | length')" = 0 ] ||
	fail "nodes: the leader measured back"
[ "$(rec nodes '[.node_runs[0].steps[] | select(.element.step == "2" and .figures.latency.typical != null)] | length')" = 4 ] ||
	fail "nodes: b's record lacks back's figures"
[ "$(rec nodes '[.stragglers[] | .elements] | join(" ")')" = "4 4" ] ||
	fail "nodes: elements: $(rec nodes -c '[.stragglers[] | .elements]')"
[ "$(rec nodes '[.stragglers[0] | (.slowest[], .fastest[]) | "\(.node)>\(.peer_node)"] | unique | join(" ")')" = "a>b" ] ||
	fail "nodes: lat's node pairs: $(rec nodes -c '.stragglers[0]')"
[ "$(rec nodes '[.stragglers[1] | (.slowest[], .fastest[]) | "\(.node)>\(.peer_node)"] | unique | join(" ")')" = "b>a" ] ||
	fail "nodes: back's node pairs: $(rec nodes -c '.stragglers[1]')"
grep -q "^  slowest back\[[0-3]\] (b -> a) [0-9.e+]* usec [0-9.]*x median$" \
	"$dir/nodes.txt" || fail "nodes: text: no 'slowest back[i] (b -> a)'"
[ "$(rec nodes '.node_runs[0] | has("stragglers")')" = false ] ||
	fail "nodes: b's record has a summary of its own"
# b's each: misses: not an abort, every node ends 1; the leader's text
# names each of b's elements, with its nodes and value.
[ "$(rec nodes_miss '"\(.exit_code) \(.node_runs[0].exit_code)"')" = "1 1" ] ||
	fail "nodes_miss: exit codes $(rec nodes_miss -c '[.exit_code, .node_runs[0].exit_code]')"
for i in 0 1 2 3; do
	v=$(rec nodes_miss ".node_runs[0].steps[] | select(.no == \"2[$i]\" and .figures != null) | .figures.latency.typical")
	want="node b: step 2[$i] (pingpong) 'back[$i]': gate: latency.typical <= 0.001 usec each: back[$i] (b -> a) has $(g "$v") usec (nodes.yaml:31:44)"
	grep -qxF -- "$want" "$dir/nodes_miss.txt" || fail "nodes_miss: no '$want'"
done
[ "$(rec nodes_miss '[.steps[] | select(.element.step == "2") | .outcome] | unique | join(",")')" = passed ] ||
	fail "nodes_miss: a's answering halves were judged"
echo "ok across nodes: every node's elements, each with its node pair"

[ "$fails" = 0 ] || exit 1
echo "ok: stragglers and each: gates"
