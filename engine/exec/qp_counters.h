/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_QP_COUNTERS_H
#define RDMASCN_QP_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "rdma_nl.h"

/*
 * Per-QP counters through RDMA netlink counter binding, as `rdma
 * statistic qp bind|unbind|show` does it: each of the run's QPs bound to
 * a counter of its own (manual mode), read around every top-level step,
 * unbound in teardown.  A port whose driver cannot bind (rxe, siw) or
 * whose link counts in auto mode is a skip with its reason in the
 * record, never a failure.  Requests and the parsing of replies are
 * apart from the socket, for the unit tests.
 */

/* --- requests, attribute for attribute as iproute2's rdma sends them ---- */

/* `rdma statistic qp bind link DEV/PORT lqpn QPN`: a new counter. */
void rs_qpc_req_bind(struct rs_nl_req *r, uint32_t dev, uint32_t port,
		     uint32_t qpn);
/* `rdma statistic qp unbind link DEV/PORT cntn CNTN lqpn QPN`. */
void rs_qpc_req_unbind(struct rs_nl_req *r, uint32_t dev, uint32_t port,
		       uint32_t cntn, uint32_t qpn);
/* One counter, its QPs and values (`rdma statistic qp show` reads
 * them in a dump; this asks for one). */
void rs_qpc_req_get(struct rs_nl_req *r, uint32_t dev, uint32_t port,
		    uint32_t cntn);
/* `rdma statistic qp mode link DEV/PORT`: the link's counter mode. */
void rs_qpc_req_mode(struct rs_nl_req *r, uint32_t dev, uint32_t port);
/* Every counter of device @dev (a dump). */
void rs_qpc_req_dump(struct rs_nl_req *r, uint32_t dev);

/* --- replies ------------------------------------------------------------ */

struct rs_qpc_val {
	char name[64];           /* the driver's, e.g. "out_of_sequence" */
	uint64_t value;
};

/* One counter as the kernel shows it. */
struct rs_qpc_cnt {
	uint32_t dev;            /* the message's RDMA_NLDEV_ATTR_DEV_INDEX */
	uint32_t id, port, mode; /* mode: enum rdma_nl_counter_mode */
	uint32_t *qpns;          /* the QPs bound to it */
	unsigned n_qpns, cap_qpns;
	struct rs_qpc_val *vals;
	unsigned n_vals, cap_vals;
};

/*
 * What the replies to the requests above said; rs_qpc_parse() is the
 * struct rs_nl_reply's msg, with this as its arg.  A STAT_SET reply (a
 * bind; an unbind answers with one too) sets cntn and qpn; a STAT_GET
 * reply of one counter or a dump of them adds to cnts; the mode reply
 * sets mode.
 */
struct rs_qpc_reply {
	bool have_cntn;
	uint32_t cntn, qpn;
	bool have_mode;
	uint32_t mode;
	struct rs_qpc_cnt *cnts;
	unsigned n_cnts, cap_cnts;
};

/* 0, -EPROTO (malformed), -ENOMEM. */
int rs_qpc_parse(void *reply, const struct nlmsghdr *h);
/* Free what it holds; it can be reused. */
void rs_qpc_reply_free(struct rs_qpc_reply *rp);
/* @name's value in @c, or NULL. */
const struct rs_qpc_val *rs_qpc_val(const struct rs_qpc_cnt *c,
				    const char *name);
/* Counter @cntn of device @dev's port @port in @rp, or NULL; with @qpn
 * not 0, only while QP @qpn is bound to it (an id the kernel gave again
 * to another process's QP is not the one we had). */
const struct rs_qpc_cnt *rs_qpc_find(const struct rs_qpc_reply *rp,
				     uint32_t dev, uint32_t port,
				     uint32_t cntn, uint32_t qpn);
struct rs_val;
/* What moved from @before to @after, {NAME: delta}, into *@out, NULL
 * when nothing did: 0, or -ENOMEM (*@out NULL).  A counter @before lacks
 * moved by nothing known; one that reads lower (a driver reset it) moved
 * by what it reads. */
int rs_qpc_delta(const struct rs_qpc_cnt *before,
		 const struct rs_qpc_cnt *after, struct rs_val **out);

/* --- the run ------------------------------------------------------------ */

struct rs_run;

/*
 * Bind each of the run's QPs (those made here, on a device with a
 * kernel index) to a counter of its own, port by port, at the start of
 * the steps: set-up, not each step, so that one step costs two reads
 * (one dump per device) rather than a bind and an unbind per QP, and no
 * bind races a step's traffic.  QPs made during the steps are not bound.
 * The record's root "qp_counters" says, per DEV/PORT, which QP has which
 * counter, or why none was bound (a skip).  Nothing when
 * run->counters_off (--counters=off).  Never fails the run.
 */
void rs_qp_counters_bind(struct rs_run *run);
/* Around a top-level step: the values before; after it, into *@out, the
 * deltas of each QP one of whose counters moved ({"QP_ID": {NAME:
 * delta}}, the step's figures.qp_counters), or NULL when none did.
 * Each 0 or -errno: a read that failed (netlink, memory), for the
 * caller to say; what was read is still given. */
int rs_qp_counters_before(struct rs_run *run);
int rs_qp_counters_after(struct rs_run *run, struct rs_val **out);
/* Unbind every counter bound (teardown, before the QPs go: on a failed
 * step, a timeout and a signal alike); a failure goes into the record
 * and the leak check finds the counter. */
void rs_qp_counters_unbind(struct rs_run *run);
/*
 * --check-leaks: every counter this run bound that the kernel still
 * has with one of our QPs on it, pushed onto @list as a leak (kind
 * "counter"), asked on @nl.  How many, or -errno when the kernel cannot
 * be asked (why in *@why).
 */
int rs_qp_counters_leaks(const struct rs_run *run, struct rs_nl *nl,
			 struct rs_val *list, const char **why);
/* The run's binding state, freed (NULL accepted). */
void rs_qp_counters_free(struct rs_run *run);

#endif
