/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_MODEL_H
#define RDMASCN_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "deviations.h"
#include "diag.h"
#include "dom.h"
#include "matrix.h"
#include "registry.h"

/* A declared object or step: its kind, its typed data (filled by
 * libcyaml), and where it is in the file. */
/* The longest step number ("3.1.2"), in bytes with its NUL. */
#define RS_STEP_NO_MAX 48

struct rs_obj {
	const struct rdmascn_kind *kind;
	const char *id;          /* declared id; steps may have none */
	char name[RDMASCN_ID_MAX + 32]; /* "qp 'a'" or "step 3 (write)", for messages */
	char no[RS_STEP_NO_MAX]; /* a step's number: "3", "3.1" inside step 3 */
	void *data;
	struct rs_node *node;    /* its mapping in the DOM */
	unsigned index;          /* declaration order, all kinds together */
	struct rs_obj *parent;   /* the step a nested step belongs to */
	struct rs_edge *edges;   /* what this one needs before it */
	unsigned n_edges;
};

struct rs_edge {
	struct rs_obj *to;
	const char *field;       /* the reference field; "after"; "sequence" */
	bool order_only;
};

struct rs_param {
	char *name;
	char *value;
	struct rs_node *node;    /* its declaration */
	const char *env;         /* the variable that may override it */
	bool set;                /* given with --set */
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
	struct rs_param *params;
	unsigned n_params;
	struct rs_obj *objs;     /* objects, then steps, in declaration order */
	unsigned n_objs, n_objects;
	struct rs_obj **create;  /* creation order (objects only) */
	struct rs_obj **steps;   /* execution order (steps only) */
	unsigned n_steps;
	struct rs_matrix matrix; /* `matrix:`, --set applied */
	struct rs_deviations deviations; /* its own `deviations:` */
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
void rs_scenario_free(struct rs_scenario *s);

/* Where a field of an object is: its value node, or the object's own
 * mapping when the field is absent.  @path is dotted ("cap.max_send_wr"). */
const struct rs_loc *rs_obj_loc(const struct rs_obj *obj, const char *path);
bool rs_obj_has(const struct rs_obj *obj, const char *path);
void rs_obj_error(struct rs_diag *d, const struct rs_obj *obj,
		  const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* For checks that need the object a reference names (after the
 * references resolved): the target of @obj's reference field @field, or
 * NULL when it is absent or did not resolve. */
const struct rs_obj *rs_obj_target(const struct rs_obj *obj,
				   const char *field);
/* The value of @obj's top-level integer, enum or bool field @key, read
 * through its kind's field table; false when the file does not give it. */
bool rs_obj_field_int(const struct rs_obj *obj, const char *key,
		      int64_t *ret);

/* Graph: creation order of objects, execution order of steps; cycles are
 * reported with their whole path. */
int rs_graph_plan(struct rs_scenario *s, struct rs_diag *d);

#endif
