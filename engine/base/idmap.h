/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_IDMAP_H
#define RDMASCN_IDMAP_H

#include <limits.h>
#include <stddef.h>

/*
 * Ids to indexes: an open-addressing hash built once from the ids of an
 * array, then asked in O(1).  Neither the strings nor the array that
 * points at them are copied: a slot holds an index, and the id is read
 * back from the array, so both must outlive the map and the array's ids
 * must not change (the scenario's objects and ids do not).  Eight bytes
 * a slot, not sixteen: 2 MiB of a validate of 100k objects.  A zeroed
 * map is an empty one.
 */
struct rs_idmap {
	struct rs_idmap_slot {
		unsigned index;          /* of the id, plus one; 0: empty */
		/* The id's hash, cut: a probe past another id compares
		 * this, not the string. */
		unsigned hash;
	} *slots;
	const char *first;           /* the first id's pointer in the array */
	size_t stride;               /* from one id's pointer to the next */
	/* 0: the member is the id; else it points at a block (or is
	 * NULL: no id) whose id is @via - 1 bytes in. */
	size_t via;
	size_t mask;                 /* number of slots - 1 (a power of 2) */
	unsigned n;                  /* ids held */
};

#define RS_IDMAP_NONE UINT_MAX

/*
 * Map ids[i] to i for i < n; @ids must outlive the map, unchanged.  NULL
 * ids are left out; of two equal ids the first is kept.  0, or -ENOMEM
 * (@m untouched).  Free with
 * rs_idmap_free() before building again.
 */
int rs_idmap_build(struct rs_idmap *m, const char *const *ids, unsigned n);
/*
 * The same from the id field of n structs in an array, without making an
 * array of ids first: @first points at the first struct's `const char *`
 * member, @stride is the struct's size.
 *	rs_idmap_build_stride(&m, &s->objs[0].id, sizeof(s->objs[0]), n);
 */
int rs_idmap_build_stride(struct rs_idmap *m, const void *first,
			  size_t stride, unsigned n);
/*
 * The same where the member points at a block that holds the id,
 * @offset bytes in (NULL: no id), as offsetof() gives it: a field few
 * structs have, kept out of them.
 *	rs_idmap_build_via(&m, &s->objs[0].more, sizeof(s->objs[0]),
 *			   offsetof(struct rs_obj_more, group), n);
 */
int rs_idmap_build_via(struct rs_idmap *m, const void *first, size_t stride,
		       size_t offset, unsigned n);
/* The index of @id, or RS_IDMAP_NONE (also for a NULL @id). */
unsigned rs_idmap_get(const struct rs_idmap *m, const char *id);
/* Back to a zeroed map. */
void rs_idmap_free(struct rs_idmap *m);

#endif
