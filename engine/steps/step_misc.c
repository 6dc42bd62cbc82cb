// SPDX-License-Identifier: MIT
/*
 * Steps that wait, change state or nest: sleep (a uv_timer), modify_qp
 * (through rs_call, like every modify), parallel (each child on its own
 * loop in its own thread; the parent's loop waits for them).
 */
#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "step.h"
#include "steps.h"
#include "value.h"

/* --- sleep ---------------------------------------------------------------- */

struct sleep_rt {
	uv_timer_t timer;
};

static void on_slept(uv_timer_t *t)
{
	rs_step_pass(t->data);
}

static int sleep_start(struct rs_step_run *sr)
{
	const struct rs_step_sleep *s = sr->obj->data;
	struct sleep_rt *rt = sr->rt;

	/* Without its own deadline a sleep gets the default on top. */
	if (!s->common.deadline_ms)
		sr->deadline_ms = s->ms + sr->run->default_deadline_ms;
	uv_timer_init(&sr->loop, &rt->timer);
	rt->timer.data = sr;
	uv_timer_start(&rt->timer, on_slept, s->ms, 0);
	return 0;
}

const struct rdmascn_step_ops rs_step_ops_sleep = {
	.rt_size = sizeof(struct sleep_rt),
	.start = sleep_start,
};

/* --- modify_qp ------------------------------------------------------------ */

static int modify_qp_start(struct rs_step_run *sr)
{
	const struct rs_step_modify_qp *m = sr->obj->data;
	struct rs_qpi *q = rs_step_qp(sr, m->qp);
	struct ibv_qp_attr attr = { .qp_state = m->state };
	struct rs_val *fig;
	int mask = IBV_QP_STATE;
	struct rs_call c;
	bool go;

	if (!q || !q->rt->qp)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "qp",
				    "the qp does not exist");
	rs_call_init(&c, RS_CALL_MODIFY, "ibv_modify_qp");
	rs_call_arg(&c, "qp", "%s", m->qp);
	rs_call_arg(&c, "qp_state", "%s", rs_qp_state_name(m->state));
	/* RESET -> INIT needs the port and access too: the QP's own. */
	if (m->state == IBV_QPS_INIT) {
		struct rs_dev *dev = rs_live_dev(sr->run, q->l);

		attr.pkey_index = q->info.pkey_index;
		attr.port_num = q->info.port ? q->info.port :
				dev ? dev->port : 1;
		mask |= IBV_QP_PKEY_INDEX | IBV_QP_PORT;
		if (q->info.type == RS_QPT_UD) {
			attr.qkey = q->rt->qkey;
			mask |= IBV_QP_QKEY;
		} else {
			attr.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				IBV_ACCESS_REMOTE_READ |
				IBV_ACCESS_REMOTE_ATOMIC;
			mask |= IBV_QP_ACCESS_FLAGS;
		}
		rs_call_arg(&c, "port_num", "%u", attr.port_num);
	}
	/* rs_call counts and prints: one thread at a time. */
	pthread_mutex_lock(&sr->st->lock);
	go = rs_call_go(sr->run, q->l, &c);
	pthread_mutex_unlock(&sr->st->lock);
	if (go)
		RS_CALL_INT(&c, ibv_modify_qp(q->rt->qp, &attr, mask));
	if (!c.ok) {
		if (!c.err)
			c.err = EIO;
		if (!c.hint[0] && (m->state == IBV_QPS_RTR ||
				   m->state == IBV_QPS_RTS))
			rs_call_hint(&c, "rtr and rts need the path and "
				     "sequence attributes a connection sets; "
				     "modify_qp gives only the state");
		return rs_step_fail(sr, RS_STEP_FAILED, "state",
				    "ibv_modify_qp(qp '%s', %s -> %s): "
				    "%s%s%s%s",
				    m->qp, rs_qp_state_name(q->rt->state),
				    rs_qp_state_name(m->state), strerror(c.err),
				    c.hint[0] ? " (" : "", c.hint,
				    c.hint[0] ? ")" : "");
	}
	q->rt->state = m->state;
	fig = rs_val_put_obj(rs_step_figures(sr), "qp_state");
	rs_val_put_str(fig, "qp", m->qp);
	rs_val_put_str(fig, "state", rs_qp_state_name(m->state));
	rs_step_pass(sr);
	return 0;
}

const struct rdmascn_step_ops rs_step_ops_modify_qp = {
	.start = modify_qp_start,
};

/* --- parallel ------------------------------------------------------------- */

struct parallel_rt {
	struct rs_step_run **kids;
	pthread_t *threads;
	bool *started;
	unsigned n;
	bool stopping;               /* a child failed: the others stop */
	bool counted;                /* in st->threads */
	bool joined;
};

static void join_all(struct rs_step_run *sr)
{
	struct parallel_rt *p = sr->rt;

	if (p->joined)
		return;
	for (unsigned i = 0; i < p->n; i++)
		if (p->started[i])
			pthread_join(p->threads[i], NULL);
	p->joined = true;
	if (p->counted)
		atomic_fetch_sub(&sr->st->threads, 1);
	p->counted = false;
}

static void stop_kids(struct rs_step_run *sr, const char *why)
{
	struct parallel_rt *p = sr->rt;

	for (unsigned i = 0; i < p->n; i++)
		if (p->started[i] && !atomic_load(&p->kids[i]->over))
			rs_step_request_stop(p->kids[i], why);
}

static void parallel_progress(struct rs_step_run *sr)
{
	struct parallel_rt *p = sr->rt;
	unsigned over = 0, failed = 0, first = p->n;

	for (unsigned i = 0; i < p->n; i++) {
		struct rs_step_run *k = p->kids[i];

		if (!p->started[i] || !atomic_load(&k->over))
			continue;
		over++;
		if (k->result != RS_STEP_PASSED) {
			failed++;
			if (first == p->n)
				first = i;
		}
	}
	if (failed && !p->stopping) {
		char why[160];

		p->stopping = true;
		snprintf(why, sizeof(why), "stopped: %s did not pass",
			 p->kids[first]->label);
		stop_kids(sr, why);
	}
	if (over < p->n)
		return;
	join_all(sr);
	for (unsigned i = 0; i < p->n; i++)
		sr->wrs += p->kids[i]->wrs;
	if (!failed) {
		rs_step_pass(sr);
		return;
	}
	/* The children said why on stderr already. */
	snprintf(sr->why, sizeof(sr->why), "%s did not pass",
		 p->kids[first]->label);
	rs_step_finish(sr, rs_interrupted ? RS_STEP_INTERRUPTED :
			   p->kids[first]->result);
}

static void parallel_stop(struct rs_step_run *sr)
{
	struct parallel_rt *p = sr->rt;

	if (!p || !p->kids)
		return;
	stop_kids(sr, "stopped with its parallel step");
	/* They stop within a spin; wait for them before this loop closes. */
	join_all(sr);
}

static int parallel_start(struct rs_step_run *sr)
{
	const struct rs_step_parallel *ps = sr->obj->data;
	struct parallel_rt *p = sr->rt;
	struct rs_scenario *s = sr->run->s;
	unsigned n = 0;

	/* Across nodes: the children (or halves) that run here. */
	for (unsigned i = 0; i < s->n_steps; i++)
		n += s->steps[i]->parent == sr->obj &&
		     rs_run_here(sr->run, s->steps[i]);
	p->kids = rs_calloc(n + 1, sizeof(*p->kids));
	p->threads = rs_calloc(n + 1, sizeof(*p->threads));
	p->started = rs_calloc(n + 1, sizeof(*p->started));
	if (!p->kids || !p->threads || !p->started)
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	for (unsigned i = 0; i < s->n_steps; i++) {
		struct rs_step_run *k;

		if (s->steps[i]->parent != sr->obj ||
		    !rs_run_here(sr->run, s->steps[i]))
			continue;
		k = rs_calloc(1, sizeof(*k));
		if (!k)
			return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
					    "out of memory");
		rs_step_init(k, sr->st, s->steps[i], sr);
		/* The parent's own deadline, when given, bounds them all. */
		if (ps->common.deadline_ms && k->deadline_ms > sr->deadline_ms)
			k->deadline_ms = sr->deadline_ms;
		p->kids[p->n++] = k;
	}
	/* Without its own deadline the parent waits for its children,
	 * each of which has one. */
	if (!ps->common.deadline_ms)
		sr->deadline_ms = 0;
	/* From now on CQs may be reaped by several threads. */
	atomic_fetch_add(&sr->st->threads, 1);
	p->counted = true;
	for (unsigned i = 0; i < p->n; i++) {
		int r = pthread_create(&p->threads[i], NULL, rs_step_thread,
				       p->kids[i]);

		if (r) {
			rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				     "pthread_create: %s", strerror(r));
			return -r;
		}
		p->started[i] = true;
	}
	return 0;
}

static void parallel_release(struct rs_step_run *sr)
{
	struct parallel_rt *p = sr->rt;

	if (p->threads && !p->joined) {
		/* Only after a failed start: the started ones end by their
		 * stop request or deadline. */
		stop_kids(sr, "stopped with its parallel step");
		join_all(sr);
	}
	for (unsigned i = 0; p->kids && i < p->n; i++) {
		rs_step_release(p->kids[i]);
		rs_free(p->kids[i]);
	}
	rs_free(p->kids);
	rs_free(p->threads);
	rs_free(p->started);
}

static unsigned parallel_children(struct rs_step_run *sr,
				  struct rs_step_run ***ret)
{
	struct parallel_rt *p = sr->rt;

	if (!p)
		return 0;
	*ret = p->kids;
	return p->n;
}

const struct rdmascn_step_ops rs_step_ops_parallel = {
	.rt_size = sizeof(struct parallel_rt),
	.start = parallel_start,
	.progress = parallel_progress,
	.stop = parallel_stop,
	.release = parallel_release,
	.children = parallel_children,
};
