// SPDX-License-Identifier: MIT
/*
 * --check-leaks: after teardown, ask the kernel which RDMA resources this
 * process still owns.  The kernel's resource tracking (restrack) answers
 * over RDMA netlink, as for `rdma res show`: first a dump of the devices,
 * then one dump per device and resource type, since the kernel dumps
 * resources of one RDMA_NLDEV_ATTR_DEV_INDEX only; through the engine's
 * one RDMA netlink client (rdma_nl.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "leaks.h"
#include "live.h"
#include "qp_counters.h"
#include "rdma_nl.h"
#include "wire.h"
#include "run.h"

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

/* --- messages ------------------------------------------------------------- */

static int parse_entry(struct rs_leak_dump *d, const struct leak_kind *k,
		       const char *dev, const struct nlattr *e)
{
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct rs_leak *l, *arr;
	uint64_t pid;
	int r;

	r = rs_nla_index(rs_nla_in(e), tb);
	if (r)
		return r;
	/* The kernel's own have a name and no pid; the pid of a process
	 * that is gone is left out as well.  The pid is the creating
	 * task's: a thread's own id, were verbs called from a thread (the
	 * engine calls them from its main one). */
	if (tb[RDMA_NLDEV_ATTR_RES_KERN_NAME] || !tb[RDMA_NLDEV_ATTR_RES_PID] ||
	    !rs_nla_uint(tb[RDMA_NLDEV_ATTR_RES_PID], &pid) || pid != d->pid) {
		d->others++;
		return 0;
	}
	arr = rs_grow(d->leaks, d->n_leaks, &d->cap_leaks, sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	d->leaks = arr;
	l = &arr[d->n_leaks++];
	memset(l, 0, sizeof(*l));
	snprintf(l->dev, sizeof(l->dev), "%s", dev);
	l->kind = k->name;
	l->pid = (uint32_t)pid;
	for (unsigned i = 0; i < RS_LEAK_N_FIELDS; i++)
		if (tb[fields[i].attr] && rs_nla_uint(tb[fields[i].attr],
						    &l->val[i]))
			l->have |= 1u << i;
	return 0;
}

static int parse_dev(struct rs_leak_dump *d, const struct nlattr **tb)
{
	struct rs_leak_dev *arr;
	uint64_t index;

	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX] ||
	    !rs_nla_uint(tb[RDMA_NLDEV_ATTR_DEV_INDEX], &index))
		return -EPROTO;
	arr = rs_grow(d->devs, d->n_devs, &d->cap_devs, sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	d->devs = arr;
	arr[d->n_devs].index = (uint32_t)index;
	arr[d->n_devs].name[0] = '\0';
	if (tb[RDMA_NLDEV_ATTR_DEV_NAME])
		rs_nla_str(tb[RDMA_NLDEV_ATTR_DEV_NAME], arr[d->n_devs].name,
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
	struct rs_nla_it it;
	int r;

	if (RDMA_NL_GET_CLIENT(h->nlmsg_type) != RDMA_NL_NLDEV)
		return 0;
	/* nldev has no fixed header: attributes follow the nlmsghdr. */
	r = rs_nla_index(rs_nla_of_msg(h), tb);
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
		rs_nla_str(tb[RDMA_NLDEV_ATTR_DEV_NAME], dev, sizeof(dev));
	it = rs_nla_in(tb[k->table]);
	while ((r = rs_nla_next(&it, &e)) > 0) {
		if (rs_nla_type(e) != k->entry)
			continue;
		r = parse_entry(d, k, dev, e);
		if (r)
			return r;
	}
	return r;
}

static int parse_one(void *arg, const struct nlmsghdr *h)
{
	return parse_msg(arg, h);
}

int rs_leaks_parse(struct rs_leak_dump *d, const void *buf, size_t len)
{
	struct rs_nl_reply rp = { .seq = d->seq, .port = d->port,
				  .msg = parse_one, .arg = d,
				  .done = d->done, .err = d->err };
	int r = rs_nl_walk(&rp, buf, len);

	d->done = rp.done;
	d->err = rp.err;
	return r;
}

void rs_leak_dump_free(struct rs_leak_dump *d)
{
	rs_free(d->leaks);
	rs_free(d->devs);
	d->leaks = NULL;
	d->devs = NULL;
	d->n_leaks = d->cap_leaks = d->n_devs = d->cap_devs = 0;
}

/* --- the dumps ----------------------------------------------------------- */

/* Ask for a dump of @cmd (of the device @dev_index, unless NULL) and parse
 * the answer into @d; 0 or -errno, the kernel's included. */
static int nl_dump(struct rs_nl *nl, uint8_t cmd, const uint32_t *dev_index,
		   struct rs_leak_dump *d)
{
	struct rs_nl_reply rp = { .msg = parse_one, .arg = d };
	struct rs_nl_req req;
	int r;

	rs_nl_req_init(&req, cmd, NLM_F_DUMP);
	if (dev_index)
		rs_nl_req_u32(&req, RDMA_NLDEV_ATTR_DEV_INDEX, *dev_index);
	r = rs_nl_talk(nl, &req, &rp);
	d->seq = rp.seq;
	d->port = rp.port;
	d->done = rp.done;
	d->err = rp.err;
	return r;
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
	const char *why = NULL;
	unsigned excused = 0;
	int n_counters;
	bool rdma_cm;
	struct rs_nl nl;
	int r;

	r = rs_nl_open(&nl);
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
	/* The counters the run bound to its QPs: none may be left. */
	n_counters = rs_qp_counters_leaks(run, &nl, list, &why);
	if (n_counters < 0) {
		put_error(e, "cannot list the counters (%s): %s", why,
			  strerror(-n_counters));
		r = n_counters;
		goto out;
	}
	if (verbose) {
		struct rs_val *a = rs_val_put_obj(e, "asked");

		rs_val_put_u64(a, "resources", d.n_leaks);
		rs_val_put_u64(a, "librdmacm", excused);
		rs_val_put_u64(a, "others", d.others);
	}
	r = (int)(d.n_leaks - excused) + n_counters;
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
	rs_nl_close(&nl);
	return r;
}
