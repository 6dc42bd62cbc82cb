// SPDX-License-Identifier: MIT
/*
 * The value tree: typed nodes in arenas (value.h).  A tree made on its
 * own (rs_val_obj(), rs_val_str(), ...) owns an arena; what is added to
 * a container is allocated from the container's arena, and a tree added
 * whole (rs_val_put() of a standalone child) hands its arena to the
 * root's, to be freed with it.  A container keeps allocating from the
 * arena it was made in, so a tree built by one thread and added to the
 * record under its lock can go on growing from that thread without
 * sharing an allocator with the record's other builders.
 *
 * No hashing: a record entry has a dozen members or fewer, and a scan
 * of them costs less than a table (json-c's 16 buckets were most of the
 * 12 KB an object of a dry run cost).  Builders tolerate a NULL parent
 * (its own allocation failed) and mark a container whose child could not
 * be added, so that a builder never checks each call and rs_val_check()
 * says it once, at the end.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <json-c/json.h>

#include "alloc.h"
#include "dec.h"
#include "value.h"
#include "value_fmt.h"

/* A chunk's first bytes link it to the one made before it. */
struct rs_chunk {
	struct rs_chunk *prev;
};

struct rs_arena {
	char *cur, *end;
	struct rs_chunk *chunks;    /* newest first; not the inline one */
	struct rs_arena *kids;      /* trees added whole, freed with this */
	struct rs_arena *sib;
	unsigned next;              /* the next chunk's size */
	unsigned refs;              /* rs_val_ref()s not yet freed */
	pthread_mutex_t *lock;      /* rs_val_share(): threads add to it */
	bool own_lock;              /* else the tree's it was added to */
	bool fixed;                 /* a caller's buffer: never grows */
};

enum {
	F_OOM = 1,                  /* a child could not be added */
	F_ROOT = 2,                 /* first in its own arena: rs_val_free() */
	F_OWN_ITEMS = 4,            /* an array's items are a chunk of their
				     * own (items_grow()) */
	F_DISTINCT = 8,             /* a struct's members being made: keys
				     * not given twice, appended unread */
	F_ST_AT = 16,               /* a struct's bytes are where .at points
				     * (rs_val_obj_struct()), not after it */
};

/*
 * Every node: its type, and where an object holds it, its key and the
 * next member (an object's members are a list in the order they were
 * added).  The rest is as long as its type needs: a string's bytes
 * follow the header, an integer is 8 bytes, a container 24.
 */
struct rs_val {
	uint8_t type;
	uint8_t flags;
	uint16_t khash;             /* a member's key_hash(), 0 unknown */
	uint32_t len;               /* a string's bytes; a container's items */
	const char *key;
	struct rs_val *next;
	union {
		bool b;
		int64_t i;
		uint64_t u;
		struct {
			double d;
			const char *text;  /* as written, from a JSON file */
		} dbl;
		struct {
			struct rs_arena *ar;
			struct rs_val *first, *last;
			/* Bit key_hash() % 64 of each member's key, or all
			 * when not known (F_DISTINCT): a key whose bit is
			 * clear is not a member, and the put that adds it
			 * need not look. */
			uint64_t keys;
		} obj;
		struct {
			struct rs_arena *ar;
			struct rs_val **items;
			uint32_t cap;
		} arr;
		/* T_PAIRS: as obj until its members are made (pairs()). */
		struct {
			struct rs_arena *ar;
			const struct rs_val *text;  /* a string member */
			const uint16_t *at;         /* len of them */
		} pairs;
		/* T_STRUCT: its owner's struct, len bytes, follows from
		 * .at on, or (F_ST_AT) is where .at points. */
		struct {
			struct rs_arena *ar;
			const struct rs_val_struct *ops;
			void *at;
		} st;
		/* T_LIST: as arr until its items are made (list_items()). */
		struct {
			struct rs_arena *ar;
			const struct rs_val_list *ops;
			const void *data;
		} list;
	} u;
};

/*
 * An object read from "key=value key=value" text (rs_val_put_pairs()):
 * a call's "fields", a dozen members derived from its "args", which were
 * most of a dry run's record (a QP's modify has 15).  It stays text and
 * offsets until something reads its members; the writer writes it from
 * the text.  Its type is RS_VAL_OBJ to readers.
 */
#define T_PAIRS 0x40
/*
 * An array whose items are typed C structs of its owner's (the record's
 * calls, rs_val_put_list()): each made as a tree only while it is
 * written or told, a few hundred bytes of nodes it does not keep.  A
 * reader that asks for an item makes them all, once (an RS_VAL_ARR from
 * then on).
 */
#define T_LIST 0x41
/*
 * An object that is its owner's typed struct (a record's object and
 * teardown entries, rs_val_push_struct()): the struct follows the node,
 * and its members are made by its ops as a tree of their own to be
 * written, or in place, once, when something reads or adds to it (an
 * RS_VAL_OBJ from then on: the struct's first bytes are overwritten,
 * the rest stay where they were).  Or an object made one (a real run's
 * facts, rs_val_obj_struct()): the struct is elsewhere in its arena
 * (F_ST_AT), and stays whole.
 */
#define T_STRUCT 0x42
#define ST_IN offsetof(struct rs_val, u.st.at)
#define ST_DATA(v) st_data(v)

#define HEAD offsetof(struct rs_val, u)
#define RS_MAX(a, b) ((a) > (b) ? (a) : (b))
#define ALIGN8(n) (((n) + 7) & ~(size_t)7)
/* A new tree's arena: its header and its first bytes, one allocation. */
#define FIRST_CHUNK 256
#define MAX_CHUNK (64u << 10)

static char *str_of(const struct rs_val *v)
{
	return (char *)v + HEAD;
}

/* A struct's bytes (T_STRUCT). */
static inline char *st_data(const struct rs_val *v)
{
	return v->flags & F_ST_AT ? v->u.st.at : (char *)v + ST_IN;
}

static void *arena_take(struct rs_arena *ar, size_t size);

static void *arena_alloc(struct rs_arena *ar, size_t size)
{
	void *p;

	if (!ar->lock)
		return arena_take(ar, size);
	pthread_mutex_lock(ar->lock);
	p = arena_take(ar, size);
	pthread_mutex_unlock(ar->lock);
	return p;
}

static void *arena_take(struct rs_arena *ar, size_t size)
{
	struct rs_chunk *c;
	size_t want;
	char *p;

	size = ALIGN8(size);
	if ((size_t)(ar->end - ar->cur) >= size) {
		p = ar->cur;
		ar->cur += size;
		return p;
	}
	if (ar->fixed)
		return NULL;
	/* Something big (a long array's items) gets a chunk of its own,
	 * so that the current one's free bytes are not given up. */
	if (size > ar->next / 2) {
		c = rs_malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->prev = ar->chunks;
		ar->chunks = c;
		return c + 1;
	}
	want = ar->next;
	c = rs_malloc(sizeof(*c) + want);
	if (!c)
		return NULL;
	c->prev = ar->chunks;
	ar->chunks = c;
	if (ar->next < MAX_CHUNK)
		ar->next *= 2;
	p = (char *)(c + 1);
	ar->cur = p + size;
	ar->end = p + want;
	return p;
}

static void arena_free(struct rs_arena *ar)
{
	while (ar) {
		struct rs_arena *sib = ar->sib;

		arena_free(ar->kids);
		if (ar->own_lock) {
			pthread_mutex_destroy(ar->lock);
			rs_free(ar->lock);
		}
		while (ar->chunks) {
			struct rs_chunk *prev = ar->chunks->prev;

			rs_free(ar->chunks);
			ar->chunks = prev;
		}
		rs_free(ar);
		ar = sib;
	}
}

/* A tree of its own: an arena whose first node is @size bytes (and
 * whose first chunk follows it, for a container's members). */
static struct rs_val *new_root(size_t size, unsigned room)
{
	struct rs_arena *ar;
	struct rs_val *v;
	size_t head = ALIGN8(sizeof(*ar));

	size = ALIGN8(size);
	ar = rs_malloc(head + size + room);
	if (!ar)
		return NULL;
	v = (struct rs_val *)((char *)ar + head);
	*ar = (struct rs_arena){ .cur = (char *)v + size,
				 .end = (char *)v + size + room,
				 .next = FIRST_CHUNK };
	memset(v, 0, size);
	v->flags = F_ROOT;
	return v;
}

static struct rs_arena *arena_of_root(const struct rs_val *v)
{
	return (struct rs_arena *)((char *)v - ALIGN8(sizeof(struct rs_arena)));
}

static struct rs_arena *arena_of(const struct rs_val *c)
{
	return c->type == RS_VAL_ARR ? c->u.arr.ar : c->u.obj.ar;
}

static size_t node_size(enum rs_val_type t, size_t len)
{
	switch ((int)t) {
	case RS_VAL_STR: return HEAD + len + 1;
	case RS_VAL_DOUBLE: return HEAD + sizeof(((struct rs_val *)0)->u.dbl);
	case RS_VAL_OBJ: return HEAD + sizeof(((struct rs_val *)0)->u.obj);
	/* Made into an object in place, and read whole (pairs(),
	 * list_items()) before: as big as any node. */
	case T_PAIRS:
	case T_LIST: return sizeof(struct rs_val);
	case T_STRUCT:
		len += ST_IN;
		return RS_MAX(len, sizeof(struct rs_val));
	case RS_VAL_ARR: return HEAD + sizeof(((struct rs_val *)0)->u.arr);
	default: return HEAD + sizeof(uint64_t);
	}
}

/*
 * 16 bits of a hash of @key (@len bytes), never 0: what two members'
 * keys must share before they are compared.  From its length and its
 * first and last 8 (or 4, or 3) bytes, read a word at a time: FNV-1a a
 * byte at a time was half of putting a fact.
 */
static uint16_t key_hash(const char *key, size_t len)
{
	uint64_t a, b, h;

	if (len >= 8) {
		memcpy(&a, key, 8);
		memcpy(&b, key + len - 8, 8);
	} else if (len >= 4) {
		uint32_t x, y;

		memcpy(&x, key, 4);
		memcpy(&y, key + len - 4, 4);
		a = x;
		b = y;
	} else {
		a = len ? (uint8_t)key[0] | (uint8_t)key[len / 2] << 8 : 0;
		b = len ? (uint8_t)key[len - 1] : 0;
	}
	h = (a ^ (b << 29 | b >> 35) ^ len) * 0x9e3779b97f4a7c15ull;
	h ^= h >> 32;
	h ^= h >> 16;
	return (uint16_t)h ? (uint16_t)h : 1;
}

/* A member's key is kept after a byte that holds its length (KEY_LONG:
 * that or more), for the JSON writer, which looked for the end of each
 * (40k keys of a real run's record at n=1000). */
#define KEY_LONG 255

/* @key (@len bytes and its NUL) at @at + 1, its length at @at. */
static char *key_copy(char *at, const char *key, size_t len)
{
	at[0] = (char)(len < KEY_LONG ? len : KEY_LONG);
	return memcpy(at + 1, key, len + 1);
}

static inline size_t key_len(const char *key)
{
	size_t n = (uint8_t)key[-1];

	return n < KEY_LONG ? n : strlen(key);
}

/* A node of type @t: in @ar (with @key's bytes after it), or in an
 * arena of its own when @ar is NULL. */
static struct rs_val *new_node(struct rs_arena *ar, enum rs_val_type t,
			       size_t len, const char *key)
{
	size_t size = ALIGN8(node_size(t, len));
	size_t klen = key ? strlen(key) : 0;
	struct rs_val *v;

	if (!ar) {
		bool c = t == RS_VAL_OBJ || t == RS_VAL_ARR;

		v = new_root(size, c ? FIRST_CHUNK : 0);
		if (!v)
			return NULL;
		ar = arena_of_root(v);
	} else {
		v = arena_alloc(ar, size + (key ? klen + 2 : 0));
		if (!v)
			return NULL;
		memset(v, 0, size);
		if (key)
			v->key = key_copy((char *)v + size, key, klen);
	}
	v->type = t;
	if (t == RS_VAL_OBJ) {
		v->u.obj.ar = ar;
		v->u.obj.first = v->u.obj.last = NULL;
		v->u.obj.keys = 0;
	} else if (t == RS_VAL_ARR) {
		v->u.arr.ar = ar;
		v->u.arr.items = NULL;
		v->u.arr.cap = 0;
	} else if ((int)t == T_PAIRS) {
		v->u.pairs.ar = ar;
	} else if ((int)t == T_LIST) {
		v->u.list.ar = ar;
	} else if ((int)t == T_STRUCT) {
		v->u.st.ar = ar;
		v->len = (uint32_t)len;
	}
	return v;
}

/* How many times a node was marked F_OOM in this process: while none
 * was, no tree holds one and rs_val_check() need not walk (a real
 * run's record at n=1000 is 100k nodes, walked at its end and again
 * for each struct written). */
static unsigned long n_oom;

static void set_oom(struct rs_val *v)
{
	__atomic_add_fetch(&n_oom, 1, __ATOMIC_RELAXED);
	v->flags |= F_OOM;
}

static struct rs_val *mark_oom(struct rs_val *parent)
{
	if (parent)
		set_oom(parent);
	return NULL;
}

/* @m as @obj's member; one of the same key is replaced where it stands,
 * as json-c's add did. */
static void link_member(struct rs_val *obj, struct rs_val *m)
{
	struct rs_val *prev = NULL;
	uint64_t bit;
	uint16_t h;

	/* (A struct's members: comparing each key with every one before
	 * it was most of the cost of writing an object entry.) */
	if (obj->flags & F_DISTINCT) {
		m->khash = 0;
		obj->u.obj.keys = ~(uint64_t)0;
		goto append;
	}
	/* A fact or setting put into an object of 17 was 515 instructions,
	 * 60% of them strcmp() against every earlier key; a member whose
	 * hash is known and differs is not one.  Then ~180, most of it
	 * walking the members to find none: a key whose bit is clear is
	 * appended without the walk (4 in 5 of 17 distinct keys). */
	h = m->khash = key_hash(m->key, strlen(m->key));
	bit = (uint64_t)1 << (h & 63);
	if (!(obj->u.obj.keys & bit)) {
		obj->u.obj.keys |= bit;
		goto append;
	}
	for (struct rs_val *o = obj->u.obj.first; o; prev = o, o = o->next) {
		if ((o->khash && o->khash != h) || strcmp(o->key, m->key))
			continue;
		m->next = o->next;
		if (prev)
			prev->next = m;
		else
			obj->u.obj.first = m;
		if (obj->u.obj.last == o)
			obj->u.obj.last = m;
		return;
	}
append:
	if (obj->u.obj.last)
		obj->u.obj.last->next = m;
	else
		obj->u.obj.first = m;
	obj->u.obj.last = m;
	obj->len++;
}

/* Items past this many bytes are a chunk of their own, grown in place. */
#define OWN_ITEMS 1024

/* @arr's items, a chunk of their own (F_OWN_ITEMS) or about to be,
 * @cap of them: moved with realloc(), the old ones not left behind (a
 * dry run's objects, teardown and plan, 400k items each, left as many
 * bytes again in the arena). */
static struct rs_val **items_grow(struct rs_val *arr, uint32_t cap)
{
	struct rs_arena *ar = arr->u.arr.ar;
	struct rs_chunk *c = NULL, **pp;

	if (ar->lock)
		pthread_mutex_lock(ar->lock);
	pp = &ar->chunks;
	if (arr->flags & F_OWN_ITEMS) {
		c = (struct rs_chunk *)arr->u.arr.items - 1;
		while (*pp != c)
			pp = &(*pp)->prev;
	}
	c = rs_reallocarray(c, 1, sizeof(*c) + cap * sizeof(struct rs_val *));
	if (c) {
		if (arr->flags & F_OWN_ITEMS) {
			*pp = c;
		} else {
			c->prev = ar->chunks;
			ar->chunks = c;
		}
	}
	if (ar->lock)
		pthread_mutex_unlock(ar->lock);
	return c ? (struct rs_val **)(c + 1) : NULL;
}

static bool arr_add(struct rs_val *arr, struct rs_val *child)
{
	if (arr->len == arr->u.arr.cap) {
		uint32_t cap = arr->u.arr.cap ? arr->u.arr.cap * 2 : 4;
		bool own = cap * sizeof(struct rs_val *) > OWN_ITEMS;
		struct rs_val **items;

		/* Small: the old items stay in the arena, unused, at most
		 * as many bytes as the array ends with. */
		items = own ? items_grow(arr, cap) :
			arena_alloc(arr->u.arr.ar, cap * sizeof(*items));
		if (!items)
			return false;
		if (arr->len && !(arr->flags & F_OWN_ITEMS))
			memcpy(items, arr->u.arr.items,
			       arr->len * sizeof(*items));
		if (own)
			arr->flags |= F_OWN_ITEMS;
		arr->u.arr.items = items;
		arr->u.arr.cap = cap;
	}
	arr->u.arr.items[arr->len++] = child;
	return true;
}

/* @ar and the trees added to it allocate under @lock (when they did
 * not already): they are part of a shared tree now. */
static void take_lock(struct rs_arena *ar, pthread_mutex_t *lock)
{
	if (!ar->lock)
		ar->lock = lock;
	for (struct rs_arena *k = ar->kids; k; k = k->sib)
		take_lock(k, lock);
}

/* @child's arena is @parent's root's from now on: freed with it, and
 * under its lock if it has one (a thread may go on adding to @child). */
static void adopt(struct rs_val *parent, struct rs_val *child)
{
	struct rs_arena *par = arena_of(parent), *car = arena_of_root(child);

	if (par->lock)
		take_lock(car, par->lock);
	child->flags &= ~F_ROOT;
	car->sib = par->kids;
	par->kids = car;
}

/* A value's text as the record types it: an integer when it is a plain
 * decimal number (no leading zero, no sign but '-'), else the text
 * (hex handles and keys such as 0x1a2b, flag names, "qpn(b)").  Returns
 * its type, the number in *@ret_u. */
static enum rs_val_type pair_type(const char *s, size_t len, uint64_t *ret_u)
{
	bool neg = len && *s == '-';
	const char *d = s + neg;
	size_t digits = len - neg;
	uint64_t u = 0;

	/* By hand, not strtoull(): a dry run's fields are 50k numbers and
	 * texts.  What strtoll()/strtoull() read without ERANGE. */
	if (!digits || (*d == '0' && digits > 1) || digits > 20)
		return RS_VAL_STR;
	for (size_t i = 0; i < digits; i++) {
		unsigned c = (unsigned char)d[i] - '0';

		if (c > 9 || u > (UINT64_MAX - c) / 10)
			return RS_VAL_STR;
		u = u * 10 + c;
	}
	if (!neg) {
		*ret_u = u;
		return RS_VAL_UINT;
	}
	if (u > (uint64_t)INT64_MAX + 1)
		return RS_VAL_STR;
	/* ("-0" is 0.) */
	*ret_u = -u;
	return u ? RS_VAL_INT : RS_VAL_UINT;
}

struct pair {
	char name[128];
	const char *val;
	size_t len;
};

/* A pair where it stands in the text: its name is not NUL-terminated. */
struct pair_span {
	const char *name;
	size_t name_len;
	const char *val;
	size_t len;
	int r;           /* as pair_at() returns */
};

/* The text of "key=value" pairs and where each key starts: a T_PAIRS
 * node's, or a list item's field's. */
static struct rs_val_pairs src_of(const struct rs_val *v)
{
	return (struct rs_val_pairs){ .text = str_of(v->u.pairs.text),
				      .len = v->u.pairs.text->len,
				      .at = v->u.pairs.at, .n = v->len };
}

static int span_in(const struct rs_val_pairs *ps, unsigned i,
		   struct pair_span *p)
{
	const char *args = ps->text;
	size_t len = ps->len;
	const uint16_t *at = ps->at;
	size_t end = i + 1 < ps->n ? at[i + 1] - 1u : len;
	const char *key = args + at[i], *eq;

	p->r = -1;
	if (at[i] >= len)
		return -1;
	p->r = 0;
	eq = memchr(key, '=', len - at[i]);
	if (!eq || (size_t)(eq - key) >= sizeof(((struct pair *)0)->name) ||
	    end > len || args + end < eq + 1)
		return 0;
	p->name = key;
	/* (To a NUL, as the copy pair_at() makes reads.) */
	p->name_len = strnlen(key, eq - key);
	p->val = eq + 1;
	p->len = args + end - (eq + 1);
	p->r = 1;
	return 1;
}

static int pair_span_at(const struct rs_val *v, unsigned i,
			struct pair_span *p)
{
	struct rs_val_pairs ps = src_of(v);

	return span_in(&ps, i, p);
}

/* Pair @i of @v's text: 1 with it in *@p, 0 to skip it, -1 when the
 * text ran out (cut short when it had no more room). */
static int pair_at(const struct rs_val *v, unsigned i, struct pair *p)
{
	struct pair_span s;
	int r = pair_span_at(v, i, &s);

	if (r <= 0)
		return r;
	memcpy(p->name, s.name, s.name_len);
	p->name[s.name_len] = '\0';
	p->val = s.val;
	p->len = s.len;
	return 1;
}

static struct rs_val *put_new(struct rs_val *obj, const char *key,
			      enum rs_val_type t, size_t len);
static bool is_container(const struct rs_val *v);
static void add_fields(struct rs_val *e, const struct rs_val_field *f,
		       unsigned n);

/* Its members made, from the text: an object from now on. */
static void pairs(struct rs_val *v)
{
	struct rs_val saved = *v;
	struct pair p;
	int r;

	v->type = RS_VAL_OBJ;
	v->len = 0;
	v->u.obj.first = v->u.obj.last = NULL;
	v->u.obj.keys = 0;
	for (unsigned i = 0; i < saved.len; i++) {
		struct rs_val *m;
		enum rs_val_type t;
		uint64_t u = 0;

		r = pair_at(&saved, i, &p);
		if (r < 0)
			break;
		if (!r)
			continue;
		t = pair_type(p.val, p.len, &u);
		m = new_node(v->u.obj.ar, t, t == RS_VAL_STR ? p.len : 0,
			     p.name);
		if (!m) {
			set_oom(v);
			return;
		}
		if (t == RS_VAL_STR) {
			m->len = (uint32_t)p.len;
			memcpy(str_of(m), p.val, p.len);
			str_of(m)[p.len] = '\0';
		} else {
			m->u.u = u;
		}
		link_member(v, m);
	}
}

static struct rs_val *copy_node(struct rs_arena *ar, const struct rs_val *v,
				const char *key);
static bool arr_add(struct rs_val *arr, struct rs_val *child);

/* Its items made and kept: an array from now on. */
static void list_items(struct rs_val *v)
{
	struct rs_val saved = *v;

	v->type = RS_VAL_ARR;
	v->len = 0;
	v->u.arr.ar = saved.u.list.ar;
	v->u.arr.items = NULL;
	v->u.arr.cap = 0;
	for (const void *it = saved.u.list.ops->next(saved.u.list.data, NULL);
	     it; it = saved.u.list.ops->next(saved.u.list.data, it)) {
		struct rs_val *t = saved.u.list.ops->make(it), *c;

		c = t ? copy_node(v->u.arr.ar, t, NULL) : NULL;
		rs_val_free(t);
		if (!c || !arr_add(v, c)) {
			set_oom(v);
			return;
		}
	}
}

/* @ops's members of @data added to @obj, an empty object: each key
 * once, so appended without looking for an earlier one (F_DISTINCT). */
static void add_members(struct rs_val *obj, const struct rs_val_struct *ops,
			const void *data)
{
	obj->flags |= F_DISTINCT;
	if (ops->fields) {
		struct rs_val_field f[RS_VAL_FIELDS_MAX];
		uint64_t room[RS_VAL_FIELDS_ROOM / sizeof(uint64_t)];

		add_fields(obj, f, ops->fields(data, f, room));
	} else {
		ops->members(obj, data);
	}
	obj->flags &= ~F_DISTINCT;
}

/* Its members made from its struct: an object from now on. */
static void struct_members(struct rs_val *v)
{
	const struct rs_val_struct *ops = v->u.st.ops;
	char copy[RS_VAL_STRUCT_MAX];
	const void *data = v->u.st.at;

	/* (One that follows the node: the members overwrite its first
	 * bytes.) */
	if (!(v->flags & F_ST_AT)) {
		memcpy(copy, ST_DATA(v), v->len < sizeof(copy) ? v->len :
		       sizeof(copy));
		data = copy;
	}
	v->flags &= ~F_ST_AT;
	v->type = RS_VAL_OBJ;
	v->len = 0;
	v->u.obj.first = v->u.obj.last = NULL;
	v->u.obj.keys = 0;
	add_members(v, ops, data);
}

/* @v, its members made when they were text or structs: for a reader. */
static const struct rs_val *ready(const struct rs_val *v)
{
	if (v && v->type == T_PAIRS)
		pairs((struct rs_val *)v);
	else if (v && v->type == T_LIST)
		list_items((struct rs_val *)v);
	else if (v && v->type == T_STRUCT)
		struct_members((struct rs_val *)v);
	return v;
}

struct rs_val *rs_val_push_struct(struct rs_val *arr,
				  const struct rs_val_struct *ops, size_t size)
{
	struct rs_val *v;

	if (!arr)
		return NULL;
	if (arr->type != RS_VAL_ARR || size > RS_VAL_STRUCT_MAX)
		return mark_oom(arr);
	v = new_node(arr->u.arr.ar, T_STRUCT, size, NULL);
	if (!v || !arr_add(arr, v))
		return mark_oom(arr);
	v->u.st.ops = ops;
	memset(ST_DATA(v), 0, size);
	return v;
}

void *rs_val_obj_struct(struct rs_val *obj, const struct rs_val_struct *ops,
			size_t size)
{
	void *data;

	if (!obj)
		return NULL;
	if (obj->type != RS_VAL_OBJ || obj->u.obj.first)
		return mark_oom(obj);
	data = arena_alloc(obj->u.obj.ar, size ? size : 1);
	if (!data)
		return mark_oom(obj);
	memset(data, 0, size);
	/* (.ar where it was: the object's.) */
	obj->type = T_STRUCT;
	obj->flags |= F_ST_AT;
	obj->len = (uint32_t)size;
	obj->u.st.ops = ops;
	obj->u.st.at = data;
	return data;
}

void *rs_val_struct_of(const struct rs_val *v,
		       const struct rs_val_struct *ops)
{
	return v && v->type == T_STRUCT && v->u.st.ops == ops ? ST_DATA(v) :
	       NULL;
}

/* An empty object in @buf (@len bytes), whose arena never grows past
 * it; not F_ROOT: rs_val_free() leaves it, nothing adds it whole. */
static struct rs_val *obj_on(void *buf, size_t len)
{
	size_t head = ALIGN8(sizeof(struct rs_arena));
	size_t size = ALIGN8(node_size(RS_VAL_OBJ, 0));
	struct rs_arena *ar = buf;
	struct rs_val *e;

	if ((uintptr_t)buf % 8 || len < head + size)
		return NULL;
	e = (struct rs_val *)((char *)buf + head);
	*ar = (struct rs_arena){ .cur = (char *)e + size,
				 .end = (char *)buf + len, .fixed = true };
	memset(e, 0, size);
	e->type = RS_VAL_OBJ;
	e->u.obj.ar = ar;
	return e;
}

struct rs_val *rs_val_struct_tree(const struct rs_val *v)
{
	struct rs_val *t;

	if (!v || v->type != T_STRUCT)
		return NULL;
	t = rs_val_obj();
	if (t)
		add_members(t, v->u.st.ops, ST_DATA(v));
	if (rs_val_check(t) < 0) {
		rs_val_free(t);
		return NULL;
	}
	return t;
}

struct rs_val *rs_val_struct_tree_on(void *buf, size_t len,
				     const struct rs_val *v)
{
	struct rs_val *t;

	if (!v || v->type != T_STRUCT)
		return NULL;
	t = obj_on(buf, len);
	if (!t)
		return NULL;
	add_members(t, v->u.st.ops, ST_DATA(v));
	return rs_val_check(t) < 0 ? NULL : t;
}

struct rs_val *rs_val_obj_in(struct rs_val *near, const char *key)
{
	struct rs_arena *ar;
	struct rs_val *v;

	if (!near)
		return NULL;
	if (near->type == T_STRUCT)
		ar = near->u.st.ar;
	else if (is_container(ready(near)))
		ar = arena_of(near);
	else
		return mark_oom(near);
	v = new_node(ar, RS_VAL_OBJ, 0, key);
	return v ? v : mark_oom(near);
}

void rs_val_link(struct rs_val *obj, struct rs_val *m)
{
	ready(obj);
	if (!m || !obj || obj->type != RS_VAL_OBJ) {
		mark_oom(obj);
		return;
	}
	/* Its last link was to the object it was written with. */
	m->next = NULL;
	link_member(obj, m);
}

struct rs_val *rs_val_put_list(struct rs_val *obj, const char *key,
			       const struct rs_val_list *ops, const void *data)
{
	struct rs_val *v = put_new(obj, key, T_LIST, 0);

	if (v) {
		v->u.list.ops = ops;
		v->u.list.data = data;
	}
	return v;
}

void *rs_val_alloc(struct rs_val *c, size_t size)
{
	void *p;

	ready(c);
	if (!is_container(c))
		return NULL;
	p = arena_alloc(arena_of(c), size);
	if (!p)
		mark_oom(c);
	return p;
}

void rs_val_put_pairs(struct rs_val *obj, const char *key,
		      const struct rs_val *text, const uint16_t *at,
		      unsigned n_at)
{
	struct rs_val *v;
	uint16_t *copy;

	if (!obj || !text || text->type != RS_VAL_STR) {
		mark_oom(obj);
		return;
	}
	v = put_new(obj, key, T_PAIRS, 0);
	if (!v)
		return;
	copy = arena_alloc(v->u.obj.ar, n_at * sizeof(*at) + 1);
	if (!copy) {
		mark_oom(obj);
		return;
	}
	memcpy(copy, at, n_at * sizeof(*at));
	v->len = n_at;
	v->u.pairs.text = text;
	v->u.pairs.at = copy;
}

struct rs_val *rs_val_obj(void)
{
	return new_node(NULL, RS_VAL_OBJ, 0, NULL);
}

struct rs_val *rs_val_arr(void)
{
	return new_node(NULL, RS_VAL_ARR, 0, NULL);
}

void rs_val_free(struct rs_val *v)
{
	struct rs_arena *ar;

	/* Only a tree's root owns memory; a member goes with its tree. */
	if (!v || !(v->flags & F_ROOT))
		return;
	ar = arena_of_root(v);
	if (ar->refs)
		ar->refs--;
	else
		arena_free(ar);
}

int rs_val_share(struct rs_val *root)
{
	struct rs_arena *ar;

	if (!root || !(root->flags & F_ROOT))
		return -EINVAL;
	ar = arena_of_root(root);
	if (ar->lock)
		return 0;
	ar->lock = rs_malloc(sizeof(*ar->lock));
	if (!ar->lock)
		return -ENOMEM;
	pthread_mutex_init(ar->lock, NULL);
	ar->own_lock = true;
	take_lock(ar, ar->lock);
	return 0;
}

struct rs_val *rs_val_push_moved(struct rs_val *arr, struct rs_val *child)
{
	struct rs_val *c;

	if (!arr || arr->type != RS_VAL_ARR || !child ||
	    !(child->flags & F_ROOT)) {
		rs_val_free(child);
		return arr ? mark_oom(arr) : NULL;
	}
	c = copy_node(arr->u.arr.ar, child, NULL);
	rs_val_free(child);
	if (!c || !arr_add(arr, c))
		return mark_oom(arr);
	return c;
}

struct rs_val *rs_val_ref(const struct rs_val *v)
{
	if (!v || !(v->flags & F_ROOT))
		return rs_val_copy(v);
	arena_of_root(v)->refs++;
	return (struct rs_val *)v;
}

int rs_val_check(const struct rs_val *v)
{
	if (!v || (v->flags & F_OOM))
		return -ENOMEM;
	/* Set only by set_oom(), or copied from a node it set. */
	if (!__atomic_load_n(&n_oom, __ATOMIC_RELAXED))
		return 0;
	if (v->type == T_STRUCT) {
		const struct rs_val *k = v->u.st.ops->kid ?
					 v->u.st.ops->kid(ST_DATA(v)) : NULL;

		return k ? rs_val_check(k) : 0;
	}
	if (v->type == RS_VAL_OBJ) {
		/* A leaf's own flag here, not a call each (the check before
		 * every write walks the whole record). */
		for (const struct rs_val *m = v->u.obj.first; m; m = m->next)
			if ((m->flags & F_OOM) ||
			    (m->type > RS_VAL_STR && rs_val_check(m) < 0))
				return -ENOMEM;
	} else if (v->type == RS_VAL_ARR) {
		for (uint32_t i = 0; i < v->len; i++)
			if (rs_val_check(v->u.arr.items[i]) < 0)
				return -ENOMEM;
	}
	return 0;
}

static bool is_container(const struct rs_val *v)
{
	return v && (v->type == RS_VAL_OBJ || v->type == RS_VAL_ARR);
}

struct rs_val *rs_val_push(struct rs_val *arr, struct rs_val *child)
{
	ready(arr);
	if (!arr || arr->type != RS_VAL_ARR) {
		rs_val_free(child);
		return arr ? mark_oom(arr) : NULL;
	}
	if (!child || !(child->flags & F_ROOT) || !arr_add(arr, child)) {
		rs_val_free(child);
		return mark_oom(arr);
	}
	if (arena_of_root(child)->refs) {
		/* Held elsewhere too (rs_val_ref()): a copy goes in. */
		struct rs_val *c = rs_val_copy(child);

		rs_val_free(child);
		if (!c) {
			arr->len--;
			return mark_oom(arr);
		}
		arr->u.arr.items[arr->len - 1] = c;
		child = c;
	}
	adopt(arr, child);
	return child;
}

struct rs_val *rs_val_put(struct rs_val *obj, const char *key,
			  struct rs_val *child)
{
	size_t klen;
	char *k;

	ready(obj);
	if (!obj || obj->type != RS_VAL_OBJ) {
		rs_val_free(child);
		return obj ? mark_oom(obj) : NULL;
	}
	if (child && (child->flags & F_ROOT) && arena_of_root(child)->refs) {
		/* Held elsewhere too (rs_val_ref()): a copy goes in. */
		struct rs_val *c = rs_val_copy(child);

		rs_val_free(child);
		child = c;
	}
	if (!child || !(child->flags & F_ROOT)) {
		rs_val_free(child);
		return mark_oom(obj);
	}
	klen = strlen(key);
	k = arena_alloc(obj->u.obj.ar, klen + 2);
	if (!k) {
		rs_val_free(child);
		return mark_oom(obj);
	}
	child->key = key_copy(k, key, klen);
	adopt(obj, child);
	link_member(obj, child);
	return child;
}

/* A member made in @obj's arena. */
static struct rs_val *put_new(struct rs_val *obj, const char *key,
			      enum rs_val_type t, size_t len)
{
	struct rs_val *v;

	if (!obj)
		return NULL;
	ready(obj);
	if (obj->type != RS_VAL_OBJ)
		return mark_oom(obj);
	v = new_node(obj->u.obj.ar, t, len, key);
	if (!v)
		return mark_oom(obj);
	link_member(obj, v);
	return v;
}

/* An item made in @arr's arena. */
static struct rs_val *push_new(struct rs_val *arr, enum rs_val_type t,
			       size_t len)
{
	struct rs_val *v;

	if (!arr)
		return NULL;
	if (arr->type != RS_VAL_ARR)
		return mark_oom(arr);
	v = new_node(arr->u.arr.ar, t, len, NULL);
	if (!v || !arr_add(arr, v))
		return mark_oom(arr);
	return v;
}

struct rs_val *rs_val_put_obj(struct rs_val *obj, const char *key)
{
	return put_new(obj, key, RS_VAL_OBJ, 0);
}

struct rs_val *rs_val_put_arr(struct rs_val *obj, const char *key)
{
	return put_new(obj, key, RS_VAL_ARR, 0);
}

static void set_str(struct rs_val *v, const char *s, size_t len)
{
	if (!v)
		return;
	v->len = (uint32_t)len;
	memcpy(str_of(v), s, len);
	str_of(v)[len] = '\0';
}

struct rs_val *rs_val_str(const char *s)
{
	size_t len = s ? strlen(s) : 0;
	struct rs_val *v = new_node(NULL, RS_VAL_STR, len, NULL);

	set_str(v, s ? s : "", len);
	return v;
}

struct rs_val *rs_val_strn(const char *s, size_t len)
{
	struct rs_val *v = new_node(NULL, RS_VAL_STR, len, NULL);

	set_str(v, s, len);
	return v;
}

struct rs_val *rs_val_u64(uint64_t u)
{
	struct rs_val *v = new_node(NULL, RS_VAL_UINT, 0, NULL);

	if (v)
		v->u.u = u;
	return v;
}

struct rs_val *rs_val_i64(int64_t i)
{
	struct rs_val *v = new_node(NULL, i < 0 ? RS_VAL_INT : RS_VAL_UINT, 0,
				    NULL);

	if (v)
		v->u.i = i;
	return v;
}

struct rs_val *rs_val_bool(bool b)
{
	struct rs_val *v = new_node(NULL, RS_VAL_BOOL, 0, NULL);

	if (v)
		v->u.b = b;
	return v;
}

struct rs_val *rs_val_null(void)
{
	return new_node(NULL, RS_VAL_NULL, 0, NULL);
}

struct rs_val *rs_val_double(double d)
{
	struct rs_val *v = new_node(NULL, RS_VAL_DOUBLE, 0, NULL);

	if (v)
		v->u.dbl.d = d;
	return v;
}

/* @n fields as @e's members, made nodes. */
static void add_fields(struct rs_val *e, const struct rs_val_field *f,
		       unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		const struct rs_val_field *m = &f[i];
		const struct rs_val *text = NULL;

		switch (m->type) {
		case RS_VAL_STR:
			set_str(put_new(e, m->key, RS_VAL_STR, m->v.str.len),
				m->v.str.s, m->v.str.len);
			break;
		case RS_VAL_UINT: rs_val_put_u64(e, m->key, m->v.u); break;
		case RS_VAL_INT: rs_val_put_i64(e, m->key, m->v.i); break;
		case RS_VAL_BOOL: rs_val_put_bool(e, m->key, m->v.b); break;
		case RS_VAL_DOUBLE:
			rs_val_put_double(e, m->key, m->v.d);
			break;
		case RS_VAL_FIELD_PAIRS:
			/* Held against the string member of the text. */
			for (unsigned k = 0; k < i && !text; k++)
				if (f[k].type == RS_VAL_STR &&
				    f[k].v.str.s == m->v.pairs.text)
					text = rs_val_get(e, f[k].key);
			rs_val_put_pairs(e, m->key, text, m->v.pairs.at,
					 m->v.pairs.n);
			break;
		case RS_VAL_FIELD_TREE: rs_val_link(e, m->v.tree); break;
		case RS_VAL_FIELD_STRUCT: {
			struct rs_val *o = put_new(e, m->key, RS_VAL_OBJ, 0);

			if (o)
				add_members(o, m->v.st.ops, m->v.st.data);
			break;
		}
		default: rs_val_put(e, m->key, rs_val_null()); break;
		}
	}
}

struct rs_val *rs_val_of_fields_on(void *buf, size_t len,
				   const struct rs_val_field *f, unsigned n)
{
	struct rs_val *e = obj_on(buf, len);

	if (!e)
		return NULL;
	add_fields(e, f, n);
	return rs_val_check(e) < 0 ? NULL : e;
}

struct rs_val *rs_val_of_fields(const struct rs_val_field *f, unsigned n)
{
	struct rs_val *e = rs_val_obj();

	add_fields(e, f, n);
	if (rs_val_check(e) < 0) {
		rs_val_free(e);
		return NULL;
	}
	return e;
}

void rs_val_put_str(struct rs_val *obj, const char *key, const char *s)
{
	size_t len;

	if (!s)
		s = "";
	len = strlen(s);
	set_str(put_new(obj, key, RS_VAL_STR, len), s, len);
}

void rs_val_put_vstrf(struct rs_val *obj, const char *key, const char *fmt,
		      va_list ap)
{
	char buf[512];

	/* (rs_vfmt(): the same text, without vsnprintf()'s FILE set-up
	 * for a fact's few bytes) */
	rs_vfmt(buf, sizeof(buf), fmt, ap);
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
	struct rs_val *v = put_new(obj, key, RS_VAL_UINT, 0);

	if (v)
		v->u.u = u;
}

void rs_val_put_i64(struct rs_val *obj, const char *key, int64_t i)
{
	struct rs_val *v = put_new(obj, key, i < 0 ? RS_VAL_INT : RS_VAL_UINT,
				   0);

	if (v)
		v->u.i = i;
}

void rs_val_put_bool(struct rs_val *obj, const char *key, bool b)
{
	struct rs_val *v = put_new(obj, key, RS_VAL_BOOL, 0);

	if (v)
		v->u.b = b;
}

void rs_val_put_double(struct rs_val *obj, const char *key, double d)
{
	struct rs_val *v = put_new(obj, key, RS_VAL_DOUBLE, 0);

	if (v)
		v->u.dbl.d = d;
}

struct rs_val *rs_val_push_obj(struct rs_val *arr)
{
	return push_new(arr, RS_VAL_OBJ, 0);
}

struct rs_val *rs_val_push_arr(struct rs_val *arr)
{
	return push_new(arr, RS_VAL_ARR, 0);
}

void rs_val_push_str(struct rs_val *arr, const char *s)
{
	size_t len;

	if (!s)
		s = "";
	len = strlen(s);
	set_str(push_new(arr, RS_VAL_STR, len), s, len);
}

void rs_val_push_u64(struct rs_val *arr, uint64_t u)
{
	struct rs_val *v = push_new(arr, RS_VAL_UINT, 0);

	if (v)
		v->u.u = u;
}

const struct rs_val *rs_val_get(const struct rs_val *obj, const char *key)
{
	if (!ready(obj) || obj->type != RS_VAL_OBJ)
		return NULL;
	for (const struct rs_val *m = obj->u.obj.first; m; m = m->next)
		if (!strcmp(m->key, key))
			return m;
	return NULL;
}

struct rs_val *rs_val_get_mut(struct rs_val *obj, const char *key)
{
	return (struct rs_val *)rs_val_get(obj, key);
}

const char *rs_val_get_str(const struct rs_val *obj, const char *key)
{
	return rs_val_str_of(rs_val_get(obj, key));
}

uint64_t rs_val_get_u64(const struct rs_val *obj, const char *key)
{
	const struct rs_val *v = rs_val_get(obj, key);

	return v && (v->type == RS_VAL_UINT || v->type == RS_VAL_INT) ?
	       rs_val_u64_of(v) : 0;
}

int64_t rs_val_get_i64(const struct rs_val *obj, const char *key)
{
	return rs_val_i64_of(rs_val_get(obj, key));
}

double rs_val_get_double(const struct rs_val *obj, const char *key)
{
	const struct rs_val *v = rs_val_get(obj, key);

	return v && (v->type == RS_VAL_DOUBLE || v->type == RS_VAL_INT ||
		     v->type == RS_VAL_UINT) ? rs_val_double_of(v) : 0;
}

bool rs_val_get_bool(const struct rs_val *obj, const char *key)
{
	return rs_val_bool_of(rs_val_get(obj, key));
}

enum rs_val_type rs_val_type_of(const struct rs_val *v)
{
	if (v && v->type == T_PAIRS)
		return RS_VAL_OBJ;
	if (v && v->type == T_LIST)
		return RS_VAL_ARR;
	if (v && v->type == T_STRUCT)
		return RS_VAL_OBJ;
	return v ? (enum rs_val_type)v->type : RS_VAL_NULL;
}

size_t rs_val_len(const struct rs_val *v)
{
	if (v && v->type == T_LIST)
		return v->u.list.ops->len(v->u.list.data);
	return is_container(ready(v)) ? v->len : 0;
}

const struct rs_val *rs_val_at(const struct rs_val *arr, size_t i)
{
	if (!ready(arr) || arr->type != RS_VAL_ARR || i >= arr->len)
		return NULL;
	return arr->u.arr.items[i];
}

const struct rs_val *rs_val_first(const struct rs_val *obj)
{
	return ready(obj) && obj->type == RS_VAL_OBJ ? obj->u.obj.first : NULL;
}

const struct rs_val *rs_val_next(const struct rs_val *member)
{
	return member ? member->next : NULL;
}

const char *rs_val_key(const struct rs_val *member)
{
	return member ? member->key : NULL;
}

/* As json-c's getters converted: a string only from a string, a number
 * from any number (and a bool), a bool from anything not zero. */
const char *rs_val_str_of(const struct rs_val *v)
{
	return v && v->type == RS_VAL_STR ? str_of(v) : NULL;
}

int64_t rs_val_i64_of(const struct rs_val *v)
{
	if (!v)
		return 0;
	switch (v->type) {
	case RS_VAL_BOOL: return v->u.b;
	case RS_VAL_INT: return v->u.i;
	case RS_VAL_UINT: return v->u.u > INT64_MAX ? INT64_MAX :
				 (int64_t)v->u.u;
	case RS_VAL_DOUBLE: return (int64_t)v->u.dbl.d;
	case RS_VAL_STR: return strtoll(str_of(v), NULL, 10);
	default: return 0;
	}
}

uint64_t rs_val_u64_of(const struct rs_val *v)
{
	if (!v)
		return 0;
	switch (v->type) {
	case RS_VAL_BOOL: return v->u.b;
	case RS_VAL_INT: return v->u.i < 0 ? 0 : (uint64_t)v->u.i;
	case RS_VAL_UINT: return v->u.u;
	case RS_VAL_DOUBLE: return v->u.dbl.d < 0 ? 0 :
				   (uint64_t)v->u.dbl.d;
	case RS_VAL_STR: return strtoull(str_of(v), NULL, 10);
	default: return 0;
	}
}

double rs_val_double_of(const struct rs_val *v)
{
	if (!v)
		return 0;
	switch (v->type) {
	case RS_VAL_BOOL: return v->u.b;
	case RS_VAL_INT: return (double)v->u.i;
	case RS_VAL_UINT: return (double)v->u.u;
	case RS_VAL_DOUBLE: return v->u.dbl.d;
	case RS_VAL_STR: return strtod(str_of(v), NULL);
	default: return 0;
	}
}

bool rs_val_bool_of(const struct rs_val *v)
{
	if (!v)
		return false;
	switch (v->type) {
	case RS_VAL_BOOL: return v->u.b;
	case RS_VAL_INT: case RS_VAL_UINT: return v->u.u != 0;
	case RS_VAL_DOUBLE: return v->u.dbl.d != 0;
	case RS_VAL_STR: return v->len != 0;
	default: return false;
	}
}

/* @m, a member to copy into @c, when it is pairs whose text is a member
 * copied before it: pairs of the copy's text in *@ret.  1, 0 when it
 * is not such pairs, -ENOMEM. */
static int copy_pairs(struct rs_val *c, const struct rs_val *m,
		      struct rs_val **ret)
{
	const struct rs_val *text;
	struct rs_val *k;
	uint16_t *at;

	if (m->type != T_PAIRS || !m->u.pairs.text ||
	    !m->u.pairs.text->key)
		return 0;
	text = rs_val_get(c, m->u.pairs.text->key);
	if (!text || text->type != RS_VAL_STR ||
	    !rs_val_equal(text, m->u.pairs.text))
		return 0;
	k = new_node(c->u.obj.ar, T_PAIRS, 0, m->key);
	at = k ? arena_alloc(c->u.obj.ar, m->len * sizeof(*at) + 1) : NULL;
	if (!at)
		return -ENOMEM;
	memcpy(at, m->u.pairs.at, m->len * sizeof(*at));
	k->len = m->len;
	k->u.pairs.text = text;
	k->u.pairs.at = at;
	*ret = k;
	return 1;
}

/* Copy @v's value (not its key) into a new node of @ar (NULL: its own). */
static struct rs_val *copy_node(struct rs_arena *ar, const struct rs_val *v,
				const char *key)
{
	struct rs_val *c;

	ready(v);
	c = new_node(ar, v->type,
				    v->type == RS_VAL_STR ? v->len : 0, key);

	if (!c)
		return NULL;
	switch (v->type) {
	case RS_VAL_STR:
		set_str(c, str_of(v), v->len);
		break;
	case RS_VAL_DOUBLE:
		c->u.dbl.d = v->u.dbl.d;
		if (v->u.dbl.text) {
			char *t = arena_alloc(ar ? ar : arena_of_root(c),
					      strlen(v->u.dbl.text) + 1);

			if (!t)
				goto fail;
			c->u.dbl.text = strcpy(t, v->u.dbl.text);
		}
		break;
	case RS_VAL_OBJ:
		for (const struct rs_val *m = v->u.obj.first; m; m = m->next) {
			struct rs_val *k = NULL;
			int r = copy_pairs(c, m, &k);

			if (!r)
				k = copy_node(c->u.obj.ar, m, m->key);
			if (!k)
				goto fail;
			link_member(c, k);
		}
		break;
	case RS_VAL_ARR:
		for (uint32_t i = 0; i < v->len; i++) {
			struct rs_val *k = copy_node(c->u.arr.ar,
						     v->u.arr.items[i], NULL);

			if (!k || !arr_add(c, k))
				goto fail;
		}
		break;
	default:
		c->u.u = v->u.u;
		break;
	}
	c->flags |= v->flags & F_OOM;
	return c;
fail:
	if (!ar)
		rs_val_free(c);
	return NULL;
}

struct rs_val *rs_val_copy(const struct rs_val *v)
{
	return v ? copy_node(NULL, v, NULL) : NULL;
}

bool rs_val_equal(const struct rs_val *a, const struct rs_val *b)
{
	if (!ready(a) || !ready(b))
		return a == b;
	if (a->type != b->type || (is_container(a) && a->len != b->len))
		return false;
	switch (a->type) {
	case RS_VAL_NULL: return true;
	case RS_VAL_BOOL: return a->u.b == b->u.b;
	case RS_VAL_INT: case RS_VAL_UINT: return a->u.u == b->u.u;
	case RS_VAL_DOUBLE: return a->u.dbl.d == b->u.dbl.d;
	case RS_VAL_STR:
		return a->len == b->len && !memcmp(str_of(a), str_of(b),
						   a->len);
	case RS_VAL_ARR:
		for (uint32_t i = 0; i < a->len; i++)
			if (!rs_val_equal(a->u.arr.items[i],
					  b->u.arr.items[i]))
				return false;
		return true;
	case RS_VAL_OBJ:
		for (const struct rs_val *m = a->u.obj.first; m; m = m->next)
			if (!rs_val_equal(m, rs_val_get(b, m->key)))
				return false;
		return true;
	}
	return false;
}

void rs_val_move_first(struct rs_val *obj, const char *key)
{
	struct rs_val *prev = NULL, *m;

	if (!obj || obj->type != RS_VAL_OBJ)
		return;
	for (m = obj->u.obj.first; m && strcmp(m->key, key); m = m->next)
		prev = m;
	if (!m || !prev)
		return;
	prev->next = m->next;
	if (obj->u.obj.last == m)
		obj->u.obj.last = prev;
	m->next = obj->u.obj.first;
	obj->u.obj.first = m;
}

/* json-c -> a tree: for what is read from a JSON file. */
static struct rs_val *from_json(struct rs_arena *ar, struct json_object *j,
				const char *key)
{
	enum json_type t = json_object_get_type(j);
	struct rs_val *v;

	switch (t) {
	case json_type_null:
		return new_node(ar, RS_VAL_NULL, 0, key);
	case json_type_boolean:
		v = new_node(ar, RS_VAL_BOOL, 0, key);
		if (v)
			v->u.b = json_object_get_boolean(j);
		return v;
	case json_type_int:
		if (json_object_get_int64(j) < 0) {
			v = new_node(ar, RS_VAL_INT, 0, key);
			if (v)
				v->u.i = json_object_get_int64(j);
		} else {
			v = new_node(ar, RS_VAL_UINT, 0, key);
			if (v)
				v->u.u = json_object_get_uint64(j);
		}
		return v;
	case json_type_double: {
		/* Written again as it was read (json-c keeps the text). */
		const char *s = json_object_to_json_string_ext(j,
				JSON_C_TO_STRING_PLAIN);
		char *text;

		v = new_node(ar, RS_VAL_DOUBLE, 0, key);
		if (!v)
			return NULL;
		v->u.dbl.d = json_object_get_double(j);
		text = arena_alloc(ar ? ar : arena_of_root(v), strlen(s) + 1);
		if (!text) {
			if (!ar)
				rs_val_free(v);
			return NULL;
		}
		v->u.dbl.text = strcpy(text, s);
		return v;
	}
	case json_type_string: {
		size_t len = (size_t)json_object_get_string_len(j);

		v = new_node(ar, RS_VAL_STR, len, key);
		set_str(v, json_object_get_string(j), len);
		return v;
	}
	case json_type_object:
		v = new_node(ar, RS_VAL_OBJ, 0, key);
		if (!v)
			return NULL;
		/* json-c's keys are distinct already: appended, not each
		 * compared with every one before it (a third of making a
		 * record read back). */
		v->flags |= F_DISTINCT;
		json_object_object_foreach(j, k, m) {
			struct rs_val *c = from_json(v->u.obj.ar, m, k);

			if (!c) {
				set_oom(v);
				break;
			}
			link_member(v, c);
		}
		v->flags &= ~F_DISTINCT;
		return v;
	case json_type_array:
		v = new_node(ar, RS_VAL_ARR, 0, key);
		if (!v)
			return NULL;
		for (size_t i = 0; i < json_object_array_length(j); i++) {
			struct rs_val *c = from_json(v->u.arr.ar,
				json_object_array_get_idx(j, i), NULL);

			if (!c || !arr_add(v, c)) {
				set_oom(v);
				break;
			}
		}
		return v;
	}
	return NULL;
}

struct rs_val *rs_val_from_json(struct json_object *j)
{
	return from_json(NULL, j, NULL);
}

struct rs_val *rs_val_parse(const char *text)
{
	struct json_object *j = json_tokener_parse(text);
	struct rs_val *v;

	if (!j)
		return NULL;
	v = rs_val_from_json(j);
	json_object_put(j);
	return v;
}

/*
 * JSON out, byte for byte as json-c's json_object_to_json_string_ext()
 * wrote it with NOSLASHESCAPE and PRETTY|SPACED (pretty) or PLAIN: two
 * spaces a level, "key": value, an empty object as {} and an empty array
 * as [ and its closing bracket on the next line, at the array's level;
 * control characters as \uXXXX (lower-case hex) but for the five with a
 * short form.  tests/unit/test_value_json.c holds the two side by side.
 *
 * Into a buffer of our own, not a byte at a time into stdio: a record of
 * 2000 QPs is 10 MB, and fputc() a byte with a stream lock each, then a
 * write(2) each 8 KiB (the output's stream buffer), cost about a third
 * of a second of the bench's run in the VM, where every system call is
 * dear (docs/setup-speed-log.md).  Handed on JOUT_CHUNK at a time, so that
 * it goes to the file in writes that large: to rs_val_write_json_to()'s
 * function as it is (--json: one write(2) each), not copied again into
 * a stream's buffer (a tenth of writing a real run's record).  Begun in
 * 4 KiB of the caller's stack and moved to the big buffer when that is
 * full, so that a short value (a line of a stream, a message) costs no
 * allocation: 256 KiB asked for and freed each time was most of the
 * work under AddressSanitizer, a fresh mapping each.  The pieces are the
 * same either way.
 */
#define JOUT_CHUNK ((size_t)256 << 10)

struct jout {
	char *buf;
	size_t len, cap;
	/* Full: the buffer goes to it (0, or < 0: nothing more goes). */
	int (*put)(void *arg, const void *buf, size_t n);
	void *arg;
	bool failed;    /* put failed: the rest dropped */
	bool grow;      /* full: a bigger buffer (rs_val_json_string()) */
	bool spill;     /* in the caller's 4 KiB: full, a JOUT_CHUNK one */
	bool cut;       /* full, and neither: the rest dropped */
	bool oom;       /* an item or a struct's members not made */
	struct rs_val *scratch; /* a struct's members, made again for each */
};

/* What @j holds handed on, and then @n bytes at @s where they are more
 * than @j holds (the buffer not filled with them first). */
static void jout_put(struct jout *j, const char *s, size_t n)
{
	if (!j->failed && j->len && j->put(j->arg, j->buf, j->len) < 0)
		j->failed = true;
	j->len = 0;
	if (!j->failed && n && j->put(j->arg, s, n) < 0)
		j->failed = true;
}

/* The caller's small buffer full: its bytes moved to a JOUT_CHUNK one,
 * or, out of memory, kept there (and handed on in small pieces). */
static void jout_spill(struct jout *j)
{
	char *b = rs_malloc(JOUT_CHUNK);

	j->spill = false;
	if (b) {
		memcpy(b, j->buf, j->len);
		j->buf = b;
		j->cap = JOUT_CHUNK;
	}
}

static void jput_slow(struct jout *j, const char *s, size_t n)
{
	if (j->spill)
		jout_spill(j);
	if (j->put) {
		if (n > j->cap) {
			jout_put(j, s, n);
			return;
		}
		if (n > j->cap - j->len)
			jout_put(j, NULL, 0);
	} else if (j->grow && !j->cut) {
		size_t cap = j->cap * 2 > j->len + n ? j->cap * 2 : j->len + n;
		char *b = rs_reallocarray(j->buf, cap + 1, 1);

		if (b) {
			j->buf = b;
			j->cap = cap;
		} else {
			j->cut = true;
		}
	}
	if (n > j->cap - j->len) {
		n = j->cap - j->len;
		j->cut = true;
	}
	memcpy(j->buf + j->len, s, n);
	j->len += n;
}

static inline void jput(struct jout *j, const char *s, size_t n)
{
	if (n <= j->cap - j->len) {
		memcpy(j->buf + j->len, s, n);
		j->len += n;
	} else {
		jput_slow(j, s, n);
	}
}

static inline void jputc(struct jout *j, char c)
{
	if (j->len < j->cap)
		j->buf[j->len++] = c;
	else
		jput_slow(j, &c, 1);
}

#define JPUTS(j, lit) jput(j, lit, sizeof(lit) - 1)

static inline void put_bool(struct jout *j, bool b)
{
	if (b)
		JPUTS(j, "true");
	else
		JPUTS(j, "false");
}

/* @n bytes from @s to @o, where most pieces are a key or a short value
 * of a few to 16 bytes: two overlapping moves of a fixed size rather
 * than a call to memcpy() (each read inside @s). */
static inline void copy_small(char *o, const char *s, size_t n)
{
	if (n >= 8 && n <= 16) {
		memcpy(o, s, 8);
		memcpy(o + n - 8, s + n - 8, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(o, s, 4);
		memcpy(o + n - 4, s + n - 4, 4);
	} else if (n && n < 4) {
		/* Its first, middle and last: all of them. */
		o[0] = s[0];
		o[n / 2] = s[n / 2];
		o[n - 1] = s[n - 1];
	} else if (n) {
		memcpy(o, s, n);
	}
}

#define E16 10000000000000000ull
#define E17 100000000000000000ull

static const uint64_t p10[] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull,
	1000000ull, 10000000ull, 100000000ull, 1000000000ull,
	10000000000ull, 100000000000ull, 1000000000000ull,
	10000000000000ull, 100000000000000ull, 1000000000000000ull,
	E16, E17, 1000000000000000000ull, 10000000000000000000ull,
};

/* Two digits a division (a real run's record has 21k numbers), into
 * the buffer where there is room: its digits counted first. */
static void put_u64(struct jout *j, uint64_t u)
{
	char b[RS_DEC_MAX], *p;
	size_t n = 1;

	while (n < RS_DEC_MAX && u >= p10[n])
		n++;
	if (n <= j->cap - j->len) {
		rs_dec(j->buf + j->len + n, u);
		j->len += n;
		return;
	}
	p = rs_dec(b + sizeof(b), u);
	jput(j, p, n);
}

static void put_i64(struct jout *j, int64_t i)
{
	if (i < 0) {
		jputc(j, '-');
		put_u64(j, -(uint64_t)i);
	} else {
		put_u64(j, (uint64_t)i);
	}
}

static void put_escape(struct jout *j, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

	switch (c) {
	case '\b': JPUTS(j, "\\b"); break;
	case '\n': JPUTS(j, "\\n"); break;
	case '\r': JPUTS(j, "\\r"); break;
	case '\t': JPUTS(j, "\\t"); break;
	case '\f': JPUTS(j, "\\f"); break;
	case '"': JPUTS(j, "\\\""); break;
	case '\\': JPUTS(j, "\\\\"); break;
	default: jput(j, u, sizeof(u)); break;
	}
}

/* The bytes json-c escapes: below ' ', '"' and '\\' (NUL too, which
 * ends a key).  A table, one load a byte, where three compares were. */
static const bool escaped[256] = {
	[0x00] = 1, [0x01] = 1, [0x02] = 1, [0x03] = 1, [0x04] = 1,
	[0x05] = 1, [0x06] = 1, [0x07] = 1, [0x08] = 1, [0x09] = 1,
	[0x0a] = 1, [0x0b] = 1, [0x0c] = 1, [0x0d] = 1, [0x0e] = 1,
	[0x0f] = 1, [0x10] = 1, [0x11] = 1, [0x12] = 1, [0x13] = 1,
	[0x14] = 1, [0x15] = 1, [0x16] = 1, [0x17] = 1, [0x18] = 1,
	[0x19] = 1, [0x1a] = 1, [0x1b] = 1, [0x1c] = 1, [0x1d] = 1,
	[0x1e] = 1, [0x1f] = 1, ['"'] = 1, ['\\'] = 1,
};

/* Whether any of the 8 bytes in @w needs an escape: one below ' ', a
 * '"' or a '\\' (a byte is zero or below n by the carry tricks of
 * Hacker's Delight, 6-1; exact for "any", which is all it asks). */
static inline bool escape_in8(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ull;
	const uint64_t highs = 0x8080808080808080ull;
	uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');

	return (((w - ones * ' ') & ~w) | ((q - ones) & ~q) |
		((b - ones) & ~b)) & highs;
}

#ifdef __SSE2__
/* A bit for each of the 16 bytes of @x that needs an escape: a quote, a
 * backslash or a control byte. */
static inline unsigned escape_bits16(__m128i x)
{
	const __m128i q = _mm_set1_epi8('"');
	const __m128i bs = _mm_set1_epi8('\\');
	const __m128i lo = _mm_set1_epi8(' ' - 1);
	__m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, q),
					      _mm_cmpeq_epi8(x, bs)),
				 _mm_cmpeq_epi8(_mm_min_epu8(x, lo), x));

	return (unsigned)_mm_movemask_epi8(m);
}

/* The same of the 16 bytes at @p. */
static inline unsigned escape_mask16(const char *p)
{
	return escape_bits16(_mm_loadu_si128((const __m128i *)p));
}
#endif

/* Whether any of the 8 bytes of @a, or of @b, needs an escape. */
static inline bool escape_in16(uint64_t a, uint64_t b)
{
#ifdef __SSE2__
	return escape_bits16(_mm_set_epi64x((long long)b, (long long)a));
#else
	return escape_in8(a) || escape_in8(b);
#endif
}

/* The first byte from @p on, before @end, that needs an escape; @end
 * when none does.  Eight at a time, the last eight of the text read
 * again rather than its tail a byte at a time (most strings are names
 * and paths with nothing to escape, many longer than 8 and few a
 * multiple of it). */
static const char *next_escape(const char *p, const char *end)
{
	uint64_t w;

#ifdef __SSE2__
	/* Sixteen at a time where there is SSE2 (every x86-64): a call's
	 * text is tens of bytes, and three compares and a mask for 16 are
	 * a third of the word trick's instructions for 8 (set-up 10). */
	if (end - p >= 16) {
		unsigned bits;

		for (;;) {
			bits = escape_mask16(p);
			if (bits)
				return p + __builtin_ctz(bits);
			p += 16;
			if (end - p < 16)
				break;
		}
		if (p == end)
			return end;
		/* The last 16 read again (those before @p are clean). */
		bits = escape_mask16(end - 16);
		return bits ? end - 16 + __builtin_ctz(bits) : end;
	}
#endif
	if (end - p >= 8) {
		do {
			memcpy(&w, p, 8);
			if (escape_in8(w))
				goto bytes;
			p += 8;
		} while (end - p >= 8);
		if (p == end)
			return end;
		/* (Bytes before @p, read again, are clean.) */
		memcpy(&w, end - 8, 8);
		if (!escape_in8(w))
			return end;
	}
bytes:
	while (p < end && !escaped[(unsigned char)*p])
		p++;
	return p;
}

/* @s quoted, known to need no escape. */
static void put_quoted(struct jout *j, const char *s, size_t len)
{
	if (len + 2 <= j->cap - j->len) {
		char *o = j->buf + j->len;

		o[0] = '"';
		copy_small(o + 1, s, len);
		o[len + 1] = '"';
		j->len += len + 2;
		return;
	}
	jputc(j, '"');
	jput(j, s, len);
	jputc(j, '"');
}

/* copy_clean() of more than it takes itself: looked at first.  (Not
 * inline: what it keeps across its calls made each copy_clean() save
 * registers.) */
__attribute__((noinline))
static bool copy_clean_long(char *o, const char *s, size_t n)
{
	if (next_escape(s, s + n) != s + n)
		return false;
	memcpy(o, s, n);
	return true;
}

/*
 * @n bytes of @s to @o: whether none of them needs an escape.  Up to 16
 * (most keys and values; 32 with SSE2, paths and names) looked at in the
 * words copy_small() moves, all of them at once, not a byte at a time
 * nor in a scan of their own before the copy; longer ones looked at
 * first.
 */
static inline bool copy_clean(char *o, const char *s, size_t n)
{
	uint64_t a, b;

#ifdef __SSE2__
	/* A path or an object's name: its first and last 16. */
	if (n >= 16 && n <= 32) {
		__m128i x = _mm_loadu_si128((const __m128i *)s);
		__m128i y = _mm_loadu_si128((const __m128i *)(s + n - 16));

		_mm_storeu_si128((__m128i *)o, x);
		_mm_storeu_si128((__m128i *)(o + n - 16), y);
		return !(escape_bits16(x) | escape_bits16(y));
	}
#endif
	if (n >= 8 && n <= 16) {
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(o, &a, 8);
		memcpy(o + n - 8, &b, 8);
		return !escape_in16(a, b);
	}
	if (n >= 4 && n < 8) {
		uint32_t x, y;

		memcpy(&x, s, 4);
		memcpy(&y, s + n - 4, 4);
		memcpy(o, &x, 4);
		memcpy(o + n - 4, &y, 4);
		a = x | (uint64_t)y << 32;
		return !escape_in16(a, a);
	}
	if (n && n < 4) {
		/* Its first, middle and last: all of them. */
		o[0] = s[0];
		o[n / 2] = s[n / 2];
		o[n - 1] = s[n - 1];
		return !(escaped[(unsigned char)s[0]] |
			 escaped[(unsigned char)s[n / 2]] |
			 escaped[(unsigned char)s[n - 1]]);
	}
	return !n || copy_clean_long(o, s, n);
}

/* The bytes that need no escape go in runs, one copy each. */
/* (Where put_escaped() found a byte to escape, or no room.) */
static void put_escaped_slow(struct jout *j, const char *s, size_t len)
{
	const char *p = s, *end = s + len, *e = next_escape(s, end);

	if (e == end) {
		put_quoted(j, s, len);
		return;
	}
	jputc(j, '"');
	for (;;) {
		jput(j, p, e - p);
		if (e == end)
			break;
		put_escape(j, (unsigned char)*e);
		p = e + 1;
		e = next_escape(p, end);
	}
	jputc(j, '"');
}

static inline void put_escaped(struct jout *j, const char *s, size_t len)
{
	/* Most have nothing to escape: copied, and looked at as they
	 * are. */
	if (len + 2 <= j->cap - j->len) {
		char *o = j->buf + j->len;

		if (copy_clean(o + 1, s, len)) {
			o[0] = '"';
			o[len + 1] = '"';
			j->len += len + 2;
			return;
		}
	}
	put_escaped_slow(j, s, len);
}

/* A member's key: the scan finds its end too (no strlen() first). */
static void put_escaped_key(struct jout *j, const char *s)
{
	const char *run = s, *p = s;

	jputc(j, '"');
	for (;;) {
		while (!escaped[(unsigned char)*p])
			p++;
		jput(j, run, p - run);
		if (!*p)
			break;
		put_escape(j, (unsigned char)*p);
		run = ++p;
	}
	jputc(j, '"');
}

static void indent(struct jout *j, unsigned level, bool pretty)
{
	static const char spaces[] = "                                ";
	size_t n = 2 * (size_t)level;

	if (!pretty)
		return;
	for (; n > sizeof(spaces) - 1; n -= sizeof(spaces) - 1)
		jput(j, spaces, sizeof(spaces) - 1);
	jput(j, spaces, n);
}

/*
 * An item's separator, its newline and its indent as one piece, cut from
 * this (a level deeper than SEP_SPACES / 2 the old way): they were three
 * to five pieces, each with its own check for room, and the largest part
 * of writing a real run's record (set-up 10).
 */
static const char sep_text[] = ",\n"
	"                                                                "
	"                                                                ";
#define SEP_SPACES (sizeof(sep_text) - 3)
#define SEP_FIXED 32

/* A container's parts as json-c prints them: its opening, each item's
 * separator and indent, the colon after a key, its closing. */
static void open_c(struct jout *j, char c, bool pretty)
{
	if (pretty && j->cap - j->len >= 2) {
		j->buf[j->len] = c;
		j->buf[j->len + 1] = '\n';
		j->len += 2;
		return;
	}
	jputc(j, c);
	if (pretty)
		jputc(j, '\n');
}

static inline void next_item(struct jout *j, bool *had, unsigned level,
			     bool pretty)
{
	size_t n = 2 * ((size_t)level + 1);
	bool first = !*had;

	*had = true;
	if (!pretty) {
		if (!first)
			jputc(j, ',');
		return;
	}
	/* SEP_FIXED bytes copied whatever the indent (a move or two, no
	 * call), the piece's own kept. */
	if (n + 2 <= SEP_FIXED && SEP_FIXED <= j->cap - j->len) {
		memcpy(j->buf + j->len, sep_text + 2 * first, SEP_FIXED);
		j->len += n + 2 * !first;
		return;
	}
	if (n <= SEP_SPACES) {
		if (first)
			jput(j, sep_text + 2, n);
		else
			jput(j, sep_text, n + 2);
		return;
	}
	if (!first)
		JPUTS(j, ",\n");
	indent(j, level + 1, pretty);
}

static void put_colon(struct jout *j, bool pretty)
{
	if (pretty)
		JPUTS(j, ": ");
	else
		jputc(j, ':');
}

/* A member's key, known to need no escape, and its colon: one check for
 * room. */
static inline void put_key(struct jout *j, const char *s, size_t len,
			   bool pretty)
{
	size_t n = len + 3 + pretty;

	if (n <= j->cap - j->len) {
		char *o = j->buf + j->len;

		o[0] = '"';
		copy_small(o + 1, s, len);
		o[len + 1] = '"';
		o[len + 2] = ':';
		if (pretty)
			o[len + 3] = ' ';
		j->len += n;
		return;
	}
	jputc(j, '"');
	jput(j, s, len);
	jputc(j, '"');
	put_colon(j, pretty);
}

/* A node's key and its colon: its length is not kept, and most keys
 * are shorter than a word, so one table look a byte finds its end and
 * any escape at once. */
static void put_node_key(struct jout *j, const char *s, bool pretty)
{
	const char *p = s;

	while (!escaped[(unsigned char)*p])
		p++;
	if (!*p) {
		put_key(j, s, p - s, pretty);
		return;
	}
	put_escaped_key(j, s);
	put_colon(j, pretty);
}

/* Room a member's first piece asks for beyond its key: its separator
 * and indent (SEP_FIXED), quotes, colon and space. */
#define MEMBER_ROOM (SEP_FIXED + 4)

/*
 * An object's next member's separator, indent, key (@klen bytes; known
 * to need no escape where @clean) and colon, pretty, in one piece: one
 * check for room, one copy for the key, where they were three calls, a
 * scan for the key's end and four checks (half of writing a real run's
 * facts).  False, and nothing written, where it takes more than that:
 * no room, an indent past SEP_FIXED, a key to escape.
 */
static inline bool member_key(struct jout *j, bool *had, unsigned level,
			      const char *key, size_t klen, bool clean)
{
	size_t n = 2 * ((size_t)level + 1);
	bool first = !*had;
	char *o;

	if (n + 2 > SEP_FIXED || MEMBER_ROOM + klen > j->cap - j->len)
		return false;
	/* SEP_FIXED bytes whatever the indent, the piece's own kept (a
	 * move or two, no call); kept only once the key is. */
	memcpy(j->buf + j->len, sep_text + 2 * first, SEP_FIXED);
	o = j->buf + j->len + n + 2 * !first;
	if (clean)
		copy_small(o + 1, key, klen);
	else if (!copy_clean(o + 1, key, klen))
		return false;
	o[0] = '"';
	memcpy(o + klen + 1, "\": ", 3);
	j->len = (size_t)(o + klen + 4 - j->buf);
	*had = true;
	return true;
}

static void close_c(struct jout *j, char c, bool had, unsigned level,
		    bool pretty)
{
	size_t n = 2 * (size_t)level;

	if (pretty && had && n + 1 <= SEP_FIXED &&
	    SEP_FIXED <= j->cap - j->len) {
		memcpy(j->buf + j->len, sep_text + 1, SEP_FIXED);
		j->len += n + 1;
	} else if (pretty && had && n <= SEP_SPACES) {
		jput(j, sep_text + 1, n + 1);
	} else if (pretty) {
		if (had)
			jputc(j, '\n');
		indent(j, level, pretty);
	}
	jputc(j, c);
}

/* As the value builders wrote a double: the fewest digits that read
 * back as the same double, so 704.9 stays 704.9 in the JSON.  A decimal
 * of up to 15 significant digits (DBL_DIG) survives the trip to a
 * double and back at 15, and %g drops the zeros that pad it: so 15
 * gives what the shortest of 6..15 would, and only 16 and 17 are left
 * to try.  (Trying each from 6 up was a dozen snprintf()s and strtod()s
 * for a measured time, once per object created: in perf, printf_fp,
 * strtod and vfprintf were about 6% of a 400-QP run's samples.)  Now
 * made when the JSON is written, not when the value is. */
static size_t double_by_printf(double d, char *buf, size_t size)
{
	/* (A subnormal holds fewer digits: from 6, as before.) */
	for (int prec = isnormal(d) || d == 0 ? 15 : 6; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, d);
		/* 17 digits always read back (a measured time mostly needs
		 * them): no strtod() to say so. */
		if (prec == 17 || strtod(buf, NULL) == d)
			break;
	}
	return strlen(buf);
}

/* Bytes a double's fixed form may take in place: fixed_of() moves
 * pieces of a fixed size, not as many bytes as it has. */
#define DBL_ROOM 48

/* A double's 17 digits: where they start in a buffer of DIG_BUF bytes,
 * so that fixed_of() may move 17 and 16 from anywhere in them. */
#define DIG_AT (RS_DEC_MAX - 17)
#define DIG_BUF 40

/*
 * %.*g of @prec digits (<= 17) in fixed notation: @c is those digits
 * (the first not 0), already rounded, and more after them (DIG_AT of a
 * DIG_BUF buffer), of a number whose decimal exponent is @x (-4 <= @x <
 * @prec); the zeros that end its fraction are dropped.  Into @out,
 * DBL_ROOM bytes.
 */
static size_t fixed_of(bool neg, const char *c, int x, int prec, char *out)
{
	char *o = out + neg;
	int last = prec - 1;

	out[0] = '-';
	/* (The first digit is not 0.) */
	while (last > x && c[last] == '0')
		last--;
	if (x < 0) {
		memcpy(o, "0.000", 5);
		o += 1 - x;
		memcpy(o, c, 17);
		return (size_t)(o + last + 1 - out);
	}
	memcpy(o, c, 17);
	o += x + 1;
	if (last > x) {
		*o = '.';
		memcpy(o + 1, c + x + 1, 16);
		o += 1 + last - x;
	}
	return (size_t)(o - out);
}

/* Whether @c, @n bytes, reads back as @d. */
static bool reads_back(char *c, size_t n, double d)
{
	c[n] = '\0';
	return strtod(c, NULL) == d;
}

/*
 * The same bytes as double_by_printf() with mostly no snprintf() and no
 * strtod(), not three and two: a measured time needs 16 or 17 digits,
 * and printf_fp was a third of the record writer's time in the VM
 * (docs/setup-speed-log.md, set-up 5).  The 15- and 16-digit forms are
 * rounded from the 17 digits and tried in the same order.  The 15 is
 * not tried when it cannot read back: half an ulp of @d is under 11.1
 * units of the 17th digit, and the 17 digits are within half a unit of
 * @d, so a 15-digit form that reads back is within 11.6 units of them:
 * their last two digits are 00-11 or 89-99.  0 when printf must say it.
 */

/*
 * @d's (positive, normal) 17 significant digits as "%.16e" gives them,
 * correctly rounded (ties to even), as an integer, and its decimal
 * exponent, by exact integer arithmetic where it fits 128 bits: from
 * 1e-5 to 2^64, which is where a measured time is.  False elsewhere
 * (printf then).  The snprintf() and strtod()s of a double were a third
 * of writing a real run's record: each object's create_ms.
 */
/* What digits17() found, for reads_back_exact(): @d * 10^j is
 * t + r / 2^k exactly. */
struct exact {
	unsigned __int128 r, p10j;
	uint64_t t;
	int k;
	bool ok;          /* (false: strtod() to say) */
	bool even;        /* its mantissa: a tie reads back as it */
	bool pow2;        /* the double below is half as near */
};

/* 10^@j, @j <= 22, in 128 bits: one multiplication where there were @j
 * of two numbers of 128 bits. */
static inline unsigned __int128 p10_128(int j)
{
	if (j <= 19)
		return p10[j];
	return (unsigned __int128)p10[19] * p10[j - 19];
}

static bool digits17(double d, uint64_t *ret_q, int *ret_x,
		     struct exact *ret_ex)
{
	uint64_t bits, m, q = 0;
	int be, e, x;

	ret_ex->ok = false;
	if (!(d >= 1e-5))
		return false;
	memcpy(&bits, &d, sizeof(bits));
	be = (int)(bits >> 52 & 0x7ff);
	m = (bits & ((1ull << 52) - 1)) | 1ull << 52;
	e = be - 1075;                  /* d = m * 2^e */
	if (e > 11)
		return false;
	/* floor(log10(2^(be - 1023))): the exponent or one below it. */
	x = (be - 1023) * 78913 >> 18;
	for (int tries = 0;; tries++) {
		unsigned __int128 p, pj, r = 0, half = 0;
		int j = 16 - x, k = -e;
		uint64_t t;

		if (tries == 3)
			return false;
		if (e >= 0) {
			/* An integer below 2^64: cut to 17 digits. */
			uint64_t v = m << e;

			if (j >= 0) {
				if (j > 19 || v > UINT64_MAX / p10[j])
					return false;
				t = v * p10[j];
			} else {
				t = v / p10[-j];
				r = v % p10[-j];
				half = p10[-j] / 2;
			}
		} else {
			if (j < 0 || j > 22 || k > 120)
				return false;
			/* Below 2^53 * 10^22 < 2^127. */
			pj = p10_128(j);
			p = m * pj;
			if ((p >> k) >> 64)
				return false;
			t = (uint64_t)(p >> k);
			r = p & (((unsigned __int128)1 << k) - 1);
			half = (unsigned __int128)1 << (k - 1);
			ret_ex->r = r;
			ret_ex->t = t;
			ret_ex->k = k;
			ret_ex->p10j = pj;
			ret_ex->ok = k <= 100;
		}
		/* The exponent guessed one off: again with the other. */
		if (t < E16) {
			x--;
			continue;
		}
		if (t >= E17) {
			x++;
			continue;
		}
		q = t;
		/* (half 0: nothing cut.) */
		if (half && (r > half || (r == half && (q & 1))))
			q++;
		if (q == E17) {
			q = E16;
			x++;
			ret_ex->ok = false;
		}
		break;
	}
	ret_ex->even = !(m & 1);
	ret_ex->pow2 = m == 1ull << 52;
	*ret_q = q;
	*ret_x = x;
	return true;
}

/*
 * Whether @n, the 17 digits cut to fewer and rounded (as fixed_of()'s
 * caller rounds them: not a tie), with zeros after, reads back as the
 * double @ex was made from, as strtod() would say (nearest, ties to
 * even): within half the gap to the next double either side.  strtod()
 * was half of writing a double.
 */
static bool reads_back_exact(const struct exact *ex, uint64_t n)
{
	unsigned __int128 a, mag;
	int64_t dn;
	bool below;

	/* |n - d * 10^j| * 2^k, and its sign (unsigned: no shift of a
	 * negative number). */
	dn = (int64_t)n - (int64_t)ex->t;
	a = (unsigned __int128)(dn < 0 ? -(uint64_t)dn : (uint64_t)dn)
	    << ex->k;
	below = dn < 0 || a < ex->r;
	mag = dn < 0 ? a + ex->r : below ? ex->r - a : a - ex->r;
	mag *= below && ex->pow2 ? 4 : 2;
	return mag < ex->p10j || (mag == ex->p10j && ex->even);
}

/* @c (17 digits of a DIG_BUF buffer at DIG_AT) cut to @prec, and one
 * more in the last of them where @up, in fixed notation into @buf. */
static size_t fixed_cut(bool neg, const char *c, bool up, int x, int prec,
			char *buf)
{
	char r[DIG_BUF];
	int i = DIG_AT + prec - 1;

	if (!up)
		return fixed_of(neg, c, x, prec, buf);
	/* (No carry out of the first: its caller saw to that.) */
	memcpy(r, c - DIG_AT, DIG_BUF);
	for (; r[i] == '9'; i--)
		r[i] = '0';
	r[i]++;
	return fixed_of(neg, r + DIG_AT, x, prec, buf);
}

/* @d in fixed notation into @buf (DBL_ROOM bytes), as double_by_printf()
 * writes it; 0 when printf must.  Its 17 digits made once; a cut one
 * written only once it reads back. */
static size_t double_fast(double d, char *buf)
{
	struct exact ex = { .ok = false };
	char dig[DIG_BUF] = "", *c = dig + DIG_AT;
	uint64_t q;
	int x, t;
	bool neg;

	if (!isnormal(d))
		return 0;
	neg = signbit(d);
	if (!digits17(neg ? -d : d, &q, &x, &ex)) {
		/* "-d.dddddddddddddddde-XX": 17 digits, correctly
		 * rounded. */
		char e[32];

		snprintf(e, sizeof(e), "%.16e", d);
		q = (uint64_t)(e[neg] - '0');
		for (int i = 2; i < 18; i++)
			q = q * 10 + (uint64_t)(e[neg + i] - '0');
		x = atoi(e + neg + 19);
		ex.ok = false;
	}
	rs_dec(dig + RS_DEC_MAX, q);
	t = (c[15] - '0') * 10 + (c[16] - '0');
	/* 15 digits only where they can read back, then 16. */
	for (int p = t <= 11 || t >= 89 ? 15 : 16; p <= 16; p++) {
		/* @q cut to @p digits (@n, with zeros after), and what was
		 * cut. */
		uint64_t s = p10[17 - p], drop = p == 15 ? t : t % 10;
		uint64_t base = q - drop, n = base;
		size_t len;

		/* (e-notation: printf's.) */
		if (x < -4 || x >= p)
			return 0;
		if (drop == s / 2) {
			/* A tie in the 17 digits, themselves rounded: the
			 * exact value says which way (one double in ten of
			 * a measured time), printf where it is not known.
			 * (@q is t or t + 1, and cut the same.) */
			uint64_t tm;

			if (!ex.ok)
				return 0;
			tm = ex.t % s;
			if (tm > s / 2 ||
			    (tm == s / 2 && (ex.r || (base / s & 1))))
				n += s;
		} else if (drop > s / 2) {
			n += s;
		}
		/* A carry into a new digit: printf's. */
		if (n >= E17)
			return 0;
		if (ex.ok) {
			if (reads_back_exact(&ex, n))
				return fixed_cut(neg, c, n != base, x, p, buf);
			continue;
		}
		len = fixed_cut(neg, c, n != base, x, p, buf);
		if (reads_back(buf, len, d))
			return len;
	}
	if (x < -4 || x >= 17)
		return 0;
	return fixed_of(neg, c, x, 17, buf);
}

/* Written in place where there is room (most of the time). */
static void put_dbl(struct jout *j, double d)
{
	char tmp[DBL_ROOM], *o = tmp;
	size_t n;

	if (j->cap - j->len >= DBL_ROOM)
		o = j->buf + j->len;
	n = double_fast(d, o);
	if (!n) {
		o = tmp;
		n = double_by_printf(d, tmp, sizeof(tmp));
	}
	if (o == tmp)
		jput(j, tmp, n);
	else
		j->len += n;
}

static void put_double(struct jout *j, const struct rs_val *v)
{
	if (v->u.dbl.text)
		jput(j, v->u.dbl.text, strlen(v->u.dbl.text));
	else
		put_dbl(j, v->u.dbl.d);
}

/* @clean: the whole text the pair is in needs no escape. */
static void put_pair_value(struct jout *j, const struct pair_span *p,
			   bool clean)
{
	uint64_t u = 0;

	switch (pair_type(p->val, p->len, &u)) {
	case RS_VAL_INT: put_i64(j, (int64_t)u); break;
	case RS_VAL_UINT: put_u64(j, u); break;
	default:
		if (clean)
			put_quoted(j, p->val, p->len);
		else
			put_escaped(j, p->val, p->len);
		break;
	}
}

static bool same_name(const struct pair_span *a, const struct pair_span *b)
{
	return a->r > 0 && b->r > 0 && a->name_len == b->name_len &&
	       !memcmp(a->name, b->name, a->name_len);
}

/* The first PAIRS_SEEN pairs are found in the text once, not once for
 * each pair they are compared with (a QP's modify has 15: the compares
 * were a tenth of a dry run's time); any after that, each time. */
#define PAIRS_SEEN 64

static const struct pair_span *span(const struct rs_val_pairs *v, unsigned i,
				    struct pair_span *seen,
				    struct pair_span *tmp)
{
	if (i < PAIRS_SEEN)
		return &seen[i];
	span_in(v, i, tmp);
	return tmp;
}

/* Pairs as the object they read as: a key given again keeps the place
 * of its first and takes the value of its last.  More than PAIRS_SEEN
 * of them (no call has): each found again for each compare. */
static void put_pairs_many(struct jout *j, const struct rs_val_pairs *v,
			   unsigned level, bool pretty)
{
	struct pair_span seen[PAIRS_SEEN], pi, qi;
	unsigned n = v->n;
	bool had = false;

	for (unsigned i = 0; i < n && i < PAIRS_SEEN; i++)
		if (span_in(v, i, &seen[i]) < 0)
			n = i;
	open_c(j, '{', pretty);
	for (unsigned i = 0; i < n; i++) {
		const struct pair_span *p = span(v, i, seen, &pi), *q;
		bool again = false;
		struct pair_span out;

		if (p->r < 0)
			break;
		if (!p->r)
			continue;
		for (unsigned k = 0; k < i && !again; k++)
			again = same_name(span(v, k, seen, &qi), p);
		if (again)
			continue;
		out = *p;
		for (unsigned k = i + 1; k < n; k++) {
			q = span(v, k, seen, &qi);
			if (q->r < 0)
				break;
			if (same_name(q, p))
				out.val = q->val, out.len = q->len;
		}
		next_item(j, &had, level, pretty);
		put_escaped(j, out.name, out.name_len);
		put_colon(j, pretty);
		put_pair_value(j, &out, false);
	}
	close_c(j, '}', had, level, pretty);
}

#define NOT_WRITTEN 0xff

/* As put_pairs_many(), each pair found once and compared once with the
 * first of each name before it (where each was compared with every pair
 * on both sides, found again each time: a third of writing a dry run's
 * calls). */
static void put_pairs(struct jout *j, const struct rs_val_pairs *v,
		      unsigned level, bool pretty)
{
	struct pair_span seen[PAIRS_SEEN];
	/* A name's first pair: the index of its last; any other, or one
	 * without '=', NOT_WRITTEN. */
	uint8_t last[PAIRS_SEEN];
	unsigned n = v->n;
	bool had = false, clean;

	if (n > PAIRS_SEEN) {
		put_pairs_many(j, v, level, pretty);
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		if (span_in(v, i, &seen[i]) < 0) {
			n = i;
			break;
		}
		last[i] = seen[i].r ? (uint8_t)i : NOT_WRITTEN;
		for (unsigned k = 0; k < i && seen[i].r; k++) {
			if (last[k] != NOT_WRITTEN &&
			    same_name(&seen[k], &seen[i])) {
				last[k] = (uint8_t)i;
				last[i] = NOT_WRITTEN;
				break;
			}
		}
	}
	/* Every name and value is a piece of the text: one look at the
	 * whole of it (almost always clean) for each piece's (a third of
	 * writing the pairs, two a pair). */
	clean = next_escape(v->text, v->text + v->len) == v->text + v->len;
	open_c(j, '{', pretty);
	for (unsigned i = 0; i < n; i++) {
		struct pair_span out;

		if (last[i] == NOT_WRITTEN)
			continue;
		out = seen[i];
		out.val = seen[last[i]].val;
		out.len = seen[last[i]].len;
		next_item(j, &had, level, pretty);
		if (clean) {
			put_key(j, out.name, out.name_len, pretty);
		} else {
			put_escaped(j, out.name, out.name_len);
			put_colon(j, pretty);
		}
		put_pair_value(j, &out, clean);
	}
	close_c(j, '}', had, level, pretty);
}

static void put_json(struct jout *j, const struct rs_val *v, unsigned level,
		     bool pretty);
static void put_fields(struct jout *j,
		       unsigned (*fields)(const void *, struct rs_val_field *,
					  void *),
		       const void *item, unsigned level, bool pretty);

/* @ops's members of @data, written: from its fields, else as a tree of
 * its own (not the scratch one, which the struct @data is part of may
 * be written from). */
static void put_part(struct jout *j, const struct rs_val_struct *ops,
		     const void *data, unsigned level, bool pretty)
{
	struct rs_val *t;

	if (ops->fields) {
		put_fields(j, ops->fields, data, level, pretty);
		return;
	}
	t = rs_val_obj();
	if (t)
		add_members(t, ops, data);
	if (rs_val_check(t) < 0) {
		/* rs_val_write_json() says so. */
		j->oom = true;
		JPUTS(j, "null");
	} else {
		put_json(j, t, level, pretty);
	}
	rs_val_free(t);
}

/* Fields, written as the object rs_val_of_fields() makes of them would
 * be. */
static void put_field_list(struct jout *j, const struct rs_val_field *f,
			   unsigned n, unsigned level, bool pretty)
{
	bool had = false;

	open_c(j, '{', pretty);
	for (unsigned i = 0; i < n; i++) {
		const struct rs_val_field *m = &f[i];

		if (!pretty || !m->klen ||
		    !member_key(j, &had, level, m->key, m->klen, true)) {
			next_item(j, &had, level, pretty);
			if (m->klen)
				put_key(j, m->key, m->klen, pretty);
			else
				put_node_key(j, m->key, pretty);
		}
		switch (m->type) {
		case RS_VAL_STR:
			put_escaped(j, m->v.str.s, m->v.str.len);
			break;
		case RS_VAL_UINT: put_u64(j, m->v.u); break;
		case RS_VAL_INT: put_i64(j, m->v.i); break;
		case RS_VAL_BOOL: put_bool(j, m->v.b); break;
		case RS_VAL_DOUBLE: put_dbl(j, m->v.d); break;
		case RS_VAL_FIELD_PAIRS:
			put_pairs(j, &m->v.pairs, level + 1, pretty);
			break;
		case RS_VAL_FIELD_TREE:
			put_json(j, m->v.tree, level + 1, pretty);
			break;
		case RS_VAL_FIELD_STRUCT:
			put_part(j, m->v.st.ops, m->v.st.data, level + 1,
				 pretty);
			break;
		default: JPUTS(j, "null"); break;
		}
	}
	close_c(j, '}', had, level, pretty);
}

/* An item or a struct from its fields. */
static void put_fields(struct jout *j,
		       unsigned (*fields)(const void *, struct rs_val_field *,
					  void *),
		       const void *item, unsigned level, bool pretty)
{
	struct rs_val_field f[RS_VAL_FIELDS_MAX];
	uint64_t room[RS_VAL_FIELDS_ROOM / sizeof(uint64_t)];

	put_field_list(j, f, fields(item, f, room), level, pretty);
}

/* Each item made, written and let go: the list keeps its structs. */
static void put_list(struct jout *j, const struct rs_val *v, unsigned level,
		     bool pretty)
{
	const struct rs_val_list *ops = v->u.list.ops;
	bool had = false;

	open_c(j, '[', pretty);
	for (const void *it = ops->next(v->u.list.data, NULL); it;
	     it = ops->next(v->u.list.data, it)) {
		struct rs_val *t;

		if (ops->fields) {
			next_item(j, &had, level, pretty);
			put_fields(j, ops->fields, it, level + 1, pretty);
			continue;
		}
		t = ops->make(it);

		if (!t) {
			/* rs_val_write_json() says so. */
			set_oom((struct rs_val *)v);
			j->oom = true;
			break;
		}
		next_item(j, &had, level, pretty);
		put_json(j, t, level + 1, pretty);
		rs_val_free(t);
	}
	close_c(j, ']', had, level, pretty);
}

/* Room for an object entry's members with its facts, in one piece. */
#define SCRATCH_ROOM 2048

/* @j's object for a struct's members, empty: one tree for all the
 * structs a write meets (400k object entries in a dry run of 100k QPs
 * were a malloc() and a free() each), its arena rewound. */
static struct rs_val *scratch(struct jout *j)
{
	size_t size = ALIGN8(node_size(RS_VAL_OBJ, 0));
	struct rs_val *v = j->scratch;
	struct rs_arena *ar;

	if (!v) {
		v = new_root(size, SCRATCH_ROOM);
		if (!v)
			return NULL;
		v->type = RS_VAL_OBJ;
		j->scratch = v;
	}
	ar = arena_of_root(v);
	/* (Nothing is added whole to it: no kids.) */
	while (ar->chunks) {
		struct rs_chunk *prev = ar->chunks->prev;

		rs_free(ar->chunks);
		ar->chunks = prev;
	}
	ar->cur = (char *)v + size;
	ar->end = ar->cur + SCRATCH_ROOM;
	ar->next = FIRST_CHUNK;
	v->flags = F_ROOT;
	v->len = 0;
	v->u.obj.ar = ar;
	v->u.obj.first = v->u.obj.last = NULL;
	v->u.obj.keys = 0;
	return v;
}

/* Its members made in @j's scratch tree, written (a struct's members
 * are plain nodes, never a struct that would need the scratch tree
 * while it is being written). */
static void put_struct(struct jout *j, const struct rs_val *v, unsigned level,
		       bool pretty)
{
	struct rs_val *t;

	if (v->u.st.ops->fields) {
		put_fields(j, v->u.st.ops->fields, ST_DATA(v), level, pretty);
		return;
	}
	t = scratch(j);
	if (t)
		add_members(t, v->u.st.ops, ST_DATA(v));
	if (rs_val_check(t) < 0) {
		/* rs_val_write_json() says so. */
		set_oom((struct rs_val *)v);
		j->oom = true;
		return;
	}
	put_json(j, t, level, pretty);
}

static void put_json(struct jout *j, const struct rs_val *v, unsigned level,
		     bool pretty)
{
	bool had = false;

	switch (v->type) {
	case T_PAIRS: {
		struct rs_val_pairs ps = src_of(v);

		put_pairs(j, &ps, level, pretty);
		break;
	}
	case T_LIST: put_list(j, v, level, pretty); break;
	case T_STRUCT: put_struct(j, v, level, pretty); break;
	case RS_VAL_NULL: JPUTS(j, "null"); break;
	case RS_VAL_BOOL: put_bool(j, v->u.b); break;
	case RS_VAL_INT: put_i64(j, v->u.i); break;
	case RS_VAL_UINT: put_u64(j, v->u.u); break;
	case RS_VAL_DOUBLE: put_double(j, v); break;
	case RS_VAL_STR: put_escaped(j, str_of(v), v->len); break;
	case RS_VAL_OBJ:
		open_c(j, '{', pretty);
		for (const struct rs_val *m = v->u.obj.first; m; m = m->next) {
			if (!pretty || !member_key(j, &had, level, m->key,
						   key_len(m->key), false)) {
				next_item(j, &had, level, pretty);
				put_node_key(j, m->key, pretty);
			}
			/* The common leaves here, not a call each. */
			if (m->type == RS_VAL_STR)
				put_escaped(j, str_of(m), m->len);
			else if (m->type == RS_VAL_UINT)
				put_u64(j, m->u.u);
			else
				put_json(j, m, level + 1, pretty);
		}
		close_c(j, '}', had, level, pretty);
		break;
	case RS_VAL_ARR:
		open_c(j, '[', pretty);
		for (uint32_t i = 0; i < v->len; i++) {
			next_item(j, &had, level, pretty);
			put_json(j, v->u.arr.items[i], level + 1, pretty);
		}
		close_c(j, ']', had, level, pretty);
		break;
	}
}

int rs_val_write_json_to(const struct rs_val *v, bool pretty,
			 int (*put)(void *arg, const void *buf, size_t n),
			 void *arg)
{
	char small[4096];
	struct jout j = { .buf = small, .cap = sizeof(small), .spill = true,
			  .put = put, .arg = arg };
	int r = rs_val_check(v);

	if (r < 0)
		return r;
	put_json(&j, v, 0, pretty);
	rs_val_free(j.scratch);
	jputc(&j, '\n');
	jout_put(&j, NULL, 0);
	if (j.buf != small)
		rs_free(j.buf);
	/* An item of a list could not be made (put_list()): told by the
	 * writer, not by walking the tree again (a tenth of writing a real
	 * run's record). */
	if (j.oom)
		return -ENOMEM;
	return j.failed ? -EIO : 0;
}

static int put_stream(void *f, const void *buf, size_t n)
{
	return fwrite(buf, 1, n, f) == n ? 0 : -EIO;
}

int rs_val_write_json(FILE *f, const struct rs_val *v, bool pretty)
{
	int r = rs_val_write_json_to(v, pretty, put_stream, f);

	if (r == -ENOMEM)
		return r;
	return !r && fflush(f) == 0 && !ferror(f) ? 0 : -EIO;
}

const char *rs_val_text_of(const struct rs_val *v, char *buf, size_t len)
{
	struct jout j = { .buf = buf, .cap = len ? len - 1 : 0 };

	if (!v)
		return NULL;
	if (v->type == RS_VAL_STR)
		return str_of(v);
	if (!len)
		return "";
	/* (Cut: what fits, and the terminating NUL.) */
	put_json(&j, v, 0, false);
	rs_val_free(j.scratch);
	buf[j.len] = '\0';
	return buf;
}

char *rs_val_json_string(const struct rs_val *v, bool pretty)
{
	struct jout j = { .cap = 256, .grow = true };

	if (rs_val_check(v) < 0)
		return NULL;
	j.buf = rs_malloc(j.cap + 1);
	if (!j.buf)
		return NULL;
	put_json(&j, v, 0, pretty);
	rs_val_free(j.scratch);
	if (j.cut || j.oom) {
		rs_free(j.buf);
		return NULL;
	}
	j.buf[j.len] = '\0';
	return j.buf;
}
