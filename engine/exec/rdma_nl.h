/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_RDMA_NL_H
#define RDMASCN_RDMA_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

/*
 * The engine's one RDMA netlink (nldev) client: the leak check's dumps
 * (leaks.c) and the per-QP counters' bind, unbind and reads
 * (qp_counters.c).  Raw netlink and a small attribute walker, no libmnl,
 * for the few attributes read here.  Building a request and walking a
 * reply are apart from the socket, so tests feed them bytes.
 */

/* --- attributes --------------------------------------------------------- */

/* The attributes in a stretch of bytes: a message's or a nest's. */
struct rs_nla_it {
	const uint8_t *p;
	size_t len;
};

/* The attributes nested in @a. */
struct rs_nla_it rs_nla_in(const struct nlattr *a);
/* The attributes of an nldev message (nldev has no fixed header). */
struct rs_nla_it rs_nla_of_msg(const struct nlmsghdr *h);
/* 1 and the next attribute in *ret, 0 at the end, -EPROTO. */
int rs_nla_next(struct rs_nla_it *it, const struct nlattr **ret);
unsigned rs_nla_type(const struct nlattr *a);
/* tb[type] (RDMA_NLDEV_ATTR_MAX entries): the last attribute of each
 * type; types a newer kernel added are ignored.  0 or -EPROTO. */
int rs_nla_index(struct rs_nla_it it, const struct nlattr **tb);
/* An unsigned of any of the sizes the kernel puts; false otherwise. */
bool rs_nla_uint(const struct nlattr *a, uint64_t *ret);
/* A string, cut to @size bytes with its NUL. */
void rs_nla_str(const struct nlattr *a, char *buf, size_t size);

/* --- requests ----------------------------------------------------------- */

/* A request: a header and a few u32 attributes, as `rdma` sends them. */
struct rs_nl_req {
	union {
		struct nlmsghdr h;
		uint32_t w[32];  /* aligned for the header and attributes */
	} u;
};

/* An nldev request for @cmd with @flags (NLM_F_REQUEST is added);
 * nlmsg_seq is set when it is sent (rs_nl_talk()). */
void rs_nl_req_init(struct rs_nl_req *r, uint8_t cmd, uint16_t flags);
/* Append a u32 attribute: 0, or -ENOSPC (a bug: requests are small). */
int rs_nl_req_u32(struct rs_nl_req *r, uint16_t type, uint32_t v);

/* --- replies ------------------------------------------------------------ */

/*
 * One request's answer, over as many received buffers as it takes.
 * Messages of another sequence number (left from an exchange given up
 * on) or from another port are passed over; @msg is called on each data
 * message (an nldev one or not: it looks); NLMSG_DONE and NLMSG_ERROR
 * (an ack, or the kernel's errno) end it.
 */
struct rs_nl_reply {
	uint32_t seq;            /* the request's */
	uint32_t port;           /* our netlink port id; 0: any */
	int (*msg)(void *arg, const struct nlmsghdr *h);
	void *arg;
	bool done;
	int err;                 /* the kernel's answer: 0 or -errno */
};

/* Walk one received buffer: 0, -EPROTO on a malformed message, or what
 * @msg returned (not 0). */
int rs_nl_walk(struct rs_nl_reply *r, const void *buf, size_t len);

/* --- the socket --------------------------------------------------------- */

struct rs_nl {
	int fd;
	uint32_t port;
	uint32_t seq;
	void *buf;
};

/* 0, or -errno (-EPROTONOSUPPORT: this kernel has no RDMA netlink). */
int rs_nl_open(struct rs_nl *nl);
/* Accepts one that failed to open, or was never opened (fd -1). */
void rs_nl_close(struct rs_nl *nl);
/*
 * Send @req (its sequence number set here) and take the answer into
 * @reply until it is done: 0, the kernel's -errno, or -errno of the
 * socket.  A request that is not a dump should ask for NLM_F_ACK, or
 * its success has no end to wait for.
 */
int rs_nl_talk(struct rs_nl *nl, struct rs_nl_req *req,
	       struct rs_nl_reply *reply);

#endif
