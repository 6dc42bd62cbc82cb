// SPDX-License-Identifier: MIT
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "fill.h"
#include "gate.h"
#include "idmap.h"
#include "load_error.h"
#include "model.h"
#include "params.h"
#include "requires.h"
#include "schema.h"
#include "suggest.h"
#include "macros.h"

/*
 * libcyaml grows a sequence one entry at a time, each a realloc to the
 * exact new size: linear in glibc (it grows in place), quadratic where
 * every realloc copies (ASan: 100k objects took 172 s).  So a growing
 * block gets half as much again, and a realloc that still fits in what
 * the block holds returns it as it is.  A first allocation is exact:
 * most are strings that never grow.
 */
static void *mem(void *ctx, void *ptr, size_t size)
{
	size_t have;

	(void)ctx;
	if (!size) {
		rs_free(ptr);
		return NULL;
	}
	if (!ptr)
		return rs_malloc(size);
	have = malloc_usable_size(ptr);
	if (size <= have)
		return ptr;
	return rs_reallocarray(ptr, size + size / 2, 1);
}

/* "an mr", "an srq", "an ah", "a qp", "a flow": abbreviations (no vowel)
 * are spelled out letter by letter. */
static const char *article(const char *name)
{
	if (strchr("aeiou", name[0]))
		return "an";
	if (!strpbrk(name + 1, "aeiou") && strchr("fhlmnrsx", name[0]))
		return "an";
	return "a";
}

/* --- objects from what libcyaml filled ------------------------------------ */

static unsigned count_steps(const struct rs_step_entry *e, unsigned n)
{
	unsigned total = n;

	for (unsigned i = 0; i < n; i++)
		for (unsigned s = 0; s < rs_registry_count(true); s++) {
			const struct rdmascn_kind *k = rs_registry_at(true, s);
			char *data = e[i].types[s];

			if (data && k->children_offset)
				total += count_steps(
					*(struct rs_step_entry **)(data + k->children_offset),
					*(unsigned *)(data + k->children_count_offset));
		}
	return total;
}

/* Steps are numbered by position: "3", and "3.1" inside step 3. */
static int add_steps(struct rs_scenario *sc, struct rs_diag *d,
		     struct rs_step_entry *e, unsigned n, struct rs_node *seq,
		     struct rs_obj *parent, const char *prefix)
{
	for (unsigned i = 0; i < n; i++) {
		struct rs_node *entry = seq && i < seq->n ? &seq->items[i] :
					 NULL;
		const struct rdmascn_kind *found = NULL;
		void *data = NULL;
		struct rs_obj *o;
		char no[RS_STEP_NO_MAX];

		snprintf(no, sizeof(no), "%s%s%u", prefix, *prefix ? "." : "",
			 i + 1);
		for (unsigned s = 0; s < rs_registry_count(true); s++) {
			const struct rdmascn_kind *k = rs_registry_at(true, s);

			if (!e[i].types[s])
				continue;
			if (found) {
				const struct rs_node *v = entry ?
					rs_node_get(entry, k->section) : NULL;

				rs_diag_error(d, rs_node_loc(rs_node_key(v)),
					      "step %s: one step per entry, got "
					      "'%s' and '%s'", no,
					      found->section, k->section);
				return -EINVAL;
			}
			found = k;
			data = e[i].types[s];
		}
		if (!found) {
			rs_diag_error(d, entry ? rs_node_loc(entry) : NULL,
				      "step %s: empty step (give one step type, "
				      "e.g. write:)", no);
			return -EINVAL;
		}
		o = &sc->objs[sc->n_objs++];
		o->kind = found;
		o->data = data;
		o->index = sc->n_objs - 1;
		o->parent = parent;
		o->node = rs_node_get(entry, found->section);
		o->id = *(char **)((char *)data + found->id_offset);
		if (rs_obj_number(sc, o, no) < 0 || rs_obj_name(sc, o) < 0)
			return -ENOMEM;
		if (found->children_offset) {
			int r = add_steps(sc, d,
				*(struct rs_step_entry **)((char *)data + found->children_offset),
				*(unsigned *)((char *)data + found->children_count_offset),
				rs_node_get(o->node, "steps"), o, o->no);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/*
 * An object entry's `count:`, `node:`, `for:` and `expect:`, which
 * libcyaml puts past the kind's struct (RS_COUNT_AT()), into @o's block
 * (rs_obj_more()), for the few that give one: the rest do without the
 * 32 bytes, as build_objects() then cuts them off the entries rs_fill()
 * made.  0, -ENOMEM, or -EINVAL for a bad expect: (reported).
 */
static int read_tail(struct rs_scenario *s, struct rs_obj *o,
		     struct rs_diag *d)
{
	const char *tail = (const char *)o->data + RS_COUNT_AT(o->kind);
	const char *node_id, *for_id;
	uint32_t given;

	memcpy(&given, tail, sizeof(given));
	memcpy(&node_id, tail + RS_NODE_AT(o->kind) - RS_COUNT_AT(o->kind),
	       sizeof(node_id));
	memcpy(&for_id, tail + RS_FOR_AT(o->kind) - RS_COUNT_AT(o->kind),
	       sizeof(for_id));
	if (given || node_id || for_id) {
		if (!rs_obj_more(s, o))
			return -ENOMEM;
		o->more->given = given;
		o->more->node_id = node_id;
		o->more->for_id = for_id;
	}
	return rs_expect_read(s, o, d);
}

static int build_objects(struct rs_scenario *s, struct rs_diag *d)
{
	struct rs_top *top = s->top;
	unsigned n = 0;
	int bad = 0;

	for (unsigned k = 0; k < rs_registry_count(false); k++)
		n += top->sections[k].count;
	s->n_objects = n;
	n += count_steps(top->steps, top->steps_count);
	s->objs = rs_calloc(n ? n : 1, sizeof(*s->objs));
	if (!s->objs)
		return -ENOMEM;

	for (unsigned k = 0; k < rs_registry_count(false); k++) {
		const struct rdmascn_kind *kd = rs_registry_at(false, k);
		struct rs_node *seq = rs_node_get(s->doc.root, kd->section);
		unsigned n_items = top->sections[k].count, first = s->n_objs;
		char *items = top->sections[k].items;
		size_t size = RS_ITEM_SIZE(kd);

		for (unsigned i = 0; i < n_items; i++) {
			struct rs_obj *o = &s->objs[s->n_objs];
			int r;

			o->kind = kd;
			o->data = items + (size_t)i * RS_ITEM_SIZE(kd);
			o->index = s->n_objs++;
			o->node = &seq->items[i];
			o->id = *(char **)((char *)o->data + kd->id_offset);
			o->no = "";
			if (rs_obj_name(s, o) < 0)
				return -ENOMEM;
			r = read_tail(s, o, d);
			if (r == -ENOMEM)
				return r;
			if (r < 0)
				bad = -EINVAL;
			/* What libcyaml made is freed by the layout it
			 * made; what rs_fill() made is the arena's. */
			if (!s->top_in_doc)
				continue;
			memmove(items + (size_t)i * RS_COUNT_AT(kd), o->data,
				RS_COUNT_AT(kd));
		}
		if (!s->top_in_doc || !n_items)
			continue;
		size = RS_COUNT_AT(kd);
		items = rs_doc_shrink(&s->doc, items, n_items * size);
		top->sections[k].items = items;
		for (unsigned i = 0; i < n_items; i++)
			s->objs[first + i].data = items + i * size;
	}
	if (bad)
		return bad;
	return add_steps(s, d, top->steps, top->steps_count,
			 rs_node_get(s->doc.root, "steps"), NULL, "");
}

/* --- ids -------------------------------------------------------------------- */

struct idmap {
	struct rs_idmap ids;     /* object ids to indexes in s->objs */
	struct rs_idmap groups;  /* counted entries' ids to their first */
	/* Unknown ids already reported: one mistyped declaration should
	 * not give an error per use. */
	const char *missing[16];
	unsigned n_missing;
};

static struct rs_obj *find_obj(struct rs_scenario *s, const struct idmap *m,
			       const char *id)
{
	unsigned i = rs_idmap_get(&m->ids, id);

	return i == RS_IDMAP_NONE ? NULL : &s->objs[i];
}

/* The first element of the counted entry @id names, or NULL. */
static struct rs_obj *group(struct rs_scenario *s, const struct idmap *m,
			    const char *id)
{
	unsigned i = rs_idmap_get(&m->groups, id);

	return i == RS_IDMAP_NONE ? NULL : &s->objs[i];
}

static int index_ids(struct rs_scenario *s, struct idmap *m, struct rs_diag *d)
{
	int r;

	/* Of equal ids the map keeps the first: each later one is the
	 * error, and names the first. */
	r = rs_idmap_build_stride(&m->ids, &s->objs[0].id, sizeof(*s->objs),
				  s->n_objs);
	if (r < 0)
		return r;
	for (unsigned i = 0; i < s->n_objs; i++) {
		struct rs_obj *o = &s->objs[i], *first;
		const struct rs_loc *at;

		if (!o->id)
			continue;
		first = find_obj(s, m, o->id);
		if (first == o)
			continue;
		at = rs_obj_loc(first, "id");
		rs_obj_error(d, o, "id", "'%s' already names %s %s (at %u:%u)",
			     o->id, first->kind->step ? "a" :
			     article(first->kind->name),
			     first->kind->step ? "step" : first->kind->name,
			     at->line, at->col);
		r = -EINVAL;
	}
	return r;
}

static bool kind_ok(const struct rdmascn_ref *ref, const struct rs_obj *t)
{
	if (ref->after)
		return true;
	if (!ref->kinds)
		return !t->kind->step;
	/* "qp": any kind that offers the QP facet (a plugin's QPs). */
	if (!strcmp(ref->kinds[0], "qp") && t->kind->ops &&
	    t->kind->ops->as_qp)
		return true;
	/* A step type named among the kinds: a step that refers to an
	 * earlier step (ud_send's reply_to a recv). */
	for (const char *const *k = ref->kinds; *k; k++) {
		if (!strcmp(*k, t->kind->name))
			return true;
		/* A plugin's kind that is a CQ (the facet as_cq) is one
		 * wherever a cq is asked for. */
		if (!strcmp(*k, "cq") && t->kind->ops && t->kind->ops->as_cq)
			return true;
		/* And one that is memory (the facet as_mem: mlx5's mkeys)
		 * wherever an mr is. */
		if (!strcmp(*k, "mr") && t->kind->ops && t->kind->ops->as_mem)
			return true;
		/* And one that is a verbs context (the facet as_context:
		 * mlx5's, opened with mlx5dv_open_device()) wherever a
		 * context is. */
		if (!strcmp(*k, "context") && t->kind->ops &&
		    t->kind->ops->as_context)
			return true;
	}
	return false;
}

static void want_kinds(const struct rdmascn_ref *ref, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (const char *const *k = ref->kinds; k && *k && o < len; k++)
		o += snprintf(buf + o, len - o, "%s%s %s", k == ref->kinds ? "" :
			      k[1] ? ", " : " or ", article(*k), *k);
}

/* "did you mean" among the ids @ref could name from @o, or their list
 * when it is short. */
static void near_ids(const struct rs_scenario *s,
		     const struct rdmascn_ref *ref, const struct rs_obj *o,
		     const char *id, char *buf, size_t len)
{
	struct rs_suggest sg;

	rs_suggest_init(&sg, id);
	for (unsigned i = 0; i < s->n_objs; i++) {
		const struct rs_obj *t = &s->objs[i];

		/* A counted entry is offered once, by its own id. */
		if (!t->id || t == o || (rs_obj_group(t) && rs_obj_elem(t)) ||
		    !kind_ok(ref, t) || (!o->kind->step && t->kind->step))
			continue;
		rs_suggest_add(&sg, rs_obj_group(t) ? rs_obj_group(t) : t->id);
	}
	rs_suggest_fmt(&sg, true, buf, len);
}

#define REF_PATH_MAX 128

/* The path of @ref's @item (of a list when @listed) in its object, for a
 * message: made only for one, as a reference that resolves (nearly all:
 * 6001 at N=1000 in the set-up bench, a snprintf() each) needs none. */
static void ref_path(const struct rdmascn_ref *ref, unsigned item,
		     bool listed, char path[REF_PATH_MAX])
{
	if (listed && ref->stride)
		snprintf(path, REF_PATH_MAX, "%s[%u].%s", ref->field, item,
			 ref->item_key ? ref->item_key : "");
	else if (listed)
		snprintf(path, REF_PATH_MAX, "%s[%u]", ref->field, item);
	else
		snprintf(path, REF_PATH_MAX, "%s", ref->field);
}

static int resolve_one(struct rs_scenario *s, struct idmap *m,
		       struct rs_obj *o, const struct rdmascn_ref *ref,
		       const char *id, unsigned item, bool listed,
		       struct rs_diag *d)
{
	struct rs_obj *t = find_obj(s, m, id);
	struct rs_edge *e;
	char path[REF_PATH_MAX], want[128], near[640];

	if (!t && ref->after && (t = group(s, m, id))) {
		/* After a counted entry: after the same element when the
		 * counts pair, else after all of it. */
		unsigned n = rs_obj_count(t);

		if (rs_obj_count(o) == n)
			t += rs_obj_elem(o), n = 1;
		for (unsigned i = 0; i < n; i++)
			o->edges[o->n_edges++] = (struct rs_edge){
				.to = &t[i], .field = ref - o->kind->refs,
				.order_only = true };
		return 0;
	}
	if (!t) {
		for (unsigned i = 0; i < m->n_missing; i++)
			if (!strcmp(m->missing[i], id))
				return -EINVAL;
		if (m->n_missing < RS_N(m->missing))
			m->missing[m->n_missing++] = id;
		near_ids(s, ref, o, id, near, sizeof(near));
		ref_path(ref, item, listed, path);
		rs_obj_error(d, o, path, "no object with id '%s'%s", id, near);
		return -EINVAL;
	}
	if (t == o) {
		ref_path(ref, item, listed, path);
		rs_obj_error(d, o, path, "refers to itself");
		return -EINVAL;
	}
	if (!kind_ok(ref, t)) {
		want_kinds(ref, want, sizeof(want));
		ref_path(ref, item, listed, path);
		if (t->kind->step)
			rs_obj_error(d, o, path, "'%s' is a %s step, not %s",
				     id, t->kind->name, want);
		else
			rs_obj_error(d, o, path, "'%s' is %s %s, not %s", id,
				     article(t->kind->name), t->kind->name,
				     want);
		return -EINVAL;
	}
	if (!o->kind->step && t->kind->step) {
		ref_path(ref, item, listed, path);
		rs_obj_error(d, o, path, "'%s' is a step; objects are all "
			     "created before steps run", id);
		return -EINVAL;
	}
	e = &o->edges[o->n_edges++];
	e->to = t;
	e->field = ref - o->kind->refs;
	e->order_only = ref->after;
	e->spans = ref->spans;
	e->one_context = ref->one_context;
	e->layout = ref->layout;
	return 0;
}

static unsigned count_refs(struct rs_scenario *s, const struct idmap *m,
			   const struct rs_obj *o)
{
	unsigned n = o->parent ? 1 : 0;

	for (const struct rdmascn_ref *ref = o->kind->refs; ref && ref->field; ref++) {
		const char *base = (const char *)o->data;

		/* after: a counted entry is an edge to each element,
		 * or to the one that pairs. */
		for (unsigned j = 0; ref->count_offset >= 0 &&
		     j < *(const unsigned *)(base + ref->count_offset); j++) {
			const char *id = rs_ref_item(ref, base, j);
			const struct rs_obj *g = id && ref->after &&
				rs_idmap_get(&m->ids, id) == RS_IDMAP_NONE ?
				group(s, m, id) : NULL;

			n += g && rs_obj_count(g) != rs_obj_count(o) ?
			     rs_obj_count(g) : 1;
		}
		if (ref->count_offset < 0)
			n += *(char *const *)(base + ref->offset) != NULL;
	}
	return n + 1; /* the implicit sequence edge of a step */
}

/*
 * The edges of all objects together, at most RS_REFS_MAX: `after: [a]` on
 * an entry of 100000 naming one of 100000 would be 10^10.  Elements that
 * share their entry's data have as many each: counted once.  The total is
 * @ret_total, the room resolve() makes for them.
 */
static int check_edges(struct rs_scenario *s, const struct idmap *m,
		       struct rs_diag *d, size_t *ret_total)
{
	uint64_t total = 0;
	unsigned n = 0;

	for (unsigned i = 0; i < s->n_objs; i++) {
		const struct rs_obj *o = &s->objs[i], *prev = i ? o - 1 : NULL;

		if (!prev || prev->data != o->data || prev->kind != o->kind ||
		    rs_obj_count(prev) != rs_obj_count(o) ||
		    !prev->parent != !o->parent)
			n = count_refs(s, m, o);
		total += n;
		if (total > RS_REFS_MAX) {
			rs_obj_error(d, o, NULL, "its references make more "
				     "than %u in all (counted entries "
				     "expanded), the most a scenario may hold",
				     RS_REFS_MAX);
			return -EINVAL;
		}
	}
	*ret_total = total;
	return 0;
}

/*
 * All objects' edges in one block that lives as long as the scenario: a
 * calloc() an object cost malloc's header and rounding (about 16 bytes
 * an object) and a free() each.  An object's edges follow the previous
 * one's, as many as it made (at most count_refs()).
 */
static int resolve(struct rs_scenario *s, struct idmap *m, size_t total,
		   struct rs_diag *d)
{
	struct rs_obj *prev_step = NULL;
	struct rs_edge *next;
	int r = 0;

	next = rs_scenario_block(s, (total ? total : 1) * sizeof(*next));
	if (!next)
		return -ENOMEM;
	for (unsigned i = 0; i < s->n_objs && d->errors < RS_MAX_ERRORS; i++) {
		struct rs_obj *o = &s->objs[i];
		const char *base = (const char *)o->data;

		o->edges = next;
		for (const struct rdmascn_ref *ref = o->kind->refs;
		     ref && ref->field; ref++) {
			if (ref->count_offset < 0) {
				const char *id = *(char *const *)(base + ref->offset);

				if (id && resolve_one(s, m, o, ref, id, 0, false, d) < 0)
					r = -EINVAL;
				continue;
			}
			for (unsigned j = 0; j < *(const unsigned *)(base + ref->count_offset); j++) {
				const char *id = rs_ref_item(ref, base, j);

				if (id && resolve_one(s, m, o, ref, id, j, true, d) < 0)
					r = -EINVAL;
			}
		}
		/* Steps run in file order; nested ones within their parent. */
		if (o->kind->step && o->parent) {
			o->edges[o->n_edges++] = (struct rs_edge){
				.to = o->parent, .field = RS_EDGE_STEPS,
				.order_only = true };
		} else if (o->kind->step) {
			if (prev_step)
				o->edges[o->n_edges++] = (struct rs_edge){
					.to = prev_step, .field = RS_EDGE_SEQUENCE,
					.order_only = true };
			prev_step = o;
		}
		next += o->n_edges;
	}
	return r;
}

/* Below this many keys, comparing each key with the earlier ones costs
 * less than a hash map's two allocations. */
#define DUP_SCAN_MAX 8

/* The index in @map of the first key equal to key @i (@i itself when
 * there is none before it); @ids maps the keys of a big mapping. */
static size_t first_key(const struct rs_node *map, size_t i,
			const struct rs_idmap *ids)
{
	if (ids->slots)
		return 2 * (size_t)rs_idmap_get(ids, map->items[i].value);
	for (size_t j = 0; j < i; j += 2)
		if (!strcmp(map->items[j].value, map->items[i].value))
			return j;
	return i;
}

/* The keys of @map, mapped to their (first) pair's number: read from
 * its items in place (every other one), which outlive the map. */
static int map_keys(const struct rs_node *map, struct rs_idmap *ids)
{
	return rs_idmap_build_stride(ids, &map->items[0].value,
				     2 * sizeof(*map->items), map->n / 2);
}

/* Duplicate keys: libcyaml would catch them, but without saying where
 * the first one is; the DOM knows both.  A mapping may be huge (params,
 * or hostile input), so this is linear in its keys. */
static int check_duplicate_keys(struct rs_node *root, struct rs_node *n,
				struct rs_diag *d)
{
	struct rs_idmap ids = { 0 };
	int r = 0;

	if (n->type == RS_NODE_MAP && n->n / 2 > DUP_SCAN_MAX &&
	    map_keys(n, &ids) < 0)
		return -ENOMEM;
	for (size_t i = 2; n->type == RS_NODE_MAP && i < n->n &&
			   d->errors < RS_MAX_ERRORS; i += 2) {
		struct rs_node *k = &n->items[i];
		size_t j = first_key(n, i, &ids);
		struct rs_where w;

		if (j == i)
			continue;
		rs_where_at(root, k->start, &w);
		rs_diag_error(d, rs_node_loc(k),
			      "%s%s%sduplicate key '%s' (first at "
			      "line %u)", w.who, w.path, w.path[0] ? ": " : "",
			      k->value, rs_node_loc(&n->items[j])->line);
		r = -EINVAL;
	}
	rs_idmap_free(&ids);
	for (size_t i = 0; i < n->n; i++)
		if (n->items[i].type != RS_NODE_SCALAR) {
			int cr = check_duplicate_keys(root, &n->items[i], d);

			if (cr == -ENOMEM)
				return cr;
			if (cr < 0)
				r = cr;
		}
	return r;
}

/* Where in @n's text (a double-quoted scalar) the escape of its first
 * NUL is: \0, \x00, \u0000 or \U00000000.  Columns count characters,
 * as libyaml's do. */
static struct rs_loc nul_escape(const char *text, const struct rs_node *n)
{
	static const char *const nul[] = { "0", "x00", "u0000", "U00000000" };
	struct rs_loc loc = *rs_node_loc(n);

	loc.col++; /* past the opening quote */
	for (size_t i = n->start + 1, end = rs_node_end(n); i < end; i++) {
		unsigned char c = text[i];

		if (c == '\\') {
			for (size_t k = 0; k < RS_N(nul); k++)
				if (!strncmp(text + i + 1, nul[k],
					     strlen(nul[k])))
					return loc;
			/* "\\" and "\"" must not be read again. */
			if (text[i + 1] != '\n' && text[i + 1] != '\r') {
				i++;
				loc.col += 2;
				continue;
			}
		} else if (c == '\n' || (c == '\r' && text[i + 1] != '\n')) {
			loc.line++;
			loc.col = 1;
		} else if ((c & 0xc0) != 0x80 && c != '\r') {
			loc.col++;
		}
	}
	return *rs_node_loc(n);
}

/* A \0 would cut a key, an id or a value short without a word. */
static int check_nul(struct rs_scenario *s, struct rs_node *n, bool key,
		     struct rs_diag *d)
{
	int r = 0;

	if (rs_node_nul(n)) {
		struct rs_loc loc = nul_escape(s->doc.text, n);
		struct rs_where w;

		rs_where_at(s->doc.root, n->start, &w);
		rs_diag_error(d, &loc, "%s%s%sa %s cannot hold \\0 (NUL)",
			      w.who, w.path, w.path[0] ? ": " : "",
			      key ? "key" : "value");
		return -EINVAL;
	}
	for (size_t i = 0; i < n->n && d->errors < RS_MAX_ERRORS; i++)
		if (check_nul(s, &n->items[i], n->type == RS_NODE_MAP &&
			      i % 2 == 0, d) < 0)
			r = -EINVAL;
	return r;
}

/*
 * Entries in the file, before libcyaml reads them (it would hold a few KB
 * each): RS_OBJECTS_MAX at most, the first one past is the error.  Steps
 * nested in a step's `steps:` count too.  Counts are checked once they
 * are known (rs_count_expand()).
 */
static int count_entries(const struct rs_node *seq, size_t *n,
			 struct rs_diag *d)
{
	if (!seq || seq->type != RS_NODE_SEQ)
		return 0;
	for (size_t i = 0; i < seq->n; i++) {
		const struct rs_node *e = &seq->items[i];

		if (++*n > RS_OBJECTS_MAX) {
			rs_diag_error(d, rs_node_loc(e),
				      "more than %u objects and "
				      "steps, the most a scenario may hold",
				      RS_OBJECTS_MAX);
			return -EINVAL;
		}
		/* A step entry is {TYPE: {..., steps: [...]}}. */
		for (size_t j = 1; e->type == RS_NODE_MAP && j < e->n; j += 2)
			if (count_entries(rs_node_get(&e->items[j], "steps"),
					  n, d) < 0)
				return -EINVAL;
	}
	return 0;
}

static int check_entries(struct rs_scenario *s, struct rs_diag *d)
{
	const struct rs_node *root = s->doc.root;
	size_t n = 0;

	for (size_t i = 0; i + 1 < root->n; i += 2) {
		const char *key = root->items[i].value;

		if (strcmp(key, "steps") && !rs_registry_find(key, false))
			continue;
		if (count_entries(&root->items[i + 1], &n, d) < 0)
			return -EINVAL;
	}
	return 0;
}

/*
 * Ids, counts, references and each object's own checks, all of them: one
 * pass reports every error it finds (up to RS_MAX_ERRORS), so a file with
 * two bad CQs gives two lines.  The checks read their own object's
 * fields and a reference's target only when it resolved, so they run even
 * when an id or a reference is wrong.  Of a counted entry's elements, the
 * first that fails a check speaks for the rest.  A bad count stops here:
 * what the references name depends on it.
 */
/* What @o names through references marked one_context (a QP's pd, CQs
 * and SRQ) is on one verbs context: their handles are looked up in the
 * uverbs file of the context the object is made on. */
static int check_one_context(const struct rs_scenario *s,
			     const struct rs_obj *o, struct rs_diag *d)
{
	const struct rs_edge *first = NULL;
	const struct rs_obj *on = NULL;
	const char *c_node, *on_node;

	for (unsigned i = 0; i < o->n_edges; i++) {
		const struct rs_edge *e = &o->edges[i];
		const struct rs_obj *c;

		if (!e->one_context || !(c = rs_obj_made_on(e->to)))
			continue;
		if (!on) {
			on = c, first = e;
			continue;
		}
		/* On two nodes: rs_nodes_place() says so, better. */
		if (c == on || ((c_node = rs_obj_node_id(s, c)) &&
				(on_node = rs_obj_node_id(s, on)) &&
				strcmp(c_node, on_node)))
			continue;
		rs_obj_error(d, o, rs_edge_field(o, e), "%s '%s' is on context '%s', "
			     "but %s '%s' is on '%s': what %s %s names must be "
			     "on one verbs context", e->to->kind->name,
			     e->to->id, c->id, first->to->kind->name,
			     first->to->id, on->id, article(o->kind->name),
			     o->kind->name);
		return -EINVAL;
	}
	return 0;
}

static int check_objects(struct rs_scenario *s, struct idmap *ids,
			 struct rs_diag *d)
{
	size_t n_edges;
	int r, ret;

	r = index_ids(s, ids, d);
	if (r == -ENOMEM)
		return r;
	ret = r;
	if (!ret) {
		r = rs_count_expand(s, &ids->ids, &ids->groups, d);
		if (r < 0)
			return r;
	}
	/* Objects' checks read their edges: without them, none runs. */
	r = check_edges(s, ids, d, &n_edges);
	if (r < 0)
		return r;
	r = resolve(s, ids, n_edges, d);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		ret = r;
	if (rs_expect_check_refs(s, d) < 0)
		ret = -EINVAL;
	for (unsigned i = 0; i < s->n_objs && d->errors < RS_MAX_ERRORS; i++) {
		struct rs_obj *o = &s->objs[i];

		if ((o->kind->check && o->kind->check(o, d) < 0) ||
		    check_one_context(s, o, d) < 0 ||
		    (o->kind->step && rs_gate_check(s, o, d) < 0)) {
			ret = -EINVAL;
			i += rs_obj_count(o) ?
			     rs_obj_count(o) - rs_obj_elem(o) - 1 : 0;
		}
	}
	return ret;
}

/* --- public ------------------------------------------------------------------ */

/* A file read once: a reload parses the text the first load read. */
static int read_doc(struct rs_scenario *s, const struct rs_doc *again,
		    struct rs_diag *d)
{
	char *text;
	int r;

	if (!again)
		return rs_doc_load(&s->doc, s->path, d);
	text = rs_malloc(again->len + 1);
	if (!text)
		return -ENOMEM;
	memcpy(text, again->text, again->len + 1);
	r = rs_doc_parse(&s->doc, s->path, text, again->len, d);
	if (r < 0) {
		rs_free(text);
		s->doc.text = NULL;
	}
	return r;
}

static int load(const char *path, const struct rs_doc *again,
		const struct rs_set *sets, unsigned n_sets,
		const struct rs_fact_resolver *facts, bool keep_text,
		struct rs_diag *d, struct rs_scenario **ret)
{
	struct rs_load_log log = { 0 };
	cyaml_config_t cfg = {
		.log_fn = rs_load_log_fn,
		.log_ctx = &log,
		.mem_fn = mem,
		.log_level = CYAML_LOG_ERROR,
		.flags = CYAML_CFG_NO_ALIAS,
	};
	struct idmap ids = { 0 };
	const cyaml_schema_value_t *schema;
	struct rs_scenario *s;
	cyaml_err_t ce;
	int r;

	s = rs_calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->sets = sets;
	s->n_sets = n_sets;
	s->facts = facts;
	s->path = rs_strdup(path);
	if (!s->path) {
		r = -ENOMEM;
		goto fail;
	}
	r = read_doc(s, again, d);
	if (r < 0)
		goto fail;
	if (!s->doc.root || s->doc.root->type != RS_NODE_MAP) {
		struct rs_loc loc = { path, 1, 1 };

		rs_diag_error(d, s->doc.root ? rs_node_loc(s->doc.root) : &loc,
			      "a scenario is a mapping of sections (contexts:, "
			      "pds:, qps:, steps:, ...)");
		r = -EINVAL;
		goto fail;
	}
	/* Before the keys are compared: "a\0b" and "a\0c" are both "a". */
	r = s->doc.nul ? check_nul(s, s->doc.root, false, d) : 0;
	if (!r)
		r = check_duplicate_keys(s->doc.root, s->doc.root, d);
	if (!r)
		r = rs_params_apply(s, sets, n_sets, d);
	/* Keys with ${} may be equal only now; libcyaml would say so
	 * without saying where. */
	if (!r && s->n_edits)
		r = check_duplicate_keys(s->doc.root, s->doc.root, d);
	if (!r)
		r = check_entries(s, d);
	if (!r)
		r = rs_matrix_read(&s->matrix, s, d);
	if (!r)
		r = rs_explore_read(&s->explore, s, d);
	if (r < 0)
		goto fail;

	/* One parse: the structs from the DOM.  What it does not take,
	 * libcyaml loads from the text, and says why it is wrong. */
	schema = rs_registry_schema();
	if (!schema) {
		r = -ENOMEM;
		goto fail;
	}
	r = rs_fill(&s->doc, s->doc.root, schema, (void **)&s->top);
	if (r == -ENOMEM)
		goto fail;
	s->top_in_doc = !r;
	/* Integers as the language writes them, before libcyaml reads
	 * them its way: a file rs_fill() took has only those (it refuses
	 * the rest), so the walk is for one it did not. */
	if (r) {
		r = rs_int_scalars_check(s, d);
		if (r < 0)
			goto fail;
	}
	ce = !s->top_in_doc ? cyaml_load_data((const uint8_t *)(s->text ? s->text :
						   s->doc.text),
				 s->text ? s->text_len : s->doc.len, &cfg,
				 schema, (void **)&s->top, NULL) :
		 CYAML_OK;
	if (ce == CYAML_ERR_OOM) {
		r = -ENOMEM;
		goto fail;
	}
	if (ce != CYAML_OK) {
		rs_load_error_report(s, &log, cyaml_strerror(ce), d);
		r = -EINVAL;
		goto fail;
	}
	/* The structs are filled: the text's last readers were the
	 * params, libcyaml and their messages.  What reads it later is a
	 * matrix cell's load, a reload and a run's sha256; a look at the
	 * file drops it here, before the objects and the load's peak (68
	 * bytes an object of gen_scenario.sh). */
	if (!keep_text && !s->matrix.n_dims) {
		rs_free(s->doc.text);
		s->doc.text = NULL;
	}
	/* So are the scalars' ends (8 bytes a scalar, 56 an object):
	 * the params, the checks of the text and libcyaml's messages. */
	rs_doc_ends_free(&s->doc);
	r = rs_requires_check(s, d);
	if (!r)
		r = rs_nodes_expand(s, d);
	if (!r)
		r = build_objects(s, d);
	/* The steps: entries, one pointer for each step type (256 bytes
	 * an entry, 32 an object of gen_scenario.sh), were read by
	 * build_objects() only: the objects point at the steps' own
	 * structs.  Freed before the peak; libcyaml's go with the rest. */
	if (!r && s->top_in_doc && s->top->steps &&
	    rs_doc_release(&s->doc, s->top->steps)) {
		s->top->steps = NULL;
		s->top->steps_count = 0;
	}
	if (!r)
		r = check_objects(s, &ids, d);
	/* Nothing later looks an id up: 32-64 bytes an id, freed before
	 * the plan is made, not at the peak beside it. */
	rs_idmap_free(&ids.ids);
	rs_idmap_free(&ids.groups);
	if (!r)
		r = rs_graph_plan(s, d);
	if (!r)
		r = rs_gate_check_of(s, d);
	if (!r)
		r = rs_run_gates_read(s, d, &s->gates);
	if (!r)
		r = rs_nodes_place(s, d);
	if (!r)
		r = rs_deviations_read(&s->deviations,
				       rs_node_get(s->doc.root, "deviations"),
				       s, d);
	if (r < 0)
		goto fail;
	*ret = s;
	return 0;
fail:
	rs_scenario_free(s);
	return r;
}

int rs_scenario_load(const char *path, const struct rs_set *sets,
		     unsigned n_sets, struct rs_diag *d,
		     struct rs_scenario **ret)
{
	return load(path, NULL, sets, n_sets, NULL, true, d, ret);
}

int rs_scenario_look(const char *path, const struct rs_set *sets,
		     unsigned n_sets, struct rs_diag *d,
		     struct rs_scenario **ret)
{
	return load(path, NULL, sets, n_sets, NULL, false, d, ret);
}

int rs_scenario_reload(const struct rs_scenario *s,
		       const struct rs_fact_resolver *facts,
		       struct rs_diag *d, struct rs_scenario **ret)
{
	return load(s->path, &s->doc, s->sets, s->n_sets, facts, true, d,
		    ret);
}

int rs_scenario_load_cell(const struct rs_scenario *s,
			  const struct rs_set *sets, unsigned n_sets,
			  struct rs_diag *d, struct rs_scenario **ret)
{
	return load(s->path, &s->doc, sets, n_sets, NULL, true, d, ret);
}

void rs_scenario_free(struct rs_scenario *s)
{
	cyaml_config_t cfg = { .mem_fn = mem, .log_level = CYAML_LOG_ERROR,
			       .log_fn = cyaml_log };

	if (!s)
		return;
	if (s->top && s->nodes_decl) {
		s->top->nodes = s->nodes_decl;
		s->top->nodes_count = s->n_nodes_decl;
	}
	/* What rs_fill() made is in the DOM's arena, freed with it. */
	if (s->top && !s->top_in_doc)
		cyaml_free(&cfg, rs_registry_schema(), s->top, 0);
	/* The objects' edges are one rs_scenario_block() (resolve()). */
	rs_free(s->objs);
	rs_count_free(s);
	rs_free(s->create);
	rs_free(s->steps);
	for (unsigned i = 0; i < s->n_params; i++)
		rs_free(s->params[i].owned);
	rs_free(s->params);
	rs_free(s->fact_uses);
	rs_free(s->path);
	rs_matrix_free(&s->matrix);
	rs_explore_free(&s->explore);
	rs_deviations_free(&s->deviations);
	rs_free(s->edits);
	rs_free(s->text);
	rs_doc_free(&s->doc);
	rs_free(s);
}
