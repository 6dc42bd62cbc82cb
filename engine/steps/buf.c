// SPDX-License-Identifier: MIT
/* The buffers a step's WRs name: checked against the MR they are in. */
#include <errno.h>

#include "alloc.h"
#include "buf.h"
#include "vary.h"

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
	} else if (!rs_run_here(sr->run, l->obj)) {
		/* On another node: what it published (rs_nodes_publish());
		 * its bytes are not here to check. */
		const struct rs_far *far = rs_live_far(sr->run, l);

		*ret_addr = far->addr + offset;
		*ret_rkey = far->rkey;
		*ret_host = NULL;
		len = far->known ? far->length : 0;
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

/* rs_step_local(), its offset in @off_field. */
static int local_at(struct rs_step_run *sr, const char *id, uint64_t offset,
		    const char *off_field, const char *len_field, uint64_t len,
		    uint64_t cap, struct ibv_sge *ret_sge, uint8_t **ret_host)
{
	struct rs_mr_rt *mr = rs_step_mr(sr, id);

	if (offset > mr->length)
		return rs_step_fail(sr, RS_STEP_CANTRUN, off_field,
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

int rs_step_local(struct rs_step_run *sr, const char *id, uint64_t offset,
		  const char *len_field, uint64_t len, uint64_t cap,
		  struct ibv_sge *ret_sge, uint8_t **ret_host)
{
	return local_at(sr, id, offset, "offset", len_field, len, cap, ret_sge,
			ret_host);
}

/* @n messages, @stride apart, from @sge (in mr @id) stay inside it. */
static int check_walk(struct rs_step_run *sr, const char *id,
		      const struct ibv_sge *sge, uint64_t n, uint64_t stride)
{
	struct rs_mr_rt *mr = rs_step_mr(sr, id);
	uint64_t at = sge->addr - mr->addr;
	uint64_t end = rs_vary_end(at, sge->length, n, stride);

	if (n < 2 || !stride || end <= mr->length)
		return 0;
	return rs_step_fail(sr, RS_STEP_CANTRUN, "stride",
			    "%llu messages of %u bytes from offset %llu, %llu "
			    "apart, end at byte %llu, past the end of mr '%s' "
			    "(%zu bytes)", (unsigned long long)n, sge->length,
			    (unsigned long long)at, (unsigned long long)stride,
			    (unsigned long long)end, id, mr->length);
}

int rs_step_bufs(struct rs_step_run *sr, const struct rs_step_vary *sv,
		 const char *local, uint64_t offset, uint32_t length,
		 uint64_t cap, uint64_t n, struct rs_wr_vary *v)
{
	unsigned k = sv->sge_count ? sv->sge_count : 1;
	struct ibv_sge *sge = rs_calloc(k, sizeof(*sge));
	uint8_t **host = rs_calloc(k, sizeof(*host));
	int r = 0;

	if (!sge || !host) {
		r = rs_step_fail(sr, RS_STEP_CANTRUN, NULL, "out of memory");
		goto out;
	}
	for (unsigned j = 0; !r && j < k; j++) {
		const struct rs_sge_spec *e = &sv->sge[j];
		char of[32], lf[32];

		if (!sv->sge_count) {
			r = rs_step_local(sr, local, offset, "length", length,
					  cap, &sge[j], &host[j]);
			if (!r)
				r = check_walk(sr, local, &sge[j], n,
					       sv->stride);
			continue;
		}
		snprintf(of, sizeof(of), "sge[%u].offset", j);
		snprintf(lf, sizeof(lf), "sge[%u].length", j);
		r = local_at(sr, e->mr, e->offset, of, lf, e->length,
			     UINT64_MAX, &sge[j], &host[j]);
		if (!r)
			r = check_walk(sr, e->mr, &sge[j], n, sv->stride);
	}
	if (!r && rs_wr_vary_set(v, sge, host, k))
		r = rs_step_fail(sr, RS_STEP_CANTRUN, NULL, "out of memory");
	v->stride = sv->stride;
	v->user_id = rs_obj_has(sr->obj, "wr_id");
	v->wr_id = sv->wr_id;
out:
	rs_free(sge);
	rs_free(host);
	return r;
}
