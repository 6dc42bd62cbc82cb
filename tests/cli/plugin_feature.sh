#!/bin/bash
# A feature a plugin adds is a word of requires.features while the plugin
# is loaded, and an unknown one without it: the same file validates with
# the tests' plugin (RDMASCN_EXTRA_PLUGIN_DIR) and is invalid, exit 2,
# naming the word and where it is, without.  `devices` and the JSON
# Schema know the word only with the plugin too.
set -u
rdmascn=$1
plugdir=$2
scn=$3
fails=0 n=0
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT

check() { # WHAT COMMAND...: the command succeeds
	local what=$1
	shift
	n=$((n + 1))
	"$@" || { echo "FAIL: $what"; fails=$((fails + 1)); }
}

with() { RDMASCN_EXTRA_PLUGIN_DIR=$plugdir "$rdmascn" "$@"; }

with validate "$scn" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "with the plugin: exit $rc, want 0: $(cat "$tmp/err")" [ $rc = 0 ]
check "with the plugin: $(cat "$tmp/out")" \
	grep -qx "$scn: valid (8 objects, 2 steps)" "$tmp/out"

"$rdmascn" validate "$scn" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "without the plugin: exit $rc, want 2" [ $rc = 2 ]
check "without the plugin: stdout not empty" [ ! -s "$tmp/out" ]
line=$(grep -n '^requires:' "$scn" | cut -d: -f1)
check "without the plugin: $(cat "$tmp/err")" \
	grep -Eqx "$scn:$line:[0-9]+: requires.features: unknown flag 'test_fake' \(expected some of: .*mlx5dv, devx.*\)" "$tmp/err"

# A core word the mlx5 plugin tells is valid either way.
for env in "" "$plugdir"; do
	RDMASCN_EXTRA_PLUGIN_DIR=$env "$rdmascn" validate --set feature=devx \
		"$scn" >/dev/null 2>"$tmp/err"
	rc=$?
	check "devx (extra dir '$env'): exit $rc: $(cat "$tmp/err")" [ $rc = 0 ]
done

# The JSON Schema's requires.features enum follows.
with schema >"$tmp/with.json"
"$rdmascn" schema >"$tmp/without.json"
check "schema with the plugin lacks test_fake" grep -q '"test_fake"' "$tmp/with.json"
check "schema without the plugin names test_fake" \
	bash -c "! grep -q '\"test_fake\"' '$tmp/without.json'"

echo "$((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
