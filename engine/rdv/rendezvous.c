// SPDX-License-Identifier: MIT
/*
 * The rendezvous' frames as they arrive (rdv_int.h): unsealed, handed to
 * the meeting (rdv_meet.c) while a connection has not said who it is,
 * else taken here or kept, by rank, for the call that will take them;
 * and the calls on a rendezvous once met.  The sockets, failures and
 * waits all of rdv/ shares are in rdv_conn.c, below this file and the
 * meeting both.
 */
#include <errno.h>

#include "alloc.h"
#include "exit.h"
#include "macros.h"
#include "rdv_int.h"

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

	/* An exchange's part may take many frames: only those that end a
	 * part count. */
	for (p = &r->q[rank]; *p; p = &(*p)->next)
		k += !rdv_more(&(*p)->f);
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

	r->st.frames_recv++;
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
		r->st.bytes_recv += (uint64_t)nread;
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

int rdv_tcp_fd(const struct rs_rdv *r)
{
	return uv_backend_fd(&r->loop);
}

int rdv_tcp_poll(struct rs_rdv *r, char *err, size_t errlen)
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

static bool all_gone(struct rs_rdv *r, void *arg)
{
	struct rdv_conn *c;

	(void)arg;
	for (c = r->conns; c; c = c->next)
		if (c->rank >= 0 && !c->closing)
			return false;
	return true;
}

void rdv_tcp_close(struct rs_rdv *r)
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
