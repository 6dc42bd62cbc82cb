/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_PEER_H
#define RDMASCN_PEER_H

#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "public_names.h"
#include "rdmascn/kind.h"

struct rs_dev;
struct rs_val;

/* GRH hop limit on the wire: 1 stops at the first router. */
#define RS_PEER_HOP_LIMIT 64

/*
 * A peer description: what one side of a connection tells the other, so
 * that the other can take its QP to RTR and RTS towards it; what
 * ibv_rc_pingpong sends over its socket, and what a second host will
 * send over the network.  Plain data of a fixed size, no pointers: it is
 * copied byte for byte.  Each side describes itself (rs_peer_fill()) and
 * connects with the other's description; nothing else of the other side
 * is read.  In a dry run only the ids, psn and port are known: mtu is 0
 * (no device facts), gid_index -1, the rest 0.
 */
struct rs_peer {
	uint32_t qpn;
	uint32_t psn;            /* its sq_psn: the other side's rq_psn */
	int32_t gid_index;       /* -1: none (InfiniBand without GRH) */
	uint8_t gid[16];         /* at gid_index, in network order */
	uint16_t lid;
	uint8_t port;
	uint8_t mtu;             /* enum ibv_mtu: the port's active_mtu */
	uint8_t link_layer;      /* IBV_LINK_LAYER_* */
	/* The port facts two nodes must agree on (rs_peer_uniform()). */
	uint8_t gid_type;        /* enum ibv_gid_type at gid_index */
	uint8_t active_speed;    /* ibv_port_attr's codes */
	uint8_t active_width;
	uint32_t vendor_id;
	uint32_t vendor_part_id;
	char fw_ver[64];
	char device[IBV_SYSFS_NAME_MAX];
	char node[RDMASCN_ID_MAX + 1];    /* its node's id; "": none */
	char qp[RDMASCN_ID_MAX + 1];      /* the QP's id in the file */
	char context[RDMASCN_ID_MAX + 1]; /* its context's id */
};

/*
 * Describe QP @qp, numbered @qpn, of context @context, on @port of
 * device @dev (NULL in a dry run), its send queue starting at @psn.  The
 * ids are at most RDMASCN_ID_MAX long, as the schema has them.
 */
void rs_peer_fill(struct rs_peer *p, const char *qp, const char *context,
		  uint32_t qpn, uint32_t psn, uint8_t port,
		  const struct rs_dev *dev);

/*
 * Whether @a's and @b's ports, the two sides of a connection between
 * nodes, can carry it: link layer, active MTU, active speed and width,
 * the GID type of the GID index each uses, and the firmware where both
 * are one model (vendor and part id).  A difference there shows up
 * later as a retry counter exceeded, or not at all on a device that
 * sends frames its link drops.  An MTU difference is none when @want
 * (the connection's `mtu:`, 0: none) fits both.  0, or -EPROTO with the
 * first difference in @why (@len bytes): "node 'x' (dev port 1) has
 * active MTU 1024, node 'y' (dev port 1) has 4096".  Without device
 * facts (a dry run) nothing differs.
 */
int rs_peer_uniform(const struct rs_peer *a, const struct rs_peer *b,
		    enum ibv_mtu want, char *why, size_t len);

/* The path MTU: @want when given (not 0), else the smaller of the two
 * sides' active MTUs. */
enum ibv_mtu rs_peer_mtu(enum ibv_mtu want, const struct rs_peer *self,
			 const struct rs_peer *peer);

/* What a connection's file says of its path, the same both ways; the
 * GRH's fields apply only where there is a GRH. */
struct rs_path {
	uint8_t sl;
	uint8_t traffic_class;
	uint8_t hop_limit;       /* RS_PEER_HOP_LIMIT unless given */
	uint8_t static_rate;     /* enum ibv_rate; IBV_RATE_MAX: none */
	uint32_t flow_label;
};

/*
 * The address vector from @self towards @peer along @path: with a GRH
 * when @self is on Ethernet or @peer has a GID (InfiniBand with a
 * gid_index), else to @peer's LID.
 */
void rs_peer_av(const struct rs_peer *self, const struct rs_peer *peer,
		const struct rs_path *path, struct ibv_ah_attr *ah);

/* @p as facts for a report: numbers as numbers, the GID as text, the
 * mtu in bytes; the device's facts only when known. */
void rs_peer_describe(const struct rs_peer *p, struct rs_val *v);

#endif
