#!/bin/bash
# What the rdmascn binary exports to plugins: exactly its global symbols
# that match a pattern of the export list (engine/rdmascn.dynlist), each
# declared in a public header (engine/include/rdmascn/), every function
# those headers declare among them, and nothing else of the engine
# (rs_obj_*, rs_live_*, ...); the headers name no rs_* at all.  The
# registration function is declared through a macro that pastes the ABI
# into its name: rdmascn_register_plugin is rdmascn_register_plugin_vN.
# exports.sh RDMASCN DYNLIST INCLUDEDIR
set -u
bin=$1
dynlist=$2
incdir=$3
fails=0 n=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT

# The list's patterns: the words before ';' inside { }.
mapfile -t pats < <(sed -n 's/^[[:space:]]*\([A-Za-z0-9_*]*\);.*/\1/p' "$dynlist")
[ ${#pats[@]} -gt 0 ] || { echo "FAIL: no patterns in $dynlist"; exit 1; }
abi=$(sed -n 's/^#define RDMASCN_PLUGIN_ABI \([0-9][0-9]*\)$/\1/p' \
	"$incdir/rdmascn/plugin.h")
[ -n "$abi" ] || { echo "FAIL: no RDMASCN_PLUGIN_ABI in plugin.h"; exit 1; }
register=rdmascn_register_plugin_v$abi
matches() {
	local p
	for p in "${pats[@]}"; do
		# shellcheck disable=SC2053
		[[ $1 == $p ]] && return 0
	done
	return 1
}

# Exported: the dynamic symbols the binary defines, less the libraries'
# data it holds copies of (stdout@GLIBC_2.2.5: copy relocations) and what
# the sanitizers' runtime exports in an ASan/UBSan build.
nm -D --defined-only "$bin" |
	awk '$3 !~ /@/ && $3 !~ /^__(asan|ubsan|lsan|sanitizer)_/ { print $3 }' |
	sort >"$tmp/exported"
# Defined globals, from the binary's own symbol table.
nm --defined-only --extern-only "$bin" | awk '{ print $3 }' | sort -u >"$tmp/globals"
[ -s "$tmp/exported" ] || fail "nothing exported"

while read -r s; do
	n=$((n + 1))
	matches "$s" || fail "exported but not in the list: $s"
	n=$((n + 1))
	[ "$s" = "$register" ] && s=rdmascn_register_plugin
	grep -Eqw -- "$s" "$incdir"/rdmascn/*.h ||
		fail "exported but in no public header: $s"
done <"$tmp/exported"

while read -r s; do
	matches "$s" || continue
	n=$((n + 1))
	grep -qx -- "$s" "$tmp/exported" || fail "in the list but not exported: $s"
done <"$tmp/globals"

# Every function a public header declares is there for a plugin to call.
# (rdmascn_plugin_register_ is the constructor RDMASCN_PLUGIN() writes
# into the plugin, static there.)
grep -Eoh '\brdmascn_[a-z0-9_]+\(' "$incdir"/rdmascn/*.h | tr -d '(' |
	sed "s/^rdmascn_register_plugin\$/$register/" |
	grep -vx rdmascn_plugin_register_ | sort -u >"$tmp/declared"
while read -r s; do
	n=$((n + 1))
	grep -qx -- "$s" "$tmp/exported" || fail "declared public, not exported: $s"
done <"$tmp/declared"

# The engine's own stay inside: present in the binary, not exported.
for s in rs_obj_loc_to rs_live_find rs_registry_add rs_plugins_load \
	rs_feature_add rs_call_go; do
	n=$((n + 1))
	grep -qx -- "$s" "$tmp/globals" || fail "$s: not in the binary at all"
	grep -qx -- "$s" "$tmp/exported" && fail "$s: exported"
done
n=$((n + 1))
grep -v '^rdmascn_' "$tmp/exported" | grep -q '^rs_' &&
	fail "engine symbols exported: $(grep '^rs_' "$tmp/exported" | paste -sd' ')"
# The ABI names no engine name: only rdmascn_* (and RDMASCN_*).
n=$((n + 1))
grep -nw -E 'rs_[a-z0-9_]+' "$incdir"/rdmascn/*.h >"$tmp/rs" &&
	fail "rs_* in a public header: $(cat "$tmp/rs")"

echo "$(wc -l <"$tmp/exported") symbols exported; $((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
