// SPDX-License-Identifier: MIT
/*
 * Facets without a device: what the engine and the steps ask a kind
 * instead of asking which kind an object is.  The scenario is loaded for
 * real, nothing is created; runtime state is zeroed, with stand-in verbs
 * pds where a pd is asked for.  A kind of the test's own, as a plugin's
 * would be, is a device and a pd to the engine by offering the facets.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

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
	"parent_domains:\n"
	"  - {id: ppd, pd: pd}\n"
	"xrcds:\n"
	"  - {id: dom, context: ctx}\n"
	"cqs:\n"
	"  - {id: scq, context: ctx, cqe: 16}\n"
	"  - {id: xcq, context: ctx, cqe: 16, channel: true}\n"
	"  - {id: bcq, context: ctx, cqe: 16, channel: true, mode: busy}\n"
	"mrs:\n"
	"  - {id: buf, pd: ppd, length: 4096, access: [local_write]}\n"
	"mws:\n"
	"  - {id: win, pd: pd, type: 2}\n"
	"srqs:\n"
	"  - {id: xsrq, pd: pd, type: xrc, xrcd: dom, cq: xcq, max_wr: 32,\n"
	"     max_sge: 1}\n"
	"  - {id: plain, pd: pd, max_wr: 8, max_sge: 1}\n"
	"qps:\n"
	"  - {id: s, pd: pd, type: xrc_send, send_cq: scq}\n"
	"  - {id: r, type: xrc_recv, xrcd: dom}\n"
	"  - {id: a, pd: ppd, type: rc, send_cq: scq, srq: plain}\n"
	"  - {id: b, pd: pd, type: rc, send_cq: scq, recv_cq: bcq}\n"
	"connections:\n"
	"  - {id: x, a: s, b: r, mtu: 1024}\n"
	"  - {id: cm, a: a, b: b, via: rdma_cm, ip: 10.0.0.1,\n"
	"     max_rd_atomic: 1}\n";

struct fix {
	struct rs_scenario *s;
	struct rs_run run;
	struct rs_record rec;
	struct ibv_pd pd[2];        /* pd's and ppd's stand-ins */
};

static struct rs_live *live(struct fix *f, const char *id)
{
	struct rs_live *l = rs_live_find(&f->run, id);

	CHECK(l);
	return l;
}

static void fix_open(struct fix *f)
{
	memset(f, 0, sizeof(*f));
	fixture_run_open("facets.yaml", yaml, &f->s, &f->run, &f->rec);
	((struct rs_pd_rt *)live(f, "pd")->rt)->pd = &f->pd[0];
	((struct rs_parent_domain_rt *)live(f, "ppd")->rt)->pd = &f->pd[1];
}

static void fix_close(struct fix *f)
{
	fixture_run_close(f->s, &f->run, &f->rec);
}

/* A context is the device its objects belong to; a pd and a parent
 * domain are both pds; nothing else is either. */
TEST(facets, device_and_pd)
{
	struct fix f;
	struct rs_live *ctx;
	const char *what = "untouched";

	fix_open(&f);
	ctx = live(&f, "ctx");
	CHECK_PTR(rs_as_dev(ctx), &((struct rs_context_rt *)ctx->rt)->dev);
	CHECK(!rs_as_dev(live(&f, "pd")));
	CHECK_PTR(rs_live_context(&f.run, live(&f, "buf")), ctx);
	CHECK_PTR(rs_live_context(&f.run, live(&f, "r")), ctx);
	CHECK_PTR(rs_live_dev(&f.run, live(&f, "a")), rs_as_dev(ctx));
	CHECK_PTR(rs_live_pd(&f.run, "pd"), &f.pd[0]);
	CHECK_PTR(rs_live_pd(&f.run, "ppd"), &f.pd[1]);
	CHECK(!rs_live_pd(&f.run, "scq"));
	CHECK(!rs_live_pd(&f.run, NULL));
	/* A kind without probe has nothing to find. */
	CHECK_INT(rs_probe(&f.run, live(&f, "pd")), 0);
	/* A context not opened watches nothing; a pd never does. */
	CHECK_INT(rs_watch_fd(ctx, &what), -1);
	CHECK_INT(rs_watch_fd(live(&f, "pd"), &what), -1);
	CHECK_STR(what, "untouched");
	fix_close(&f);
}

/* Memory, windows, CQs, SRQs and links as the steps see them. */
TEST(facets, memory_queues_links)
{
	struct rdmascn_cq cq;
	struct rdmascn_srq srq;
	struct rdmascn_link link;
	struct fix f;

	fix_open(&f);
	CHECK_PTR(rs_as_mem(live(&f, "buf")), live(&f, "buf")->rt);
	CHECK(!rs_as_mem(live(&f, "win")));
	CHECK_PTR(rs_as_mw(live(&f, "win")), live(&f, "win")->rt);
	CHECK(!rs_as_mw(live(&f, "buf")));

	CHECK_INT(rs_as_cq(live(&f, "scq"), &cq), 0);
	CHECK_PTR(cq.rt, live(&f, "scq")->rt);
	CHECK(!cq.events);
	CHECK_INT(rs_as_cq(live(&f, "xcq"), &cq), 0);
	CHECK(cq.events);           /* a channel: events by default */
	CHECK_INT(rs_as_cq(live(&f, "bcq"), &cq), 0);
	CHECK(!cq.events);          /* mode: busy wins */
	/* Not a CQ: *ret untouched. */
	CHECK_INT(rs_as_cq(live(&f, "pd"), &cq), -EOPNOTSUPP);
	CHECK_PTR(cq.rt, live(&f, "bcq")->rt);

	CHECK_INT(rs_as_srq(live(&f, "xsrq"), &srq), 0);
	CHECK_STR(srq.xrcd, "dom");
	CHECK_STR(srq.cq, "xcq");
	CHECK_UINT(srq.max_wr, 32);
	CHECK_INT(rs_as_srq(live(&f, "plain"), &srq), 0);
	CHECK(!srq.xrcd);
	CHECK_UINT(srq.max_wr, 8);
	CHECK_INT(rs_as_srq(live(&f, "a"), &srq), -EOPNOTSUPP);

	CHECK_INT(rs_as_link(live(&f, "x"), &link), 0);
	CHECK_STR(link.a, "s");
	CHECK_STR(link.b, "r");
	CHECK_INT(link.mtu, IBV_MTU_1024);
	CHECK(!rs_uses_rdma_cm(live(&f, "x")));
	CHECK_INT(rs_as_link(live(&f, "cm"), &link), 0);
	CHECK_STR(link.id, "cm");
	CHECK_UINT(link.max_rd_atomic, 1);
	CHECK(rs_uses_rdma_cm(live(&f, "cm")));
	CHECK(!rs_uses_rdma_cm(live(&f, "ctx")));
	fix_close(&f);
}

/* An xrc_recv QP's receives come from its domain's XRC SRQ and complete
 * on that SRQ's CQ; another QP's from its own srq, posted there. */
TEST(facets, qp_and_steps_tables)
{
	struct rdmascn_qp q;
	struct rs_steps st;
	struct rs_qpi *r, *a, *s;
	struct fix f;

	fix_open(&f);
	CHECK_INT(rs_as_qp(&f.run, live(&f, "r"), &q), 0);
	CHECK_INT(q.type, RS_QPT_XRC_RECV);
	CHECK_STR(q.srq, "xsrq");
	CHECK(!q.srq_posts);
	CHECK_STR(q.recv_cq, "xcq");
	CHECK_INT(rs_as_qp(&f.run, live(&f, "a"), &q), 0);
	CHECK_STR(q.srq, "plain");
	CHECK(q.srq_posts);
	CHECK_STR(q.recv_cq, "scq");
	CHECK_PTR(q.rt, live(&f, "a")->rt);
	CHECK_INT(rs_as_qp(&f.run, live(&f, "b"), &q), 0);
	CHECK(!q.srq);
	CHECK_STR(q.recv_cq, "bcq");
	CHECK_INT(rs_as_qp(&f.run, live(&f, "scq"), &q), -EOPNOTSUPP);

	CHECK_INT(rs_steps_setup(&st, &f.run), 0);
	CHECK_UINT(st.n_qps, 4);
	CHECK_UINT(st.n_cqs, 3);
	CHECK_UINT(st.n_mws, 1);
	s = st.by_obj[live(&f, "s")->obj->index];
	r = st.by_obj[live(&f, "r")->obj->index];
	a = st.by_obj[live(&f, "a")->obj->index];
	CHECK_PTR(r->srq, live(&f, "xsrq"));
	CHECK_PTR(r->recv_cq->l, live(&f, "xcq"));
	CHECK_PTR(a->srq, live(&f, "plain"));
	CHECK_PTR(a->recv_cq, a->send_cq);
	CHECK_PTR(s->peer, r);
	CHECK_PTR(r->peer, s);
	CHECK_STR(s->conn->id, "x");
	CHECK_INT(r->conn->mtu, IBV_MTU_1024);
	CHECK(((struct rs_cqi *)st.by_obj[live(&f, "xcq")->obj->index])
	      ->events);
	rs_steps_free(&st);
	fix_close(&f);
}

/* A kind of the test's own: a device and a pd to the engine because
 * its ops say so, as a plugin's kind would be. */
static struct rs_dev own_dev = { .name = "own0" };
static struct ibv_pd own_pd;

static int own_as_dev(struct rs_live *l, struct rdmascn_device *ret)
{
	(void)l;
	ret->dev = &own_dev;
	return 0;
}

static int own_as_pd(struct rs_live *l, struct rdmascn_pd *ret)
{
	(void)l;
	ret->pd = &own_pd;
	return 0;
}

static const struct rdmascn_ops own_ops = {
	.as_dev = own_as_dev,
	.as_pd = own_as_pd,
};

static const struct rdmascn_kind own_kind = {
	.name = "own",
	.section = "owns",
	.ops = &own_ops,
};

static const struct rdmascn_kind bare_kind = {
	.name = "bare",
	.section = "bares",
};

TEST(facets, any_kind_offering_them)
{
	struct rs_obj o = { .kind = &own_kind, .id = "o" };
	struct rs_obj b = { .kind = &bare_kind, .id = "b" };
	struct rs_live lo = { .obj = &o }, lb = { .obj = &b };
	struct rs_scenario s = { .n_objects = 2 };
	struct rs_run run = { .s = &s };
	struct rdmascn_qp q = { .type = -1 };

	CHECK_PTR(rs_as_dev(&lo), &own_dev);
	CHECK_PTR(rs_as_pd(&lo), &own_pd);
	CHECK_PTR(rs_live_context(&run, &lo), &lo);
	CHECK_PTR(rs_live_dev(&run, &lo), &own_dev);
	/* No ops at all: nothing, and no call through NULL. */
	CHECK(!rs_as_dev(&lb));
	CHECK(!rs_as_pd(&lb));
	CHECK(!rs_as_mem(&lb));
	CHECK_INT(rs_as_qp(&run, &lb, &q), -EOPNOTSUPP);
	CHECK_INT(q.type, -1);
	CHECK_INT(rs_probe(&run, &lb), 0);
	CHECK(!rs_live_context(&run, &lb));
}
