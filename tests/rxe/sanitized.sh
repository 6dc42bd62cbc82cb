#!/bin/bash
# Inside the Soft-RoCE VM, with the ASan+UBSan build's rdmascn (the ASan
# tree registers this one VM test instead of the full set: one boot, a
# few minutes): the scenarios that run every kind and step type rxe has
# once (scenarios.sh with sanitized.list; the ASan tree's host tests
# already run every scenario's validation and plan), every create and modify
# call of rc_pingpong failing in turn (faults.sh), and every 50th of the
# engine's allocations failing in a real run of it (alloc_fail.sh).
# LeakSanitizer is on.  ASan writes its reports (a UBSan check's trap
# among them: cmake/asan_defaults.c) into files (log_path) as well as
# changing the exit code, so a report from a run
# whose exit code a script does not check (`devices -j | jq`) fails
# this test too: any report file at the end is printed and is a failure.
#
#   sanitized.sh RDMASCN SCENARIOS PLUGDIR [SUPPRESSIONS]
set -u
rdmascn=$1 scndir=$2 plugdir=$3
here=$(cd "$(dirname "$0")" && pwd)
supp=${4:-$here/lsan.supp}
logs=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$logs"' EXIT
export ASAN_OPTIONS="detect_leaks=1:log_path=$logs/asan:abort_on_error=0:${ASAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$supp:print_suppressions=0:${LSAN_OPTIONS:-}"

. "$here/tap.sh"
fails=0
part() {
	local name=$1 start=$SECONDS
	shift
	if "$@"; then
		ok "sanitized $name ($((SECONDS - start)) s)"
	else
		echo "not ok $((nok + 1)) - sanitized $name"
		fails=$((fails + 1))
	fi
}
RDMASCN_SCENARIO_LIST=$here/sanitized.list part scenarios \
	"$here/scenarios.sh" "$rdmascn" "$scndir" "$plugdir"
part faults "$here/faults.sh" "$rdmascn" "$scndir/rc_pingpong.yaml"
RDMASCN_ALLOC_STRIDE=${RDMASCN_ALLOC_STRIDE:-50} part alloc_fail \
	"$here/alloc_fail.sh" "$rdmascn" "$scndir/rc_pingpong.yaml" --set iters=10
for f in "$logs"/*; do
	[ -e "$f" ] || continue
	echo "--- $f"
	cat "$f"
	fails=$((fails + 1))
done
[ $fails -eq 0 ] || { echo "FAIL: $fails (see above)"; exit 1; }
echo "sanitized: all passed, no sanitizer reports"
