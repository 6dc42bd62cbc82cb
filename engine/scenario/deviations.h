/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_DEVIATIONS_H
#define RDMASCN_DEVIATIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "dom.h"

struct rs_scenario;

/*
 * Known deviations of a device or provider: steps (or whole scenarios)
 * known to fail there, or that must not run there, each with a reason —
 * google/rdma-unit-test's per-NIC tables, fabtests' exclude files.  From
 * a scenario's `deviations:` and from --deviations FILE (a YAML file with
 * a `deviations:` list of the same entries):
 *
 *	deviations:
 *	  - provider: rxe          # or device: "mlx5_*" (fnmatch globs)
 *	    scenario: "atomics*"   # in a --deviations file: name or file
 *	    steps: [cas]           # none: the whole scenario
 *	    known: fail            # or skip; fail is the default
 *	    reason: rxe has no ...
 *
 * known: fail runs it and reports a failure as skipped with the reason;
 * known: skip does not run it.  --strict applies none of them.
 */
struct rs_deviation {
	const char *device;      /* globs; NULL: any */
	const char *provider;
	const char *scenario;
	const char **steps;      /* step ids; none: the whole scenario */
	unsigned n_steps;
	bool skip;               /* known: skip */
	const char *reason;
	struct rs_loc loc;       /* the entry */
};

struct rs_deviations {
	struct rs_deviation *v;
	unsigned n;
	struct rs_doc *doc;      /* a --deviations file's, which v points into */
};

/* The `deviations:` list @list into @dv (appended).  With @s (the
 * scenario's own), step ids must be the scenario's.  0, -EINVAL (said on
 * @d) or -ENOMEM. */
int rs_deviations_read(struct rs_deviations *dv, const struct rs_node *list,
		       const struct rs_scenario *s, struct rs_diag *d);
/* --deviations FILE into @dv. */
int rs_deviations_load(struct rs_deviations *dv, const char *path,
		       struct rs_diag *d);
/* Does @x apply to the scenario named @name in @file? */
bool rs_deviation_for_scenario(const struct rs_deviation *x,
			       const char *name, const char *file);
/* ... on the device named @dev (its provider: the name without its
 * index, rxe0 -> rxe, mlx5_2 -> mlx5)? */
bool rs_deviation_for_device(const struct rs_deviation *x, const char *dev);
/* The provider of device @dev, by the kernel's naming: the name without
 * its index (rxe0 -> rxe, mlx5_2 -> mlx5, irdma1 -> irdma). */
void rs_dev_provider(const char *dev, char *buf, size_t size);
/* Does @x name step @id (NULL: the whole scenario)? */
bool rs_deviation_for_step(const struct rs_deviation *x, const char *id);
void rs_deviations_free(struct rs_deviations *dv);

#endif
