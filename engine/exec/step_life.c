// SPDX-License-Identifier: MIT
/*
 * A step's lifecycle: how it passes, fails, warns, is asked to stop or is
 * interrupted, and ends by closing its loop's handles.  The driver
 * (steps_run.c) and what wakes a step (completion_route.c,
 * completion_wait.c, async_events.c) all end a step through here, so
 * that none of them calls back into the driver.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>

#include "signals.h"
#include "step.h"

double rs_step_elapsed(const struct rs_step_run *sr)
{
	return rs_now_ms() - sr->t0;
}

static void close_one(uv_handle_t *h, void *arg)
{
	(void)arg;
	if (!uv_is_closing(h))
		uv_close(h, NULL);
}

void rs_step_finish(struct rs_step_run *sr, int result)
{
	if (sr->finished)
		return;
	sr->finished = true;
	sr->result = result;
	sr->ms = rs_step_elapsed(sr);
	pthread_mutex_lock(&sr->st->lock);
	for (unsigned i = 0; sr->serves && i < sr->serves->n_lanes; i++)
		if (atomic_load(&sr->serves->lanes[i].sr) == sr)
			atomic_store(&sr->serves->lanes[i].sr, NULL);
	if (sr->counts_recv &&
	    atomic_load(&sr->counts_recv->recv_waiter) == sr)
		atomic_store(&sr->counts_recv->recv_waiter, NULL);
	sr->closing = true;
	pthread_mutex_unlock(&sr->st->lock);
	if (sr->loop_ok)
		uv_walk(&sr->loop, close_one, NULL);
}

void rs_step_count_recv(struct rs_step_run *sr, struct rs_qpi *q)
{
	struct rs_step_run *none = NULL;

	pthread_mutex_lock(&sr->st->lock);
	if (!sr->finished &&
	    atomic_compare_exchange_strong(&q->recv_waiter, &none, sr))
		sr->counts_recv = q;
	pthread_mutex_unlock(&sr->st->lock);
}

void rs_step_pass(struct rs_step_run *sr)
{
	rs_step_finish(sr, RS_STEP_PASSED);
}

int rs_step_fail(struct rs_step_run *sr, int result, const char *field,
		 const char *fmt, ...)
{
	char msg[640];
	va_list ap;

	if (sr->finished)
		return -EIO;
	va_start(ap, fmt);
	pthread_mutex_lock(&sr->st->lock);
	rs_diag_vnamed(&sr->run->diag, false, rs_obj_loc(sr->obj, field),
		       sr->label, field, msg, sizeof(msg), fmt, ap);
	pthread_mutex_unlock(&sr->st->lock);
	va_end(ap);
	snprintf(sr->why, sizeof(sr->why), "%s%s%s", field ? field : "",
		 field ? ": " : "", msg);
	if (sr->ops && sr->ops->stop)
		sr->ops->stop(sr);
	rs_step_finish(sr, result);
	return -EIO;
}

int rs_step_skip(struct rs_step_run *sr, const char *fmt, ...)
{
	char msg[640];
	va_list ap;

	if (sr->finished)
		return -EOPNOTSUPP;
	va_start(ap, fmt);
	pthread_mutex_lock(&sr->st->lock);
	rs_diag_vnamed(&sr->run->diag, false, rs_obj_loc(sr->obj, NULL),
		       sr->label, NULL, msg, sizeof(msg), fmt, ap);
	pthread_mutex_unlock(&sr->st->lock);
	va_end(ap);
	snprintf(sr->why, sizeof(sr->why), "%s", msg);
	if (sr->ops && sr->ops->stop)
		sr->ops->stop(sr);
	sr->skip_ends_run = true;
	rs_step_finish(sr, RS_STEP_SKIPPED);
	return -EOPNOTSUPP;
}

void rs_step_warn(struct rs_step_run *sr, const char *field,
		  const char *fmt, ...)
{
	const char *at = field && rs_obj_has(sr->obj, field) ? field : NULL;
	va_list ap;

	va_start(ap, fmt);
	pthread_mutex_lock(&sr->st->lock);
	rs_diag_vnamed(&sr->run->diag, true, rs_obj_loc(sr->obj, at),
		       sr->label, at, NULL, 0, fmt, ap);
	pthread_mutex_unlock(&sr->st->lock);
	va_end(ap);
}

void rs_step_request_stop(struct rs_step_run *sr, const char *why)
{
	pthread_mutex_lock(&sr->st->lock);
	if (!sr->closing && !atomic_load(&sr->stop_req)) {
		snprintf(sr->stop_why, sizeof(sr->stop_why), "%s", why);
		atomic_store(&sr->stop_req, 1);
		if (sr->wakeable)
			uv_async_send(&sr->wake);
	}
	pthread_mutex_unlock(&sr->st->lock);
}

void rs_step_interrupt(struct rs_step_run *sr)
{
	if (sr->finished)
		return;
	if (sr->ops->stop)
		sr->ops->stop(sr);
	snprintf(sr->why, sizeof(sr->why), "interrupted by %s",
		 rs_interrupted == SIGTERM ? "SIGTERM" : "SIGINT");
	rs_step_finish(sr, RS_STEP_INTERRUPTED);
}


bool rs_step_check_stop(struct rs_step_run *sr)
{
	if (sr->finished)
		return true;
	if (rs_interrupted) {
		rs_step_interrupt(sr);
		return true;
	}
	if (!atomic_load(&sr->stop_req))
		return false;
	if (sr->ops->stop)
		sr->ops->stop(sr);
	snprintf(sr->why, sizeof(sr->why), "%s", sr->stop_why);
	rs_step_finish(sr, RS_STEP_FAILED);
	return true;
}
