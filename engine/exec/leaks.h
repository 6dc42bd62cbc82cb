/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_LEAKS_H
#define RDMASCN_LEAKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * --check-leaks asks the kernel's RDMA netlink (nldev) which resources
 * each device tracks and keeps those of this process.  The parsing of
 * what the kernel sends is apart from the socket, so a test can feed it
 * hand-built messages.
 */

/* The numbers an entry may carry, in the order they are printed (after
 * the entry's own number, which comes first). */
enum rs_leak_field {
	RS_LEAK_QPN, RS_LEAK_TYPE, RS_LEAK_CQN, RS_LEAK_SRQN, RS_LEAK_MRN,
	RS_LEAK_RKEY, RS_LEAK_LKEY, RS_LEAK_LENGTH, RS_LEAK_PDN,
	RS_LEAK_CTXN, RS_LEAK_CM_IDN,
	RS_LEAK_N_FIELDS
};

/* One resource the kernel holds for us. */
struct rs_leak {
	char dev[64];            /* RDMA_NLDEV_ATTR_DEV_NAME */
	const char *kind;        /* "pd", "qp", ... (static) */
	uint32_t pid;
	uint32_t have;           /* bit (1 << enum rs_leak_field): val set */
	uint64_t val[RS_LEAK_N_FIELDS];
};

/* A device, from the RDMA_NLDEV_CMD_GET dump. */
struct rs_leak_dev {
	uint32_t index;
	char name[64];
};

/* One dump's state; rs_leaks_parse() is called on each buffer received. */
struct rs_leak_dump {
	uint32_t seq;            /* the request's: other messages are stale */
	uint32_t port;           /* our netlink port id; 0: any */
	uint32_t pid;            /* keep entries of this process */
	struct rs_leak *leaks;   /* grows (rs_reallocarray) */
	unsigned n_leaks, cap_leaks;
	struct rs_leak_dev *devs;
	unsigned n_devs, cap_devs;
	unsigned others;         /* entries seen that are not ours */
	bool done;               /* NLMSG_DONE or NLMSG_ERROR seen */
	int err;                 /* the kernel's answer: 0 or -errno */
};

/*
 * Parse one received buffer of netlink messages: devices (from a
 * RDMA_NLDEV_CMD_GET dump) go to d->devs, resource entries owned by
 * d->pid (from RDMA_NLDEV_CMD_RES_*_GET dumps) to d->leaks.  Entries
 * with another pid, no pid, or a kernel name are counted in d->others.
 * 0, or -EPROTO on a malformed message, -ENOMEM.
 */
int rs_leaks_parse(struct rs_leak_dump *d, const void *buf, size_t len);
struct rs_val;
/*
 * @l pushed onto @list as the run record keeps it: its device, kind and
 * pid, and its numbers in "fields" in the order the text shows them
 * (its own number first), a type by its name and a key in hex as
 * strings, as iproute2 shows them; with @librdmacm marked as
 * librdmacm's own context, not counted.  The text reporter prints it
 * (rs_leak_text()).
 */
void rs_leak_put(struct rs_val *list, const struct rs_leak *l,
		 bool librdmacm);
/* Free d's arrays; d can be reused. */
void rs_leak_dump_free(struct rs_leak_dump *d);

#endif
