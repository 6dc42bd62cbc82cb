// SPDX-License-Identifier: MIT
/* The buffers a step's WRs name: checked against the MR they are in. */
#include <errno.h>

#include "buf.h"

struct rs_mr_rt *rs_step_mr(struct rs_step_run *sr, const char *id)
{
	return rs_as_mem(rs_live_find(sr->run, id));
}

void rs_step_remote(struct rs_step_run *sr, const char *id, uint64_t offset,
		    uint64_t *ret_addr, uint32_t *ret_rkey, uint8_t **ret_host,
		    uint64_t *ret_avail)
{
	struct rs_live *l = rs_live_find(sr->run, id);
	struct rs_mw_rt *mw = rs_as_mw(l);
	struct rs_mr_rt *mr;
	uint64_t len;

	if (mw) {
		struct rs_mwi *m = sr->st->by_obj[l->obj->index];

		*ret_rkey = mw->rkey;
		if (!m->mr) {
			/* Never bound by a step: a negative test. */
			*ret_addr = offset;
			*ret_host = NULL;
			*ret_avail = UINT64_MAX;
			return;
		}
		mr = rs_as_mem(m->mr);
		*ret_addr = (m->zero_based ? 0 : m->addr) + offset;
		*ret_host = mr->buf && offset <= m->length ?
			    (uint8_t *)mr->buf + m->offset + offset : NULL;
		len = m->length;
	} else {
		mr = rs_as_mem(l);
		*ret_addr = mr->addr + offset;
		*ret_rkey = mr->mr->rkey;
		*ret_host = mr->buf && offset <= mr->length ?
			    (uint8_t *)mr->buf + offset : NULL;
		len = mr->length;
	}
	*ret_avail = offset <= len ? len - offset : 0;
}

int rs_step_local(struct rs_step_run *sr, const char *id, uint64_t offset,
		  const char *len_field, uint64_t len, uint64_t cap,
		  struct ibv_sge *ret_sge, uint8_t **ret_host)
{
	struct rs_mr_rt *mr = rs_step_mr(sr, id);

	if (offset > mr->length)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "offset",
				    "%llu is past the end of mr '%s' (%zu "
				    "bytes)", (unsigned long long)offset, id,
				    mr->length);
	if (!len_field || !rs_obj_has(sr->obj, len_field)) {
		len = mr->length - offset;
		if (len > cap)
			len = cap;
	} else if (len > mr->length - offset) {
		return rs_step_fail(sr, RS_STEP_CANTRUN, len_field,
				    "%llu bytes at offset %llu do not fit in "
				    "mr '%s' (%zu bytes)",
				    (unsigned long long)len,
				    (unsigned long long)offset, id, mr->length);
	}
	if (len > UINT32_MAX)
		return rs_step_fail(sr, RS_STEP_CANTRUN, len_field,
				    "%llu bytes: one WR moves at most %u",
				    (unsigned long long)len, UINT32_MAX);
	ret_sge->addr = mr->addr + offset;
	ret_sge->length = len;
	ret_sge->lkey = mr->mr ? mr->mr->lkey : 0;
	*ret_host = mr->buf ? (uint8_t *)mr->buf + offset : NULL;
	return 0;
}
