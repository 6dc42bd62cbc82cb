// SPDX-License-Identifier: MIT
/*
 * verify: compare an MR's bytes in memory with another MR, bytes written
 * in the scenario (text, hex, a file), a fill pattern, or a little-endian
 * u64.  A mismatch names the first differing offset, both bytes, and how
 * many bytes differ in all.
 */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "literal.h"
#include "step.h"
#include "steps.h"
#include "value.h"

size_t rs_first_diff(const uint8_t *a, const uint8_t *b, size_t len)
{
	size_t lo = 0;

	if (!memcmp(a, b, len))
		return len;
	/* Narrow down with memcmp on halves: it is the fast path. */
	while (len - lo > 64) {
		size_t half = (len - lo) / 2;

		if (memcmp(a + lo, b + lo, half))
			len = lo + half;
		else
			lo += half;
	}
	for (; lo < len; lo++)
		if (a[lo] != b[lo])
			return lo;
	return len;
}

static size_t count_diff(const uint8_t *a, const uint8_t *b, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += a[i] != b[i];
	return n;
}

static int mismatch(struct rs_step_run *sr, const char *field,
		    const uint8_t *got, const uint8_t *want, size_t len,
		    size_t d, uint64_t offset, const char *what)
{
	const struct rs_step_verify *v = sr->obj->data;

	return rs_step_fail(sr, RS_STEP_FAILED, field,
			    "mr '%s' differs from %s at offset %llu: 0x%02x, "
			    "expected 0x%02x (%zu of %zu bytes differ)", v->mr,
			    what, (unsigned long long)(offset + d), got[d],
			    want[d], count_diff(got, want, len), len);
}

/* equals_text, equals_hex, equals_file: the literal from equals_offset
 * on, all of it or `length` bytes, at `offset` in the mr; *@len: bytes
 * compared. */
static int verify_literal(struct rs_step_run *sr, const uint8_t *got,
			  uint64_t *len)
{
	const struct rs_step_verify *v = sr->obj->data;
	struct rs_mr_rt *mr = rs_step_mr(sr, v->mr);
	char err[300], what[64];
	uint8_t *lit;
	size_t lit_len, n, d;
	int r;

	r = rs_literal_load(sr->obj, v->literal, v->literal_value, &lit,
			    &lit_len, err, sizeof(err));
	if (r)
		return rs_step_fail(sr, RS_STEP_CANTRUN, v->literal_field,
				    "%s", err);
	/* check() saw the same bounds; a file may have changed since. */
	if (v->equals_offset >= lit_len) {
		rs_free(lit);
		return rs_step_fail(sr, RS_STEP_CANTRUN, "equals_offset",
				    "%llu is past the end of the %s (%zu "
				    "bytes)",
				    (unsigned long long)v->equals_offset,
				    rs_literal_form_name(v->literal), lit_len);
	}
	n = lit_len - v->equals_offset;
	if (v->length > n) {
		rs_free(lit);
		return rs_step_fail(sr, RS_STEP_CANTRUN, "length",
				    "%llu bytes: the %s has %zu from "
				    "equals_offset %llu",
				    (unsigned long long)v->length,
				    rs_literal_form_name(v->literal), n,
				    (unsigned long long)v->equals_offset);
	}
	if (v->length)
		n = v->length;
	if (n > mr->length - v->offset) {
		rs_free(lit);
		return rs_step_fail(sr, RS_STEP_CANTRUN, v->literal_field,
				    "%zu bytes at offset %llu do not fit in mr "
				    "'%s' (%zu bytes)", n,
				    (unsigned long long)v->offset, v->mr,
				    mr->length);
	}
	if (v->literal == RS_LIT_TEXT)
		snprintf(what, sizeof(what), "text \"%.24s%s\"",
			 v->literal_value,
			 strlen(v->literal_value) > 24 ? "..." : "");
	else if (v->literal == RS_LIT_HEX)
		snprintf(what, sizeof(what), "the hex bytes");
	else
		snprintf(what, sizeof(what), "file '%.48s'", v->literal_value);
	d = rs_first_diff(got, lit + v->equals_offset, n);
	if (d < n)
		mismatch(sr, v->literal_field, got, lit + v->equals_offset, n,
			 d, v->offset, what);
	rs_free(lit);
	*len = n;
	return sr->finished ? -EIO : 0;
}

static int verify_start(struct rs_step_run *sr)
{
	const struct rs_step_verify *v = sr->obj->data;
	struct rs_mr_rt *mr = rs_step_mr(sr, v->mr);
	uint64_t len = v->length;
	const uint8_t *got;
	uint8_t *want;
	char what[RDMASCN_ID_MAX + 32];
	size_t d;

	if (!mr->buf)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "mr",
				    "mr '%s' is not in host memory", v->mr);
	if (v->offset > mr->length)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "offset",
				    "%llu is past the end of mr '%s' (%zu "
				    "bytes)", (unsigned long long)v->offset,
				    v->mr, mr->length);
	if (!len)
		len = mr->length - v->offset;
	else if (len > mr->length - v->offset)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "length",
				    "%llu bytes at offset %llu do not fit in "
				    "mr '%s' (%zu bytes)",
				    (unsigned long long)len,
				    (unsigned long long)v->offset, v->mr,
				    mr->length);
	got = (const uint8_t *)mr->buf + v->offset;

	if (v->equals) {
		struct rs_mr_rt *e = rs_step_mr(sr, v->equals);

		if (!e->buf)
			return rs_step_fail(sr, RS_STEP_CANTRUN, "equals",
					    "mr '%s' is not in host memory",
					    v->equals);
		/* `offset` places the check in `mr`, `equals_offset` in
		 * `equals` (a UD payload after the GRH, a window inside a
		 * larger MR). */
		const uint8_t *want_at = (const uint8_t *)e->buf +
					 v->equals_offset;
		size_t avail;

		if (v->equals_offset > e->length)
			return rs_step_fail(sr, RS_STEP_CANTRUN,
					    "equals_offset", "%llu is past the "
					    "end of mr '%s' (%zu bytes)",
					    (unsigned long long)v->equals_offset,
					    v->equals, e->length);
		avail = e->length - v->equals_offset;
		if (len > avail) {
			if (rs_obj_has(sr->obj, "length"))
				return rs_step_fail(sr, RS_STEP_CANTRUN,
						    "length", "%llu bytes: mr "
						    "'%s' has only %zu",
						    (unsigned long long)len,
						    v->equals, avail);
			len = avail;
		}
		d = rs_first_diff(got, want_at, len);
		snprintf(what, sizeof(what), "mr '%s'", v->equals);
		if (d < len)
			return mismatch(sr, "equals", got, want_at, len, d,
					v->offset, what);
	} else if (v->literal) {
		int r = verify_literal(sr, got, &len);

		if (r)
			return r;
	} else if (rs_obj_has(sr->obj, "equals_u64")) {
		uint64_t x;

		if (len < 8)
			return rs_step_fail(sr, RS_STEP_CANTRUN, "length",
					    "%llu bytes: equals_u64 reads 8",
					    (unsigned long long)len);
		memcpy(&x, got, 8);
		x = le64toh(x);
		len = 8;
		if (x != v->equals_u64)
			return rs_step_fail(sr, RS_STEP_FAILED, "equals_u64",
					    "mr '%s' holds %llu (0x%llx) at "
					    "offset %llu, expected %llu "
					    "(0x%llx)", v->mr,
					    (unsigned long long)x,
					    (unsigned long long)x,
					    (unsigned long long)v->offset,
					    (unsigned long long)v->equals_u64,
					    (unsigned long long)v->equals_u64);
	} else {
		/* The pattern is a function of the offset in the MR, as
		 * fill: wrote it: make it from 0 and compare the tail. */
		size_t full = v->offset + len;

		want = rs_malloc(full ? full : 1);
		if (!want)
			return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
					    "out of memory");
		if (v->pattern == RS_VERIFY_PATTERN)
			rs_mr_pattern(want, full);
		else
			memset(want, v->pattern == RS_VERIFY_BYTE ? v->byte : 0,
			       full);
		d = rs_first_diff(got, want + v->offset, len);
		snprintf(what, sizeof(what), "pattern %s",
			 v->pattern == RS_VERIFY_PATTERN ? "pattern" :
			 v->pattern == RS_VERIFY_BYTE ? "byte" : "zero");
		if (d < len)
			mismatch(sr, "pattern", got, want + v->offset, len, d,
				 v->offset, what);
		rs_free(want);
		if (sr->finished)
			return -EIO;
	}
	rs_val_put_u64(rs_step_figures(sr), "bytes_equal", len);
	rs_step_pass(sr);
	return 0;
}

const struct rdmascn_step_ops rs_step_ops_verify = {
	.start = verify_start,
};
