// SPDX-License-Identifier: MIT
/* srq: not written yet. */
#include "live.h"

const struct rdmascn_ops rs_ops_srq = {
	.rt_size = sizeof(struct rs_srq_rt),
};
