// SPDX-License-Identifier: MIT
/*
 * A run that is one node of several (`nodes:`): what its phases say to
 * the other nodes through the rendezvous (rendezvous.h).  Before anything
 * is created the nodes meet (same scenario, same params, the same
 * nodes); every node walks the same plan, so each collective below is
 * reached by all of them in the same order: one all-gather per object
 * that crosses nodes (a node not in it gives nothing), one for the
 * remote MRs once all is created, a barrier before each step.  At the
 * end they agree on one verdict and send the run record to the leader,
 * which keeps every node's in its own (`node_runs`) and writes that one.
 * A failure here is the run's: reported, and the other nodes told
 * (rs_rdv_abort()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <sha2.h>

#include "alloc.h"
#include "exit.h"
#include "live.h"
#include "nodes.h"
#include "rendezvous.h"
#include "run.h"
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
	.swap = rs_nodes_swap,
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
	char digest[SHA256_DIGEST_STRING_LENGTH], err[1024] = "";
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
	c.scenario_hash = SHA256Data((const uint8_t *)s->doc.text, s->doc.len,
				     digest);
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
		l->far.lid = f->lid;
		l->far.port = f->port;
		l->far.gid_type = f->gid_type;
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

void rs_nodes_done(struct rs_run *run)
{
	if (run->rdv && !run->dry_run)
		rs_rdv_barrier(run->rdv, "teardown", NULL, 0);
}

int rs_nodes_verdict(struct rs_run *run, int mine)
{
	char err[1024] = "";
	int all = mine, r;

	if (!run->rdv)
		return mine;
	/* After an abort the rendezvous is failed: another node failed
	 * (a step: 1), or was lost (3); named in the record. */
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
	const char *mine;
	struct rs_rdv_blob *all;
	struct rs_val *list;
	char err[1024] = "";

	if (!run->rdv)
		return;
	mine = json_object_to_json_string_ext(rs_val_json(run->rec->root),
					      JSON_C_TO_STRING_PLAIN);
	all = rs_calloc(n, sizeof(*all));
	if (!mine || !all ||
	    rs_rdv_gather(run->rdv, "records", mine, strlen(mine),
			  run->node == 0 ? all : NULL, err, sizeof(err))) {
		/* Before the record ends: the text reporter says it. */
		if (run->node == 0)
			rs_val_put_strf(run->rec->root, "node_runs_error",
					"%s", err[0] ? err : "out of memory");
		rs_free(all);
		return;
	}
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
				rs_val_push(list, rs_val_of(j));
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
