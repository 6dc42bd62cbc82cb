/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_MLX5_H
#define RDMASCN_MLX5_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/mlx5dv.h>

#include "rdmascn/kind.h"
#include "rdmascn/plugin.h"

struct rdmascn_val;

/* What mlx5dv_query_device() is asked for, and its answer as values. */
extern const uint64_t mlx5_query_mask;
void mlx5_attr_describe(const struct mlx5dv_context *a, struct rdmascn_val *m);

/* The plugin's kinds. */
extern const struct rdmascn_kind mlx5_kind_context;
extern const struct rdmascn_kind mlx5_kind_devx;
extern const struct rdmascn_kind mlx5_kind_cq;
extern const struct rdmascn_kind mlx5_kind_uar;
extern const struct rdmascn_kind mlx5_kind_var;
extern const struct rdmascn_kind mlx5_kind_pp;
extern const struct rdmascn_kind mlx5_kind_umem;
extern const struct rdmascn_kind mlx5_kind_matcher;
extern const struct rdmascn_kind mlx5_kind_flow;
extern const struct rdmascn_kind mlx5_kind_qp;
extern const struct rdmascn_wr_dest mlx5_qp_wr_dest;
extern const struct rdmascn_kind mlx5_kind_mkey;
extern const struct rdmascn_wr_reg mlx5_mkey_wr_reg;

/* An mkey's UMR WR on @mqpx (between ibv_wr_start() and
 * ibv_wr_complete()), and its arguments in a dry run. */
struct mlx5_mkey;
struct rdmascn_live;
int mlx5_mkey_build(struct mlx5dv_qp_ex *mqpx, struct rdmascn_live *l);
void mlx5_mkey_dry(const struct mlx5_mkey *k, struct rdmascn_call *c);

/* An mlx5 context's runtime state: what devx objects are made on. */
struct mlx5_context_rt {
	struct ibv_context *ctx;
	bool devx;               /* opened with MLX5DV_CONTEXT_FLAGS_DEVX */
};

/* Whether an mlx5_context's data (as check() sees it) asks for DevX. */
bool mlx5_context_devx(const void *data);
/* The mlx5_context @id names, checked: it must be opened with devx to
 * make a @what (an error at @obj's @field otherwise). */
int mlx5_need_devx(struct rdmascn_obj *obj, struct rdmascn_diag *d,
		   const char *field, const char *id, const char *what);
/* The open mlx5 context behind @id (NULL in a dry run). */
struct ibv_context *mlx5_ctx_of(struct rdmascn_run *run, const char *id);

/* Field tables for libcyaml, as the core writes them. */
#define MLX5_FIELD_ID(s)                                                  \
	CYAML_FIELD_STRING_PTR("id", CYAML_FLAG_POINTER, s, id, 1,        \
			       RDMASCN_ID_MAX)
#define MLX5_FIELD_REF(key, s, m)                                         \
	CYAML_FIELD_STRING_PTR(key, CYAML_FLAG_POINTER, s, m, 1,          \
			       RDMASCN_ID_MAX)
#define MLX5_FIELD_OPT_REF(key, s, m)                                     \
	CYAML_FIELD_STRING_PTR(key, CYAML_FLAG_POINTER |                  \
			       CYAML_FLAG_OPTIONAL, s, m, 1, RDMASCN_ID_MAX)
#define MLX5_FIELD_STR(key, s, m)                                         \
	CYAML_FIELD_STRING_PTR(key, CYAML_FLAG_POINTER |                  \
			       CYAML_FLAG_OPTIONAL, s, m, 0, CYAML_UNLIMITED)
#define MLX5_FIELD_AFTER(s)                                               \
	CYAML_FIELD_SEQUENCE("after", CYAML_FLAG_POINTER |                \
			     CYAML_FLAG_OPTIONAL, s, after, &mlx5_id_schema, \
			     0, CYAML_UNLIMITED)
#define MLX5_REF(key, s, m, kind)                                         \
	{ .field = key, .offset = offsetof(s, m), .count_offset = -1,     \
	  .kinds = RDMASCN_KINDS(kind) }
/* One on the object's verbs context (a QP's pd and CQs). */
#define MLX5_REF_ONE(key, s, m, kind)                                     \
	{ .field = key, .offset = offsetof(s, m), .count_offset = -1,     \
	  .kinds = RDMASCN_KINDS(kind), .one_context = true }
#define MLX5_REF_AFTER(s)                                                 \
	{ .field = "after", .offset = offsetof(s, after),                 \
	  .count_offset = offsetof(s, after_count), .after = true }

extern const cyaml_schema_value_t mlx5_id_schema;

#endif
