// SPDX-License-Identifier: MIT
/* ah: not written yet. */
#include "live.h"

const struct rdmascn_ops rs_ops_ah = {
	.rt_size = sizeof(struct rs_ah_rt),
};
