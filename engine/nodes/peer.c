// SPDX-License-Identifier: MIT
/*
 * Peer descriptions (peer.h): built from one side's facts, read by the
 * other.  No device here: what is pure about a connection's exchange.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "peer.h"
#include "run.h"
#include "str_put.h"
#include "value.h"

void rs_peer_fill(struct rs_peer *p, const char *qp, const char *context,
		  uint32_t qpn, uint32_t psn, uint8_t port,
		  const struct rs_dev *dev)
{
	/* Padding too: the description goes out byte for byte. */
	memset(p, 0, sizeof(*p));
	rs_str_put(p->qp, sizeof(p->qp), 0, qp);
	rs_str_put(p->context, sizeof(p->context), 0, context);
	p->qpn = qpn;
	p->psn = psn;
	p->port = port;
	p->gid_index = -1;
	if (!dev)
		return;
	p->gid_index = dev->gid_index;
	if (dev->gid_index >= 0)
		memcpy(p->gid, dev->gid.raw, sizeof(p->gid));
	p->lid = dev->port_attr.lid;
	p->mtu = dev->port_attr.active_mtu;
	p->link_layer = dev->port_attr.link_layer;
	p->gid_type = dev->gid_index >= 0 ? (uint8_t)dev->gid_type : 0;
	p->active_speed = dev->port_attr.active_speed;
	p->active_width = dev->port_attr.active_width;
	p->vendor_id = dev->attr.orig_attr.vendor_id;
	p->vendor_part_id = dev->attr.orig_attr.vendor_part_id;
	rs_str_put(p->fw_ver, sizeof(p->fw_ver), 0, dev->attr.orig_attr.fw_ver);
	rs_str_put(p->device, sizeof(p->device), 0, dev->name);
}

static const char *link_layer_name(uint8_t ll)
{
	return ll == IBV_LINK_LAYER_ETHERNET ? "Ethernet" :
	       ll == IBV_LINK_LAYER_INFINIBAND ? "InfiniBand" : "unspecified";
}

static const char *gid_type_name(uint8_t t)
{
	return t == IBV_GID_TYPE_ROCE_V2 ? "RoCE v2" :
	       t == IBV_GID_TYPE_ROCE_V1 ? "RoCE v1" : "IB";
}

/* ibv_port_attr.active_speed's codes, as ibstat names them. */
static void speed_text(uint8_t s, char *buf, size_t len)
{
	static const struct { uint8_t code; const char *text; } t[] = {
		{ 1, "2.5 Gb/s (SDR)" }, { 2, "5 Gb/s (DDR)" },
		{ 4, "10 Gb/s (QDR)" }, { 8, "10 Gb/s (FDR10)" },
		{ 16, "14 Gb/s (FDR)" }, { 32, "25 Gb/s (EDR)" },
		{ 64, "50 Gb/s (HDR)" }, { 128, "100 Gb/s (NDR)" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].code == s) {
			snprintf(buf, len, "%s", t[i].text);
			return;
		}
	snprintf(buf, len, "code %u", s);
}

static void width_text(uint8_t w, char *buf, size_t len)
{
	static const struct { uint8_t code; const char *text; } t[] = {
		{ 1, "1X" }, { 2, "4X" }, { 4, "8X" }, { 8, "12X" },
		{ 16, "2X" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].code == w) {
			snprintf(buf, len, "%s", t[i].text);
			return;
		}
	snprintf(buf, len, "code %u", w);
}

/* "node 'x' (dev port 1) has WHAT A, node 'y' (dev port 1) has B" */
static int differ(const struct rs_peer *a, const struct rs_peer *b,
		  const char *what, const char *va, const char *vb,
		  char *why, size_t len)
{
	snprintf(why, len, "node '%s' (%s port %u) has %s %s, node '%s' "
		 "(%s port %u) has %s", a->node, a->device, a->port, what, va,
		 b->node, b->device, b->port, vb);
	return -EPROTO;
}

int rs_peer_uniform(const struct rs_peer *a, const struct rs_peer *b,
		    enum ibv_mtu want, char *why, size_t len)
{
	char va[32], vb[32];

	/* A dry run: no device facts to compare. */
	if (!a->mtu || !b->mtu)
		return 0;
	if (a->link_layer != b->link_layer)
		return differ(a, b, "link layer",
			      link_layer_name(a->link_layer),
			      link_layer_name(b->link_layer), why, len);
	/* The file's mtu, when both ports carry it, is the path's. */
	if (a->mtu != b->mtu && !(want && want <= a->mtu && want <= b->mtu)) {
		snprintf(va, sizeof(va), "%u", 128u << a->mtu);
		snprintf(vb, sizeof(vb), "%u", 128u << b->mtu);
		return differ(a, b, "active MTU", va, vb, why, len);
	}
	if (a->active_speed != b->active_speed) {
		speed_text(a->active_speed, va, sizeof(va));
		speed_text(b->active_speed, vb, sizeof(vb));
		return differ(a, b, "active speed", va, vb, why, len);
	}
	if (a->active_width != b->active_width) {
		width_text(a->active_width, va, sizeof(va));
		width_text(b->active_width, vb, sizeof(vb));
		return differ(a, b, "active width", va, vb, why, len);
	}
	/* InfiniBand without a GRH uses no GID on either side. */
	if (a->gid_index >= 0 && b->gid_index >= 0 &&
	    a->gid_type != b->gid_type) {
		snprintf(va, sizeof(va), "%s (index %d)",
			 gid_type_name(a->gid_type), (int)a->gid_index);
		snprintf(vb, sizeof(vb), "%s (index %d)",
			 gid_type_name(b->gid_type), (int)b->gid_index);
		return differ(a, b, "GID type", va, vb, why, len);
	}
	/* Firmware only means something between devices of one model. */
	if (a->vendor_id == b->vendor_id &&
	    a->vendor_part_id == b->vendor_part_id &&
	    strcmp(a->fw_ver, b->fw_ver))
		return differ(a, b, "firmware", a->fw_ver[0] ? a->fw_ver :
			      "(none)", b->fw_ver[0] ? b->fw_ver : "(none)",
			      why, len);
	return 0;
}

enum ibv_mtu rs_peer_mtu(enum ibv_mtu want, const struct rs_peer *self,
			 const struct rs_peer *peer)
{
	if (want)
		return want;
	return self->mtu < peer->mtu ? self->mtu : peer->mtu;
}

void rs_peer_av(const struct rs_peer *self, const struct rs_peer *peer,
		const struct rs_path *path, struct ibv_ah_attr *ah)
{
	ah->port_num = self->port;
	ah->sl = path->sl;
	ah->static_rate = path->static_rate;
	if (self->link_layer == IBV_LINK_LAYER_ETHERNET ||
	    peer->gid_index >= 0) {
		ah->is_global = 1;
		memcpy(ah->grh.dgid.raw, peer->gid, sizeof(peer->gid));
		ah->grh.sgid_index = self->gid_index >= 0 ?
				     (uint8_t)self->gid_index : 0;
		ah->grh.hop_limit = path->hop_limit;
		ah->grh.traffic_class = path->traffic_class;
		ah->grh.flow_label = path->flow_label;
	} else {
		ah->dlid = peer->lid;
	}
}

void rs_peer_describe(const struct rs_peer *p, struct rs_val *v)
{
	char gid[INET6_ADDRSTRLEN];

	rs_val_put_str(v, "qp", p->qp);
	rs_val_put_str(v, "context", p->context);
	rs_val_put_u64(v, "qpn", p->qpn);
	rs_val_put_u64(v, "psn", p->psn);
	rs_val_put_u64(v, "port", p->port);
	if (!p->mtu)
		return;    /* a dry run: no device facts */
	rs_val_put_str(v, "link_layer",
		       p->link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet" :
		       "InfiniBand");
	rs_val_put_u64(v, "lid", p->lid);
	rs_val_put_i64(v, "gid_index", p->gid_index);
	if (p->gid_index >= 0) {
		inet_ntop(AF_INET6, p->gid, gid, sizeof(gid));
		rs_val_put_str(v, "gid", gid);
	}
	rs_val_put_u64(v, "mtu", 128u << p->mtu);
}
