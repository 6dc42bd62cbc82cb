// SPDX-License-Identifier: MIT
/*
 * The rendezvous between real processes on 127.0.0.1 (or the IPv4
 * address in RDV_TEST_HOST): `rdv_test CASE` forks one process per
 * node (and strangers where the case has them),
 * each checks what it got, and the case passes when every process does.
 * A process that hangs is killed by its alarm, which fails the case.
 */
#include <arpa/inet.h>
#include <errno.h>
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
#include "exit.h"
#include "rdv_wire.h"
#include "rendezvous.h"
#include "signals.h"

#define MAX_NODES 8
#define HANG_S 20       /* no case takes this long */

static const char *names4[] = { "a", "b", "c", "d" };
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

static struct rs_rdv_conf conf(unsigned n, unsigned self, uint64_t ms,
			       const char *const *params, unsigned np)
{
	struct rs_rdv_conf c = {
		.nodes = names4, .n_nodes = n, .self = self,
		.leader_addr = leader_addr, .deadline_ms = ms,
		.scenario_hash = "5e1f00d5", .params = params,
		.n_params = np,
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
		len += (size_t)sprintf(buf + len, "node-%s;", names4[i]);
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

	if (me == 0 || me == 2) {
		struct rs_rdv_blob all[2];
		const char *x = me ? "b" : "a";
		struct rs_rdv_conf c = conf(2, me / 2, 4000, params_ok, 2);
		struct rs_rdv *r = NULL;
		char err[512];
		int e;

		if (me == 2)
			wait_go();      /* the strangers have knocked */
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
	/* The last says nothing: b may come now, and once they have met
	 * the leader closes it. */
	if (write(go_wr, "g", 1) != 1)
		fail("cannot tell b");
	if (stranger_frame("", 0) != 0)
		fail("the silent stranger was not closed");
	return 0;
}

/* Node c joins by hand with a right hello, then sends a frame that
 * announces 4 GiB: a and b name it. */
static int node_bad_member(void)
{
	static const char *const subs[] = {
		"node 'c' sent a bad frame: a frame of 4294967295 bytes", NULL,
	};
	static const char hello[] =
		"{\"v\":1,\"rank\":2,\"node\":\"c\",\"nodes\":[\"a\",\"b\","
		"\"c\"],\"hash\":\"5e1f00d5\",\"params\":[\"iters=10\","
		"\"size=65536\"]}";
	static const uint8_t huge[] = { 0xff, 0xff, 0xff, 0xff, 0x13, 0 };
	struct rs_rdv *r;
	char err[512];
	int e;

	if (me == 2) {
		uint8_t *m, got[64];
		size_t len;

		if (rdv_encode(RDV_HELLO, NULL, &(struct rdv_piece){
			hello, strlen(hello) }, 1, &m, &len))
			fail("encode");
		/* stranger_frame() waits for the close: send by hand. */
		struct sockaddr_in a = {
			.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
			.sin_addr = host };
		int fd = -1;
		uint64_t t0 = now_ms();

		while (now_ms() - t0 < 3000) {
			fd = socket(AF_INET, SOCK_STREAM, 0);
			if (!connect(fd, (struct sockaddr *)&a, sizeof(a)))
				break;
			close(fd);
			fd = -1;
			nap(20);
		}
		if (fd < 0 || write(fd, m, len) != (ssize_t)len)
			fail("cannot say hello");
		rs_free(m);
		/* The meeting's answer: 6 bytes, type MET. */
		if (read(fd, got, 6) != 6 || got[4] != RDV_MET)
			fail("no meeting");
		if (write(fd, huge, sizeof(huge)) != sizeof(huge))
			fail("write");
		while (read(fd, got, sizeof(got)) > 0)
			;
		close(fd);
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
	{ "absent", node_absent, 3, 3, 0, 0 },
	{ "killed", node_killed, 3, 0, SIGKILL, 2 },
	{ "interrupted", node_interrupted, 3, 0, SIGINT, 1 },
	{ "leader_last", node_leader_last, 3, 0, 0, 0 },
	{ "abort", node_abort, 3, 0, 0, 0 },
	{ "strangers", node_strangers, 3, 0, 0, 0 },
	{ "bad_member", node_bad_member, 3, 0, 0, 0 },
	{ "tags", node_tags, 2, 0, 0, 0 },
	{ "bench", node_bench, 4, 0, 0, 0 },
};

int main(int argc, char **argv)
{
	pid_t pids[MAX_NODES];
	int ready[2], go[2], bad = 0;
	unsigned i, c;

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
