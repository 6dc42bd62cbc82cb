/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_TEST_NLBUF_H
#define RDMASCN_TEST_NLBUF_H

/*
 * Netlink messages built the way the kernel builds them, for the tests
 * of what parses them (test_leaks.c, test_qp_counters.c).
 */
#include <stdint.h>
#include <string.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "check.h"

/* A buffer of netlink messages, built the way the kernel builds them. */
struct nlbuf {
	uint32_t w[2048];        /* aligned for nlmsghdr and nlattr */
	size_t len;
};

static inline void *at(struct nlbuf *b, size_t off)
{
	return (uint8_t *)b->w + off;
}

static inline void put(struct nlbuf *b, const void *p, size_t n)
{
	CHECK(b->len + NLMSG_ALIGN(n) <= sizeof(b->w));
	memset(at(b, b->len), 0, NLMSG_ALIGN(n));
	memcpy(at(b, b->len), p, n);
	b->len += NLMSG_ALIGN(n);
}

static inline size_t msg_start(struct nlbuf *b, uint16_t type,
				uint32_t seq)
{
	struct nlmsghdr h = { .nlmsg_type = type, .nlmsg_seq = seq,
			      .nlmsg_flags = NLM_F_MULTI };
	size_t off = b->len;

	put(b, &h, sizeof(h));
	return off;
}

static inline void msg_end(struct nlbuf *b, size_t off)
{
	((struct nlmsghdr *)at(b, off))->nlmsg_len = (uint32_t)(b->len - off);
}

static inline size_t attr(struct nlbuf *b, uint16_t type, const void *p,
			   size_t n)
{
	struct nlattr a = { .nla_len = (uint16_t)(NLA_HDRLEN + n),
			    .nla_type = type };
	size_t off = b->len;

	put(b, &a, sizeof(a));
	if (n)
		put(b, p, n);
	return off;
}

static inline void u32(struct nlbuf *b, uint16_t type, uint32_t v)
{
	attr(b, type, &v, sizeof(v));
}

static inline void u8(struct nlbuf *b, uint16_t type, uint8_t v)
{
	attr(b, type, &v, sizeof(v));
}

/* As nla_put_u64_64bit: a pad attribute first when the value would not be
 * 8-byte aligned. */
static inline void u64(struct nlbuf *b, uint16_t type, uint64_t v)
{
	if ((b->len + NLA_HDRLEN) % 8)
		attr(b, RDMA_NLDEV_ATTR_PAD, NULL, 0);
	attr(b, type, &v, sizeof(v));
}

static inline void str(struct nlbuf *b, uint16_t type, const char *s)
{
	attr(b, type, s, strlen(s) + 1);
}

static inline size_t nest_start(struct nlbuf *b, uint16_t type)
{
	return attr(b, type, NULL, 0);
}

static inline void nest_end(struct nlbuf *b, size_t off)
{
	((struct nlattr *)at(b, off))->nla_len = (uint16_t)(b->len - off);
}

static inline void done(struct nlbuf *b, uint32_t seq, int err)
{
	size_t m = msg_start(b, NLMSG_DONE, seq);

	put(b, &err, sizeof(err));
	msg_end(b, m);
}

static inline uint16_t nldev(uint8_t cmd)
{
	return RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
}

#endif
