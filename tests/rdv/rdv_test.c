// SPDX-License-Identifier: MIT
/*
 * The rendezvous between real processes on 127.0.0.1 (or the IPv4
 * address in RDV_TEST_HOST): `rdv_test CASE` forks one process per
 * node (and strangers where the case has them),
 * each checks what it got, and the case passes when every process does.
 * A process that hangs is killed by its alarm, which fails the case.
 * `rdv_test pmix CASE`, one process per node under mpirun, meets
 * through PMIx instead (tests/rdv/pmix.sh): each process is the node
 * of its rank and says "CASE: node N passed".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <execinfo.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "pattern.h"
#include "exit.h"
#include "rdv_int.h"
#include "rdv_wire.h"
#include "rendezvous.h"
#include "signals.h"

#define MAX_NODES 16
#define HANG_S 20       /* no case takes this long */

static const char *names[] = {
	"a", "b", "c", "d", "e", "f", "g", "h",
	"i", "j", "k", "l", "m", "n", "o", "p",
};
static char leader_addr[64];
static int port;
static const char *case_name;
static unsigned me;

static void fail(const char *fmt, ...) __attribute__((noreturn,
						      format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: node %u: ", case_name, me);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	_exit(1);
}

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static void nap(unsigned ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

/* The leader's IPv4 address: 127.0.0.1, or RDV_TEST_HOST (in the VM,
 * the address of the netdev under rxe0). */
static struct in_addr host;

/* A port nobody listens on now (the leader binds it a moment later). */
static int free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr = host };
	socklen_t l = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), p;

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(fd, (struct sockaddr *)&a, &l)) {
		perror("free port");
		exit(3);
	}
	p = ntohs(a.sin_port);
	close(fd);
	return p;
}

/* The run's key in the cases that have one (all nodes hold it). */
static const char run_key[] = "0123456789abcdef-the-run-key";
static const char *key;

/* The transport the case's nodes meet by. */
static enum rs_rdv_via via = RS_RDV_TCP;

static struct rs_rdv_conf conf(unsigned n, unsigned self, uint64_t ms,
			       const char *const *params, unsigned np)
{
	struct rs_rdv_conf c = {
		.via = via,
		.nodes = names, .n_nodes = n, .self = self,
		.leader_addr = leader_addr, .deadline_ms = ms,
		.scenario_hash = "5e1f00d5", .params = params,
		.n_params = np,
		.key = (const uint8_t *)key, .key_len = key ? strlen(key) : 0,
	};
	return c;
}

static const char *const params_ok[] = { "iters=10", "size=65536" };

static struct rs_rdv *meet(unsigned n, uint64_t ms)
{
	struct rs_rdv_conf c = conf(n, me, ms, params_ok, 2);
	struct rs_rdv *r = NULL;
	char err[1024];
	int e = rs_rdv_meet(&c, &r, err, sizeof(err));

	if (e)
		fail("meet: %d %s", e, err);
	if (rs_rdv_self(r) != me || rs_rdv_n_nodes(r) != n)
		fail("meet: self %u of %u", rs_rdv_self(r), rs_rdv_n_nodes(r));
	if (strcmp(rs_rdv_via_name(r), via == RS_RDV_PMIX ? "pmix" : "tcp"))
		fail("meet: by %s", rs_rdv_via_name(r));
	return r;
}

/* The call failed with @want and a message holding each of @subs. */
static void expect_err(const char *what, int got, int want, const char *err,
		       const char *const *subs)
{
	if (got != want)
		fail("%s: got %d (%s), want %d", what, got, err, want);
	for (; subs && *subs; subs++)
		if (!strstr(err, *subs))
			fail("%s: '%s' lacks '%s'", what, err, *subs);
	fprintf(stderr, "%s: node %u: %s: %s\n", case_name, me, what, err);
}

/* Blob of node @i: its name, @i + 1 times, but node 2's is empty. */
static size_t blob_of(unsigned i, char *buf)
{
	size_t len = 0;
	unsigned k;

	if (i == 2)
		return 0;
	for (k = 0; k <= i; k++)
		len += (size_t)sprintf(buf + len, "node-%s;", names[i]);
	return len;
}

static void check_blobs(const char *what, unsigned n,
			struct rs_rdv_blob *all)
{
	char want[256];
	unsigned i;

	for (i = 0; i < n; i++) {
		size_t len = blob_of(i, want);

		if (all[i].len != len || !all[i].data ||
		    memcmp(all[i].data, want, len))
			fail("%s: blob %u is %zu bytes, want %zu", what, i,
			     all[i].len, len);
	}
	rs_rdv_blobs_free(all, n);
}


/* --- by hand: a process that speaks the wire itself, with a key of its
 * choosing (a stranger, a member that lies, a fake leader) --------- */

struct hand {
	int fd;
	struct rdv_session s;
	bool sealed;
};

static int dial(int p)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons((uint16_t)p),
				 .sin_addr = host };
	uint64_t t0 = now_ms();
	int fd;

	while (now_ms() - t0 < 3000) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (!connect(fd, (struct sockaddr *)&a, sizeof(a)))
			return fd;
		close(fd);
		nap(20);
	}
	fail("the leader never listened");
}

static void put_all(int fd, const void *p, size_t len)
{
	if (write(fd, p, len) != (ssize_t)len)
		fail("write: %s", strerror(errno));
}

/* Read exactly @len bytes: 0, or -1 at EOF (or an error) before. */
static int get_all(int fd, void *p, size_t len)
{
	size_t have = 0;

	while (have < len) {
		ssize_t got = read(fd, (char *)p + have, len - have);

		if (got <= 0)
			return -1;
		have += (size_t)got;
	}
	return 0;
}

static void hand_send(struct hand *h, uint8_t type, const char *tag,
		      const void *body, size_t len)
{
	uint8_t mac[RDV_MAC_LEN] = { 0 }, *m;
	struct rdv_piece pc[2] = { { body, len }, { mac, RDV_MAC_LEN } };
	size_t flen;

	if (rdv_encode(type, tag, pc, h->sealed ? 2 : 1, &m, &flen))
		fail("encode");
	if (h->sealed)
		rdv_session_seal(&h->s, m + 4, flen - 4 - RDV_MAC_LEN,
				 m + flen - RDV_MAC_LEN);
	put_all(h->fd, m, flen);
	rs_free(m);
}

/* The next frame's type and body (at most @cap bytes, MAC checked and
 * stripped when sealed): its body's length, or -1 at EOF. */
static long hand_read(struct hand *h, uint8_t *type, uint8_t *body,
		      size_t cap)
{
	uint8_t lenb[4], buf[4096];
	uint32_t len;
	size_t head;

	if (get_all(h->fd, lenb, 4))
		return -1;
	len = rdv_get32(lenb);
	if (len < 2 || len > sizeof(buf) || get_all(h->fd, buf, len))
		fail("a frame of %u bytes from the leader", len);
	*type = buf[0];
	head = 2 + buf[1];
	if (h->sealed) {
		if (len < head + RDV_MAC_LEN ||
		    !rdv_session_open(&h->s, buf, len - RDV_MAC_LEN,
				      buf + len - RDV_MAC_LEN))
			fail("a frame that does not check");
		len -= RDV_MAC_LEN;
	}
	if (len - head > cap)
		fail("a frame body of %zu bytes", len - head);
	memcpy(body, buf + head, len - head);
	return (long)(len - head);
}

/* Join the leader at @p as node @rank of @n with @k as the key; a node's
 * handshake, then a hello.  The leader's proof is not checked here: a
 * stranger has no key to check it with. */
static void hand_join(struct hand *h, int p, const char *k, unsigned rank,
		      unsigned n)
{
	uint8_t nonce[RDV_NONCE_LEN], body[256], type;
	char hello[512];
	long len;

	h->fd = dial(p);
	h->sealed = false;
	memset(nonce, 0x5a, sizeof(nonce));
	hand_send(h, RDV_AUTH1, NULL, nonce, sizeof(nonce));
	len = hand_read(h, &type, body, sizeof(body));
	if (type != RDV_AUTH2 || len != RDV_NONCE_LEN + RDV_MAC_LEN)
		fail("the leader answered a nonce with type 0x%02x, %ld bytes",
		     type, len);
	rdv_session_init(&h->s, (const uint8_t *)k, strlen(k), nonce, body,
			 false);
	h->sealed = true;
	snprintf(hello, sizeof(hello), "{\"v\":2,\"rank\":%u,\"node\":"
		 "\"%s\",\"nodes\":[\"a\",\"b\"%s],\"hash\":\"5e1f00d5\","
		 "\"run\":\"\",\"params\":[\"iters=10\",\"size=65536\"]}",
		 rank, names[rank], n == 3 ? ",\"c\"" : "");
	hand_send(h, RDV_HELLO, NULL, hello, strlen(hello));
}

/* The leader's side of a handshake, by hand, under key @k: the node's
 * nonce in, a nonce and a proof out. */
static void hand_lead(struct hand *h, int lfd, const char *k)
{
	uint8_t nonce_l[RDV_NONCE_LEN], proof[RDV_MAC_LEN], type;
	uint8_t body[RDV_NONCE_LEN + RDV_MAC_LEN];
	long len;

	h->fd = accept(lfd, NULL, NULL);
	h->sealed = false;
	if (h->fd < 0)
		fail("accept: %s", strerror(errno));
	len = hand_read(h, &type, body, sizeof(body));
	if (type != RDV_AUTH1 || len != RDV_NONCE_LEN)
		fail("a node began with type 0x%02x, %ld bytes", type, len);
	memset(nonce_l, 0xa5, sizeof(nonce_l));
	rdv_leader_proof((const uint8_t *)k, strlen(k), body, nonce_l, proof);
	memcpy(body + RDV_NONCE_LEN, proof, RDV_MAC_LEN);
	memcpy(proof, body, RDV_NONCE_LEN);     /* the node's nonce */
	memcpy(body, nonce_l, RDV_NONCE_LEN);
	hand_send(h, RDV_AUTH2, NULL, body, sizeof(body));
	rdv_session_init(&h->s, (const uint8_t *)k, strlen(k), proof, nonce_l,
			 true);
	h->sealed = true;
}

static int listen_on(int p)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons((uint16_t)p),
				 .sin_addr = host };
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(fd, 8))
		fail("listen: %s", strerror(errno));
	return fd;
}

/* --- the cases: each runs as node @me of the case's processes --------- */

static const int verdicts[] = { RS_EXIT_PASSED, RS_EXIT_SKIPPED,
				RS_EXIT_PASSED, RS_EXIT_FAILED };

static int node_basic(unsigned n)
{
	struct rs_rdv_blob all[MAX_NODES];
	struct rs_rdv *r = meet(n, 5000);
	char mine[256], err[512], tag[16];
	size_t len = blob_of(me, mine);
	int e, v, want = RS_EXIT_PASSED;
	unsigned i, s;

	e = rs_rdv_allgather(r, "peers", mine, len, all, err, sizeof(err));
	if (e)
		fail("allgather: %d %s", e, err);
	check_blobs("allgather", n, all);
	for (s = 0; s < 3; s++) {
		snprintf(tag, sizeof(tag), "step %u", s);
		if (s == me)
			nap(50);        /* one late node each time */
		e = rs_rdv_barrier(r, tag, err, sizeof(err));
		if (e)
			fail("barrier %s: %d %s", tag, e, err);
	}
	memset(all, 0xa5, sizeof(all));
	e = rs_rdv_gather(r, "records", mine, len, me ? NULL : all, err,
			  sizeof(err));
	if (e)
		fail("gather: %d %s", e, err);
	if (!me)
		check_blobs("gather", n, all);
	for (i = 0; i < n; i++)
		want = rs_rdv_worst(want, verdicts[i]);
	e = rs_rdv_verdict(r, verdicts[me], &v, err, sizeof(err));
	if (e || v != want)
		fail("verdict: %d %s: %d, want %d", e, err, v, want);
	/* The descriptor is quiet when nothing happened. */
	if (rs_rdv_fd(r) < 0 || rs_rdv_poll(r, err, sizeof(err)))
		fail("poll after the verdict: %s", err);
	rs_rdv_close(r);
	return 0;
}

static int node_basic2(void) { return node_basic(2); }
static int node_basic4(void) { return node_basic(4); }

/* b has another size, c another scenario and one more param. */
static int node_mismatch(void)
{
	static const char *const pb[] = { "iters=10", "size=4096" };
	static const char *const pc[] = { "iters=10", "size=65536", "x=1" };
	static const char *const subs[] = {
		"node 'b' has size=4096, node 'a' has size=65536",
		"node 'c' has x=1, node 'a' has no param 'x'",
		"node 'c' runs scenario feedface, node 'a' runs 5e1f00d5",
		"size=65536; node 'c' runs",   /* in rank order */
		NULL,
	};
	struct rs_rdv_conf c = conf(3, me, 5000, params_ok, 2);
	struct rs_rdv *r = NULL;
	char err[1024];
	int e;

	if (me == 1)
		c.params = pb;
	if (me == 2) {
		c.params = pc;
		c.n_params = 3;
		c.scenario_hash = "feedface";
	}
	e = rs_rdv_meet(&c, &r, err, sizeof(err));
	expect_err("meet", e, -EINVAL, err, subs);
	if (r)
		fail("meet failed but gave a side");
	return 0;
}

/* Node c never starts: a and b end at their deadline, naming it. */
static int node_absent(void)
{
	static const char *const subs[] = { "node 'c' did not join within "
					    "1000 ms", NULL };
	struct rs_rdv_conf c = conf(3, me, 1000, params_ok, 2);
	struct rs_rdv *r = NULL;
	uint64_t t0 = now_ms(), dt;
	char err[1024];
	int e;

	e = rs_rdv_meet(&c, &r, err, sizeof(err));
	dt = now_ms() - t0;
	expect_err("meet", e, -ETIMEDOUT, err, subs);
	if (dt < 900 || dt > 1000 + RS_RDV_GRACE_MS + 1000)
		fail("ended after %llu ms, the deadline is 1000",
		     (unsigned long long)dt);
	return 0;
}

/* A node tells the parent it got there; the parent tells the late node
 * that the victim was dealt with (so no timing decides the case). */
static int ready_fd = -1, go_fd = -1, go_wr = -1;

static void wait_go(void)
{
	char g;

	if (read(go_fd, &g, 1) != 1)
		fail("no word from the parent");
}

/* c is killed while a waits in a barrier; b comes after it died. */
static int node_killed(void)
{
	static const char *const subs[] = { "node 'c' was lost", NULL };
	struct rs_rdv *r = meet(3, 5000);
	char err[512];
	uint64_t t0;
	int e;

	if (rs_rdv_barrier(r, "one", err, sizeof(err)))
		fail("barrier one: %s", err);
	if (me == 2 && write(ready_fd, "k", 1) != 1)
		fail("cannot tell the parent");
	if (me == 1)
		wait_go();      /* c is dead by then */
	t0 = now_ms();
	e = rs_rdv_barrier(r, "two", err, sizeof(err));
	if (me == 2)
		fail("the barrier ended for the node that was to die");
	expect_err("barrier two", e, -ECONNRESET, err, subs);
	if (now_ms() - t0 > 1500)
		fail("lost node named after %llu ms (deadline 5000)",
		     (unsigned long long)(now_ms() - t0));
	/* Final: the next call says it again at once. */
	e = rs_rdv_barrier(r, "three", err, sizeof(err));
	expect_err("barrier three", e, -ECONNRESET, err, subs);
	rs_rdv_close(r);
	return 0;
}

/* The leader starts last: the others retry until it is there. */
static int node_leader_last(void)
{
	struct rs_rdv *r;
	char err[512];
	int v;

	if (me == 0)
		nap(400);
	r = meet(3, 3000);
	if (rs_rdv_barrier(r, "go", err, sizeof(err)))
		fail("barrier: %s", err);
	if (rs_rdv_verdict(r, RS_EXIT_PASSED, &v, err, sizeof(err)) || v)
		fail("verdict %d: %s", v, err);
	rs_rdv_close(r);
	return 0;
}

/* b fails; a waits in a barrier, c watches the descriptor. */
static int node_abort(void)
{
	static const char *const subs[] = {
		"node 'b' failed: create of mr 'dst' failed", NULL,
	};
	struct rs_rdv *r = meet(3, 5000);
	char err[512];
	uint64_t t0 = now_ms();
	int e = 0;

	if (me == 1) {
		nap(100);
		rs_rdv_abort(r, 3, "create of mr 'dst' failed");
		e = rs_rdv_barrier(r, "step 0", err, sizeof(err));
	} else if (me == 0) {
		e = rs_rdv_barrier(r, "step 0", err, sizeof(err));
	} else {
		struct pollfd p = { .fd = rs_rdv_fd(r), .events = POLLIN };

		while (!e && now_ms() - t0 < 3000) {
			if (poll(&p, 1, 3000) < 0)
				fail("poll: %s", strerror(errno));
			e = rs_rdv_poll(r, err, sizeof(err));
		}
	}
	expect_err("after the abort", e, -ECONNABORTED, err, subs);
	if (rs_rdv_fail_code(r) != 3)
		fail("the abort's exit code: %d, not 3", rs_rdv_fail_code(r));
	if (now_ms() - t0 > 1500)
		fail("abort heard after %llu ms",
		     (unsigned long long)(now_ms() - t0));
	rs_rdv_close(r);
	return 0;
}

/* Processes 0 and 2 are nodes a and b of a run of two (b starts once
 * the parent says go): they meet and swap their names, whatever process
 * 1, a stranger, did to the leader meanwhile. */
static int pair_meets(void)
{
	struct rs_rdv_blob all[2];
	const char *x = me ? "b" : "a";
	struct rs_rdv_conf c = conf(2, me / 2, 4000, params_ok, 2);
	struct rs_rdv *r = NULL;
	char err[512];
	int e;

	if (me == 2)
		wait_go();
	e = rs_rdv_meet(&c, &r, err, sizeof(err));
	if (e)
		fail("meet: %s", err);
	e = rs_rdv_allgather(r, "x", x, 1, all, err, sizeof(err));
	if (e || all[0].len != 1 || memcmp(all[0].data, "a", 1) ||
	    all[1].len != 1 || memcmp(all[1].data, "b", 1))
		fail("allgather: %d %s", e, err);
	rs_rdv_blobs_free(all, 2);
	rs_rdv_close(r);
	return 0;
}

/* Strangers knock before b joins: each is refused and the meeting
 * goes on.  Node 1 here is the stranger; node 2 is b, started late. */
static int stranger_frame(const void *p, size_t len)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons((uint16_t)port),
				 .sin_addr = host };
	uint64_t t0 = now_ms();
	char buf[64];
	ssize_t got;
	int fd = -1;

	while (now_ms() - t0 < 3000) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (!connect(fd, (struct sockaddr *)&a, sizeof(a)))
			break;
		close(fd);
		fd = -1;
		nap(20);
	}
	if (fd < 0)
		fail("the leader never listened");
	if (len && write(fd, p, len) != (ssize_t)len)
		fail("write: %s", strerror(errno));
	/* Refused: the leader closes; it says nothing to a stranger. */
	got = read(fd, buf, sizeof(buf));
	close(fd);
	return (int)got;
}

static int node_strangers(void)
{
	static const uint8_t huge[] = { 0xff, 0xff, 0xff, 0xff, 1, 0 };
	static const char http[] = "GET / HTTP/1.0\r\n\r\n";
	static const uint8_t type[] = { 0, 0, 0, 2, 0x7f, 0 };
	static const uint8_t tag[] = { 0, 0, 0, 4, 0x10, 2, 'a', '\n' };
	static const uint8_t shorttag[] = { 0, 0, 0, 3, 0x01, 9, 'x' };
	static const char *const hellos[] = {
		"{\"v\": 1, \"rank\": 7, \"nodes\": [], \"hash\": \"\", "
		"\"params\": []}",
		"{\"v\": 1, \"rank\": 1, \"nodes\": [\"a\", 3], \"hash\": "
		"\"\", \"params\": []}",
		"{\"v\": 2}", "[1, 2", "{\"v\": 1}{}",
		"{\"v\":1,\"rank\":1,\"nodes\":[[[[[[[[[[]]]]]]]]]]}",
	};
	struct { const void *p; size_t len; } knocks[] = {
		{ huge, sizeof(huge) }, { http, sizeof(http) - 1 },
		{ type, sizeof(type) }, { tag, sizeof(tag) },
		{ shorttag, sizeof(shorttag) },
		{ "", 0 },      /* says nothing: closed once they met */
	};
	unsigned i;
	ssize_t got;
	char buf[64];
	int fd;

	if (me == 0 || me == 2)
		return pair_meets();
	for (i = 0; i < sizeof(hellos) / sizeof(*hellos); i++) {
		uint8_t *m;
		size_t len;

		if (rdv_encode(RDV_HELLO, NULL, &(struct rdv_piece){
			hellos[i], strlen(hellos[i]) }, 1, &m, &len))
			fail("encode");
		if (stranger_frame(m, len) != 0)
			fail("hello %u was not refused by a close", i);
		rs_free(m);
	}
	for (i = 0; i + 1 < sizeof(knocks) / sizeof(*knocks); i++)
		if (stranger_frame(knocks[i].p, knocks[i].len) != 0)
			fail("knock %u was not refused by a close", i);
	/* The last says nothing: connected first (else b, told to come,
	 * may have met the leader and closed the door before it dials),
	 * then b may come, and once they have met the leader closes it. */
	fd = dial(port);
	if (write(go_wr, "g", 1) != 1)
		fail("cannot tell b");
	got = read(fd, buf, sizeof(buf));
	close(fd);
	if (got != 0)
		fail("the silent stranger was not closed: read %zd", got);
	return 0;
}

/* Node c joins by hand with a right handshake and hello, then sends a
 * frame that announces 4 GiB: a and b name it. */
static int node_bad_member(void)
{
	static const char *const subs[] = {
		"node 'c' sent a bad frame: a frame of 4294967295 bytes", NULL,
	};
	static const uint8_t huge[] = { 0xff, 0xff, 0xff, 0xff, 0x13, 0 };
	struct rs_rdv *r;
	char err[512];
	int e;

	if (me == 2) {
		struct hand h;
		uint8_t type, body[64];

		hand_join(&h, port, "", 2, 3);
		if (hand_read(&h, &type, body, sizeof(body)) != 0 ||
		    type != RDV_MET)
			fail("no meeting");
		put_all(h.fd, huge, sizeof(huge));
		while (read(h.fd, body, sizeof(body)) > 0)
			;
		close(h.fd);
		return 0;
	}
	/* b may hear of it as the meeting ends, or at the barrier. */
	struct rs_rdv_conf c = conf(3, me, 5000, params_ok, 2);

	r = NULL;
	e = rs_rdv_meet(&c, &r, err, sizeof(err));
	if (!e)
		e = rs_rdv_barrier(r, "step 0", err, sizeof(err));
	expect_err(r ? "barrier" : "meet", e, -EPROTO, err, subs);
	rs_rdv_close(r);
	return 0;
}

/* With a key: a stranger that does the whole handshake with another key
 * (or none) is turned away and hears nothing: no failure, no params, no
 * node list; the meeting goes on and b joins.  Node 1 is the stranger,
 * node 2 is b, started once the stranger has been turned away. */
static int node_key_stranger(void)
{
	key = run_key;
	if (me == 1) {
		static const char *const keys[] = { "", "0123456789abcdef" };
		uint8_t type, body[256];

		for (unsigned i = 0; i < 2; i++) {
			struct hand h;
			long len;

			hand_join(&h, port, keys[i], 1, 2);
			len = hand_read(&h, &type, body, sizeof(body));
			if (len != -1)
				fail("a stranger with key '%s' was told "
				     "something: type 0x%02x, %ld bytes",
				     keys[i], type, len);
			close(h.fd);
		}
		if (write(go_wr, "g", 1) != 1)
			fail("cannot tell b");
		return 0;
	}
	return pair_meets();
}

/* A fake leader holds the port first, without the key: node b, with
 * it, learns that at once and says nothing beyond its nonce. */
static int node_fake_leader(void)
{
	static const char *const subs[] = {
		"is not the leader of this run: it does not prove that it "
		"holds the run's key", NULL,
	};
	struct rs_rdv_conf c;
	struct rs_rdv *r = NULL;
	char err[512];
	int e;

	key = run_key;
	if (me == 0) {
		struct hand h;
		uint8_t type, body[64];
		int lfd = listen_on(port);

		if (write(ready_fd, "l", 1) != 1)
			fail("cannot tell the parent");
		hand_lead(&h, lfd, "not-the-run-key-at-all");
		if (hand_read(&h, &type, body, sizeof(body)) != -1)
			fail("node b said more than its nonce: type 0x%02x",
			     type);
		close(h.fd);
		close(lfd);
		return 0;
	}
	wait_go();
	c = conf(2, 1, 3000, params_ok, 2);
	e = rs_rdv_meet(&c, &r, err, sizeof(err));
	expect_err("meet", e, -EACCES, err, subs);
	return 0;
}

/* Forged verdicts, both ways, by members that hold the key: 256 from a
 * node to the real leader a (256 & 0xff would exit 0), then 256 from a
 * leader by hand to the real node b of a second run on its own port,
 * then an abort carrying 256: each a protocol error naming its sender,
 * never a verdict. */
static int port2;

static int node_forged(void)
{
	static const char *const at_a[] = {
		"node 'b' gave 256 as its verdict, which is no exit code of "
		"rdmascn", NULL,
	};
	static const char *const at_b[] = {
		"node 'a' (the leader) answered verdict 'verdict' wrongly: "
		"256, which is no exit code of rdmascn", NULL,
	};
	static const char *const abort_a[] = {
		"node 'b' gave 256 as its abort's exit code", NULL,
	};
	uint8_t code[4], type, body[1024];
	struct rs_rdv_conf c;
	struct rs_rdv *r = NULL;
	struct hand h;
	char err[512];
	int e, v = -1;

	key = run_key;
	rdv_put32(code, 256);
	switch (me) {
	case 0:         /* the real leader of run 1, twice */
		for (unsigned i = 0; i < 2; i++) {
			c = conf(2, 0, 3000, params_ok, 2);
			if ((e = rs_rdv_meet(&c, &r, err, sizeof(err))))
				fail("meet: %s", err);
			if (i == 0) {
				e = rs_rdv_verdict(r, 0, &v, err, sizeof(err));
				expect_err("verdict", e, -EPROTO, err, at_a);
			} else {
				e = rs_rdv_barrier(r, "x", err, sizeof(err));
				expect_err("barrier", e, -EPROTO, err, abort_a);
				if (rs_rdv_fail_code(r))
					fail("an abort's code of %d was kept",
					     rs_rdv_fail_code(r));
			}
			rs_rdv_close(r);
		}
		return 0;
	case 1:         /* its lying member */
		hand_join(&h, port, run_key, 1, 2);
		if (hand_read(&h, &type, body, sizeof(body)) || type != RDV_MET)
			fail("no meeting");
		hand_send(&h, RDV_PUT | RDV_OP_VERDICT, "verdict", code, 4);
		while (hand_read(&h, &type, body, sizeof(body)) >= 0)
			;
		close(h.fd);
		nap(100);
		hand_join(&h, port, run_key, 1, 2);
		if (hand_read(&h, &type, body, sizeof(body)) || type != RDV_MET)
			fail("no meeting");
		{
			uint8_t ab[8];

			rdv_put32(ab, 256);
			memcpy(ab + 4, "lie", 3);
			hand_send(&h, RDV_ABORT, NULL, ab, 7);
		}
		while (hand_read(&h, &type, body, sizeof(body)) >= 0)
			;
		close(h.fd);
		return 0;
	case 2: {       /* a lying leader of run 2 */
		int lfd = listen_on(port2);

		if (write(ready_fd, "l", 1) != 1)
			fail("cannot tell the parent");
		hand_lead(&h, lfd, run_key);
		if (hand_read(&h, &type, body, sizeof(body)) <= 0 ||
		    type != RDV_HELLO)
			fail("no hello");
		hand_send(&h, RDV_MET, NULL, NULL, 0);
		if (hand_read(&h, &type, body, sizeof(body)) != 4 ||
		    type != (RDV_PUT | RDV_OP_VERDICT))
			fail("no verdict");
		hand_send(&h, RDV_RESULT | RDV_OP_VERDICT, "verdict", code, 4);
		while (hand_read(&h, &type, body, sizeof(body)) >= 0)
			;
		close(h.fd);
		close(lfd);
		return 0;
	}
	default:        /* the real node b of run 2 */
		wait_go();
		snprintf(leader_addr, sizeof(leader_addr), "%s:%d",
			 inet_ntoa(host), port2);
		c = conf(2, 1, 3000, params_ok, 2);
		if ((e = rs_rdv_meet(&c, &r, err, sizeof(err))))
			fail("meet: %s", err);
		e = rs_rdv_verdict(r, 0, &v, err, sizeof(err));
		expect_err("verdict", e, -EPROTO, err, at_b);
		rs_rdv_close(r);
		return 0;
	}
}

/* Strangers flood the leader before b joins: 40 idle connections (some
 * announcing a 1 MiB hello) are more than it keeps; each is closed (the
 * oldest make room, the rest when their time is up or the door closes)
 * and b still joins. */
static int node_flood(void)
{
	key = run_key;
	if (me == 1) {
		static const uint8_t mib[] = { 0, 0x10, 0, 0, RDV_HELLO, 0 };
		int fds[40];
		unsigned i, shut = 0;
		char g;

		for (i = 0; i < 40; i++) {
			fds[i] = dial(port);
			if (i % 2)
				put_all(fds[i], mib, sizeof(mib));
		}
		nap(300);
		/* The 20 that announced 1 MiB (more than a handshake's
		 * frame) were turned away, and the oldest idle ones made
		 * room: 24 at least. */
		for (i = 0; i < 40; i++) {
			struct pollfd p = { .fd = fds[i], .events = POLLIN };

			/* A FIN, or a reset where the leader had unread
			 * bytes: either way, closed. */
			if (poll(&p, 1, 0) == 1 && read(fds[i], &g, 1) <= 0)
				shut++;
		}
		if (shut < 40 - RDV_PENDING_MAX)
			fail("%u of 40 idle strangers were closed, want at "
			     "least %u", shut, 40 - RDV_PENDING_MAX);
		if (write(go_wr, "g", 1) != 1)
			fail("cannot tell b");
		for (i = 0; i < 40; i++) {
			while (read(fds[i], &g, 1) > 0)
				;
			close(fds[i]);
		}
		return 0;
	}
	return pair_meets();
}

/* Without a key the nodes meet only on loopback; --insecure lets them
 * (this one only binds, it never sends: 192.0.2.1 is TEST-NET-1). */
static int node_no_key(void)
{
	static const char *const subs[] = {
		"the nodes would meet at 192.0.2.1:18516, which is not a "
		"loopback address, and the run has no key", NULL,
	};
	struct rs_rdv_conf c = conf(2, 0, 1000, params_ok, 2);
	struct rs_rdv *r = NULL;
	char err[512];
	int e;

	c.leader_addr = "192.0.2.1";
	e = rs_rdv_meet(&c, &r, err, sizeof(err));
	expect_err("meet", e, -EPERM, err, subs);
	c.insecure = true;
	e = rs_rdv_meet(&c, &r, err, sizeof(err));
	if (e == -EPERM || !strstr(err, "cannot listen on 192.0.2.1"))
		fail("--insecure: %d %s", e, err);
	return 0;
}

/* Nodes at different tags are named, both. */
static int node_tags(void)
{
	static const char *const subs[] = {
		"node 'b' is at barrier 'step 2', node 'a' at barrier "
		"'step 1'", NULL,
	};
	struct rs_rdv *r = meet(2, 3000);
	char err[512];
	int e = rs_rdv_barrier(r, me ? "step 2" : "step 1", err, sizeof(err));

	expect_err("barrier", e, -EINVAL, err, subs);
	rs_rdv_close(r);
	return 0;
}

/* SIGINT on b while it waits in a barrier: it is told so, aborts, and
 * the others hear why. */
static int node_interrupted(void)
{
	static const char *const mine[] = {
		"node 'b' was interrupted (signal 2)", NULL,
	};
	static const char *const theirs[] = {
		"node 'b' failed: interrupted by signal 2", NULL,
	};
	struct rs_rdv *r;
	char err[512];
	uint64_t t0;
	int e;

	if (me == 1)
		rs_signals_install();
	r = meet(3, 5000);
	if (me == 1 && write(ready_fd, "i", 1) != 1)
		fail("cannot tell the parent");
	if (me == 2)
		wait_go();      /* b has aborted by then */
	t0 = now_ms();
	e = rs_rdv_barrier(r, "one", err, sizeof(err));
	if (me == 1) {
		expect_err("barrier", e, -EINTR, err, mine);
		rs_rdv_abort(r, 130, "interrupted by signal 2");
		if (write(ready_fd, "a", 1) != 1)
			fail("cannot tell the parent");
	} else {
		expect_err("barrier", e, -ECONNABORTED, err, theirs);
	}
	if (now_ms() - t0 > 1500)
		fail("ended after %llu ms (deadline 5000)",
		     (unsigned long long)(now_ms() - t0));
	rs_rdv_close(r);
	return 0;
}

/* SIGINT on the leader while it waits for c (never started) to join:
 * b, which has joined, hears it as an abort with 130 and keeps the
 * failed side to read it from; a gets -EINTR. */
static int node_interrupted_meet(void)
{
	static const char *const theirs[] = {
		"node 'a' failed: interrupted by signal 2", NULL,
	};
	struct rs_rdv_conf c = conf(3, me, 5000, params_ok, 2);
	struct rs_rdv *r = NULL;
	char err[512];
	int e;

	if (me == 0) {
		rs_signals_install();
		if (!fork()) {
			nap(700);       /* b has joined by then */
			kill(getppid(), SIGINT);
			_exit(0);
		}
		e = rs_rdv_meet(&c, &r, err, sizeof(err));
		if (e != -EINTR || r)
			fail("meet: %d %s, want -EINTR and no side", e, err);
		return 0;
	}
	e = rs_rdv_meet(&c, &r, err, sizeof(err));
	expect_err("meet", e, -ECONNABORTED, err, theirs);
	if (!r || rs_rdv_fail_code(r) != 130)
		fail("the abort's code: %d, not 130",
		     r ? rs_rdv_fail_code(r) : -1);
	rs_rdv_close(r);
	return 0;
}

/* Not a test: the time of a barrier and of a 4 KiB allgather among 4
 * nodes, as the leader sees it (`rdv_test bench`). */
static int node_bench(void)
{
	struct rs_rdv_blob all[4];
	struct rs_rdv *r = meet(4, 5000);
	static char blob[4096];
	char err[512];
	uint64_t t0 = now_ms();
	unsigned i, n = 2000;

	for (i = 0; i < n; i++)
		if (rs_rdv_barrier(r, "b", err, sizeof(err)))
			fail("barrier: %s", err);
	if (!me)
		printf("bench: barrier of 4 nodes: %.1f us\n",
		       (now_ms() - t0) * 1000.0 / n);
	t0 = now_ms();
	for (i = 0; i < n; i++) {
		if (rs_rdv_allgather(r, "g", blob, sizeof(blob), all, err,
				     sizeof(err)))
			fail("allgather: %s", err);
		rs_rdv_blobs_free(all, 4);
	}
	if (!me)
		printf("bench: allgather of 4 x 4 KiB: %.1f us\n",
		       (now_ms() - t0) * 1000.0 / n);
	rs_rdv_close(r);
	return 0;
}

/* --- the exchange (rs_rdv_exchange()) ------------------------------- */

/* A description of a realistic size (an rs_peer's is about 100 bytes):
 * pair @k seen from node @from, for node @to. */
#define DESC_LEN 100

static void desc_of(uint64_t k, unsigned from, unsigned to, char *buf)
{
	memset(buf, '.', DESC_LEN);
	snprintf(buf, DESC_LEN, "pair %llu from %s to %s",
		 (unsigned long long)k, names[from], names[to]);
}

/* The bytes a result of @m messages of @len bytes each takes on the
 * wire in one frame: length, type, tag, flag, records, MAC. */
static uint64_t result_bytes(const char *tag, unsigned m, size_t len)
{
	return 4 + 2 + strlen(tag) + 1 + (uint64_t)m * (RDV_XCHG_HEAD + len) +
	       RDV_MAC_LEN;
}

/*
 * Both sides of every pair of @p over @n nodes send each other their
 * description under the pair's number, as the two sides of a connection
 * do; each node also sends its right neighbour one message nobody wants
 * (dropped there).  Each gets exactly its own, and a node other than the
 * leader receives the bytes of its own messages and no more.
 */
static int node_xchg(unsigned n, enum rs_pattern p)
{
	struct rs_rdv *r = meet(n, 10000);
	struct rs_rdv_msg *out, *want;
	struct rs_rdv_stats s0, s1;
	static char descs[2 * 16 * 16 + 1][DESC_LEN], junk[DESC_LEN];
	unsigned from, to, no = 0, nw = 0, i;
	uint64_t k, pairs;
	char err[512], why[128];
	int e, v;

	if (rs_pattern_count(p, n, 0, &pairs, why, sizeof(why)))
		fail("pattern: %s", why);
	out = calloc(2 * pairs + 1, sizeof(*out));
	want = calloc(2 * pairs + 1, sizeof(*want));
	if (!out || !want)
		fail("no memory");
	for (k = 0; k < pairs; k++) {
		rs_pattern_pair(p, n, 0, k, &from, &to);
		if (from != me && to != me)
			continue;
		/* The side here, for the side there. */
		if (from == me) {
			desc_of(k, from, to, descs[no]);
			out[no] = (struct rs_rdv_msg){ to, (uint32_t)k,
						       descs[no], DESC_LEN };
			no++;
			want[nw++] = (struct rs_rdv_msg){ .peer = to,
							  .key = (uint32_t)k };
		}
		if (to == me) {
			desc_of(k, to, from, descs[no]);
			out[no] = (struct rs_rdv_msg){ from, (uint32_t)k,
						       descs[no], DESC_LEN };
			no++;
			want[nw++] = (struct rs_rdv_msg){ .peer = from,
							  .key = (uint32_t)k };
		}
	}
	memset(junk, 'j', sizeof(junk));
	out[no++] = (struct rs_rdv_msg){ (me + 1) % n, UINT32_MAX, junk,
					 DESC_LEN };
	rs_rdv_stats(r, &s0);
	e = rs_rdv_exchange(r, "descriptions", out, no, want, nw, err,
			    sizeof(err));
	if (e)
		fail("exchange: %d %s", e, err);
	rs_rdv_stats(r, &s1);
	for (i = 0; i < nw; i++) {
		char wanted[DESC_LEN];
		unsigned far = want[i].peer;

		rs_pattern_pair(p, n, 0, want[i].key, &from, &to);
		desc_of(want[i].key, far, me, wanted);
		if (want[i].len != DESC_LEN || !want[i].data ||
		    memcmp(want[i].data, wanted, DESC_LEN))
			fail("pair %u from node %u: %zu bytes, not its "
			     "description", want[i].key, far, want[i].len);
	}
	if (s1.calls != s0.calls + 1 ||
	    strcmp(s1.last_tag, "descriptions"))
		fail("stats: %llu calls, last '%s'",
		     (unsigned long long)(s1.calls - s0.calls), s1.last_tag);
	/* Received: its messages (and the one dropped), nothing else. */
	if (me && s1.bytes_recv - s0.bytes_recv !=
	    result_bytes("descriptions", nw + 1, DESC_LEN))
		fail("received %llu bytes for %u messages, want %llu",
		     (unsigned long long)(s1.bytes_recv - s0.bytes_recv),
		     nw + 1, (unsigned long long)
		     result_bytes("descriptions", nw + 1, DESC_LEN));
	if (me && s1.bytes_sent - s0.bytes_sent !=
	    result_bytes("descriptions", no, DESC_LEN))
		fail("sent %llu bytes for %u messages",
		     (unsigned long long)(s1.bytes_sent - s0.bytes_sent), no);
	rs_rdv_msgs_free(want, nw);
	if (want[0].data)
		fail("a message freed but not forgotten");
	/* Nothing to send or want: still a collective, still one frame. */
	e = rs_rdv_exchange(r, "nothing", NULL, 0, NULL, 0, err, sizeof(err));
	if (e)
		fail("empty exchange: %d %s", e, err);
	/* A phase's verdict, reduced at the leader. */
	e = rs_rdv_agree(r, "phase 1", verdicts[me % 4], &v, err,
			 sizeof(err));
	if (e || v != RS_EXIT_FAILED)
		fail("agree: %d %s: %d", e, err, v);
	fprintf(stderr, "%s: node %u: %u messages out, %u in, %llu bytes "
		"received\n", case_name, me, no, nw,
		(unsigned long long)(s1.bytes_recv - s0.bytes_recv));
	free(out);
	free(want);
	rs_rdv_close(r);
	return 0;
}

static int node_xchg_ring4(void) { return node_xchg(4, RS_PATTERN_RING); }
static int node_xchg_mesh4(void) { return node_xchg(4, RS_PATTERN_MESH); }
static int node_xchg_ring16(void) { return node_xchg(16, RS_PATTERN_RING); }
static int node_xchg_mesh16(void) { return node_xchg(16, RS_PATTERN_MESH); }

/* b wants a message c never sent: b alone fails, naming c and the key,
 * and its abort ends the rest. */
static int node_xchg_unsent(void)
{
	static const char *const subs[] = {
		"exchange 'x': node 'c' sent node 'b' no message under key "
		"99", NULL,
	};
	static const char *const told[] = {
		"node 'b' failed: exchange 'x': node 'c' sent", NULL,
	};
	struct rs_rdv *r = meet(4, 5000);
	struct rs_rdv_msg out = { (me + 1) % 4, 7, "hi", 2 };
	struct rs_rdv_msg want[2] = { { .peer = (me + 3) % 4, .key = 7 },
				      { .peer = 2, .key = 99 } };
	char err[512];
	int e;

	e = rs_rdv_exchange(r, "x", &out, 1, want, me == 1 ? 2 : 1, err,
			    sizeof(err));
	if (me == 1) {
		expect_err("exchange", e, -EPROTO, err, subs);
		if (want[0].data || want[1].data)
			fail("a failed exchange left data");
		rs_rdv_abort(r, 3, err);
	} else if (e) {
		/* b's abort came in with the result (or before it, for a
		 * node answered after b): the failure wins, as in every
		 * call. */
		expect_err("exchange", e, -ECONNABORTED, err, told);
	} else {
		if (want[0].len != 2 || memcmp(want[0].data, "hi", 2))
			fail("exchange: %zu bytes, not 'hi'", want[0].len);
		rs_rdv_msgs_free(want, 1);
		e = rs_rdv_barrier(r, "after", err, sizeof(err));
		expect_err("barrier", e, -ECONNABORTED, err, told);
	}
	rs_rdv_close(r);
	return 0;
}

/* c sends to rank 7 of 4: every node fails, naming c. */
static int node_xchg_bad_rank(void)
{
	static const char *const subs[] = {
		"node 'c' sent a message under key 5 to node rank 7 in "
		"exchange 'x', and there are 4 nodes", NULL,
	};
	struct rs_rdv *r = meet(4, 5000);
	struct rs_rdv_msg out = { me == 2 ? 7 : 0, 5, "hi", 2 };
	char err[512];
	int e;

	e = rs_rdv_exchange(r, "x", &out, 1, NULL, 0, err, sizeof(err));
	expect_err("exchange", e, -EPROTO, err, subs);
	rs_rdv_close(r);
	return 0;
}

/* Byte @i of big message @k from node @from. */
static uint8_t big_byte(unsigned from, unsigned k, size_t i)
{
	return (uint8_t)(from * 31 + k * 7 + i * 13 + (i >> 12));
}

/*
 * More than a blob in one exchange: b sends c three messages of 7 MiB,
 * d sends the leader two of 9 MiB, so that b's part, c's result, d's
 * part and what the leader keeps each take more than one frame; all
 * arrive whole.  A message over the cap is refused before anything is
 * sent.
 */
static int node_xchg_big(void)
{
	static const struct { unsigned from, to, n; size_t len; } plan[] = {
		{ 1, 2, 3, 7u << 20 }, { 3, 0, 2, 9u << 20 },
	};
	struct rs_rdv *r = meet(4, 10000);
	struct rs_rdv_msg out[3], want[3], huge = { 0, 1, NULL,
						    RS_RDV_MSG_MAX + 1 };
	struct rs_rdv_stats s0, s1;
	unsigned no = 0, nw = 0, i, k;
	char err[512];
	size_t b;
	int e;

	e = rs_rdv_exchange(r, "huge", &huge, 1, NULL, 0, err, sizeof(err));
	if (e != -EMSGSIZE || !strstr(err, "exchange 'huge': a message of "
				      "16777204 bytes under key 1"))
		fail("a message over the cap: %d %s", e, err);
	for (i = 0; i < 2; i++)
		for (k = 0; k < plan[i].n; k++) {
			if (plan[i].from == me) {
				uint8_t *m = malloc(plan[i].len);

				if (!m)
					fail("no memory");
				for (b = 0; b < plan[i].len; b++)
					m[b] = big_byte(me, k, b);
				out[no++] = (struct rs_rdv_msg){
					plan[i].to, k, m, plan[i].len };
			}
			if (plan[i].to == me)
				want[nw++] = (struct rs_rdv_msg){
					.peer = plan[i].from, .key = k };
		}
	rs_rdv_stats(r, &s0);
	e = rs_rdv_exchange(r, "big", out, no, want, nw, err, sizeof(err));
	if (e)
		fail("exchange: %d %s", e, err);
	rs_rdv_stats(r, &s1);
	for (i = 0; i < nw; i++) {
		const uint8_t *m = want[i].data;

		if (want[i].len != (me == 2 ? 7u << 20 : 9u << 20))
			fail("message %u: %zu bytes", i, want[i].len);
		for (b = 0; b < want[i].len; b++)
			if (m[b] != big_byte(want[i].peer, want[i].key, b))
				fail("message %u from %u: byte %zu differs",
				     want[i].key, want[i].peer, b);
	}
	if (me == 2 && s1.frames_recv - s0.frames_recv < 2)
		fail("21 MiB came in %llu frame(s)",
		     (unsigned long long)(s1.frames_recv - s0.frames_recv));
	if ((me == 1 || me == 3) && s1.frames_sent - s0.frames_sent < 2)
		fail("sent in %llu frame(s)",
		     (unsigned long long)(s1.frames_sent - s0.frames_sent));
	rs_rdv_msgs_free(want, nw);
	for (i = 0; i < no; i++)
		free(out[i].data);
	/* The queue is as it was: a later call works. */
	if (rs_rdv_barrier(r, "after", err, sizeof(err)))
		fail("barrier after: %s", err);
	rs_rdv_close(r);
	return 0;
}

/* h of 16 dies before its part of the exchange is in: every other node
 * ends with h named as lost, soon. */
static int node_xchg_lost(void)
{
	static const char *const subs[] = { "node 'h' was lost", NULL };
	struct rs_rdv *r = meet(16, 5000);
	struct rs_rdv_msg out[2] = {
		{ (me + 1) % 16, 1, "right", 5 },
		{ (me + 15) % 16, 2, "left", 4 },
	};
	struct rs_rdv_msg want[2] = {
		{ .peer = (me + 15) % 16, .key = 1 },
		{ .peer = (me + 1) % 16, .key = 2 },
	};
	char err[512];
	uint64_t t0;
	int e;

	if (rs_rdv_barrier(r, "one", err, sizeof(err)))
		fail("barrier one: %s", err);
	if (me == 7) {
		if (write(ready_fd, "k", 1) != 1)
			fail("cannot tell the parent");
		wait_go();      /* killed meanwhile */
		fail("the node that was to die lives");
	}
	t0 = now_ms();
	e = rs_rdv_exchange(r, "ring", out, 2, want, 2, err, sizeof(err));
	expect_err("exchange", e, -ECONNRESET, err, subs);
	if (now_ms() - t0 > 2500)
		fail("lost node named after %llu ms (deadline 5000)",
		     (unsigned long long)(now_ms() - t0));
	rs_rdv_close(r);
	return 0;
}

/* d comes after the deadline: the others end naming it. */
static int node_xchg_late(void)
{
	static const char *const subs[] = {
		"node 'd' did not reach exchange 'x' within 1000 ms", NULL,
	};
	struct rs_rdv *r = meet(4, 1000);
	char err[512];
	int e;

	if (me == 3)
		nap(1000 + RS_RDV_GRACE_MS + 300);
	e = rs_rdv_exchange(r, "x", NULL, 0, NULL, 0, err, sizeof(err));
	expect_err("exchange", e, -ETIMEDOUT, err, subs);
	rs_rdv_close(r);
	return 0;
}

/* Allocation @fail_at of node @victim fails (0: none): that node ends
 * with an error and a message or passes, never a crash or a leak; a
 * node that passes does every call. */
static long fail_at;
static unsigned victim;

static int node_alloc(void)
{
	struct rs_rdv_conf c = conf(2, me, 2000, params_ok, 2);
	struct rs_rdv_blob all[2];
	struct rs_rdv *r = NULL;
	char err[512] = "";
	int e, v;

	if (me == victim)
		rs_alloc_fail_at(fail_at);
	e = rs_rdv_meet(&c, &r, err, sizeof(err));
	if (!e)
		e = rs_rdv_allgather(r, "x", "ab", me + 1, all, err,
				     sizeof(err));
	if (!e) {
		if (all[0].len != 1 || all[1].len != 2)
			fail("allgather: %zu and %zu bytes", all[0].len,
			     all[1].len);
		rs_rdv_blobs_free(all, 2);
		e = rs_rdv_barrier(r, "y", err, sizeof(err));
	}
	if (!e)
		e = rs_rdv_gather(r, "z", "c", 1, me ? NULL : all, err,
				  sizeof(err));
	if (!e && !me)
		rs_rdv_blobs_free(all, 2);
	if (!e) {
		/* Two for the other node, one for this one itself. */
		struct rs_rdv_msg out[3] = {
			{ !me, 1, "p", 1 }, { !me, 2, "qq", 2 },
			{ me, 3, "rrr", 3 },
		};
		struct rs_rdv_msg want[3] = {
			{ .peer = !me, .key = 2 }, { .peer = !me, .key = 1 },
			{ .peer = me, .key = 3 },
		};

		e = rs_rdv_exchange(r, "w", out, 3, want, 3, err,
				    sizeof(err));
		if (!e && (want[0].len != 2 || want[1].len != 1 ||
			   want[2].len != 3 ||
			   memcmp(want[0].data, "qq", 2) ||
			   memcmp(want[2].data, "rrr", 3)))
			fail("exchange: %zu, %zu and %zu bytes", want[0].len,
			     want[1].len, want[2].len);
		rs_rdv_msgs_free(want, 3);
	}
	if (!e)
		e = rs_rdv_verdict(r, 0, &v, err, sizeof(err));
	rs_rdv_close(r);
	if (e && !err[0])
		fail("error %d without a message", e);
	if (me == victim && rs_alloc_count() < fail_at)
		return e ? 1 : 10;      /* passed: none failed */
	return e ? 1 : 0;
}

/* For each role, allocation 1, 2, ... fails until one run makes fewer. */
static int run_alloc(void)
{
	int bad = 0;

	for (victim = 0; victim < 2; victim++) {
		for (fail_at = 1; fail_at < 1000; fail_at++) {
			pid_t p[2];
			int st[2];
			unsigned i;

			port = free_port();
			snprintf(leader_addr, sizeof(leader_addr), "%s:%d",
				 inet_ntoa(host), port);
			fflush(NULL);   /* nothing printed twice */
			if (getenv("RDV_TEST_TIMES"))
				fprintf(stderr, "%u %ld %llu\n", victim,
					fail_at,
					(unsigned long long)now_ms());
			for (i = 0; i < 2; i++) {
				p[i] = fork();
				if (p[i] < 0)
					return 3;
				if (!p[i]) {
					me = i;
					alarm(HANG_S);
					exit(node_alloc());
				}
			}
			/* The failing one first: once it has given up,
			 * the other may wait out its deadline (tested by
			 * rdv.absent); it is stopped instead. */
			waitpid(p[victim], &st[victim], 0);
			if (WIFEXITED(st[victim]) &&
			    WEXITSTATUS(st[victim]) == 1)
				kill(p[!victim], SIGKILL);
			waitpid(p[!victim], &st[!victim], 0);
			if (!WIFEXITED(st[victim]) ||
			    (WEXITSTATUS(st[victim]) != 0 &&
			     WEXITSTATUS(st[victim]) != 1 &&
			     WEXITSTATUS(st[victim]) != 10)) {
				fprintf(stderr, "alloc: node %u, allocation "
					"%ld failed: status 0x%x\n", victim,
					fail_at, st[victim]);
				bad = 1;
			}
			if (WIFEXITED(st[victim]) &&
			    WEXITSTATUS(st[victim]) != 1 &&
			    (!WIFEXITED(st[!victim]) ||
			     WEXITSTATUS(st[!victim]))) {
				fprintf(stderr, "alloc: node %u, allocation "
					"%ld: node %u passed, node %u ended "
					"with status 0x%x\n", victim, fail_at,
					victim, !victim, st[!victim]);
				bad = 1;
			}
			if (WIFEXITED(st[victim]) &&
			    WEXITSTATUS(st[victim]) == 10)
				break;
		}
		printf("alloc: node %u: allocations 1 to %ld failed in "
		       "turn\n", victim, fail_at - 1);
	}
	printf("alloc: %s\n", bad ? "FAILED" : "passed");
	return bad;
}

/* requires.uniform: b runs another kernel, c another driver; nothing
 * else differs, so the meeting fails with -EMEDIUMTYPE (exit 3, not
 * 2), naming each node and both values. */
static int node_uniform(void)
{
	static const char *const ua[] = { "driver=mlx5_core",
					   "kernel=6.1.0-18-amd64" };
	static const char *const ub[] = { "driver=mlx5_core",
					   "kernel=6.1.0-21-amd64" };
	static const char *const uc[] = { "driver=irdma",
					   "kernel=6.1.0-18-amd64" };
	static const char *const subs[] = {
		"node 'b' has kernel=6.1.0-21-amd64, node 'a' has "
		"kernel=6.1.0-18-amd64 (requires.uniform)",
		"node 'c' has driver=irdma, node 'a' has driver=mlx5_core "
		"(requires.uniform)",
		NULL,
	};
	struct rs_rdv_conf c = conf(3, me, 5000, params_ok, 2);
	struct rs_rdv *r = NULL;
	char err[1024];
	int e;

	c.uniform = me == 0 ? ua : me == 1 ? ub : uc;
	c.n_uniform = 2;
	e = rs_rdv_meet(&c, &r, err, sizeof(err));
	expect_err("meet", e, -EMEDIUMTYPE, err, subs);
	if (r)
		fail("meet failed but gave a side");
	return 0;
}


/* --- PMIx: under mpirun, one process per node ------------------------- */

static unsigned n_pmix;         /* the job's size */

static int pmix_basic(void)
{
	return node_basic(n_pmix);
}

/* Each node sends its ring neighbours one message each, and a third
 * to nobody who wants it; each gets exactly the two meant for it. */
static int pmix_exchange(void)
{
	unsigned n = n_pmix, next = (me + 1) % n, prev = (me + n - 1) % n;
	struct rs_rdv *r = meet(n, 5000);
	char a[64], b[64], c[8] = "unread", err[512];
	struct rs_rdv_msg out[3] = {
		{ next, 7, a, 0 }, { prev, 9, b, 0 }, { next, 11, c, 6 },
	};
	struct rs_rdv_msg want[2] = { { prev, 7, NULL, 0 },
				      { next, 9, NULL, 0 } };
	char w0[64], w1[64];
	int e;

	out[0].len = (size_t)sprintf(a, "%s to %s", names[me], names[next]);
	out[1].len = (size_t)sprintf(b, "%s back to %s", names[me],
				     names[prev]);
	sprintf(w0, "%s to %s", names[prev], names[me]);
	sprintf(w1, "%s back to %s", names[next], names[me]);
	e = rs_rdv_exchange(r, "ring", out, 3, want, 2, err, sizeof(err));
	if (e)
		fail("exchange: %d %s", e, err);
	if (want[0].len != strlen(w0) || memcmp(want[0].data, w0, want[0].len))
		fail("exchange: from %s got %.*s", names[prev],
		     (int)want[0].len, (char *)want[0].data);
	if (want[1].len != strlen(w1) || memcmp(want[1].data, w1, want[1].len))
		fail("exchange: from %s got %.*s", names[next],
		     (int)want[1].len, (char *)want[1].data);
	rs_rdv_msgs_free(want, 2);
	/* A message never sent: named, node and key. */
	want[0] = (struct rs_rdv_msg){ prev, 42, NULL, 0 };
	snprintf(a, sizeof(a), "node '%s' sent node '%s' nothing under key "
		 "42", names[prev], names[me]);
	{
		const char *subs[] = { a, NULL };

		e = rs_rdv_exchange(r, "missing", out, 1, want, 1, err,
				    sizeof(err));
		expect_err("exchange of a message never sent", e, -EPROTO,
			   err, subs);
	}
	rs_rdv_close(r);
	/* Two messages under one key, where one is wanted: named. */
	r = meet(n, 5000);
	out[1] = (struct rs_rdv_msg){ next, 5, b, 1 };
	out[2] = (struct rs_rdv_msg){ next, 5, c, 1 };
	want[0] = (struct rs_rdv_msg){ prev, 5, NULL, 0 };
	snprintf(a, sizeof(a), "node '%s' sent node '%s' two messages under "
		 "key 5", names[prev], names[me]);
	{
		const char *subs[] = { a, NULL };

		e = rs_rdv_exchange(r, "twice", out + 1, 2, want, 1, err,
				    sizeof(err));
		expect_err("exchange of two under one key", e, -EPROTO, err,
			   subs);
		if (want[0].data)
			fail("a failed exchange left data in a want");
	}
	rs_rdv_close(r);
	return 0;
}

/* The scenario has one node more than the launcher started. */
static int pmix_size(void)
{
	struct rs_rdv_conf c = conf(n_pmix + 1, me, 3000, params_ok, 2);
	struct rs_rdv *r = NULL;
	char err[1024], want[128];
	const char *subs[] = { want, NULL };
	int e;

	snprintf(want, sizeof(want), "PMIx started %u processes", n_pmix);
	e = rs_rdv_meet(&c, &r, err, sizeof(err));
	expect_err("meet", e, -EINVAL, err, subs);
	if (r)
		fail("meet failed but gave a side");
	return 0;
}

/* The last node is killed (SIGKILL) after a barrier: the others name
 * it at the next one.  mpirun must not end the job for it
 * (--enable-recovery).  Open MPI completes the fence without it when
 * it knew of the death as the fence began ("was lost", at once), and
 * otherwise waits for it ("did not reach", at the deadline). */
static int pmix_killed(void)
{
	char lost[64], absent[64], err[512];
	const char *subs[] = { lost, NULL }, *late[] = { absent, NULL };
	struct rs_rdv *r = meet(n_pmix, 3000);
	int e, want;

	snprintf(lost, sizeof(lost), "node '%s' was lost",
		 names[n_pmix - 1]);
	snprintf(absent, sizeof(absent), "node '%s' did not reach barrier "
		 "'two'", names[n_pmix - 1]);
	if (rs_rdv_barrier(r, "one", err, sizeof(err)))
		fail("barrier one: %s", err);
	if (me == n_pmix - 1)
		raise(SIGKILL);
	e = rs_rdv_barrier(r, "two", err, sizeof(err));
	want = e == -ETIMEDOUT ? -ETIMEDOUT : -ECONNRESET;
	expect_err("barrier two", e, want, err,
		   want == -ETIMEDOUT ? late : subs);
	e = rs_rdv_verdict(r, RS_EXIT_PASSED, &e, err, sizeof(err));
	expect_err("verdict", e, want, err,
		   want == -ETIMEDOUT ? late : subs);
	rs_rdv_close(r);
	return 0;
}

/* The last node comes 2.5 s late to a meeting with a deadline of 1 s:
 * the others end at the deadline naming it; it fails as well. */
static int pmix_absent(void)
{
	char want[64];
	const char *subs[] = { want, NULL };
	struct rs_rdv_conf c = conf(n_pmix, me, 1000, params_ok, 2);
	struct rs_rdv *r = NULL;
	uint64_t t0;
	char err[1024];
	int e;

	snprintf(want, sizeof(want), "node '%s' did not reach the meeting",
		 names[n_pmix - 1]);
	/* Started together: mpirun's processes may start a second apart
	 * on a loaded host (sanitized, more), and the late node's 2.5 s
	 * would then not be late. */
	rs_rdv_close(meet(n_pmix, 10000));
	if (me == n_pmix - 1)
		nap(2500);
	t0 = now_ms();
	e = rs_rdv_meet(&c, &r, err, sizeof(err));
	if (me == n_pmix - 1) {
		if (!e)
			fail("the late node met nobody, yet met");
		fprintf(stderr, "%s: node %u: late: %s\n", case_name, me, err);
	} else {
		expect_err("meet", e, -ETIMEDOUT, err, subs);
		if (now_ms() - t0 < 900 || now_ms() - t0 > 4000)
			fail("ended after %llu ms, the deadline is 1000",
			     (unsigned long long)(now_ms() - t0));
	}
	if (r)
		rs_rdv_close(r);
	return 0;
}

/* SIGINT to b (a timer of its own) while it waits in a fence for the
 * others, who come late: b says so and aborts with 130, and the others
 * hear why when they come. */
static int pmix_interrupted(void)
{
	static const char *const mine[] = {
		"node 'b' was interrupted (signal 2)", NULL,
	};
	static const char *const theirs[] = {
		"node 'b' failed: interrupted by signal 2", NULL,
	};
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL,
			       .sigev_signo = SIGINT };
	struct itimerspec in = { .it_value = { 0, 200 * 1000 * 1000 } };
	struct rs_rdv *r;
	timer_t t;
	char err[512];
	uint64_t t0;
	int e;

	if (me == 1)
		rs_signals_install();
	r = meet(n_pmix, 5000);
	if (me == 1 && (timer_create(CLOCK_MONOTONIC, &ev, &t) ||
			timer_settime(t, 0, &in, NULL)))
		fail("timer: %s", strerror(errno));
	t0 = now_ms();
	if (me != 1)
		nap(600);
	e = rs_rdv_barrier(r, "one", err, sizeof(err));
	if (me == 1) {
		expect_err("barrier", e, -EINTR, err, mine);
		rs_rdv_abort(r, 130, "interrupted by signal 2");
	} else {
		expect_err("barrier", e, -ECONNABORTED, err, theirs);
		if (rs_rdv_fail_code(r) != 130)
			fail("the abort's exit code: %d, not 130",
			     rs_rdv_fail_code(r));
	}
	if (now_ms() - t0 > 1500)
		fail("ended after %llu ms (deadline 5000)",
		     (unsigned long long)(now_ms() - t0));
	rs_rdv_close(r);
	return 0;
}

/*
 * Meetings one after another in one process, as a matrix's cells or
 * explore's runs have them: the last node closes each one 300 ms after
 * the others, who are by then in the next meeting's fence.  A close
 * that ended this process's PMIx client ended their fence too ("a node
 * was lost", PMIX_ERR_PARTIAL_SUCCESS).
 */
static int pmix_again(void)
{
	char err[512], tag[16];
	unsigned i;

	for (i = 0; i < 4; i++) {
		struct rs_rdv *r = meet(n_pmix, 5000);
		int e;

		snprintf(tag, sizeof(tag), "round %u", i);
		e = rs_rdv_barrier(r, tag, err, sizeof(err));
		if (e)
			fail("%s: %d %s", tag, e, err);
		if (me == n_pmix - 1)
			nap(300);
		rs_rdv_close(r);
	}
	return 0;
}

/* A hung process says where it hung (its stack, from backtrace()),
 * then dies of the alarm as before. */
static void on_hang(int sig)
{
	static const char m[] = "rdv_test: hung; the stack:\n";
	void *at[32];
	int n = backtrace(at, 32);

	if (write(STDERR_FILENO, m, sizeof(m) - 1) < 0)
		_exit(128 + sig);
	backtrace_symbols_fd(at, n, STDERR_FILENO);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void hang_handler(void)
{
	void *at[1];

	backtrace(at, 1);       /* loads libgcc now, not in the handler */
	signal(SIGALRM, on_hang);
}

static const struct {
	const char *name;
	int (*node)(void);
} pmix_cases[] = {
	{ "again", pmix_again },
	{ "interrupted", pmix_interrupted },
	{ "absent", pmix_absent },
	{ "basic", pmix_basic },
	{ "mismatch", node_mismatch },
	{ "uniform", node_uniform },
	{ "exchange", pmix_exchange },
	{ "size", pmix_size },
	{ "abort", node_abort },
	{ "tags", node_tags },
	{ "killed", pmix_killed },
};

/* `rdv_test pmix CASE`: this process is the node of its PMIx rank. */
static int run_pmix(const char *name)
{
	const char *rank = getenv("PMIX_RANK");
	const char *size = getenv("OMPI_COMM_WORLD_SIZE");
	unsigned c;

	for (c = 0; c < sizeof(pmix_cases) / sizeof(*pmix_cases); c++)
		if (!strcmp(name, pmix_cases[c].name))
			break;
	if (c == sizeof(pmix_cases) / sizeof(*pmix_cases)) {
		fprintf(stderr, "rdv_test pmix: no case '%s'\n", name);
		return 2;
	}
	if (!rank || !size) {
		fprintf(stderr, "rdv_test pmix: run me under mpirun "
			"(PMIX_RANK, OMPI_COMM_WORLD_SIZE)\n");
		return 2;
	}
	case_name = name;
	via = RS_RDV_PMIX;
	me = (unsigned)atoi(rank);
	n_pmix = (unsigned)atoi(size);
	if (n_pmix < 1 || n_pmix > 4 || me >= n_pmix)
		fail("%u processes: the cases have 1 to 4", n_pmix);
	hang_handler();
	alarm(HANG_S);
	if (pmix_cases[c].node())
		return 1;
	printf("%s: node %u passed\n", name, me);
	return 0;
}

/* Outside a launcher: auto meets by TCP at once; pmix says no server
 * answered (-EHOSTUNREACH), also when PMIX_NAMESPACE lies. */
static int node_auto(void)
{
	struct rs_rdv_conf c;
	struct rs_rdv *r = NULL;
	static const char *const subs[] = { "no PMIx server answered", NULL };
	char err[1024];
	uint64_t t0;
	int e;

	if (me == 0) {
		via = RS_RDV_PMIX;
		c = conf(1, 0, 3000, params_ok, 2);
		t0 = now_ms();
		e = rs_rdv_meet(&c, &r, err, sizeof(err));
		expect_err("pmix, no launcher", e, -EHOSTUNREACH, err, subs);
		if (now_ms() - t0 > 2000)
			fail("pmix took %llu ms to say so",
			     (unsigned long long)(now_ms() - t0));
	}
	via = RS_RDV_AUTO;
	t0 = now_ms();
	r = meet(2, 3000);
	if (strcmp(rs_rdv_via_name(r), "tcp"))
		fail("auto without a launcher: %s", rs_rdv_via_name(r));
	if (now_ms() - t0 > 500)
		fail("auto took %llu ms", (unsigned long long)(now_ms() - t0));
	if (rs_rdv_barrier(r, "one", err, sizeof(err)))
		fail("barrier: %s", err);
	rs_rdv_close(r);
	return 0;
}

static const struct {
	const char *name;
	int (*node)(void);
	unsigned n;             /* processes */
	unsigned absent;        /* one not started: its index + 1 */
	int sig;                /* sent to the victim when it says ready */
	unsigned victim;
} cases[] = {
	{ "basic2", node_basic2, 2, 0, 0, 0 },
	{ "basic4", node_basic4, 4, 0, 0, 0 },
	{ "mismatch", node_mismatch, 3, 0, 0, 0 },
	{ "uniform", node_uniform, 3, 0, 0, 0 },
	{ "absent", node_absent, 3, 3, 0, 0 },
	{ "killed", node_killed, 3, 0, SIGKILL, 2 },
	{ "interrupted", node_interrupted, 3, 0, SIGINT, 1 },
	{ "leader_last", node_leader_last, 3, 0, 0, 0 },
	{ "abort", node_abort, 3, 0, 0, 0 },
	{ "strangers", node_strangers, 3, 0, 0, 0 },
	{ "bad_member", node_bad_member, 3, 0, 0, 0 },
	{ "tags", node_tags, 2, 0, 0, 0 },
	{ "key_stranger", node_key_stranger, 3, 0, 0, 0 },
	{ "fake_leader", node_fake_leader, 2, 0, 0, 0 },
	{ "forged", node_forged, 4, 0, 0, 0 },
	{ "flood", node_flood, 3, 0, 0, 0 },
	{ "no_key", node_no_key, 1, 0, 0, 0 },
	{ "interrupted_meet", node_interrupted_meet, 3, 3, 0, 0 },
	{ "bench", node_bench, 4, 0, 0, 0 },
	{ "auto", node_auto, 2, 0, 0, 0 },
	{ "xchg_ring4", node_xchg_ring4, 4, 0, 0, 0 },
	{ "xchg_mesh4", node_xchg_mesh4, 4, 0, 0, 0 },
	{ "xchg_ring16", node_xchg_ring16, 16, 0, 0, 0 },
	{ "xchg_mesh16", node_xchg_mesh16, 16, 0, 0, 0 },
	{ "xchg_unsent", node_xchg_unsent, 4, 0, 0, 0 },
	{ "xchg_bad_rank", node_xchg_bad_rank, 4, 0, 0, 0 },
	{ "xchg_big", node_xchg_big, 4, 0, 0, 0 },
	{ "xchg_lost", node_xchg_lost, 16, 0, SIGKILL, 7 },
	{ "xchg_late", node_xchg_late, 4, 0, 0, 0 },
};

int main(int argc, char **argv)
{
	pid_t pids[MAX_NODES];
	int ready[2], go[2], bad = 0;
	unsigned i, c;

	if (argc == 3 && !strcmp(argv[1], "pmix"))
		return run_pmix(argv[2]);
	if (argc != 2)
		goto usage;
	for (c = 0; c < sizeof(cases) / sizeof(*cases); c++)
		if (!strcmp(argv[1], cases[c].name))
			break;
	if (c == sizeof(cases) / sizeof(*cases) && strcmp(argv[1], "alloc"))
		goto usage;
	case_name = argv[1];
	if (!getenv("RDV_TEST_HOST") ||
	    inet_pton(AF_INET, getenv("RDV_TEST_HOST"), &host) != 1)
		host.s_addr = htonl(INADDR_LOOPBACK);
	if (!strcmp(case_name, "alloc"))
		return run_alloc();
	port = free_port();
	port2 = free_port();
	snprintf(leader_addr, sizeof(leader_addr), "%s:%d",
		 inet_ntoa(host), port);
	if (pipe(ready) || pipe(go))
		return 3;
	ready_fd = ready[1];
	go_fd = go[0];
	go_wr = go[1];
	for (i = 0; i < cases[c].n; i++) {
		pids[i] = -1;
		if (cases[c].absent == i + 1)
			continue;
		pids[i] = fork();
		if (pids[i] < 0)
			return 3;
		if (!pids[i]) {
			me = i;
			alarm(HANG_S);
			/* exit(): the leak check of a sanitized build runs */
			exit(cases[c].node());
		}
	}
	if (!strcmp(case_name, "fake_leader") || !strcmp(case_name, "forged")) {
		char k;

		/* The leader by hand listens: the node may dial now. */
		if (read(ready[0], &k, 1) != 1 || write(go[1], "g", 1) != 1)
			return 3;
	}
	if (cases[c].sig) {
		char k;

		if (read(ready[0], &k, 1) != 1)
			return 3;
		nap(100);       /* it is in the barrier now, or nearly */
		kill(pids[cases[c].victim], cases[c].sig);
		/* Dead (its sockets closed), or aborted: then the late
		 * node goes. */
		if (cases[c].sig == SIGKILL) {
			int st;

			waitpid(pids[cases[c].victim], &st, 0);
			if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL) {
				fprintf(stderr, "node %u was not killed\n",
					cases[c].victim);
				bad = 1;
			}
			pids[cases[c].victim] = -1;
		} else if (read(ready[0], &k, 1) != 1) {
			return 3;
		}
		if (write(go[1], "g", 1) != 1)
			return 3;
	}
	for (i = 0; i < cases[c].n; i++) {
		int st;

		if (pids[i] < 0 || waitpid(pids[i], &st, 0) < 0)
			continue;
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "%s: node %u ended with %s %d\n",
				case_name, i, WIFEXITED(st) ? "exit" :
				"signal", WIFEXITED(st) ? WEXITSTATUS(st) :
				WTERMSIG(st));
			bad = 1;
		}
	}
	printf("%s: %s\n", case_name, bad ? "FAILED" : "passed");
	return bad;
usage:
	fprintf(stderr, "usage: rdv_test CASE\n");
	return 2;
}
