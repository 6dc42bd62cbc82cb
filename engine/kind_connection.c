// SPDX-License-Identifier: MIT
/* connection: not written yet. */
#include "live.h"

const struct rdmascn_ops rs_ops_connection = {
	.rt_size = sizeof(struct rs_connection_rt),
};
