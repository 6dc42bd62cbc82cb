/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_COUNTERS_H
#define RDMASCN_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "value.h"

/*
 * Port and device counters, read from sysfs around a step and the run
 * (counters.c).  Under ROOT (/sys/class/infiniband): a port's IB PMA
 * set, ROOT/DEV/ports/N/counters/ (where the driver has one: rxe has
 * not), its driver's ROOT/DEV/ports/N/hw_counters/ and the device's own
 * ROOT/DEV/hw_counters/.  A hw_counters directory caches its values for
 * `lifespan` ms (its file of that name): a read sooner than that after
 * the one before gives the same values, so a snapshot's second read
 * waits out the rest of it.  The deltas go into the record keyed
 * "DEV/N" (both port directories) and "DEV" (the device's), each an
 * object {KERNEL_NAME: delta}.
 */

#define RS_CTR_ROOT "/sys/class/infiniband"

/* One directory of counters, listed once: its names, sorted. */
struct rs_ctr_dir {
	char *path;
	char key[96];            /* "rxe_a/1", or "rxe_a" for the device */
	char **names;            /* NULL, n 0: no such directory */
	unsigned n;
	unsigned lifespan_ms;    /* 0: not cached (the PMA set) */
	double read_ms;          /* rs_now_ms() of its last read; 0: none */
};

/* The directories a run reads, each listed the first time it is
 * wanted. */
struct rs_counters {
	char *root;
	struct rs_ctr_dir *dirs;
	unsigned n_dirs, cap;
};

/* One snapshot: the directories it reads and what it read first. */
struct rs_ctr_snap {
	struct rs_counters *c;
	unsigned *dirs;          /* indexes of c->dirs */
	unsigned n, cap;
	uint64_t **before;       /* per directory, per name */
	bool **have;             /* ... read as a number */
	bool begun;
};

/* @root NULL: RS_CTR_ROOT (tests name a tree of their own).  NULL when
 * out of memory. */
struct rs_counters *rs_counters_new(const char *root);
void rs_counters_free(struct rs_counters *c);

/* @s reads @dev's port @port (its two directories, listed now if they
 * were not) and @dev's own directory.  A directory that is not there
 * is no error: it has no counters.  0, or -ENOMEM. */
int rs_ctr_snap_add(struct rs_ctr_snap *s, struct rs_counters *c,
		    const char *dev, unsigned port);
/* The first read, of every directory @s names: 0, or -ENOMEM. */
int rs_ctr_snap_begin(struct rs_ctr_snap *s);
/* The second read, each cached directory at least its lifespan after
 * its read before (waiting out the rest), and the deltas into @ret
 * ({"DEV/N": {name: delta}, "DEV": {...}}; a key with no counter is
 * left out).  A counter that went down (reset) counts from 0.  0, or
 * -ENOMEM; -EINVAL when @s was not begun. */
int rs_ctr_snap_end(struct rs_ctr_snap *s, struct rs_val *ret);
/* Forget what @s read and names; it can be added to again. */
void rs_ctr_snap_free(struct rs_ctr_snap *s);

/* Whether a counter of this name counts errors, drops or congestion
 * (the text report's curated set: rxe's, mlx5's, the PMA's, and every
 * name with a '_'-separated word that starts "err" or "discard"). */
bool rs_counter_is_error(const char *name);

/* The unit of counter @name where it is not a count of events or
 * packets ("4-octet words": the PMA's port_xmit_data, port_rcv_data),
 * else NULL. */
const char *rs_counter_unit(const char *name);

/* Milliseconds @s waits, at least, before its second read (the longest
 * lifespan among its directories). */
unsigned rs_ctr_snap_lifespan(const struct rs_ctr_snap *s);

#endif
