// SPDX-License-Identifier: MIT
/*
 * setup_c N [DEVICE]: bench/setup.yaml's workload written by hand, with
 * no engine, for bench/setup.sh to set rdmascn beside: N x (a CQ of 16,
 * a 4 KiB MR, an RC QP) on one PD, QP a[i] paired with b[i] and both
 * moved RESET -> INIT -> RTR -> RTS, then everything destroyed in the
 * reverse order of creation.  The verbs calls and their order are those
 * `rdmascn run --dry-run bench/setup.yaml --set n=N` lists (MRs, CQs,
 * QPs, then each pair's six modify calls), with the same attributes;
 * what a hand-written program needs to learn about the port (its state,
 * MTU and GID) it asks once.
 *
 * setup_c --threads T N [DEVICE]: the same N objects made by T pthreads,
 * each with a context of its own (its own ibv_open_device() and PD) and
 * N/T of the CQs, MRs and QPs, its QPs paired among themselves: the
 * independent parts of a graph, created, connected and destroyed at
 * once.  Phases are timed across all threads (a barrier between them),
 * so T=1 is the program above.  This is the experiment behind
 * docs/setup-speed.md's "Threads".
 *
 * setup_c --query N [DEVICE]: after each pair reaches RTS, both QPs read
 * back with one ibv_query_qp() each, with the attributes a connection's
 * record entry shows (kind_connection.c, describe_side()): what
 * `--json` asks of the device beyond the calls above, measured alone
 * (bench/setup.sh's tool cq).
 *
 * Prints one line: "create_ms C connect_ms K teardown_ms T".
 */
#include <errno.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/verbs.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void die(const char *what)
{
	fprintf(stderr, "setup_c: %s: %s\n", what, strerror(errno));
	exit(3);
}

/* The GID rdmascn picks: RoCE v2 with an IPv4-mapped address first. */
static int pick_gid(struct ibv_context *ctx, uint8_t port,
		    union ibv_gid *ret)
{
	static const uint8_t v4mapped[12] = { [10] = 0xff, [11] = 0xff };
	struct ibv_gid_entry ents[256];
	int best = -1, score = 0;
	ssize_t n = ibv_query_gid_table(ctx, ents, 256, 0);

	for (ssize_t i = 0; i < n; i++) {
		int s;

		if (ents[i].port_num != port)
			continue;
		if (ents[i].gid_type == IBV_GID_TYPE_ROCE_V2)
			s = memcmp(ents[i].gid.raw, v4mapped, 12) ? 2 : 3;
		else
			s = 1;
		if (s > score) {
			score = s;
			best = (int)ents[i].gid_index;
			*ret = ents[i].gid;
		}
	}
	return best;
}

static void modify(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask)
{
	errno = ibv_modify_qp(qp, a, mask);
	if (errno)
		die("ibv_modify_qp");
}

/* One thread's share: its own context, PD, n CQs, MRs and QPs. */
struct part {
	pthread_t thread;
	int n;
	const char *want;
	pthread_barrier_t *phase;
	double t[4];                 /* thread 0: the phases' ends */
};

static struct ibv_context *open_ctx(const char *want,
				    struct ibv_port_attr *port)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;

	for (int i = 0; list && list[i] && !ctx; i++) {
		if (want && strcmp(want, ibv_get_device_name(list[i])))
			continue;
		ctx = ibv_open_device(list[i]);
		if (ctx && (ibv_query_port(ctx, 1, port) ||
			    port->state != IBV_PORT_ACTIVE)) {
			ibv_close_device(ctx);
			ctx = NULL;
		}
	}
	if (!ctx)
		die("no device with an active port 1");
	ibv_free_device_list(list);
	return ctx;
}

static bool query;              /* --query */

/* The read-back of a connection's record entry. */
static void read_back(struct ibv_qp *qp)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr init;

	if (ibv_query_qp(qp, &a, IBV_QP_STATE | IBV_QP_PATH_MTU |
			 IBV_QP_SQ_PSN | IBV_QP_RQ_PSN | IBV_QP_AV |
			 IBV_QP_DEST_QPN | IBV_QP_TIMEOUT |
			 IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			 IBV_QP_MIN_RNR_TIMER | IBV_QP_MAX_QP_RD_ATOMIC |
			 IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_ACCESS_FLAGS,
			 &init))
		die("ibv_query_qp");
	if (a.qp_state != IBV_QPS_RTS)
		die("read back: not RTS");
}

static void connect_pair(struct ibv_qp **side, struct ibv_port_attr *port,
			 int gid_index, union ibv_gid *gid)
{
	struct ibv_qp_attr a;
	int s;

	for (s = 0; s < 2; s++) {
		memset(&a, 0, sizeof(a));
		a.qp_state = IBV_QPS_INIT;
		a.port_num = 1;
		a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
				    IBV_ACCESS_REMOTE_READ |
				    IBV_ACCESS_REMOTE_ATOMIC;
		modify(side[s], &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
		       IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	}
	for (s = 0; s < 2; s++) {
		memset(&a, 0, sizeof(a));
		a.qp_state = IBV_QPS_RTR;
		a.path_mtu = port->active_mtu;
		a.dest_qp_num = side[!s]->qp_num;
		a.ah_attr.port_num = 1;
		if (gid_index >= 0) {
			a.ah_attr.is_global = 1;
			a.ah_attr.grh.dgid = *gid;
			a.ah_attr.grh.sgid_index = (uint8_t)gid_index;
			a.ah_attr.grh.hop_limit = 64;
		} else {
			a.ah_attr.dlid = port->lid;
		}
		modify(side[s], &a, IBV_QP_STATE | IBV_QP_AV |
		       IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
		       IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
		       IBV_QP_MIN_RNR_TIMER);
	}
	for (s = 0; s < 2; s++) {
		memset(&a, 0, sizeof(a));
		a.qp_state = IBV_QPS_RTS;
		modify(side[s], &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
		       IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
		       IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
	}
	for (s = 0; query && s < 2; s++)
		read_back(side[s]);
}

/* Everything stamps the end of a phase after the barrier: the slowest
 * thread's end. */
static void phase_end(struct part *p, int k)
{
	pthread_barrier_wait(p->phase);
	p->t[k] = now_ms();
}

static void *share(void *arg)
{
	struct part *p = arg;
	int n = p->n, half = n / 2, gid_index, i;
	struct ibv_context *ctx;
	struct ibv_port_attr port;
	union ibv_gid gid = { 0 };
	struct ibv_pd *pd;
	struct ibv_mr **mr = calloc(n, sizeof(*mr));
	struct ibv_cq **cq = calloc(n, sizeof(*cq));
	struct ibv_qp **qp = calloc(n, sizeof(*qp));
	void **buf = calloc(n, sizeof(*buf));

	if (!mr || !cq || !qp || !buf)
		die("calloc");
	phase_end(p, 0);
	ctx = open_ctx(p->want, &port);
	gid_index = port.link_layer == IBV_LINK_LAYER_ETHERNET ?
		    pick_gid(ctx, 1, &gid) : -1;
	pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	/* ma[0..half), mb[0..half): the plan's order, and so on below. */
	for (i = 0; i < n; i++) {
		if (posix_memalign(&buf[i], 4096, 4096))
			die("posix_memalign");
		memset(buf[i], 0, 4096);
		mr[i] = ibv_reg_mr(pd, buf[i], 4096, IBV_ACCESS_LOCAL_WRITE |
				   IBV_ACCESS_REMOTE_WRITE);
		if (!mr[i])
			die("ibv_reg_mr");
	}
	for (i = 0; i < n; i++) {
		cq[i] = ibv_create_cq(ctx, 16, NULL, NULL, 0);
		if (!cq[i])
			die("ibv_create_cq");
	}
	for (i = 0; i < n; i++) {
		struct ibv_qp_init_attr ia = {
			.send_cq = cq[i], .recv_cq = cq[i], .qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = 16, .max_recv_wr = 16,
				 .max_send_sge = 1, .max_recv_sge = 1 },
		};

		qp[i] = ibv_create_qp(pd, &ia);
		if (!qp[i])
			die("ibv_create_qp");
	}
	phase_end(p, 1);
	for (i = 0; i < half; i++) {
		struct ibv_qp *side[2] = { qp[i], qp[half + i] };

		connect_pair(side, &port, gid_index, &gid);
	}
	phase_end(p, 2);
	for (i = n; i-- > 0;)
		if (ibv_destroy_qp(qp[i]))
			die("ibv_destroy_qp");
	for (i = n; i-- > 0;)
		if (ibv_destroy_cq(cq[i]))
			die("ibv_destroy_cq");
	for (i = n; i-- > 0;) {
		if (ibv_dereg_mr(mr[i]))
			die("ibv_dereg_mr");
		free(buf[i]);
	}
	if (ibv_dealloc_pd(pd))
		die("ibv_dealloc_pd");
	if (ibv_close_device(ctx))
		die("ibv_close_device");
	phase_end(p, 3);
	free(mr);
	free(cq);
	free(qp);
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = 1, n, k;
	pthread_barrier_t phase;
	struct part *p;

	if (argc > 1 && !strcmp(argv[1], "--query")) {
		query = true;
		argc--;
		argv++;
	}
	if (argc > 2 && !strcmp(argv[1], "--threads")) {
		threads = atoi(argv[2]);
		argc -= 2;
		argv += 2;
	}
	n = argc > 1 ? atoi(argv[1]) : 100;
	if (n < 2 || threads < 1 || n % (2 * threads)) {
		fprintf(stderr, "usage: setup_c [--query] [--threads T] N "
			"[DEVICE] "
			"(N a multiple of 2T, T >= 1)\n");
		return 2;
	}
	p = calloc(threads, sizeof(*p));
	if (!p || pthread_barrier_init(&phase, NULL, threads))
		die("set-up");
	for (k = 0; k < threads; k++) {
		p[k].n = n / threads;
		p[k].want = argc > 2 ? argv[2] : NULL;
		p[k].phase = &phase;
	}
	/* Thread 0 is this one: with T=1 no thread is made. */
	for (k = 1; k < threads; k++) {
		errno = pthread_create(&p[k].thread, NULL, share, &p[k]);
		if (errno)
			die("pthread_create");
	}
	share(&p[0]);
	for (k = 1; k < threads; k++)
		pthread_join(p[k].thread, NULL);
	printf("create_ms %.3f connect_ms %.3f teardown_ms %.3f\n",
	       p[0].t[1] - p[0].t[0], p[0].t[2] - p[0].t[1],
	       p[0].t[3] - p[0].t[2]);
	pthread_barrier_destroy(&phase);
	free(p);
	return 0;
}
