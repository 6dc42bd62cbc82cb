// SPDX-License-Identifier: MIT
/*
 * The control plane's cost without a device (docs/nodes.md, "What the
 * exchange costs"): N nodes run the calls a pattern's plan makes across
 * them, with fake descriptions of a real size, and each says what it
 * received and how long each phase took.
 *
 *   cplane --pattern ring -n 64                 forks 64 local nodes
 *   mpirun -np 64 cplane --pattern ring         one node per rank
 *   cplane --pattern mesh -n 16 --scheme allgather
 *
 * The phases, as a run makes them: meet; "connect", one description
 * (an rs_peer's size) per side of each connection for the other side;
 * a barrier; "remote objects", one MR description per connection for
 * the other side; two step barriers; an agreement on a code; the
 * verdict.  --scheme exchange (the default) sends each description
 * only to its node (rs_rdv_exchange()); --scheme allgather is the
 * scheme before it, one allgather per connection and one for the
 * remote objects, every node getting every node's blob.
 *
 * Every node gathers its figures to the leader after the phases, and
 * the leader prints one line per rank and a summary.  Exit 0, or 3 when
 * a node failed (its message on stderr), 2 for a usage error.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "pattern.h"
#include "peer.h"
#include "rendezvous.h"

/* An rs_peer as it travels (QPN, PSN, GID, LID, MTU, the port facts
 * uniformity compares) and the nodes layer's far_obj of an MR: the
 * sizes a real run sends. */
#define PEER_LEN sizeof(struct rs_peer)
#define FAR_LEN 56

enum phase { PH_MEET, PH_CONNECT, PH_READY, PH_REMOTE, PH_STEPS, PH_AGREE,
	     PH_VERDICT, PH_N };
static const char *const phase_names[PH_N] = {
	"meet", "connect", "ready", "remote", "steps", "agree", "verdict",
};

/* One node's figures, gathered to the leader. */
struct figures {
	uint32_t rank, conns;
	uint64_t recv[PH_N], sent[PH_N], calls[PH_N], ns[PH_N];
};

static struct {
	enum rs_pattern pattern;
	unsigned n, rank;
	bool allgather, forked;
	const char *leader;
	enum rs_rdv_via via;
	uint64_t deadline_ms;
	bool quiet;
} o = {
	.pattern = RS_PATTERN_RING, .deadline_ms = 600000,
	.via = RS_RDV_TCP,
};

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int die(struct rs_rdv *r, const char *what, int e, const char *err)
{
	fprintf(stderr, "cplane: rank %u: %s: %s (%d)\n", o.rank, what, err,
		e);
	if (r) {
		rs_rdv_abort(r, 3, err);
		rs_rdv_close(r);
	}
	return 3;
}

/* The connections pattern @o.pattern makes that this node is on: the
 * pair numbers and the node at the other end. */
struct conn {
	uint32_t k;
	unsigned far;
};

static int my_conns(struct conn **ret, unsigned *ret_n)
{
	struct conn *c;
	uint64_t pairs, k;
	unsigned from, to, n = 0;
	char why[128];

	if (rs_pattern_count(o.pattern, o.n, 0, &pairs, why, sizeof(why))) {
		fprintf(stderr, "cplane: %s over %u nodes: %s\n",
			rs_pattern_name(o.pattern), o.n, why);
		return -EINVAL;
	}
	c = calloc(o.n * 2 + 1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (k = 0; k < pairs; k++) {
		rs_pattern_pair(o.pattern, o.n, 0, k, &from, &to);
		if (from == to || (from != o.rank && to != o.rank))
			continue;
		c[n++] = (struct conn){ (uint32_t)k,
					from == o.rank ? to : from };
	}
	*ret = c;
	*ret_n = n;
	return 0;
}

/* Send each connection's other side a description of @len bytes, want
 * its own back: one exchange. */
static int swap_exchange(struct rs_rdv *r, const char *tag,
			 const struct conn *c, unsigned n, size_t len)
{
	struct rs_rdv_msg *out = calloc(n + 1, sizeof(*out));
	struct rs_rdv_msg *want = calloc(n + 1, sizeof(*want));
	char *desc = malloc(len), err[1024];
	unsigned i;
	int e;

	if (!out || !want || !desc)
		return die(r, tag, -ENOMEM, "no memory");
	memset(desc, 0x5a, len);
	for (i = 0; i < n; i++) {
		out[i] = (struct rs_rdv_msg){ c[i].far, c[i].k, desc, len };
		want[i] = (struct rs_rdv_msg){ .peer = c[i].far,
					       .key = c[i].k };
	}
	e = rs_rdv_exchange(r, tag, out, n, want, n, err, sizeof(err));
	rs_rdv_msgs_free(want, n);
	free(out);
	free(want);
	free(desc);
	return e ? die(r, tag, e, err) : 0;
}

/* The scheme before the exchange: one allgather per connection of the
 * pattern, every node taking part (the two sides with a description,
 * the rest with nothing), then one allgather of every node's MRs. */
static int connect_allgather(struct rs_rdv *r)
{
	struct rs_rdv_blob *all = calloc(o.n, sizeof(*all));
	char desc[PEER_LEN], tag[64], err[1024];
	uint64_t pairs, k;
	unsigned from, to;
	int e;

	if (!all)
		return die(r, "connect", -ENOMEM, "no memory");
	memset(desc, 0x5a, sizeof(desc));
	rs_pattern_count(o.pattern, o.n, 0, &pairs, err, sizeof(err));
	for (k = 0; k < pairs; k++) {
		bool on;

		rs_pattern_pair(o.pattern, o.n, 0, k, &from, &to);
		on = from == o.rank || to == o.rank;
		snprintf(tag, sizeof(tag), "object qp%" PRIu64, k);
		e = rs_rdv_allgather(r, tag, desc, on ? sizeof(desc) : 0, all,
				     err, sizeof(err));
		if (e) {
			free(all);
			return die(r, tag, e, err);
		}
		rs_rdv_blobs_free(all, o.n);
	}
	free(all);
	return 0;
}

static int remote_allgather(struct rs_rdv *r, unsigned n_conns)
{
	struct rs_rdv_blob *all = calloc(o.n, sizeof(*all));
	char *mine = calloc(n_conns + 1, FAR_LEN), err[1024];
	int e;

	if (!all || !mine)
		return die(r, "remote objects", -ENOMEM, "no memory");
	e = rs_rdv_allgather(r, "remote objects", mine, n_conns * FAR_LEN,
			     all, err, sizeof(err));
	rs_rdv_blobs_free(all, o.n);
	free(all);
	free(mine);
	return e ? die(r, "remote objects", e, err) : 0;
}

static int agree_allgather(struct rs_rdv *r)
{
	struct rs_rdv_blob *all = calloc(o.n, sizeof(*all));
	int32_t v = 0;
	char err[1024];
	int e;

	if (!all)
		return die(r, "agree", -ENOMEM, "no memory");
	e = rs_rdv_allgather(r, "agree", &v, sizeof(v), all, err,
			     sizeof(err));
	rs_rdv_blobs_free(all, o.n);
	free(all);
	return e ? die(r, "agree", e, err) : 0;
}

static void mark(struct rs_rdv *r, struct figures *f, enum phase p,
		 struct rs_rdv_stats *s0, uint64_t t0)
{
	struct rs_rdv_stats s;

	rs_rdv_stats(r, &s);
	f->recv[p] = s.bytes_recv - s0->bytes_recv;
	f->sent[p] = s.bytes_sent - s0->bytes_sent;
	f->calls[p] = s.calls - s0->calls;
	f->ns[p] = now_ns() - t0;
	*s0 = s;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t total(const uint64_t *v, bool meet)
{
	uint64_t t = 0;
	unsigned p;

	for (p = meet ? 0 : 1; p < PH_N; p++)
		t += v[p];
	return t;
}

/* The leader's report: a line per rank, then the summary.  Bytes
 * received per rank exclude the meeting (the same for every scheme) and
 * the leader, through which a star moves everything. */
static void report(const struct figures *f)
{
	uint64_t *v = calloc(o.n, sizeof(*v)), ph_max[PH_N] = { 0 };
	unsigned i, p, m = o.n > 1 ? o.n - 1 : 1;

	if (!v)
		return;
	for (i = 0; i < o.n; i++) {
		if (!o.quiet) {
			printf("rank %u: conns %u recv %" PRIu64 " B sent %"
			       PRIu64 " B calls %" PRIu64, f[i].rank,
			       f[i].conns, total(f[i].recv, false),
			       total(f[i].sent, false),
			       total(f[i].calls, false));
			for (p = 0; p < PH_N; p++)
				printf(" %s %.2f ms", phase_names[p],
				       f[i].ns[p] / 1e6);
			printf("\n");
		}
		for (p = 0; p < PH_N; p++)
			if (f[i].ns[p] > ph_max[p])
				ph_max[p] = f[i].ns[p];
	}
	for (i = 0; i < m; i++)
		v[i] = total(f[o.n > 1 ? i + 1 : 0].recv, false);
	qsort(v, m, sizeof(*v), cmp_u64);
	printf("summary: %s n %u scheme %s: recv per rank (leader aside) "
	       "median %" PRIu64 " B max %" PRIu64 " B; leader recv %" PRIu64
	       " B sent %" PRIu64 " B; calls %" PRIu64 "; time per phase "
	       "(slowest rank):", rs_pattern_name(o.pattern), o.n,
	       o.allgather ? "allgather" : "exchange", v[m / 2], v[m - 1],
	       total(f[0].recv, false), total(f[0].sent, false),
	       total(f[0].calls, false));
	for (p = 0; p < PH_N; p++)
		printf(" %s %.1f ms", phase_names[p], ph_max[p] / 1e6);
	printf("\n");
	fflush(stdout);
	free(v);
}

static int node(void)
{
	char **names = calloc(o.n, sizeof(*names)), err[1024];
	struct rs_rdv_conf c = {
		.via = o.via,
		.n_nodes = o.n, .self = o.rank, .leader_addr = o.leader,
		.deadline_ms = o.deadline_ms, .scenario_hash = "c91a7e",
	};
	struct figures f = { .rank = o.rank };
	struct rs_rdv_blob *all = NULL;
	struct rs_rdv_stats s0 = { 0 };
	struct rs_rdv *r = NULL;
	struct conn *cs = NULL;
	unsigned i, n_conns;
	uint64_t t;
	int e, v;

	if (!names)
		return 3;
	for (i = 0; i < o.n; i++)
		if (asprintf(&names[i], "n%u", i) < 0)
			return 3;
	c.nodes = (const char *const *)names;
	if (my_conns(&cs, &n_conns))
		return 2;
	f.conns = n_conns;
	t = now_ns();
	e = rs_rdv_meet(&c, &r, err, sizeof(err));
	if (e)
		return die(r, "meet", e, err);
	mark(r, &f, PH_MEET, &s0, t);

	t = now_ns();
	e = o.allgather ? connect_allgather(r) :
	    swap_exchange(r, "connect", cs, n_conns, PEER_LEN);
	if (e)
		return e;
	mark(r, &f, PH_CONNECT, &s0, t);

	t = now_ns();
	e = rs_rdv_barrier(r, "connected", err, sizeof(err));
	if (e)
		return die(r, "barrier", e, err);
	mark(r, &f, PH_READY, &s0, t);

	t = now_ns();
	e = o.allgather ? remote_allgather(r, n_conns) :
	    swap_exchange(r, "remote objects", cs, n_conns, FAR_LEN);
	if (e)
		return e;
	mark(r, &f, PH_REMOTE, &s0, t);

	t = now_ns();
	for (i = 0; i < 2; i++) {
		char tag[16];

		snprintf(tag, sizeof(tag), "step %u", i);
		e = rs_rdv_barrier(r, tag, err, sizeof(err));
		if (e)
			return die(r, tag, e, err);
	}
	mark(r, &f, PH_STEPS, &s0, t);

	t = now_ns();
	if (o.allgather) {
		e = agree_allgather(r);
		if (e)
			return e;
	} else {
		e = rs_rdv_agree(r, "agree", 0, &v, err, sizeof(err));
		if (e)
			return die(r, "agree", e, err);
	}
	mark(r, &f, PH_AGREE, &s0, t);

	t = now_ns();
	e = rs_rdv_verdict(r, 0, &v, err, sizeof(err));
	if (e)
		return die(r, "verdict", e, err);
	mark(r, &f, PH_VERDICT, &s0, t);

	/* The figures to the leader, after they were taken. */
	if (!o.rank && !(all = calloc(o.n, sizeof(*all))))
		return die(r, "figures", -ENOMEM, "no memory");
	e = rs_rdv_gather(r, "figures", &f, sizeof(f), all, err, sizeof(err));
	if (e)
		return die(r, "figures", e, err);
	if (!o.rank) {
		struct figures *fs = calloc(o.n, sizeof(*fs));

		for (i = 0; fs && i < o.n; i++)
			if (all[i].len == sizeof(*fs))
				memcpy(&fs[i], all[i].data, sizeof(*fs));
		if (fs)
			report(fs);
		free(fs);
		rs_rdv_blobs_free(all, o.n);
		free(all);
	}
	rs_rdv_close(r);
	for (i = 0; i < o.n; i++)
		free(names[i]);
	free(names);
	free(cs);
	return 0;
}

static int usage(int code)
{
	fprintf(code ? stderr : stdout,
		"usage: cplane [--pattern ring|mesh|incast|all_to_all|...] "
		"[-n N] [--scheme exchange|allgather]\n"
		"              [--rendezvous tcp|pmix|auto] [--leader HOST:PORT] "
		"[--deadline-ms MS] [--quiet]\n"
		"Under mpirun the rank and size come from "
		"OMPI_COMM_WORLD_RANK/SIZE; else -n N forks N nodes.\n");
	return code;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pattern", required_argument, NULL, 'p' },
		{ "scheme", required_argument, NULL, 's' },
		{ "rendezvous", required_argument, NULL, 'r' },
		{ "leader", required_argument, NULL, 'l' },
		{ "deadline-ms", required_argument, NULL, 'd' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *rank = getenv("OMPI_COMM_WORLD_RANK");
	const char *size = getenv("OMPI_COMM_WORLD_SIZE");
	static char addr[64];
	struct rlimit rl;
	unsigned i, bad = 0;
	uint64_t pairs;
	char why[128];
	int ch, p;

	while ((ch = getopt_long(argc, argv, "n:p:qh", opts, NULL)) != -1) {
		switch (ch) {
		case 'n':
			o.n = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'p':
			p = rs_pattern_parse(optarg);
			if (p < 0) {
				fprintf(stderr, "cplane: Unknown pattern "
					"'%s'.\n", optarg);
				return 2;
			}
			o.pattern = (enum rs_pattern)p;
			break;
		case 's':
			if (strcmp(optarg, "exchange") &&
			    strcmp(optarg, "allgather")) {
				fprintf(stderr, "cplane: Unknown scheme "
					"'%s'.\n", optarg);
				return 2;
			}
			o.allgather = !strcmp(optarg, "allgather");
			break;
		case 'r':
			if (!strcmp(optarg, "tcp")) {
				o.via = RS_RDV_TCP;
			} else if (!strcmp(optarg, "pmix")) {
				o.via = RS_RDV_PMIX;
			} else if (!strcmp(optarg, "auto")) {
				o.via = RS_RDV_AUTO;
			} else {
				fprintf(stderr, "cplane: Unknown rendezvous "
					"'%s': tcp, pmix or auto.\n", optarg);
				return 2;
			}
			break;
		case 'l':
			o.leader = optarg;
			break;
		case 'd':
			o.deadline_ms = strtoull(optarg, NULL, 10);
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'h':
			return usage(0);
		default:
			return usage(2);
		}
	}
	if (optind != argc)
		return usage(2);
	if (rank && size) {
		o.rank = (unsigned)strtoul(rank, NULL, 10);
		o.n = (unsigned)strtoul(size, NULL, 10);
	}
	if (o.n < 1 || o.n > 100000)
		return usage(2);
	if (rs_pattern_count(o.pattern, o.n, 0, &pairs, why, sizeof(why))) {
		fprintf(stderr, "cplane: %s over %u nodes: %s\n",
			rs_pattern_name(o.pattern), o.n, why);
		return 2;
	}
	if (rank && size) {
		if (!o.leader)
			o.leader = "127.0.0.1:18517";
		return node();
	}
	if (!o.leader) {
		snprintf(addr, sizeof(addr), "127.0.0.1:%u",
			 20000 + (unsigned)getpid() % 20000);
		o.leader = addr;
	}
	/* The leader holds a socket per node. */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < o.n + 64) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	fflush(stdout);
	o.forked = true;
	for (i = 0; i < o.n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("cplane: fork");
			return 3;
		}
		if (!pid) {
			o.rank = i;
			exit(node());
		}
	}
	for (i = 0; i < o.n; i++) {
		int st;

		if (wait(&st) < 0)
			break;
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			bad++;
	}
	if (bad)
		fprintf(stderr, "cplane: %u of %u nodes failed\n", bad, o.n);
	return bad ? 3 : 0;
}
