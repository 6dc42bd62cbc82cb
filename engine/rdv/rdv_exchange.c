// SPDX-License-Identifier: MIT
/*
 * The exchange (rs_rdv_exchange()): every node sends the leader its
 * messages, each for one node, in as many frames as a blob's cap needs;
 * the leader, once every node's part is in, sends each node only the
 * messages for it.  One round trip whatever the number of messages, and
 * a node's bytes are those of its own messages: an allgather would send
 * every node everything.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "rdv_int.h"

/* One message as it travels: @peer is the destination in a put, the
 * source once routed. */
struct rec {
	uint32_t peer, key;
	const void *data;
	uint32_t len;
	uint32_t src;           /* leader: who sent it */
};

struct xchg {
	const char *tag;
	const struct rs_rdv_msg *out;
	unsigned n_out;
	struct rs_rdv_msg *want;
	unsigned n_want;
};

static const uint8_t flag_more = RDV_XCHG_MORE, flag_last;

/*
 * Send @n records in frames of at most a blob each, every one but the
 * last flagged "more": @n of 0 is one empty frame, which still tells the
 * other side that this part is whole.
 */
static int send_recs(struct rdv_conn *c, uint8_t type, const char *tag,
		     const struct rec *recs, unsigned n)
{
	uint8_t (*hd)[RDV_XCHG_HEAD] = rs_calloc(n ? n : 1, sizeof(*hd));
	struct rdv_piece *pc = rs_calloc(2 * (size_t)n + 1, sizeof(*pc));
	unsigned i = 0, k;
	size_t body;
	int e = 0;

	if (!hd || !pc) {
		e = -ENOMEM;
		goto out;
	}
	do {
		body = 1;
		k = 1;
		for (; i < n; i++) {
			size_t one = RDV_XCHG_HEAD + recs[i].len;

			if (body + one > RS_RDV_BLOB_MAX && k > 1)
				break;
			rdv_put32(hd[i], recs[i].peer);
			rdv_put32(hd[i] + 4, recs[i].key);
			rdv_put32(hd[i] + 8, recs[i].len);
			pc[k++] = (struct rdv_piece){ hd[i], RDV_XCHG_HEAD };
			pc[k++] = (struct rdv_piece){ recs[i].data,
						      recs[i].len };
			body += one;
		}
		pc[0] = (struct rdv_piece){ i < n ? &flag_more : &flag_last,
					    1 };
		e = rdv_send(c, type, tag, pc, k);
	} while (!e && i < n);
out:
	rs_free(hd);
	rs_free(pc);
	return e;
}

/* The frames of one part, from the head of @q: the number up to and
 * including the one that ends it, or 0 while it is not whole. */
static unsigned part_frames(const struct rdv_msg *q)
{
	unsigned k = 0;

	for (; q; q = q->next) {
		k++;
		if (!rdv_more(&q->f))
			return k;
	}
	return 0;
}

static void pop_part(struct rs_rdv *r, unsigned rank)
{
	unsigned k = part_frames(r->q[rank]);

	while (k--) {
		struct rdv_msg *m = r->q[rank];

		r->q[rank] = m->next;
		rs_free(m->f.mem);
		rs_free(m);
	}
}

/*
 * The records of the part at the head of @rank's queue, appended to
 * *@recs (grown as needed, *@n of *@cap used), each with @rank as src:
 * 0, or -EPROTO with why in @why when a frame is not of this exchange
 * or its records do not add up.
 */
static int parse_part(struct rs_rdv *r, unsigned rank, uint8_t type,
		      const char *tag, struct rec **recs, size_t *n,
		      size_t *cap, char *why, size_t whylen)
{
	const struct rdv_msg *m = r->q[rank];
	unsigned k = part_frames(m), f;

	for (f = 0; f < k; f++, m = m->next) {
		const uint8_t *p = m->f.body, *end = p + m->f.len;

		if (m->f.type != type || strcmp(m->f.tag, tag)) {
			snprintf(why, whylen, "at %s '%s'",
				 rdv_op_name(m->f.type & 0x0f), m->f.tag);
			return -EINVAL;
		}
		if (p == end) {
			snprintf(why, whylen, "an exchange frame without "
				 "its flag");
			return -EPROTO;
		}
		for (p++; p < end;) {
			struct rec *x;

			if (end - p < RDV_XCHG_HEAD ||
			    rdv_get32(p + 8) > (size_t)(end - p) -
					       RDV_XCHG_HEAD) {
				snprintf(why, whylen, "a message that runs "
					 "past its frame (%zu bytes left)",
					 (size_t)(end - p));
				return -EPROTO;
			}
			if (*n == *cap) {
				size_t c2 = *cap ? 2 * *cap : 64;
				struct rec *g = rs_reallocarray(*recs, c2,
								sizeof(*g));

				if (!g) {
					snprintf(why, whylen, "no memory");
					return -ENOMEM;
				}
				*recs = g;
				*cap = c2;
			}
			x = &(*recs)[(*n)++];
			x->peer = rdv_get32(p);
			x->key = rdv_get32(p + 4);
			x->len = rdv_get32(p + 8);
			x->data = p + RDV_XCHG_HEAD;
			x->src = rank;
			p += RDV_XCHG_HEAD + x->len;
		}
	}
	return 0;
}

/* @out's messages for others (or, @self_only, those for @self) as
 * records, appended like parse_part()'s. */
static int out_recs(const struct xchg *x, unsigned self, bool self_only,
		    struct rec **recs, size_t *n, size_t *cap)
{
	unsigned i;

	for (i = 0; i < x->n_out; i++) {
		const struct rs_rdv_msg *o = &x->out[i];

		if ((o->peer == self) != self_only)
			continue;
		if (*n == *cap) {
			size_t c2 = *cap ? 2 * *cap : 64;
			struct rec *g = rs_reallocarray(*recs, c2,
							sizeof(*g));

			if (!g)
				return -ENOMEM;
			*recs = g;
			*cap = c2;
		}
		(*recs)[(*n)++] = (struct rec){
			o->peer, o->key, o->data, (uint32_t)o->len, self,
		};
	}
	return 0;
}

static int by_src_key(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return 0;
}

/* Fill @x's wanted messages from the @n records this node got (src and
 * key set): 0, or a failure (this node's, final) naming the node and
 * the key of the first one missing or sent twice. */
static int fill_wants(struct rs_rdv *r, struct xchg *x, struct rec *recs,
		      size_t n)
{
	const char *me = r->names[r->self];
	unsigned i;

	if (n)          /* recs may be NULL then, which qsort() refuses */
		qsort(recs, n, sizeof(*recs), by_src_key);
	for (i = 0; i < x->n_want; i++)
		x->want[i].data = NULL;
	for (i = 0; i < x->n_want; i++) {
		struct rs_rdv_msg *w = &x->want[i];
		struct rec k = { .src = w->peer, .key = w->key }, *f;

		if (w->peer >= r->n) {
			rdv_fail(r, -EINVAL, "exchange '%s': node '%s' wants "
				 "a message from node rank %u, and there are "
				 "%u nodes", x->tag, me, w->peer, r->n);
			goto fail;
		}
		f = n ? bsearch(&k, recs, n, sizeof(*recs), by_src_key) :
		    NULL;
		if (!f) {
			rdv_fail(r, -EPROTO, "exchange '%s': node '%s' sent "
				 "node '%s' no message under key %u", x->tag,
				 r->names[w->peer], me, w->key);
			goto fail;
		}
		if ((f > recs && !by_src_key(f - 1, f)) ||
		    (f + 1 < recs + n && !by_src_key(f + 1, f))) {
			rdv_fail(r, -EPROTO, "exchange '%s': node '%s' sent "
				 "node '%s' more than one message under key "
				 "%u", x->tag, r->names[w->peer], me, w->key);
			goto fail;
		}
		w->data = rs_malloc(f->len ? f->len : 1);
		if (!w->data) {
			rdv_fail(r, -ENOMEM, "exchange '%s': no memory for "
				 "%u bytes from node '%s'", x->tag, f->len,
				 r->names[w->peer]);
			goto fail;
		}
		if (f->len)
			memcpy(w->data, f->data, f->len);
		w->len = f->len;
	}
	return 0;
fail:
	rs_rdv_msgs_free(x->want, x->n_want);
	return r->fail;
}

static bool missing_part(const struct rs_rdv *r, unsigned rank)
{
	return rank && !part_frames(r->q[rank]);
}

/* The leader's wait: every node's part whole, or a node gone. */
static bool parts_whole(struct rs_rdv *r, void *arg)
{
	struct xchg *x = arg;
	unsigned i;

	for (i = 1; i < r->n; i++) {
		if (part_frames(r->q[i]))
			continue;
		if (r->state[i] == RDV_LIVE)
			return false;
		rdv_fail_all(r, -ECONNRESET, "node '%s' %s before exchange "
			     "'%s'", r->names[i], r->state[i] == RDV_LEFT ?
			     "closed its side" : "was lost", x->tag);
		return true;
	}
	return true;
}

static int by_peer(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->peer != y->peer)
		return x->peer < y->peer ? -1 : 1;
	return x->src < y->src ? -1 : x->src > y->src;
}

static int lead(struct rs_rdv *r, struct xchg *x)
{
	uint8_t put = RDV_PUT | RDV_OP_EXCHANGE;
	uint8_t res = RDV_RESULT | RDV_OP_EXCHANGE;
	struct rec *recs = NULL;
	size_t n = 0, cap = 0, at, end, n0;
	char names[512], why[300];
	unsigned i, cnt;
	int e;

	e = r->n > 1 ? rdv_wait(r, parts_whole, x, r->deadline_ms) : 0;
	if (e == -ETIMEDOUT) {
		rdv_names(r, missing_part, names, sizeof(names), &cnt);
		rdv_fail_all(r, e, "%s %s did not reach exchange '%s' within "
			     "%llu ms", cnt > 1 ? "nodes" : "node", names,
			     x->tag, (unsigned long long)r->deadline_ms);
	}
	if (r->fail)
		return r->fail;
	if (out_recs(x, 0, false, &recs, &n, &cap) ||
	    out_recs(x, 0, true, &recs, &n, &cap)) {
		rdv_fail_all(r, -ENOMEM, "no memory for exchange '%s'",
			     x->tag);
		goto out;
	}
	for (i = 1; i < r->n; i++) {
		e = parse_part(r, i, put, x->tag, &recs, &n, &cap, why,
			       sizeof(why));
		if (e == -EINVAL)
			rdv_fail_all(r, e, "node '%s' is %s, node '%s' at "
				     "exchange '%s'", r->names[i], why,
				     r->names[0], x->tag);
		else if (e)
			rdv_fail_all(r, e, "node '%s' sent a bad part of "
				     "exchange '%s': %s", r->names[i], x->tag,
				     why);
		if (e)
			goto out;
	}
	/* Every destination a node.  The records are in their senders'
	 * rank order (ours, then each part's), so the first at fault
	 * names the first sender at fault. */
	for (at = 0; at < n; at++)
		if (recs[at].peer >= r->n) {
			rdv_fail_all(r, -EPROTO, "node '%s' sent a message "
				     "under key %u to node rank %u in "
				     "exchange '%s', and there are %u nodes",
				     r->names[recs[at].src], recs[at].key,
				     recs[at].peer, x->tag, r->n);
			goto out;
		}
	/* Routed: by destination, each node's messages in rank order of
	 * their senders; the peer each is sent with is its source.  The
	 * leader's own come first (destination 0) and stay here. */
	if (n)
		qsort(recs, n, sizeof(*recs), by_peer);
	for (n0 = 0; n0 < n && recs[n0].peer == 0; n0++)
		;
	for (at = 0, i = 0; i < r->n; i++, at = end) {
		for (end = at; end < n && recs[end].peer == i; end++)
			recs[end].peer = recs[end].src;
		if (!i)
			continue;
		e = send_recs(r->conn[i], res, x->tag, recs + at,
			      (unsigned)(end - at));
		if (e) {
			rdv_fail_all(r, e, "exchange '%s': cannot answer node "
				     "'%s': %s", x->tag, r->names[i],
				     strerror(-e));
			goto out;
		}
	}
	fill_wants(r, x, recs, n0);
out:
	for (i = 1; i < r->n; i++)
		pop_part(r, i);
	rs_free(recs);
	return r->fail;
}

static bool answered(struct rs_rdv *r, void *arg)
{
	(void)arg;
	return part_frames(r->q[0]) || r->state[0] != RDV_LIVE;
}

static int follow(struct rs_rdv *r, struct xchg *x)
{
	uint64_t ms = r->deadline_ms + RS_RDV_GRACE_MS;
	uint8_t res = RDV_RESULT | RDV_OP_EXCHANGE;
	const char *lead = r->names[0];
	struct rec *recs = NULL;
	size_t n = 0, cap = 0;
	char why[300];
	int e;

	e = out_recs(x, r->self, false, &recs, &n, &cap);
	if (!e)
		e = send_recs(r->conn[0], RDV_PUT | RDV_OP_EXCHANGE, x->tag,
			      recs, (unsigned)n);
	if (e) {
		rdv_fail(r, e, "node '%s' cannot send its part of exchange "
			 "'%s': %s", r->names[r->self], x->tag, strerror(-e));
		goto out;
	}
	n = 0;
	e = rdv_wait(r, answered, NULL, ms);
	if (e == -ETIMEDOUT)
		rdv_fail(r, e, "node '%s' (the leader) did not answer "
			 "exchange '%s' within %llu ms", lead, x->tag,
			 (unsigned long long)ms);
	if (!r->fail && !part_frames(r->q[0]))
		rdv_fail(r, -ECONNRESET, "node '%s' (the leader) %s before "
			 "exchange '%s'", lead, r->state[0] == RDV_LEFT ?
			 "closed its side" : "was lost", x->tag);
	/*
	 * The answer whole is taken even when a node's failure came after
	 * it, in the same read: a node that failed at once on its answer
	 * (a connection's two ports disagree) aborts before we run, and
	 * our half, left "not created", would not say what it found itself.
	 * The failure stays, for the next call.
	 */
	if (!part_frames(r->q[0])) {
		e = r->fail;
		goto out;
	}
	e = out_recs(x, r->self, true, &recs, &n, &cap);
	if (e) {
		rdv_fail(r, e, "no memory for exchange '%s'", x->tag);
		goto pop;
	}
	e = parse_part(r, 0, res, x->tag, &recs, &n, &cap, why, sizeof(why));
	if (e) {
		rdv_fail(r, -EPROTO, "node '%s' (the leader) answered "
			 "exchange '%s' wrongly: %s", lead, x->tag, why);
		e = -EPROTO;
		goto pop;
	}
	/* parse_part() named the leader as every record's source; the
	 * peer field of a result is the real one. */
	for (size_t i = 0; i < n; i++)
		recs[i].src = recs[i].peer;
	e = fill_wants(r, x, recs, n);
pop:
	pop_part(r, 0);
out:
	rs_free(recs);
	return e;
}

int rdv_tcp_exchange(struct rs_rdv *r, const char *tag,
		     const struct rs_rdv_msg *out, unsigned n_out,
		     struct rs_rdv_msg *want, unsigned n_want,
		     char *err, size_t errlen)
{
	struct xchg x = { tag ? tag : "", out, n_out, want, n_want };
	uint64_t t0 = uv_hrtime();
	unsigned i;
	int e;

	for (i = 0; i < n_want; i++)
		want[i].data = NULL;
	if (r->fail)
		return rdv_failed(r, err, errlen);
	if (strlen(x.tag) > RS_RDV_TAG_MAX) {
		snprintf(err, errlen, "exchange tag '%.32s...' is longer "
			 "than %u bytes", x.tag, RS_RDV_TAG_MAX);
		return -ENAMETOOLONG;
	}
	for (i = 0; i < n_out; i++)
		if (out[i].len > RS_RDV_MSG_MAX) {
			snprintf(err, errlen, "exchange '%s': a message of "
				 "%zu bytes under key %u, more than the %u "
				 "one may have", x.tag, out[i].len,
				 out[i].key, (unsigned)RS_RDV_MSG_MAX);
			return -EMSGSIZE;
		}
	rdv_call_begin(r, x.tag);
	e = rdv_leader(r) ? lead(r, &x) : follow(r, &x);
	rdv_call_end(r, t0);
	return e ? rdv_failed(r, err, errlen) : 0;
}

void rs_rdv_msgs_free(struct rs_rdv_msg *m, unsigned n)
{
	unsigned i;

	for (i = 0; m && i < n; i++) {
		rs_free(m[i].data);
		m[i].data = NULL;
	}
}
