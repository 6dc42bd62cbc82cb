# shellcheck shell=bash
# The layers' order, for includes.sh and symbols.sh, from layers.txt: a
# layer may use the ones of a lower rank; two of one rank use neither.
declare -A layer_rank
layer_names=()
while read -r name r _; do
	case $name in '#'* | '') continue ;; esac
	layer_rank[$name]=$r
	layer_names+=("$name")
done <"$(dirname "${BASH_SOURCE[0]}")/layers.txt"

rank() {
	echo "${layer_rank[$1]:-?}"
}
