// SPDX-License-Identifier: MIT
/*
 * flows: ibv_create_flow() on the qp.  The rule is struct ibv_flow_attr
 * followed by one ibv_flow_spec_* per spec, outermost header first.  The
 * scenario's numbers are in host order; the verbs want every multi-byte
 * header field in network order (ibv_create_flow(3)), which is what
 * rs_flow_attr_build() writes.  Addresses were parsed into bytes by the
 * schema's check and are copied as they are.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "caps.h"
#include "kinds.h"
#include "live.h"
#include "schema.h"
#include "value.h"

static size_t spec_size(uint32_t type)
{
	switch (type) {
	case IBV_FLOW_SPEC_ETH:
		return sizeof(struct ibv_flow_spec_eth);
	case IBV_FLOW_SPEC_IPV4_EXT:
		return sizeof(struct ibv_flow_spec_ipv4_ext);
	case IBV_FLOW_SPEC_IPV6:
		return sizeof(struct ibv_flow_spec_ipv6);
	case IBV_FLOW_SPEC_TCP:
	case IBV_FLOW_SPEC_UDP:
		return sizeof(struct ibv_flow_spec_tcp_udp);
	case IBV_FLOW_SPEC_VXLAN_TUNNEL:
		return sizeof(struct ibv_flow_spec_tunnel);
	case IBV_FLOW_SPEC_GRE:
		return sizeof(struct ibv_flow_spec_gre);
	case IBV_FLOW_SPEC_MPLS:
		return sizeof(struct ibv_flow_spec_mpls);
	case IBV_FLOW_SPEC_ESP:
		return sizeof(struct ibv_flow_spec_esp);
	default:
		return 0;
	}
}

static void put_eth(struct ibv_flow_spec_eth *s, const struct rs_flow_eth *e)
{
	memcpy(s->val.dst_mac, e->dst_mac_raw, 6);
	memcpy(s->mask.dst_mac, e->dst_mac_mask_raw, 6);
	memcpy(s->val.src_mac, e->src_mac_raw, 6);
	memcpy(s->mask.src_mac, e->src_mac_mask_raw, 6);
	s->val.ether_type = htobe16(e->ether_type);
	s->mask.ether_type = htobe16(e->ether_type_mask);
	s->val.vlan_tag = htobe16(e->vlan_tag);
	s->mask.vlan_tag = htobe16(e->vlan_tag_mask);
}

static void put_ipv4(struct ibv_flow_spec_ipv4_ext *s,
		     const struct rs_flow_ipv4 *ip)
{
	memcpy(&s->val.src_ip, ip->src_ip_raw, 4);
	memcpy(&s->mask.src_ip, ip->src_ip_mask_raw, 4);
	memcpy(&s->val.dst_ip, ip->dst_ip_raw, 4);
	memcpy(&s->mask.dst_ip, ip->dst_ip_mask_raw, 4);
	s->val.proto = ip->proto;
	s->mask.proto = ip->proto_mask;
	s->val.tos = ip->tos;
	s->mask.tos = ip->tos_mask;
	s->val.ttl = ip->ttl;
	s->mask.ttl = ip->ttl_mask;
	s->val.flags = ip->flags;
	s->mask.flags = ip->flags_mask;
}

static void put_ipv6(struct ibv_flow_spec_ipv6 *s,
		     const struct rs_flow_ipv6 *ip)
{
	memcpy(s->val.src_ip, ip->src_ip_raw, 16);
	memcpy(s->mask.src_ip, ip->src_ip_mask_raw, 16);
	memcpy(s->val.dst_ip, ip->dst_ip_raw, 16);
	memcpy(s->mask.dst_ip, ip->dst_ip_mask_raw, 16);
	s->val.flow_label = htobe32(ip->flow_label);
	s->mask.flow_label = htobe32(ip->flow_label_mask);
	s->val.next_hdr = ip->next_hdr;
	s->mask.next_hdr = ip->next_hdr_mask;
	s->val.traffic_class = ip->traffic_class;
	s->mask.traffic_class = ip->traffic_class_mask;
	s->val.hop_limit = ip->hop_limit;
	s->mask.hop_limit = ip->hop_limit_mask;
}

static void put_l4(struct ibv_flow_spec_tcp_udp *s, const struct rs_flow_l4 *p)
{
	s->val.dst_port = htobe16(p->dst_port);
	s->mask.dst_port = htobe16(p->dst_port_mask);
	s->val.src_port = htobe16(p->src_port);
	s->mask.src_port = htobe16(p->src_port_mask);
}

/* One spec at @at (zeroed, spec_size() bytes). */
static void put_spec(void *at, uint32_t type, const void *hdr)
{
	switch (type) {
	case IBV_FLOW_SPEC_ETH:
		put_eth(at, hdr);
		break;
	case IBV_FLOW_SPEC_IPV4_EXT:
		put_ipv4(at, hdr);
		break;
	case IBV_FLOW_SPEC_IPV6:
		put_ipv6(at, hdr);
		break;
	case IBV_FLOW_SPEC_TCP:
	case IBV_FLOW_SPEC_UDP:
		put_l4(at, hdr);
		break;
	case IBV_FLOW_SPEC_VXLAN_TUNNEL: {
		struct ibv_flow_spec_tunnel *s = at;
		const struct rs_flow_vxlan *v = hdr;

		/* The VNI sits in the low 24 bits of a big-endian word. */
		s->val.tunnel_id = htobe32(v->tunnel_id);
		s->mask.tunnel_id = htobe32(v->tunnel_id_mask);
		break;
	}
	case IBV_FLOW_SPEC_GRE: {
		struct ibv_flow_spec_gre *s = at;
		const struct rs_flow_gre *g = hdr;

		s->val.c_ks_res0_ver = htobe16(g->c_ks_res0_ver);
		s->mask.c_ks_res0_ver = htobe16(g->c_ks_res0_ver_mask);
		s->val.protocol = htobe16(g->protocol);
		s->mask.protocol = htobe16(g->protocol_mask);
		s->val.key = htobe32(g->key);
		s->mask.key = htobe32(g->key_mask);
		break;
	}
	case IBV_FLOW_SPEC_MPLS: {
		struct ibv_flow_spec_mpls *s = at;
		const struct rs_flow_mpls *m = hdr;

		s->val.label = htobe32(m->label);
		s->mask.label = htobe32(m->label_mask);
		break;
	}
	case IBV_FLOW_SPEC_ESP: {
		struct ibv_flow_spec_esp *s = at;
		const struct rs_flow_esp *e = hdr;

		s->val.spi = htobe32(e->spi);
		s->mask.spi = htobe32(e->spi_mask);
		s->val.seq = htobe32(e->seq);
		s->mask.seq = htobe32(e->seq_mask);
		break;
	}
	}
}

int rs_flow_attr_build(const struct rs_flow *f, uint8_t port, void **ret_attr,
		       size_t *ret_len)
{
	struct ibv_flow_attr *attr;
	size_t len = sizeof(*attr);
	uint8_t *at;

	if (!f->specs_count || f->specs_count > UINT8_MAX)
		return -EINVAL;
	for (unsigned i = 0; i < f->specs_count; i++) {
		const struct rs_flow_hdr *h = rs_flow_spec_hdr(&f->specs[i],
							       NULL);
		size_t n = h ? spec_size(h->verbs_type) : 0;

		if (!n)
			return -EINVAL;
		len += n;
	}
	if (len > UINT16_MAX)
		return -E2BIG;
	attr = rs_calloc(1, len);
	if (!attr)
		return -ENOMEM;
	attr->type = IBV_FLOW_ATTR_NORMAL;
	attr->size = (uint16_t)len;
	attr->priority = f->priority;
	attr->num_of_specs = (uint8_t)f->specs_count;
	attr->port = port;
	attr->flags = f->flags;
	at = (uint8_t *)(attr + 1);
	for (unsigned i = 0; i < f->specs_count; i++) {
		void *hdr = NULL;
		const struct rs_flow_hdr *h = rs_flow_spec_hdr(&f->specs[i],
							       &hdr);
		/* type and size lead every ibv_flow_spec_*. */
		struct ibv_flow_spec_eth *common = (void *)at;
		size_t n = spec_size(h->verbs_type);

		common->type = h->verbs_type |
			       (f->specs[i].inner ? IBV_FLOW_SPEC_INNER : 0);
		common->size = (uint16_t)n;
		put_spec(at, h->verbs_type, hdr);
		at += n;
	}
	*ret_attr = attr;
	*ret_len = len;
	return 0;
}

/* A field's value or mask as the file would write it: an address as
 * text, a number in decimal (@hex: in hex, for a mask). */
static void field_text(const struct rs_flow_field *fd, const uint8_t *at,
		       bool hex, char *buf, size_t len)
{
	uint64_t v = 0;

	switch (fd->addr) {
	case RS_ADDR_MAC:
		snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", at[0],
			 at[1], at[2], at[3], at[4], at[5]);
		return;
	case RS_ADDR_IPV4:
		inet_ntop(AF_INET, at, buf, (socklen_t)len);
		return;
	case RS_ADDR_IPV6:
		inet_ntop(AF_INET6, at, buf, (socklen_t)len);
		return;
	}
	switch (fd->size) {
	case 1:
		v = *at;
		break;
	case 2:
		v = *(const uint16_t *)(const void *)at;
		break;
	case 4:
		v = *(const uint32_t *)(const void *)at;
		break;
	case 8:
		v = *(const uint64_t *)(const void *)at;
		break;
	}
	snprintf(buf, len, hex ? "0x%llx" : "%llu", (unsigned long long)v);
}

/* "eth{dst_mac=02:00:00:00:00:01/ff:ff:ff:ff:ff:ff,ether_type=2048/
 * 0xffff}": the header and each field it matches (a mask not all zero),
 * value/mask, for -v and --dry-run: the mask rule made visible. */
static size_t spec_summary(const struct rs_flow_spec *spec, unsigned i,
			   char *buf, size_t len, size_t n)
{
	void *hdr = NULL;
	const struct rs_flow_hdr *h = rs_flow_spec_hdr(spec, &hdr);
	unsigned matched = 0;

	if (n >= len)
		return n;
	n += snprintf(buf + n, len - n, "%s%s%s{", i ? "," : "",
		      spec->inner ? "inner_" : "", h->name);
	for (unsigned k = 0; k < h->n_fields && n < len; k++) {
		const struct rs_flow_field *fd = &h->fields[k];
		const uint8_t *mask = (const uint8_t *)hdr + fd->mask;
		char val[INET6_ADDRSTRLEN], msk[INET6_ADDRSTRLEN];
		bool any = false;

		for (unsigned b = 0; b < fd->size; b++)
			any |= mask[b] != 0;
		if (!any)
			continue;
		field_text(fd, (const uint8_t *)hdr + fd->val, false, val,
			   sizeof(val));
		field_text(fd, mask, true, msk, sizeof(msk));
		n += snprintf(buf + n, len - n, "%s%s=%s/%s",
			      matched++ ? "," : "", fd->key, val, msk);
	}
	if (n < len)
		n += snprintf(buf + n, len - n, "}");
	return n;
}

static int flow_check_caps(struct rs_run *run, struct rs_live *l, char *why,
			   unsigned len)
{
	const struct rs_dev *dev = rs_live_dev(run, l);

	if (dev && !(rs_dev_features(&dev->attr) &
		     1u << RS_FEAT_FLOW_STEERING)) {
		snprintf(why, len, "flow_steering (%s in device_cap_flags)",
			 rs_feature_source(RS_FEAT_FLOW_STEERING));
		return -EOPNOTSUPP;
	}
	return 0;
}

static int flow_create(struct rs_run *run, struct rs_live *l)
{
	const struct rs_flow *f = l->obj->data;
	struct rs_flow_rt *rt = l->rt;
	struct rs_live *ql = rs_live_find(run, f->qp);
	struct rdmascn_qp qf;
	struct rs_qp_rt *qp = ql && !rs_as_qp(run, ql, &qf) ? qf.rt : NULL;
	const struct rs_dev *dev = rs_live_dev(run, l);
	uint8_t port = f->port ? f->port : dev && dev->port ? dev->port : 1;
	char specs[1024] = "";
	size_t n = 0, len = 0;
	struct rs_call c;
	int ret;

	ret = rs_flow_attr_build(f, port, &rt->attr, &len);
	if (ret)
		return rs_live_error(run, l, -ret, "specs: cannot encode the "
				     "rule: %s", strerror(-ret));
	for (unsigned i = 0; i < f->specs_count; i++)
		n = spec_summary(&f->specs[i], i, specs, sizeof(specs), n);
	rs_call_init(&c, RS_CALL_CREATE, "ibv_create_flow");
	rs_call_arg(&c, "qp", "%s", f->qp);
	rs_call_arg(&c, "port", "%u", port);
	rs_call_arg(&c, "priority", "%u", f->priority);
	rs_call_arg(&c, "flags", "0x%x", f->flags);
	rs_call_arg(&c, "specs", "%s", specs);
	rs_call_arg(&c, "size", "%zu", len);
	if (rs_call_go(run, l, &c))
		RS_CALL_PTR(&c, rt->flow, ibv_create_flow(qp->qp, rt->attr));
	if (!c.ok && !c.hint[0] && (c.err == EOPNOTSUPP || c.err == ENOSYS))
		rs_call_hint(&c, "the device has no flow steering");
	else if (!c.ok && !c.hint[0] && c.err == EINVAL)
		rs_call_hint(&c, "the device refused a spec, a mask or the "
			     "priority; most devices take only all-ones or "
			     "all-zero masks");
	return rs_call_done(run, l, &c);
}

static void flow_destroy(struct rs_run *run, struct rs_live *l)
{
	struct rs_flow_rt *rt = l->rt;

	RS_CALL_RELEASE(run, l, ibv_destroy_flow, rt->flow);
	rs_free(rt->attr);
	rt->attr = NULL;
}

static void flow_describe(struct rs_run *run, struct rs_live *l,
			  struct rs_val *v)
{
	const struct rs_flow *f = l->obj->data;
	struct rs_flow_rt *rt = l->rt;
	const struct ibv_flow_attr *attr = rt->attr;

	(void)run;
	rs_val_put_u64(v, "specs", f->specs_count);
	rs_val_put_u64(v, "size", attr->size);
	rs_val_put_u64(v, "port", attr->port);
}

const struct rdmascn_ops rs_ops_flow = {
	.rt_size = sizeof(struct rs_flow_rt),
	.check_caps = flow_check_caps,
	.create = flow_create,
	.destroy = flow_destroy,
	.describe = flow_describe,
};
