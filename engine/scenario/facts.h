/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_FACTS_H
#define RDMASCN_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

/*
 * The facts of a context's device, port and GID: one table, which
 * `rdmascn devices -j` prints (caps and each port's members, in this
 * order, with these names), ${CTX.GROUP.FIELD} reads and
 * requires.facts bounds.  Each fact has a type (a number or text) and
 * the value a run without a device assumes (validate, plan, run -n).
 */
enum rs_fact_group { RS_FACT_DEVICE, RS_FACT_PORT, RS_FACT_GID,
		     RS_FACT_MLX5, RS_FACT_GROUPS };

/* Where the facts are read from: what a context's probe found. */
struct rs_fact_src {
	const char *name;                    /* the device's */
	const struct ibv_device_attr_ex *attr;
	const struct ibv_port_attr *port;
	uint32_t num_comp_vectors;           /* the open context's */
	int gid_index;                       /* -1: none */
	enum ibv_gid_type gid_type;
	const union ibv_gid *gid;
	/* What the plugins say of the device (`devices -j`'s members from
	 * describe_device: "mlx5", what mlx5dv_query_device() says): the
	 * mlx5.* facts.  NULL: nothing. */
	const struct rs_val *plugins;
};

struct rs_val;

struct rs_fact_val {
	bool text;
	uint64_t num;
	char str[64];
};

struct rs_fact {
	const char *name;
	enum rs_fact_group group;
	bool text;
	/* Printed by `devices` with the device's caps or as a port's
	 * member (else elsewhere, or a bit of a word it prints). */
	bool in_caps;
	uint16_t off;            /* a number: its offset in attr or port */
	uint8_t size;            /* ... its size; 0: get() */
	void (*get)(const struct rs_fact *f, const struct rs_fact_src *src,
		    struct rs_fact_val *ret);
	uint64_t assumed;        /* no device: this number */
	const char *assumed_text;/* ... or this text */
	uint64_t bit;            /* a cap_flags.NAME fact: its bit */
};

/*
 * The named bits of device_cap_flags(_ex) and port_cap_flags: each is a
 * fact, device.cap_flags.NAME / port.cap_flags.NAME, 1 when the device
 * sets it, else 0; `devices -j` prints the same names.  X(bit, name,
 * assumed): assumed is the bit of a capable RoCE NIC, as the dry run
 * takes it.
 */
#define RS_DEV_CAP_FLAGS(X)                                              \
	X(IBV_DEVICE_RESIZE_MAX_WR, resize_max_wr, 1)                      \
	X(IBV_DEVICE_BAD_PKEY_CNTR, bad_pkey_cntr, 1)                      \
	X(IBV_DEVICE_BAD_QKEY_CNTR, bad_qkey_cntr, 1)                      \
	X(IBV_DEVICE_RAW_MULTI, raw_multi, 1)                              \
	X(IBV_DEVICE_AUTO_PATH_MIG, auto_path_mig, 1)                      \
	X(IBV_DEVICE_CHANGE_PHY_PORT, change_phy_port, 1)                  \
	X(IBV_DEVICE_UD_AV_PORT_ENFORCE, ud_av_port_enforce, 0)            \
	X(IBV_DEVICE_CURR_QP_STATE_MOD, curr_qp_state_mod, 1)              \
	X(IBV_DEVICE_SHUTDOWN_PORT, shutdown_port, 1)                      \
	X(IBV_DEVICE_INIT_TYPE, init_type, 0)                              \
	X(IBV_DEVICE_PORT_ACTIVE_EVENT, port_active_event, 1)              \
	X(IBV_DEVICE_SYS_IMAGE_GUID, sys_image_guid, 1)                    \
	X(IBV_DEVICE_RC_RNR_NAK_GEN, rc_rnr_nak_gen, 1)                    \
	X(IBV_DEVICE_SRQ_RESIZE, srq_resize, 1)                            \
	X(IBV_DEVICE_N_NOTIFY_CQ, n_notify_cq, 1)                          \
	X(IBV_DEVICE_MEM_WINDOW, mem_window, 1)                            \
	X(IBV_DEVICE_UD_IP_CSUM, ud_ip_csum, 1)                            \
	X(IBV_DEVICE_XRC, xrc, 1)                                          \
	X(IBV_DEVICE_MEM_MGT_EXTENSIONS, mem_mgt_extensions, 1)            \
	X(IBV_DEVICE_MEM_WINDOW_TYPE_2A, mem_window_type_2a, 0)            \
	X(IBV_DEVICE_MEM_WINDOW_TYPE_2B, mem_window_type_2b, 1)            \
	X(IBV_DEVICE_RC_IP_CSUM, rc_ip_csum, 1)                            \
	X(IBV_DEVICE_RAW_IP_CSUM, raw_ip_csum, 1)                          \
	X(IBV_DEVICE_MANAGED_FLOW_STEERING, managed_flow_steering, 1)      \
	/* Only in device_cap_flags_ex, which holds the bits above too. */ \
	X(IBV_DEVICE_RAW_SCATTER_FCS, raw_scatter_fcs, 1)                  \
	X(IBV_DEVICE_PCI_WRITE_END_PADDING, pci_write_end_padding, 0)

#define RS_PORT_CAP_FLAGS(X)                                             \
	X(IBV_PORT_SM, sm, 0)                                              \
	X(IBV_PORT_NOTICE_SUP, notice_sup, 0)                              \
	X(IBV_PORT_TRAP_SUP, trap_sup, 0)                                  \
	X(IBV_PORT_OPT_IPD_SUP, opt_ipd_sup, 0)                            \
	X(IBV_PORT_AUTO_MIGR_SUP, auto_migr_sup, 0)                        \
	X(IBV_PORT_SL_MAP_SUP, sl_map_sup, 0)                              \
	X(IBV_PORT_MKEY_NVRAM, mkey_nvram, 0)                              \
	X(IBV_PORT_PKEY_NVRAM, pkey_nvram, 0)                              \
	X(IBV_PORT_LED_INFO_SUP, led_info_sup, 0)                          \
	X(IBV_PORT_SYS_IMAGE_GUID_SUP, sys_image_guid_sup, 0)              \
	X(IBV_PORT_PKEY_SW_EXT_PORT_TRAP_SUP, pkey_sw_ext_port_trap_sup, 0)\
	X(IBV_PORT_EXTENDED_SPEEDS_SUP, extended_speeds_sup, 0)            \
	X(IBV_PORT_CAP_MASK2_SUP, cap_mask2_sup, 0)                        \
	X(IBV_PORT_CM_SUP, cm_sup, 1)                                      \
	X(IBV_PORT_SNMP_TUNNEL_SUP, snmp_tunnel_sup, 0)                    \
	X(IBV_PORT_REINIT_SUP, reinit_sup, 0)                              \
	X(IBV_PORT_DEVICE_MGMT_SUP, device_mgmt_sup, 0)                    \
	X(IBV_PORT_VENDOR_CLASS_SUP, vendor_class_sup, 0)                  \
	X(IBV_PORT_DR_NOTICE_SUP, dr_notice_sup, 0)                        \
	X(IBV_PORT_CAP_MASK_NOTICE_SUP, cap_mask_notice_sup, 0)            \
	X(IBV_PORT_BOOT_MGMT_SUP, boot_mgmt_sup, 0)                        \
	X(IBV_PORT_LINK_LATENCY_SUP, link_latency_sup, 0)                  \
	X(IBV_PORT_CLIENT_REG_SUP, client_reg_sup, 0)                      \
	X(IBV_PORT_IP_BASED_GIDS, ip_based_gids, 1)

const char *rs_fact_group_name(enum rs_fact_group g);
/* The facts, table order; NULL past the end. */
const struct rs_fact *rs_fact_at(unsigned i);
/* "port.max_msg_sz" (@len bytes) -> its fact, or NULL. */
const struct rs_fact *rs_fact_find(const char *name, size_t len);
/* ", did you mean 'device.max_cqe'?" for the unknown fact @name (@name_len
 * bytes) into @buf, or "": its length. */
size_t rs_fact_near(const char *name, size_t name_len, char *buf, size_t len);
/* "port.max_msg_sz", for messages. */
const char *rs_fact_path(const struct rs_fact *f, char *buf, size_t len);
void rs_fact_get(const struct rs_fact *f, const struct rs_fact_src *src,
		 struct rs_fact_val *ret);
void rs_fact_assumed(const struct rs_fact *f, struct rs_fact_val *ret);
/* Text facts compare without case, ' ' and '_' alike: "roce_v2" is
 * "RoCE v2". */
bool rs_fact_text_eq(const char *a, const char *b);

#endif
