#!/bin/bash
# Runs inside the Soft-RoCE VM: rdmascn devices must show rxe0 as the VM
# set it up.  No device is a failure here, not a skip.
# (jv sets the variables the checks read: SC2154 cannot see it.)
# shellcheck disable=SC2154
set -u
rdmascn=$1
# Its scratch space, its EXIT trap and its records checked when it ends
# (on the host, under tests/rxe/in_vm.sh: one python under TCG takes
# seconds to start).
. "$(dirname "$0")/lib.sh"
json=$("$rdmascn" devices -j) || fail "rdmascn devices -j exited $?"
q() { jq -r "$1" <<<"$json"; }
dev='.[] | select(.name == "rxe0")'
# jv VAR=EXPR...: the values of EXPRs under rxe0 in shell variables, by
# one jq for all (under TCG each jq costs the best part of a second): a
# string as it is, anything else as compact JSON, a stream of them one a
# line (as `q "$dev | EXPR"` prints them).
jv() {
	local prog='' names=() vals=() v i
	for v; do
		names+=("${v%%=*}")
		prog+="${prog:+, }([$dev | ${v#*=}] | map(if type == \"string\" then . else tojson end) | join(\"\\n\")), \"\\u0000\""
	done
	# (A file, not <(...): the VM has no /dev/fd; and $(...) drops NULs.)
	jq -j "$prog" <<<"$json" >"$tmp/jv"
	mapfile -d '' vals <"$tmp/jv"
	for i in "${!names[@]}"; do
		printf -v "${names[$i]}" '%s' "${vals[$i]:-}"
	done
}
# has_line LINES WORD: WORD is one of LINES (grep -qx).
has_line() { [[ $'\n'$1$'\n' == *$'\n'"$2"$'\n'* ]]; }
nums=()
isnum() { nums+=("$1"); }
for k in num_comp_vectors max_srq_sge page_size_cap local_ca_ack_delay \
	max_sge_rd max_res_rd_atom max_mcast_qp_attach max_pkeys max_dm_size \
	hca_core_clock max_wq_type_rq device_cap_flags_raw \
	device_cap_flags_ex_raw raw_packet_caps_raw xrc_odp_caps_raw; do
	isnum ".caps.$k"
done
for k in rss_caps.max_rwq_indirection_tables rss_caps.rx_hash_fields_mask_raw \
	rss_caps.supported_qpts_raw odp_caps.general_caps_raw \
	odp_caps.per_transport_caps.rc_odp_caps_raw tso_caps.max_tso \
	packet_pacing_caps.qp_rate_limit_max tm_caps.max_num_tags \
	cq_mod_caps.max_cq_period pci_atomic_caps.fetch_add_raw; do
	isnum ".caps.$k"
done
for k in port_cap_flags_raw port_cap_flags2_raw flags_raw lmc max_vl_num \
	sm_sl subnet_timeout init_type_reply bad_pkey_cntr qkey_viol_cntr; do
	isnum ".ports[0].$k"
done
types=()
for p in "${nums[@]}"; do types+=("($p | type)"); done
gid1='.ports[0].gids[] | select(.index == 1)'
jv name=.name port=.ports[0].port state=.ports[0].state \
	phys_state=.ports[0].phys_state link_layer=.ports[0].link_layer \
	gid="$gid1 | .gid" gid_type="$gid1 | .type" gid_netdev="$gid1 | .netdev" \
	atomic=.caps.atomic features='.features[]' max_qp=.caps.max_qp \
	has_mlx5='has("mlx5")' \
	not_nums="[$(IFS=,; echo "${types[*]}")] | map(select(. != \"number\")) | length" \
	mask_type='.caps.rss_caps.rx_hash_fields_mask | type' \
	ncv=.caps.num_comp_vectors pcf='.ports[0].port_cap_flags[]' \
	pcf_list=.ports[0].port_cap_flags pcf_raw=.ports[0].port_cap_flags_raw \
	port_flags='.ports[0].flags[]' dcf='.caps.device_cap_flags[]' \
	msg=.ports[0].max_msg_sz mtu=.ports[0].active_mtu \
	max_cqe=.caps.max_cqe max_qp_wr=.caps.max_qp_wr max_pd=.caps.max_pd \
	max_cq=.caps.max_cq max_srq=.caps.max_srq max_mw=.caps.max_mw \
	vendor_id=.vendor_id rwq=.caps.rss_caps.max_rwq_indirection_table_size \
	id_fw_ver=.fw_ver id_node_guid=.node_guid \
	id_sys_image_guid=.sys_image_guid id_vendor_part_id=.vendor_part_id \
	id_hw_ver=.hw_ver id_phys_port_cnt=.phys_port_cnt
[ "$name" = rxe0 ] || fail "no rxe0 in: $json"
[ "$port" = 1 ] || fail "port 1 missing"
[ "$state" = ACTIVE ] || fail "port 1 not ACTIVE"
[ "$phys_state" = LINK_UP ] || fail "port 1 not LINK_UP"
[ "$link_layer" = Ethernet ] || fail "link layer not Ethernet"
[ "$gid" = "::ffff:10.99.0.1" ] || fail "GID index 1 is not ::ffff:10.99.0.1"
[ "$gid_type" = "RoCE v2" ] || fail "GID index 1 is not RoCE v2"
[ "$gid_netdev" = veth0 ] || fail "GID index 1 not on veth0"
# What the VM notes say rxe has, and lacks.
[ "$atomic" = hca ] || fail "atomic cap not hca"
for f in srq mw_type1 atomics; do
	has_line "$features" "$f" || fail "feature $f missing"
done
for f in xrc dm flow_steering raw_packet mlx5dv devx; do
	has_line "$features" "$f" && fail "rxe claims $f"
done
[ "$max_qp" -gt 1000 ] || fail "max_qp too small"
[ "$has_mlx5" = false ] || fail "mlx5 plugin described rxe0"

# The human table says the same.
table=$("$rdmascn" devices) || fail "rdmascn devices exited $?"
grep -Eq '^  1 +ACTIVE +Ethernet +1024 ' <<<"$table" || fail "table: $table"
grep -Eq ' 1 +::ffff:10\.99\.0\.1 +RoCE v2 +veth0$' <<<"$table" || fail "table: $table"
# The summary stays a summary: the groups are for -v.
grep -q '^  limits:$' <<<"$table" && fail "the summary has -v's groups: $table"

# -j holds every attribute of ibv_query_device_ex and ibv_query_port,
# numbers as numbers, flag words as names and raw.
# qall PATH...: "PATH VALUE" a line for each jq path under $dev, by one
# jq (under TCG each jq costs the best part of a second).
qall() {
	local prog= p
	for p; do prog+="${prog:+, }(\"$p \" + ($p | tostring))"; done
	q "$dev | $prog"
}
[ "$not_nums" = 0 ] || fail "not all numbers: $(qall "${nums[@]}")"
[ "$mask_type" = array ] ||
	fail "rss_caps.rx_hash_fields_mask is not a name list"
[ "$ncv" -ge 1 ] || fail "no completion vector"
# rxe's port: a connection manager (CM_SUP), and a GRH on every AH.
has_line "$pcf" cm_sup || fail "port_cap_flags lacks cm_sup: $pcf_list"
[ $(( pcf_raw & 0x10000 )) != 0 ] ||
	fail "port_cap_flags_raw lacks bit 16"
has_line "$port_flags" grh_required || fail "no grh_required"
has_line "$dcf" mem_mgt_extensions ||
	fail "device_cap_flags lacks mem_mgt_extensions"

# The same numbers as ibv_devinfo -v.
devinfo=$(ibv_devinfo -v -d rxe0) || fail "ibv_devinfo -v exited $?"
# di KEY: the first word after "KEY:" on the first line (less its
# indent) that starts so; read once into devinfo_of, not an awk a key.
declare -A devinfo_of=()
while IFS= read -r l; do
	l=${l#"${l%%[! $'\t']*}"}
	[[ $l == *:* ]] || continue
	[ -n "${devinfo_of[${l%%:*}]+set}" ] && continue
	[[ ${l#*:} =~ ^[[:space:]]*([^[:space:]]*) ]]
	devinfo_of[${l%%:*}]=${BASH_REMATCH[1]}
done <<<"$devinfo"
di() { printf '%s\n' "${devinfo_of[$1]:-}"; }
keys=() paths=()
same() { keys+=("$1"); paths+=("$2"); } # KEY JQ-PATH
for k in max_qp max_qp_wr max_sge max_sge_rd max_cq max_cqe max_mr max_pd \
	max_qp_rd_atom max_res_rd_atom max_qp_init_rd_atom max_mw \
	max_mcast_grp max_mcast_qp_attach max_total_mcast_qp_attach max_ah \
	max_srq max_srq_wr max_srq_sge max_pkeys local_ca_ack_delay \
	page_size_cap num_comp_vectors max_wq_type_rq; do
	same "$k" ".caps.$k"
done
for k in max_msg_sz port_cap_flags:port_cap_flags_raw \
	port_cap_flags2:port_cap_flags2_raw max_vl_num sm_sl pkey_tbl_len \
	gid_tbl_len subnet_timeout bad_pkey_cntr qkey_viol_cntr port_lmc:lmc; do
	same "${k%%:*}" ".ports[0].${k##*:}"
done
# (A here-string, not <(...): the VM has no /dev/fd.)
i=0
while read -r path got; do
	want=${devinfo_of[${keys[$i]}]:-}
	[ -n "$want" ] || fail "ibv_devinfo -v has no ${keys[$i]}"
	[ "$path" = "${paths[$i]}" ] && [ $((want)) = "$got" ] ||
		fail "$path is $got, ibv_devinfo says ${keys[$i]} $want"
	i=$((i + 1))
done <<<"$(qall "${paths[@]}")"
[ $i = ${#keys[@]} ] || fail "compared $i of ${#keys[@]} with ibv_devinfo"

# -v shows them grouped, below the same summary.
all=$("$rdmascn" devices -v -d rxe0) || fail "rdmascn devices -v exited $?"
grep -Eq '^  1 +ACTIVE +Ethernet +1024 ' <<<"$all" || fail "-v has no summary: $all"
for g in device limits 'capability flags' odp_caps tso_caps rss_caps \
	packet_pacing_caps tm_caps cq_mod_caps pci_atomic_caps 'port 1'; do
	grep -qx "  $g:" <<<"$all" || fail "-v has no group '$g': $all"
done
grep -Eq "^    max_srq_sge +$(di max_srq_sge)\$" <<<"$all" || fail "-v: max_srq_sge: $all"
grep -Eq "^    page_size_cap +$(di page_size_cap)\$" <<<"$all" || fail "-v: page_size_cap: $all"
grep -Eq '^    port_cap_flags +0x10000 cm_sup$' <<<"$all" || fail "-v: port_cap_flags: $all"
grep -Eq '^      rc_odp_caps +0x0$' <<<"$all" || fail "-v: rc_odp_caps: $all"

"$rdmascn" devices -d rxe0 >/dev/null || fail "-d rxe0 exited $?"
"$rdmascn" devices -d nosuch 2>/dev/null; rc=$?
[ $rc = 3 ] || fail "-d nosuch exited $rc, want 3"
ok "rxe0 as expected"

# The same facts in a scenario (${ctx.port.FIELD}): a run substitutes
# rxe0's values, not the assumed ones, and says which in its record; a
# requires.facts bound rxe0 does not meet is a skip naming the fact, the
# bound and the value.
seeds=$(dirname "$0")/../../scenarios/seeds
"$rdmascn" run -v --check-leaks --json "$tmp/split.json" \
	"$seeds/pyverbs_query_port_split_write.yaml" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] || fail "split write: exit $rc: $(cat "$tmp/out" "$tmp/err")"
r() { jq -r "$1" "$tmp/split.json"; }
[ "$(r '[.device_facts[] | .context + "." + .fact + "=" + (.value | tostring) + " " + .device + " " + (.assumed | tostring)] | join(",")')" = \
  "ctx.port.max_msg_sz=$msg rxe0 false,ctx.port.active_mtu=$mtu rxe0 false" ] ||
	fail "device_facts: $(r -c .device_facts)"
piece=$(( msg < 32768 ? msg : 32768 ))
[ "$(r .scenario.params.piece)" = "$piece" ] ||
	fail "piece is $(r .scenario.params.piece), want min(32768, $msg)"
grep -qx "fact      ctx.port.max_msg_sz = $msg (rxe0)" "$tmp/out" ||
	fail "no fact line: $(cat "$tmp/out")"
grep -q "ibv_modify_qp(.*path_mtu=$mtu" "$tmp/out" "$tmp/err" ||
	fail "the path MTU is not the port's $mtu: $(grep -h -m2 modify_qp "$tmp/out" "$tmp/err")"
ok "facts: split write on rxe0: max_msg_sz=$msg active_mtu=$mtu piece=$piece, passed"
# A param computed from a fact is recorded as the run used it: rxe0's
# max_cqe (32767) sizes the CQ, and the record's scenario.params says
# so, not the 100000 of the assumed 4194303.
cat >"$tmp/pf.yaml" <<'YAML'
scenario: params_from_facts
params:
  cqe: "${min(100000, ctx.device.max_cqe)}"
contexts: [{id: ctx, device: rxe0, port: 1}]
cqs: [{id: cq, context: ctx, cqe: "${cqe}"}]
YAML
"$rdmascn" run -v --json "$tmp/pf.json" "$tmp/pf.yaml" >"$tmp/out" 2>"$tmp/err" ||
	fail "params from facts: exit $?: $(cat "$tmp/out" "$tmp/err")"
want=$(( max_cqe < 100000 ? max_cqe : 100000 ))
[ "$(jq -r .scenario.params.cqe "$tmp/pf.json")" = "$want" ] ||
	fail "params from facts: scenario.params.cqe is $(jq -r .scenario.params.cqe "$tmp/pf.json"), want min(100000, $max_cqe) = $want"
grep -q "ibv_create_cq(context=ctx cqe=$want " "$tmp/out" "$tmp/err" ||
	fail "params from facts: the CQ was not asked for $want: $(grep -h create_cq "$tmp/out" "$tmp/err")"
ok "facts: params.cqe recorded as $want, the CQ's (min(100000, max_cqe $max_cqe)), passed"
"$rdmascn" run -v --json "$tmp/cq.json" "$seeds/pyverbs_cq_device_bounds.yaml" \
	>"$tmp/out" 2>"$tmp/err" || fail "cq seed: $(cat "$tmp/out" "$tmp/err")"
grep -q "ibv_create_cq(context=ctx cqe=200 channel=.* comp_vector=$((ncv - 1)))" \
	"$tmp/out" "$tmp/err" ||
	fail "the CQ is not on the last of $ncv vectors: $(grep -h create_cq "$tmp/out" "$tmp/err")"
ok "facts: cq on vector $((ncv - 1)) of $ncv (assumed 8 would be 7), passed"
"$rdmascn" run --json "$tmp/dm.json" "$seeds/pyverbs_dm_device_sized.yaml" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 77 ] || fail "dm seed: exit $rc, want 77: $(cat "$tmp/out" "$tmp/err")"
grep -q "rxe0 has no device.max_dm_size of at least 4096 (it has 0; requires.facts\[0\])" \
	"$tmp/err" || fail "the skip does not name fact, bound and value: $(cat "$tmp/err")"
ok "facts: $(grep -m1 max_dm_size "$tmp/err")"
# The records are checked when the test ends, with the ids run's.
keep_rec "$tmp/split.json" 0 "split write"
keep_rec "$tmp/dm.json" 77 "dm seed"
keep_rec "$tmp/pf.json" 0 "params from facts"

# What identifies rxe0 (fw_ver, GUIDs, vendor, part, hw_ver, port count),
# a cap flag bit by bit and rss_caps, read as facts by a run: the values
# `devices -j` prints, rxe's vendor id 0xffffff, one port.
cat >"$tmp/ids.yaml" <<'EOF'
scenario: rxe_ids
params:
  fw: "${ctx.device.fw_ver}"
  guid: "${ctx.device.node_guid}"
  sysguid: "${ctx.device.sys_image_guid}"
  vendor: "${ctx.device.vendor_id}"
  part: "${ctx.device.vendor_part_id}"
  hw: "${ctx.device.hw_ver}"
  ports: "${ctx.device.phys_port_cnt}"
  mmx: "${ctx.device.cap_flags.mem_mgt_extensions}"
  xrc: "${ctx.device.cap_flags.xrc}"
  cm: "${ctx.port.cap_flags.cm_sup}"
  rwq: "${ctx.device.rss_caps.max_rwq_indirection_table_size}"
  mlx5: "${ctx.mlx5.version}"
requires:
  facts:
    - {fact: device.phys_port_cnt, equals: 1}
    - {fact: port.cap_flags.cm_sup, equals: 1}
contexts:
  - {id: ctx, device: rxe0}
EOF
"$rdmascn" run --json "$tmp/ids.json" "$tmp/ids.yaml" >"$tmp/out" 2>"$tmp/err" ||
	fail "ids: exit $?: $(cat "$tmp/out" "$tmp/err")"
# fv FACT: the fact's value as the record says (" assumed" after it if
# it was), from one jq of the record, not one a fact.
declare -A fv_of=()
jq -j '.device_facts[] | .fact, "\u0000",
	((.value | tostring) + (if .assumed then " assumed" else "" end)),
	"\u0000"' "$tmp/ids.json" >"$tmp/facts"
mapfile -d '' facts <"$tmp/facts"
for ((i = 0; i + 1 < ${#facts[@]}; i += 2)); do
	fv_of[${facts[$i]}]+=${fv_of[${facts[$i]}]+$'\n'}${facts[$((i + 1))]}
done
fv() { printf '%s\n' "${fv_of[$1]:-}"; }
for k in fw_ver node_guid sys_image_guid vendor_part_id hw_ver \
	phys_port_cnt; do
	v=id_$k
	[ "${fv_of[device.$k]:-}" = "${!v}" ] ||
		fail "device.$k is '${fv_of[device.$k]:-}', devices -j says '${!v}'"
done
[ "$(fv device.vendor_id)" = $((0xffffff)) ] ||
	fail "device.vendor_id is $(fv device.vendor_id), rxe's is 0xffffff"
printf -v got '0x%04x' "${fv_of[device.vendor_id]:-}"
[ "$got" = "$vendor_id" ] ||
	fail "device.vendor_id is not devices -j's $vendor_id"
[ "$(fv device.phys_port_cnt)" = 1 ] || fail "phys_port_cnt $(fv device.phys_port_cnt)"
grep -Eqx '[0-9]+\.[0-9]+\.[0-9]+' <<<"$(fv device.fw_ver)" ||
	fail "fw_ver '$(fv device.fw_ver)' is not rxe's MAJOR.MINOR.SUB"
[ "$(fv device.node_guid)" != 0000:0000:0000:0000 ] || fail "node_guid is zero"
[ "$(fv device.cap_flags.mem_mgt_extensions)" = 1 ] ||
	fail "cap_flags.mem_mgt_extensions is $(fv device.cap_flags.mem_mgt_extensions)"
[ "$(fv device.cap_flags.xrc)" = 0 ] || fail "rxe has cap_flags.xrc"
[ "$(fv port.cap_flags.cm_sup)" = 1 ] || fail "port.cap_flags.cm_sup not 1"
[ "$(fv device.rss_caps.max_rwq_indirection_table_size)" = "$rwq" ] ||
	fail "rss_caps.max_rwq_indirection_table_size differs from devices -j"
# rxe is no mlx5 device: the mlx5 plugin says nothing of it, so 0.
[ "$(fv mlx5.version)" = 0 ] || fail "rxe0 has mlx5.version $(fv mlx5.version)"
keep_rec "$tmp/ids.json" 0 "ids"
echo "facts: rxe0 fw_ver=$(fv device.fw_ver) node_guid=$(fv device.node_guid) vendor_id=$(fv device.vendor_id) phys_port_cnt=$(fv device.phys_port_cnt), passed"

# Limits, before anything is created: more objects than one of rxe0's
# maxima (the smallest among PDs, CQs, QPs, SRQs, MWs: counted entries of
# at most 100,000, to the maximum + 1), a CQ deeper than its max_cqe, a
# QP's cap over max_qp_wr, refused at the probe (exit 3) naming the
# limit, with no create call made; an mr over RLIMIT_MEMLOCK without
# CAP_IPC_LOCK refused at validate (exit 2).
lim() { # NAME EXTRA-YAML: a scenario on rxe0
	{ echo "scenario: limit-$1"
	  echo "contexts: [{id: ctx, device: rxe0}]"
	  echo "pds: [{id: pd, context: ctx}]"
	  echo "$2"; } >"$tmp/lim-$1.yaml"
}
best= best_max=
for k in pd:max_pd cq:max_cq qp:max_qp srq:max_srq mw:max_mw; do
	v=${k#*:}
	m=${!v}
	if [ -z "$best" ] || [ "$m" -lt "$best_max" ]; then best=$k best_max=$m; fi
done
kind=${best%%:*} fact=${best#*:}
ok "limits: smallest count maximum on rxe0: $fact $best_max"
if [ "$best_max" -lt 300000 ]; then
	need=$((best_max + 1)) entries= i=0
	while [ $need -gt 0 ]; do
		c=$(( need > 100000 ? 100000 : need ))
		case $kind in
		pd) e="{id: x$i, count: $c, context: ctx}" ;;
		cq) e="{id: x$i, count: $c, context: ctx, cqe: 1}" ;;
		qp) e="{id: x$i, count: $c, pd: pd, type: rc, send_cq: cq, recv_cq: cq}" ;;
		srq) e="{id: x$i, count: $c, pd: pd, max_wr: 1}" ;;
		mw) e="{id: x$i, count: $c, pd: pd, type: 1}" ;;
		esac
		entries="$entries${entries:+, }$e"
		need=$((need - c)) i=$((i + 1))
	done
	[ $kind = qp ] && extra="cqs: [{id: cq, context: ctx, cqe: 16}]
" || extra=
	[ $kind = pd ] && lim count "pds: [$entries]" || lim count "${extra}${kind}s: [$entries]"
	# pds: is given twice for pd; keep one.
	[ $kind = pd ] && sed -i '3d' "$tmp/lim-count.yaml"
	checks="count:$fact"
else
	echo "limits: count check not run: rxe0's smallest maximum ($fact $best_max) needs more than 300,000 objects"
	checks=
fi
lim cqe "cqs: [{id: cq, context: ctx, cqe: $((max_cqe + 1))}]"
lim qp_wr "cqs: [{id: cq, context: ctx, cqe: 16}]
qps: [{id: q, pd: pd, type: rc, send_cq: cq, recv_cq: cq, cap: {max_send_wr: $((max_qp_wr + 1))}}]"
for c in $checks cqe:max_cqe qp_wr:max_qp_wr; do
	n=${c%%:*} fact=${c#*:}
	t0=$EPOCHREALTIME
	"$rdmascn" run -v --check-leaks "$tmp/lim-$n.yaml" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	t1=$EPOCHREALTIME
	[ $rc = 3 ] || fail "limit $n: exit $rc, want 3: $(head -c 2000 "$tmp/err")"
	grep -q "($fact)\|'s $fact, " "$tmp/err" ||
		fail "limit $n: $fact not named: $(head -c 2000 "$tmp/err")"
	grep -Eq 'ibv_(alloc_pd|create_cq|create_qp|create_srq|alloc_mw)' "$tmp/out" "$tmp/err" &&
		fail "limit $n: created something first: $(grep -Eh -m3 'ibv_(alloc_pd|create_cq|create_qp)' "$tmp/out" "$tmp/err")"
	ok "limits: $(grep -m1 "$fact" "$tmp/err" | sed "s|^$tmp/||" | cut -c1-300) ($(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s)"
done
lim memlock "mrs: [{id: m, pd: pd, length: 1048576, access: [local_write]}]"
for verb in validate run; do
	(ulimit -S -l 64 && exec setpriv --inh-caps=-ipc_lock \
		--bounding-set=-ipc_lock "$rdmascn" $verb "$tmp/lim-memlock.yaml") \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] || fail "memlock $verb: exit $rc, want 2: $(cat "$tmp/err")"
	grep -q "RLIMIT_MEMLOCK, 65536 bytes, and without CAP_IPC_LOCK" "$tmp/err" ||
		fail "memlock $verb: $(cat "$tmp/err")"
done
ok "limits: $(sed "s|^$tmp/||" "$tmp/err" | cut -c1-200)"
"$rdmascn" run "$tmp/lim-memlock.yaml" >"$tmp/out" 2>"$tmp/err" ||
	fail "memlock as root: $(cat "$tmp/err")"
ok "limits: the same mr as root (CAP_IPC_LOCK): passed"
