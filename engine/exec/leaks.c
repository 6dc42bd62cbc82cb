// SPDX-License-Identifier: MIT
/*
 * --check-leaks: after teardown, ask the kernel which RDMA resources this
 * process still owns.  The kernel's resource tracking (restrack) answers
 * over RDMA netlink, as for `rdma res show`: first a dump of the devices,
 * then one dump per device and resource type, since the kernel dumps
 * resources of one RDMA_NLDEV_ATTR_DEV_INDEX only.  Raw netlink and a
 * small attribute walker: no libmnl for the few attributes read here.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "alloc.h"
#include "leaks.h"
#include "live.h"
#include "wire.h"
#include "run.h"

/* The kernel sizes dump messages to the reader's buffer, up to 32 KiB. */
#define NL_BUF_SIZE (64 * 1024)

static const struct leak_field {
	uint16_t attr;
	const char *name;
	enum { SHOW_DEC, SHOW_HEX, SHOW_TYPE } show;
} fields[RS_LEAK_N_FIELDS] = {
	[RS_LEAK_QPN] = { RDMA_NLDEV_ATTR_RES_LQPN, "qpn", SHOW_DEC },
	[RS_LEAK_TYPE] = { RDMA_NLDEV_ATTR_RES_TYPE, "type", SHOW_TYPE },
	[RS_LEAK_CQN] = { RDMA_NLDEV_ATTR_RES_CQN, "cqn", SHOW_DEC },
	[RS_LEAK_SRQN] = { RDMA_NLDEV_ATTR_RES_SRQN, "srqn", SHOW_DEC },
	[RS_LEAK_MRN] = { RDMA_NLDEV_ATTR_RES_MRN, "mrn", SHOW_DEC },
	[RS_LEAK_RKEY] = { RDMA_NLDEV_ATTR_RES_RKEY, "rkey", SHOW_HEX },
	[RS_LEAK_LKEY] = { RDMA_NLDEV_ATTR_RES_LKEY, "lkey", SHOW_HEX },
	[RS_LEAK_LENGTH] = { RDMA_NLDEV_ATTR_RES_MRLEN, "length", SHOW_DEC },
	[RS_LEAK_PDN] = { RDMA_NLDEV_ATTR_RES_PDN, "pdn", SHOW_DEC },
	[RS_LEAK_CTXN] = { RDMA_NLDEV_ATTR_RES_CTXN, "ctxn", SHOW_DEC },
	[RS_LEAK_CM_IDN] = { RDMA_NLDEV_ATTR_RES_CM_IDN, "cm_idn", SHOW_DEC },
};

/* In creation order, which is also the order they are asked and shown. */
static const struct leak_kind {
	const char *name;
	const char *cmd_name;
	uint8_t cmd;
	uint16_t table, entry;
	enum rs_leak_field own;  /* shown first */
} kinds[] = {
	{ "ctx", "RDMA_NLDEV_CMD_RES_CTX_GET", RDMA_NLDEV_CMD_RES_CTX_GET,
	  RDMA_NLDEV_ATTR_RES_CTX, RDMA_NLDEV_ATTR_RES_CTX_ENTRY,
	  RS_LEAK_CTXN },
	{ "pd", "RDMA_NLDEV_CMD_RES_PD_GET", RDMA_NLDEV_CMD_RES_PD_GET,
	  RDMA_NLDEV_ATTR_RES_PD, RDMA_NLDEV_ATTR_RES_PD_ENTRY, RS_LEAK_PDN },
	{ "mr", "RDMA_NLDEV_CMD_RES_MR_GET", RDMA_NLDEV_CMD_RES_MR_GET,
	  RDMA_NLDEV_ATTR_RES_MR, RDMA_NLDEV_ATTR_RES_MR_ENTRY, RS_LEAK_MRN },
	{ "cq", "RDMA_NLDEV_CMD_RES_CQ_GET", RDMA_NLDEV_CMD_RES_CQ_GET,
	  RDMA_NLDEV_ATTR_RES_CQ, RDMA_NLDEV_ATTR_RES_CQ_ENTRY, RS_LEAK_CQN },
	{ "srq", "RDMA_NLDEV_CMD_RES_SRQ_GET", RDMA_NLDEV_CMD_RES_SRQ_GET,
	  RDMA_NLDEV_ATTR_RES_SRQ, RDMA_NLDEV_ATTR_RES_SRQ_ENTRY,
	  RS_LEAK_SRQN },
	{ "qp", "RDMA_NLDEV_CMD_RES_QP_GET", RDMA_NLDEV_CMD_RES_QP_GET,
	  RDMA_NLDEV_ATTR_RES_QP, RDMA_NLDEV_ATTR_RES_QP_ENTRY, RS_LEAK_QPN },
	{ "cm_id", "RDMA_NLDEV_CMD_RES_CM_ID_GET", RDMA_NLDEV_CMD_RES_CM_ID_GET,
	  RDMA_NLDEV_ATTR_RES_CM_ID, RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY,
	  RS_LEAK_CM_IDN },
};

/* RES_TYPE is the kernel's enum ib_qp_type for qps and cm_ids, its enum
 * ib_srq_type for srqs; named as iproute2 names them. */
static const char *const qp_types[] = {
	"SMI", "GSI", "RC", "UC", "UD", "RAW_IPV6", "RAW_ETHERTYPE", NULL,
	"RAW_PACKET", "XRC_INI", "XRC_TGT",
};
static const char *const srq_types[] = { "BASIC", "XRC", "TM" };

static const char *type_name(const char *kind, uint64_t v)
{
	if (!strcmp(kind, "srq"))
		return v < RS_N(srq_types) ? srq_types[v] : NULL;
	return v < RS_N(qp_types) ? qp_types[v] : NULL;
}

/* --- attributes ----------------------------------------------------------- */

struct attrs {
	const uint8_t *p;
	size_t len;
};

static struct attrs attrs_of(const struct nlattr *a)
{
	return (struct attrs){ (const uint8_t *)a + NLA_HDRLEN,
			       a->nla_len - NLA_HDRLEN };
}

/* 1 and the next attribute in *ret, 0 at the end, -EPROTO. */
static int attr_next(struct attrs *it, const struct nlattr **ret)
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

static unsigned attr_type(const struct nlattr *a)
{
	return a->nla_type & NLA_TYPE_MASK;
}

/* tb[type]: the last attribute of each type; types past RDMA_NLDEV_ATTR_MAX
 * (a newer kernel's) are ignored. */
static int attr_index(struct attrs it, const struct nlattr **tb)
{
	const struct nlattr *a;
	int r;

	memset(tb, 0, RDMA_NLDEV_ATTR_MAX * sizeof(*tb));
	while ((r = attr_next(&it, &a)) > 0)
		if (attr_type(a) < RDMA_NLDEV_ATTR_MAX)
			tb[attr_type(a)] = a;
	return r;
}

/* An unsigned of any of the sizes the kernel puts; false otherwise. */
static bool attr_uint(const struct nlattr *a, uint64_t *ret)
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

static void attr_str(const struct nlattr *a, char *buf, size_t size)
{
	const char *s = (const char *)a + NLA_HDRLEN;
	size_t n = strnlen(s, a->nla_len - NLA_HDRLEN);

	if (n >= size)
		n = size - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
}

/* --- messages ------------------------------------------------------------- */

static void *grow(void *arr, unsigned n, unsigned *cap, size_t size)
{
	void *p;

	if (n < *cap)
		return arr;
	p = rs_reallocarray(arr, *cap ? 2 * *cap : 16, size);
	if (p)
		*cap = *cap ? 2 * *cap : 16;
	return p;
}

static int parse_entry(struct rs_leak_dump *d, const struct leak_kind *k,
		       const char *dev, const struct nlattr *e)
{
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct rs_leak *l, *arr;
	uint64_t pid;
	int r;

	r = attr_index(attrs_of(e), tb);
	if (r)
		return r;
	/* The kernel's own have a name and no pid; the pid of a process
	 * that is gone is left out as well.  The pid is the creating
	 * task's: a thread's own id, were verbs called from a thread (the
	 * engine calls them from its main one). */
	if (tb[RDMA_NLDEV_ATTR_RES_KERN_NAME] || !tb[RDMA_NLDEV_ATTR_RES_PID] ||
	    !attr_uint(tb[RDMA_NLDEV_ATTR_RES_PID], &pid) || pid != d->pid) {
		d->others++;
		return 0;
	}
	arr = grow(d->leaks, d->n_leaks, &d->cap_leaks, sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	d->leaks = arr;
	l = &arr[d->n_leaks++];
	memset(l, 0, sizeof(*l));
	snprintf(l->dev, sizeof(l->dev), "%s", dev);
	l->kind = k->name;
	l->pid = (uint32_t)pid;
	for (unsigned i = 0; i < RS_LEAK_N_FIELDS; i++)
		if (tb[fields[i].attr] && attr_uint(tb[fields[i].attr],
						    &l->val[i]))
			l->have |= 1u << i;
	return 0;
}

static int parse_dev(struct rs_leak_dump *d, const struct nlattr **tb)
{
	struct rs_leak_dev *arr;
	uint64_t index;

	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX] ||
	    !attr_uint(tb[RDMA_NLDEV_ATTR_DEV_INDEX], &index))
		return -EPROTO;
	arr = grow(d->devs, d->n_devs, &d->cap_devs, sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	d->devs = arr;
	arr[d->n_devs].index = (uint32_t)index;
	arr[d->n_devs].name[0] = '\0';
	if (tb[RDMA_NLDEV_ATTR_DEV_NAME])
		attr_str(tb[RDMA_NLDEV_ATTR_DEV_NAME], arr[d->n_devs].name,
			 sizeof(arr[d->n_devs].name));
	d->n_devs++;
	return 0;
}

/* One nldev message: a device, or one device's table of resources. */
static int parse_msg(struct rs_leak_dump *d, const struct nlmsghdr *h)
{
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX], *e;
	unsigned op = RDMA_NL_GET_OP(h->nlmsg_type);
	const struct leak_kind *k = NULL;
	char dev[64] = "";
	struct attrs it;
	int r;

	if (RDMA_NL_GET_CLIENT(h->nlmsg_type) != RDMA_NL_NLDEV)
		return 0;
	/* nldev has no fixed header: attributes follow the nlmsghdr. */
	r = attr_index((struct attrs){ NLMSG_DATA(h),
				       h->nlmsg_len - NLMSG_HDRLEN }, tb);
	if (r)
		return r;
	if (op == RDMA_NLDEV_CMD_GET)
		return parse_dev(d, tb);
	for (unsigned i = 0; i < RS_N(kinds); i++)
		if (kinds[i].cmd == op)
			k = &kinds[i];
	if (!k || !tb[k->table])
		return 0;
	if (tb[RDMA_NLDEV_ATTR_DEV_NAME])
		attr_str(tb[RDMA_NLDEV_ATTR_DEV_NAME], dev, sizeof(dev));
	it = attrs_of(tb[k->table]);
	while ((r = attr_next(&it, &e)) > 0) {
		if (attr_type(e) != k->entry)
			continue;
		r = parse_entry(d, k, dev, e);
		if (r)
			return r;
	}
	return r;
}

int rs_leaks_parse(struct rs_leak_dump *d, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (!d->done && len >= NLMSG_HDRLEN) {
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
		/* Left over from a dump given up on, or not for us. */
		if (h->nlmsg_seq != d->seq ||
		    (d->port && h->nlmsg_pid != d->port))
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
					d->err = err;
			}
			d->done = true;
			break;
		case NLMSG_ERROR:
			if (plen < sizeof(ne.error))
				return -EPROTO;
			memcpy(&ne.error, NLMSG_DATA(h), sizeof(ne.error));
			d->err = ne.error < 0 ? ne.error : 0;
			d->done = true;
			break;
		default:
			r = parse_msg(d, h);
		}
		if (r)
			return r;
	}
	return 0;
}

void rs_leak_dump_free(struct rs_leak_dump *d)
{
	rs_free(d->leaks);
	rs_free(d->devs);
	d->leaks = NULL;
	d->devs = NULL;
	d->n_leaks = d->cap_leaks = d->n_devs = d->cap_devs = 0;
}

/* --- the socket ----------------------------------------------------------- */

struct nl {
	int fd;
	uint32_t port;
	uint32_t seq;
	void *buf;
};

static int nl_open(struct nl *nl)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	socklen_t sl = sizeof(sa);
	int err;

	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	if (nl->fd < 0)
		return -errno;
	if (bind(nl->fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(nl->fd, (struct sockaddr *)&sa, &sl)) {
		err = -errno;
		close(nl->fd);
		return err;
	}
	nl->port = sa.nl_pid;
	nl->seq = (uint32_t)getpid() << 8;
	nl->buf = rs_malloc(NL_BUF_SIZE);
	if (!nl->buf) {
		close(nl->fd);
		return -ENOMEM;
	}
	return 0;
}

static void nl_close(struct nl *nl)
{
	close(nl->fd);
	rs_free(nl->buf);
}

/* Ask for a dump of @cmd (of the device @dev_index, unless NULL) and parse
 * the answer into @d; 0 or -errno, the kernel's included. */
static int nl_dump(struct nl *nl, uint8_t cmd, const uint32_t *dev_index,
		   struct rs_leak_dump *d)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct {
		struct nlmsghdr h;
		struct nlattr a;
		uint32_t index;
	} req;
	size_t len = NLMSG_HDRLEN;
	int r;

	memset(&req, 0, sizeof(req));
	if (dev_index) {
		req.a.nla_type = RDMA_NLDEV_ATTR_DEV_INDEX;
		req.a.nla_len = NLA_HDRLEN + sizeof(req.index);
		req.index = *dev_index;
		len += NLA_ALIGN(req.a.nla_len);
	}
	req.h.nlmsg_len = (uint32_t)len;
	req.h.nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.h.nlmsg_seq = ++nl->seq;
	d->seq = nl->seq;
	d->port = nl->port;
	d->done = false;
	d->err = 0;
	if (sendto(nl->fd, &req, len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return -errno;
	while (!d->done) {
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
		r = rs_leaks_parse(d, nl->buf, (size_t)n);
		if (r)
			return r;
	}
	return d->err;
}

/* --- the check ------------------------------------------------------------ */

/* Whether this run got an rdma_cm connection as far as its device. */
static bool run_used_rdma_cm(const struct rs_run *run)
{
	if (!run || !run->s || !run->live)
		return false;
	for (unsigned i = 0; i < run->s->n_objects; i++) {
		if (rs_uses_rdma_cm(&run->live[i]) &&
		    run->live[i].state != RS_LIVE_PENDING &&
		    run->live[i].state != RS_LIVE_DEPENDENT)
			return true;
	}
	return false;
}

/* A context with none of our pds or cqs left in it. */
static bool ctx_empty(const struct rs_leak_dump *d, const struct rs_leak *c)
{
	if (strcmp(c->kind, "ctx"))
		return false;
	for (unsigned i = 0; i < d->n_leaks; i++) {
		const struct rs_leak *l = &d->leaks[i];

		if (l != c && (l->have & (1u << RS_LEAK_CTXN)) &&
		    strcmp(l->kind, "ctx") && !strcmp(l->dev, c->dev) &&
		    l->val[RS_LEAK_CTXN] == c->val[RS_LEAK_CTXN])
			return false;
	}
	return true;
}

/*
 * librdmacm opens a device context of its own the first time one of its
 * ids is bound to the device, and keeps it open until the process exits
 * (only its pd goes with the last id).  So after a run with rdma_cm
 * connections, one empty context a device is librdmacm's, not a leak.
 * Which of two empty ones is cannot be told; the last listed is excused.
 */
static bool librdmacm_ctx(const struct rs_leak_dump *d, unsigned i)
{
	const struct rs_leak *c = &d->leaks[i];

	if (!ctx_empty(d, c))
		return false;
	for (unsigned j = i + 1; j < d->n_leaks; j++)
		if (!strcmp(d->leaks[j].dev, c->dev) &&
		    ctx_empty(d, &d->leaks[j]))
			return false;
	return true;
}

/* @fmt as the leaks entry's "error": why the kernel could not be asked. */
static void __attribute__((format(printf, 2, 3)))
put_error(struct rs_val *e, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rs_val_put_str(e, "error", msg);
}

void rs_leak_put(struct rs_val *list, const struct rs_leak *l,
		 bool librdmacm)
{
	struct rs_val *e = rs_val_push_obj(list), *fs;
	int own = -1;

	rs_val_put_str(e, "device", l->dev[0] ? l->dev : "?");
	rs_val_put_str(e, "kind", l->kind);
	rs_val_put_u64(e, "pid", l->pid);
	if (librdmacm)
		rs_val_put_bool(e, "librdmacm", true);
	fs = rs_val_put_obj(e, "fields");
	for (unsigned i = 0; i < RS_N(kinds); i++)
		if (!strcmp(kinds[i].name, l->kind))
			own = (int)kinds[i].own;
	for (int n = -1; n < RS_LEAK_N_FIELDS; n++) {
		int i = n < 0 ? own : n;
		const struct leak_field *f = &fields[i < 0 ? 0 : i];
		uint64_t v;

		if (i < 0 || (n >= 0 && i == own) || !(l->have & (1u << i)))
			continue;
		v = l->val[i];
		if (f->show == SHOW_TYPE && type_name(l->kind, v))
			rs_val_put_str(fs, f->name, type_name(l->kind, v));
		else if (f->show == SHOW_HEX)
			rs_val_put_strf(fs, f->name, "0x%llx",
					(unsigned long long)v);
		else
			rs_val_put_u64(fs, f->name, v);
	}
}

int rs_leaks_check(const struct rs_run *run, struct rs_val *e,
		   unsigned *n_devs)
{
	struct rs_leak_dump d = { .pid = (uint32_t)getpid() };
	struct rs_val *list, *unchecked = NULL;
	bool verbose = run && run->verbose;
	unsigned excused = 0;
	bool rdma_cm;
	struct nl nl;
	int r;

	r = nl_open(&nl);
	if (r == -EPROTONOSUPPORT) {
		put_error(e, "cannot ask the kernel: this kernel has no RDMA "
			  "netlink (NETLINK_RDMA: %s)", strerror(-r));
		return r;
	}
	if (r) {
		put_error(e, "cannot ask the kernel: RDMA netlink socket: %s",
			  strerror(-r));
		return r;
	}
	r = nl_dump(&nl, RDMA_NLDEV_CMD_GET, NULL, &d);
	if (r) {
		put_error(e, "cannot list the RDMA devices "
			  "(RDMA_NLDEV_CMD_GET): %s", strerror(-r));
		goto out;
	}
	for (unsigned k = 0; k < RS_N(kinds); k++) {
		for (unsigned i = 0; i < d.n_devs; i++) {
			struct rs_val *u;

			r = nl_dump(&nl, kinds[k].cmd, &d.devs[i].index, &d);
			if (!r)
				continue;
			if (r != -EOPNOTSUPP && r != -EINVAL) {
				put_error(e, "%s: %s: %s", d.devs[i].name,
					  kinds[k].cmd_name, strerror(-r));
				goto out;
			}
			/* An older kernel: this type is not tracked. */
			if (!unchecked)
				unchecked = rs_val_put_arr(e, "unchecked");
			u = rs_val_push_obj(unchecked);
			rs_val_put_str(u, "device", d.devs[i].name);
			rs_val_put_str(u, "kind", kinds[k].name);
			rs_val_put_str(u, "request", kinds[k].cmd_name);
			rs_val_put_str(u, "error", strerror(-r));
			r = 0;
			break;
		}
	}
	rdma_cm = run_used_rdma_cm(run);
	list = rs_val_put_arr(e, "resources");
	for (unsigned i = 0; i < d.n_leaks; i++) {
		bool own = rdma_cm && librdmacm_ctx(&d, i);

		/* librdmacm's context is listed with -v only, as what
		 * was not counted. */
		excused += own;
		if (!own || verbose)
			rs_leak_put(list, &d.leaks[i], own);
	}
	if (verbose) {
		struct rs_val *a = rs_val_put_obj(e, "asked");

		rs_val_put_u64(a, "resources", d.n_leaks);
		rs_val_put_u64(a, "librdmacm", excused);
		rs_val_put_u64(a, "others", d.others);
	}
	r = (int)(d.n_leaks - excused);
	*n_devs = d.n_devs;
	/* A netem of ours on a netdev the run touched (wire.c). */
	if (run) {
		int q = rs_wire_leaks(run, list);

		if (q < 0) {
			put_error(e, "cannot read the qdiscs of the netdevs "
				  "this run changed: %s", strerror(-q));
			r = q;
			goto out;
		}
		r += q;
	}
out:
	rs_leak_dump_free(&d);
	nl_close(&nl);
	return r;
}
