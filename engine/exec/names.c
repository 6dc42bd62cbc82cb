// SPDX-License-Identifier: MIT
/*
 * The names of verbs values that calls, messages and the run record
 * print: a completion's status as `expect:` says it, a QP's state as
 * the verbs spell it.
 */
#include "step.h"

const char *rs_wc_status_name(int status)
{
	for (size_t i = 0; i < CYAML_ARRAY_LEN(rs_wc_status_names); i++)
		if (rs_wc_status_names[i].val == status)
			return rs_wc_status_names[i].str;
	return "unknown";
}

const char *rs_qp_state_name(enum ibv_qp_state s)
{
	static const char *const names[] = {
		[IBV_QPS_RESET] = "RESET", [IBV_QPS_INIT] = "INIT",
		[IBV_QPS_RTR] = "RTR", [IBV_QPS_RTS] = "RTS",
		[IBV_QPS_SQD] = "SQD", [IBV_QPS_SQE] = "SQE",
		[IBV_QPS_ERR] = "ERR",
	};

	return (unsigned)s < RS_N(names) && names[s] ?
	       names[s] : "UNKNOWN";
}
