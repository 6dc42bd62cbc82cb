// SPDX-License-Identifier: MIT
/*
 * Per-QP counters: the nldev requests byte for byte, as iproute2's
 * `rdma statistic qp bind|unbind|show|mode` sends them (the attributes
 * in its order; netlink is host-endian, these bytes are x86's), and the
 * parsing of the kernel's replies built as nldev.c builds them.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "alloc.h"
#include "check.h"
#include "list.h"
#include "nlbuf.h"
#include "qp_counters.h"
#include "rdma_nl.h"
#include "value.h"

#define SEQ 91

/* The request's bytes with its sequence number as the socket sets it. */
static const uint8_t *req_bytes(struct rs_nl_req *r)
{
	r->u.h.nlmsg_seq = SEQ;
	return (const uint8_t *)r->u.w;
}

TEST(qp_counters, requests)
{
	/* rdma statistic qp bind link DEV(1)/1 lqpn 17: STAT_SET
	 * (5 << 10 | 16), REQUEST|ACK; mode manual (2), res qp (19). */
	static const uint8_t bind[] = {
		0x38, 0, 0, 0, 0x10, 0x14, 0x05, 0, SEQ, 0, 0, 0, 0, 0, 0, 0,
		8, 0, 74, 0, 2, 0, 0, 0,      /* STAT_MODE MANUAL */
		8, 0, 75, 0, 19, 0, 0, 0,     /* STAT_RES RES_QP */
		8, 0, 1, 0, 1, 0, 0, 0,       /* DEV_INDEX 1 */
		8, 0, 3, 0, 1, 0, 0, 0,       /* PORT_INDEX 1 */
		8, 0, 21, 0, 17, 0, 0, 0,     /* RES_LQPN 17 */
	};
	/* rdma statistic qp unbind link DEV(1)/1 cntn 4 lqpn 17: STAT_DEL
	 * (18), the counter before the QP. */
	static const uint8_t unbind[] = {
		0x40, 0, 0, 0, 0x12, 0x14, 0x05, 0, SEQ, 0, 0, 0, 0, 0, 0, 0,
		8, 0, 74, 0, 2, 0, 0, 0,
		8, 0, 75, 0, 19, 0, 0, 0,
		8, 0, 1, 0, 1, 0, 0, 0,
		8, 0, 3, 0, 1, 0, 0, 0,
		8, 0, 79, 0, 4, 0, 0, 0,      /* STAT_COUNTER_ID 4 */
		8, 0, 21, 0, 17, 0, 0, 0,
	};
	/* One counter: STAT_GET (17), as unbind without lqpn asks. */
	static const uint8_t get[] = {
		0x30, 0, 0, 0, 0x11, 0x14, 0x05, 0, SEQ, 0, 0, 0, 0, 0, 0, 0,
		8, 0, 1, 0, 2, 0, 0, 0,       /* DEV_INDEX 2 */
		8, 0, 3, 0, 1, 0, 0, 0,
		8, 0, 75, 0, 19, 0, 0, 0,
		8, 0, 79, 0, 4, 0, 0, 0,
	};
	/* The link's mode: a STAT_MODE attribute must be there. */
	static const uint8_t mode[] = {
		0x30, 0, 0, 0, 0x11, 0x14, 0x05, 0, SEQ, 0, 0, 0, 0, 0, 0, 0,
		8, 0, 1, 0, 1, 0, 0, 0,
		8, 0, 3, 0, 2, 0, 0, 0,       /* PORT_INDEX 2 */
		8, 0, 75, 0, 19, 0, 0, 0,
		8, 0, 74, 0, 0, 0, 0, 0,
	};
	/* Every counter of device 3: a dump (REQUEST|DUMP = 0x301). */
	static const uint8_t dump[] = {
		0x20, 0, 0, 0, 0x11, 0x14, 0x01, 0x03, SEQ, 0, 0, 0,
		0, 0, 0, 0,
		8, 0, 1, 0, 3, 0, 0, 0,
		8, 0, 75, 0, 19, 0, 0, 0,
	};
	struct rs_nl_req r;

	rs_qpc_req_bind(&r, 1, 1, 17);
	CHECK_UINT(r.u.h.nlmsg_len, sizeof(bind));
	CHECK_MEM(req_bytes(&r), bind, sizeof(bind));
	rs_qpc_req_unbind(&r, 1, 1, 4, 17);
	CHECK_UINT(r.u.h.nlmsg_len, sizeof(unbind));
	CHECK_MEM(req_bytes(&r), unbind, sizeof(unbind));
	rs_qpc_req_get(&r, 2, 1, 4);
	CHECK_UINT(r.u.h.nlmsg_len, sizeof(get));
	CHECK_MEM(req_bytes(&r), get, sizeof(get));
	rs_qpc_req_mode(&r, 1, 2);
	CHECK_UINT(r.u.h.nlmsg_len, sizeof(mode));
	CHECK_MEM(req_bytes(&r), mode, sizeof(mode));
	rs_qpc_req_dump(&r, 3);
	CHECK_UINT(r.u.h.nlmsg_len, sizeof(dump));
	CHECK_MEM(req_bytes(&r), dump, sizeof(dump));
	/* A request has room for a few attributes, not for any number. */
	for (int i = 0; i < 32; i++)
		if (rs_nl_req_u32(&r, RDMA_NLDEV_ATTR_DEV_INDEX, 1))
			break;
	CHECK_INT(rs_nl_req_u32(&r, RDMA_NLDEV_ATTR_DEV_INDEX, 1), -ENOSPC);
	CHECK(r.u.h.nlmsg_len <= sizeof(r.u.w));
}

/* The nldev handle every reply starts with (fill_nldev_handle()). */
static void handle(struct nlbuf *b, uint32_t dev)
{
	u32(b, RDMA_NLDEV_ATTR_DEV_INDEX, dev);
	str(b, RDMA_NLDEV_ATTR_DEV_NAME, dev == 1 ? "mlx5_0" : "mlx5_1");
}

static void ack(struct nlbuf *b, uint32_t seq, int err)
{
	size_t m = msg_start(b, NLMSG_ERROR, seq);
	struct nlmsgerr e = { .error = err };

	put(b, &e, sizeof(e));
	msg_end(b, m);
}

static void hwcounter(struct nlbuf *b, const char *name, uint64_t v)
{
	size_t e = nest_start(b, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);

	str(b, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name);
	u64(b, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, v);
	nest_end(b, e);
}

/* fill_res_counter_entry(): port, id, mode, its QPs, its values. */
static void counter(struct nlbuf *b, uint32_t id, uint32_t port,
		    const uint32_t *qpns, unsigned n, uint64_t oos)
{
	size_t t;

	u32(b, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	u32(b, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, id);
	u32(b, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL);
	t = nest_start(b, RDMA_NLDEV_ATTR_RES_QP);
	for (unsigned i = 0; i < n; i++) {
		size_t e = nest_start(b, RDMA_NLDEV_ATTR_RES_QP_ENTRY);

		u32(b, RDMA_NLDEV_ATTR_RES_LQPN, qpns[i]);
		nest_end(b, e);
	}
	nest_end(b, t);
	t = nest_start(b, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	hwcounter(b, "rx_write_requests", 2000);
	hwcounter(b, "out_of_sequence", oos);
	hwcounter(b, "local_ack_timeout_err", 0x100000000ull);
	nest_end(b, t);
}

static int walk(struct rs_qpc_reply *rp, struct nlbuf *b, bool *ret_done,
		int *ret_err)
{
	struct rs_nl_reply nr = { .seq = SEQ, .msg = rs_qpc_parse,
				  .arg = rp };
	int r = rs_nl_walk(&nr, b->w, b->len);

	*ret_done = nr.done;
	*ret_err = nr.err;
	return r;
}

TEST(qp_counters, parse_bind)
{
	struct rs_qpc_reply rp = { 0 };
	struct nlbuf b = { .len = 0 };
	bool fin;
	int err;
	size_t m;

	/* nldev_stat_set_doit()'s answer, then the ack asked for. */
	m = msg_start(&b, nldev(RDMA_NLDEV_CMD_STAT_SET), SEQ);
	handle(&b, 1);
	u32(&b, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	u32(&b, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 5);
	u32(&b, RDMA_NLDEV_ATTR_RES_LQPN, 17);
	msg_end(&b, m);
	ack(&b, SEQ, 0);
	CHECK_INT(walk(&rp, &b, &fin, &err), 0);
	CHECK(fin);
	CHECK_INT(err, 0);
	CHECK(rp.have_cntn);
	CHECK_UINT(rp.cntn, 5);
	CHECK_UINT(rp.qpn, 17);
	rs_qpc_reply_free(&rp);

	/* rxe: the kernel's errno, no answer. */
	b.len = 0;
	ack(&b, SEQ, -ENOMEM);
	CHECK_INT(walk(&rp, &b, &fin, &err), 0);
	CHECK(fin);
	CHECK_INT(err, -ENOMEM);
	CHECK(!rp.have_cntn);

	/* An answer without its id is not one. */
	b.len = 0;
	m = msg_start(&b, nldev(RDMA_NLDEV_CMD_STAT_SET), SEQ);
	handle(&b, 1);
	msg_end(&b, m);
	CHECK_INT(walk(&rp, &b, &fin, &err), -EPROTO);
	rs_qpc_reply_free(&rp);
}

TEST(qp_counters, parse_get)
{
	static const uint32_t one[] = { 17 }, two[] = { 30, 31 };
	struct rs_qpc_reply rp = { 0 };
	struct nlbuf b = { .len = 0 };
	const struct rs_qpc_val *v;
	bool fin;
	int err;
	size_t m, t, e;

	/* One counter (res_get_common_doit(): at the top). */
	m = msg_start(&b, nldev(RDMA_NLDEV_CMD_STAT_GET), SEQ);
	handle(&b, 1);
	counter(&b, 5, 1, one, 1, 3);
	msg_end(&b, m);
	ack(&b, SEQ, 0);
	CHECK_INT(walk(&rp, &b, &fin, &err), 0);
	CHECK(fin);
	CHECK_UINT(rp.n_cnts, 1);
	CHECK_UINT(rp.cnts[0].dev, 1);
	CHECK_UINT(rp.cnts[0].id, 5);
	CHECK_UINT(rp.cnts[0].port, 1);
	CHECK_UINT(rp.cnts[0].mode, RDMA_COUNTER_MODE_MANUAL);
	CHECK_UINT(rp.cnts[0].n_qpns, 1);
	CHECK_UINT(rp.cnts[0].qpns[0], 17);
	CHECK_UINT(rp.cnts[0].n_vals, 3);
	v = rs_qpc_val(&rp.cnts[0], "out_of_sequence");
	CHECK(v);
	CHECK_UINT(v->value, 3);
	v = rs_qpc_val(&rp.cnts[0], "local_ack_timeout_err");
	CHECK(v && v->value == 0x100000000ull);
	CHECK(!rs_qpc_val(&rp.cnts[0], "rnr_nak_retry_err"));
	rs_qpc_reply_free(&rp);

	/* A dump of device 2 over two messages: a table of entries each,
	 * then the end. */
	b.len = 0;
	m = msg_start(&b, nldev(RDMA_NLDEV_CMD_STAT_GET), SEQ);
	handle(&b, 2);
	t = nest_start(&b, RDMA_NLDEV_ATTR_STAT_COUNTER);
	e = nest_start(&b, RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY);
	counter(&b, 6, 1, one, 1, 0);
	nest_end(&b, e);
	nest_end(&b, t);
	msg_end(&b, m);
	/* A stale message of an earlier exchange: passed over. */
	m = msg_start(&b, nldev(RDMA_NLDEV_CMD_STAT_GET), SEQ - 1);
	handle(&b, 2);
	t = nest_start(&b, RDMA_NLDEV_ATTR_STAT_COUNTER);
	nest_end(&b, t);
	msg_end(&b, m);
	m = msg_start(&b, nldev(RDMA_NLDEV_CMD_STAT_GET), SEQ);
	handle(&b, 2);
	t = nest_start(&b, RDMA_NLDEV_ATTR_STAT_COUNTER);
	e = nest_start(&b, RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY);
	counter(&b, 7, 2, two, 2, 9);
	nest_end(&b, e);
	nest_end(&b, t);
	msg_end(&b, m);
	done(&b, SEQ, 0);
	CHECK_INT(walk(&rp, &b, &fin, &err), 0);
	CHECK(fin);
	CHECK_INT(err, 0);
	CHECK_UINT(rp.n_cnts, 2);
	CHECK_UINT(rp.cnts[0].dev, 2);
	CHECK_UINT(rp.cnts[0].id, 6);
	CHECK_UINT(rp.cnts[1].id, 7);
	CHECK_UINT(rp.cnts[1].port, 2);
	CHECK_UINT(rp.cnts[1].n_qpns, 2);
	CHECK_UINT(rp.cnts[1].qpns[1], 31);
	v = rs_qpc_val(&rp.cnts[1], "out_of_sequence");
	CHECK(v && v->value == 9);
	rs_qpc_reply_free(&rp);
	CHECK_UINT(rp.n_cnts, 0);
}

TEST(qp_counters, parse_mode_and_errors)
{
	struct rs_qpc_reply rp = { 0 };
	struct nlbuf b = { .len = 0 };
	bool fin;
	int err;
	size_t m, t, e;

	/* stat_get_doit_qp() without a counter id: the link's mode. */
	m = msg_start(&b, nldev(RDMA_NLDEV_CMD_STAT_GET), SEQ);
	handle(&b, 1);
	u32(&b, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	u32(&b, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_AUTO);
	u32(&b, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, 1);
	msg_end(&b, m);
	ack(&b, SEQ, 0);
	CHECK_INT(walk(&rp, &b, &fin, &err), 0);
	CHECK(rp.have_mode);
	CHECK_UINT(rp.mode, RDMA_COUNTER_MODE_AUTO);
	CHECK_UINT(rp.n_cnts, 0);

	/* A value entry without its name. */
	b.len = 0;
	m = msg_start(&b, nldev(RDMA_NLDEV_CMD_STAT_GET), SEQ);
	handle(&b, 1);
	u32(&b, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 5);
	t = nest_start(&b, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	e = nest_start(&b, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
	u64(&b, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 1);
	nest_end(&b, e);
	nest_end(&b, t);
	msg_end(&b, m);
	CHECK_INT(walk(&rp, &b, &fin, &err), -EPROTO);
	rs_qpc_reply_free(&rp);

	/* An attribute longer than its message. */
	b.len = 0;
	m = msg_start(&b, nldev(RDMA_NLDEV_CMD_STAT_GET), SEQ);
	u32(&b, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 5);
	msg_end(&b, m);
	((struct nlattr *)at(&b, m + NLMSG_HDRLEN))->nla_len = 64;
	CHECK_INT(walk(&rp, &b, &fin, &err), -EPROTO);
	rs_qpc_reply_free(&rp);
}

/* A dump as the leak check and the reads see it: counter ids are per
 * device, and an id (or a QP number) freed is given out again. */
TEST(qp_counters, find)
{
	static const uint32_t ours[] = { 17 }, theirs[] = { 40, 41 };
	struct rs_qpc_reply rp = { 0 };
	struct nlbuf b = { .len = 0 };
	const struct rs_qpc_cnt *c;
	bool fin;
	int err;
	size_t m, t, e;

	for (uint32_t dev = 1; dev <= 2; dev++) {
		m = msg_start(&b, nldev(RDMA_NLDEV_CMD_STAT_GET), SEQ);
		handle(&b, dev);
		t = nest_start(&b, RDMA_NLDEV_ATTR_STAT_COUNTER);
		e = nest_start(&b, RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY);
		/* Device 1: our counter 5 on our QP 17; device 2: a
		 * counter 5 of another process's. */
		counter(&b, 5, 1, dev == 1 ? ours : theirs, dev == 1 ? 1 : 2,
			0);
		nest_end(&b, e);
		e = nest_start(&b, RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY);
		counter(&b, 6, 2, theirs, 2, 0);
		nest_end(&b, e);
		nest_end(&b, t);
		msg_end(&b, m);
	}
	done(&b, SEQ, 0);
	CHECK_INT(walk(&rp, &b, &fin, &err), 0);
	CHECK_UINT(rp.n_cnts, 4);

	c = rs_qpc_find(&rp, 1, 1, 5, 17);
	CHECK(c && c->dev == 1 && c->id == 5);
	c = rs_qpc_find(&rp, 1, 1, 5, 0);
	CHECK(c && c->dev == 1);
	/* The same id on the other device is not ours. */
	c = rs_qpc_find(&rp, 2, 1, 5, 0);
	CHECK(c && c->dev == 2 && c->n_qpns == 2);
	CHECK(!rs_qpc_find(&rp, 2, 1, 5, 17));
	/* Our id on another port, another QP on our id: not ours. */
	CHECK(!rs_qpc_find(&rp, 1, 2, 5, 0));
	CHECK(!rs_qpc_find(&rp, 1, 1, 5, 18));
	CHECK(!rs_qpc_find(&rp, 1, 1, 7, 0));
	CHECK(rs_qpc_find(&rp, 1, 2, 6, 41));
	rs_qpc_reply_free(&rp);
}

TEST(qp_counters, delta)
{
	struct rs_qpc_val bv[] = {
		{ "out_of_sequence", 3 }, { "rx_write_requests", 100 },
		{ "out_of_buffer", 9 }, { "duplicate_request", 50 },
	};
	struct rs_qpc_val av[] = {
		{ "out_of_sequence", 3 }, { "rx_write_requests", 2100 },
		{ "out_of_buffer", 4 }, { "duplicate_request", 50 },
		{ "np_cnp_sent", 8 },
	};
	struct rs_qpc_cnt before = { .vals = bv, .n_vals = 4 };
	struct rs_qpc_cnt after = { .vals = av, .n_vals = 5 };
	struct rs_val *d;

	CHECK_INT(rs_qpc_delta(&before, &after, &d), 0);
	CHECK(d);
	/* What moved, no more: the unmoved and the unknown are left out. */
	CHECK_UINT(rs_val_len(d), 2);
	CHECK_UINT(rs_val_get_u64(d, "rx_write_requests"), 2000);
	/* Reset by the driver: what it counted since. */
	CHECK_UINT(rs_val_get_u64(d, "out_of_buffer"), 4);
	CHECK(!rs_val_get(d, "out_of_sequence"));
	CHECK(!rs_val_get(d, "np_cnp_sent"));
	rs_val_free(d);
	/* Nothing moved: no object at all. */
	CHECK_INT(rs_qpc_delta(&before, &before, &d), 0);
	CHECK(!d);
}

/* Out of memory at any allocation of a delta: -ENOMEM and nothing,
 * never part of it given as the whole (a step's figures would say
 * fewer counters moved than did). */
TEST(qp_counters, delta_without_memory)
{
	struct rs_qpc_val bv[] = { { "rx_write_requests", 1 },
				   { "out_of_buffer", 1 } };
	struct rs_qpc_val av[] = { { "rx_write_requests", 9 },
				   { "out_of_buffer", 5 } };
	struct rs_qpc_cnt before = { .vals = bv, .n_vals = 2 };
	struct rs_qpc_cnt after = { .vals = av, .n_vals = 2 };
	struct rs_val *d = NULL;
	long n;
	int r;

	for (n = 1;; n++) {
		rs_alloc_fail_at(n);
		r = rs_qpc_delta(&before, &after, &d);
		rs_alloc_fail_at(0);
		if (!r)
			break;
		CHECK_INT(r, -ENOMEM);
		CHECK(!d);
	}
	/* Some allocation failed before the one that went through. */
	CHECK(n > 1);
	CHECK(d);
	CHECK_UINT(rs_val_get_u64(d, "rx_write_requests"), 8);
	CHECK_UINT(rs_val_get_u64(d, "out_of_buffer"), 4);
	rs_val_free(d);
}

/* Without a run's binding there is nothing to look for, and nothing
 * is asked. */
TEST(qp_counters, no_binding)
{
	const char *why = NULL;

	CHECK_INT(rs_qp_counters_leaks(NULL, NULL, NULL, &why), 0);
	CHECK(!why);
}
