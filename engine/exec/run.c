// SPDX-License-Identifier: MIT
/*
 * The phases of a run around the steps: find the devices, check what the
 * scenario needs, create in plan order, and take down in exact reverse of
 * what was created, whatever happened in between.
 */
#include <endian.h>
#include <stdio.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "caps.h"
#include "counters.h"
#include "devices.h"
#include "live.h"
#include "macros.h"
#include "qp_counters.h"
#include "requires.h"
#include "run.h"
#include "schema.h"
#include "value.h"
#include "wire.h"

double rs_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* --- devices and capabilities ---------------------------------------------- */

int rs_run_probe(struct rs_run *run)
{
	int ret = 0;

	rs_call_want_args(run->rec->calls_wanted);
	if (run->dry_run) {
		run->n_deviations = 0;  /* no device to match */
		return 0;
	}
	run->devices = ibv_get_device_list(&run->n_devices);
	if (!run->devices || !run->n_devices) {
		char retry[PATH_MAX + 64], advice[2 * PATH_MAX + 512];

		/* libibverbs says ENOSYS when the kernel has no RDMA. */
		rs_diag_error(&run->diag, NULL, "no RDMA device (%s)",
			      run->devices ? "none listed" : strerror(errno));
		snprintf(retry, sizeof(retry), "rdmascn run --softroce %s",
			 run->file);
		/* The text reporter prints it below the error. */
		rs_devices_advice(advice, sizeof(advice), retry);
		rs_val_put_str(run->rec->root, "advice", advice);
		return -ENODEV;
	}
	for (unsigned i = 0; i < run->s->n_objects; i++) {
		int r = rs_run_here(run, run->live[i].obj) ?
			rs_probe(run, &run->live[i]) : 0;

		if (r && !ret)
			ret = r;
	}
	if (!ret)
		rs_run_deviations(run);
	return ret;
}

/* --- deviations and the devices used --------------------------------------- */

static void gid_text(const union ibv_gid *g, char *buf, size_t size)
{
	const uint8_t *b = g->raw;

	snprintf(buf, size, "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:"
		 "%02x%02x:%02x%02x:%02x%02x", b[0], b[1], b[2], b[3], b[4],
		 b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
		 b[14], b[15]);
}

/* Each context's device, port and GID, as the run uses them. */
static void record_devices(struct rs_run *run)
{
	struct rs_val *list = rs_val_put_arr(run->rec->root, "devices");

	for (unsigned i = 0; i < run->s->n_objects; i++) {
		struct rs_dev *dev = rs_as_dev(&run->live[i]);
		const struct ibv_device_attr *a;
		struct rs_val *e;
		char buf[64];
		uint64_t guid;

		if (!dev || !rs_run_here(run, run->live[i].obj))
			continue;
		a = &dev->attr.orig_attr;
		e = rs_val_push_obj(list);
		rs_val_put_str(e, "context", run->live[i].obj->id);
		rs_val_put_str(e, "name", dev->name);
		rs_dev_provider(dev->name, buf, sizeof(buf));
		rs_val_put_str(e, "provider", buf);
		rs_val_put_str(e, "firmware", a->fw_ver);
		guid = be64toh(a->node_guid);
		rs_val_put_strf(e, "node_guid", "%04x:%04x:%04x:%04x",
				(unsigned)(guid >> 48), (unsigned)(guid >> 32) & 0xffff,
				(unsigned)(guid >> 16) & 0xffff,
				(unsigned)guid & 0xffff);
		rs_val_put_u64(e, "port", dev->port);
		rs_val_put_str(e, "port_state",
			       ibv_port_state_str(dev->port_attr.state));
		rs_val_put_u64(e, "active_mtu",
			       128u << dev->port_attr.active_mtu);
		rs_val_put_str(e, "link_layer",
			       dev->port_attr.link_layer ==
			       IBV_LINK_LAYER_ETHERNET ? "ethernet" :
			       "infiniband");
		rs_val_put_i64(e, "gid_index", dev->gid_index);
		if (dev->gid_index >= 0) {
			gid_text(&dev->gid, buf, sizeof(buf));
			rs_val_put_str(e, "gid", buf);
			rs_val_put_str(e, "gid_type",
				       dev->gid_type == IBV_GID_TYPE_ROCE_V2 ?
				       "RoCE v2" :
				       dev->gid_type == IBV_GID_TYPE_ROCE_V1 ?
				       "RoCE v1" : "IB");
		}
	}
}

void rs_deviation_put(struct rs_val *e, const struct rs_deviation *dv)
{
	struct rs_val *d = rs_val_put_obj(e, "deviation");

	rs_val_put_str(d, "reason", dv->reason);
	rs_val_put_str(d, "known", dv->skip ? "skip" : "fail");
	rs_val_put_loc(d, &dv->loc);
}

void rs_run_deviations(struct rs_run *run)
{
	unsigned kept = 0;

	if (!run->dry_run)
		record_devices(run);
	for (unsigned k = 0; k < run->n_deviations; k++) {
		bool hit = false;

		for (unsigned i = 0; i < run->s->n_objects && !hit; i++) {
			struct rs_dev *dev = rs_as_dev(&run->live[i]);

			hit = dev && rs_deviation_for_device(run->deviations[k],
							     dev->name);
		}
		if (hit)
			run->deviations[kept++] = run->deviations[k];
	}
	run->n_deviations = kept;
}

const struct rs_deviation *rs_run_deviation(const struct rs_run *run,
					    const char *id)
{
	for (unsigned k = 0; k < run->n_deviations; k++)
		if (rs_deviation_for_step(run->deviations[k], id) ||
		    rs_deviation_for_step(run->deviations[k], NULL))
			return run->deviations[k];
	return NULL;
}

bool rs_dev_has_counter(const char *root, const char *dev, unsigned port,
			const char *name)
{
	/* Where counters.c reads them: the port's PMA set and driver
	 * set, the device's driver set; a name, not a value. */
	static const char *const where[] = { "counters", "hw_counters" };
	char path[512];

	if (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (size_t i = 0; i < RS_N(where); i++) {
		snprintf(path, sizeof(path), "%s/%s/ports/%u/%s/%s", root, dev,
			 port, where[i], name);
		if (!access(path, F_OK))
			return true;
	}
	snprintf(path, sizeof(path), "%s/%s/hw_counters/%s", root, dev, name);
	return !access(path, F_OK);
}

/* @ctx stands for @dev: does @dev have what `requires:` asks? */
static bool requires_met(struct rs_run *run, struct rs_live *ctx,
			 const struct rs_dev *dev)
{
	const struct rs_requires *req = run->s->top->requires;
	const struct rs_obj *o = ctx->obj;
	uint32_t feats = dev->features;
	uint32_t types = rs_dev_qp_types(&dev->attr);
	bool ok = true;

	for (unsigned t = 0; t < 32; t++) {
		int need = rs_qp_type_feature(t);

		if (!(req->qp_types & 1u << t) || types & 1u << t)
			continue;
		rs_diag_error(&run->diag, rs_obj_loc(o, NULL),
			      "%s: %s has no %s qps (requires.qp_types; %s: "
			      "no %s)", o->name, dev->name, rs_qp_type_name(t),
			      need >= 0 ? rs_feature_name(need) : "?",
			      need >= 0 ? rs_feature_source(need) : "?");
		ok = false;
	}
	for (unsigned f = 0; f < 32; f++) {
		if (!(req->features & 1u << f) || feats & 1u << f)
			continue;
		rs_diag_error(&run->diag, rs_obj_loc(o, NULL),
			      "%s: %s has no %s (requires.features; %s)",
			      o->name, dev->name, rs_feature_name(f),
			      rs_feature_source(f));
		ok = false;
	}
	for (unsigned i = 0; i < req->facts_count; i++) {
		const struct rs_fact_bound *b = &req->facts[i];
		struct rs_fact_val v;
		char why[192];

		rs_dev_fact_get(dev, b->f, &v);
		if (rs_requires_fact_met(b, &v, why, sizeof(why)))
			continue;
		rs_diag_error(&run->diag, rs_obj_loc(o, NULL),
			      "%s: %s has no %s; requires.facts[%u])", o->name,
			      dev->name, why, i);
		ok = false;
	}
	for (unsigned i = 0; i < req->counters_count; i++) {
		if (rs_dev_has_counter(RS_CTR_ROOT, dev->name, dev->port,
				       req->counters[i]))
			continue;
		rs_diag_error(&run->diag, rs_obj_loc(o, NULL),
			      "%s: %s has no counter %s (requires.counters; "
			      "not in %s/%s/ports/%u/counters, hw_counters "
			      "nor %s/%s/hw_counters)", o->name, dev->name,
			      req->counters[i], RS_CTR_ROOT, dev->name,
			      dev->port, RS_CTR_ROOT, dev->name);
		ok = false;
	}
	if (req->link_layer != RS_LL_ANY) {
		uint8_t want = req->link_layer == RS_LL_ETHERNET ?
			       IBV_LINK_LAYER_ETHERNET :
			       IBV_LINK_LAYER_INFINIBAND;
		uint8_t have = dev->port_attr.link_layer ==
			       IBV_LINK_LAYER_UNSPECIFIED ?
			       IBV_LINK_LAYER_INFINIBAND :
			       dev->port_attr.link_layer;

		if (want != have) {
			rs_diag_error(&run->diag, rs_obj_loc(o, NULL),
				      "%s: %s port %u is not %s "
				      "(requires.link_layer)", o->name,
				      dev->name, dev->port,
				      want == IBV_LINK_LAYER_ETHERNET ?
				      "ethernet" : "infiniband");
			ok = false;
		}
	}
	return ok;
}

/* Does an object before @i stand for @dev too (an imported context is
 * its original's device)?  Then that one was asked already. */
static bool dev_seen(struct rs_run *run, unsigned i, const struct rs_dev *dev)
{
	for (unsigned j = 0; j < i; j++)
		if (rs_as_dev(&run->live[j]) == dev)
			return true;
	return false;
}

/*
 * Before anything is created: every object's needs (check_caps: a
 * missing capability skips the run) and the device limits it would go
 * past (check_caps' -E2BIG, and the counts; the run cannot go on).
 * A missing capability wins: a device that cannot run the file at all
 * need not say it also has too few QPs.
 */
int rs_run_check_caps(struct rs_run *run)
{
	unsigned missing = 0, over = 0;

	if (run->dry_run)
		return 0;
	for (unsigned i = 0; i < run->s->n_objects; i++) {
		struct rs_live *l = &run->live[i];
		const struct rdmascn_ops *ops = rs_live_ops(l);
		struct rs_dev *own = rs_as_dev(l);
		char why[256] = "";
		int r;

		if (!rs_run_here(run, l->obj))
			continue;
		/* Its create is to fail: the device is asked, not the
		 * limits and capabilities foretold. */
		if (rs_obj_expect_fail(l->obj))
			continue;
		if (own && run->s->top->requires && !dev_seen(run, i, own) &&
		    !requires_met(run, l, own))
			missing++;
		if (!ops->check_caps)
			continue;
		r = ops->check_caps(run, l, why, sizeof(why));
		if (r == -E2BIG) {
			over++; /* rs_dev_limit_value() said where */
		} else if (r) {
			struct rs_dev *dev = rs_live_dev(run, l);

			rs_diag_error(&run->diag, rs_obj_loc(l->obj, NULL),
				      "%s: %s has no %s", l->obj->name,
				      dev ? dev->name : "the device", why);
			missing++;
		}
	}
	if (missing)
		return -EOPNOTSUPP;
	if (rs_run_limits_report(run) < 0 || over)
		return -E2BIG;
	return 0;
}

/* --- create and teardown ----------------------------------------------------- */

/* Its entry in the record: where it is declared, and what happened. */
static void record_object(struct rs_run *run, struct rs_live *l,
			  const char *outcome)
{
	rs_rec_obj_outcome(l->entry, outcome);
	rs_record_tell_obj(run->rec, l->entry);
}

static void record_created(struct rs_run *run, struct rs_live *l)
{
	const struct rdmascn_ops *ops = l->obj->kind->ops;

	rs_rec_obj_no(l->entry, run->n_created);
	if (!run->dry_run) {
		rs_rec_obj_create_ms(l->entry, l->create_ms);
		/* Made only for a reader (a record, the text report, -v):
		 * a read-back a connection side, and a third of a real
		 * run's own instructions at N=1000 while they were nodes
		 * (docs/setup-speed-log.md, set-up 7). */
		if (ops->describe && !run->facts_unread)
			ops->describe(run, l, rs_rec_obj_facts(l->entry));
	}
	record_object(run, l, "created");
}

/* Its create, timed for the record. */
static int create_timed(struct rs_run *run, struct rs_live *l)
{
	double t0 = rs_now_ms();
	int ret = l->obj->kind->ops->create(run, l);

	l->create_ms = rs_now_ms() - t0;
	return ret;
}

/* Made: torn down with the rest, in reverse. */
static void made(struct rs_run *run, struct rs_live *l)
{
	l->state = RS_LIVE_CREATED;
	run->created[run->n_created++] = l;
	record_created(run, l);
}

/* Its create failed: what it got before failing is released. */
static void not_made(struct rs_run *run, struct rs_live *l)
{
	const struct rdmascn_ops *ops = l->obj->kind->ops;

	l->state = RS_LIVE_FAILED;
	if (ops->destroy && !run->dry_run)
		ops->destroy(run, l);
	record_object(run, l, "failed");
}

/* expect: {create: fail, errno: E} on its entry, in the record. */
static void record_expect(struct rs_live *l)
{
	struct rs_val *x = rs_val_put_obj(l->entry, "expect");
	const char *name;

	rs_val_put_str(x, "create", "fail");
	if (!rs_obj_expect_errno(l->obj))
		return;
	rs_val_put_i64(x, "errno", rs_obj_expect_errno(l->obj));
	name = strerrorname_np(rs_obj_expect_errno(l->obj));
	if (name)
		rs_val_put_str(x, "error", name);
}

/*
 * An object whose create is to fail, after its create (not in a dry
 * run, where no call fails: there it is made and shown with its
 * expect): failing with the errno expected (or any, none given) is its
 * pass; it exists no more than any failed object does, so it is not
 * torn down.  0: go on.
 */
static int judge_expected(struct rs_run *run, struct rs_live *l, int ret)
{
	const struct rs_obj *o = l->obj;
	char got[64] = "", want[64];

	if (ret && l->create_errno &&
	    (!rs_obj_expect_errno(o) ||
	     l->create_errno == rs_obj_expect_errno(o))) {
		const char *name = strerrorname_np(l->create_errno);

		rs_val_put_i64(l->entry, "errno", l->create_errno);
		if (name)
			rs_val_put_str(l->entry, "error", name);
		/* Release what it got before failing. */
		if (l->obj->kind->ops->destroy)
			l->obj->kind->ops->destroy(run, l);
		l->state = RS_LIVE_EXPECTED;
		record_object(run, l, "failed as expected");
		return 0;
	}
	/* What the file asserted did not hold: failed, not "could not
	 * run". */
	run->expect_unmet = true;
	snprintf(want, sizeof(want), "%s",
		 !rs_obj_expect_errno(o) ? "an error" :
		 strerrorname_np(rs_obj_expect_errno(o)) ?
		 strerrorname_np(rs_obj_expect_errno(o)) : "?");
	if (!ret)
		return rs_live_error(run, l, EEXIST, "its create was to fail "
				     "with %s (expect:), and it succeeded",
				     want);
	if (l->create_errno)
		snprintf(got, sizeof(got), "%s",
			 strerrorname_np(l->create_errno) ?
			 strerrorname_np(l->create_errno) : "?");
	rs_live_error(run, l, l->create_errno ? l->create_errno : -ret,
		      "its create was to fail with %s (expect:), and it "
		      "failed with %s (%s)", want, got[0] ? got : "an error "
		      "before the call", strerror(l->create_errno ?
						 l->create_errno : -ret));
	return ret;
}

/* The object @l needs that did not get created, if any. */
static struct rs_live *blocked_by(struct rs_run *run, struct rs_live *l)
{
	for (unsigned e = 0; e < l->obj->n_edges; e++) {
		struct rs_obj *to = l->obj->edges[e].to;
		struct rs_live *t;

		if (to->index >= run->s->n_objects)
			continue;
		t = &run->live[to->index];
		if (t->state == RS_LIVE_FAILED)
			return t;
		if (t->state == RS_LIVE_DEPENDENT)
			return t->cause;
	}
	return NULL;
}

/* After a failure: say what was not created, and why. */
static void report_not_created(struct rs_run *run, unsigned from)
{
	for (unsigned i = from; i < run->s->n_objects; i++) {
		struct rs_live *l = &run->live[run->s->create[i]->index];
		struct rs_live *cause = blocked_by(run, l);

		if (!rs_run_here(run, l->obj))
			continue;
		if (cause) {
			l->state = RS_LIVE_DEPENDENT;
			l->cause = cause;
			rs_val_put_str(l->entry, "needs", cause->obj->id);
			rs_val_put_str(l->entry, "needs_name",
				       cause->obj->name);
		}
		record_object(run, l, "not created");
	}
}

/* After @l's create gave @ret: made, failed as its expect: said, or
 * failed.  0: go on; else what ends the run's create. */
static int settle(struct rs_run *run, struct rs_live *l, int ret)
{
	const struct rs_obj *o = l->obj;

	if (rs_obj_expect_fail(o))
		record_expect(l);
	if (rs_obj_expect_fail(o) && !run->dry_run) {
		int r = judge_expected(run, l, ret);

		/* Failed as the file said: the run goes on. */
		if (l->state == RS_LIVE_EXPECTED)
			return 0;
		if (!ret) {
			/* Made after all: it is torn down. */
			made(run, l);
			return r;
		}
	}
	if (ret) {
		not_made(run, l);
		return ret;
	}
	made(run, l);
	return 0;
}

/*
 * The phases of creation between nodes.  Every node walks the whole plan
 * and sees the same crossing objects (those with a far node), so each
 * one's phase, and where it ends, follows from the plan alone: a phase
 * ends before the first object that needs one of its crossing objects,
 * and at the end of the plan.  Each node makes its half of the phase's
 * objects that are its own as it meets them (cross_out), all nodes
 * exchange the halves' descriptions at the phase's end at once, and each
 * finishes its own in plan order (cross_in).
 */
struct phases {
	bool *open;              /* by object index: crossing, in this phase */
	unsigned n_open;         /* of any node */
	struct rs_cross *c;      /* this node's, in plan order */
	unsigned n;
	unsigned no;             /* the phase's number, from 1 */
};

/* Does @o need a crossing object of the phase still open? */
static bool needs_open(const struct rs_run *run, const struct phases *p,
		       const struct rs_obj *o)
{
	for (unsigned e = 0; p->n_open && e < o->n_edges; e++) {
		unsigned t = o->edges[e].to->index;

		if (t < run->s->n_objects && p->open[t])
			return true;
	}
	return false;
}

/* A failure before its half was finished: what @c's kind made of it is
 * released, and it says so. */
static void drop_open(struct rs_run *run, struct rs_cross *c, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct rs_live *l = c[i].l;
		const struct rdmascn_ops *ops = l->obj->kind->ops;

		if (ops->destroy && !run->dry_run)
			ops->destroy(run, l);
		record_object(run, l, "not created");
	}
}

/* Its half: made and described, or failed (0, or what ends creation). */
static int cross_out(struct rs_run *run, struct phases *p, struct rs_live *l)
{
	const struct rs_cross_ops *x = rs_cross_of(l);
	struct rs_cross *c = &p->c[p->n];
	struct rs_obj *o = l->obj;
	double t0 = rs_now_ms();
	int r;

	if (!x) {
		rs_live_error(run, l, EOPNOTSUPP, "a %s cannot cross nodes "
			      "(it is on '%s' and '%s')", o->kind->name,
			      rs_node_name(run->s, o->on),
			      rs_node_name(run->s, o->on_peer));
		not_made(run, l);
		return -EOPNOTSUPP;
	}
	memset(c, 0, sizeof(*c));
	c->l = l;
	c->far = o->on == run->node ? o->on_peer : o->on;
	r = x->out(run, l, c->mine, sizeof(c->mine));
	l->create_ms = rs_now_ms() - t0;
	if (r < 0) {
		not_made(run, l);
		return r;
	}
	c->len = (size_t)r;
	p->n++;
	return 0;
}

/*
 * The phase's end: one exchange, then this node's halves finished in
 * plan order.  With rdma_cm this cannot deadlock: each side's out ran
 * before the exchange (b listens before a learns its port), and both
 * sides of a connection finish it at the same plan position, so by
 * induction over that order each node reaches the k-th connection having
 * finished every earlier one, and the k-th waits only on its far side,
 * which is at the same k-th (a's connect request meanwhile waits on b's
 * listener, in its own event channel).
 */
static int phase_end(struct rs_run *run, struct phases *p)
{
	unsigned i;
	int ret = 0;

	if (!p->n_open)
		return 0;
	ret = run->nodes->flush(run, p->no, p->c, p->n);
	for (i = 0; !ret && i < p->n; i++) {
		const struct rs_cross_ops *x = rs_cross_of(p->c[i].l);
		struct rs_live *l = p->c[i].l;
		double t0 = rs_now_ms();
		int r = x->in(run, l, p->c[i].theirs, p->c[i].their_len);

		l->create_ms += rs_now_ms() - t0;
		ret = settle(run, l, r);
		if (ret) {
			i++;
			break;
		}
	}
	if (ret)
		drop_open(run, p->c + i, p->n - i);
	for (unsigned k = 0; k < p->n; k++)
		rs_free(p->c[k].theirs);
	memset(p->open, 0, run->s->n_objects * sizeof(*p->open));
	p->n_open = 0;
	p->n = 0;
	p->no++;
	return ret;
}

int rs_run_create(struct rs_run *run)
{
	struct phases p = { .no = 1 };
	unsigned i;
	int ret = 0;

	rs_run_fd_limit(run);
	if (run->rdv) {
		unsigned mine = 0;

		/* Room for all of this node's crossing objects in one
		 * phase, a description's room each. */
		for (i = 0; i < run->s->n_objects; i++)
			mine += run->s->create[i]->on_peer != RS_NODE_ANY &&
				rs_run_here(run, run->s->create[i]);
		p.open = rs_calloc(run->s->n_objects + 1, sizeof(*p.open));
		p.c = rs_calloc(mine + 1, sizeof(*p.c));
		if (!p.open || !p.c) {
			rs_free(p.open);
			rs_free(p.c);
			rs_diag_error(&run->diag, NULL,
				      "create: out of memory");
			report_not_created(run, 0);
			return -ENOMEM;
		}
	}

	for (i = 0; i < run->s->n_objects; i++) {
		struct rs_obj *o = run->s->create[i];
		struct rs_live *l = &run->live[o->index];
		const struct rdmascn_ops *ops = o->kind->ops;

		if (rs_interrupted) {
			ret = -EINTR;
			break;
		}
		if (run->rdv && needs_open(run, &p, o) &&
		    (ret = phase_end(run, &p)))
			break;
		/* What crosses nodes waits for its phase's end; another
		 * node's only ends the phase where it should. */
		if (run->rdv && o->on_peer != RS_NODE_ANY) {
			p.open[o->index] = true;
			p.n_open++;
			if (rs_run_here(run, o) &&
			    (ret = cross_out(run, &p, l))) {
				i++;
				break;
			}
			continue;
		}
		if (!rs_run_here(run, o))
			continue;
		if (!ops || !ops->create) {
			ret = rs_live_error(run, l, EOPNOTSUPP,
					    "this engine cannot create a %s",
					    o->kind->name);
			l->state = RS_LIVE_FAILED;
			i++;
			break;
		}
		ret = create_timed(run, l);
		if (ret == RDMASCN_CREATE_LATER) {
			/* Pending until a step creates it. */
			ret = 0;
			continue;
		}
		ret = settle(run, l, ret);
		if (ret) {
			i++;
			break;
		}
	}
	if (!ret && run->rdv)
		ret = phase_end(run, &p);
	else if (ret)
		drop_open(run, p.c, p.n);
	if (ret)
		report_not_created(run, i);
	rs_free(p.open);
	rs_free(p.c);
	return ret;
}

int rs_run_create_late(struct rs_run *run, struct rs_live *l,
		       const struct ibv_wc *wc, const void *grh)
{
	const struct rdmascn_ops *ops = l->obj->kind->ops;
	int ret;

	if (l->state != RS_LIVE_PENDING || !ops || !ops->create ||
	    run->n_created >= run->s->n_objects)
		return -EALREADY;
	run->late = l;
	run->late_wc = wc;
	run->late_grh = grh;
	ret = create_timed(run, l);
	run->late = NULL;
	run->late_wc = NULL;
	run->late_grh = NULL;
	if (ret == RDMASCN_CREATE_LATER)
		return rs_live_error(run, l, EINVAL, "nothing to create it "
				     "from");
	if (ret) {
		not_made(run, l);
		return ret;
	}
	made(run, l);
	return 0;
}

const struct ibv_wc *rs_live_late(const struct rs_run *run,
				  const struct rs_live *l,
				  const void **ret_grh)
{
	if (run->late != l || !run->late_wc)
		return NULL;
	if (ret_grh)
		*ret_grh = run->late_grh;
	return run->late_wc;
}

struct rs_val *rs_live_down(struct rs_run *run, struct rs_live *l)
{
	if (run->down_live != l || run->dry_run)
		return NULL;
	if (run->down_tree)
		return run->down_tree;
	run->down_tree = rs_val_obj();
	rs_val_put_u64(run->down_tree, "no", run->down_no);
	rs_val_put_str(run->down_tree, "id", l->obj->id);
	rs_val_put_str(run->down_tree, "name", l->obj->name);
	return run->down_tree;
}

void rs_run_teardown(struct rs_run *run)
{
	struct rs_val *phase = rs_val_obj();

	rs_signals_teardown_begin();
	/* The wire first: a link left down or a netem left on would
	 * outlive the run, and a step's own undo may not have run. */
	rs_wire_undo_all(run);
	rs_val_put_str(phase, "phase", "teardown");
	rs_val_put_u64(phase, "objects", run->n_created);
	rs_record_add(run->rec, RS_REC_PHASE, NULL, phase);
	/* Before the QPs go, on every way here: a failed step, a timeout
	 * and a signal tear down the same way. */
	rs_qp_counters_unbind(run);
	for (unsigned i = run->n_created; i-- > 0;) {
		struct rs_live *l = run->created[i];
		const struct rdmascn_ops *ops = l->obj->kind->ops;
		struct rs_val *down;

		/* Its entry is a struct in the record, its strings the
		 * object entry's, unless its kind has more to say
		 * (rs_live_down()): a tree of its own for each object,
		 * built, copied into the record and freed, was most of
		 * what a real run did per object here besides the call. */
		run->down_live = l;
		run->down_no = i + 1;
		run->down_tree = NULL;
		if (ops->destroy)
			ops->destroy(run, l);
		down = run->down_tree;
		run->down_tree = NULL;
		run->down_live = NULL;
		l->state = RS_LIVE_DESTROYED;
		if (down)
			rs_record_add(run->rec, RS_REC_DESTROYED,
				      run->rec->teardown, down);
		else
			rs_record_destroyed(run->rec, i + 1, l->entry,
					    l->obj->id, l->obj->name);
	}
	run->n_created = 0;
	rs_signals_teardown_end();
}
