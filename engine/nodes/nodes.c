// SPDX-License-Identifier: MIT
/*
 * A run that is one node of several (`nodes:`): what its phases say to
 * the other nodes through the rendezvous (rendezvous.h).  Before anything
 * is created the nodes meet (same scenario, same params, the same
 * nodes); every node walks the same plan, so each collective below is
 * reached by all of them in the same order: one exchange per phase of
 * creation, in which each crossing object's description goes to the node
 * on its other side only (rs_nodes_flush()); one once all is created, in
 * which each MR and QP goes to the nodes whose objects and steps refer to
 * it (rs_nodes_publish()); a barrier before each step.  At the end they
 * agree on one verdict and send the run record to the leader, which
 * keeps every node's in its own (`node_runs`) and writes that one.
 * What each exchange sent and received is in the record, under
 * `node.exchanges`.  A failure here is the run's: reported, and the
 * other nodes told (rs_rdv_abort()).  Each collective may wait for the
 * slowest node, so the reporters' held lines go out before it
 * (rs_record_before_wait()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "alloc.h"
#include "exit.h"
#include "live.h"
#include "nodes.h"
#include "rendezvous.h"
#include "run.h"
#include "sha256.h"
#include "value.h"

/* How long a node waits for the others at each meeting. */
#define RS_NODES_DEADLINE_MS 30000

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* RDMASCN_NODES_DEADLINE_MS, else 30 s more than the longest step: a
 * node waits at a step's barrier while another still runs the step
 * before it. */
static uint64_t deadline_ms(const struct rs_run *run)
{
	const char *v = getenv("RDMASCN_NODES_DEADLINE_MS");
	uint64_t longest = 0;
	char *end;
	unsigned long long n;

	if (v && *v) {
		n = strtoull(v, &end, 10);
		if (!*end && n)
			return n;
	}
	for (unsigned i = 0; i < run->s->n_steps; i++) {
		const struct rs_step_common *c = run->s->steps[i]->data;
		uint64_t d = c->deadline_ms ? c->deadline_ms :
			     run->default_deadline_ms;

		if (d > longest)
			longest = d;
	}
	return RS_NODES_DEADLINE_MS + longest;
}

/* The launcher's job, the same in every process it started: a node of
 * another job, with the same file and key, is not one of this run. */
static const char *run_id(char *buf, size_t len)
{
	const char *v = getenv("RDMASCN_RUN_ID"), *step;

	if (v && *v)
		return v;
	v = getenv("PMIX_NAMESPACE");           /* Open MPI 4+, PRRTE */
	if (v && *v)
		return v;
	v = getenv("SLURM_JOB_ID");
	step = getenv("SLURM_STEP_ID");
	if (v && *v) {
		snprintf(buf, len, "slurm %s.%s", v, step ? step : "");
		return buf;
	}
	return "";
}

static const struct rs_run_nodes nodes_ops = {
	.flush = rs_nodes_flush,
	.barrier = rs_nodes_barrier,
	.fail = rs_nodes_fail,
};

int rs_nodes_meet(struct rs_run *run, const struct rs_nodes_conf *o)
{
	char job[128];
	const struct rs_scenario *s = run->s;
	unsigned n = rs_nodes_count(s);
	const char **names = rs_calloc(n + 1, sizeof(*names));
	char **params = rs_calloc(s->n_params + 1, sizeof(*params));
	char digest[RS_SHA256_HEX], err[1024] = "";
	struct rs_rdv_conf c = { 0 };
	char **uniform = NULL;
	unsigned n_uniform = 0;
	int r = -ENOMEM;

	if (!names || !params)
		goto out;
	/* What the hosts must have alike travels with the hello. */
	if (s->top->requires && s->top->requires->uniform &&
	    rs_uniform_values(s->top->requires->uniform, &uniform,
			      &n_uniform))
		goto out;
	for (unsigned i = 0; i < n; i++)
		names[i] = rs_node_name(s, (int)i);
	for (unsigned i = 0; i < s->n_params; i++) {
		size_t len = strlen(s->params[i].name) +
			     strlen(s->params[i].value) + 2;

		params[i] = rs_malloc(len);
		if (!params[i])
			goto out;
		snprintf(params[i], len, "%s=%s", s->params[i].name,
			 s->params[i].value);
	}
	qsort(params, s->n_params, sizeof(*params), by_str);
	c.nodes = names;
	c.n_nodes = n;
	c.self = (unsigned)run->node;
	c.via = o->via;
	c.leader_addr = o->leader_addr;
	c.deadline_ms = deadline_ms(run);
	c.scenario_hash = rs_sha256_hex(s->doc.text, s->doc.len, digest);
	c.params = (const char *const *)params;
	c.n_params = s->n_params;
	c.uniform = (const char *const *)uniform;
	c.n_uniform = n_uniform;
	c.run_id = run_id(job, sizeof(job));
	c.key = o->key;
	c.key_len = o->key_len;
	c.insecure = o->insecure;
	/* exec's phases reach the other nodes through these. */
	run->nodes = &nodes_ops;
	rs_record_before_wait(run->rec);
	r = rs_rdv_meet(&c, &run->rdv, err, sizeof(err));
	/* An abort heard at the meeting is reported with the verdict,
	 * which takes its exit code. */
	if (r == -ENOMEM)
		rs_diag_error(&run->diag, NULL, "nodes: out of memory");
	else if (r && r != -ECONNABORTED)
		rs_diag_error(&run->diag, NULL, "nodes: %s", err);
out:
	rs_uniform_free(uniform, n_uniform);
	for (unsigned i = 0; params && i < s->n_params; i++)
		rs_free(params[i]);
	rs_free(params);
	rs_free(names);
	return r;
}

static int rdv_failed(struct rs_run *run, int r, const char *err)
{
	if (r == -ENOMEM)
		rs_diag_error(&run->diag, NULL, "nodes: out of memory");
	else
		rs_diag_error(&run->diag, NULL, "nodes: %s", err);
	return r;
}

/* What an exchange @tag of this node sent and received, in the record. */
static void record_exchange(struct rs_run *run, const char *tag,
			    const struct rs_rdv_msg *out, unsigned n_out,
			    const struct rs_rdv_msg *in, unsigned n_in,
			    double ms)
{
	struct rs_val *node = (struct rs_val *)rs_val_get(run->rec->root,
							  "node");
	struct rs_val *list, *e;
	uint64_t sent = 0, got = 0;

	if (!node)
		return;
	list = (struct rs_val *)rs_val_get(node, "exchanges");
	if (!list)
		list = rs_val_put_arr(node, "exchanges");
	for (unsigned i = 0; i < n_out; i++)
		sent += out[i].len;
	for (unsigned i = 0; i < n_in; i++)
		got += in[i].len;
	e = rs_val_push_obj(list);
	rs_val_put_str(e, "phase", tag);
	rs_val_put_u64(e, "sent", n_out);
	rs_val_put_u64(e, "sent_bytes", sent);
	rs_val_put_u64(e, "received", n_in);
	rs_val_put_u64(e, "received_bytes", got);
	rs_val_put_double(e, "ms", ms);
}

int rs_nodes_flush(struct rs_run *run, unsigned phase, struct rs_cross *c,
		   unsigned n)
{
	struct rs_rdv_msg *out = rs_calloc(n + 1, sizeof(*out));
	struct rs_rdv_msg *want = rs_calloc(n + 1, sizeof(*want));
	char tag[RS_RDV_TAG_MAX + 1], err[1024] = "";
	double t0 = rs_now_ms();
	int r = -ENOMEM;

	if (!run->rdv) {
		r = -ENOTCONN;
		goto out;
	}
	if (!out || !want)
		goto out;
	for (unsigned i = 0; i < n; i++) {
		out[i] = (struct rs_rdv_msg){ (unsigned)c[i].far,
					c[i].l->obj->index, c[i].mine,
					c[i].len };
		want[i] = (struct rs_rdv_msg){ (unsigned)c[i].far,
					 c[i].l->obj->index, NULL, 0 };
	}
	snprintf(tag, sizeof(tag), "create phase %u", phase);
	rs_record_before_wait(run->rec);
	r = rs_rdv_exchange(run->rdv, tag, out, n, want, n, err, sizeof(err));
	if (!r)
		record_exchange(run, tag, out, n, want, n, rs_now_ms() - t0);
	for (unsigned i = 0; i < n; i++) {
		/* Theirs is the phase's to free. */
		c[i].theirs = r ? NULL : want[i].data;
		c[i].their_len = want[i].len;
		if (r)
			rs_free(want[i].data);
	}
out:
	rs_free(out);
	rs_free(want);
	return r ? rdv_failed(run, r, err) : 0;
}

/* What a poster needs of an MR or a QP on another node. */
struct far_obj {
	uint32_t index;          /* the object's, in the plan */
	uint32_t what;           /* FAR_MEM, FAR_QP */
	uint64_t addr, length;   /* an mr's */
	uint32_t rkey;
	uint32_t qpn, qkey;      /* a qp's */
	uint8_t gid[16];         /* its port's GID (gid_index), or zero */
	uint16_t lid;            /* its port's, for an address without GRH */
	uint8_t port;
	uint8_t gid_type;        /* enum ibv_gid_type at gid_index */
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
	if (dev) {
		f->lid = dev->port_attr.lid;
		f->port = dev->port;
		f->gid_type = (uint8_t)dev->gid_type;
	}
	return 0;
}

static int far_take(struct rs_run *run, const struct far_obj *f)
{
	struct rs_far *l;

	if (f->index >= run->s->n_objects)
		return 0;
	if (!run->far) {
		run->far = rs_calloc(run->s->n_objects, sizeof(*run->far));
		if (!run->far)
			return -ENOMEM;
	}
	l = &run->far[f->index];
	if (f->what == FAR_MEM) {
		l->known = true;
		l->addr = f->addr;
		l->length = f->length;
		l->rkey = f->rkey;
	} else if (f->what == FAR_QP) {
		l->qp_known = true;
		l->qpn = f->qpn;
		l->qkey = f->qkey;
		memcpy(l->gid, f->gid, sizeof(l->gid));
		l->lid = f->lid;
		l->port = f->port;
		l->gid_type = f->gid_type;
	}
	return 0;
}

/* Node @node needs object @index of another node. */
struct need {
	uint32_t index;
	uint32_t node;
};

static int by_need(const void *a, const void *b)
{
	const struct need *x = a, *y = b;

	return x->index != y->index ? (x->index > y->index) -
				      (x->index < y->index) :
	       (x->node > y->node) - (x->node < y->node);
}

/* @x, which runs on @node, refers to @t across nodes: noted in @ret. */
static void need_add(struct need *ret, size_t *n, const struct rs_obj *t,
		     int node)
{
	if (node == RS_NODE_ANY || node == t->on)
		return;
	ret[*n].index = t->index;
	ret[(*n)++].node = (uint32_t)node;
}

/*
 * Who needs which MR or QP of another node, the same on every node: each
 * node where an object or a step runs (its node, and its far node's half)
 * needs what its references name on other nodes (on its own node only a
 * spanning one can, on the far half's any).  A crossing
 * object (a connection) had its far side's description in its phase.
 * Sorted by object, then node, each pair once; *@ret_n of them.
 */
static struct need *needs_of(struct rs_run *run, size_t *ret_n)
{
	const struct rs_scenario *s = run->s;
	unsigned nodes = rs_nodes_count(s);
	size_t n = 0, max = 0, k = 0;
	struct need *ret;

	for (unsigned i = 0; i < s->n_objects + s->n_steps; i++) {
		const struct rs_obj *x = i < s->n_objects ? s->create[i] :
					 s->steps[i - s->n_objects];

		max += (size_t)x->n_edges * (x->on == RS_NODE_ANY ? nodes : 2);
	}
	ret = rs_calloc(max + 1, sizeof(*ret));
	if (!ret)
		return NULL;
	for (unsigned i = 0; i < s->n_objects + s->n_steps; i++) {
		const struct rs_obj *x = i < s->n_objects ? s->create[i] :
					 s->steps[i - s->n_objects];

		if (!x->kind->step && rs_cross_of(&run->live[x->index]))
			continue;
		for (unsigned e = 0; e < x->n_edges; e++) {
			const struct rs_obj *t = x->edges[e].to;

			/* Not only the spanning ones: a pingpong's
			 * answering half also names the measuring side's
			 * qp and buffer (op: write writes into it). */
			if (x->edges[e].order_only ||
			    t->kind->step || t->index >= s->n_objects ||
			    t->on == RS_NODE_ANY)
				continue;
			if (x->on == RS_NODE_ANY) {
				for (unsigned nd = 0; nd < nodes; nd++)
					need_add(ret, &n, t, (int)nd);
				continue;
			}
			need_add(ret, &n, t, x->on);
			/* A step's far half runs there only when it has
			 * one (a pingpong's peer), an object's always. */
			if (x->on_peer != RS_NODE_ANY &&
			    (!x->kind->step || rs_step_on(x, x->on_peer)))
				need_add(ret, &n, t, x->on_peer);
		}
	}
	qsort(ret, n, sizeof(*ret), by_need);
	for (size_t i = 0; i < n; i++)
		if (!k || by_need(&ret[k - 1], &ret[i]))
			ret[k++] = ret[i];
	*ret_n = k;
	return ret;
}

int rs_nodes_publish(struct rs_run *run)
{
	unsigned self = (unsigned)run->node, n_out = 0, n_want = 0;
	size_t n = 0;
	struct need *need = needs_of(run, &n);
	struct far_obj *mine = NULL;
	struct rs_rdv_msg *out = NULL, *want = NULL;
	double t0 = rs_now_ms();
	char err[1024] = "";
	int r = -ENOMEM;

	if (!need)
		return rdv_failed(run, r, err);
	mine = rs_calloc(n + 1, sizeof(*mine));
	out = rs_calloc(n + 1, sizeof(*out));
	want = rs_calloc(n + 1, sizeof(*want));
	if (!mine || !out || !want)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const struct rs_obj *t = run->live[need[i].index].obj;

		if (t->on == run->node) {
			/* Nothing to tell of it (not an mr nor a qp):
			 * an empty one, which the other waits for. */
			if (far_of(run, need[i].index, &mine[n_out]))
				mine[n_out].what = 0;
			out[n_out] = (struct rs_rdv_msg){ need[i].node,
						    need[i].index,
						    &mine[n_out],
						    sizeof(*mine) };
			n_out++;
		} else if (need[i].node == self) {
			want[n_want++] = (struct rs_rdv_msg){ (unsigned)t->on,
							need[i].index, NULL,
							0 };
		}
	}
	rs_record_before_wait(run->rec);
	r = rs_rdv_exchange(run->rdv, "remote objects", out, n_out, want,
			    n_want, err, sizeof(err));
	for (unsigned i = 0; !r && i < n_want; i++) {
		struct far_obj f;

		if (want[i].len != sizeof(f)) {
			snprintf(err, sizeof(err), "node '%s' sent %zu bytes "
				 "for '%s', not %zu",
				 rs_node_name(run->s, (int)want[i].peer),
				 want[i].len,
				 run->live[want[i].key].obj->id, sizeof(f));
			r = -EPROTO;
			break;
		}
		memcpy(&f, want[i].data, sizeof(f));
		/* Only what it was asked for. */
		if (f.index == want[i].key && far_take(run, &f)) {
			snprintf(err, sizeof(err), "out of memory");
			r = -ENOMEM;
			break;
		}
	}
	if (!r)
		record_exchange(run, "remote objects", out, n_out, want,
				n_want, rs_now_ms() - t0);
out:
	for (unsigned i = 0; want && i < n_want; i++)
		rs_free(want[i].data);
	rs_free(want);
	rs_free(out);
	rs_free(mine);
	rs_free(need);
	return r ? rdv_failed(run, r, err) : 0;
}

int rs_nodes_barrier(struct rs_run *run, const char *what)
{
	char err[1024] = "";
	int r;

	if (!run->rdv)
		return 0;
	rs_record_before_wait(run->rec);
	r = rs_rdv_barrier(run->rdv, what, err, sizeof(err));
	return r ? rdv_failed(run, r, err) : 0;
}

int rs_nodes_agree(struct rs_run *run, const char *what, int mine,
		   int *ret_all)
{
	char err[1024] = "";
	int r;

	*ret_all = mine;
	if (!run->rdv)
		return 0;
	/* A reduce: the leader keeps the worst and sends that one code
	 * back, not every node's to every node. */
	rs_record_before_wait(run->rec);
	r = rs_rdv_agree(run->rdv, what, mine, ret_all, err, sizeof(err));
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

void rs_nodes_done(struct rs_run *run)
{
	if (run->rdv && !run->dry_run) {
		rs_record_before_wait(run->rec);
		rs_rdv_barrier(run->rdv, "teardown", NULL, 0);
	}
}

int rs_nodes_verdict(struct rs_run *run, int mine)
{
	char err[1024] = "";
	int all = mine, r;

	if (!run->rdv)
		return mine;
	/* After an abort the rendezvous is failed: another node failed
	 * (a step: 1), or was lost (3); named in the record. */
	rs_record_before_wait(run->rec);
	r = rs_rdv_verdict(run->rdv, mine, &all, err, sizeof(err));
	if (r == -ECONNABORTED || r == -ECONNRESET || r == -ETIMEDOUT) {
		int theirs = rs_rdv_fail_code(run->rdv);

		rs_diag_error(&run->diag, NULL, "nodes: %s", err);
		/* An abort says its node's code: every node ends with it. */
		all = rs_rdv_worst(mine, r != -ECONNABORTED ? RS_EXIT_CANTRUN :
				   theirs ? theirs : RS_EXIT_FAILED);
	} else if (r) {
		return mine;
	}
	if (all != mine)
		rs_val_put_i64(run->rec->root, "node_exit_code", mine);
	return all;
}

void rs_nodes_gather(struct rs_run *run)
{
	unsigned n = rs_nodes_count(run->s);
	char *mine;
	struct rs_rdv_blob *all;
	struct rs_val *list;
	char err[1024] = "";

	if (!run->rdv)
		return;
	rs_record_before_wait(run->rec);
	mine = rs_val_json_string(run->rec->root, false);
	all = rs_calloc(n, sizeof(*all));
	if (!mine || !all ||
	    rs_rdv_gather(run->rdv, "records", mine, strlen(mine),
			  run->node == 0 ? all : NULL, err, sizeof(err))) {
		/* Before the record ends: the text reporter says it. */
		if (run->node == 0)
			rs_val_put_strf(run->rec->root, "node_runs_error",
					"%s", err[0] ? err : "out of memory");
		free(mine);
		rs_free(all);
		return;
	}
	free(mine);
	if (run->node == 0) {
		list = rs_val_put_arr(run->rec->root, "node_runs");
		for (unsigned i = 1; i < n; i++) {
			char *text = rs_malloc(all[i].len + 1);
			struct json_object *j = NULL;

			if (text) {
				memcpy(text, all[i].data, all[i].len);
				text[all[i].len] = '\0';
				j = json_tokener_parse(text);
			}
			rs_free(text);
			if (j)
				rs_val_push(list, rs_val_from_json(j));
			json_object_put(j);
		}
	}
	rs_rdv_blobs_free(all, n);
	rs_free(all);
}

void rs_nodes_close(struct rs_run *run)
{
	rs_rdv_close(run->rdv);
	run->rdv = NULL;
}
