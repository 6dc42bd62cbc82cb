#!/bin/bash
# Inside the Soft-RoCE VM: every scenario in scenarios/ and scenarios/mlx5/
# runs on rxe0 with --check-leaks.  Those rxe supports pass (exit 0) with teardown the
# reverse of creation; the others are skipped (exit 77) naming what rxe
# lacks, with nothing created.  Then a feature a plugin adds: with the
# tests' plugin (PLUGDIR), requires test_fake is met on rxe0 and the
# scenario runs; requires mlx5dv is still skipped, naming mlx5dv.
#
#   scenarios.sh RDMASCN SCENARIOS PLUGDIR
set -u
rdmascn=$1
scndir=$2
plugdir=$3
. "$(dirname "$0")/lib.sh"

# What rxe lacks, by scenario: the capability the skip must name.
declare -A lacks=(
	[flow_steering]="flow_steering"
	[xrc]="xrc"
	[devx_objects]="devx"
	[cq_compressed]="mlx5dv"
	[dc]="mlx5dv"
	[dci]="mlx5dv"
	[mkey_interleaved]="mlx5dv"
	[mkey_list]="mlx5dv"
	[flow_matcher]="raw_packet"
	[pp]="devx"
	[raw_packet_qp]="mlx5dv"
	[uar]="devx"
	[umem]="devx"
	[var]="devx"
)

# RDMASCN_SCENARIO_LIST=FILE: only the scenarios FILE names, a name
# (from SCENARIOS, without .yaml) a line (sanitized.sh: sanitized.list,
# every kind and step type once); without it, every scenario.
files=("$scndir"/*.yaml "$scndir"/mlx5/*.yaml)
if [ -n "${RDMASCN_SCENARIO_LIST:-}" ]; then
	files=()
	while read -r l _; do
		case $l in '#'* | '') continue ;; esac
		files+=("$scndir/$l.yaml")
	done <"$RDMASCN_SCENARIO_LIST"
fi
n=0
for f in "${files[@]}"; do
	name=${f##*/}
	name=${name%.yaml}
	pass_or_skip "$name" "${lacks[$name]:-}" "$f"
	n=$((n + 1))
done
[ $n -gt 0 ] || fail "no scenarios in $scndir"
echo "all $n scenarios as expected"

# expect: {create: fail}: negative_create passed above (both creates
# failed with EINVAL, as it says); its record says so, with the errno,
# and neither object is torn down. Expecting another errno, or a create
# that succeeds, fails the run (exit 1) naming what was expected and what
# came, the rest still torn down in reverse.
nc=$scndir/negative_create.yaml
run_scn "$tmp/out" "$tmp/err" --check-leaks "$nc"
[ $rc = 0 ] || { cat "$tmp/out" "$tmp/err"; fail "negative_create: exit $rc"; }
[ "$(rec -c '[.objects[] | select(.outcome == "failed as expected") | [.id, .errno, .error, .expect.error]]')" = \
  '[["too_deep",22,"EINVAL","EINVAL"],["too_much_inline",22,"EINVAL","EINVAL"]]' ] ||
	fail "negative_create: record: $(rec -c '.objects')"
[ "$(rec -c '[.teardown[].id]')" = '["cq","pd","ctx"]' ] ||
	fail "negative_create: teardown: $(rec -c '[.teardown[].id]')"
has negative_create "$tmp/out" "cq 'too_deep': its create failed with EINVAL, as expected"
ok "negative_create: $(grep -c 'as expected' "$tmp/out") creates failed with EINVAL, as expected"
run_scn "$tmp/out" "$tmp/err" --check-leaks --set err=ENOMEM "$nc"
[ $rc = 1 ] || { cat "$tmp/out" "$tmp/err"; fail "negative_create err=ENOMEM: exit $rc, want 1"; }
has "negative_create err=ENOMEM" "$tmp/err" "cq 'too_deep': its create was to fail with ENOMEM \\(expect:\\), and it failed with EINVAL"
ok "negative_create err=ENOMEM: $(grep -m1 'was to fail' "$tmp/err")"
sed 's/cqe: "${ctx.device.max_cqe + 1}"/cqe: 16/' "$nc" >"$tmp/succeeds.yaml"
run_scn "$tmp/out" "$tmp/err" --check-leaks "$tmp/succeeds.yaml"
[ $rc = 1 ] || { cat "$tmp/out" "$tmp/err"; fail "a create expected to fail succeeded: exit $rc, want 1"; }
has "expected to fail, succeeded" "$tmp/err" "cq 'too_deep': its create was to fail with EINVAL \\(expect:\\), and it succeeded"
[ "$(rec -c '[.teardown[].id]')" = '["too_deep","cq","pd","ctx"]' ] ||
	fail "the CQ that was made is not torn down: $(rec -c '[.teardown[].id]')"
ok "a create expected to fail that succeeds: exit 1, torn down"

f=$(dirname "$0")/scn/requires_fake.yaml
export RDMASCN_EXTRA_PLUGIN_DIR=$plugdir
expect requires_fake 0 "$f"
has requires_fake "$tmp/out" "^step 2 +verify +'check' +passed"
ok "requires test_fake, met by the tests' plugin: $(tail -n1 "$tmp/out")"
run_scn "$tmp/out" "$tmp/err" --check-leaks --set feature=mlx5dv "$f"
[ $rc = 77 ] || { cat "$tmp/out" "$tmp/err"; fail "requires mlx5dv: exit $rc, want 77"; }
has "requires mlx5dv" "$tmp/err" "rxe0 has no mlx5dv \\(requires.features; "
grep -q '^created' "$tmp/out" && fail "requires mlx5dv: skipped after creating objects"
ok "requires mlx5dv: skipped: $(grep -m1 "has no" "$tmp/err")"
# The mlx5 kinds check their own capability: without requires:, an mlx5
# CQ that a core QP uses is still skipped naming mlx5dv, nothing created.
run_scn "$tmp/out" "$tmp/err" --check-leaks "$(dirname "$0")/scn/mlx5_no_requires.yaml"
[ $rc = 77 ] || { cat "$tmp/out" "$tmp/err"; fail "mlx5_no_requires: exit $rc, want 77"; }
has mlx5_no_requires "$tmp/err" "has no mlx5dv \\(mlx5dv_is_supported\\(\\)(: mlx5dv_create_(cq|flow_matcher|mkey))?\\)"
grep -q '^created' "$tmp/out" && fail "mlx5_no_requires: skipped after creating objects"
ok "mlx5 kinds without requires: skipped: $(grep -m1 "has no" "$tmp/err")"
"$rdmascn" devices -j | jq -r '.[] | select(.name == "rxe0") | .features[]' |
	grep -qx test_fake || fail "devices: rxe0 does not list test_fake"
unset RDMASCN_EXTRA_PLUGIN_DIR
"$rdmascn" devices -j | jq -r '.[] | select(.name == "rxe0") | .features[]' |
	grep -qx test_fake && fail "devices: test_fake listed without the plugin"
ok "devices lists test_fake on rxe0 with the plugin only"
