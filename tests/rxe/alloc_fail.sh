#!/bin/bash
# Inside the Soft-RoCE VM: a real run of a scenario (rc_pingpong, ARGS
# after it, e.g. --set iters=10) with each of the engine's allocations
# failing in turn (RDMASCN_FAIL_ALLOC=N, engine/base/alloc.c), from the
# first until the runs pass for 40 allocations in a row (some
# allocations may fail without failing the run, with a warning: the
# port counters', read around the steps).  Every failing run exits 2 or 3 (never a signal,
# never a sanitizer's report) with a message on stderr; what it created
# it destroyed, in exact reverse; when it got as far as checking, the
# kernel held nothing of it (--check-leaks: "leaks: none"); and once all
# are done, `rdma res show` lists no more objects than before.  When the
# allocation that fails is the leak check's own, the run says so and exits 3.
# RDMASCN_ALLOC_STRIDE=S (default 1) tries every S-th allocation only:
# the whole loop of rc_pingpong (--set iters=10) is 244 runs, 480 s in the
# VM on a quiet host (2026-11-28), too long for every CI run.
set -u
rdmascn=$1
scn=$2
shift 2
. "$(dirname "$0")/lib.sh"
stride=${RDMASCN_ALLOC_STRIDE:-1}
want=$(( (40 + stride - 1) / stride + 1 ))
before=$(rdma res show)
tried=0 failed=0 passes=0 leaks=0 unasked=0 oom=0 start=$SECONDS
for ((i = 1; passes < want; i += stride)); do
	RDMASCN_FAIL_ALLOC=$i "$rdmascn" run --check-leaks "$@" "$scn" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	tried=$((tried + 1))
	if [ $rc = 0 ]; then
		passes=$((passes + 1))
	else
		passes=0
		failed=$((failed + 1))
		case $rc in
		2 | 3) ;;
		*) cat "$tmp/out" "$tmp/err"; fail "allocation $i failing: exit $rc, want 2 or 3" ;;
		esac
		[ -s "$tmp/err" ] || { cat "$tmp/out"; fail "allocation $i failing: exit $rc and nothing on stderr"; }
		grep -q 'out of memory\|Cannot allocate memory\|ENOMEM' "$tmp/err" && oom=$((oom + 1))
	fi
	if grep -Eq 'Sanitizer|runtime error:' "$tmp/err"; then
		cat "$tmp/err"; fail "allocation $i failing: a sanitizer's report"
	fi
	if [ "$(created "$tmp/out" | tac)" != "$(destroyed "$tmp/out")" ]; then
		echo "--- created:"; created "$tmp/out"
		echo "--- destroyed:"; destroyed "$tmp/out"
		cat "$tmp/err"
		fail "allocation $i failing: teardown is not the reverse of creation"
	fi
	# The allocation that fails may be the leak check's own (its netlink
	# socket): then it says so and the run exits 3; the loop's `rdma res
	# show` at the end still speaks for the kernel.
	if grep -q '^leaks: not checked (the kernel could not be asked: Cannot allocate memory)' "$tmp/out"; then
		[ $rc = 3 ] || fail "allocation $i failing in the leak check: exit $rc, want 3"
		unasked=$((unasked + 1))
	elif grep -q '^leaks:' "$tmp/out"; then
		grep -q '^leaks: none' "$tmp/out" ||
			{ cat "$tmp/out" "$tmp/err"; fail "allocation $i failing: $(grep '^leaks:' "$tmp/out")"; }
		leaks=$((leaks + 1))
	fi
done
after=$(rdma res show)
[ "$after" = "$before" ] || fail "rdma res show: '$before' before, '$after' after"
echo "rdma res show, before and after: $after"
ok "$(basename "$scn"): allocations 1..$((i - stride)) (every $stride) failed in turn: $failed runs failed cleanly (exit 2/3, $oom saying out of memory), the last $want passed; teardown the reverse of creation in all $tried, leaks checked none in $leaks (the check itself out of memory in $unasked); $((SECONDS - start)) s"
