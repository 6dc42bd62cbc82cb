#!/bin/bash
# rdmascn plugins: each loaded plugin as NAME VERSION PATH, then the
# section names of its kinds and steps, the core steps its kinds extend
# and its feature words (a line each, none when empty); -j the same as JSON; no plugin said so; a file that
# does not load named on stderr, the rest still listed, exit 0; a plugin
# built for another ABI (1, 6, 8) is refused with both ABIs named, its
# constructor never run.
set -u
rdmascn=$1
plugdir=$2     # where the build puts the mlx5 plugin
testdir=$3     # where the tests' plugin is
abi1dir=$4     # where the tests' ABI 1, 6 and 8 plugins are
fails=0 n=0
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# same WHAT GOT WANT
same() {
	n=$((n + 1))
	[ "$2" = "$3" ] || fail "$1: got
$2
--- want
$3"
}

# The mlx5 plugin is built with the engine: its version is rdmascn's.
version=$("$rdmascn" --version | sed -n 's/^rdmascn //p')
[ -n "$version" ] || fail "rdmascn --version says no version"
mlx5="mlx5 $version $plugdir/mlx5.so
  kinds: mlx5_contexts devx mlx5_cqs mlx5_uars mlx5_vars mlx5_pps mlx5_umems mlx5_flow_matchers mlx5_flows mlx5_qps mlx5_mkeys
  extends: send write read (dct: ah:) with mlx5_qps; register_layout (mkey:) with mlx5_mkeys
  features: mlx5dv devx"
fake="fake 0.1 $testdir/fake.so
  kinds: fake_tags
  features: test_fake"

unset RDMASCN_EXTRA_PLUGIN_DIR
export RDMASCN_PLUGIN_DIR=$plugdir
same "plugins" "$("$rdmascn" plugins 2>&1; echo "rc=$?")" "$mlx5
rc=0"
same "plugins, extra dir" \
	"$(RDMASCN_EXTRA_PLUGIN_DIR=$testdir "$rdmascn" plugins 2>&1)" \
	"$mlx5
$fake"

json=$(RDMASCN_EXTRA_PLUGIN_DIR=$testdir "$rdmascn" plugins -j)
same "-j: names" "$(jq -r '.[].name' <<<"$json" | paste -sd' ')" "mlx5 fake"
same "-j: path" "$(jq -r '.[1].path' <<<"$json")" "$testdir/fake.so"
same "-j: version" "$(jq -r '.[1].version' <<<"$json")" "0.1"
same "-j: kinds" "$(jq -c '.[1].kinds | map([.name, .section])' <<<"$json")" \
	'[["fake_tag","fake_tags"]]'
same "-j: steps" "$(jq -c '.[1].steps' <<<"$json")" '[]'
same "-j: extends" "$(jq -c '[.[].extends[] | [.steps, .section, .fields]]' <<<"$json")" \
	'[["send write read","mlx5_qps","dct ah"],["register_layout","mlx5_mkeys","mkey"]]'
same "-j: features" "$(jq -c '[.[].features[] | .name]' <<<"$json")" \
	'["mlx5dv","devx","test_fake"]'
same "-j: source" "$(jq -r '.[0].features[1].source' <<<"$json")" \
	"mlx5dv_open_device(MLX5DV_CONTEXT_FLAGS_DEVX)"

mkdir "$tmp/empty"
same "none" "$(RDMASCN_PLUGIN_DIR=$tmp/empty "$rdmascn" plugins 2>&1)" \
	"No plugins in $tmp/empty."
same "none, extra dir" "$(RDMASCN_PLUGIN_DIR=$tmp/empty \
	RDMASCN_EXTRA_PLUGIN_DIR=$tmp/empty "$rdmascn" plugins 2>&1)" \
	"No plugins in $tmp/empty or $tmp/empty."
same "none, -j" "$(RDMASCN_PLUGIN_DIR=$tmp/empty "$rdmascn" plugins -j | jq -c .)" "[]"

# Not an ELF file: named on stderr, without -v; the others still load.
mkdir "$tmp/bad"
: >"$tmp/bad/broken.so"
out=$(RDMASCN_EXTRA_PLUGIN_DIR=$tmp/bad "$rdmascn" plugins 2>"$tmp/err")
rc=$?
same "broken: exit" "$rc" 0
same "broken: stdout" "$out" "$mlx5"
n=$((n + 1))
grep -q "^rdmascn: plugin $tmp/bad/broken.so: " "$tmp/err" ||
	fail "broken: stderr: $(cat "$tmp/err")"

# A FIFO (dlopen() would wait for a writer forever) and a directory
# named *.so: named on stderr, not loaded, every command goes on.
mkdir "$tmp/odd" "$tmp/odd/dir.so"
mkfifo "$tmp/odd/fifo.so"
out=$(RDMASCN_EXTRA_PLUGIN_DIR=$tmp/odd timeout 20 "$rdmascn" plugins 2>"$tmp/err")
same "fifo: exit" "$?" 0
same "fifo: stdout" "$out" "$mlx5"
same "fifo: stderr" "$(cat "$tmp/err")" \
	"rdmascn: plugin $tmp/odd/dir.so: not a regular file, not loaded
rdmascn: plugin $tmp/odd/fifo.so: not a regular file, not loaded"
printf 'scenario: s\ncontexts: [{id: ctx, device: any}]\n' >"$tmp/s.yaml"
out=$(RDMASCN_EXTRA_PLUGIN_DIR=$tmp/odd timeout 20 "$rdmascn" validate "$tmp/s.yaml" 2>&1)
same "fifo: validate" "$out rc=$?" "$tmp/s.yaml: valid (1 object, 0 steps) rc=0"

# The same plugin under another name: its kind clashes with the first
# copy's, named with the file and section; the run goes on.
mkdir "$tmp/dup"
cp "$testdir/fake.so" "$tmp/dup/fake2.so"
out=$(RDMASCN_PLUGIN_DIR=$testdir RDMASCN_EXTRA_PLUGIN_DIR=$tmp/dup \
	"$rdmascn" validate "$tmp/s.yaml" 2>"$tmp/err")
same "clash: exit" "$out rc=$?" "$tmp/s.yaml: valid (1 object, 0 steps) rc=0"
same "clash: stderr" "$(cat "$tmp/err")" \
	"rdmascn: plugin $tmp/dup/fake2.so: kind 'fake_tag' (section 'fake_tags') clashes with a registered one; not loaded"

abi=$(sed -n 's/^#define RDMASCN_PLUGIN_ABI \([0-9]*\)$/\1/p' \
	"$(dirname "$0")/../../engine/include/rdmascn/plugin.h")
[ "$abi" = 7 ] || fail "the header's ABI is '$abi', this test knows 7"
out=$(RDMASCN_EXTRA_PLUGIN_DIR=$abi1dir "$rdmascn" plugins 2>"$tmp/err")
same "ABI 1, 6, 8: exit" "$?" 0
same "ABI 1, 6, 8: stdout" "$out" "$mlx5"
same "ABI 1, 6, 8: stderr" "$(cat "$tmp/err")" \
	"rdmascn: plugin $abi1dir/abi1.so: built for plugin ABI 1, this rdmascn loads ABI 7; not loaded
rdmascn: plugin $abi1dir/abi6.so: built for plugin ABI 6, this rdmascn loads ABI 7; not loaded
rdmascn: plugin $abi1dir/abi8.so: built for plugin ABI 8, this rdmascn loads ABI 7; not loaded"
# Said with -v only where the plugins are not what is asked about.
same "ABI 6: validate" "$(RDMASCN_EXTRA_PLUGIN_DIR=$abi1dir \
	"$rdmascn" validate "$tmp/s.yaml" 2>&1)" "$tmp/s.yaml: valid (1 object, 0 steps)"
same "ABI 6: validate -v" "$(RDMASCN_EXTRA_PLUGIN_DIR=$abi1dir \
	"$rdmascn" -v validate "$tmp/s.yaml" 2>&1 | grep abi6)" \
	"rdmascn: plugin $abi1dir/abi6.so: built for plugin ABI 6, this rdmascn loads ABI 7; not loaded"

n=$((n + 1))
"$rdmascn" plugins --help | grep -qx 'Usage: rdmascn plugins \[-j\]' ||
	fail "--help"
n=$((n + 1))
"$rdmascn" --help | grep -Eq '^  plugins +list loaded plugins' ||
	fail "rdmascn --help does not list plugins"

echo "$((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
