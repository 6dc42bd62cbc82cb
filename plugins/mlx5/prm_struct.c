// SPDX-License-Identifier: MIT
/*
 * Structures a verb takes as PRM bytes rather than a command: the
 * packet pacing context of mlx5dv_pp_alloc(), the match parameters of
 * mlx5dv_create_flow_matcher() and mlx5dv_create_flow(); and their
 * encoder.  Layouts from mlx5_ifc.h (bit offset, width).
 */
#include <errno.h>
#include <string.h>

#include "prm_layouts.h"

/* set_pp_rate_limit_context (mlx5_ifc.h; rate_mode as DPDK's
 * mlx5_prm.h has it in what the kernel keeps reserved): 0x180 bits. */
static const struct prm_field f_set_pp_rate_limit_context[] = {
	{ "rate_limit", 0x0, 32 },
	{ "burst_upper_bound", 0x20, 32 },
	{ "rate_mode", 0x4c, 4 },
	{ "typical_packet_size", 0x50, 16 },
	{ NULL }
};
const struct prm_layout prm_set_pp_rate_limit_context = {
	"set_pp_rate_limit_context", 0x180, f_set_pp_rate_limit_context
};

int prm_encode_struct(const struct prm_layout *l, const struct prm_val *vals,
		      size_t n, uint8_t *buf, size_t cap, size_t *ret_bad)
{
	size_t len = l->bits / 8;

	if (cap < len)
		return -ENOSPC;
	memset(buf, 0, cap);
	for (size_t i = 0; i < n; i++) {
		struct prm_loc loc;
		int r = prm_find(l, vals[i].field, &loc);

		if (!r)
			r = vals[i].n || loc.width > 64 ?
			    prm_set_bytes(buf, len, loc.off, loc.width,
					  vals[i].bytes, vals[i].n) :
			    prm_set(buf, len, loc.off, loc.width, vals[i].v);
		if (r) {
			*ret_bad = i;
			return r;
		}
	}
	return 0;
}

/* Each parameter set of fte_match_param is 0x200 bits. */
#define MATCH_SET_BITS 0x200

uint8_t prm_match_criteria(const struct prm_val *vals, size_t n)
{
	uint8_t c = 0;

	for (size_t i = 0; i < n; i++) {
		struct prm_loc loc;

		if (!prm_find(&prm_fte_match_param, vals[i].field, &loc) &&
		    loc.off / MATCH_SET_BITS < 8)
			c |= (uint8_t)(1u << (loc.off / MATCH_SET_BITS));
	}
	return c;
}
