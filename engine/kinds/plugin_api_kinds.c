// SPDX-License-Identifier: MIT
/*
 * What the kinds layer exports to plugins (rdmascn/plugin.h, ABI 6): how
 * the core kinds show access flags and ibv_modify_qp()'s attributes, so
 * a plugin's calls print as the core's do.
 */
#include "kinds.h"
#include "live.h"
#include "public_names.h"
#include "rdmascn/plugin.h"

#define API __attribute__((visibility("default")))

API const char *rdmascn_access_text(uint64_t access, char *buf, size_t len)
{
	return rs_access_text(access, buf, len);
}

API const char *rdmascn_qp_state_name(int state)
{
	return rs_qp_state_name((enum ibv_qp_state)state);
}

API void rdmascn_qp_attr_args(struct rdmascn_call *c,
			      const struct ibv_qp_attr *attr, int mask)
{
	if (c)
		rs_qp_attr_args(&c->c, attr, mask, 0);
}
