// SPDX-License-Identifier: MIT
/*
 * The wire under a software RDMA device: which netdev, whether netem there
 * reaches the device's traffic, netem and link changes through
 * libnl-route-3, each registered with the run so that teardown undoes
 * what a step left (wire.h).
 *
 * Why libnl-route-3 and not tc: libibverbs already depends on it (the
 * VM and every host with rdma-core have its runtime), it is in process
 * (no fork on the path of a signal, no parsing of tc's text), and its
 * errors are codes.  What its 3.7 API lacks is said where it matters:
 * netem's rate and its loss models (gemodel, state) have no setter.
 */
#include <errno.h>
#include <limits.h>
#include <linux/capability.h>
#include <math.h>
#include <net/if.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <linux/pkt_sched.h>
#include <netlink/errno.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <netlink/route/qdisc.h>
#include <netlink/route/qdisc/netem.h>
#include <netlink/route/tc.h>

#include "alloc.h"
#include "run.h"
#include "value.h"
#include "wire.h"

/* --- values --------------------------------------------------------------- */

/* A decimal number at the start of @s: its value and where it ends. */
static int number(const char *s, double *ret, const char **end)
{
	char *e;
	double v;

	if (!s || !*s || (*s != '.' && (*s < '0' || *s > '9')))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &e);
	if (e == s || errno || !isfinite(v))
		return -EINVAL;
	*ret = v;
	*end = e;
	return 0;
}

int rs_wire_percent(const char *s, uint32_t *ret_prob)
{
	const char *e;
	double v;

	if (number(s, &v, &e) || strcmp(e, "%") || v > 100)
		return -EINVAL;
	/* netem's scale: UINT32_MAX is certain, as tc's get_percent(). */
	*ret_prob = v >= 100 ? UINT32_MAX :
		    (uint32_t)llround(v / 100 * (double)UINT32_MAX);
	return 0;
}

double rs_wire_prob_pct(uint32_t prob)
{
	return (double)prob * 100 / (double)UINT32_MAX;
}

int rs_wire_time_us(const char *s, uint32_t *ret_us)
{
	static const struct { const char *unit; double us; } units[] = {
		{ "us", 1 }, { "ms", 1000 }, { "s", 1000000 },
	};
	const char *e;
	double v;

	if (number(s, &v, &e))
		return -EINVAL;
	for (unsigned i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(e, units[i].unit))
			continue;
		v *= units[i].us;
		if (v > UINT32_MAX)
			return -ERANGE;
		*ret_us = (uint32_t)llround(v);
		return 0;
	}
	return -EINVAL;
}

/* --- which netdev, and whether netem reaches the device ------------------- */

/* The first line of @path into @buf; 0 or -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	char *nl;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return buf[0] ? 0 : -ENOENT;
}

int rs_wire_reach(const char *sysfs, const char *dev, unsigned port,
		  char *ret_ifname, size_t ilen, char *why, size_t wlen)
{
	char path[PATH_MAX], ifname[IF_NAMESIZE + 1], drv[PATH_MAX];
	const char *d;
	ssize_t n;

	/* The netdev the port's GIDs are on (RoCE, rxe, siw); the rxe
	 * `parent` attribute says the same, only for rxe. */
	snprintf(path, sizeof(path),
		 "%s/class/infiniband/%s/ports/%u/gid_attrs/ndevs/0", sysfs,
		 dev, port);
	if (read_line(path, ifname, sizeof(ifname))) {
		snprintf(why, wlen, "%s port %u has no netdev (%s): not "
			 "Ethernet, nothing for netem to act on", dev, port,
			 path);
		return -EOPNOTSUPP;
	}
	/* A device with a bus device behind it is hardware: its RDMA
	 * packets leave from the NIC, not through the netdev's qdisc. */
	snprintf(path, sizeof(path), "%s/class/infiniband/%s/device/driver",
		 sysfs, dev);
	n = readlink(path, drv, sizeof(drv) - 1);
	if (n > 0) {
		drv[n] = '\0';
		d = strrchr(drv, '/');
		snprintf(why, wlen, "%s: %s is a hardware NIC's driver: "
			 "netem on its netdev %s does not touch RDMA traffic",
			 dev, d ? d + 1 : drv, ifname);
		return -EOPNOTSUPP;
	}
	snprintf(path, sizeof(path), "%s/class/infiniband/%s/device", sysfs,
		 dev);
	if (!access(path, F_OK)) {
		snprintf(why, wlen, "%s: a hardware device (%s): netem on its "
			 "netdev %s does not touch RDMA traffic", dev, path,
			 ifname);
		return -EOPNOTSUPP;
	}
	/* Software (rxe, siw): it sends through the netdev's stack, which
	 * must be in this network namespace for us to reach. */
	snprintf(path, sizeof(path), "%s/class/net/%s", sysfs, ifname);
	if (access(path, F_OK)) {
		snprintf(why, wlen, "%s: its netdev %s is not in this "
			 "network namespace (%s)", dev, ifname, path);
		return -EOPNOTSUPP;
	}
	snprintf(ret_ifname, ilen, "%s", ifname);
	return 0;
}

/* /sys/class/net/@ifname/@attr as a number; -1 when unreadable. */
static long net_attr(const char *sysfs, const char *ifname, const char *attr)
{
	char path[PATH_MAX], line[32], *end;
	long v;

	snprintf(path, sizeof(path), "%s/class/net/%s/%s", sysfs, ifname,
		 attr);
	if (read_line(path, line, sizeof(line)))
		return -1;
	v = strtol(line, &end, 0);
	return *end ? -1 : v;
}

bool rs_wire_follows(const char *sysfs, const char *ifname, const char *of,
		     bool up)
{
	long link = net_attr(sysfs, ifname, "iflink");
	long flags = up ? net_attr(sysfs, ifname, "flags") : 0;

	/* Set down, it stays down whatever its link does. */
	return strcmp(ifname, of) && link > 0 && flags >= 0 &&
	       (!up || flags & IFF_UP) &&
	       link != net_attr(sysfs, ifname, "ifindex") &&
	       link == net_attr(sysfs, of, "ifindex");
}

bool rs_wire_admin(char *why, size_t len)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct c[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &h, c)) {
		snprintf(why, len, "capget: %m");
		return false;
	}
	if (c[CAP_NET_ADMIN / 32].effective & (1u << (CAP_NET_ADMIN % 32)))
		return true;
	snprintf(why, len, "needs CAP_NET_ADMIN to change a qdisc or link "
		 "(run as root)");
	return false;
}

/* --- the transport timeout ------------------------------------------------ */

double rs_transport_timeout_ms(unsigned timeout, unsigned retry_cnt,
			       double jiffy_ms)
{
	double try_ms;

	if (!timeout || retry_cnt >= 7)
		return -1;
	try_ms = 4.096e-3 * ldexp(1, (int)timeout);
	if (try_ms < jiffy_ms)
		try_ms = jiffy_ms;
	return try_ms * (retry_cnt + 1);
}

/* Read once a process: over the VM's 9p root the kernel's config took
 * a second to reach CONFIG_HZ. */
static double jiffy_ms;

double rs_wire_jiffy_ms(void)
{
	char path[PATH_MAX], line[256];
	struct utsname u;
	double ms = 4;
	FILE *f;

	if (jiffy_ms)
		return jiffy_ms;
	jiffy_ms = ms;
	if (uname(&u))
		return ms;
	snprintf(path, sizeof(path), "/boot/config-%s", u.release);
	f = fopen(path, "re");
	if (!f)
		return ms;
	while (fgets(line, sizeof(line), f)) {
		unsigned hz;

		if (sscanf(line, "CONFIG_HZ=%u", &hz) == 1 && hz) {
			ms = 1000.0 / hz;
			break;
		}
	}
	fclose(f);
	jiffy_ms = ms;
	return ms;
}

/* --- changes, registered with the run ------------------------------------- */

enum change_kind { CH_QDISC, CH_LINK_DOWN };

struct change {
	char ifname[IF_NAMESIZE];
	enum change_kind kind;
	bool active;              /* made, not undone yet */
};

struct rs_wire {
	struct nl_sock *sk;
	struct change *ch;
	unsigned n, cap;
};

static int nl_errno(int nlerr)
{
	switch (-nlerr) {
	case NLE_PERM: return -EPERM;
	case NLE_EXIST: return -EEXIST;
	case NLE_NODEV: return -ENODEV;
	case NLE_OBJ_NOTFOUND: return -ENOENT;
	case NLE_BUSY: return -EBUSY;
	case NLE_NOMEM: return -ENOMEM;
	case NLE_INVAL: return -EINVAL;
	case NLE_OPNOTSUPP: return -EOPNOTSUPP;
	default: return -EIO;
	}
}

static struct rs_wire *wire_get(struct rs_run *run, char *err, size_t len)
{
	struct rs_wire *w = run->wire;
	int r;

	if (w)
		return w;
	w = rs_calloc(1, sizeof(*w));
	if (!w) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	w->sk = nl_socket_alloc();
	r = w->sk ? nl_connect(w->sk, NETLINK_ROUTE) : -NLE_NOMEM;
	if (r < 0) {
		snprintf(err, len, "rtnetlink socket: %s", nl_geterror(r));
		if (w->sk)
			nl_socket_free(w->sk);
		rs_free(w);
		return NULL;
	}
	run->wire = w;
	return w;
}

/* The change of @kind on @ifname, made (@add) or looked up. */
static struct change *change_at(struct rs_wire *w, const char *ifname,
				enum change_kind kind, bool add)
{
	struct change *c;

	for (unsigned i = 0; i < w->n; i++)
		if (w->ch[i].kind == kind && !strcmp(w->ch[i].ifname, ifname))
			return &w->ch[i];
	if (!add)
		return NULL;
	c = rs_grow(w->ch, w->n, &w->cap, sizeof(*c));
	if (!c)
		return NULL;
	w->ch = c;
	c = &w->ch[w->n++];
	memset(c, 0, sizeof(*c));
	snprintf(c->ifname, sizeof(c->ifname), "%s", ifname);
	c->kind = kind;
	return c;
}

/* The root qdisc of @ifindex: its handle and kind (0 and "": the
 * kernel's default, or none). */
static int root_qdisc(struct nl_sock *sk, int ifindex, uint32_t *ret_handle,
		      char *kind, size_t klen)
{
	struct nl_cache *cache;
	struct rtnl_qdisc *q;
	int r = rtnl_qdisc_alloc_cache(sk, &cache);

	if (r < 0)
		return r;
	*ret_handle = 0;
	kind[0] = '\0';
	q = rtnl_qdisc_get_by_parent(cache, ifindex, TC_H_ROOT);
	if (q) {
		*ret_handle = rtnl_tc_get_handle(TC_CAST(q));
		snprintf(kind, klen, "%s", rtnl_tc_get_kind(TC_CAST(q)) ?: "");
		rtnl_qdisc_put(q);
	}
	nl_cache_free(cache);
	return 0;
}

static void netem_set(struct rtnl_qdisc *q, const struct rs_netem *n)
{
	/* libnl takes the kernel's u32s as int; only what is given is
	 * sent, so netem's defaults hold for the rest. */
	rtnl_netem_set_limit(q, n->limit ? (int)n->limit : 1000);
	if (n->loss) {
		rtnl_netem_set_loss(q, (int)n->loss);
		rtnl_netem_set_loss_correlation(q, (int)n->loss_corr);
	}
	if (n->delay_us) {
		rtnl_netem_set_delay(q, (int)n->delay_us);
		if (n->jitter_us)
			rtnl_netem_set_jitter(q, (int)n->jitter_us);
		if (n->delay_corr)
			rtnl_netem_set_delay_correlation(q,
							 (int)n->delay_corr);
	}
	if (n->reorder) {
		rtnl_netem_set_reorder_probability(q, (int)n->reorder);
		rtnl_netem_set_reorder_correlation(q, (int)n->reorder_corr);
		if (n->gap)
			rtnl_netem_set_gap(q, (int)n->gap);
	}
	if (n->duplicate) {
		rtnl_netem_set_duplicate(q, (int)n->duplicate);
		rtnl_netem_set_duplicate_correlation(q, (int)n->duplicate_corr);
	}
	if (n->corrupt) {
		rtnl_netem_set_corruption_probability(q, (int)n->corrupt);
		rtnl_netem_set_corruption_correlation(q,
						      (int)n->corrupt_corr);
	}
}

static int netem_add_locked(struct rs_run *run, const char *ifname,
			    const struct rs_netem *n, char *err, size_t len)
{
	struct rs_wire *w = wire_get(run, err, len);
	int ifindex = (int)if_nametoindex(ifname), r;
	struct rtnl_qdisc *q;
	struct change *c;
	char kind[32];
	uint32_t h;

	if (!w)
		return -ENOMEM;
	if (!ifindex) {
		snprintf(err, len, "%s: %m", ifname);
		return -ENODEV;
	}
	r = root_qdisc(w->sk, ifindex, &h, kind, sizeof(kind));
	if (r < 0) {
		snprintf(err, len, "%s: reading its qdiscs: %s", ifname,
			 nl_geterror(r));
		return nl_errno(r);
	}
	if (h == RS_WIRE_HANDLE) {
		snprintf(err, len, "%s already has a netem of rdmascn's "
			 "(handle %x:), left by a run that was killed: remove "
			 "it with `tc qdisc del dev %s root`", ifname,
			 RS_WIRE_MAJOR, ifname);
		return -EBUSY;
	}
	if (h) {
		snprintf(err, len, "%s has root qdisc %s %x: of someone "
			 "else's: rdmascn replaces only the kernel's default",
			 ifname, kind, h >> 16);
		return -EBUSY;
	}
	c = change_at(w, ifname, CH_QDISC, true);
	q = rtnl_qdisc_alloc();
	if (!c || !q) {
		rtnl_qdisc_put(q);
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	rtnl_tc_set_ifindex(TC_CAST(q), ifindex);
	rtnl_tc_set_parent(TC_CAST(q), TC_H_ROOT);
	rtnl_tc_set_handle(TC_CAST(q), RS_WIRE_HANDLE);
	r = rtnl_tc_set_kind(TC_CAST(q), "netem");
	if (!r) {
		netem_set(q, n);
		r = rtnl_qdisc_add(w->sk, q, NLM_F_CREATE | NLM_F_EXCL);
	}
	rtnl_qdisc_put(q);
	if (r < 0) {
		snprintf(err, len, "%s: adding netem: %s", ifname,
			 nl_geterror(r));
		return nl_errno(r);
	}
	c->active = true;
	return 0;
}

static int netem_del_locked(struct rs_run *run, const char *ifname,
			    char *err, size_t len)
{
	struct rs_wire *w = run->wire;
	struct change *c = w ? change_at(w, ifname, CH_QDISC, false) : NULL;
	int ifindex = (int)if_nametoindex(ifname), r;
	struct rtnl_qdisc *q;

	if (!c || !c->active)
		return 0;
	if (!ifindex) {
		/* The netdev went (rxe deleted with its veth): so did
		 * every qdisc on it. */
		c->active = false;
		return 0;
	}
	q = rtnl_qdisc_alloc();
	if (!q) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	rtnl_tc_set_ifindex(TC_CAST(q), ifindex);
	rtnl_tc_set_parent(TC_CAST(q), TC_H_ROOT);
	rtnl_tc_set_handle(TC_CAST(q), RS_WIRE_HANDLE);
	r = rtnl_qdisc_delete(w->sk, q);
	rtnl_qdisc_put(q);
	if (r < 0 && r != -NLE_OBJ_NOTFOUND) {
		snprintf(err, len, "%s: removing netem %x:: %s", ifname,
			 RS_WIRE_MAJOR, nl_geterror(r));
		return nl_errno(r);
	}
	c->active = false;
	return 0;
}

static int link_set_locked(struct rs_run *run, const char *ifname, bool up,
			   char *err, size_t len)
{
	struct rs_wire *w = wire_get(run, err, len);
	struct rtnl_link *orig = NULL, *chg;
	struct change *c;
	int r;

	if (!w)
		return -ENOMEM;
	c = change_at(w, ifname, CH_LINK_DOWN, !up);
	if (!up && !c) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	r = rtnl_link_get_kernel(w->sk, 0, ifname, &orig);
	if (r < 0) {
		snprintf(err, len, "%s: %s", ifname, nl_geterror(r));
		return nl_errno(r);
	}
	chg = rtnl_link_alloc();
	if (!chg) {
		rtnl_link_put(orig);
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	if (up)
		rtnl_link_set_flags(chg, IFF_UP);
	else
		rtnl_link_unset_flags(chg, IFF_UP);
	r = rtnl_link_change(w->sk, orig, chg, 0);
	rtnl_link_put(chg);
	rtnl_link_put(orig);
	if (r < 0) {
		snprintf(err, len, "%s: setting it %s: %s", ifname,
			 up ? "up" : "down", nl_geterror(r));
		return nl_errno(r);
	}
	if (c)
		c->active = !up;
	return 0;
}

/* Two impair steps of a parallel step may change the wire at once: one
 * change at a time. */
static pthread_mutex_t wire_lock = PTHREAD_MUTEX_INITIALIZER;

int rs_wire_netem_add(struct rs_run *run, const char *ifname,
		      const struct rs_netem *n, char *err, size_t len)
{
	int r;

	pthread_mutex_lock(&wire_lock);
	r = netem_add_locked(run, ifname, n, err, len);
	pthread_mutex_unlock(&wire_lock);
	return r;
}

int rs_wire_netem_del(struct rs_run *run, const char *ifname, char *err,
		      size_t len)
{
	int r;

	pthread_mutex_lock(&wire_lock);
	r = netem_del_locked(run, ifname, err, len);
	pthread_mutex_unlock(&wire_lock);
	return r;
}

int rs_wire_link_set(struct rs_run *run, const char *ifname, bool up,
		     char *err, size_t len)
{
	int r;

	pthread_mutex_lock(&wire_lock);
	r = link_set_locked(run, ifname, up, err, len);
	pthread_mutex_unlock(&wire_lock);
	return r;
}

void rs_wire_undo_all(struct rs_run *run)
{
	struct rs_wire *w = run->wire;
	char err[256];

	pthread_mutex_lock(&wire_lock);
	for (unsigned i = 0; w && i < w->n; i++) {
		struct change *c = &w->ch[i];
		int r;

		if (!c->active)
			continue;
		r = c->kind == CH_QDISC ?
		    netem_del_locked(run, c->ifname, err, sizeof(err)) :
		    link_set_locked(run, c->ifname, true, err, sizeof(err));
		if (r) {
			rs_diag_error(&run->diag, NULL, "teardown: %s", err);
			run->teardown_failed = true;
		}
	}
	pthread_mutex_unlock(&wire_lock);
}

int rs_wire_leaks(const struct rs_run *run, struct rs_val *list)
{
	struct rs_wire *w = run->wire;
	int n = 0;

	for (unsigned i = 0; w && i < w->n; i++) {
		struct change *c = &w->ch[i];
		int ifindex = (int)if_nametoindex(c->ifname);
		struct rs_val *e, *fs;
		char kind[32];
		uint32_t h;
		int r;

		if (c->kind != CH_QDISC || !ifindex)
			continue;
		r = root_qdisc(w->sk, ifindex, &h, kind, sizeof(kind));
		if (r < 0)
			return nl_errno(r);
		if (h != RS_WIRE_HANDLE)
			continue;
		e = rs_val_push_obj(list);
		rs_val_put_str(e, "device", c->ifname);
		rs_val_put_str(e, "kind", "qdisc");
		rs_val_put_u64(e, "pid", (uint64_t)getpid());
		fs = rs_val_put_obj(e, "fields");
		rs_val_put_strf(fs, "handle", "%x:", RS_WIRE_MAJOR);
		rs_val_put_str(fs, "type", kind);
		n++;
	}
	return n;
}

void rs_wire_free(struct rs_run *run)
{
	struct rs_wire *w = run->wire;

	if (!w)
		return;
	nl_socket_free(w->sk);
	rs_free(w->ch);
	rs_free(w);
	run->wire = NULL;
}
