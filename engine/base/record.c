// SPDX-License-Identifier: MIT
/* The run record and the reporters that render it (record.h). */
#include <errno.h>

#include "alloc.h"
#include "record.h"

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
	rec->calls = rec->calls_wanted ? rs_val_put_arr(rec->root, "calls") :
		     NULL;
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
