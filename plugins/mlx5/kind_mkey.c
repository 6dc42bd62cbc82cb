// SPDX-License-Identifier: MIT
/*
 * mlx5_mkeys on a device: mlx5dv_create_mkey() (INDIRECT, max_entries
 * as the layout needs) after the MRs of its layout, mlx5dv_destroy_mkey()
 * before them.  The layout's entries are computed once made (each MR's
 * address and lkey), and the register_layout step's UMR WR is built from
 * them.  To the steps it is memory (the facet as_mem): zero-based, the
 * layout's length, its keys the mkey's, its bytes not one range of ours.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkey.h"
#include "mlx5.h"
#include "rdmascn/mem.h"
#include "rdmascn/qp.h"
#include "rdmascn/value.h"

struct mlx5_mkey_rt {
	struct mlx5dv_mkey *mkey;
	uint16_t max_entries;        /* what the device granted */
	struct ibv_sge *sge;         /* the layout, as the device takes it */
	struct mlx5dv_mr_interleaved *il;
	struct ibv_mr keys;          /* lkey, rkey, pd: what WRs carry */
	struct rdmascn_mem_handle *mem; /* the facet's; NULL: not made */
};

static int check_caps(struct rdmascn_run *run, struct rdmascn_live *l,
		      char *why, unsigned len)
{
	if (rdmascn_live_has_feature(run, l, "mlx5dv"))
		return 0;
	snprintf(why, len, "mlx5dv (mlx5dv_is_supported(): "
		 "mlx5dv_create_mkey())");
	return -EOPNOTSUPP;
}

/* Each entry's MR address and lkey, then the entries. */
static int layout(struct rdmascn_run *run, const struct mlx5_mkey *k,
		  struct mlx5_mkey_rt *rt)
{
	unsigned n = k->interleaved.entries_count ?
		     k->interleaved.entries_count : k->mr_list_count;
	uint64_t *addr = calloc(n, sizeof(*addr));
	uint32_t *lkey = calloc(n, sizeof(*lkey));
	int r = -ENOMEM;

	if (!addr || !lkey)
		goto out;
	for (unsigned i = 0; i < n; i++) {
		const char *id = k->interleaved.entries_count ?
				 k->interleaved.entries[i].mr :
				 k->mr_list[i].mr;
		struct rdmascn_mem_handle *m = rdmascn_live_mem(run, id);
		const struct ibv_mr *mr = rdmascn_mem_mr(m);

		if (!mr) {
			r = -ENODEV;
			goto out;
		}
		addr[i] = rdmascn_mem_addr(m);
		lkey[i] = mr->lkey;
	}
	if (k->interleaved.entries_count) {
		rt->il = calloc(n, sizeof(*rt->il));
		if (!rt->il)
			goto out;
		mlx5_mkey_interleaved(k, addr, lkey, rt->il);
	} else {
		rt->sge = calloc(n, sizeof(*rt->sge));
		if (!rt->sge)
			goto out;
		mlx5_mkey_sges(k, addr, lkey, rt->sge);
	}
	r = 0;
out:
	free(addr);
	free(lkey);
	return r;
}

static int mkey_create(struct rdmascn_run *run, struct rdmascn_live *l)
{
	const struct mlx5_mkey *k = rdmascn_live_data(l);
	struct mlx5_mkey_rt *rt = rdmascn_live_rt(l);
	struct ibv_pd *pd = rdmascn_live_pd(run, k->pd);
	struct mlx5dv_mkey_init_attr attr = {
		.pd = pd,
		.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT,
		.max_entries = (uint16_t)mlx5_mkey_max_entries(k),
	};
	struct rdmascn_call *c = rdmascn_call_new(RDMASCN_CALL_CREATE,
						  "mlx5dv_create_mkey");
	int r;

	rdmascn_call_arg(c, "pd", "%s", k->pd);
	rdmascn_call_arg(c, "create_flags", "INDIRECT");
	rdmascn_call_arg(c, "max_entries", "%u", attr.max_entries);
	if (k->interleaved.entries_count)
		rdmascn_call_hint(c, "%u interleaved entries and the strided "
				  "header", k->interleaved.entries_count);
	if (rdmascn_call_go(run, l, c)) {
		errno = 0;
		rt->mkey = pd ? mlx5dv_create_mkey(&attr) : NULL;
		rdmascn_call_result(c, rt->mkey ? 0 : errno ? errno : ENODEV);
	}
	r = rdmascn_call_done(run, l, c);
	if (r || !rt->mkey)
		return r;
	rt->max_entries = attr.max_entries;
	r = layout(run, k, rt);
	if (r)
		return rdmascn_live_error(run, l, -r, "the layout's entries: "
					  "%s", strerror(-r));
	rt->keys.context = pd->context;
	rt->keys.pd = pd;
	rt->keys.lkey = rt->mkey->lkey;
	rt->keys.rkey = rt->mkey->rkey;
	rt->keys.length = mlx5_mkey_length(k);
	rt->mem = rdmascn_mem_handle_new(&rt->keys, 0, mlx5_mkey_length(k),
					 NULL);
	if (!rt->mem)
		return rdmascn_live_error(run, l, ENOMEM, "out of memory");
	return 0;
}

static void mkey_destroy(struct rdmascn_run *run, struct rdmascn_live *l)
{
	struct mlx5_mkey_rt *rt = rdmascn_live_rt(l);
	struct rdmascn_call *c;

	rdmascn_mem_handle_free(rt->mem);
	rt->mem = NULL;
	if (rt->mkey || rdmascn_dry_run(run)) {
		c = rdmascn_call_new(RDMASCN_CALL_DESTROY,
				     "mlx5dv_destroy_mkey");
		rdmascn_call_arg(c, "mkey", "%s", rdmascn_live_id(l));
		if (rdmascn_call_go(run, l, c))
			rdmascn_call_result(c, mlx5dv_destroy_mkey(rt->mkey));
		rt->mkey = NULL;
		rdmascn_call_done(run, l, c);
	}
	free(rt->sge);
	free(rt->il);
	rt->sge = NULL;
	rt->il = NULL;
}

static void mkey_describe(struct rdmascn_run *run, struct rdmascn_live *l,
			  struct rdmascn_val *v)
{
	struct mlx5_mkey_rt *rt = rdmascn_live_rt(l);

	(void)run;
	if (!rt->mkey)
		return;
	rdmascn_val_put_u64(v, "lkey", rt->mkey->lkey);
	rdmascn_val_put_u64(v, "rkey", rt->mkey->rkey);
	rdmascn_val_put_u64(v, "max_entries", rt->max_entries);
	rdmascn_val_put_u64(v, "length", rt->keys.length);
}

static int mkey_as_mem(struct rdmascn_live *l, struct rdmascn_mem *ret)
{
	struct mlx5_mkey_rt *rt = rdmascn_live_rt(l);

	if (!rt->mem)
		return -EOPNOTSUPP;
	ret->rt = rt->mem;
	return 0;
}

/* The UMR WR, between ibv_wr_start() and ibv_wr_complete() (the engine's
 * register_layout step). */
int mlx5_mkey_build(struct mlx5dv_qp_ex *mqpx, struct rdmascn_live *l)
{
	const struct mlx5_mkey *k = rdmascn_live_data(l);
	struct mlx5_mkey_rt *rt = rdmascn_live_rt(l);
	const struct mlx5_mkey_il *il = &k->interleaved;

	if (!mqpx || !rt->mkey || (!rt->sge && !rt->il))
		return -EINVAL;
	if (il->entries_count)
		mlx5dv_wr_mr_interleaved(mqpx, rt->mkey, k->access,
					 il->repeat ? il->repeat : 1,
					 (uint16_t)il->entries_count, rt->il);
	else
		mlx5dv_wr_mr_list(mqpx, rt->mkey, k->access,
				  (uint16_t)k->mr_list_count, rt->sge);
	return 0;
}

/* The dry run's arguments: each entry as the device takes it. */
void mlx5_mkey_dry(const struct mlx5_mkey *k, struct rdmascn_call *c)
{
	const struct mlx5_mkey_il *il = &k->interleaved;
	char acc[80], key[48];

	rdmascn_access_text(k->access, acc, sizeof(acc));
	rdmascn_call_arg(c, "op", "%s", il->entries_count ?
			 "mlx5dv_wr_mr_interleaved" : "mlx5dv_wr_mr_list");
	rdmascn_call_arg(c, "mkey", "%s", k->id);
	rdmascn_call_arg(c, "access_flags", "%s", acc);
	if (il->entries_count) {
		rdmascn_call_arg(c, "repeat_count", "%u",
				 il->repeat ? il->repeat : 1);
		rdmascn_call_arg(c, "num_interleaved", "%u",
				 il->entries_count);
	} else {
		rdmascn_call_arg(c, "num_sges", "%u", k->mr_list_count);
	}
	for (unsigned i = 0; i < il->entries_count; i++) {
		const struct mlx5_mkey_il_entry *e = &il->entries[i];

		snprintf(key, sizeof(key), "data[%u].addr", i);
		rdmascn_call_arg(c, key, "addr(%s)+%llu", e->mr,
				 (unsigned long long)e->offset);
		snprintf(key, sizeof(key), "data[%u].bytes_count", i);
		rdmascn_call_arg(c, key, "%u", e->bytes_count);
		snprintf(key, sizeof(key), "data[%u].bytes_skip", i);
		rdmascn_call_arg(c, key, "%u", e->bytes_skip);
		snprintf(key, sizeof(key), "data[%u].lkey", i);
		rdmascn_call_arg(c, key, "lkey(%s)", e->mr);
	}
	for (unsigned i = 0; i < k->mr_list_count; i++) {
		const struct mlx5_mkey_sge *e = &k->mr_list[i];

		snprintf(key, sizeof(key), "sge[%u].addr", i);
		rdmascn_call_arg(c, key, "addr(%s)+%llu", e->mr,
				 (unsigned long long)e->offset);
		snprintf(key, sizeof(key), "sge[%u].length", i);
		rdmascn_call_arg(c, key, "%u", e->length);
		snprintf(key, sizeof(key), "sge[%u].lkey", i);
		rdmascn_call_arg(c, key, "lkey(%s)", e->mr);
	}
	rdmascn_call_arg(c, "length", "%llu",
			 (unsigned long long)mlx5_mkey_length(k));
}

const struct rdmascn_ops mlx5_mkey_ops = {
	.rt_size = sizeof(struct mlx5_mkey_rt),
	.check_caps = check_caps,
	.create = mkey_create,
	.destroy = mkey_destroy,
	.describe = mkey_describe,
	.as_mem = mkey_as_mem,
};
