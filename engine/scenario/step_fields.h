/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_STEP_FIELDS_H
#define RDMASCN_STEP_FIELDS_H

/*
 * The fields the step types share (id, after, deadline, gate; expect, completion
 * and the traffic knobs), in the language's layer: the step runner in exec/
 * reads them for every step, the step types in steps/ declare them.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "gate.h"
#include "registry.h"
#include "schema.h"

/* Fields every step type has, first in its field table. */
#define RS_STEP_COMMON_FIELDS(s)                                          \
	CYAML_FIELD_STRING_PTR("id", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, \
			       s, common.id, 1, RS_ID_MAX),                  \
	CYAML_FIELD_SEQUENCE("after",                                     \
			     CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, s,    \
			     common.after, &rs_id_schema, 0, CYAML_UNLIMITED), \
	CYAML_FIELD_UINT("deadline_ms", CYAML_FLAG_OPTIONAL, s,          \
			 common.deadline_ms),                              \
	CYAML_FIELD_STRING_PTR("for", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, \
			       s, common.for_id, 1, RS_ID_MAX + 5),          \
	/* Read from the DOM: counters' names are keys libcyaml cannot \
	 * type (gate.c). */                                              \
	CYAML_FIELD_IGNORE("gate", CYAML_FLAG_OPTIONAL)

/* The `after:` entry of every step type's reference table. */
#define RS_STEP_REF_AFTER(s)                                              \
	{ .field = "after", .offset = offsetof(s, common.after),         \
	  .count_offset = offsetof(s, common.after_count), .after = true }

/* `expect:` names: enum ibv_wc_status, lowercase, without IBV_WC_. */
static const cyaml_strval_t rs_wc_status_names[] = {
	{ "success", IBV_WC_SUCCESS },
	{ "loc_len_err", IBV_WC_LOC_LEN_ERR },
	{ "loc_qp_op_err", IBV_WC_LOC_QP_OP_ERR },
	{ "loc_eec_op_err", IBV_WC_LOC_EEC_OP_ERR },
	{ "loc_prot_err", IBV_WC_LOC_PROT_ERR },
	{ "wr_flush_err", IBV_WC_WR_FLUSH_ERR },
	{ "mw_bind_err", IBV_WC_MW_BIND_ERR },
	{ "bad_resp_err", IBV_WC_BAD_RESP_ERR },
	{ "loc_access_err", IBV_WC_LOC_ACCESS_ERR },
	{ "rem_inv_req_err", IBV_WC_REM_INV_REQ_ERR },
	{ "rem_access_err", IBV_WC_REM_ACCESS_ERR },
	{ "rem_op_err", IBV_WC_REM_OP_ERR },
	{ "retry_exc_err", IBV_WC_RETRY_EXC_ERR },
	{ "rnr_retry_exc_err", IBV_WC_RNR_RETRY_EXC_ERR },
	{ "loc_rdd_viol_err", IBV_WC_LOC_RDD_VIOL_ERR },
	{ "rem_inv_rd_req_err", IBV_WC_REM_INV_RD_REQ_ERR },
	{ "rem_abort_err", IBV_WC_REM_ABORT_ERR },
	{ "inv_eecn_err", IBV_WC_INV_EECN_ERR },
	{ "inv_eec_state_err", IBV_WC_INV_EEC_STATE_ERR },
	{ "fatal_err", IBV_WC_FATAL_ERR },
	{ "resp_timeout_err", IBV_WC_RESP_TIMEOUT_ERR },
	{ "general_err", IBV_WC_GENERAL_ERR },
	{ "tm_err", IBV_WC_TM_ERR },
	{ "tm_rndv_incomplete", IBV_WC_TM_RNDV_INCOMPLETE },
};

/* `completion:` how completions are waited for.  Busy polling is 0, the
 * default. */
enum rs_completion { RS_COMP_BUSY, RS_COMP_EVENTS };
static const cyaml_strval_t rs_completion_names[] = {
	{ "busy", RS_COMP_BUSY }, { "events", RS_COMP_EVENTS },
};

/*
 * `wc:` what every completion of the step that succeeded must say: the
 * fields of struct ibv_wc, and those only an extended CQ reads (cvlan,
 * flow_tag).  src_qp and qp_num name QPs, whose numbers they must be.
 */
struct rs_step_wc {
	uint32_t byte_len;
	uint32_t imm;            /* host order, as `imm:` is given */
	char *qp_num;            /* the QP it completed on */
	char *src_qp;            /* the sender (UD) */
	uint32_t slid;
	uint8_t sl;
	uint8_t dlid_path_bits;
	uint16_t cvlan;
	uint32_t flow_tag;
	bool timestamps_increase; /* completion_timestamp never goes back */
};

static const cyaml_schema_field_t rs_step_wc_fields[] = {
	RS_FIELD_UINT("byte_len", struct rs_step_wc, byte_len),
	RS_FIELD_UINT("imm", struct rs_step_wc, imm),
	RS_FIELD_OPT_REF("qp_num", struct rs_step_wc, qp_num),
	RS_FIELD_OPT_REF("src_qp", struct rs_step_wc, src_qp),
	RS_FIELD_UINT("slid", struct rs_step_wc, slid),
	RS_FIELD_UINT("sl", struct rs_step_wc, sl),
	RS_FIELD_UINT("dlid_path_bits", struct rs_step_wc, dlid_path_bits),
	RS_FIELD_UINT("cvlan", struct rs_step_wc, cvlan),
	RS_FIELD_UINT("flow_tag", struct rs_step_wc, flow_tag),
	RS_FIELD_BOOL("timestamps_increase", struct rs_step_wc,
		      timestamps_increase),
	CYAML_FIELD_END
};

/*
 * Traffic knobs shared by the posting steps.  bind_mw, invalidate and recv
 * take only the completion part (expect, completion).
 */
struct rs_step_traffic {
	int expect;              /* enum ibv_wc_status; default success */
	int completion;          /* enum rs_completion; default busy */
	bool verify;
	bool inline_data;        /* `inline:` */
	uint32_t signal_every;   /* signal every Nth WR; 0/1: every one */
	uint32_t post_list;      /* WRs per ibv_post_send() call */
	uint32_t depth;          /* WRs in flight */
	uint64_t iterations;
	struct rs_step_wc wc;    /* in place: its QP references resolve */
};

#define RS_STEP_CQE_FIELDS(s)                                             \
	RS_FIELD_ENUM("expect", s, traffic.expect, rs_wc_status_names),   \
	RS_FIELD_ENUM("completion", s, traffic.completion,               \
		      rs_completion_names),                               \
	CYAML_FIELD_MAPPING("wc", CYAML_FLAG_OPTIONAL, s, traffic.wc,     \
			    rs_step_wc_fields)

/* The reference table entries of `wc:` (QPs). */
#define RS_STEP_WC_REFS(s)                                                \
	{ .field = "wc.qp_num", .offset = offsetof(s, traffic.wc.qp_num), \
	  .count_offset = -1, .kinds = RDMASCN_KINDS("qp") },             \
	{ .field = "wc.src_qp", .offset = offsetof(s, traffic.wc.src_qp), \
	  .count_offset = -1, .kinds = RDMASCN_KINDS("qp") }

#define RS_STEP_TRAFFIC_FIELDS(s)                                         \
	RS_STEP_CQE_FIELDS(s),                                            \
	RS_FIELD_BOOL("verify", s, traffic.verify),                       \
	RS_FIELD_UINT("signal_every", s, traffic.signal_every),           \
	RS_FIELD_UINT("post_list", s, traffic.post_list),                 \
	RS_FIELD_BOOL("inline", s, traffic.inline_data),                  \
	RS_FIELD_UINT("iterations", s, traffic.iterations),               \
	RS_FIELD_UINT("depth", s, traffic.depth)

#endif
