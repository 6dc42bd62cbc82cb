/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_SCHEMA_H
#define RDMASCN_SCHEMA_H

#include <stdbool.h>
#include <stdint.h>

#include <cyaml/cyaml.h>
#include <infiniband/verbs.h>

#include "public_names.h"
#include "rdmascn/kind.h"

/*
 * Building blocks for the libcyaml field tables of every kind.  Enums and
 * flags are strict (a number is not a name).  Booleans are a strict enum
 * too: libcyaml 1.3.1 reads any unknown word, `maybe` included, as false.
 */
#define RS_ID_MAX RDMASCN_ID_MAX

#define RS_FIELD_ID(s)                                                   \
	CYAML_FIELD_STRING_PTR("id", CYAML_FLAG_POINTER, s, id, 1, RS_ID_MAX)
#define RS_FIELD_OPT_ID(s)                                               \
	CYAML_FIELD_STRING_PTR("id", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, \
			       s, id, 1, RS_ID_MAX)
#define RS_FIELD_REF(key, s, m)                                          \
	CYAML_FIELD_STRING_PTR(key, CYAML_FLAG_POINTER, s, m, 1, RS_ID_MAX)
#define RS_FIELD_OPT_REF(key, s, m)                                      \
	CYAML_FIELD_STRING_PTR(key, CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, \
			       s, m, 1, RS_ID_MAX)
#define RS_FIELD_REFS(key, s, m)                                         \
	CYAML_FIELD_SEQUENCE(key, CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, \
			     s, m, &rs_id_schema, 0, CYAML_UNLIMITED)
#define RS_FIELD_STR(key, s, m)                                          \
	CYAML_FIELD_STRING_PTR(key, CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, \
			       s, m, 0, CYAML_UNLIMITED)
#define RS_FIELD_UINT(key, s, m)                                         \
	CYAML_FIELD_UINT(key, CYAML_FLAG_OPTIONAL, s, m)
#define RS_FIELD_REQ_UINT(key, s, m)                                     \
	CYAML_FIELD_UINT(key, CYAML_FLAG_DEFAULT, s, m)
#define RS_FIELD_INT(key, s, m)                                          \
	CYAML_FIELD_INT(key, CYAML_FLAG_OPTIONAL, s, m)
#define RS_FIELD_ENUM(key, s, m, names)                                  \
	CYAML_FIELD_ENUM(key, CYAML_FLAG_OPTIONAL | CYAML_FLAG_STRICT, s, m, \
			 names, CYAML_ARRAY_LEN(names))
#define RS_FIELD_REQ_ENUM(key, s, m, names)                              \
	CYAML_FIELD_ENUM(key, CYAML_FLAG_STRICT, s, m, names,            \
			 CYAML_ARRAY_LEN(names))
#define RS_FIELD_FLAGS(key, s, m, names)                                 \
	CYAML_FIELD_FLAGS(key, CYAML_FLAG_OPTIONAL | CYAML_FLAG_STRICT, s, m, \
			  names, CYAML_ARRAY_LEN(names))
#define RS_FIELD_BOOL(key, s, m)                                         \
	RS_FIELD_ENUM(key, s, m, rs_bool_names)
#define RS_FIELD_MAP(key, s, m, fields)                                  \
	CYAML_FIELD_MAPPING_PTR(key, CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, \
				s, m, fields)
#define RS_FIELD_AFTER(s)                                                \
	RS_FIELD_REFS("after", s, after)

/* Reference table entries. */
#define RS_REF(key, s, m, ...)                                           \
	{ .field = key, .offset = offsetof(s, m), .count_offset = -1,    \
	  .kinds = RDMASCN_KINDS(__VA_ARGS__) }
/* A reference that may cross nodes (`nodes:`): a connection's QPs, a
 * step's remote MR or peer QP. */
#define RS_REF_SPANS(key, s, m, ...)                                     \
	{ .field = key, .offset = offsetof(s, m), .count_offset = -1,    \
	  .kinds = RDMASCN_KINDS(__VA_ARGS__), .spans = true }
/* A reference on the object's verbs context (rdmascn_ref.one_context):
 * a QP's pd, CQs, SRQ. */
#define RS_REF_ONE(key, s, m, ...)                                       \
	{ .field = key, .offset = offsetof(s, m), .count_offset = -1,    \
	  .kinds = RDMASCN_KINDS(__VA_ARGS__), .one_context = true }
/* A step's reference whose target's layout the step sets or drops
 * (rdmascn_ref.layout). */
#define RS_REF_LAYOUT(key, s, m, use, ...)                               \
	{ .field = key, .offset = offsetof(s, m), .count_offset = -1,    \
	  .kinds = RDMASCN_KINDS(__VA_ARGS__), .layout = use }
#define RS_REF_LIST(key, s, m, ...)                                      \
	{ .field = key, .offset = offsetof(s, m),                        \
	  .count_offset = offsetof(s, m##_count),                        \
	  .kinds = RDMASCN_KINDS(__VA_ARGS__) }
/* The id @m of each entry (a @t) of the list @list, as "list[i].m". */
#define RS_REF_ITEMS(key, s, list, t, m, ...)                            \
	{ .field = key, .offset = offsetof(s, list),                     \
	  .count_offset = offsetof(s, list##_count),                     \
	  .kinds = RDMASCN_KINDS(__VA_ARGS__),                           \
	  .stride = sizeof(t), .item_offset = offsetof(t, m),             \
	  .item_key = #m }
#define RS_REF_AFTER(s)                                                  \
	{ .field = "after", .offset = offsetof(s, after),                \
	  .count_offset = offsetof(s, after_count), .after = true }
#define RS_REF_END { .field = NULL }

extern const cyaml_schema_value_t rs_id_schema;

/* In a kind's check (references resolved): the object @obj's reference
 * @field names, NULL when absent.  Its kind is one the reference table
 * accepts, or one offering the facet the named kind stands for (as_mem
 * for an mr, as_qp, as_cq, as_context for a context): compare its kind
 * before reading its data as a struct of the named kind's. */
const struct rs_obj *rs_obj_ref(const struct rs_obj *obj, const char *field);

/* The object @o is made on: down the first reference of each object
 * that is not an ordering edge to one that is a verbs context (a kind
 * with the facet as_context: a core context, an mlx5 context); NULL when
 * none is reached. */
const struct rs_obj *rs_obj_made_on(const struct rs_obj *o);
/* The same walk to the core context whose device @o is on (the facet
 * as_dev), whatever context it is made on. */
const struct rs_obj *rs_obj_on_device(const struct rs_obj *o);

/* The range libcyaml enforces on an INT or UINT value of its data size:
 * what error messages and the JSON Schema both state. */
void rs_schema_int_range(const cyaml_schema_value_t *v, int64_t *ret_min,
			 uint64_t *ret_max);

/* Shared vocabularies.  Static in the header: field tables need the
 * arrays and their lengths as constant expressions. */
static const cyaml_strval_t rs_bool_names[] = {
	{ "false", false }, { "true", true }, { "no", false }, { "yes", true },
	{ "off", false },   { "on", true },
};

enum rs_qp_type {
	RS_QPT_RC, RS_QPT_UC, RS_QPT_UD, RS_QPT_XRC_SEND, RS_QPT_XRC_RECV,
	RS_QPT_RAW_PACKET,
};
#define RS_QPT_MAP(X)                                                     \
	X("rc", RS_QPT_RC) X("uc", RS_QPT_UC) X("ud", RS_QPT_UD)          \
	X("xrc_send", RS_QPT_XRC_SEND) X("xrc_recv", RS_QPT_XRC_RECV)     \
	X("raw_packet", RS_QPT_RAW_PACKET)

enum rs_feature {
	RS_FEAT_SRQ, RS_FEAT_XRC, RS_FEAT_MW_TYPE1, RS_FEAT_MW_TYPE2,
	RS_FEAT_ATOMICS, RS_FEAT_DM, RS_FEAT_ODP, RS_FEAT_FLOW_STEERING,
	RS_FEAT_RAW_PACKET, RS_FEAT_RDMA_CM, RS_FEAT_CQ_EX, RS_FEAT_QP_EX,
	RS_FEAT_MLX5DV, RS_FEAT_DEVX, RS_FEAT_TAG_MATCHING,
	RS_FEAT_COUNT
};
/* Bits of a requires.features mask: the core's words (the names are in
 * caps.c), then those plugins add. */
#define RS_FEATURES_MAX 32

#define RS_AS_BIT(name, v) { name, 1u << (v) },
#define RS_AS_VAL(name, v) { name, (v) },
static const cyaml_strval_t rs_qp_type_bits[] = { RS_QPT_MAP(RS_AS_BIT) };
static const cyaml_strval_t rs_qp_type_names[] = { RS_QPT_MAP(RS_AS_VAL) };

/* Not in every libibverbs yet. */
#define RS_QP_EX_WITH_FLUSH (1ull << 11)

/*
 * The send operations, once: the word a qp's `send_ops:` names it by,
 * its IBV_QP_EX_WITH_* bit, the IBV_WR_* opcode that posts it (-1: none
 * in every libibverbs) and what messages call a WR of it.
 */
#define RS_SEND_OP_MAP(X)                                                 \
	X("write", IBV_QP_EX_WITH_RDMA_WRITE, IBV_WR_RDMA_WRITE,          \
	  "rdma_write")                                                   \
	X("write_with_imm", IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM,           \
	  IBV_WR_RDMA_WRITE_WITH_IMM, "rdma_write_imm")                   \
	X("send", IBV_QP_EX_WITH_SEND, IBV_WR_SEND, "send")               \
	X("send_with_imm", IBV_QP_EX_WITH_SEND_WITH_IMM,                  \
	  IBV_WR_SEND_WITH_IMM, "send")                                   \
	X("read", IBV_QP_EX_WITH_RDMA_READ, IBV_WR_RDMA_READ, "rdma_read") \
	X("atomic_cmp_and_swp", IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP,        \
	  IBV_WR_ATOMIC_CMP_AND_SWP, "cmp_swap")                          \
	X("atomic_fetch_and_add", IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD,    \
	  IBV_WR_ATOMIC_FETCH_AND_ADD, "fetch_add")                       \
	X("local_inv", IBV_QP_EX_WITH_LOCAL_INV, IBV_WR_LOCAL_INV,        \
	  "local_inv")                                                    \
	X("bind_mw", IBV_QP_EX_WITH_BIND_MW, IBV_WR_BIND_MW, "bind_mw")   \
	X("send_with_inv", IBV_QP_EX_WITH_SEND_WITH_INV,                  \
	  IBV_WR_SEND_WITH_INV, "send")                                   \
	X("tso", IBV_QP_EX_WITH_TSO, IBV_WR_TSO, "tso")                   \
	X("flush", RS_QP_EX_WITH_FLUSH, -1, "flush")                      \
	X("atomic_write", IBV_QP_EX_WITH_ATOMIC_WRITE, -1, "atomic_write")
#define RS_SEND_OP_STRVAL(word, bit, wr, msg) { word, (bit) },
#define RS_SEND_OP_BIT_NAME(word, bit, wr, msg) { (bit), word },

/* requires.uniform: what every node's host must have the same of, each
 * node's value sent in its hello (nodes/uniform.c reads them). */
enum rs_uniform {
	RS_UNI_FW_VER = 1 << 0,  /* its RDMA devices' firmware versions */
	RS_UNI_DRIVER = 1 << 1,  /* their kernel drivers */
	RS_UNI_KERNEL = 1 << 2,  /* uname -r */
};
static const cyaml_strval_t rs_uniform_bits[] = {
	{ "fw_ver", RS_UNI_FW_VER }, { "driver", RS_UNI_DRIVER },
	{ "kernel", RS_UNI_KERNEL },
};

enum rs_link_layer { RS_LL_ANY, RS_LL_INFINIBAND, RS_LL_ETHERNET };
static const cyaml_strval_t rs_link_layer_names[] = {
	{ "any", RS_LL_ANY }, { "infiniband", RS_LL_INFINIBAND },
	{ "ethernet", RS_LL_ETHERNET },
};

#endif
