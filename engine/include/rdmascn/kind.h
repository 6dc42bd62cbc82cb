/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_KIND_H_PUBLIC
#define RDMASCN_KIND_H_PUBLIC

#include <stdbool.h>
#include <stdint.h>

#include <cyaml/cyaml.h>

/*
 * An object kind (a section of the scenario, e.g. `qps:`) or a step type
 * (a key of a `steps:` entry, e.g. `write:`).  The schema is libcyaml
 * field data; the top-level schema is assembled from the registered kinds,
 * so a plugin adds sections the same way the core does.
 */
struct rs_obj;
struct rs_diag;

/* A field of the object that names other objects by id. */
struct rdmascn_ref {
	const char *field;           /* dotted path, for messages and graph labels */
	uint32_t offset;             /* of a char * (or char ** when listed) */
	int32_t count_offset;        /* -1: one id; else offset of an unsigned count */
	const char *const *kinds;    /* accepted target kinds, NULL-terminated; NULL: any */
	bool after;                  /* an ordering edge only (`after:`) */
};

#define RDMASCN_KINDS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* The longest id, in bytes. */
#define RDMASCN_ID_MAX 64

struct rdmascn_kind {
	const char *name;            /* "qp": used in messages */
	const char *section;         /* "qps" for objects; the key for steps */
	const char *summary;
	const cyaml_schema_field_t *fields;
	uint32_t size;               /* of the struct the fields fill */
	uint32_t id_offset;          /* of `char *id` */
	const struct rdmascn_ref *refs; /* ends with { NULL } */
	bool step;
	/* Checks the schema cannot express; errors through rs_obj_error(). */
	int (*check)(struct rs_obj *obj, struct rs_diag *d);
	/* Step types that hold steps (`parallel:`): where the nested
	 * `struct rs_step_entry *` and its unsigned count are; 0 if none. */
	uint32_t children_offset;
	uint32_t children_count_offset;
};

#endif
