#!/bin/bash
# build_refuses.sh BUILD PASS FAIL: each probe target in PASS (a CMake
# list) builds; each in FAIL ("target:header;...") does not, and the
# compiler says it is for want of that header.
set -u
build=$1
fail=0 n=0
IFS=';' read -ra pass <<<"$2"
IFS=';' read -ra refused <<<"$3"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# Those that build, in one go: the output names any that does not.
n=${#pass[@]}
cmake --build "$build" --target "${pass[@]}" >"$out" 2>&1 ||
	{ cat "$out"; echo "FAIL: not all of ${pass[*]} build"; fail=1; }
for p in "${refused[@]}"; do
	t=${p%%:*} h=${p#*:}
	n=$((n + 1))
	if cmake --build "$build" --target "$t" >"$out" 2>&1; then
		echo "FAIL: $t builds: its layer sees \"$h\""
		fail=1
	elif ! grep -q "$h: No such file" "$out"; then
		cat "$out"
		echo "FAIL: $t does not build, but not for want of \"$h\""
		fail=1
	else
		echo "ok $t: \"$h\" not found"
	fi
done
echo "$n probes, $([ $fail -eq 0 ] && echo all as expected || echo some not)"
exit $fail
