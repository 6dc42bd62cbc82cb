// SPDX-License-Identifier: MIT
/*
 * A run that is one node of several (`nodes:`): what its phases say to
 * the other nodes through the rendezvous (rendezvous.h).  Every node
 * walks the same plan, so each collective below is reached by all of
 * them in the same order: one all-gather per object that crosses nodes
 * (a node not in it gives nothing), one for the remote MRs once all is
 * created, a barrier before each step.  A failure here is the run's:
 * reported, and the other nodes told (rs_rdv_abort()).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "exit.h"
#include "live.h"
#include "rendezvous.h"
#include "run.h"

static int rdv_failed(struct rs_run *run, int r, const char *err)
{
	if (r == -ENOMEM)
		rs_diag_error(&run->diag, NULL, "nodes: out of memory");
	else
		rs_diag_error(&run->diag, NULL, "nodes: %s", err);
	return r;
}

int rs_nodes_swap(struct rs_run *run, struct rs_live *l, const void *mine,
		  size_t len, void *theirs, size_t their_len)
{
	struct rs_obj *o = l->obj;
	unsigned n = rs_nodes_count(run->s);
	struct rs_rdv_blob *all;
	char tag[RS_RDV_TAG_MAX + 1], err[1024] = "";
	int far, r;

	if (!run->rdv)
		return -ENOTCONN;
	/* The node on the other side of it from here. */
	far = o->on == run->node ? o->on_peer : o->on;
	snprintf(tag, sizeof(tag), "object %s", o->id);
	all = rs_calloc(n, sizeof(*all));
	if (!all)
		return rdv_failed(run, -ENOMEM, err);
	r = rs_rdv_allgather(run->rdv, tag, mine, len, all, err, sizeof(err));
	if (r) {
		rs_free(all);
		return rdv_failed(run, r, err);
	}
	if (theirs && (far < 0 || all[far].len != their_len)) {
		rs_live_error(run, l, EPROTO, "node '%s' sent %zu bytes for "
			      "it, not %zu", rs_node_name(run->s, far),
			      far < 0 ? 0 : all[far].len, their_len);
		r = -EPROTO;
	} else if (theirs) {
		memcpy(theirs, all[far].data, their_len);
	}
	rs_rdv_blobs_free(all, n);
	rs_free(all);
	return r;
}

/* What a poster needs of an MR or a QP on another node. */
struct far_obj {
	uint32_t index;          /* the object's, in the plan */
	uint32_t what;           /* FAR_MEM, FAR_QP */
	uint64_t addr, length;   /* an mr's */
	uint32_t rkey;
	uint32_t qpn, qkey;      /* a qp's */
	uint8_t gid[16];         /* its port's GID (gid_index), or zero */
	uint32_t pad;
};

enum { FAR_MEM = 1, FAR_QP = 2 };

/* @l as the others see it: 0, or -ENOENT (nothing to tell of it). */
static int far_of(struct rs_run *run, unsigned i, struct far_obj *f)
{
	struct rs_live *l = &run->live[i];
	struct rs_mr_rt *m;
	struct rdmascn_qp q;
	const struct rs_dev *dev;

	memset(f, 0, sizeof(*f));
	f->index = i;
	if (l->state != RS_LIVE_CREATED || !rs_run_here(run, l->obj))
		return -ENOENT;
	if ((m = rs_as_mem(l)) && m->mr) {
		f->what = FAR_MEM;
		f->rkey = m->mr->rkey;
		f->addr = m->addr;
		f->length = m->length;
		return 0;
	}
	if (rs_as_qp(run, l, &q) || !q.rt || !q.rt->qp)
		return -ENOENT;
	f->what = FAR_QP;
	f->qpn = q.rt->qp->qp_num;
	f->qkey = q.rt->qkey;
	dev = rs_live_dev(run, l);
	if (dev && dev->gid_index >= 0)
		memcpy(f->gid, dev->gid.raw, sizeof(f->gid));
	return 0;
}

static void far_take(struct rs_run *run, const struct far_obj *f)
{
	struct rs_live *l;

	if (f->index >= run->s->n_objects)
		return;
	l = &run->live[f->index];
	if (f->what == FAR_MEM) {
		l->far.known = true;
		l->far.addr = f->addr;
		l->far.length = f->length;
		l->far.rkey = f->rkey;
	} else if (f->what == FAR_QP) {
		l->far.qp_known = true;
		l->far.qpn = f->qpn;
		l->far.qkey = f->qkey;
		memcpy(l->far.gid, f->gid, sizeof(l->far.gid));
	}
}

int rs_nodes_publish(struct rs_run *run)
{
	unsigned n = rs_nodes_count(run->s), k = 0;
	struct far_obj *mine = rs_calloc(run->s->n_objects + 1, sizeof(*mine));
	struct rs_rdv_blob *all = rs_calloc(n, sizeof(*all));
	char err[1024] = "";
	int r;

	if (!mine || !all) {
		rs_free(mine);
		rs_free(all);
		return rdv_failed(run, -ENOMEM, err);
	}
	for (unsigned i = 0; i < run->s->n_objects; i++)
		if (!far_of(run, i, &mine[k]))
			k++;
	r = rs_rdv_allgather(run->rdv, "remote objects", mine,
			     k * sizeof(*mine), all, err, sizeof(err));
	for (unsigned j = 0; !r && j < n; j++) {
		const struct far_obj *f = all[j].data;

		if ((int)j == run->node)
			continue;
		for (size_t e = 0; e < all[j].len / sizeof(*f); e++)
			far_take(run, &f[e]);
	}
	rs_rdv_blobs_free(all, n);
	rs_free(all);
	rs_free(mine);
	return r ? rdv_failed(run, r, err) : 0;
}

int rs_nodes_barrier(struct rs_run *run, const char *what)
{
	char err[1024] = "";
	int r;

	if (!run->rdv)
		return 0;
	r = rs_rdv_barrier(run->rdv, what, err, sizeof(err));
	return r ? rdv_failed(run, r, err) : 0;
}

int rs_nodes_agree(struct rs_run *run, const char *what, int mine,
		   int *ret_all)
{
	unsigned n = rs_nodes_count(run->s);
	struct rs_rdv_blob *all;
	char err[1024] = "";
	int32_t v = mine;
	int r;

	*ret_all = mine;
	if (!run->rdv)
		return 0;
	all = rs_calloc(n, sizeof(*all));
	if (!all)
		return rdv_failed(run, -ENOMEM, err);
	r = rs_rdv_allgather(run->rdv, what, &v, sizeof(v), all, err,
			     sizeof(err));
	for (unsigned j = 0; !r && j < n; j++) {
		if (all[j].len != sizeof(v))
			continue;
		memcpy(&v, all[j].data, sizeof(v));
		/* Only a code rdmascn exits with is a node's word. */
		if (!rs_exit_valid(v)) {
			snprintf(err, sizeof(err), "node '%s' gave %d at "
				 "'%s', which is no exit code of rdmascn",
				 rs_node_name(run->s, (int)j), (int)v, what);
			r = -EPROTO;
			break;
		}
		*ret_all = rs_rdv_worst(*ret_all, v);
	}
	rs_rdv_blobs_free(all, n);
	rs_free(all);
	return r ? rdv_failed(run, r, err) : 0;
}

void rs_nodes_fail(struct rs_run *run, int code, const char *why)
{
	char msg[512];

	if (!run->rdv)
		return;
	snprintf(msg, sizeof(msg), "%.500s", why && *why ? why :
		 run->diag.errors ? run->diag.first : "it failed");
	rs_rdv_abort(run->rdv, code, msg);
}
