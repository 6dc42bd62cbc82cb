/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_MLX5_DEVX_H
#define RDMASCN_MLX5_DEVX_H

#include <stdint.h>

#include "prm.h"

/* One `set:` item: a field of the command's input, given a value or
 * another devx object's output. */
struct devx_set {
	char *ref;               /* first: the engine reads the id here */
	char *field;             /* "cq_context.log_cq_size" */
	char *value;             /* "6", "0x1f", wider: "0x0102...": bytes */
	char *out;               /* with ref: which output; default its id */
	/* Or a resource's value (res.h): its page_id, index, umem_id. */
	char *uar, *var, *pp, *umem;
};

/* The resource a set: item names (its key's entry in mlx5_res_kinds,
 * its id in *@ret_id), or -1. */
int devx_set_res(const struct devx_set *s, const char **ret_id);

/* A `devx:` entry. */
struct devx_obj {
	char *id;
	char *context;           /* an mlx5_context opened with devx */
	char *command;           /* "CREATE_CQ"; or */
	char *raw;               /* the input in hex */
	char *object;            /* QUERY_ and MODIFY_: the object */
	struct devx_set *set;
	unsigned set_count;
	uint32_t outlen;         /* bytes; 0: the command's out layout */
	char **after;
	unsigned after_count;
};

/* How the command is sent. */
enum devx_how {
	DEVX_CREATE,             /* mlx5dv_devx_obj_create(), destroyed */
	DEVX_QUERY,              /* mlx5dv_devx_obj_query() on @object */
	DEVX_MODIFY,             /* mlx5dv_devx_obj_modify() on @object */
	DEVX_GENERAL,            /* mlx5dv_devx_general_cmd() */
};

/* The largest input and output we build, in bytes. */
#define DEVX_MAX_IN 4096
#define DEVX_MAX_OUT 0x1100

/* The command a valid entry names (NULL: raw, with an opcode we do not
 * know), and how it is sent. */
const struct prm_cmd *devx_cmd(const struct devx_obj *d);
enum devx_how devx_how(const struct devx_obj *d, const struct prm_cmd *cmd);
/* The output a `ref:` takes from @target: @out, or its create's id. */
const char *devx_out_name(const struct devx_obj *target, const char *out);
uint32_t devx_outlen(const struct devx_obj *d, const struct prm_cmd *cmd);

#endif
