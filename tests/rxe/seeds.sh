#!/bin/bash
# Inside the Soft-RoCE VM: every seed in scenarios/seeds/ (one per example
# of the pyverbs README, python-rdma's verbs guide and tinygrad's IB
# transport) runs on rxe0 with --check-leaks and passes with teardown the
# reverse of creation, or, when LACKS names it, is skipped (77) naming the
# capability rxe lacks, with nothing created.
set -u
rdmascn=$1
seeddir=$2
lacks_file=$3
. "$(dirname "$0")/lib.sh"

declare -A lacks=()
while read -r name cap; do
	case $name in '#'* | '') continue ;; esac
	lacks[$name]=$cap
done <"$lacks_file"

n=0
for f in "$seeddir"/*.yaml; do
	[ -e "$f" ] || continue
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
echo "all $n seeds as expected"
