// SPDX-License-Identifier: MIT
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "caps.h"
#include "schema.h"
#include "macros.h"

struct feature {
	const char *name;
	const char *source;
};

static const struct feature features[RS_FEAT_COUNT] = {
	[RS_FEAT_SRQ] = { "srq", "max_srq" },
	[RS_FEAT_XRC] = { "xrc", "IBV_DEVICE_XRC" },
	[RS_FEAT_MW_TYPE1] = { "mw_type1", "max_mw" },
	[RS_FEAT_MW_TYPE2] = { "mw_type2", "IBV_DEVICE_MEM_WINDOW_TYPE_2A/2B" },
	[RS_FEAT_ATOMICS] = { "atomics", "atomic_cap" },
	[RS_FEAT_DM] = { "dm", "max_dm_size" },
	[RS_FEAT_ODP] = { "odp", "odp_caps" },
	[RS_FEAT_FLOW_STEERING] = { "flow_steering",
				    "IBV_DEVICE_MANAGED_FLOW_STEERING" },
	[RS_FEAT_RAW_PACKET] = { "raw_packet", "raw_packet_caps" },
	[RS_FEAT_RDMA_CM] = { "rdma_cm", "/dev/infiniband/rdma_cm" },
	[RS_FEAT_CQ_EX] = { "cq_ex", "libibverbs" },
	[RS_FEAT_QP_EX] = { "qp_ex", "libibverbs" },
	[RS_FEAT_MLX5DV] = { "mlx5dv", "the mlx5 plugin" },
	[RS_FEAT_DEVX] = { "devx", "the mlx5 plugin" },
	[RS_FEAT_TAG_MATCHING] = { "tag_matching", "tm_caps.max_num_tags" },
};

uint32_t rs_dev_features(const struct ibv_device_attr_ex *ax)
{
	const struct ibv_device_attr *a = &ax->orig_attr;
	uint32_t f = 1u << RS_FEAT_CQ_EX | 1u << RS_FEAT_QP_EX;

	if (a->max_srq)
		f |= 1u << RS_FEAT_SRQ;
	if (a->device_cap_flags & IBV_DEVICE_XRC)
		f |= 1u << RS_FEAT_XRC;
	if (a->max_mw) {
		f |= 1u << RS_FEAT_MW_TYPE1;
		if (a->device_cap_flags & (IBV_DEVICE_MEM_WINDOW_TYPE_2A |
					   IBV_DEVICE_MEM_WINDOW_TYPE_2B))
			f |= 1u << RS_FEAT_MW_TYPE2;
	}
	if (a->atomic_cap != IBV_ATOMIC_NONE)
		f |= 1u << RS_FEAT_ATOMICS;
	if (ax->max_dm_size)
		f |= 1u << RS_FEAT_DM;
	if (ax->odp_caps.general_caps & IBV_ODP_SUPPORT)
		f |= 1u << RS_FEAT_ODP;
	if (a->device_cap_flags & IBV_DEVICE_MANAGED_FLOW_STEERING)
		f |= 1u << RS_FEAT_FLOW_STEERING;
	if (ax->raw_packet_caps)
		f |= 1u << RS_FEAT_RAW_PACKET;
	if (ax->tm_caps.max_num_tags)
		f |= 1u << RS_FEAT_TAG_MATCHING;
	if (!access("/dev/infiniband/rdma_cm", F_OK))
		f |= 1u << RS_FEAT_RDMA_CM;
	return f;
}

int rs_qp_type_feature(unsigned type)
{
	switch (type) {
	case RS_QPT_XRC_SEND:
	case RS_QPT_XRC_RECV:
		return RS_FEAT_XRC;
	case RS_QPT_RAW_PACKET:
		return RS_FEAT_RAW_PACKET;
	default:
		return -1;
	}
}

uint32_t rs_dev_qp_types(const struct ibv_device_attr_ex *ax)
{
	uint32_t have = rs_dev_features(ax), t = 0;

	for (unsigned i = 0; i <= RS_QPT_RAW_PACKET; i++) {
		int need = rs_qp_type_feature(i);

		if (need < 0 || have & 1u << need)
			t |= 1u << i;
	}
	return t;
}

/* Words plugins add, bits RS_FEAT_COUNT on; the strings are the
 * plugins', so they go when the plugins are unloaded. */
static struct feature added[RS_FEATURES_MAX - RS_FEAT_COUNT];
static unsigned n_added;

static const struct feature *feature_at(unsigned feat)
{
	if (feat < RS_FEAT_COUNT)
		return &features[feat];
	if (feat - RS_FEAT_COUNT < n_added)
		return &added[feat - RS_FEAT_COUNT];
	return NULL;
}

unsigned rs_feature_count(void)
{
	return RS_FEAT_COUNT + n_added;
}

int rs_feature_find(const char *name)
{
	for (unsigned f = 0; f < rs_feature_count(); f++)
		if (!strcmp(feature_at(f)->name, name))
			return (int)f;
	return -ENOENT;
}

int rs_feature_add(const char *name, const char *source)
{
	int f = rs_feature_find(name);

	if (f >= 0)
		return f;
	if (RS_FEAT_COUNT + n_added == RS_FEATURES_MAX)
		return -ENOSPC;
	added[n_added] = (struct feature){ name, source };
	return (int)(RS_FEAT_COUNT + n_added++);
}

void rs_features_drop_added(void)
{
	n_added = 0;
}

const char *rs_feature_name(unsigned feat)
{
	const struct feature *f = feature_at(feat);

	return f ? f->name : "?";
}

const char *rs_feature_source(unsigned feat)
{
	const struct feature *f = feature_at(feat);

	return f && f->source ? f->source : "?";
}

const char *rs_qp_type_name(unsigned type)
{
	for (unsigned i = 0; i < RS_N(rs_qp_type_names); i++)
		if ((unsigned)rs_qp_type_names[i].val == type)
			return rs_qp_type_names[i].str;
	return "?";
}
