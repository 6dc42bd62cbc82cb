/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_FACTS_H
#define RDMASCN_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

/*
 * The facts of a context's device, port and GID: one table, which
 * `rdmascn devices -j` prints (caps and each port's members, in this
 * order, with these names), ${CTX.GROUP.FIELD} reads and
 * requires.facts bounds.  Each fact has a type (a number or text) and
 * the value a run without a device assumes (validate, plan, run -n).
 */
enum rs_fact_group { RS_FACT_DEVICE, RS_FACT_PORT, RS_FACT_GID,
		     RS_FACT_GROUPS };

/* Where the facts are read from: what a context's probe found. */
struct rs_fact_src {
	const char *name;                    /* the device's */
	const struct ibv_device_attr_ex *attr;
	const struct ibv_port_attr *port;
	uint32_t num_comp_vectors;           /* the open context's */
	int gid_index;                       /* -1: none */
	enum ibv_gid_type gid_type;
	const union ibv_gid *gid;
};

struct rs_fact_val {
	bool text;
	uint64_t num;
	char str[64];
};

struct rs_fact {
	const char *name;
	enum rs_fact_group group;
	bool text;
	/* Printed by `devices` with the device's caps (else elsewhere). */
	bool in_caps;
	uint16_t off;            /* a number: its offset in attr or port */
	uint8_t size;            /* ... its size; 0: get() */
	void (*get)(const struct rs_fact_src *src, struct rs_fact_val *ret);
	uint64_t assumed;        /* no device: this number */
	const char *assumed_text;/* ... or this text */
};

const char *rs_fact_group_name(enum rs_fact_group g);
/* The facts, table order; NULL past the end. */
const struct rs_fact *rs_fact_at(unsigned i);
/* "port.max_msg_sz" (@len bytes) -> its fact, or NULL. */
const struct rs_fact *rs_fact_find(const char *name, size_t len);
/* ", did you mean 'device.max_cqe'?" for the unknown fact @name (@name_len
 * bytes) into @buf, or "": its length. */
size_t rs_fact_near(const char *name, size_t name_len, char *buf, size_t len);
/* "port.max_msg_sz", for messages. */
const char *rs_fact_path(const struct rs_fact *f, char *buf, size_t len);
void rs_fact_get(const struct rs_fact *f, const struct rs_fact_src *src,
		 struct rs_fact_val *ret);
void rs_fact_assumed(const struct rs_fact *f, struct rs_fact_val *ret);
/* Text facts compare without case, ' ' and '_' alike: "roce_v2" is
 * "RoCE v2". */
bool rs_fact_text_eq(const char *a, const char *b);

#endif
