/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_RDV_INT_H
#define RDMASCN_RDV_INT_H

/* Inside the rendezvous: one node's side, its connections and waits.
 * rdv_ops.c: the public calls, each through the transport's ops
 * (struct rdv_ops: the TCP star below, or PMIx in rdv_pmix.c);
 * rdv_conn.c: sockets, failures, waits, free, called by the rest and
 * calling none of it; rendezvous.c: frames as they arrive, close;
 * rdv_meet.c: the meeting; rdv_collect.c: the calls after it. */
#include <stdarg.h>
#include <stdbool.h>
#include <sys/socket.h>

#include <json-c/json.h>
#include <uv.h>

#include "rdv_auth.h"
#include "rdv_wire.h"
#include "rendezvous.h"

/* A frame kept for the call that will take it. */
struct rdv_msg {
	struct rdv_msg *next;
	struct rdv_frame f;
};

enum rdv_peer_state {
	RDV_ABSENT,             /* not joined (yet) */
	RDV_LIVE,
	RDV_LEFT,               /* said goodbye, then closed */
	RDV_LOST,               /* closed without goodbye, or broke */
};

/* Connections that have not proved themselves yet, on the leader: at
 * most this many at once (a newer one is closed at once), each for at
 * most RDV_AUTH_MS (or the meeting's deadline, if shorter). */
#define RDV_PENDING_MAX 16
#define RDV_AUTH_MS 10000
/* Frames kept for a later call, per node: the protocol has one call
 * under way at a time, so a few are slack, more are a node gone wrong. */
#define RDV_QUEUE_MAX 4

struct rdv_conn {
	uv_tcp_t tcp;
	struct rs_rdv *r;
	int rank;               /* -1: has not said who it is */
	struct rdv_dec dec;
	bool bye, closing;
	bool authed;            /* frames are sealed (rdv_auth.h) */
	struct rdv_session sess;
	uint8_t nonce[RDV_NONCE_LEN];   /* a node's own */
	uint64_t born;          /* uv_now() when accepted */
	struct rdv_conn *next;  /* r->conns */
};

/* A transport: what the public calls (rendezvous.h) do once met.  The
 * meeting picks one (rdv_ops.c); callers never ask which it is. */
struct rdv_ops {
	const char *name;
	int (*allgather)(struct rs_rdv *r, const char *tag, const void *mine,
			 size_t len, struct rs_rdv_blob *all, char *err,
			 size_t errlen);
	int (*gather)(struct rs_rdv *r, const char *tag, const void *mine,
		      size_t len, struct rs_rdv_blob *all, char *err,
		      size_t errlen);
	int (*barrier)(struct rs_rdv *r, const char *tag, char *err,
		       size_t errlen);
	int (*verdict)(struct rs_rdv *r, int mine, int *ret_all, char *err,
		       size_t errlen);
	int (*agree)(struct rs_rdv *r, const char *tag, int mine,
		     int *ret_all, char *err, size_t errlen);
	int (*exchange)(struct rs_rdv *r, const char *tag,
			const struct rs_rdv_msg *out, unsigned n_out,
			struct rs_rdv_msg *want, unsigned n_want, char *err,
			size_t errlen);
	void (*abort)(struct rs_rdv *r, int code, const char *why);
	int (*fd)(const struct rs_rdv *r);
	int (*poll)(struct rs_rdv *r, char *err, size_t errlen);
	void (*close)(struct rs_rdv *r);
};

extern const struct rdv_ops rdv_tcp_ops;

struct rdv_pmix;

struct rs_rdv {
	const struct rdv_ops *ops;
	struct rdv_pmix *pmix;          /* PMIx's state; NULL: the TCP star */
	uv_loop_t loop;
	uv_tcp_t listener;
	uv_timer_t timer, retry, sweep;
	uv_poll_t sig;
	uv_connect_t creq;
	bool loop_ok, listening, timer_on, retry_on, sig_on, sweep_on;
	bool timed_out, connected, connecting, met;
	bool draining;                  /* a wait that signals do not end */
	struct rdv_conn *conns;         /* every open connection */
	struct rdv_conn **conn;         /* by rank; a node has [0] only */
	enum rdv_peer_state *state;     /* by rank */
	struct rdv_msg **q;             /* by rank: frames kept */
	json_object **hello;            /* leader: what each node said */

	char **names;
	unsigned n, self;
	char *hash;
	char *run_id;
	uint8_t *key;
	size_t key_len;
	char **params;
	unsigned n_params;
	char **uniform;                 /* rs_rdv_conf's */
	unsigned n_uniform;
	unsigned n_diff, n_diff_uniform;  /* leader: differences found */
	uint64_t deadline_ms;
	char addr_text[300];
	struct sockaddr_storage addr;

	int fail;                       /* the first failure, sticky */
	bool fail_told;                 /* it came from the leader */
	bool aborted;                   /* rs_rdv_abort() was called */
	int fail_code;                  /* the exit code an abort gave;
					 * 0: none */
	char msg[RDV_MSG_MAX];
	char diff[RDV_MSG_MAX];         /* leader: differences found so far */
	char last_err[128];             /* a node: why the last connect failed */
	unsigned refused;               /* leader: connections not nodes */
	char refused_msg[256];
	unsigned writes;                /* uv_write requests under way */
	struct rs_rdv_stats st;         /* rs_rdv_stats() */
	uint8_t rbuf[64 << 10];
};

static inline bool rdv_leader(const struct rs_rdv *r)
{
	return r->self == 0;
}

/* Record the first failure (later ones are dropped), and on the leader
 * tell every node still connected. */
void rdv_fail(struct rs_rdv *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void rdv_fail_all(struct rs_rdv *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The failure as a call returns it. */
int rdv_failed(const struct rs_rdv *r, char *err, size_t errlen);

int rdv_send(struct rdv_conn *c, uint8_t type, const char *tag,
	     const struct rdv_piece *pc, unsigned n);
struct rdv_conn *rdv_conn_new(struct rs_rdv *r);
void rdv_conn_close(struct rdv_conn *c);

/* Around every collective call: counted and timed (rs_rdv_stats()),
 * @t0 being uv_hrtime() at its start. */
void rdv_call_begin(struct rs_rdv *r, const char *tag);
void rdv_call_end(struct rs_rdv *r, uint64_t t0);

/* Run the loop until @done says so, a failure, @ms or a signal;
 * r->timed_out tells the deadline from the rest.  0 when done. */
int rdv_wait(struct rs_rdv *r, bool (*done)(struct rs_rdv *r, void *arg),
	     void *arg, uint64_t ms);
/* Run the loop until the writes under way are out, at most @ms. */
void rdv_drain(struct rs_rdv *r, uint64_t ms);

/* "'b'", "'b', 'c'" of the ranks for which @pick says so. */
void rdv_names(const struct rs_rdv *r, bool (*pick)(const struct rs_rdv *r,
		unsigned rank), char *buf, size_t len, unsigned *ret_count);

/* rendezvous.c: start reading @c (its frames go to on_frame() there). */
int rdv_conn_start(struct rdv_conn *c);
/* A frame for the role: rdv_meet.c takes hellos, the rest is kept. */
int rdv_hello(struct rdv_conn *c, struct rdv_frame *f);
/* A frame before the connection is authenticated (rdv_meet.c): the
 * leader's answer to a nonce, a node's check of the leader's proof.
 * 1 stops reading the connection. */
int rdv_auth(struct rdv_conn *c, struct rdv_frame *f);
/* A node's connection to the leader failed or closed before the
 * leader proved itself (@why): connect again a moment later, until the
 * meeting's deadline. */
void rdv_retry(struct rs_rdv *r, const char *why);
/* Turn a connection away that is no node of ours: counted, @why kept
 * for the leader's message should the meeting fail, and closed; the
 * stranger is told nothing. */
int rdv_refuse(struct rdv_conn *c, const char *why);
/* Whether node @rank's exit @code (@what: "its verdict") is one of
 * rdmascn's (rs_exit_valid()); if not, the run fails naming it. */
int rdv_code_ok(struct rs_rdv *r, unsigned rank, uint32_t code,
		const char *what);

/* @r (zeroed) set up from @c: names, params, key, its loop, the
 * leader's address resolved; nothing connected.  rdv_free() it
 * (rdv_conn.c). */
int rdv_setup(struct rs_rdv *r, const struct rs_rdv_conf *c, char *err,
	      size_t errlen);
void rdv_free(struct rs_rdv *r);

/* The hello both transports compare (rdv_meet.c): this node's as JSON,
 * whether one is well formed, and node @rank's against the leader's,
 * each difference added to r->diff. */
json_object *rdv_hello_new(const struct rs_rdv *r);
bool rdv_hello_valid(json_object *h);
void rdv_hello_compare(struct rs_rdv *r, unsigned rank, json_object *h);

/* The TCP star's calls (rdv_meet.c, rdv_collect.c, rdv_conn.c,
 * rendezvous.c), reached through rdv_tcp_ops. */
int rdv_tcp_meet(const struct rs_rdv_conf *c, struct rs_rdv **ret,
		 char *err, size_t errlen);
int rdv_tcp_allgather(struct rs_rdv *r, const char *tag, const void *mine,
		      size_t len, struct rs_rdv_blob *all, char *err,
		      size_t errlen);
int rdv_tcp_gather(struct rs_rdv *r, const char *tag, const void *mine,
		   size_t len, struct rs_rdv_blob *all, char *err,
		   size_t errlen);
int rdv_tcp_barrier(struct rs_rdv *r, const char *tag, char *err,
		    size_t errlen);
int rdv_tcp_verdict(struct rs_rdv *r, int mine, int *ret_all, char *err,
		    size_t errlen);
int rdv_tcp_agree(struct rs_rdv *r, const char *tag, int mine, int *ret_all,
		  char *err, size_t errlen);
int rdv_tcp_exchange(struct rs_rdv *r, const char *tag,
		     const struct rs_rdv_msg *out, unsigned n_out,
		     struct rs_rdv_msg *want, unsigned n_want, char *err,
		     size_t errlen);
void rdv_tcp_abort(struct rs_rdv *r, int code, const char *why);
int rdv_tcp_fd(const struct rs_rdv *r);
int rdv_tcp_poll(struct rs_rdv *r, char *err, size_t errlen);
void rdv_tcp_close(struct rs_rdv *r);

/* PMIx (rdv_pmix.c; rdv_pmix_none.c in a build without libpmix):
 * whether this process was started by a launcher with a PMIx server,
 * and the meeting through it.  -EHOSTUNREACH: no server answered. */
bool rdv_pmix_launched(void);
int rdv_pmix_meet(const struct rs_rdv_conf *c, struct rs_rdv **ret,
		  char *err, size_t errlen);

#endif
