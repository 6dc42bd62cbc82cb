// SPDX-License-Identifier: MIT
/*
 * rdmascn report: a run record (or a matrix document) told again by a
 * reporter, as the run would have printed it: the text report or JUnit
 * from a record kept by CI or recorded on a device elsewhere.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cli.h"
#include "diag.h"
#include "graph_file.h"
#include "model.h"
#include "outfile.h"
#include "record_file.h"
#include "report.h"
#include "sha256.h"
#include "value.h"

enum report_format { REPORT_TEXT, REPORT_JUNIT, REPORT_GRAPH };

/* The records in @doc: a matrix document's cells, or @doc itself.  NULL
 * with the reason said when it is neither. */
static const struct rs_val *records_of(const char *path,
				       const struct rs_val *doc, size_t *ret_n)
{
	const struct rs_val *cells = rs_val_get(doc, "cells");

	if (rs_val_type_of(doc) == RS_VAL_OBJ && rs_val_get(doc, "matrix") &&
	    rs_val_type_of(cells) == RS_VAL_ARR) {
		*ret_n = rs_val_len(cells);
		return cells;
	}
	if (rs_val_type_of(doc) == RS_VAL_OBJ &&
	    rs_val_type_of(rs_val_get(doc, "steps")) == RS_VAL_ARR &&
	    rs_val_type_of(rs_val_get(doc, "objects")) == RS_VAL_ARR) {
		*ret_n = 1;
		return NULL;
	}
	fprintf(stderr, "rdmascn: report: %s: not a run record (no \"steps\" "
		"and \"objects\" lists, nor a matrix's \"cells\"; see rdmascn "
		"run --json)\n", path);
	*ret_n = 0;
	return NULL;
}

static const struct rs_val *record_at(const struct rs_val *doc,
				      const struct rs_val *cells, size_t i)
{
	return cells ? rs_val_at(cells, i) : doc;
}

/* Each record told again to a reporter @make(@ctx) gives, one a record;
 * 0, or the first -errno. */
static int replay_each(const struct rs_val *doc, const struct rs_val *cells,
		       size_t n, struct rs_reporter *(*make)(void *ctx),
		       void *ctx)
{
	for (size_t i = 0; i < n; i++) {
		struct rs_reporter *r = make(ctx);
		int ret;

		if (!r)
			return -ENOMEM;
		ret = rs_record_replay(record_at(doc, cells, i), r);
		r->ops->free(r);
		if (ret)
			return ret;
	}
	return 0;
}

/* Its text report on @f, its errors on stderr. */
static struct rs_reporter *text_on(void *f)
{
	/* rdmascn -v report: every counter that moved, as run -v. */
	struct rs_text_opts o = { .counters_all = rs_verbose };

	return rs_report_text(f, stderr, &o);
}

/* Its cell of the JUnit the results write, as run --junit does. */
static struct rs_reporter *junit_cell(void *res)
{
	return rs_results_cell(res);
}

/* JUnit of every record, as run --junit writes it. */
static int report_junit(const char *out, const struct rs_val *doc,
			const struct rs_val *cells, size_t n)
{
	struct rs_results *res = rs_results_new(NULL, out);
	int ret = res ? replay_each(doc, cells, n, junit_cell, res) : -ENOMEM;

	if (!ret)
		ret = rs_results_write(res, (int)rs_val_get_u64(doc,
								 "exit_code"));
	rs_results_free(res);
	return ret;
}

/*
 * The graph of the scenario @rec ran (@file, else the record's own
 * scenario.file), with its params as the record has them, coloured by
 * the record's outcomes, into @out (its extension the format).  The file
 * must be the one that ran: its sha256 is the record's.
 */
static int report_graph(const struct rs_cmd *cmd, const char *out,
			const char *file, const struct rs_val *rec)
{
	const struct rs_val *scn = rs_val_get(rec, "scenario");
	const struct rs_val *params = rs_val_get(scn, "params");
	const char *want = rs_val_get_str(scn, "sha256");
	char digest[RS_SHA256_HEX];
	struct rs_scenario *s = NULL;
	struct rs_reporter *r;
	struct rs_set *sets;
	struct rs_diag d;
	unsigned n = 0;
	int ret;

	if (!file)
		file = rs_val_get_str(scn, "file");
	if (!file)
		return rs_cmd_refuse(cmd, "the record names no scenario file: "
				     "give one with --scenario FILE");
	sets = rs_calloc(rs_val_len(params) + 1, sizeof(*sets));
	if (!sets)
		return rs_cmd_no_memory(cmd);
	/* (The record writes each as a string.) */
	rs_val_foreach(params, v) {
		const char *val = rs_val_str_of(v);

		sets[n++] = (struct rs_set){ rs_val_key(v), val ? val : "" };
	}
	rs_diag_init(&d, stderr);
	rs_cli_registry_init();
	ret = rs_scenario_load(file, sets, n, &d, &s);
	if (ret) {
		rs_free(sets);
		return ret == -EINVAL ? RS_EXIT_INVALID : RS_EXIT_CANTRUN;
	}
	if (want && strcmp(want, rs_sha256_hex(s->doc.text, s->doc.len,
						 digest))) {
		rs_scenario_free(s);
		rs_free(sets);
		return rs_cmd_refuse(cmd, "%s is not the file the record ran "
				     "(its sha256 differs): give that one "
				     "with --scenario FILE", file);
	}
	r = rs_report_graph(s, out);
	ret = r ? rs_record_replay(rec, r) : -ENOMEM;
	if (r)
		r->ops->free(r);
	rs_scenario_free(s);
	rs_free(sets);
	if (ret == -ENOMEM)
		return rs_cmd_no_memory(cmd);
	return ret ? RS_EXIT_CANTRUN : RS_EXIT_PASSED;
}

int rs_cmd_report(const struct rs_cmd *cmd, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "scenario", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	enum report_format fmt = REPORT_TEXT;
	const char *out = "-", *scenario = NULL;
	const struct rs_val *cells;
	struct json_object *j;
	struct rs_val *doc;
	struct rs_out o;
	size_t n;
	int c, ret;

	while ((c = getopt_long(argc, argv, ":f:o:s:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "text"))
				fmt = REPORT_TEXT;
			else if (!strcmp(optarg, "junit"))
				fmt = REPORT_JUNIT;
			else if (!strcmp(optarg, "graph"))
				fmt = REPORT_GRAPH;
			else
				return rs_cmd_usage_error(cmd, "Unknown format "
							  "'%s' (text, junit "
							  "or graph).", optarg);
			break;
		case 's':
			scenario = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			rs_cmd_usage(cmd, stdout);
			return RS_EXIT_PASSED;
		default:
			return rs_cmd_bad_option(cmd, argv, c);
		}
	}
	if (optind + 1 != argc)
		return rs_cmd_usage_error(cmd, optind < argc ?
					  "Give one RECORD.json." :
					  "No RECORD.json given.");
	j = rs_cli_read_json("report", argv[optind]);
	if (!j)
		return RS_EXIT_INVALID;
	doc = rs_val_from_json(j);
	json_object_put(j);
	if (rs_val_check(doc)) {
		rs_val_free(doc);
		return rs_cmd_no_memory(cmd);
	}
	cells = records_of(argv[optind], doc, &n);
	if (!n) {
		rs_val_free(doc);
		return RS_EXIT_INVALID;
	}
	if (fmt == REPORT_GRAPH) {
		if (cells || rs_graph_format_of(out) < 0)
			ret = rs_cmd_usage_error(cmd, cells ? "A graph is "
						 "of one record, not a "
						 "matrix's cells." : "-f graph "
						 "wants -o FILE.dot, .svg "
						 "or .png.");
		else
			ret = report_graph(cmd, out, scenario, doc);
		rs_val_free(doc);
		return ret;
	}
	if (fmt == REPORT_JUNIT) {
		ret = report_junit(out, doc, cells, n);
	} else {
		ret = rs_out_open(&o, "--output", out);
		if (!ret) {
			ret = replay_each(doc, cells, n, text_on, o.f);
			if (ret)
				rs_out_abort(&o);
			else
				ret = rs_out_commit(&o);
		}
	}
	rs_val_free(doc);
	if (ret == -ENOMEM)
		return rs_cmd_no_memory(cmd);
	return ret ? RS_EXIT_CANTRUN : RS_EXIT_PASSED;
}
