#!/bin/bash
# tests/rxe/sanitized.list, the scenarios the ASan tree's device test runs
# instead of all of them, still covers them: every kind and step type of
# a scenario in SCENARIOS that rxe runs (scenarios.sh's lacks table names
# those it skips) is in a listed one (as `rdmascn graph` draws them:
# label "TYPE\nID"), each capability rxe lacks has a listed skip, and
# every name is a scenario.  A kind or step type added in a new scenario
# fails here until the list covers it.
#
#   sanitized_list.sh RDMASCN SCENARIOS LIST SCENARIOS_SH
set -u
rdmascn=$1 scndir=$2 list=$3 scenarios_sh=$4
fails=0

# kinds FILE: the kinds and step types rdmascn graph draws, one a line.
kinds() {
	"$rdmascn" graph "$1" | grep -o 'label="[a-z_0-9]*\\n' |
		sed 's/^label="//; s/\\n$//' | sort -u
}
# What rxe lacks, by scenario, as scenarios.sh says ([name]="cap").
declare -A lacks=()
while read -r name cap; do
	lacks[$name]=$cap
done < <(sed -n 's/^\t\[\([a-z_0-9]*\)\]="\([a-z_0-9]*\)"$/\1 \2/p' "$scenarios_sh")
[ ${#lacks[@]} -gt 0 ] || { echo "FAIL: no lacks table in $scenarios_sh"; exit 1; }

listed=() listed_caps=()
while read -r l _; do
	case $l in '#'* | '') continue ;; esac
	if [ ! -e "$scndir/$l.yaml" ]; then
		echo "FAIL: $l is listed, and there is no $scndir/$l.yaml"
		fails=$((fails + 1))
		continue
	fi
	listed+=("$l")
	[ -n "${lacks[${l##*/}]:-}" ] && listed_caps+=("${lacks[${l##*/}]}")
done <"$list"

have=$(for l in "${listed[@]}"; do
	[ -n "${lacks[${l##*/}]:-}" ] || kinds "$scndir/$l.yaml"
done | sort -u)
n=0
for f in "$scndir"/*.yaml "$scndir"/mlx5/*.yaml; do
	name=${f##*/}
	name=${name%.yaml}
	n=$((n + 1))
	if [ -n "${lacks[$name]:-}" ]; then
		case " ${listed_caps[*]} " in
		*" ${lacks[$name]} "*) ;;
		*) echo "FAIL: $name is skipped on rxe for ${lacks[$name]}, and no listed scenario is"
		   fails=$((fails + 1)) ;;
		esac
		continue
	fi
	missing=$(comm -13 <(echo "$have") <(kinds "$f") | tr '\n' ' ')
	if [ -n "$missing" ]; then
		echo "FAIL: $name has ${missing% }, which no listed scenario runs"
		fails=$((fails + 1))
	fi
done
[ $n -gt 20 ] || { echo "FAIL: only $n scenarios in $scndir"; exit 1; }
[ $fails = 0 ] || exit 1
echo "ok: ${#listed[@]} listed scenarios run the $(wc -l <<<"$have") kinds and step types of $n, and a skip for each of: $(printf '%s\n' "${listed_caps[@]}" | sort -u | tr '\n' ' ')"
