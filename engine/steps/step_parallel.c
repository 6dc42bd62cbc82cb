// SPDX-License-Identifier: MIT
/* parallel: each child on its own loop in its own thread; the parent's
 * loop waits for them. */
#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "step.h"
#include "steps.h"

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

	if (rs_step_kids(sr, &p->kids, &p->n))
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	p->threads = rs_calloc(p->n + 1, sizeof(*p->threads));
	p->started = rs_calloc(p->n + 1, sizeof(*p->started));
	if (!p->threads || !p->started)
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	/* Without its own deadline the parent waits for its children,
	 * each of which has one. */
	if (!ps->common.deadline_ms)
		sr->deadline_ms = 0;
	if (rs_step_threads_begin(sr))
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
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
