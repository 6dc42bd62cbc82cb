/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_MODEL_H
#define RDMASCN_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "deviations.h"
#include "diag.h"
#include "dom.h"
#include "facts.h"
#include "idmap.h"
#include "explore.h"
#include "matrix.h"
#include "registry.h"

/* A declared object or step: its kind, its typed data (filled by
 * libcyaml), and where it is in the file. */
/* The longest step number ("3.1.2"), in bytes with its NUL. */
#define RS_STEP_NO_MAX 48

struct rs_obj {
	const struct rdmascn_kind *kind;
	const char *id;          /* declared id; steps may have none */
	/* "qp 'a'" or "step 3 (write)", for messages, and a step's number
	 * ("3", "3.1" inside step 3; "" for an object): made at their
	 * length in the DOM's arena (rs_obj_name()), not inline, where
	 * they were 144 of 264 bytes an object. */
	const char *name;
	const char *no;
	void *data;
	struct rs_node *node;    /* its mapping in the DOM */
	struct rs_obj *parent;   /* the step a nested step belongs to */
	struct rs_edge *edges;   /* what this one needs before it */
	unsigned index;          /* declaration order, all kinds together */
	unsigned n_edges;
	/* `nodes:` (nodes.c): the node it is made or run on, the other
	 * one a spanning reference reaches (a connection's far QP, a
	 * step's remote MR), each RS_NODE_ANY when none. */
	int on, on_peer;
	/* What few objects have (a count, a `node:`, an `expect:`), NULL
	 * for the rest: 88 bytes an object, not 120.  Read it with the
	 * rs_obj_*() below. */
	struct rs_obj_more *more;
};

_Static_assert(sizeof(void *) != 8 || sizeof(struct rs_obj) == 88,
	       "struct rs_obj is 88 bytes on 64-bit hosts");

/* An object's rarer facts, one block for all the elements of a counted
 * entry (an element's number is its index less @first). */
struct rs_obj_more {
	/* An element of a counted entry (`count: N`, or a bare reference
	 * to one): id "a[17]", group "a", element 17 of count N; its data
	 * is the entry's, or a copy whose references name elements.
	 * Uncounted: group NULL, count 0. */
	const char *group;
	unsigned first, count;
	/* The `node:` its entry gives, NULL when none; an element's own
	 * is rs_obj_node_id()'s. */
	const char *node_id;
	/* Once counted: the pattern it is for and its side (true: .to). */
	const struct rs_pairs *pairs;
	/* An object entry's `count:` (0: none) and `for:` (NULL), read
	 * from past its kind's struct before that tail is cut off (see
	 * build_objects()); count.c reads them. */
	const char *for_id;
	unsigned given;
	/* expect: {create: fail}: its create is to fail, with this errno
	 * (0: any; below 200: a byte); expect.c read it. */
	uint8_t expect_errno;
	bool expect_fail;
	bool to_side;
};

static inline const char *rs_obj_group(const struct rs_obj *o)
{
	return o->more ? o->more->group : NULL;
}

static inline unsigned rs_obj_count(const struct rs_obj *o)
{
	return o->more ? o->more->count : 0;
}

static inline unsigned rs_obj_elem(const struct rs_obj *o)
{
	return o->more && o->more->count ? o->index - o->more->first : 0;
}

static inline const struct rs_pairs *rs_obj_pairs(const struct rs_obj *o)
{
	return o->more ? o->more->pairs : NULL;
}

static inline bool rs_obj_to_side(const struct rs_obj *o)
{
	return o->more && o->more->to_side;
}

static inline bool rs_obj_expect_fail(const struct rs_obj *o)
{
	return o->more && o->more->expect_fail;
}

static inline int rs_obj_expect_errno(const struct rs_obj *o)
{
	return o->more ? o->more->expect_errno : 0;
}

#define RS_NODE_ANY (-1)

struct rs_edge {
	struct rs_obj *to;
	/* The reference field, "after", "steps" or "sequence", as
	 * rs_edge_field() reads it: a byte, not a pointer, so an edge is
	 * 16 bytes, not 24 (2.9 edges an object). */
	uint8_t field;
	bool order_only;
	bool spans;              /* may reach another node (rdmascn_ref) */
	bool one_context;        /* on the object's verbs context (same) */
	uint8_t layout;          /* enum rdmascn_layout (same) */
};

struct rs_param {
	char *name;
	char *value;
	struct rs_node *node;    /* its declaration */
	const char *env;         /* the variable that may override it */
	bool set;                /* given with --set */
	char *owned;             /* value, when its ${} were expanded */
};

/* A device fact a ${} names: its value, assumed without a device. */
struct rs_fact_use {
	const char *ctx;         /* the context's id (the DOM's text) */
	const struct rs_fact *fact;
	struct rs_fact_val val;
	struct rs_loc loc;       /* its first ${} */
	bool assumed;
};

/* What the facts of a context's device are, once it was probed: 0 and
 * *@ret, or -errno. */
struct rs_fact_resolver {
	int (*get)(void *arg, const char *ctx, const struct rs_fact *f,
		   struct rs_fact_val *ret);
	void *arg;
};

struct rs_text_edit {
	size_t orig_start, orig_end, new_start, new_end;
};

struct rs_scenario {
	struct rs_doc doc;
	char *text;              /* what libcyaml read, when ${} changed it */
	size_t text_len;
	struct rs_text_edit *edits;
	size_t n_edits;
	struct rs_top *top;
	bool top_in_doc;         /* filled from the DOM (fill.h), not libcyaml */
	struct rs_param *params;
	unsigned n_params;
	/* ${CTX.GROUP.FIELD}: each fact once; NULL facts: assumed. */
	struct rs_fact_use *fact_uses;
	unsigned n_fact_uses;
	const struct rs_fact_resolver *facts;
	/* What it was loaded from, for rs_scenario_reload(). */
	char *path;
	const struct rs_set *sets;
	unsigned n_sets;
	struct rs_obj *objs;     /* objects, then steps, in declaration order */
	unsigned n_objs, n_objects;
	struct rs_obj **create;  /* creation order (objects only) */
	struct rs_obj **steps;   /* execution order (steps only) */
	unsigned n_steps;
	struct rs_matrix matrix; /* `matrix:`, --set applied */
	struct rs_explore explore; /* `explore:`, what a search varies */
	struct rs_deviations deviations; /* its own `deviations:` */
	struct rs_gate *gates;   /* `gates:`, on the run's counters; NULL */
	struct rs_block *blocks; /* counted entries' ids and data copies */
	/* `nodes:` as declared, while top->nodes is the expanded list
	 * (node sets' elements one by one); put back to be freed. */
	struct rs_node_decl *nodes_decl;
	unsigned n_nodes_decl;
	/* `pairs:`, checked: pattern over what, how many pairs. */
	struct rs_pairs *pairs;
	unsigned n_pairs;
};

/* One `pairs:` entry once read (count.c): @pattern over the @n elements
 * of @of, @count pairs; its elements' origin (see count.c) is @origin. */
struct rs_pairs {
	const struct rs_pairs_decl *decl;
	int pattern;             /* enum rs_pattern */
	unsigned n, root;
	uint64_t count;
	const void *origin;
};

struct rs_set {
	const char *name;
	const char *value;
};

/* Load, check references and build the plan.  Returns 0, -EINVAL for an
 * invalid scenario (reported through @d), or -errno. */
int rs_scenario_load(const char *path, const struct rs_set *sets,
		     unsigned n_sets, struct rs_diag *d,
		     struct rs_scenario **ret);
/* The same for a scenario only looked at (validate, plan): its file's
 * text (s->doc.text) is freed once the structs are filled, unless a
 * matrix's cells are to be loaded from it.  No reload, sha256 nor run
 * from what it returns. */
int rs_scenario_look(const char *path, const struct rs_set *sets,
		     unsigned n_sets, struct rs_diag *d,
		     struct rs_scenario **ret);
/* Load @s's file again with its sets, the device facts from @facts
 * instead of assumed: a run does, once it probed its devices. */
int rs_scenario_reload(const struct rs_scenario *s,
		       const struct rs_fact_resolver *facts,
		       struct rs_diag *d, struct rs_scenario **ret);
/* Load @s's file again, from the text @s read (not the disk), with
 * @sets instead of its own: a cell of its matrix.  @sets must outlive
 * *@ret.  As rs_scenario_load(). */
int rs_scenario_load_cell(const struct rs_scenario *s,
			  const struct rs_set *sets, unsigned n_sets,
			  struct rs_diag *d, struct rs_scenario **ret);
void rs_scenario_free(struct rs_scenario *s);

/* @o's name from its kind, id and number ("qp 'a'", "step 'w'", "step 3
 * (write)"), and @no as its step number (cut at RS_STEP_NO_MAX - 1
 * bytes; NULL: ""), in @s's DOM arena.  0 or -ENOMEM. */
int rs_obj_name(struct rs_scenario *s, struct rs_obj *o);
int rs_obj_names(struct rs_scenario *s, struct rs_obj *o, unsigned n);
int rs_obj_number(struct rs_scenario *s, struct rs_obj *o, const char *no);
/* @o's own block of rarer facts, made (in @s's DOM arena) if it has
 * none: NULL for no memory. */
struct rs_obj_more *rs_obj_more(struct rs_scenario *s, struct rs_obj *o);
/* The `node:` @o is made or run on: its entry's, or for an element of
 * a count over a node set the set's element it pairs with; NULL when
 * none. */
const char *rs_obj_node_id(const struct rs_scenario *s,
			   const struct rs_obj *o);

/* Where a field of an object is: its value node, or the object's own
 * mapping when the field is absent.  @path is dotted ("cap.max_send_wr").
 * Into @ret; rs_obj_loc() into a location that lives as long as the
 * enclosing block (rs_node_loc()): pass it on, do not keep it. */
const struct rs_loc *rs_obj_loc_to(const struct rs_obj *obj,
				   const char *path, struct rs_loc *ret);
#define rs_obj_loc(obj, path) \
	rs_obj_loc_to((obj), (path), &(struct rs_loc){ 0 })
bool rs_obj_has(const struct rs_obj *obj, const char *path);
/* For a check that needs another object's number (a verify's mr's
 * length) without its kind's struct: the field's value as libcyaml read
 * it; false when absent or not a number. */
bool rs_obj_uint(const struct rs_obj *obj, const char *path, uint64_t *ret);
/* The object @obj refers to through its field @field (references are
 * resolved before check()), NULL if none. */
const struct rs_obj *rs_obj_target(const struct rs_obj *obj,
				   const char *field);
/* The field of @obj's edge @e: "qp", "after", "steps", "sequence"... */
const char *rs_edge_field(const struct rs_obj *obj, const struct rs_edge *e);
void rs_obj_error(struct rs_diag *d, const struct rs_obj *obj,
		  const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Counts (count.c): make each counted entry's elements, from the entries
 * build_objects() made (one rs_obj each, ids in @ids), and give each
 * element references that name elements.  Rebuilds @ids over the
 * elements; @groups maps a counted entry's id to its first element.
 */
int rs_count_expand(struct rs_scenario *s, struct rs_idmap *ids,
		    struct rs_idmap *groups, struct rs_diag *d);
void rs_count_free(struct rs_scenario *s);
/* "a[3]" -> base length 1, element 3: 1; no '[': 0; malformed: -1. */
int rs_count_parse(const char *id, size_t *ret_len, unsigned *ret_elem);
/* @size bytes the scenario owns, zeroed, freed with it; NULL. */
void *rs_scenario_block(struct rs_scenario *s, size_t size);
/* The j-th id of list reference @ref in the entry @data: a list of ids,
 * or of items @ref->stride bytes each, the id at @ref->item_offset in
 * each (an item naming nothing: NULL). */
static inline const char *rs_ref_item(const struct rdmascn_ref *ref,
				      const void *data, unsigned j)
{
	const char *items = *(char *const *)((const char *)data + ref->offset);

	return ref->stride ? *(char *const *)(items + (size_t)j * ref->stride +
					      ref->item_offset) :
			     ((char *const *)items)[j];
}

/* The first element of a counted object @o belongs to. */
static inline const struct rs_obj *rs_obj_first(const struct rs_obj *o)
{
	return o - rs_obj_elem(o);
}
/* The value of @obj's top-level integer, enum or bool field @key, read
 * through its kind's field table; false when the file does not give it. */
bool rs_obj_field_int(const struct rs_obj *obj, const char *key,
		      int64_t *ret);
/* The same of a string field: 0 with *@ret its value, NULL when the
 * file does not give it; -ENOENT when @obj's kind has no such field
 * (a check asks what an object says, not which kind it is). */
int rs_obj_field_str(const struct rs_obj *obj, const char *key,
		     const char **ret);

/* Graph: creation order of objects, execution order of steps; cycles are
 * reported with their whole path. */
int rs_graph_plan(struct rs_scenario *s, struct rs_diag *d);

/* Node sets (nodes.c): expand `nodes:` into top->nodes, one entry per
 * element of a counted entry or a host range ("node[01-16]"), checking
 * ids and addresses; an error through @d is -EINVAL. */
int rs_nodes_expand(struct rs_scenario *s, struct rs_diag *d);
/* The node set (counted `nodes:` entry) named @id: its first node's
 * index and *@ret_n; -1 when @id is no node set. */
int rs_node_set_find(const struct rs_scenario *s, const char *id,
		     unsigned *ret_n);

/* Nodes (nodes.c): place every object and step on a node of `nodes:`;
 * an object whose references span nodes, where only a connection's QPs
 * and a step's remote MR or peer may, is an error through @d. */
int rs_nodes_place(struct rs_scenario *s, struct rs_diag *d);
/* How many nodes the file declares (0: none, one process as always). */
static inline unsigned rs_nodes_count(const struct rs_scenario *s)
{
	return s->top ? s->top->nodes_count : 0;
}
/* Node @i's name; "" for RS_NODE_ANY. */
const char *rs_node_name(const struct rs_scenario *s, int i);
/* Node @i's `device:`, which its contexts open where they say any; NULL:
 * none given, or RS_NODE_ANY. */
const char *rs_node_device(const struct rs_scenario *s, int i);
/* The node named @id, or RS_NODE_ANY. */
/* The nodes' ids as "a, b, c" into @buf (cut at @len). */
void rs_nodes_list(const struct rs_scenario *s, char *buf, size_t len);
int rs_node_find(const struct rs_scenario *s, const char *id);
/* @o is made (or its step runs) on node @i, in part or whole: a
 * connection across nodes is on both.  RS_NODE_ANY (no role, a dry run)
 * plays every node, so the connection between two is there too. */
static inline bool rs_obj_on(const struct rs_obj *o, int i)
{
	return i == RS_NODE_ANY || o->on == RS_NODE_ANY || o->on == i ||
	       o->on_peer == i;
}
/* Step @o runs on node @i: where its QP is; on the other node only the
 * half of a step whose `peer` QP is there (pingpong's answering side).
 * A step whose remote MR is there does not run there. */
bool rs_step_on(const struct rs_obj *o, int i);

#endif
