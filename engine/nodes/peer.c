// SPDX-License-Identifier: MIT
/*
 * Peer descriptions (peer.h): built from one side's facts, read by the
 * other.  No device here: what is pure about a connection's exchange.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "peer.h"
#include "run.h"
#include "value.h"

void rs_peer_fill(struct rs_peer *p, const char *qp, const char *context,
		  uint32_t qpn, uint32_t psn, uint8_t port,
		  const struct rs_dev *dev)
{
	/* Padding too: the description goes out byte for byte. */
	memset(p, 0, sizeof(*p));
	snprintf(p->qp, sizeof(p->qp), "%s", qp);
	snprintf(p->context, sizeof(p->context), "%s", context);
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
