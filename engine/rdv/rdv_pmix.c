// SPDX-License-Identifier: MIT
/*
 * The rendezvous through the launcher's PMIx server (docs/nodes.md,
 * "PMIx"): rank and size are the job's; every collective puts what this
 * node gives under keys of its own (this process's meeting, the call's
 * number, what it is), commits, and fences without collecting data, so
 * that a node Gets from the server only what it reads (direct modex);
 * only an allgather, which every node reads whole, fences with
 * PMIX_COLLECT_DATA.  Each call also puts where it is ("barrier" and its
 * tag): a node checks the leader's, so nodes at different calls are
 * named as the TCP star names them.
 *
 * A fence runs non-blocking while this node waits on a pipe that PMIx's
 * thread writes to: when the fence is done, and when an event comes, an
 * abort of another node (a custom status) or the loss of one.  The same
 * pipe is rs_rdv_fd(), so a node hears an abort while steps run.
 * Measured with Open MPI 4.1.4: an event to PMIX_RANGE_NAMESPACE stalls
 * its server, to PMIX_RANGE_LOCAL it reaches every process on the host;
 * a process killed shows as PMIX_ERR_PARTIAL_SUCCESS from the next
 * fence, not as an event.  So an abort goes to the local range when all
 * nodes are on this host, and otherwise to the namespace, with
 * PMIx_Abort at close to end the job should the others not hear it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pmix.h>

#include "alloc.h"
#include "exit.h"
#include "pmix_load.h"
#include "rdv_int.h"
#include "signals.h"

/* Our own event: one node's failure, for every other node. */
#define RDV_PMIX_EVENT (PMIX_EXTERNAL_ERR_BASE - 31)
#define KEY_ERRNO "rdmascn.errno"
#define KEY_CODE "rdmascn.code"
#define KEY_MSG "rdmascn.msg"
#define KEY_MEETING "rdmascn.meeting"

struct rdv_pmix {
	pmix_proc_t me;
	int wake[2];            /* PMIx's thread writes, we poll */
	unsigned meeting;       /* this process's meetings before: the
				 * keys of one are not another's */
	unsigned seq;           /* calls in this meeting */
	uint64_t t0;            /* when the call began (rs_rdv_stats()) */
	bool all_local;         /* every node on this host */
	bool handler;
	size_t handler_id;
	bool end_job;           /* the others may not hear our abort */
	int end_code;
	char end_why[512];
};

/* An event names no handler's data: what PMIx's thread hears is kept
 * here, for the one meeting a process has at a time. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	int wake;               /* write end; -1: nobody listens */
	pmix_proc_t me;
	char *const *names;
	unsigned n;
	unsigned meeting;       /* an event of another is stale */
	bool any;
	int err, code;
	char msg[RDV_MSG_MAX];
} heard = { .wake = -1 };
static unsigned meetings;

/*
 * This process stays a PMIx client from its first meeting to its exit.
 * A PMIx_Finalize at every close told the server the rank was done: a
 * node that closed one meeting and met again (matrix cells, explore
 * runs, one after the other) could find another node's fence of the
 * next meeting ended by its finalize, PMIX_ERR_PARTIAL_SUCCESS, "a node
 * was lost" (rdv.pmix_exchange2 failed 3 runs in 30 so).  PMIx counts
 * its inits: one more, taken at the first meeting and given back at
 * exit, keeps every close's finalize a count.  Only the process that
 * took it gives it back, not a forked child.
 */
static pid_t held_by;

static void pmix_release(void)
{
	if (held_by == getpid())
		PMIx_Finalize(NULL, 0);
}

static void pmix_hold(void)
{
	pmix_proc_t me;

	if (held_by || PMIx_Init(&me, NULL, 0) != PMIX_SUCCESS)
		return;
	held_by = getpid();
	if (atexit(pmix_release)) {
		held_by = 0;
		PMIx_Finalize(NULL, 0);
	}
}

/* A fence under way: its callback may come after we stopped waiting
 * (a failure, the deadline), and then frees it. */
struct fence {
	bool done, abandoned;
	pmix_status_t status;
};

static void wake_up(void)
{
	if (heard.wake >= 0 && write(heard.wake, "w", 1) < 0) {
		/* Full: the waiter is awake already. */
	}
}

static void on_fence(pmix_status_t status, void *arg)
{
	struct fence *f = arg;

	pthread_mutex_lock(&lock);
	if (f->abandoned) {
		pthread_mutex_unlock(&lock);
		rs_free(f);
		return;
	}
	f->status = status;
	f->done = true;
	wake_up();
	pthread_mutex_unlock(&lock);
}

static const char *name_of(unsigned rank, char *buf, size_t len)
{
	if (rank < heard.n)
		return heard.names[rank];
	snprintf(buf, len, "rank %u", rank);
	return buf;
}

static void on_event(size_t id, pmix_status_t status,
		     const pmix_proc_t *src, pmix_info_t info[], size_t n,
		     pmix_info_t *results, size_t n_results,
		     pmix_event_notification_cbfunc_fn_t done, void *arg)
{
	const pmix_proc_t *who = src;
	char buf[32];

	(void)id;
	(void)results;
	(void)n_results;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < n; i++)
		if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC) &&
		    info[i].value.type == PMIX_PROC)
			who = info[i].value.data.proc;
	/* Our own notification comes back to us: not news. */
	if (heard.wake < 0 || heard.any || !who ||
	    (PMIX_CHECK_NSPACE(who->nspace, heard.me.nspace) &&
	     who->rank == heard.me.rank))
		goto out;
	if (status == RDV_PMIX_EVENT) {
		/* A failure of a meeting before (a matrix's last cell) may
		 * come late: not this one's. */
		for (size_t i = 0; i < n; i++)
			if (PMIX_CHECK_KEY(&info[i], KEY_MEETING) &&
			    info[i].value.type == PMIX_UINT32 &&
			    info[i].value.data.uint32 != heard.meeting)
				goto out;
		heard.err = -ECONNABORTED;
		heard.msg[0] = '\0';
		for (size_t i = 0; i < n; i++) {
			pmix_value_t *v = &info[i].value;

			if (PMIX_CHECK_KEY(&info[i], KEY_ERRNO) &&
			    v->type == PMIX_INT && v->data.integer > 0 &&
			    v->data.integer < 4096)
				heard.err = -v->data.integer;
			else if (PMIX_CHECK_KEY(&info[i], KEY_CODE) &&
				 v->type == PMIX_INT &&
				 rs_exit_valid(v->data.integer))
				heard.code = v->data.integer;
			else if (PMIX_CHECK_KEY(&info[i], KEY_MSG) &&
				 v->type == PMIX_STRING && v->data.string)
				snprintf(heard.msg, sizeof(heard.msg), "%s",
					 v->data.string);
		}
		if (!heard.msg[0])
			snprintf(heard.msg, sizeof(heard.msg), "node '%s' "
				 "failed", name_of(who->rank, buf,
						   sizeof(buf)));
	} else {
		heard.err = -ECONNRESET;
		heard.code = 0;
		snprintf(heard.msg, sizeof(heard.msg), "node '%s' was lost: "
			 "PMIx says %s", name_of(who->rank, buf, sizeof(buf)),
			 PMIx_Error_string(status));
	}
	heard.any = true;
	wake_up();
out:
	pthread_mutex_unlock(&lock);
	if (done)
		done(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, arg);
}

/* What PMIx's thread heard becomes this side's failure. */
static void take_heard(struct rs_rdv *r)
{
	char b[64];

	while (read(r->pmix->wake[0], b, sizeof(b)) > 0)
		;
	pthread_mutex_lock(&lock);
	if (heard.any && !r->fail) {
		rdv_fail(r, heard.err, "%s", heard.msg);
		r->fail_code = heard.code;
		r->fail_told = true;
	}
	pthread_mutex_unlock(&lock);
}

/* Tell every other node this one failed (@err, @code, r->msg). */
static void tell_all(struct rs_rdv *r, int err, int code)
{
	struct rdv_pmix *p = r->pmix;
	pmix_info_t info[4];
	int e = -err;
	pmix_status_t rc;

	PMIX_INFO_LOAD(&info[0], KEY_ERRNO, &e, PMIX_INT);
	PMIX_INFO_LOAD(&info[1], KEY_CODE, &code, PMIX_INT);
	PMIX_INFO_LOAD(&info[2], KEY_MSG, r->msg, PMIX_STRING);
	PMIX_INFO_LOAD(&info[3], KEY_MEETING, &p->meeting, PMIX_UINT32);
	rc = PMIx_Notify_event(RDV_PMIX_EVENT, &p->me, p->all_local ?
			       PMIX_RANGE_LOCAL : PMIX_RANGE_NAMESPACE,
			       info, 4, NULL, NULL);
	for (unsigned i = 0; i < 4; i++)
		PMIX_INFO_DESTRUCT(&info[i]);
	if (rc != PMIX_SUCCESS || !p->all_local) {
		/* Once we have torn down, the launcher ends the job. */
		p->end_job = true;
		p->end_code = code ? code : RS_EXIT_CANTRUN;
		snprintf(p->end_why, sizeof(p->end_why), "%.500s", r->msg);
	}
}

static void fail_all(struct rs_rdv *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fail_all(struct rs_rdv *r, int err, const char *fmt, ...)
{
	va_list ap;

	take_heard(r);
	if (r->fail)
		return;
	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
	va_end(ap);
	r->fail = err;
	tell_all(r, err, 0);
}

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static void key_of(const struct rs_rdv *r, char *key, const char *what)
{
	snprintf(key, PMIX_MAX_KEYLEN, "rdmascn.%u.%u.%s", r->pmix->meeting,
		 r->pmix->seq, what);
}

static int put(struct rs_rdv *r, const char *what, const void *data,
	       size_t len)
{
	char key[PMIX_MAX_KEYLEN + 1];
	pmix_value_t v = { .type = PMIX_BYTE_OBJECT };
	pmix_status_t rc;

	key_of(r, key, what);
	v.data.bo.bytes = (char *)data;
	v.data.bo.size = len;
	rc = PMIx_Put(PMIX_GLOBAL, key, &v);
	r->st.frames_sent++;
	r->st.bytes_sent += len;
	if (rc != PMIX_SUCCESS)
		fail_all(r, -EIO, "node '%s' cannot put '%s' to PMIx: %s",
			 r->names[r->self], key, PMIx_Error_string(rc));
	return r->fail;
}

/* What node @rank put under @what in this call: 0, or the PMIx status
 * (the caller names it).  @timeout_s 0: only what a fence collected is
 * looked at (PMIX_OPTIONAL), not asked of the server. */
static pmix_status_t get(struct rs_rdv *r, unsigned rank, const char *what,
			 int timeout_s, void **ret, size_t *ret_len)
{
	char key[PMIX_MAX_KEYLEN + 1];
	pmix_proc_t p;
	pmix_info_t info;
	pmix_value_t *v = NULL;
	pmix_status_t rc;
	void *d;

	key_of(r, key, what);
	PMIX_LOAD_PROCID(&p, r->pmix->me.nspace, rank);
	if (timeout_s)
		PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &timeout_s, PMIX_INT);
	else
		PMIX_INFO_LOAD(&info, PMIX_OPTIONAL, &(bool){ true },
			       PMIX_BOOL);
	rc = PMIx_Get(&p, key, &info, 1, &v);
	PMIX_INFO_DESTRUCT(&info);
	if (rc != PMIX_SUCCESS)
		return rc;
	if (v->type != PMIX_BYTE_OBJECT) {
		PMIX_VALUE_RELEASE(v);
		return PMIX_ERR_TYPE_MISMATCH;
	}
	/* One byte more, always 0: a hello is parsed as a string. */
	d = rs_malloc(v->data.bo.size + 1);
	if (!d) {
		PMIX_VALUE_RELEASE(v);
		return PMIX_ERR_NOMEM;
	}
	if (v->data.bo.size)
		memcpy(d, v->data.bo.bytes, v->data.bo.size);
	((char *)d)[v->data.bo.size] = '\0';
	*ret = d;
	*ret_len = v->data.bo.size;
	r->st.frames_recv++;
	r->st.bytes_recv += v->data.bo.size;
	PMIX_VALUE_RELEASE(v);
	return PMIX_SUCCESS;
}

static int timeout_s(const struct rs_rdv *r)
{
	return (int)((r->deadline_ms + 999) / 1000);
}

/* Node @rank's part of this call, or the run's failure naming it. */
static int get_part(struct rs_rdv *r, unsigned rank, const char *what,
		    const char *op, const char *tag, void **ret,
		    size_t *ret_len)
{
	pmix_status_t rc = get(r, rank, what, timeout_s(r), ret, ret_len);

	if (rc == PMIX_SUCCESS)
		return 0;
	fail_all(r, rc == PMIX_ERR_NOMEM ? -ENOMEM : -EPROTO, "node '%s' "
		 "cannot get node '%s''s part of %s '%s' from PMIx: %s",
		 r->names[r->self], r->names[rank], op, tag,
		 PMIx_Error_string(rc));
	return r->fail;
}

/* After a fence that collected every node's "at": a node without one
 * is gone (the fence completes without a process that died); one at
 * another call than the leader is named with it, as every node sees it
 * (@want is this node's). */
static void check_all(struct rs_rdv *r, const char *want, size_t want_len,
		      const char *op, const char *tag)
{
	char names[512] = "";
	size_t at = 0, len[2] = { 0, 0 };
	void *d[2] = { NULL, NULL };    /* the leader's, node i's */
	unsigned k = 0;

	for (unsigned i = 0; i < r->n; i++) {
		void **p = &d[i ? 1 : 0];
		size_t *l = &len[i ? 1 : 0];

		if (i == r->self) {
			*p = rs_malloc(want_len + 1);
			if (*p)
				memcpy(*p, want, want_len);
			*l = want_len;
		} else if (get(r, i, "at", 0, p, l) != PMIX_SUCCESS) {
			*p = NULL;
			if (at < sizeof(names))
				at += (size_t)snprintf(names + at,
					sizeof(names) - at, "%s'%s'",
					k ? ", " : "", r->names[i]);
			k++;
			continue;
		}
		if (i && d[0] && d[1] && !r->fail &&
		    (len[0] != len[1] || memcmp(d[0], d[1], len[0])))
			fail_all(r, -EINVAL, "node '%s' is at %.*s, node '%s' "
				 "at %.*s", r->names[i],
				 (int)(len[1] < 300 ? len[1] : 300),
				 (const char *)d[1], r->names[0],
				 (int)(len[0] < 300 ? len[0] : 300),
				 (const char *)d[0]);
		if (i) {
			rs_free(d[1]);
			d[1] = NULL;
		}
	}
	rs_free(d[0]);
	/* A loss is seen by every node that is left: nobody to tell. */
	if (k)
		rdv_fail(r, -ECONNRESET, "%s %s %s lost before %s '%s' (PMIx: "
			 "the fence completed without %s)", k > 1 ? "nodes" :
			 "node", names, k > 1 ? "were" : "was", op, tag,
			 k > 1 ? "them" : "it");
}

/* A fence that did not complete in time: the nodes whose "at" of this
 * call the server does not have are named (a second's wait each; at
 * most a few, then "and more").  Open MPI 4.1.4 may keep waiting for
 * a process that died just before the fence began. */
static void name_absent(struct rs_rdv *r, const char *op, const char *tag)
{
	char names[512] = "";
	size_t at = 0;
	unsigned k = 0;

	for (unsigned i = 0; i < r->n && k < 8; i++) {
		void *d;
		size_t len;

		if (i == r->self ||
		    get(r, i, "at", 1, &d, &len) == PMIX_SUCCESS) {
			if (i != r->self)
				rs_free(d);
			continue;
		}
		if (at < sizeof(names))
			at += (size_t)snprintf(names + at, sizeof(names) - at,
					       "%s'%s'", k ? ", " : "",
					       r->names[i]);
		k++;
	}
	/* None missing: every node came, but the fence did not end (one
	 * left it, or the server is slow). */
	rdv_fail(r, -ETIMEDOUT, "%s%s%s did not reach %s '%s' within %llu "
		 "ms (PMIx: lost, or still busy)", !k ? "a node" : k > 1 ?
		 "nodes " : "node ", names, k >= 8 ? " and more" : "", op,
		 tag, (unsigned long long)r->deadline_ms);
}

/* Commit and fence, waiting on the pipe for the fence, an event, a
 * signal or the deadline. */
static int fence(struct rs_rdv *r, bool collect, const char *op,
		 const char *tag)
{
	struct rdv_pmix *p = r->pmix;
	uint64_t end = now_ms() + r->deadline_ms + RS_RDV_GRACE_MS;
	struct fence *f;
	pmix_info_t info[2];
	int tmo = timeout_s(r), sfd = rs_signal_fd();
	pmix_status_t rc;
	bool done = false;

	rc = PMIx_Commit();
	if (rc != PMIX_SUCCESS) {
		fail_all(r, -EIO, "node '%s' cannot commit to PMIx: %s",
			 r->names[r->self], PMIx_Error_string(rc));
		return r->fail;
	}
	f = rs_calloc(1, sizeof(*f));
	if (!f) {
		fail_all(r, -ENOMEM, "no memory for %s '%s'", op, tag);
		return r->fail;
	}
	PMIX_INFO_LOAD(&info[0], PMIX_TIMEOUT, &tmo, PMIX_INT);
	PMIX_INFO_LOAD(&info[1], PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
	rc = PMIx_Fence_nb(NULL, 0, info, 2, on_fence, f);
	PMIX_INFO_DESTRUCT(&info[0]);
	PMIX_INFO_DESTRUCT(&info[1]);
	if (rc != PMIX_SUCCESS) {
		rs_free(f);
		fail_all(r, -EIO, "node '%s' cannot fence for %s '%s': %s",
			 r->names[r->self], op, tag, PMIx_Error_string(rc));
		return r->fail;
	}
	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = p->wake[0], .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
		};
		uint64_t t = now_ms();

		take_heard(r);
		pthread_mutex_lock(&lock);
		done = f->done;
		rc = f->status;
		pthread_mutex_unlock(&lock);
		if (done || r->fail)
			break;
		if (rs_interrupted) {
			rdv_fail(r, -EINTR, "node '%s' was interrupted "
				 "(signal %d)", r->names[r->self],
				 (int)rs_interrupted);
			break;
		}
		if (t >= end) {
			rc = PMIX_ERR_TIMEOUT;
			break;
		}
		poll(pfd, sfd >= 0 ? 2 : 1, (int)(end - t));
	}
	pthread_mutex_lock(&lock);
	if (done)
		rs_free(f);
	else
		f->abandoned = true;
	pthread_mutex_unlock(&lock);
	if (r->fail)
		return r->fail;
	if (rc == PMIX_ERR_TIMEOUT) {
		name_absent(r, op, tag);
		return r->fail;
	}
	/* Collected, what is missing names the node lost. */
	if (rc == PMIX_ERR_PARTIAL_SUCCESS && collect)
		return 0;
	if (rc == PMIX_ERR_PARTIAL_SUCCESS || rc == PMIX_ERR_PROC_ABORTED ||
	    rc == PMIX_ERR_LOST_CONNECTION)
		rdv_fail(r, -ECONNRESET, "a node was lost before %s '%s' "
			 "(PMIx: %s)", op, tag, PMIx_Error_string(rc));
	else if (rc != PMIX_SUCCESS)
		rdv_fail(r, -EPROTO, "%s '%s': the PMIx fence failed: %s", op,
			 tag, PMIx_Error_string(rc));
	return r->fail;
}

/*
 * One call: where this node is ("at": the operation and its tag), what
 * @put_parts puts, then the fence; a node checks that the leader is at
 * the same call.
 */
static int call_begin(struct rs_rdv *r, const char *op, const char *tag,
		      char *err, size_t errlen)
{
	char at[RS_RDV_TAG_MAX + 32];
	int len;

	take_heard(r);
	if (r->fail)
		return rdv_failed(r, err, errlen);
	if (strlen(tag) > RS_RDV_TAG_MAX) {
		snprintf(err, errlen, "%s tag '%.32s...' is longer than %u "
			 "bytes", op, tag, RS_RDV_TAG_MAX);
		return -ENAMETOOLONG;
	}
	r->pmix->seq++;
	r->pmix->t0 = uv_hrtime();
	rdv_call_begin(r, tag);
	len = snprintf(at, sizeof(at), "%s '%s'", op, tag);
	if (put(r, "at", at, (size_t)len))
		return rdv_failed(r, err, errlen);
	return 0;
}

static int call_sync(struct rs_rdv *r, bool collect, const char *op,
		     const char *tag, char *err, size_t errlen)
{
	char want[RS_RDV_TAG_MAX + 32];
	unsigned peer;
	void *d;
	size_t len;
	int n;

	if (fence(r, collect, op, tag))
		return rdv_failed(r, err, errlen);
	if (r->n < 2)
		return 0;
	n = snprintf(want, sizeof(want), "%s '%s'", op, tag);
	if (collect) {
		check_all(r, want, (size_t)n, op, tag);
		return r->fail ? rdv_failed(r, err, errlen) : 0;
	}
	/* Not collected: each node checks the leader, the leader checks
	 * node 1, one Get each whatever the number of nodes; a node that
	 * finds a difference tells the rest. */
	peer = rdv_leader(r) ? 1 : 0;
	if (get_part(r, peer, "at", op, tag, &d, &len))
		return rdv_failed(r, err, errlen);
	if ((len != (size_t)n || memcmp(d, want, len)) && rdv_leader(r))
		fail_all(r, -EINVAL, "node '%s' is at %.*s, node '%s' at %s",
			 r->names[peer], (int)(len < 300 ? len : 300),
			 (const char *)d, r->names[r->self], want);
	else if (len != (size_t)n || memcmp(d, want, len))
		fail_all(r, -EINVAL, "node '%s' is at %s, node '%s' at %.*s",
			 r->names[r->self], want, r->names[peer],
			 (int)(len < 300 ? len : 300), (const char *)d);
	rs_free(d);
	return r->fail ? rdv_failed(r, err, errlen) : 0;
}

/* The call's time, for rs_rdv_stats(), once it is over. */
static int call_end(struct rs_rdv *r, int e)
{
	if (r->pmix->t0)
		rdv_call_end(r, r->pmix->t0);
	r->pmix->t0 = 0;
	return e;
}

/* This node's part of an allgather or a gather (@what) under @tag, put
 * and fenced (@collect: with every node's data brought here): 0, or
 * -errno with @err. */
static int put_part(struct rs_rdv *r, const char *what, const char *tag,
		    const void *mine, size_t len, bool collect, char *err,
		    size_t errlen)
{
	if (len > RS_RDV_BLOB_MAX) {
		snprintf(err, errlen, "%s '%s': %zu bytes, more than the %u "
			 "a node may give", what, tag, len, RS_RDV_BLOB_MAX);
		return -EMSGSIZE;
	}
	if (call_begin(r, what, tag, err, errlen))
		return r->fail ? r->fail : -ENAMETOOLONG;
	if (put(r, "d", mine, len) ||
	    call_sync(r, collect, what, tag, err, errlen))
		return rdv_failed(r, err, errlen);
	return 0;
}

/* Every node's part of that call into @all, in rank order: 0, or
 * -errno with @err and nothing left allocated. */
static int get_parts(struct rs_rdv *r, const char *what, const char *tag,
		     struct rs_rdv_blob *all, char *err, size_t errlen)
{
	for (unsigned i = 0; i < r->n; i++) {
		if (!get_part(r, i, "d", what, tag, &all[i].data,
			      &all[i].len))
			continue;
		rs_rdv_blobs_free(all, i);
		return rdv_failed(r, err, errlen);
	}
	return 0;
}

static int allgather(struct rs_rdv *r, const char *tag, const void *mine,
		     size_t len, struct rs_rdv_blob *all, char *err,
		     size_t errlen)
{
	int e;

	if (!tag)
		tag = "";
	e = put_part(r, "allgather", tag, mine, len, true, err, errlen);
	if (e)
		return e;
	return get_parts(r, "allgather", tag, all, err, errlen);
}

static int pmix_allgather(struct rs_rdv *r, const char *tag,
			  const void *mine, size_t len,
			  struct rs_rdv_blob *all, char *err, size_t errlen)
{
	return call_end(r, allgather(r, tag, mine, len, all, err, errlen));
}

static int gather(struct rs_rdv *r, const char *tag, const void *mine,
		  size_t len, struct rs_rdv_blob *all, char *err,
		  size_t errlen)
{
	int e;

	if (!tag)
		tag = "";
	e = put_part(r, "gather", tag, mine, len, false, err, errlen);
	if (e)
		return e;
	if (!rdv_leader(r) || !all)
		return 0;
	return get_parts(r, "gather", tag, all, err, errlen);
}

static int pmix_gather(struct rs_rdv *r, const char *tag, const void *mine,
		       size_t len, struct rs_rdv_blob *all, char *err,
		       size_t errlen)
{
	return call_end(r, gather(r, tag, mine, len, all, err, errlen));
}

static int pmix_barrier(struct rs_rdv *r, const char *tag, char *err,
			size_t errlen)
{
	if (!tag)
		tag = "";
	if (call_begin(r, "barrier", tag, err, errlen))
		return r->fail ? r->fail : -ENAMETOOLONG;
	/* Collected: a node that died is missing from it, and named. */
	return call_end(r, call_sync(r, true, "barrier", tag, err, errlen));
}

static int pmix_agree(struct rs_rdv *r, const char *tag, int mine,
		      int *ret_all, char *err, size_t errlen)
{
	struct rs_rdv_blob *all = rs_calloc(r->n, sizeof(*all));
	uint8_t code[4];
	int worst = mine, e;
	unsigned i;
	bool got;

	if (!all) {
		snprintf(err, errlen, "no memory for the verdict");
		return -ENOMEM;
	}
	rdv_put32(code, (uint32_t)mine);
	e = pmix_allgather(r, tag, code, sizeof(code), all, err, errlen);
	got = !e;
	for (i = 0; !e && i < r->n; i++) {
		uint32_t v = all[i].len == 4 ? rdv_get32(all[i].data) : 256;

		if (!rs_exit_valid(v)) {
			fail_all(r, -EPROTO, "node '%s' gave %u at '%s', "
				 "which is no exit code of rdmascn (0, 1, 2, "
				 "3, 77, 129 to 192)", r->names[i], v, tag);
			e = rdv_failed(r, err, errlen);
			break;
		}
		worst = rs_rdv_worst(worst, (int)v);
	}
	if (got)
		rs_rdv_blobs_free(all, r->n);
	rs_free(all);
	if (!e)
		*ret_all = worst;
	return e;
}

static int pmix_verdict(struct rs_rdv *r, int mine, int *ret_all,
			char *err, size_t errlen)
{
	return pmix_agree(r, "verdict", mine, ret_all, err, errlen);
}

static int by_peer(const void *a, const void *b)
{
	const struct rs_rdv_msg *x = *(const struct rs_rdv_msg *const *)a;
	const struct rs_rdv_msg *y = *(const struct rs_rdv_msg *const *)b;

	return (x->peer > y->peer) - (x->peer < y->peer);
}

/* This node's messages, one value per node they go to ("x.PEER":
 * key, length, bytes, over and over), and the list of those nodes
 * ("to"), which tells a node that wants one whether to ask at all: a
 * Get of a key never put waits out its timeout. */
static int exchange_put(struct rs_rdv *r, const struct rs_rdv_msg *out,
			unsigned n_out, const char *tag)
{
	const struct rs_rdv_msg **m = rs_calloc(n_out + 1, sizeof(*m));
	uint8_t *to = rs_calloc(n_out + 1, 4), *buf = NULL;
	unsigned i, j, n_to = 0;
	char what[32];

	if (!m || !to) {
		fail_all(r, -ENOMEM, "no memory for exchange '%s'", tag);
		goto out;
	}
	for (i = 0; i < n_out; i++) {
		if (out[i].peer >= r->n) {
			fail_all(r, -EINVAL, "exchange '%s': node '%s' sent "
				 "a message to rank %u, which is no node (%u "
				 "nodes)", tag, r->names[r->self], out[i].peer,
				 r->n);
			goto out;
		}
		m[i] = &out[i];
	}
	qsort(m, n_out, sizeof(*m), by_peer);
	for (i = 0; i < n_out; i = j) {
		size_t len = 0, at = 0;

		for (j = i; j < n_out && m[j]->peer == m[i]->peer; j++)
			len += 8 + m[j]->len;
		buf = rs_malloc(len);
		if (!buf) {
			fail_all(r, -ENOMEM, "no memory for exchange '%s'",
				 tag);
			goto out;
		}
		for (j = i; j < n_out && m[j]->peer == m[i]->peer; j++) {
			rdv_put32(buf + at, m[j]->key);
			rdv_put32(buf + at + 4, (uint32_t)m[j]->len);
			if (m[j]->len)
				memcpy(buf + at + 8, m[j]->data, m[j]->len);
			at += 8 + m[j]->len;
		}
		snprintf(what, sizeof(what), "x.%u", m[i]->peer);
		if (put(r, what, buf, len))
			goto out;
		rs_free(buf);
		buf = NULL;
		rdv_put32(to + 4 * n_to++, m[i]->peer);
	}
	put(r, "to", to, 4 * (size_t)n_to);
out:
	rs_free(buf);
	rs_free(to);
	rs_free(m);
	return r->fail;
}

/* Node @peer's messages for this node, into each of @want from it. */
static int exchange_take(struct rs_rdv *r, unsigned peer, const char *tag,
			 struct rs_rdv_msg *want, unsigned n_want)
{
	void *to = NULL, *d = NULL;
	size_t to_len, len = 0, at;
	char what[32];
	bool sent = false;
	unsigned i;

	if (get_part(r, peer, "to", "exchange", tag, &to, &to_len))
		return r->fail;
	for (at = 0; at + 4 <= to_len; at += 4)
		if (rdv_get32((uint8_t *)to + at) == r->self)
			sent = true;
	rs_free(to);
	snprintf(what, sizeof(what), "x.%u", r->self);
	if (sent && get_part(r, peer, what, "exchange", tag, &d, &len))
		return r->fail;
	for (i = 0; i < n_want; i++) {
		const uint8_t *p = d;

		if (want[i].peer != peer)
			continue;
		for (at = 0; p && at + 8 <= len;
		     at += 8 + rdv_get32(p + at + 4)) {
			size_t l = rdv_get32(p + at + 4);

			if (at + 8 + l > len)
				break;
			if (rdv_get32(p + at) != want[i].key)
				continue;
			if (want[i].data) {
				fail_all(r, -EPROTO, "exchange '%s': node "
					 "'%s' sent node '%s' two messages "
					 "under key %u", tag, r->names[peer],
					 r->names[r->self], want[i].key);
				goto out;
			}
			want[i].data = rs_malloc(l ? l : 1);
			if (!want[i].data) {
				fail_all(r, -ENOMEM, "no memory for exchange "
					 "'%s'", tag);
				goto out;
			}
			if (l)
				memcpy(want[i].data, p + at + 8, l);
			want[i].len = l;
		}
		if (!want[i].data) {
			fail_all(r, -EPROTO, "exchange '%s': node '%s' sent "
				 "node '%s' nothing under key %u", tag,
				 r->names[peer], r->names[r->self],
				 want[i].key);
			goto out;
		}
	}
out:
	rs_free(d);
	return r->fail;
}

static int exchange(struct rs_rdv *r, const char *tag,
		    const struct rs_rdv_msg *out, unsigned n_out,
		    struct rs_rdv_msg *want, unsigned n_want, char *err,
		    size_t errlen)
{
	unsigned i, j;

	if (!tag)
		tag = "";
	for (i = 0; i < n_want; i++) {
		want[i].data = NULL;
		want[i].len = 0;
		if (want[i].peer >= r->n) {
			snprintf(err, errlen, "exchange '%s': node %u of %u",
				 tag, want[i].peer, r->n);
			return -EINVAL;
		}
	}
	for (i = 0; i < n_out; i++)
		if (out[i].len > RS_RDV_MSG_MAX) {
			snprintf(err, errlen, "exchange '%s': a message of "
				 "%zu bytes under key %u, more than the %u "
				 "one may have", tag, out[i].len, out[i].key,
				 (unsigned)RS_RDV_MSG_MAX);
			return -EMSGSIZE;
		}
	if (call_begin(r, "exchange", tag, err, errlen))
		return r->fail ? r->fail : -ENAMETOOLONG;
	if (exchange_put(r, out, n_out, tag) ||
	    call_sync(r, false, "exchange", tag, err, errlen))
		return rdv_failed(r, err, errlen);
	/* Each node asked once, whatever the number of its messages. */
	for (i = 0; i < n_want && !r->fail; i++) {
		for (j = 0; j < i && want[j].peer != want[i].peer; j++)
			;
		if (j == i)
			exchange_take(r, want[i].peer, tag, want, n_want);
	}
	if (r->fail) {
		rs_rdv_msgs_free(want, n_want);
		return rdv_failed(r, err, errlen);
	}
	return 0;
}

static int pmix_exchange(struct rs_rdv *r, const char *tag,
			 const struct rs_rdv_msg *out, unsigned n_out,
			 struct rs_rdv_msg *want, unsigned n_want, char *err,
			 size_t errlen)
{
	return call_end(r, exchange(r, tag, out, n_out, want, n_want, err,
				    errlen));
}

static void pmix_abort(struct rs_rdv *r, int code, const char *why)
{
	bool told;

	if (!r || r->aborted)
		return;
	r->aborted = true;
	take_heard(r);
	/* Our own interruption: nobody has heard of it yet. */
	if (r->fail == -EINTR && !r->fail_told)
		r->fail = 0;
	told = r->fail_told;
	if (!r->fail) {
		r->fail_code = code;
		rdv_fail(r, -ECONNABORTED, "node '%s' failed: %s",
			 r->names[r->self], why);
	}
	if (!told) {
		char msg[RDV_MSG_MAX];

		/* Whatever failed here first, the others hear this. */
		snprintf(msg, sizeof(msg), "%s", r->msg);
		snprintf(r->msg, sizeof(r->msg), "node '%s' failed: %s",
			 r->names[r->self], why);
		tell_all(r, -ECONNABORTED, code);
		snprintf(r->msg, sizeof(r->msg), "%s", msg);
	}
}

static int pmix_fd(const struct rs_rdv *r)
{
	return r->pmix->wake[0];
}

static int pmix_poll(struct rs_rdv *r, char *err, size_t errlen)
{
	take_heard(r);
	return rdv_failed(r, err, errlen);
}

static void rdv_pmix_free(struct rs_rdv *r, bool inited)
{
	struct rdv_pmix *p = r->pmix;

	pthread_mutex_lock(&lock);
	heard.wake = -1;
	heard.names = NULL;
	heard.n = 0;
	pthread_mutex_unlock(&lock);
	if (p && p->handler)
		PMIx_Deregister_event_handler(p->handler_id, NULL, NULL);
	if (p && p->end_job)
		PMIx_Abort(p->end_code, p->end_why, NULL, 0);
	if (inited)
		PMIx_Finalize(NULL, 0);
	if (p) {
		if (p->wake[0] >= 0)
			close(p->wake[0]);
		if (p->wake[1] >= 0)
			close(p->wake[1]);
		rs_free(p);
	}
	r->pmix = NULL;
	rdv_free(r);
}

static void pmix_close(struct rs_rdv *r)
{
	rdv_pmix_free(r, true);
}

static const struct rdv_ops pmix_ops = {
	.name = "pmix",
	.allgather = pmix_allgather,
	.gather = pmix_gather,
	.barrier = pmix_barrier,
	.verdict = pmix_verdict,
	.agree = pmix_agree,
	.exchange = pmix_exchange,
	.abort = pmix_abort,
	.fd = pmix_fd,
	.poll = pmix_poll,
	.close = pmix_close,
};

bool rdv_pmix_launched(void)
{
	const char *ns = getenv("PMIX_NAMESPACE");

	return ns && *ns;
}

/* Names, params and the rest the hello compares, into @r (zeroed). */
static int setup(struct rs_rdv *r, const struct rs_rdv_conf *c)
{
	unsigned i;

	r->n = c->n_nodes;
	r->self = c->self;
	r->deadline_ms = c->deadline_ms;
	r->names = rs_calloc(r->n, sizeof(*r->names));
	r->hash = rs_strdup(c->scenario_hash ? c->scenario_hash : "");
	r->run_id = rs_strdup(c->run_id ? c->run_id : "");
	r->params = rs_calloc(c->n_params + 1, sizeof(*r->params));
	r->uniform = rs_calloc(c->n_uniform + 1, sizeof(*r->uniform));
	r->pmix = rs_calloc(1, sizeof(*r->pmix));
	if (!r->names || !r->hash || !r->run_id || !r->params ||
	    !r->uniform || !r->pmix)
		return -ENOMEM;
	r->pmix->wake[0] = r->pmix->wake[1] = -1;
	for (i = 0; i < r->n; i++)
		if (!(r->names[i] = rs_strdup(c->nodes[i])))
			return -ENOMEM;
	for (; r->n_params < c->n_params; r->n_params++)
		if (!(r->params[r->n_params] =
		      rs_strdup(c->params[r->n_params])))
			return -ENOMEM;
	for (; r->n_uniform < c->n_uniform; r->n_uniform++)
		if (!(r->uniform[r->n_uniform] =
		      rs_strdup(c->uniform[r->n_uniform])))
			return -ENOMEM;
	if (pipe2(r->pmix->wake, O_CLOEXEC | O_NONBLOCK))
		return -errno;
	return 0;
}

static uint32_t job_u32(const pmix_proc_t *me, const char *key,
			uint32_t dflt)
{
	pmix_proc_t job;
	pmix_value_t *v = NULL;
	uint32_t n = dflt;

	PMIX_LOAD_PROCID(&job, me->nspace, PMIX_RANK_WILDCARD);
	if (PMIx_Get(&job, key, NULL, 0, &v) != PMIX_SUCCESS)
		return dflt;
	if (v->type == PMIX_UINT32)
		n = v->data.uint32;
	PMIX_VALUE_RELEASE(v);
	return n;
}

/* The launcher's job is this scenario's: one process per node, this
 * one the rank that plays its node. */
static int check_job(struct rs_rdv *r, char *err, size_t errlen)
{
	const pmix_proc_t *me = &r->pmix->me;
	uint32_t size = job_u32(me, PMIX_JOB_SIZE, 0);
	char names[512] = "";
	size_t at = 0;

	for (unsigned i = 0; i < r->n && at < sizeof(names); i++)
		at += (size_t)snprintf(names + at, sizeof(names) - at,
				       "%s%s", i ? ", " : "", r->names[i]);
	if (size != r->n) {
		snprintf(err, errlen, "PMIx started %u processes (job %s), "
			 "but the scenario has %u nodes (%s): start one per "
			 "node", size, me->nspace, r->n, names);
		return -EINVAL;
	}
	if (me->rank != r->self) {
		snprintf(err, errlen, "this process is rank %u of PMIx job "
			 "%s, which plays node '%s', but it was told to play "
			 "node '%s' (rank %u)", me->rank, me->nspace,
			 me->rank < r->n ? r->names[me->rank] : "?",
			 r->names[r->self], r->self);
		return -EINVAL;
	}
	r->pmix->all_local = job_u32(me, PMIX_LOCAL_SIZE, 0) == size;
	return 0;
}

/* Every node puts its hello; the leader compares them, as the TCP
 * leader does, and puts the outcome ("met": errno, then the message;
 * empty: they agree), which every node reads. */
static int meet(struct rs_rdv *r)
{
	json_object *h = rdv_hello_new(r);
	const char *text = h ? json_object_to_json_string_ext(h,
				JSON_C_TO_STRING_PLAIN) : NULL;
	uint8_t *met = NULL;
	void *d;
	size_t len;
	int e;

	r->pmix->seq++;
	if (!text) {
		json_object_put(h);
		fail_all(r, -ENOMEM, "node '%s' has no memory for its hello",
			 r->names[r->self]);
		return r->fail;
	}
	e = put(r, "hello", text, strlen(text)) ||
	    put(r, "at", "meeting ''", 10) ||
	    fence(r, false, "the meeting", "");
	json_object_put(h);
	if (e)
		return r->fail;
	if (rdv_leader(r)) {
		for (unsigned i = 1; i < r->n && !r->fail; i++) {
			json_object *o;

			if (get_part(r, i, "hello", "the meeting", "", &d,
				     &len))
				break;
			o = strlen(d) == len ? json_tokener_parse(d) : NULL;
			if (rdv_hello_valid(o))
				rdv_hello_compare(r, i, o);
			else
				fail_all(r, -EPROTO, "node '%s' said a hello "
					 "that is not of this version",
					 r->names[i]);
			json_object_put(o);
			rs_free(d);
		}
		if (r->fail)
			return r->fail;
	}
	r->pmix->seq++;
	if (rdv_leader(r)) {
		len = strlen(r->diff);
		met = rs_malloc(4 + len);
		if (!met) {
			fail_all(r, -ENOMEM, "no memory for the meeting");
			return r->fail;
		}
		/* Only the hosts differ (requires.uniform): the file is
		 * right, the run cannot go on, as the TCP leader says. */
		rdv_put32(met, !len ? 0 : r->n_diff == r->n_diff_uniform ?
			  EMEDIUMTYPE : EINVAL);
		memcpy(met + 4, r->diff, len);
		e = put(r, "met", met, 4 + len);
		rs_free(met);
		if (e)
			return r->fail;
	}
	if (put(r, "at", "meeting 'met'", 13) ||
	    fence(r, false, "the meeting", "met") ||
	    get_part(r, 0, "met", "the meeting", "", &d, &len))
		return r->fail;
	if (len < 4 || rdv_get32(d))
		rdv_fail(r, len >= 4 && rdv_get32(d) < 4096 ?
			 -(int)rdv_get32(d) : -EPROTO, "%.*s",
			 (int)(len > 4 ? len - 4 : 0), (char *)d + 4);
	rs_free(d);
	return r->fail;
}

int rdv_pmix_meet(const struct rs_rdv_conf *c, struct rs_rdv **ret,
		  char *err, size_t errlen)
{
	static const pmix_status_t codes[] = {
		RDV_PMIX_EVENT, PMIX_ERR_PROC_ABORTED, PMIX_ERR_PROC_ABORTING,
		PMIX_ERR_PROC_TERM_WO_SYNC, PMIX_EVENT_PROC_TERMINATED,
		PMIX_ERR_LOST_CONNECTION,
	};
	struct rs_rdv *r;
	pmix_proc_t me;
	pmix_status_t rc;
	int e;

	if (!c->n_nodes || c->self >= c->n_nodes || !c->deadline_ms) {
		snprintf(err, errlen, "rendezvous: node %u of %u, deadline "
			 "%llu ms", c->self, c->n_nodes,
			 (unsigned long long)c->deadline_ms);
		return -EINVAL;
	}
	e = rs_pmix_load(err, errlen);
	if (e)
		return e;
	rc = PMIx_Init(&me, NULL, 0);
	if (rc != PMIX_SUCCESS) {
		const char *ns = getenv("PMIX_NAMESPACE");

		snprintf(err, errlen, "no PMIx server answered (%s%s): %s; "
			 "start the nodes with a launcher that has one "
			 "(mpirun, srun --mpi=pmix), or use --rendezvous tcp",
			 ns ? "PMIX_NAMESPACE=" : "PMIX_NAMESPACE is not set",
			 ns ? ns : "", PMIx_Error_string(rc));
		return -EHOSTUNREACH;
	}
	pmix_hold();
	r = rs_calloc(1, sizeof(*r));
	if (!r) {
		PMIx_Finalize(NULL, 0);
		snprintf(err, errlen, "no memory for the rendezvous");
		return -ENOMEM;
	}
	r->ops = &pmix_ops;
	e = setup(r, c);
	if (e) {
		snprintf(err, errlen, "cannot set up the rendezvous: %s",
			 strerror(-e));
		rdv_pmix_free(r, true);
		return e;
	}
	r->pmix->me = me;
	r->pmix->meeting = meetings++;
	e = check_job(r, err, errlen);
	if (e) {
		rdv_pmix_free(r, true);
		return e;
	}
	pthread_mutex_lock(&lock);
	heard.wake = r->pmix->wake[1];
	heard.me = me;
	heard.names = r->names;
	heard.n = r->n;
	heard.meeting = r->pmix->meeting;
	heard.any = false;
	heard.code = 0;
	pthread_mutex_unlock(&lock);
	rc = PMIx_Register_event_handler((pmix_status_t *)codes,
					 sizeof(codes) / sizeof(*codes),
					 NULL, 0, on_event, NULL, NULL);
	if (rc >= 0) {
		r->pmix->handler = true;
		r->pmix->handler_id = (size_t)rc;
	}
	if (r->n > 1)
		meet(r);
	e = r->fail;
	if (e == -EINTR) {
		char why[64];

		snprintf(why, sizeof(why), "interrupted by signal %d",
			 (int)rs_interrupted);
		pmix_abort(r, 128 + rs_interrupted, why);
	}
	if (e)
		rdv_failed(r, err, errlen);
	if (e == -ECONNABORTED) {
		*ret = r;
		return e;
	}
	if (e) {
		rdv_pmix_free(r, true);
		return e;
	}
	r->met = true;
	*ret = r;
	return 0;
}
