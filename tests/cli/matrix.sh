#!/bin/bash
# rdmascn run over a matrix, without a device (dry runs): a cell per
# combination less the excluded ones, each with its own record and
# testsuite; --matrix and --set change the cells; bad --matrix is named.
#   matrix.sh RDMASCN MATRIX_SCENARIO SCENARIO_DIR SCHEMA RECORD_CHECK XSD JUNIT_CHECK
set -u
rdmascn=$1 scn=$2 dir=$3 schema=$4 rcheck=$5 xsd=$6 jcheck=$7
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fails=0 n=0
bad() { fails=$((fails + 1)); echo "FAIL: $*"; }

# cells ARGS...: dry run; sets $rc and $got, the cell names its record
# holds joined with ';', after checking the record and the JUnit file.
cells() {
	"$rdmascn" run -n --json "$tmp/r.json" --junit "$tmp/r.xml" "$@" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	/usr/bin/python3 "$rcheck" "$schema" "$tmp/r.json" $rc >&2 &&
	/usr/bin/python3 "$jcheck" "$xsd" "$tmp/r.xml" "$tmp/r.json" >&2 ||
		bad "records of run $*"
	got=$(jq -r '[.cells[].cell.name] | join(";")' "$tmp/r.json")
}

n=$((n + 1))
cells "$scn"
want="size=64,qp_type=rc;size=64,qp_type=uc;size=4096,qp_type=rc;size=4096,qp_type=uc;size=65536,qp_type=rc"
[ $rc = 0 ] && [ "$got" = "$want" ] &&
	grep -q '^matrix: 5 cells (1 excluded)$' "$tmp/out" &&
	grep -q '^cell 5 of 5: size=65536,qp_type=rc$' "$tmp/out" &&
	grep -q '^verdict: dry run done (exit 0)$' "$tmp/out" &&
	[ "$(grep -c '^  size=[0-9]*,qp_type=[a-z]* *dry run done$' "$tmp/out")" = 5 ] &&
	! grep -q 'passed' "$tmp/out" &&
	[ "$(jq -r '[.verdict, (.cells[] | .verdict, .dry_run)] | unique | join(",")' \
		"$tmp/r.json")" = "true,passed" ] &&
	[ "$(grep -c '^dry run done: ' "$tmp/out")" = 5 ] &&
	[ "$(jq -c '.matrix.excluded' "$tmp/r.json")" = \
	  '[{"size":"65536","qp_type":"uc"}]' ] &&
	[ "$(xmllint --xpath 'count(//testsuite)' "$tmp/r.xml")" = 5 ] &&
	[ "$(xmllint --xpath 'string(//testsuite[5]/testcase[2]/@classname)' \
		"$tmp/r.xml")" = "$scn[size=65536,qp_type=rc]" ] ||
	bad "matrix: exit $rc, cells $got, $(cat "$tmp/out" "$tmp/err" | grep -v '^ ' | tail -12)"

n=$((n + 1))
cells --matrix size=64 "$scn"
[ $rc = 0 ] && [ "$got" = "size=64,qp_type=rc;size=64,qp_type=uc" ] ||
	bad "--matrix size=64: exit $rc, cells $got"

# A --set param is fixed; the exclusion still applies.
n=$((n + 1))
cells --set qp_type=uc "$scn"
[ $rc = 0 ] && [ "$got" = "size=64,qp_type=uc;size=4096,qp_type=uc" ] ||
	bad "--set qp_type=uc: exit $rc, cells $got"

# --matrix on a file without one makes one.
n=$((n + 1))
cells --matrix size=64,128 "$dir/rc_write.yaml"
[ $rc = 0 ] && [ "$got" = "size=64;size=128" ] &&
	[ "$(jq -r '.cells[1].scenario.params.size' "$tmp/r.json")" = 128 ] ||
	bad "--matrix on rc_write: exit $rc, cells $got"

n=$((n + 1))
"$rdmascn" run -n --matrix nosuch=1,2 "$scn" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "^$scn:1:1: --matrix nosuch: the scenario has no param 'nosuch' (params: size, qp_type)$" "$tmp/err" ||
	bad "--matrix nosuch: exit $rc, $(cat "$tmp/err")"

n=$((n + 1))
"$rdmascn" run -n --matrix size "$scn" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "expected NAME=VALUE,VALUE" "$tmp/err" ||
	bad "--matrix size: exit $rc, $(cat "$tmp/err")"

# --jobs: the cells in processes of their own, shown in cell order: the
# same report, records and testsuites as one after the other.
n=$((n + 1))
"$rdmascn" run -n "$scn" >"$tmp/serial" 2>&1
cells --jobs 3 "$scn"
[ $rc = 0 ] && [ "$got" = "$want" ] && cmp -s "$tmp/serial" "$tmp/out" &&
	[ "$(xmllint --xpath 'count(//testsuite)' "$tmp/r.xml")" = 5 ] ||
	bad "--jobs 3: exit $rc, cells $got, $(diff "$tmp/serial" "$tmp/out" | head -5)"

n=$((n + 1))
"$rdmascn" run -n --jobs 0 "$scn" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q -- "--jobs takes a number from 1 to 256, not '0'" "$tmp/err" ||
	bad "--jobs 0: exit $rc, $(cat "$tmp/err")"

# A cell that does not load (its size overruns its MR) is a cell of the
# JSON and JUnit files, invalid with its located message, and its message
# is on stderr, one after the other and with --jobs, with -q or without.
inv=$tmp/inv.yaml
msg="step 'send': length: 131072 bytes at offset 0 end at byte 131072, past the end of mr 'src' (65536 bytes)"
for opts in "" "-q" "--jobs 2" "--jobs 2 -q"; do
	n=$((n + 1))
	cells $opts --matrix size=64,131072 --set qp_type=rc "$scn"
	[ $rc = 2 ] && [ "$got" = "size=64,qp_type=rc;size=131072,qp_type=rc" ] &&
	[ "$(jq -r '.cells[1] | [.verdict, .exit_code, .message, .errors[0].line, .errors[0].col, .errors[0].message, .scenario.params.size, (.objects | length)] | join("|")' "$tmp/r.json")" = \
	  "invalid|2|$scn:25:49: $msg|25|49|$msg|131072|0" ] &&
	[ "$(jq -r '.verdict' "$tmp/r.json")" = invalid ] &&
	[ "$(xmllint --xpath 'string(//testsuite[2]/@errors)' "$tmp/r.xml")" = 1 ] &&
	[ "$(xmllint --xpath 'string(//testsuite[2]/testcase[@name="set-up"]/error/@message)' "$tmp/r.xml")" = "$scn:25:49: $msg" ] &&
	[ "$(xmllint --xpath 'string(//testsuite[2]/testcase[@name="set-up"]/error/@type)' "$tmp/r.xml")" = invalid ] &&
	[ "$(xmllint --xpath 'string(/testsuites/@errors)' "$tmp/r.xml")" = 1 ] &&
	[ "$(cat "$tmp/err")" = "$scn:25:49: matrix cell size=131072,qp_type=rc: $msg" ] &&
	! grep -q "past the end" "$tmp/out" &&
	grep -q '^  size=131072,qp_type=rc  *invalid$' "$tmp/out" &&
	grep -q '^verdict: invalid (exit 2)$' "$tmp/out" ||
		bad "run $opts, an invalid cell: exit $rc, cells $got, $(cat "$tmp/err"; tail -4 "$tmp/out")"
done

# validate and plan load every cell, not only the params' defaults: a
# cell whose size overruns its MR is the file's error, named with the
# cell, and the valid matrix says how many cells were checked.
inv=$tmp/inv.yaml
sed 's/^  size: \[64, 4096, 65536\]$/  size: [64, 4096, 65536, 131072]/' "$scn" >"$inv"
msg="step 'send': length: 131072 bytes at offset 0 end at byte 131072, past the end of mr 'src' (65536 bytes)"
for verb in validate plan; do
	n=$((n + 1))
	"$rdmascn" $verb "$inv" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] && [ ! -s "$tmp/out" ] &&
	[ "$(cat "$tmp/err")" = "$inv:25:49: matrix cell size=131072,qp_type=rc: $msg
$inv:25:49: matrix cell size=131072,qp_type=uc: $msg" ] ||
		bad "$verb, an invalid cell: exit $rc, $(cat "$tmp/out" "$tmp/err")"
done
n=$((n + 1))
"$rdmascn" validate --set qp_type=uc "$inv" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && [ "$(cat "$tmp/err")" = "$inv:25:49: matrix cell size=131072,qp_type=uc: $msg" ] ||
	bad "validate --set qp_type=uc, an invalid cell: exit $rc, $(cat "$tmp/err")"
n=$((n + 1))
"$rdmascn" validate --set size=64 "$inv" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && [ "$(cat "$tmp/out")" = "$inv: valid (8 objects, 2 steps; matrix: 2 cells checked, 0 excluded)" ] ||
	bad "validate --set size=64: exit $rc, $(cat "$tmp/out" "$tmp/err")"
n=$((n + 1))
"$rdmascn" validate "$scn" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && [ ! -s "$tmp/err" ] &&
	[ "$(cat "$tmp/out")" = "$scn: valid (8 objects, 2 steps; matrix: 5 cells checked, 1 excluded)" ] ||
	bad "validate: exit $rc, $(cat "$tmp/out" "$tmp/err")"
n=$((n + 1))
"$rdmascn" plan "$scn" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && [ "$(sed -n 2p "$tmp/out")" = "matrix: 5 cells checked, 1 excluded; below, the params' defaults" ] ||
	bad "plan: exit $rc, $(head -3 "$tmp/out") $(cat "$tmp/err")"
# Many invalid cells: the first ten said, then how many in all.
n=$((n + 1))
sed "s/^  size: \[64, 4096, 65536\]$/  size: [64, 4096, 65536, $(seq -s ', ' 131072 131083)]/" \
	"$scn" >"$inv"
"$rdmascn" validate "$inv" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && [ "$(grep -c "^$inv:25:49: matrix cell size=1310[0-9]*,qp_type=[ru]c: step 'send'" "$tmp/err")" = 10 ] &&
	[ "$(tail -1 "$tmp/err")" = "$inv: 24 of 29 matrix cells are invalid; the first 10 are said above" ] &&
	[ "$(wc -l <"$tmp/err")" = 11 ] ||
	bad "validate, 24 invalid cells: exit $rc, $(tail -2 "$tmp/err")"

# The cell count is checked, not wrapped: 64 params of 2 values are 2^64
# cells (0 in 64 bits), refused at the matrix with exit 2 before any run,
# by run as by validate; --matrix past the limit is named too.
wide=$tmp/wide.yaml
{
	echo "scenario: wide"
	echo "params: {$(seq -s ', ' -f 'p%g: 1' 0 63)}"
	echo "matrix:"
	for i in $(seq 0 63); do printf '  p%d: [1, 2]\n' $i; done
	echo "contexts: [{id: ctx, device: any}]"
} >"$wide"
for verb in "run -n" "run" validate plan; do
	n=$((n + 1))
	timeout 20 "$rdmascn" $verb "$wide" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] && [ ! -s "$tmp/out" ] &&
	grep -qx "$wide:4:3: matrix: more than 18446744073709551615 cells (64 params), over the limit of 10000; fix some params with --set, or split the matrix" "$tmp/err" ||
		bad "$verb 2^64 cells: exit $rc, $(cat "$tmp/out" "$tmp/err" | tail -3)"
done
n=$((n + 1))
"$rdmascn" run -n --set p0=1 "$wide" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "^$wide:4:3: matrix: 9223372036854775808 cells (64 params), over the limit" "$tmp/err" ||
	bad "2^63 cells: exit $rc, $(cat "$tmp/err")"
n=$((n + 1))
"$rdmascn" run -n --matrix size="$(seq -s, 1 400)" \
	--matrix qp_type="$(seq -s, 1 300)" "$scn" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && [ ! -s "$tmp/out" ] &&
	grep -qx "$scn:1:1: --matrix qp_type: 120000 cells (2 params), over the limit of 10000; fix some params with --set, or split the matrix" "$tmp/err" ||
	bad "--matrix 120000 cells: exit $rc, $(cat "$tmp/err")"

# A value list of 200000: the duplicate check is a hash, so it answers
# (a quadratic one took minutes); one repeated value is found at its place.
big=$tmp/big.yaml
{
	echo "scenario: big"
	echo "params: {a: 1}"
	echo "matrix:"
	echo "  a: [$(seq -s ', ' 0 199999), 199999]"
} >"$big"
n=$((n + 1))
timeout 60 "$rdmascn" validate "$big" >"$tmp/out" 2>"$tmp/err"
rc=$?
col=$(($(head -4 "$big" | tail -1 | wc -c) - 7))
[ $rc = 2 ] && grep -qx "$big:4:$col: matrix: 'a': '199999' is there twice" "$tmp/err" ||
	bad "200000 values, one twice: exit $rc, $(cut -c1-200 "$tmp/err")"
sed -i '4s/, 199999]$/]/' "$big"
n=$((n + 1))
timeout 60 "$rdmascn" validate "$big" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -qx "$big:4:3: matrix: 200000 cells (1 param), over the limit of 10000; fix some params with --set, or split the matrix" "$tmp/err" ||
	bad "200000 values: exit $rc, $(cut -c1-200 "$tmp/err")"
n=$((n + 1))
echo "contexts: [{id: ctx, device: any}]" >>"$big"
timeout 60 "$rdmascn" run -n -q --set a=7 --json "$tmp/r.json" "$big" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && [ "$(jq -r '[.cells[].cell.name] | join(";")' "$tmp/r.json")" = "a=7" ] ||
	bad "200000 values, --set a=7: exit $rc, $(cut -c1-200 "$tmp/err")"

# --matrix values given more than once are one cell each, in the order
# first given (the duplicate map reads its ids from a copy of the list,
# not from the list being compacted under it).
n=$((n + 1))
"$rdmascn" run -n --matrix size=1,2,1,3,2,4,1,5,3 "$scn" >"$tmp/out" 2>&1
rc=$?
[ $rc = 0 ] &&
[ "$(sed -n 's/^cell [0-9]* of 10: size=\([0-9]*\),qp_type=rc$/\1/p' \
     "$tmp/out" | tr '\n' ,)" = "1,2,3,4,5," ] ||
	bad "--matrix size=1,2,1,3,...: exit $rc, $(head -12 "$tmp/out")"

# No device: every cell could not run, and says so; the worst is 3.
if ! "$rdmascn" devices >/dev/null 2>&1; then
	n=$((n + 1))
	"$rdmascn" run --matrix size=64 --jobs 2 --json "$tmp/r.json" "$scn" \
		>"$tmp/out" 2>&1
	rc=$?
	[ $rc = 3 ] && grep -q '^verdict: could not run (exit 3)$' "$tmp/out" &&
	[ "$(jq -r '[.cells[].verdict] | unique | join(",")' "$tmp/r.json")" = \
	  "could not run" ] ||
		bad "no device: exit $rc, $(tail -5 "$tmp/out")"
fi

echo "$((n - fails)) passed, $fails failed"
[ $fails = 0 ]
