// SPDX-License-Identifier: MIT
/*
 * The steps, in plan order, each on a libuv loop of its own: a deadline
 * timer, the signal pipe in a uv_poll, a uv_async for wake-ups from other
 * threads, and what the step type adds (CQ waits, timers).  A step ends
 * by closing every handle of its loop; the loop must then close cleanly.
 * The first step that fails ends the run; the rest are "not run".
 */
#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "counters.h"
#include "exit.h"
#include "qp_counters.h"
#include "step.h"
#include "value.h"

/* "with 12 of 1000 completions, 3 of 1000 receives at qp 'b'" */
static void progress_text(struct rs_step_run *sr, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (sr->unit)
		n = snprintf(buf, len, " with %llu of %llu %s",
			     (unsigned long long)sr->done,
			     (unsigned long long)sr->total, sr->unit);
	if (sr->unit2[0] && n < len)
		snprintf(buf + n, len - n, "%s %llu of %llu %s",
			 sr->unit ? "," : " with",
			 (unsigned long long)sr->done2,
			 (unsigned long long)sr->total2, sr->unit2);
}

static void on_deadline(uv_timer_t *t)
{
	struct rs_step_run *sr = t->data;
	char prog[256];

	if (sr->finished)
		return;
	progress_text(sr, prog, sizeof(prog));
	rs_step_fail(sr, RS_STEP_FAILED, NULL, "deadline %llu ms passed%s",
		     (unsigned long long)sr->deadline_ms, prog);
}

/* Where the step is, for a terminal's progress line: not kept in the
 * record (no list), only shown to the reporters. */
static void on_progress(uv_timer_t *t)
{
	struct rs_step_run *sr = t->data;
	struct rs_val *e;

	if (sr->finished)
		return;
	e = rs_val_obj();
	rs_val_put_str(e, "no", sr->no);
	rs_val_put_str(e, "type", sr->obj->kind->name);
	if (sr->obj->id)
		rs_val_put_str(e, "id", sr->obj->id);
	rs_val_put_double(e, "elapsed_ms", rs_step_elapsed(sr));
	if (uv_is_active((uv_handle_t *)&sr->deadline))
		rs_val_put_double(e, "deadline_left_ms",
				  uv_timer_get_due_in(&sr->deadline));
	if (sr->unit) {
		rs_val_put_str(e, "unit", sr->unit);
		rs_val_put_u64(e, "done", sr->done);
		rs_val_put_u64(e, "total", sr->total);
	}
	rs_record_add(sr->run->rec, RS_REC_PROGRESS, NULL, e);
}

/* A step's progress timer, when the run wants one; not for the side of
 * another step that runs on a loop of its own (a pingpong's answering
 * side): that step speaks for both. */
static bool wants_progress(const struct rs_step_run *sr)
{
	return sr->run->progress_ms &&
	       !(sr->parent && sr->parent->obj == sr->obj);
}

static void on_signal(uv_poll_t *p, int status, int events)
{
	(void)status;
	(void)events;
	/* The byte stays in the pipe: every loop sees it. */
	rs_step_interrupt(p->data);
}

static void on_wake(uv_async_t *a)
{
	struct rs_step_run *sr = a->data;

	if (rs_step_check_stop(sr))
		return;
	rs_step_reap(sr, false);
	rs_step_advance(sr);
}

void rs_step_init(struct rs_step_run *sr, struct rs_steps *st,
		  struct rs_obj *obj, struct rs_step_run *parent)
{
	const struct rs_step_common *c = obj->data;

	memset(sr, 0, sizeof(*sr));
	sr->st = st;
	sr->run = st->run;
	sr->obj = obj;
	sr->ops = obj->kind->step_ops;
	sr->label = st->labels[obj->index];
	sr->no = obj->no;
	sr->parent = parent;
	/* 0 is the default too: every wait has a deadline. */
	sr->deadline_ms = c->deadline_ms ? c->deadline_ms :
		st->run->default_deadline_ms;
	sr->result = RS_STEP_NOT_RUN;
}

int rs_step_kids(struct rs_step_run *sr, struct rs_step_run ***ret,
		 unsigned *n)
{
	const struct rs_step_common *c = sr->obj->data;
	struct rs_scenario *s = sr->run->s;
	unsigned want = 0;

	*n = 0;
	/* Across nodes: the children (or halves) that run here. */
	for (unsigned i = 0; i < s->n_steps; i++)
		want += s->steps[i]->parent == sr->obj &&
			rs_run_here(sr->run, s->steps[i]);
	*ret = rs_calloc(want + 1, sizeof(**ret));
	if (!*ret)
		return -ENOMEM;
	for (unsigned i = 0; i < s->n_steps; i++) {
		struct rs_step_run *k;

		if (s->steps[i]->parent != sr->obj ||
		    !rs_run_here(sr->run, s->steps[i]))
			continue;
		k = rs_calloc(1, sizeof(*k));
		if (!k)
			return -ENOMEM;
		rs_step_init(k, sr->st, s->steps[i], sr);
		/* The parent's own deadline, when given, bounds each. */
		if (c->deadline_ms && k->deadline_ms > sr->deadline_ms)
			k->deadline_ms = sr->deadline_ms;
		(*ret)[(*n)++] = k;
	}
	return 0;
}

static int loop_open(struct rs_step_run *sr)
{
	int fd = rs_signal_fd(), r;

	char err[128];

	r = uv_loop_init(&sr->loop);
	if (r)
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "uv_loop_init: %s",
				    rs_errno_text(-r, err, sizeof(err)));
	sr->loop_ok = true;
	uv_timer_init(&sr->loop, &sr->deadline);
	sr->deadline.data = sr;
	if (wants_progress(sr)) {
		uv_timer_init(&sr->loop, &sr->progress);
		sr->progress.data = sr;
	}
	r = uv_async_init(&sr->loop, &sr->wake, on_wake);
	if (r)
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "uv_async_init: %s",
				    rs_errno_text(-r, err, sizeof(err)));
	sr->wake.data = sr;
	pthread_mutex_lock(&sr->st->lock);
	sr->wakeable = true;
	pthread_mutex_unlock(&sr->st->lock);
	if (fd >= 0) {
		r = uv_poll_init(&sr->loop, &sr->sig, fd);
		if (!r) {
			sr->sig.data = sr;
			r = uv_poll_start(&sr->sig, UV_READABLE, on_signal);
		}
		if (r)
			return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
					    "uv_poll on the signal pipe: %s",
					    rs_errno_text(-r, err, sizeof(err)));
	}
	return 0;
}

static void print_handle(uv_handle_t *h, void *arg)
{
	struct rs_step_run *sr = arg;

	rs_diag_error(&sr->run->diag, NULL, "%s: internal: a %s handle is "
		      "still open on its loop", sr->label,
		      uv_handle_type_name(uv_handle_get_type(h)));
}

int rs_step_threads_begin(struct rs_step_run *sr)
{
	int ret = rs_record_threads(sr->run->rec);

	if (ret)
		return ret;
	atomic_fetch_add(&sr->st->threads, 1);
	return 0;
}

void *rs_step_thread(void *arg)
{
	struct rs_step_run *sr = arg;

	rs_step_execute(sr);
	/* The parent's loop stays open until it joined this thread. */
	uv_async_send(&sr->parent->wake);
	return NULL;
}

void rs_step_execute(struct rs_step_run *sr)
{
	int r;

	/* Before its clock starts: the read is not the step's time. */
	rs_step_counters_begin(sr);
	sr->t0 = rs_now_ms();
	sr->result = RS_STEP_RUNNING;
	if (!sr->ops || !sr->ops->start) {
		rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
			     "this engine cannot run a %s step",
			     sr->obj->kind->name);
		goto over;
	}
	if (sr->ops->rt_size) {
		sr->rt = rs_calloc_aligned(RS_CACHELINE, sr->ops->rt_size);
		if (!sr->rt) {
			rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				     "out of memory");
			goto over;
		}
	}
	if (loop_open(sr) || rs_step_async_start(sr) ||
	    rs_step_check_stop(sr))
		goto run;
	r = sr->ops->start(sr);
	if (sr->finished)
		goto run;
	if (r) {
		/* start() must report; if it did not, say so here. */
		rs_step_fail(sr, RS_STEP_CANTRUN, NULL, "could not start: %s",
			     strerror(-r));
		goto run;
	}
	if (sr->deadline_ms)
		uv_timer_start(&sr->deadline, on_deadline, sr->deadline_ms, 0);
	if (wants_progress(sr))
		uv_timer_start(&sr->progress, on_progress,
			       sr->run->progress_ms, sr->run->progress_ms);
	if (rs_step_watch_start(sr))
		goto run;
	/* What completed before the waits were armed. */
	rs_step_reap(sr, false);
	rs_step_advance(sr);
run:
	if (sr->loop_ok) {
		/* The loop blocks: what the reporters hold goes out first. */
		rs_record_before_wait(sr->run->rec);
		uv_run(&sr->loop, UV_RUN_DEFAULT);
		if (!sr->finished) {
			rs_step_fail(sr, RS_STEP_FAILED, NULL, "internal: its "
				     "loop ended before the step did");
			uv_run(&sr->loop, UV_RUN_DEFAULT);
		}
		r = uv_loop_close(&sr->loop);
		if (r) {
			pthread_mutex_lock(&sr->st->lock);
			uv_walk(&sr->loop, print_handle, sr);
			pthread_mutex_unlock(&sr->st->lock);
			if (sr->result == RS_STEP_PASSED)
				sr->result = RS_STEP_FAILED;
		}
		sr->loop_ok = false;
	}
over:
	if (!sr->finished)
		rs_step_finish(sr, sr->result);
	/* The gate may name them. */
	rs_step_counters_end(sr);
	rs_step_check_gates(sr);
	atomic_store(&sr->over, true);
}

void rs_step_release(struct rs_step_run *sr)
{
	if (sr->ops && sr->ops->release && sr->rt)
		sr->ops->release(sr);
	rs_free(sr->watch);
	sr->watch = NULL;
	rs_free(sr->async);
	sr->async = NULL;
	sr->n_async = 0;
	rs_free(sr->rt);
	sr->rt = NULL;
	rs_val_free(sr->figures);
	sr->figures = NULL;
	rs_val_free(sr->gates);
	sr->gates = NULL;
	rs_val_free(sr->histogram);
	sr->histogram = NULL;
	/* Read, and the step never ran (a deviation skipped it). */
	rs_step_counters_drop(sr->ctrs);
	sr->ctrs = NULL;
}

struct rs_val *rs_step_figures(struct rs_step_run *sr)
{
	if (!sr->figures && !(sr->figures = rs_val_obj()))
		/* What would have gone in is left out: not a run passed
		 * without it. */
		rs_record_lost(sr->run->rec);
	return sr->figures;
}

/* --- results -------------------------------------------------------------- */

static const char *const result_names[] = {
	[RS_STEP_NOT_RUN] = "not run",
	[RS_STEP_RUNNING] = "running",
	[RS_STEP_PASSED] = "passed",
	[RS_STEP_FAILED] = "failed",
	[RS_STEP_CANTRUN] = "could not run",
	[RS_STEP_INTERRUPTED] = "interrupted",
	[RS_STEP_SKIPPED] = "skipped",
};

/* An element of a counted step: which, of how many, of which step
 * ("1" of "1[7]"), so that reports can set it beside the others; with
 * nodes, the node it ran on and its peer's. */
static void put_element(struct rs_val *e, const struct rs_scenario *s,
			const struct rs_obj *o)
{
	const char *br = strrchr(o->no, '[');
	struct rs_val *el;

	if (rs_obj_count(o) && br) {
		el = rs_val_put_obj(e, "element");
		rs_val_put_strf(el, "step", "%.*s", (int)(br - o->no), o->no);
		rs_val_put_u64(el, "index", rs_obj_elem(o));
		rs_val_put_u64(el, "count", rs_obj_count(o));
	}
	if (!rs_nodes_count(s) || o->on == RS_NODE_ANY)
		return;
	rs_val_put_str(e, "node", rs_node_name(s, o->on));
	if (o->on_peer != RS_NODE_ANY)
		rs_val_put_str(e, "peer_node", rs_node_name(s, o->on_peer));
}

/* Its entry in the run record; the step's figures move into it. */
static void record_step(struct rs_steps *st, const struct rs_obj *o,
			struct rs_step_run *sr)
{
	struct rs_record *rec = st->run->rec;
	const struct rs_loc *loc = rs_obj_loc(o, NULL);
	int result = sr ? sr->result : RS_STEP_NOT_RUN;
	struct rs_val *e = rs_val_obj();

	rs_val_put_str(e, "no", o->no);
	rs_val_put_str(e, "type", o->kind->name);
	if (o->id)
		rs_val_put_str(e, "id", o->id);
	rs_val_put_loc(e, loc);
	put_element(e, st->run->s, o);
	rs_val_put_str(e, "outcome", result_names[result]);
	if (sr && result != RS_STEP_NOT_RUN)
		rs_val_put_double(e, "duration_ms", sr->ms);
	if (sr && sr->wrs)
		rs_val_put_u64(e, "wrs", sr->wrs);
	if (sr && sr->figures) {
		struct rs_val *lat = (struct rs_val *)rs_val_get(sr->figures,
								 "latency");

		if (lat && sr->histogram) {
			rs_val_put(lat, "histogram", sr->histogram);
			sr->histogram = NULL;
		}
		rs_val_put(e, "figures", sr->figures);
		sr->figures = NULL;
	}
	/* What an extended CQ read of its completions, and of the
	 * receives it waited for at its peer. */
	if (sr && sr->owner && sr->owner->seen.have)
		rs_wc_seen_put(&sr->owner->seen, rs_val_put_obj(e, "wc"));
	if (sr && sr->counts_recv) {
		uint32_t slot = atomic_load(&sr->counts_recv->last_recv_slot);
		const struct rs_owner *ro = slot < st->n_objs ?
					    st->owners[slot] : NULL;

		if (ro && ro->seen.have)
			rs_wc_seen_put(&ro->seen,
				       rs_val_put_obj(e, "recv_wc"));
	}
	if (sr && sr->gates) {
		rs_val_put(e, "gates", sr->gates);
		sr->gates = NULL;
	}
	if (sr && sr->why[0] && result != RS_STEP_PASSED)
		rs_val_put_str(e, "message", sr->why);
	if (sr && sr->deviation)
		rs_deviation_put(e, sr->deviation);
	rs_record_add(rec, RS_REC_STEP, rec->steps, e);
}

/* A step that did not run, and its children: their entries. */
static void record_not_run(struct rs_steps *st, const struct rs_obj *o)
{
	struct rs_scenario *s = st->run->s;

	record_step(st, o, NULL);
	for (unsigned i = 0; i < s->n_steps; i++)
		if (s->steps[i]->parent == o)
			record_not_run(st, s->steps[i]);
}

/* A step's entry in the record, and its children's; the reporters
 * print them from there. */
static void record_run(struct rs_step_run *sr)
{
	struct rs_step_run **kids;
	unsigned n;

	record_step(sr->st, sr->obj, sr);
	n = rs_step_children(sr, &kids);
	for (unsigned i = 0; i < n; i++) {
		if (kids[i]->result == RS_STEP_NOT_RUN)
			record_not_run(sr->st, kids[i]->obj);
		else
			record_run(kids[i]);
	}
}

/* Before a step: a known deviation that says skip it skips it (true).
 * After: one that says it is known to fail makes its failure a skip. */
static bool deviate(struct rs_step_run *sr)
{
	const struct rs_deviation *dv = rs_run_deviation(sr->run,
							 sr->obj->id);
	bool failed = sr->result == RS_STEP_FAILED ||
		      sr->result == RS_STEP_CANTRUN;
	char why[sizeof(sr->why) / 2];

	if (!dv || (sr->result == RS_STEP_NOT_RUN) != dv->skip ||
	    (sr->result != RS_STEP_NOT_RUN && !failed))
		return false;
	snprintf(why, sizeof(why), "%.*s", (int)sizeof(why) - 1, sr->why);
	if (dv->skip)
		snprintf(sr->why, sizeof(sr->why), "known deviation: %s",
			 dv->reason);
	else
		snprintf(sr->why, sizeof(sr->why), "known deviation: %.200s "
			 "(it %s: %s)", dv->reason,
			 sr->result == RS_STEP_FAILED ? "failed" :
			 "could not run", why);
	sr->result = RS_STEP_SKIPPED;
	sr->deviation = dv;
	return true;
}

void rs_steps_dry_run(struct rs_run *run)
{
	struct rs_scenario *s = run->s;
	struct rs_val *phase = rs_val_obj();

	rs_val_put_str(phase, "phase", "steps");
	rs_val_put_u64(phase, "steps", s->n_steps);
	rs_record_add(run->rec, RS_REC_PHASE, NULL, phase);
	for (unsigned i = 0; i < s->n_steps; i++) {
		const struct rdmascn_step_ops *ops = s->steps[i]->kind->step_ops;

		if (ops && ops->dry_run && rs_run_here(run, s->steps[i]))
			ops->dry_run(run, s->steps[i]);
	}
}

/* Tell the other nodes, if any, which step failed here and why. */
static void fail_nodes(struct rs_run *run, struct rs_steps *st,
		       const struct rs_obj *o, const struct rs_step_run *sr)
{
	char msg[400];

	if (!run->rdv)
		return;
	snprintf(msg, sizeof(msg), "%s: %.300s", st->labels[o->index],
		 sr->why);
	run->nodes->fail(run, sr->result == RS_STEP_FAILED ? RS_EXIT_FAILED :
		      sr->result == RS_STEP_SKIPPED ? RS_EXIT_SKIPPED :
		      RS_EXIT_CANTRUN, msg);
}

/*
 * Element @o of a counted step goes on from the element before it,
 * without a barrier of its own, when no element of the step has a half
 * on another node (a write, a stream, a verify: not a pingpong): each
 * node runs its elements while the others run theirs, so an incast's
 * senders stream at once, and a 2016-pair mesh meets twice, not 4032
 * times.  The step's first element still waits for every node.
 */
static bool one_sided(const struct rs_obj *o)
{
	const struct rs_obj *first = rs_obj_first(o);

	for (unsigned k = 0; k < rs_obj_count(o); k++)
		if (first[k].on_peer != RS_NODE_ANY &&
		    rs_step_on(&first[k], first[k].on_peer))
			return false;
	return true;
}

int rs_steps_run(struct rs_run *run)
{
	const struct rs_obj *prev = NULL;
	bool together = false;
	struct rs_scenario *s = run->s;
	struct rs_ctr_snap totals = { 0 };
	struct rs_steps st;
	char err[128];
	int ret = RS_EXIT_PASSED, r;
	bool stop = false;

	if (!s->n_steps)
		return RS_EXIT_PASSED;
	r = rs_steps_setup(&st, run);
	if (r) {
		rs_diag_error(&run->diag, NULL, "steps: %s",
			      rs_errno_text(-r, err, sizeof(err)));
		rs_steps_free(&st);
		return RS_EXIT_CANTRUN;
	}
	if (rs_steps_counters_begin(&st, &totals))
		rs_diag_warning(&run->diag, NULL, "the run's port counters were "
			     "not read: out of memory");
	rs_qp_counters_bind(run);
	for (unsigned i = 0; i < s->n_steps; i++) {
		struct rs_obj *o = s->steps[i];
		struct rs_ctr_snap *pre = NULL;
		struct rs_step_run *sr;
		struct rs_val *qpc;
		int qpc_r;

		if (o->parent)
			continue;
		if (stop) {
			if (rs_run_here(run, o))
				record_not_run(&st, o);
			continue;
		}
		if (rs_obj_count(o) && !rs_obj_elem(o))
			together = one_sided(o);
		/* Before the barrier, not between it and the step: a
		 * pingpong's receives on one node must be posted before the
		 * other node's first send arrives. */
		if (rs_run_here(run, o))
			pre = rs_step_counters_read(&st, o);
		/* Every node at every step, so that a step's halves start
		 * together; another node runs what is not here. */
		if (run->rdv &&
		    !(together && rs_obj_elem(o) && prev == o - 1)) {
			char tag[RS_STEP_NO_MAX + 8];

			snprintf(tag, sizeof(tag), "step %s", o->no);
			r = run->nodes->barrier(run, tag);
			if (r) {
				/* Another node's failed step: its verdict,
				 * which the nodes agree on at the end, not
				 * one of this node's. */
				if (r != -ECONNABORTED)
					ret = RS_EXIT_CANTRUN;
				rs_step_counters_drop(pre);
				stop = true;
				if (rs_run_here(run, o))
					record_not_run(&st, o);
				continue;
			}
		}
		prev = o;
		if (!rs_run_here(run, o))
			continue;
		sr = rs_calloc(1, sizeof(*sr));
		if (!sr) {
			rs_step_counters_drop(pre);
			rs_diag_error(&run->diag, rs_obj_loc(o, NULL),
				      "%s: out of memory", st.labels[o->index]);
			ret = RS_EXIT_CANTRUN;
			stop = true;
			record_not_run(&st, o);
			continue;
		}
		rs_step_init(sr, &st, o, NULL);
		sr->ctrs = pre;
		qpc_r = rs_qp_counters_before(run);
		if (!deviate(sr))
			rs_step_execute(sr);
		r = rs_qp_counters_after(run, &qpc);
		if (qpc)
			rs_val_put(rs_step_figures(sr), "qp_counters", qpc);
		if (qpc_r || r)
			rs_step_warn(sr, NULL, "the QPs' own counters were not "
				     "read: %s", rs_errno_text(qpc_r ? -qpc_r : -r,
							      err, sizeof(err)));
		deviate(sr);
		record_run(sr);
		if (sr->result == RS_STEP_FAILED && sr->each_missed) {
			/* Every element is judged: the run fails at the
			 * end, and each node's verdict tells the others. */
			ret = RS_EXIT_FAILED;
		} else if (sr->result == RS_STEP_FAILED) {
			ret = RS_EXIT_FAILED;
			stop = true;
			fail_nodes(run, &st, o, sr);
		} else if (sr->result == RS_STEP_CANTRUN) {
			ret = RS_EXIT_CANTRUN;
			stop = true;
			fail_nodes(run, &st, o, sr);
		} else if (sr->result == RS_STEP_SKIPPED && sr->skip_ends_run) {
			/* It cannot be what the file says here: neither can
			 * the rest of the run. */
			if (ret == RS_EXIT_PASSED)
				ret = RS_EXIT_SKIPPED;
			stop = true;
			fail_nodes(run, &st, o, sr);
		} else if (sr->result == RS_STEP_INTERRUPTED ||
			   rs_interrupted) {
			/* The caller says how the run ended. */
			ret = RS_EXIT_FAILED;
			rs_step_release(sr);
			rs_free(sr);
			break;
		}
		rs_step_release(sr);
		rs_free(sr);
	}
	if (rs_steps_counters_end(&st, &totals))
		rs_diag_warning(&run->diag, NULL, "the run's port counters were "
			     "not read: out of memory");
	rs_steps_free(&st);
	return ret;
}
