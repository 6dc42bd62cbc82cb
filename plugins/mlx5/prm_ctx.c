// SPDX-License-Identifier: MIT
/*
 * PRM contexts and other structures the commands embed: cqc, mkc,
 * tirc, tisc, sqc, rqc, wq, flow tables and their match parameters.
 * From the PRM layouts of mlx5_ifc.h (bit offset, width); reserved
 * fields left out.  One line per field, one table per structure.
 */
#include <stddef.h>

#include "prm_layouts.h"

static const struct prm_field f_cmd_hca_cap[] = {
	{ "log_max_srq_sz", 0x80, 8 },
	{ "log_max_qp_sz", 0x88, 8 },
	{ "log_max_qp", 0x9b, 5 },
	{ "log_max_srq", 0xab, 5 },
	{ "log_max_cq_sz", 0xc8, 8 },
	{ "log_max_cq", 0xdb, 5 },
	{ "log_max_mkey", 0xea, 6 },
	{ "log_max_eq", 0xfc, 4 },
	{ "log_max_klm_list_size", 0x11a, 6 },
	{ "log_max_ra_req_dc", 0x12a, 6 },
	{ "log_max_ra_res_dc", 0x13a, 6 },
	{ "log_max_ra_req_qp", 0x14a, 6 },
	{ "log_max_ra_res_qp", 0x15a, 6 },
	{ "gid_table_size", 0x170, 16 },
	{ "max_qp_cnt", 0x186, 10 },
	{ "pkey_table_size", 0x190, 16 },
	{ "nic_flow_table", 0x1a6, 1 },
	{ "eswitch_flow_table", 0x1a7, 1 },
	{ "device_memory", 0x1a8, 1 },
	{ "port_type", 0x1b6, 2 },
	{ "num_ports", 0x1b8, 8 },
	{ "log_max_msg", 0x1c3, 5 },
	{ "max_tc", 0x1cc, 4 },
	{ "cqe_version", 0x1fc, 4 },
	{ "striding_rq", 0x201, 1 },
	{ "dct", 0x21a, 1 },
	{ "roce", 0x21d, 1 },
	{ "atomic", 0x21e, 1 },
	{ "xrc", 0x23c, 1 },
	{ "ud", 0x23d, 1 },
	{ "uc", 0x23e, 1 },
	{ "rc", 0x23f, 1 },
	{ "uar_4k", 0x240, 1 },
	{ "uar_sz", 0x24a, 6 },
	{ "log_pg_sz", 0x258, 8 },
	{ "bf", 0x260, 1 },
	{ "log_bf_reg_size", 0x26b, 5 },
	{ "num_lag_ports", 0x27c, 4 },
	{ "log_max_transport_domain", 0x323, 5 },
	{ "log_max_pd", 0x32b, 5 },
	{ "log_max_xrcd", 0x33b, 5 },
	{ "log_max_rq", 0x363, 5 },
	{ "log_max_sq", 0x36b, 5 },
	{ "log_max_tir", 0x373, 5 },
	{ "log_max_tis", 0x37b, 5 },
	{ "log_max_rmp", 0x383, 5 },
	{ "log_max_rqt", 0x38b, 5 },
	{ "log_max_wq_sz", 0x3db, 5 },
	{ "disable_local_lb", 0x3e1, 1 },
	{ "log_uar_page_sz", 0x490, 16 },
	{ "device_frequency_mhz", 0x4c0, 32 },
	{ "cqe_compression", 0x5bf, 1 },
	{ "cqe_compression_max_num", 0x5d0, 16 },
	{ NULL }
};
const struct prm_layout prm_cmd_hca_cap = {
	"cmd_hca_cap", 0x800, f_cmd_hca_cap
};

static const struct prm_field f_mkc[] = {
	{ "free", 0x1, 1 },
	{ "access_mode_4_2", 0x3, 3 },
	{ "relaxed_ordering_write", 0xd, 1 },
	{ "small_fence_on_rdma_read_response", 0xf, 1 },
	{ "umr_en", 0x10, 1 },
	{ "a", 0x11, 1 },
	{ "rw", 0x12, 1 },
	{ "rr", 0x13, 1 },
	{ "lw", 0x14, 1 },
	{ "lr", 0x15, 1 },
	{ "access_mode_1_0", 0x16, 2 },
	{ "qpn", 0x20, 24 },
	{ "mkey_7_0", 0x38, 8 },
	{ "length64", 0x60, 1 },
	{ "bsf_en", 0x61, 1 },
	{ "sync_umr", 0x62, 1 },
	{ "expected_sigerr_count", 0x65, 1 },
	{ "en_rinval", 0x67, 1 },
	{ "pd", 0x68, 24 },
	{ "start_addr", 0x80, 64 },
	{ "len", 0xc0, 64 },
	{ "bsf_octword_size", 0x100, 32 },
	{ "translations_octword_size", 0x1a0, 32 },
	{ "log_page_size", 0x1db, 5 },
	{ NULL }
};
const struct prm_layout prm_mkc = {
	"mkc", 0x200, f_mkc
};

static const struct prm_field f_cqc[] = {
	{ "status", 0x0, 4 },
	{ "cqe_sz", 0x8, 3 },
	{ "cc", 0xb, 1 },
	{ "scqe_break_moderation_en", 0xd, 1 },
	{ "oi", 0xe, 1 },
	{ "cq_period_mode", 0xf, 2 },
	{ "cqe_comp_en", 0x11, 1 },
	{ "mini_cqe_res_format", 0x12, 2 },
	{ "st", 0x14, 4 },
	{ "page_offset", 0x54, 6 },
	{ "log_cq_size", 0x63, 5 },
	{ "uar_page", 0x68, 24 },
	{ "cq_period", 0x84, 12 },
	{ "cq_max_count", 0x90, 16 },
	{ "c_eqn", 0xb8, 8 },
	{ "log_page_size", 0xc3, 5 },
	{ "last_notified_index", 0x108, 24 },
	{ "last_solicit_index", 0x128, 24 },
	{ "consumer_counter", 0x148, 24 },
	{ "producer_counter", 0x168, 24 },
	{ "dbr_addr", 0x1c0, 64 },
	{ NULL }
};
const struct prm_layout prm_cqc = {
	"cqc", 0x200, f_cqc
};

static const struct prm_field f_modify_field_select[] = {
	{ "modify_field_select", 0x0, 32 },
	{ NULL }
};
const struct prm_layout prm_modify_field_select = {
	"modify_field_select", 0x20, f_modify_field_select
};

static const struct prm_field f_resize_field_select[] = {
	{ "resize_field_select", 0x0, 32 },
	{ NULL }
};
const struct prm_layout prm_resize_field_select = {
	"resize_field_select", 0x20, f_resize_field_select
};

static const struct prm_field f_cq_field_select[] = {
	{ "modify_field_select", 0x0, 0x20, &prm_modify_field_select },
	{ "resize_field_select", 0x0, 0x20, &prm_resize_field_select },
	{ NULL }
};
const struct prm_layout prm_cq_field_select = {
	"cq_field_select", 0x20, f_cq_field_select
};

static const struct prm_field f_rx_hash_field_select[] = {
	{ "l3_prot_type", 0x0, 1 },
	{ "l4_prot_type", 0x1, 1 },
	{ "selected_fields", 0x2, 30 },
	{ NULL }
};
const struct prm_layout prm_rx_hash_field_select = {
	"rx_hash_field_select", 0x20, f_rx_hash_field_select
};

static const struct prm_field f_tirc[] = {
	{ "disp_type", 0x20, 4 },
	{ "lro_timeout_period_usecs", 0x84, 16 },
	{ "lro_enable_mask", 0x94, 4 },
	{ "lro_max_ip_payload_size", 0x98, 8 },
	{ "inline_rqn", 0xe8, 24 },
	{ "rx_hash_symmetric", 0x100, 1 },
	{ "tunneled_offload_en", 0x102, 1 },
	{ "indirect_table", 0x108, 24 },
	{ "rx_hash_fn", 0x120, 4 },
	{ "self_lb_block", 0x126, 2 },
	{ "transport_domain", 0x128, 24 },
	{ "rx_hash_toeplitz_key", 0x140, 320 },
	{ "rx_hash_field_selector_outer", 0x280, 0x20,
	  &prm_rx_hash_field_select },
	{ "rx_hash_field_selector_inner", 0x2a0, 0x20,
	  &prm_rx_hash_field_select },
	{ NULL }
};
const struct prm_layout prm_tirc = {
	"tirc", 0x780, f_tirc
};

static const struct prm_field f_modify_tir_bitmask[] = {
	{ "self_lb_en", 0x3b, 1 },
	{ "hash", 0x3d, 1 },
	{ "lro", 0x3f, 1 },
	{ NULL }
};
const struct prm_layout prm_modify_tir_bitmask = {
	"modify_tir_bitmask", 0x40, f_modify_tir_bitmask
};

static const struct prm_field f_wq[] = {
	{ "wq_type", 0x0, 4 },
	{ "wq_signature", 0x4, 1 },
	{ "end_padding_mode", 0x5, 2 },
	{ "cd_slave", 0x7, 1 },
	{ "hds_skip_first_sge", 0x20, 1 },
	{ "log2_hds_buf_size", 0x21, 3 },
	{ "page_offset", 0x2b, 5 },
	{ "lwm", 0x30, 16 },
	{ "pd", 0x48, 24 },
	{ "uar_page", 0x68, 24 },
	{ "dbr_addr", 0x80, 64 },
	{ "hw_counter", 0xc0, 32 },
	{ "sw_counter", 0xe0, 32 },
	{ "log_wq_stride", 0x10c, 4 },
	{ "log_wq_pg_sz", 0x113, 5 },
	{ "log_wq_sz", 0x11b, 5 },
	{ "log_wqe_num_of_strides", 0x135, 3 },
	{ "two_byte_shift_en", 0x138, 1 },
	{ "log_wqe_stride_size", 0x13d, 3 },
	{ NULL }
};
const struct prm_layout prm_wq = {
	"wq", 0x600, f_wq
};

static const struct prm_field f_sqc[] = {
	{ "rlky", 0x0, 1 },
	{ "cd_master", 0x1, 1 },
	{ "fre", 0x2, 1 },
	{ "flush_in_error_en", 0x3, 1 },
	{ "allow_multi_pkt_send_wqe", 0x4, 1 },
	{ "min_wqe_inline_mode", 0x5, 3 },
	{ "state", 0x8, 4 },
	{ "reg_umr", 0xc, 1 },
	{ "allow_swp", 0xd, 1 },
	{ "user_index", 0x28, 24 },
	{ "cqn", 0x48, 24 },
	{ "packet_pacing_rate_limit_index", 0xf0, 16 },
	{ "tis_lst_sz", 0x100, 16 },
	{ "tis_num_0", 0x168, 24 },
	{ "wq", 0x180, 0x600, &prm_wq },
	{ NULL }
};
const struct prm_layout prm_sqc = {
	"sqc", 0x780, f_sqc
};

static const struct prm_field f_rqc[] = {
	{ "rlky", 0x0, 1 },
	{ "delay_drop_en", 0x1, 1 },
	{ "scatter_fcs", 0x2, 1 },
	{ "vsd", 0x3, 1 },
	{ "mem_rq_type", 0x4, 4 },
	{ "state", 0x8, 4 },
	{ "flush_in_error_en", 0xd, 1 },
	{ "user_index", 0x28, 24 },
	{ "cqn", 0x48, 24 },
	{ "counter_set_id", 0x60, 8 },
	{ "rmpn", 0x88, 24 },
	{ "wq", 0x180, 0x600, &prm_wq },
	{ NULL }
};
const struct prm_layout prm_rqc = {
	"rqc", 0x780, f_rqc
};

static const struct prm_field f_tisc[] = {
	{ "strict_lag_tx_port_affinity", 0x0, 1 },
	{ "lag_tx_port_affinity", 0x4, 4 },
	{ "prio", 0xc, 4 },
	{ "transport_domain", 0x128, 24 },
	{ "underlay_qpn", 0x148, 24 },
	{ NULL }
};
const struct prm_layout prm_tisc = {
	"tisc", 0x500, f_tisc
};

static const struct prm_field f_modify_tis_bitmask[] = {
	{ "lag_tx_port_affinity", 0x3d, 1 },
	{ "strict_lag_tx_port_affinity", 0x3e, 1 },
	{ "prio", 0x3f, 1 },
	{ NULL }
};
const struct prm_layout prm_modify_tis_bitmask = {
	"modify_tis_bitmask", 0x40, f_modify_tis_bitmask
};

static const struct prm_field f_flow_table_context[] = {
	{ "encap_en", 0x0, 1 },
	{ "decap_en", 0x1, 1 },
	{ "table_miss_action", 0x4, 4 },
	{ "level", 0x8, 8 },
	{ "log_size", 0x18, 8 },
	{ "table_miss_id", 0x28, 24 },
	{ "lag_master_next_table_id", 0x48, 24 },
	{ NULL }
};
const struct prm_layout prm_flow_table_context = {
	"flow_table_context", 0x140, f_flow_table_context
};

static const struct prm_field f_ipv6_layout[] = {
	{ "ipv6", 0x0, 128 },
	{ NULL }
};
const struct prm_layout prm_ipv6_layout = {
	"ipv6_layout", 0x80, f_ipv6_layout
};

static const struct prm_field f_ipv4_layout[] = {
	{ "ipv4", 0x60, 32 },
	{ NULL }
};
const struct prm_layout prm_ipv4_layout = {
	"ipv4_layout", 0x80, f_ipv4_layout
};

static const struct prm_field f_ipv6_layout_ipv4_layout_auto[] = {
	{ "ipv6_layout", 0x0, 0x80, &prm_ipv6_layout },
	{ "ipv4_layout", 0x0, 0x80, &prm_ipv4_layout },
	{ NULL }
};
const struct prm_layout prm_ipv6_layout_ipv4_layout_auto = {
	"ipv6_layout_ipv4_layout_auto", 0x80, f_ipv6_layout_ipv4_layout_auto
};

static const struct prm_field f_fte_match_set_lyr_2_4[] = {
	{ "smac_47_16", 0x0, 32 },
	{ "smac_15_0", 0x20, 16 },
	{ "ethertype", 0x30, 16 },
	{ "dmac_47_16", 0x40, 32 },
	{ "dmac_15_0", 0x60, 16 },
	{ "first_prio", 0x70, 3 },
	{ "first_cfi", 0x73, 1 },
	{ "first_vid", 0x74, 12 },
	{ "ip_protocol", 0x80, 8 },
	{ "ip_dscp", 0x88, 6 },
	{ "ip_ecn", 0x8e, 2 },
	{ "cvlan_tag", 0x90, 1 },
	{ "svlan_tag", 0x91, 1 },
	{ "frag", 0x92, 1 },
	{ "ip_version", 0x93, 4 },
	{ "tcp_flags", 0x97, 9 },
	{ "tcp_sport", 0xa0, 16 },
	{ "tcp_dport", 0xb0, 16 },
	{ "ttl_hoplimit", 0xd8, 8 },
	{ "udp_sport", 0xe0, 16 },
	{ "udp_dport", 0xf0, 16 },
	{ "src_ipv4_src_ipv6", 0x100, 0x80, &prm_ipv6_layout_ipv4_layout_auto },
	{ "dst_ipv4_dst_ipv6", 0x180, 0x80, &prm_ipv6_layout_ipv4_layout_auto },
	{ NULL }
};
const struct prm_layout prm_fte_match_set_lyr_2_4 = {
	"fte_match_set_lyr_2_4", 0x200, f_fte_match_set_lyr_2_4
};

static const struct prm_field f_fte_match_set_misc[] = {
	{ "source_sqn", 0x8, 24 },
	{ "source_port", 0x30, 16 },
	{ "outer_second_prio", 0x40, 3 },
	{ "outer_second_cfi", 0x43, 1 },
	{ "outer_second_vid", 0x44, 12 },
	{ "inner_second_prio", 0x50, 3 },
	{ "inner_second_cfi", 0x53, 1 },
	{ "inner_second_vid", 0x54, 12 },
	{ "outer_second_cvlan_tag", 0x60, 1 },
	{ "inner_second_cvlan_tag", 0x61, 1 },
	{ "outer_second_svlan_tag", 0x62, 1 },
	{ "inner_second_svlan_tag", 0x63, 1 },
	{ "outer_emd_tag", 0x64, 1 },
	{ "gre_protocol", 0x70, 16 },
	{ "gre_key_h", 0x80, 24 },
	{ "gre_key_l", 0x98, 8 },
	{ "vxlan_vni", 0xa0, 24 },
	{ "outer_ipv6_flow_label", 0xec, 20 },
	{ "inner_ipv6_flow_label", 0x10c, 20 },
	{ "bth_dst_qp", 0x148, 24 },
	{ "inner_esp_spi", 0x160, 32 },
	{ "outer_esp_spi", 0x180, 32 },
	{ "outer_emd_tag_data", 0x1c0, 48 },
	{ NULL }
};
const struct prm_layout prm_fte_match_set_misc = {
	"fte_match_set_misc", 0x200, f_fte_match_set_misc
};

static const struct prm_field f_fte_match_param[] = {
	{ "outer_headers", 0x0, 0x200, &prm_fte_match_set_lyr_2_4 },
	{ "misc_parameters", 0x200, 0x200, &prm_fte_match_set_misc },
	{ "inner_headers", 0x400, 0x200, &prm_fte_match_set_lyr_2_4 },
	{ NULL }
};
const struct prm_layout prm_fte_match_param = {
	"fte_match_param", 0x1000, f_fte_match_param
};

static const struct prm_field f_dest_format_struct[] = {
	{ "destination_type", 0x0, 8 },
	{ "destination_id", 0x8, 24 },
	{ NULL }
};
const struct prm_layout prm_dest_format_struct = {
	"dest_format_struct", 0x40, f_dest_format_struct
};

static const struct prm_field f_flow_context[] = {
	{ "tpid", 0x0, 16 },
	{ "vlan_pcp", 0x10, 3 },
	{ "vlan_dei", 0x13, 1 },
	{ "vlan_id", 0x14, 12 },
	{ "group_id", 0x20, 32 },
	{ "flow_tag", 0x48, 24 },
	{ "action", 0x70, 16 },
	{ "destination_list_size", 0x88, 24 },
	{ "flow_counter_list_size", 0xa8, 24 },
	{ "encap_id", 0xc0, 32 },
	{ "modify_header_id", 0xe0, 32 },
	{ "match_value", 0x200, 0x1000, &prm_fte_match_param },
	{ "destination", 0x1800, 0x40, &prm_dest_format_struct, 8 },
	{ NULL }
};
const struct prm_layout prm_flow_context = {
	"flow_context", 0x1800, f_flow_context
};
