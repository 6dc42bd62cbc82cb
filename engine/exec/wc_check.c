// SPDX-License-Identifier: MIT
/*
 * What a completion says, checked against a step's `wc:` and `grh:`, and
 * kept (bounded) for its entry in the run record.  Pure: the unit tests
 * give it completions and GRHs of their own making.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "step.h"
#include "value.h"

/* The IPv4 header checksum of @h (20 bytes), its own field as 0. */
static uint16_t ip4_csum(const uint8_t *h)
{
	uint32_t sum = 0;

	for (unsigned i = 0; i < 20; i += 2)
		if (i != 10)
			sum += (uint32_t)h[i] << 8 | h[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static void v4_mapped(const uint8_t *a, uint8_t *g)
{
	memset(g, 0, 10);
	g[10] = g[11] = 0xff;
	memcpy(g + 12, a, 4);
}

int rs_grh_gids(const uint8_t grh[40], uint8_t ret_sgid[16],
		uint8_t ret_dgid[16])
{
	const uint8_t *ip4 = grh + 20;
	bool v4;

	/* As libibverbs decides for ibv_init_ah_from_wc(): not an IPv6
	 * version, an IPv4 one at byte 20 is IPv4; after a 6, only an
	 * IPv4 header whose checksum holds is one. */
	if (grh[0] >> 4 != 6)
		v4 = ip4[0] >> 4 == 4;
	else
		v4 = ip4[0] == 0x45 &&
		     ip4_csum(ip4) == ((uint16_t)ip4[10] << 8 | ip4[11]);
	if (v4) {
		v4_mapped(ip4 + 12, ret_sgid);
		v4_mapped(ip4 + 16, ret_dgid);
		return 0;
	}
	if (grh[0] >> 4 != 6)
		return -EINVAL;
	memcpy(ret_sgid, grh + 8, 16);
	memcpy(ret_dgid, grh + 24, 16);
	return 0;
}

static bool differs(char *why, size_t len, const char *what, uint64_t got,
		    uint64_t want, bool hex)
{
	if (got == want)
		return false;
	snprintf(why, len, hex ? "%s 0x%llx, expected 0x%llx" :
		 "%s %llu, expected %llu", what, (unsigned long long)got,
		 (unsigned long long)want);
	return true;
}

/* A field of an extended CQ's completion that was not read. */
static bool unread(const struct rs_wc_ext *ext, uint64_t flag,
		   const char *what, char *why, size_t len)
{
	if (!ext || ext->have & flag)
		return false;
	snprintf(why, len, "%s was not read: the cq has no wc_flags %s",
		 what, what);
	return true;
}

static bool gid_differs(char *why, size_t len, const char *what,
			const uint8_t *got, const uint8_t *want)
{
	char g[INET6_ADDRSTRLEN], w[INET6_ADDRSTRLEN];

	if (!memcmp(got, want, 16))
		return false;
	inet_ntop(AF_INET6, got, g, sizeof(g));
	inet_ntop(AF_INET6, want, w, sizeof(w));
	snprintf(why, len, "grh %s %s, expected %s", what, g, w);
	return true;
}

bool rs_wc_check(const struct rs_wc_want *w, const struct rs_wc_seen *before,
		 const struct ibv_wc *wc, const struct rs_wc_ext *ext,
		 char *why, size_t len)
{
	static const struct {
		uint32_t bit;
		uint64_t flag;
		const char *name;
		bool hex;
	} std[] = {
		{ RS_WCW_BYTE_LEN, IBV_WC_EX_WITH_BYTE_LEN, "byte_len", false },
		{ RS_WCW_IMM, IBV_WC_EX_WITH_IMM, "imm", true },
		{ RS_WCW_QP_NUM, IBV_WC_EX_WITH_QP_NUM, "qp_num", true },
		{ RS_WCW_SRC_QP, IBV_WC_EX_WITH_SRC_QP, "src_qp", true },
		{ RS_WCW_SLID, IBV_WC_EX_WITH_SLID, "slid", false },
		{ RS_WCW_SL, IBV_WC_EX_WITH_SL, "sl", false },
		{ RS_WCW_DLID_PATH_BITS, IBV_WC_EX_WITH_DLID_PATH_BITS,
		  "dlid_path_bits", false },
		{ RS_WCW_CVLAN, IBV_WC_EX_WITH_CVLAN, "cvlan", false },
		{ RS_WCW_FLOW_TAG, IBV_WC_EX_WITH_FLOW_TAG, "flow_tag", true },
	};
	uint8_t sgid[16], dgid[16];

	for (size_t i = 0; i < RS_N(std); i++) {
		uint64_t got, want;

		if (!(w->mask & std[i].bit))
			continue;
		/* cvlan and flow_tag exist only where an extended CQ read
		 * them; the rest are in every struct ibv_wc. */
		if ((ext || std[i].bit & (RS_WCW_CVLAN | RS_WCW_FLOW_TAG)) &&
		    unread(ext ? ext : &(struct rs_wc_ext){ 0 }, std[i].flag,
			   std[i].name, why, len))
			return false;
		switch (std[i].bit) {
		case RS_WCW_BYTE_LEN:
			got = wc->byte_len, want = w->byte_len;
			break;
		case RS_WCW_IMM:
			if (!(wc->wc_flags & IBV_WC_WITH_IMM)) {
				snprintf(why, len, "imm expected 0x%x, but "
					 "the completion has none", w->imm);
				return false;
			}
			got = be32toh(wc->imm_data), want = w->imm;
			break;
		case RS_WCW_QP_NUM:
			got = wc->qp_num, want = w->qp_num;
			break;
		case RS_WCW_SRC_QP:
			got = wc->src_qp, want = w->src_qp;
			break;
		case RS_WCW_SLID:
			got = wc->slid, want = w->slid;
			break;
		case RS_WCW_SL:
			got = wc->sl, want = w->sl;
			break;
		case RS_WCW_DLID_PATH_BITS:
			got = wc->dlid_path_bits, want = w->dlid_path_bits;
			break;
		case RS_WCW_CVLAN:
			got = ext->cvlan, want = w->cvlan;
			break;
		default:
			got = ext->flow_tag, want = w->flow_tag;
			break;
		}
		if (differs(why, len, std[i].name, got, want, std[i].hex))
			return false;
	}
	if (w->mask & RS_WCW_TS_UP) {
		if (unread(ext ? ext : &(struct rs_wc_ext){ 0 },
			   IBV_WC_EX_WITH_COMPLETION_TIMESTAMP,
			   "completion_timestamp", why, len))
			return false;
		if (before && before->n &&
		    before->have & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP &&
		    ext->ts < before->ext.ts) {
			snprintf(why, len, "completion_timestamp %llu went "
				 "back from %llu",
				 (unsigned long long)ext->ts,
				 (unsigned long long)before->ext.ts);
			return false;
		}
	}
	if (!(w->mask & (RS_WCW_SGID | RS_WCW_DGID)))
		return true;
	if (!(wc->wc_flags & IBV_WC_GRH) || !w->grh) {
		snprintf(why, len, "grh expected, but the receive has none");
		return false;
	}
	if (rs_grh_gids(w->grh, sgid, dgid)) {
		snprintf(why, len, "the receive's first 40 bytes are neither "
			 "an IPv6 nor an IPv4 header");
		return false;
	}
	if (w->mask & RS_WCW_SGID &&
	    gid_differs(why, len, "sgid", sgid, w->sgid))
		return false;
	if (w->mask & RS_WCW_DGID &&
	    gid_differs(why, len, "dgid", dgid, w->dgid))
		return false;
	return true;
}

void rs_wc_seen_add(struct rs_wc_seen *s, const struct ibv_wc *wc,
		    const struct rs_wc_ext *ext)
{
	if (ext) {
		if (ext->have & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP) {
			if (!s->n)
				s->ts_first = ext->ts;
			else if (ext->ts < s->ext.ts)
				s->ts_back++;
		}
		if (ext->have & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK &&
		    !s->n)
			s->ts_wall_first = ext->ts_wall;
		s->have = ext->have;
		s->ext = *ext;
	}
	s->last = *wc;
	s->n++;
}

void rs_wc_seen_put(const struct rs_wc_seen *s, struct rs_val *v)
{
	const struct ibv_wc *wc = &s->last;
	uint64_t h = s->have;

	rs_val_put_u64(v, "completions", s->n);
	if (h & IBV_WC_EX_WITH_BYTE_LEN)
		rs_val_put_u64(v, "byte_len", wc->byte_len);
	if (h & IBV_WC_EX_WITH_IMM && wc->wc_flags & IBV_WC_WITH_IMM)
		rs_val_put_u64(v, "imm", be32toh(wc->imm_data));
	if (h & IBV_WC_EX_WITH_QP_NUM)
		rs_val_put_u64(v, "qp_num", wc->qp_num);
	if (h & IBV_WC_EX_WITH_SRC_QP)
		rs_val_put_u64(v, "src_qp", wc->src_qp);
	if (h & IBV_WC_EX_WITH_SLID)
		rs_val_put_u64(v, "slid", wc->slid);
	if (h & IBV_WC_EX_WITH_SL)
		rs_val_put_u64(v, "sl", wc->sl);
	if (h & IBV_WC_EX_WITH_DLID_PATH_BITS)
		rs_val_put_u64(v, "dlid_path_bits", wc->dlid_path_bits);
	if (h & IBV_WC_EX_WITH_CVLAN)
		rs_val_put_u64(v, "cvlan", s->ext.cvlan);
	if (h & IBV_WC_EX_WITH_FLOW_TAG)
		rs_val_put_u64(v, "flow_tag", s->ext.flow_tag);
	rs_val_put_u64(v, "wc_flags", wc->wc_flags);
	if (h & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP) {
		rs_val_put_u64(v, "timestamp_first", s->ts_first);
		rs_val_put_u64(v, "timestamp_last", s->ext.ts);
		rs_val_put_u64(v, "timestamp_backwards", s->ts_back);
	}
	if (h & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK) {
		rs_val_put_u64(v, "wallclock_first_ns", s->ts_wall_first);
		rs_val_put_u64(v, "wallclock_last_ns", s->ext.ts_wall);
	}
}
