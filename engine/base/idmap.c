// SPDX-License-Identifier: MIT
/* Ids to indexes: FNV-1a and linear probing, at most half full. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "alloc.h"
#include "idmap.h"

static size_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return (size_t)h;
}

/* Element @i's id in the array the map is built on. */
static const char *key_at(const char *first, size_t stride, size_t via,
			  unsigned i)
{
	const char *id;

	memcpy(&id, first + (size_t)i * stride, sizeof(id));
	if (via && id)
		memcpy(&id, id + via - 1, sizeof(id));
	return id;
}

/* The id of a held slot, read from the array the map was built on. */
static const char *id_at(const struct rs_idmap *m,
			 const struct rs_idmap_slot *s)
{
	return key_at(m->first, m->stride, m->via, s->index - 1);
}

/* The slot holding @id, or the empty one where it would go; @h is
 * hash(@id).  A lookup was a quarter of a validate's CPU, most of it
 * strcmp() reaching into strings all over the DOM for the ids that
 * merely share a probe sequence: the hash is compared first, and the
 * array and the string are read only when it matches. */
static struct rs_idmap_slot *slot_of(const struct rs_idmap *m,
				     const char *id, size_t h)
{
	size_t i = h & m->mask;
	const char *at;

	/* Never full (half at most), so this ends. */
	while (m->slots[i].index &&
	       (m->slots[i].hash != (unsigned)h ||
		((at = id_at(m, &m->slots[i])) != id && strcmp(at, id))))
		i = (i + 1) & m->mask;
	return &m->slots[i];
}

static int build(struct rs_idmap *m, const void *first, size_t stride,
		 size_t via, unsigned n)
{
	struct rs_idmap t = { 0 };
	size_t size = 16;

	while (size < 2 * (size_t)n)
		size *= 2;
	/* Every lookup lands on a slot at random: in 4 KiB pages a table
	 * of a million ids (32 MiB) is a TLB miss a lookup, and 8192 page
	 * faults to fill.  Huge pages from one on. */
	if (size * sizeof(*t.slots) >= RS_HUGE_PAGE) {
		t.slots = rs_malloc_huge(size * sizeof(*t.slots));
		if (t.slots)
			memset(t.slots, 0, size * sizeof(*t.slots));
	} else {
		t.slots = rs_calloc(size, sizeof(*t.slots));
	}
	if (!t.slots)
		return -ENOMEM;
	t.first = first;
	t.stride = stride;
	t.via = via;
	t.mask = size - 1;
	for (unsigned i = 0; i < n; i++) {
		const char *id = key_at(first, stride, via, i);
		struct rs_idmap_slot *s;
		size_t h;

		if (!id)
			continue;
		h = hash(id);
		s = slot_of(&t, id, h);
		if (s->index)
			continue;
		s->index = i + 1;
		s->hash = (unsigned)h;
		t.n++;
	}
	*m = t;
	return 0;
}

int rs_idmap_build_stride(struct rs_idmap *m, const void *first,
			  size_t stride, unsigned n)
{
	return build(m, first, stride, 0, n);
}

int rs_idmap_build_via(struct rs_idmap *m, const void *first, size_t stride,
		       size_t offset, unsigned n)
{
	return build(m, first, stride, offset + 1, n);
}

int rs_idmap_build(struct rs_idmap *m, const char *const *ids, unsigned n)
{
	return rs_idmap_build_stride(m, ids, sizeof(*ids), n);
}

unsigned rs_idmap_get(const struct rs_idmap *m, const char *id)
{
	const struct rs_idmap_slot *s;

	if (!id || !m->slots)
		return RS_IDMAP_NONE;
	s = slot_of(m, id, hash(id));
	return s->index ? s->index - 1 : RS_IDMAP_NONE;
}

void rs_idmap_free(struct rs_idmap *m)
{
	rs_free(m->slots);
	memset(m, 0, sizeof(*m));
}
