// SPDX-License-Identifier: MIT
/* --check-leaks: the nldev parser on hand-built netlink messages. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "check.h"
#include "list.h"
#include "leaks.h"
#include "nlbuf.h"
#include "report.h"
#include "value.h"

#define SEQ 77

static void dev_hdr(struct nlbuf *b)
{
	u32(b, RDMA_NLDEV_ATTR_DEV_INDEX, 1);
	str(b, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
}

static void qp_entry(struct nlbuf *b, uint32_t qpn, uint8_t type,
		     uint32_t pid, const char *kern_name)
{
	size_t e = nest_start(b, RDMA_NLDEV_ATTR_RES_QP_ENTRY);

	u32(b, RDMA_NLDEV_ATTR_RES_LQPN, qpn);
	u8(b, RDMA_NLDEV_ATTR_RES_TYPE, type);
	u8(b, RDMA_NLDEV_ATTR_RES_STATE, 0);
	u32(b, 999, 1);          /* a newer kernel's attribute */
	if (!kern_name)
		u32(b, RDMA_NLDEV_ATTR_RES_PDN, 3);
	if (pid)
		u32(b, RDMA_NLDEV_ATTR_RES_PID, pid);
	if (kern_name)
		str(b, RDMA_NLDEV_ATTR_RES_KERN_NAME, kern_name);
	nest_end(b, e);
}

/* @l as the record keeps it and the text reporter prints it. */
static int leak_text(const struct rs_leak *l, char *buf, size_t size)
{
	struct rs_val *list = rs_val_arr();
	int n;

	rs_leak_put(list, l, false);
	n = rs_leak_text(rs_val_at(list, 0), buf, size);
	rs_val_free(list);
	return n;
}

TEST(leaks, devices)
{
	struct rs_leak_dump d = { .seq = SEQ, .pid = 1 };
	struct nlbuf b = { .len = 0 };
	size_t m;

	m = msg_start(&b, nldev(RDMA_NLDEV_CMD_GET), SEQ);
	dev_hdr(&b);
	u64(&b, RDMA_NLDEV_ATTR_CAP_FLAGS, 0);
	msg_end(&b, m);
	m = msg_start(&b, nldev(RDMA_NLDEV_CMD_GET), SEQ);
	u32(&b, RDMA_NLDEV_ATTR_DEV_INDEX, 7);
	str(&b, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
	msg_end(&b, m);
	done(&b, SEQ, 0);
	CHECK_INT(rs_leaks_parse(&d, b.w, b.len), 0);
	CHECK(d.done);
	CHECK_INT(d.err, 0);
	CHECK_UINT(d.n_devs, 2);
	CHECK_UINT(d.n_leaks, 0);
	CHECK_UINT(d.devs[0].index, 1);
	CHECK_UINT(d.devs[1].index, 7);
	CHECK_STR(d.devs[0].name, "rxe0");
	CHECK_STR(d.devs[1].name, "mlx5_0");
	rs_leak_dump_free(&d);
}

TEST(leaks, qps)
{
	uint32_t me = (uint32_t)getpid();
	struct rs_leak_dump d = { .seq = SEQ, .pid = me };
	struct nlbuf b = { .len = 0 };
	char line[256], want[256];
	size_t m, t;

	/* A stale message from an earlier dump, with one of ours: ignored. */
	m = msg_start(&b, nldev(RDMA_NLDEV_CMD_RES_QP_GET), SEQ - 1);
	dev_hdr(&b);
	t = nest_start(&b, RDMA_NLDEV_ATTR_RES_QP);
	qp_entry(&b, 40, 2, me, NULL);
	nest_end(&b, t);
	msg_end(&b, m);

	/* Part one: the kernel's GSI QP, ours, another process's, one whose
	 * process is gone (no pid). */
	m = msg_start(&b, nldev(RDMA_NLDEV_CMD_RES_QP_GET), SEQ);
	dev_hdr(&b);
	t = nest_start(&b, RDMA_NLDEV_ATTR_RES_QP | NLA_F_NESTED);
	qp_entry(&b, 1, 1, 0, "ib_core");
	qp_entry(&b, 17, 2, me, NULL);
	qp_entry(&b, 18, 2, me + 1, NULL);
	qp_entry(&b, 19, 4, 0, NULL);
	nest_end(&b, t);
	msg_end(&b, m);
	CHECK_INT(rs_leaks_parse(&d, b.w, b.len), 0);
	CHECK(!d.done);
	CHECK_UINT(d.n_leaks, 1);
	CHECK_UINT(d.others, 3);

	/* Part two, in another buffer, then the end. */
	b.len = 0;
	m = msg_start(&b, nldev(RDMA_NLDEV_CMD_RES_QP_GET), SEQ);
	dev_hdr(&b);
	t = nest_start(&b, RDMA_NLDEV_ATTR_RES_QP);
	qp_entry(&b, 20, 4, me, NULL);
	nest_end(&b, t);
	msg_end(&b, m);
	done(&b, SEQ, 0);
	CHECK_INT(rs_leaks_parse(&d, b.w, b.len), 0);
	CHECK(d.done);
	CHECK_INT(d.err, 0);
	CHECK_UINT(d.n_leaks, 2);
	CHECK_UINT(d.others, 3);

	CHECK_STR(d.leaks[0].kind, "qp");
	CHECK_STR(d.leaks[0].dev, "rxe0");
	CHECK_UINT(d.leaks[0].pid, me);
	CHECK_UINT(d.leaks[0].val[RS_LEAK_QPN], 17);
	leak_text(&d.leaks[0], line, sizeof(line));
	snprintf(want, sizeof(want), "rxe0 qp qpn 17 type RC pdn 3 (pid %u)",
		 me);
	CHECK_STR(line, want);
	leak_text(&d.leaks[1], line, sizeof(line));
	snprintf(want, sizeof(want), "rxe0 qp qpn 20 type UD pdn 3 (pid %u)",
		 me);
	CHECK_STR(line, want);

	/* Too small a buffer: cut, terminated, and the length it needs. */
	CHECK_INT(leak_text(&d.leaks[1], line, 8), (int)strlen(want));
	CHECK_STR(line, "rxe0 qp");
	rs_leak_dump_free(&d);
}

TEST(leaks, mr_pd)
{
	uint32_t me = (uint32_t)getpid();
	struct rs_leak_dump d = { .seq = SEQ, .pid = me };
	struct nlbuf b = { .len = 0 };
	char line[256], want[256];
	size_t m, t, e;

	m = msg_start(&b, nldev(RDMA_NLDEV_CMD_RES_MR_GET), SEQ);
	dev_hdr(&b);
	t = nest_start(&b, RDMA_NLDEV_ATTR_RES_MR);
	e = nest_start(&b, RDMA_NLDEV_ATTR_RES_MR_ENTRY);
	u32(&b, RDMA_NLDEV_ATTR_RES_RKEY, 0x1a2b);
	u32(&b, RDMA_NLDEV_ATTR_RES_LKEY, 0x1a2b);
	u64(&b, RDMA_NLDEV_ATTR_RES_MRLEN, 4096);
	u32(&b, RDMA_NLDEV_ATTR_RES_MRN, 5);
	u32(&b, RDMA_NLDEV_ATTR_RES_PDN, 3);
	u32(&b, RDMA_NLDEV_ATTR_RES_PID, me);
	nest_end(&b, e);
	nest_end(&b, t);
	msg_end(&b, m);
	done(&b, SEQ, 0);
	CHECK_INT(rs_leaks_parse(&d, b.w, b.len), 0);
	CHECK(d.done);
	CHECK_UINT(d.n_leaks, 1);
	leak_text(&d.leaks[0], line, sizeof(line));
	snprintf(want, sizeof(want), "rxe0 mr mrn 5 rkey 0x1a2b lkey 0x1a2b "
		 "length 4096 pdn 3 (pid %u)", me);
	CHECK_STR(line, want);

	/* A pd of ours next to the kernel's, in a new dump on the same d. */
	b.len = 0;
	d.seq = SEQ + 1;
	d.done = false;
	m = msg_start(&b, nldev(RDMA_NLDEV_CMD_RES_PD_GET), SEQ + 1);
	dev_hdr(&b);
	t = nest_start(&b, RDMA_NLDEV_ATTR_RES_PD);
	e = nest_start(&b, RDMA_NLDEV_ATTR_RES_PD_ENTRY);
	u64(&b, RDMA_NLDEV_ATTR_RES_USECNT, 2);
	u32(&b, RDMA_NLDEV_ATTR_RES_PDN, 1);
	str(&b, RDMA_NLDEV_ATTR_RES_KERN_NAME, "ib_core");
	nest_end(&b, e);
	e = nest_start(&b, RDMA_NLDEV_ATTR_RES_PD_ENTRY);
	u64(&b, RDMA_NLDEV_ATTR_RES_USECNT, 0);
	u32(&b, RDMA_NLDEV_ATTR_RES_PDN, 4);
	u32(&b, RDMA_NLDEV_ATTR_RES_CTXN, 2);
	u32(&b, RDMA_NLDEV_ATTR_RES_PID, me);
	nest_end(&b, e);
	nest_end(&b, t);
	msg_end(&b, m);
	done(&b, SEQ + 1, 0);
	CHECK_INT(rs_leaks_parse(&d, b.w, b.len), 0);
	CHECK(d.done);
	CHECK_UINT(d.n_leaks, 2);
	CHECK_UINT(d.others, 1);
	leak_text(&d.leaks[1], line, sizeof(line));
	snprintf(want, sizeof(want), "rxe0 pd pdn 4 ctxn 2 (pid %u)", me);
	CHECK_STR(line, want);

	/* An srq's type is an srq type; a qp type the table lacks is a
	 * number. */
	b.len = 0;
	d.seq = SEQ + 2;
	d.done = false;
	m = msg_start(&b, nldev(RDMA_NLDEV_CMD_RES_SRQ_GET), SEQ + 2);
	dev_hdr(&b);
	t = nest_start(&b, RDMA_NLDEV_ATTR_RES_SRQ);
	e = nest_start(&b, RDMA_NLDEV_ATTR_RES_SRQ_ENTRY);
	u32(&b, RDMA_NLDEV_ATTR_RES_SRQN, 0);
	u8(&b, RDMA_NLDEV_ATTR_RES_TYPE, 0);
	u32(&b, RDMA_NLDEV_ATTR_RES_PDN, 4);
	u32(&b, RDMA_NLDEV_ATTR_RES_PID, me);
	nest_end(&b, e);
	nest_end(&b, t);
	msg_end(&b, m);
	done(&b, SEQ + 2, 0);
	CHECK_INT(rs_leaks_parse(&d, b.w, b.len), 0);
	CHECK(d.done);
	CHECK_UINT(d.n_leaks, 3);
	leak_text(&d.leaks[2], line, sizeof(line));
	snprintf(want, sizeof(want), "rxe0 srq srqn 0 type BASIC pdn 4 "
		 "(pid %u)", me);
	CHECK_STR(line, want);
	d.leaks[2].kind = "qp";
	d.leaks[2].val[RS_LEAK_TYPE] = 7;
	leak_text(&d.leaks[2], line, sizeof(line));
	snprintf(want, sizeof(want), "rxe0 qp type 7 srqn 0 pdn 4 (pid %u)",
		 me);
	CHECK_STR(line, want);
	rs_leak_dump_free(&d);
}

TEST(leaks, errors)
{
	struct rs_leak_dump d = { .seq = SEQ, .pid = 1 };
	struct nlbuf b = { .len = 0 };
	struct nlmsgerr ne = { .error = -EINVAL };
	size_t m, t;

	/* An older kernel does not know the command. */
	m = msg_start(&b, NLMSG_ERROR, SEQ);
	put(&b, &ne, sizeof(ne));
	msg_end(&b, m);
	CHECK_INT(rs_leaks_parse(&d, b.w, b.len), 0);
	CHECK(d.done);
	CHECK_INT(d.err, -EINVAL);

	/* A dump that failed: the errno comes with NLMSG_DONE. */
	memset(&d, 0, sizeof(d));
	d.seq = SEQ;
	b.len = 0;
	done(&b, SEQ, -EOPNOTSUPP);
	CHECK_INT(rs_leaks_parse(&d, b.w, b.len), 0);
	CHECK(d.done);
	CHECK_INT(d.err, -EOPNOTSUPP);

	/* An attribute longer than its message. */
	memset(&d, 0, sizeof(d));
	d.seq = SEQ;
	b.len = 0;
	m = msg_start(&b, nldev(RDMA_NLDEV_CMD_RES_QP_GET), SEQ);
	dev_hdr(&b);
	t = nest_start(&b, RDMA_NLDEV_ATTR_RES_QP);
	qp_entry(&b, 17, 2, 1, NULL);
	nest_end(&b, t);
	((struct nlattr *)at(&b, t))->nla_len += 64;
	msg_end(&b, m);
	CHECK_INT(rs_leaks_parse(&d, b.w, b.len), -EPROTO);

	/* A message longer than the buffer. */
	memset(&d, 0, sizeof(d));
	d.seq = SEQ;
	CHECK_INT(rs_leaks_parse(&d, b.w, b.len - 4), -EPROTO);
	rs_leak_dump_free(&d);
}
