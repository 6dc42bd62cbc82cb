#!/bin/bash
# Every #include "..." in engine/LAYER/ names a header of that layer or of
# one below it (layers.txt has the order); two layers of one rank, such
# as kinds and steps, do not include each other.  The
# build refuses most of these already (each layer is a library that sees
# only the folders below it); this names the file and line that does it.
set -u
engine=$1
fail=0 n=0

. "$(dirname "$0")/rank.sh"

# Edges allowed for now, each "from>to"; none are left.
todo=""

layers="${layer_names[*]}"
for layer in $layers; do
	[ -d "$engine/$layer" ] || { echo "FAIL: no folder engine/$layer"; exit 1; }
done
# Every header of the engine is in exactly one layer folder.
declare -A home
for layer in $layers; do
	for h in "$engine/$layer"/*.h; do
		[ -e "$h" ] || continue
		b=${h##*/}
		[ -z "${home[$b]:-}" ] ||
			{ echo "FAIL: $b in both ${home[$b]} and $layer"; fail=1; }
		home[$b]=$layer
	done
done
for f in "$engine"/*.[ch]; do
	[ -e "$f" ] && { echo "FAIL: ${f#"$engine"/} is in no layer folder"; fail=1; }
done

# Builtins only: a sed or grep per include was most of a minute of
# process starts for some 1,500 includes.
re='^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)"'
for layer in $layers; do
	for f in "$engine/$layer"/*.[ch]; do
		line=0
		while IFS= read -r l || [ -n "$l" ]; do
			line=$((line + 1))
			[[ $l =~ $re ]] || continue
			h=${BASH_REMATCH[1]}
			n=$((n + 1))
			case $h in rdmascn/*) continue ;; esac
			to=${home[$h]:-}
			if [ -z "$to" ]; then
				echo "FAIL: engine/$layer/${f##*/}:$line:" \
					"\"$h\" is no header of the engine"
				fail=1
				continue
			fi
			[ "$to" = "$layer" ] && continue
			if [ "${layer_rank[$to]}" -lt "${layer_rank[$layer]}" ]; then
				continue
			fi
			case " $todo " in *" $layer>$to "*) continue ;; esac
			echo "FAIL: engine/$layer/${f##*/}:$line:" \
				"$layer includes \"$h\" of $to"
			fail=1
		done <"$f"
	done
done
echo "$n includes checked"
exit $fail
