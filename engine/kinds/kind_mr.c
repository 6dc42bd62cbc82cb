// SPDX-License-Identifier: MIT
/*
 * mrs: a host buffer (posix_memalign, or huge pages from mmap) filled as
 * declared and registered with ibv_reg_mr(), ibv_reg_mr_iova2() when an
 * iova is given; device memory registered with ibv_reg_dm_mr(); a
 * dma-buf registered with ibv_reg_dmabuf_mr() (dmabuf.c); or another mr
 * imported with ibv_import_mr() (its buffer stays the original's).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "caps.h"
#include "kinds.h"
#include "literal.h"
#include "macros.h"
#include "live.h"
#include "schema.h"
#include "value.h"

#define HUGE_PAGE_SIZE (2ull << 20)

static const char *const memory_names[] = {
	[RS_MEM_HEAP] = "heap", [RS_MEM_ANONYMOUS] = "anonymous",
	[RS_MEM_HUGETLB] = "hugetlb", [RS_MEM_FILE] = "file",
};

static const struct rs_bit_name access_names[] = {
	{ IBV_ACCESS_LOCAL_WRITE, "local_write" },
	{ IBV_ACCESS_REMOTE_WRITE, "remote_write" },
	{ IBV_ACCESS_REMOTE_READ, "remote_read" },
	{ IBV_ACCESS_REMOTE_ATOMIC, "remote_atomic" },
	{ IBV_ACCESS_MW_BIND, "mw_bind" },
	{ IBV_ACCESS_ZERO_BASED, "zero_based" },
	{ IBV_ACCESS_ON_DEMAND, "on_demand" },
	{ IBV_ACCESS_RELAXED_ORDERING, "relaxed_ordering" },
};

const char *rs_access_text(uint64_t access, char *buf, size_t len)
{
	return rs_bits_text(access, access_names, RS_N(access_names), buf,
			    len);
}

/* A hugetlb mapping's length: whole 2 MiB pages. */
static size_t huge_length(const struct rs_mr *m)
{
	size_t len = m->length ? m->length : 1;

	return (len + HUGE_PAGE_SIZE - 1) & ~(HUGE_PAGE_SIZE - 1);
}

static int mr_check_caps(struct rs_run *run, struct rs_live *l, char *why,
			 unsigned len)
{
	const struct rs_mr *m = l->obj->data;
	const struct rs_dev *dev = rs_live_dev(run, l);

	if (m->import)
		return rs_import_trial(dev, "mr", why, len);
	if (m->dmabuf) {
		rs_dev_limit_count(run, l, RS_LIM_MR);
		return rs_dmabuf_trial(dev, why, len);
	}
	if (dev && m->access & IBV_ACCESS_ON_DEMAND &&
	    !(rs_dev_features(&dev->attr) & 1u << RS_FEAT_ODP)) {
		snprintf(why, len, "odp for on_demand access (%s)",
			 rs_feature_source(RS_FEAT_ODP));
		return -EOPNOTSUPP;
	}
	if (m->memory == RS_MEM_HUGETLB) {
		/* A trial: the mapping reserves the pages or fails, so a
		 * host without them is a skip, not a failed create. */
		size_t map = huge_length(m);
		void *p = mmap(NULL, map, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB,
			       -1, 0);

		if (p == MAP_FAILED) {
			snprintf(why, len, "hugetlb: %zu bytes of 2 MiB huge "
				 "pages (mmap: %s; see "
				 "/proc/sys/vm/nr_hugepages)", map,
				 strerror(errno));
			return -EOPNOTSUPP;
		}
		munmap(p, map);
	}
	rs_dev_limit_count(run, l, RS_LIM_MR);
	return rs_dev_limit_value(run, l, "length", m->length, "max_mr_size",
				  why, len);
}

/* memory: file: open (create) the file, make it at least @len bytes,
 * map it shared.  The mapping keeps the file; the descriptor goes. */
static void *map_file(const char *path, size_t len)
{
	struct stat st;
	void *p = MAP_FAILED;
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0600);

	if (fd < 0)
		return MAP_FAILED;
	/* Validate saw a regular file or none; it may have changed. */
	errno = EINVAL;
	if (!rs_literal_plain(path, fd) && !fstat(fd, &st) &&
	    (st.st_size >= (off_t)len || !ftruncate(fd, (off_t)len)))
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		int e = errno;

		close(fd);
		errno = e;
		return MAP_FAILED;
	}
	close(fd);
	return p;
}

/* The buffer from mmap(): anonymous, huge pages, or a file. */
static int mr_map(struct rs_run *run, struct rs_live *l)
{
	const struct rs_mr *m = l->obj->data;
	struct rs_mr_rt *rt = l->rt;
	size_t map = m->length ? m->length : 1;
	char path[4096];
	void *p = MAP_FAILED;
	struct rs_call c;

	if (m->memory == RS_MEM_HUGETLB)
		map = huge_length(m);
	rs_call_init(&c, RS_CALL_QUERY, "mmap");
	rs_call_arg(&c, "length", "%zu", map);
	if (m->memory == RS_MEM_FILE) {
		if (rs_literal_path(l->obj, m->memory_file, path, sizeof(path)))
			return rs_live_error(run, l, ENAMETOOLONG,
					     "memory_file: path too long");
		rs_call_arg(&c, "file", "%s", path);
		rs_call_arg(&c, "flags", "MAP_SHARED");
	} else {
		rs_call_arg(&c, "flags", "MAP_PRIVATE|MAP_ANONYMOUS%s",
			    m->memory == RS_MEM_HUGETLB ? "|MAP_HUGETLB" : "");
	}
	if (rs_call_go(run, l, &c)) {
		errno = 0;
		if (m->memory == RS_MEM_FILE)
			p = map_file(path, map);
		else
			p = mmap(NULL, map, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS |
				 (m->memory == RS_MEM_HUGETLB ? MAP_HUGETLB : 0),
				 -1, 0);
		rs_call_returned(&c);
		c.ok = p != MAP_FAILED;
		c.err = c.ok ? 0 : errno ? errno : ENOMEM;
	}
	if (c.ok && p != MAP_FAILED) {
		rt->buf = p;
		rt->map_length = map;
	}
	if (!c.ok && !c.hint[0] && m->memory == RS_MEM_HUGETLB &&
	    (c.err == ENOMEM || c.err == EINVAL))
		rs_call_hint(&c, "%zu bytes of 2 MiB huge pages are not "
			     "available; reserve them in "
			     "/proc/sys/vm/nr_hugepages", map);
	else if (!c.ok && !c.hint[0] && m->memory == RS_MEM_FILE)
		rs_call_hint(&c, "memory_file '%s' could not be opened, "
			     "sized to %zu bytes and mapped", path, map);
	return rs_call_done(run, l, &c);
}

/* The buffer: an mmap(), or aligned heap memory. */
static int mr_alloc(struct rs_run *run, struct rs_live *l)
{
	const struct rs_mr *m = l->obj->data;
	struct rs_mr_rt *rt = l->rt;
	size_t len = m->length ? m->length : 1;
	size_t align = m->alignment ? m->alignment :
		       (size_t)sysconf(_SC_PAGESIZE);
	struct rs_call c;

	if (m->memory != RS_MEM_HEAP)
		return mr_map(run, l);
	/* posix_memalign() wants a multiple of sizeof(void *); a stricter
	 * alignment keeps the one asked for. */
	if (align < sizeof(void *))
		align = sizeof(void *);
	rs_call_init(&c, RS_CALL_QUERY, "posix_memalign");
	rs_call_arg(&c, "length", "%zu", len);
	rs_call_arg(&c, "alignment", "%zu", align);
	if (rs_call_go(run, l, &c))
		RS_CALL_INT(&c, posix_memalign(&rt->buf, align, len));
	if (!c.ok)
		rt->buf = NULL;
	return rs_call_done(run, l, &c);
}

/* Device memory has no host buffer: `fill:` is copied in. */
static int dm_fill(struct rs_run *run, struct rs_live *l, struct ibv_dm *dm)
{
	const struct rs_mr *m = l->obj->data;
	void *tmp = rs_malloc(m->length ? m->length : 1);
	int ret;

	if (!tmp)
		return rs_live_error(run, l, ENOMEM, "fill: %s",
				     strerror(ENOMEM));
	ret = rs_mr_fill(run, l, tmp, m->length);
	if (ret) {
		rs_free(tmp);
		return ret;
	}
	ret = ibv_memcpy_to_dm(dm, m->dm_offset, tmp, m->length);
	rs_free(tmp);
	if (ret)
		return rs_live_error(run, l, ret < 0 ? -ret : ret,
				     "fill: ibv_memcpy_to_dm: %s",
				     strerror(ret < 0 ? -ret : ret));
	return 0;
}

static void mr_hint(struct rs_run *run, struct rs_live *l, struct rs_call *c)
{
	const struct rs_mr *m = l->obj->data;
	const struct rs_mr_rt *rt = l->rt;
	const struct rs_dev *dev = rs_live_dev(run, l);
	const uint32_t remote = IBV_ACCESS_REMOTE_WRITE |
				IBV_ACCESS_REMOTE_ATOMIC;

	if (c->ok || c->hint[0] || !dev)
		return;
	if (c->err == EINVAL && rt->buf && !m->dm &&
	    (rt->addr ^ (uintptr_t)rt->buf) & (sysconf(_SC_PAGESIZE) - 1))
		rs_call_hint(c, "iova 0x%" PRIx64 " and the buffer %p must "
			     "have the same offset in a page (the kernel's "
			     "rule); give 'alignment' a page size",
			     rt->addr, rt->buf);
	else if (c->err == EINVAL && m->access & remote &&
	    !(m->access & IBV_ACCESS_LOCAL_WRITE))
		rs_call_hint(c, "remote_write and remote_atomic need "
			     "local_write");
	else if (dev->attr.orig_attr.max_mr_size &&
		 m->length > dev->attr.orig_attr.max_mr_size)
		rs_call_hint(c, "length %" PRIu64 " exceeds max_mr_size %"
			     PRIu64, m->length,
			     (uint64_t)dev->attr.orig_attr.max_mr_size);
	else if (c->err == EINVAL && m->access & IBV_ACCESS_ON_DEMAND)
		rs_call_hint(c, "on_demand access: check the device's "
			     "odp_caps for this transport");
	else if (m->dm) {
		const struct rs_live *dl = rs_live_find(run, m->dm);
		const struct rs_dm *d = dl ? dl->obj->data : NULL;

		if (d && m->dm_offset + m->length > d->length)
			rs_call_hint(c, "dm_offset %" PRIu64 " + length %"
				     PRIu64 " exceeds dm '%s' of %" PRIu64
				     " bytes", m->dm_offset, m->length, m->dm,
				     d->length);
	} else if (c->err == ENOMEM || c->err == EAGAIN) {
		rs_call_hint(c, "pinned memory is limited by RLIMIT_MEMLOCK "
			     "(ulimit -l)");
	}
}

/* ibv_import_mr() of the original's handle on this mr's pd: the same
 * keys and bytes, seen from the imported context. */
static int mr_import(struct rs_run *run, struct rs_live *l)
{
	const struct rs_mr *m = l->obj->data;
	struct rs_mr_rt *rt = l->rt;
	struct rs_mr_rt *orig = rs_rt(run, m->import);
	struct rs_call c;

	rt->imported = true;
	rs_call_init(&c, RS_CALL_CREATE, "ibv_import_mr");
	rs_call_arg(&c, "pd", "%s", m->pd);
	rs_call_arg(&c, "mr_handle", "%s.handle", m->import);
	if (rs_call_go(run, l, &c))
		RS_CALL_PTR(&c, rt->mr, ibv_import_mr(rs_live_pd(run, m->pd),
						      orig->mr->handle));
	if (orig) {
		rt->buf = orig->buf;
		rt->length = orig->length;
		rt->addr = orig->addr;
	}
	return rs_call_done(run, l, &c);
}

/* A dma-buf of whole pages holding the MR at dmabuf.offset, filled
 * through the memfd's mapping, then ibv_reg_dmabuf_mr(). */
static int mr_dmabuf(struct rs_run *run, struct rs_live *l, const char *acc)
{
	const struct rs_mr *m = l->obj->data;
	struct rs_mr_rt *rt = l->rt;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t off = m->dmabuf->offset;
	size_t size = (off + (m->length ? m->length : 1) + page - 1) &
		      ~(page - 1);
	const char *what = "udmabuf";
	uint64_t iova;
	struct rs_call c;
	int ret;

	rs_call_init(&c, RS_CALL_QUERY, "udmabuf");
	rs_call_arg(&c, "memfd_size", "%zu", size);
	rs_call_arg(&c, "seals", "F_SEAL_SHRINK");
	if (rs_call_go(run, l, &c)) {
		ret = rs_dmabuf_make(size, &rt->dmabuf.memfd, &rt->dmabuf.fd,
				     &rt->dmabuf.map, &what);
		rs_call_returned(&c);
		c.ok = !ret;
		c.err = -ret;
		if (ret)
			rs_call_hint(&c, "%s failed", what);
		else
			rt->dmabuf.size = size;
	}
	ret = rs_call_done(run, l, &c);
	if (ret)
		return ret;
	if (rt->dmabuf.map) {
		rt->buf = (uint8_t *)rt->dmabuf.map + off;
		ret = rs_mr_fill(run, l, rt->buf, m->length);
		if (ret)
			return ret;
	}
	iova = rs_obj_has(l->obj, "iova") ? m->iova :
	       m->access & IBV_ACCESS_ZERO_BASED ? 0 : (uintptr_t)rt->buf;
	rs_call_init(&c, RS_CALL_CREATE, "ibv_reg_dmabuf_mr");
	rs_call_arg(&c, "pd", "%s", m->pd);
	rs_call_arg(&c, "offset", "%" PRIu64, off);
	rs_call_arg(&c, "length", "%" PRIu64, m->length);
	if (rt->buf || rs_obj_has(l->obj, "iova") ||
	    m->access & IBV_ACCESS_ZERO_BASED)
		rs_call_arg(&c, "iova", "0x%" PRIx64, iova);
	else
		rs_call_arg(&c, "iova", "the buffer's address");
	rs_call_arg(&c, "fd", "udmabuf");
	rs_call_arg(&c, "access", "%s", acc);
	rs_mr_fill_arg(&c, l->obj);
	if (rs_call_go(run, l, &c))
		RS_CALL_PTR(&c, rt->mr, ibv_reg_dmabuf_mr(
			    rs_live_pd(run, m->pd), off, m->length, iova,
			    rt->dmabuf.fd, (int)m->access));
	rt->addr = iova;
	mr_hint(run, l, &c);
	return rs_call_done(run, l, &c);
}

static int mr_create(struct rs_run *run, struct rs_live *l)
{
	const struct rs_mr *m = l->obj->data;
	struct rs_mr_rt *rt = l->rt;
	struct ibv_pd *pd = rs_live_pd(run, m->pd);
	bool has_iova = rs_obj_has(l->obj, "iova");
	bool zero_based = m->access & IBV_ACCESS_ZERO_BASED;
	char acc[160] = "";
	struct rs_call c;
	int ret;

	if (m->import)
		return mr_import(run, l);
	rt->length = m->length;
	/* Only the call's arguments show it: an snprintf() a flag for
	 * every mr of a run that keeps no calls, else. */
	if (rs_call_args_wanted())
		rs_access_text(m->access, acc, sizeof(acc));
	if (m->dmabuf)
		return mr_dmabuf(run, l, acc);
	if (m->dm) {
		struct rs_dm_rt *dm = rs_rt(run, m->dm);

		/* Device memory is addressed from 0 (ZERO_BASED, which
		 * check() insists on); it has no host address. */
		rs_call_init(&c, RS_CALL_CREATE, "ibv_reg_dm_mr");
		rs_call_arg(&c, "pd", "%s", m->pd);
		rs_call_arg(&c, "dm", "%s", m->dm);
		rs_call_arg(&c, "dm_offset", "%" PRIu64, m->dm_offset);
		rs_call_arg(&c, "length", "%" PRIu64, m->length);
		rs_call_arg(&c, "access", "%s", acc);
		if (rs_obj_has(l->obj, "fill"))
			rs_call_arg(&c, "fill", "%s (ibv_memcpy_to_dm)",
				    rs_mr_fill_name(m->fill));
		if (rs_call_go(run, l, &c))
			RS_CALL_PTR(&c, rt->mr, ibv_reg_dm_mr(pd, dm->dm,
				    m->dm_offset, m->length, m->access));
		rt->addr = 0;
		mr_hint(run, l, &c);
		ret = rs_call_done(run, l, &c);
		if (!ret && rt->mr && rs_obj_has(l->obj, "fill"))
			ret = dm_fill(run, l, dm->dm);
		return ret;
	}

	ret = mr_alloc(run, l);
	if (ret)
		return ret;
	if (rt->buf) {
		ret = rs_mr_fill(run, l, rt->buf, m->length);
		if (ret)
			return ret;
	}

	/* A zero-based MR without an iova is an iova of 0: portable,
	 * where not every provider honours the access flag alone. */
	if (has_iova || zero_based) {
		uint64_t iova = has_iova ? m->iova : 0;

		rs_call_init(&c, RS_CALL_CREATE, "ibv_reg_mr_iova2");
		rs_call_arg(&c, "pd", "%s", m->pd);
		rs_call_arg(&c, "length", "%" PRIu64, m->length);
		rs_call_arg(&c, "iova", "0x%" PRIx64, iova);
		rs_call_arg(&c, "access", "%s", acc);
		if (m->memory != RS_MEM_HEAP)
			rs_call_arg(&c, "memory", "%s",
				    memory_names[m->memory]);
		rs_mr_fill_arg(&c, l->obj);
		if (rs_call_go(run, l, &c))
			RS_CALL_PTR(&c, rt->mr, ibv_reg_mr_iova2(pd, rt->buf,
				    m->length, iova, m->access));
		rt->addr = iova;
	} else {
		rs_call_init(&c, RS_CALL_CREATE, "ibv_reg_mr");
		rs_call_arg(&c, "pd", "%s", m->pd);
		rs_call_arg(&c, "length", "%" PRIu64, m->length);
		rs_call_arg(&c, "access", "%s", acc);
		if (m->memory != RS_MEM_HEAP)
			rs_call_arg(&c, "memory", "%s",
				    memory_names[m->memory]);
		else if (m->alignment)
			rs_call_arg(&c, "alignment", "%" PRIu64, m->alignment);
		rs_mr_fill_arg(&c, l->obj);
		if (rs_call_go(run, l, &c))
			RS_CALL_PTR(&c, rt->mr, ibv_reg_mr(pd, rt->buf,
				    m->length, (int)m->access));
		rt->addr = (uintptr_t)rt->buf;
	}
	mr_hint(run, l, &c);
	return rs_call_done(run, l, &c);
}

static void mr_unimport(struct rs_run *run, struct rs_live *l)
{
	struct rs_mr_rt *rt = l->rt;
	struct rs_call c;

	/* The buffer is the original's, and so is the registration. */
	rt->buf = NULL;
	if (!rt->mr && !run->dry_run)
		return;
	rs_call_init(&c, RS_CALL_DESTROY, "ibv_unimport_mr");
	rs_call_arg(&c, "mr", "%s", l->obj->id);
	if (rs_call_go(run, l, &c)) {
		/* It returns nothing: it cannot fail. */
		ibv_unimport_mr(rt->mr);
		rs_call_returned(&c);
		c.ok = true;
	}
	rt->mr = NULL;
	rs_call_done(run, l, &c);
}

static void mr_destroy(struct rs_run *run, struct rs_live *l)
{
	const struct rs_mr *m = l->obj->data;
	struct rs_mr_rt *rt = l->rt;
	struct rs_call c;

	if (m->import) {
		mr_unimport(run, l);
		return;
	}
	RS_CALL_RELEASE(run, l, ibv_dereg_mr, rt->mr);
	if (rt->dmabuf.map) {
		/* The dma-buf after the MR that pins it, the memfd last. */
		munmap(rt->dmabuf.map, rt->dmabuf.size);
		close(rt->dmabuf.fd);
		close(rt->dmabuf.memfd);
		rt->dmabuf.map = NULL;
		rt->buf = NULL;
	}
	/* The buffer goes only after the MR: the device may use it until
	 * ibv_dereg_mr() returns.  A mapping's release is a call of its
	 * own, shown in a dry run and with -v. */
	if (m->memory != RS_MEM_HEAP && !m->dm && (rt->buf || run->dry_run)) {
		size_t map = rt->map_length ? rt->map_length :
			     m->memory == RS_MEM_HUGETLB ? huge_length(m) :
			     m->length ? m->length : 1;

		rs_call_init(&c, RS_CALL_DESTROY, "munmap");
		rs_call_arg(&c, "length", "%zu", map);
		if (rs_call_go(run, l, &c))
			RS_CALL_INT(&c, munmap(rt->buf, map));
		rs_call_done(run, l, &c);
	} else if (rt->buf) {
		free(rt->buf);
	}
	rt->buf = NULL;
	rt->map_length = 0;
}

/* An MR's facts as describe found them, made members when the record
 * is written or read (as nodes, 2.3 M instructions at N=1000): its
 * import's name and its file's path, when it has them, after it. */
struct mr_facts {
	uint64_t addr, length, dm_offset, dmabuf_size, map_length;
	const char *memory;     /* a literal */
	uint32_t lkey, rkey, handle;
	uint16_t import_len;    /* 0: none; else with its NUL */
	bool dm, dmabuf, file;
	char text[];            /* import, NUL, memory_file, NUL */
};

static unsigned mr_facts_fields(const void *data, struct rs_val_field *f,
				void *room)
{
	const struct mr_facts *mf = data;
	char *hex = room;
	unsigned n = 0;

	rs_hex(mf->lkey, 1, hex);
	f[n++] = RS_VAL_F_STR("lkey", hex, strlen(hex));
	hex += RS_HEX_MAX;
	rs_hex(mf->rkey, 1, hex);
	f[n++] = RS_VAL_F_STR("rkey", hex, strlen(hex));
	hex += RS_HEX_MAX;
	rs_hex(mf->addr, 1, hex);
	f[n++] = RS_VAL_F_STR("addr", hex, strlen(hex));
	f[n++] = RS_VAL_F_U64("length", mf->length);
	f[n++] = RS_VAL_F_U64("handle", mf->handle);
	if (mf->import_len)
		f[n++] = RS_VAL_F_STR("import", mf->text,
				      mf->import_len - 1u);
	if (mf->dm)
		f[n++] = RS_VAL_F_U64("dm_offset", mf->dm_offset);
	if (mf->dmabuf)
		f[n++] = RS_VAL_F_U64("dmabuf_size", mf->dmabuf_size);
	f[n++] = RS_VAL_F_STR("memory", mf->memory, strlen(mf->memory));
	if (mf->map_length)
		f[n++] = RS_VAL_F_U64("map_length", mf->map_length);
	if (mf->file) {
		const char *path = mf->text + mf->import_len;

		f[n++] = RS_VAL_F_STR("memory_file", path, strlen(path));
	}
	return n;
}

static const struct rs_val_struct mr_facts_ops = {
	.fields = mr_facts_fields,
};

static void mr_describe(struct rs_run *run, struct rs_live *l,
			struct rs_val *v)
{
	const struct rs_mr *m = l->obj->data;
	struct rs_mr_rt *rt = l->rt;
	char path[4096];
	size_t ilen = m->import ? strlen(m->import) + 1 : 0, plen = 0;
	struct mr_facts *mf;

	(void)run;
	if (m->memory == RS_MEM_FILE &&
	    !rs_literal_path(l->obj, m->memory_file, path, sizeof(path)))
		plen = strlen(path) + 1;
	mf = rs_val_obj_struct(v, &mr_facts_ops, sizeof(*mf) + ilen + plen);
	if (!mf)
		return;
	mf->lkey = rt->mr->lkey;
	mf->rkey = rt->mr->rkey;
	mf->addr = rt->addr;
	mf->length = rt->length;
	mf->handle = rt->mr->handle;
	mf->import_len = (uint16_t)ilen;
	if (ilen)
		memcpy(mf->text, m->import, ilen);
	mf->dm = m->dm != NULL;
	mf->dm_offset = m->dm_offset;
	mf->dmabuf = rt->dmabuf.map != NULL;
	mf->dmabuf_size = rt->dmabuf.size;
	/* Where the bytes are: what a failure on one kind of memory and
	 * not another needs to be told apart by. */
	mf->memory = m->dm ? "dm" : m->dmabuf ? "dmabuf" :
		     m->import ? "import" : memory_names[m->memory];
	mf->map_length = rt->map_length;
	mf->file = plen != 0;
	if (plen)
		memcpy(mf->text + ilen, path, plen);
}

static int mr_as_mem(struct rs_live *l, struct rdmascn_mem *ret)
{
	ret->rt = l->rt;
	return 0;
}

const struct rdmascn_ops rs_ops_mr = {
	.rt_size = sizeof(struct rs_mr_rt),
	.check_caps = mr_check_caps,
	.create = mr_create,
	.destroy = mr_destroy,
	.describe = mr_describe,
	.as_mem = mr_as_mem,
};
