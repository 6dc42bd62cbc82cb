// SPDX-License-Identifier: MIT
/*
 * Port and device counters from sysfs (counters.h): each directory
 * listed once per run, each file read with one open and one read (a
 * snapshot's read of rxe's 15 is 45 system calls, no stdio, no popen).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "counters.h"
#include "run.h"

/* A hw_counters directory without a lifespan file: the kernel's
 * default (ib_core's, 10 ms). */
#define DEFAULT_LIFESPAN_MS 10

struct rs_counters *rs_counters_new(const char *root)
{
	struct rs_counters *c = rs_calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->root = rs_strdup(root ? root : RS_CTR_ROOT);
	if (!c->root) {
		rs_free(c);
		return NULL;
	}
	return c;
}

static void dir_free(struct rs_ctr_dir *d)
{
	for (unsigned i = 0; i < d->n; i++)
		rs_free(d->names[i]);
	rs_free(d->names);
	rs_free(d->path);
}

void rs_counters_free(struct rs_counters *c)
{
	if (!c)
		return;
	for (unsigned i = 0; i < c->n_dirs; i++)
		dir_free(&c->dirs[i]);
	rs_free(c->dirs);
	rs_free(c->root);
	rs_free(c);
}

/* @path's number: 0 and *@ret, or -errno (-EINVAL: not a number, as a
 * driver's "N/A"). */
static int read_u64(const char *path, uint64_t *ret)
{
	char buf[32], *end;
	unsigned long long v;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EINVAL;
	buf[n] = '\0';
	errno = 0;
	v = strtoull(buf, &end, 0);
	if (end == buf || errno || (*end && *end != '\n'))
		return -EINVAL;
	*ret = v;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The counters of @d->path, by name, sorted (a record that reads the
 * same every run); none when it is not there.  0 or -ENOMEM. */
static int dir_list(struct rs_ctr_dir *d, bool cached)
{
	char lpath[PATH_MAX];
	struct dirent *de;
	unsigned cap = 0;
	uint64_t life;
	DIR *dir;
	int ret = 0;

	dir = opendir(d->path);
	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		char **grown;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "lifespan") ||
		    (de->d_type != DT_REG && de->d_type != DT_UNKNOWN))
			continue;
		grown = rs_grow(d->names, d->n, &cap, sizeof(*grown));
		if (!grown) {
			ret = -ENOMEM;
			break;
		}
		d->names = grown;
		d->names[d->n] = rs_strdup(de->d_name);
		if (!d->names[d->n]) {
			ret = -ENOMEM;
			break;
		}
		d->n++;
	}
	closedir(dir);
	if (d->n)
		qsort(d->names, d->n, sizeof(*d->names), cmp_names);
	if (cached) {
		snprintf(lpath, sizeof(lpath), "%s/lifespan", d->path);
		d->lifespan_ms = read_u64(lpath, &life) ? DEFAULT_LIFESPAN_MS :
				 (unsigned)life;
	}
	return ret;
}

/* The index of directory @sub of @dev (a path below it), listed now if
 * it was not: 0 and *@ret, or -ENOMEM. */
static int dir_find(struct rs_counters *c, const char *dev, const char *sub,
		    const char *key, bool cached, unsigned *ret)
{
	struct rs_ctr_dir *d;
	char path[PATH_MAX];
	int r;

	snprintf(path, sizeof(path), "%s/%s/%s", c->root, dev, sub);
	for (unsigned i = 0; i < c->n_dirs; i++)
		if (!strcmp(c->dirs[i].path, path)) {
			*ret = i;
			return 0;
		}
	d = rs_grow(c->dirs, c->n_dirs, &c->cap, sizeof(*d));
	if (!d)
		return -ENOMEM;
	c->dirs = d;
	d = &c->dirs[c->n_dirs];
	memset(d, 0, sizeof(*d));
	d->path = rs_strdup(path);
	if (!d->path)
		return -ENOMEM;
	snprintf(d->key, sizeof(d->key), "%s", key);
	r = dir_list(d, cached);
	if (r) {
		dir_free(d);
		return r;
	}
	*ret = c->n_dirs++;
	return 0;
}

static int snap_add_dir(struct rs_ctr_snap *s, unsigned di)
{
	unsigned *dirs;

	for (unsigned i = 0; i < s->n; i++)
		if (s->dirs[i] == di)
			return 0;
	/* A directory that is not there reads nothing. */
	if (!s->c->dirs[di].n)
		return 0;
	dirs = rs_grow(s->dirs, s->n, &s->cap, sizeof(*dirs));
	if (!dirs)
		return -ENOMEM;
	s->dirs = dirs;
	s->dirs[s->n++] = di;
	return 0;
}

int rs_ctr_snap_add(struct rs_ctr_snap *s, struct rs_counters *c,
		    const char *dev, unsigned port)
{
	char sub[64], key[96];
	unsigned di;
	int r;

	s->c = c;
	snprintf(key, sizeof(key), "%s/%u", dev, port);
	/* The PMA set first: a name both directories have is its. */
	snprintf(sub, sizeof(sub), "ports/%u/counters", port);
	r = dir_find(c, dev, sub, key, false, &di);
	if (!r)
		r = snap_add_dir(s, di);
	if (r)
		return r;
	snprintf(sub, sizeof(sub), "ports/%u/hw_counters", port);
	r = dir_find(c, dev, sub, key, true, &di);
	if (!r)
		r = snap_add_dir(s, di);
	if (r)
		return r;
	r = dir_find(c, dev, "hw_counters", dev, true, &di);
	return r ? r : snap_add_dir(s, di);
}

/* Read directory @d's counters into @v, @have. */
static void dir_read(struct rs_ctr_dir *d, uint64_t *v, bool *have)
{
	char path[PATH_MAX];

	for (unsigned i = 0; i < d->n; i++) {
		snprintf(path, sizeof(path), "%s/%s", d->path, d->names[i]);
		have[i] = !read_u64(path, &v[i]);
	}
	d->read_ms = rs_now_ms();
}

int rs_ctr_snap_begin(struct rs_ctr_snap *s)
{
	if (!s->n) {
		s->begun = true;
		return 0;
	}
	s->before = rs_calloc(s->n, sizeof(*s->before));
	s->have = rs_calloc(s->n, sizeof(*s->have));
	if (!s->before || !s->have)
		return -ENOMEM;
	for (unsigned i = 0; i < s->n; i++) {
		struct rs_ctr_dir *d = &s->c->dirs[s->dirs[i]];

		s->before[i] = rs_calloc(d->n, sizeof(**s->before));
		s->have[i] = rs_calloc(d->n, sizeof(**s->have));
		if (!s->before[i] || !s->have[i])
			return -ENOMEM;
		dir_read(d, s->before[i], s->have[i]);
	}
	s->begun = true;
	return 0;
}

unsigned rs_ctr_snap_lifespan(const struct rs_ctr_snap *s)
{
	unsigned ms = 0;

	for (unsigned i = 0; i < s->n; i++)
		if (s->c->dirs[s->dirs[i]].lifespan_ms > ms)
			ms = s->c->dirs[s->dirs[i]].lifespan_ms;
	return ms;
}

/*
 * The kernel keeps a hw_counters cache while jiffies <= its timestamp +
 * lifespan, so it expires up to a jiffy after the lifespan: a jiffy is
 * at most 10 ms (HZ=100).  Seen on rxe (HZ=250): a step of 12-15 ms read
 * the cached values twice and recorded deltas of 0.
 */
#define JIFFY_MAX_MS 10

/* Until @d's cache has expired since its last read: a second read any
 * sooner would see the first one's values again. */
static void wait_lifespan(const struct rs_ctr_dir *d)
{
	double left = d->read_ms + d->lifespan_ms + JIFFY_MAX_MS - rs_now_ms();
	struct timespec ts;

	if (!d->lifespan_ms || left <= 0)
		return;
	ts.tv_sec = (time_t)(left / 1e3);
	ts.tv_nsec = (long)((left - ts.tv_sec * 1e3) * 1e6) + 1;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int rs_ctr_snap_end(struct rs_ctr_snap *s, struct rs_val *ret)
{
	uint64_t *after = NULL;
	bool *have = NULL;
	unsigned max = 0;
	int r = 0;

	if (!s->begun)
		return -EINVAL;
	for (unsigned i = 0; i < s->n; i++)
		if (s->c->dirs[s->dirs[i]].n > max)
			max = s->c->dirs[s->dirs[i]].n;
	if (!s->n)
		return 0;
	after = rs_calloc(max, sizeof(*after));
	have = rs_calloc(max, sizeof(*have));
	if (!after || !have) {
		r = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < s->n; i++) {
		struct rs_ctr_dir *d = &s->c->dirs[s->dirs[i]];
		struct rs_val *o = NULL;

		wait_lifespan(d);
		dir_read(d, after, have);
		for (unsigned k = 0; k < d->n; k++) {
			uint64_t delta;

			if (!have[k] || !s->have[i][k])
				continue;
			if (!o) {
				o = (struct rs_val *)rs_val_get(ret, d->key);
				if (!o)
					o = rs_val_put_obj(ret, d->key);
			}
			/* The PMA set's was put first (rs_ctr_snap_add()). */
			if (rs_val_get(o, d->names[k]))
				continue;
			/* Went down: reset in between; what it counted
			 * since then. */
			delta = after[k] >= s->before[i][k] ?
				after[k] - s->before[i][k] : after[k];
			rs_val_put_u64(o, d->names[k], delta);
		}
	}
	if (rs_val_check(ret) < 0)
		r = -ENOMEM;
out:
	rs_free(after);
	rs_free(have);
	return r;
}

void rs_ctr_snap_free(struct rs_ctr_snap *s)
{
	for (unsigned i = 0; i < s->n; i++) {
		if (s->before)
			rs_free(s->before[i]);
		if (s->have)
			rs_free(s->have[i]);
	}
	rs_free(s->before);
	rs_free(s->have);
	rs_free(s->dirs);
	memset(s, 0, sizeof(*s));
}

/*
 * The counters the text report shows under a step when they moved:
 * errors, drops, retransmissions and congestion, by driver; and any
 * name with a word that starts "err" or "discard" (the PMA's
 * symbol_error, port_rcv_errors, port_xmit_discards, ..., mlx5's
 * *_cqe_error).
 */
static const struct {
	const char *name;
	bool part;               /* a part of the name, not all of it */
} error_names[] = {
	/* a word of the name starts so */
	{ "err", true },
	{ "discard", true },
	/* rxe (rxe_hw_counters.c; out_of_sequence before 5.x) */
	{ "duplicate_request", false },
	{ "out_of_seq_request", false },
	{ "out_of_sequence", false },
	{ "link_downed", false },
	/* mlx5 (q-counters, retransmission, congestion) */
	{ "out_of_buffer", false },
	{ "np_cnp_sent", false },
	{ "rp_cnp_handled", false },
	{ "np_ecn_marked_roce_packets", false },
	/* the PMA set's without "err" in the name */
	{ "VL15_dropped", false },
};

/* @part begins @name or a '_'-separated word of it: "err" is in
 * rcvd_seq_err and port_rcv_errors, not in rxe's ack_deferred. */
static bool has_word(const char *name, const char *part)
{
	for (const char *p = name; (p = strstr(p, part)); p++)
		if (p == name || p[-1] == '_')
			return true;
	return false;
}

bool rs_counter_is_error(const char *name)
{
	for (size_t i = 0; i < sizeof(error_names) / sizeof(error_names[0]);
	     i++)
		if (error_names[i].part ? has_word(name, error_names[i].name) :
		    !strcmp(name, error_names[i].name))
			return true;
	return false;
}

const char *rs_counter_unit(const char *name)
{
	/* IBA 16.1.3.5: PortXmitData, PortRcvData count 32-bit words. */
	if (!strcmp(name, "port_xmit_data") || !strcmp(name, "port_rcv_data"))
		return "4-octet words";
	return NULL;
}
