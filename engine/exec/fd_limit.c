// SPDX-License-Identifier: MIT
/*
 * File descriptors: a scenario with many contexts, completion channels
 * or rdma_cm connections can need more than a shell's soft
 * RLIMIT_NOFILE (often 1024).  Before creating anything, the engine
 * counts roughly what it will hold open and raises the soft limit to the
 * hard one when that is not enough, as tinygrad's IB transport does.
 */
#include <errno.h>
#include <string.h>
#include <sys/resource.h>

#include <uv.h>

#include "live.h"
#include "run.h"
#include "value.h"

/* What the engine holds itself: stdio, the record's files, the leak
 * check's netlink socket, libuv's main loop. */
#define FDS_ENGINE 24
/* A step's loop: epoll, its eventfd, timers' and signals' pipes. */
#define FDS_STEP 4

static unsigned fds_needed(struct rs_run *run)
{
	unsigned n = FDS_ENGINE, steps = run->s->n_objs - run->s->n_objects;
	bool cm = false;

	for (unsigned i = 0; i < run->s->n_objects; i++) {
		struct rs_live *l = &run->live[i];
		const struct rdmascn_ops *ops = rs_live_ops(l);
		struct rdmascn_cq cq;

		/* A device context: its command fd and its async fd. */
		if (rs_as_dev(l))
			n += 2;
		/* A CQ: its completion channel, when it has one (a polled
		 * CQ holds none: counting one for each of 1000 asked for
		 * 1026 where 26 do). */
		if (!rs_as_cq(l, &cq) && cq.channel)
			n += 1;
		/* rdma_cm: an event channel each. */
		if (ops->uses_rdma_cm && ops->uses_rdma_cm(l)) {
			n += 1;
			cm = true;
		}
	}
	/* librdmacm opens every device, twice, for itself. */
	if (cm)
		n += 2 * (unsigned)(run->n_devices > 0 ? run->n_devices : 1);
	return n + FDS_STEP * steps;
}

/*
 * libuv's first loop sets up process-wide state (its signal pipe, once)
 * and abort()s when it cannot: do that now, while descriptors are free,
 * so that running out later is an error message, not a crash.
 */
static void uv_setup(void)
{
	uv_loop_t loop;

	if (!uv_loop_init(&loop))
		uv_loop_close(&loop);
}

void rs_run_fd_limit(struct rs_run *run)
{
	unsigned need = fds_needed(run);
	struct rlimit rl;
	struct rs_val *v;

	if (run->dry_run)
		return;
	uv_setup();
	if (getrlimit(RLIMIT_NOFILE, &rl))
		return;
	v = rs_val_put_obj(run->rec->root, "rlimit_nofile");
	rs_val_put_u64(v, "soft", rl.rlim_cur);
	rs_val_put_u64(v, "hard", rl.rlim_max);
	rs_val_put_u64(v, "needed", need);
	if (need <= rl.rlim_cur)
		return;
	if (rl.rlim_max != RLIM_INFINITY && need > rl.rlim_max)
		rs_diag_warning(&run->diag, NULL, "the scenario needs about %u "
				"file descriptors, above RLIMIT_NOFILE's hard "
				"limit (%llu): raise it (ulimit -Hn, "
				"limits.conf) if a call fails with too many "
				"open files", need,
				(unsigned long long)rl.rlim_max);
	if (rl.rlim_cur == rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		rs_diag_warning(&run->diag, NULL, "the scenario needs about %u "
				"file descriptors; raising RLIMIT_NOFILE's soft "
				"limit to its hard one (%llu) failed: %s", need,
				(unsigned long long)rl.rlim_max,
				strerror(errno));
		return;
	}
	rs_val_put_u64(v, "raised_to", rl.rlim_max);
}
