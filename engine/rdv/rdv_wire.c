// SPDX-License-Identifier: MIT
/*
 * The rendezvous' frames (rdv_wire.h): encoding, and a decoder that takes
 * bytes as they come and trusts no length it reads; the blobs a result
 * carries, parsed and freed (rs_rdv_blobs_free(), here so that the wire
 * calls nothing above it).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "rdv_wire.h"

const char *rdv_op_name(enum rdv_op op)
{
	switch (op) {
	case RDV_OP_ALLGATHER: return "allgather";
	case RDV_OP_GATHER: return "gather";
	case RDV_OP_BARRIER: return "barrier";
	case RDV_OP_VERDICT: return "verdict";
	case RDV_OP_EXCHANGE: return "exchange";
	}
	return "?";
}

int rdv_encode(uint8_t type, const char *tag, const struct rdv_piece *pc,
	       unsigned n, uint8_t **ret, size_t *ret_len)
{
	size_t taglen = tag ? strlen(tag) : 0, body = 0, len;
	uint8_t *m, *p;
	unsigned i;

	if (taglen > RS_RDV_TAG_MAX)
		return -EMSGSIZE;
	for (i = 0; i < n; i++) {
		if (pc[i].len > RS_RDV_FRAME_MAX - body)
			return -EMSGSIZE;
		body += pc[i].len;
	}
	len = 2 + taglen + body;
	if (len > RS_RDV_FRAME_MAX)
		return -EMSGSIZE;
	m = rs_malloc(4 + len);
	if (!m)
		return -ENOMEM;
	rdv_put32(m, (uint32_t)len);
	m[4] = type;
	m[5] = (uint8_t)taglen;
	memcpy(m + 6, tag ? tag : "", taglen);
	p = m + 6 + taglen;
	for (i = 0; i < n; i++) {
		if (pc[i].len)
			memcpy(p, pc[i].p, pc[i].len);
		p += pc[i].len;
	}
	*ret = m;
	*ret_len = 4 + len;
	return 0;
}

static int known_type(uint8_t t)
{
	switch (t) {
	case RDV_HELLO: case RDV_MET: case RDV_FAIL: case RDV_ABORT:
	case RDV_BYE: case RDV_AUTH1: case RDV_AUTH2:
		return 1;
	}
	return ((t & 0xf0) == RDV_PUT || (t & 0xf0) == RDV_RESULT) &&
	       (t & 0x0f) >= RDV_OP_ALLGATHER && (t & 0x0f) <= RDV_OP_EXCHANGE;
}

/* The frame in d->buf is whole: check it and hand it on. */
static int frame_done(struct rdv_dec *d,
		      int (*on_frame)(void *arg, struct rdv_frame *f),
		      void *arg, char *err, size_t errlen)
{
	struct rdv_frame f;
	unsigned taglen, i;
	int r;

	f.type = d->buf[0];
	taglen = d->buf[1];
	if (!known_type(f.type)) {
		snprintf(err, errlen, "unknown frame type 0x%02x", f.type);
		return -EPROTO;
	}
	if (taglen > d->len - 2) {
		snprintf(err, errlen,
			 "a tag of %u bytes in a frame of %u bytes", taglen,
			 d->len);
		return -EPROTO;
	}
	for (i = 0; i < taglen; i++) {
		uint8_t c = d->buf[2 + i];

		if (c < 0x20 || c > 0x7e) {
			snprintf(err, errlen,
				 "byte 0x%02x in a tag (printable ASCII only)",
				 c);
			return -EPROTO;
		}
		f.tag[i] = (char)c;
	}
	f.tag[taglen] = '\0';
	f.body = d->buf + 2 + taglen;
	f.len = d->len - 2 - taglen;
	f.mem = d->buf;
	d->buf = NULL;
	d->lenhave = 0;
	d->have = 0;
	r = on_frame(arg, &f);
	rs_free(f.mem);
	return r;
}

int rdv_dec_feed(struct rdv_dec *d, const uint8_t *p, size_t n,
		 int (*on_frame)(void *arg, struct rdv_frame *f), void *arg,
		 char *err, size_t errlen)
{
	while (n) {
		size_t take;
		int r;

		if (d->lenhave < 4) {
			d->lenb[d->lenhave++] = *p++;
			n--;
			if (d->lenhave < 4)
				continue;
			d->len = rdv_get32(d->lenb);
			if (d->len < 2 || d->len > d->cap) {
				snprintf(err, errlen,
					 "a frame of %u bytes announced "
					 "(2 to %u accepted here)",
					 d->len, d->cap);
				return -EPROTO;
			}
			d->buf = rs_malloc(d->len);
			if (!d->buf) {
				snprintf(err, errlen,
					 "no memory for a frame of %u bytes",
					 d->len);
				return -ENOMEM;
			}
			d->have = 0;
			continue;
		}
		take = d->len - d->have;
		if (take > n)
			take = n;
		memcpy(d->buf + d->have, p, take);
		d->have += (uint32_t)take;
		p += take;
		n -= take;
		if (d->have < d->len)
			continue;
		r = frame_done(d, on_frame, arg, err, errlen);
		if (r)
			return r;
	}
	return 0;
}

void rdv_dec_free(struct rdv_dec *d)
{
	rs_free(d->buf);
	d->buf = NULL;
	d->lenhave = 0;
	d->have = 0;
}

void rs_rdv_blobs_free(struct rs_rdv_blob *all, unsigned n)
{
	unsigned i;

	if (!all)
		return;
	for (i = 0; i < n; i++) {
		rs_free(all[i].data);
		all[i].data = NULL;
		all[i].len = 0;
	}
}

int rdv_blobs_parse(const uint8_t *body, size_t len, unsigned n,
		    struct rs_rdv_blob *all, char *err, size_t errlen)
{
	size_t off = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		all[i].data = NULL;
	for (i = 0; i < n; i++) {
		uint32_t bl;

		if (len - off < 4) {
			snprintf(err, errlen, "%u blobs of %u in a result",
				 i, n);
			goto bad;
		}
		bl = rdv_get32(body + off);
		off += 4;
		if (bl > len - off || bl > RS_RDV_BLOB_MAX) {
			snprintf(err, errlen,
				 "blob %u claims %u bytes, %zu left", i, bl,
				 len - off);
			goto bad;
		}
		all[i].data = rs_malloc(bl ? bl : 1);
		if (!all[i].data) {
			snprintf(err, errlen, "no memory for %u bytes", bl);
			rs_rdv_blobs_free(all, i);
			return -ENOMEM;
		}
		memcpy(all[i].data, body + off, bl);
		all[i].len = bl;
		off += bl;
	}
	if (off != len) {
		snprintf(err, errlen, "%zu bytes after the last of %u blobs",
			 len - off, n);
		goto bad;
	}
	return 0;
bad:
	rs_rdv_blobs_free(all, n);
	return -EPROTO;
}
