/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_RENDEZVOUS_H
#define RDMASCN_RENDEZVOUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The control plane between the processes ("nodes") of one scenario, by
 * one of two transports chosen at the meeting (rs_rdv_conf.via): a TCP
 * star around the first node (the leader, rank 0), as fabtests and
 * perftest do, or the PMIx server of the launcher that started the
 * nodes (docs/nodes.md, "PMIx").  What follows tells the TCP star; the
 * calls and their errors are the same under PMIx.  The leader listens on its address; the others connect,
 * retrying until their deadline, so a node started before the leader
 * just waits.  Each node's side runs on a private libuv loop; every
 * blocking call below runs it until done or the deadline.  The protocol,
 * the port and the messages are in docs/nodes.md ("Control plane").
 *
 * Every call returns 0 or a negative errno, with a message naming the
 * node(s) at fault in @err:
 *   -EINVAL        the nodes disagree (scenario hash, params, node list,
 *                  a tag), each difference named;
 *   -ETIMEDOUT     a node did not answer within the deadline (named);
 *   -ECONNRESET    a node was lost: its connection closed or broke;
 *   -ECONNABORTED  a node called rs_rdv_abort() ("node 'b' failed: why");
 *   -EPROTO        a node sent a frame that is not of the protocol, or
 *                  that fails its MAC, or an exit code that rdmascn
 *                  never exits with (rs_exit_valid());
 *   -EPERM         no key, and the leader's address is not loopback;
 *   -EACCES        the process at the leader's address does not prove
 *                  that it holds the run's key;
 *   -EINTR         SIGINT or SIGTERM came (rs_interrupted) while this
 *                  node waited: it should rs_rdv_abort() to tell the rest;
 *   -ENOMEM, other no memory; could not listen or connect (-EADDRINUSE).
 * A failure is final: every later call returns it again at once.
 * SIGPIPE is ignored from the first rs_rdv_meet() on (when it was at its
 * default), so that a write to a node that just died does not kill us.
 */

/* The port when an address names none: not perftest's 18515, so both
 * can run on one host. */
#define RS_RDV_PORT_DEFAULT 18516
/* The largest blob one node gives to one call, and the largest frame
 * the wire may announce: a longer length is refused before anything is
 * allocated for it. */
#define RS_RDV_BLOB_MAX (16u << 20)
#define RS_RDV_FRAME_MAX (64u << 20)
/* A tag's length at most (the step's index, a connection's id). */
#define RS_RDV_TAG_MAX 255
/* How much longer than the leader a node waits for the leader's answer,
 * so that it hears the leader name the node at fault rather than only
 * "the leader did not answer". */
#define RS_RDV_GRACE_MS 500

struct rs_rdv;                          /* one node's side */

/* How the nodes meet: auto is PMIx when the launcher offers it
 * (PMIX_NAMESPACE set, the build has libpmix, PMIx_Init succeeds),
 * else the TCP star. */
enum rs_rdv_via {
	RS_RDV_AUTO,
	RS_RDV_TCP,
	RS_RDV_PMIX,
};

struct rs_rdv_conf {
	const char *const *nodes;       /* names, in rank order */
	unsigned n_nodes, self;         /* self: this node's rank */
	enum rs_rdv_via via;
	const char *leader_addr;        /* "host:port", "host", "[v6]:port";
					 * the TCP star's only */
	uint64_t deadline_ms;           /* for each wait; not 0 */
	const char *scenario_hash;      /* hex digest of the scenario text */
	const char *const *params;      /* "name=value" as resolved, sorted */
	unsigned n_params;
	/* requires.uniform: "name=value" of this host, sorted; a
	 * difference fails the meeting with -EMEDIUMTYPE (when nothing
	 * else differs), each named as params are. */
	const char *const *uniform;
	unsigned n_uniform;
	const char *run_id;             /* the launcher's job, or NULL */
	/* The run's key (docs/nodes.md, "Who can join"): without one
	 * (@key_len 0) the nodes meet only on a loopback address, unless
	 * @insecure says that anyone who reaches the leader may join. */
	const uint8_t *key;
	size_t key_len;
	bool insecure;
};

/* One node's blob: rs_malloc()ed, freed with rs_rdv_blobs_free(). */
struct rs_rdv_blob {
	void *data;
	size_t len;
};

/*
 * Meet: every node connects, the leader checks that all have the same
 * node list, scenario hash and params (a difference is named param by
 * param and node by node: "node 'b' has size=4096, node 'a' has
 * size=65536"), every node learns the outcome.  On success *@ret is
 * this node's side, to close with rs_rdv_close(); on failure *@ret is
 * untouched and nothing is left open, but for -ECONNABORTED (a node
 * aborted the meeting, e.g. interrupted): then *@ret is the failed side,
 * (requires.uniform's values differ and nothing else: -EMEDIUMTYPE)
 * whose rs_rdv_fail_code() is that node's exit code, to close as well.
 * Interrupted itself (-EINTR), a node tells the others so.
 * Under PMIx (@c->via): -ENOTSUP when this build has no libpmix,
 * -EHOSTUNREACH when no PMIx server answers, -EINVAL when the launcher's
 * rank or job size is not this node's or the scenario's, each said.
 */
int rs_rdv_meet(const struct rs_rdv_conf *c, struct rs_rdv **ret,
		char *err, size_t errlen);

/* All-gather one blob per node under @tag: @all (n_nodes entries) gets
 * every node's, in rank order, its own included. */
int rs_rdv_allgather(struct rs_rdv *r, const char *tag, const void *mine,
		     size_t len, struct rs_rdv_blob *all,
		     char *err, size_t errlen);

/* Gather to the leader (the run records): on the leader @all gets every
 * node's blob in rank order; on the others @all may be NULL and is left
 * untouched.  Every node returns once the leader has them all. */
int rs_rdv_gather(struct rs_rdv *r, const char *tag, const void *mine,
		  size_t len, struct rs_rdv_blob *all,
		  char *err, size_t errlen);

/* Barrier named @tag (e.g. the step's index): returns once every node
 * has reached it; nodes at different tags are an error naming both. */
int rs_rdv_barrier(struct rs_rdv *r, const char *tag,
		   char *err, size_t errlen);

/*
 * Agree on the verdict: each gives its exit code, all get the worst in
 * *@ret_all.  Worst first: 2 (invalid), an interruption (128 and up),
 * 3 (could not run) and any other unknown code, 1 (failed), 77
 * (skipped), 0 (passed).  rs_rdv_worst() is the order.
 */
int rs_rdv_verdict(struct rs_rdv *r, int mine, int *ret_all,
		   char *err, size_t errlen);
int rs_rdv_worst(int a, int b);

/* Agree on a code under @tag: rs_rdv_verdict() at any point of a run
 * (a phase's outcome), reduced at the leader: each node sends 4 bytes
 * and gets 4 back, where an allgather of the codes would send every
 * node all of them. */
int rs_rdv_agree(struct rs_rdv *r, const char *tag, int mine, int *ret_all,
		 char *err, size_t errlen);

/* One message of an exchange. */
struct rs_rdv_msg {
	unsigned peer;  /* sent: the node it is for; wanted: the node it
			 * comes from */
	uint32_t key;   /* the name both sides give it (e.g. an object's
			 * index in the plan) */
	void *data;     /* sent: its bytes; wanted: filled with
			 * rs_malloc()ed bytes */
	size_t len;
};
/* A message's bytes at most: a blob less the frame's flag and the
 * message's own head (peer, key, length). */
#define RS_RDV_MSG_MAX (RS_RDV_BLOB_MAX - 1 - 12)
/*
 * Exchange under @tag, a collective: every node calls it (one with nothing
 * to send or want as well).  Each node sends @out (@n_out messages, each
 * for one node) and gets, in each of @want (peer and key set by the
 * caller), the message that node sent it under that key.  One round trip
 * however many messages; a node receives only what is sent to it.  A
 * wanted message its node did not send is -EPROTO naming the node and the
 * key; a message sent to a node that does not want it is dropped there.
 *
 * Under PMIx each node puts one value per node it sends to and Gets,
 * from each node it wants a message from, that one value (direct
 * modex: no leader).  Over the TCP star each node's messages go to the
 * leader, which routes
 * to each node only its own, in frames of at most a blob each (so no
 * frame cap bounds the number of nodes or messages); a message to a rank
 * that is no node fails the call on every node naming its sender, a
 * message over RS_RDV_MSG_MAX is -EMSGSIZE here.  Two messages from one
 * node to another under one key are -EPROTO where one is wanted.  On
 * failure no @want holds data.
 */
int rs_rdv_exchange(struct rs_rdv *r, const char *tag,
		    const struct rs_rdv_msg *out, unsigned n_out,
		    struct rs_rdv_msg *want, unsigned n_want,
		    char *err, size_t errlen);
/* Free the data of @n messages (not @m itself). */
void rs_rdv_msgs_free(struct rs_rdv_msg *m, unsigned n);

/* What this node's side has cost so far (the control-plane benchmark
 * prints it): bytes and frames as they cross the socket (length, type,
 * tag, body and MAC; the meeting's included), the collectives called
 * (each one round trip through the leader) and the time spent in them;
 * a phase's share is the difference of two readings. */
struct rs_rdv_stats {
	uint64_t bytes_sent, bytes_recv;
	uint64_t frames_sent, frames_recv;
	uint64_t calls;
	uint64_t call_ns;               /* in every call */
	uint64_t last_ns;               /* in the last one */
	char last_tag[RS_RDV_TAG_MAX + 1];
};
void rs_rdv_stats(const struct rs_rdv *r, struct rs_rdv_stats *ret);

/* Abort: tell every node that this one failed (@why) with exit code
 * @code; a node waiting anywhere, or polling, gets -ECONNABORTED with
 * "node 'b' failed: why", and rs_rdv_fail_code() is @code there.
 * This side is failed from then on. */
void rs_rdv_abort(struct rs_rdv *r, int code, const char *why);
/* The exit code the abort that failed @r gave (0: none, or not failed
 * by an abort), on every node. */
int rs_rdv_fail_code(const struct rs_rdv *r);

/*
 * While steps run on another loop: a descriptor to watch (uv_poll,
 * poll()) and the call to make when it is readable; it reports a peer's
 * abort or loss (-ECONNABORTED, -ECONNRESET with the node named) and is
 * 0 otherwise.  Messages for a later call are kept for it.
 */
int rs_rdv_fd(const struct rs_rdv *r);
int rs_rdv_poll(struct rs_rdv *r, char *err, size_t errlen);

/* "tcp" or "pmix": the transport the meeting chose. */
const char *rs_rdv_via_name(const struct rs_rdv *r);

/* This node's rank and the number of nodes. */
unsigned rs_rdv_self(const struct rs_rdv *r);
unsigned rs_rdv_n_nodes(const struct rs_rdv *r);

/* Say goodbye (a node that closes after the last call is not "lost")
 * and free everything; NULL is fine. */
void rs_rdv_close(struct rs_rdv *r);

/* Free @n blobs' data (not @all itself); NULL data is fine. */
void rs_rdv_blobs_free(struct rs_rdv_blob *all, unsigned n);

#endif
