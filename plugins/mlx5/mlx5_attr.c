// SPDX-License-Identifier: MIT
/*
 * What mlx5dv_query_device() reports, as values for `rdmascn devices`
 * (text and JSON print the same tree) and for an mlx5 context's facts:
 * every group its comp_mask says is filled, flags by name.
 */
#include <stddef.h>

#include "mlx5.h"
#include "rdmascn/value.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct bit_name {
	uint64_t bit;
	const char *name;
};

static const struct bit_name context_flags[] = {
	{ MLX5DV_CONTEXT_FLAGS_CQE_V1, "cqe_v1" },
	{ MLX5DV_CONTEXT_FLAGS_MPW_ALLOWED, "mpw_allowed" },
	{ MLX5DV_CONTEXT_FLAGS_ENHANCED_MPW, "enhanced_mpw" },
	{ MLX5DV_CONTEXT_FLAGS_CQE_128B_COMP, "cqe_128b_comp" },
	{ MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD, "cqe_128b_pad" },
	{ MLX5DV_CONTEXT_FLAGS_PACKET_BASED_CREDIT_MODE,
	  "packet_based_credit_mode" },
	{ MLX5DV_CONTEXT_FLAGS_REAL_TIME_TS, "real_time_ts" },
};

static const struct bit_name cqe_formats[] = {
	{ MLX5DV_CQE_RES_FORMAT_HASH, "hash" },
	{ MLX5DV_CQE_RES_FORMAT_CSUM, "csum" },
	{ MLX5DV_CQE_RES_FORMAT_CSUM_STRIDX, "csum_stridx" },
};

static const struct bit_name swp_offloads[] = {
	{ MLX5DV_SW_PARSING, "sw_parsing" },
	{ MLX5DV_SW_PARSING_CSUM, "csum" },
	{ MLX5DV_SW_PARSING_LSO, "lso" },
};

static const struct bit_name qp_types[] = {
	{ 1u << IBV_QPT_RC, "rc" },
	{ 1u << IBV_QPT_UC, "uc" },
	{ 1u << IBV_QPT_UD, "ud" },
	{ 1u << IBV_QPT_RAW_PACKET, "raw_packet" },
	{ 1u << IBV_QPT_XRC_SEND, "xrc_send" },
	{ 1u << IBV_QPT_XRC_RECV, "xrc_recv" },
};

static const struct bit_name tunnel_offloads[] = {
	{ MLX5DV_RAW_PACKET_CAP_TUNNELED_OFFLOAD_VXLAN, "vxlan" },
	{ MLX5DV_RAW_PACKET_CAP_TUNNELED_OFFLOAD_GRE, "gre" },
	{ MLX5DV_RAW_PACKET_CAP_TUNNELED_OFFLOAD_GENEVE, "geneve" },
	{ MLX5DV_RAW_PACKET_CAP_TUNNELED_OFFLOAD_CW_MPLS_OVER_GRE,
	  "cw_mpls_over_gre" },
	{ MLX5DV_RAW_PACKET_CAP_TUNNELED_OFFLOAD_CW_MPLS_OVER_UDP,
	  "cw_mpls_over_udp" },
};

static const struct bit_name flow_actions[] = {
	{ MLX5DV_FLOW_ACTION_FLAGS_ESP_AES_GCM, "esp_aes_gcm" },
	{ MLX5DV_FLOW_ACTION_FLAGS_ESP_AES_GCM_REQ_METADATA,
	  "esp_aes_gcm_req_metadata" },
	{ MLX5DV_FLOW_ACTION_FLAGS_ESP_AES_GCM_SPI_STEERING,
	  "esp_aes_gcm_spi_steering" },
	{ MLX5DV_FLOW_ACTION_FLAGS_ESP_AES_GCM_FULL_OFFLOAD,
	  "esp_aes_gcm_full_offload" },
	{ MLX5DV_FLOW_ACTION_FLAGS_ESP_AES_GCM_TX_IV_IS_ESN,
	  "esp_aes_gcm_tx_iv_is_esn" },
};

static const struct bit_name odp_caps[] = {
	{ IBV_ODP_SUPPORT_SEND, "send" },
	{ IBV_ODP_SUPPORT_RECV, "recv" },
	{ IBV_ODP_SUPPORT_WRITE, "write" },
	{ IBV_ODP_SUPPORT_READ, "read" },
	{ IBV_ODP_SUPPORT_ATOMIC, "atomic" },
	{ IBV_ODP_SUPPORT_SRQ_RECV, "srq_recv" },
};

static void put_bits(struct rdmascn_val *obj, const char *key, uint64_t bits,
		     const struct bit_name *names, size_t n)
{
	struct rdmascn_val *arr = rdmascn_val_put_arr(obj, key);

	for (size_t i = 0; i < n; i++)
		if (bits & names[i].bit)
			rdmascn_val_push_str(arr, names[i].name);
}

const uint64_t mlx5_query_mask =
	MLX5DV_CONTEXT_MASK_CQE_COMPRESION | MLX5DV_CONTEXT_MASK_SWP |
	MLX5DV_CONTEXT_MASK_STRIDING_RQ | MLX5DV_CONTEXT_MASK_TUNNEL_OFFLOADS |
	MLX5DV_CONTEXT_MASK_DYN_BFREGS | MLX5DV_CONTEXT_MASK_CLOCK_INFO_UPDATE |
	MLX5DV_CONTEXT_MASK_FLOW_ACTION_FLAGS |
	MLX5DV_CONTEXT_MASK_DC_ODP_CAPS | MLX5DV_CONTEXT_MASK_NUM_LAG_PORTS;

void mlx5_attr_describe(const struct mlx5dv_context *a, struct rdmascn_val *m)
{
	uint64_t has = a->comp_mask;
	struct rdmascn_val *g;

	rdmascn_val_put_u64(m, "version", a->version);
	put_bits(m, "flags", a->flags, context_flags, N(context_flags));
	if (has & MLX5DV_CONTEXT_MASK_CQE_COMPRESION) {
		g = rdmascn_val_put_obj(m, "cqe_compression");
		rdmascn_val_put_u64(g, "max_num", a->cqe_comp_caps.max_num);
		put_bits(g, "formats", a->cqe_comp_caps.supported_format,
			 cqe_formats, N(cqe_formats));
	}
	if (has & MLX5DV_CONTEXT_MASK_SWP) {
		g = rdmascn_val_put_obj(m, "sw_parsing");
		put_bits(g, "offloads", a->sw_parsing_caps.sw_parsing_offloads,
			 swp_offloads, N(swp_offloads));
		put_bits(g, "qp_types", a->sw_parsing_caps.supported_qpts,
			 qp_types, N(qp_types));
	}
	if (has & MLX5DV_CONTEXT_MASK_STRIDING_RQ) {
		const struct mlx5dv_striding_rq_caps *s = &a->striding_rq_caps;

		g = rdmascn_val_put_obj(m, "striding_rq");
		rdmascn_val_put_u64(g, "min_stride_bytes", 1ull <<
				    s->min_single_stride_log_num_of_bytes);
		rdmascn_val_put_u64(g, "max_stride_bytes", 1ull <<
				    s->max_single_stride_log_num_of_bytes);
		rdmascn_val_put_u64(g, "min_strides", 1ull <<
				    s->min_single_wqe_log_num_of_strides);
		rdmascn_val_put_u64(g, "max_strides", 1ull <<
				    s->max_single_wqe_log_num_of_strides);
		put_bits(g, "qp_types", s->supported_qpts, qp_types,
			 N(qp_types));
	}
	if (has & MLX5DV_CONTEXT_MASK_TUNNEL_OFFLOADS)
		put_bits(m, "tunnel_offloads", a->tunnel_offloads_caps,
			 tunnel_offloads, N(tunnel_offloads));
	if (has & MLX5DV_CONTEXT_MASK_DYN_BFREGS)
		rdmascn_val_put_u64(m, "max_dynamic_bfregs",
				    a->max_dynamic_bfregs);
	if (has & MLX5DV_CONTEXT_MASK_CLOCK_INFO_UPDATE)
		rdmascn_val_put_u64(m, "max_clock_info_update_ns",
				    a->max_clock_info_update_nsec);
	if (has & MLX5DV_CONTEXT_MASK_FLOW_ACTION_FLAGS)
		put_bits(m, "flow_actions", a->flow_action_flags, flow_actions,
			 N(flow_actions));
	if (has & MLX5DV_CONTEXT_MASK_DC_ODP_CAPS)
		put_bits(m, "dc_odp", a->dc_odp_caps, odp_caps, N(odp_caps));
	if (has & MLX5DV_CONTEXT_MASK_NUM_LAG_PORTS)
		rdmascn_val_put_u64(m, "num_lag_ports", a->num_lag_ports);
}
