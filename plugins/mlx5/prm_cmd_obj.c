// SPDX-License-Identifier: MIT
/*
 * Commands on general objects: QUERY_HCA_CAP, mkeys, CQs, PDs,
 * transport domains: input and output of each.
 * From the PRM layouts of mlx5_ifc.h (bit offset, width); reserved
 * fields left out.  One line per field, one table per structure.
 */
#include <stddef.h>

#include "prm_layouts.h"

static const struct prm_field f_query_hca_cap_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ NULL }
};
const struct prm_layout prm_query_hca_cap_in = {
	"query_hca_cap_in", 0x80, f_query_hca_cap_in
};

static const struct prm_field f_query_hca_cap_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "capability", 0x80, 0x800, &prm_cmd_hca_cap },
	{ NULL }
};
const struct prm_layout prm_query_hca_cap_out = {
	"query_hca_cap_out", 0x8080, f_query_hca_cap_out
};

static const struct prm_field f_create_mkey_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "pg_access", 0x60, 1 },
	{ "memory_key_mkey_entry", 0x80, 0x200, &prm_mkc },
	{ "translations_octword_actual_size", 0x300, 32 },
	{ NULL }
};
const struct prm_layout prm_create_mkey_in = {
	"create_mkey_in", 0x880, f_create_mkey_in
};

static const struct prm_field f_create_mkey_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "mkey_index", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_create_mkey_out = {
	"create_mkey_out", 0x80, f_create_mkey_out
};

static const struct prm_field f_query_mkey_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "mkey_index", 0x48, 24 },
	{ "pg_access", 0x60, 1 },
	{ NULL }
};
const struct prm_layout prm_query_mkey_in = {
	"query_mkey_in", 0x80, f_query_mkey_in
};

static const struct prm_field f_query_mkey_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "memory_key_mkey_entry", 0x80, 0x200, &prm_mkc },
	{ "bsf0_klm0_pas_mtt0_1", 0x880, 128 },
	{ "bsf1_klm1_pas_mtt2_3", 0x900, 128 },
	{ NULL }
};
const struct prm_layout prm_query_mkey_out = {
	"query_mkey_out", 0x980, f_query_mkey_out
};

static const struct prm_field f_destroy_mkey_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "mkey_index", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_destroy_mkey_in = {
	"destroy_mkey_in", 0x80, f_destroy_mkey_in
};

static const struct prm_field f_destroy_mkey_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ NULL }
};
const struct prm_layout prm_destroy_mkey_out = {
	"destroy_mkey_out", 0x80, f_destroy_mkey_out
};

static const struct prm_field f_create_cq_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "cq_context", 0x80, 0x200, &prm_cqc },
	{ "cq_umem_offset", 0x280, 64 },
	{ "cq_umem_id", 0x2c0, 32 },
	{ "cq_umem_valid", 0x2e0, 1 },
	{ NULL }
};
const struct prm_layout prm_create_cq_in = {
	"create_cq_in", 0x880, f_create_cq_in
};

static const struct prm_field f_create_cq_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "cqn", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_create_cq_out = {
	"create_cq_out", 0x80, f_create_cq_out
};

static const struct prm_field f_destroy_cq_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "cqn", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_destroy_cq_in = {
	"destroy_cq_in", 0x80, f_destroy_cq_in
};

static const struct prm_field f_destroy_cq_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ NULL }
};
const struct prm_layout prm_destroy_cq_out = {
	"destroy_cq_out", 0x80, f_destroy_cq_out
};

static const struct prm_field f_query_cq_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "cqn", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_query_cq_in = {
	"query_cq_in", 0x80, f_query_cq_in
};

static const struct prm_field f_query_cq_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "cq_context", 0x80, 0x200, &prm_cqc },
	{ NULL }
};
const struct prm_layout prm_query_cq_out = {
	"query_cq_out", 0x880, f_query_cq_out
};

static const struct prm_field f_modify_cq_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "cqn", 0x48, 24 },
	{ "modify_field_select_resize_field_select", 0x60, 0x20,
	  &prm_cq_field_select },
	{ "cq_context", 0x80, 0x200, &prm_cqc },
	{ NULL }
};
const struct prm_layout prm_modify_cq_in = {
	"modify_cq_in", 0x880, f_modify_cq_in
};

static const struct prm_field f_modify_cq_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ NULL }
};
const struct prm_layout prm_modify_cq_out = {
	"modify_cq_out", 0x80, f_modify_cq_out
};

static const struct prm_field f_alloc_pd_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ NULL }
};
const struct prm_layout prm_alloc_pd_in = {
	"alloc_pd_in", 0x80, f_alloc_pd_in
};

static const struct prm_field f_alloc_pd_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "pd", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_alloc_pd_out = {
	"alloc_pd_out", 0x80, f_alloc_pd_out
};

static const struct prm_field f_dealloc_pd_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "pd", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_dealloc_pd_in = {
	"dealloc_pd_in", 0x80, f_dealloc_pd_in
};

static const struct prm_field f_dealloc_pd_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ NULL }
};
const struct prm_layout prm_dealloc_pd_out = {
	"dealloc_pd_out", 0x80, f_dealloc_pd_out
};

static const struct prm_field f_alloc_transport_domain_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ NULL }
};
const struct prm_layout prm_alloc_transport_domain_in = {
	"alloc_transport_domain_in", 0x80, f_alloc_transport_domain_in
};

static const struct prm_field f_alloc_transport_domain_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ "transport_domain", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_alloc_transport_domain_out = {
	"alloc_transport_domain_out", 0x80, f_alloc_transport_domain_out
};

static const struct prm_field f_dealloc_transport_domain_in[] = {
	{ "opcode", 0x0, 16 },
	{ "op_mod", 0x30, 16 },
	{ "transport_domain", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_dealloc_transport_domain_in = {
	"dealloc_transport_domain_in", 0x80, f_dealloc_transport_domain_in
};

static const struct prm_field f_dealloc_transport_domain_out[] = {
	{ "status", 0x0, 8 },
	{ "syndrome", 0x20, 32 },
	{ NULL }
};
const struct prm_layout prm_dealloc_transport_domain_out = {
	"dealloc_transport_domain_out", 0x80, f_dealloc_transport_domain_out
};
