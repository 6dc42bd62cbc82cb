/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_KINDS_H
#define RDMASCN_KINDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "public_names.h"
#include "rdmascn/qp.h"
#include "schema.h"

/*
 * The core object kinds: what libcyaml fills for each section of a
 * scenario.  Every struct starts with `char *id` and has the `after:`
 * list.  Optional numbers are 0 when absent ("the default"); whether a
 * field was given at all is rs_obj_has()'s business.  Members marked
 * "check()" are not read by libcyaml: the kind's check fills them.
 * Flag and enum members hold the verbs values (IBV_ACCESS_*, IBV_MTU_*...)
 * unless said otherwise.  Integers are in host byte order.
 */
struct rs_node;

struct rs_context {
	char *id;
	char **after;
	unsigned after_count;
	char *device;            /* name, GUID, "netdev:IF", "any"; NULL: any */
	uint32_t index;          /* in ibv_get_device_list() order */
	char *import;            /* given: ibv_import_device() on a dup of
				  * this context's cmd_fd */
	uint8_t port;            /* 0: 1 */
	uint32_t gid_index;
	bool async_events;
	bool gid_index_given;    /* check() */
	bool index_given;        /* check() */
};

struct rs_pd {
	char *id;
	char **after;
	unsigned after_count;
	char *context;
	char *import;            /* given: ibv_import_pd() of this pd */
};

struct rs_xrcd {
	char *id;
	char **after;
	unsigned after_count;
	char *context;
	char *fd_path;           /* NULL: no file (fd -1) */
};

struct rs_dm {
	char *id;
	char **after;
	unsigned after_count;
	char *context;
	uint64_t length;
	uint32_t log_align_req;
};

/* The last three are set by check() from fill_text, fill_hex, fill_file. */
enum rs_mr_fill {
	RS_FILL_ZERO, RS_FILL_PATTERN, RS_FILL_RANDOM, RS_FILL_BYTE,
	RS_FILL_TEXT, RS_FILL_HEX, RS_FILL_FILE,
};
/* Where the buffer is: posix_memalign(), or an mmap() of this kind. */
enum rs_mr_memory { RS_MEM_HEAP, RS_MEM_ANONYMOUS, RS_MEM_HUGETLB, RS_MEM_FILE };

/* Where a dma-buf MR's buffer comes from. */
enum rs_dmabuf_source { RS_DMABUF_UDMABUF };

struct rs_mr_dmabuf {
	int source;              /* enum rs_dmabuf_source */
	uint64_t offset;         /* of the MR in the dma-buf */
};

struct rs_mr {
	char *id;
	char **after;
	unsigned after_count;
	char *pd;                /* pd or parent_domain */
	uint64_t length;
	uint32_t access;         /* IBV_ACCESS_* */
	uint64_t iova;           /* given: ibv_reg_mr_iova2() */
	uint64_t alignment;      /* 0: page size */
	bool huge_pages;         /* memory: hugetlb, as check() records */
	int memory;              /* enum rs_mr_memory */
	char *memory_file;       /* memory: file: the file mapped */
	int fill;                /* enum rs_mr_fill */
	uint8_t fill_byte;
	char *fill_text;         /* one of fill_text, fill_hex, fill_file */
	char *fill_hex;
	char *fill_file;
	char *dm;                /* given: ibv_reg_dm_mr() on that dm */
	uint64_t dm_offset;      /* of the MR in the dm */
	struct rs_mr_dmabuf *dmabuf; /* given: ibv_reg_dmabuf_mr() */
	char *import;            /* given: ibv_import_mr() of this mr */
	uint64_t fill_length;    /* check(): the literal's bytes */
};

struct rs_mw {
	char *id;
	char **after;
	unsigned after_count;
	char *pd;
	int type;                /* IBV_MW_TYPE_1 or IBV_MW_TYPE_2 */
};

enum rs_cq_mode { RS_CQ_MODE_DEFAULT, RS_CQ_MODE_EVENTS, RS_CQ_MODE_BUSY };

struct rs_cq {
	char *id;
	char **after;
	unsigned after_count;
	char *context;
	uint32_t cqe;
	bool channel;            /* with a completion channel */
	uint32_t comp_vector;
	bool ex;                 /* ibv_create_cq_ex() */
	uint64_t wc_flags;       /* IBV_WC_EX_WITH_* */
	bool single_threaded;
	bool ignore_overrun;
	int mode;                /* enum rs_cq_mode; default: events with a
				  * channel, else busy */
	char *parent_domain;     /* ex: its buffers from that domain's
				  * allocators (IBV_CQ_INIT_ATTR_MASK_PD) */
};

struct rs_srq {
	char *id;
	char **after;
	unsigned after_count;
	char *pd;
	int type;                /* IBV_SRQT_* */
	uint32_t max_wr;
	uint32_t max_sge;
	uint32_t srq_limit;
	char *xrcd;
	char *cq;
	uint32_t max_num_tags;   /* tm */
	uint32_t max_ops;        /* tm */
};

struct rs_parent_domain {
	char *id;
	char **after;
	unsigned after_count;
	char *pd;
	bool td;                 /* with a thread domain */
	int alloc;               /* enum rs_pd_alloc */
};

/* A parent domain's allocators: none (the provider's own), or callbacks
 * that count and leave the buffer to the provider, or that count and
 * allocate it themselves. */
enum rs_pd_alloc { RS_PD_ALLOC_NONE, RS_PD_ALLOC_COUNTED, RS_PD_ALLOC_ENGINE };

/* cap: (rdmascn/qp.h: one defaulting for qps and plugins' QPs) */
#define rs_qp_cap rdmascn_qp_cap

struct rs_qp {
	char *id;
	char **after;
	unsigned after_count;
	char *pd;                /* pd or parent_domain; none for xrc_recv */
	int type;                /* enum rs_qp_type */
	char *send_cq;
	char *recv_cq;           /* NULL: send_cq */
	char *srq;
	char *xrcd;
	struct rs_qp_cap *cap;   /* NULL: all defaults */
	bool sq_sig_all;
	bool ex;                 /* ibv_create_qp_ex() */
	uint64_t send_ops;       /* IBV_QP_EX_WITH_* */
	uint8_t port;
	uint16_t pkey_index;
	uint32_t qkey;
};

struct rs_ah {
	char *id;
	char **after;
	unsigned after_count;
	char *pd;
	char *qp;                /* port and source GID from its context */
	char *to;                /* the QP it addresses: dgid, dlid from
				  * its description (here or another node's) */
	char *dgid;              /* GID or IPv6 text, or IPv4 */
	uint8_t gid_index;       /* sgid_index */
	uint8_t sl;
	uint8_t port;
	uint8_t hop_limit;
	uint8_t traffic_class;
	uint32_t flow_label;
	bool is_global;
	uint16_t dlid;
	uint8_t src_path_bits;
	int static_rate;         /* enum ibv_rate; 0: IBV_RATE_MAX */
	bool from_wc;            /* made by a ud_send's reply_to */
	uint8_t dgid_raw[16];    /* check() */
};

/*
 * Flow specs.  Each header has the values and masks libcyaml fills and,
 * for addresses, the bytes check() parses them into.  A value given
 * without its mask gets an all-ones mask (pyverbs' rule), applied by
 * check() through rs_flow_spec_prepare().
 */
struct rs_flow_eth {
	char *dst_mac, *src_mac, *dst_mac_mask, *src_mac_mask;
	uint16_t ether_type, vlan_tag, ether_type_mask, vlan_tag_mask;
	uint8_t dst_mac_raw[6], src_mac_raw[6];             /* check() */
	uint8_t dst_mac_mask_raw[6], src_mac_mask_raw[6];   /* check() */
};

struct rs_flow_ipv4 {
	char *src_ip, *dst_ip, *src_ip_mask, *dst_ip_mask;
	uint8_t proto, tos, ttl, flags;
	uint8_t proto_mask, tos_mask, ttl_mask, flags_mask;
	uint8_t src_ip_raw[4], dst_ip_raw[4];               /* check() */
	uint8_t src_ip_mask_raw[4], dst_ip_mask_raw[4];     /* check() */
};

struct rs_flow_ipv6 {
	char *src_ip, *dst_ip, *src_ip_mask, *dst_ip_mask;
	uint32_t flow_label, flow_label_mask;
	uint8_t next_hdr, traffic_class, hop_limit;
	uint8_t next_hdr_mask, traffic_class_mask, hop_limit_mask;
	uint8_t src_ip_raw[16], dst_ip_raw[16];             /* check() */
	uint8_t src_ip_mask_raw[16], dst_ip_mask_raw[16];   /* check() */
};

struct rs_flow_l4 {              /* tcp and udp */
	uint16_t src_port, dst_port, src_port_mask, dst_port_mask;
};

struct rs_flow_vxlan {
	uint32_t tunnel_id, tunnel_id_mask;
};

struct rs_flow_gre {
	uint16_t c_ks_res0_ver, protocol, c_ks_res0_ver_mask, protocol_mask;
	uint32_t key, key_mask;
};

struct rs_flow_mpls {
	uint32_t label, label_mask;
};

struct rs_flow_esp {
	uint32_t spi, seq, spi_mask, seq_mask;
};

struct rs_flow_spec {
	struct rs_flow_eth *eth;
	struct rs_flow_ipv4 *ipv4;
	struct rs_flow_ipv6 *ipv6;
	struct rs_flow_l4 *tcp;
	struct rs_flow_l4 *udp;
	struct rs_flow_vxlan *vxlan;
	struct rs_flow_gre *gre;
	struct rs_flow_mpls *mpls;
	struct rs_flow_esp *esp;
	bool inner;              /* inner headers (IBV_FLOW_SPEC_INNER) */
};

struct rs_flow {
	char *id;
	char **after;
	unsigned after_count;
	char *qp;
	uint16_t priority;
	uint8_t port;
	uint32_t flags;          /* IBV_FLOW_ATTR_FLAGS_* */
	struct rs_flow_spec *specs;
	unsigned specs_count;
};

/* One value/mask pair of a flow header. */
enum rs_addr_type { RS_ADDR_NONE, RS_ADDR_MAC, RS_ADDR_IPV4, RS_ADDR_IPV6 };

struct rs_flow_field {
	const char *key;         /* "dst_mac" */
	const char *mask_key;    /* "dst_mac_mask" */
	uint16_t val, mask;      /* offsets of the value and mask (bytes, for
				  * addresses) in the header struct */
	uint16_t size;           /* of each */
	uint8_t bits;            /* integers narrower than size: all-ones is
				  * this many low bits; 0: the whole size */
	uint8_t addr;            /* enum rs_addr_type: text to parse */
	uint16_t text, mask_text; /* addresses: offsets of the char * */
};

struct rs_flow_hdr {
	const char *name;        /* "eth" */
	uint32_t verbs_type;     /* IBV_FLOW_SPEC_* (IPV4_EXT for ipv4) */
	uint16_t spec_offset;    /* of its pointer in struct rs_flow_spec */
	const struct rs_flow_field *fields;
	unsigned n_fields;
};

extern const struct rs_flow_hdr rs_flow_hdrs[];
extern const unsigned rs_flow_n_hdrs;

/*
 * The mask rule: for each field whose key is in @map and whose mask key is
 * not, set the mask in @hdr to all ones.  Returns how many masks it set.
 */
unsigned rs_flow_apply_mask_rule(void *hdr, const struct rs_node *map,
				 const struct rs_flow_field *fields,
				 unsigned n);
/*
 * Prepare spec @index: exactly one header, addresses parsed, widths
 * checked, mask rule applied.  @node is the spec's mapping.  Returns 0, or
 * -EINVAL with the reason in @msg ("specs[0].eth.dst_mac: 'x' is not a mac
 * address").
 */
int rs_flow_spec_prepare(struct rs_flow_spec *spec,
			 const struct rs_node *node, unsigned index,
			 char *msg, size_t len);
/* The one header a prepared spec has, or NULL. */
const struct rs_flow_hdr *rs_flow_spec_hdr(const struct rs_flow_spec *spec,
					   void **hdr);

enum rs_conn_via { RS_VIA_OOB, RS_VIA_RDMA_CM };

#define RS_CM_DEFAULT_PORT 7471

struct rs_connection {
	char *id;
	char **after;
	unsigned after_count;
	char *a;
	char *b;
	int via;                 /* enum rs_conn_via */
	int mtu;                 /* IBV_MTU_*; 0: the port's active mtu */
	uint8_t timeout;
	uint8_t retry_cnt;
	uint8_t rnr_retry;
	uint8_t min_rnr_timer;
	uint8_t max_rd_atomic;
	uint8_t max_dest_rd_atomic;
	uint8_t sl;
	uint8_t traffic_class;
	uint8_t hop_limit;       /* when given; else RS_PEER_HOP_LIMIT */
	uint32_t flow_label;
	int static_rate;         /* enum ibv_rate; 0: IBV_RATE_MAX */
	uint32_t psn;            /* both sides' sq_psn ... */
	uint32_t a_psn, b_psn;   /* ... unless given for one side */
	/* INIT qp_access_flags: both sides', unless given for one side;
	 * the engine's default when none is given (rs_conn_access()). */
	int access, a_access, b_access;
	uint16_t port;           /* rdma_cm; 0: RS_CM_DEFAULT_PORT */
	char *ip;                /* rdma_cm: the address b listens on */
};

/* `wc_flags:` of an extended CQ: IBV_WC_EX_WITH_*, lowercase. */
static const cyaml_strval_t rs_cq_wc_flag_names[] = {
	{ "byte_len", IBV_WC_EX_WITH_BYTE_LEN },
	{ "imm", IBV_WC_EX_WITH_IMM },
	{ "qp_num", IBV_WC_EX_WITH_QP_NUM },
	{ "src_qp", IBV_WC_EX_WITH_SRC_QP },
	{ "slid", IBV_WC_EX_WITH_SLID },
	{ "sl", IBV_WC_EX_WITH_SL },
	{ "dlid_path_bits", IBV_WC_EX_WITH_DLID_PATH_BITS },
	{ "completion_timestamp", IBV_WC_EX_WITH_COMPLETION_TIMESTAMP },
	{ "cvlan", IBV_WC_EX_WITH_CVLAN },
	{ "flow_tag", IBV_WC_EX_WITH_FLOW_TAG },
	{ "tm_info", IBV_WC_EX_WITH_TM_INFO },
	{ "completion_timestamp_wallclock",
	  IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK },
};

extern const struct rdmascn_kind rs_kind_context;
extern const struct rdmascn_kind rs_kind_pd;
extern const struct rdmascn_kind rs_kind_xrcd;
extern const struct rdmascn_kind rs_kind_dm;
extern const struct rdmascn_kind rs_kind_mr;
extern const struct rdmascn_kind rs_kind_mw;
extern const struct rdmascn_kind rs_kind_cq;
extern const struct rdmascn_kind rs_kind_srq;
extern const struct rdmascn_kind rs_kind_parent_domain;
extern const struct rdmascn_kind rs_kind_qp;
extern const struct rdmascn_kind rs_kind_ah;
extern const struct rdmascn_kind rs_kind_flow;
extern const struct rdmascn_kind rs_kind_connection;

/* In section order, NULL-terminated. */
extern const struct rdmascn_kind *const rs_core_objects[];

/* Their ops (kind_NAME.c), which their kinds (kind_NAME_schema.c) name. */
extern const struct rdmascn_ops rs_ops_context;
extern const struct rdmascn_ops rs_ops_pd;
extern const struct rdmascn_ops rs_ops_xrcd;
extern const struct rdmascn_ops rs_ops_dm;
extern const struct rdmascn_ops rs_ops_mr;
extern const struct rdmascn_ops rs_ops_mw;
extern const struct rdmascn_ops rs_ops_cq;
extern const struct rdmascn_ops rs_ops_srq;
extern const struct rdmascn_ops rs_ops_parent_domain;
extern const struct rdmascn_ops rs_ops_qp;
extern const struct rdmascn_ops rs_ops_ah;
extern const struct rdmascn_ops rs_ops_flow;
extern const struct rdmascn_ops rs_ops_connection;

/* --- what the core kinds call of each other's at run time ---------------- */

struct rs_call;
struct rs_dev;
struct rs_live;
struct rs_run;
struct ibv_qp_attr;

/* IBV_ACCESS_* bits as the scenario names them, "local_write|mw_bind"
 * ("0": none), into @buf (kind_mr.c). */
const char *rs_access_text(uint64_t access, char *buf, size_t len);

/* An mr's contents as declared, into @buf of @len bytes (0, or an error
 * at the object: a literal that cannot be read); the `fill=` argument of
 * its registration call; a fill's name (mr_fill.c). */
int rs_mr_fill(struct rs_run *run, struct rs_live *l, void *buf, size_t len);
void rs_mr_fill_arg(struct rs_call *c, const struct rs_obj *obj);
const char *rs_mr_fill_name(int fill);

/* static_rate's names, "max" and the Gb/s of enum ibv_rate ("2.5",
 * "100"), and the name of an ibv_rate (rate.c). */
#define RS_N_RATES 24
extern const cyaml_strval_t rs_rate_names[RS_N_RATES];
const char *rs_rate_name(int rate);

/*
 * A flow's rule as ibv_create_flow() takes it (kind_flow.c): struct
 * ibv_flow_attr, then one ibv_flow_spec_* per prepared spec, multi-byte
 * fields in network order.  *@ret_attr is rs_calloc()ed, *@ret_len bytes
 * (also in attr->size).  0, -EINVAL (no or too many specs, a spec without
 * its header), -E2BIG or -ENOMEM.
 */
int rs_flow_attr_build(const struct rs_flow *f, uint8_t port, void **ret_attr,
		       size_t *ret_len);

/*
 * Whether the device of @dev can import (import.c): a trial on a context
 * of its own, released at once.  @what is "context", "pd" or "mr" (each
 * needs the ones before).  0, or -EOPNOTSUPP with the missing capability
 * named in @why.
 */
int rs_import_trial(const struct rs_dev *dev, const char *what, char *why,
		    unsigned len);

/*
 * dma-buf MRs (dmabuf.c).  rs_dmabuf_trial(): can the device of @dev
 * register one, and can this host make one (/dev/udmabuf)?  0, or
 * -EOPNOTSUPP with why in @why.  rs_dmabuf_make(): a sealed memfd of
 * @size bytes (page multiple) turned into a dma-buf by /dev/udmabuf,
 * mapped at *@ret_map; 0 or -errno, with what failed in @what.
 */
int rs_dmabuf_trial(const struct rs_dev *dev, char *why, unsigned len);
int rs_dmabuf_make(size_t size, int *ret_memfd, int *ret_dmabuf_fd,
		   void **ret_map, const char **ret_what);

/*
 * QP state changes (kind_qp.c), for the qp kind and connections.
 * rs_qp_attr_args() appends the attributes @mask names, but those in
 * @skip (the caller printed them its own way, e.g. a dry run's "qpn of
 * b"), to an ibv_modify_qp call's arguments.  rs_qp_modify() makes that
 * call on @qp for @l (the qp itself, or the connection that moves it),
 * with a hint from the device limits when it fails, and records the new
 * state in the qp's rt.
 */
void rs_qp_attr_args(struct rs_call *c, const struct ibv_qp_attr *attr,
		     int mask, int skip);
int rs_qp_modify(struct rs_run *run, struct rs_live *l, struct rs_live *qp,
		 struct rs_call *c, struct ibv_qp_attr *attr, int mask);

#endif
