// SPDX-License-Identifier: MIT
/*
 * impair: netem on the netdev under a context's port, then its nested
 * steps one after another (each on its own loop in a thread of its own,
 * as parallel runs them, but one at a time), or a wait of duration_ms;
 * then the netem is removed.  The removal runs on every way out: the
 * steps passed or one failed (progress), a deadline or a signal (stop),
 * a start that failed half-way (release); and teardown removes what the
 * run still has registered (exec/wire.c), so a run that stops anywhere
 * leaves no qdisc behind.
 */
#include <errno.h>
#include <net/if.h>
#include <string.h>

#include "alloc.h"
#include "live.h"
#include "step.h"
#include "steps.h"
#include "value.h"

struct impair_rt {
	char ifname[IF_NAMESIZE];
	bool applied;                /* ours is on ifname */
	uv_timer_t timer;            /* duration_ms */
	struct rs_step_run **kids;
	unsigned n, cur;             /* kids[cur] runs, or is next */
	pthread_t thread;
	bool running;                /* kids[cur]'s thread not joined */
	bool counted;                /* in st->threads */
};

/* Take ours off; 0, or -errno with the step failed when it is still
 * running (teardown tries again). */
static int unimpair(struct rs_step_run *sr)
{
	struct impair_rt *rt = sr->rt;
	char err[256];
	int r;

	if (!rt || !rt->applied)
		return 0;
	rt->applied = false;
	r = rs_wire_netem_del(sr->run, rt->ifname, err, sizeof(err));
	if (r && !sr->finished)
		rs_step_fail(sr, RS_STEP_CANTRUN, NULL, "%s", err);
	else if (r)
		rs_step_warn(sr, NULL, "%s (teardown tries again)", err);
	return r;
}

static void join_kid(struct rs_step_run *sr)
{
	struct impair_rt *rt = sr->rt;

	if (!rt->running)
		return;
	pthread_join(rt->thread, NULL);
	rt->running = false;
}

static void uncount(struct rs_step_run *sr)
{
	struct impair_rt *rt = sr->rt;

	if (rt->counted)
		atomic_fetch_sub(&sr->st->threads, 1);
	rt->counted = false;
}

static void start_kid(struct rs_step_run *sr)
{
	struct impair_rt *rt = sr->rt;
	int r = pthread_create(&rt->thread, NULL, rs_step_thread,
			       rt->kids[rt->cur]);

	if (r) {
		unimpair(sr);
		rs_step_fail(sr, RS_STEP_CANTRUN, NULL, "pthread_create: %s",
			     strerror(r));
		return;
	}
	rt->running = true;
}

static void impair_progress(struct rs_step_run *sr)
{
	struct impair_rt *rt = sr->rt;
	struct rs_step_run *k;

	if (!rt->kids || !rt->running ||
	    !atomic_load(&rt->kids[rt->cur]->over))
		return;
	join_kid(sr);
	k = rt->kids[rt->cur];
	if (k->result != RS_STEP_PASSED) {
		uncount(sr);
		unimpair(sr);
		/* The child said why on stderr already. */
		snprintf(sr->why, sizeof(sr->why), "%s did not pass",
			 k->label);
		rs_step_finish(sr, rs_interrupted ? RS_STEP_INTERRUPTED :
			       k->result);
		return;
	}
	sr->wrs += k->wrs;
	if (++rt->cur < rt->n) {
		start_kid(sr);
		return;
	}
	uncount(sr);
	if (!unimpair(sr))
		rs_step_pass(sr);
}

static void on_duration(uv_timer_t *t)
{
	struct rs_step_run *sr = t->data;

	if (!unimpair(sr))
		rs_step_pass(sr);
}

static void impair_stop(struct rs_step_run *sr)
{
	struct impair_rt *rt = sr->rt;

	if (rt && rt->running) {
		rs_step_request_stop(rt->kids[rt->cur],
				     "stopped with its impair step");
		join_kid(sr);
	}
	unimpair(sr);
}

/* The first RC QP ready to send on @ctx whose requests have an end:
 * when one nobody acknowledges fails there (what a blackhole shows). */
static void put_timeout(struct rs_step_run *sr, struct ibv_context *ctx)
{
	struct rs_steps *st = sr->st;

	for (unsigned i = 0; ctx && i < st->n_qps; i++) {
		struct rs_qpi *q = &st->qps[i];
		struct ibv_qp_init_attr ia;
		struct ibv_qp_attr a;
		struct rs_val *f;
		double ms;

		if (!q->rt || !q->rt->qp || q->rt->qp->context != ctx ||
		    q->rt->qp->qp_type != IBV_QPT_RC ||
		    ibv_query_qp(q->rt->qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
				 IBV_QP_RETRY_CNT, &ia) ||
		    a.qp_state != IBV_QPS_RTS)
			continue;
		ms = rs_transport_timeout_ms(a.timeout, a.retry_cnt,
					     rs_wire_jiffy_ms());
		/* Retrying for ever (retry_cnt 7 on rxe, timeout 0): a
		 * blackhole never ends it, there is nothing to expect. */
		if (ms < 0)
			continue;
		f = rs_val_put_obj(rs_step_figures(sr), "transport_timeout");
		rs_val_put_str(f, "qp", q->l->obj->id);
		rs_val_put_u64(f, "timeout", a.timeout);
		rs_val_put_u64(f, "retry_cnt", a.retry_cnt);
		rs_val_put_double(f, "expected_ms", ms);
		return;
	}
}

/* Every knob, 0 where not asked for: a record's figures are all there. */
static void put_netem(struct rs_step_run *sr, const struct rs_netem *n)
{
	struct rs_val *f = rs_val_put_obj(rs_step_figures(sr), "netem");

	rs_val_put_double(f, "loss_pct", rs_wire_prob_pct(n->loss));
	rs_val_put_double(f, "delay_ms", n->delay_us / 1000.0);
	rs_val_put_double(f, "jitter_ms", n->jitter_us / 1000.0);
	rs_val_put_double(f, "reorder_pct", rs_wire_prob_pct(n->reorder));
	rs_val_put_double(f, "duplicate_pct",
			  rs_wire_prob_pct(n->duplicate));
	rs_val_put_double(f, "corrupt_pct", rs_wire_prob_pct(n->corrupt));
}

static int impair_start(struct rs_step_run *sr)
{
	const struct rs_step_impair *s = sr->obj->data;
	struct impair_rt *rt = sr->rt;
	struct rs_live *ctx;
	char err[512];
	int r;

	r = rs_step_netdev(sr, s->context, &ctx, rt->ifname,
			   sizeof(rt->ifname));
	if (r)
		return r;
	put_netem(sr, &s->netem);
	put_timeout(sr, rs_as_context(ctx));
	if (!s->steps_count) {
		/* Without its own deadline it gets the default on top. */
		if (!s->common.deadline_ms)
			sr->deadline_ms = s->duration_ms +
					  sr->run->default_deadline_ms;
	} else {
		if (rs_step_kids(sr, &rt->kids, &rt->n))
			return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
					    "out of memory");
		/* Without its own deadline it waits for its children,
		 * each of which has one. */
		if (!s->common.deadline_ms)
			sr->deadline_ms = 0;
	}
	r = rs_wire_netem_add(sr->run, rt->ifname, &s->netem, err,
			      sizeof(err));
	if (r)
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL, "%s", err);
	rt->applied = true;
	if (!s->steps_count) {
		uv_timer_init(&sr->loop, &rt->timer);
		rt->timer.data = sr;
		uv_timer_start(&rt->timer, on_duration, s->duration_ms, 0);
		return 0;
	}
	if (!rt->n) {
		/* Across nodes, none of them here. */
		if (!unimpair(sr))
			rs_step_pass(sr);
		return 0;
	}
	/* A child's completions may be reaped by another thread than
	 * the one that runs the steps. */
	if (rs_step_threads_begin(sr))
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	rt->counted = true;
	start_kid(sr);
	return 0;
}

static void impair_release(struct rs_step_run *sr)
{
	struct impair_rt *rt = sr->rt;

	impair_stop(sr);
	uncount(sr);
	for (unsigned i = 0; rt->kids && i < rt->n; i++) {
		rs_step_release(rt->kids[i]);
		rs_free(rt->kids[i]);
	}
	rs_free(rt->kids);
}

static unsigned impair_children(struct rs_step_run *sr,
				struct rs_step_run ***ret)
{
	struct impair_rt *rt = sr->rt;

	if (!rt)
		return 0;
	*ret = rt->kids;
	return rt->n;
}

const struct rdmascn_step_ops rs_step_ops_impair = {
	.rt_size = sizeof(struct impair_rt),
	.start = impair_start,
	.progress = impair_progress,
	.stop = impair_stop,
	.release = impair_release,
	.children = impair_children,
};
