// SPDX-License-Identifier: MIT
/* flow: not written yet. */
#include "live.h"

const struct rdmascn_ops rs_ops_flow = {
	.rt_size = sizeof(struct rs_flow_rt),
};
