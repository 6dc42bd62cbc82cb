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
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "model.h"
#include "suggest.h"

/* Memory a scenario owns beyond what libcyaml filled. */
struct rs_block {
	struct rs_block *next;
	_Alignas(16) char data[];
};

static void *block(struct rs_scenario *s, size_t size)
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

static const struct rs_loc *count_loc(const struct rs_obj *o)
{
	return rs_obj_loc(o, "count");
}

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
			     v->value ? v->value : "");
		fail(c);
		return 0;
	}
	n = *(const uint32_t *)((const char *)o->data + RS_COUNT_AT(o->kind));
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
	unsigned i = o->index;

	/* A reference cycle: the graph names it later. */
	if (c->state[i] == 1)
		return 0;
	if (c->state[i] == 2)
		return c->count[i];
	c->state[i] = 1;
	c->count[i] = count_refs(c, o, given_count(c, o));
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

/* The elements' ids, "a[0]" .. "a[N-1]", in one block. */
static int name_elements(struct rs_scenario *s, struct rs_obj *first,
			 unsigned n)
{
	size_t each = strlen(first->id) + 16;
	char *ids = block(s, each * n);
	const char *group = first->id;

	if (!ids)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		struct rs_obj *o = &first[i];

		snprintf(ids + each * i, each, "%s[%u]", group, i);
		o->id = ids + each * i;
	}
	return 0;
}

static void name_one(struct rs_obj *o)
{
	if (!o->kind->step)
		snprintf(o->name, sizeof(o->name), "%s '%s'", o->kind->name,
			 o->id);
	else if (o->id)
		snprintf(o->name, sizeof(o->name), "step '%s'", o->id);
	else
		snprintf(o->name, sizeof(o->name), "step %s (%s)", o->no,
			 o->kind->section);
}

/* A list naming a counted entry by its bare id names each element: the
 * entry's data is copied once, with the lists that need it made anew,
 * for all its elements (pair_refs() copies from it). */
static int lists_all(struct rs_scenario *s, struct rs_obj *o,
		     const struct rs_idmap *groups, struct rs_diag *d)
{
	unsigned n = o->count ? o->count : 1;
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

			total += g == RS_IDMAP_NONE ? 1 : s->objs[g].count;
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
		grown = block(s, total * sizeof(*grown));
		if (!grown || (!copy && !(copy = block(s, o->kind->size))))
			return -ENOMEM;
		if (base == o->data)
			memcpy(copy, o->data, o->kind->size);
		for (unsigned j = 0; j < len; j++) {
			unsigned g = rs_idmap_get(groups, list[j]);

			if (g == RS_IDMAP_NONE) {
				grown[at++] = list[j];
				continue;
			}
			for (unsigned k = 0; k < s->objs[g].count; k++)
				grown[at++] = (char *)s->objs[g + k].id;
		}
		*(char ***)(copy + ref->offset) = grown;
		*(unsigned *)(copy + ref->count_offset) = (unsigned)total;
	}
	for (unsigned k = 0; copy && k < n; k++)
		o[k].data = copy;
	return 0;
}

/* A reference of @o names a counted entry by its bare id. */
static bool pairs(const struct rs_obj *o, const struct rs_idmap *groups)
{
	for (const struct rdmascn_ref *ref = o->kind->refs; ref && ref->field;
	     ref++) {
		const char *id;

		if (ref->count_offset >= 0)
			continue;
		id = *(char *const *)((const char *)o->data + ref->offset);
		if (id && rs_idmap_get(groups, id) != RS_IDMAP_NONE)
			return true;
	}
	return false;
}

/* Element @o's bare references to counted entries name the same element
 * of theirs: @copy of the data with those pointers changed. */
static void pair_refs(struct rs_scenario *s, struct rs_obj *o,
		      const struct rs_idmap *groups, void *copy)
{
	memcpy(copy, o->data, o->kind->size);
	for (const struct rdmascn_ref *ref = o->kind->refs; ref && ref->field;
	     ref++) {
		const char *id;
		unsigned g;

		if (ref->count_offset >= 0)
			continue;
		id = *(char *const *)((const char *)o->data + ref->offset);
		g = id ? rs_idmap_get(groups, id) : RS_IDMAP_NONE;
		if (g != RS_IDMAP_NONE)
			*(const char **)((char *)copy + ref->offset) =
				s->objs[g + o->elem].id;
	}
	o->data = copy;
}

int rs_count_expand(struct rs_scenario *s, struct rs_idmap *ids,
		    struct rs_idmap *groups, struct rs_diag *d)
{
	struct counting c = { .s = s, .ids = ids, .d = d };
	struct rs_obj *objs = NULL;
	unsigned *first = NULL, total = 0, n_objects = 0, n_counted = 0;
	int r = -ENOMEM;

	c.count = rs_calloc(s->n_objs ? s->n_objs : 1, sizeof(*c.count));
	c.state = rs_calloc(s->n_objs ? s->n_objs : 1, 1);
	first = rs_calloc(s->n_objs ? s->n_objs : 1, sizeof(*first));
	if (!c.count || !c.state || !first)
		goto out;
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

		for (unsigned k = 0; k < n; k++) {
			struct rs_obj *o = &objs[first[i] + k];

			*o = *e;
			o->index = first[i] + k;
			o->parent = e->parent ? &objs[first[e->parent->index]] :
				    NULL;
			if (!c.count[i])
				continue;
			o->group = e->id;
			o->elem = k;
			o->count = n;
			/* Deep numbers are cut; the name keeps the id. */
			if (e->kind->step &&
			    snprintf(o->no, sizeof(o->no), "%s[%u]", e->no,
				     k) >= (int)sizeof(o->no))
				o->no[sizeof(o->no) - 1] = '\0';
		}
		if (c.count[i] && e->id &&
		    name_elements(s, &objs[first[i]], n) < 0)
			goto out;
		for (unsigned k = 0; c.count[i] && k < n; k++)
			name_one(&objs[first[i] + k]);
	}
	rs_free(s->objs);
	s->objs = objs;
	s->n_objs = total;
	s->n_objects = n_objects;
	objs = NULL;

	rs_idmap_free(groups);
	r = rs_idmap_build_stride(groups, &s->objs[0].group, sizeof(*s->objs),
				  s->n_objs);
	if (r < 0)
		goto out;
	for (unsigned i = 0; i < s->n_objs;
	     i += s->objs[i].count ? s->objs[i].count : 1) {
		r = lists_all(s, &s->objs[i], groups, d);
		if (r < 0)
			goto out;
	}
	for (unsigned i = 0; i < s->n_objs;) {
		struct rs_obj *o = &s->objs[i];
		size_t size = o->kind->size;
		char *copies;

		if (!o->count) {
			i++;
			continue;
		}
		if (!pairs(o, groups)) {
			i += o->count;  /* they share the entry's data */
			continue;
		}
		copies = block(s, size * o->count);
		if (!copies) {
			r = -ENOMEM;
			goto out;
		}
		for (unsigned k = 0, n = o->count; k < n; k++, i++)
			pair_refs(s, &s->objs[i], groups, copies + size * k);
	}
	rs_idmap_free(ids);
	r = rs_idmap_build_stride(ids, &s->objs[0].id, sizeof(*s->objs),
				  s->n_objs);
out:
	rs_free(objs);
	rs_free(first);
	rs_free(c.state);
	rs_free(c.count);
	return r;
}
