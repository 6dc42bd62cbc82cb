// SPDX-License-Identifier: MIT
/*
 * Work requests that vary, without a device: the split arithmetic, and
 * what the posting steps hand ibv_post_send()/ibv_post_recv() when they
 * split a message at max_msg_sz (the step's, or the port's), walk their
 * buffers with a stride, gather from an SGE list or choose their
 * wr_ids; and where the completions of chosen wr_ids are routed.  The
 * scenario is loaded for real; its verbs objects are stand-ins whose
 * post calls record what they were given.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "check.h"
#include "list.h"
#include "run_fixture.h"
#include "step.h"
#include "vary.h"

static const char yaml[] =
	"contexts:\n"
	"  - {id: ctx, device: any, port: 1}\n"
	"pds:\n"
	"  - {id: pd, context: ctx}\n"
	"cqs:\n"
	"  - {id: cq, context: ctx, cqe: 256}\n"
	"mrs:\n"
	"  - {id: src, pd: pd, length: 8192, access: [local_write]}\n"
	"  - {id: dst, pd: pd, length: 8192,\n"
	"     access: [local_write, remote_write]}\n"
	"qps:\n"
	"  - {id: a, pd: pd, type: rc, send_cq: cq, recv_cq: cq}\n"
	"  - {id: b, pd: pd, type: rc, send_cq: cq, recv_cq: cq}\n"
	"connections:\n"
	"  - {id: ab, a: a, b: b}\n"
	"steps:\n"
	"  - write: {id: split, qp: a, local: src, remote: dst, length: 4096,\n"
	"            max_msg_sz: 1000, iterations: 2, stride: 4096,\n"
	"            remote_stride: 4096, depth: 3}\n"
	"  - write: {id: port, qp: a, local: src, remote: dst, length: 4096}\n"
	"  - send: {id: sges, qp: a, iterations: 3, stride: 256, wr_id: 1000,\n"
	"           sge: [{mr: src, offset: 16, length: 64},\n"
	"                 {mr: dst, offset: 128, length: 32}]}\n"
	"  - recv: {id: pool, qp: b, local: dst, offset: 512, length: 64,\n"
	"           count: 4, stride: 64, wr_id: 7}\n"
	"  - recv: {id: clash, qp: b, local: dst, length: 64, count: 2,\n"
	"           wr_id: 10}\n"
	"  - send: {id: toomany, qp: a,\n"
	"           sge: [{mr: src, length: 8}, {mr: src, offset: 8, length: 8}]}\n";

#define MAX_POSTS 64

/* What the stand-in context's post calls saw, WR by WR. */
static struct {
	unsigned n_wr, n_calls;
	unsigned chain[MAX_POSTS];
	struct {
		uint64_t wr_id, remote;
		bool signaled;
		int num_sge;
		struct ibv_sge sge[2];
	} wr[MAX_POSTS];
} posts;

static int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
			  struct ibv_send_wr **bad)
{
	unsigned n = 0;

	(void)qp;
	(void)bad;
	for (; wr; wr = wr->next, n++) {
		unsigned i = posts.n_wr++;

		CHECK(i < MAX_POSTS);
		posts.wr[i].wr_id = wr->wr_id;
		posts.wr[i].remote = wr->wr.rdma.remote_addr;
		posts.wr[i].signaled = wr->send_flags & IBV_SEND_SIGNALED;
		posts.wr[i].num_sge = wr->num_sge;
		for (int j = 0; j < wr->num_sge && j < 2; j++)
			posts.wr[i].sge[j] = wr->sg_list[j];
	}
	posts.chain[posts.n_calls++] = n;
	return 0;
}

static int fake_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
			  struct ibv_recv_wr **bad)
{
	(void)qp;
	(void)bad;
	for (; wr; wr = wr->next) {
		unsigned i = posts.n_wr++;

		CHECK(i < MAX_POSTS);
		posts.wr[i].wr_id = wr->wr_id;
		posts.wr[i].num_sge = wr->num_sge;
		posts.wr[i].sge[0] = wr->sg_list[0];
	}
	posts.n_calls++;
	return 0;
}

struct fix {
	struct rs_scenario *s;
	struct rs_run run;
	struct rs_record rec;
	struct rs_steps st;
	struct ibv_context ctx;
	struct ibv_qp qp[2];
	struct ibv_cq cq_stand_in;
	struct ibv_mr mr[2];
	struct rs_cqi *cq;
	uint64_t src, dst;          /* the MRs' addresses */
};

static uint64_t mr_rt(struct fix *f, const char *id, struct ibv_mr *mr,
		      uint32_t key)
{
	struct rs_mr_rt *rt = rs_live_find(&f->run, id)->rt;

	rt->length = 8192;
	rt->buf = calloc(1, rt->length);
	CHECK(rt->buf);
	rt->addr = (uintptr_t)rt->buf;
	mr->lkey = mr->rkey = key;
	rt->mr = mr;
	return rt->addr;
}

static struct rs_obj *obj_named(struct fix *f, const char *id)
{
	for (unsigned i = 0; i < f->s->n_objs; i++)
		if (f->s->objs[i].id && !strcmp(f->s->objs[i].id, id))
			return &f->s->objs[i];
	CHECK(!"no such id");
	return NULL;
}

static void fix_open(struct fix *f)
{
	struct rs_run *run = &f->run;

	memset(f, 0, sizeof(*f));
	memset(&posts, 0, sizeof(posts));
	fixture_run_open("wr.yaml", yaml, &f->s, &f->run, &f->rec);
	f->ctx.ops.post_send = fake_post_send;
	f->ctx.ops.post_recv = fake_post_recv;
	for (unsigned i = 0; i < 2; i++) {
		struct rs_qp_rt *rt = rs_live_find(run, i ? "b" : "a")->rt;

		f->qp[i].qp_num = 0x11 + i;
		f->qp[i].context = &f->ctx;
		rt->qp = &f->qp[i];
		rt->cap.max_send_wr = 16;
		rt->cap.max_recv_wr = 16;
		rt->cap.max_send_sge = 2;
		rt->cap.max_recv_sge = 1;
	}
	((struct rs_cq_rt *)rs_live_find(run, "cq")->rt)->cq = &f->cq_stand_in;
	f->src = mr_rt(f, "src", &f->mr[0], 0x100);
	f->dst = mr_rt(f, "dst", &f->mr[1], 0x200);
	CHECK_INT(rs_steps_setup(&f->st, run), 0);
	f->cq = &f->st.cqs[0];
}

static void fix_close(struct fix *f)
{
	free(((struct rs_mr_rt *)rs_live_find(&f->run, "src")->rt)->buf);
	free(((struct rs_mr_rt *)rs_live_find(&f->run, "dst")->rt)->buf);
	rs_steps_free(&f->st);
	fixture_run_close(f->s, &f->run, &f->rec);
}

/* Step @id started as the executor would; what start() returned. */
static int start(struct fix *f, struct rs_step_run *sr, const char *id)
{
	rs_step_init(sr, &f->st, obj_named(f, id), NULL);
	sr->rt = rs_calloc_aligned(RS_CACHELINE, sr->ops->rt_size ?
				   sr->ops->rt_size : 1);
	CHECK(sr->rt);
	return sr->ops->start(sr);
}

static void complete_as(struct fix *f, struct rs_step_run *sr,
			uint64_t wr_id, uint32_t qp_num,
			enum ibv_wc_status status)
{
	struct ibv_wc wc = { .wr_id = wr_id, .status = status,
			     .qp_num = qp_num, .opcode = IBV_WC_RDMA_WRITE };

	rs_step_route(sr, f->cq, &wc);
	rs_step_advance(sr);
}

static void complete(struct fix *f, struct rs_step_run *sr, uint64_t wr_id,
		     uint32_t qp_num)
{
	complete_as(f, sr, wr_id, qp_num, IBV_WC_SUCCESS);
}

/* ceil(len / max) pieces, all max but the last; the port's 2 GiB on a
 * 3 GiB message; the end of a walk, saturated rather than wrapped. */
TEST(wr, split_arithmetic)
{
	uint64_t at;
	uint32_t len;

	CHECK_UINT(rs_vary_pieces(0, 1024), 1);
	CHECK_UINT(rs_vary_pieces(1024, 1024), 1);
	CHECK_UINT(rs_vary_pieces(1025, 1024), 2);
	CHECK_UINT(rs_vary_pieces(4096, 0), 1);
	CHECK_UINT(rs_vary_pieces(1048576, 65536), 16);
	/* A port max_msg_sz of 2^31 (rxe's is 8 MiB, ConnectX's 1 GiB). */
	CHECK_UINT(rs_vary_pieces(3ull << 30, 1ull << 31), 2);
	CHECK_UINT(rs_vary_pieces(UINT32_MAX, 1ull << 31), 2);
	CHECK_UINT(rs_vary_pieces(1ull << 31, 1ull << 31), 1);
	rs_vary_piece(3ull << 30, 1ull << 31, 1, &at, &len);
	CHECK_UINT(at, 1ull << 31);
	CHECK_UINT(len, 1ull << 30);
	rs_vary_piece(4097, 1024, 4, &at, &len);
	CHECK_UINT(at, 4096);
	CHECK_UINT(len, 1);
	rs_vary_piece(4097, 1024, 2, &at, &len);
	CHECK_UINT(at, 2048);
	CHECK_UINT(len, 1024);
	rs_vary_piece(100, 0, 0, &at, &len);
	CHECK_UINT(at, 0);
	CHECK_UINT(len, 100);
	/* 50 buffers of 256 bytes, 256 apart: the pool's 12800 bytes. */
	CHECK_UINT(rs_vary_end(0, 256, 50, 256), 12800);
	CHECK_UINT(rs_vary_end(128, 64, 1, 4096), 192);
	CHECK_UINT(rs_vary_end(0, 64, 0, 64), 64);
	CHECK_UINT(rs_vary_end(1, 1, UINT64_MAX, 2), UINT64_MAX);
	CHECK_UINT(rs_vary_end(UINT64_MAX - 1, 2, 1, 0), UINT64_MAX);
}

/* 2 messages of 4096 split at 1000: 5 WRs each (1000 x 4, then 96),
 * addresses walking the message, the second message a stride on at
 * both ends; a queue of 3 takes a chain of 3, signalled on its last,
 * and the rest goes as completions free it. */
TEST(wr, split_at_step_max)
{
	static const uint32_t lens[5] = { 1000, 1000, 1000, 1000, 96 };
	struct rs_step_run w;
	const struct rs_val *sp;
	struct fix f;

	fix_open(&f);
	CHECK_INT(start(&f, &w, "split"), 0);
	CHECK_UINT(posts.n_calls, 1);
	CHECK_UINT(posts.chain[0], 3);
	CHECK_UINT(w.total, 10);
	complete(&f, &w, rs_wr_id(rs_step_slot(&w), 0, 2), 0x11);
	complete(&f, &w, rs_wr_id(rs_step_slot(&w), 0, 5), 0x11);
	complete(&f, &w, rs_wr_id(rs_step_slot(&w), 0, 8), 0x11);
	CHECK_UINT(posts.n_wr, 10);
	for (unsigned i = 0; i < 10; i++) {
		uint64_t m = i / 5, p = i % 5;

		CHECK_INT(posts.wr[i].num_sge, 1);
		CHECK_UINT(posts.wr[i].sge[0].addr, f.src + m * 4096 +
			   p * 1000);
		CHECK_UINT(posts.wr[i].sge[0].length, lens[p]);
		CHECK_UINT(posts.wr[i].remote, f.dst + m * 4096 + p * 1000);
		CHECK_UINT(posts.wr[i].sge[0].lkey, 0x100);
		/* Every 3rd (the queue's depth) and the last. */
		CHECK_INT(posts.wr[i].signaled, i % 3 == 2 || i == 9);
	}
	complete(&f, &w, rs_wr_id(rs_step_slot(&w), 0, 9), 0x11);
	CHECK_INT(w.result, RS_STEP_PASSED);
	sp = rs_val_get(w.figures, "split");
	CHECK(sp);
	CHECK_UINT(rs_val_get_u64(sp, "wrs_per_message"), 5);
	CHECK_UINT(rs_val_get_u64(sp, "piece_bytes"), 1000);
	CHECK_UINT(rs_val_get_u64(sp, "max_msg_sz"), 1000);
	rs_step_release(&w);
	fix_close(&f);
}

/* No max_msg_sz on the step: the port's decides.  A port of 2048
 * splits 4096 into 2 WRs, one chain, only the last signalled; a port
 * of 2^31 leaves it whole. */
TEST(wr, split_at_port_max)
{
	struct rs_step_run w;
	struct rs_dev *dev;
	struct fix f;

	fix_open(&f);
	dev = rs_live_dev(&f.run, rs_live_find(&f.run, "a"));
	CHECK(dev);
	dev->port_attr.max_msg_sz = 2048;
	CHECK_INT(start(&f, &w, "port"), 0);
	CHECK_UINT(posts.n_calls, 1);
	CHECK_UINT(posts.chain[0], 2);
	CHECK_UINT(posts.wr[0].sge[0].length, 2048);
	CHECK_UINT(posts.wr[1].sge[0].addr, f.src + 2048);
	CHECK_UINT(posts.wr[1].remote, f.dst + 2048);
	CHECK(!posts.wr[0].signaled);
	CHECK(posts.wr[1].signaled);
	CHECK_UINT(rs_val_get_u64(rs_val_get(w.figures, "split"),
				  "max_msg_sz"), 2048);
	rs_step_release(&w);
	fix_close(&f);

	fix_open(&f);
	dev = rs_live_dev(&f.run, rs_live_find(&f.run, "a"));
	dev->port_attr.max_msg_sz = 1u << 31;
	CHECK_INT(start(&f, &w, "port"), 0);
	CHECK_UINT(posts.n_wr, 1);
	CHECK_UINT(posts.wr[0].sge[0].length, 4096);
	CHECK(posts.wr[0].signaled);
	CHECK_PTR(rs_val_get(w.figures, "split"), NULL);
	rs_step_release(&w);
	fix_close(&f);
}

/* Two SGEs from two MRs, each a stride further on per message, and the
 * user's wr_ids 1000, 1001, 1002: a completion of 1002 on a's send
 * queue is the step's third. */
TEST(wr, sge_list_stride_wr_id)
{
	struct rs_step_run w;
	struct fix f;

	fix_open(&f);
	CHECK_INT(start(&f, &w, "sges"), 0);
	CHECK_UINT(posts.n_wr, 3);
	for (unsigned i = 0; i < 3; i++) {
		CHECK_UINT(posts.wr[i].wr_id, 1000 + i);
		CHECK_INT(posts.wr[i].num_sge, 2);
		CHECK_UINT(posts.wr[i].sge[0].addr, f.src + 16 + i * 256);
		CHECK_UINT(posts.wr[i].sge[0].length, 64);
		CHECK_UINT(posts.wr[i].sge[0].lkey, 0x100);
		CHECK_UINT(posts.wr[i].sge[1].addr, f.dst + 128 + i * 256);
		CHECK_UINT(posts.wr[i].sge[1].length, 32);
		CHECK_UINT(posts.wr[i].sge[1].lkey, 0x200);
	}
	complete(&f, &w, 1002, 0x11);
	CHECK_UINT(w.owner->lanes[0].done, 3);
	CHECK_UINT(w.owner->lanes[0].ok, 3);
	CHECK_UINT(f.run.diag.errors, 0);
	rs_step_release(&w);
	fix_close(&f);

	/* A failed one names its wr_id and its number in the step. */
	fix_open(&f);
	CHECK_INT(start(&f, &w, "sges"), 0);
	complete_as(&f, &w, 1001, 0x11, IBV_WC_REM_ACCESS_ERR);
	CHECK_INT(w.result, RS_STEP_FAILED);
	CHECK(strstr(w.why, "send wr 0x3e9 (#1) completed with "
		     "rem_access_err"));
	rs_step_release(&w);
	fix_close(&f);
}

/* More SGEs than the QP's max_send_sge: the step cannot run, and says
 * so before posting. */
TEST(wr, sge_over_max_send_sge)
{
	struct rs_step_run w;
	struct fix f;

	fix_open(&f);
	((struct rs_qp_rt *)rs_live_find(&f.run, "a")->rt)->cap.max_send_sge = 1;
	CHECK_INT(start(&f, &w, "toomany"), -EIO);
	CHECK_INT(w.result, RS_STEP_CANTRUN);
	CHECK_STR(w.why, "sge: 2 entries exceed qp 'a' max_send_sge (1)");
	CHECK_UINT(posts.n_wr, 0);
	rs_step_release(&w);
	fix_close(&f);
}

/* A pool of 4 receives, 64 bytes 64 apart from offset 512, wr_ids 7 to
 * 10: receive 9 is the third, at 640.  Another step's wr_ids 10 and 11
 * on b's receive queue overlap 10, still outstanding: refused. */
TEST(wr, recv_pool_stride_wr_id)
{
	struct rs_step_run r, c;
	struct rs_qpi *b;
	uint64_t off = 2;
	struct fix f;

	fix_open(&f);
	CHECK_INT(start(&f, &r, "pool"), 0);
	CHECK_INT(r.result, RS_STEP_PASSED);
	CHECK_UINT(posts.n_wr, 4);
	for (unsigned i = 0; i < 4; i++) {
		CHECK_UINT(posts.wr[i].wr_id, 7 + i);
		CHECK_UINT(posts.wr[i].sge[0].addr, f.dst + 512 + i * 64);
		CHECK_UINT(posts.wr[i].sge[0].length, 64);
	}
	complete(&f, &r, 9, 0x12);
	b = rs_qp_by_num(&f.st, 0x12);
	CHECK_UINT(r.owner->lanes[0].done, 1);
	CHECK_UINT(b->last_recv_seq, 2);
	CHECK_UINT(b->last_recv_slot, rs_step_slot(&r));
	CHECK_STR(rs_step_receives_into(r.obj, &off), "dst");
	CHECK_UINT(off, 640);

	CHECK_INT(start(&f, &c, "clash"), -EIO);
	CHECK_INT(c.result, RS_STEP_CANTRUN);
	CHECK(strstr(c.why, "10 .. 11 on qp 'b' overlap the wr_ids of step 4 "
		     "(recv) 'pool'"));
	CHECK_UINT(posts.n_wr, 4);
	rs_step_release(&c);
	rs_step_release(&r);
	fix_close(&f);
}
