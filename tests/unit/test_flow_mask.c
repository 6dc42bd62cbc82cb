// SPDX-License-Identifier: MIT
/* Flow specs: the pyverbs mask rule, address parsing, one header a spec;
 * and the shared MAC/GID parsers. */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>

#include "alloc.h"
#include "check.h"
#include "list.h"
#include "diag.h"
#include "dom.h"
#include "kinds.h"
#include "parse.h"

/* Hand-built DOM: a mapping of the given keys, each with a scalar "1". */
struct tmap {
	struct rs_node map;
	struct rs_node items[16]; /* the map's, in place: keys and values */
};

static struct rs_node *tmap_build(struct tmap *t, const char *const *keys)
{
	memset(t, 0, sizeof(*t));
	t->map.type = RS_NODE_MAP;
	t->map.items = t->items;
	for (unsigned i = 0; keys[i]; i++) {
		struct rs_node *k = &t->items[t->map.n++];
		struct rs_node *v = &t->items[t->map.n++];

		k->type = v->type = RS_NODE_SCALAR;
		k->value = (char *)keys[i];
		v->value = (char *)"1";
	}
	return &t->map;
}

static const struct rs_flow_hdr *hdr_named(const char *name)
{
	for (unsigned i = 0; i < rs_flow_n_hdrs; i++)
		if (!strcmp(rs_flow_hdrs[i].name, name))
			return &rs_flow_hdrs[i];
	return NULL;
}

TEST(flow_mask, rule_numbers)
{
	const struct rs_flow_hdr *h = hdr_named("tcp");
	struct rs_flow_l4 l4 = { .dst_port = 4791, .src_port = 5,
				 .src_port_mask = 0x00f0 };
	struct tmap t;
	struct rs_node *m;

	CHECK(h);
	/* dst_port without mask: all ones; src_port with its mask: kept. */
	m = tmap_build(&t, (const char *const[]){ "dst_port", "src_port",
						   "src_port_mask", NULL });
	CHECK_INT(rs_flow_apply_mask_rule(&l4, m, h->fields, h->n_fields), 1);
	CHECK_UINT(l4.dst_port_mask, 0xffff);
	CHECK_UINT(l4.src_port_mask, 0x00f0);

	/* Nothing given: nothing masked.  A value of 0 given still counts. */
	memset(&l4, 0, sizeof(l4));
	m = tmap_build(&t, (const char *const[]){ NULL });
	CHECK_INT(rs_flow_apply_mask_rule(&l4, m, h->fields, h->n_fields), 0);
	CHECK_UINT(l4.dst_port_mask, 0);
	CHECK_UINT(l4.src_port_mask, 0);
	m = tmap_build(&t, (const char *const[]){ "src_port", NULL });
	CHECK_INT(rs_flow_apply_mask_rule(&l4, m, h->fields, h->n_fields), 1);
	CHECK_UINT(l4.src_port_mask, 0xffff);
	CHECK_UINT(l4.dst_port_mask, 0);

	/* A mask alone is not a value: it stays as given (0 here). */
	memset(&l4, 0, sizeof(l4));
	m = tmap_build(&t, (const char *const[]){ "dst_port_mask", NULL });
	CHECK_INT(rs_flow_apply_mask_rule(&l4, m, h->fields, h->n_fields), 0);
	CHECK_UINT(l4.dst_port_mask, 0);

	/* No node (the header absent from the DOM): nothing. */
	CHECK_INT(rs_flow_apply_mask_rule(&l4, NULL, h->fields, h->n_fields),
		  0);
}

TEST(flow_mask, rule_widths)
{
	const struct rs_flow_hdr *h = hdr_named("ipv6");
	struct rs_flow_ipv6 ip6 = { .flow_label = 7, .hop_limit = 64 };
	struct rs_flow_vxlan vx = { .tunnel_id = 42 };
	struct rs_flow_gre gre = { .key = 9 };
	struct tmap t;
	struct rs_node *m;

	CHECK(h);
	m = tmap_build(&t, (const char *const[]){ "flow_label", "hop_limit",
						   NULL });
	CHECK_INT(rs_flow_apply_mask_rule(&ip6, m, h->fields, h->n_fields), 2);
	CHECK_UINT(ip6.flow_label_mask, 0xfffff);
	CHECK_UINT(ip6.hop_limit_mask, 0xff);
	CHECK_UINT(ip6.next_hdr_mask, 0);
	CHECK_UINT(ip6.traffic_class_mask, 0);

	h = hdr_named("vxlan");
	m = tmap_build(&t, (const char *const[]){ "tunnel_id", NULL });
	CHECK_INT(rs_flow_apply_mask_rule(&vx, m, h->fields, h->n_fields), 1);
	CHECK_UINT(vx.tunnel_id_mask, 0xffffff);

	h = hdr_named("gre");
	m = tmap_build(&t, (const char *const[]){ "key", NULL });
	CHECK_INT(rs_flow_apply_mask_rule(&gre, m, h->fields, h->n_fields), 1);
	CHECK_UINT(gre.key_mask, 0xffffffff);
	CHECK_UINT(gre.protocol_mask, 0);
	CHECK_UINT(gre.c_ks_res0_ver_mask, 0);
}

TEST(flow_mask, prepare_eth)
{
	static const uint8_t ones[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t dst[6] = { 0x02, 0x00, 0x00, 0xab, 0xcd, 0xef };
	struct rs_flow_eth eth = {
		.dst_mac = (char *)"02:00:00:AB:cd:ef",
		.src_mac = (char *)"02:00:00:00:00:01",
		.src_mac_mask = (char *)"ff:ff:ff:00:00:00",
		.ether_type = 0x0800,
	};
	struct rs_flow_spec spec = { .eth = &eth };
	struct tmap t;
	struct rs_node spec_map, items[2];
	char msg[256];

	tmap_build(&t, (const char *const[]){ "dst_mac", "src_mac",
					       "src_mac_mask", "ether_type",
					       NULL });
	items[0] = (struct rs_node){ .type = RS_NODE_SCALAR,
				     .value = (char *)"eth" };
	items[1] = t.map;
	memset(&spec_map, 0, sizeof(spec_map));
	spec_map.type = RS_NODE_MAP;
	spec_map.items = items;
	spec_map.n = 2;

	CHECK_INT(rs_flow_spec_prepare(&spec, &spec_map, 0, msg, sizeof(msg)),
		  0);
	CHECK_MEM(eth.dst_mac_raw, dst, 6);
	CHECK_MEM(eth.dst_mac_mask_raw, ones, 6);
	CHECK_UINT(eth.src_mac_raw[5], 0x01);
	CHECK_UINT(eth.src_mac_mask_raw[0], 0xff);
	CHECK_UINT(eth.src_mac_mask_raw[3], 0);
	CHECK_UINT(eth.ether_type_mask, 0xffff);
	CHECK_UINT(eth.vlan_tag_mask, 0);

	/* Bad text is reported with its precise place. */
	eth.src_mac_mask = (char *)"ff:ff:ff:00:00";
	CHECK_INT(rs_flow_spec_prepare(&spec, &spec_map, 3, msg, sizeof(msg)),
		  -EINVAL);
	CHECK_STR(msg, "specs[3].eth.src_mac_mask: 'ff:ff:ff:00:00' is not "
		  "a mac address");
}

TEST(flow_mask, prepare_errors)
{
	struct rs_flow_ipv4 ip4 = { .dst_ip = (char *)"10.0.0.300" };
	struct rs_flow_ipv6 ip6 = { .src_ip = (char *)"fe80::1",
				    .flow_label = 0x100000 };
	struct rs_flow_l4 udp = { .dst_port = 4791 };
	struct rs_flow_spec spec = { 0 };
	char msg[256];

	/* No header, two headers. */
	CHECK_INT(rs_flow_spec_prepare(&spec, NULL, 1, msg, sizeof(msg)),
		  -EINVAL);
	CHECK_STR(msg, "specs[1]: give exactly one of eth, ipv4, ipv6, tcp, "
		  "udp, vxlan, gre, mpls, esp");
	spec.ipv4 = &ip4;
	spec.udp = &udp;
	CHECK_INT(rs_flow_spec_prepare(&spec, NULL, 2, msg, sizeof(msg)),
		  -EINVAL);
	CHECK_STR(msg, "specs[2]: give exactly one of eth, ipv4, ipv6, tcp, "
		  "udp, vxlan, gre, mpls, esp");
	spec.udp = NULL;
	CHECK_PTR(rs_flow_spec_hdr(&spec, NULL), hdr_named("ipv4"));

	CHECK_INT(rs_flow_spec_prepare(&spec, NULL, 0, msg, sizeof(msg)),
		  -EINVAL);
	CHECK_STR(msg, "specs[0].ipv4.dst_ip: '10.0.0.300' is not an ipv4 "
		  "address");
	ip4.dst_ip = (char *)"10.0.0.3";
	CHECK_INT(rs_flow_spec_prepare(&spec, NULL, 0, msg, sizeof(msg)), 0);
	CHECK_UINT(ip4.dst_ip_raw[0], 10);
	CHECK_UINT(ip4.dst_ip_raw[3], 3);

	spec.ipv4 = NULL;
	spec.ipv6 = &ip6;
	CHECK_INT(rs_flow_spec_prepare(&spec, NULL, 4, msg, sizeof(msg)),
		  -EINVAL);
	CHECK_STR(msg, "specs[4].ipv6.flow_label: must fit in 20 bits");
	ip6.flow_label = 0xfffff;
	CHECK_INT(rs_flow_spec_prepare(&spec, NULL, 4, msg, sizeof(msg)), 0);
	CHECK_UINT(ip6.src_ip_raw[0], 0xfe);
	CHECK_UINT(ip6.src_ip_raw[15], 1);
	ip6.src_ip = (char *)"10.0.0.1";
	CHECK_INT(rs_flow_spec_prepare(&spec, NULL, 4, msg, sizeof(msg)),
		  -EINVAL);
	CHECK_STR(msg, "specs[4].ipv6.src_ip: '10.0.0.1' is not an ipv6 "
		  "address");
}

/* The field tables as libcyaml reads them, with the DOM of the same text:
 * what check() sees. */
TEST(flow_mask, loaded)
{
	static const char yaml[] =
		"id: f\n"
		"qp: raw\n"
		"flags: [dont_trap]\n"
		"specs:\n"
		"  - eth: {dst_mac: '02:00:00:00:00:02', ether_type: 0x86dd}\n"
		"  - ipv6: {dst_ip: 'fe80::2', flow_label: 5}\n"
		"  - udp: {dst_port: 4791, src_port: 1, src_port_mask: 0}\n"
		"    inner: true\n";
	static const cyaml_config_t cfg = {
		.log_level = CYAML_LOG_ERROR,
		.log_fn = cyaml_log,
		.mem_fn = cyaml_mem,
		.flags = CYAML_CFG_DEFAULT,
	};
	const cyaml_schema_value_t top = {
		CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct rs_flow,
				    rs_kind_flow.fields),
	};
	struct rs_flow *f = NULL;
	struct rs_doc doc;
	struct rs_diag d;
	const struct rs_node *specs;
	char msg[256];

	CHECK_INT(cyaml_load_data((const uint8_t *)yaml, strlen(yaml), &cfg,
				  &top, (cyaml_data_t **)&f, NULL), CYAML_OK);
	rs_diag_init(&d, stderr);
	CHECK_INT(rs_doc_parse(&doc, "t.yaml", rs_strdup(yaml), strlen(yaml),
			       &d), 0);
	specs = rs_node_get(doc.root, "specs");
	CHECK(specs);
	CHECK_INT(specs->type, RS_NODE_SEQ);
	CHECK_UINT(specs->n, 3);
	CHECK_UINT(f->specs_count, 3);
	CHECK_UINT(f->flags, 2); /* IBV_FLOW_ATTR_FLAGS_DONT_TRAP */
	for (unsigned i = 0; i < 3; i++)
		CHECK_INT(rs_flow_spec_prepare(&f->specs[i], &specs->items[i],
					       i, msg, sizeof(msg)), 0);
	CHECK_UINT(f->specs[0].eth->ether_type, 0x86dd);
	CHECK_UINT(f->specs[0].eth->ether_type_mask, 0xffff);
	CHECK_UINT(f->specs[0].eth->dst_mac_mask_raw[5], 0xff);
	CHECK_UINT(f->specs[0].eth->src_mac_mask_raw[5], 0);
	CHECK_UINT(f->specs[1].ipv6->flow_label_mask, 0xfffff);
	CHECK_UINT(f->specs[1].ipv6->dst_ip_mask_raw[0], 0xff);
	CHECK_UINT(f->specs[1].ipv6->src_ip_mask_raw[0], 0);
	CHECK_UINT(f->specs[2].udp->dst_port_mask, 0xffff);
	CHECK_UINT(f->specs[2].udp->src_port_mask, 0);
	CHECK(f->specs[2].inner);
	CHECK(!f->specs[0].inner);
	rs_doc_free(&doc);
	cyaml_free(&cfg, &top, f, 0);

	/* An empty specs list is the schema's to refuse. */
	f = NULL;
	CHECK(cyaml_load_data((const uint8_t *)"{id: f, qp: q, specs: []}", 25,
			      &(cyaml_config_t){ .log_fn = NULL,
						 .mem_fn = cyaml_mem,
						 .log_level = CYAML_LOG_ERROR },
			      &top, (cyaml_data_t **)&f, NULL) != CYAML_OK);
}

TEST(flow_mask, parse)
{
	uint8_t mac[6], gid[16], v4[4];
	static const uint8_t mapped[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
					    0xff, 0xff, 10, 99, 0, 1 };

	CHECK_INT(rs_parse_mac("aa:BB:cc:00:11:2f", mac), 0);
	CHECK_UINT(mac[0], 0xaa);
	CHECK_UINT(mac[1], 0xbb);
	CHECK_UINT(mac[5], 0x2f);
	CHECK_INT(rs_parse_mac("aa-bb-cc-00-11-22", mac), 0);
	CHECK_UINT(mac[5], 0x22);
	CHECK_INT(rs_parse_mac("aa:bb-cc:00:11:22", mac), -EINVAL);
	CHECK_INT(rs_parse_mac("aa:bb:cc:00:11", mac), -EINVAL);
	CHECK_INT(rs_parse_mac("aa:bb:cc:00:11:2", mac), -EINVAL);
	CHECK_INT(rs_parse_mac("aa:bb:cc:00:11:22:", mac), -EINVAL);
	CHECK_INT(rs_parse_mac("aa:bb:cc:00:11:2g", mac), -EINVAL);
	CHECK_INT(rs_parse_mac("", mac), -EINVAL);
	CHECK_INT(rs_parse_mac(NULL, mac), -EINVAL);

	CHECK_INT(rs_parse_gid("fe80::1", gid), 0);
	CHECK_UINT(gid[0], 0xfe);
	CHECK_UINT(gid[1], 0x80);
	CHECK_UINT(gid[15], 1);
	CHECK_INT(rs_parse_gid("fe80:0000:0000:0000:0202:c9ff:fe00:0001", gid),
		  0);
	CHECK_UINT(gid[8], 0x02);
	CHECK_UINT(gid[15], 0x01);
	CHECK_INT(rs_parse_gid("10.99.0.1", gid), 0);
	CHECK_MEM(gid, mapped, 16);
	CHECK_INT(rs_parse_gid("::ffff:10.99.0.1", gid), 0);
	CHECK_MEM(gid, mapped, 16);
	CHECK_INT(rs_parse_gid("xyz", gid), -EINVAL);
	CHECK_INT(rs_parse_gid("fe80::1::2", gid), -EINVAL);
	CHECK_INT(rs_parse_gid("", gid), -EINVAL);

	CHECK_INT(rs_parse_ipv4("192.168.0.255", v4), 0);
	CHECK_UINT(v4[3], 255);
	CHECK_INT(rs_parse_ipv4("192.168.0", v4), -EINVAL);
	CHECK_INT(rs_parse_ip_family("10.0.0.1"), AF_INET);
	CHECK_INT(rs_parse_ip_family("::1"), AF_INET6);
	CHECK_INT(rs_parse_ip_family("host"), -EINVAL);

	CHECK(rs_is_pow2(1));
	CHECK(rs_is_pow2(4096));
	CHECK(rs_is_pow2(1ull << 63));
	CHECK(!rs_is_pow2(0));
	CHECK(!rs_is_pow2(3));
	CHECK(!rs_is_pow2(4097));
}
