/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_BUF_H
#define RDMASCN_BUF_H

#include <stdint.h>

#include <infiniband/verbs.h>

#include "step.h"
#include "steps.h"
#include "wr.h"

/* The buffers a step's WRs name (buf.c): an MR, a remote MR or bound MW,
 * a local range as an SGE. */

/* An MR's runtime state, NULL if @id names none. */
struct rs_mr_rt *rs_step_mr(struct rs_step_run *sr, const char *id);
/*
 * The remote end of an RDMA op at @offset of an mr or a bound mw: the
 * address and rkey to post, our host bytes there (for verify; NULL when
 * not known) and how many bytes there are from @offset on (an unbound
 * mw: UINT64_MAX).
 */
void rs_step_remote(struct rs_step_run *sr, const char *id, uint64_t offset,
		    uint64_t *ret_addr, uint32_t *ret_rkey, uint8_t **ret_host,
		    uint64_t *ret_avail);
/*
 * The local buffer of a step: @len_field (its value @len, absent: the
 * rest of the mr, at most @cap) bytes at @offset of mr @id, as an SGE.
 * @ret_host: our bytes there.  0, or -EIO once the step failed.
 */
int rs_step_local(struct rs_step_run *sr, const char *id, uint64_t offset,
		  const char *len_field, uint64_t len, uint64_t cap,
		  struct ibv_sge *ret_sge, uint8_t **ret_host);

/*
 * The local buffers of a posting step into @v: the entries of `sge:`
 * when given, else rs_step_local()'s one; each checked to hold @n
 * messages `stride:` apart; `stride:` and `wr_id:` into @v too.  0, or
 * -EIO once the step failed.
 */
int rs_step_bufs(struct rs_step_run *sr, const struct rs_step_vary *sv,
		 const char *local, uint64_t offset, uint32_t length,
		 uint64_t cap, uint64_t n, struct rs_wr_vary *v);

/* The first offset where @a and @b differ, @len if none (step_verify.c). */
size_t rs_first_diff(const uint8_t *a, const uint8_t *b, size_t len);

#endif
