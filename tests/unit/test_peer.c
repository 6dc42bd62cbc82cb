// SPDX-License-Identifier: MIT
/*
 * Peer descriptions without a device: one built from given facts, the
 * path MTU both sides agree on, the address vector towards the peer, and
 * the description as report facts.  A description is copied byte for
 * byte, as a second host will receive it, before it is used.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "list.h"
#include "peer.h"
#include "run.h"
#include "value.h"

/* fe80::1 and ::ffff:10.0.0.2 */
static const uint8_t gid_ll[16] = { 0xfe, 0x80, [15] = 1 };
static const uint8_t gid_v4[16] = { [10] = 0xff, [11] = 0xff, 10, 0, 0, 2 };

static void dev_fill(struct rs_dev *dev, uint8_t link_layer, int gid_index,
		     const uint8_t *gid, uint16_t lid, enum ibv_mtu mtu)
{
	memset(dev, 0, sizeof(*dev));
	dev->port = 1;
	dev->port_attr.link_layer = link_layer;
	dev->port_attr.lid = lid;
	dev->port_attr.active_mtu = mtu;
	dev->gid_index = gid_index;
	if (gid)
		memcpy(dev->gid.raw, gid, 16);
}

/* What the wire would carry: the bytes, nothing they point to. */
static struct rs_peer sent(const struct rs_peer *p)
{
	unsigned char wire[sizeof(*p)];
	struct rs_peer got;

	memcpy(wire, p, sizeof(wire));
	memcpy(&got, wire, sizeof(got));
	return got;
}

TEST(peer, fill)
{
	char id[RDMASCN_ID_MAX + 1];
	struct rs_dev dev;
	struct rs_peer p;

	dev_fill(&dev, IBV_LINK_LAYER_ETHERNET, 1, gid_v4, 0, IBV_MTU_1024);
	rs_peer_fill(&p, "b", "ctx", 0x11, 7, 1, &dev);
	CHECK_STR(p.qp, "b");
	CHECK_STR(p.context, "ctx");
	CHECK(p.qpn == 0x11 && p.psn == 7 && p.port == 1);
	CHECK(p.gid_index == 1 && !memcmp(p.gid, gid_v4, 16));
	CHECK(p.lid == 0 && p.mtu == IBV_MTU_1024);
	CHECK(p.link_layer == IBV_LINK_LAYER_ETHERNET);

	/* No GID: none is taken from the device, whatever it holds. */
	dev_fill(&dev, IBV_LINK_LAYER_INFINIBAND, -1, gid_ll, 5, IBV_MTU_4096);
	rs_peer_fill(&p, "a", "ctx", 0x12, 0, 2, &dev);
	CHECK(p.gid_index == -1 && p.lid == 5 && p.port == 2);
	CHECK(!memcmp(p.gid, (uint8_t[16]){ 0 }, 16));

	/* A dry run: the file's facts, no device's. */
	rs_peer_fill(&p, "a", "ctx", 0, 3, 1, NULL);
	CHECK(p.qpn == 0 && p.psn == 3 && p.port == 1);
	CHECK(p.gid_index == -1 && p.mtu == 0 && p.lid == 0);

	/* The longest id the schema allows fits. */
	memset(id, 'q', RDMASCN_ID_MAX);
	id[RDMASCN_ID_MAX] = '\0';
	rs_peer_fill(&p, id, id, 0, 0, 1, NULL);
	CHECK_STR(p.qp, id);
	CHECK_STR(p.context, id);

	/* Strings are cut to fit, as snprintf() cut them, the bytes after
	 * them zero (the description goes out byte for byte): a firmware
	 * version of all 64 bytes, no NUL, and a device name. */
	dev_fill(&dev, IBV_LINK_LAYER_ETHERNET, 1, gid_v4, 0, IBV_MTU_1024);
	memset(dev.attr.orig_attr.fw_ver, 'f',
	       sizeof(dev.attr.orig_attr.fw_ver));
	snprintf(dev.name, sizeof(dev.name), "rxe0");
	rs_peer_fill(&p, "a", "ctx", 1, 0, 1, &dev);
	CHECK_UINT(strlen(p.fw_ver), sizeof(p.fw_ver) - 1);
	CHECK(p.fw_ver[0] == 'f' && p.fw_ver[sizeof(p.fw_ver) - 2] == 'f');
	CHECK_STR(p.device, "rxe0");
	for (size_t i = strlen(p.device); i < sizeof(p.device); i++)
		CHECK(!p.device[i]);
}

TEST(peer, mtu)
{
	struct rs_dev dev;
	struct rs_peer a, b;

	dev_fill(&dev, IBV_LINK_LAYER_ETHERNET, 1, gid_v4, 0, IBV_MTU_4096);
	rs_peer_fill(&a, "a", "c1", 1, 0, 1, &dev);
	dev_fill(&dev, IBV_LINK_LAYER_ETHERNET, 1, gid_v4, 0, IBV_MTU_1024);
	rs_peer_fill(&b, "b", "c2", 2, 0, 1, &dev);
	/* The smaller active MTU, seen from either side. */
	CHECK(rs_peer_mtu(0, &a, &b) == IBV_MTU_1024);
	CHECK(rs_peer_mtu(0, &b, &a) == IBV_MTU_1024);
	/* The file's mtu wins, also above what a port has. */
	CHECK(rs_peer_mtu(IBV_MTU_512, &a, &b) == IBV_MTU_512);
	CHECK(rs_peer_mtu(IBV_MTU_2048, &a, &b) == IBV_MTU_2048);
	/* A dry run knows none. */
	rs_peer_fill(&a, "a", "c1", 0, 0, 1, NULL);
	rs_peer_fill(&b, "b", "c2", 0, 0, 1, NULL);
	CHECK(rs_peer_mtu(0, &a, &b) == 0);
}

TEST(peer, av)
{
	struct rs_dev dev;
	struct rs_peer self, peer, got;
	struct ibv_ah_attr ah;
	/* Every field of the file's path lands in the AV. */
	const struct rs_path path = {
		.sl = 2, .traffic_class = 96, .hop_limit = 1,
		.static_rate = IBV_RATE_25_GBPS, .flow_label = 0x12345,
	};
	const struct rs_path dflt = { .hop_limit = RS_PEER_HOP_LIMIT };

	/* RoCE: a GRH to the peer's GID, from our GID index. */
	dev_fill(&dev, IBV_LINK_LAYER_ETHERNET, 3, gid_ll, 0, IBV_MTU_1024);
	rs_peer_fill(&self, "a", "c1", 1, 0, 1, &dev);
	dev_fill(&dev, IBV_LINK_LAYER_ETHERNET, 1, gid_v4, 0, IBV_MTU_1024);
	rs_peer_fill(&peer, "b", "c2", 2, 0, 1, &dev);
	got = sent(&peer);
	memset(&ah, 0, sizeof(ah));
	rs_peer_av(&self, &got, &path, &ah);
	CHECK(ah.is_global == 1 && ah.port_num == 1 && ah.sl == 2);
	CHECK(!memcmp(ah.grh.dgid.raw, gid_v4, 16));
	CHECK(ah.grh.sgid_index == 3 && ah.grh.hop_limit == 1);
	CHECK(ah.grh.traffic_class == 96 && ah.dlid == 0);
	CHECK(ah.grh.flow_label == 0x12345 &&
	      ah.static_rate == IBV_RATE_25_GBPS);

	/* InfiniBand, no GIDs: to the peer's LID. */
	dev_fill(&dev, IBV_LINK_LAYER_INFINIBAND, -1, NULL, 4, IBV_MTU_4096);
	rs_peer_fill(&self, "a", "c1", 1, 0, 2, &dev);
	dev_fill(&dev, IBV_LINK_LAYER_INFINIBAND, -1, NULL, 9, IBV_MTU_4096);
	rs_peer_fill(&peer, "b", "c2", 2, 0, 1, &dev);
	got = sent(&peer);
	memset(&ah, 0, sizeof(ah));
	rs_peer_av(&self, &got, &dflt, &ah);
	CHECK(!ah.is_global && ah.dlid == 9 && ah.port_num == 2);

	/* InfiniBand, the peer has a GID and we none: global, from
	 * index 0. */
	dev_fill(&dev, IBV_LINK_LAYER_INFINIBAND, 0, gid_ll, 9, IBV_MTU_4096);
	rs_peer_fill(&peer, "b", "c2", 2, 0, 1, &dev);
	got = sent(&peer);
	memset(&ah, 0, sizeof(ah));
	rs_peer_av(&self, &got, &dflt, &ah);
	CHECK(ah.is_global == 1 && ah.grh.sgid_index == 0);
	CHECK(!memcmp(ah.grh.dgid.raw, gid_ll, 16) && ah.dlid == 0);
}

TEST(peer, describe)
{
	struct rs_val *v = rs_val_obj();
	struct rs_dev dev;
	struct rs_peer p;

	dev_fill(&dev, IBV_LINK_LAYER_ETHERNET, 1, gid_v4, 0, IBV_MTU_1024);
	rs_peer_fill(&p, "b", "ctx", 0x11, 7, 1, &dev);
	rs_peer_describe(&p, v);
	CHECK(!rs_val_check(v));
	CHECK_STR(rs_val_get_str(v, "qp"), "b");
	CHECK_STR(rs_val_get_str(v, "context"), "ctx");
	CHECK(rs_val_get_u64(v, "qpn") == 0x11);
	CHECK(rs_val_get_u64(v, "psn") == 7);
	CHECK(rs_val_get_u64(v, "port") == 1);
	CHECK_STR(rs_val_get_str(v, "link_layer"), "Ethernet");
	CHECK(rs_val_get_u64(v, "gid_index") == 1);
	CHECK_STR(rs_val_get_str(v, "gid"), "::ffff:10.0.0.2");
	CHECK(rs_val_get_u64(v, "mtu") == 1024);
	rs_val_free(v);

	/* No GID: none printed. */
	v = rs_val_obj();
	dev_fill(&dev, IBV_LINK_LAYER_INFINIBAND, -1, NULL, 9, IBV_MTU_4096);
	rs_peer_fill(&p, "b", "ctx", 0x11, 7, 1, &dev);
	rs_peer_describe(&p, v);
	CHECK(rs_val_get_u64(v, "lid") == 9);
	CHECK(rs_val_get(v, "gid") == NULL);
	CHECK(rs_val_get_u64(v, "mtu") == 4096);
	rs_val_free(v);

	/* A dry run: what the file says, nothing about a device. */
	v = rs_val_obj();
	rs_peer_fill(&p, "b", "ctx", 0, 7, 1, NULL);
	rs_peer_describe(&p, v);
	CHECK(rs_val_get_u64(v, "psn") == 7);
	CHECK(!rs_val_get(v, "mtu") && !rs_val_get(v, "gid_index") &&
	      !rs_val_get(v, "lid"));
	rs_val_free(v);
}

/* Two sides of one model on RoCE v2, 4096 bytes, 25 Gb/s 4X: alike. */
static void uniform_pair(struct rs_peer *a, struct rs_peer *b)
{
	struct rs_dev dev;

	dev_fill(&dev, IBV_LINK_LAYER_ETHERNET, 1, gid_v4, 0, IBV_MTU_4096);
	dev.gid_type = IBV_GID_TYPE_ROCE_V2;
	dev.port_attr.active_speed = 32;
	dev.port_attr.active_width = 2;
	dev.attr.orig_attr.vendor_id = 0x02c9;
	dev.attr.orig_attr.vendor_part_id = 4125;
	snprintf(dev.attr.orig_attr.fw_ver, sizeof(dev.attr.orig_attr.fw_ver),
		 "22.39.1002");
	snprintf(dev.name, sizeof(dev.name), "mlx5_0");
	rs_peer_fill(a, "qa", "ca", 1, 0, 1, &dev);
	snprintf(a->node, sizeof(a->node), "h[0]");
	snprintf(dev.name, sizeof(dev.name), "mlx5_1");
	rs_peer_fill(b, "qb", "cb", 2, 0, 1, &dev);
	snprintf(b->node, sizeof(b->node), "h[1]");
}

TEST(peer, uniform)
{
	struct rs_peer a, b, got;
	char why[512];

	uniform_pair(&a, &b);
	got = sent(&b);
	CHECK(got.active_speed == 32 && got.active_width == 2);
	CHECK(got.gid_type == IBV_GID_TYPE_ROCE_V2);
	CHECK_STR(got.fw_ver, "22.39.1002");
	CHECK_STR(got.device, "mlx5_1");
	CHECK(!rs_peer_uniform(&a, &got, 0, why, sizeof(why)));

	/* The MTU, both nodes and both values named, a's first. */
	b.mtu = IBV_MTU_1024;
	CHECK(rs_peer_uniform(&a, &b, 0, why, sizeof(why)) == -EPROTO);
	CHECK_STR(why, "node 'h[0]' (mlx5_0 port 1) has active MTU 4096, "
		  "node 'h[1]' (mlx5_1 port 1) has 1024");
	/* The file's mtu fits both: the path is that, not a mismatch. */
	CHECK(!rs_peer_uniform(&a, &b, IBV_MTU_1024, why, sizeof(why)));
	CHECK(!rs_peer_uniform(&a, &b, IBV_MTU_512, why, sizeof(why)));
	/* Above one of them: still one. */
	CHECK(rs_peer_uniform(&a, &b, IBV_MTU_2048, why, sizeof(why)) ==
	      -EPROTO);

	uniform_pair(&a, &b);
	b.link_layer = IBV_LINK_LAYER_INFINIBAND;
	CHECK(rs_peer_uniform(&a, &b, 0, why, sizeof(why)) == -EPROTO);
	CHECK_STR(why, "node 'h[0]' (mlx5_0 port 1) has link layer Ethernet, "
		  "node 'h[1]' (mlx5_1 port 1) has InfiniBand");

	uniform_pair(&a, &b);
	b.active_speed = 64;
	CHECK(rs_peer_uniform(&a, &b, 0, why, sizeof(why)) == -EPROTO);
	CHECK_STR(why, "node 'h[0]' (mlx5_0 port 1) has active speed 25 Gb/s "
		  "(EDR), node 'h[1]' (mlx5_1 port 1) has 50 Gb/s (HDR)");

	uniform_pair(&a, &b);
	a.active_width = 1;
	CHECK(rs_peer_uniform(&a, &b, 0, why, sizeof(why)) == -EPROTO);
	CHECK_STR(why, "node 'h[0]' (mlx5_0 port 1) has active width 1X, "
		  "node 'h[1]' (mlx5_1 port 1) has 4X");

	uniform_pair(&a, &b);
	b.gid_type = IBV_GID_TYPE_ROCE_V1;
	b.gid_index = 0;
	CHECK(rs_peer_uniform(&a, &b, 0, why, sizeof(why)) == -EPROTO);
	CHECK_STR(why, "node 'h[0]' (mlx5_0 port 1) has GID type RoCE v2 "
		  "(index 1), node 'h[1]' (mlx5_1 port 1) has RoCE v1 "
		  "(index 0)");
	/* Without a GRH on one side no GID is used: no GID type to
	 * compare. */
	b.gid_index = -1;
	CHECK(!rs_peer_uniform(&a, &b, 0, why, sizeof(why)));

	/* Firmware: compared on one model only. */
	uniform_pair(&a, &b);
	snprintf(b.fw_ver, sizeof(b.fw_ver), "22.40.1000");
	CHECK(rs_peer_uniform(&a, &b, 0, why, sizeof(why)) == -EPROTO);
	CHECK_STR(why, "node 'h[0]' (mlx5_0 port 1) has firmware 22.39.1002, "
		  "node 'h[1]' (mlx5_1 port 1) has 22.40.1000");
	b.vendor_part_id = 4129;
	CHECK(!rs_peer_uniform(&a, &b, 0, why, sizeof(why)));

	/* A dry run: no device facts, nothing to differ. */
	rs_peer_fill(&a, "qa", "ca", 0, 0, 1, NULL);
	rs_peer_fill(&b, "qb", "cb", 0, 0, 1, NULL);
	CHECK(!rs_peer_uniform(&a, &b, 0, why, sizeof(why)));
}
