#!/bin/bash
# How validation scales: time and peak memory of `rdmascn validate` on
# generated scenarios of 1k, 10k and 100k objects (objects + steps), with
# the per-object figures side by side so linear growth shows as flat
# columns.  Target: linear, 100k under one second.  Noisy machines: the
# best of REPS runs is reported.
#
#   bench/validate_scale.sh [RDMASCN] [REPS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rdmascn=${1:-$here/../build/bin/rdmascn}
reps=${2:-3}
command -v /usr/bin/time >/dev/null || { echo "needs GNU time: apt-get install time" >&2; exit 3; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf '%8s %10s %12s %12s %12s\n' objects seconds peak_MiB us/object KiB/object
for n in 1000 10000 100000; do
	"$here/gen_scenario.sh" "$n" >"$tmp/s.yaml"
	best_s= best_k=
	for ((r = 0; r < reps; r++)); do
		t0=$EPOCHREALTIME
		out=$(/usr/bin/time -f '%M' "$rdmascn" validate "$tmp/s.yaml" 2>&1 >/dev/null) ||
			{ echo "validate failed: $out" >&2; exit 1; }
		t1=$EPOCHREALTIME
		s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
		k=$(tail -n 1 <<<"$out")
		if [ -z "$best_s" ] || awk "BEGIN{exit !($s < $best_s)}"; then best_s=$s; fi
		if [ -z "$best_k" ] || [ "$k" -lt "$best_k" ]; then best_k=$k; fi
	done
	awk -v n="$n" -v s="$best_s" -v k="$best_k" 'BEGIN {
		printf "%8d %10.3f %12.1f %12.2f %12.2f\n", n, s, k / 1024, s * 1e6 / n, k / n }'
done
