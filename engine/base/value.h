/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_VALUE_H
#define RDMASCN_VALUE_H

#include <json-c/json.h>

/*
 * Results are data: commands build a tree of values and a reporter prints
 * it (JSON here; tables, JUnit and others walk the same tree).  Builders
 * never check each call: a failed allocation marks the container, and
 * rs_val_check() reports it once at the end.  The tree is a json-c one
 * (struct rs_val is a struct json_object), for what the builder does not
 * say; the builders keep members in the order they were added.  Plugins
 * call the builders as rdmascn_val_* (rdmascn/value.h, value_api.c).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"

struct rs_val;

enum rs_val_type {
	RS_VAL_NULL,
	RS_VAL_BOOL,
	RS_VAL_INT,
	RS_VAL_UINT,
	RS_VAL_DOUBLE,
	RS_VAL_STR,
	RS_VAL_ARR,
	RS_VAL_OBJ,
};

/* An empty object or array; NULL when out of memory. */
struct rs_val *rs_val_obj(void);
struct rs_val *rs_val_arr(void);
void rs_val_free(struct rs_val *v);
int rs_val_check(const struct rs_val *v);

/* Scalars on their own, to add to an array or an object. */
struct rs_val *rs_val_str(const char *s);
struct rs_val *rs_val_u64(uint64_t u);
struct rs_val *rs_val_i64(int64_t i);
struct rs_val *rs_val_bool(bool b);
struct rs_val *rs_val_double(double d);

/* Add @child (owned from here on, freed on failure) to an array or, with
 * a key, to an object.  Returns @child, or NULL. */
struct rs_val *rs_val_push(struct rs_val *arr, struct rs_val *child);
struct rs_val *rs_val_put(struct rs_val *obj, const char *key,
			  struct rs_val *child);
struct rs_val *rs_val_put_obj(struct rs_val *obj, const char *key);
struct rs_val *rs_val_put_arr(struct rs_val *obj, const char *key);
void rs_val_put_str(struct rs_val *obj, const char *key, const char *s);
void rs_val_put_strf(struct rs_val *obj, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void rs_val_put_vstrf(struct rs_val *obj, const char *key, const char *fmt,
		      va_list ap) __attribute__((format(printf, 3, 0)));
void rs_val_put_u64(struct rs_val *obj, const char *key, uint64_t u);
void rs_val_put_i64(struct rs_val *obj, const char *key, int64_t i);
void rs_val_put_bool(struct rs_val *obj, const char *key, bool b);
void rs_val_put_double(struct rs_val *obj, const char *key, double d);
struct rs_val *rs_val_push_obj(struct rs_val *arr);
void rs_val_push_str(struct rs_val *arr, const char *s);

const struct rs_val *rs_val_get(const struct rs_val *obj, const char *key);
const char *rs_val_get_str(const struct rs_val *obj, const char *key);
uint64_t rs_val_get_u64(const struct rs_val *obj, const char *key);
double rs_val_get_double(const struct rs_val *obj, const char *key);

/* Reading a tree: its type, the length of an array (or the members of an
 * object), the item of an array at @i. */
enum rs_val_type rs_val_type_of(const struct rs_val *v);
size_t rs_val_len(const struct rs_val *v);
const struct rs_val *rs_val_at(const struct rs_val *arr, size_t i);

int rs_val_write_json(FILE *f, const struct rs_val *v, bool pretty);

/* @loc (NULL: nothing) as @e's "file", "line" and "col".  Inline: not a
 * plugin's call (struct rs_loc is not public). */
static inline void rs_val_put_loc(struct rs_val *e, const struct rs_loc *loc)
{
	if (!loc)
		return;
	rs_val_put_str(e, "file", loc->file);
	rs_val_put_u64(e, "line", loc->line);
	rs_val_put_u64(e, "col", loc->col);
}

/* A string member of @obj, "" when it has none: for printing. */
static inline const char *rs_val_text(const struct rs_val *obj,
				      const char *key)
{
	const char *s = rs_val_get_str(obj, key);

	return s ? s : "";
}

static inline struct json_object *rs_val_json(const struct rs_val *v)
{
	return (struct json_object *)v;
}

static inline struct rs_val *rs_val_of(struct json_object *j)
{
	return (struct rs_val *)j;
}

#endif
