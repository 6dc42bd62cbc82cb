// SPDX-License-Identifier: MIT
/* qp: not written yet. */
#include "live.h"

const struct rdmascn_ops rs_ops_qp = {
	.rt_size = sizeof(struct rs_qp_rt),
};
