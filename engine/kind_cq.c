// SPDX-License-Identifier: MIT
/* cq: not written yet. */
#include "live.h"

const struct rdmascn_ops rs_ops_cq = {
	.rt_size = sizeof(struct rs_cq_rt),
};
