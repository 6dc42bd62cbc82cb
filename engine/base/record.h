/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_RECORD_H
#define RDMASCN_RECORD_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "value.h"

/*
 * The run record: every phase of a run appends to it, as data (numbers
 * stay numbers), and reporters render it.  A reporter sees each entry
 * the moment it is appended (the text reporter prints it then, so a long
 * run shows its progress) and the whole record at the end (the JSON
 * reporter writes it then).  Entries are value trees (struct rs_val),
 * held in the root's arena; their members are listed in
 * schemas/rdmascn-run.schema.json.
 *
 * Appending is thread-safe: steps of a `parallel:` run on threads of
 * their own and report events from there.
 */
struct rs_record;

enum rs_rec_entry {
	RS_REC_PHASE,       /* "create", "steps", "teardown" begin */
	RS_REC_OBJECT,      /* an object's outcome at create */
	RS_REC_CALL,        /* a verbs call (dry run and -v only) */
	RS_REC_EVENT,       /* an async or rdma_cm event */
	RS_REC_STEP,        /* a step's result */
	RS_REC_DESTROYED,   /* an object taken down */
	RS_REC_LEAKS,       /* what --check-leaks found */
	RS_REC_ERROR,       /* an error, located when it is about the file */
	RS_REC_WARNING,     /* a warning: the run goes on, its verdict is
			     * not changed */
	/* Where a running step is (done, total, unit, elapsed_ms,
	 * deadline_left_ms): for a terminal's progress line; added to no
	 * list, so it is not part of the record. */
	RS_REC_PROGRESS,
};

struct rs_reporter;

struct rs_reporter_ops {
	/* The run's head: scenario, file, dry run, the plan. */
	void (*begin)(struct rs_reporter *r, const struct rs_val *record);
	void (*entry)(struct rs_reporter *r, enum rs_rec_entry type,
		      const struct rs_val *entry);
	/* Whether entry() does anything with @type now (NULL: it does):
	 * an entry the record holds as a struct (a call, an object, a dry
	 * run's teardown) is made into a tree only to be told, and a dry
	 * run with -q tells 1.7 million calls to nobody. */
	bool (*wants)(struct rs_reporter *r, enum rs_rec_entry type);
	/* The verdict is in the record; 0 or -errno (the report could not
	 * be written). */
	int (*end)(struct rs_reporter *r, const struct rs_val *record);
	void (*free)(struct rs_reporter *r);
	/* The engine is about to block (a step's loop, an rdma_cm event, a
	 * rendezvous): what a reporter holds back (the text reporter keeps
	 * a phase's lines in its stream's buffer) goes out now, so that a
	 * log followed while the run waits shows all that came before. */
	void (*before_wait)(struct rs_reporter *r);
};

struct rs_reporter {
	const struct rs_reporter_ops *ops;
};

/* The most keys a call's args are split at (RS_CALL_MAX_ARGS). */
#define RS_REC_MAX_ARGS 48

/* The longest id an entry names (RDMASCN_ID_MAX). */
#define RS_REC_ID_MAX 64

/*
 * A verbs call as the record keeps it (a dry run keeps about four an
 * object): a typed struct in the record's arena, its name and object
 * pointers to strings the record holds once.  Its args text is its own
 * (after the struct: the n_at offsets of its keys, then the text), or,
 * when an earlier call of the name had the same keys (@base: a QP's
 * modify to RTR names the same 15 keys each time, and differs in two
 * values), only the values that differ from @base's: n_diff pairs of
 * (key index, length), then their bytes.  Made as the tree schemas/
 * describe (the "calls" items) only to be told or written
 * (rs_rec_call_tree()).  The record lays its calls out one after the
 * other in blocks of their own, which is how the next is found.  What
 * came of it (struct rs_rec_call_out) is kept only by a record of calls
 * that are made: a dry run's are not, and it has 1.7 million of them at
 * 400k objects.
 */
struct rs_rec_call {
	/* Its name (one copy a name, the record's) when its text is its
	 * own; else the call it is written against, of the same name:
	 * rs_rec_call_name(), rs_rec_call_base(). */
	union {
		const char *name;
		const struct rs_rec_call *base;
	} u;
	const char *object;      /* the object's name; NULL: none */
	uint32_t no;             /* 0: not numbered */
	uint16_t len;            /* of args */
	uint8_t n_at;            /* at most RS_REC_MAX_ARGS */
	uint8_t n_diff;
	bool has_out;            /* rs_rec_call_out() is there */
	bool has_base;
	uint16_t at[];
};

/* The call @c is written against; NULL: its text is its own. */
static inline const struct rs_rec_call *
rs_rec_call_base(const struct rs_rec_call *c)
{
	return c->has_base ? c->u.base : NULL;
}

/* @c's name (a base's text is always its own). */
static inline const char *rs_rec_call_name(const struct rs_rec_call *c)
{
	return c->has_base ? c->u.base->u.name : c->u.name;
}

enum rs_rec_call_outcome {
	RS_REC_CALL_NONE,        /* not made (a dry run) or not yet back */
	RS_REC_CALL_MADE,        /* ok, errno; duration_ns */
	RS_REC_CALL_INJECTED,    /* failed by RDMASCN_FAULT, not made */
};

/* A made call's outcome: just before its struct, in one allocation. */
struct rs_rec_call_out {
	uint64_t duration_ns;
	int32_t err;
	uint8_t outcome;         /* enum rs_rec_call_outcome */
	bool ok;
};

/* @c's outcome, to fill in; NULL when the record keeps none (a dry
 * run's calls are not made). */
static inline struct rs_rec_call_out *rs_rec_call_out(struct rs_rec_call *c)
{
	return c && c->has_out ? (struct rs_rec_call_out *)c - 1 : NULL;
}

/* A string the record holds, one copy of each (a call's name). */
struct rs_rec_name;

struct rs_record {
	struct rs_val *root;
	struct rs_val *objects;  /* every object, in creation order */
	struct rs_val *steps;    /* every step, in execution order */
	struct rs_val *calls;    /* a list (rs_val_put_list()) of the */
	struct rs_rec_calls *call_list; /* struct rs_rec_call */
	struct rs_rec_name *names;
	const char *last_object; /* the record's copy of the last one */
	const char *last_file;   /* and of an object entry's file */
	const void *last_kf;     /* and of its kind and file together */
	struct rs_val *events;
	struct rs_val *teardown;
	struct rs_rec_downs *down_list; /* a dry run's teardown */
	struct rs_val *errors;
	struct rs_val *warnings;
	bool dry_run;
	bool calls_wanted;       /* dry run or -v */
	struct rs_reporter **reporters; /* as many as were added */
	unsigned n_reporters;
	pthread_mutex_t lock;
};

int rs_record_init(struct rs_record *rec, bool dry_run, bool verbose);
/* Threads are about to add to the record (steps of a parallel, a
 * pingpong's answering side): called before each is started, from the
 * thread that starts it; the record's tree allocates under a lock from
 * then on.  0 or -ENOMEM. */
int rs_record_threads(struct rs_record *rec);
/* Reporters (any number) are freed with the record; -ENOMEM (@r
 * freed) when it cannot take one more. */
int rs_record_add_reporter(struct rs_record *rec, struct rs_reporter *r);
void rs_record_free(struct rs_record *rec);

/* The head is complete (scenario, file, the planned objects and steps):
 * tell the reporters. */
void rs_record_begin(struct rs_record *rec);
/* Tell the reporters of @entry (a tree of its own, freed here) and
 * append a copy of it to @list (NULL: no list; the entry then lives only
 * as long as the call).  Returns the copy, the one to change from then
 * on (under rec->lock, or while no steps run); NULL when out of memory
 * or without a list. */
struct rs_val *rs_record_add(struct rs_record *rec, enum rs_rec_entry type,
			     struct rs_val *list, struct rs_val *entry);
/* A call (@at, @n_at: where each key of @args starts), in the record
 * and told to the reporters; @object, its object's name (NULL: none), is
 * copied unless it is the last one given or @object_kept says it is the
 * record's own (an object entry's "name").  Returns the record's struct,
 * to change under rec->lock; NULL when out of memory (the run then ends
 * "out of memory") or when the record keeps no calls. */
struct rs_rec_call *rs_record_call(struct rs_record *rec, unsigned no,
				   const char *name, const char *args,
				   const uint16_t *at, unsigned n_at,
				   const char *object, bool object_kept);
/* @c as the tree its JSON is (no, name, args, fields, object and the
 * outcome): a tree of its own, NULL when out of memory. */
struct rs_val *rs_rec_call_tree(const struct rs_rec_call *c);
/*
 * An object's entry (id, kind, name, file, line, col, outcome, no), as a
 * struct in the record's arena (rs_val_push_struct()): kind and file
 * are the record's one copy, @outcome a string that lives as long as the
 * program.  Made into an object of nodes when something else is added to
 * it (a real run's facts) or read from it; told with
 * rs_record_tell_obj().  NULL when out of memory (the record marked).
 */
struct rs_val *rs_record_object(struct rs_record *rec, const char *id,
				const char *kind, const char *name,
				const struct rs_loc *loc, const char *outcome);
/* Its "no" and "outcome", set in whichever form it is now. */
void rs_rec_obj_no(struct rs_val *entry, unsigned no);
void rs_rec_obj_outcome(struct rs_val *entry, const char *outcome);
/* A real run's "create_ms" and "facts" (an object to fill; NULL when
 * out of memory, the entry marked), after "no": kept beside the struct
 * of a record that is not a dry run's, without making it nodes, else
 * put as members. */
void rs_rec_obj_create_ms(struct rs_val *entry, double ms);
struct rs_val *rs_rec_obj_facts(struct rs_val *entry);
/* Its name (NULL: none), the record's: for a call's "object". */
const char *rs_rec_obj_name(const struct rs_val *entry);
/* Its outcome ("" when it has none): for a reporter, without making
 * the struct into nodes. */
const char *rs_rec_obj_outcome_of(const struct rs_val *entry);
/* Tell the reporters of @entry, an object's, as it is now. */
void rs_record_tell_obj(struct rs_record *rec, const struct rs_val *entry);
/*
 * A planned step's entry (no, type, id: @id NULL when it has none), as a
 * struct pushed on @plan (rs_val_push_struct()): a dry run of 100k
 * pairs plans 200k steps, and as nodes each was 130 bytes.  A step with
 * more (its node, its gates) is made as nodes by the caller.  NULL
 * when out of memory (@plan marked).
 */
struct rs_val *rs_record_plan_step(struct rs_record *rec, struct rs_val *plan,
				   const char *no, const char *type,
				   const char *id);
/* Its id (NULL: none) and gates (NULL: none), for a reporter, without
 * making the struct into nodes. */
const char *rs_rec_step_id(const struct rs_val *entry);
const struct rs_val *rs_rec_step_gates(const struct rs_val *entry);
/* @no, @id and @name taken down (every teardown entry of a dry run;
 * a real run's whose kind says nothing more: one with facts is a tree
 * of its own, rs_record_add()): a struct whose strings are
 * @obj_entry's (the object's entry; NULL: copies).  Told and appended
 * to rec->teardown. */
void rs_record_destroyed(struct rs_record *rec, unsigned no,
			 const struct rs_val *obj_entry, const char *id,
			 const char *name);
/* Something the record was to hold could not be made (out of memory):
 * marked, so that the run ends "out of memory", not passed without it. */
void rs_record_lost(struct rs_record *rec);
/* An entry already in the record changed: tell the reporters. */
void rs_record_tell(struct rs_record *rec, enum rs_rec_entry type,
		    const struct rs_val *entry);
/* The engine will block now (each reporter's before_wait): called
 * before every wait a reader of the output could be waiting through
 * (record_wait.c). */
void rs_record_before_wait(struct rs_record *rec);
/* Verdict and exit code are in the record: the reporters finish.  0, or
 * the first reporter's -errno. */
int rs_record_end(struct rs_record *rec);

#endif
