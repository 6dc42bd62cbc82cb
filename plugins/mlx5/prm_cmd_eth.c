// SPDX-License-Identifier: MIT
/*
 * Commands on Ethernet and steering objects: TIR, SQ, RQ, TIS, flow
 * tables, flow groups, flow table entries: input and output of each.
 * From the PRM layouts of mlx5_ifc.h (bit offset, width); reserved
 * fields left out.  One line per field, one table per structure.
 */
#include <stddef.h>

#include "prm_layouts.h"

static const struct prm_field f_create_tir_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "ctx", 0x100, 0x780, &prm_tirc },
	{ NULL }
};
const struct prm_layout prm_create_tir_in = {
	"create_tir_in", 0x880, f_create_tir_in
};

static const struct prm_field f_create_tir_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "tirn", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_create_tir_out = {
	"create_tir_out", 0x80, f_create_tir_out
};

static const struct prm_field f_modify_tir_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "tirn", 0x48, 24 },
	{ "bitmask", 0x80, 0x40, &prm_modify_tir_bitmask },
	{ "ctx", 0x100, 0x780, &prm_tirc },
	{ NULL }
};
const struct prm_layout prm_modify_tir_in = {
	"modify_tir_in", 0x880, f_modify_tir_in
};

static const struct prm_field f_modify_tir_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ NULL }
};
const struct prm_layout prm_modify_tir_out = {
	"modify_tir_out", 0x80, f_modify_tir_out
};

static const struct prm_field f_destroy_tir_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "tirn", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_destroy_tir_in = {
	"destroy_tir_in", 0x80, f_destroy_tir_in
};

static const struct prm_field f_destroy_tir_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ NULL }
};
const struct prm_layout prm_destroy_tir_out = {
	"destroy_tir_out", 0x80, f_destroy_tir_out
};

static const struct prm_field f_query_tir_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "tirn", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_query_tir_in = {
	"query_tir_in", 0x80, f_query_tir_in
};

static const struct prm_field f_query_tir_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "tir_context", 0x100, 0x780, &prm_tirc },
	{ NULL }
};
const struct prm_layout prm_query_tir_out = {
	"query_tir_out", 0x880, f_query_tir_out
};

static const struct prm_field f_create_sq_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "ctx", 0x100, 0x780, &prm_sqc },
	{ NULL }
};
const struct prm_layout prm_create_sq_in = {
	"create_sq_in", 0x880, f_create_sq_in
};

static const struct prm_field f_create_sq_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "sqn", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_create_sq_out = {
	"create_sq_out", 0x80, f_create_sq_out
};

static const struct prm_field f_modify_sq_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "sq_state", 0x40, 4 },
	{ "sqn", 0x48, 24 },
	{ "modify_bitmask", 0x80, 64 },
	{ "ctx", 0x100, 0x780, &prm_sqc },
	{ NULL }
};
const struct prm_layout prm_modify_sq_in = {
	"modify_sq_in", 0x880, f_modify_sq_in
};

static const struct prm_field f_modify_sq_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ NULL }
};
const struct prm_layout prm_modify_sq_out = {
	"modify_sq_out", 0x80, f_modify_sq_out
};

static const struct prm_field f_destroy_sq_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "sqn", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_destroy_sq_in = {
	"destroy_sq_in", 0x80, f_destroy_sq_in
};

static const struct prm_field f_destroy_sq_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ NULL }
};
const struct prm_layout prm_destroy_sq_out = {
	"destroy_sq_out", 0x80, f_destroy_sq_out
};

static const struct prm_field f_query_sq_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "sqn", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_query_sq_in = {
	"query_sq_in", 0x80, f_query_sq_in
};

static const struct prm_field f_query_sq_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "sq_context", 0x100, 0x780, &prm_sqc },
	{ NULL }
};
const struct prm_layout prm_query_sq_out = {
	"query_sq_out", 0x880, f_query_sq_out
};

static const struct prm_field f_create_rq_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "ctx", 0x100, 0x780, &prm_rqc },
	{ NULL }
};
const struct prm_layout prm_create_rq_in = {
	"create_rq_in", 0x880, f_create_rq_in
};

static const struct prm_field f_create_rq_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "rqn", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_create_rq_out = {
	"create_rq_out", 0x80, f_create_rq_out
};

static const struct prm_field f_modify_rq_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "rq_state", 0x40, 4 },
	{ "rqn", 0x48, 24 },
	{ "modify_bitmask", 0x80, 64 },
	{ "ctx", 0x100, 0x780, &prm_rqc },
	{ NULL }
};
const struct prm_layout prm_modify_rq_in = {
	"modify_rq_in", 0x880, f_modify_rq_in
};

static const struct prm_field f_modify_rq_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ NULL }
};
const struct prm_layout prm_modify_rq_out = {
	"modify_rq_out", 0x80, f_modify_rq_out
};

static const struct prm_field f_destroy_rq_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "rqn", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_destroy_rq_in = {
	"destroy_rq_in", 0x80, f_destroy_rq_in
};

static const struct prm_field f_destroy_rq_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ NULL }
};
const struct prm_layout prm_destroy_rq_out = {
	"destroy_rq_out", 0x80, f_destroy_rq_out
};

static const struct prm_field f_query_rq_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "rqn", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_query_rq_in = {
	"query_rq_in", 0x80, f_query_rq_in
};

static const struct prm_field f_query_rq_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "rq_context", 0x100, 0x780, &prm_rqc },
	{ NULL }
};
const struct prm_layout prm_query_rq_out = {
	"query_rq_out", 0x880, f_query_rq_out
};

static const struct prm_field f_create_tis_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "ctx", 0x100, 0x500, &prm_tisc },
	{ NULL }
};
const struct prm_layout prm_create_tis_in = {
	"create_tis_in", 0x600, f_create_tis_in
};

static const struct prm_field f_create_tis_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "tisn", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_create_tis_out = {
	"create_tis_out", 0x80, f_create_tis_out
};

static const struct prm_field f_modify_tis_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "tisn", 0x48, 24 },
	{ "bitmask", 0x80, 0x40, &prm_modify_tis_bitmask },
	{ "ctx", 0x100, 0x500, &prm_tisc },
	{ NULL }
};
const struct prm_layout prm_modify_tis_in = {
	"modify_tis_in", 0x600, f_modify_tis_in
};

static const struct prm_field f_modify_tis_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ NULL }
};
const struct prm_layout prm_modify_tis_out = {
	"modify_tis_out", 0x80, f_modify_tis_out
};

static const struct prm_field f_destroy_tis_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "tisn", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_destroy_tis_in = {
	"destroy_tis_in", 0x80, f_destroy_tis_in
};

static const struct prm_field f_destroy_tis_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ NULL }
};
const struct prm_layout prm_destroy_tis_out = {
	"destroy_tis_out", 0x80, f_destroy_tis_out
};

static const struct prm_field f_query_tis_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "tisn", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_query_tis_in = {
	"query_tis_in", 0x80, f_query_tis_in
};

static const struct prm_field f_query_tis_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "tis_context", 0x80, 0x500, &prm_tisc },
	{ NULL }
};
const struct prm_layout prm_query_tis_out = {
	"query_tis_out", 0x580, f_query_tis_out
};

static const struct prm_field f_create_flow_table_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "other_vport", 0x40, 1 },
	{ "vport_number", 0x50, 16 },
	{ "table_type", 0x80, 8 },
	{ "flow_table_context", 0xc0, 0x140, &prm_flow_table_context },
	{ NULL }
};
const struct prm_layout prm_create_flow_table_in = {
	"create_flow_table_in", 0x200, f_create_flow_table_in
};

static const struct prm_field f_create_flow_table_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "table_id", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_create_flow_table_out = {
	"create_flow_table_out", 0x80, f_create_flow_table_out
};

static const struct prm_field f_destroy_flow_table_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "other_vport", 0x40, 1 },
	{ "vport_number", 0x50, 16 },
	{ "table_type", 0x80, 8 },
	{ "table_id", 0xa8, 24 },
	{ NULL }
};
const struct prm_layout prm_destroy_flow_table_in = {
	"destroy_flow_table_in", 0x200, f_destroy_flow_table_in
};

static const struct prm_field f_destroy_flow_table_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ NULL }
};
const struct prm_layout prm_destroy_flow_table_out = {
	"destroy_flow_table_out", 0x80, f_destroy_flow_table_out
};

static const struct prm_field f_query_flow_table_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "table_type", 0x80, 8 },
	{ "table_id", 0xa8, 24 },
	{ NULL }
};
const struct prm_layout prm_query_flow_table_in = {
	"query_flow_table_in", 0x200, f_query_flow_table_in
};

static const struct prm_field f_query_flow_table_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "level", 0xc8, 8 },
	{ "log_size", 0xd8, 8 },
	{ NULL }
};
const struct prm_layout prm_query_flow_table_out = {
	"query_flow_table_out", 0x200, f_query_flow_table_out
};

static const struct prm_field f_create_flow_group_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "other_vport", 0x40, 1 },
	{ "vport_number", 0x50, 16 },
	{ "table_type", 0x80, 8 },
	{ "table_id", 0xa8, 24 },
	{ "start_flow_index", 0xe0, 32 },
	{ "end_flow_index", 0x120, 32 },
	{ "match_criteria_enable", 0x1f8, 8 },
	{ "match_criteria", 0x200, 0x1000, &prm_fte_match_param },
	{ NULL }
};
const struct prm_layout prm_create_flow_group_in = {
	"create_flow_group_in", 0x2000, f_create_flow_group_in
};

static const struct prm_field f_create_flow_group_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "group_id", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_create_flow_group_out = {
	"create_flow_group_out", 0x80, f_create_flow_group_out
};

static const struct prm_field f_destroy_flow_group_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "other_vport", 0x40, 1 },
	{ "vport_number", 0x50, 16 },
	{ "table_type", 0x80, 8 },
	{ "table_id", 0xa8, 24 },
	{ "group_id", 0xc0, 32 },
	{ NULL }
};
const struct prm_layout prm_destroy_flow_group_in = {
	"destroy_flow_group_in", 0x200, f_destroy_flow_group_in
};

static const struct prm_field f_destroy_flow_group_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ NULL }
};
const struct prm_layout prm_destroy_flow_group_out = {
	"destroy_flow_group_out", 0x80, f_destroy_flow_group_out
};

static const struct prm_field f_query_flow_group_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "table_type", 0x80, 8 },
	{ "table_id", 0xa8, 24 },
	{ "group_id", 0xc0, 32 },
	{ NULL }
};
const struct prm_layout prm_query_flow_group_in = {
	"query_flow_group_in", 0x200, f_query_flow_group_in
};

static const struct prm_field f_query_flow_group_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "start_flow_index", 0xe0, 32 },
	{ "end_flow_index", 0x120, 32 },
	{ "match_criteria_enable", 0x1f8, 8 },
	{ "match_criteria", 0x200, 0x1000, &prm_fte_match_param },
	{ NULL }
};
const struct prm_layout prm_query_flow_group_out = {
	"query_flow_group_out", 0x2000, f_query_flow_group_out
};

static const struct prm_field f_set_fte_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "other_vport", 0x40, 1 },
	{ "vport_number", 0x50, 16 },
	{ "table_type", 0x80, 8 },
	{ "table_id", 0xa8, 24 },
	{ "modify_enable_mask", 0xd8, 8 },
	{ "flow_index", 0x100, 32 },
	{ "flow_context", 0x200, 0x1800, &prm_flow_context },
	{ NULL }
};
const struct prm_layout prm_set_fte_in = {
	"set_fte_in", 0x1a00, f_set_fte_in
};

static const struct prm_field f_set_fte_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ NULL }
};
const struct prm_layout prm_set_fte_out = {
	"set_fte_out", 0x80, f_set_fte_out
};

static const struct prm_field f_query_fte_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "table_type", 0x80, 8 },
	{ "table_id", 0xa8, 24 },
	{ "flow_index", 0x100, 32 },
	{ NULL }
};
const struct prm_layout prm_query_fte_in = {
	"query_fte_in", 0x200, f_query_fte_in
};

static const struct prm_field f_query_fte_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "flow_context", 0x200, 0x1800, &prm_flow_context },
	{ NULL }
};
const struct prm_layout prm_query_fte_out = {
	"query_fte_out", 0x1a00, f_query_fte_out
};

static const struct prm_field f_delete_fte_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "other_vport", 0x40, 1 },
	{ "vport_number", 0x50, 16 },
	{ "table_type", 0x80, 8 },
	{ "table_id", 0xa8, 24 },
	{ "flow_index", 0x100, 32 },
	{ NULL }
};
const struct prm_layout prm_delete_fte_in = {
	"delete_fte_in", 0x200, f_delete_fte_in
};

static const struct prm_field f_delete_fte_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ NULL }
};
const struct prm_layout prm_delete_fte_out = {
	"delete_fte_out", 0x80, f_delete_fte_out
};

static const struct prm_field f_modify_flow_table_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "other_vport", 0x40, 1 },
	{ "vport_number", 0x50, 16 },
	{ "modify_field_select", 0x70, 16 },
	{ "table_type", 0x80, 8 },
	{ "table_id", 0xa8, 24 },
	{ "flow_table_context", 0xc0, 0x140, &prm_flow_table_context },
	{ NULL }
};
const struct prm_layout prm_modify_flow_table_in = {
	"modify_flow_table_in", 0x200, f_modify_flow_table_in
};

static const struct prm_field f_modify_flow_table_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ NULL }
};
const struct prm_layout prm_modify_flow_table_out = {
	"modify_flow_table_out", 0x80, f_modify_flow_table_out
};

