// SPDX-License-Identifier: MIT
/*
 * RDMA netlink (nldev), once for the engine: the leak check and the
 * per-QP counters both ask the kernel through here.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "alloc.h"
#include "rdma_nl.h"

/* The kernel sizes dump messages to the reader's buffer, up to 32 KiB. */
#define NL_BUF_SIZE (64 * 1024)

/* --- attributes ----------------------------------------------------------- */

struct rs_nla_it rs_nla_in(const struct nlattr *a)
{
	return (struct rs_nla_it){ (const uint8_t *)a + NLA_HDRLEN,
				   a->nla_len - NLA_HDRLEN };
}

struct rs_nla_it rs_nla_of_msg(const struct nlmsghdr *h)
{
	return (struct rs_nla_it){ NLMSG_DATA(h),
				   h->nlmsg_len - NLMSG_HDRLEN };
}

int rs_nla_next(struct rs_nla_it *it, const struct nlattr **ret)
{
	const struct nlattr *a = (const void *)it->p;
	size_t step;

	if (it->len < NLA_HDRLEN)
		return 0;
	if (a->nla_len < NLA_HDRLEN || a->nla_len > it->len)
		return -EPROTO;
	step = NLA_ALIGN(a->nla_len);
	if (step > it->len)      /* the last one need not be padded */
		step = it->len;
	it->p += step;
	it->len -= step;
	*ret = a;
	return 1;
}

unsigned rs_nla_type(const struct nlattr *a)
{
	return a->nla_type & NLA_TYPE_MASK;
}

int rs_nla_index(struct rs_nla_it it, const struct nlattr **tb)
{
	const struct nlattr *a;
	int r;

	memset(tb, 0, RDMA_NLDEV_ATTR_MAX * sizeof(*tb));
	while ((r = rs_nla_next(&it, &a)) > 0)
		if (rs_nla_type(a) < RDMA_NLDEV_ATTR_MAX)
			tb[rs_nla_type(a)] = a;
	return r;
}

bool rs_nla_uint(const struct nlattr *a, uint64_t *ret)
{
	const void *p = (const uint8_t *)a + NLA_HDRLEN;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;

	switch (a->nla_len - NLA_HDRLEN) {
	case 1: memcpy(&u8, p, 1); *ret = u8; return true;
	case 2: memcpy(&u16, p, 2); *ret = u16; return true;
	case 4: memcpy(&u32, p, 4); *ret = u32; return true;
	case 8: memcpy(ret, p, 8); return true;
	}
	return false;
}

void rs_nla_str(const struct nlattr *a, char *buf, size_t size)
{
	const char *s = (const char *)a + NLA_HDRLEN;
	size_t n = strnlen(s, a->nla_len - NLA_HDRLEN);

	if (n >= size)
		n = size - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
}

/* --- requests ------------------------------------------------------------- */

void rs_nl_req_init(struct rs_nl_req *r, uint8_t cmd, uint16_t flags)
{
	memset(r, 0, sizeof(*r));
	r->u.h.nlmsg_len = NLMSG_HDRLEN;
	r->u.h.nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
	r->u.h.nlmsg_flags = NLM_F_REQUEST | flags;
}

int rs_nl_req_u32(struct rs_nl_req *r, uint16_t type, uint32_t v)
{
	struct nlattr a = { .nla_len = NLA_HDRLEN + sizeof(v),
			    .nla_type = type };
	uint8_t *p = (uint8_t *)r->u.w + r->u.h.nlmsg_len;

	if (r->u.h.nlmsg_len + NLA_ALIGN(a.nla_len) > sizeof(r->u.w))
		return -ENOSPC;
	memcpy(p, &a, sizeof(a));
	memcpy(p + NLA_HDRLEN, &v, sizeof(v));
	r->u.h.nlmsg_len += NLA_ALIGN(a.nla_len);
	return 0;
}

/* --- replies -------------------------------------------------------------- */

int rs_nl_walk(struct rs_nl_reply *rp, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (!rp->done && len >= NLMSG_HDRLEN) {
		const struct nlmsghdr *h = (const void *)p;
		size_t step, plen;
		struct nlmsgerr ne;
		int r = 0;

		if (h->nlmsg_len < NLMSG_HDRLEN || h->nlmsg_len > len)
			return -EPROTO;
		plen = h->nlmsg_len - NLMSG_HDRLEN;
		step = NLMSG_ALIGN(h->nlmsg_len);
		if (step > len)
			step = len;
		p += step;
		len -= step;
		/* Left over from an exchange given up on, or not for us. */
		if (h->nlmsg_seq != rp->seq ||
		    (rp->port && h->nlmsg_pid != rp->port))
			continue;
		switch (h->nlmsg_type) {
		case NLMSG_NOOP:
			break;
		case NLMSG_DONE:
			/* A dump that failed part way says why here. */
			if (plen >= sizeof(int)) {
				int err;

				memcpy(&err, NLMSG_DATA(h), sizeof(err));
				if (err < 0)
					rp->err = err;
			}
			rp->done = true;
			break;
		case NLMSG_ERROR:
			if (plen < sizeof(ne.error))
				return -EPROTO;
			memcpy(&ne.error, NLMSG_DATA(h), sizeof(ne.error));
			rp->err = ne.error < 0 ? ne.error : 0;
			rp->done = true;
			break;
		default:
			r = rp->msg ? rp->msg(rp->arg, h) : 0;
		}
		if (r)
			return r;
	}
	return 0;
}

/* --- the socket ----------------------------------------------------------- */

int rs_nl_open(struct rs_nl *nl)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	socklen_t sl = sizeof(sa);
	int err;

	nl->buf = NULL;
	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	if (nl->fd < 0)
		return -errno;
	if (bind(nl->fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(nl->fd, (struct sockaddr *)&sa, &sl)) {
		err = -errno;
		close(nl->fd);
		nl->fd = -1;
		return err;
	}
	nl->port = sa.nl_pid;
	nl->seq = (uint32_t)getpid() << 8;
	nl->buf = rs_malloc(NL_BUF_SIZE);
	if (!nl->buf) {
		close(nl->fd);
		nl->fd = -1;
		return -ENOMEM;
	}
	return 0;
}

void rs_nl_close(struct rs_nl *nl)
{
	if (nl->fd >= 0)
		close(nl->fd);
	nl->fd = -1;
	rs_free(nl->buf);
	nl->buf = NULL;
}

int rs_nl_talk(struct rs_nl *nl, struct rs_nl_req *req,
	       struct rs_nl_reply *reply)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	int r;

	req->u.h.nlmsg_seq = ++nl->seq;
	reply->seq = nl->seq;
	reply->port = nl->port;
	reply->done = false;
	reply->err = 0;
	if (sendto(nl->fd, req->u.w, req->u.h.nlmsg_len, 0,
		   (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return -errno;
	while (!reply->done) {
		struct iovec iov = { nl->buf, NL_BUF_SIZE };
		struct sockaddr_nl from;
		struct msghdr m = { .msg_name = &from,
				    .msg_namelen = sizeof(from),
				    .msg_iov = &iov, .msg_iovlen = 1 };
		ssize_t n = recvmsg(nl->fd, &m, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (m.msg_flags & MSG_TRUNC)
			return -EMSGSIZE;
		if (from.nl_pid != 0)       /* only the kernel answers */
			continue;
		r = rs_nl_walk(reply, nl->buf, (size_t)n);
		if (r)
			return r;
	}
	return reply->err;
}
