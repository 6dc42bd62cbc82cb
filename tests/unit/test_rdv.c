// SPDX-License-Identifier: MIT
/*
 * The rendezvous' frames byte by byte (rdv_wire.h), the verdict order,
 * and a one-node rendezvous, which meets nobody.  The processes meeting
 * for real are tests/rdv/.
 */
#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "check.h"
#include "exit.h"
#include "list.h"
#include "macros.h"
#include "rdv_wire.h"

struct got {
	unsigned n;
	uint8_t type[4];
	char tag[4][RS_RDV_TAG_MAX + 1];
	char body[4][32];
	size_t len[4];
};

static int on_frame(void *arg, struct rdv_frame *f)
{
	struct got *g = arg;

	if (g->n == 4)
		return -E2BIG;
	g->type[g->n] = f->type;
	memcpy(g->tag[g->n], f->tag, sizeof(g->tag[0]));
	memcpy(g->body[g->n], f->body, f->len < 32 ? f->len : 32);
	g->len[g->n] = f->len;
	g->n++;
	return 0;
}

TEST(rdv, frames_byte_by_byte)
{
	static const uint8_t want[] = {
		0, 0, 0, 10, RDV_PUT | RDV_OP_BARRIER, 3, 's', ' ', '1',
		'a', 'b', 'c', 'd', 'e',
	};
	struct rdv_piece pc[2] = { { "ab", 2 }, { "cde", 3 } };
	struct rdv_dec d = { .cap = 64 };
	struct got g = { 0 };
	uint8_t *m, two[2 * sizeof(want)];
	size_t len, i;
	char err[128];

	CHECK_INT(rdv_encode(RDV_PUT | RDV_OP_BARRIER, "s 1", pc, 2, &m,
			     &len), 0);
	CHECK_UINT(len, sizeof(want));
	CHECK_MEM(m, want, sizeof(want));
	/* Two frames, one byte at a time: both come out whole. */
	memcpy(two, m, len);
	memcpy(two + len, m, len);
	rs_free(m);
	for (i = 0; i < sizeof(two); i++)
		CHECK_INT(rdv_dec_feed(&d, two + i, 1, on_frame, &g, err,
				       sizeof(err)), 0);
	CHECK_UINT(g.n, 2);
	CHECK_UINT(g.type[1], RDV_PUT | RDV_OP_BARRIER);
	CHECK_STR(g.tag[1], "s 1");
	CHECK_UINT(g.len[1], 5);
	CHECK_MEM(g.body[1], "abcde", 5);
	/* An empty frame: no tag, no body. */
	CHECK_INT(rdv_encode(RDV_BYE, NULL, NULL, 0, &m, &len), 0);
	CHECK_UINT(len, 6);
	CHECK_INT(rdv_dec_feed(&d, m, len, on_frame, &g, err, sizeof(err)),
		  0);
	rs_free(m);
	CHECK_UINT(g.n, 3);
	CHECK_UINT(g.type[2], RDV_BYE);
	CHECK_UINT(g.len[2], 0);
	rdv_dec_free(&d);
}

/* Each rule, each broken once: refused with its reason, nothing read
 * past it, nothing allocated for a length over the cap. */
TEST(rdv, bad_frames_refused)
{
	static const struct {
		uint8_t b[12];
		size_t len;
		const char *why;
	} bad[] = {
		{ { 0xff, 0xff, 0xff, 0xff }, 4,
		  "a frame of 4294967295 bytes announced (2 to 64 accepted "
		  "here)" },
		{ { 0, 0, 0, 65 }, 4,
		  "a frame of 65 bytes announced (2 to 64 accepted here)" },
		{ { 0, 0, 0, 1, 0x01 }, 5,
		  "a frame of 1 bytes announced (2 to 64 accepted here)" },
		{ { 0, 0, 0, 2, 0x7f, 0 }, 6, "unknown frame type 0x7f" },
		{ { 0, 0, 0, 2, 0x16, 0 }, 6, "unknown frame type 0x16" },
		{ { 0, 0, 0, 3, 0x01, 2, 'x' }, 7,
		  "a tag of 2 bytes in a frame of 3 bytes" },
		{ { 0, 0, 0, 3, 0x13, 1, 0 }, 7,
		  "byte 0x00 in a tag (printable ASCII only)" },
		{ { 0, 0, 0, 3, 0x13, 1, 0x80 }, 7,
		  "byte 0x80 in a tag (printable ASCII only)" },
	};
	struct rdv_dec d = { .cap = 64 };
	struct got g = { 0 };
	char err[128];
	unsigned i;

	for (i = 0; i < RS_N(bad); i++) {
		err[0] = '\0';
		CHECK_INT(rdv_dec_feed(&d, bad[i].b, bad[i].len, on_frame, &g,
				       err, sizeof(err)), -EPROTO);
		CHECK_STR(err, bad[i].why);
		CHECK_UINT(g.n, 0);
		rdv_dec_free(&d);
	}
	/* Encoding refuses what decoding would. */
	char tag[RS_RDV_TAG_MAX + 2];
	uint8_t *m = NULL;
	size_t len;

	memset(tag, 't', sizeof(tag) - 1);
	tag[sizeof(tag) - 1] = '\0';
	CHECK_INT(rdv_encode(RDV_BYE, tag, NULL, 0, &m, &len), -EMSGSIZE);
	CHECK_PTR(m, NULL);
}

/* An exchange's frame that another continues is told by its flag: it
 * ends no call, so it does not count against the frames kept. */
TEST(rdv, exchange_more)
{
	static const uint8_t more = RDV_XCHG_MORE, last;
	struct rdv_piece pc = { &more, 1 };
	struct rdv_dec d = { .cap = 64 };
	struct got g = { 0 };
	struct rdv_frame f;
	uint8_t *m;
	size_t len;
	char err[128];
	unsigned i;

	CHECK_INT(rdv_encode(RDV_PUT | RDV_OP_EXCHANGE, "x", &pc, 1, &m,
			     &len), 0);
	CHECK_INT(rdv_dec_feed(&d, m, len, on_frame, &g, err, sizeof(err)),
		  0);
	rs_free(m);
	pc.p = &last;
	CHECK_INT(rdv_encode(RDV_RESULT | RDV_OP_EXCHANGE, "x", &pc, 1, &m,
			     &len), 0);
	CHECK_INT(rdv_dec_feed(&d, m, len, on_frame, &g, err, sizeof(err)),
		  0);
	rs_free(m);
	CHECK_UINT(g.n, 2);
	for (i = 0; i < 2; i++) {
		f = (struct rdv_frame){ .type = g.type[i],
					.body = (const uint8_t *)g.body[i],
					.len = g.len[i] };
		CHECK_INT(rdv_more(&f), i == 0);
	}
	/* The same byte in another operation's body is a blob's. */
	f.type = RDV_PUT | RDV_OP_ALLGATHER;
	f.body = &more;
	CHECK_INT(rdv_more(&f), 0);
	CHECK_STR(rdv_op_name(RDV_OP_EXCHANGE), "exchange");
	rdv_dec_free(&d);
}

TEST(rdv, blobs)
{
	static const uint8_t body[] = {
		0, 0, 0, 2, 'h', 'i', 0, 0, 0, 0, 0, 0, 0, 1, '!',
	};
	struct rs_rdv_blob all[3];
	char err[128];

	CHECK_INT(rdv_blobs_parse(body, sizeof(body), 3, all, err,
				  sizeof(err)), 0);
	CHECK_UINT(all[0].len, 2);
	CHECK_MEM(all[0].data, "hi", 2);
	CHECK_UINT(all[1].len, 0);
	CHECK(all[1].data != NULL);
	CHECK_UINT(all[2].len, 1);
	rs_rdv_blobs_free(all, 3);
	CHECK_PTR(all[0].data, NULL);
	/* Fewer blobs than nodes, a length past the end, bytes left over. */
	CHECK_INT(rdv_blobs_parse(body, 10, 3, all, err, sizeof(err)),
		  -EPROTO);
	CHECK_STR(err, "2 blobs of 3 in a result");
	CHECK_INT(rdv_blobs_parse(body, 14, 3, all, err, sizeof(err)),
		  -EPROTO);
	CHECK_STR(err, "blob 2 claims 1 bytes, 0 left");
	CHECK_INT(rdv_blobs_parse(body, sizeof(body), 2, all, err,
				  sizeof(err)), -EPROTO);
	CHECK_STR(err, "5 bytes after the last of 2 blobs");
	CHECK_PTR(all[0].data, NULL);
}

TEST(rdv, worst)
{
	static const int order[] = { 2, 130, 3, 1, 77, 0 };
	size_t i, j;

	for (i = 0; i < RS_N(order); i++)
		for (j = i; j < RS_N(order); j++) {
			CHECK_INT(rs_rdv_worst(order[i], order[j]), order[i]);
			CHECK_INT(rs_rdv_worst(order[j], order[i]), order[i]);
		}
	/* An unknown code is "could not run". */
	CHECK_INT(rs_rdv_worst(5, RS_EXIT_FAILED), 5);
	CHECK_INT(rs_rdv_worst(5, RS_EXIT_CANTRUN), 5);
	CHECK_INT(rs_rdv_worst(RS_EXIT_INVALID, 5), RS_EXIT_INVALID);
}

/* One node: no socket, every call answers at once with its own part. */
TEST(rdv, one_node)
{
	static const char *const nodes[] = { "solo" };
	struct rs_rdv_conf c = {
		.nodes = nodes, .n_nodes = 1, .self = 0,
		.leader_addr = "127.0.0.1:1", .deadline_ms = 10,
		.scenario_hash = "00",
	};
	struct rs_rdv_blob all[1];
	struct rs_rdv *r = NULL;
	char err[128];
	int v = -1;

	CHECK_INT(rs_rdv_meet(&c, &r, err, sizeof(err)), 0);
	CHECK_INT(rs_rdv_allgather(r, "t", "x", 1, all, err, sizeof(err)), 0);
	CHECK_UINT(all[0].len, 1);
	rs_rdv_blobs_free(all, 1);
	CHECK_INT(rs_rdv_barrier(r, "b", err, sizeof(err)), 0);
	CHECK_INT(rs_rdv_verdict(r, RS_EXIT_SKIPPED, &v, err, sizeof(err)),
		  0);
	CHECK_INT(v, RS_EXIT_SKIPPED);
	CHECK_INT(rs_rdv_agree(r, "phase", RS_EXIT_FAILED, &v, err,
			       sizeof(err)), 0);
	CHECK_INT(v, RS_EXIT_FAILED);
	/* An exchange with itself: its own message, never on the wire. */
	struct rs_rdv_msg out[2] = { { 0, 4, "mine", 4 }, { 1, 5, "x", 1 } };
	struct rs_rdv_msg want[1] = { { .peer = 0, .key = 4 } };
	struct rs_rdv_stats st;

	CHECK_INT(rs_rdv_exchange(r, "self", out, 1, want, 1, err,
				  sizeof(err)), 0);
	CHECK_UINT(want[0].len, 4);
	CHECK_MEM(want[0].data, "mine", 4);
	rs_rdv_msgs_free(want, 1);
	CHECK_PTR(want[0].data, NULL);
	rs_rdv_stats(r, &st);
	CHECK_UINT(st.bytes_sent, 0);
	CHECK_UINT(st.calls, 5);
	CHECK_STR(st.last_tag, "self");
	/* A message over the cap is refused here, before anything; a
	 * rank past the nodes names the sender, for good. */
	out[0].len = RS_RDV_MSG_MAX + 1;
	CHECK_INT(rs_rdv_exchange(r, "big", out, 1, NULL, 0, err,
				  sizeof(err)), -EMSGSIZE);
	CHECK_INT(rs_rdv_exchange(r, "far", out + 1, 1, want, 1, err,
				  sizeof(err)), -EPROTO);
	CHECK_STR(err, "node 'solo' sent a message under key 5 to node rank "
		  "1 in exchange 'far', and there are 1 nodes");
	CHECK_PTR(want[0].data, NULL);
	CHECK_INT(rs_rdv_barrier(r, "after", err, sizeof(err)), -EPROTO);
	CHECK_INT(rs_rdv_poll(r, err, sizeof(err)), -EPROTO);
	rs_rdv_close(r);
	/* Not an address; a rank past the nodes. */
	c.leader_addr = "no:port:here";
	CHECK_INT(rs_rdv_meet(&c, &r, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "'no:port:here' is not an address: host:port, host, "
		  "[ipv6]:port");
	c.self = 1;
	CHECK_INT(rs_rdv_meet(&c, &r, err, sizeof(err)), -EINVAL);
	/* Every wait has a deadline. */
	c.self = 0;
	c.leader_addr = "127.0.0.1";
	c.deadline_ms = 0;
	CHECK_INT(rs_rdv_meet(&c, &r, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "rendezvous: node 0 of 1, leader at 127.0.0.1, "
		  "deadline 0 ms");
}
