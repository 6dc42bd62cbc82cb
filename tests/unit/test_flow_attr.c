// SPDX-License-Identifier: MIT
/*
 * The flow rule encoder, byte for byte, without a device: struct
 * ibv_flow_attr followed by the specs, as ibv_create_flow() reads them.
 * The expected bytes are written out by hand from the layouts in
 * <infiniband/verbs.h> (enum type and padding included), with the header
 * fields in network order; the attr and spec headers (type, size, ...)
 * are host-order integers, so the literals hold for little-endian hosts.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "alloc.h"
#include "check.h"
#include "list.h"
#include "kinds.h"
#include "live.h"

/* The expected bytes are for little-endian hosts. */
static void little_endian_only(void)
{
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	SKIP("expected bytes are written for little-endian hosts");
#endif
}

/* The length first: CHECK_MEM compares as many bytes as we want. */
static void check_bytes(const void *got, size_t got_len, const uint8_t *want,
			size_t want_len)
{
	if (got_len != want_len) {
		rs_check_dump("got", got, got_len);
		rs_check_dump("want", want, want_len);
	}
	CHECK_UINT(got_len, want_len);
	CHECK_MEM(got, want, want_len);
}

/* scenarios/flow_steering.yaml's rule, masks as check() leaves them. */
TEST(flow_attr, eth_ipv4_udp)
{
	struct rs_flow_eth eth = {
		.ether_type = 0x0800, .ether_type_mask = 0xffff,
		.dst_mac_raw = { 0x02, 0x00, 0x0a, 0x63, 0x00, 0x01 },
		.dst_mac_mask_raw = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
	};
	struct rs_flow_ipv4 ip = {
		.proto = 17, .proto_mask = 0xff,
		.dst_ip_raw = { 10, 99, 0, 0 },
		.dst_ip_mask_raw = { 255, 255, 255, 0 },
	};
	struct rs_flow_l4 udp = { .dst_port = 4791, .dst_port_mask = 0xffff };
	struct rs_flow_spec specs[3] = {
		{ .eth = &eth }, { .ipv4 = &ip }, { .udp = &udp },
	};
	struct rs_flow f = {
		.priority = 3, .specs = specs, .specs_count = 3,
	};
	static const uint8_t want[] = {
		/* ibv_flow_attr: 20 bytes */
		0, 0, 0, 0,             /* comp_mask */
		0, 0, 0, 0,             /* type IBV_FLOW_ATTR_NORMAL */
		108, 0,                 /* size: 20 + 40 + 32 + 16 */
		3, 0,                   /* priority */
		3,                      /* num_of_specs */
		1,                      /* port */
		0, 0,                   /* padding */
		0, 0, 0, 0,             /* flags */
		/* ibv_flow_spec_eth: 40 bytes */
		0x20, 0, 0, 0,          /* IBV_FLOW_SPEC_ETH */
		40, 0,                  /* size */
		0x02, 0x00, 0x0a, 0x63, 0x00, 0x01,     /* val.dst_mac */
		0, 0, 0, 0, 0, 0,                       /* val.src_mac */
		0x08, 0x00,                             /* val.ether_type */
		0, 0,                                   /* val.vlan_tag */
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff,     /* mask.dst_mac */
		0, 0, 0, 0, 0, 0,                       /* mask.src_mac */
		0xff, 0xff,                             /* mask.ether_type */
		0, 0,                                   /* mask.vlan_tag */
		0, 0,                   /* padding to 4 */
		/* ibv_flow_spec_ipv4_ext: 32 bytes */
		0x32, 0, 0, 0,          /* IBV_FLOW_SPEC_IPV4_EXT */
		32, 0,                  /* size */
		0, 0,                   /* padding: the filter is 4-aligned */
		0, 0, 0, 0,             /* val.src_ip */
		10, 99, 0, 0,           /* val.dst_ip */
		17, 0, 0, 0,            /* val.proto, tos, ttl, flags */
		0, 0, 0, 0,             /* mask.src_ip */
		255, 255, 255, 0,       /* mask.dst_ip */
		0xff, 0, 0, 0,          /* mask.proto, tos, ttl, flags */
		/* ibv_flow_spec_tcp_udp: 16 bytes */
		0x41, 0, 0, 0,          /* IBV_FLOW_SPEC_UDP */
		16, 0,                  /* size */
		0x12, 0xb7,             /* val.dst_port 4791 */
		0, 0,                   /* val.src_port */
		0xff, 0xff,             /* mask.dst_port */
		0, 0,                   /* mask.src_port */
		0, 0,                   /* padding to 4 */
	};
	void *attr = NULL;
	size_t len = 0;

	little_endian_only();
	CHECK_INT(rs_flow_attr_build(&f, 1, &attr, &len), 0);
	check_bytes(attr, len, want, sizeof(want));
	rs_free(attr);
}

/* A tunnel and an inner header; flags and port pass through. */
TEST(flow_attr, vxlan_inner_tcp)
{
	struct rs_flow_vxlan vx = { .tunnel_id = 0x123456,
				    .tunnel_id_mask = 0xffffff };
	struct rs_flow_l4 tcp = { .src_port = 80, .src_port_mask = 0xffff };
	struct rs_flow_spec specs[2] = {
		{ .vxlan = &vx }, { .tcp = &tcp, .inner = true },
	};
	struct rs_flow f = {
		.priority = 7, .flags = IBV_FLOW_ATTR_FLAGS_DONT_TRAP,
		.specs = specs, .specs_count = 2,
	};
	static const uint8_t want[] = {
		0, 0, 0, 0,  0, 0, 0, 0,        /* comp_mask, type */
		52, 0,  7, 0,  2,  2,  0, 0,    /* size, priority, n, port */
		2, 0, 0, 0,                     /* flags: DONT_TRAP */
		/* ibv_flow_spec_tunnel: 16 bytes */
		0x50, 0, 0, 0,  16, 0,  0, 0,   /* VXLAN_TUNNEL, size, pad */
		0x00, 0x12, 0x34, 0x56,         /* val.tunnel_id */
		0x00, 0xff, 0xff, 0xff,         /* mask.tunnel_id */
		/* ibv_flow_spec_tcp_udp, inner: 16 bytes */
		0x40, 0x01, 0, 0,               /* TCP | INNER (0x140) */
		16, 0,
		0, 0,  0, 80,                   /* val.dst_port, src_port */
		0, 0,  0xff, 0xff,              /* mask */
		0, 0,
	};
	void *attr = NULL;
	size_t len = 0;

	little_endian_only();
	CHECK_INT(rs_flow_attr_build(&f, 2, &attr, &len), 0);
	check_bytes(attr, len, want, sizeof(want));
	rs_free(attr);
}

/* The other headers: sizes and the network-order fields at their
 * offsets (type 4 + size 2 + 2 padding, then val, then mask). */
TEST(flow_attr, other_headers)
{
	struct rs_flow_ipv6 ip6 = { .flow_label = 0xabcde,
				    .flow_label_mask = 0xfffff,
				    .next_hdr = 17, .next_hdr_mask = 0xff };
	struct rs_flow_gre gre = { .protocol = 0x6558, .protocol_mask = 0xffff,
				   .key = 0x01020304, .key_mask = 0xffffffff };
	struct rs_flow_mpls mpls = { .label = 0x12345, .label_mask = 0xfffff };
	struct rs_flow_esp esp = { .spi = 0xdeadbeef, .spi_mask = 0xffffffff };
	struct rs_flow_spec specs[4] = {
		{ .ipv6 = &ip6 }, { .gre = &gre }, { .mpls = &mpls },
		{ .esp = &esp },
	};
	struct rs_flow f = { .specs = specs, .specs_count = 4 };
	const uint8_t *p, *s;
	void *attr = NULL;
	size_t len = 0;

	little_endian_only();
	CHECK_INT(rs_flow_attr_build(&f, 1, &attr, &len), 0);
	/* 20 + ipv6 88 + gre 24 + mpls 16 + esp 24 */
	CHECK_UINT(len, 172);
	p = attr;
	CHECK_UINT(p[8], 172);
	CHECK_UINT(p[9], 0);
	CHECK_UINT(p[12], 4);

	s = p + 20;                     /* ipv6: val at 8, 40 bytes each */
	CHECK_UINT(s[0], 0x31);
	CHECK_UINT(s[4], 88);
	CHECK_MEM(s + 8 + 32, "\x00\x0a\xbc\xde", 4);  /* flow_label */
	CHECK_UINT(s[8 + 36], 17);                          /* next_hdr */
	CHECK_MEM(s + 48 + 32, "\x00\x0f\xff\xff", 4); /* its mask */
	CHECK_UINT(s[48 + 36], 0xff);

	s += 88;                        /* gre: c_ks_res0_ver, protocol, key */
	CHECK_UINT(s[0], 0x51);
	CHECK_UINT(s[4], 24);
	CHECK_MEM(s + 8, "\x00\x00\x65\x58\x01\x02\x03\x04", 8);
	CHECK_MEM(s + 16, "\x00\x00\xff\xff\xff\xff\xff\xff", 8);

	s += 24;                        /* mpls: label */
	CHECK_UINT(s[0], 0x60);
	CHECK_UINT(s[4], 16);
	CHECK_MEM(s + 8, "\x00\x01\x23\x45\x00\x0f\xff\xff", 8);

	s += 16;                        /* esp: spi, seq */
	CHECK_UINT(s[0], 0x34);
	CHECK_UINT(s[4], 24);
	CHECK_MEM(s + 8, "\xde\xad\xbe\xef\x00\x00\x00\x00", 8);
	CHECK_MEM(s + 16, "\xff\xff\xff\xff\x00\x00\x00\x00", 8);
	rs_free(attr);
}

TEST(flow_attr, errors)
{
	struct rs_flow_l4 l4 = { 0 };
	struct rs_flow_eth eth = { 0 };
	struct rs_flow_spec none = { 0 };
	struct rs_flow_spec two = { .eth = &eth, .udp = &l4 };
	struct rs_flow f = { .specs = &none, .specs_count = 1 };
	void *attr = (void *)&f;
	size_t len = 12345;

	/* A spec without a header, or with two: refused, outputs kept. */
	CHECK_INT(rs_flow_attr_build(&f, 1, &attr, &len), -EINVAL);
	f.specs = &two;
	CHECK_INT(rs_flow_attr_build(&f, 1, &attr, &len), -EINVAL);
	f.specs_count = 0;
	CHECK_INT(rs_flow_attr_build(&f, 1, &attr, &len), -EINVAL);
	f.specs_count = 256;            /* num_of_specs is a u8 */
	CHECK_INT(rs_flow_attr_build(&f, 1, &attr, &len), -EINVAL);
	CHECK_PTR(attr, (void *)&f);
	CHECK_UINT(len, 12345);
}
