// SPDX-License-Identifier: MIT
/*
 * rdmascn run as one node of several: meet the others before anything is
 * created (same scenario, same params, the same nodes), and at the end
 * agree on one verdict and send the run record to the leader, which
 * keeps every node's in its own (`node_runs`) and writes that one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <sha2.h>

#include "alloc.h"
#include "cmd_run.h"
#include "rendezvous.h"
#include "run.h"
#include "run_nodes.h"
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

int rs_run_nodes_meet(struct rs_run *run, const struct run_opts *o)
{
	char job[128];
	const struct rs_scenario *s = run->s;
	unsigned n = rs_nodes_count(s);
	const char **names = rs_calloc(n + 1, sizeof(*names));
	char **params = rs_calloc(s->n_params + 1, sizeof(*params));
	char digest[SHA256_DIGEST_STRING_LENGTH], err[1024] = "";
	struct rs_rdv_conf c = { 0 };
	int r = -ENOMEM;

	if (!names || !params)
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
	c.leader_addr = o->rdv_addr;
	c.deadline_ms = deadline_ms(run);
	c.scenario_hash = SHA256Data((const uint8_t *)s->doc.text, s->doc.len,
				     digest);
	c.params = (const char *const *)params;
	c.n_params = s->n_params;
	c.run_id = run_id(job, sizeof(job));
	c.key = o->key;
	c.key_len = o->key_len;
	c.insecure = o->insecure;
	r = rs_rdv_meet(&c, &run->rdv, err, sizeof(err));
	/* An abort heard at the meeting is reported with the verdict,
	 * which takes its exit code. */
	if (r == -ENOMEM)
		rs_diag_error(&run->diag, NULL, "nodes: out of memory");
	else if (r && r != -ECONNABORTED)
		rs_diag_error(&run->diag, NULL, "nodes: %s", err);
out:
	for (unsigned i = 0; params && i < s->n_params; i++)
		rs_free(params[i]);
	rs_free(params);
	rs_free(names);
	return r;
}

void rs_run_nodes_done(struct rs_run *run)
{
	if (run->rdv && !run->dry_run)
		rs_rdv_barrier(run->rdv, "teardown", NULL, 0);
}

int rs_run_nodes_verdict(struct rs_run *run, int mine)
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

void rs_run_nodes_gather(struct rs_run *run)
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
		if (run->node == 0)
			fprintf(run->err ? run->err : stderr,
				"rdmascn: nodes: the other nodes' "
				"records: %s\n", err[0] ? err : "out of memory");
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

void rs_run_nodes_close(struct rs_run *run)
{
	rs_rdv_close(run->rdv);
	run->rdv = NULL;
}
