// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "value.h"

struct rs_val *rs_val_new(enum rs_val_type type)
{
	struct rs_val *v = rs_calloc(1, sizeof(*v));

	if (v)
		v->type = type;
	return v;
}

void rs_val_free(struct rs_val *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++)
		rs_val_free(v->items[i]);
	rs_free(v->items);
	if (v->type == RS_VAL_STR)
		rs_free(v->s);
	rs_free(v->key);
	rs_free(v);
}

int rs_val_check(const struct rs_val *v)
{
	if (!v || v->oom)
		return -ENOMEM;
	for (size_t i = 0; i < v->n; i++)
		if (rs_val_check(v->items[i]) < 0)
			return -ENOMEM;
	return 0;
}

struct rs_val *rs_val_push(struct rs_val *parent, struct rs_val *child)
{
	if (!parent) {
		rs_val_free(child);
		return NULL;
	}
	if (!child)
		goto oom;
	if (parent->n == parent->cap) {
		size_t cap = parent->cap ? parent->cap * 2 : 8;
		struct rs_val **items = rs_reallocarray(parent->items, cap,
						       sizeof(*items));
		if (!items)
			goto oom;
		parent->items = items;
		parent->cap = cap;
	}
	parent->items[parent->n++] = child;
	return child;
oom:
	rs_val_free(child);
	parent->oom = true;
	return NULL;
}

struct rs_val *rs_val_put(struct rs_val *obj, const char *key,
			  struct rs_val *child)
{
	if (child) {
		child->key = rs_strdup(key);
		if (!child->key) {
			rs_val_free(child);
			child = NULL;
		}
	}
	return rs_val_push(obj, child);
}

struct rs_val *rs_val_put_obj(struct rs_val *obj, const char *key)
{
	return rs_val_put(obj, key, rs_val_new(RS_VAL_OBJ));
}

struct rs_val *rs_val_put_arr(struct rs_val *obj, const char *key)
{
	return rs_val_put(obj, key, rs_val_new(RS_VAL_ARR));
}

struct rs_val *rs_val_str(const char *s)
{
	struct rs_val *v = rs_val_new(RS_VAL_STR);

	if (v && !(v->s = rs_strdup(s ? s : ""))) {
		rs_free(v);
		v = NULL;
	}
	return v;
}

struct rs_val *rs_val_u64(uint64_t u)
{
	struct rs_val *v = rs_val_new(RS_VAL_UINT);

	if (v)
		v->u = u;
	return v;
}

struct rs_val *rs_val_i64(int64_t i)
{
	struct rs_val *v = rs_val_new(RS_VAL_INT);

	if (v)
		v->i = i;
	return v;
}

struct rs_val *rs_val_bool(bool b)
{
	struct rs_val *v = rs_val_new(RS_VAL_BOOL);

	if (v)
		v->b = b;
	return v;
}

void rs_val_put_str(struct rs_val *obj, const char *key, const char *s)
{
	rs_val_put(obj, key, rs_val_str(s));
}

void rs_val_put_strf(struct rs_val *obj, const char *key, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	rs_val_put_str(obj, key, buf);
}

void rs_val_put_u64(struct rs_val *obj, const char *key, uint64_t u)
{
	rs_val_put(obj, key, rs_val_u64(u));
}

void rs_val_put_i64(struct rs_val *obj, const char *key, int64_t i)
{
	rs_val_put(obj, key, rs_val_i64(i));
}

void rs_val_put_bool(struct rs_val *obj, const char *key, bool b)
{
	rs_val_put(obj, key, rs_val_bool(b));
}

struct rs_val *rs_val_push_obj(struct rs_val *arr)
{
	return rs_val_push(arr, rs_val_new(RS_VAL_OBJ));
}

void rs_val_push_str(struct rs_val *arr, const char *s)
{
	rs_val_push(arr, rs_val_str(s));
}

const struct rs_val *rs_val_get(const struct rs_val *obj, const char *key)
{
	if (!obj || obj->type != RS_VAL_OBJ)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->items[i]->key, key))
			return obj->items[i];
	return NULL;
}

const char *rs_val_get_str(const struct rs_val *obj, const char *key)
{
	const struct rs_val *v = rs_val_get(obj, key);

	return v && v->type == RS_VAL_STR ? v->s : NULL;
}

uint64_t rs_val_get_u64(const struct rs_val *obj, const char *key)
{
	const struct rs_val *v = rs_val_get(obj, key);

	if (!v)
		return 0;
	return v->type == RS_VAL_UINT ? v->u :
	       v->type == RS_VAL_INT  ? (uint64_t)v->i : 0;
}
