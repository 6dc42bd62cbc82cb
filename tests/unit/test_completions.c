// SPDX-License-Identifier: MIT
/*
 * Completion routing and the work-request window without a device:
 * completions of our own making, their wr_id naming the owner (the
 * step's slot), the lane and the sequence, handed to rs_step_route() as
 * a poll of the CQ would.  The scenario is loaded for real; its verbs
 * objects are stand-ins: QPs with a qp_num and a context whose
 * post_send records what the write steps post, MRs with a buffer.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "alloc.h"
#include "check.h"
#include "cli.h"
#include "list.h"
#include "run_fixture.h"
#include "step.h"

static const char yaml[] =
	"contexts:\n"
	"  - {id: ctx, device: any, port: 1}\n"
	"pds:\n"
	"  - {id: pd, context: ctx}\n"
	"cqs:\n"
	"  - {id: cq, context: ctx, cqe: 256}\n"
	"mrs:\n"
	"  - {id: src, pd: pd, length: 4096, access: [local_write]}\n"
	"  - {id: dst, pd: pd, length: 4096,\n"
	"     access: [local_write, remote_write]}\n"
	"qps:\n"
	"  - {id: a, pd: pd, type: rc, send_cq: cq, recv_cq: cq}\n"
	"  - {id: b, pd: pd, type: rc, send_cq: cq, recv_cq: cq}\n"
	"connections:\n"
	"  - {id: ab, a: a, b: b}\n"
	"steps:\n"
	"  - write: {id: w, qp: a, local: src, remote: dst, iterations: 10,\n"
	"            depth: 4, signal_every: 2}\n"
	"  - recv: {id: r, qp: b, local: dst, count: 4}\n"
	"  - write: {id: wl, qp: a, local: src, remote: dst, iterations: 10,\n"
	"            depth: 8, post_list: 3}\n"
	"  - write: {id: wn, qp: a, local: src, remote: dst, iterations: 10,\n"
	"            depth: 4, expect: rem_access_err}\n";

/* What the stand-in context's post_send saw. */
static struct {
	unsigned n_wr, n_calls;
	uint64_t wr_id[64];
	bool signaled[64];
	unsigned chain[64];         /* WRs per call */
	unsigned fail_at;           /* > 0: refuse the WR of this number */
} posts;

static int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
			  struct ibv_send_wr **bad)
{
	unsigned n = 0;

	for (; wr; wr = wr->next, n++) {
		CHECK(posts.n_wr < 64);
		if (posts.fail_at && posts.n_wr + 1 == posts.fail_at) {
			*bad = wr;
			posts.chain[posts.n_calls++] = n;
			return ENOMEM;
		}
		posts.wr_id[posts.n_wr] = wr->wr_id;
		posts.signaled[posts.n_wr] = wr->send_flags & IBV_SEND_SIGNALED;
		posts.n_wr++;
	}
	posts.chain[posts.n_calls++] = n;
	return 0;
}

/* A loaded scenario, a run that created nothing, the steps' tables.
 * The objects are 0 to 7, so step w's slot is 8 and r's 9. */
struct fix {
	struct rs_scenario *s;
	struct rs_run run;
	struct rs_record rec;       /* no reporter: nothing printed */
	struct rs_steps st;
	struct ibv_context ctx;
	struct ibv_qp qp[2];        /* a's and b's stand-ins */
	struct ibv_cq cq_stand_in;
	struct ibv_mr mr[2];        /* src's and dst's */
	struct rs_cqi *cq;
};

/* An MR of 4096 bytes at its buffer's address. */
static void mr_rt(struct fix *f, const char *id, struct ibv_mr *mr,
		  uint32_t key)
{
	struct rs_mr_rt *rt = rs_live_find(&f->run, id)->rt;

	rt->length = 4096;
	rt->buf = calloc(1, rt->length);
	CHECK(rt->buf);
	rt->addr = (uintptr_t)rt->buf;
	mr->lkey = mr->rkey = key;
	rt->mr = mr;
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
	fixture_run_open("completions.yaml", yaml, &f->s, &f->run, &f->rec);
	/* What creating them would have left: the qp_num routing reads,
	 * the context ibv_post_send() calls, a QP's capabilities. */
	f->ctx.ops.post_send = fake_post_send;
	for (unsigned i = 0; i < 2; i++) {
		struct rs_qp_rt *rt = rs_live_find(run, i ? "b" : "a")->rt;

		f->qp[i].qp_num = 0x11 + i;
		f->qp[i].context = &f->ctx;
		rt->qp = &f->qp[i];
		rt->cap.max_send_wr = 16;
	}
	((struct rs_cq_rt *)rs_live_find(run, "cq")->rt)->cq = &f->cq_stand_in;
	mr_rt(f, "src", &f->mr[0], 0x100);
	mr_rt(f, "dst", &f->mr[1], 0x200);
	CHECK_INT(rs_steps_setup(&f->st, run), 0);
	CHECK_UINT(f->st.n_cqs, 1);
	f->cq = &f->st.cqs[0];
}

static void fix_close(struct fix *f)
{
	free(((struct rs_mr_rt *)rs_live_find(&f->run, "src")->rt)->buf);
	free(((struct rs_mr_rt *)rs_live_find(&f->run, "dst")->rt)->buf);
	rs_steps_free(&f->st);
	fixture_run_close(f->s, &f->run, &f->rec);
}

/* Step @id, as the executor prepares it, not started. */
static void step(struct fix *f, struct rs_step_run *sr, const char *id)
{
	rs_step_init(sr, &f->st, obj_named(f, id), NULL);
}

/* One completion, as ibv_poll_cq() would give it to @reaper. */
static void reap(struct fix *f, struct rs_step_run *reaper, uint64_t wr_id,
		 enum ibv_wc_status status, uint32_t qp_num, uint32_t len)
{
	struct ibv_wc wc = {
		.wr_id = wr_id, .status = status, .qp_num = qp_num,
		.byte_len = len, .opcode = IBV_WC_RDMA_WRITE,
	};

	rs_step_route(reaper, f->cq, &wc);
}

/* A send-queue lane is cumulative: with every 5th WR signalled, the
 * completion of #4 completes #0 to #4.  Whoever reaps it, it goes to
 * the step that posted it. */
TEST(completions, route_to_owner)
{
	struct rs_step_run w, r;
	struct rs_owner *o;
	struct rs_lane *ln;
	struct fix f;
	uint32_t slot;

	fix_open(&f);
	step(&f, &w, "w");
	step(&f, &r, "r");
	o = rs_step_owner(&w, 1, IBV_WC_SUCCESS);
	CHECK(o);
	slot = rs_step_slot(&w);
	CHECK_UINT(slot, 8);
	CHECK_PTR(f.st.owners[slot], o);
	CHECK_PTR(w.owner, o);
	ln = &o->lanes[0];

	reap(&f, &w, rs_wr_id(slot, 0, 4), IBV_WC_SUCCESS, 0x11, 0);
	CHECK_UINT(ln->done, 5);
	CHECK_UINT(ln->ok, 5);
	CHECK_UINT(ln->next, 5);
	/* Reaped by another step: still w's. */
	reap(&f, &r, rs_wr_id(slot, 0, 9), IBV_WC_SUCCESS, 0x11, 0);
	CHECK_UINT(ln->done, 10);
	CHECK_UINT(ln->ok, 10);
	CHECK_UINT(ln->next, 10);
	CHECK(!ln->errored);
	CHECK(!o->bad);
	CHECK(!w.finished);
	CHECK(!r.finished);
	CHECK_UINT(f.run.diag.errors, 0);
	fix_close(&f);
}

/* A receive lane counts one per completion, in any order, and tells the
 * QP (by qp_num) who got its last receive and how long it was. */
TEST(completions, route_recv_per_wr)
{
	struct rs_step_run r;
	struct rs_owner *o;
	struct rs_qpi *b;
	struct fix f;
	uint32_t slot;

	fix_open(&f);
	step(&f, &r, "r");
	o = rs_step_owner(&r, 1, IBV_WC_SUCCESS);
	CHECK(o);
	o->lanes[0].per_wr = true;
	slot = rs_step_slot(&r);
	b = rs_qp_by_num(&f.st, 0x12);
	CHECK(b);
	CHECK_STR(b->l->obj->id, "b");

	reap(&f, &r, rs_wr_id(slot, 0, 3), IBV_WC_SUCCESS, 0x12, 100);
	reap(&f, &r, rs_wr_id(slot, 0, 1), IBV_WC_SUCCESS, 0x12, 7);
	CHECK_UINT(o->lanes[0].done, 2);
	CHECK_UINT(o->lanes[0].ok, 2);
	CHECK_UINT(b->recv_done, 2);
	CHECK_UINT(b->last_recv_slot, slot);
	CHECK_UINT(b->last_recv_len, 7);
	CHECK(!r.finished);
	fix_close(&f);
}

/* A receive that succeeded but is not what `wc:` asks fails its owner
 * (the recv step, finished: the reaper answers), saying how; what came
 * is kept for a reply all the same. */
TEST(completions, route_wc_mismatch)
{
	struct rs_step_run w, r;
	struct rs_owner *o;
	struct fix f;
	uint32_t slot;
	struct ibv_wc wc = { .status = IBV_WC_SUCCESS, .qp_num = 0x12,
			     .src_qp = 0x13, .byte_len = 64,
			     .opcode = IBV_WC_RECV };

	fix_open(&f);
	step(&f, &r, "r");
	step(&f, &w, "w");
	o = rs_step_owner(&r, 1, IBV_WC_SUCCESS);
	CHECK(o);
	o->lanes[0].per_wr = true;
	o->want.mask = RS_WCW_SRC_QP;
	o->want.src_qp = 0x11;
	slot = rs_step_slot(&r);
	wc.wr_id = rs_wr_id(slot, 0, 0);
	rs_step_route(&w, f.cq, &wc);
	CHECK(o->bad);
	CHECK_STR(o->bad_why, "src_qp 0x13, expected 0x11");
	CHECK_UINT(o->seen.n, 1);
	CHECK_UINT(o->seen.last.src_qp, 0x13);
	/* The next that is right is fine; the first miss stays. */
	wc.src_qp = 0x11;
	wc.wr_id = rs_wr_id(slot, 0, 1);
	rs_step_route(&w, f.cq, &wc);
	CHECK_STR(o->bad_why, "src_qp 0x13, expected 0x11");
	CHECK_UINT(o->seen.n, 2);
	CHECK_UINT(o->lanes[0].done, 2);
	fix_close(&f);
}

/* A wr_id that names no owner, or a lane its owner does not have: the
 * step that reaped it fails, and says what came. */
TEST(completions, route_unknown_wr_id)
{
	struct rs_step_run w, r;
	struct fix f;
	uint32_t slot;

	fix_open(&f);
	step(&f, &w, "w");
	step(&f, &r, "r");
	slot = rs_step_slot(&r);          /* r posted nothing */
	reap(&f, &w, rs_wr_id(slot, 0, 0), IBV_WC_SUCCESS, 0x11, 0);
	CHECK(w.finished);
	CHECK_INT(w.result, RS_STEP_FAILED);
	CHECK_STR(w.why, "cq 'cq' returned a completion no step posted: "
		  "wr_id 0x90000000000, qp_num 0x11, status success");
	CHECK_UINT(f.run.diag.errors, 1);
	CHECK(strstr(f.run.diag.first, "step 1 (write) 'w': cq 'cq'"));

	/* A slot past the scenario's objects; a lane past the owner's. */
	CHECK(rs_step_owner(&r, 1, IBV_WC_SUCCESS));
	reap(&f, &r, rs_wr_id(f.s->n_objs, 0, 0), IBV_WC_SUCCESS, 0x12, 0);
	CHECK(r.finished);
	CHECK_INT(r.result, RS_STEP_FAILED);
	step(&f, &r, "r");
	reap(&f, &r, rs_wr_id(slot, 1, 0), IBV_WC_SUCCESS, 0x12, 0);
	CHECK(r.finished);
	CHECK_STR(r.why, "cq 'cq' returned a completion no step posted: "
		  "wr_id 0x90100000000, qp_num 0x12, status success");
	fix_close(&f);
}

/* An error where success was expected: the WRs before it count, it
 * does not, and the owner fails with the completion's details. */
TEST(completions, route_error_status)
{
	struct rs_step_run w;
	struct rs_owner *o;
	struct rs_lane *ln;
	struct fix f;
	uint32_t slot;

	fix_open(&f);
	step(&f, &w, "w");
	o = rs_step_owner(&w, 1, IBV_WC_SUCCESS);
	CHECK(o);
	ln = &o->lanes[0];
	ln->op = "rdma_write";
	slot = rs_step_slot(&w);
	reap(&f, &w, rs_wr_id(slot, 0, 4), IBV_WC_SUCCESS, 0x11, 0);
	reap(&f, &w, rs_wr_id(slot, 0, 9), IBV_WC_REM_ACCESS_ERR, 0x11, 0);
	CHECK_UINT(ln->done, 10);
	CHECK_UINT(ln->ok, 9);
	CHECK(ln->errored);
	CHECK(o->bad);
	CHECK_UINT(o->bad_wc.wr_id, rs_wr_id(slot, 0, 9));
	CHECK_UINT(o->bad_lane, 0);
	/* Routing only records it; the step fails when it next looks. */
	CHECK(!w.finished);
	rs_step_advance(&w);
	CHECK(w.finished);
	CHECK_INT(w.result, RS_STEP_FAILED);
	CHECK_STR(w.why, "rdma_write wr 0x80000000009 (#9) completed with "
		  "rem_access_err (remote access error), vendor_err 0x0, "
		  "qp_num 0x11; expected success");
	fix_close(&f);
}

/* `expect: rem_access_err`: that error is no failure, nor are the
 * successes before it or the flushes after it; a flush before it is. */
TEST(completions, route_expected_error)
{
	struct rs_step_run w;
	struct rs_owner *o;
	struct fix f;
	uint32_t slot;

	fix_open(&f);
	step(&f, &w, "w");
	o = rs_step_owner(&w, 1, IBV_WC_REM_ACCESS_ERR);
	CHECK(o);
	slot = rs_step_slot(&w);
	reap(&f, &w, rs_wr_id(slot, 0, 0), IBV_WC_SUCCESS, 0x11, 0);
	CHECK(!o->bad);
	CHECK(!o->saw_expect);
	reap(&f, &w, rs_wr_id(slot, 0, 1), IBV_WC_REM_ACCESS_ERR, 0x11, 0);
	CHECK(o->saw_expect);
	reap(&f, &w, rs_wr_id(slot, 0, 2), IBV_WC_WR_FLUSH_ERR, 0x11, 0);
	CHECK(!o->bad);
	CHECK_UINT(o->lanes[0].done, 3);
	CHECK_UINT(o->lanes[0].ok, 1);
	CHECK_PTR(w.late_bad, NULL);
	CHECK(!w.finished);
	fix_close(&f);

	fix_open(&f);
	step(&f, &w, "w");
	o = rs_step_owner(&w, 1, IBV_WC_REM_ACCESS_ERR);
	CHECK(o);
	reap(&f, &w, rs_wr_id(rs_step_slot(&w), 0, 0), IBV_WC_WR_FLUSH_ERR,
	     0x11, 0);
	CHECK(o->bad);
	CHECK_INT(o->bad_wc.status, IBV_WC_WR_FLUSH_ERR);
	fix_close(&f);
}

/* Start step @id as the executor would: its runtime, then start(). */
static void start(struct fix *f, struct rs_step_run *sr, const char *id)
{
	step(f, sr, id);
	sr->rt = rs_calloc_aligned(RS_CACHELINE, sr->ops->rt_size);
	CHECK(sr->rt);
	CHECK_INT(sr->ops->start(sr), 0);
}

/* A completion of @sr's own WR @seq, and the step looks. */
static void complete(struct fix *f, struct rs_step_run *sr, uint32_t seq,
		     enum ibv_wc_status status)
{
	reap(f, sr, rs_wr_id(rs_step_slot(sr), 0, seq), status, 0x11, 0);
	rs_step_advance(sr);
}

/* depth 4, signal_every 2, 10 WRs: 4 in flight at most, every 2nd and
 * the last signalled, and each completion lets as many more go. */
TEST(completions, window_depth)
{
	struct rs_step_run w;
	struct fix f;

	fix_open(&f);
	start(&f, &w, "w");
	CHECK(!w.finished);
	CHECK_UINT(posts.n_wr, 4);
	for (unsigned i = 0; i < 4; i++) {
		CHECK_UINT(posts.wr_id[i], rs_wr_id(8, 0, i));
		CHECK_INT(posts.signaled[i], i % 2 == 1);
	}
	complete(&f, &w, 1, IBV_WC_SUCCESS);    /* #0, #1 done */
	CHECK_UINT(posts.n_wr, 6);
	complete(&f, &w, 3, IBV_WC_SUCCESS);
	CHECK_UINT(posts.n_wr, 8);
	complete(&f, &w, 5, IBV_WC_SUCCESS);
	CHECK_UINT(posts.n_wr, 10);             /* all, no more */
	CHECK_UINT(posts.wr_id[9], rs_wr_id(8, 0, 9));
	CHECK(posts.signaled[9]);
	CHECK_UINT(posts.n_calls, 10);          /* post_list 1 */
	complete(&f, &w, 7, IBV_WC_SUCCESS);
	CHECK(!w.finished);
	CHECK_UINT(w.done, 8);
	complete(&f, &w, 9, IBV_WC_SUCCESS);
	CHECK(w.finished);
	CHECK_INT(w.result, RS_STEP_PASSED);
	CHECK_UINT(w.wrs, 10);
	CHECK_UINT(posts.n_wr, 10);
	rs_step_release(&w);
	fix_close(&f);
}

/* post_list 3, depth 8: chains of 3 while the window has room for them,
 * a shorter one when it has less or fewer WRs are left. */
TEST(completions, window_post_list)
{
	struct rs_step_run w;
	struct fix f;

	fix_open(&f);
	start(&f, &w, "wl");
	CHECK_UINT(posts.n_wr, 8);
	CHECK_UINT(posts.n_calls, 3);
	CHECK_UINT(posts.chain[0], 3);
	CHECK_UINT(posts.chain[1], 3);
	CHECK_UINT(posts.chain[2], 2);
	complete(&f, &w, 0, IBV_WC_SUCCESS);    /* room for 1 */
	CHECK_UINT(posts.n_calls, 4);
	CHECK_UINT(posts.chain[3], 1);
	complete(&f, &w, 4, IBV_WC_SUCCESS);    /* room for 4, 1 left */
	CHECK_UINT(posts.n_calls, 5);
	CHECK_UINT(posts.chain[4], 1);
	CHECK_UINT(posts.n_wr, 10);
	for (unsigned i = 0; i < 10; i++)
		CHECK(posts.signaled[i]);       /* signal_every: 1 */
	complete(&f, &w, 9, IBV_WC_SUCCESS);
	CHECK_INT(w.result, RS_STEP_PASSED);
	rs_step_release(&w);
	fix_close(&f);
}

/* A refused post fails the step, saying which WR and how many were in
 * flight; nothing is posted after it. */
TEST(completions, window_post_fails)
{
	struct rs_step_run w;
	struct fix f;

	fix_open(&f);
	posts.fail_at = 3;
	start(&f, &w, "w");
	CHECK(w.finished);
	CHECK_INT(w.result, RS_STEP_FAILED);
	CHECK_UINT(posts.n_wr, 2);
	CHECK_UINT(w.wrs, 2);
	CHECK_STR(w.why, "posting rdma_write WR 3 of 10 on qp 'a': Cannot "
		  "allocate memory (max_send_wr 16, 2 in flight)");
	rs_step_release(&w);
	fix_close(&f);
}

/* With an error expected, the first error stops the posting; the step
 * passes once what was posted is accounted for. */
TEST(completions, window_stops_at_error)
{
	struct rs_step_run w;
	struct fix f;

	fix_open(&f);
	start(&f, &w, "wn");
	CHECK_UINT(posts.n_wr, 4);
	complete(&f, &w, 0, IBV_WC_REM_ACCESS_ERR);
	CHECK_UINT(posts.n_wr, 4);              /* no more */
	CHECK(!w.finished);
	complete(&f, &w, 3, IBV_WC_WR_FLUSH_ERR);
	CHECK(w.finished);
	CHECK_INT(w.result, RS_STEP_PASSED);
	CHECK_UINT(w.wrs, 4);
	rs_step_release(&w);
	fix_close(&f);
}
