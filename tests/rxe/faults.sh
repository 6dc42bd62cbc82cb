#!/bin/bash
# Inside the Soft-RoCE VM: fail each create and modify call of a scenario
# in turn (RDMASCN_FAULT=N:ERRNO for every N), and check every time that
# the run exits 3, names the call and the object at FILE:LINE:COL, rolls
# back in exact reverse of what it created, reports what it did not
# create, and leaves nothing behind.  One past the last call, it passes.
# With -v, the record has the calls: the injected one says so and its
# errno, those made before it say they succeeded and how long they took.
# --graph-out draws as many objects created, failed and not created as
# the report names.
set -u
rdmascn=$1
shift
. "$(dirname "$0")/lib.sh"
errnos=(EINVAL ENOMEM EBUSY EPERM)
# nodes OUTCOME: the graph's objects (steps are rounded) with OUTCOME.
nodes() {
	grep -v 'style="rounded' "$tmp/g.dot" | grep -c "tooltip=\"$1[\":]"
}

for f in "$@"; do
	name=$(basename "$f" .yaml)
	"$rdmascn" run --dry-run "$f" >"$tmp/dry" || fail "$name: dry run exit $?"
	calls=$(grep -c '^  \[[0-9]*\] ' "$tmp/dry")
	objects=$(sed -n 's/^dry run done: \([0-9]*\) objects.*/\1/p' "$tmp/dry")
	[ "$calls" -gt 0 ] || fail "$name: no numbered calls in the dry run"
	for n in $(seq 1 "$calls"); do
		e=${errnos[$((n % ${#errnos[@]}))]}
		call=$(grep -m1 "^  \[$n\] " "$tmp/dry" | sed 's/^  \[[0-9]*\] \([a-z_0-9]*\)(.*/\1/')
		RDMASCN_FAULT=$n:$e run_scn "$tmp/out" "$tmp/err" -v --check-leaks \
			--graph-out "$tmp/g.dot" "$f"
		[ $rc = 3 ] || { cat "$tmp/out" "$tmp/err"; fail "$name: call $n ($call:$e): exit $rc, want 3"; }
		# One jq: each process start is slow under TCG.
		[ "$(rec --argjson n "$n" --arg e "$e" '[.calls[] | select(.no)] |
			any(.[]; .no == $n and .ok == false and .error == $e and .injected) and
			all(.[] | select(.no < $n); .ok and (.duration_ns | type) == "number")')" = true ] ||
			fail "$name: call $n: the record's calls: $(rec -c "[.calls[] | select(.no) | {no, name, ok, error, injected, duration_ns}]")"
		grep -Eq "^[^:]+:[0-9]+:[0-9]+: [a-z_]+ '[^']+': $call: .*\(injected by RDMASCN_FAULT\)$" "$tmp/err" ||
			{ cat "$tmp/err"; fail "$name: call $n: no located '$call' error"; }
		assert_clean "$tmp/out" "$tmp/err" "$name call $n ($call)"
		made=$(created "$tmp/out" | wc -l)
		failed=$(grep -c '^failed ' "$tmp/out")
		missing=$(grep -c '^not created ' "$tmp/out")
		# Modify calls fail an object that was being created (a ud qp
		# on its way to RTS, a connection): it counts as failed.
		[ $((made + failed + missing)) = "$objects" ] ||
			{ cat "$tmp/out"; fail "$name: call $n: $made created + $failed failed + $missing not created != $objects objects"; }
		drawn="$(nodes created)/$(nodes failed)/$(nodes 'not created')"
		[ "$drawn" = "$made/$failed/$missing" ] ||
			{ cat "$tmp/g.dot"; fail "$name: call $n: the graph has created/failed/not created $drawn, the report $made/$failed/$missing"; }
		ok "$name: call $n ($call) failed with $e: $made created, rolled back, $missing not created, no leaks"
	done
	RDMASCN_FAULT=$((calls + 1)):EINVAL run_scn "$tmp/out" "$tmp/err" --check-leaks "$f"
	[ $rc = 0 ] || { cat "$tmp/out" "$tmp/err"; fail "$name: with no call failed: exit $rc; the dry run counted $calls calls"; }
	ok "$name: $calls calls, each failed in turn"
done
