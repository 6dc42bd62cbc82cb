#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/fuzz/run.sh TARGET SECONDS [BUILD]
#
# Runs the libFuzzer target TARGET (plan or params; BUILD/bin/fuzz_TARGET,
# BUILD defaults to build-fuzz, configured with -DRDMASCN_FUZZ=ON and
# clang) for SECONDS, at nice 10, with the YAML dictionary, seeded from
# scenarios/ (recursively) and tests/bad.  The corpus it grows is kept in
# BUILD/fuzz/TARGET/corpus (a later run goes on from it); a crash, leak or
# timeout leaves its input in BUILD/fuzz/TARGET/ and fails the run: make
# it a tests/bad file and fix the engine.  The last lines say how many
# inputs were run, and the coverage.
set -eu -o pipefail
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: $0 plan|params|wire SECONDS [BUILD]" >&2
	exit 2
fi
target=$1 seconds=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${3:-$src/build-fuzz}" && pwd)
bin=$build/bin/fuzz_$target
[ -x "$bin" ] || { echo "$0: no $bin (cmake -DRDMASCN_FUZZ=ON" \
	"-DCMAKE_C_COMPILER=clang, then build fuzz_$target)" >&2; exit 2; }
work=$build/fuzz/$target
seeds=$work/seeds
mkdir -p "$work/corpus" "$seeds"
rm -f "$seeds"/*

# Seeds: every scenario and bad input as it is (params: after "%%"); for
# params, also each
# bad input's `# args: --set ...` line as --set lines with its scenario
# after "%%", and each scenario's params as NAME=VALUE lines on their own
# (the target's built-in scenario) and with the scenario.
i=0
# wire: a few frame streams to start from (tests/fuzz/fuzz_wire.c's
# input): a hello's answer, a barrier, a verdict, an abort, a bye.
if [ "$target" = wire ]; then
	printf '\x00\x13\x01x\x00\x00' >"$seeds/w1"
	printf '\x01\x23\x07verdict\x00\x04\x00\x00\x00\x01' >"$seeds/w2"
	printf '\x00\x31\x00\x00\x07\x00\x00\x01\x00why' >"$seeds/w3"
	printf '\x01\x02\x00\x00\x00\x30\x00\x00\x0a\x00\x00\x00\x05\x00\x00\x00\x00hi' >"$seeds/w4"
	printf '\x00\xff\x00\x00\x06\xff\xff\xff\xff\x13\x00' >"$seeds/w5"
fi
while [ "$target" != wire ] && IFS= read -r -d '' f; do
	i=$((i + 1))
	if [ "$target" = plan ]; then
		cp "$f" "$seeds/s$i.yaml"
		continue
	fi
	{ echo '%%'; cat "$f"; } >"$seeds/s$i.txt"
	args=$(sed -n '2s/^# args: //p' "$f")
	# params: `  NAME: VALUE` or `  NAME: {default: VALUE, ...}`
	sets=$(sed -n '/^params:/,/^[a-z]/{
		s/^  \([a-z_][a-z_0-9]*\): {default: *\([^,}]*\).*/\1=\2/p
		s/^  \([a-z_][a-z_0-9]*\): *\([^{#]*\)$/\1=\2/p
	}' "$f")
	if [ -n "$args" ]; then
		{ sed 's/--set //g; s/ /\n/g' <<<"$args"; echo '%%'; cat "$f"; } \
			>"$seeds/a$i.txt"
	fi
	if [ -n "$sets" ]; then
		printf '%s\n' "$sets" >"$seeds/p$i.txt"
		{ printf '%s\n' "$sets"; echo '%%'; cat "$f"; } >"$seeds/q$i.txt"
	fi
done < <(find "$src/scenarios" "$src/tests/bad" -name '*.yaml' -print0 | sort -z)

# -timeout=30: a counted entry of 100000 objects (allowed) takes a few
# seconds under ASan and coverage on a loaded machine; 10 s gave false
# timeouts (tests/bad/315-*).
# The mlx5 plugin beside the binary (BUILD/lib/rdmascn/plugins) loads too.
dict=$src/tests/fuzz/yaml.dict
[ "$target" = wire ] && dict=
cd "$work"
set +e
nice -n 10 "$bin" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 \
	-max_len=16384 ${dict:+-dict="$dict"} -print_final_stats=1 \
	-artifact_prefix="$work/" "$work/corpus" "$seeds" 2>"$work/log"
rc=$?
set -e
grep -E '^#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units|stat::peak_rss' \
	"$work/log" | tail -n 3
grep -E '^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)' \
	"$work/log" || true
if [ $rc -ne 0 ]; then
	echo "$0: $target: finding (exit $rc), see $work/log and:" >&2
	ls "$work" | grep -E '^(crash|leak|timeout|oom|slow-unit)-' >&2 || true
fi
exit $rc
