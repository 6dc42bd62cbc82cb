/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_REGISTRY_H
#define RDMASCN_REGISTRY_H

#include "public_names.h"
#include "rdmascn/kind.h"

#define RS_MAX_KINDS 64
/* Of them step types: a `steps:` entry holds a pointer for each (512
 * bytes a step at 64, 256 at 32; the core registers 17). */
#define RS_MAX_STEP_TYPES 32

/*
 * Object kinds and step types, core and plugin, each in registration order
 * (which is also section order in messages, `plan` and `schema`).  The
 * index of an object kind is its slot in rs_top.sections, that of a step
 * type its slot in rs_step_entry.types.  Registering after
 * rs_registry_schema() was first called is refused (-ENOSPC), and so is a
 * kind of RS_EDGE_STEPS references or more (-E2BIG).
 */
int rs_registry_add(const struct rdmascn_kind *kind);
unsigned rs_registry_count(bool step);
const struct rdmascn_kind *rs_registry_at(bool step, unsigned i);
const struct rdmascn_kind *rs_registry_find(const char *section_or_name,
					    bool step);
/* QP kinds whose sends name their destination (rdmascn/kind.h's struct
 * rdmascn_wr_dest): add one; the entry of a kind's name, NULL if none. */
int rs_wr_dest_add(const struct rdmascn_wr_dest *d);
const struct rdmascn_wr_dest *rs_wr_dest_find(const char *kind);
/* Kinds whose objects a WR of their own registers (rdmascn/kind.h's
 * struct rdmascn_wr_reg): add one; the entry of a kind's name. */
int rs_wr_reg_add(const struct rdmascn_wr_reg *r);
const struct rdmascn_wr_reg *rs_wr_reg_find(const char *kind);

/*
 * The top-level document: fixed head, then one (pointer, count) pair per
 * registered object kind, then the steps.  Offsets come from
 * rs_doc_section_offset(); the schema from rs_registry_schema() (NULL
 * when there was no memory for it: asked again, it tries again).
 */
/* requires.facts[i]: a bound on a fact of every context's device. */
struct rs_fact_bound {
	char *fact;          /* "device.max_dm_size" */
	uint64_t *min, *max; /* NULL: not given */
	char *equals;        /* a number or a text fact's word */
	const struct rs_fact *f; /* set by rs_requires_check() */
};

struct rs_requires {
	uint32_t qp_types;   /* RS_QPT_* bits */
	uint32_t features;   /* RS_FEAT_* bits */
	int link_layer;      /* enum rs_link_layer */
	struct rs_fact_bound *facts;
	unsigned facts_count;
	uint32_t uniform;    /* enum rs_uniform bits */
	/* Counters every context's device must have (the kernel's names,
	 * in its port's or its own sysfs counters directories). */
	char **counters;
	unsigned counters_count;
};

/* nodes[i]: a process of the run (`nodes:`), on a host of its own or
 * not; its contexts' objects are made there. */
struct rs_node_decl {
	char *id;
	char *address;       /* where the others reach it; NULL: not given */
	char *device;        /* its contexts' default device; NULL: theirs */
	uint32_t count;      /* a node set: count: N (0: not given) */
	/* Set by rs_nodes_expand() on the expanded list, which replaces the
	 * declared one: a node set's element "h[3]" has group "h" (the
	 * declaration's id), elem 3 of count N; decl is the declaration's
	 * index in `nodes:`, for locations. */
	const char *group;
	unsigned elem, n_elems, decl;
};

/* pairs[i]: a traffic pattern over a counted entry or a node set,
 * `{id: nb, pattern: ring, of: h, root: 0}` (pattern.h numbers them). */
struct rs_pairs_decl {
	char *id;
	char *pattern;
	char *of;
	uint32_t root;
};

struct rs_top {
	char *scenario;
	char *description;
	struct rs_requires *requires;
	struct rs_node_decl *nodes;
	unsigned nodes_count;
	struct rs_pairs_decl *pairs;
	unsigned pairs_count;
	struct rs_step_entry *steps;
	unsigned steps_count;
	struct {
		void *items;
		unsigned count;
	} sections[RS_MAX_KINDS];
};

/* An edge's field: its reference's index in the kind's refs, or one of
 * these (struct rs_edge; a kind has fewer references: rs_registry_add() refuses more). */
enum {
	RS_EDGE_STEPS = 254,     /* "steps": a nested step's parent */
	RS_EDGE_SEQUENCE = 255,  /* "sequence": the step before */
};

/* One `steps:` entry: one pointer per registered step type, all NULL but
 * one in a valid file. */
struct rs_step_entry {
	void *types[RS_MAX_STEP_TYPES];
};

struct rs_gate;

/* Common fields of every step type; a step's struct starts with it. */
struct rs_step_common {
	char *id;
	char **after;
	unsigned after_count;
	uint64_t deadline_ms;
	struct rs_gate *gate;    /* bounds on its figures (gate.h) */
	char *for_id;            /* `for: P.from`: once per pair of P */
};

/*
 * `count: N` and `node: NAME` on any object entry: libcyaml stores them
 * past the kind's struct, so a section's items are RS_ITEM_SIZE() bytes
 * apart, the count (uint32_t, 0: not given) at RS_COUNT_AT() and the
 * node's name (char *, NULL: not given) at RS_NODE_AT() in each.  Read
 * once into the object's block (load.c's read_tail()): after that the
 * entries rs_fill() made are RS_COUNT_AT() bytes apart, without them
 * (libcyaml's keep the layout it frees them by).
 */
#define RS_COUNT_AT(kd) ((((kd)->size) + 7u) & ~7u)
#define RS_NODE_AT(kd) (RS_COUNT_AT(kd) + 8u)
/* `expect:` likewise: a struct rs_expect * (NULL: not given). */
#define RS_EXPECT_AT(kd) (RS_COUNT_AT(kd) + 16u)
/* `for: P.from` (char *, NULL: not given): one per pair of pattern P. */
#define RS_FOR_AT(kd) (RS_COUNT_AT(kd) + 24u)
#define RS_ITEM_SIZE(kd) (RS_COUNT_AT(kd) + 32u)

/* expect: {create: fail, errno: EINVAL} on an object entry: its create
 * is to fail (with that errno: a name or a number; none: any). */
enum rs_expect_create { RS_EXPECT_FAIL = 1 };
struct rs_expect {
	int create;              /* enum rs_expect_create */
	char *err;               /* errno as written; NULL: any */
};

struct rs_obj;
struct rs_scenario;
struct rs_diag;
/* @o's expect: into its block (rs_obj_more()), or an error at
 * expect.errno naming what an errno may be. */
int rs_expect_read(struct rs_scenario *s, struct rs_obj *o,
		   struct rs_diag *d);
/* A reference to (or `after:`) an object whose create is to fail is an
 * error at the reference, naming that object. */
int rs_expect_check_refs(struct rs_scenario *s, struct rs_diag *d);
/* The most elements one entry may make. */
#define RS_COUNT_MAX 100000u
/* The most objects and steps a scenario may hold, counts expanded: a
 * million is what bench/validate_scale.sh measures (1.4 GB to
 * validate); past it a file only exhausts the host. */
#define RS_OBJECTS_MAX 1000000u
/* The most objects one list may name once counted entries in it are
 * expanded, and the most references of all objects together. */
#define RS_LIST_MAX 1000000u
#define RS_REFS_MAX 10000000u

const cyaml_schema_value_t *rs_registry_schema(void);
/* The schema of one `steps:` entry, for step types that nest steps. */
extern const cyaml_schema_value_t rs_step_entry_schema;

#endif
