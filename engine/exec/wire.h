/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_WIRE_H
#define RDMASCN_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The wire under a software RDMA device (docs/impairments.md): the netdev
 * rxe or siw sends its packets through, a netem qdisc on it and its link
 * state, through libnl-route-3 (in process, errors as codes, nothing
 * forked, so the same calls serve a failed step, a signal and teardown).
 *
 * Every change is registered with the run (struct rs_wire, run->wire) as
 * it is made and undone by rs_wire_undo_all() in teardown, whatever
 * stopped the run; the step that made it undoes it first when it ends.
 */

/* Our qdiscs' handle, "5253:" ("RS"): the leak check knows ours by it. */
#define RS_WIRE_HANDLE 0x52530000u
#define RS_WIRE_MAJOR 0x5253u

/* netem's parameters in the kernel's units: probabilities as a fraction
 * of UINT32_MAX, times in microseconds. */
struct rs_netem {
	uint32_t loss, loss_corr;
	uint32_t delay_us, jitter_us, delay_corr;
	uint32_t reorder, reorder_corr, gap;
	uint32_t duplicate, duplicate_corr;
	uint32_t corrupt, corrupt_corr;
	uint32_t limit;               /* packets netem holds; 0: 1000 */
};

/* "2%", "0.5%", "100%" into a netem probability.  0, or -EINVAL (no
 * '%', not a number, above 100). */
int rs_wire_percent(const char *s, uint32_t *ret_prob);
/* "10ms", "250us", "1s" into microseconds.  0, or -EINVAL (no unit,
 * not a number), -ERANGE (above netem's 32 bits of microseconds). */
int rs_wire_time_us(const char *s, uint32_t *ret_us);
/* A probability back into percent, for the record. */
double rs_wire_prob_pct(uint32_t prob);

/*
 * Can netem on a netdev reach the RDMA traffic of port @port of device
 * @dev?  The one place that answers it: 0 with the netdev's name in
 * @ret_ifname, or -EOPNOTSUPP with the reason in @why ("mlx5_0: a
 * hardware device (its RDMA traffic does not pass its netdev's qdisc)").
 * @sysfs is "/sys" but for tests.
 */
int rs_wire_reach(const char *sysfs, const char *dev, unsigned port,
		  char *ret_ifname, size_t ilen, char *why, size_t wlen);
/* Does @ifname's carrier go with @of's: is its link @of (a veth's peer,
 * a VLAN or macvlan on it)?  Taking @of down takes it down too; bringing
 * @of up (@up) brings it up only if it is set up itself. */
bool rs_wire_follows(const char *sysfs, const char *ifname, const char *of,
		     bool up);
/* Has this process CAP_NET_ADMIN?  true, or false with why. */
bool rs_wire_admin(char *why, size_t len);

/*
 * rxe's and the IB spec's transport timeout for a connection's @timeout
 * and @retry_cnt: the time before a request nobody acknowledges ends
 * with retry_exc_err.  The spec: 4.096 us * 2^timeout per try, retry_cnt
 * + 1 tries.  rxe (drivers/infiniband/sw/rxe/rxe_qp.c) rounds a try up
 * to one jiffy (@jiffy_ms), and retries forever with retry_cnt 7 or
 * timeout 0: -1 then.
 */
double rs_transport_timeout_ms(unsigned timeout, unsigned retry_cnt,
			       double jiffy_ms);
/* The running kernel's jiffy in ms (CONFIG_HZ from /boot/config-*),
 * 4 (HZ 250, Debian's) when it cannot tell. */
double rs_wire_jiffy_ms(void);

struct rs_run;

/*
 * Put netem @n as the root qdisc of @ifname, handle RS_WIRE_HANDLE.  The
 * root must be the kernel's default (handle 0:): a qdisc someone set up
 * is not ours to replace, and deleting ours restores the default.  0,
 * or -errno with why in @err (-EBUSY: another root qdisc, named).
 */
int rs_wire_netem_add(struct rs_run *run, const char *ifname,
		      const struct rs_netem *n, char *err, size_t len);
/* Delete ours from @ifname (0 when it is gone already). */
int rs_wire_netem_del(struct rs_run *run, const char *ifname, char *err,
		      size_t len);
/* Set @ifname up or down; one taken down is brought up in teardown. */
int rs_wire_link_set(struct rs_run *run, const char *ifname, bool up,
		     char *err, size_t len);
/* Undo every change still made (teardown, last resort): the record
 * gets a `wire` entry for each. */
void rs_wire_undo_all(struct rs_run *run);
/* --check-leaks: each netdev the run touched that still has a qdisc of
 * ours goes into @list as a leak ({dev, kind "qdisc", fields}); their
 * number, or -errno. */
struct rs_val;
int rs_wire_leaks(const struct rs_run *run, struct rs_val *list);
void rs_wire_free(struct rs_run *run);

#endif
