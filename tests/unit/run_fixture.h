/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_TEST_RUN_FIXTURE_H
#define RDMASCN_TEST_RUN_FIXTURE_H

#include "run.h"

/* @yaml loaded with the core kinds and the plugins, as file @name. */
struct rs_scenario *fixture_load(const char *name, const char *yaml);

/*
 * A run of @yaml without a device: loaded with the core kinds, every
 * object's runtime struct allocated and zeroed (nothing created), ids
 * mapped, a record with no reporter.  Tests fill in the runtime state
 * that creating the objects would have left.
 */
void fixture_run_open(const char *name, const char *yaml,
		      struct rs_scenario **ret_s, struct rs_run *run,
		      struct rs_record *rec);
void fixture_run_close(struct rs_scenario *s, struct rs_run *run,
		       struct rs_record *rec);

#endif
