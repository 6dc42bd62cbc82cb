// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "kinds.h"
#include "live.h"
#include "model.h"
#include "parse.h"

static const cyaml_strval_t conn_via_names[] = {
	{ "oob", RS_VIA_OOB }, { "rdma_cm", RS_VIA_RDMA_CM },
};

static const cyaml_strval_t conn_mtu_names[] = {
	{ "256", IBV_MTU_256 }, { "512", IBV_MTU_512 },
	{ "1024", IBV_MTU_1024 }, { "2048", IBV_MTU_2048 },
	{ "4096", IBV_MTU_4096 },
};

/* What a QP's INIT qp_access_flags can hold: what its responder lets
 * the peer do. */
static const cyaml_strval_t conn_access_names[] = {
	{ "remote_write", IBV_ACCESS_REMOTE_WRITE },
	{ "remote_read", IBV_ACCESS_REMOTE_READ },
	{ "remote_atomic", IBV_ACCESS_REMOTE_ATOMIC },
};

static const cyaml_schema_field_t connection_fields[] = {
	RS_FIELD_ID(struct rs_connection),
	RS_FIELD_AFTER(struct rs_connection),
	RS_FIELD_REF("a", struct rs_connection, a),
	RS_FIELD_REF("b", struct rs_connection, b),
	RS_FIELD_ENUM("via", struct rs_connection, via, conn_via_names),
	RS_FIELD_ENUM("mtu", struct rs_connection, mtu, conn_mtu_names),
	RS_FIELD_UINT("timeout", struct rs_connection, timeout),
	RS_FIELD_UINT("retry_cnt", struct rs_connection, retry_cnt),
	RS_FIELD_UINT("rnr_retry", struct rs_connection, rnr_retry),
	RS_FIELD_UINT("min_rnr_timer", struct rs_connection, min_rnr_timer),
	RS_FIELD_UINT("max_rd_atomic", struct rs_connection, max_rd_atomic),
	RS_FIELD_UINT("max_dest_rd_atomic", struct rs_connection,
		      max_dest_rd_atomic),
	RS_FIELD_UINT("sl", struct rs_connection, sl),
	RS_FIELD_UINT("traffic_class", struct rs_connection, traffic_class),
	RS_FIELD_UINT("hop_limit", struct rs_connection, hop_limit),
	RS_FIELD_UINT("flow_label", struct rs_connection, flow_label),
	RS_FIELD_ENUM("static_rate", struct rs_connection, static_rate,
		      rs_rate_names),
	RS_FIELD_UINT("psn", struct rs_connection, psn),
	RS_FIELD_UINT("a_psn", struct rs_connection, a_psn),
	RS_FIELD_UINT("b_psn", struct rs_connection, b_psn),
	RS_FIELD_FLAGS("access", struct rs_connection, access,
		       conn_access_names),
	RS_FIELD_FLAGS("a_access", struct rs_connection, a_access,
		       conn_access_names),
	RS_FIELD_FLAGS("b_access", struct rs_connection, b_access,
		       conn_access_names),
	RS_FIELD_UINT("port", struct rs_connection, port),
	RS_FIELD_STR("ip", struct rs_connection, ip),
	CYAML_FIELD_END
};

static const struct rdmascn_ref connection_refs[] = {
	RS_REF_SPANS("a", struct rs_connection, a, "qp"),
	RS_REF_SPANS("b", struct rs_connection, b, "qp"),
	RS_REF_AFTER(struct rs_connection),
	RS_REF_END
};

/* The fields narrower than their member: the u8s by range, the u32s
 * (PSNs, the GRH's flow label) by their width on the wire. */
static const struct {
	const char *key;
	uint16_t offset;
	uint8_t size;            /* of the member: 1 or 4 */
	uint32_t max;
} conn_limits[] = {
	{ "timeout", offsetof(struct rs_connection, timeout), 1, 31 },
	{ "retry_cnt", offsetof(struct rs_connection, retry_cnt), 1, 7 },
	{ "rnr_retry", offsetof(struct rs_connection, rnr_retry), 1, 7 },
	{ "min_rnr_timer", offsetof(struct rs_connection, min_rnr_timer), 1,
	  31 },
	{ "sl", offsetof(struct rs_connection, sl), 1, 15 },
	{ "psn", offsetof(struct rs_connection, psn), 4, 0xffffff },
	{ "a_psn", offsetof(struct rs_connection, a_psn), 4, 0xffffff },
	{ "b_psn", offsetof(struct rs_connection, b_psn), 4, 0xffffff },
	{ "flow_label", offsetof(struct rs_connection, flow_label), 4,
	  0xfffff },
};

static int connection_check(struct rs_obj *obj, struct rs_diag *d)
{
	const struct rs_connection *c = obj->data;
	int ret = 0;

	if (c->a && c->b && !strcmp(c->a, c->b)) {
		rs_obj_error(d, obj, "b", "the same qp as 'a'");
		ret = -EINVAL;
	}
	for (size_t i = 0; i < CYAML_ARRAY_LEN(conn_limits); i++) {
		const char *p = (const char *)c + conn_limits[i].offset;
		uint32_t v = 0;
		uint8_t v8;

		if (conn_limits[i].size == 1) {
			memcpy(&v8, p, 1);
			v = v8;
		} else {
			memcpy(&v, p, sizeof(v));
		}
		if (v <= conn_limits[i].max)
			continue;
		if (conn_limits[i].size == 1)
			rs_obj_error(d, obj, conn_limits[i].key,
				     "must be 0 to %u", conn_limits[i].max);
		else
			rs_obj_error(d, obj, conn_limits[i].key,
				     "must fit in %d bits",
				     __builtin_popcount(conn_limits[i].max));
		ret = -EINVAL;
	}
	if (c->via != RS_VIA_RDMA_CM) {
		for (int i = 0; i < 2; i++) {
			const char *k = i ? "ip" : "port";

			if (rs_obj_has(obj, k)) {
				rs_obj_error(d, obj, k,
					     "only for 'via: rdma_cm'");
				ret = -EINVAL;
			}
		}
	} else if (c->ip && rs_parse_ip_family(c->ip) < 0) {
		rs_obj_error(d, obj, "ip", "'%s' is not an ip address", c->ip);
		ret = -EINVAL;
	}
	return ret;
}

const struct rdmascn_kind rs_kind_connection = {
	.name = "connection",
	.section = "connections",
	.summary = "two qps brought to RTS, by oob exchange or rdma_cm",
	.fields = connection_fields,
	.size = sizeof(struct rs_connection),
	.id_offset = offsetof(struct rs_connection, id),
	.refs = connection_refs,
	.check = connection_check,
	.ops = &rs_ops_connection,
};
