// SPDX-License-Identifier: MIT
/* dm: not written yet. */
#include "live.h"

const struct rdmascn_ops rs_ops_dm = {
	.rt_size = sizeof(struct rs_dm_rt),
};
