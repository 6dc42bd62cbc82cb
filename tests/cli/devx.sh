#!/bin/bash
# DevX commands as data, on the host: the dry run of every mlx5 scenario
# (scenarios/mlx5/ and the mlx5 seeds) is its golden file byte for byte
# (tests/cli/golden/NAME.dry: each command's input in hex, a reference to
# another object's output as OUT(ID), the derived destroys in reverse);
# its --json record passes the run record's checks, with each command's
# fields typed; a failed allocation in the plugin's create is an error,
# not a crash.
#   devx.sh RDMASCN SCENARIOS GOLDEN SCHEMA CHECKER
set -u
rdmascn=$1 scn=$2 golden=$3 schema=$4 check=$5
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fails=0 n=0
bad() { fails=$((fails + 1)); echo "FAIL: $*"; }

for f in "$scn"/mlx5/*.yaml "$scn"/seeds/pyverbs_devx_*.yaml \
	 "$scn"/seeds/pyverbs_mlx5_*.yaml; do
	name=$(basename "$f" .yaml)
	n=$((n + 1))
	# Paths as the golden files have them: relative to scenarios/.
	(cd "$scn" && "$rdmascn" run -n "${f#"$scn"/}") >"$tmp/dry" 2>&1 ||
		{ bad "$name: dry run exit $?"; cat "$tmp/dry"; continue; }
	if diff -u "$golden/$name.dry" "$tmp/dry" >"$tmp/diff"; then
		echo "ok $name: the dry run is its golden file"
	else
		cat "$tmp/diff"
		bad "$name: dry run differs from $golden/$name.dry"
	fi
	n=$((n + 1))
	"$rdmascn" run -n --json "$tmp/r.json" "$f" >/dev/null 2>&1
	/usr/bin/python3 "$check" "$schema" "$tmp/r.json" 0 ||
		bad "$name: record"
done

# The fields of a command are the record's too: numbers stay numbers,
# hex stays text, a reference names what it stands for.
n=$((n + 1))
"$rdmascn" run -n --json "$tmp/r.json" "$scn/mlx5/devx_objects.yaml" >/dev/null
got=$(jq -c '.calls[] | select(.object == "devx_obj '"'tis'"'" and .name == "mlx5dv_devx_obj_create") | .fields' "$tmp/r.json")
want='{"context":"m","command":"CREATE_TIS","ctx.prio":3,"ctx.transport_domain":"transport_domain(td)","in":"0912<31*00>03<158*00>","inlen":192,"outlen":16}'
[ "$got" = "$want" ] || bad "tis fields: got $got, want $want"

# mlx5_qps cap: as qps cap: a field not given keeps its default (16 WRs,
# 1 SGE), one given as 0 is 0; the same numbers an rc qps entry asks for.
n=$((n + 1))
cat >"$tmp/cap.yaml" <<'EOF'
scenario: mlx5_qp_cap_defaults
contexts: [{id: ctx, device: any}]
pds: [{id: pd, context: ctx}]
cqs: [{id: cq, context: ctx, cqe: 16}]
qps:
  - {id: core, pd: pd, type: rc, send_cq: cq, cap: {max_inline_data: 128}}
mlx5_qps:
  - {id: inl, pd: pd, type: rc, send_cq: cq, cap: {max_inline_data: 128}}
  - {id: norecv, pd: pd, type: rc, send_cq: cq, cap: {max_recv_wr: 0}}
  - {id: none, pd: pd, type: rc, send_cq: cq}
EOF
"$rdmascn" run -n "$tmp/cap.yaml" >"$tmp/dry" 2>&1 || bad "cap: $(cat "$tmp/dry")"
caps='max_send_wr=16 max_recv_wr=16 max_send_sge=1 max_recv_sge=1'
grep -q "ibv_create_qp(.* $caps max_inline_data=128)  # qp 'core'" "$tmp/dry" &&
grep -q "mlx5dv_create_qp(.* $caps max_inline_data=128 .*# mlx5_qp 'inl'" "$tmp/dry" &&
grep -q "mlx5dv_create_qp(.* max_send_wr=16 max_recv_wr=0 max_send_sge=1 max_recv_sge=1 max_inline_data=0 .*# mlx5_qp 'norecv'" "$tmp/dry" &&
grep -q "mlx5dv_create_qp(.* $caps max_inline_data=0 .*# mlx5_qp 'none'" "$tmp/dry" ||
	bad "mlx5_qps cap defaults: $(grep create_qp "$tmp/dry")"

# Each allocation of a dry run failing in turn, until one N is past them
# all: an error that says "out of memory" (exit 3), never a crash.
n=$((n + 1))
for i in $(seq 1 3000); do
	RDMASCN_FAIL_ALLOC=$i "$rdmascn" run -n \
		"$scn/seeds/pyverbs_devx_alloc_pd.yaml" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc = 0 ] && break
	[ $rc = 3 ] && grep -q "out of memory" "$tmp/err" ||
		{ bad "alloc $i: exit $rc: $(head -c 300 "$tmp/err")"; break; }
done
[ $rc = 0 ] || bad "alloc: still failing at $i"

echo "$((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
