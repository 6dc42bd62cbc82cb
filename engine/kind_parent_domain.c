// SPDX-License-Identifier: MIT
/* parent_domain: not written yet. */
#include "live.h"

const struct rdmascn_ops rs_ops_parent_domain = {
	.rt_size = sizeof(struct rs_parent_domain_rt),
};
