#!/bin/bash
# `rdmascn plan FILE` twice: both runs succeed, print something, and print
# the same bytes.  Usage: plan_stable.sh RDMASCN FILE [PLAN-ARGS...]
set -u
if [ $# -lt 2 ]; then
	echo "usage: $0 RDMASCN FILE [PLAN-ARGS...]" >&2
	exit 2
fi
rdmascn=$1 file=$2
shift 2
tmp=$(mktemp -d) || exit 1
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT

for run in 1 2; do
	"$rdmascn" plan "$@" "$file" >"$tmp/plan$run" 2>"$tmp/err$run"
	rc=$?
	if [ $rc != 0 ]; then
		echo "FAIL: run $run of rdmascn plan $file exited $rc:"
		cat "$tmp/err$run"
		exit 1
	fi
	if [ ! -s "$tmp/plan$run" ]; then
		echo "FAIL: run $run of rdmascn plan $file printed nothing"
		exit 1
	fi
done
if ! cmp -s "$tmp/plan1" "$tmp/plan2"; then
	echo "FAIL: rdmascn plan $file differs between two runs:"
	diff -u "$tmp/plan1" "$tmp/plan2"
	exit 1
fi
echo "plan of $file stable ($(wc -l <"$tmp/plan1") lines)"
