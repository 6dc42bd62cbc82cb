#!/bin/bash
# `rdmascn run --dry-run` needs no device: for every scenario it prints
# the verbs calls, numbered, each tagged with its object; the objects come
# in plan order, and the teardown calls in exact reverse.
set -u
rdmascn=$1
scndir=$2
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$scndir"/*.yaml; do
	name=$(basename "$f" .yaml)
	"$rdmascn" run --dry-run "$f" >"$tmp/dry" 2>"$tmp/err" ||
		{ cat "$tmp/dry" "$tmp/err"; fail "$name: dry run exit $?"; }
	[ -s "$tmp/err" ] && { cat "$tmp/err"; fail "$name: dry run wrote to stderr"; }
	"$rdmascn" plan "$f" | sed -n '/^create:/,/^steps:/p' |
		sed -n "s/^ *[0-9]*  \([a-z_0-9]* '[^']*'\) .*/\1/p" >"$tmp/plan"
	# The objects the create calls are for, each once, in order.
	sed -n '/^create:/,/^teardown:/p' "$tmp/dry" |
		sed -n "s/^  \[[0-9]*\] .*  # \(.*\)$/\1/p" | uniq >"$tmp/made"
	diff -u "$tmp/plan" "$tmp/made" >"$tmp/diff" ||
		{ cat "$tmp/diff"; fail "$name: create calls not in plan order"; }
	sed -n '/^teardown:/,$p' "$tmp/dry" |
		sed -n "s/^       .*  # \(.*\)$/\1/p" | uniq >"$tmp/torn"
	tac "$tmp/plan" | diff -u - "$tmp/torn" >"$tmp/diff" ||
		{ cat "$tmp/diff"; fail "$name: teardown calls not the reverse"; }
	grep -v '^  \[\|^       \|^create:\|^steps:\|^teardown:\|^dry run' "$tmp/dry" &&
		fail "$name: unexpected lines in the dry run"
	echo "ok $name: $(grep -c '^  \[' "$tmp/dry") calls, $(wc -l <"$tmp/plan") objects, teardown reversed"
done
# The attributes are there: a QP's capabilities, a connection's RTR.
"$rdmascn" run --dry-run "$scndir/rc_pingpong.yaml" >"$tmp/dry"
grep -q "ibv_create_qp(.*max_recv_wr=500" "$tmp/dry" || { cat "$tmp/dry"; fail "no max_recv_wr=500 in ibv_create_qp"; }
grep -q "ibv_modify_qp(.*RTR" "$tmp/dry" || { cat "$tmp/dry"; fail "no RTR modify"; }
# A connection's knobs are in its calls: b's access alone, each side's
# psn as its sq_psn and the peer's rq_psn, the GRH fields on both RTRs.
"$rdmascn" run --dry-run "$scndir/conn_knobs.yaml" >"$tmp/dry"
knob() { grep -q "$1" "$tmp/dry" || { cat "$tmp/dry"; fail "conn_knobs: no $1"; }; }
knob "ibv_modify_qp(qp=a qp_state=INIT .*qp_access_flags=remote_write|remote_read|remote_atomic)"
knob "ibv_modify_qp(qp=b qp_state=INIT .*qp_access_flags=remote_write)"
knob "ibv_modify_qp(qp=a qp_state=RTR rq_psn=11259375 "
knob "ibv_modify_qp(qp=b qp_state=RTR rq_psn=291 "
knob "ibv_modify_qp(qp=a qp_state=RTS .*sq_psn=291 "
knob "ibv_modify_qp(qp=b qp_state=RTS .*sq_psn=11259375 "
[ "$(grep -c 'qp_state=RTR .*ah_attr.grh.hop_limit=1 ah_attr.grh.traffic_class=32 ah_attr.grh.flow_label=74565 ah_attr.static_rate=max ' "$tmp/dry")" = 2 ] ||
	{ cat "$tmp/dry"; fail "conn_knobs: the GRH fields not on both RTRs"; }
# With rdma_cm the file's values go over what rdma_init_qp_attr() gives.
sed 's/^    a: a$/    via: rdma_cm\n    a: a/' "$scndir/conn_knobs.yaml" >"$tmp/cm.yaml"
"$rdmascn" run --dry-run "$tmp/cm.yaml" >"$tmp/dry"
knob "ibv_modify_qp(qp=b attr=rdma_init_qp_attr(b_id) qp_state=INIT qp_access_flags=remote_write)"
knob "ibv_modify_qp(qp=b attr=rdma_init_qp_attr(b_id) qp_state=RTR rq_psn=291 .*ah_attr.grh.hop_limit=1 ah_attr.grh.traffic_class=32 ah_attr.grh.flow_label=74565"
knob "ibv_modify_qp(qp=a attr=rdma_init_qp_attr(a_id) qp_state=RTS .*sq_psn=291 "
echo "ok conn_knobs: access, psns and GRH fields in the dry run, oob and rdma_cm"
# An AH's src_path_bits and static_rate, and its defaults: hop limit 64,
# the source GID as the destination.
sed 's/^    dgid: .*$/    src_path_bits: 3\n    static_rate: 25/' "$scndir/ud_send.yaml" >"$tmp/ah.yaml"
"$rdmascn" run --dry-run "$tmp/ah.yaml" >"$tmp/dry"
knob "ibv_create_ah(.*dgid=(the source GID: loopback) .*hop_limit=64 .*src_path_bits=3 static_rate=25"
echo "ok ah: src_path_bits, static_rate and the defaults in the dry run"
# The steps' calls: each posting step's WR list as the first
# ibv_post_send() would pass it (wr_ids, opcodes, flags, SGEs, remote
# address and key, chaining), what only a device knows named after its
# object; and a flow's specs with their values and masks (the mask rule:
# a given value gets an all-ones mask unless a mask is given).
cat >"$tmp/post.yaml" <<'YAML'
scenario: post
contexts: [{id: ctx, device: any}]
pds: [{id: pd, context: ctx}]
cqs: [{id: cq, context: ctx, cqe: 64}]
mrs:
  - {id: src, pd: pd, length: 4096, access: [local_write]}
  - {id: dst, pd: pd, length: 4096, access: [local_write, remote_write, remote_atomic, mw_bind]}
mws: [{id: win, pd: pd, type: 2}]
qps:
  - {id: a, pd: pd, type: rc, send_cq: cq, recv_cq: cq, cap: {max_send_wr: 16, max_inline_data: 64}}
  - {id: b, pd: pd, type: rc, send_cq: cq, recv_cq: cq}
connections: [{id: ab, a: a, b: b, max_rd_atomic: 1, max_dest_rd_atomic: 1}]
steps:
  - write: {id: w, qp: a, local: src, remote: dst, offset: 8, length: 64, remote_offset: 128, iterations: 10, depth: 8, post_list: 3, signal_every: 2, inline: true}
  - atomic: {id: cas, qp: a, op: cmp_swap, local: src, remote: dst, compare: 1, swap: 2, remote_offset: 8}
  - send: {id: s, qp: a, local: src, imm: 7}
  - bind_mw: {id: bind, qp: b, mw: win, mr: dst, offset: 64, length: 1024, access: [remote_write]}
  - invalidate: {id: inv, qp: b, mw: win}
YAML
"$rdmascn" run --dry-run "$tmp/post.yaml" >"$tmp/dry" || { cat "$tmp/dry"; fail "post: exit $?"; }
sed -n '/^steps:/,/^teardown:/p' "$tmp/dry" >"$tmp/steps"
cat >"$tmp/want" <<'TXT'
steps:
       ibv_post_send(qp=a wrs=10 post_list=3 depth=8 signaled=5 wr[0].wr_id=0x90000000000 wr[0].opcode=IBV_WR_RDMA_WRITE wr[0].send_flags=inline wr[0].sg_list[0].addr=addr(src)+8 wr[0].sg_list[0].length=64 wr[0].sg_list[0].lkey=unused_inline wr[0].wr.rdma.remote_addr=addr(dst)+128 wr[0].wr.rdma.rkey=rkey(dst) wr[0].next=wr[1] wr[1].wr_id=0x90000000001 wr[1].opcode=IBV_WR_RDMA_WRITE wr[1].send_flags=signaled|inline wr[1].sg_list[0].addr=addr(src)+8 wr[1].sg_list[0].length=64 wr[1].sg_list[0].lkey=unused_inline wr[1].wr.rdma.remote_addr=addr(dst)+128 wr[1].wr.rdma.rkey=rkey(dst) wr[1].next=wr[2] wr[2].wr_id=0x90000000002 wr[2].opcode=IBV_WR_RDMA_WRITE wr[2].send_flags=inline wr[2].sg_list[0].addr=addr(src)+8 wr[2].sg_list[0].length=64 wr[2].sg_list[0].lkey=unused_inline wr[2].wr.rdma.remote_addr=addr(dst)+128 wr[2].wr.rdma.rkey=rkey(dst) wr[2].next=NULL)  # step 'w'
       ibv_post_send(qp=a wrs=1 post_list=1 depth=max_send_wr(a) signaled=1 wr[0].wr_id=0xa0000000000 wr[0].opcode=IBV_WR_ATOMIC_CMP_AND_SWP wr[0].send_flags=signaled wr[0].sg_list[0].addr=addr(src)+0 wr[0].sg_list[0].length=8 wr[0].sg_list[0].lkey=lkey(src) wr[0].wr.atomic.remote_addr=addr(dst)+8 wr[0].wr.atomic.rkey=rkey(dst) wr[0].wr.atomic.compare_add=1 wr[0].wr.atomic.swap=2 wr[0].next=NULL)  # step 'cas'
       ibv_post_send(qp=a wrs=1 post_list=1 depth=max_send_wr(a) signaled=1 wr[0].wr_id=0xb0000000000 wr[0].opcode=IBV_WR_SEND_WITH_IMM wr[0].send_flags=signaled wr[0].sg_list[0].addr=addr(src)+0 wr[0].sg_list[0].length=length(src)-0 wr[0].sg_list[0].lkey=lkey(src) wr[0].imm_data=7 wr[0].next=NULL)  # step 's'
       ibv_post_send(qp=b wrs=1 post_list=1 depth=max_send_wr(b) signaled=1 wr[0].wr_id=0xc0000000000 wr[0].opcode=IBV_WR_BIND_MW wr[0].send_flags=signaled wr[0].bind_mw.mw=win wr[0].bind_mw.rkey=inc_rkey(win) wr[0].bind_mw.bind_info.mr=dst wr[0].bind_mw.bind_info.addr=addr(dst)+64 wr[0].bind_mw.bind_info.length=1024 wr[0].bind_mw.bind_info.mw_access_flags=0x2 wr[0].next=NULL)  # step 'bind'
       ibv_post_send(qp=b wrs=1 post_list=1 depth=max_send_wr(b) signaled=1 wr[0].wr_id=0xd0000000000 wr[0].opcode=IBV_WR_LOCAL_INV wr[0].send_flags=signaled wr[0].invalidate_rkey=rkey(win) wr[0].next=NULL)  # step 'inv'
teardown:
TXT
diff -u "$tmp/want" "$tmp/steps" || fail "post: the steps' calls differ"
echo "ok post: write chain of 3 (signal every 2nd, inline), cmp_swap, send with imm, bind_mw, invalidate"
"$rdmascn" run --dry-run "$scndir/flow_steering.yaml" >"$tmp/dry"
knob "ibv_create_flow(qp=rx port=1 priority=0 flags=0x0 specs=eth{dst_mac=02:00:0a:63:00:01/ff:ff:ff:ff:ff:ff,ether_type=2048/0xffff},ipv4{dst_ip=10.99.0.0/255.255.255.0,proto=17/0xff},udp{dst_port=4791/0xffff} size=108)"
echo "ok flow: each spec's values and masks (all ones unless a mask is given)"
