// SPDX-License-Identifier: MIT
/* The run record and the reporters that render it (record.h). */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "alloc.h"
#include "record.h"

/* The record's calls, in its arena: they outlive struct rs_record when a
 * reporter keeps the tree (rs_val_ref()).  They follow each other in
 * blocks of CALL_BLOCK bytes, each ALIGN8(call_size()) bytes after the
 * one before (and its outcome, when the record keeps them, before it);
 * where a block has no room for the next, a struct whose n_at is
 * CALL_LINK says where the next block is (u.base).  A pointer to the
 * next call was 8 of a dry run's 60-odd bytes a call. */
struct rs_rec_calls {
	char *first;             /* the first block */
	char *cur, *end;         /* where the next call goes; room left */
	size_t n;
	bool out;                /* each has a struct rs_rec_call_out */
};

#define CALL_BLOCK (64u << 10)
#define CALL_LINK 0xff
#define ALIGN8(n) (((n) + 7) & ~(size_t)7)

/* The calls of a name whose text is their own, most recent first: what
 * a later call of it is written against (shape_of()). */
#define N_BASES 4
/* A text written against another is made again in a buffer this long
 * (a call's args are 1536 bytes at most, struct rs_call). */
#define TEXT_MAX 2048

/* A call's text as "key=value" pairs, @n of them at @at: where each
 * value starts and ends.  False when the text is not exactly the pairs
 * joined by spaces (cut short, a key without '='): it is then kept as it
 * is. */
struct pairs_of {
	uint16_t val[RS_REC_MAX_ARGS], end[RS_REC_MAX_ARGS];
};

struct rs_rec_name {
	struct rs_rec_name *next;
	const struct rs_rec_call *bases[N_BASES];
	/* Each base's pairs, split once, not again for each call compared
	 * with it (split() was a third of recording a call). */
	struct pairs_of base_pairs[N_BASES];
	char text[];
};

static bool split(const char *t, size_t len, const uint16_t *at, unsigned n,
		  struct pairs_of *p)
{
	if (!n || n > RS_REC_MAX_ARGS || at[0])
		return false;
	for (unsigned i = 0; i < n; i++) {
		size_t end = i + 1 < n ? at[i + 1] - 1u : len;
		const char *eq;

		if (at[i] >= end || end > len || (i + 1 < n && t[end] != ' '))
			return false;
		eq = memchr(t + at[i], '=', end - at[i]);
		if (!eq)
			return false;
		p->val[i] = (uint16_t)(eq + 1 - t);
		p->end[i] = (uint16_t)end;
	}
	return true;
}

static const char *own_text(const struct rs_rec_call *c)
{
	return (const char *)(c->at + c->n_at);
}


/* The bytes @c takes, from its struct on. */
static size_t call_size(const struct rs_rec_call *c)
{
	size_t size = offsetof(struct rs_rec_call, at);

	if (!c->has_base)
		return size + c->n_at * sizeof(c->at[0]) + c->len + 1;
	size += 2 * c->n_diff * sizeof(c->at[0]);
	for (unsigned i = 0; i < c->n_diff; i++)
		size += c->at[2 * i + 1];
	return size;
}

/* The call at @p, following a link to the next block. */
static const struct rs_rec_call *call_at(const struct rs_rec_calls *l,
					 const char *p)
{
	const struct rs_rec_call *c;

	if (p == l->cur)
		return NULL;
	if (l->out)
		p += sizeof(struct rs_rec_call_out);
	c = (const struct rs_rec_call *)p;
	if (c->n_at == CALL_LINK)
		return call_at(l, (const char *)c->u.base);
	return c;
}

static const void *calls_next(const void *data, const void *prev)
{
	const struct rs_rec_calls *l = data;
	const struct rs_rec_call *c = prev;

	if (!prev)
		return l->n ? call_at(l, l->first) : NULL;
	return call_at(l, (const char *)c + ALIGN8(call_size(c)));
}

/* @size bytes for the next call (and its outcome), in the current
 * block or a new one; NULL when out of memory. */
static void *call_room(struct rs_record *rec, size_t size)
{
	struct rs_rec_calls *l = rec->call_list;
	size_t link = (l->out ? sizeof(struct rs_rec_call_out) : 0) +
		      ALIGN8(sizeof(struct rs_rec_call));
	char *p;

	size = ALIGN8(size);
	if (!l->cur || (size_t)(l->end - l->cur) < size + link) {
		size_t want = size + link > CALL_BLOCK ? size + link :
			      CALL_BLOCK;
		char *b = rs_val_alloc(rec->root, want);

		if (!b)
			return NULL;
		if (l->cur) {
			struct rs_rec_call *lk = (struct rs_rec_call *)
				(l->cur + (l->out ?
					   sizeof(struct rs_rec_call_out) :
					   0));

			*lk = (struct rs_rec_call){ .n_at = CALL_LINK };
			lk->u.base = (const struct rs_rec_call *)b;
		} else {
			l->first = b;
		}
		l->cur = b;
		l->end = b + want;
	}
	p = l->cur;
	l->cur += size;
	return p;
}

static struct rs_val *calls_make(const void *item)
{
	return rs_rec_call_tree(item);
}

static size_t calls_len(const void *data)
{
	return ((const struct rs_rec_calls *)data)->n;
}

static unsigned call_fields(const void *item, struct rs_val_field *f,
			    void *room);

static const struct rs_val_list call_list_ops = {
	.next = calls_next,
	.make = calls_make,
	.len = calls_len,
	.fields = call_fields,
};

static void init_calls(struct rs_record *rec)
{
	rec->call_list = rs_val_alloc(rec->root, sizeof(*rec->call_list));
	if (!rec->call_list)
		return;
	*rec->call_list = (struct rs_rec_calls){ .out = !rec->dry_run };
	rec->calls = rs_val_put_list(rec->root, "calls", &call_list_ops,
				     rec->call_list);
}

static struct rs_val *init_downs(struct rs_record *rec);

int rs_record_init(struct rs_record *rec, bool dry_run, bool verbose)
{
	*rec = (struct rs_record){ .dry_run = dry_run,
				   .calls_wanted = dry_run || verbose };
	pthread_mutex_init(&rec->lock, NULL);
	/* Not shared yet (rs_record_threads()): a lock and an unlock a
	 * node were a quarter of every put of a real run's facts, made
	 * while the engine has one thread. */
	rec->root = rs_val_obj();
	rs_val_put_str(rec->root, "format", "rdmascn-run/1");
	rec->objects = rs_val_put_arr(rec->root, "objects");
	rec->steps = rs_val_put_arr(rec->root, "steps");
	if (rec->calls_wanted)
		init_calls(rec);
	rec->events = rs_val_put_arr(rec->root, "events");
	/* A dry run's entries are all rs_record_destroyed()'s; a real
	 * run's are trees with facts (rs_record_add()). */
	rec->teardown = dry_run ? init_downs(rec) :
			rs_val_put_arr(rec->root, "teardown");
	rec->errors = rs_val_put_arr(rec->root, "errors");
	rec->warnings = rs_val_put_arr(rec->root, "warnings");
	return rs_val_check(rec->root);
}

int rs_record_threads(struct rs_record *rec)
{
	/* Before the first thread starts: its pthread_create() is the
	 * barrier after which every thread sees the tree's lock. */
	return rec->root ? rs_val_share(rec->root) : 0;
}

int rs_record_add_reporter(struct rs_record *rec, struct rs_reporter *r)
{
	struct rs_reporter **p;

	if (!r)
		return -ENOMEM;
	p = rs_reallocarray(rec->reporters, rec->n_reporters + 1,
			    sizeof(*p));
	if (!p) {
		r->ops->free(r);
		return -ENOMEM;
	}
	rec->reporters = p;
	rec->reporters[rec->n_reporters++] = r;
	return 0;
}

void rs_record_free(struct rs_record *rec)
{
	for (unsigned i = 0; i < rec->n_reporters; i++)
		rec->reporters[i]->ops->free(rec->reporters[i]);
	rec->n_reporters = 0;
	rs_free(rec->reporters);
	rec->reporters = NULL;
	rs_val_free(rec->root);
	rec->root = NULL;
	pthread_mutex_destroy(&rec->lock);
}

void rs_record_begin(struct rs_record *rec)
{
	for (unsigned i = 0; i < rec->n_reporters; i++)
		if (rec->reporters[i]->ops->begin)
			rec->reporters[i]->ops->begin(rec->reporters[i],
						      rec->root);
}

static void tell(struct rs_record *rec, enum rs_rec_entry type,
		 const struct rs_val *entry)
{
	for (unsigned i = 0; i < rec->n_reporters; i++) {
		struct rs_reporter *r = rec->reporters[i];

		if (r->ops->entry && (!r->ops->wants || r->ops->wants(r, type)))
			r->ops->entry(r, type, entry);
	}
}

/* A reporter would do something with an entry of @type. */
static bool wanted(struct rs_record *rec, enum rs_rec_entry type)
{
	for (unsigned i = 0; i < rec->n_reporters; i++) {
		const struct rs_reporter_ops *ops = rec->reporters[i]->ops;

		if (ops->entry && (!ops->wants ||
				   ops->wants(rec->reporters[i], type)))
			return true;
	}
	return false;
}

/* Something the record was to hold could not be made: the root marked,
 * so that the run ends "out of memory" (rs_val_check()), not passed
 * without it.  The lock held. */
static void mark_lost(struct rs_record *rec)
{
	rs_val_put(rec->root, "entry", NULL);
}

/* @t, a tree made for the telling, told and let go; NULL (it could not
 * be made): marked, so that the run ends "out of memory"
 * (rs_val_check()), not passed without it. */
static void tell_made(struct rs_record *rec, enum rs_rec_entry type,
		      struct rs_val *t)
{
	if (t)
		tell(rec, type, t);
	else
		mark_lost(rec);
	rs_val_free(t);
}

/*
 * A line told from a tree in a buffer on the stack: it needs no memory.
 * What it tells has happened (an object made or taken down, a call
 * made) whether or not the record could keep it; when memory ran out,
 * the run ends "out of memory" with every line said, where the line was
 * lost with the tree made to tell it.  Only what does not fit in the
 * buffer takes a tree of its own.
 */
#define TELL_ROOM 4096

static void tell_fields(struct rs_record *rec, enum rs_rec_entry type,
			const struct rs_val_field *f, unsigned n)
{
	_Alignas(8) char buf[TELL_ROOM];
	struct rs_val *t = rs_val_of_fields_on(buf, sizeof(buf), f, n);

	if (t)
		tell(rec, type, t);
	else
		tell_made(rec, type, rs_val_of_fields(f, n));
}

/* @entry, a struct, told as the tree it is written as. */
static void tell_struct(struct rs_record *rec, enum rs_rec_entry type,
			const struct rs_val *entry)
{
	_Alignas(8) char buf[TELL_ROOM];
	struct rs_val *t = rs_val_struct_tree_on(buf, sizeof(buf), entry);

	if (t)
		tell(rec, type, t);
	else
		tell_made(rec, type, rs_val_struct_tree(entry));
}

static void tell_call(struct rs_record *rec, const struct rs_rec_call *c);

struct rs_val *rs_record_add(struct rs_record *rec, enum rs_rec_entry type,
			     struct rs_val *list, struct rs_val *entry)
{
	pthread_mutex_lock(&rec->lock);
	if (!entry) {
		/* Its allocation failed: marked, so that the run ends "out
		 * of memory" (rs_val_check()), not passed without it. */
		if (list)
			rs_val_push(list, NULL);
		else
			mark_lost(rec);
		pthread_mutex_unlock(&rec->lock);
		return NULL;
	}
	tell(rec, type, entry);
	/* Copied into the record's arena, compact: an entry's own arena
	 * would be a chunk each, and there are 400k calls in a dry run of
	 * 100k QPs. */
	if (list)
		entry = rs_val_push_moved(list, entry);
	else
		rs_val_free(entry);
	pthread_mutex_unlock(&rec->lock);
	return list ? entry : NULL;
}

/* The record's copy of @s: a dozen call names, looked for most recent
 * first (a list, moved to the front, not a table: calls come in runs of
 * one name). */
static struct rs_rec_name *kept_name(struct rs_record *rec, const char *s)
{
	struct rs_rec_name **pp, *n;
	size_t len;

	for (pp = &rec->names; (n = *pp); pp = &n->next) {
		if (strcmp(n->text, s))
			continue;
		*pp = n->next;
		n->next = rec->names;
		rec->names = n;
		return n;
	}
	len = strlen(s) + 1;
	n = rs_val_alloc(rec->root, sizeof(*n) + len);
	if (!n)
		return NULL;
	memset(n->bases, 0, sizeof(n->bases));
	memcpy(n->text, s, len);
	n->next = rec->names;
	rec->names = n;
	return n;
}

/* A copy of @s in the record's arena. */
static const char *record_copy(struct rs_record *rec, const char *s)
{
	size_t len = strlen(s) + 1;
	char *p = rs_val_alloc(rec->root, len);

	return p ? memcpy(p, s, len) : NULL;
}

/* The record's copy of @s: @last again when it is the same (an
 * object's calls come together, as a file's objects do), else a copy,
 * kept in @last. */
static const char *kept_copy(struct rs_record *rec, const char **last,
			     const char *s)
{
	const char *p;

	if (*last && !strcmp(*last, s))
		return *last;
	p = record_copy(rec, s);
	if (p)
		*last = p;
	return p;
}

/* An object's name. */
static const char *kept_object(struct rs_record *rec, const char *s)
{
	return kept_copy(rec, &rec->last_object, s);
}

/* @t's values against @b's, when @b has the same keys: the bytes the
 * values that differ take (with their index and length), in *@ret_size;
 * false when the keys differ. */
static bool diff_size(const struct rs_rec_call *b,
		      const struct pairs_of *bpp, const char *t,
		      const uint16_t *at, unsigned n,
		      const struct pairs_of *p, size_t *ret_size)
{
	const char *bt = own_text(b);
	size_t size = 0;

	if (b->n_at != n)
		return false;
	for (unsigned i = 0; i < n; i++) {
		size_t klen = p->val[i] - at[i], vlen = p->end[i] - p->val[i];

		if (bpp->val[i] - b->at[i] != (int)klen ||
		    memcmp(bt + b->at[i], t + at[i], klen))
			return false;
		if (bpp->end[i] - bpp->val[i] != (int)vlen ||
		    memcmp(bt + bpp->val[i], t + p->val[i], vlen))
			size += 2 * sizeof(uint16_t) + vlen;
	}
	*ret_size = size;
	return true;
}

/* The earlier call of @name with @t's keys, if there is one and
 * writing @t against it takes fewer bytes than @t; its size so. */
static int shape_of(struct rs_rec_name *name, const char *t, size_t len,
		    const uint16_t *at, unsigned n, const struct pairs_of *p,
		    size_t *ret_size)
{
	for (unsigned i = 0; i < N_BASES && name->bases[i]; i++) {
		const struct rs_rec_call *b = name->bases[i];
		size_t size;

		if (diff_size(b, &name->base_pairs[i], t, at, n, p, &size) &&
		    size < n * sizeof(*at) + len) {
			*ret_size = size;
			return (int)i;
		}
	}
	return -1;
}

struct rs_rec_call *rs_record_call(struct rs_record *rec, unsigned no,
				   const char *name, const char *args,
				   const uint16_t *at, unsigned n_at,
				   const char *object, bool object_kept)
{
	size_t len = strlen(args), size = 0;
	const struct rs_rec_call *base = NULL;
	struct rs_rec_call *c = NULL;
	struct rs_rec_name *kn;
	const char *kobj;
	struct pairs_of p;
	bool pairs;
	int bi = -1;

	pthread_mutex_lock(&rec->lock);
	if (!rec->call_list)
		goto out;
	if (len > UINT16_MAX)
		len = UINT16_MAX;
	if (n_at > RS_REC_MAX_ARGS)
		n_at = RS_REC_MAX_ARGS;
	kn = kept_name(rec, name);
	/* Before its room is taken: a call begun is in the list. */
	kobj = !object || object_kept ? object : kept_object(rec, object);
	if (!kn || (object && !kobj))
		goto out;
	pairs = len < TEXT_MAX && split(args, len, at, n_at, &p);
	if (pairs)
		bi = shape_of(kn, args, len, at, n_at, &p, &size);
	if (bi >= 0)
		base = kn->bases[bi];
	if (!base)
		size = n_at * sizeof(*at) + len + 1;
	/* The header as far as its keys' offsets: its padding is where
	 * they start. */
	size += offsetof(struct rs_rec_call, at);
	if (!rec->dry_run)
		size += sizeof(struct rs_rec_call_out);
	c = call_room(rec, size);
	if (!c)
		goto out;
	if (!rec->dry_run) {
		*(struct rs_rec_call_out *)c = (struct rs_rec_call_out){ 0 };
		c = (struct rs_rec_call *)((struct rs_rec_call_out *)c + 1);
	}
	*c = (struct rs_rec_call){ .no = no, .len = (uint16_t)len,
				   .n_at = (uint8_t)n_at,
				   .has_out = !rec->dry_run };
	if (base) {
		c->u.base = base;
		c->has_base = true;
	} else {
		c->u.name = kn->text;
	}
	c->object = kobj;
	if (base) {
		const char *bt = own_text(base);
		const struct pairs_of *bp = &kn->base_pairs[bi];
		uint16_t *d = c->at;
		char *bytes;

		for (unsigned i = 0; i < n_at; i++) {
			unsigned vlen = p.end[i] - p.val[i];

			if (bp->end[i] - bp->val[i] == (int)vlen &&
			    !memcmp(bt + bp->val[i], args + p.val[i], vlen))
				continue;
			c->n_diff++;
		}
		bytes = (char *)(d + 2 * c->n_diff);
		for (unsigned i = 0; i < n_at; i++) {
			unsigned vlen = p.end[i] - p.val[i];

			if (bp->end[i] - bp->val[i] == (int)vlen &&
			    !memcmp(bt + bp->val[i], args + p.val[i], vlen))
				continue;
			*d++ = (uint16_t)i;
			*d++ = (uint16_t)vlen;
			memcpy(bytes, args + p.val[i], vlen);
			bytes += vlen;
		}
	} else {
		memcpy(c->at, at, n_at * sizeof(*at));
		memcpy(c->at + n_at, args, len);
		((char *)(c->at + n_at))[len] = '\0';
		if (pairs) {
			/* What the name's next calls are written against. */
			memmove(kn->bases + 1, kn->bases,
				(N_BASES - 1) * sizeof(kn->bases[0]));
			memmove(kn->base_pairs + 1, kn->base_pairs,
				(N_BASES - 1) * sizeof(kn->base_pairs[0]));
			kn->bases[0] = c;
			kn->base_pairs[0] = p;
		}
	}
	rec->call_list->n++;
	/* Told as the tree it is written as, made for the telling (when
	 * a reporter would do something with it). */
	if (!wanted(rec, RS_REC_CALL))
		goto out;
	tell_call(rec, c);
out:
	pthread_mutex_unlock(&rec->lock);
	return c;
}

/* @c's text and key offsets: its own, or made from its base's and the
 * values that differ, in @buf and @at_buf; its length in *@ret_len. */
static const char *text_of(const struct rs_rec_call *c, char *buf,
			   uint16_t *at_buf, const uint16_t **ret_at,
			   size_t *ret_len)
{
	const struct rs_rec_call *b = rs_rec_call_base(c);
	const char *bt, *bytes;
	const uint16_t *d = c->at;
	struct pairs_of bp;
	size_t len = 0;

	if (!b) {
		*ret_at = c->at;
		*ret_len = c->len;
		return own_text(c);
	}
	bt = own_text(b);
	split(bt, b->len, b->at, b->n_at, &bp);
	bytes = (const char *)(c->at + 2 * c->n_diff);
	for (unsigned i = 0; i < c->n_at; i++) {
		const char *v = bt + bp.val[i];
		size_t klen = bp.val[i] - b->at[i];
		size_t vlen = bp.end[i] - bp.val[i];

		if (d < c->at + 2 * c->n_diff && d[0] == i) {
			v = bytes;
			vlen = d[1];
			bytes += vlen;
			d += 2;
		}
		if (i)
			buf[len++] = ' ';
		at_buf[i] = (uint16_t)len;
		memcpy(buf + len, bt + b->at[i], klen);
		len += klen;
		memcpy(buf + len, v, vlen);
		len += vlen;
	}
	buf[len] = '\0';
	*ret_at = at_buf;
	*ret_len = len;
	return buf;
}

/* What text_of() makes a call's text and offsets in. */
struct call_room {
	uint16_t at[RS_REC_MAX_ARGS];
	char text[TEXT_MAX];
};

_Static_assert(sizeof(struct call_room) <= RS_VAL_FIELDS_ROOM,
	       "a call's text fits the writer's room");

static void str_field_(struct rs_val_field *f, const char *key, size_t klen,
		       const char *s, size_t len)
{
	*f = (struct rs_val_field){ .key = key, .klen = (uint8_t)klen,
				    .type = RS_VAL_STR, .v.str = { s, len } };
}
/* @lit: a literal, as RS_VAL_KEY() */
#define str_field(f, lit, s, len) \
	str_field_(f, "" lit, sizeof(lit) - 1, s, len)

/* @c's members as schemas/ describe a "calls" item: no, name, args,
 * fields, object and what came of it.  Written from these (the writer
 * makes no tree of them) and made a tree from them, one list of what a
 * call entry holds. */
static unsigned call_fields(const void *item, struct rs_val_field *f,
			    void *room)
{
	const struct rs_rec_call *c = item;
	const struct rs_rec_call_out *out =
		rs_rec_call_out((struct rs_rec_call *)c);
	struct call_room *r = room;
	const char *name = rs_rec_call_name(c);
	const uint16_t *at;
	size_t len;
	const char *args = text_of(c, r->text, r->at, &at, &len);
	unsigned n = 0;

	if (c->no)
		f[n++] = (struct rs_val_field){ RS_VAL_KEY("no"),
						.type = RS_VAL_UINT,
						.v.u = c->no };
	str_field(&f[n++], "name", name, strlen(name));
	str_field(&f[n++], "args", args, len);
	f[n++] = (struct rs_val_field){
		RS_VAL_KEY("fields"), .type = RS_VAL_FIELD_PAIRS,
		.v.pairs = { .text = args, .len = len, .at = at,
			     .n = c->n_at },
	};
	if (c->object)
		str_field(&f[n++], "object", c->object, strlen(c->object));
	if (out && out->outcome != RS_REC_CALL_NONE) {
		f[n++] = (struct rs_val_field){ RS_VAL_KEY("ok"),
						.type = RS_VAL_BOOL,
						.v.b = out->ok };
		if (!out->ok) {
			const char *err = strerrorname_np(out->err);

			f[n++] = (struct rs_val_field){ RS_VAL_KEY("errno"),
							.type = RS_VAL_INT,
							.v.i = out->err };
			if (err)
				str_field(&f[n++], "error", err, strlen(err));
		}
		if (out->outcome == RS_REC_CALL_MADE)
			f[n++] = (struct rs_val_field){
				RS_VAL_KEY("duration_ns"), .type = RS_VAL_UINT,
				.v.u = out->duration_ns,
			};
		else
			f[n++] = (struct rs_val_field){ RS_VAL_KEY("injected"),
							.type = RS_VAL_BOOL,
							.v.b = true };
	}
	return n;
}

struct rs_val *rs_rec_call_tree(const struct rs_rec_call *c)
{
	struct rs_val_field f[RS_VAL_FIELDS_MAX];
	struct call_room room;

	return rs_val_of_fields(f, call_fields(c, f, &room));
}

static void tell_call(struct rs_record *rec, const struct rs_rec_call *c)
{
	struct rs_val_field f[RS_VAL_FIELDS_MAX];
	struct call_room room;

	tell_fields(rec, RS_REC_CALL, f, call_fields(c, f, &room));
}

/* An object's kind and file, the record's copies: one for the objects
 * that come in a run of them (a counted entry's elements). */
struct rec_kf {
	const char *kind;
	const char *file;       /* NULL: not located */
	size_t kind_len, file_len; /* (once, not each write) */
};

/* An object's entry while it is a struct: id and name after it. */
struct rec_obj {
	const struct rec_kf *kf;
	const char *outcome;
	uint32_t line, col, no;
	char text[];            /* id, NUL, name, NUL */
};

/* @o's fields, its id @ilen bytes long and its name @nlen. */
static unsigned obj_fields_of(const struct rec_obj *o, size_t ilen,
			      size_t nlen, struct rs_val_field *f)
{
	const char *id = o->text;
	unsigned n = 0;

	str_field(&f[n++], "id", id, ilen);
	str_field(&f[n++], "kind", o->kf->kind, o->kf->kind_len);
	str_field(&f[n++], "name", id + ilen + 1, nlen);
	if (o->kf->file) {
		str_field(&f[n++], "file", o->kf->file, o->kf->file_len);
		f[n++] = (struct rs_val_field){ RS_VAL_KEY("line"),
						.type = RS_VAL_UINT,
						.v.u = o->line };
		f[n++] = (struct rs_val_field){ RS_VAL_KEY("col"),
						.type = RS_VAL_UINT,
						.v.u = o->col };
	}
	str_field(&f[n++], "outcome", o->outcome, strlen(o->outcome));
	if (o->no)
		f[n++] = (struct rs_val_field){ RS_VAL_KEY("no"),
						.type = RS_VAL_UINT,
						.v.u = o->no };
	return n;
}

static unsigned obj_fields(const void *data, struct rs_val_field *f,
			   void *room)
{
	const struct rec_obj *o = data;
	size_t ilen = strlen(o->text);

	(void)room;
	return obj_fields_of(o, ilen, strlen(o->text + ilen + 1), f);
}

static const struct rs_val_struct obj_ops = { .fields = obj_fields };

/*
 * A real run's object entry: the struct, then (8-aligned, after id and
 * name) what its create took and its facts.  As members of a tree these
 * were most of the run's own time in create: the first put made the
 * struct's eight members nodes, each key compared with every one before
 * it.  Written after "no", in the order the puts made them.
 */
struct rec_obj_run {
	struct rs_val *facts;   /* rs_val_obj_in(); NULL: none */
	double create_ms;
	bool has_ms;
};

/* Where it is after @o, whose id is @ilen bytes long and name @nlen. */
static size_t obj_run_at_len(size_t ilen, size_t nlen)
{
	return ALIGN8(offsetof(struct rec_obj, text) + ilen + 1 + nlen + 1);
}

static size_t obj_run_at(const struct rec_obj *o)
{
	size_t ilen = strlen(o->text);

	return obj_run_at_len(ilen, strlen(o->text + ilen + 1));
}

/* (By copy: a struct being made into nodes is read from a buffer of no
 * particular alignment.) */
static struct rec_obj_run obj_run_get_at(const struct rec_obj *o, size_t at)
{
	struct rec_obj_run r;

	memcpy(&r, (const char *)o + at, sizeof(r));
	return r;
}

static struct rec_obj_run obj_run_get(const struct rec_obj *o)
{
	return obj_run_get_at(o, obj_run_at(o));
}

static void obj_run_set(struct rec_obj *o, const struct rec_obj_run *r)
{
	memcpy((char *)o + obj_run_at(o), r, sizeof(*r));
}

/* (Its id's and name's lengths found once for both.) */
static unsigned obj_run_fields(const void *data, struct rs_val_field *f,
			       void *room)
{
	const struct rec_obj *o = data;
	size_t ilen = strlen(o->text), nlen = strlen(o->text + ilen + 1);
	struct rec_obj_run r = obj_run_get_at(o, obj_run_at_len(ilen, nlen));
	unsigned n = obj_fields_of(o, ilen, nlen, f);

	(void)room;
	if (r.has_ms)
		f[n++] = (struct rs_val_field){ RS_VAL_KEY("create_ms"),
						.type = RS_VAL_DOUBLE,
						.v.d = r.create_ms };
	/* (Its key the literal rs_rec_obj_facts() gave it: the writer
	 * copies that as it is.) */
	if (r.facts)
		f[n++] = (struct rs_val_field){
			RS_VAL_KEY("facts"), .type = RS_VAL_FIELD_TREE,
			.v.tree = r.facts,
		};
	return n;
}

static const struct rs_val *obj_run_kid(const void *data)
{
	return obj_run_get(data).facts;
}

static const struct rs_val_struct obj_run_ops = {
	.fields = obj_run_fields,
	.kid = obj_run_kid,
};

/* @entry's struct, a dry run's or a real run's, while it is one. */
static struct rec_obj *rec_obj_of(const struct rs_val *entry)
{
	struct rec_obj *o = rs_val_struct_of(entry, &obj_ops);

	return o ? o : rs_val_struct_of(entry, &obj_run_ops);
}

/* The record's copy of a file's name. */
static const char *kept_file(struct rs_record *rec, const char *s)
{
	return kept_copy(rec, &rec->last_file, s);
}

/* The pair of @kind and @file (NULL: not located), the record's: the
 * last one again when it is the same. */
static const struct rec_kf *kept_kf(struct rs_record *rec, const char *kind,
				    const char *file)
{
	const struct rec_kf *last = rec->last_kf;
	struct rec_kf *kf;

	if (last && last->kind == kind && last->file == file)
		return last;
	kf = rs_val_alloc(rec->root, sizeof(*kf));
	if (!kf)
		return NULL;
	*kf = (struct rec_kf){ .kind = kind, .file = file,
			       .kind_len = strlen(kind),
			       .file_len = file ? strlen(file) : 0 };
	rec->last_kf = kf;
	return kf;
}

static struct rs_val *object(struct rs_record *rec, const char *id,
			     const char *kind, const char *name,
			     const struct rs_loc *loc, const char *outcome)
{
	size_t ilen = strlen(id) + 1, nlen = strlen(name) + 1;
	struct rs_rec_name *kn = kept_name(rec, kind);
	struct rs_val *e;
	struct rec_obj *o;

	size_t size = offsetof(struct rec_obj, text) + ilen + nlen;
	const struct rs_val_struct *ops = &obj_ops;
	const char *file = NULL;

	if (!rec->dry_run) {
		size = ALIGN8(size) + sizeof(struct rec_obj_run);
		ops = &obj_run_ops;
	}

	if (size > RS_VAL_STRUCT_MAX) {
		/* Too long for a struct: the tree it is written as. */
		e = rs_val_push_obj(rec->objects);
		rs_val_put_str(e, "id", id);
		rs_val_put_str(e, "kind", kind);
		rs_val_put_str(e, "name", name);
		rs_val_put_loc(e, loc);
		rs_val_put_str(e, "outcome", outcome);
		return e;
	}
	e = rs_val_push_struct(rec->objects, ops, size);
	o = rs_val_struct_of(e, ops);
	if (!o || !kn)
		return NULL;
	o->outcome = outcome;
	if (loc) {
		file = kept_file(rec, loc->file ? loc->file : "");
		if (!file)
			return NULL;
		o->line = loc->line;
		o->col = loc->col;
	}
	o->kf = kept_kf(rec, kn->text, file);
	if (!o->kf)
		return NULL;
	memcpy(o->text, id, ilen);
	memcpy(o->text + ilen, name, nlen);
	return e;
}

struct rs_val *rs_record_object(struct rs_record *rec, const char *id,
				const char *kind, const char *name,
				const struct rs_loc *loc, const char *outcome)
{
	struct rs_val *e;

	pthread_mutex_lock(&rec->lock);
	e = object(rec, id, kind, name, loc, outcome);
	pthread_mutex_unlock(&rec->lock);
	return e;
}

void rs_rec_obj_no(struct rs_val *entry, unsigned no)
{
	struct rec_obj *o = rec_obj_of(entry);

	if (o && no)
		o->no = no;
	else
		rs_val_put_u64(entry, "no", no);
}

void rs_rec_obj_create_ms(struct rs_val *entry, double ms)
{
	struct rec_obj *o = rs_val_struct_of(entry, &obj_run_ops);
	struct rec_obj_run r;

	if (o) {
		r = obj_run_get(o);
		/* After the facts, as a put would have placed it. */
		if (!r.facts) {
			r.create_ms = ms;
			r.has_ms = true;
			obj_run_set(o, &r);
			return;
		}
	}
	rs_val_put_double(entry, "create_ms", ms);
}

struct rs_val *rs_rec_obj_facts(struct rs_val *entry)
{
	struct rec_obj *o = rs_val_struct_of(entry, &obj_run_ops);
	struct rec_obj_run r;

	if (!o)
		return rs_val_put_obj(entry, "facts");
	r = obj_run_get(o);
	/* (Given again: a new one, where the first stood.) */
	r.facts = rs_val_obj_in(entry, "facts");
	obj_run_set(o, &r);
	return r.facts;
}

void rs_rec_obj_outcome(struct rs_val *entry, const char *outcome)
{
	struct rec_obj *o = rec_obj_of(entry);

	if (o)
		o->outcome = outcome;
	else
		rs_val_put_str(entry, "outcome", outcome);
}

const char *rs_rec_obj_name(const struct rs_val *entry)
{
	const struct rec_obj *o = rec_obj_of(entry);

	if (o)
		return o->text + strlen(o->text) + 1;
	return rs_val_get_str(entry, "name");
}

const char *rs_rec_obj_outcome_of(const struct rs_val *entry)
{
	const struct rec_obj *o = rec_obj_of(entry);

	return o ? o->outcome : rs_val_text(entry, "outcome");
}

void rs_record_tell_obj(struct rs_record *rec, const struct rs_val *entry)
{
	/* Told as the tree it is written as: read as itself, it would be
	 * made into nodes for good. */
	if (!rec_obj_of(entry)) {
		rs_record_tell(rec, RS_REC_OBJECT, entry);
		return;
	}
	pthread_mutex_lock(&rec->lock);
	if (!wanted(rec, RS_REC_OBJECT)) {
		pthread_mutex_unlock(&rec->lock);
		return;
	}
	tell_struct(rec, RS_REC_OBJECT, entry);
	pthread_mutex_unlock(&rec->lock);
}

/* A planned step's entry while it is a struct: its number and id (""
 * when it has none) after it. */
struct rec_step {
	const char *type;
	char text[];             /* no, NUL, id, NUL */
};

static void step_members(struct rs_val *e, const void *data)
{
	const struct rec_step *st = data;
	const char *id = st->text + strlen(st->text) + 1;

	rs_val_put_str(e, "no", st->text);
	rs_val_put_str(e, "type", st->type);
	if (*id)
		rs_val_put_str(e, "id", id);
}

static const struct rs_val_struct step_ops = { .members = step_members };

struct rs_val *rs_record_plan_step(struct rs_record *rec, struct rs_val *plan,
				   const char *no, const char *type,
				   const char *id)
{
	size_t nlen = strlen(no) + 1, ilen = id ? strlen(id) + 1 : 1;
	struct rs_rec_name *kn;
	struct rec_step *st;
	struct rs_val *e;

	pthread_mutex_lock(&rec->lock);
	kn = kept_name(rec, type);
	if (sizeof(*st) + nlen + ilen > RS_VAL_STRUCT_MAX) {
		/* Too long for a struct: the tree it is written as. */
		e = rs_val_push_obj(plan);
		rs_val_put_str(e, "no", no);
		rs_val_put_str(e, "type", type);
		if (id)
			rs_val_put_str(e, "id", id);
		goto out;
	}
	e = rs_val_push_struct(plan, &step_ops, sizeof(*st) + nlen + ilen);
	st = rs_val_struct_of(e, &step_ops);
	if (!st || !kn) {
		e = NULL;
		goto out;
	}
	st->type = kn->text;
	memcpy(st->text, no, nlen);
	memcpy(st->text + nlen, id ? id : "", ilen);
out:
	pthread_mutex_unlock(&rec->lock);
	return e;
}

const char *rs_rec_step_id(const struct rs_val *entry)
{
	const struct rec_step *st = rs_val_struct_of(entry, &step_ops);
	const char *id;

	if (!st)
		return rs_val_get_str(entry, "id");
	id = st->text + strlen(st->text) + 1;
	return *id ? id : NULL;
}

const struct rs_val *rs_rec_step_gates(const struct rs_val *entry)
{
	return rs_val_struct_of(entry, &step_ops) ? NULL :
	       rs_val_get(entry, "gates");
}

/*
 * A dry run's teardown entries: a list (rs_val_put_list()) of 16-byte
 * items in blocks of DOWN_BLOCK, the last item of a full block linking
 * to the next; an item points at its object's "id\0name\0" (the object
 * entry's text, which stays where it is when the entry is made into
 * nodes, or a copy).  As nodes, an entry was 72 bytes and a pointer;
 * there is one an object.
 */
#define DOWN_BLOCK 256

struct rec_down {
	const char *text;        /* id, NUL, name, NUL */
	uint32_t no;
	bool link;               /* text is the next block's first item */
};

struct rs_rec_downs {
	struct rec_down *first, *cur;
	unsigned in_cur;
	size_t n;
};

static const void *downs_next(const void *data, const void *prev)
{
	const struct rs_rec_downs *l = data;
	const struct rec_down *d = prev;

	if (!prev)
		return l->n ? l->first : NULL;
	d++;
	if (d == l->cur + l->in_cur)
		return NULL;
	return d->link ? (const void *)d->text : d;
}

/* A teardown entry's members: its number, id and name. */
static unsigned down_fields_of(struct rs_val_field *f, unsigned no,
			       const char *id, size_t ilen, const char *name)
{
	f[0] = (struct rs_val_field){ RS_VAL_KEY("no"), .type = RS_VAL_UINT,
				      .v.u = no };
	str_field(&f[1], "id", id, ilen);
	str_field(&f[2], "name", name, strlen(name));
	return 3;
}

static unsigned down_fields(const void *data, struct rs_val_field *f,
			    void *room)
{
	const struct rec_down *d = data;
	size_t ilen = strlen(d->text);

	(void)room;
	return down_fields_of(f, d->no, d->text, ilen, d->text + ilen + 1);
}

/* A real run's entry that its kind said nothing more of: a struct in
 * the teardown array, beside the trees of those it did. */
static const struct rs_val_struct down_ops = { .fields = down_fields };

static struct rs_val *downs_make(const void *item)
{
	struct rs_val_field f[RS_VAL_FIELDS_MAX];

	return rs_val_of_fields(f, down_fields(item, f, NULL));
}

static size_t downs_len(const void *data)
{
	return ((const struct rs_rec_downs *)data)->n;
}

static const struct rs_val_list down_list_ops = {
	.next = downs_next,
	.make = downs_make,
	.len = downs_len,
	.fields = down_fields,
};

/* A dry run's teardown: the list, in place of the array. */
static struct rs_val *init_downs(struct rs_record *rec)
{
	rec->down_list = rs_val_alloc(rec->root, sizeof(*rec->down_list));
	if (!rec->down_list)
		return NULL;
	*rec->down_list = (struct rs_rec_downs){ 0 };
	return rs_val_put_list(rec->root, "teardown", &down_list_ops,
			       rec->down_list);
}

/* Room for one more item; NULL when out of memory. */
static struct rec_down *down_item(struct rs_record *rec)
{
	struct rs_rec_downs *l = rec->down_list;

	if (!l->cur || l->in_cur == DOWN_BLOCK - 1) {
		struct rec_down *b = rs_val_alloc(rec->root, DOWN_BLOCK *
						  sizeof(*b));

		if (!b)
			return NULL;
		if (l->cur)
			l->cur[DOWN_BLOCK - 1] = (struct rec_down){
				.text = (const char *)b, .link = true };
		else
			l->first = b;
		l->cur = b;
		l->in_cur = 0;
	}
	return &l->cur[l->in_cur];
}

/* "id\0name\0" in the record's arena. */
static const char *down_text(struct rs_record *rec, const char *id,
			     const char *name)
{
	size_t ilen = strlen(id) + 1, nlen = strlen(name) + 1;
	char *p = rs_val_alloc(rec->root, ilen + nlen);

	if (!p)
		return NULL;
	memcpy(p, id, ilen);
	memcpy(p + ilen, name, nlen);
	return p;
}

/* The line of an object taken down (tell_fields()). */
static void tell_down(struct rs_record *rec, unsigned no, const char *id,
		      const char *name)
{
	struct rs_val_field f[3];

	if (!wanted(rec, RS_REC_DESTROYED))
		return;
	tell_fields(rec, RS_REC_DESTROYED, f,
		    down_fields_of(f, no, id, strlen(id), name));
}

void rs_record_destroyed(struct rs_record *rec, unsigned no,
			 const struct rs_val *obj_entry, const char *id,
			 const char *name)
{
	const struct rec_obj *o = rec_obj_of(obj_entry);
	const char *kid = NULL, *kname = NULL, *text = NULL;
	struct rec_down *d = NULL;

	pthread_mutex_lock(&rec->lock);
	if (o) {
		kid = o->text;
		kname = o->text + strlen(o->text) + 1;
	} else if (obj_entry) {
		kid = rs_val_get_str(obj_entry, "id");
		kname = rs_val_get_str(obj_entry, "name");
	}
	/* Its strings as they are: the entry's struct's, if they are the
	 * same. */
	if (o && !strcmp(kid, id) && !strcmp(kname, name))
		text = o->text;
	else
		text = down_text(rec, id, name);
	if (text && !rec->down_list) {
		/* A real run's: a struct in the array, where a kind that
		 * says more puts its tree (rs_record_add()). */
		d = rs_val_struct_of(rs_val_push_struct(rec->teardown,
							&down_ops,
							sizeof(*d)),
				     &down_ops);
	} else if (text) {
		d = down_item(rec);
		if (d) {
			rec->down_list->in_cur++;
			rec->down_list->n++;
		}
	}
	if (d)
		*d = (struct rec_down){ .text = text, .no = no };
	else
		mark_lost(rec);
	tell_down(rec, no, id, name);
	pthread_mutex_unlock(&rec->lock);
}

void rs_record_lost(struct rs_record *rec)
{
	pthread_mutex_lock(&rec->lock);
	mark_lost(rec);
	pthread_mutex_unlock(&rec->lock);
}

void rs_record_tell(struct rs_record *rec, enum rs_rec_entry type,
		    const struct rs_val *entry)
{
	pthread_mutex_lock(&rec->lock);
	tell(rec, type, entry);
	pthread_mutex_unlock(&rec->lock);
}

int rs_record_end(struct rs_record *rec)
{
	int ret = 0;

	for (unsigned i = 0; i < rec->n_reporters; i++) {
		int r = rec->reporters[i]->ops->end ?
			rec->reporters[i]->ops->end(rec->reporters[i],
						    rec->root) : 0;

		if (r && !ret)
			ret = r;
	}
	return ret;
}
