// SPDX-License-Identifier: MIT
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "kinds.h"
#include "literal.h"
#include "macros.h"
#include "live.h"
#include "model.h"
#include "parse.h"

static const cyaml_strval_t mr_access_names[] = {
	{ "local_write", IBV_ACCESS_LOCAL_WRITE },
	{ "remote_write", IBV_ACCESS_REMOTE_WRITE },
	{ "remote_read", IBV_ACCESS_REMOTE_READ },
	{ "remote_atomic", IBV_ACCESS_REMOTE_ATOMIC },
	{ "mw_bind", IBV_ACCESS_MW_BIND },
	{ "zero_based", IBV_ACCESS_ZERO_BASED },
	{ "on_demand", IBV_ACCESS_ON_DEMAND },
	{ "relaxed_ordering", IBV_ACCESS_RELAXED_ORDERING },
};

static const cyaml_strval_t mr_fill_names[] = {
	{ "zero", RS_FILL_ZERO }, { "pattern", RS_FILL_PATTERN },
	{ "random", RS_FILL_RANDOM }, { "byte", RS_FILL_BYTE },
};

static const cyaml_strval_t mr_dmabuf_sources[] = {
	{ "udmabuf", RS_DMABUF_UDMABUF },
};

static const cyaml_schema_field_t mr_dmabuf_fields[] = {
	RS_FIELD_ENUM("source", struct rs_mr_dmabuf, source,
		      mr_dmabuf_sources),
	RS_FIELD_UINT("offset", struct rs_mr_dmabuf, offset),
	CYAML_FIELD_END
};

static const cyaml_strval_t mr_memory_names[] = {
	{ "heap", RS_MEM_HEAP }, { "anonymous", RS_MEM_ANONYMOUS },
	{ "hugetlb", RS_MEM_HUGETLB }, { "file", RS_MEM_FILE },
};

static const cyaml_schema_field_t mr_fields[] = {
	RS_FIELD_ID(struct rs_mr),
	RS_FIELD_AFTER(struct rs_mr),
	RS_FIELD_REF("pd", struct rs_mr, pd),
	RS_FIELD_UINT("length", struct rs_mr, length),
	RS_FIELD_FLAGS("access", struct rs_mr, access, mr_access_names),
	RS_FIELD_UINT("iova", struct rs_mr, iova),
	RS_FIELD_UINT("alignment", struct rs_mr, alignment),
	RS_FIELD_BOOL("huge_pages", struct rs_mr, huge_pages),
	RS_FIELD_ENUM("memory", struct rs_mr, memory, mr_memory_names),
	RS_FIELD_STR("memory_file", struct rs_mr, memory_file),
	RS_FIELD_ENUM("fill", struct rs_mr, fill, mr_fill_names),
	RS_FIELD_UINT("fill_byte", struct rs_mr, fill_byte),
	RS_FIELD_STR("fill_text", struct rs_mr, fill_text),
	RS_FIELD_STR("fill_hex", struct rs_mr, fill_hex),
	RS_FIELD_STR("fill_file", struct rs_mr, fill_file),
	RS_FIELD_OPT_REF("dm", struct rs_mr, dm),
	RS_FIELD_UINT("dm_offset", struct rs_mr, dm_offset),
	RS_FIELD_MAP("dmabuf", struct rs_mr, dmabuf, mr_dmabuf_fields),
	RS_FIELD_OPT_REF("import", struct rs_mr, import),
	CYAML_FIELD_END
};

static const struct rdmascn_ref mr_refs[] = {
	RS_REF("pd", struct rs_mr, pd, "pd", "parent_domain"),
	RS_REF("dm", struct rs_mr, dm, "dm"),
	RS_REF("import", struct rs_mr, import, "mr"),
	RS_REF_AFTER(struct rs_mr),
	RS_REF_END
};

/* An imported mr is its original's buffer, length and access: it takes
 * none of the fields that describe them. */
static int import_check(struct rs_obj *obj, struct rs_diag *d)
{
	static const char *const own[] = {
		"length", "access", "iova", "alignment", "huge_pages", "fill",
		"fill_byte", "fill_text", "fill_hex", "fill_file", "memory",
		"memory_file", "dm", "dm_offset", "dmabuf",
	};

	for (unsigned i = 0; i < RS_N(own); i++)
		if (rs_obj_has(obj, own[i])) {
			rs_obj_error(d, obj, own[i], "an imported mr has its "
				     "original's; remove it");
			return -EINVAL;
		}
	return 0;
}

/* Where the mr lies in its dm, checked against the dm's length. */
static int dm_check(struct rs_obj *obj, struct rs_diag *d)
{
	const struct rs_mr *m = obj->data;
	const struct rs_obj *dmo = rs_obj_ref(obj, "dm");
	const struct rs_dm *dm = dmo ? dmo->data : NULL;

	if (!m->dm && rs_obj_has(obj, "dm_offset")) {
		rs_obj_error(d, obj, "dm_offset", "needs 'dm'");
		return -EINVAL;
	}
	if (dm && (m->dm_offset > dm->length ||
		   m->length > dm->length - m->dm_offset)) {
		rs_obj_error(d, obj, m->dm_offset ? "dm_offset" : "length",
			     "%" PRIu64 " bytes at offset %" PRIu64 " end past "
			     "dm '%s' of %" PRIu64 " bytes", m->length,
			     m->dm_offset, m->dm, dm->length);
		return -EINVAL;
	}
	return 0;
}

/* fill, fill_text, fill_hex, fill_file: one at most; a literal's bytes
 * must fit in the buffer, which is zero after them. */
static int check_fill(struct rs_obj *obj, struct rs_diag *d)
{
	static const char *const ways[] = {
		"fill", "fill_text", "fill_hex", "fill_file",
	};
	struct rs_mr *m = obj->data;
	const char *const lit[] = { NULL, m->fill_text, m->fill_hex,
				    m->fill_file };
	const char *first = NULL;
	unsigned form = 0;

	for (unsigned i = 0; i < RS_N(ways); i++) {
		if (!rs_obj_has(obj, ways[i]))
			continue;
		if (first) {
			rs_obj_error(d, obj, ways[i], "exclusive with '%s'",
				     first);
			return -EINVAL;
		}
		first = ways[i];
		form = i;
	}
	if (!form)
		return 0;
	if (rs_literal_check(obj, d, ways[form], (int)form, lit[form],
			     &m->fill_length) < 0)
		return -EINVAL;
	if (m->fill_length > m->length) {
		rs_obj_error(d, obj, ways[form], "%" PRIu64 " bytes do not "
			     "fit in the mr's length %" PRIu64,
			     m->fill_length, m->length);
		return -EINVAL;
	}
	m->fill = RS_FILL_TEXT + (int)form - 1;
	return 0;
}

/* memory: and huge_pages: true, the older word for memory: hugetlb. */
static int check_memory(struct rs_obj *obj, struct rs_diag *d)
{
	struct rs_mr *m = obj->data;

	if (m->huge_pages && rs_obj_has(obj, "memory") &&
	    m->memory != RS_MEM_HUGETLB) {
		rs_obj_error(d, obj, "huge_pages", "means 'memory: hugetlb', not "
			     "'memory: %s'", m->memory == RS_MEM_FILE ? "file" :
			     m->memory == RS_MEM_ANONYMOUS ? "anonymous" :
			     "heap");
		return -EINVAL;
	}
	if (m->huge_pages)
		m->memory = RS_MEM_HUGETLB;
	m->huge_pages = m->memory == RS_MEM_HUGETLB;
	if ((m->memory == RS_MEM_FILE) != rs_obj_has(obj, "memory_file")) {
		rs_obj_error(d, obj, m->memory_file ? "memory_file" : "memory",
			     m->memory_file ? "goes with 'memory: file', and "
			     "only with it" : "'memory: file' needs "
			     "'memory_file'");
		return -EINVAL;
	}
	if (m->memory_file && !m->memory_file[0]) {
		rs_obj_error(d, obj, "memory_file", "is empty");
		return -EINVAL;
	}
	/* Made when missing; when there, a file to map: not /dev/zero, a
	 * FIFO, /proc/self/mem or a directory. */
	if (m->memory_file) {
		char path[4096];
		int r = rs_literal_path(obj, m->memory_file, path,
					sizeof(path)) ? -ENAMETOOLONG :
			rs_literal_plain(path, -1);

		if (r && r != -ENOENT) {
			rs_obj_error(d, obj, "memory_file", "'%s': %s (a "
				     "regular file, or one to create)",
				     m->memory_file, rs_literal_why(r));
			return -EINVAL;
		}
	}
	if (m->memory != RS_MEM_HEAP && rs_obj_has(obj, "alignment")) {
		rs_obj_error(d, obj, "alignment", "goes with 'memory: heap' "
			     "only (mmap() aligns to a page)");
		return -EINVAL;
	}
	return 0;
}

/* Does this process have CAP_IPC_LOCK (the kernel then pins past
 * RLIMIT_MEMLOCK)?  Read from /proc: no libcap for one bit. */
static bool ipc_lock_capable(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	unsigned long long eff = 0;
	char line[256];
	bool found = false;

	if (!f)
		return true; /* unknown: do not refuse */
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "CapEff: %llx", &eff) == 1;
	fclose(f);
	return !found || eff & 1ull << 14; /* CAP_IPC_LOCK */
}

/*
 * What the kernel will pin for an mr in host memory: no more than the
 * host has, nor past RLIMIT_MEMLOCK without CAP_IPC_LOCK.  Known
 * without a device, so refused at validate (exit 2), not at a create
 * that fails with ENOMEM half way through the set-up.
 */
struct host_memory {
	bool known;
	uint64_t bytes;          /* 0: unknown */
	bool memlock_limited;
	struct rlimit memlock;
};

/* Read once a process: sysconf(_SC_PHYS_PAGES) is a sysinfo() call, and
 * with getrlimit() it was 6% of validating 100k objects. */
static const struct host_memory *host_memory(void)
{
	static struct host_memory h;
	long pages, page;

	if (h.known)
		return &h;
	pages = sysconf(_SC_PHYS_PAGES);
	page = sysconf(_SC_PAGESIZE);
	if (pages > 0 && page > 0)
		h.bytes = (uint64_t)pages * (uint64_t)page;
	h.memlock_limited = !getrlimit(RLIMIT_MEMLOCK, &h.memlock) &&
			    h.memlock.rlim_cur != RLIM_INFINITY;
	h.known = true;
	return &h;
}

static int check_host_memory(struct rs_obj *obj, struct rs_diag *d)
{
	const struct rs_mr *m = obj->data;
	const struct host_memory *h;

	if (m->import || m->dm || m->dmabuf ||
	    m->access & IBV_ACCESS_ON_DEMAND)
		return 0; /* not pinned host memory */
	h = host_memory();
	if (h->bytes && m->length > h->bytes) {
		rs_obj_error(d, obj, "length", "%" PRIu64 " bytes is more than "
			     "this host's memory, %" PRIu64 " bytes",
			     m->length, h->bytes);
		return -EINVAL;
	}
	if (h->memlock_limited && m->length > h->memlock.rlim_cur &&
	    !ipc_lock_capable()) {
		rs_obj_error(d, obj, "length", "%" PRIu64 " bytes is over "
			     "RLIMIT_MEMLOCK, %" PRIu64 " bytes, and without "
			     "CAP_IPC_LOCK the kernel will not pin it (raise "
			     "it: ulimit -l unlimited, memlock in "
			     "/etc/security/limits.conf, LimitMEMLOCK= of a "
			     "systemd unit)", m->length,
			     (uint64_t)h->memlock.rlim_cur);
		return -EINVAL;
	}
	return 0;
}

static int mr_check(struct rs_obj *obj, struct rs_diag *d)
{
	const uint32_t remote = IBV_ACCESS_REMOTE_WRITE |
				IBV_ACCESS_REMOTE_ATOMIC;
	const struct rs_mr *m = obj->data;
	int ret = 0;

	if (m->import)
		return import_check(obj, d);
	if (!rs_obj_has(obj, "length")) {
		rs_obj_error(d, obj, NULL, "missing field 'length'");
		return -EINVAL;
	}
	if (dm_check(obj, d))
		ret = -EINVAL;
	if (m->dmabuf && (m->dm || m->huge_pages ||
			  rs_obj_has(obj, "alignment") ||
			  rs_obj_has(obj, "memory"))) {
		rs_obj_error(d, obj, "dmabuf", "a dma-buf mr takes no 'dm', "
			     "'huge_pages', 'alignment' or 'memory'");
		ret = -EINVAL;
	}

	if (rs_obj_has(obj, "alignment") && !rs_is_pow2(m->alignment)) {
		rs_obj_error(d, obj, "alignment",
			     "must be a power of two");
		ret = -EINVAL;
	}
	if ((m->access & remote) && !(m->access & IBV_ACCESS_LOCAL_WRITE)) {
		rs_obj_error(d, obj, "access",
			     "remote_write and remote_atomic need local_write");
		ret = -EINVAL;
	}
	if (rs_obj_has(obj, "fill_byte") && m->fill != RS_FILL_BYTE) {
		rs_obj_error(d, obj, "fill_byte",
			     "needs 'fill: byte'");
		ret = -EINVAL;
	}
	if (m->dm && !(m->access & IBV_ACCESS_ZERO_BASED)) {
		rs_obj_error(d, obj, "access",
			     "an mr on 'dm' needs zero_based access");
		ret = -EINVAL;
	}
	if (m->dm && (m->huge_pages || rs_obj_has(obj, "alignment") ||
		      rs_obj_has(obj, "memory"))) {
		rs_obj_error(d, obj, "dm",
			     "an mr on 'dm' takes no 'huge_pages', "
			     "'alignment' or 'memory'");
		ret = -EINVAL;
	}
	if (check_fill(obj, d) < 0 || check_memory(obj, d) < 0)
		ret = -EINVAL;
	if (!ret && check_host_memory(obj, d) < 0)
		ret = -EINVAL;
	return ret;
}

const struct rdmascn_kind rs_kind_mr = {
	.name = "mr",
	.section = "mrs",
	.summary = "a buffer and its memory region (ibv_reg_mr)",
	.fields = mr_fields,
	.size = sizeof(struct rs_mr),
	.id_offset = offsetof(struct rs_mr, id),
	.refs = mr_refs,
	.check = mr_check,
	.ops = &rs_ops_mr,
};
