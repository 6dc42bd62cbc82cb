// SPDX-License-Identifier: MIT
/* What impair and link share: the netdev under a step's context, or the
 * step skipped with the reason. */
#include <errno.h>

#include "live.h"
#include "step.h"
#include "steps.h"
#include "value.h"

int rs_step_netdev(struct rs_step_run *sr, const char *ctx_id,
		   struct rs_live **ret_ctx, char *ret_ifname, size_t len)
{
	struct rs_live *l = rs_live_find(sr->run, ctx_id);
	struct rs_dev *dev = l ? rs_as_dev(l) : NULL;
	char why[512];

	if (!dev)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "context",
				    "context '%s' is not open", ctx_id);
	if (rs_wire_reach("/sys", dev->name, dev->port, ret_ifname, len, why,
			  sizeof(why)))
		return rs_step_skip(sr, "%s", why);
	if (!rs_wire_admin(why, sizeof(why)))
		return rs_step_skip(sr, "%s (netdev %s of %s)", why,
				    ret_ifname, dev->name);
	rs_val_put_str(rs_val_put_obj(rs_step_figures(sr), "wire"), "netdev",
		       ret_ifname);
	*ret_ctx = l;
	return 0;
}
