#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The bad-input corpus: run.sh RDMASCN DIR
#
# Each DIR/*.yaml holds exactly one defect.  Its first line is
#   # error: LINE:COL: message
# (the expected error without the file name), and an optional second line
#   # args: --set name=value ...
# gives extra arguments to `validate`.  For each file, `RDMASCN validate ARGS
# FILE` must exit 2, print nothing on stdout and exactly one line on stderr:
# FILE:LINE:COL: message, FILE as passed on the command line.
#
# Also checked: a file that does not exist, and a bad file among good ones.
# One line per failure, then "N passed, M failed"; non-zero exit on failure.

if [ $# -ne 2 ]; then
	echo "usage: $0 RDMASCN DIR" >&2
	exit 2
fi
RDMASCN=$1
DIR=$2
pass=0
fail=0
tmp=$(mktemp -d) || exit 1
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# read_err FILE: FILE's lines in the array err, a last line without a
# newline counted (builtins: a process or three per file of the corpus
# was most of this test's time).
read_err() {
	err=()
	local l
	while IFS= read -r l || [ -n "$l" ]; do err+=("$l"); done <"$1"
}

shopt -s nullglob
files=("$DIR"/*.yaml)
if [ ${#files[@]} -eq 0 ]; then
	bad "$DIR: no *.yaml files"
fi

for f in "${files[@]}"; do
	first='' second=''
	{ IFS= read -r first; IFS= read -r second; } <"$f"
	case $first in
	'# error: '*) expect=${first#'# error: '} ;;
	*) bad "$f: line 1 is not '# error: LINE:COL: message'"; continue ;;
	esac
	args=()
	case $second in
	'# args: '*) read -r -a args <<<"${second#'# args: '}" ;;
	esac
	"$RDMASCN" validate "${args[@]}" "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	read_err "$tmp/err"
	if [ $rc -ne 2 ]; then
		bad "$f: exit $rc, expected 2"
	elif [ -s "$tmp/out" ]; then
		bad "$f: stdout not empty: $(head -n1 "$tmp/out")"
	elif [ ${#err[@]} -ne 1 ]; then
		bad "$f: ${#err[@]} lines on stderr, expected 1:" \
		    "$(tr '\n' '|' <"$tmp/err")"
	elif [ "${err[0]}" != "$f:$expect" ]; then
		bad "$f: got '${err[0]}', expected '$f:$expect'"
	else
		ok
	fi
done

# A file that does not exist: exit 2, one line naming the file.
missing=/nonexistent.yaml
"$RDMASCN" validate "$missing" >"$tmp/out" 2>"$tmp/err"
rc=$?
read_err "$tmp/err"
if [ $rc -ne 2 ]; then
	bad "$missing: exit $rc, expected 2"
elif [ -s "$tmp/out" ]; then
	bad "$missing: stdout not empty: $(head -n1 "$tmp/out")"
elif [ ${#err[@]} -ne 1 ] ||
     ! grep -qF -- "$missing" "$tmp/err"; then
	bad "$missing: expected one line naming the file, got:" \
	    "$(tr '\n' '|' <"$tmp/err")"
else
	ok
fi

# A bad file before a good one: exit 2, the good one still reported valid.
good=$tmp/good.yaml
badf=$tmp/bad.yaml
cat >"$good" <<'EOF'
scenario: good
contexts: [{id: ctx, device: any}]
pds: [{id: pd, context: ctx}]
mrs: [{id: buf, pd: pd, length: 4096, access: [local_write]}]
EOF
sed 's/length: 4096/length: big/' "$good" >"$badf"
"$RDMASCN" validate "$badf" "$good" >"$tmp/out" 2>"$tmp/err"
rc=$?
read_err "$tmp/err"
if [ $rc -ne 2 ]; then
	bad "validate BAD GOOD: exit $rc, expected 2"
elif ! grep -qF -- "$good: valid" "$tmp/out"; then
	bad "validate BAD GOOD: the good file not reported valid:" \
	    "$(tr '\n' '|' <"$tmp/out")"
elif [ ${#err[@]} -ne 1 ] ||
     ! grep -qF -- "$badf:" "$tmp/err"; then
	bad "validate BAD GOOD: expected one error for the bad file, got:" \
	    "$(tr '\n' '|' <"$tmp/err")"
else
	ok
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
