// SPDX-License-Identifier: MIT
/* The commands that read a scenario without touching a device. */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "alloc.h"
#include "escape.h"
#include "cli.h"
#include "cmd_scenario.h"
#include "gate.h"
#include "model.h"
#include "pattern.h"
#include "value.h"

static const struct option scn_long[] = {
	{ "set", required_argument, NULL, 's' },
	{ "help", no_argument, NULL, 'h' },
	{}
};

bool rs_scn_add_set(const struct rs_cmd *cmd, struct scn_opts *o, char *arg)
{
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg) {
		rs_cmd_usage_error(cmd, "--set needs NAME=VALUE, got '%s'.",
				   arg);
		return false;
	}
	*eq = '\0';
	o->sets[o->n_sets++] = (struct rs_set){ arg, eq + 1 };
	return true;
}

/* Common options of the scenario commands; returns -1 to go on, or an
 * exit code.  --set values point into argv. */
int rs_scn_parse(const struct rs_cmd *cmd, int argc, char **argv,
		 struct scn_opts *o, const struct scn_more *more)
{
	const char *shortopts = more ? more->shortopts : ":s:h";
	const struct option *longopts = more ? more->longopts : scn_long;
	int c, r;

	o->sets = rs_calloc(argc + 1, sizeof(*o->sets));
	if (!o->sets)
		return rs_cmd_no_memory(cmd);
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (!rs_scn_add_set(cmd, o, optarg))
				return RS_EXIT_INVALID;
			break;
		case 'h':
			rs_cmd_usage(cmd, stdout);
			return RS_EXIT_PASSED;
		case '?':
		case ':':
			return rs_cmd_bad_option(cmd, argv, c);
		default:
			r = more ? more->take(cmd, c, optarg, more->ctx) :
			    rs_cmd_bad_option(cmd, argv, c);
			if (r >= 0)
				return r;
		}
	}
	if (optind >= argc)
		return rs_cmd_usage_error(cmd, "No scenario file given.");
	rs_cli_registry_init();
	return -1;
}

int rs_scn_load(const char *file, struct scn_opts *o, struct rs_scenario **s)
{
	struct rs_diag d;
	int r;

	rs_diag_init(&d, stderr);
	r = (o->look ? rs_scenario_look : rs_scenario_load)(file, o->sets,
							    o->n_sets, &d, s);
	if (r == -ENOMEM) {
		fprintf(stderr, "%s: out of memory\n", file);
		return RS_EXIT_CANTRUN;
	}
	return r < 0 ? RS_EXIT_INVALID : RS_EXIT_PASSED;
}

/* A cell's errors go to stderr naming the cell, and into a list. */
struct cell_errors {
	const char *name;
	struct rs_val *list;   /* NULL: none */
	bool quiet;            /* counted only */
};

static void cell_error(void *ctx, const struct rs_loc *loc, const char *msg)
{
	struct cell_errors *c = ctx;

	if (!c->quiet && loc)
		fprintf(stderr, "%s:%u:%u: matrix cell %s: %s\n", loc->file,
			loc->line, loc->col, c->name, msg);
	else if (!c->quiet)
		fprintf(stderr, "matrix cell %s: %s\n", c->name, msg);
	if (c->list) {
		struct rs_val *e = rs_val_push_obj(c->list);

		rs_val_put_loc(e, loc);
		rs_val_put_str(e, "message", msg);
	}
}

static int load_cell(const struct rs_scenario *s, const struct rs_set *sets,
		     unsigned n_sets, struct cell_errors *c,
		     struct rs_scenario **ret)
{
	struct rs_diag d;
	int r;

	rs_diag_init(&d, NULL);
	d.sink = cell_error;
	d.sink_ctx = c;
	r = rs_scenario_load_cell(s, sets, n_sets, &d, ret);
	if (r == -ENOMEM) {
		fprintf(stderr, "%s: matrix cell %s: out of memory\n", s->path,
			c->name);
		return RS_EXIT_CANTRUN;
	}
	return r < 0 ? RS_EXIT_INVALID : RS_EXIT_PASSED;
}

int rs_scn_load_cell(const struct rs_scenario *s, const struct rs_set *sets,
		     unsigned n_sets, const char *name, struct rs_val *errors,
		     struct rs_scenario **ret)
{
	struct cell_errors c = { .name = name, .list = errors };

	return load_cell(s, sets, n_sets, &c, ret);
}

bool rs_scn_cell(const struct rs_scenario *s, unsigned long i,
		 struct rs_set *sets, char *name, size_t size)
{
	const struct rs_matrix *m = &s->matrix;
	size_t len = 0;

	if (!rs_matrix_cell(m, i, sets))
		return false;
	name[0] = '\0';
	for (unsigned d = 0; d < m->n_dims && len < size; d++)
		len += snprintf(name + len, size - len, "%s%s=%s",
				d ? "," : "", sets[d].name, sets[d].value);
	return true;
}

/* Past this many, an invalid cell is counted, not said. */
#define CELLS_SAID 10

/*
 * Load each cell of @s's matrix (@o's --set first) as a run would, and
 * say what is wrong with each invalid one; the worst exit code.  The
 * cells that would run into @ret_checked, the excluded into
 * @ret_excluded.  A file without a matrix has none: @s was its load.
 */
static int check_cells(const struct rs_scenario *s, const struct scn_opts *o,
		       unsigned long *ret_checked, unsigned long *ret_excluded)
{
	unsigned long n = rs_matrix_size(&s->matrix), bad = 0, checked = 0;
	unsigned n_sets = o->n_sets + s->matrix.n_dims;
	struct rs_set *sets;
	char name[1024];
	int worst = RS_EXIT_PASSED;

	*ret_checked = *ret_excluded = 0;
	if (!s->matrix.n_dims)
		return RS_EXIT_PASSED;
	sets = rs_calloc(n_sets + 1, sizeof(*sets));
	if (!sets) {
		fprintf(stderr, "%s: out of memory\n", s->path);
		return RS_EXIT_CANTRUN;
	}
	memcpy(sets, o->sets, o->n_sets * sizeof(*sets));
	for (unsigned long i = 0; i < n && worst != RS_EXIT_CANTRUN; i++) {
		struct cell_errors c = { .name = name,
					 .quiet = bad >= CELLS_SAID };
		struct rs_scenario *cs = NULL;
		int r;

		if (!rs_scn_cell(s, i, sets + o->n_sets, name, sizeof(name)))
			continue;
		checked++;
		r = load_cell(s, sets, n_sets, &c, &cs);
		rs_scenario_free(cs);
		bad += r == RS_EXIT_INVALID;
		worst = r > worst ? r : worst;
	}
	if (bad > CELLS_SAID)
		fprintf(stderr, "%s: %lu of %lu matrix cells are invalid; the "
			"first %u are said above\n", s->path, bad, checked,
			CELLS_SAID);
	rs_free(sets);
	*ret_checked = checked;
	*ret_excluded = n - checked;
	return worst;
}

int rs_cmd_validate(const struct rs_cmd *cmd, int argc, char **argv)
{
	struct scn_opts o = { .look = true };
	int ret = rs_scn_parse(cmd, argc, argv, &o, NULL);
	int worst = RS_EXIT_PASSED;

	if (ret >= 0)
		goto out;
	for (int i = optind; i < argc; i++) {
		struct rs_scenario *s = NULL;
		unsigned long checked = 0, excl = 0;

		ret = rs_scn_load(argv[i], &o, &s);
		if (ret == RS_EXIT_PASSED)
			ret = check_cells(s, &o, &checked, &excl);
		if (ret == RS_EXIT_PASSED && !s->matrix.n_dims)
			printf("%s: valid (%u object%s, %u step%s)\n",
			       rs_esc(argv[i]), s->n_objects,
			       s->n_objects == 1 ? "" : "s", s->n_steps,
			       s->n_steps == 1 ? "" : "s");
		else if (ret == RS_EXIT_PASSED)
			printf("%s: valid (%u object%s, %u step%s; matrix: %lu "
			       "cell%s checked, %lu excluded)\n",
			       rs_esc(argv[i]), s->n_objects,
			       s->n_objects == 1 ? "" : "s", s->n_steps,
			       s->n_steps == 1 ? "" : "s", checked,
			       checked == 1 ? "" : "s", excl);
		if (ret > worst)
			worst = ret;
		rs_scenario_free(s);
	}
	ret = worst;
out:
	rs_free(o.sets);
	return ret;
}

int rs_scn_load_one(const struct rs_cmd *cmd, int argc, char **argv,
		    struct scn_opts *o, const struct scn_more *more,
		    struct rs_scenario **s)
{
	int ret = rs_scn_parse(cmd, argc, argv, o, more);

	if (ret >= 0)
		return ret;
	if (optind + 1 != argc)
		return rs_cmd_usage_error(cmd, "%s takes one scenario file.",
					  cmd->name);
	ret = rs_scn_load(argv[optind], o, s);
	return ret == RS_EXIT_PASSED ? -1 : ret;
}

/* A step's gate, a line a figure. */
static void print_gates(const struct rs_obj *o)
{
	struct rs_val *gates = rs_gate_entries(
		((const struct rs_step_common *)o->data)->gate);
	char text[256];

	for (size_t i = 0; i < rs_val_len(gates); i++) {
		rs_gate_text(rs_val_at(gates, i), text, sizeof(text));
		printf("       gate %s\n", rs_esc(text));
	}
	rs_val_free(gates);
}

/* Folded, a counted entry's first element stands for all: a reference
 * that pairs (its second element's reference of the same field names the
 * next element) reads "a[i]"; one to the same object from every element
 * reads as that object. */
static bool pairs(const struct rs_obj *o, unsigned e)
{
	const struct rs_obj *to = o->edges[e].to, *next = o + 1;

	if (rs_obj_count(o) < 2 || !rs_obj_count(to) ||
	    rs_obj_elem(to) + 1 >= rs_obj_count(to))
		return false;
	for (unsigned f = 0; f < next->n_edges; f++)
		if (next->edges[f].field == o->edges[e].field &&
		    next->edges[f].to == to + 1)
			return true;
	return false;
}

/* Edges e.. of one field to every element of a counted entry, in order
 * (a list that names it, an after:): how many, else 0. */
static unsigned all_of(const struct rs_obj *o, unsigned e)
{
	const struct rs_obj *to = o->edges[e].to;
	unsigned k;

	if (!rs_obj_count(to) || rs_obj_elem(to))
		return 0;
	for (k = 1; k < rs_obj_count(to); k++)
		if (e + k >= o->n_edges || o->edges[e + k].to != to + k ||
		    o->edges[e + k].field != o->edges[e].field)
			return 0;
	return k;
}

static void print_needs(const struct rs_obj *o, bool fold, bool unfold)
{
	bool any = false;

	for (unsigned e = 0, k; e < o->n_edges; e++) {
		const struct rs_edge *ed = &o->edges[e];
		const char *field = rs_edge_field(o, ed);

		if (!strcmp(field, "sequence") || !strcmp(field, "steps"))
			continue;
		if (!unfold && rs_obj_count(ed->to) > 1 && (k = all_of(o, e))) {
			printf("%s%s=%s[*]", any ? ", " : "  <- ", field,
			       rs_esc(rs_obj_group(ed->to)));
			e += k - 1;
		} else if (fold && rs_obj_pairs(o) && rs_obj_count(ed->to) &&
			   rs_obj_pairs(ed->to) != rs_obj_pairs(o)) {
			/* A pattern's element names its pair's from or to. */
			printf("%s%s=%s[%s]", any ? ", " : "  <- ", field,
			       rs_esc(rs_obj_group(ed->to)),
			       rs_obj_to_side(o) ? "to" : "from");
		} else if (fold && pairs(o, e))
			printf("%s%s=%s[i]", any ? ", " : "  <- ", field,
			       rs_esc(rs_obj_group(ed->to)));
		else
			printf("%s%s=%s", any ? ", " : "  <- ", field,
			       rs_esc(ed->to->id ? ed->to->id : ed->to->name));
		any = true;
	}
	putchar('\n');
}

static bool same_entry(const struct rs_obj *a, const struct rs_obj *b)
{
	return rs_obj_count(a) && rs_obj_count(b) &&
	       rs_obj_first(a) == rs_obj_first(b);
}

/* A run of @n elements of one counted entry, from @o on: "qp 'a' x1000"
 * when it is all of them, else "qp 'a[3]'..'a[9]'".  Steps in the form
 * the run and its record number them: "step 2[0]..2[199] (verify)". */
static void folded_name(const struct rs_obj *o, const struct rs_obj *last,
			unsigned n, char *buf, size_t len)
{
	if (n == 1)
		snprintf(buf, len, "%s", o->name);
	else if (o->kind->step && o->id)
		snprintf(buf, len, "step '%s'..'%s'", o->id, last->id);
	else if (o->kind->step)
		snprintf(buf, len, "step %s..%s (%s)", o->no, last->no,
			 o->kind->section);
	else if (n < rs_obj_count(o))
		snprintf(buf, len, "%s..'%s'", o->name,
			 last->id ? last->id : last->no);
	else
		snprintf(buf, len, "%s '%s' \u00d7%u", o->kind->name,
			 rs_obj_group(o),
			 n);
}

/* The number a line of plan starts with: an object's place in the
 * order; a step's number as the run gives it (1.2, 2[17]; a folded run
 * of elements: 2). */
static void print_no(const struct rs_obj *o, unsigned place, bool folded)
{
	if (!o->kind->step)
		printf("  %3u  ", place);
	else
		printf("%5.*s  ", folded ? (int)strcspn(o->no, "[") :
			(int)strlen(o->no), o->no);
}

/* @s padded to @width columns: a UTF-8 character is one. */
static void print_padded(const char *s, int width)
{
	const char *e = rs_esc(s);
	int cols = 0;

	for (const char *p = e; *p; p++)
		cols += ((unsigned char)*p & 0xc0) != 0x80;
	printf("%s%*s", e, cols < width ? width - cols : 0, "");
}

/* How many from @i on are elements of one counted entry (1: none). */
static unsigned run_of(struct rs_obj *const *list, unsigned i, unsigned n,
		       bool unfold)
{
	unsigned k = 1;

	while (!unfold && i + k < n && same_entry(list[i], list[i + k]))
		k++;
	return k;
}

/* With `nodes:`, where it is made or runs: "@a", "@a+b" for what joins
 * two (a connection, a pingpong's two halves), "@a>b" for a step that
 * runs on a and reaches into b, "@all" for a step on every node. */
/* Node @i as a folded line of @o's elements reads it: "h[i]" when each
 * element is on its own node of set h, "h[from]" or "h[to]" for a
 * pattern's elements; else its name. */
static const char *node_label(const struct rs_scenario *s,
			      const struct rs_obj *o, int i, bool fold,
			      char *buf, size_t len)
{
	const struct rs_node_decl *nd = &s->top->nodes[i];
	const struct rs_pairs *p = rs_obj_pairs(o);
	unsigned from, to;

	if (!fold || !nd->group)
		return rs_node_name(s, i);
	/* A connection of a pattern's QPs is the pattern's too. */
	for (unsigned e = 0; !p && e < o->n_edges; e++)
		if (rs_obj_pairs(o->edges[e].to) &&
		    rs_obj_elem(o->edges[e].to) == rs_obj_elem(o) &&
		    rs_obj_count(o->edges[e].to) == rs_obj_count(o))
			p = rs_obj_pairs(o->edges[e].to);
	if (p) {
		rs_pattern_pair(p->pattern, p->n, p->root, rs_obj_elem(o),
				&from,
				&to);
		if (from != to && (nd->elem == from || nd->elem == to)) {
			snprintf(buf, len, "%s[%s]", nd->group,
				 nd->elem == from ? "from" : "to");
			return buf;
		}
	} else if (nd->elem == rs_obj_elem(o) &&
		   nd->n_elems == rs_obj_count(o)) {
		snprintf(buf, len, "%s[i]", nd->group);
		return buf;
	}
	return rs_node_name(s, i);
}

static void print_node(const struct rs_scenario *s, const struct rs_obj *o,
		       bool fold)
{
	char where[2 * RDMASCN_ID_MAX + 8], a[RDMASCN_ID_MAX + 8];
	char b[RDMASCN_ID_MAX + 8];
	const char *on, *peer;

	if (!rs_nodes_count(s))
		return;
	if (o->on == RS_NODE_ANY) {
		printf(" %-10s", "@all");
		return;
	}
	on = node_label(s, o, o->on, fold, a, sizeof(a));
	peer = o->on_peer == RS_NODE_ANY ? NULL :
	       node_label(s, o, o->on_peer, fold, b, sizeof(b));
	if (peer && o->kind->step && !rs_step_on(o, o->on_peer))
		/* Runs on one, reaches the other (a remote mr). */
		snprintf(where, sizeof(where), "@%s>%s", on, peer);
	else if (peer)
		snprintf(where, sizeof(where), "@%s+%s", on, peer);
	else
		snprintf(where, sizeof(where), "@%s", on);
	printf(" %-10s", rs_esc(where));
}

/* One line a node; a node set's elements folded into one, unless
 * @unfold: "0  h[0]..h[63] ×64  address node01..node64". */
static void print_nodes(const struct rs_scenario *s, bool unfold)
{
	char name[2 * RDMASCN_ID_MAX + 32];

	if (!rs_nodes_count(s))
		return;
	printf("nodes:\n");
	for (unsigned i = 0, k; i < rs_nodes_count(s); i += k) {
		const struct rs_node_decl *n = &s->top->nodes[i], *last;

		k = !unfold && n->group ? n->n_elems - n->elem : 1;
		last = n + k - 1;
		if (k > 1)
			snprintf(name, sizeof(name), "%s..%s ×%u", n->id,
				 last->id, k);
		else
			snprintf(name, sizeof(name), "%s", n->id);
		printf("  %3u  ", i);
		print_padded(name, 28);
		if (n->address && k > 1 && strcmp(n->address, last->address))
			printf(" address %s..%s", rs_esc(n->address),
			       rs_esc(last->address));
		else if (n->address)
			printf(" address %s", rs_esc(n->address));
		if (n->device)
			printf(" device %s", rs_esc(n->device));
		printf("%s\n", i ? "" : k > 1 ? "  (leader: the first)" :
		       "  (leader)");
	}
}

/* Each object or step on a line; consecutive elements of a counted
 * entry on one, unless @unfold. */
static void print_order(const struct rs_scenario *s, const char *title,
			struct rs_obj *const *list, unsigned n, bool unfold)
{
	char name[2 * RDMASCN_ID_MAX + 96];

	printf("%s:\n", title);
	for (unsigned i = 0, k; i < n; i += k) {
		const struct rs_loc *l = rs_obj_loc(list[i], NULL);

		k = run_of(list, i, n, unfold);
		folded_name(list[i], list[i + k - 1], k, name, sizeof(name));
		print_no(list[i], i + 1, k > 1);
		print_padded(name, 28);
		print_node(s, list[i], k > 1);
		printf(" line %u", l->line);
		print_needs(list[i], k > 1, unfold);
		if (list[i]->kind->step)
			print_gates(list[i]);
	}
}

static int plan_take(const struct rs_cmd *cmd, int c, char *arg,
		     void *ctx)
{
	(void)cmd;
	(void)c;
	(void)arg;
	*(bool *)ctx = true;  /* -v */
	return -1;
}

int rs_cmd_plan(const struct rs_cmd *cmd, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "set", required_argument, NULL, 's' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	bool unfold = false;
	const struct scn_more more = { longopts, ":s:vh", plan_take, &unfold };
	struct scn_opts o = { .look = true };
	struct rs_scenario *s = NULL;
	char name[2 * RDMASCN_ID_MAX + 96];
	unsigned long checked, excl;
	int ret = rs_scn_load_one(cmd, argc, argv, &o, &more, &s);

	if (ret >= 0)
		goto out;
	/* What plan shows is the params' defaults; a cell that would not
	 * load is the file's error all the same. */
	ret = check_cells(s, &o, &checked, &excl);
	if (ret != RS_EXIT_PASSED)
		goto out;
	printf("scenario %s (%s)\n", s->top->scenario ?
	       rs_esc(s->top->scenario) : "-", rs_esc(argv[optind]));
	if (s->matrix.n_dims)
		printf("matrix: %lu cell%s checked, %lu excluded; below, the "
		       "params' defaults\n", checked, checked == 1 ? "" : "s",
		       excl);
	print_nodes(s, unfold);
	print_order(s, "create", s->create, s->n_objects, unfold);
	print_order(s, "steps", s->steps, s->n_steps, unfold);
	printf("teardown:\n");
	for (unsigned i = s->n_objects, k; i > 0; i -= k) {
		struct rs_obj *const *down = s->create;

		/* The run of i-1, i-2, ...: counted backwards. */
		for (k = 1; !unfold && k < i &&
		     same_entry(down[i - 1], down[i - 1 - k]); k++)
			;
		folded_name(down[i - 1], down[i - k], k, name, sizeof(name));
		printf("  %3u  ", s->n_objects - i + 1);
		if (rs_nodes_count(s)) {
			print_padded(name, 28);
			print_node(s, down[i - 1], k > 1);
		} else {
			printf("%s", rs_esc(name));
		}
		putchar('\n');
	}
	if (s->n_fact_uses)
		printf("device facts (assumed; a run reads its device's):\n");
	for (unsigned i = 0; i < s->n_fact_uses; i++) {
		const struct rs_fact_use *u = &s->fact_uses[i];
		char path[64], num[24];

		rs_fact_path(u->fact, path, sizeof(path));
		snprintf(num, sizeof(num), "%llu",
			 (unsigned long long)u->val.num);
		printf("  assumed %s.%s = %s  line %u\n", rs_esc(u->ctx), path,
		       u->val.text ? rs_esc(u->val.str) : num, u->loc.line);
	}
out:
	rs_scenario_free(s);
	rs_free(o.sets);
	return ret;
}
