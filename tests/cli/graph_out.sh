#!/bin/bash
# rdmascn run --graph-out and graph --format: a dry run draws every
# object created (green) and every step not run (grey, dashed); a run
# with no device every object pending (yellow); each of a matrix's cells
# a graph of its own; .svg is XML and .png a PNG, through Graphviz's dot;
# without dot in PATH the file is named with what is missing (exit 3 for
# a run that passed, 3 for graph); an unknown extension is a usage error.
# graph's DOT on stdout stays the same text with --format dot and -o.
#   graph_out.sh RDMASCN SCENARIO_DIR MATRIX_YAML
set -u
rdmascn=$1 dir=$2 matrix=$3
tmp=$(mktemp -d)
# A subshell (a background one killed early) inherits this trap and
# would run it: only the script itself cleans up.
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fails=0 n=0
bad() { fails=$((fails + 1)); echo "FAIL: $*"; }
f=$dir/rc_pingpong.yaml
GREEN='fillcolor="#b7e1b0"' YELLOW='fillcolor="#fbe99a"'
# nodes FILE: the node lines (a label and a fill), the legend's left out
nodes() { grep -E '^	+"[^"]+" \[label=".*fillcolor=' "$1"; }

n=$((n + 1))
"$rdmascn" run -n --graph-out "$tmp/dry.dot" "$f" >/dev/null 2>"$tmp/err"
rc=$?
objs=$(nodes "$tmp/dry.dot" | grep -vc 'style="rounded')
[ $rc = 0 ] && [ "$objs" = 11 ] &&
	[ "$(nodes "$tmp/dry.dot" | grep -v 'style="rounded' |
	     grep -c "style=\"filled\", $GREEN, tooltip=\"created\"")" = 11 ] &&
	nodes "$tmp/dry.dot" | grep -q '"pingpong" .*style="rounded,filled,dashed", fillcolor="#eeeeee".*tooltip="not run"' &&
	grep -q 'label="rc_pingpong: passed (dry run)"' "$tmp/dry.dot" &&
	grep -q '^	"legend" \[shape=plain, label=<<table' "$tmp/dry.dot" ||
	bad "dry run: exit $rc, $objs objects, $(cat "$tmp/err" "$tmp/dry.dot")"

# The same text with .gv; the text report is the same with or without.
n=$((n + 1))
"$rdmascn" run -n "$f" >"$tmp/plain" 2>&1
"$rdmascn" run -n --graph-out "$tmp/dry.gv" "$f" >"$tmp/text" 2>&1
cmp -s "$tmp/dry.dot" "$tmp/dry.gv" && cmp -s "$tmp/plain" "$tmp/text" ||
	bad ".gv or the text report differ"

if ! "$rdmascn" devices >/dev/null 2>&1; then
	n=$((n + 1))
	"$rdmascn" run --graph-out "$tmp/nodev.dot" "$f" >/dev/null 2>&1
	rc=$?
	[ $rc = 3 ] &&
		[ "$(nodes "$tmp/nodev.dot" | grep -c "$YELLOW, tooltip=\"pending\"")" = 11 ] &&
		grep -q 'label="rc_pingpong: could not run"' "$tmp/nodev.dot" ||
		bad "no device: exit $rc, $(cat "$tmp/nodev.dot")"
fi

# A matrix: a graph per cell, the cell's name before the extension.
n=$((n + 1))
"$rdmascn" run -n --graph-out "$tmp/m.dot" "$matrix" >/dev/null 2>&1
rc=$?
cells=$(ls "$tmp" | grep -c '^m\..*=.*\.dot$')
[ $rc = 0 ] && [ "$cells" -ge 2 ] && [ ! -e "$tmp/m.dot" ] &&
	grep -q 'label="[^"]* (size=64,qp_type=rc): passed (dry run)"' \
		"$tmp/m.size=64,qp_type=rc.dot" ||
	bad "matrix: exit $rc, $cells cells: $(ls "$tmp")"

n=$((n + 1))
"$rdmascn" run -n --graph-out "$tmp/g.txt" "$f" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && [ ! -s "$tmp/out" ] &&
	grep -q "^--graph-out $tmp/g.txt: name a .dot, .gv, .svg or .png file.\$" \
		"$tmp/err" || bad "unknown extension: exit $rc, $(cat "$tmp/err")"

n=$((n + 1))
"$rdmascn" run -n --graph-out /nonexistent/dir/g.dot "$f" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 3 ] && grep -q '^rdmascn: --graph-out /nonexistent/dir/g.dot: ' \
	"$tmp/err" || bad "unwritable --graph-out: exit $rc, $(cat "$tmp/err")"

# graph: the plan's DOT, the same however asked for.
n=$((n + 1))
"$rdmascn" graph "$f" >"$tmp/plan.dot"
"$rdmascn" graph --format dot "$f" >"$tmp/plan2.dot"
"$rdmascn" graph -o "$tmp/plan3.gv" "$f"
"$rdmascn" graph -f dot -o "$tmp/plan4.svg" "$f"
cmp -s "$tmp/plan.dot" "$tmp/plan2.dot" &&
	cmp -s "$tmp/plan.dot" "$tmp/plan3.gv" &&
	cmp -s "$tmp/plan.dot" "$tmp/plan4.svg" &&
	! grep -q fillcolor "$tmp/plan.dot" || bad "graph's DOT differs"

n=$((n + 1))
"$rdmascn" graph --format jpg "$f" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && [ ! -s "$tmp/out" ] &&
	grep -q "^Unknown format 'jpg' (dot, svg or png).\$" "$tmp/err" ||
	bad "graph --format jpg: exit $rc, $(cat "$tmp/err")"

# Without dot in PATH: named, exit 3; the run's report is still there.
nodot=$tmp/nodot
mkdir "$nodot"
n=$((n + 1))
PATH=$nodot "$rdmascn" run -n --graph-out "$tmp/x.svg" "$f" >"$tmp/out" \
	2>"$tmp/err"
rc=$?
[ $rc = 3 ] && [ ! -e "$tmp/x.svg" ] && grep -q '^dry run done: ' "$tmp/out" &&
	grep -q "^rdmascn: --graph-out $tmp/x.svg: Graphviz's dot is not in PATH" \
		"$tmp/err" || bad "run without dot: exit $rc, $(cat "$tmp/err")"
n=$((n + 1))
PATH=$nodot "$rdmascn" graph --format png "$f" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 3 ] && [ ! -s "$tmp/out" ] &&
	grep -q "Graphviz's dot is not in PATH (install graphviz" "$tmp/err" ||
	bad "graph --format png without dot: exit $rc, $(cat "$tmp/err")"

if ! command -v dot >/dev/null; then
	echo "$((n - fails)) passed, $fails failed (no Graphviz: SVG and PNG not drawn)"
	[ $fails = 0 ] || exit 1
	exit 0
fi

n=$((n + 1))
"$rdmascn" run -n --graph-out "$tmp/dry.svg" "$f" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && xmllint --noout "$tmp/dry.svg" &&
	grep -q '<title>legend</title>' "$tmp/dry.svg" &&
	grep -q 'fill="#b7e1b0"' "$tmp/dry.svg" ||
	bad "run --graph-out .svg: exit $rc, $(cat "$tmp/err")"

n=$((n + 1))
"$rdmascn" run -n --graph-out "$tmp/dry.png" "$f" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && [ "$(head -c 8 "$tmp/dry.png" | od -An -tx1 | tr -d ' ')" = \
	89504e470d0a1a0a ] ||
	bad "run --graph-out .png: exit $rc, $(cat "$tmp/err")"

n=$((n + 1))
"$rdmascn" graph --format svg "$f" >"$tmp/plan.svg" 2>"$tmp/err" &&
	xmllint --noout "$tmp/plan.svg" &&
	"$rdmascn" graph -o "$tmp/plan.png" "$f" &&
	[ "$(head -c 4 "$tmp/plan.png" | od -An -tx1 | tr -d ' ')" = 89504e47 ] ||
	bad "graph --format svg, -o .png: $(cat "$tmp/err")"

# A name that starts with '-' is the file, not an option of dot's
# (-V.svg would have been dot's -V).
n=$((n + 1))
(cd "$tmp" && "$rdmascn" run -n --graph-out -V.svg "$f" >/dev/null 2>err &&
	"$rdmascn" graph -o -q.png "$f" 2>>err) &&
	xmllint --noout "$tmp/-V.svg" &&
	[ "$(head -c 4 "$tmp/-q.png" | od -An -tx1 | tr -d ' ')" = 89504e47 ] ||
	bad "--graph-out -V.svg, graph -o -q.png: $(cat "$tmp/err")"

n=$((n + 1))
"$rdmascn" graph -o /nonexistent/dir/g.svg "$f" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 3 ] && grep -q '^rdmascn: graph -o /nonexistent/dir/g.svg: No such file or directory$' \
	"$tmp/err" || bad "graph -o unwritable .svg: exit $rc, $(cat "$tmp/err")"

echo "$((n - fails)) passed, $fails failed"
[ $fails = 0 ]
