// SPDX-License-Identifier: MIT
/* xrcd: not written yet. */
#include "live.h"

const struct rdmascn_ops rs_ops_xrcd = {
	.rt_size = sizeof(struct rs_xrcd_rt),
};
