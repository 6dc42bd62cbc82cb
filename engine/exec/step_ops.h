/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_STEP_OPS_H
#define RDMASCN_STEP_OPS_H

#include "public_names.h"
#include "rdmascn/kind.h"

/* What each core step type does on a device (steps/step_*.c); the step
 * kinds in steps/step_*_schema.c point at these. */
extern const struct rdmascn_step_ops rs_step_ops_send;
extern const struct rdmascn_step_ops rs_step_ops_recv;
extern const struct rdmascn_step_ops rs_step_ops_write;
extern const struct rdmascn_step_ops rs_step_ops_read;
extern const struct rdmascn_step_ops rs_step_ops_atomic;
extern const struct rdmascn_step_ops rs_step_ops_ud_send;
extern const struct rdmascn_step_ops rs_step_ops_bind_mw;
extern const struct rdmascn_step_ops rs_step_ops_invalidate;
extern const struct rdmascn_step_ops rs_step_ops_register_layout;
extern const struct rdmascn_step_ops rs_step_ops_pingpong;
extern const struct rdmascn_step_ops rs_step_ops_stream;
extern const struct rdmascn_step_ops rs_step_ops_verify;
extern const struct rdmascn_step_ops rs_step_ops_parallel;
extern const struct rdmascn_step_ops rs_step_ops_sleep;
extern const struct rdmascn_step_ops rs_step_ops_modify_qp;

#endif
