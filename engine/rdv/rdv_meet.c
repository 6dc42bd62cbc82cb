// SPDX-License-Identifier: MIT
/*
 * The meeting (rs_rdv_meet()): the leader listens, every other node
 * connects (again and again until its deadline: it may start first) and
 * says who it is and what it runs in a hello; the leader compares each
 * with its own and names every difference, then tells all the outcome.
 */
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "macros.h"
#include "rdv_int.h"
#include "signals.h"

#define RDV_VERSION 2
/* Between two connection attempts of a node whose leader is not there. */
#define RDV_RETRY_MS 50

/* "a=1" against "a=2": the names, up to '='. */
static int param_cmp(const char *a, const char *b)
{
	size_t la = strcspn(a, "="), lb = strcspn(b, "=");
	int c = strncmp(a, b, la < lb ? la : lb);

	return c ? c : (la > lb) - (la < lb);
}

static int param_sort(const void *a, const void *b)
{
	return param_cmp(*(char *const *)a, *(char *const *)b);
}

static void diff_add(struct rs_rdv *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void diff_add(struct rs_rdv *r, const char *fmt, ...)
{
	size_t at = strlen(r->diff);
	va_list ap;

	r->n_diff++;
	if (at && at + 2 < sizeof(r->diff))
		at += (size_t)snprintf(r->diff + at, sizeof(r->diff) - at,
				       "; ");
	if (at + 1 >= sizeof(r->diff))
		return;
	va_start(ap, fmt);
	vsnprintf(r->diff + at, sizeof(r->diff) - at, fmt, ap);
	va_end(ap);
}

static const char *str_at(json_object *a, size_t i)
{
	json_object *e = json_object_array_get_idx(a, i);

	return json_object_is_type(e, json_type_string) ?
	       json_object_get_string(e) : NULL;
}

static bool str_array(json_object *a)
{
	size_t i, n;

	if (!json_object_is_type(a, json_type_array))
		return false;
	n = json_object_array_length(a);
	for (i = 0; i < n; i++)
		if (!str_at(a, i))
			return false;
	return true;
}

/* Node @rank said @h: each difference from the leader, named. */
void rdv_hello_compare(struct rs_rdv *r, unsigned rank, json_object *h)
{
	const char *me = r->names[0], *it = r->names[rank];
	json_object *nodes = json_object_object_get(h, "nodes");
	json_object *params = json_object_object_get(h, "params");
	const char *hash = json_object_get_string(
		json_object_object_get(h, "hash"));
	const char *run = json_object_get_string(
		json_object_object_get(h, "run"));
	size_t n = json_object_array_length(nodes), i, j;
	size_t np = json_object_array_length(params);
	json_object *uniform = json_object_object_get(h, "uniform");
	size_t nu = str_array(uniform) ? json_object_array_length(uniform) : 0;
	bool same = n == r->n;

	for (i = 0; same && i < n; i++)
		same = !strcmp(str_at(nodes, i), r->names[i]);
	if (!same) {
		char theirs[256] = "", ours[256] = "";
		size_t a = 0;

		for (i = 0; i < n && a < sizeof(theirs); i++)
			a += (size_t)snprintf(theirs + a, sizeof(theirs) - a,
					      "%s%s", i ? ", " : "",
					      str_at(nodes, i));
		for (a = 0, i = 0; i < r->n && a < sizeof(ours); i++)
			a += (size_t)snprintf(ours + a, sizeof(ours) - a,
					      "%s%s", i ? ", " : "",
					      r->names[i]);
		diff_add(r, "node '%s' has the nodes [%s], node '%s' has [%s]",
			 it, theirs, me, ours);
	}
	if (strcmp(run, r->run_id))
		diff_add(r, "node '%s' is of run '%s', node '%s' of run '%s' "
			 "(another job of the launcher)", it, run, me,
			 r->run_id);
	if (strcmp(hash, r->hash))
		diff_add(r, "node '%s' runs scenario %.16s, node '%s' runs "
			 "%.16s (a different file)", it, hash, me, r->hash);
	/* Both sorted by name: walk them side by side. */
	for (i = 0, j = 0; i < np || j < r->n_params;) {
		const char *t = i < np ? str_at(params, i) : NULL;
		const char *o = j < r->n_params ? r->params[j] : NULL;
		int c = !t ? 1 : !o ? -1 : param_cmp(t, o);

		if (c < 0) {
			diff_add(r, "node '%s' has %s, node '%s' has no "
				 "param '%.*s'", it, t, me,
				 (int)strcspn(t, "="), t);
			i++;
		} else if (c > 0) {
			diff_add(r, "node '%s' has no param '%.*s', node "
				 "'%s' has %s", it, (int)strcspn(o, "="), o,
				 me, o);
			j++;
		} else {
			if (strcmp(t, o))
				diff_add(r, "node '%s' has %s, node '%s' has "
					 "%s", it, t, me, o);
			i++;
			j++;
		}
	}
	/* The same scenario asks for the same names: their values. */
	for (i = 0; i < nu && i < r->n_uniform; i++) {
		const char *t = str_at(uniform, i), *o = r->uniform[i];

		if (!param_cmp(t, o) && strcmp(t, o)) {
			diff_add(r, "node '%s' has %s, node '%s' has %s "
				 "(requires.uniform)", it, t, me, o);
			r->n_diff_uniform++;
		}
	}
}

bool rdv_hello_valid(json_object *h)
{
	return json_object_is_type(h, json_type_object) &&
	       json_object_get_int(json_object_object_get(h, "v")) ==
	       RDV_VERSION &&
	       json_object_is_type(json_object_object_get(h, "rank"),
				   json_type_int) &&
	       str_array(json_object_object_get(h, "nodes")) &&
	       str_array(json_object_object_get(h, "params")) &&
	       json_object_is_type(json_object_object_get(h, "hash"),
				   json_type_string) &&
	       json_object_is_type(json_object_object_get(h, "run"),
				   json_type_string);
}

int rdv_refuse(struct rdv_conn *c, const char *why)
{
	struct rs_rdv *r = c->r;

	r->refused++;
	snprintf(r->refused_msg, sizeof(r->refused_msg), "%s", why);
	rdv_conn_close(c);
	return 1;
}

/* The connection's first frame, before it is authenticated
 * (rdv_auth.h).  On the leader: a node's nonce, answered with the
 * leader's nonce and proof; on a node: that answer, whose proof it
 * checks before it says anything about itself. */
static int send_hello(struct rs_rdv *r, struct rdv_conn *c);

int rdv_auth(struct rdv_conn *c, struct rdv_frame *f)
{
	struct rs_rdv *r = c->r;
	uint8_t nonce_l[RDV_NONCE_LEN], proof[RDV_MAC_LEN];
	struct rdv_piece pc[2] = {
		{ nonce_l, RDV_NONCE_LEN }, { proof, RDV_MAC_LEN },
	};
	int e;

	if (rdv_leader(r)) {
		if (f->type != RDV_AUTH1 || f->len != RDV_NONCE_LEN ||
		    r->met)
			return rdv_refuse(c, "a connection that did not start "
					  "with a nonce (rendezvous v2)");
		e = rdv_random(nonce_l, sizeof(nonce_l));
		if (e) {
			rdv_fail_all(r, e, "node '%s' (the leader) has no "
				     "random bytes: %s", r->names[0],
				     strerror(-e));
			rdv_conn_close(c);
			return 1;
		}
		rdv_leader_proof(r->key, r->key_len, f->body, nonce_l, proof);
		if (rdv_send(c, RDV_AUTH2, NULL, pc, 2)) {
			rdv_conn_close(c);
			return 1;
		}
		rdv_session_init(&c->sess, r->key, r->key_len, f->body,
				 nonce_l, true);
		c->authed = true;
		c->dec.cap = RDV_HELLO_MAX + RDV_MAC_LEN;
		return 0;
	}
	if (f->type != RDV_AUTH2 || f->len != RDV_NONCE_LEN + RDV_MAC_LEN ||
	    !rdv_leader_proof_ok(r->key, r->key_len, c->nonce, f->body,
				 f->body + RDV_NONCE_LEN)) {
		rdv_fail(r, -EACCES, "the process at %s is not the leader of "
			 "this run: it does not prove that it holds the run's "
			 "key (is RDMASCN_KEY or --key-file the same on every "
			 "node?)", r->addr_text);
		rdv_conn_close(c);
		return 1;
	}
	rdv_session_init(&c->sess, r->key, r->key_len, c->nonce, f->body,
			 false);
	c->authed = true;
	r->connected = true;
	c->dec.cap = RS_RDV_FRAME_MAX;
	if (send_hello(r, c)) {
		rdv_conn_close(c);
		return 1;
	}
	return 0;
}

/* The leader's side: the first frame of a connection, which must be a
 * node's hello.  Anything else is not one of ours: closed, counted,
 * and the meeting goes on.  1 stops reading the connection. */
int rdv_hello(struct rdv_conn *c, struct rdv_frame *f)
{
	struct rs_rdv *r = c->r;
	json_tokener *tok;
	json_object *h, *rank_o;
	int64_t rank;
	char why[160];

	if (f->type != RDV_HELLO || r->met) {
		snprintf(why, sizeof(why), "a frame of type 0x%02x where a "
			 "hello was due", f->type);
		return rdv_refuse(c, why);
	}
	tok = json_tokener_new_ex(8);
	if (!tok) {
		/* Not the stranger's fault: the meeting cannot go on. */
		rdv_fail_all(r, -ENOMEM, "node '%s' (the leader) has no "
			     "memory for a hello", r->names[0]);
		rdv_conn_close(c);
		return 1;
	}
	h = json_tokener_parse_ex(tok, (const char *)f->body, (int)f->len);
	if (!h || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) != f->len) {
		json_tokener_free(tok);
		json_object_put(h);
		return rdv_refuse(c, "a hello that is not one JSON object");
	}
	json_tokener_free(tok);
	rank_o = json_object_object_get(h, "rank");
	if (!rdv_hello_valid(h)) {
		json_object_put(h);
		return rdv_refuse(c, "a hello without v 2, rank, nodes, hash, "
				  "run and params");
	}
	rank = json_object_get_int64(rank_o);
	if (rank < 1 || rank >= r->n) {
		json_object_put(h);
		snprintf(why, sizeof(why), "a hello from rank %lld of %u",
			 (long long)rank, r->n);
		return rdv_refuse(c, why);
	}
	if (r->state[rank] != RDV_ABSENT) {
		json_object_put(h);
		rdv_fail_all(r, -EINVAL, "two processes claim node '%s' "
			     "(rank %lld)", r->names[rank], (long long)rank);
		rdv_conn_close(c);
		return 1;
	}
	c->rank = (int)rank;
	c->dec.cap = RDV_PART_MAX;
	r->conn[rank] = c;
	r->state[rank] = RDV_LIVE;
	r->hello[rank] = h;
	return 0;
}

/* The connections that have not said who they are: how many, and the
 * oldest of them (r->conns has the newest first). */
static unsigned pending(const struct rs_rdv *r, struct rdv_conn **ret_oldest)
{
	struct rdv_conn *c;
	unsigned k = 0;

	for (c = r->conns; c; c = c->next)
		if (c->rank < 0 && !c->closing) {
			k++;
			*ret_oldest = c;
		}
	return k;
}

static void on_connection(uv_stream_t *s, int status)
{
	struct rs_rdv *r = s->data;
	struct rdv_conn *c, *oldest = NULL;

	if (status < 0)
		return;
	/* Strangers do not crowd out the nodes: the oldest of those that
	 * have not proved themselves makes room.  A node proves itself in
	 * a round trip, and one turned away tries again (rdv_retry()). */
	if (pending(r, &oldest) >= RDV_PENDING_MAX)
		rdv_refuse(oldest, "more than " RS_STR(RDV_PENDING_MAX)
			   " connections at once that had not proved "
			   "themselves");
	c = rdv_conn_new(r);
	if (!c) {
		/* Unaccepted, the connection would stop the listener. */
		rdv_fail_all(r, -ENOMEM, "node '%s' (the leader) has no "
			     "memory for a connection", r->names[0]);
		return;
	}
	c->born = uv_now(&r->loop);
	if (uv_accept(s, (uv_stream_t *)&c->tcp) || rdv_conn_start(c))
		rdv_conn_close(c);
}

/* A connection that has not said who it is within its time is closed:
 * it holds no descriptor or memory longer than that. */
static void on_sweep(uv_timer_t *t)
{
	struct rs_rdv *r = t->data;
	uint64_t ms = r->deadline_ms < RDV_AUTH_MS ? r->deadline_ms :
		      RDV_AUTH_MS, now = uv_now(&r->loop);
	struct rdv_conn *c, *next;

	for (c = r->conns; c; c = next) {
		next = c->next;
		if (c->rank < 0 && !c->closing && now - c->born >= ms)
			rdv_refuse(c, "a connection that did not say who it "
				   "is in time");
	}
}

static bool absent(const struct rs_rdv *r, unsigned rank)
{
	return rank != r->self && r->state[rank] == RDV_ABSENT;
}

static bool all_joined(struct rs_rdv *r, void *arg)
{
	unsigned i;

	(void)arg;
	for (i = 1; i < r->n; i++)
		if (r->state[i] != RDV_LIVE)
			return false;
	return true;
}

static int meet_leader(struct rs_rdv *r)
{
	char names[512];
	unsigned i, k;
	int e;

	e = uv_tcp_bind(&r->listener, (struct sockaddr *)&r->addr, 0);
	if (!e)
		e = uv_listen((uv_stream_t *)&r->listener, 128, on_connection);
	if (e) {
		rdv_fail(r, e, "node '%s' (the leader) cannot listen on %s: %s",
			 r->names[0], r->addr_text, uv_strerror(e));
		return e;
	}
	if (!uv_timer_init(&r->loop, &r->sweep)) {
		r->sweep.data = r;
		r->sweep_on = true;
		uv_timer_start(&r->sweep, on_sweep, 250, 250);
	}
	e = rdv_wait(r, all_joined, NULL, r->deadline_ms);
	if (r->sweep_on)
		uv_timer_stop(&r->sweep);
	/* In rank order, whatever the order they came in. */
	for (i = 1; i < r->n; i++)
		if (r->hello[i])
			rdv_hello_compare(r, i, r->hello[i]);
	if (e == -ETIMEDOUT) {
		char more[320] = "";

		if (r->refused)
			snprintf(more, sizeof(more), "; refused %u "
				 "connection(s) that were no node: %s",
				 r->refused, r->refused_msg);
		rdv_names(r, absent, names, sizeof(names), &k);
		rdv_fail_all(r, -ETIMEDOUT, "%s %s did not join within %llu "
			     "ms (node '%s' listens on %s)%s%s%s",
			     k > 1 ? "nodes" : "node", names,
			     (unsigned long long)r->deadline_ms, r->names[0],
			     r->addr_text, r->diff[0] ? "; " : "", r->diff,
			     more);
	}
	if (r->fail)
		return r->fail;
	if (r->diff[0]) {
		/* Only the hosts differ: the file is right, the run cannot
		 * go on. */
		rdv_fail_all(r, r->n_diff == r->n_diff_uniform ?
			     -EMEDIUMTYPE : -EINVAL, "%s", r->diff);
		return r->fail;
	}
	r->met = true;
	for (i = 1; i < r->n; i++) {
		e = rdv_send(r->conn[i], RDV_MET, NULL, NULL, 0);
		if (e) {
			rdv_fail_all(r, e, "node '%s' (the leader) cannot tell "
				     "node '%s' that they met: %s", r->names[0],
				     r->names[i], strerror(-e));
			return e;
		}
	}
	return 0;
}

static void connect_now(struct rs_rdv *r);

static void on_retry(uv_timer_t *t)
{
	connect_now(t->data);
}

void rdv_retry(struct rs_rdv *r, const char *why)
{
	snprintf(r->last_err, sizeof(r->last_err), "%s", why);
	if (!r->timed_out && !r->retry_on &&
	    !uv_timer_start(&r->retry, on_retry, RDV_RETRY_MS, 0))
		r->retry_on = true;
}

static void on_connect(uv_connect_t *req, int status)
{
	struct rdv_conn *c = req->data;
	struct rs_rdv *r = c->r;
	int e;

	r->connecting = false;
	if (status < 0 || rdv_conn_start(c)) {
		rdv_conn_close(c);
		rdv_retry(r, uv_strerror(status < 0 ? status : -EIO));
		return;
	}
	c->rank = 0;
	c->dec.cap = RDV_PREAUTH_MAX;
	r->conn[0] = c;
	r->state[0] = RDV_LIVE;
	/* Nothing about this node or run until the leader proved it is
	 * ours: a nonce only (rdv_auth()). */
	e = rdv_random(c->nonce, sizeof(c->nonce));
	if (!e)
		e = rdv_send(c, RDV_AUTH1, NULL, &(struct rdv_piece){
			c->nonce, sizeof(c->nonce) }, 1);
	if (e)
		rdv_fail(r, e, "node '%s' could not start its handshake: %s",
			 r->names[r->self], strerror(-e));
}

/* Who this node is and what it runs. */
json_object *rdv_hello_new(const struct rs_rdv *r)
{
	json_object *h, *a;
	unsigned i;

	h = json_object_new_object();
	json_object_object_add(h, "v", json_object_new_int(RDV_VERSION));
	json_object_object_add(h, "rank", json_object_new_int64(r->self));
	json_object_object_add(h, "node",
			       json_object_new_string(r->names[r->self]));
	json_object_object_add(h, "hash", json_object_new_string(r->hash));
	json_object_object_add(h, "run", json_object_new_string(r->run_id));
	a = json_object_new_array();
	for (i = 0; i < r->n; i++)
		json_object_array_add(a, json_object_new_string(r->names[i]));
	json_object_object_add(h, "nodes", a);
	a = json_object_new_array();
	for (i = 0; i < r->n_params; i++)
		json_object_array_add(a, json_object_new_string(r->params[i]));
	json_object_object_add(h, "params", a);
	a = json_object_new_array();
	for (i = 0; i < r->n_uniform; i++)
		json_object_array_add(a, json_object_new_string(r->uniform[i]));
	json_object_object_add(h, "uniform", a);
	return h;
}

/* The hello: the first sealed frame. */
static int send_hello(struct rs_rdv *r, struct rdv_conn *c)
{
	json_object *h = rdv_hello_new(r);
	const char *text;
	int e = -ENOMEM;

	text = json_object_to_json_string_ext(h, JSON_C_TO_STRING_PLAIN);
	if (text)
		e = rdv_send(c, RDV_HELLO, NULL,
			     &(struct rdv_piece){ text, strlen(text) }, 1);
	if (e)
		rdv_fail(r, e, "node '%s' could not say hello: %s",
			 r->names[r->self], strerror(-e));
	json_object_put(h);
	return e;
}

static void connect_now(struct rs_rdv *r)
{
	struct rdv_conn *c = rdv_conn_new(r);
	int e;

	r->retry_on = false;
	if (!c) {
		rdv_fail(r, -ENOMEM, "no memory for a connection");
		return;
	}
	r->creq.data = c;
	e = uv_tcp_connect(&r->creq, &c->tcp, (struct sockaddr *)&r->addr,
			   on_connect);
	if (e) {
		rdv_conn_close(c);
		rdv_fail(r, e, "node '%s' cannot connect to %s: %s",
			 r->names[r->self], r->addr_text, uv_strerror(e));
		return;
	}
	r->connecting = true;
}

static bool connected(struct rs_rdv *r, void *arg)
{
	(void)arg;
	return r->connected;
}

static bool have_met(struct rs_rdv *r, void *arg)
{
	(void)arg;
	/* Turned away and trying again (rdv_retry()): not yet. */
	return r->q[0] || (r->state[0] != RDV_LIVE && !r->retry_on &&
			   !r->connecting);
}

static int meet_node(struct rs_rdv *r)
{
	const char *lead = r->names[0];
	uint64_t ms = r->deadline_ms + RS_RDV_GRACE_MS;
	struct rdv_msg *m;
	int e;

	connect_now(r);
	e = rdv_wait(r, connected, NULL, r->deadline_ms);
	if (e == -ETIMEDOUT) {
		uv_timer_stop(&r->retry);
		rdv_fail(r, e, "node '%s' (the leader) did not answer at %s "
			 "within %llu ms%s%s%s", lead, r->addr_text,
			 (unsigned long long)r->deadline_ms,
			 r->last_err[0] ? " (" : "", r->last_err,
			 r->last_err[0] ? ")" : "");
	}
	if (r->fail)
		return r->fail;
	e = rdv_wait(r, have_met, NULL, ms);
	if (e == -ETIMEDOUT) {
		uv_timer_stop(&r->retry);
		rdv_fail(r, e, "node '%s' (the leader) did not answer node "
			 "'%s''s hello within %llu ms%s%s%s", lead,
			 r->names[r->self], (unsigned long long)ms,
			 r->last_err[0] ? " (" : "", r->last_err,
			 r->last_err[0] ? ")" : "");
	}
	if (!r->fail && !r->q[0])
		rdv_fail(r, -ECONNRESET, "node '%s' (the leader) closed before "
			 "the meeting", lead);
	if (r->fail)
		return r->fail;
	m = r->q[0];
	r->q[0] = m->next;
	rs_free(m->f.mem);
	rs_free(m);
	r->met = true;
	return 0;
}

/* 127.0.0.0/8, ::1 or ::ffff:127.0.0.0/104: only this host's processes
 * reach a leader that listens there. */
static bool loopback(const struct sockaddr_storage *a)
{
	if (a->ss_family == AF_INET) {
		const struct sockaddr_in *v4 = (const void *)a;

		return (ntohl(v4->sin_addr.s_addr) >> 24) == 127;
	}
	if (a->ss_family == AF_INET6) {
		const struct in6_addr *v6 =
			&((const struct sockaddr_in6 *)(const void *)a)->sin6_addr;

		return IN6_IS_ADDR_LOOPBACK(v6) ||
		       (IN6_IS_ADDR_V4MAPPED(v6) && v6->s6_addr[12] == 127);
	}
	return false;
}

/* "host:port", "host", "[v6]:port", "[v6]" into r->addr. */
static int resolve(struct rs_rdv *r, const char *text, char *err,
		   size_t errlen)
{
	char host[256], port[16];
	const char *colon;
	uv_getaddrinfo_t req;
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM };
	size_t hl;
	int e;

	snprintf(port, sizeof(port), "%d", RS_RDV_PORT_DEFAULT);
	if (text[0] == '[') {
		const char *end = strchr(text, ']');

		if (!end || (end[1] && end[1] != ':'))
			goto bad;
		hl = (size_t)(end - text - 1);
		if (hl >= sizeof(host))
			goto bad;
		memcpy(host, text + 1, hl);
		colon = end[1] ? end + 1 : NULL;
	} else {
		colon = strrchr(text, ':');
		hl = colon ? (size_t)(colon - text) : strlen(text);
		if (hl >= sizeof(host) || (colon && strchr(text, ':') != colon))
			goto bad;
		memcpy(host, text, hl);
	}
	host[hl] = '\0';
	if (colon) {
		char *end;
		unsigned long p = strtoul(colon + 1, &end, 10);

		if (!colon[1] || *end || p > 65535)
			goto bad;
		snprintf(port, sizeof(port), "%lu", p);
	}
	if (!host[0])
		goto bad;
	e = uv_getaddrinfo(&r->loop, &req, NULL, host, port, &hints);
	if (e) {
		snprintf(err, errlen, "cannot resolve '%s': %s", host,
			 uv_strerror(e));
		return e;
	}
	memcpy(&r->addr, req.addrinfo->ai_addr, req.addrinfo->ai_addrlen);
	uv_freeaddrinfo(req.addrinfo);
	snprintf(r->addr_text, sizeof(r->addr_text), "%s:%s", host, port);
	return 0;
bad:
	snprintf(err, errlen, "'%s' is not an address: host:port, host, "
		 "[ipv6]:port", text);
	return -EINVAL;
}

int rdv_setup(struct rs_rdv *r, const struct rs_rdv_conf *c, char *err,
	      size_t errlen)
{
	unsigned i;
	int e;

	r->n = c->n_nodes;
	r->self = c->self;
	r->deadline_ms = c->deadline_ms;
	r->names = rs_calloc(r->n, sizeof(*r->names));
	r->conn = rs_calloc(r->n, sizeof(*r->conn));
	r->state = rs_calloc(r->n, sizeof(*r->state));
	r->q = rs_calloc(r->n, sizeof(*r->q));
	r->hello = rs_calloc(r->n, sizeof(*r->hello));
	r->hash = rs_strdup(c->scenario_hash ? c->scenario_hash : "");
	r->run_id = rs_strdup(c->run_id ? c->run_id : "");
	r->key = rs_malloc(c->key_len ? c->key_len : 1);
	if (r->key && c->key_len)
		memcpy(r->key, c->key, c->key_len);
	r->key_len = c->key_len;
	r->params = rs_calloc(c->n_params + 1, sizeof(*r->params));
	r->uniform = rs_calloc(c->n_uniform + 1, sizeof(*r->uniform));
	if (!r->names || !r->conn || !r->state || !r->q || !r->hello ||
	    !r->hash || !r->run_id || !r->key || !r->params || !r->uniform)
		goto nomem;
	for (; r->n_uniform < c->n_uniform; r->n_uniform++)
		if (!(r->uniform[r->n_uniform] =
		      rs_strdup(c->uniform[r->n_uniform])))
			goto nomem;
	for (i = 0; i < r->n; i++)
		if (!(r->names[i] = rs_strdup(c->nodes[i])))
			goto nomem;
	for (; r->n_params < c->n_params; r->n_params++)
		if (!(r->params[r->n_params] =
		      rs_strdup(c->params[r->n_params])))
			goto nomem;
	qsort(r->params, r->n_params, sizeof(*r->params), param_sort);
	e = uv_loop_init(&r->loop);
	if (e) {
		snprintf(err, errlen, "cannot make a loop: %s", uv_strerror(e));
		return e;
	}
	r->loop_ok = true;
	uv_timer_init(&r->loop, &r->timer);
	uv_timer_init(&r->loop, &r->retry);
	r->timer.data = r->retry.data = r;
	e = resolve(r, c->leader_addr, err, errlen);
	if (e)
		return e;
	if (rdv_leader(r)) {
		uv_tcp_init(&r->loop, &r->listener);
		r->listener.data = r;
		r->listening = true;
	}
	return 0;
nomem:
	snprintf(err, errlen, "no memory for the rendezvous");
	return -ENOMEM;
}

int rdv_tcp_meet(const struct rs_rdv_conf *c, struct rs_rdv **ret,
		 char *err, size_t errlen)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	struct rs_rdv *r;
	struct rdv_conn *k, *next;
	int e;

	if (!c->n_nodes || c->self >= c->n_nodes || !c->leader_addr ||
	    !c->deadline_ms) {
		snprintf(err, errlen, "rendezvous: node %u of %u, leader at "
			 "%s, deadline %llu ms", c->self, c->n_nodes,
			 c->leader_addr ? c->leader_addr : "(none)",
			 (unsigned long long)c->deadline_ms);
		return -EINVAL;
	}
	/* A peer that goes away must not kill us on our next write. */
	if (!sigaction(SIGPIPE, NULL, &old) && old.sa_handler == SIG_DFL)
		sigaction(SIGPIPE, &ign, NULL);
	r = rs_calloc(1, sizeof(*r));
	if (!r) {
		snprintf(err, errlen, "no memory for the rendezvous");
		return -ENOMEM;
	}
	e = rdv_setup(r, c, err, errlen);
	if (e) {
		rdv_free(r);
		return e;
	}
	if (r->n == 1) {
		r->met = true;
		*ret = r;
		return 0;
	}
	if (!c->key_len && !c->insecure && !loopback(&r->addr)) {
		snprintf(err, errlen, "the nodes would meet at %s, which is "
			 "not a loopback address, and the run has no key: "
			 "anyone who reaches it could join; give every node "
			 "the same key (RDMASCN_KEY or --key-file FILE, "
			 "docs/nodes.md) or say --insecure", r->addr_text);
		rdv_free(r);
		return -EPERM;
	}
	e = rdv_auth_load(err, errlen);
	if (e) {
		rdv_free(r);
		return e;
	}
	e = rdv_leader(r) ? meet_leader(r) : meet_node(r);
	if (e)
		rdv_failed(r, err, errlen);
	if (e == -EINTR) {
		/* Interrupted here: the others hear it as an abort with
		 * 128+signal, and end with that, not with a lost node. */
		char why[64];

		snprintf(why, sizeof(why), "interrupted by signal %d",
			 (int)rs_interrupted);
		rdv_tcp_abort(r, 128 + rs_interrupted, why);
	} else if (e == -ECONNABORTED) {
		/* Another node's abort: the caller takes its exit code
		 * (rs_rdv_fail_code()) from the failed side. */
		*ret = r;
		return e;
	}
	if (e) {
		rdv_free(r);
		return e;
	}
	/* Nobody else joins now: the door closes, strangers leave. */
	if (r->listening) {
		uv_close((uv_handle_t *)&r->listener, NULL);
		r->listening = false;
	}
	for (k = r->conns; k; k = next) {
		next = k->next;
		if (k->rank < 0)
			rdv_conn_close(k);
	}
	*ret = r;
	return 0;
}
