/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_CAPS_H
#define RDMASCN_CAPS_H

#include <stdint.h>

#include <infiniband/verbs.h>

/*
 * What a device can do, in the words of `requires:` (RS_FEAT_*, RS_QPT_*
 * bits), decided from ibv_query_device_ex() in one place for `devices`,
 * `requires:` and the kinds' own checks.
 */
uint32_t rs_dev_features(const struct ibv_device_attr_ex *ax);
uint32_t rs_dev_qp_types(const struct ibv_device_attr_ex *ax);
/* "xrc", and what tells it: "IBV_DEVICE_XRC in device_cap_flags". */
const char *rs_feature_name(unsigned feat);
const char *rs_feature_source(unsigned feat);

/*
 * The words of requires.features: the core's (RS_FEAT_*), then those
 * plugins add, bit for bit, up to RS_FEATURES_MAX.  rs_feature_add()
 * returns the bit of @name (the one it has if it is known already), or
 * -ENOSPC; @name and @source are kept, not copied, until
 * rs_features_drop_added().
 */
unsigned rs_feature_count(void);
int rs_feature_find(const char *name);
int rs_feature_add(const char *name, const char *source);
void rs_features_drop_added(void);
const char *rs_qp_type_name(unsigned type);
/* The feature a qp type needs, or -1 when every device has it. */
int rs_qp_type_feature(unsigned type);

#endif
