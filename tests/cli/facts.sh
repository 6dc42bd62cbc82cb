#!/bin/bash
# Device facts and expressions in ${...}, on the host (no device):
# `run -n` and `plan` state each fact's assumed value; the record's
# device_facts has them, located, and the record passes its schema;
# arithmetic over params follows --set; a requires.facts bound is not
# checked without a device.
#   facts.sh RDMASCN SEEDS_DIR SCHEMA CHECKER
set -u
rdmascn=$1 dir=$2 schema=$3 check=$4
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fails=0
bad() { fails=$((fails + 1)); echo "FAIL: $*"; }
split=$dir/pyverbs_query_port_split_write.yaml
cq=$dir/pyverbs_cq_device_bounds.yaml
dm=$dir/pyverbs_dm_device_sized.yaml

# run -n says what it assumed, once a fact, in the text and the record.
"$rdmascn" run -n --json "$tmp/r.json" "$split" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] || bad "run -n split: exit $rc: $(cat "$tmp/err")"
grep -qx 'assumed   ctx.port.max_msg_sz = 1073741824' "$tmp/out" ||
	bad "run -n does not state the assumed max_msg_sz: $(cat "$tmp/out")"
grep -qx 'assumed   ctx.port.active_mtu = 1024' "$tmp/out" ||
	bad "run -n does not state the assumed active_mtu"
[ "$(grep -c '^assumed' "$tmp/out")" = 2 ] || bad "a fact stated twice"
/usr/bin/python3 "$check" "$schema" "$tmp/r.json" $rc || bad "split: record"
got=$(jq -c '[.device_facts[] | [.context, .fact, .value, .assumed, .line]]' "$tmp/r.json")
[ "$got" = '[["ctx","port.max_msg_sz",1073741824,true,20],["ctx","port.active_mtu",1024,true,42]]' ] ||
	bad "device_facts: $got"
[ "$(jq -r .scenario.params.piece "$tmp/r.json")" = 32768 ] ||
	bad "piece is $(jq -r .scenario.params.piece "$tmp/r.json"), want min(65536 / 2, 1073741824)"

# --set changes what the expressions give: 1000 bytes split in two.
"$rdmascn" run -n --set size=1000 --json "$tmp/s.json" "$split" >"$tmp/out" 2>&1 ||
	bad "run -n --set size=1000: $(cat "$tmp/out")"
[ "$(jq -r .scenario.params.piece "$tmp/s.json")" = 500 ] ||
	bad "--set size=1000: piece is $(jq -r .scenario.params.piece "$tmp/s.json")"
grep -q 'ibv_reg_mr(pd=pd length=1000 ' "$tmp/out" ||
	bad "--set size=1000: no 1000-byte MR: $(grep reg_mr "$tmp/out")"
grep -q 'ibv_modify_qp.*path_mtu=1024' "$tmp/out" ||
	bad "the connection's MTU is not the assumed active_mtu: $(grep -m2 modify_qp "$tmp/out")"

# plan states them too, with the line of their first ${}.
"$rdmascn" plan "$cq" >"$tmp/plan" 2>&1 || bad "plan cq: $(cat "$tmp/plan")"
grep -qx '  assumed ctx.device.max_cqe = 4194303  line 17' "$tmp/plan" ||
	bad "plan does not state max_cqe: $(tail -3 "$tmp/plan")"
grep -qx '  assumed ctx.device.num_comp_vectors = 8  line 26' "$tmp/plan" ||
	bad "plan does not state num_comp_vectors"
"$rdmascn" run -n "$cq" >"$tmp/out" 2>&1 || bad "run -n cq"
grep -q 'ibv_create_cq(context=ctx cqe=200 channel=.* comp_vector=7)' "$tmp/out" ||
	bad "cq: not min(200, max_cqe) on the last vector: $(grep create_cq "$tmp/out")"

# Without a device, requires.facts is not checked (a dry run has no
# device to check it against); the DM is as large as assumed, capped.
"$rdmascn" run -n "$dm" >"$tmp/out" 2>&1 || bad "run -n dm: $(cat "$tmp/out")"
grep -q 'ibv_alloc_dm(context=ctx length=65536 ' "$tmp/out" ||
	bad "dm: $(grep alloc_dm "$tmp/out")"

# What identifies the device, its cap flags bit by bit and rss_caps are
# facts too; a dry run assumes a capable RoCE NIC's (docs/scenario.md).
cat >"$tmp/ids.yaml" <<'EOF'
scenario: device_ids
params:
  device: {default: any, env: RDMASCN_DEVICE}
  fw: "${ctx.device.fw_ver}"
  guid: "${ctx.device.node_guid}"
  vendor: "${ctx.device.vendor_id + 0}"
  ports: "${ctx.device.phys_port_cnt}"
  rnr: "${ctx.device.cap_flags.rc_rnr_nak_gen}"
  cm: "${ctx.port.cap_flags.cm_sup}"
  rss: "${ctx.device.rss_caps.rx_hash_function}"
requires:
  facts:
    - {fact: device.phys_port_cnt, min: 1}
    - {fact: port.cap_flags.cm_sup, equals: 1}
contexts:
  - {id: ctx, device: "${device}", port: 1}
EOF
"$rdmascn" run -n --json "$tmp/ids.json" "$tmp/ids.yaml" >"$tmp/out" 2>&1 ||
	bad "run -n ids: $(cat "$tmp/out")"
/usr/bin/python3 "$check" "$schema" "$tmp/ids.json" 0 || bad "ids: record"
got=$(jq -c '[.device_facts[] | [.fact, .value]]' "$tmp/ids.json")
[ "$got" = '[["device.fw_ver","0.0.0"],["device.node_guid","0000:0000:0000:0000"],["device.vendor_id",713],["device.phys_port_cnt",1],["device.cap_flags.rc_rnr_nak_gen",1],["port.cap_flags.cm_sup",1],["device.rss_caps.rx_hash_function",1]]' ] ||
	bad "ids: device_facts: $got"
sed 's/rc_rnr_nak_gen/rc_rnr_nak_ge/' "$tmp/ids.yaml" >"$tmp/typo.yaml"
"$rdmascn" validate "$tmp/typo.yaml" >"$tmp/out" 2>&1
rc=$?
[ $rc = 2 ] || bad "a misspelt cap flag: exit $rc"
grep -q "typo.yaml:8:8: params.rnr: .*unknown fact 'device.cap_flags.rc_rnr_nak_ge', did you mean 'device.cap_flags.rc_rnr_nak_gen'" "$tmp/out" ||
	bad "a misspelt cap flag: $(cat "$tmp/out")"
sed 's/{fact: device.phys_port_cnt, min: 1}/{fact: device.fw_ver, min: 1}/' \
	"$tmp/ids.yaml" >"$tmp/fwmin.yaml"
"$rdmascn" validate "$tmp/fwmin.yaml" >"$tmp/out" 2>&1
grep -q 'device.fw_ver is text: bound it with equals, not min' "$tmp/out" ||
	bad "fw_ver bounded with min: $(cat "$tmp/out")"

# mlx5.*: what mlx5dv_query_device() says, read through a context or an
# mlx5 context on it; assumed 0 without a device.
cat >"$tmp/mlx5.yaml" <<'EOF'
scenario: mlx5_facts
params:
  strides: "${m.mlx5.striding_rq.max_strides}"
  v1: "${ctx.mlx5.flags.cqe_v1}"
requires:
  facts:
    - {fact: mlx5.version, min: 1}
contexts: [{id: ctx, device: any}]
mlx5_contexts: [{id: m, context: ctx}]
EOF
"$rdmascn" run -n --json "$tmp/mlx5.json" "$tmp/mlx5.yaml" >"$tmp/out" 2>&1 ||
	bad "run -n mlx5 facts: $(cat "$tmp/out")"
/usr/bin/python3 "$check" "$schema" "$tmp/mlx5.json" 0 || bad "mlx5 facts: record"
grep -qx 'assumed   m.mlx5.striding_rq.max_strides = 0' "$tmp/out" &&
grep -qx 'assumed   ctx.mlx5.flags.cqe_v1 = 0' "$tmp/out" ||
	bad "mlx5 facts: not assumed 0: $(cat "$tmp/out")"
[ "$(jq -c '[.device_facts[] | [.context, .fact]]' "$tmp/mlx5.json")" = \
  '[["m","mlx5.striding_rq.max_strides"],["ctx","mlx5.flags.cqe_v1"]]' ] ||
	bad "mlx5 facts: record: $(jq -c .device_facts "$tmp/mlx5.json")"
sed 's/max_strides/max_stride/' "$tmp/mlx5.yaml" >"$tmp/mlx5typo.yaml"
"$rdmascn" validate "$tmp/mlx5typo.yaml" >"$tmp/out" 2>&1
grep -q "unknown fact 'mlx5.striding_rq.max_stride', did you mean 'mlx5.striding_rq.max_strides'" "$tmp/out" ||
	bad "mlx5 fact typo: $(cat "$tmp/out")"

# A file without facts says nothing of them.
"$rdmascn" run -n --json "$tmp/n.json" "$dir/../rc_write.yaml" >"$tmp/out" 2>&1
grep -q '^assumed' "$tmp/out" && bad "rc_write states assumptions"
[ "$(jq 'has("device_facts")' "$tmp/n.json")" = false ] ||
	bad "rc_write's record has device_facts"

[ $fails = 0 ] && echo "facts: all checks passed"
exit $((fails > 0))
