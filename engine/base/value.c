// SPDX-License-Identifier: MIT
/*
 * The value tree, on json-c.  A struct rs_val is a struct json_object.
 * Builders tolerate a NULL parent (its own allocation failed) and mark a
 * container whose child could not be added, so that a builder never
 * checks each call and rs_val_check() says it once, at the end.
 */
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "value.h"

/* The userdata of a container that lost a child. */
static char oom_mark;

#define J(v) rs_val_json(v)

static struct rs_val *mark_oom(struct rs_val *parent)
{
	if (parent)
		json_object_set_userdata(J(parent), &oom_mark, NULL);
	return NULL;
}

struct rs_val *rs_val_obj(void)
{
	return rs_val_of(json_object_new_object());
}

struct rs_val *rs_val_arr(void)
{
	return rs_val_of(json_object_new_array());
}

void rs_val_free(struct rs_val *v)
{
	json_object_put(J(v));
}

int rs_val_check(const struct rs_val *v)
{
	struct json_object *j = J(v);

	if (!j || json_object_get_userdata(j) == &oom_mark)
		return -ENOMEM;
	if (json_object_is_type(j, json_type_object)) {
		json_object_object_foreach(j, key, m) {
			(void)key;
			if (rs_val_check(rs_val_of(m)) < 0)
				return -ENOMEM;
		}
	} else if (json_object_is_type(j, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(j); i++)
			if (rs_val_check(rs_val_at(v, i)) < 0)
				return -ENOMEM;
	}
	return 0;
}

struct rs_val *rs_val_push(struct rs_val *arr, struct rs_val *child)
{
	if (!arr) {
		rs_val_free(child);
		return NULL;
	}
	if (!child || json_object_array_add(J(arr), J(child))) {
		rs_val_free(child);
		return mark_oom(arr);
	}
	return child;
}

struct rs_val *rs_val_put(struct rs_val *obj, const char *key,
			  struct rs_val *child)
{
	if (!obj) {
		rs_val_free(child);
		return NULL;
	}
	if (!child || json_object_object_add(J(obj), key, J(child))) {
		rs_val_free(child);
		return mark_oom(obj);
	}
	return child;
}

struct rs_val *rs_val_put_obj(struct rs_val *obj, const char *key)
{
	return obj ? rs_val_put(obj, key, rs_val_obj()) : NULL;
}

struct rs_val *rs_val_put_arr(struct rs_val *obj, const char *key)
{
	return obj ? rs_val_put(obj, key, rs_val_arr()) : NULL;
}

struct rs_val *rs_val_str(const char *s)
{
	return rs_val_of(json_object_new_string(s ? s : ""));
}

struct rs_val *rs_val_u64(uint64_t u)
{
	return rs_val_of(json_object_new_uint64(u));
}

struct rs_val *rs_val_i64(int64_t i)
{
	return rs_val_of(json_object_new_int64(i));
}

struct rs_val *rs_val_bool(bool b)
{
	return rs_val_of(json_object_new_boolean(b));
}

/* Written with the fewest digits that read back as the same double,
 * so 704.9 stays 704.9 in the JSON.  A decimal of up to 15 significant
 * digits (DBL_DIG) survives the trip to a double and back at 15, and %g
 * drops the zeros that pad it: so 15 gives what the shortest of 6..15
 * would, and only 16 and 17 are left to try.  (Trying each from 6 up
 * was a dozen snprintf()s and strtod()s for a measured time, once per
 * object created: in perf, printf_fp, strtod and vfprintf were about 6%
 * of a 400-QP run's samples, the most of any of rdmascn's own code.) */
struct rs_val *rs_val_double(double d)
{
	char buf[32];

	/* (A subnormal holds fewer digits: from 6, as before.) */
	for (int prec = isnormal(d) || d == 0 ? 15 : 6; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	return rs_val_of(json_object_new_double_s(d, buf));
}

void rs_val_put_str(struct rs_val *obj, const char *key, const char *s)
{
	if (obj)
		rs_val_put(obj, key, rs_val_str(s));
}

void rs_val_put_vstrf(struct rs_val *obj, const char *key, const char *fmt,
		      va_list ap)
{
	char buf[512];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	rs_val_put_str(obj, key, buf);
}

void rs_val_put_strf(struct rs_val *obj, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rs_val_put_vstrf(obj, key, fmt, ap);
	va_end(ap);
}

void rs_val_put_u64(struct rs_val *obj, const char *key, uint64_t u)
{
	if (obj)
		rs_val_put(obj, key, rs_val_u64(u));
}

void rs_val_put_i64(struct rs_val *obj, const char *key, int64_t i)
{
	if (obj)
		rs_val_put(obj, key, rs_val_i64(i));
}

void rs_val_put_bool(struct rs_val *obj, const char *key, bool b)
{
	if (obj)
		rs_val_put(obj, key, rs_val_bool(b));
}

void rs_val_put_double(struct rs_val *obj, const char *key, double d)
{
	if (obj)
		rs_val_put(obj, key, rs_val_double(d));
}

struct rs_val *rs_val_push_obj(struct rs_val *arr)
{
	return arr ? rs_val_push(arr, rs_val_obj()) : NULL;
}

void rs_val_push_str(struct rs_val *arr, const char *s)
{
	if (arr)
		rs_val_push(arr, rs_val_str(s));
}

const struct rs_val *rs_val_get(const struct rs_val *obj, const char *key)
{
	struct json_object *m = NULL;

	if (!obj || !json_object_is_type(J(obj), json_type_object) ||
	    !json_object_object_get_ex(J(obj), key, &m))
		return NULL;
	return rs_val_of(m);
}

const char *rs_val_get_str(const struct rs_val *obj, const char *key)
{
	const struct rs_val *v = rs_val_get(obj, key);

	return v && json_object_is_type(J(v), json_type_string) ?
	       json_object_get_string(J(v)) : NULL;
}

uint64_t rs_val_get_u64(const struct rs_val *obj, const char *key)
{
	const struct rs_val *v = rs_val_get(obj, key);

	return v && json_object_is_type(J(v), json_type_int) ?
	       json_object_get_uint64(J(v)) : 0;
}

double rs_val_get_double(const struct rs_val *obj, const char *key)
{
	const struct rs_val *v = rs_val_get(obj, key);

	return v && (json_object_is_type(J(v), json_type_double) ||
		     json_object_is_type(J(v), json_type_int)) ?
	       json_object_get_double(J(v)) : 0;
}

enum rs_val_type rs_val_type_of(const struct rs_val *v)
{
	switch (json_object_get_type(J(v))) {
	case json_type_boolean: return RS_VAL_BOOL;
	case json_type_double: return RS_VAL_DOUBLE;
	case json_type_int:
		return json_object_get_int64(J(v)) < 0 ? RS_VAL_INT :
		       RS_VAL_UINT;
	case json_type_string: return RS_VAL_STR;
	case json_type_array: return RS_VAL_ARR;
	case json_type_object: return RS_VAL_OBJ;
	default: return RS_VAL_NULL;
	}
}

size_t rs_val_len(const struct rs_val *v)
{
	if (json_object_is_type(J(v), json_type_array))
		return json_object_array_length(J(v));
	if (json_object_is_type(J(v), json_type_object))
		return json_object_object_length(J(v));
	return 0;
}

const struct rs_val *rs_val_at(const struct rs_val *arr, size_t i)
{
	if (!json_object_is_type(J(arr), json_type_array))
		return NULL;
	return rs_val_of(json_object_array_get_idx(J(arr), i));
}

int rs_val_write_json(FILE *f, const struct rs_val *v, bool pretty)
{
	int flags = JSON_C_TO_STRING_NOSLASHESCAPE |
		    (pretty ? JSON_C_TO_STRING_PRETTY |
			      JSON_C_TO_STRING_SPACED : JSON_C_TO_STRING_PLAIN);
	int r = rs_val_check(v);
	const char *s;

	if (r < 0)
		return r;
	s = json_object_to_json_string_ext(J(v), flags);
	if (!s)
		return -ENOMEM;
	fputs(s, f);
	fputc('\n', f);
	return fflush(f) == 0 && !ferror(f) ? 0 : -EIO;
}
