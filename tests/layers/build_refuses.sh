#!/bin/bash
# build_refuses.sh BUILD PASS FAIL: each probe target in PASS (a CMake
# list) builds; each in FAIL ("target:header;...") does not, and the
# compiler says it is for want of that header.  Each set is built in one
# go, through its target layer_probes_pass or layer_probes_fail.
set -u
build=$1
fail=0 n=0
IFS=';' read -ra pass <<<"$2"
IFS=';' read -ra refused <<<"$3"
out=$(mktemp)
trap '[ "$BASHPID" = $$ ] || exit; rm -f "$out"' EXIT

# Those that build, in one go: the output names any that does not.
n=${#pass[@]}
cmake --build "$build" --target layer_probes_pass >"$out" 2>&1 ||
	{ cat "$out"; echo "FAIL: not all of ${pass[*]} build"; fail=1; }

# Those that must not, going on past each failure; each must fail on
# its header.
keep=-k
[ -e "$build/build.ninja" ] && keep="-k 0"
# shellcheck disable=SC2086  # $keep is one or two words
if cmake --build "$build" --target layer_probes_fail -- $keep >"$out" 2>&1
then
	echo "FAIL: every one of them builds"
	fail=1
fi
for p in "${refused[@]}"; do
	t=${p%%:*} h=${p#*:}
	n=$((n + 1))
	if grep -q "$t\.c:[0-9]*:[0-9]*: fatal error: $h: No such file" "$out"
	then
		echo "ok $t: \"$h\" not found"
	else
		grep "$t\.c" "$out"
		echo "FAIL: $t builds, or does not for want of another than" \
			"\"$h\": its layer sees \"$h\""
		fail=1
	fi
done
echo "$n probes, $([ $fail -eq 0 ] && echo all as expected || echo some not)"
exit $fail
