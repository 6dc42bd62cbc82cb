// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "kinds.h"
#include "live.h"
#include "model.h"
#include "parse.h"

static const cyaml_strval_t flow_flag_names[] = {
	{ "dont_trap", IBV_FLOW_ATTR_FLAGS_DONT_TRAP },
	{ "egress", IBV_FLOW_ATTR_FLAGS_EGRESS },
};

/* libcyaml tables: a value and its mask, a number or an address text. */
#define F_NUM(s, k)                                                       \
	RS_FIELD_UINT(#k, s, k), RS_FIELD_UINT(#k "_mask", s, k##_mask)
#define F_TXT(s, k)                                                       \
	RS_FIELD_STR(#k, s, k), RS_FIELD_STR(#k "_mask", s, k##_mask)

static const cyaml_schema_field_t eth_fields[] = {
	F_TXT(struct rs_flow_eth, dst_mac),
	F_TXT(struct rs_flow_eth, src_mac),
	F_NUM(struct rs_flow_eth, ether_type),
	F_NUM(struct rs_flow_eth, vlan_tag),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t ipv4_fields[] = {
	F_TXT(struct rs_flow_ipv4, src_ip),
	F_TXT(struct rs_flow_ipv4, dst_ip),
	F_NUM(struct rs_flow_ipv4, proto),
	F_NUM(struct rs_flow_ipv4, tos),
	F_NUM(struct rs_flow_ipv4, ttl),
	F_NUM(struct rs_flow_ipv4, flags),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t ipv6_fields[] = {
	F_TXT(struct rs_flow_ipv6, src_ip),
	F_TXT(struct rs_flow_ipv6, dst_ip),
	F_NUM(struct rs_flow_ipv6, flow_label),
	F_NUM(struct rs_flow_ipv6, next_hdr),
	F_NUM(struct rs_flow_ipv6, traffic_class),
	F_NUM(struct rs_flow_ipv6, hop_limit),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t l4_fields[] = {
	F_NUM(struct rs_flow_l4, src_port),
	F_NUM(struct rs_flow_l4, dst_port),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t vxlan_fields[] = {
	F_NUM(struct rs_flow_vxlan, tunnel_id),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t gre_fields[] = {
	F_NUM(struct rs_flow_gre, c_ks_res0_ver),
	F_NUM(struct rs_flow_gre, protocol),
	F_NUM(struct rs_flow_gre, key),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t mpls_fields[] = {
	F_NUM(struct rs_flow_mpls, label),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t esp_fields[] = {
	F_NUM(struct rs_flow_esp, spi),
	F_NUM(struct rs_flow_esp, seq),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t spec_fields[] = {
	RS_FIELD_MAP("eth", struct rs_flow_spec, eth, eth_fields),
	RS_FIELD_MAP("ipv4", struct rs_flow_spec, ipv4, ipv4_fields),
	RS_FIELD_MAP("ipv6", struct rs_flow_spec, ipv6, ipv6_fields),
	RS_FIELD_MAP("tcp", struct rs_flow_spec, tcp, l4_fields),
	RS_FIELD_MAP("udp", struct rs_flow_spec, udp, l4_fields),
	RS_FIELD_MAP("vxlan", struct rs_flow_spec, vxlan, vxlan_fields),
	RS_FIELD_MAP("gre", struct rs_flow_spec, gre, gre_fields),
	RS_FIELD_MAP("mpls", struct rs_flow_spec, mpls, mpls_fields),
	RS_FIELD_MAP("esp", struct rs_flow_spec, esp, esp_fields),
	RS_FIELD_BOOL("inner", struct rs_flow_spec, inner),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t spec_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct rs_flow_spec,
			    spec_fields),
};

static const cyaml_schema_field_t flow_fields[] = {
	RS_FIELD_ID(struct rs_flow),
	RS_FIELD_AFTER(struct rs_flow),
	RS_FIELD_REF("qp", struct rs_flow, qp),
	RS_FIELD_UINT("priority", struct rs_flow, priority),
	RS_FIELD_UINT("port", struct rs_flow, port),
	RS_FIELD_FLAGS("flags", struct rs_flow, flags, flow_flag_names),
	CYAML_FIELD_SEQUENCE("specs", CYAML_FLAG_POINTER, struct rs_flow,
			     specs, &spec_schema, 1, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const struct rdmascn_ref flow_refs[] = {
	RS_REF("qp", struct rs_flow, qp, "qp"),
	RS_REF_AFTER(struct rs_flow),
	RS_REF_END
};

/* Descriptors: what the mask rule and the address parsing work from. */
#define D_NUM(s, k, b)                                                    \
	{ #k, #k "_mask", offsetof(s, k), offsetof(s, k##_mask),          \
	  sizeof(((s *)0)->k), b, RS_ADDR_NONE, 0, 0 }
#define D_ADDR(s, k, t)                                                   \
	{ #k, #k "_mask", offsetof(s, k##_raw), offsetof(s, k##_mask_raw), \
	  sizeof(((s *)0)->k##_raw), 0, t, offsetof(s, k),                \
	  offsetof(s, k##_mask) }

static const struct rs_flow_field eth_desc[] = {
	D_ADDR(struct rs_flow_eth, dst_mac, RS_ADDR_MAC),
	D_ADDR(struct rs_flow_eth, src_mac, RS_ADDR_MAC),
	D_NUM(struct rs_flow_eth, ether_type, 0),
	D_NUM(struct rs_flow_eth, vlan_tag, 0),
};

static const struct rs_flow_field ipv4_desc[] = {
	D_ADDR(struct rs_flow_ipv4, src_ip, RS_ADDR_IPV4),
	D_ADDR(struct rs_flow_ipv4, dst_ip, RS_ADDR_IPV4),
	D_NUM(struct rs_flow_ipv4, proto, 0),
	D_NUM(struct rs_flow_ipv4, tos, 0),
	D_NUM(struct rs_flow_ipv4, ttl, 0),
	D_NUM(struct rs_flow_ipv4, flags, 0),
};

static const struct rs_flow_field ipv6_desc[] = {
	D_ADDR(struct rs_flow_ipv6, src_ip, RS_ADDR_IPV6),
	D_ADDR(struct rs_flow_ipv6, dst_ip, RS_ADDR_IPV6),
	D_NUM(struct rs_flow_ipv6, flow_label, 20),
	D_NUM(struct rs_flow_ipv6, next_hdr, 0),
	D_NUM(struct rs_flow_ipv6, traffic_class, 0),
	D_NUM(struct rs_flow_ipv6, hop_limit, 0),
};

static const struct rs_flow_field l4_desc[] = {
	D_NUM(struct rs_flow_l4, src_port, 0),
	D_NUM(struct rs_flow_l4, dst_port, 0),
};

static const struct rs_flow_field vxlan_desc[] = {
	D_NUM(struct rs_flow_vxlan, tunnel_id, 24),
};

static const struct rs_flow_field gre_desc[] = {
	D_NUM(struct rs_flow_gre, c_ks_res0_ver, 0),
	D_NUM(struct rs_flow_gre, protocol, 0),
	D_NUM(struct rs_flow_gre, key, 0),
};

static const struct rs_flow_field mpls_desc[] = {
	D_NUM(struct rs_flow_mpls, label, 0),
};

static const struct rs_flow_field esp_desc[] = {
	D_NUM(struct rs_flow_esp, spi, 0),
	D_NUM(struct rs_flow_esp, seq, 0),
};

#define HDR(n, t, d)                                                      \
	{ #n, t, offsetof(struct rs_flow_spec, n), d, CYAML_ARRAY_LEN(d) }

const struct rs_flow_hdr rs_flow_hdrs[] = {
	HDR(eth, IBV_FLOW_SPEC_ETH, eth_desc),
	HDR(ipv4, IBV_FLOW_SPEC_IPV4_EXT, ipv4_desc),
	HDR(ipv6, IBV_FLOW_SPEC_IPV6, ipv6_desc),
	HDR(tcp, IBV_FLOW_SPEC_TCP, l4_desc),
	HDR(udp, IBV_FLOW_SPEC_UDP, l4_desc),
	HDR(vxlan, IBV_FLOW_SPEC_VXLAN_TUNNEL, vxlan_desc),
	HDR(gre, IBV_FLOW_SPEC_GRE, gre_desc),
	HDR(mpls, IBV_FLOW_SPEC_MPLS, mpls_desc),
	HDR(esp, IBV_FLOW_SPEC_ESP, esp_desc),
};
const unsigned rs_flow_n_hdrs = CYAML_ARRAY_LEN(rs_flow_hdrs);

static uint64_t get_uint(const void *p, unsigned size)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (size) {
	case 1:
		memcpy(&u8, p, 1);
		return u8;
	case 2:
		memcpy(&u16, p, 2);
		return u16;
	case 4:
		memcpy(&u32, p, 4);
		return u32;
	default:
		memcpy(&u64, p, 8);
		return u64;
	}
}

static void set_uint(void *p, unsigned size, uint64_t v)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;

	switch (size) {
	case 1:
		memcpy(p, &u8, 1);
		break;
	case 2:
		memcpy(p, &u16, 2);
		break;
	case 4:
		memcpy(p, &u32, 4);
		break;
	default:
		memcpy(p, &v, 8);
		break;
	}
}

unsigned rs_flow_apply_mask_rule(void *hdr, const struct rs_node *map,
				 const struct rs_flow_field *fields,
				 unsigned n)
{
	unsigned set = 0;

	for (unsigned i = 0; i < n; i++) {
		const struct rs_flow_field *f = &fields[i];
		uint8_t *mask = (uint8_t *)hdr + f->mask;

		if (!rs_node_get(map, f->key) || rs_node_get(map, f->mask_key))
			continue;
		if (f->bits)
			set_uint(mask, f->size, (1ull << f->bits) - 1);
		else
			memset(mask, 0xff, f->size);
		set++;
	}
	return set;
}

static const char *const addr_what[] = {
	[RS_ADDR_MAC] = "a mac address",
	[RS_ADDR_IPV4] = "an ipv4 address",
	[RS_ADDR_IPV6] = "an ipv6 address",
};

static int parse_addr(unsigned type, const char *s, uint8_t *out)
{
	switch (type) {
	case RS_ADDR_MAC:
		return rs_parse_mac(s, out);
	case RS_ADDR_IPV4:
		return rs_parse_ipv4(s, out);
	default:
		return rs_parse_ipv6(s, out);
	}
}

/* Addresses to bytes, numbers within their width. */
static int flow_fields_parse(void *hdr, const struct rs_flow_hdr *h,
			     unsigned index, char *msg, size_t len)
{
	uint8_t *b = hdr;

	for (unsigned i = 0; i < h->n_fields; i++) {
		const struct rs_flow_field *f = &h->fields[i];

		for (int m = 0; m < 2; m++) {
			const char *key = m ? f->mask_key : f->key;
			uint16_t at = m ? f->mask : f->val;

			if (f->addr != RS_ADDR_NONE) {
				char *s;

				memcpy(&s, b + (m ? f->mask_text : f->text),
				       sizeof(s));
				if (!s || !parse_addr(f->addr, s, b + at))
					continue;
				snprintf(msg, len,
					 "specs[%u].%s.%s: '%s' is not %s",
					 index, h->name, key, s,
					 addr_what[f->addr]);
				return -EINVAL;
			}
			if (f->bits &&
			    get_uint(b + at, f->size) >> f->bits) {
				snprintf(msg, len,
					 "specs[%u].%s.%s: must fit in %u bits",
					 index, h->name, key, f->bits);
				return -EINVAL;
			}
		}
	}
	return 0;
}

const struct rs_flow_hdr *rs_flow_spec_hdr(const struct rs_flow_spec *spec,
					   void **hdr)
{
	const struct rs_flow_hdr *found = NULL;

	for (unsigned i = 0; i < rs_flow_n_hdrs; i++) {
		void *p;

		memcpy(&p, (const char *)spec + rs_flow_hdrs[i].spec_offset,
		       sizeof(p));
		if (!p)
			continue;
		if (found)
			return NULL;
		found = &rs_flow_hdrs[i];
		if (hdr)
			*hdr = p;
	}
	return found;
}

int rs_flow_spec_prepare(struct rs_flow_spec *spec,
			 const struct rs_node *node, unsigned index,
			 char *msg, size_t len)
{
	const struct rs_flow_hdr *h;
	void *hdr = NULL;
	int ret;

	h = rs_flow_spec_hdr(spec, &hdr);
	if (!h) {
		snprintf(msg, len, "specs[%u]: give exactly one of eth, ipv4, "
			 "ipv6, tcp, udp, vxlan, gre, mpls, esp", index);
		return -EINVAL;
	}
	ret = flow_fields_parse(hdr, h, index, msg, len);
	if (ret)
		return ret;
	rs_flow_apply_mask_rule(hdr, rs_node_get(node, h->name), h->fields,
				h->n_fields);
	return 0;
}

static int flow_check(struct rs_obj *obj, struct rs_diag *d)
{
	struct rs_flow *f = obj->data;
	const struct rs_node *specs = rs_node_get(obj->node, "specs");
	char msg[256];
	int ret = 0;

	for (unsigned i = 0; i < f->specs_count; i++) {
		const struct rs_node *n = NULL;

		if (specs && specs->type == RS_NODE_SEQ && i < specs->n)
			n = &specs->items[i];
		if (rs_flow_spec_prepare(&f->specs[i], n, i, msg,
					 sizeof(msg))) {
			/* "specs[1].eth.dst_mac: ..." names the place. */
			char *sep = strstr(msg, ": ");

			if (sep)
				*sep = '\0';
			rs_obj_error(d, obj, msg, "%s", sep ? sep + 2 : "");
			ret = -EINVAL;
		}
	}
	return ret;
}

const struct rdmascn_kind rs_kind_flow = {
	.name = "flow",
	.section = "flows",
	.summary = "a steering rule to a raw_packet or ud qp (ibv_create_flow)",
	.fields = flow_fields,
	.size = sizeof(struct rs_flow),
	.id_offset = offsetof(struct rs_flow, id),
	.refs = flow_refs,
	.check = flow_check,
	.ops = &rs_ops_flow,
};
