// SPDX-License-Identifier: MIT
/*
 * Completion routing without a device: completions of our own making,
 * their wr_id naming the owner (the step's slot), the lane and the
 * sequence, handed to rs_step_route() as a poll of the CQ would.  The
 * scenario is loaded for real; its QPs are stand-ins with a qp_num.
 */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "list.h"
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
	"  - write: {id: w, qp: a, local: src, remote: dst, iterations: 10}\n"
	"  - recv: {id: r, qp: b, local: dst, count: 4}\n";

/* A loaded scenario, a run that created nothing, the steps' tables.
 * The objects are 0 to 7, so step w's slot is 8 and r's 9. */
struct fix {
	struct rs_scenario *s;
	struct rs_run run;
	struct rs_steps st;
	struct ibv_qp qp[2];        /* a's and b's stand-ins */
	struct rs_cqi *cq;
};

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
	char path[64];
	struct rs_diag d;
	struct rs_run *run = &f->run;
	FILE *fp;

	memset(f, 0, sizeof(*f));
	snprintf(path, sizeof(path), "/tmp/rdmascn-test-route.%d.yaml",
		 getpid());
	fp = fopen(path, "w");
	CHECK(fp);
	fputs(yaml, fp);
	fclose(fp);
	rs_scenario_registry_init();
	rs_diag_init(&d, stderr);
	CHECK_INT(rs_scenario_load(path, NULL, 0, &d, &f->s), 0);
	unlink(path);

	run->s = f->s;
	run->file = "route.yaml";
	run->out = stdout;
	run->dry_run = true;
	rs_diag_init(&run->diag, NULL);
	run->live = calloc(f->s->n_objects, sizeof(*run->live));
	CHECK(run->live);
	for (unsigned i = 0; i < f->s->n_objects; i++) {
		const struct rdmascn_ops *ops = f->s->objs[i].kind->ops;

		run->live[i].obj = &f->s->objs[i];
		run->live[i].rt = calloc(1, ops->rt_size ? ops->rt_size : 1);
		CHECK(run->live[i].rt);
	}
	CHECK_INT(rs_idmap_build_stride(&run->ids, &f->s->objs[0].id,
					sizeof(f->s->objs[0]),
					f->s->n_objects), 0);
	/* What ibv_create_qp would have left: the qp_num routing reads. */
	f->qp[0].qp_num = 0x11;
	f->qp[1].qp_num = 0x12;
	((struct rs_qp_rt *)rs_live_find(run, "a")->rt)->qp = &f->qp[0];
	((struct rs_qp_rt *)rs_live_find(run, "b")->rt)->qp = &f->qp[1];
	CHECK_INT(rs_steps_setup(&f->st, run), 0);
	CHECK_UINT(f->st.n_cqs, 1);
	f->cq = &f->st.cqs[0];
}

static void fix_close(struct fix *f)
{
	rs_steps_free(&f->st);
	for (unsigned i = 0; i < f->s->n_objects; i++)
		free(f->run.live[i].rt);
	free(f->run.live);
	rs_idmap_free(&f->run.ids);
	rs_scenario_free(f->s);
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
TEST(route, to_owner)
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
TEST(route, recv_per_wr)
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

/* A wr_id that names no owner, or a lane its owner does not have: the
 * step that reaped it fails, and says what came. */
TEST(route, unknown_wr_id)
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
TEST(route, error_status)
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
TEST(route, expected_error)
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
