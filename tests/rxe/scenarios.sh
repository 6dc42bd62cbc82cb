#!/bin/bash
# Inside the Soft-RoCE VM: every scenario in scenarios/ runs on rxe0 with
# --check-leaks.  Those rxe supports pass (exit 0) with teardown the
# reverse of creation; the others are skipped (exit 77) naming what rxe
# lacks, with nothing created.
set -u
rdmascn=$1
scndir=$2
. "$(dirname "$0")/lib.sh"

# What rxe lacks, by scenario: the capability the skip must name.
declare -A lacks=(
	[flow_steering]="flow_steering"
	[xrc]="xrc"
)

n=0
for f in "$scndir"/*.yaml; do
	name=$(basename "$f" .yaml)
	run_scn "$tmp/out" "$tmp/err" --check-leaks "$f"
	if [ -n "${lacks[$name]:-}" ]; then
		[ $rc = 77 ] || { cat "$tmp/out" "$tmp/err"; fail "$name: exit $rc, want 77"; }
		grep -q "has no ${lacks[$name]}" "$tmp/err" ||
			{ cat "$tmp/err"; fail "$name: the skip does not name ${lacks[$name]}"; }
		grep -q '^created' "$tmp/out" && fail "$name: skipped after creating objects"
		echo "ok $name: skipped: $(grep -m1 "has no" "$tmp/err")"
	else
		[ $rc = 0 ] || { cat "$tmp/out" "$tmp/err"; fail "$name: exit $rc, want 0"; }
		assert_clean "$tmp/out" "$tmp/err" "$name"
		echo "ok $name: $(tail -n1 "$tmp/out")"
	fi
	n=$((n + 1))
done
[ $n -gt 0 ] || fail "no scenarios in $scndir"
echo "all $n scenarios as expected"
