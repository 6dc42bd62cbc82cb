// SPDX-License-Identifier: MIT
#include <stddef.h>

#include "kinds.h"

/* The core object kinds, in section order: each after what it names. */
const struct rdmascn_kind *const rs_core_objects[] = {
	&rs_kind_context,
	&rs_kind_pd,
	&rs_kind_xrcd,
	&rs_kind_dm,
	&rs_kind_mr,
	&rs_kind_mw,
	&rs_kind_cq,
	&rs_kind_srq,
	&rs_kind_parent_domain,
	&rs_kind_qp,
	&rs_kind_ah,
	&rs_kind_flow,
	&rs_kind_connection,
	NULL
};
