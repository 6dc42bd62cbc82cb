/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_VALUE_H_PUBLIC
#define RDMASCN_VALUE_H_PUBLIC

#include <stdbool.h>
#include <stdint.h>

/*
 * What a plugin says about a device or an object (its describe ops):
 * members added to a tree of values that a reporter prints.  Builders
 * never check each call: a failed allocation marks the container and the
 * engine reports it once.  Members keep the order they were added in.
 */
struct rdmascn_val;

/* Scalars on their own, to add to an array or an object; NULL when out
 * of memory. */
struct rdmascn_val *rdmascn_val_str(const char *s);
struct rdmascn_val *rdmascn_val_u64(uint64_t u);
struct rdmascn_val *rdmascn_val_i64(int64_t i);
struct rdmascn_val *rdmascn_val_bool(bool b);
struct rdmascn_val *rdmascn_val_double(double d);

/* Add @child (owned from here on, freed on failure) to an array or, with
 * a key, to an object.  Returns @child, or NULL. */
struct rdmascn_val *rdmascn_val_push(struct rdmascn_val *arr,
				     struct rdmascn_val *child);
struct rdmascn_val *rdmascn_val_put(struct rdmascn_val *obj, const char *key,
				    struct rdmascn_val *child);
struct rdmascn_val *rdmascn_val_put_obj(struct rdmascn_val *obj,
					const char *key);
struct rdmascn_val *rdmascn_val_put_arr(struct rdmascn_val *obj,
					const char *key);
void rdmascn_val_put_str(struct rdmascn_val *obj, const char *key,
			 const char *s);
void rdmascn_val_put_strf(struct rdmascn_val *obj, const char *key,
			  const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void rdmascn_val_put_u64(struct rdmascn_val *obj, const char *key,
			 uint64_t u);
void rdmascn_val_put_i64(struct rdmascn_val *obj, const char *key,
			 int64_t i);
void rdmascn_val_put_bool(struct rdmascn_val *obj, const char *key, bool b);
void rdmascn_val_put_double(struct rdmascn_val *obj, const char *key,
			    double d);
struct rdmascn_val *rdmascn_val_push_obj(struct rdmascn_val *arr);
void rdmascn_val_push_str(struct rdmascn_val *arr, const char *s);

#endif
