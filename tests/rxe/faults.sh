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
# graph_counts: the graph's objects (steps are rounded) created, failed
# and not created, as "C/F/N", in one pass of builtins.
graph_counts() {
	local l c=0 f=0 n=0
	while IFS= read -r l; do
		case $l in
		*'style="rounded'*) ;;
		*'tooltip="created"'* | *'tooltip="created:'*) c=$((c + 1)) ;;
		*'tooltip="failed"'* | *'tooltip="failed:'*) f=$((f + 1)) ;;
		*'tooltip="not created"'* | *'tooltip="not created:'*) n=$((n + 1)) ;;
		esac
	done <"$tmp/g.dot"
	drawn=$c/$f/$n
}

# Each call is one rdmascn run and one jq (the record's calls and leaks
# together); the rest of its checks are builtins: each process start
# costs most of a second under TCG, and a scenario has dozens of calls.
for f in "$@"; do
	name=${f##*/}
	name=${name%.yaml}
	"$rdmascn" run --dry-run "$f" >"$tmp/dry" || fail "$name: dry run exit $?"
	# The numbered calls' names, by number, and the objects' count.
	callname=() objects='' calls=0
	while IFS= read -r l; do
		if [[ $l =~ ^"  ["([0-9]*)"] " ]]; then
			calls=$((calls + 1))
			n=${BASH_REMATCH[1]}
			[ -n "${callname[$n]:-}" ] && continue
			callname[n]=$l
			[[ $l =~ ^"  ["[0-9]*"] "([a-z_0-9]*)"(" ]] &&
				callname[n]=${BASH_REMATCH[1]}
		elif [[ $l =~ ^"dry run done: "([0-9]+)" objects" ]]; then
			objects=${BASH_REMATCH[1]}
		fi
	done <"$tmp/dry"
	[ "$calls" -gt 0 ] || fail "$name: no numbered calls in the dry run"
	for n in $(seq 1 "$calls"); do
		e=${errnos[$((n % ${#errnos[@]}))]}
		call=${callname[$n]}
		RDMASCN_FAULT=$n:$e run_scn "$tmp/out" "$tmp/err" -v --check-leaks \
			--graph-out "$tmp/g.dot" "$f"
		[ $rc = 3 ] || { cat "$tmp/out" "$tmp/err"; fail "$name: call $n ($call:$e): exit $rc, want 3"; }
		# The record's calls, in the leak check's jq.
		calls_ok="" calls_got=""
		assert_clean "$tmp/out" "$tmp/err" "$name call $n ($call)" \
			calls_ok="[.calls[] | select(.no)] |
			any(.[]; .no == $n and .ok == false and .error == \"$e\" and .injected) and
			all(.[] | select(.no < $n); .ok and (.duration_ns | type) == \"number\")" \
			calls_got='[.calls[] | select(.no) | {no, name, ok, error, injected, duration_ns}]'
		[ "$calls_ok" = true ] ||
			fail "$name: call $n: the record's calls: $calls_got"
		located=0
		re="^[^:]+:[0-9]+:[0-9]+: [a-z_]+ '[^']+': $call: .*\\(injected by RDMASCN_FAULT\\)$"
		while IFS= read -r l || [ -n "$l" ]; do
			[[ $l =~ $re ]] && { located=1; break; }
		done <"$tmp/err"
		[ $located = 1 ] ||
			{ cat "$tmp/err"; fail "$name: call $n: no located '$call' error"; }
		# Modify calls fail an object that was being created (a ud qp
		# on its way to RTS, a connection): it counts as failed.
		nmade=${#made[@]} failed=$nfailed missing=$nmissing
		[ $((nmade + failed + missing)) = "$objects" ] ||
			{ cat "$tmp/out"; fail "$name: call $n: $nmade created + $failed failed + $missing not created != $objects objects"; }
		graph_counts
		[ "$drawn" = "$nmade/$failed/$missing" ] ||
			{ cat "$tmp/g.dot"; fail "$name: call $n: the graph has created/failed/not created $drawn, the report $nmade/$failed/$missing"; }
		ok "$name: call $n ($call) failed with $e: $nmade created, rolled back, $missing not created, no leaks"
	done
	RDMASCN_FAULT=$((calls + 1)):EINVAL run_scn "$tmp/out" "$tmp/err" --check-leaks "$f"
	[ $rc = 0 ] || { cat "$tmp/out" "$tmp/err"; fail "$name: with no call failed: exit $rc; the dry run counted $calls calls"; }
	ok "$name: $calls calls, each failed in turn"
done
