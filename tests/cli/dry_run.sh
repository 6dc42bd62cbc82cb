#!/bin/bash
# `rdmascn run --dry-run` needs no device: for every scenario it prints
# the verbs calls, numbered, each tagged with its object; the objects come
# in plan order, and the teardown calls in exact reverse.
set -u
rdmascn=$1
scndir=$2
golden=$3
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT

# check_dry NAME FILE [--set K=V...]: $tmp/dry is FILE's dry run (one
# cell's, with the cell's params): its calls against plan's objects.
check_dry() {
	local name=$1 f=$2
	shift 2
	"$rdmascn" plan -v "$@" "$f" | sed -n '/^create:/,/^steps:/p' |
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
	# (and what a fact was assumed to be)
	grep -v '^  \[\|^       \|^create:\|^steps:\|^teardown:\|^dry run\|^assumed   ' "$tmp/dry" &&
		fail "$name: unexpected lines in the dry run"
	echo "ok $name: $(grep -c '^  \[' "$tmp/dry") calls, $(wc -l <"$tmp/plan") objects, teardown reversed"
}

# A `nodes:` file without a role plays every node: the same objects as
# plan, the connection between the nodes among them.  A matrix: each
# cell as the file with its params set (scenarios/rc_sweep.yaml).
for f in "$scndir"/*.yaml "$scndir"/nodes/*.yaml; do
	name=${f#"$scndir"/}
	name=${name%.yaml}
	"$rdmascn" run --dry-run "$f" >"$tmp/all" 2>"$tmp/err" ||
		{ cat "$tmp/all" "$tmp/err"; fail "$name: dry run exit $?"; }
	[ -s "$tmp/err" ] && { cat "$tmp/err"; fail "$name: dry run wrote to stderr"; }
	if ! grep -q '^cell 1 of ' "$tmp/all"; then
		cp "$tmp/all" "$tmp/dry"
		check_dry "$name" "$f"
		continue
	fi
	cells=$(grep -c '^cell [0-9]* of ' "$tmp/all")
	[ "$(grep -c '^  [^ ].* dry run done$' "$tmp/all")" = "$cells" ] ||
		{ cat "$tmp/all"; fail "$name: not $cells cells in the matrix table"; }
	for ((k = 1; k <= cells; k++)); do
		cell=$(sed -n "s/^cell $k of [0-9]*: //p" "$tmp/all")
		sed -n "/^cell $k of /,/^dry run done/p" "$tmp/all" | sed 1d >"$tmp/dry"
		sets=()
		IFS=, read -ra kv <<<"$cell"
		for p in "${kv[@]}"; do sets+=(--set "$p"); done
		check_dry "$name [$cell]" "$f" "${sets[@]}"
	done
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
# Across nodes: the connection's calls move both sides, as on one node.
"$rdmascn" run --dry-run "$scndir/nodes/rc_pingpong.yaml" >"$tmp/dry"
knob "ibv_modify_qp(qp=a qp_state=RTR .*dest_qp_num=qpn(b) .*  # connection 'ab'"
knob "ibv_modify_qp(qp=b qp_state=RTS .*  # connection 'ab'"
grep -q "^dry run done: 11 objects," "$tmp/dry" ||
	{ cat "$tmp/dry"; fail "nodes/rc_pingpong: not the 11 objects of plan"; }
echo "ok nodes/rc_pingpong: the connection between the nodes in the dry run"
echo "ok conn_knobs: access, psns and GRH fields in the dry run, oob and rdma_cm"
# An AH's src_path_bits and static_rate, and its defaults: hop limit 64,
# the source GID as the destination.
sed 's/^    dgid: .*$/    src_path_bits: 3\n    static_rate: 25/' "$scndir/ud_send.yaml" >"$tmp/ah.yaml"
"$rdmascn" run --dry-run "$tmp/ah.yaml" >"$tmp/dry"
knob "ibv_create_ah(.*dgid=(the source GID: loopback) .*hop_limit=64 .*src_path_bits=3 static_rate=25"
echo "ok ah: src_path_bits, static_rate and the defaults in the dry run"
# Imports are objects that need their originals: created after them,
# taken down before them (ibv_unimport_* before the original's release).
seeds=$scndir/seeds
"$rdmascn" run --dry-run "$seeds/pyverbs_import_pd_mr.yaml" >"$tmp/dry"
knob() { grep -q "$1" "$tmp/dry" || { cat "$tmp/dry"; fail "dry run: no $1"; }; }
knob "ibv_import_device(cmd_fd=dup(ctx.cmd_fd))  # context 'imported_ctx'"
knob "ibv_import_pd(context=imported_ctx pd_handle=pd.handle)  # pd 'imported_pd'"
knob "ibv_import_mr(pd=imported_pd mr_handle=mr.handle)  # mr 'imported_mr'"
before() {
	local a b
	a=$(grep -n -m1 -F "$1" "$tmp/dry" | cut -d: -f1)
	b=$(grep -n -m1 -F "$2" "$tmp/dry" | cut -d: -f1)
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] ||
		{ cat "$tmp/dry"; fail "imports: '$1' is not before '$2'"; }
}
before "ibv_unimport_mr(mr=imported_mr)" "ibv_dereg_mr(mr=mr)"
before "ibv_unimport_pd(pd=imported_pd)" "ibv_dealloc_pd(pd=pd)"
before "ibv_close_device(context=imported_ctx)" "ibv_close_device(context=ctx)"
grep -q "ibv_dereg_mr(mr=imported_mr)\|ibv_dealloc_pd(pd=imported_pd)" "$tmp/dry" &&
	{ cat "$tmp/dry"; fail "imports: an import released as if it were the original"; }
echo "ok imports: ibv_import_device/pd/mr, each unimported before its original"
# A DM MR at an offset, a dma-buf MR, allocators, a device by index.
"$rdmascn" run --dry-run "$seeds/pyverbs_dm_mr.yaml" >"$tmp/dry"
knob "ibv_reg_dm_mr(pd=pd dm=dm dm_offset=256 length=100 "
knob "fill=pattern (ibv_memcpy_to_dm)"
"$rdmascn" run --dry-run "$seeds/pyverbs_dmabuf_mr.yaml" >"$tmp/dry"
knob "udmabuf(memfd_size=8192 seals=F_SEAL_SHRINK)  # mr 'dst'"
knob "ibv_reg_dmabuf_mr(pd=pd offset=128 length=4096 iova=the buffer's address fd=udmabuf access=local_write|remote_write"
"$rdmascn" run --dry-run "$seeds/pyverbs_parent_domain.yaml" >"$tmp/dry"
knob "ibv_alloc_parent_domain(pd=pd td=none comp_mask=ALLOCATORS alloc=engine (posix_memalign))"
knob "ibv_create_cq_ex(.*comp_mask=0x2 parent_domain=parent_domain "
knob "ibv_create_qp(pd=parent_domain "
"$rdmascn" run --dry-run "$seeds/pyverbs_device_list.yaml" >"$tmp/dry"
knob "ibv_open_device(device=#0 port=1)"
echo "ok dm_offset, dmabuf, parent domain allocators and a device by index in the dry run"
# Buffers: each mapping is an mmap() before its registration and a
# munmap() right after its deregistration; literal contents are named.
"$rdmascn" run --dry-run "$scndir/seeds/pyverbs_mr_hugepage.yaml" >"$tmp/dry"
knob "mmap(length=2097152 flags=MAP_PRIVATE|MAP_ANONYMOUS|MAP_HUGETLB)  # mr 'src'"
knob "ibv_reg_mr(pd=pd length=2097152 access=local_write memory=hugetlb fill=hex (8 bytes))"
[ "$(sed -n '/^teardown:/,$p' "$tmp/dry" | grep -A1 "ibv_dereg_mr(mr=src)" | tail -n1)" = "       munmap(length=2097152)  # mr 'src'" ] ||
	{ cat "$tmp/dry"; fail "hugepage: no munmap right after ibv_dereg_mr"; }
"$rdmascn" run --dry-run "$scndir/seeds/pyverbs_mr_file.yaml" >"$tmp/dry"
knob "mmap(length=8192 file=/dev/shm/rdmascn-pyverbs_mr_file.bin flags=MAP_SHARED)  # mr 'dst'"
knob "ibv_reg_mr(pd=pd length=8192 access=local_write fill=file pyverbs_mr_file.yaml)  # mr 'src'"
[ "$(sed -n '/^teardown:/,$p' "$tmp/dry" | grep -A1 "ibv_dereg_mr(mr=dst)" | tail -n1)" = "       munmap(length=8192)  # mr 'dst'" ] ||
	{ cat "$tmp/dry"; fail "file: no munmap right after ibv_dereg_mr"; }
# A dry run maps nothing: a copy whose backing file is in $tmp (and
# whose fill_file, its own name, is beside it) leaves no file there.
sed 's|/dev/shm/rdmascn-pyverbs_mr_file.bin|'"$tmp"'/backing.bin|' \
	"$scndir/seeds/pyverbs_mr_file.yaml" >"$tmp/pyverbs_mr_file.yaml"
"$rdmascn" run --dry-run "$tmp/pyverbs_mr_file.yaml" >"$tmp/dry" 2>&1 ||
	{ cat "$tmp/dry"; fail "file: dry run of a copy failed"; }
knob "mmap(length=8192 file=$tmp/backing.bin flags=MAP_SHARED)"
[ -e "$tmp/backing.bin" ] && fail "file: a dry run created the backing file"
"$rdmascn" run --dry-run "$scndir/seeds/pyverbs_mr_contents.yaml" >"$tmp/dry"
knob "ibv_reg_mr(pd=pd length=1000 access=local_write fill=text (5 bytes))  # mr 'mr'"
echo "ok buffers: mmap before ibv_reg_mr, munmap after ibv_dereg_mr, literal fills named, nothing mapped in a dry run"
# What varies from WR to WR: an sge: list names each entry's mr; a
# recv step's chain walks its stride with the wr_ids it chose; a reply
# goes to the src_qp of the receive it answers.
"$rdmascn" run --dry-run "$scndir/seeds/pyverbs_sge_send.yaml" >"$tmp/dry"
knob "wr\[0\].sg_list\[0\].addr=addr(hdr)+0 wr\[0\].sg_list\[0\].length=64 wr\[0\].sg_list\[0\].lkey=lkey(hdr) wr\[0\].sg_list\[1\].addr=addr(payload)+128 wr\[0\].sg_list\[1\].length=4032 wr\[0\].sg_list\[1\].lkey=lkey(payload) wr\[0\].next=NULL)  # step 'gathered'"
"$rdmascn" run --dry-run "$scndir/seeds/pyrdma_buffer_pool.yaml" >"$tmp/dry"
knob "ibv_post_recv(qp=b wrs=50 chain=50 wr\[0\].wr_id=0x0 wr\[0\].sg_list\[0\].addr=addr(rx_pool)+0 wr\[0\].sg_list\[0\].length=256 wr\[0\].sg_list\[0\].lkey=lkey(rx_pool) wr\[0\].next=wr\[1\] wr\[1\].wr_id=0x1 wr\[1\].sg_list\[0\].addr=addr(rx_pool)+256 "
"$rdmascn" run --dry-run "$scndir/seeds/pyrdma_ud_reply.yaml" >"$tmp/dry"
knob "wr\[0\].wr.ud.remote_qpn=src_qp(srv_rx1) "
grep -q "(null)" "$tmp/dry" && { cat "$tmp/dry"; fail "a dry run printed (null)"; }
knob "wr\[0\].wr.ud.remote_qkey=qkey(src_qp(srv_rx1)) "
echo "ok wr lists: sge entries with their mrs, a recv chain's stride and wr_ids, a reply's src_qp and its qkey"
# Golden dry runs (tests/cli/golden/NAME.dry, paths relative to
# scenarios/ as there): ud_send's WR carries the receiving QP's Q_Key
# (0x11111111), as the run posts it, not 0.
for name in ud_send; do
	(cd "$scndir" && "$rdmascn" run --dry-run "$name.yaml") >"$tmp/dry" 2>&1 ||
		{ cat "$tmp/dry"; fail "$name: dry run exit $?"; }
	diff -u "$golden/$name.dry" "$tmp/dry" ||
		fail "$name: the dry run differs from $golden/$name.dry"
done
grep -q "wr\[0\].wr.ud.remote_qkey=0x11111111 " "$golden/ud_send.dry" ||
	fail "ud_send.dry: the qkey is not the QPs' 0x11111111"
# On one node of several, the receiving QP's Q_Key comes from its node:
# named, not a 0 the run would not send.
"$rdmascn" run --dry-run --node tx "$scndir/nodes/ud_fanout.yaml" >"$tmp/dry"
knob "wr\[0\].wr.ud.remote_qpn=qpn(rx1) wr\[0\].wr.ud.remote_qkey=qkey(rx1) "
echo "ok golden: ud_send's dry run, its WR with the QPs' Q_Key; another node's QP's named"
# An ex QP's write of an SGE list sets the whole list (one
# ibv_wr_set_sge_list), as the run does.
sed 's/  - write: {qp: a, local: src, remote: dst, length: 4096, iterations: 100, depth: 8}/  - write: {qp: a, remote: dst, sge: [{mr: src, length: 100}, {mr: rbuf, offset: 8, length: 50}]}/; s/send_cq: cq, ex: true,/send_cq: cq, cap: {max_send_sge: 2}, ex: true,/' \
	"$scndir/ex_qp.yaml" >"$tmp/ex_sge.yaml"
"$rdmascn" run --dry-run "$tmp/ex_sge.yaml" >"$tmp/dry" 2>&1 ||
	{ cat "$tmp/dry"; fail "ex_sge: dry run exit $?"; }
knob "ibv_wr_set_sge_list(qp=a num=2 sg_list\[0\].lkey=lkey(src) sg_list\[0\].addr=addr(src)+0 sg_list\[0\].length=100 sg_list\[1\].lkey=lkey(rbuf) sg_list\[1\].addr=addr(rbuf)+8 sg_list\[1\].length=50)  # step 1 (write)"
echo "ok an ex QP's SGE list is one ibv_wr_set_sge_list of every entry"
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

# expect: {create: fail, errno: ...}: a dry run makes the call it would
# (none fails without a device), says what the run will expect, and the
# record carries the expectation, errno by name or number alike.
cat >"$tmp/expect.yaml" <<'EOF'
scenario: expect_fail
contexts: [{id: ctx, device: any}]
pds: [{id: pd, context: ctx}]
cqs:
  - {id: cq, context: ctx, cqe: 16}
  - {id: big, context: ctx, cqe: "${ctx.device.max_cqe + 1}", expect: {create: fail, errno: EINVAL}}
qps:
  - {id: q, pd: pd, type: rc, send_cq: cq, cap: {max_inline_data: 1048576}, expect: {create: fail, errno: 22}}
mrs:
  - {id: m, pd: pd, length: 64, access: [local_write], expect: {create: fail}}
EOF
"$rdmascn" run --dry-run --json "$tmp/expect.json" "$tmp/expect.yaml" >"$tmp/dry" 2>&1 ||
	fail "expect: dry run exit $?: $(cat "$tmp/dry")"
grep -q "ibv_create_cq(context=ctx cqe=4194304 .*# cq 'big'" "$tmp/dry" ||
	fail "expect: no create_cq for big: $(cat "$tmp/dry")"
grep -qx "       expect: cq 'big': its create fails with EINVAL" "$tmp/dry" &&
grep -qx "       expect: qp 'q': its create fails with EINVAL" "$tmp/dry" &&
grep -qx "       expect: mr 'm': its create fails with an error" "$tmp/dry" ||
	fail "expect: the dry run does not say what is expected: $(cat "$tmp/dry")"
got=$(jq -c '[.objects[] | select(.expect) | [.id, .expect.create, .expect.error // "any"]]' "$tmp/expect.json")
[ "$got" = '[["m","fail","any"],["big","fail","EINVAL"],["q","fail","EINVAL"]]' ] ||
	fail "expect: record: $got"
echo "ok expect: create: fail shown by the dry run and in the record"

# A bad RDMASCN_FAULT: said once by the command, before anything runs,
# invalid (2); no record is begun.
RDMASCN_FAULT=bogus "$rdmascn" run --dry-run "$tmp/expect.yaml" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && [ ! -s "$tmp/out" ] &&
	[ "$(cat "$tmp/err")" = "RDMASCN_FAULT: 'bogus' is not WHICH:WHAT (WHICH a call number or name, WHAT an errno name or number, SIGINT or SIGTERM)" ] ||
	fail "bad RDMASCN_FAULT: exit $rc: $(cat "$tmp/out" "$tmp/err")"
echo "ok a bad RDMASCN_FAULT is one line, exit 2"
