// SPDX-License-Identifier: MIT
/*
 * The value builders as a plugin calls them (rdmascn/value.h): the
 * public names of rs_val_*, so that the engine exports rdmascn_* alone.
 */
#include <stdarg.h>

#include "public_names.h"
#include "rdmascn/value.h"
#include "value.h"

#define API __attribute__((visibility("default")))

API struct rs_val *rdmascn_val_str(const char *s)
{
	return rs_val_str(s);
}

API struct rs_val *rdmascn_val_u64(uint64_t u)
{
	return rs_val_u64(u);
}

API struct rs_val *rdmascn_val_i64(int64_t i)
{
	return rs_val_i64(i);
}

API struct rs_val *rdmascn_val_bool(bool b)
{
	return rs_val_bool(b);
}

API struct rs_val *rdmascn_val_double(double d)
{
	return rs_val_double(d);
}

API struct rs_val *rdmascn_val_push(struct rs_val *arr, struct rs_val *child)
{
	return rs_val_push(arr, child);
}

API struct rs_val *rdmascn_val_put(struct rs_val *obj, const char *key,
				   struct rs_val *child)
{
	return rs_val_put(obj, key, child);
}

API struct rs_val *rdmascn_val_put_obj(struct rs_val *obj, const char *key)
{
	return rs_val_put_obj(obj, key);
}

API struct rs_val *rdmascn_val_put_arr(struct rs_val *obj, const char *key)
{
	return rs_val_put_arr(obj, key);
}

API void rdmascn_val_put_str(struct rs_val *obj, const char *key,
			     const char *s)
{
	rs_val_put_str(obj, key, s);
}

API void rdmascn_val_put_strf(struct rs_val *obj, const char *key,
			      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rs_val_put_vstrf(obj, key, fmt, ap);
	va_end(ap);
}

API void rdmascn_val_put_u64(struct rs_val *obj, const char *key, uint64_t u)
{
	rs_val_put_u64(obj, key, u);
}

API void rdmascn_val_put_i64(struct rs_val *obj, const char *key, int64_t i)
{
	rs_val_put_i64(obj, key, i);
}

API void rdmascn_val_put_bool(struct rs_val *obj, const char *key, bool b)
{
	rs_val_put_bool(obj, key, b);
}

API void rdmascn_val_put_double(struct rs_val *obj, const char *key, double d)
{
	rs_val_put_double(obj, key, d);
}

API struct rs_val *rdmascn_val_push_obj(struct rs_val *arr)
{
	return rs_val_push_obj(arr);
}

API void rdmascn_val_push_str(struct rs_val *arr, const char *s)
{
	rs_val_push_str(arr, s);
}
