// SPDX-License-Identifier: MIT
/*
 * One run of a scenario, from the construction of its struct rs_run to
 * its destruction: the record's head and plan, then the phases in the
 * order they run (run_phases(): meet, probe, facts, caps, agree, create,
 * publish, steps, done, teardown, leaks, verdict).  The caller chooses
 * the reporters; what happens goes to the record, and they print it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "alloc.h"
#include "exit.h"
#include "gate.h"
#include "live.h"
#include "nodes.h"
#include "qp_counters.h"
#include "run.h"
#include "run_scenario.h"
#include "sha256.h"
#include "signals.h"
#include "stragglers.h"
#include "value.h"
#include "wire.h"

/* An error of the run, into its record; the text reporter prints it. */
static void record_error(void *ctx, const struct rs_loc *loc, const char *msg)
{
	struct rs_record *rec = ctx;
	struct rs_val *e = rs_val_obj();

	rs_val_put_loc(e, loc);
	rs_val_put_str(e, "message", msg);
	rs_record_add(rec, RS_REC_ERROR, rec->errors, e);
}

/* A warning of the run, the same way. */
static void record_warning(void *ctx, const struct rs_loc *loc,
			   const char *msg)
{
	struct rs_record *rec = ctx;
	struct rs_val *e = rs_val_obj();

	rs_val_put_loc(e, loc);
	rs_val_put_str(e, "message", msg);
	rs_record_add(rec, RS_REC_WARNING, rec->warnings, e);
}

/* With `nodes:`, where an object is made or a step runs: "node", and
 * "peer_node" for what joins two. */
static void put_node(struct rs_val *e, const struct rs_scenario *s,
		     const struct rs_obj *o)
{
	if (!rs_nodes_count(s) || o->on == RS_NODE_ANY)
		return;
	rs_val_put_str(e, "node", rs_node_name(s, o->on));
	if (o->on_peer != RS_NODE_ANY)
		rs_val_put_str(e, "peer_node", rs_node_name(s, o->on_peer));
}

/* The nodes of the file, and the one this process plays. */
static void record_nodes(struct rs_val *root, const struct rs_scenario *s,
			 const struct rs_run_conf *o)
{
	struct rs_val *all = rs_val_put_arr(root, "nodes");

	for (unsigned i = 0; i < rs_nodes_count(s); i++) {
		const struct rs_node_decl *d = &s->top->nodes[i];
		struct rs_val *e = rs_val_push_obj(all);

		rs_val_put_str(e, "name", d->id);
		if (d->address)
			rs_val_put_str(e, "address", d->address);
		if (d->device)
			rs_val_put_str(e, "device", d->device);
	}
	if (o->role.node != RS_NODE_ANY) {
		struct rs_val *me = rs_val_put_obj(root, "node");

		rs_val_put_str(me, "name", rs_node_name(s, o->role.node));
		rs_val_put_str(me, "from", o->role.from);
		if (o->role.rank >= 0)
			rs_val_put_i64(me, "rank", o->role.rank);
		rs_val_put_str(me, "rendezvous", o->meet.leader_addr);
	}
}

/* The record's head: the tool, the host, the scenario with its params as
 * resolved, the cell. */
static void record_head(struct rs_record *rec, const struct rs_scenario *s,
			const char *file, const struct rs_cell *cell)
{
	struct rs_val *scn, *params;
	char digest[RS_SHA256_HEX];
	struct utsname u;
	char host[256] = "";

	rs_val_put_str(rec->root, "tool", "rdmascn " RDMASCN_VERSION);
	gethostname(host, sizeof(host) - 1);
	rs_val_put_str(rec->root, "host", host);
	if (!uname(&u))
		rs_val_put_str(rec->root, "kernel", u.release);
	rs_val_put_i64(rec->root, "start", time(NULL));
	rs_val_put_bool(rec->root, "dry_run", rec->dry_run);
	scn = rs_val_put_obj(rec->root, "scenario");
	if (s->top->scenario)
		rs_val_put_str(scn, "name", s->top->scenario);
	rs_val_put_str(scn, "file", file);
	rs_val_put_str(scn, "sha256",
		       rs_sha256_hex(s->doc.text, s->doc.len, digest));
	params = rs_val_put_obj(scn, "params");
	for (unsigned i = 0; i < s->n_params; i++)
		rs_val_put_str(params, s->params[i].name, s->params[i].value);
	if (cell) {
		struct rs_val *c = rs_val_put_obj(rec->root, "cell");
		struct rs_val *values = rs_val_put_obj(c, "params");

		rs_val_put_str(c, "name", cell->name);
		for (unsigned i = 0; i < cell->n_sets; i++)
			rs_val_put_str(values, cell->sets[i].name,
				       cell->sets[i].value);
	}
}

/* Hand @reporters to @rec, which frees them; those it does not take
 * (out of memory before it could; @rec NULL) are freed here. */
static int add_reporters(struct rs_record *rec, struct rs_reporter **r,
			 unsigned n)
{
	int ret = rec ? 0 : -ENOMEM;

	for (unsigned i = 0; i < n; i++) {
		if (!ret)
			ret = rs_record_add_reporter(rec, r[i]);
		else if (r[i])
			r[i]->ops->free(r[i]);
	}
	return ret;
}

/* The record's head: what runs, where from, and its plan: an entry per
 * object in creation order, which create and teardown fill in. */
static int record_init(struct rs_run *run, const char *file,
		       const struct rs_run_conf *o, const struct rs_cell *cell,
		       struct rs_reporter **reporters, unsigned n)
{
	struct rs_scenario *s = run->s;
	struct rs_record *rec = rs_calloc(1, sizeof(*rec));
	struct rs_val *plan;

	run->rec = rec;
	if (!rec || rs_record_init(rec, run->dry_run, run->verbose)) {
		add_reporters(NULL, reporters, n);
		return -ENOMEM;
	}
	if (add_reporters(rec, reporters, n))
		return -ENOMEM;
	record_head(rec, s, file, cell);
	if (rs_nodes_count(s))
		record_nodes(rec->root, s, o);
	for (unsigned i = 0; i < s->n_objects; i++) {
		struct rs_obj *obj = s->create[i];
		struct rs_val *e;

		if (!rs_obj_on(obj, run->node))
			continue;
		if (rs_nodes_count(s) && obj->on != RS_NODE_ANY) {
			/* Placed on a node: the entry says where, in
			 * members of its own. */
			e = rs_val_push_obj(rec->objects);
			rs_val_put_str(e, "id", obj->id);
			rs_val_put_str(e, "kind", obj->kind->name);
			rs_val_put_str(e, "name", obj->name);
			put_node(e, s, obj);
			rs_val_put_loc(e, rs_obj_loc(obj, NULL));
			rs_val_put_str(e, "outcome", "pending");
		} else {
			e = rs_record_object(rec, obj->id, obj->kind->name,
					     obj->name, rs_obj_loc(obj, NULL),
					     "pending");
		}
		run->live[obj->index].entry = e;
	}
	plan = rs_val_put_arr(rec->root, "plan_steps");
	for (unsigned i = 0; i < s->n_steps; i++) {
		struct rs_val *e, *gates;

		/* Another node's: in its record. */
		if (!rs_run_here(run, s->steps[i]))
			continue;
		gates = rs_gate_entries(((const struct rs_step_common *)
					 s->steps[i]->data)->gate);
		/* Nothing but its number, type and id: a struct. */
		if (!gates && !rs_nodes_count(s)) {
			rs_record_plan_step(rec, plan, s->steps[i]->no,
					    s->steps[i]->kind->name,
					    s->steps[i]->id);
			continue;
		}
		e = rs_val_push_obj(plan);
		rs_val_put_str(e, "no", s->steps[i]->no);
		rs_val_put_str(e, "type", s->steps[i]->kind->name);
		put_node(e, s, s->steps[i]);
		if (s->steps[i]->id)
			rs_val_put_str(e, "id", s->steps[i]->id);
		if (gates)
			rs_val_put(e, "gates", gates);
	}
	return rs_val_check(rec->root);
}

/* The scenario's own deviations and those of --deviations FILE that
 * name it; rs_run_probe() keeps those of its devices. */
static int take_deviations(struct rs_run *run, const struct rs_run_conf *o)
{
	const struct rs_deviations *mine = &run->s->deviations;
	static const struct rs_deviations none;
	const struct rs_deviations *file = o->deviations ? o->deviations :
					   &none;

	run->deviations = rs_calloc(mine->n + file->n + 1,
				    sizeof(*run->deviations));
	if (!run->deviations)
		return -ENOMEM;
	for (unsigned i = 0; i < mine->n; i++)
		run->deviations[run->n_deviations++] = &mine->v[i];
	for (unsigned i = 0; i < file->n; i++)
		if (rs_deviation_for_scenario(&file->v[i], run->s->top->scenario,
					      run->file))
			run->deviations[run->n_deviations++] = &file->v[i];
	return 0;
}

/* What an object of @ops's kind takes of the runtime structs' block:
 * malloc()'s alignment, as each had its own. */
static size_t rt_room(const struct rdmascn_ops *ops)
{
	size_t size = ops && ops->rt_size ? ops->rt_size : 1;

	return (size + 15) & ~(size_t)15;
}

/* Each object's runtime struct (its kind's rt_size bytes, zeroed), all
 * in one block: one calloc() an object cost malloc's header and
 * rounding, about 16 bytes an object at 400k.  0 or -ENOMEM. */
static int rt_init(struct rs_run *run, const struct rs_scenario *s)
{
	size_t total = 0;
	char *p;

	for (unsigned i = 0; i < s->n_objects; i++)
		total += rt_room(s->objs[i].kind->ops);
	run->rt_block = rs_calloc(1, total ? total : 1);
	if (!run->rt_block)
		return -ENOMEM;
	p = run->rt_block;
	for (unsigned i = 0; i < s->n_objects; i++) {
		run->live[i].obj = &s->objs[i];
		run->live[i].rt = p;
		p += rt_room(s->objs[i].kind->ops);
	}
	return 0;
}

/* The run's construction: 0, or -errno with @run half built, for
 * run_free(); every reporter is the record's by then, or freed. */
static int run_init(struct rs_run *run, struct rs_scenario *s,
		    const struct rs_run_conf *o, struct rs_reporter **reporters,
		    unsigned n)
{
	const char *file = o->file;
	const struct rs_cell *cell = o->cell;
	const char *faults = getenv("RDMASCN_FAULT");

	memset(run, 0, sizeof(*run));
	run->s = s;
	run->file = file;
	run->dry_run = o->dry_run;
	run->verbose = o->verbose;
	run->device = o->device;
	run->node = o->role.node;
	run->samples = o->samples;
	run->cell = cell ? cell->name : NULL;
	run->default_deadline_ms = 10000;
	run->progress_ms = o->progress ? 250 : 0;
	run->counters_off = o->counters_off;
	run->facts_unread = o->facts_unread;
	run->err = o->err;
	rs_diag_init(&run->diag, o->err);
	run->live = rs_calloc(s->n_objects + 1, sizeof(*run->live));
	run->created = rs_calloc(s->n_objects + 1, sizeof(*run->created));
	if (!run->live || !run->created) {
		add_reporters(NULL, reporters, n);
		return -ENOMEM;
	}
	if (rt_init(run, s)) {
		add_reporters(NULL, reporters, n);
		return -ENOMEM;
	}
	if (record_init(run, file, o, cell, reporters, n))
		return -ENOMEM;
	if (!o->strict && take_deviations(run, o))
		return -ENOMEM;
	run->diag.f = NULL;
	run->diag.sink = record_error;
	run->diag.warn_sink = record_warning;
	run->diag.sink_ctx = run->rec;
	if (s->n_objects &&
	    rs_idmap_build_stride(&run->ids, &s->objs[0].id,
				  sizeof(s->objs[0]), s->n_objects))
		return -ENOMEM;
	if (faults && *faults) {
		char why[256];
		int r = rs_faults_parse(run, faults, why, sizeof(why));

		/* The command checked it first (rs_faults_parse(NULL)). */
		if (r == -EINVAL)
			rs_diag_error(&run->diag, NULL, "%s", why);
		return r;
	}
	return 0;
}

static void run_free(struct rs_run *run)
{
	rs_qp_counters_free(run);
	if (run->rec) {
		rs_record_free(run->rec);
		rs_free(run->rec);
	}
	rs_free(run->rt_block);
	rs_free(run->live);
	rs_free(run->far);
	rs_free(run->created);
	rs_free(run->faults);
	rs_free(run->deviations);
	rs_idmap_free(&run->ids);
	if (run->devices)
		ibv_free_device_list(run->devices);
	rs_scenario_free(run->s_facts);
	rs_wire_free(run);
}

const char *rs_run_signal_name(void)
{
	return rs_interrupted == SIGINT ? "SIGINT" : "SIGTERM";
}

/* --check-leaks: what the kernel still holds of this process, its
 * entry in the record (the text reporter prints each resource). */
static int check_leaks(struct rs_run *run)
{
	struct rs_val *e = rs_val_put_obj(run->rec->root, "leaks");
	unsigned n_devs = 0;
	int n = rs_leaks_check(run, e, &n_devs);

	rs_val_put_bool(e, "checked", n >= 0 && n_devs);
	rs_val_put_i64(e, "count", n);
	rs_val_put_i64(e, "pid", getpid());
	rs_val_put_u64(e, "devices", n_devs);
	rs_record_tell(run->rec, RS_REC_LEAKS, e);
	return n;
}

/* When each phase began (rs_now_ms()); a phase not reached begins when
 * the one before it ended, so it lasted 0. */
struct phases {
	double setup, steps, teardown;
};

/* The verdict and what ends the record; the nodes' records are
 * gathered into it before it ends (rs_nodes_gather()). */
static void record_verdict(struct rs_run *run, int ret, struct phases *t)
{
	const char *v = rs_exit_verdict(ret);
	struct rs_val *d = rs_val_put_obj(run->rec->root, "durations_ms");
	double now = rs_now_ms();

	if (!t->steps)
		t->steps = now;
	if (!t->teardown)
		t->teardown = now;
	rs_val_put_double(d, "setup", t->steps - t->setup);
	rs_val_put_double(d, "steps", t->teardown - t->steps);
	rs_val_put_double(d, "teardown", now - t->teardown);
	rs_val_put_double(d, "total", now - t->setup);
	rs_val_put_str(run->rec->root, "verdict", v);
	rs_val_put_i64(run->rec->root, "exit_code", ret);
	if (run->diag.errors)
		rs_val_put_str(run->rec->root, "message", run->diag.first);
	if (run->teardown_failed)
		rs_val_put_bool(run->rec->root, "teardown_failed", true);
	/* This node's signal: the text reporter says it was torn down. */
	if (rs_interrupted)
		rs_val_put_str(run->rec->root, "interrupted_by",
			       rs_run_signal_name());
}

/* The counted steps' elements side by side, over every node's record
 * the leader now holds: the reporters print them before the verdict. */
static void put_stragglers(struct rs_run *run)
{
	struct rs_val *s = NULL;

	if (run->dry_run || (run->rdv && run->node != 0))
		return;
	/* Out of memory: NULL marks the record, whose end says so. */
	if (rs_stragglers(run->rec->root, &s) || s)
		rs_val_put(run->rec->root, "stragglers", s);
}

/* A deviation for the whole scenario applied: the run is skipped, with
 * the reason, at the deviation's place; @was: what it would have been. */
static void whole_deviation(struct rs_run *run, const struct rs_deviation *dv,
			    const char *was)
{
	rs_deviation_put(run->rec->root, dv);
	if (was)
		rs_diag_error(&run->diag, &dv->loc, "known deviation: %s (the "
			      "run %s)", dv->reason, was);
	else
		rs_diag_error(&run->diag, &dv->loc, "known deviation: %s",
			      dv->reason);
}

/* Probe, device facts, capabilities: 0 to go on, or the exit code. */
static int prepare(struct rs_run *run, const struct rs_deviation **dv)
{
	int r = rs_run_probe(run);

	if (r)
		return RS_EXIT_CANTRUN;
	*dv = rs_run_deviation(run, NULL);
	if (*dv && rs_deviation_for_step(*dv, NULL) && (*dv)->skip) {
		whole_deviation(run, *dv, NULL);
		return RS_EXIT_SKIPPED;
	}
	r = rs_run_facts(run);
	if (r)
		return r == -EINVAL ? RS_EXIT_INVALID : RS_EXIT_CANTRUN;
	r = rs_run_check_caps(run);
	return !r ? 0 : r == -E2BIG ? RS_EXIT_CANTRUN : RS_EXIT_SKIPPED;
}

/* Interrupted: every node ends now, with this node's 128+signal, rather
 * than wait out a step's deadline and blame itself. */
static void interrupted_abort(struct rs_run *run)
{
	rs_nodes_fail(run, 128 + rs_interrupted,
		      rs_interrupted == SIGINT ? "interrupted by SIGINT" :
		      "interrupted by SIGTERM");
}

/* The phases, in the order they run; the exit code. */
static int run_phases(struct rs_run *run, const struct rs_run_conf *o)
{
	struct phases t = { .setup = rs_now_ms() };
	const struct rs_deviation *dv = NULL;
	int ret = RS_EXIT_PASSED, r;

	rs_record_begin(run->rec);
	/* One node of several: the others first, before anything. */
	if (rs_nodes_count(run->s) && run->node != RS_NODE_ANY &&
	    !run->dry_run && (r = rs_nodes_meet(run, &o->meet))) {
		/* The nodes disagree, or there is no key where one is due:
		 * what was asked is wrong, not the machine. */
		ret = r == -EINVAL || r == -EPERM ? RS_EXIT_INVALID :
		      RS_EXIT_CANTRUN;
		/* Another node aborted the meeting (run->rdv is the failed
		 * side): the verdict below takes its exit code. */
		goto out;
	}
	ret = prepare(run, &dv);
	/* Every node goes on, or none: a skip or a missing device on one
	 * is every node's. */
	if (run->rdv && rs_nodes_agree(run, "ready", ret, &ret))
		ret = RS_EXIT_CANTRUN;
	if (ret)
		goto out;
	r = rs_run_create(run);
	if (!r && run->rdv)
		r = rs_nodes_publish(run);
	/* A create the file said would fail and did not (or failed
	 * otherwise) is the run's failure, not the machine's. */
	if (r)
		rs_nodes_fail(run, run->expect_unmet ? RS_EXIT_FAILED :
			      RS_EXIT_CANTRUN, NULL);
	t.steps = rs_now_ms();
	if (!r && !rs_interrupted && !run->dry_run) {
		ret = rs_steps_run(run);
		/* A step's failure says more than the run's totals. */
		if (!rs_interrupted && rs_run_check_gates(run) &&
		    ret == RS_EXIT_PASSED)
			ret = RS_EXIT_FAILED;
	}
	else if (!r && !rs_interrupted)
		rs_steps_dry_run(run);
	else if (r)
		ret = run->expect_unmet ? RS_EXIT_FAILED : RS_EXIT_CANTRUN;
	if (rs_interrupted)
		interrupted_abort(run);
	/* No node tears down while another still uses its objects (the
	 * last step's remote MR, its QP's peer); a failure there is the
	 * verdict's to tell. */
	if (!r && !rs_interrupted)
		rs_nodes_done(run);
	t.teardown = rs_now_ms();
	rs_run_teardown(run);
	if (dv && rs_deviation_for_step(dv, NULL) && !rs_interrupted &&
	    (ret == RS_EXIT_FAILED || ret == RS_EXIT_CANTRUN)) {
		whole_deviation(run, dv, rs_exit_verdict(ret));
		ret = RS_EXIT_SKIPPED;
	}
out:
	if (o->check_leaks && !run->dry_run && ret != RS_EXIT_SKIPPED) {
		if (check_leaks(run))
			ret = RS_EXIT_CANTRUN;
	}
	if (run->teardown_failed && ret == RS_EXIT_PASSED && !rs_interrupted)
		ret = RS_EXIT_CANTRUN;
	if (rs_interrupted) {
		ret = 128 + rs_interrupted;
		/* Interrupted before the steps (at the meeting's "ready"):
		 * the others hear it all the same. */
		interrupted_abort(run);
	}
	ret = rs_nodes_verdict(run, ret);
	record_verdict(run, ret, &t);
	rs_nodes_gather(run);
	put_stragglers(run);
	r = rs_record_end(run->rec);
	/* An entry lost to a failed allocation: the record is not whole,
	 * whether or not a reporter wrote it (the caller says so). */
	if (rs_val_check(run->rec->root) < 0)
		ret = -ENOMEM;
	else if (r && ret == RS_EXIT_PASSED)
		ret = RS_EXIT_CANTRUN;
	rs_nodes_close(run);
	/* What the record says, even when a signal came after it was
	 * written: the caller sees rs_interrupted and says so itself (a
	 * matrix stops before its next cell, a single run exits 128+N). */
	return ret;
}

int rs_run_scenario(struct rs_scenario *s, const struct rs_run_conf *c,
		    struct rs_reporter **reporters, unsigned n)
{
	struct rs_run run;
	int ret = run_init(&run, s, c, reporters, n);

	/* -EINVAL: a bad RDMASCN_FAULT, in the record's errors; the
	 * command says it before it runs anything. */
	if (ret < 0)
		ret = ret == -EINVAL ? RS_EXIT_INVALID : -ENOMEM;
	else
		ret = run_phases(&run, c);
	run_free(&run);
	return ret;
}

int rs_run_invalid_cell(const struct rs_scenario *s,
			const struct rs_run_conf *c,
			const struct rs_val *errors,
			struct rs_reporter **reporters, unsigned n)
{
	const struct rs_cell *cell = c->cell;
	const char *file = c->file;
	const struct rs_val *first = rs_val_at(errors, 0);
	struct rs_record rec;
	struct rs_val *d, *params;
	int ret;

	if (rs_record_init(&rec, c->dry_run, c->verbose)) {
		add_reporters(NULL, reporters, n);
		return -ENOMEM;
	}
	if (add_reporters(&rec, reporters, n)) {
		rs_record_free(&rec);
		return -ENOMEM;
	}
	record_head(&rec, s, file, cell);
	/* @s is the file with the defaults: the cell's values over them. */
	params = rs_val_get_mut(rs_val_get_mut(rec.root, "scenario"),
				"params");
	for (unsigned i = 0; cell && i < cell->n_sets; i++)
		rs_val_put_str(params, cell->sets[i].name, cell->sets[i].value);
	rs_val_put_arr(rec.root, "plan_steps");
	rs_record_begin(&rec);
	for (size_t i = 0; i < rs_val_len(errors); i++)
		rs_record_add(&rec, RS_REC_ERROR, rec.errors,
			      rs_val_copy(rs_val_at(errors, i)));
	d = rs_val_put_obj(rec.root, "durations_ms");
	rs_val_put_double(d, "setup", 0);
	rs_val_put_double(d, "steps", 0);
	rs_val_put_double(d, "teardown", 0);
	rs_val_put_double(d, "total", 0);
	rs_val_put_str(rec.root, "verdict", rs_exit_verdict(RS_EXIT_INVALID));
	rs_val_put_i64(rec.root, "exit_code", RS_EXIT_INVALID);
	if (rs_val_get(first, "line"))
		rs_val_put_strf(rec.root, "message", "%s:%llu:%llu: %s",
			rs_val_text(first, "file"),
			(unsigned long long)rs_val_get_u64(first, "line"),
			(unsigned long long)rs_val_get_u64(first, "col"),
			rs_val_text(first, "message"));
	else if (first)
		rs_val_put_str(rec.root, "message",
			       rs_val_text(first, "message"));
	ret = rs_val_check(rec.root) || rs_record_end(&rec) ? -ENOMEM :
	      RS_EXIT_INVALID;
	rs_record_free(&rec);
	return ret;
}
