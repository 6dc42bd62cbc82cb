// SPDX-License-Identifier: MIT
/* The run record and the reporters that render it (record.h). */
#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "record.h"

/* The record's calls, in its arena: they outlive struct rs_record when a
 * reporter keeps the tree (rs_val_ref()). */
struct rs_rec_calls {
	struct rs_rec_call *first, *last;
	size_t n;
};

struct rs_rec_name {
	struct rs_rec_name *next;
	char text[];
};

static const void *calls_next(const void *data, const void *prev)
{
	const struct rs_rec_calls *l = data;

	return prev ? ((const struct rs_rec_call *)prev)->next : l->first;
}

static struct rs_val *calls_make(const void *item)
{
	return rs_rec_call_tree(item);
}

static size_t calls_len(const void *data)
{
	return ((const struct rs_rec_calls *)data)->n;
}

static const struct rs_val_list call_list_ops = {
	.next = calls_next,
	.make = calls_make,
	.len = calls_len,
};

static void init_calls(struct rs_record *rec)
{
	rec->call_list = rs_val_alloc(rec->root, sizeof(*rec->call_list));
	if (!rec->call_list)
		return;
	*rec->call_list = (struct rs_rec_calls){ 0 };
	rec->calls = rs_val_put_list(rec->root, "calls", &call_list_ops,
				     rec->call_list);
}

int rs_record_init(struct rs_record *rec, bool dry_run, bool verbose)
{
	*rec = (struct rs_record){ .dry_run = dry_run,
				   .calls_wanted = dry_run || verbose };
	pthread_mutex_init(&rec->lock, NULL);
	rec->root = rs_val_obj();
	/* Steps of a parallel add to it from threads of their own. */
	if (rec->root && rs_val_share(rec->root)) {
		rs_val_free(rec->root);
		rec->root = NULL;
	}
	rs_val_put_str(rec->root, "format", "rdmascn-run/1");
	rec->objects = rs_val_put_arr(rec->root, "objects");
	rec->steps = rs_val_put_arr(rec->root, "steps");
	if (rec->calls_wanted)
		init_calls(rec);
	rec->events = rs_val_put_arr(rec->root, "events");
	rec->teardown = rs_val_put_arr(rec->root, "teardown");
	rec->errors = rs_val_put_arr(rec->root, "errors");
	rec->warnings = rs_val_put_arr(rec->root, "warnings");
	return rs_val_check(rec->root);
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
	for (unsigned i = 0; i < rec->n_reporters; i++)
		if (rec->reporters[i]->ops->entry)
			rec->reporters[i]->ops->entry(rec->reporters[i], type,
						      entry);
}

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
			rs_val_put(rec->root, "entry", NULL);
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
static const char *kept_name(struct rs_record *rec, const char *s)
{
	struct rs_rec_name **pp, *n;
	size_t len;

	for (pp = &rec->names; (n = *pp); pp = &n->next) {
		if (strcmp(n->text, s))
			continue;
		*pp = n->next;
		n->next = rec->names;
		rec->names = n;
		return n->text;
	}
	len = strlen(s) + 1;
	n = rs_val_alloc(rec->root, sizeof(*n) + len);
	if (!n)
		return NULL;
	memcpy(n->text, s, len);
	n->next = rec->names;
	rec->names = n;
	return n->text;
}

/* An object's name: the last one again (an object's calls come
 * together), else a copy. */
static const char *kept_object(struct rs_record *rec, const char *s)
{
	size_t len;
	char *p;

	if (rec->last_object && !strcmp(rec->last_object, s))
		return rec->last_object;
	len = strlen(s) + 1;
	p = rs_val_alloc(rec->root, len);
	if (!p)
		return NULL;
	rec->last_object = memcpy(p, s, len);
	return p;
}

struct rs_rec_call *rs_record_call(struct rs_record *rec, unsigned no,
				   const char *name, const char *args,
				   const uint16_t *at, unsigned n_at,
				   const char *object, bool object_kept)
{
	size_t len = strlen(args);
	struct rs_rec_call *c = NULL;
	struct rs_val *t;

	pthread_mutex_lock(&rec->lock);
	if (!rec->call_list)
		goto out;
	if (len > UINT16_MAX)
		len = UINT16_MAX;
	c = rs_val_alloc(rec->root, sizeof(*c) + n_at * sizeof(*at) +
			 len + 1);
	if (!c)
		goto out;
	*c = (struct rs_rec_call){ .no = no, .len = (uint16_t)len,
				   .n_at = (uint16_t)n_at };
	c->name = kept_name(rec, name);
	c->object = !object || object_kept ? object :
		    kept_object(rec, object);
	if (!c->name || (object && !c->object)) {
		c = NULL;
		goto out;
	}
	memcpy(c->at, at, n_at * sizeof(*at));
	memcpy(c->at + n_at, args, len);
	((char *)(c->at + n_at))[len] = '\0';
	if (rec->call_list->last)
		rec->call_list->last->next = c;
	else
		rec->call_list->first = c;
	rec->call_list->last = c;
	rec->call_list->n++;
	/* Told as the tree it is written as, made for the telling. */
	t = rs_rec_call_tree(c);
	if (t)
		tell(rec, RS_REC_CALL, t);
	else
		rs_val_put(rec->root, "entry", NULL);
	rs_val_free(t);
out:
	pthread_mutex_unlock(&rec->lock);
	return c;
}

struct rs_val *rs_rec_call_tree(const struct rs_rec_call *c)
{
	struct rs_val *e = rs_val_obj();

	if (c->no)
		rs_val_put_u64(e, "no", c->no);
	rs_val_put_str(e, "name", c->name);
	rs_val_put_str(e, "args", (const char *)(c->at + c->n_at));
	rs_val_put_pairs(e, "fields", rs_val_get(e, "args"), c->at,
			 c->n_at);
	if (c->object)
		rs_val_put_str(e, "object", c->object);
	if (c->outcome != RS_REC_CALL_NONE) {
		rs_val_put_bool(e, "ok", c->ok);
		if (!c->ok) {
			const char *name = strerrorname_np(c->err);

			rs_val_put_i64(e, "errno", c->err);
			if (name)
				rs_val_put_str(e, "error", name);
		}
		if (c->outcome == RS_REC_CALL_MADE)
			rs_val_put_u64(e, "duration_ns", c->duration_ns);
		else
			rs_val_put_bool(e, "injected", true);
	}
	if (rs_val_check(e) < 0) {
		rs_val_free(e);
		return NULL;
	}
	return e;
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
