/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_RDV_WIRE_H
#define RDMASCN_RDV_WIRE_H

/*
 * The rendezvous' frames (docs/nodes.md, "Control plane"), apart from the
 * sockets so that a test feeds them byte by byte:
 *
 *   length  u32, big-endian: the bytes after it, 2 to RS_RDV_FRAME_MAX
 *   type    u8 (enum rdv_type)
 *   taglen  u8, then the tag: printable ASCII, no NUL
 *   body    length - 2 - taglen bytes, by type
 *
 * A length is checked against the decoder's cap before anything is
 * allocated for it; a frame that breaks a rule ends the connection.
 */
#include <stddef.h>
#include <stdint.h>

#include "rendezvous.h"

/* Before a connection proved it holds the run's key: a nonce, or a
 * nonce and a proof (rdv_auth.h). */
#define RDV_PREAUTH_MAX 96
/* After that, before it said who it is: a hello with its params. */
#define RDV_HELLO_MAX (1u << 20)
/* A node's frame at most, as the leader reads it: a part of a call is
 * at most a blob (RS_RDV_BLOB_MAX), a tag and a MAC. */
#define RDV_PART_MAX (RS_RDV_BLOB_MAX + 2 + RS_RDV_TAG_MAX + 32)
/* A failure's text on the wire at most. */
#define RDV_MSG_MAX 2048

enum rdv_op {
	RDV_OP_ALLGATHER = 1,
	RDV_OP_GATHER = 2,
	RDV_OP_BARRIER = 3,
	RDV_OP_VERDICT = 4,     /* also rs_rdv_agree() */
	RDV_OP_EXCHANGE = 5,    /* rdv_exchange.c */
};

/* An exchange's frame body: a flag byte (RDV_XCHG_MORE: more frames of
 * this node's part, or of this result, follow) and records, each a
 * peer (the destination in a put, the source in a result), a key and a
 * length (u32 each, big-endian) and that many bytes. */
#define RDV_XCHG_MORE 0x01
#define RDV_XCHG_HEAD 12

enum rdv_type {
	RDV_HELLO = 0x01,       /* node -> leader: JSON, who and what it runs */
	RDV_AUTH1 = 0x03,       /* node -> leader: its nonce */
	RDV_AUTH2 = 0x04,       /* leader -> node: its nonce and proof */
	RDV_MET = 0x02,         /* leader -> node: the meeting agreed */
	RDV_PUT = 0x10,         /* | op, node -> leader: its part, tagged */
	RDV_RESULT = 0x20,      /* | op, leader -> node: the outcome */
	RDV_FAIL = 0x30,        /* leader -> node: errno u32 + text; final */
	RDV_ABORT = 0x31,       /* node -> leader: why it failed (text) */
	RDV_BYE = 0x32,         /* either way: closing after the last call */
};

/* A whole frame: @mem holds it, @body points into it. */
struct rdv_frame {
	uint8_t type;
	char tag[RS_RDV_TAG_MAX + 1];
	const uint8_t *body;
	size_t len;
	uint8_t *mem;           /* rs_free(): the taker sets it to NULL */
};

struct rdv_dec {
	uint32_t cap;           /* the largest length accepted */
	uint8_t lenb[4];
	unsigned lenhave;
	uint32_t len;
	uint8_t *buf;
	uint32_t have;
};

const char *rdv_op_name(enum rdv_op op);

/* A frame of @type with @tag and the concatenation of @n pieces as its
 * body: rs_malloc()ed into *@ret (*@ret_len bytes).  -EMSGSIZE over the
 * cap or for a tag too long, -ENOMEM. */
struct rdv_piece {
	const void *p;
	size_t len;
};
int rdv_encode(uint8_t type, const char *tag, const struct rdv_piece *pc,
	       unsigned n, uint8_t **ret, size_t *ret_len);

/* Feed @n bytes read from the connection; @on_frame gets each complete
 * frame (and may take f->mem); a non-zero return of it stops the feed
 * and is returned.  -EPROTO (or -ENOMEM) with the reason in @err when
 * the bytes break a rule. */
int rdv_dec_feed(struct rdv_dec *d, const uint8_t *p, size_t n,
		 int (*on_frame)(void *arg, struct rdv_frame *f), void *arg,
		 char *err, size_t errlen);
void rdv_dec_free(struct rdv_dec *d);

/* A frame that an exchange's next frame continues: it ends no call, so
 * the frames kept for later calls do not count it. */
static inline int rdv_more(const struct rdv_frame *f)
{
	return (f->type & 0x0f) == RDV_OP_EXCHANGE && f->len >= 1 &&
	       (f->body[0] & RDV_XCHG_MORE);
}

static inline void rdv_put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline uint32_t rdv_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* An allgather's result body: @n blobs as u32 length + bytes each.
 * Parsing checks that the lengths add up exactly; the blobs are copied
 * (rs_malloc, at least one byte each) into @all. */
int rdv_blobs_parse(const uint8_t *body, size_t len, unsigned n,
		    struct rs_rdv_blob *all, char *err, size_t errlen);

#endif
