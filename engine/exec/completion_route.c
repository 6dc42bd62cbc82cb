// SPDX-License-Identifier: MIT
/*
 * Completion routing: each completion goes by its wr_id to the step that
 * posted the WR, whoever polled it; it is checked against that step's
 * `expect:`, and the step it belongs to is woken or failed.
 */
#include <errno.h>
#include <stdio.h>

#include "step.h"

/* --- routing -------------------------------------------------------------- */

/* Does @status meet the owner's `expect:`?  With an error expected, the
 * WRs that succeed before it are fine (the step fails at its end if the
 * error never came), and the queue's WRs flushed after it are its
 * consequence, not a failure. */
static bool expected(struct rs_owner *o, int status)
{
	if (status == o->expect) {
		if (status != IBV_WC_SUCCESS)
			atomic_store_explicit(&o->saw_expect, true,
					      memory_order_release);
		return true;
	}
	if (o->expect == IBV_WC_SUCCESS)
		return false;
	if (status == IBV_WC_SUCCESS)
		return true;
	return status == IBV_WC_WR_FLUSH_ERR &&
	       atomic_load_explicit(&o->saw_expect, memory_order_acquire);
}

/* Wake the step in @who, if it is another thread's and still open.
 * @who is reloaded under st->lock, where a finishing step clears it. */
static void wake_other(struct rs_step_run *sr,
		       _Atomic(struct rs_step_run *) *who)
{
	struct rs_step_run *to;

	pthread_mutex_lock(&sr->st->lock);
	to = atomic_load(who);
	if (to && to != sr && to->wakeable && !to->closing)
		uv_async_send(&to->wake);
	pthread_mutex_unlock(&sr->st->lock);
}

static void wake_lane(struct rs_step_run *sr, struct rs_owner *o,
		      struct rs_lane *ln, bool bad)
{
	struct rs_step_run *to = atomic_load_explicit(&ln->sr,
						      memory_order_acquire);

	if (to == sr || (to && atomic_load_explicit(&ln->spins,
						    memory_order_relaxed)))
		return;
	if (!to) {
		/* It finished (a recv step): whoever reaped it answers. */
		if (bad && !sr->late_bad)
			sr->late_bad = o;
		return;
	}
	/* Waiting on another thread's loop. */
	wake_other(sr, &ln->sr);
}

/* A receive of @q came: the step counting them (a send step waiting for
 * its peer's receives, which a finished recv step posted) learns it
 * from its own wake-ups, unless another thread reaped it: wake it then.
 * With several steps on one CQ, that thread may have taken the only
 * event. */
static void wake_recv_waiter(struct rs_step_run *sr, struct rs_qpi *q)
{
	struct rs_step_run *to = atomic_load_explicit(&q->recv_waiter,
						      memory_order_acquire);

	if (to && to != sr)
		wake_other(sr, &q->recv_waiter);
}

/* A completion no step posted: nothing owns it, so the reaper fails. */
static void stray(struct rs_step_run *sr, struct rs_cqi *c,
		  const struct ibv_wc *wc)
{
	rs_step_fail(sr, RS_STEP_FAILED, NULL,
		     "cq '%s' returned a completion no step posted: wr_id "
		     "0x%llx, qp_num 0x%x, status %s", c->l->obj->id,
		     (unsigned long long)wc->wr_id, wc->qp_num,
		     rs_wc_status_name(wc->status));
}

/* --- wr_ids a step chose -------------------------------------------------- */

static bool overlap(const struct rs_wr_range *r, uint64_t base, uint64_t n)
{
	return base < r->base + r->n && r->base < base + n;
}

int rs_step_wr_range(struct rs_step_run *sr, const void *queue, bool recv,
		     uint64_t base, uint64_t n, unsigned lane,
		     const char **ret_other)
{
	struct rs_steps *st = sr->st;
	unsigned k;
	int r = 0;

	pthread_mutex_lock(&st->lock);
	k = atomic_load_explicit(&st->n_ranges, memory_order_relaxed);
	for (unsigned i = 0; i < k; i++) {
		const struct rs_wr_range *o = &st->ranges[i];
		const struct rs_owner *ow = st->owners[o->slot];

		/* A queue's completions say nothing of which queue of a
		 * QP they came from when they failed: send and receive
		 * ids on one QP must differ too. */
		if (o->queue != queue || !overlap(o, base, n) ||
		    atomic_load(&ow->lanes[o->lane].done) >= o->n)
			continue;
		*ret_other = ow->label;
		r = -EBUSY;
		break;
	}
	if (!r && k == RS_MAX_WR_RANGES)
		r = -ENOSPC;
	if (!r) {
		st->ranges[k] = (struct rs_wr_range){
			.queue = queue, .recv = recv, .base = base, .n = n,
			.slot = rs_step_slot(sr), .lane = lane };
		atomic_store_explicit(&st->n_ranges, k + 1,
				      memory_order_release);
	}
	pthread_mutex_unlock(&st->lock);
	return r;
}

/* A completion of a WR whose wr_id a step chose: its owner's slot, lane
 * and sequence.  The newest range that holds it wins: an older one that
 * overlaps had all its WRs completed when the newer one was added. */
static bool user_route(struct rs_steps *st, const struct ibv_wc *wc,
		       uint32_t *slot, unsigned *li, uint32_t *seq)
{
	unsigned k = atomic_load_explicit(&st->n_ranges,
					  memory_order_acquire);
	struct rs_qpi *q;

	if (!k || !(q = rs_qp_by_num(st, wc->qp_num)))
		return false;
	while (k--) {
		const struct rs_wr_range *r = &st->ranges[k];

		if ((r->queue != q && (!q->srq || r->queue != q->srq)) ||
		    wc->wr_id - r->base >= r->n || wc->wr_id < r->base)
			continue;
		*slot = r->slot;
		*li = r->lane;
		*seq = (uint32_t)(wc->wr_id - r->base);
		return true;
	}
	return false;
}

void rs_step_route(struct rs_step_run *sr, struct rs_cqi *c,
		   const struct ibv_wc *wc)
{
	rs_step_route_ex(sr, c, wc, NULL);
}

void rs_step_route_ex(struct rs_step_run *sr, struct rs_cqi *c,
		      const struct ibv_wc *wc, const struct rs_wc_ext *ext)
{
	struct rs_steps *st = sr->st;
	uint32_t slot = wc->wr_id >> RS_WR_SLOT_SHIFT;
	unsigned li = (wc->wr_id >> RS_WR_LANE_SHIFT) & 0xff;
	uint32_t seq = (uint32_t)wc->wr_id;
	struct rs_owner *o;
	struct rs_lane *ln;
	uint64_t n, ok;
	bool bad;

	user_route(st, wc, &slot, &li, &seq);
	o = slot < st->n_objs ? st->owners[slot] : NULL;
	if (!o || li >= o->n_lanes) {
		stray(sr, c, wc);
		return;
	}
	ln = &o->lanes[li];
	if (ln->per_wr) {
		struct rs_qpi *q = rs_qp_by_num(st, wc->qp_num);

		n = 1;
		if (q) {
			atomic_store_explicit(&q->last_recv_slot, slot,
					      memory_order_relaxed);
			atomic_store_explicit(&q->last_recv_seq, seq,
					      memory_order_relaxed);
			atomic_store_explicit(&q->last_recv_len, wc->byte_len,
					      memory_order_relaxed);
			atomic_fetch_add_explicit(&q->recv_done, 1,
						  memory_order_release);
			wake_recv_waiter(sr, q);
		}
	} else {
		/* Signalled every Nth: this one completes those before. */
		n = (uint32_t)(seq + 1 - ln->next);
		ln->next = seq + 1;
	}
	ok = wc->status == IBV_WC_SUCCESS ? n : n - 1;
	bad = !expected(o, wc->status);
	if (wc->status == IBV_WC_SUCCESS && !bad) {
		char why[sizeof(o->bad_why)];

		bool miss = o->want.mask &&
			    !rs_wc_check(&o->want, &o->seen, wc, ext, why,
					 sizeof(why));

		/* Receives always (a reply is addressed from the last);
		 * sends when an extended CQ read more than ibv_wc has. */
		if (ln->per_wr || ext)
			rs_wc_seen_add(&o->seen, wc, ext);
		if (miss) {
			bad = true;
			if (!atomic_exchange(&o->claimed, 1)) {
				snprintf(o->bad_why, sizeof(o->bad_why), "%s",
					 why);
				o->bad_wc = *wc;
				o->bad_lane = li;
				atomic_store_explicit(&o->bad, true,
						      memory_order_release);
			}
		}
	}
	if (wc->status != IBV_WC_SUCCESS)
		atomic_store_explicit(&ln->errored, true, memory_order_relaxed);
	if (bad && !atomic_exchange(&o->claimed, 1)) {
		o->bad_wc = *wc;
		o->bad_lane = li;
		o->bad_seq = seq;
		atomic_store_explicit(&o->bad, true, memory_order_release);
	}
	if (ok)
		atomic_fetch_add_explicit(&ln->ok, ok, memory_order_relaxed);
	atomic_fetch_add_explicit(&ln->done, n, memory_order_release);
	wake_lane(sr, o, ln, bad);
}

void rs_step_fail_wc(struct rs_step_run *sr, struct rs_owner *o)
{
	const struct ibv_wc *wc = &o->bad_wc;
	const struct rs_lane *ln = &o->lanes[o->bad_lane];
	char msg[640], opc[48] = "", seq[24] = "", text[64] = "";
	const struct rs_loc *loc = rs_obj_loc(o->obj, NULL);

	/* The opcode is only defined on success: else say what was posted. */
	if (wc->status == IBV_WC_SUCCESS)
		snprintf(opc, sizeof(opc), ", opcode %d", wc->opcode);
	else
		snprintf(text, sizeof(text), " (%s)",
			 ibv_wc_status_str(wc->status));
	/* Receives have no order to number them by. */
	if (!ln->per_wr)
		snprintf(seq, sizeof(seq), " (#%u)", (unsigned)o->bad_seq);
	if (o->bad_why[0])
		snprintf(msg, sizeof(msg),
			 "%s wr 0x%llx%s completed with success, qp_num 0x%x, "
			 "but %s", ln->op, (unsigned long long)wc->wr_id,
			 seq, wc->qp_num, o->bad_why);
	else
		snprintf(msg, sizeof(msg),
			 "%s wr 0x%llx%s completed with %s%s, vendor_err 0x%x%s, "
			 "qp_num 0x%x; expected %s", ln->op,
			 (unsigned long long)wc->wr_id, seq,
			 rs_wc_status_name(wc->status), text, wc->vendor_err,
			 opc, wc->qp_num, rs_wc_status_name(o->expect));
	if (sr->finished)
		return;
	pthread_mutex_lock(&sr->st->lock);
	if (o == sr->owner)
		rs_diag_error(&sr->run->diag, loc, "%s: %s", o->label, msg);
	else
		rs_diag_error(&sr->run->diag, loc, "%s: %s (reaped by %s)",
			      o->label, msg, sr->label);
	pthread_mutex_unlock(&sr->st->lock);
	if (o == sr->owner)
		snprintf(sr->why, sizeof(sr->why), "%s", msg);
	else
		snprintf(sr->why, sizeof(sr->why), "%s: %s", o->label, msg);
	if (sr->ops->stop)
		sr->ops->stop(sr);
	rs_step_finish(sr, RS_STEP_FAILED);
}

void rs_step_advance(struct rs_step_run *sr)
{
	if (sr->finished)
		return;
	if (sr->owner && atomic_load_explicit(&sr->owner->bad,
					      memory_order_acquire)) {
		rs_step_fail_wc(sr, sr->owner);
		return;
	}
	if (sr->late_bad) {
		rs_step_fail_wc(sr, sr->late_bad);
		return;
	}
	if (sr->ops->progress)
		sr->ops->progress(sr);
}
