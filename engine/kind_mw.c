// SPDX-License-Identifier: MIT
/* mw: not written yet. */
#include "live.h"

const struct rdmascn_ops rs_ops_mw = {
	.rt_size = sizeof(struct rs_mw_rt),
};
