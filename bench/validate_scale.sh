#!/bin/bash
# How the engine scales without a device: time and peak memory of
# `rdmascn validate`, `plan` and `run --dry-run` on generated scenarios
# (bench/gen_scenario.sh) of 1k, 10k, 100k and 1M objects (objects +
# steps), per object, and as a ratio to one bare libyaml event pass over
# the same file (bench/yaml_floor.c: the floor for any YAML loader).
# Targets (issue 21): linear, within 2x the floor, at most 400 bytes per
# object.  Noisy machines: the best of REPS runs is reported.
#
#   bench/validate_scale.sh [BUILD-DIR] [REPS] [SIZES] [DRY-MAX]
#
# SIZES defaults to "1000 10000 100000 1000000"; a dry run above DRY-MAX
# objects (default 100000) is not made: it holds the whole run record.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
reps=${2:-3}
sizes=${3:-1000 10000 100000 1000000}
dry_max=${4:-100000}
rdmascn=$build/bin/rdmascn
floor=$build/bin/yaml_floor
command -v /usr/bin/time >/dev/null || { echo "needs GNU time: apt-get install time" >&2; exit 3; }
[ -x "$floor" ] || { echo "no $floor: build the yaml_floor target" >&2; exit 3; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# best CMD...: the least seconds and KiB of REPS runs, as "S K".
best() {
	local bs= bk= s k out t0 t1
	for ((r = 0; r < reps; r++)); do
		t0=$EPOCHREALTIME
		out=$(/usr/bin/time -f '%M' "$@" 2>&1 >/dev/null) ||
			{ echo "failed: $* : $(tail -n 3 <<<"$out")" >&2; exit 1; }
		t1=$EPOCHREALTIME
		s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
		k=$(tail -n 1 <<<"$out")
		if [ -z "$bs" ] || awk "BEGIN{exit !($s < $bs)}"; then bs=$s; fi
		if [ -z "$bk" ] || [ "$k" -lt "$bk" ]; then bk=$k; fi
	done
	echo "$bs $bk"
}

printf '%8s %-9s %9s %9s %9s %9s %9s %7s\n' objects verb seconds peak_MiB \
	us/obj B/obj floor_s ratio
for n in $sizes; do
	"$here/gen_scenario.sh" "$n" >"$tmp/s.yaml"
	read -r fs fk < <(best "$floor" "$tmp/s.yaml")
	# Peak memory per object over what a run that loads nothing holds.
	for verb in validate plan dry-run; do
		case $verb in
		dry-run) [ "$n" -le "$dry_max" ] || continue
			 cmd=(run -n -q) ;;
		*) cmd=("$verb") ;;
		esac
		read -r s k < <(best "$rdmascn" "${cmd[@]}" "$tmp/s.yaml")
		awk -v n="$n" -v v="$verb" -v s="$s" -v k="$k" -v fs="$fs" 'BEGIN {
			printf "%8d %-9s %9.3f %9.1f %9.2f %9.0f %9.3f %7.2f\n",
				n, v, s, k / 1024, s * 1e6 / n, k * 1024 / n, fs,
				s / fs }'
	done
done
