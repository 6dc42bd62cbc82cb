// SPDX-License-Identifier: MIT
/*
 * The rendezvous' sockets, failures and waits (rdv_int.h): one private
 * libuv loop per node's side, run by each blocking call until it is done
 * or its deadline passes, and by rs_rdv_poll() in between.  What the
 * meeting (rdv_meet.c), the calls after it (rdv_collect.c) and the
 * reading of frames (rendezvous.c) share; it calls none of them, so that
 * calls go one way.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "macros.h"
#include "rdv_int.h"
#include "signals.h"

static void vfail(struct rs_rdv *r, int err, const char *fmt, va_list ap)
{
	if (r->fail)
		return;
	r->fail = err;
	vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
}

void rdv_fail(struct rs_rdv *r, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(r, err, fmt, ap);
	va_end(ap);
}

/* The leader's word to every node: errno, the exit code an abort gave
 * (0: none), then the text. */
static void tell_all(struct rs_rdv *r)
{
	uint8_t e[8];
	struct rdv_piece pc[2] = {
		{ e, 8 }, { r->msg, strlen(r->msg) },
	};
	unsigned i;

	rdv_put32(e, (uint32_t)-r->fail);
	rdv_put32(e + 4, (uint32_t)r->fail_code);
	for (i = 1; i < r->n; i++)
		if (r->conn[i])
			rdv_send(r->conn[i], RDV_FAIL, NULL, pc, 2);
}

void rdv_fail_all(struct rs_rdv *r, int err, const char *fmt, ...)
{
	va_list ap;

	if (r->fail)
		return;
	va_start(ap, fmt);
	vfail(r, err, fmt, ap);
	va_end(ap);
	if (rdv_leader(r))
		tell_all(r);
}

int rdv_failed(const struct rs_rdv *r, char *err, size_t errlen)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", r->msg);
	return r->fail;
}

static void on_write(uv_write_t *req, int status)
{
	struct rs_rdv *r = req->data;

	(void)status;   /* a broken connection shows on its read side */
	r->writes--;
	rs_free(req);
}

int rdv_send(struct rdv_conn *c, uint8_t type, const char *tag,
	     const struct rdv_piece *pc, unsigned n)
{
	struct rdv_piece all[2 * 64 + 2];
	static const uint8_t room[RDV_MAC_LEN];
	uint8_t *m;
	size_t len;
	uv_write_t *req;
	uv_buf_t b;
	int e;

	if (c->closing)
		return -ENOTCONN;
	if (c->authed) {
		/* Room for the MAC at the end, sealed once encoded. */
		struct rdv_piece *p = n + 1 > RS_N(all) ?
				      rs_calloc(n + 1, sizeof(*p)) : all;

		if (!p)
			return -ENOMEM;
		if (n)
			memcpy(p, pc, n * sizeof(*pc));
		p[n] = (struct rdv_piece){ room, RDV_MAC_LEN };
		e = rdv_encode(type, tag, p, n + 1, &m, &len);
		if (p != all)
			rs_free(p);
		if (!e)
			rdv_session_seal(&c->sess, m + 4, len - 4 - RDV_MAC_LEN,
					 m + len - RDV_MAC_LEN);
	} else {
		e = rdv_encode(type, tag, pc, n, &m, &len);
	}
	if (e)
		return e;
	/* One allocation: the request, then the frame. */
	req = rs_malloc(sizeof(*req) + len);
	if (!req) {
		rs_free(m);
		return -ENOMEM;
	}
	memcpy(req + 1, m, len);
	rs_free(m);
	req->data = c->r;
	b = uv_buf_init((char *)(req + 1), (unsigned)len);
	e = uv_write(req, (uv_stream_t *)&c->tcp, &b, 1, on_write);
	if (e) {
		rs_free(req);
		return e;
	}
	c->r->writes++;
	c->r->st.frames_sent++;
	c->r->st.bytes_sent += len;
	return 0;
}

void rdv_call_begin(struct rs_rdv *r, const char *tag)
{
	r->st.calls++;
	snprintf(r->st.last_tag, sizeof(r->st.last_tag), "%s", tag);
}

void rdv_call_end(struct rs_rdv *r, uint64_t t0)
{
	r->st.last_ns = uv_hrtime() - t0;
	r->st.call_ns += r->st.last_ns;
}

void rs_rdv_stats(const struct rs_rdv *r, struct rs_rdv_stats *ret)
{
	*ret = r->st;
}

struct rdv_conn *rdv_conn_new(struct rs_rdv *r)
{
	struct rdv_conn *c = rs_calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	if (uv_tcp_init(&r->loop, &c->tcp)) {
		rs_free(c);
		return NULL;
	}
	c->tcp.data = c;
	c->r = r;
	c->rank = -1;
	c->dec.cap = rdv_leader(r) ? RDV_HELLO_MAX : RS_RDV_FRAME_MAX;
	c->next = r->conns;
	r->conns = c;
	return c;
}

static void on_conn_closed(uv_handle_t *h)
{
	struct rdv_conn *c = h->data, **p;

	for (p = &c->r->conns; *p; p = &(*p)->next)
		if (*p == c) {
			*p = c->next;
			break;
		}
	rdv_dec_free(&c->dec);
	rs_free(c);
}

void rdv_conn_close(struct rdv_conn *c)
{
	struct rs_rdv *r = c->r;

	if (c->closing)
		return;
	c->closing = true;
	if (c->rank >= 0 && r->conn[c->rank] == c) {
		r->conn[c->rank] = NULL;
		r->state[c->rank] = c->bye ? RDV_LEFT : RDV_LOST;
	}
	uv_close((uv_handle_t *)&c->tcp, on_conn_closed);
}

static void on_deadline(uv_timer_t *t)
{
	struct rs_rdv *r = t->data;

	r->timed_out = true;
}

static void on_signal(uv_poll_t *p, int status, int events)
{
	(void)p;        /* wakes the loop; rs_interrupted says the rest */
	(void)status;
	(void)events;
}

int rdv_wait(struct rs_rdv *r, bool (*done)(struct rs_rdv *r, void *arg),
	     void *arg, uint64_t ms)
{
	int sfd = rs_signal_fd();

	r->timed_out = false;
	if (uv_timer_start(&r->timer, on_deadline, ms, 0))
		r->timed_out = true;
	if (r->draining)
		sfd = -1;
	if (sfd >= 0 && !r->sig_on && !uv_poll_init(&r->loop, &r->sig, sfd)) {
		r->sig.data = r;
		r->sig_on = true;
	}
	if (sfd >= 0 && r->sig_on)
		uv_poll_start(&r->sig, UV_READABLE, on_signal);
	while ((!r->fail || r->draining) && !done(r, arg) && !r->timed_out) {
		if (rs_interrupted && !r->draining) {
			rdv_fail(r, -EINTR, "node '%s' was interrupted "
				 "(signal %d)", r->names[r->self],
				 (int)rs_interrupted);
			break;
		}
		uv_run(&r->loop, UV_RUN_ONCE);
	}
	uv_timer_stop(&r->timer);
	if (r->sig_on)
		uv_poll_stop(&r->sig);
	if (r->fail)
		return r->fail;
	return r->timed_out ? -ETIMEDOUT : 0;
}

static bool no_writes(struct rs_rdv *r, void *arg)
{
	(void)arg;
	return !r->writes;
}

void rdv_drain(struct rs_rdv *r, uint64_t ms)
{
	/* A wait stops at a failure and a signal: look past both here,
	 * the writes under way are what tell the others. */
	r->draining = true;
	rdv_wait(r, no_writes, NULL, ms);
	r->draining = false;
}

void rdv_names(const struct rs_rdv *r, bool (*pick)(const struct rs_rdv *r,
		unsigned rank), char *buf, size_t len, unsigned *ret_count)
{
	unsigned i, k = 0;
	size_t at = 0;

	buf[0] = '\0';
	for (i = 0; i < r->n; i++) {
		if (!pick(r, i))
			continue;
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s'%s'",
					       k ? ", " : "", r->names[i]);
		k++;
	}
	*ret_count = k;
}

void rdv_tcp_abort(struct rs_rdv *r, int code, const char *why)
{
	bool told;

	/* Once is enough: a run that aborts at its steps and again at its
	 * end says so once. */
	if (!r || r->aborted)
		return;
	r->aborted = true;
	/* Our own interruption, which a wait stopped at: nobody has heard
	 * of it yet; the abort is how they do. */
	if (r->fail == -EINTR && !r->fail_told)
		r->fail = 0;
	told = r->fail_told;
	if (!r->fail)
		r->fail_code = code;
	if (rdv_leader(r)) {
		/* Already failed: the nodes had the leader's word then. */
		rdv_fail_all(r, -ECONNABORTED, "node '%s' failed: %s",
			     r->names[0], why);
	} else {
		rdv_fail(r, -ECONNABORTED, "node '%s' failed: %s",
			 r->names[r->self], why);
		/* A failure the leader told us of, it knows; ours it
		 * does not. */
		if (!told && r->conn[0] && r->conn[0]->authed) {
			uint8_t c[4];
			struct rdv_piece pc[2] = {
				{ c, 4 }, { why, strlen(why) },
			};

			rdv_put32(c, (uint32_t)code);
			if (pc[1].len > 512)
				pc[1].len = 512;
			rdv_send(r->conn[0], RDV_ABORT, NULL, pc, 2);
		}
	}
	rdv_drain(r, RS_RDV_GRACE_MS);
}

static void on_closed(uv_handle_t *h)
{
	(void)h;
}

static void close_left(uv_handle_t *h, void *arg)
{
	(void)arg;
	fprintf(stderr, "rdmascn: bug: the rendezvous left a %s open\n",
		uv_handle_type_name(uv_handle_get_type(h)));
	if (!uv_is_closing(h))
		uv_close(h, on_closed);
}

void rdv_free(struct rs_rdv *r)
{
	struct rdv_conn *c;
	unsigned i;

	if (!r)
		return;
	if (r->loop_ok) {
		rdv_drain(r, RS_RDV_GRACE_MS);
		for (c = r->conns; c; c = c->next)
			rdv_conn_close(c);
		if (r->listening)
			uv_close((uv_handle_t *)&r->listener, on_closed);
		uv_close((uv_handle_t *)&r->timer, on_closed);
		uv_close((uv_handle_t *)&r->retry, on_closed);
		if (r->sig_on)
			uv_close((uv_handle_t *)&r->sig, on_closed);
		if (r->sweep_on)
			uv_close((uv_handle_t *)&r->sweep, on_closed);
		uv_run(&r->loop, UV_RUN_DEFAULT);
		/* Every handle is closed: one still open is our bug, said
		 * and mended so that the loop's memory can go. */
		if (uv_loop_close(&r->loop)) {
			uv_walk(&r->loop, close_left, NULL);
			uv_run(&r->loop, UV_RUN_DEFAULT);
			uv_loop_close(&r->loop);
		}
	}
	for (i = 0; r->q && i < r->n; i++)
		while (r->q[i]) {
			struct rdv_msg *m = r->q[i];

			r->q[i] = m->next;
			rs_free(m->f.mem);
			rs_free(m);
		}
	for (i = 0; r->hello && i < r->n; i++)
		if (r->hello[i])
			json_object_put(r->hello[i]);
	for (i = 0; r->names && i < r->n; i++)
		rs_free(r->names[i]);
	for (i = 0; r->params && i < r->n_params; i++)
		rs_free(r->params[i]);
	for (i = 0; r->uniform && i < r->n_uniform; i++)
		rs_free(r->uniform[i]);
	rs_free(r->uniform);
	rs_free(r->names);
	rs_free(r->params);
	rs_free(r->hash);
	rs_free(r->run_id);
	if (r->key) {
		explicit_bzero(r->key, r->key_len);
		rs_free(r->key);
	}
	rs_free(r->conn);
	rs_free(r->state);
	rs_free(r->q);
	rs_free(r->hello);
	rs_free(r);
}
