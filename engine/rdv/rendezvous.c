// SPDX-License-Identifier: MIT
/*
 * The rendezvous' sockets, failures and waits (rdv_int.h): one private
 * libuv loop per node's side, run by each blocking call until it is done
 * or its deadline passes, and by rs_rdv_poll() in between.  A frame a
 * call has not asked for yet is kept, by rank, for the call that will.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "exit.h"
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
	return 0;
}

static void on_alloc(uv_handle_t *h, size_t want, uv_buf_t *b)
{
	struct rdv_conn *c = h->data;

	(void)want;     /* frames are copied out as they complete */
	*b = uv_buf_init((char *)c->r->rbuf, sizeof(c->r->rbuf));
}

static const char *who(const struct rs_rdv *r, int rank)
{
	return rank == 0 && !rdv_leader(r) ? " (the leader)" : "";
}

/* Keep @f for the call that will take it: 0, or 1 when @rank has sent
 * more than any call waits for (the connection is closed). */
static int keep(struct rs_rdv *r, unsigned rank, struct rdv_frame *f)
{
	struct rdv_msg *m, **p;
	unsigned k = 0;

	for (p = &r->q[rank]; *p; p = &(*p)->next)
		k++;
	if (k >= RDV_QUEUE_MAX) {
		rdv_fail_all(r, -EPROTO, "node '%s'%s sent %u frames ahead "
			     "of the calls that take them", r->names[rank],
			     who(r, (int)rank), k + 1);
		return 1;
	}
	m = rs_calloc(1, sizeof(*m));
	if (!m) {
		rdv_fail_all(r, -ENOMEM, "no memory for a frame from node '%s'",
			     r->names[rank]);
		return 0;
	}
	m->f = *f;
	f->mem = NULL;  /* taken */
	*p = m;
	return 0;
}

/* An exit code node @rank gave: one rdmascn exits with, else the wire
 * lies (a forged verdict must not become, say, 256 & 0xff = 0). */
int rdv_code_ok(struct rs_rdv *r, unsigned rank, uint32_t code,
		const char *what)
{
	if (rs_exit_valid(code))
		return 1;
	rdv_fail_all(r, -EPROTO, "node '%s'%s gave %u as %s, which is no "
		     "exit code of rdmascn (0, 1, 2, 3, 77, 129 to 192)",
		     r->names[rank], who(r, (int)rank), code, what);
	return 0;
}

/* Check and strip the MAC of a frame on an authenticated connection.
 * 1 when it fails: the connection is closed, and a node's is the
 * run's failure. */
static int unseal(struct rdv_conn *c, struct rdv_frame *f)
{
	struct rs_rdv *r = c->r;
	size_t head = (size_t)(f->body - f->mem);

	if (f->len >= RDV_MAC_LEN &&
	    rdv_session_open(&c->sess, f->mem, head + f->len - RDV_MAC_LEN,
			     f->body + f->len - RDV_MAC_LEN)) {
		f->len -= RDV_MAC_LEN;
		return 0;
	}
	if (c->rank < 0)
		return rdv_refuse(c, "a hello that does not check against "
				  "the run's key (a process without it, or "
				  "another key)");
	rdv_fail_all(r, -EPROTO, "node '%s'%s sent a frame that does not "
		     "check against the run's key: forged or damaged on the "
		     "way", r->names[c->rank], who(r, c->rank));
	rdv_conn_close(c);
	return 1;
}

/* A known node's frame.  1 stops reading it. */
static int on_frame(void *arg, struct rdv_frame *f)
{
	struct rdv_conn *c = arg;
	struct rs_rdv *r = c->r;
	int rank = c->rank;

	if (!c->authed)
		return rdv_auth(c, f);
	if (unseal(c, f))
		return 1;
	if (rank < 0)
		return rdv_hello(c, f);
	switch (f->type) {
	case RDV_BYE:
		c->bye = true;
		return 0;
	case RDV_ABORT:
		if (!rdv_leader(r) || f->len < 4)
			break;
		if (!rdv_code_ok(r, (unsigned)rank, rdv_get32(f->body),
				 "its abort's exit code"))
			return 0;
		if (!r->fail)
			r->fail_code = (int)rdv_get32(f->body);
		rdv_fail_all(r, -ECONNABORTED, "node '%s' failed: %.*s",
			     r->names[rank],
			     (int)(f->len - 4 < 512 ? f->len - 4 : 512),
			     (const char *)f->body + 4);
		return 0;
	case RDV_FAIL:
		if (rdv_leader(r) || f->len < 8)
			break;
		if (!r->fail) {
			uint32_t e = rdv_get32(f->body);
			uint32_t code = rdv_get32(f->body + 4);

			if (code && !rdv_code_ok(r, 0, code, "the run's "
						 "exit code"))
				return 0;
			rdv_fail(r, e && e < 4096 ? -(int)e : -EPROTO, "%.*s",
				 (int)(f->len - 8 < 1024 ? f->len - 8 : 1024),
				 (const char *)f->body + 8);
			r->fail_code = (int)rdv_get32(f->body + 4);
			r->fail_told = true;
		}
		return 0;
	case RDV_MET:
		if (rdv_leader(r))
			break;
		return keep(r, 0, f);
	default:
		if ((f->type & 0xf0) == (rdv_leader(r) ? RDV_PUT : RDV_RESULT))
			return keep(r, (unsigned)rank, f);
		break;
	}
	rdv_fail_all(r, -EPROTO, "node '%s'%s sent a frame of type 0x%02x "
		     "out of place", r->names[rank], who(r, rank), f->type);
	rdv_conn_close(c);
	return 1;
}

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *b)
{
	struct rdv_conn *c = s->data;
	struct rs_rdv *r = c->r;
	char why[160];
	int e;

	if (nread > 0) {
		e = rdv_dec_feed(&c->dec, (const uint8_t *)b->base,
				 (size_t)nread, on_frame, c, why, sizeof(why));
		if (e == -ENOMEM) {
			rdv_fail_all(r, e, "node '%s' has no memory for a "
				     "frame: %s", r->names[r->self], why);
			rdv_conn_close(c);
		} else if (e < 0 && c->rank < 0 && rdv_leader(r)) {
			rdv_refuse(c, why);
		} else if (e < 0) {
			rdv_fail_all(r, e, "node '%s'%s sent a bad frame: %s",
				     r->names[c->rank], who(r, c->rank), why);
			rdv_conn_close(c);
		}
		return;
	}
	if (nread == 0)
		return;
	if (rdv_leader(r) && c->rank < 0 && c->authed) {
		/* Gone once it had the leader's proof: most likely a node
		 * that checked it against another key. */
		rdv_refuse(c, "a connection that closed after the leader's "
			   "proof (a node with another key?)");
		return;
	}
	if (!rdv_leader(r) && !r->met) {
		/* Turned away before the meeting (a leader full of
		 * strangers made room, or one starting up): not lost, try
		 * again.  A leader that refuses us says why first. */
		rdv_conn_close(c);
		r->state[0] = RDV_ABSENT;
		rdv_retry(r, nread == UV_EOF ? "it closed the connection "
			  "before the meeting" : uv_strerror((int)nread));
		return;
	}
	if (c->rank >= 0 && !c->bye)
		rdv_fail_all(r, -ECONNRESET, "node '%s'%s was lost: %s",
			     r->names[c->rank], who(r, c->rank),
			     nread == UV_EOF ? "its connection closed" :
			     uv_strerror((int)nread));
	rdv_conn_close(c);
}

int rdv_conn_start(struct rdv_conn *c)
{
	/* A barrier's frame is small and waited for: Nagle would hold it
	 * back for an ACK, up to 40 ms a step. */
	uv_tcp_nodelay(&c->tcp, 1);
	return uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
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

int rs_rdv_fd(const struct rs_rdv *r)
{
	return uv_backend_fd(&r->loop);
}

int rs_rdv_poll(struct rs_rdv *r, char *err, size_t errlen)
{
	if (!r->fail)
		uv_run(&r->loop, UV_RUN_NOWAIT);
	return rdv_failed(r, err, errlen);
}

unsigned rs_rdv_self(const struct rs_rdv *r)
{
	return r->self;
}

unsigned rs_rdv_n_nodes(const struct rs_rdv *r)
{
	return r->n;
}

int rs_rdv_fail_code(const struct rs_rdv *r)
{
	return r->fail ? r->fail_code : 0;
}

void rs_rdv_abort(struct rs_rdv *r, int code, const char *why)
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

static const int worst_first[] = {
	RS_EXIT_INVALID, 128, RS_EXIT_CANTRUN, RS_EXIT_FAILED,
	RS_EXIT_SKIPPED, RS_EXIT_PASSED,
};

static unsigned rank_of(int code)
{
	unsigned i;

	if (code >= 128)
		return 1;
	for (i = 0; i < RS_N(worst_first); i++)
		if (worst_first[i] == code)
			return i;
	return 2;       /* unknown: could not run */
}

int rs_rdv_worst(int a, int b)
{
	return rank_of(a) <= rank_of(b) ? a : b;
}

void rs_rdv_blobs_free(struct rs_rdv_blob *all, unsigned n)
{
	unsigned i;

	if (!all)
		return;
	for (i = 0; i < n; i++) {
		rs_free(all[i].data);
		all[i].data = NULL;
		all[i].len = 0;
	}
}

static bool all_gone(struct rs_rdv *r, void *arg)
{
	struct rdv_conn *c;

	(void)arg;
	for (c = r->conns; c; c = c->next)
		if (c->rank >= 0 && !c->closing)
			return false;
	return true;
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

void rs_rdv_close(struct rs_rdv *r)
{
	unsigned i;

	if (!r)
		return;
	for (i = 0; i < r->n; i++)
		if (r->conn[i])
			rdv_send(r->conn[i], RDV_BYE, NULL, NULL, 0);
	rdv_drain(r, RS_RDV_GRACE_MS);
	/* The leader closes last, so that every node has read all it
	 * sent before the connection goes. */
	if (rdv_leader(r) && !r->fail)
		rdv_wait(r, all_gone, NULL, RS_RDV_GRACE_MS);
	rdv_free(r);
}
