// SPDX-License-Identifier: MIT
/*
 * Per-QP counters: RDMA netlink counter binding (the kernel's
 * drivers/infiniband/core/counters.c, answered by nldev.c), the way
 * iproute2's `rdma statistic qp` asks.  A bind is RDMA_NLDEV_CMD_STAT_SET
 * in manual mode with no counter id, so the kernel allocates one and
 * answers with its RDMA_NLDEV_ATTR_STAT_COUNTER_ID; an unbind is
 * RDMA_NLDEV_CMD_STAT_DEL of that id and the QP, after which the kernel
 * frees the counter (its last QP went).  The values are read with a
 * RDMA_NLDEV_CMD_STAT_GET dump per device, which queries the hardware
 * for each counter (no sysfs `lifespan` cache in between).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "live.h"
#include "qp_counters.h"
#include "run.h"

/* --- requests ------------------------------------------------------------- */

void rs_qpc_req_bind(struct rs_nl_req *r, uint32_t dev, uint32_t port,
		     uint32_t qpn)
{
	rs_nl_req_init(r, RDMA_NLDEV_CMD_STAT_SET, NLM_F_ACK);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, dev);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_RES_LQPN, qpn);
}

void rs_qpc_req_unbind(struct rs_nl_req *r, uint32_t dev, uint32_t port,
		       uint32_t cntn, uint32_t qpn)
{
	rs_nl_req_init(r, RDMA_NLDEV_CMD_STAT_DEL, NLM_F_ACK);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, dev);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, cntn);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_RES_LQPN, qpn);
}

void rs_qpc_req_get(struct rs_nl_req *r, uint32_t dev, uint32_t port,
		    uint32_t cntn)
{
	rs_nl_req_init(r, RDMA_NLDEV_CMD_STAT_GET, NLM_F_ACK);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, dev);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_STAT_COUNTER_ID, cntn);
}

void rs_qpc_req_mode(struct rs_nl_req *r, uint32_t dev, uint32_t port)
{
	/* The kernel asks only that a mode attribute be there. */
	rs_nl_req_init(r, RDMA_NLDEV_CMD_STAT_GET, NLM_F_ACK);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, dev);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_PORT_INDEX, port);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_NONE);
}

void rs_qpc_req_dump(struct rs_nl_req *r, uint32_t dev)
{
	rs_nl_req_init(r, RDMA_NLDEV_CMD_STAT_GET, NLM_F_DUMP);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_DEV_INDEX, dev);
	rs_nl_req_u32(r, RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP);
}

/* --- replies -------------------------------------------------------------- */

static int parse_qps(struct rs_qpc_cnt *c, const struct nlattr *table)
{
	const struct nlattr *e, *tb[RDMA_NLDEV_ATTR_MAX];
	struct rs_nla_it it = rs_nla_in(table);
	uint64_t qpn;
	uint32_t *arr;
	int r;

	while ((r = rs_nla_next(&it, &e)) > 0) {
		if (rs_nla_type(e) != RDMA_NLDEV_ATTR_RES_QP_ENTRY)
			continue;
		r = rs_nla_index(rs_nla_in(e), tb);
		if (r)
			return r;
		if (!tb[RDMA_NLDEV_ATTR_RES_LQPN] ||
		    !rs_nla_uint(tb[RDMA_NLDEV_ATTR_RES_LQPN], &qpn))
			return -EPROTO;
		arr = rs_grow(c->qpns, c->n_qpns, &c->cap_qpns, sizeof(*arr));
		if (!arr)
			return -ENOMEM;
		c->qpns = arr;
		arr[c->n_qpns++] = (uint32_t)qpn;
	}
	return r;
}

static int parse_vals(struct rs_qpc_cnt *c, const struct nlattr *table)
{
	const struct nlattr *e, *tb[RDMA_NLDEV_ATTR_MAX];
	struct rs_nla_it it = rs_nla_in(table);
	struct rs_qpc_val *arr;
	int r;

	while ((r = rs_nla_next(&it, &e)) > 0) {
		if (rs_nla_type(e) != RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY)
			continue;
		r = rs_nla_index(rs_nla_in(e), tb);
		if (r)
			return r;
		if (!tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME] ||
		    !tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE])
			return -EPROTO;
		arr = rs_grow(c->vals, c->n_vals, &c->cap_vals, sizeof(*arr));
		if (!arr)
			return -ENOMEM;
		c->vals = arr;
		rs_nla_str(tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME],
			   arr[c->n_vals].name, sizeof(arr[c->n_vals].name));
		if (!rs_nla_uint(tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE],
				 &arr[c->n_vals].value))
			return -EPROTO;
		c->n_vals++;
	}
	return r;
}

static uint32_t u32_or(const struct nlattr *a, uint32_t dflt)
{
	uint64_t v;

	return a && rs_nla_uint(a, &v) ? (uint32_t)v : dflt;
}

/* One counter from its attributes (a dump's entry, or a reply's top),
 * on the device @dev. */
static int parse_cnt(struct rs_qpc_reply *rp, const struct nlattr **tb,
		     uint32_t dev)
{
	struct rs_qpc_cnt *arr, *c;
	int r = 0;

	if (!tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID])
		return -EPROTO;
	arr = rs_grow(rp->cnts, rp->n_cnts, &rp->cap_cnts, sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	rp->cnts = arr;
	c = &arr[rp->n_cnts++];
	memset(c, 0, sizeof(*c));
	c->dev = dev;
	c->id = u32_or(tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID], 0);
	c->port = u32_or(tb[RDMA_NLDEV_ATTR_PORT_INDEX], 0);
	c->mode = u32_or(tb[RDMA_NLDEV_ATTR_STAT_MODE], 0);
	if (tb[RDMA_NLDEV_ATTR_RES_QP])
		r = parse_qps(c, tb[RDMA_NLDEV_ATTR_RES_QP]);
	if (!r && tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS])
		r = parse_vals(c, tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS]);
	return r;
}

int rs_qpc_parse(void *reply, const struct nlmsghdr *h)
{
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX], *e;
	const struct nlattr *etb[RDMA_NLDEV_ATTR_MAX];
	struct rs_qpc_reply *rp = reply;
	unsigned op = RDMA_NL_GET_OP(h->nlmsg_type);
	struct rs_nla_it it;
	uint32_t dev;
	int r;

	if (RDMA_NL_GET_CLIENT(h->nlmsg_type) != RDMA_NL_NLDEV)
		return 0;
	r = rs_nla_index(rs_nla_of_msg(h), tb);
	if (r)
		return r;
	dev = u32_or(tb[RDMA_NLDEV_ATTR_DEV_INDEX], 0);
	if (op == RDMA_NLDEV_CMD_STAT_SET) {
		if (!tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID])
			return -EPROTO;
		rp->have_cntn = true;
		rp->cntn = u32_or(tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID], 0);
		rp->qpn = u32_or(tb[RDMA_NLDEV_ATTR_RES_LQPN], 0);
		return 0;
	}
	if (op != RDMA_NLDEV_CMD_STAT_GET)
		return 0;
	if (tb[RDMA_NLDEV_ATTR_STAT_COUNTER]) {
		it = rs_nla_in(tb[RDMA_NLDEV_ATTR_STAT_COUNTER]);
		while ((r = rs_nla_next(&it, &e)) > 0) {
			if (rs_nla_type(e) !=
			    RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY)
				continue;
			r = rs_nla_index(rs_nla_in(e), etb);
			if (!r)
				r = parse_cnt(rp, etb, dev);
			if (r)
				return r;
		}
		return r;
	}
	if (tb[RDMA_NLDEV_ATTR_STAT_COUNTER_ID])
		return parse_cnt(rp, tb, dev);
	if (tb[RDMA_NLDEV_ATTR_STAT_MODE]) {
		rp->have_mode = true;
		rp->mode = u32_or(tb[RDMA_NLDEV_ATTR_STAT_MODE], 0);
	}
	return 0;
}

void rs_qpc_reply_free(struct rs_qpc_reply *rp)
{
	for (unsigned i = 0; i < rp->n_cnts; i++) {
		rs_free(rp->cnts[i].qpns);
		rs_free(rp->cnts[i].vals);
	}
	rs_free(rp->cnts);
	memset(rp, 0, sizeof(*rp));
}

const struct rs_qpc_val *rs_qpc_val(const struct rs_qpc_cnt *c,
				    const char *name)
{
	for (unsigned i = 0; i < c->n_vals; i++)
		if (!strcmp(c->vals[i].name, name))
			return &c->vals[i];
	return NULL;
}

const struct rs_qpc_cnt *rs_qpc_find(const struct rs_qpc_reply *rp,
				     uint32_t dev, uint32_t port,
				     uint32_t cntn, uint32_t qpn)
{
	for (unsigned i = 0; i < rp->n_cnts; i++) {
		const struct rs_qpc_cnt *c = &rp->cnts[i];
		bool on = !qpn;

		if (c->id != cntn || c->port != port || c->dev != dev)
			continue;
		for (unsigned j = 0; j < c->n_qpns && !on; j++)
			on = c->qpns[j] == qpn;
		if (on)
			return c;
	}
	return NULL;
}

int rs_qpc_delta(const struct rs_qpc_cnt *before,
		 const struct rs_qpc_cnt *after, struct rs_val **out)
{
	struct rs_val *o = NULL;

	*out = NULL;
	for (unsigned k = 0; k < after->n_vals; k++) {
		const struct rs_qpc_val *a = &after->vals[k];
		const struct rs_qpc_val *b = rs_qpc_val(before, a->name);
		uint64_t d;

		d = !b ? 0 : a->value >= b->value ? a->value - b->value :
		    a->value;
		if (!d)
			continue;
		if (!o && !(o = rs_val_obj()))
			return -ENOMEM;
		rs_val_put_u64(o, a->name, d);
	}
	if (o && rs_val_check(o) < 0) {
		rs_val_free(o);
		return -ENOMEM;
	}
	*out = o;
	return 0;
}

/* --- the run -------------------------------------------------------------- */

/* A DEV/PORT with QPs of ours on it. */
struct qpc_port {
	char key[80];            /* "DEV/PORT", as the record names it */
	uint32_t dev_index;      /* the kernel's, for nldev */
	uint8_t port;
	bool usable;             /* no skip: bind its QPs */
	unsigned bound;
	struct rs_val *e;        /* its entry under the root's qp_counters */
	struct rs_val *bound_e, *not_bound, *unbind_failed; /* in e */
};

/* One of our QPs. */
struct qpc_qp {
	const char *id;
	uint32_t qpn;
	unsigned port;           /* index into ports */
	bool bound;              /* given a counter (the leak check looks
				  * for it after teardown) */
	bool unbound;            /* ... and taken off it */
	uint32_t cntn;
	struct rs_qpc_cnt before;/* its values as the step began */
	bool have_before;
};

struct rs_qpc {
	struct rs_nl nl;
	bool nl_open;
	struct qpc_port *ports;
	unsigned n_ports, cap_ports;
	struct qpc_qp *qps;
	unsigned n_qps, cap_qps;
	struct rs_val *root;     /* the record's "qp_counters" */
};

/* Why the kernel said @err to @what on this port, for the record. */
static void skip_reason(char *buf, size_t len, int err, const char *what)
{
	const char *name = strerrorname_np(err);
	const char *why;

	switch (err) {
	case EOPNOTSUPP:
		why = "the driver has no per-QP counters";
		break;
	case ENOMEM:
		/* counters.c answers ENOMEM when the driver has no
		 * counter ops at all (rxe, siw), not only when memory
		 * ran out. */
		why = "the driver could not allocate a counter (rxe and "
		      "siw have no per-QP counters)";
		break;
	case EPERM:
	case EACCES:
		why = "binding a counter needs CAP_NET_ADMIN";
		break;
	case EPROTONOSUPPORT:
		why = "this kernel has no RDMA netlink";
		break;
	default:
		why = strerror(err);
	}
	snprintf(buf, len, "%s (%s from %s)", why, name ? name : "?", what);
}

static void port_skip(struct qpc_port *p, int err, const char *what)
{
	char why[256];

	skip_reason(why, sizeof(why), err, what);
	p->usable = false;
	rs_val_put_str(p->e, "skipped", why);
	rs_val_put_str(p->e, "errno", strerrorname_np(err) ?
		       strerrorname_np(err) : "?");
}

/* The port entry for @dev's port @port, made on first sight. */
static int port_of(struct rs_qpc *q, const struct rs_dev *dev, uint8_t port,
		   unsigned *ret)
{
	struct qpc_port *arr, *p;
	char key[80];
	int index;

	snprintf(key, sizeof(key), "%s/%u", dev->name, port);
	for (unsigned i = 0; i < q->n_ports; i++) {
		if (!strcmp(q->ports[i].key, key)) {
			*ret = i;
			return 0;
		}
	}
	arr = rs_grow(q->ports, q->n_ports, &q->cap_ports, sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	q->ports = arr;
	p = &arr[q->n_ports];
	memset(p, 0, sizeof(*p));
	snprintf(p->key, sizeof(p->key), "%s", key);
	p->port = port;
	p->usable = true;
	p->e = rs_val_put_obj(q->root, key);
	index = dev->device ? ibv_get_device_index(dev->device) : -1;
	if (index < 0) {
		/* An rdma-core too old to say it: nldev cannot be asked. */
		p->usable = false;
		rs_val_put_str(p->e, "skipped", "the device's kernel index "
			       "is unknown (ibv_get_device_index)");
	}
	p->dev_index = index < 0 ? 0 : (uint32_t)index;
	*ret = q->n_ports++;
	return 0;
}

/* A port in auto mode counts every QP by its own rule: a manual bind is
 * refused there, and the mode is another process's to set. */
static void check_mode(struct rs_qpc *q, struct qpc_port *p)
{
	struct rs_qpc_reply rp = { 0 };
	struct rs_nl_reply nr = { .msg = rs_qpc_parse, .arg = &rp };
	struct rs_nl_req req;
	int r;

	rs_qpc_req_mode(&req, p->dev_index, p->port);
	r = rs_nl_talk(&q->nl, &req, &nr);
	/* An older kernel that cannot tell: the bind will say. */
	if (!r && rp.have_mode && rp.mode == RDMA_COUNTER_MODE_AUTO) {
		p->usable = false;
		rs_val_put_strf(p->e, "skipped", "the link counts QPs in auto "
				"mode (rdma statistic qp set link %s auto "
				"...), where the kernel refuses a manual "
				"bind; its mode is left as it is", p->key);
		rs_val_put_str(p->e, "errno", "EINVAL");
	}
	rs_qpc_reply_free(&rp);
}

static void bind_one(struct rs_qpc *q, struct qpc_qp *qp)
{
	struct qpc_port *p = &q->ports[qp->port];
	struct rs_qpc_reply rp = { 0 };
	struct rs_nl_reply nr = { .msg = rs_qpc_parse, .arg = &rp };
	struct rs_nl_req req;
	int r;

	if (!p->usable)
		return;
	rs_qpc_req_bind(&req, p->dev_index, p->port, qp->qpn);
	r = rs_nl_talk(&q->nl, &req, &nr);
	if (!r && !rp.have_cntn)
		r = -EPROTO;
	if (r && !p->bound) {
		/* The first QP tells for the port: the driver, the
		 * mode, the permission. */
		port_skip(p, -r, "RDMA_NLDEV_CMD_STAT_SET");
	} else if (r) {
		char why[256];

		skip_reason(why, sizeof(why), -r, "RDMA_NLDEV_CMD_STAT_SET");
		if (!p->not_bound)
			p->not_bound = rs_val_put_obj(p->e, "not_bound");
		rs_val_put_str(p->not_bound, qp->id, why);
	} else {
		qp->bound = true;
		qp->cntn = rp.cntn;
		if (!p->bound++)
			p->bound_e = rs_val_put_obj(p->e, "bound");
		rs_val_put_u64(p->bound_e, qp->id, rp.cntn);
	}
	rs_qpc_reply_free(&rp);
}

static int add_qp(struct rs_qpc *q, struct rs_run *run, struct rs_live *l)
{
	struct rdmascn_qp f = { 0 };
	struct qpc_qp *arr, *qp;
	struct rs_qp_rt *rt;
	struct rs_dev *dev;
	unsigned port;
	int r;

	if (l->state != RS_LIVE_CREATED || rs_as_qp(run, l, &f) || !f.rt)
		return 0;
	rt = (struct rs_qp_rt *)f.rt;
	dev = rs_live_dev(run, l);
	if (!rt->qp || !dev)
		return 0;
	r = port_of(q, dev, f.port ? f.port : dev->port, &port);
	if (r)
		return r;
	arr = rs_grow(q->qps, q->n_qps, &q->cap_qps, sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	q->qps = arr;
	qp = &arr[q->n_qps++];
	memset(qp, 0, sizeof(*qp));
	qp->id = l->obj->id;
	qp->qpn = rt->qp->qp_num;
	qp->port = port;
	return 0;
}

void rs_qp_counters_bind(struct rs_run *run)
{
	struct rs_qpc *q;
	int r;

	if (run->counters_off || run->dry_run || run->qpc)
		return;
	q = rs_calloc(1, sizeof(*q));
	if (!q)
		goto oom;
	run->qpc = q;
	q->nl.fd = -1;
	q->root = rs_val_put_obj(run->rec->root, "qp_counters");
	for (unsigned i = 0; i < run->n_created; i++) {
		r = add_qp(q, run, run->created[i]);
		if (r)
			goto oom;
	}
	if (!q->n_qps)
		return;
	r = rs_nl_open(&q->nl);
	if (r) {
		for (unsigned i = 0; i < q->n_ports; i++)
			if (q->ports[i].usable)
				port_skip(&q->ports[i], -r,
					  "socket(NETLINK_RDMA)");
		return;
	}
	q->nl_open = true;
	for (unsigned i = 0; i < q->n_ports; i++)
		if (q->ports[i].usable)
			check_mode(q, &q->ports[i]);
	for (unsigned i = 0; i < q->n_qps; i++)
		bind_one(q, &q->qps[i]);
	return;
oom:
	/* Said, as the port counters' are (steps_run.c), not left out
	 * silently. */
	rs_diag_warning(&run->diag, NULL, "the QPs' own counters were not "
			"bound: out of memory");
}

/* Every counter of the devices we bound on, into @rp, asked on @nl:
 * 0 or -errno. */
static int read_all(const struct rs_qpc *q, struct rs_nl *nl,
		    struct rs_qpc_reply *rp)
{
	for (unsigned i = 0; i < q->n_ports; i++) {
		struct rs_nl_reply nr = { .msg = rs_qpc_parse, .arg = rp };
		struct rs_nl_req req;
		bool asked = false;
		int r;

		if (!q->ports[i].bound)
			continue;
		/* One dump a device, however many of its ports. */
		for (unsigned j = 0; j < i; j++)
			asked |= q->ports[j].bound &&
				 q->ports[j].dev_index == q->ports[i].dev_index;
		if (asked)
			continue;
		rs_qpc_req_dump(&req, q->ports[i].dev_index);
		r = rs_nl_talk(nl, &req, &nr);
		if (r)
			return r;
	}
	return 0;
}

/* @qp's counter in @rp, or NULL. */
static struct rs_qpc_cnt *cnt_of(struct rs_qpc_reply *rp,
				 const struct rs_qpc *q,
				 const struct qpc_qp *qp)
{
	const struct qpc_port *p = &q->ports[qp->port];

	return (struct rs_qpc_cnt *)rs_qpc_find(rp, p->dev_index, p->port,
						qp->cntn, 0);
}

static void cnt_free(struct rs_qpc_cnt *c)
{
	rs_free(c->qpns);
	rs_free(c->vals);
	memset(c, 0, sizeof(*c));
}

int rs_qp_counters_before(struct rs_run *run)
{
	struct rs_qpc *q = run->qpc;
	struct rs_qpc_reply rp = { 0 };
	int r;

	if (!q || !q->nl_open)
		return 0;
	for (unsigned i = 0; i < q->n_qps; i++) {
		cnt_free(&q->qps[i].before);
		q->qps[i].have_before = false;
	}
	r = read_all(q, &q->nl, &rp);
	for (unsigned i = 0; i < q->n_qps && !r; i++) {
		struct rs_qpc_cnt *c;

		if (!q->qps[i].bound || !(c = cnt_of(&rp, q, &q->qps[i])))
			continue;
		/* Taken over: the reply forgets it below. */
		q->qps[i].before = *c;
		q->qps[i].have_before = true;
		memset(c, 0, sizeof(*c));
	}
	rs_qpc_reply_free(&rp);
	return r;
}

int rs_qp_counters_after(struct rs_run *run, struct rs_val **out)
{
	struct rs_qpc *q = run->qpc;
	struct rs_qpc_reply rp = { 0 };
	struct rs_val *all = NULL;
	int r, lost = 0;

	*out = NULL;
	if (!q || !q->nl_open)
		return 0;
	r = read_all(q, &q->nl, &rp);
	for (unsigned i = 0; i < q->n_qps && !r; i++) {
		struct qpc_qp *qp = &q->qps[i];
		struct rs_qpc_cnt *c = cnt_of(&rp, q, qp);
		struct rs_val *d;

		if (!qp->have_before || !c)
			continue;
		/* Out of memory: the others' still go in, and it is said. */
		if (rs_qpc_delta(&qp->before, c, &d))
			lost = -ENOMEM;
		if (!d)
			continue;
		if (!all && !(all = rs_val_obj()))
			lost = -ENOMEM;
		rs_val_put(all, qp->id, d);
	}
	if (all && rs_val_check(all) < 0) {
		rs_val_free(all);
		all = NULL;
		lost = -ENOMEM;
	}
	rs_qpc_reply_free(&rp);
	*out = all;
	return r ? r : lost;
}

void rs_qp_counters_unbind(struct rs_run *run)
{
	struct rs_qpc *q = run->qpc;

	if (!q || !q->nl_open)
		return;
	for (unsigned i = 0; i < q->n_qps; i++) {
		struct qpc_qp *qp = &q->qps[i];
		struct qpc_port *p = &q->ports[qp->port];
		struct rs_qpc_reply rp = { 0 };
		struct rs_nl_reply nr = { .msg = rs_qpc_parse, .arg = &rp };
		struct rs_nl_req req;
		int r;

		if (!qp->bound || qp->unbound)
			continue;
		rs_qpc_req_unbind(&req, p->dev_index, p->port, qp->cntn,
				  qp->qpn);
		r = rs_nl_talk(&q->nl, &req, &nr);
		rs_qpc_reply_free(&rp);
		if (r) {
			char why[256];

			skip_reason(why, sizeof(why), -r,
				    "RDMA_NLDEV_CMD_STAT_DEL");
			if (!p->unbind_failed)
				p->unbind_failed = rs_val_put_obj(
					p->e, "unbind_failed");
			rs_val_put_str(p->unbind_failed, qp->id, why);
			continue;
		}
		/* The kernel freed the counter with its last QP; the id
		 * stays for the leak check to look for. */
		qp->unbound = true;
	}
}

int rs_qp_counters_leaks(const struct rs_run *run, struct rs_nl *nl,
			 struct rs_val *list, const char **why)
{
	const struct rs_qpc *q = run ? run->qpc : NULL;
	struct rs_qpc_reply rp = { 0 };
	int n = 0;

	if (!q)
		return 0;
	n = read_all(q, nl, &rp);
	if (n) {
		*why = "RDMA_NLDEV_CMD_STAT_GET";
		rs_qpc_reply_free(&rp);
		return n;
	}
	for (unsigned i = 0; i < q->n_qps; i++) {
		const struct qpc_qp *qp = &q->qps[i];
		const struct qpc_port *p = &q->ports[qp->port];
		const struct rs_qpc_cnt *c;
		struct rs_val *e, *fs;

		if (!qp->bound)
			continue;
		/* Our id, and still on our QP number: an id or a number
		 * another process got since is not ours. */
		c = rs_qpc_find(&rp, p->dev_index, p->port, qp->cntn,
				qp->qpn);
		if (!c)
			continue;
		e = rs_val_push_obj(list);
		rs_val_put_strf(e, "device", "%.*s",
				(int)(strchr(p->key, '/') - p->key), p->key);
		rs_val_put_str(e, "kind", "counter");
		rs_val_put_u64(e, "pid", (uint64_t)getpid());
		fs = rs_val_put_obj(e, "fields");
		rs_val_put_u64(fs, "cntn", c->id);
		rs_val_put_u64(fs, "port", c->port);
		rs_val_put_u64(fs, "qpn", qp->qpn);
		rs_val_put_str(fs, "qp", qp->id);
		n++;
	}
	rs_qpc_reply_free(&rp);
	return n;
}

void rs_qp_counters_free(struct rs_run *run)
{
	struct rs_qpc *q = run->qpc;

	if (!q)
		return;
	for (unsigned i = 0; i < q->n_qps; i++)
		cnt_free(&q->qps[i].before);
	if (q->nl_open)
		rs_nl_close(&q->nl);
	rs_free(q->qps);
	rs_free(q->ports);
	rs_free(q);
	run->qpc = NULL;
}
