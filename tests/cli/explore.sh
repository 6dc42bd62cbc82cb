#!/bin/bash
# rdmascn explore without a device: dry-run cells of a file whose size
# above 3000 makes it invalid (tests/cli/explore/threshold.yaml).  The
# search finds the boundary, shrinks the failing cell to size=3001 and
# writes a reproducer that fails the same way alone; the table, the JSON
# (the matrix document with the search), the seed's repeatability, the
# budget, --jobs, --out-dir, --graph-out, SIGINT and bad options.
#   explore.sh RDMASCN DIR SCHEMA RECORD_CHECK
set -u
rdmascn=$1 dir=$2 schema=$3 rcheck=$4
scn=$dir/threshold.yaml
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fails=0 n=0
bad() { fails=$((fails + 1)); echo "FAIL: $*"; }

# ex ARGS...: rdmascn explore -n ARGS; $rc, $tmp/out, $tmp/err.
ex() {
	"$rdmascn" explore -n "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# The file's explore: section: find fail, bisect, seed 7, 24 cells.
n=$((n + 1))
ex --json "$tmp/r.json" --shrink-out "$tmp/repro.yaml" "$scn"
[ $rc = 0 ] &&
	grep -q "^explore: $scn: fail, strategy bisect, seed 7, budget 24 cells$" "$tmp/out" &&
	grep -Eq '^ +7  grid +size=4096,depth=4 +invalid +yes  found boundary\(size\) fails$' "$tmp/out" &&
	grep -Eq '^ +[0-9]+  bisect +size=2048,depth=4 +dry run done +no  boundary\(size\) passes$' "$tmp/out" &&
	grep -q '^found: cell 7: size=4096,depth=4: invalid: ' "$tmp/out" &&
	grep -q '^boundary of size: passes at 2048, fails at 4096$' "$tmp/out" &&
	grep -Eq '^shrunk: cell [0-9]+: size=3001,depth=4 \([0-9]+ cells shrinking\)$' "$tmp/out" &&
	grep -q "^reproducer: $tmp/repro.yaml: run alone, fails the same way$" "$tmp/out" &&
	grep -q '^explore: done (exit 0)$' "$tmp/out" ||
	bad "threshold: exit $rc: $(tail -n 8 "$tmp/out" "$tmp/err")"

# The reproducer: the file with size's default 3001 under a comment
# saying how; alone, it is invalid as the shrunk cell was.
n=$((n + 1))
"$rdmascn" run -n "$tmp/repro.yaml" >"$tmp/rout" 2>"$tmp/rerr"
rc=$?
[ $rc = 2 ] &&
	grep -q '^  size: {default: 3001, description: bytes per write}$' "$tmp/repro.yaml" &&
	grep -q '^  depth: {default: 4, description: writes in flight}$' "$tmp/repro.yaml" &&
	grep -q '^# Shrunk by rdmascn explore from ' "$tmp/repro.yaml" &&
	grep -q '^#   objective: find fail; strategy bisect, seed 7; ' "$tmp/repro.yaml" &&
	grep -q "^#   rdmascn explore -n --json $tmp/r.json --shrink-out $tmp/repro.yaml $scn$" "$tmp/repro.yaml" &&
	grep -q "^$tmp/repro.yaml:[0-9]*:[0-9]*: step 'w': length: 3001 bytes .*past the end of mr 'src' (3000 bytes)$" "$tmp/rerr" &&
	[ "$(diff <(grep -v '^#' "$scn") <(grep -v '^#' "$tmp/repro.yaml") | grep -c '^[<>]')" = 2 ] ||
	bad "reproducer: exit $rc: $(cat "$tmp/rerr")"

# The JSON: the matrix document, valid, the search beside it.
n=$((n + 1))
cells=$(grep -c '^ *[0-9][0-9]*  [a-z]' "$tmp/out")
/usr/bin/python3 "$rcheck" "$schema" "$tmp/r.json" 0 >&2 &&
	[ "$(jq -r '.matrix.explore | [.strategy, .seed, .objective.goal, .found, .boundary.size.passes, .boundary.size.fails, .shrunk.fails_the_same_way] | join(",")' "$tmp/r.json")" = "bisect,7,fail,7,2048,4096,true" ] &&
	[ "$(jq '.cells | length' "$tmp/r.json")" = "$cells" ] &&
	[ "$(jq '.matrix.cells' "$tmp/r.json")" = "$cells" ] &&
	[ "$(jq -r '[.cells[].cell.search.order] == [range(1; (.cells | length) + 1)]' "$tmp/r.json")" = true ] &&
	[ "$(jq -r '.cells[6].cell | [.name, .params.size, .search.phase, .search.fails, .search.marks] | join(";")' "$tmp/r.json")" = "size=4096,depth=4;4096;grid;true;found boundary(size) fails" ] &&
	[ "$(jq -r '.cells[-1].cell.search | [.phase, .fails] | join(",")' "$tmp/r.json")" = "check,true" ] &&
	[ "$(jq -r '.matrix.explore.order[0]' "$tmp/r.json")" = "size=64,depth=4" ] ||
	bad "json: $(jq -c '.matrix.explore' "$tmp/r.json" | head -c 600)"

# The same seed asks for the same cells in the same order; the walk
# stops at the first failing cell it finds.
n=$((n + 1))
ex --strategy anneal --seed 5 --budget-cells 12 --json "$tmp/a.json" "$scn"
rc1=$rc
ex --strategy anneal --seed 5 --budget-cells 12 --json "$tmp/b.json" "$scn"
[ $rc1 = 0 ] && [ $rc = 0 ] &&
	grep -q "^explore: $scn: fail, strategy anneal, seed 5, budget 12 cells$" "$tmp/out" &&
	[ "$(jq -c '.matrix.explore.order' "$tmp/a.json")" = "$(jq -c '.matrix.explore.order' "$tmp/b.json")" ] &&
	[ "$(jq '.matrix.explore.order | length' "$tmp/a.json")" -ge 2 ] ||
	bad "seed 5 twice: $(jq -c '.matrix.explore.order' "$tmp/a.json" "$tmp/b.json")"

# --vary over the file's, --strategy grid: every cell, in order.
n=$((n + 1))
ex --strategy grid --vary size=1K..4K:step=1K --vary depth=4 "$scn"
[ $rc = 0 ] &&
	[ "$(grep -Eo 'size=[0-9]+,depth=[0-9]+' "$tmp/out" | head -4 | tr '\n' ' ')" = "size=1024,depth=4 size=2048,depth=4 size=3072,depth=4 size=4096,depth=4 " ] &&
	grep -q '^boundary of size: passes at 2048, fails at 3072$' "$tmp/out" ||
	bad "grid: exit $rc: $(cat "$tmp/out" "$tmp/err" | tail -12)"

# The budget: three cells, and it says so.
n=$((n + 1))
ex --budget-cells 3 --strategy grid --vary size=64..64K --vary depth=4 "$scn"
[ $rc = 0 ] &&
	[ "$(grep -c '^ *[0-9]  grid ' "$tmp/out")" = 3 ] &&
	grep -q '^search: budget of cells spent; 3 cells, ' "$tmp/out" &&
	grep -q '^found: nothing failed in the 3 cells run$' "$tmp/out" ||
	bad "budget: exit $rc: $(tail -n 5 "$tmp/out")"

# --jobs 2: cells two at a time, the same boundary and the same shrunk
# case; --out-dir keeps each cell's record and report.
n=$((n + 1))
ex --jobs 2 --out-dir "$tmp/cells" "$scn"
[ $rc = 0 ] &&
	grep -q '^boundary of size: passes at 2048, fails at 4096$' "$tmp/out" &&
	grep -Eq '^shrunk: cell [0-9]+: size=3001,depth=4 ' "$tmp/out" &&
	[ -s "$tmp/cells/001.json" ] && [ -s "$tmp/cells/001.out" ] &&
	[ "$(jq -r .cell.name "$tmp/cells/007.json")" = "size=4096,depth=4" ] ||
	bad "--jobs 2: exit $rc: $(tail -n 6 "$tmp/out" "$tmp/err")"

# maximize in a dry run: nothing is measured, and it says so.
n=$((n + 1))
ex --vary size=64..256 --maximize throughput.MB/s "$scn"
[ $rc = 0 ] &&
	grep -q '^best: none: no cell recorded throughput.MB/s (a dry run measures nothing)$' "$tmp/out" ||
	bad "maximize dry run: exit $rc: $(tail -n 4 "$tmp/out" "$tmp/err")"

# --graph-out: gnuplot's SVG (./bootstrap installs gnuplot-nox, so CI
# draws it), or a message that it is not there.  The SVG: the axes'
# labels, the title, and a point (gnuplot's pt 7, gpPt6) for every cell
# the search ran, and one more in the key.
n=$((n + 1))
ex --graph-out "$tmp/g.svg" --json "$tmp/g.json" "$scn"
if command -v gnuplot >/dev/null; then
	cells=$(jq '[.cells[] | select(.cell.search.phase != "check")] | length' "$tmp/g.json")
	points=$(grep -c "<use xlink:href='#gpPt6'" "$tmp/g.svg")
	[ $rc = 0 ] && grep -q '^<svg ' "$tmp/g.svg" &&
		grep -q '<text>size</text>' "$tmp/g.svg" &&
		grep -q '<text>fails (1) or passes (0)</text>' "$tmp/g.svg" &&
		grep -q "<text>rdmascn explore $scn: fail, seed 7</text>" "$tmp/g.svg" &&
		[ "$cells" -gt 1 ] && [ "$points" = $((cells + 1)) ] ||
		bad "graph: exit $rc, $cells cells, $points points: $(cat "$tmp/err")"
else
	[ $rc = 0 ] && [ ! -e "$tmp/g.svg" ] &&
		grep -q "^rdmascn explore: --graph-out $tmp/g.svg: gnuplot is not installed (Debian: gnuplot-nox); no plot drawn$" "$tmp/err" ||
		bad "graph without gnuplot: exit $rc: $(cat "$tmp/err")"
fi

# On a terminal, a progress line redrawn in place and cleared before
# the table; none into a pipe.
if command -v script >/dev/null; then
	n=$((n + 1))
	cmd=$(printf '%q ' "$rdmascn" explore -n --strategy grid --vary size=64..64K --vary depth=4 "$scn")
	script -qec "$cmd" /dev/null </dev/null >"$tmp/tty"
	grep -q "$(printf '\rexplore: [0-9]* cells, [0-9]* running, [0-9]* s')" "$tmp/tty" &&
		grep -q "$(printf '\033\\[K')" "$tmp/tty" &&
		grep -q '^explore: done (exit 0)' "$tmp/tty" &&
		"$rdmascn" explore -n --strategy grid --vary size=64..64K \
			--vary depth=4 "$scn" >"$tmp/pipe" 2>&1 &&
		! grep -q "$(printf '\r')" "$tmp/pipe" ||
		bad "progress line: $(od -c "$tmp/tty" | head -5)"
fi

# SIGINT: the cells running are stopped, the table of what ran shown,
# exit 130.
n=$((n + 1))
"$rdmascn" explore -n --strategy grid --vary size=1..4096:lin --vary depth=1..8:lin \
	--budget-cells 30000 "$scn" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] &&
	grep -q '^search: interrupted; ' "$tmp/out" &&
	grep -Eq '^ *1  grid +size=1,depth=1 ' "$tmp/out" &&
	grep -q '^explore: interrupted (exit 130)$' "$tmp/out" ||
	bad "SIGINT: exit $rc: $(tail -n 4 "$tmp/out" "$tmp/err")"

# --repeat: said on the first line and in the document (a dry run
# measures nothing, so no knee is repeated: the unit tests do that).
n=$((n + 1))
ex --repeat 3 --vary size=64..256 --maximize throughput.MB/s --json "$tmp/r.json" "$scn"
[ $rc = 0 ] && head -1 "$tmp/out" | grep -q ', budget 24 cells, repeat 3$' &&
	[ "$(jq '.matrix.explore.repeat' "$tmp/r.json")" = 3 ] ||
	bad "--repeat 3: exit $rc: $(head -1 "$tmp/out") $(cat "$tmp/err")"

# Bad usage: exit 2, the axis named and what would be valid.
while IFS='|' read -r args want; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$rdmascn" explore -n $args "$scn" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] && [ "$(head -1 "$tmp/err")" = "$want" ] ||
		bad "$args: exit $rc: $(head -2 "$tmp/err")"
done < <(sed "s|SCN|$scn|" <<'END'
--vary size=64..8|--vary size=64..8: 64 is above 8: LO..HI goes up
--vary size=1..8:cube|--vary size=1..8:cube: unknown step rule 'cube': pow2 (the default), lin or step=N
--vary size=1..x|--vary size=1..x: expected LO..HI[:pow2|:lin|:step=N] with whole numbers (K, M, G suffixes), or V1,V2,...
--vary sise=1..8|--vary sise: not a param of SCN, did you mean 'size'?
--vary size|--vary takes NAME=RANGE (LO..HI[:pow2|:lin|:step=N], or V1,V2,...), not 'size'.
--strategy random|Unknown --strategy 'random': grid, bisect or anneal.
--maximize throughput.GB/s|--maximize 'throughput.GB/s' is not a figure: [STEP:]GROUP.KEY, e.g. throughput.MB/s, latency.typical, counters.NAME.
--find crash|Unknown --find 'crash': fail (a cell that does not pass) or gate (a cell whose gate missed).
--find fail --maximize throughput.MB/s|one objective: --maximize, --minimize or --find, not two.
--set size=64|size is both varied and --set: one or the other.
--budget-cells 0|--budget-cells takes a whole number from 1 to 100000, not '0'.
--repeat 10|--repeat takes a whole number from 1 to 9, not '10'.
--graph-out g.png|--graph-out g.png: name a .svg file.
END
)

echo "$((n - fails)) of $n passed"
[ $fails = 0 ]
