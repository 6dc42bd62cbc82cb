/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_VARY_H
#define RDMASCN_VARY_H

#include <stdbool.h>
#include <stdint.h>

#include "steps.h"

/*
 * The arithmetic of WRs that vary (step_vary_schema.c checks it before
 * a run, wr.c posts by it): message i of n starts @stride bytes after
 * message i-1; a message longer than a WR may move is split into
 * ceil(len / max) pieces, all @max bytes but the last.
 */

/* The byte after the last of @n messages of @len at @offset, @stride
 * apart; UINT64_MAX when that does not fit in 64 bits. */
static inline uint64_t rs_vary_end(uint64_t offset, uint64_t len,
				   uint64_t n, uint64_t stride)
{
	uint64_t walk;

	if (!n)
		n = 1;
	if (stride && n - 1 > (UINT64_MAX - offset) / stride)
		return UINT64_MAX;
	walk = offset + (n - 1) * stride;
	return UINT64_MAX - walk < len ? UINT64_MAX : walk + len;
}

/* The WRs a message of @len bytes takes at most @max a WR (0: no cap);
 * an empty message is one WR. */
static inline uint64_t rs_vary_pieces(uint64_t len, uint64_t max)
{
	if (!max || len <= max)
		return 1;
	return len / max + (len % max != 0);
}

/* Piece @p of a message of @len split at @max: where it starts in the
 * message and how long it is. */
static inline void rs_vary_piece(uint64_t len, uint64_t max, uint64_t p,
				 uint64_t *ret_at, uint32_t *ret_len)
{
	uint64_t at = max ? p * max : 0;
	uint64_t rest = len > at ? len - at : 0;

	*ret_at = at;
	*ret_len = (uint32_t)(max && rest > max ? max : rest);
}

/* What rs_step_check_vary() needs of a step besides its `vary`. */
struct rs_vary_check {
	const struct rs_step_vary *v;
	uint64_t n;                  /* messages: iterations, count */
	uint64_t offset, length;     /* `offset:`, `length:` */
	bool inline_data;
	bool remote;                 /* it has `remote:` ... */
	uint64_t remote_offset;      /* ... at this offset */
	int expect;
};

/* The WR fields of a step whose buffer is `local:` (+ `offset:`,
 * `length:`) or `sge:`: the two exclusive, the strides inside the mrs
 * whose lengths are numbers in the file, wr_id below RS_USER_WR_ID_END.
 * 0, or -EINVAL after an error. */
int rs_step_check_vary(struct rs_obj *obj, struct rs_diag *d,
		       const struct rs_vary_check *c);

#endif
