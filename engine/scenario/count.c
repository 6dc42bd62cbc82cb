// SPDX-License-Identifier: MIT
/*
 * Counted entries: `count: N` on an object entry makes N objects, a[0]
 * to a[N-1], each with the entry's location.  An entry without a count
 * whose references name counted entries by their bare id takes their
 * count (they must agree) and pairs element by element: qp a[i] on cq
 * cq[i], connection c[i] joins a[i] and b[i], a step runs once per
 * element.  A counted entry naming an uncounted one shares it; one
 * element is named "a[3]".
 *
 * Expansion happens here, once, so the graph, the plan and the run see
 * real objects.  An element shares its entry's data unless a reference
 * in it names an element; then it gets a copy of the kind's struct (no
 * deeper: nested members stay shared) with that reference pointing at
 * the element's id.  Ids are looked up in the hash, never by scanning.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "dec.h"
#include "model.h"
#include "pattern.h"
#include "suggest.h"

/* Memory a scenario owns beyond what libcyaml filled. */
struct rs_block {
	struct rs_block *next;
	_Alignas(16) char data[];
};

void *rs_scenario_block(struct rs_scenario *s, size_t size)
{
	struct rs_block *b = rs_calloc(1, sizeof(*b) + size);

	if (!b)
		return NULL;
	b->next = s->blocks;
	s->blocks = b;
	return b->data;
}

void rs_count_free(struct rs_scenario *s)
{
	while (s->blocks) {
		struct rs_block *b = s->blocks;

		s->blocks = b->next;
		rs_free(b);
	}
}

int rs_count_parse(const char *id, size_t *ret_len, unsigned *ret_elem)
{
	const char *open = strchr(id, '['), *p;
	unsigned long v = 0;

	if (!open)
		return 0;
	p = open + 1;
	/* Digits as the element ids spell them: no sign, no leading 0. */
	if (open == id || *p < '0' || *p > '9' || (*p == '0' && p[1] != ']'))
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned long)(*p - '0');
		if (v >= RS_COUNT_MAX)
			return -1;
	}
	if (p[0] != ']' || p[1])
		return -1;
	*ret_len = (size_t)(open - id);
	*ret_elem = (unsigned)v;
	return 1;
}

/* --- what each entry counts ------------------------------------------------ */

struct counting {
	struct rs_scenario *s;
	struct rs_idmap *ids;    /* entry ids -> entry index */
	struct rs_diag *d;
	unsigned *count;         /* per entry: 0 uncounted */
	unsigned char *state;    /* 0 not yet, 1 being counted, 2 done */
	/*
	 * Per entry, where its count comes from: the entry that gives
	 * `count:`, the node set its `node:` names (the set's id, as one
	 * pointer), or the pattern it is `for:`; what its first counted
	 * reference's origin is otherwise.  A `for: P.from` entry's bare
	 * reference to an entry of P's `of:` origin names element from_k.
	 */
	const void **origin;
	struct rs_pairs **for_p; /* per entry: its `for:` pattern, or NULL */
	bool *to_side;
	unsigned char *p_state;  /* per pairs: as state */
	int r;
};

static struct rs_obj *entry(struct counting *c, const char *id)
{
	unsigned i = rs_idmap_get(c->ids, id);

	return i == RS_IDMAP_NONE ? NULL : &c->s->objs[i];
}

static unsigned count_of(struct counting *c, struct rs_obj *o);

static void fail(struct counting *c)
{
	c->r = -EINVAL;
}

/* "a[3]": its entry must be counted, and have element 3. */
static void check_element(struct counting *c, struct rs_obj *o,
			  const char *path, const char *id)
{
	char base[RDMASCN_ID_MAX + 1];
	struct rs_obj *t;
	unsigned elem, n;
	size_t len;
	int k = rs_count_parse(id, &len, &elem);

	if (!k)
		return;
	if (k < 0 || len >= sizeof(base)) {
		rs_obj_error(c->d, o, path, "'%s': an element is named ID[N], "
			     "N from 0, as in a[3]", id);
		fail(c);
		return;
	}
	memcpy(base, id, len);
	base[len] = '\0';
	t = entry(c, base);
	if (!t) {
		struct rs_suggest sg;
		char near[640];

		rs_suggest_init(&sg, base);
		for (unsigned i = 0; i < c->s->n_objs; i++)
			/* Objects name objects; steps name either. */
			if (!c->s->objs[i].kind->step || o->kind->step)
				rs_suggest_add(&sg, c->s->objs[i].id);
		rs_suggest_fmt(&sg, false, near, sizeof(near));
		rs_obj_error(c->d, o, path, "no object with id '%s'%s", base,
			     near);
		fail(c);
		return;
	}
	n = count_of(c, t);
	if (!n) {
		rs_obj_error(c->d, o, path, "'%s' is not counted: name it "
			     "'%s'", id, base);
		fail(c);
	} else if (elem >= n) {
		rs_obj_error(c->d, o, path, "'%s' is out of range: '%s' has "
			     "%u elements, %s[0] to %s[%u]", id, base, n, base,
			     base, n - 1);
		fail(c);
	}
}

/* Macros, as rs_obj_loc(): the location lives in the caller's block. */
#define count_loc(o) rs_obj_loc((o), "count")

/* The count @o's bare references give it, checked against @given. */
static unsigned count_refs(struct counting *c, struct rs_obj *o,
			   unsigned given)
{
	const char *base = o->data, *from = NULL, *from_id = NULL;
	unsigned got = 0;

	for (const struct rdmascn_ref *ref = o->kind->refs; ref && ref->field;
	     ref++) {
		if (ref->count_offset >= 0) {
			unsigned n = *(const unsigned *)(base + ref->count_offset);

			for (unsigned j = 0; j < n; j++) {
				const char *id = rs_ref_item(ref, base, j);
				char path[128];
				struct rs_obj *t;

				if (!id)
					continue;
				t = entry(c, id);
				snprintf(path, sizeof(path), "%s[%u]",
					 ref->field, j);
				/* A list names all of a counted entry
				 * (lists_all()): nothing to pair. */
				check_element(c, o, path, id);
				if (t)
					count_of(c, t);
			}
			continue;
		}
		const char *id = *(char *const *)(base + ref->offset);
		struct rs_obj *t;
		unsigned n;

		if (!id)
			continue;
		check_element(c, o, ref->field, id);
		t = entry(c, id);
		if (!t || t == o || !(n = count_of(c, t)))
			continue;
		if (given && n != given) {
			const struct rs_loc *at = count_loc(o);

			rs_obj_error(c->d, o, ref->field, "'%s' has %u elements, "
				     "%s has count %u (at %u:%u): counts that "
				     "pair must be equal", id, n, o->name,
				     given, at->line, at->col);
			fail(c);
		} else if (got && n != got) {
			const struct rs_loc *at = rs_obj_loc(o, from);

			rs_obj_error(c->d, o, ref->field, "'%s' has %u elements, "
				     "'%s' (%s, at %u:%u) has %u: counts that "
				     "pair must be equal", id, n, from_id, from,
				     at->line, at->col, got);
			fail(c);
		} else if (!got) {
			got = n;
			from = ref->field;
			from_id = id;
			/* Paired with @t, element by element: counted
			 * like it, whatever gave the count. */
			if (c->origin[t->index])
				c->origin[o->index] = c->origin[t->index];
		}
	}
	if (got && o->parent) {
		rs_obj_error(c->d, o, from, "'%s' is %u objects, and a step "
			     "inside %s runs once: name one element ('%s[0]')",
			     from_id, got, o->parent->name, from_id);
		fail(c);
		return 0;
	}
	/* Its children would belong to one element only. */
	if (got && o->kind->children_offset &&
	    *(const unsigned *)(base + o->kind->children_count_offset)) {
		rs_obj_error(c->d, o, from, "'%s' is %u objects, and a step "
			     "that holds steps runs once: name one element "
			     "('%s[0]')", from_id, got, from_id);
		fail(c);
		return 0;
	}
	return given ? given : got;
}

/* --- node sets and patterns ---------------------------------------------- */

/* `node: h` naming a node set: one per node, as a bare reference pairs;
 * checked against @given. */
static unsigned count_node(struct counting *c, struct rs_obj *o,
			   unsigned given)
{
	unsigned n;
	int first;

	if (o->kind->step || !o->more || !o->more->node_id ||
	    (first = rs_node_set_find(c->s, o->more->node_id, &n)) < 0)
		return given;
	if (given && n != given) {
		const struct rs_loc *at = count_loc(o);

		rs_obj_error(c->d, o, "node", "node set '%s' has %u nodes, "
			     "%s has count %u (at %u:%u): counts that pair "
			     "must be equal", o->more->node_id, n, o->name,
			     given,
			     at->line, at->col);
		fail(c);
		return given;
	}
	c->origin[o->index] = c->s->top->nodes[first].group;
	return n;
}

/* Where `pairs:` entry @i, or its field @key, is. */
#define pairs_loc(s, i, key) rs_doc_entry_loc(&(s)->doc, "pairs", (i), (key))

/* Pairs' ids: unique among them, and no '[' or '.' (for: P.from). */
static int check_pairs_ids(const struct rs_scenario *s, struct rs_diag *d)
{
	int r = 0;

	for (unsigned i = 0; i < s->top->pairs_count; i++) {
		const char *id = s->top->pairs[i].id;

		for (unsigned j = 0; j < i; j++)
			if (!strcmp(s->top->pairs[j].id, id)) {
				rs_diag_error(d, pairs_loc(s, i, "id"), "pairs "
					      "'%s': id: already names pairs "
					      "(at line %u)", id,
					      pairs_loc(s, j, "id")->line);
				r = -EINVAL;
				break;
			}
		if (strpbrk(id, "[]. ")) {
			rs_diag_error(d, pairs_loc(s, i, "id"), "pairs '%s': "
				      "id: cannot hold '[', '.' or a space "
				      "(for: %s.from names its side)", id, id);
			r = -EINVAL;
		}
	}
	return r;
}

/* `pairs:` entry @i: its pattern over what its `of:` names, counted;
 * NULL when it is wrong (reported). */
static struct rs_pairs *pairs_read(struct counting *c, unsigned i)
{
	struct rs_scenario *s = c->s;
	const struct rs_pairs_decl *pd = &s->top->pairs[i];
	struct rs_pairs *p = &s->pairs[i];
	struct rs_obj *t;
	char why[256];
	int first;

	if (c->p_state[i] == 2)
		return p->decl ? p : NULL;
	if (c->p_state[i] == 1) {
		rs_diag_error(c->d, pairs_loc(s, i, "of"), "pairs '%s': of: "
			      "'%s' is counted by these pairs themselves",
			      pd->id, pd->of);
		fail(c);
		return NULL;
	}
	c->p_state[i] = 1;
	p->pattern = rs_pattern_parse(pd->pattern);
	if (p->pattern < 0) {
		rs_pattern_names(why, sizeof(why));
		rs_diag_error(c->d, pairs_loc(s, i, "pattern"), "pairs '%s': "
			      "pattern: unknown pattern '%s' (one of %s)",
			      pd->id, pd->pattern, why);
		goto bad;
	}
	t = entry(c, pd->of);
	if (t && !t->kind->step) {
		p->n = count_of(c, t);
		p->origin = c->origin[t->index];
		if (!p->n) {
			rs_diag_error(c->d, pairs_loc(s, i, "of"), "pairs "
				      "'%s': of: %s is not counted: a pattern "
				      "joins the elements of a counted entry "
				      "or a node set", pd->id, t->name);
			goto bad;
		}
	} else if ((first = rs_node_set_find(s, pd->of, &p->n)) >= 0) {
		p->origin = s->top->nodes[first].group;
	} else {
		rs_diag_error(c->d, pairs_loc(s, i, "of"), "pairs '%s': of: "
			      "no counted entry or node set '%s'", pd->id,
			      pd->of);
		goto bad;
	}
	p->root = pd->root;
	if (rs_pattern_count(p->pattern, p->n, p->root, &p->count, why,
			     sizeof(why)) < 0) {
		const char *key = rs_node_get(&rs_node_get(s->doc.root,
			"pairs")->items[i], "root") && p->root >= p->n ?
			"root" : "pattern";

		rs_diag_error(c->d, pairs_loc(s, i, key), "pairs '%s': %s "
			      "over the %u elements of '%s': %s", pd->id,
			      pd->pattern, p->n, pd->of, why);
		goto bad;
	}
	if (p->count > RS_COUNT_MAX) {
		rs_diag_error(c->d, pairs_loc(s, i, "pattern"), "pairs '%s': "
			      "%s over %u elements makes %llu pairs, more "
			      "than the %u elements an entry may have",
			      pd->id, pd->pattern, p->n,
			      (unsigned long long)p->count, RS_COUNT_MAX);
		goto bad;
	}
	p->decl = pd;
	c->p_state[i] = 2;
	return p;
bad:
	fail(c);
	c->p_state[i] = 2;
	return NULL;
}

/* @o's `for: P.from` (P.to), NULL when not given: a step's common
 * fields, or an object's block (read_tail() in load.c). */
static const char *for_of(const struct rs_obj *o)
{
	if (o->kind->step)
		return ((const struct rs_step_common *)o->data)->for_id;
	return o->more ? o->more->for_id : NULL;
}

/* `for: P.from` or `for: P.to`: pattern P and the side, or NULL. */
static struct rs_pairs *for_pairs(struct counting *c, struct rs_obj *o,
				  bool *ret_to)
{
	const char *for_id = for_of(o);
	const char *dot = strrchr(for_id, '.');
	size_t len = dot ? (size_t)(dot - for_id) : 0;
	struct rs_scenario *s = c->s;
	char names[512];
	size_t at = 0;

	names[0] = '\0';
	for (unsigned i = 0; i < (s->top ? s->top->pairs_count : 0); i++) {
		const char *id = s->top->pairs[i].id;

		if (dot && strlen(id) == len && !memcmp(id, for_id, len) &&
		    (!strcmp(dot, ".from") || !strcmp(dot, ".to"))) {
			*ret_to = !strcmp(dot, ".to");
			return pairs_read(c, i);
		}
		if (at < sizeof(names))
			at += snprintf(names + at, sizeof(names) - at,
				       "%s%s.from, %s.to", i ? ", " : "", id,
				       id);
	}
	rs_obj_error(c->d, o, "for", "'%s' names no side of a pattern: "
		     "PAIRS.from or PAIRS.to of a `pairs:` entry (%s)",
		     for_id, at ? names : "none declared");
	fail(c);
	return NULL;
}

/* A `for:` entry of @p may name @t by bare id: @t is for @p too (the
 * same pair), or counted like @p's `of:` (the pair's from or to). */
static bool for_may_name(struct counting *c, const struct rs_pairs *p,
			 const struct rs_obj *t)
{
	return c->for_p[t->index] == p || c->origin[t->index] == p->origin;
}

/* A `for: P.side` entry: one per pair of P; its bare references to
 * counted entries must be P's (element k) or counted like P's `of:`
 * (element from_k or to_k). */
static unsigned count_for(struct counting *c, struct rs_obj *o)
{
	const char *base = o->data;
	struct rs_pairs *p;
	bool to = false;
	unsigned n;
	int set;

	if (!o->kind->step && rs_node_get(o->node, "count")) {
		rs_obj_error(c->d, o, "count", "give count: or for:, not "
			     "both: for: %s makes one per pair", for_of(o));
		fail(c);
		return 0;
	}
	if (o->parent) {
		rs_obj_error(c->d, o, "for", "a step inside %s runs once, "
			     "and cannot take for:", o->parent->name);
		fail(c);
		return 0;
	}
	/* Its children would belong to one element only. */
	if (o->kind->children_offset &&
	    *(const unsigned *)(base + o->kind->children_count_offset)) {
		rs_obj_error(c->d, o, "for", "a step that holds steps runs "
			     "once, and cannot take for:");
		fail(c);
		return 0;
	}
	p = for_pairs(c, o, &to);
	if (!p)
		return 0;
	c->for_p[o->index] = p;
	c->to_side[o->index] = to;
	c->origin[o->index] = p;
	if (!o->kind->step && o->more && o->more->node_id &&
	    (set = rs_node_set_find(c->s, o->more->node_id, &n)) >= 0 &&
	    c->s->top->nodes[set].group != p->origin) {
		rs_obj_error(c->d, o, "node", "node set '%s' (%u nodes) is "
			     "not what pairs '%s' joins ('%s'): name '%s' or "
			     "one node ('%s[0]')", o->more->node_id, n,
			     p->decl->id,
			     p->decl->of, p->decl->of, o->more->node_id);
		fail(c);
	}
	for (const struct rdmascn_ref *ref = o->kind->refs; ref && ref->field;
	     ref++) {
		const char *id;
		struct rs_obj *t;

		if (ref->count_offset >= 0)
			continue;
		id = *(char *const *)(base + ref->offset);
		if (!id)
			continue;
		check_element(c, o, ref->field, id);
		t = entry(c, id);
		if (!t || t == o || !(n = count_of(c, t)) ||
		    for_may_name(c, p, t))
			continue;
		rs_obj_error(c->d, o, ref->field, "'%s' has %u elements, and "
			     "%s is one per pair of '%s' (%llu, for: %s): name "
			     "an entry for: %s.from or %s.to (the same pair), "
			     "one counted like '%s' (%u: the pair's %s "
			     "element), an uncounted one, or one element "
			     "('%s[0]')", id, n, o->name, p->decl->id,
			     (unsigned long long)p->count, for_of(o),
			     p->decl->id, p->decl->id, p->decl->of, p->n,
			     to ? "to" : "from", id);
		fail(c);
	}
	return (unsigned)p->count;
}

static unsigned given_count(struct counting *c, struct rs_obj *o)
{
	const struct rs_node *v;
	unsigned n;

	if (o->kind->step || !(v = rs_node_get(o->node, "count")))
		return 0;
	/* libcyaml reads "2.5" as 2, and "010" as 8. */
	if (v->type != RS_NODE_SCALAR || !v->value ||
	    strspn(v->value, "0123456789") != strlen(v->value) ||
	    !v->value[0] || (v->value[0] == '0' && v->value[1])) {
		rs_obj_error(c->d, o, "count", "expected a whole number from "
			     "1 to %u, got '%s'", RS_COUNT_MAX,
			     rs_node_text(v) ? v->value : "");
		fail(c);
		return 0;
	}
	n = o->more ? o->more->given : 0;
	if (n < 1 || n > RS_COUNT_MAX) {
		rs_obj_error(c->d, o, "count", "%u is out of range: from 1 to "
			     "%u", n, RS_COUNT_MAX);
		fail(c);
		return 0;
	}
	return n;
}

static unsigned count_of(struct counting *c, struct rs_obj *o)
{
	unsigned i = o->index, n;

	/* A reference cycle: the graph names it later. */
	if (c->state[i] == 1)
		return 0;
	if (c->state[i] == 2)
		return c->count[i];
	c->state[i] = 1;
	if (for_of(o)) {
		c->count[i] = count_for(c, o);
	} else {
		n = given_count(c, o);
		if (n)
			c->origin[i] = o;
		n = count_node(c, o, n);
		c->count[i] = count_refs(c, o, n);
	}
	c->state[i] = 2;
	return c->count[i];
}

/* --- ids ------------------------------------------------------------------- */

static int check_id(struct counting *c, struct rs_obj *o)
{
	unsigned n = c->count[o->index];
	char last[16];

	if (!o->id)
		return 0;
	if (strchr(o->id, '[')) {
		rs_obj_error(c->d, o, "id", "an id cannot hold '[': "
			     "'a[3]' names element 3 of counted 'a'");
		return -EINVAL;
	}
	if (!n)
		return 0;
	snprintf(last, sizeof(last), "[%u]", n - 1);
	if (strlen(o->id) + strlen(last) > RDMASCN_ID_MAX) {
		rs_obj_error(c->d, o, "id", "'%s%s' would be longer than %u "
			     "bytes: a shorter id, or a smaller count",
			     o->id, last, RDMASCN_ID_MAX);
		return -EINVAL;
	}
	return 0;
}

/* The elements' ids, "a[0]" .. "a[N-1]", in one block: the entry's id
 * and rs_dec()'s digits, not a snprintf() each (3.4 M instructions of
 * 18.7 M a load of the set-up bench's 3500 elements took). */
static int name_elements(struct rs_scenario *s, struct rs_obj *first,
			 unsigned n)
{
	const char *group = first->id;
	size_t len = strlen(group), each = len + 16;
	char *ids = rs_scenario_block(s, each * n);

	/* "[", at most 10 digits (RS_COUNT_MAX), "]" and the NUL. */
	_Static_assert(RS_COUNT_MAX <= 9999999999ULL, "16 bytes past the id");
	if (!ids)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		char dec[RS_DEC_MAX], *digits = rs_dec(dec + sizeof(dec), i);
		size_t n_digits = (size_t)(dec + sizeof(dec) - digits);
		char *id = ids + each * i;

		memcpy(id, group, len);
		id[len] = '[';
		memcpy(id + len + 1, digits, n_digits);
		id[len + 1 + n_digits] = ']';
		id[len + 2 + n_digits] = '\0';
		first[i].id = id;
	}
	return 0;
}

/* A list naming a counted entry by its bare id names each element: the
 * entry's data is copied once, with the lists that need it made anew,
 * for all its elements (pair_refs() copies from it). */
static int lists_all(struct rs_scenario *s, struct rs_obj *o,
		     const struct rs_idmap *groups, struct rs_diag *d)
{
	unsigned n = rs_obj_count(o) ? rs_obj_count(o) : 1;
	char *copy = NULL;

	for (const struct rdmascn_ref *ref = o->kind->refs; ref && ref->field;
	     ref++) {
		const char *base = copy ? copy : o->data;
		char **list, **grown;
		unsigned len, at = 0;
		uint64_t total = 0;

		/* A list of items (ref->stride) is not grown: each item
		 * names one object. */
		if (ref->count_offset < 0 || ref->after || ref->stride)
			continue;
		list = *(char **const *)(base + ref->offset);
		len = *(const unsigned *)(base + ref->count_offset);
		for (unsigned j = 0; j < len; j++) {
			unsigned g = rs_idmap_get(groups, list[j]);

			total += g == RS_IDMAP_NONE ? 1 :
				 rs_obj_count(&s->objs[g]);
		}
		if (total == len)
			continue;
		/* 2000 names of a 100000-element entry would be 2e8. */
		if (total > RS_LIST_MAX) {
			rs_obj_error(d, o, ref->field, "names %llu objects "
				     "once counted entries are expanded, more "
				     "than the %u a list may name",
				     (unsigned long long)total, RS_LIST_MAX);
			return -EINVAL;
		}
		grown = rs_scenario_block(s, total * sizeof(*grown));
		if (!grown || (!copy &&
				!(copy = rs_scenario_block(s, o->kind->size))))
			return -ENOMEM;
		if (base == o->data)
			memcpy(copy, o->data, o->kind->size);
		for (unsigned j = 0; j < len; j++) {
			unsigned g = rs_idmap_get(groups, list[j]);

			if (g == RS_IDMAP_NONE) {
				grown[at++] = list[j];
				continue;
			}
			for (unsigned k = 0; k < rs_obj_count(&s->objs[g]); k++)
				grown[at++] = (char *)s->objs[g + k].id;
		}
		*(char ***)(copy + ref->offset) = grown;
		*(unsigned *)(copy + ref->count_offset) = (unsigned)total;
	}
	for (unsigned k = 0; copy && k < n; k++)
		o[k].data = copy;
	return 0;
}

/* Which element of @t's entry element @o names by @t's bare id: the same
 * one, or for a `for:` element the pair's from or to when @t is counted
 * like the pattern's `of:` (count_for() allowed no other). */
static unsigned paired_elem(const struct rs_obj *o, const struct rs_obj *t)
{
	const struct rs_pairs *p = rs_obj_pairs(o);
	unsigned from, to;

	if (!p || rs_obj_pairs(t) == p)
		return rs_obj_elem(o);
	rs_pattern_pair(p->pattern, p->n, p->root, rs_obj_elem(o), &from,
			&to);
	return rs_obj_to_side(o) ? to : from;
}

/*
 * The @n elements from @o of one entry, which share its data: where a
 * bare reference of it names a counted entry, each element's names the
 * element of that entry paired_elem() says, in a copy of the data each
 * (one block); when none does, they go on sharing it.  Each reference
 * is looked up once for the entry, not once an element.
 */
static int pair_refs(struct rs_scenario *s, struct rs_obj *o, unsigned n,
		     const struct rs_idmap *groups)
{
	const struct rdmascn_kind *kind = o->kind;
	const char *data = o->data;
	char *copies = NULL;

	for (const struct rdmascn_ref *ref = kind->refs; ref && ref->field;
	     ref++) {
		const char *id;
		unsigned g;

		if (ref->count_offset >= 0)
			continue;
		id = *(char *const *)(data + ref->offset);
		g = id ? rs_idmap_get(groups, id) : RS_IDMAP_NONE;
		if (g == RS_IDMAP_NONE)
			continue;
		if (!copies) {
			copies = rs_scenario_block(s, kind->size * n);
			if (!copies)
				return -ENOMEM;
			for (unsigned k = 0; k < n; k++) {
				memcpy(copies + kind->size * k, data,
				       kind->size);
				o[k].data = copies + kind->size * k;
			}
		}
		for (unsigned k = 0; k < n; k++)
			*(const char **)(copies + kind->size * k +
					 ref->offset) =
				s->objs[g + paired_elem(&o[k],
							&s->objs[g])].id;
	}
	return 0;
}

/* `node: h` on element @o of an entry counted by node set h: its node
 * is h's element paired_elem() names.  Worked out when asked, not kept
 * in each element: few objects have a `node:`, all have room for it. */
const char *rs_obj_node_id(const struct rs_scenario *s,
			   const struct rs_obj *o)
{
	const char *id = o->more ? o->more->node_id : NULL;
	const struct rs_pairs *p = rs_obj_pairs(o);
	unsigned n, e, from, to;
	int first;

	if (!id || !o->more->count ||
	    (first = rs_node_set_find(s, id, &n)) < 0)
		return id;
	e = rs_obj_elem(o);
	if (p) {
		rs_pattern_pair(p->pattern, p->n, p->root, e, &from, &to);
		e = rs_obj_to_side(o) ? to : from;
	}
	return e < n ? s->top->nodes[first + e].id : id;
}

struct rs_obj_more *rs_obj_more(struct rs_scenario *s, struct rs_obj *o)
{
	if (!o->more)
		o->more = rs_doc_alloc(&s->doc, sizeof(*o->more));
	return o->more;
}

int rs_count_expand(struct rs_scenario *s, struct rs_idmap *ids,
		    struct rs_idmap *groups, struct rs_diag *d)
{
	struct counting c = { .s = s, .ids = ids, .d = d };
	struct rs_obj *objs = NULL;
	unsigned *first = NULL, total = 0, n_objects = 0, n_counted = 0;
	int r = -ENOMEM;

	unsigned n_entries = s->n_objs ? s->n_objs : 1;
	unsigned n_pairs = s->top ? s->top->pairs_count : 0;

	c.count = rs_calloc(n_entries, sizeof(*c.count));
	c.state = rs_calloc(n_entries, 1);
	c.origin = rs_calloc(n_entries, sizeof(*c.origin));
	c.for_p = rs_calloc(n_entries, sizeof(*c.for_p));
	c.to_side = rs_calloc(n_entries, sizeof(*c.to_side));
	c.p_state = rs_calloc(n_pairs ? n_pairs : 1, 1);
	first = rs_calloc(n_entries, sizeof(*first));
	if (!c.count || !c.state || !c.origin || !c.for_p || !c.to_side ||
	    !c.p_state || !first)
		goto out;
	if (n_pairs) {
		s->pairs = rs_scenario_block(s, n_pairs * sizeof(*s->pairs));
		if (!s->pairs)
			goto out;
		s->n_pairs = n_pairs;
		if (check_pairs_ids(s, d) < 0)
			fail(&c);
	}
	/* Every pattern, used or not: a bad one is an error anyway. */
	for (unsigned i = 0; i < n_pairs && d->errors < RS_MAX_ERRORS; i++)
		pairs_read(&c, i);
	for (unsigned i = 0; i < s->n_objs && d->errors < RS_MAX_ERRORS; i++)
		count_of(&c, &s->objs[i]);
	for (unsigned i = 0; i < s->n_objs && d->errors < RS_MAX_ERRORS; i++)
		if (check_id(&c, &s->objs[i]) < 0)
			fail(&c);
	r = c.r;
	if (r < 0)
		goto out;
	for (unsigned i = 0; i < s->n_objs; i++) {
		unsigned n = c.count[i] ? c.count[i] : 1;

		/* Past RS_OBJECTS_MAX a file only exhausts the host (and
		 * a step's wr_ids hold its index in 24 bits). */
		if (total + (uint64_t)n > RS_OBJECTS_MAX) {
			rs_obj_error(d, &s->objs[i], "count", "%u makes more "
				     "than %u objects and steps in all, the "
				     "most a scenario may hold", n,
				     RS_OBJECTS_MAX);
			r = -EINVAL;
			goto out;
		}
		first[i] = total;
		total += n;
		n_counted += c.count[i] > 0;
		if (i < s->n_objects)
			n_objects += n;
	}
	if (!n_counted)
		goto out;  /* r is 0: nothing to do */

	r = -ENOMEM;
	objs = rs_calloc(total, sizeof(*objs));
	if (!objs)
		goto out;
	for (unsigned i = 0; i < s->n_objs; i++) {
		const struct rs_obj *e = &s->objs[i];
		unsigned n = c.count[i] ? c.count[i] : 1;
		struct rs_obj_more *more = e->more;

		/* The elements share one block: their element number is
		 * their index less its first. */
		if (c.count[i]) {
			more = rs_doc_alloc(&s->doc, sizeof(*more));
			if (!more)
				goto out;
			if (e->more)
				*more = *e->more;
			more->group = e->id;
			more->first = first[i];
			more->count = n;
			more->pairs = c.for_p[i];
			more->to_side = c.to_side[i];
		}
		for (unsigned k = 0; k < n; k++) {
			struct rs_obj *o = &objs[first[i] + k];

			*o = *e;
			o->index = first[i] + k;
			o->more = more;
			o->parent = e->parent ? &objs[first[e->parent->index]] :
				    NULL;
			if (!c.count[i])
				continue;
			/* Deep numbers are cut; the name keeps the id. */
			if (e->kind->step) {
				char no[RS_STEP_NO_MAX];

				snprintf(no, sizeof(no), "%s[%u]", e->no, k);
				if (rs_obj_number(s, o, no) < 0)
					goto out;
			}
		}
		if (c.count[i] && e->id &&
		    name_elements(s, &objs[first[i]], n) < 0)
			goto out;
		if (c.count[i] && rs_obj_names(s, &objs[first[i]], n) < 0)
			goto out;
	}
	rs_free(s->objs);
	s->objs = objs;
	s->n_objs = total;
	s->n_objects = n_objects;
	objs = NULL;

	rs_idmap_free(groups);
	r = rs_idmap_build_via(groups, &s->objs[0].more, sizeof(*s->objs),
			       offsetof(struct rs_obj_more, group), s->n_objs);
	if (r < 0)
		goto out;
	for (unsigned i = 0; i < s->n_objs;
	     i += rs_obj_count(&s->objs[i]) ? rs_obj_count(&s->objs[i]) : 1) {
		r = lists_all(s, &s->objs[i], groups, d);
		if (r < 0)
			goto out;
	}
	for (unsigned i = 0; i < s->n_objs;) {
		struct rs_obj *o = &s->objs[i];

		if (!rs_obj_count(o)) {
			i++;
			continue;
		}
		r = pair_refs(s, o, rs_obj_count(o), groups);
		if (r < 0)
			goto out;
		i += rs_obj_count(o);
	}
	rs_idmap_free(ids);
	r = rs_idmap_build_stride(ids, &s->objs[0].id, sizeof(*s->objs),
				  s->n_objs);
out:
	rs_free(objs);
	rs_free(first);
	rs_free(c.p_state);
	rs_free(c.to_side);
	rs_free(c.for_p);
	rs_free(c.origin);
	rs_free(c.state);
	rs_free(c.count);
	return r;
}
