// SPDX-License-Identifier: MIT
/*
 * `rdmascn graph`: the scenario as Graphviz DOT.
 *
 * Node names are the ids, as DOT strings.  A DOT string cannot end in a
 * backslash, and in labels Graphviz decodes entities and then escapes
 * (\n, \N, \\), so a backslash is written as the entity pair &#92;&#92;;
 * '&' and control characters as entities too.  The same encoding names
 * the nodes, where it only has to be one-to-one.
 *
 * With a run's outcomes each node is filled in its outcome's colour and
 * a legend node explains them; without, the text is the plan's alone.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "macros.h"
#include "dot.h"

static void put_esc(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"')
			fputs("\\\"", f);
		else if (*p == '\\')
			fputs("&#92;&#92;", f);
		else if (*p == '&' || *p < 0x20 || *p == 0x7f)
			fprintf(f, "&#%u;", *p);
		else
			fputc(*p, f);
	}
}

static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	put_esc(f, s);
	fputc('"', f);
}

/* A DOT ID without quotes: letters, digits, '_', not starting with a
 * digit (@s follows "cluster_", so a leading digit is fine). */
static bool plain(const char *s)
{
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

static void put_cluster(FILE *f, const char *id)
{
	if (plain(id)) {
		fprintf(f, "cluster_%s", id);
		return;
	}
	fputs("\"cluster_", f);
	put_esc(f, id);
	fputc('"', f);
}

static bool is_context(const struct rs_obj *o)
{
	return !o->kind->step && !strcmp(o->kind->name, "context");
}

/*
 * The context @start belongs to: itself, or the nearest one through its
 * references (breadth first, ties in reference order), not through
 * `after`.  -1: none.
 */
/* The nearest context @start reaches through references (not after:).
 * seen[] holds the search that last visited each object, so it needs no
 * clearing between searches. */
static int context_of(const struct rs_scenario *s, unsigned start,
		      unsigned *queue, unsigned *seen)
{
	unsigned head = 0, tail = 0, mark = start + 1;

	if (is_context(&s->objs[start]))
		return (int)start;
	seen[start] = mark;
	queue[tail++] = start;
	while (head < tail) {
		const struct rs_obj *o = &s->objs[queue[head++]];

		for (unsigned e = 0; e < o->n_edges; e++) {
			const struct rs_edge *ed = &o->edges[e];
			unsigned t = ed->to->index;

			if (ed->order_only || seen[t] == mark)
				continue;
			if (is_context(ed->to))
				return (int)t;
			seen[t] = mark;
			queue[tail++] = t;
		}
	}
	return -1;
}

/* A node name made unlike every id: @base, with a quote appended while
 * an id is the same.  Only ids that start like @base can clash
 * (@may_clash). */
static char *unique_name(const struct rs_scenario *s, const char *base,
			 bool may_clash)
{
	size_t len = strlen(base);
	char *n = rs_malloc(len + s->n_objs + 2);
	bool clash = may_clash;

	if (!n)
		return NULL;
	memcpy(n, base, len + 1);
	while (clash) {
		clash = false;
		for (unsigned i = 0; i < s->n_objs; i++)
			if (s->objs[i].id && !strcmp(s->objs[i].id, n)) {
				n[len++] = '\'';
				n[len] = '\0';
				clash = true;
				break;
			}
	}
	return n;
}

/* How each outcome of the run record is drawn: objects' and steps'
 * words, in the order the legend lists them.  Steps are rounded boxes
 * already, so a style here adds to "rounded". */
struct look {
	bool step;
	const char *outcome;
	const char *fill;
	const char *style;     /* besides "filled" */
	const char *font;      /* the text's colour, NULL: black */
};

#define GREEN "#b7e1b0"
#define RED "#f4a6a6"
#define ORANGE "#f6c98e"
#define YELLOW "#fbe99a"
#define VIOLET "#d5c8f0"
#define GREY "#eeeeee"
#define GREY_TEXT "#777777"

static const struct look looks[] = {
	{ false, "created", GREEN, NULL, NULL },
	{ false, "failed", RED, NULL, NULL },
	{ false, "not created", GREY, "dashed", GREY_TEXT },
	{ false, "pending", YELLOW, NULL, NULL },
	{ true, "passed", GREEN, NULL, NULL },
	{ true, "failed", RED, NULL, NULL },
	{ true, "could not run", ORANGE, NULL, NULL },
	{ true, "interrupted", VIOLET, NULL, NULL },
	{ true, "skipped", YELLOW, NULL, NULL },
	{ true, "not run", GREY, "dashed", GREY_TEXT },
};

/* An outcome's look; NULL or an unknown word ("running", which a
 * finished record does not hold, or a newer record's) is drawn as if
 * nothing happened to it. */
static const struct look *look_of(bool step, const char *outcome)
{
	const struct look *none = NULL;

	for (size_t i = 0; i < RS_N(looks); i++) {
		if (looks[i].step != step)
			continue;
		if (outcome && !strcmp(looks[i].outcome, outcome))
			return &looks[i];
		if (!strcmp(looks[i].outcome, step ? "not run" : "pending"))
			none = &looks[i];
	}
	return none;
}

static void put_look(FILE *f, const struct look *l, const char *sep)
{
	fprintf(f, "%sstyle=\"%sfilled%s%s\", fillcolor=\"%s\"", sep,
		l->step ? "rounded," : "", l->style ? "," : "",
		l->style ? l->style : "", l->fill);
	if (l->font)
		fprintf(f, ", fontcolor=\"%s\", color=\"%s\"", l->font,
			l->font);
}

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* A counted entry is one node, labelled "a ×N": its colour is its first
 * element's outcome, or that of the first element whose outcome differs
 * (which the tooltip names, with how many shared the first's).  A
 * counted step's label numbers it as plan, the run and its record do:
 * "step 2[0]..2[199] (verify) ×200", "w[0]..w[199] ×200". */
static void put_node(FILE *f, const struct rs_obj *o, const char *name,
		     const char *indent, const struct rs_dot_run *run)
{
	unsigned n = rs_obj_count(o) ? rs_obj_count(o) : 1, same = 1;
	unsigned odd = o->index;
	char text[2 * RDMASCN_ID_MAX + 2 * RS_STEP_NO_MAX + 64];

	fputs(indent, f);
	put_str(f, name);
	fputs(" [label=\"", f);
	put_esc(f, o->kind->step ? o->kind->section : o->kind->name);
	fputs("\\n", f);
	if (rs_obj_count(o) && o->kind->step) {
		const struct rs_obj *last = o + rs_obj_count(o) - 1;

		if (o->id && last->id)
			snprintf(text, sizeof(text), "%s..%s \u00d7%u", o->id,
				 last->id, rs_obj_count(o));
		else
			snprintf(text, sizeof(text), "step %s..%s (%s) \u00d7%u",
				 o->no, last->no, o->kind->section,
				 rs_obj_count(o));
		put_esc(f, text);
	} else if (rs_obj_count(o) && rs_obj_group(o)) {
		put_esc(f, rs_obj_group(o));
		snprintf(text, sizeof(text), " \u00d7%u", rs_obj_count(o));
		put_esc(f, text);
	} else {
		put_esc(f, o->id ? o->id : o->name);
	}
	fputc('"', f);
	if (run) {
		const char *first = run->outcome[o->index], *outcome;
		const char *note;
		const struct look *l;

		for (unsigned k = 1; k < n; k++) {
			if (same_text(run->outcome[o->index + k], first))
				same++;
			else if (odd == o->index)
				odd = o->index + k;
		}
		outcome = run->outcome[odd];
		note = run->note ? run->note[odd] : NULL;
		l = look_of(o->kind->step, outcome);
		put_look(f, l, ", ");
		fputs(", tooltip=\"", f);
		if (odd != o->index) {
			snprintf(text, sizeof(text), "%u of %u ", same, n);
			put_esc(f, text);
			put_esc(f, first ? first : look_of(o->kind->step,
							   first)->outcome);
			fputs("; ", f);
			put_esc(f, o[odd - o->index].id ? o[odd - o->index].id :
				   o[odd - o->index].name);
			fputs(": ", f);
		}
		put_esc(f, outcome ? outcome : l->outcome);
		if (note) {
			fputs(": ", f);
			put_esc(f, note);
		}
		fputc('"', f);
	}
	fputs("];\n", f);
}

/* A counted entry's node stands for all its elements. */
static bool shown(const struct rs_obj *o)
{
	return !rs_obj_elem(o);
}

static void put_legend_cell(FILE *f, const struct look *l)
{
	if (!l) {
		fputs("<td border=\"0\"></td>", f);
		return;
	}
	fprintf(f, "<td bgcolor=\"%s\"%s>", l->fill,
		l->style ? " style=\"dashed\"" : "");
	if (l->font)
		fprintf(f, "<font color=\"%s\">%s</font>", l->font,
			l->outcome);
	else
		fputs(l->outcome, f);
	fputs("</td>", f);
}

/* The legend: one node, an HTML-like table of what each colour says,
 * objects' outcomes on the left, steps' on the right. */
static void put_legend(FILE *f, const char *name)
{
	const struct look *col[2][RS_N(looks)];
	size_t n[2] = { 0, 0 };

	for (size_t i = 0; i < RS_N(looks); i++)
		col[looks[i].step][n[looks[i].step]++] = &looks[i];
	fputc('\t', f);
	put_str(f, name);
	fputs(" [shape=plain, label=<<table border=\"0\" cellborder=\"1\" "
	      "cellspacing=\"2\" cellpadding=\"3\"><tr>"
	      "<td border=\"0\"><b>objects</b></td>"
	      "<td border=\"0\"><b>steps</b></td></tr>", f);
	for (size_t r = 0; r < n[0] || r < n[1]; r++) {
		fputs("<tr>", f);
		for (int c = 0; c < 2; c++)
			put_legend_cell(f, r < n[c] ? col[c][r] : NULL);
		fputs("</tr>", f);
	}
	fputs("</table>>];\n", f);
}

static void put_edge(FILE *f, const char *from, const char *to,
		     const struct rs_obj *o, const struct rs_edge *ed)
{
	const char *field = rs_edge_field(o, ed);

	fputc('\t', f);
	put_str(f, from);
	fputs(" -> ", f);
	put_str(f, to);
	if (!strcmp(field, "sequence")) {
		fputs(" [style=dotted];\n", f);
		return;
	}
	fputs(" [label=", f);
	put_str(f, field);
	if (!strcmp(field, "after"))
		fputs(", style=dashed", f);
	else if (ed->order_only)
		fputs(", style=dotted", f);
	fputs("];\n", f);
}

/* Node @nd is one of node set @decl's (nd - @decl's index below its
 * count): the set is drawn once, as its first node. */
static bool in_set(const struct rs_scenario *s,
		   const struct rs_node_decl *decl, int nd)
{
	const struct rs_node_decl *first = decl - decl->elem;

	return decl->group && nd >= (int)(first - s->top->nodes) &&
	       nd < (int)(first - s->top->nodes + first->n_elems);
}

/* Contexts on node @nd (RS_NODE_ANY: all, there are no nodes), in
 * declaration order, each with what belongs to it; a node set's
 * elements folded into one cluster, "node h[i] ×N", as counted entries
 * are. */
static void put_contexts(FILE *f, const struct rs_scenario *s, int nd,
			 const int *ctx, char **names,
			 const struct rs_dot_run *run)
{
	const char *in = nd == RS_NODE_ANY ? "" : "\t";
	char label[2 * RDMASCN_ID_MAX + 600];
	const struct rs_node_decl *decl = nd == RS_NODE_ANY ? NULL :
					  &s->top->nodes[nd];

	if (decl && decl->group && decl->elem)
		return;
	if (decl && decl->group) {
		const struct rs_node_decl *last = decl + decl->n_elems - 1;
		bool range = decl->address && last->address &&
			     strcmp(decl->address, last->address);

		fputs("\tsubgraph \"cluster node ", f);
		put_esc(f, decl->group);
		snprintf(label, sizeof(label), "node %s[i] ×%u%s%s%s%s%s",
			 decl->group, decl->n_elems,
			 decl->address ? " (" : "",
			 decl->address ? decl->address : "",
			 range ? " .. " : "", range ? last->address : "",
			 decl->address ? ")" : "");
		fputs("\" {\n\t\tlabel=", f);
		put_str(f, label);
		fputs(";\n\t\tstyle=dashed;\n", f);
	} else if (decl) {
		/* A space: no context's "cluster_ID" is the same. */
		fputs("\tsubgraph \"cluster node ", f);
		put_esc(f, decl->id);
		snprintf(label, sizeof(label), "node %s%s%s%s", decl->id,
			 decl->address ? " (" : "",
			 decl->address ? decl->address : "",
			 decl->address ? ")" : "");
		fputs("\" {\n\t\tlabel=", f);
		put_str(f, label);
		fputs(";\n\t\tstyle=dashed;\n", f);
	}
	for (unsigned c = 0; c < s->n_objs; c++) {
		const struct rs_obj *o = &s->objs[c];

		/* In a node set, a counted context's first element stands
		 * for all. */
		if (!is_context(o) || (decl && decl->group && !shown(o)) ||
		    (decl && o->on != nd && !in_set(s, decl, o->on)))
			continue;
		fprintf(f, "%s\tsubgraph ", in);
		put_cluster(f, s->objs[c].id);
		fprintf(f, " {\n%s\t\tlabel=", in);
		put_str(f, s->objs[c].id);
		fputs(";\n", f);
		for (unsigned i = 0; i < s->n_objs; i++)
			/* A counted object spread over a counted
			 * context's elements is drawn at its first. */
			if (shown(&s->objs[i]) && (ctx[i] == (int)c ||
			    (rs_obj_count(&s->objs[i]) && ctx[i] >= 0 &&
			     ctx[i] - (int)rs_obj_elem(&s->objs[ctx[i]]) ==
			     (int)c)))
				put_node(f, &s->objs[i], names[i],
					 decl ? "\t\t\t" : "\t\t", run);
		fprintf(f, "%s\t}\n", in);
	}
	if (decl)
		fputs("\t}\n", f);
}

int rs_dot_write_run(FILE *f, const struct rs_scenario *s,
		     const struct rs_dot_run *run)
{
	unsigned n = s->n_objs;
	int *ctx = rs_calloc(n + 1, sizeof(*ctx));
	unsigned *queue = rs_calloc(n + 1, sizeof(*queue));
	unsigned *seen = rs_calloc(n + 1, sizeof(*seen));
	char **names = rs_calloc(n + 1, sizeof(*names));
	char *legend = NULL;
	bool steps_taken = false, may_clash = false;
	int ret = -ENOMEM;

	if (!ctx || !queue || !seen || !names)
		goto out;
	for (unsigned i = 0; i < n; i++)
		may_clash |= s->objs[i].id && !strncmp(s->objs[i].id, "step ", 5);
	for (unsigned i = 0; i < n; i++) {
		const struct rs_obj *o = &s->objs[i];

		ctx[i] = o->kind->step ? -1 : context_of(s, i, queue, seen);
		if (rs_obj_elem(o)) {
			names[i] = names[i - rs_obj_elem(o)];
		} else if (rs_obj_count(o) && rs_obj_group(o)) {
			names[i] = (char *)rs_obj_group(o);
		} else if (rs_obj_count(o)) {
			/* "step 1 (write)": an anonymous counted step */
			char base[RS_STEP_NO_MAX + 64];

			snprintf(base, sizeof(base), "step %.*s (%s)",
				 (int)strcspn(o->no, "["), o->no,
				 o->kind->section);
			if (!(names[i] = unique_name(s, base, may_clash)))
				goto out;
		} else if (o->id) {
			names[i] = (char *)o->id;
			steps_taken |= is_context(o) && !strcmp(o->id, "steps");
		} else if (!(names[i] = unique_name(s, o->name, may_clash))) {
			goto out;
		}
	}

	if (run && !(legend = unique_name(s, "legend", true)))
		goto out;

	fputs("digraph scenario {\n", f);
	fputs("\tgraph [rankdir=BT, fontname=\"Helvetica\"", f);
	if (run && run->title) {
		fputs(", labelloc=t, label=", f);
		put_str(f, run->title);
	} else if (s->top && s->top->scenario) {
		fputs(", labelloc=t, label=", f);
		put_str(f, s->top->scenario);
	}
	fputs("];\n", f);
	fputs("\tnode [shape=box, fontname=\"Helvetica\"];\n", f);
	fputs("\tedge [fontname=\"Helvetica\", fontsize=10];\n", f);

	/* With `nodes:`, each node a cluster around its contexts. */
	for (int nd = rs_nodes_count(s) ? 0 : RS_NODE_ANY;
	     nd < (int)rs_nodes_count(s); nd++)
		put_contexts(f, s, nd, ctx, names, run);
	/* Objects that reach no context. */
	for (unsigned i = 0; i < n; i++)
		if (!s->objs[i].kind->step && ctx[i] < 0 &&
		    shown(&s->objs[i]))
			put_node(f, &s->objs[i], names[i], "\t", run);
	if (s->n_steps) {
		/* "cluster steps" cannot be a context's "cluster_ID" */
		fputs(steps_taken ? "\tsubgraph \"cluster steps\" {\n" :
		      "\tsubgraph cluster_steps {\n", f);
		fputs("\t\tlabel=\"steps\";\n\t\tnode [style=rounded];\n", f);
		for (unsigned i = 0; i < n; i++)
			if (s->objs[i].kind->step && shown(&s->objs[i]))
				put_node(f, &s->objs[i], names[i], "\t\t", run);
		fputs("\t}\n", f);
	}
	if (legend)
		put_legend(f, legend);
	for (unsigned i = 0; i < n; i++) {
		const struct rs_obj *o = &s->objs[i];
		const char *last = NULL;
		int field = -1;

		/* Folded: each edge once, however many elements it
		 * reaches (they come one after the other). */
		for (unsigned e = 0; shown(o) && e < o->n_edges; e++) {
			const char *to = names[o->edges[e].to->index];

			if (to == last && o->edges[e].field == field)
				continue;
			put_edge(f, names[i], to, o, &o->edges[e]);
			last = to;
			field = o->edges[e].field;
		}
	}
	fputs("}\n", f);
	ret = fflush(f) == 0 && !ferror(f) ? 0 : -EIO;
out:
	for (unsigned i = 0; names && i < n; i++)
		if (!s->objs[i].id && !rs_obj_elem(&s->objs[i]))
			rs_free(names[i]);
	rs_free(names);
	rs_free(legend);
	rs_free(seen);
	rs_free(queue);
	rs_free(ctx);
	return ret;
}

int rs_dot_write(FILE *f, const struct rs_scenario *s)
{
	return rs_dot_write_run(f, s, NULL);
}
