// SPDX-License-Identifier: MIT
/* "Did you mean": the distance, who is near, and the remedy's words. */
#include <string.h>

#include "check.h"
#include "list.h"
#include "suggest.h"

TEST(suggest, distance)
{
	CHECK_UINT(rs_edit_distance("send_cq", "send_cq", 3), 0);
	CHECK_UINT(rs_edit_distance("sendcq", "send_cq", 3), 1);
	CHECK_UINT(rs_edit_distance("cq_tx", "cq_t", 3), 1);
	CHECK_UINT(rs_edit_distance("qpz", "qps", 3), 1);
	/* A swap of neighbours is one edit, not two. */
	CHECK_UINT(rs_edit_distance("lenght", "length", 3), 1);
	CHECK_UINT(rs_edit_distance("remote_wirte", "remote_write", 3), 1);
	/* Case is not a typo worth counting. */
	CHECK_UINT(rs_edit_distance("RC", "rc", 3), 0);
	CHECK_UINT(rs_edit_distance("", "abc", 3), 3);
	CHECK_UINT(rs_edit_distance("kitten", "sitting", 3), 3);
	/* Past the bound: bound + 1, whatever the true distance. */
	CHECK_UINT(rs_edit_distance("kitten", "sitting", 2), 3);
	CHECK_UINT(rs_edit_distance("a", "abcdefgh", 2), 3);
	CHECK_UINT(rs_edit_distance("rdma_write", "write", 3), 4);
}

TEST(suggest, remedy)
{
	static const char *const fields[] = { "id", "pd", "send_cq",
					      "recv_cq", "type", "cap" };
	static const char *const types[] = { "rc", "uc", "ud", "xrc_send",
					     "xrc_recv", "raw_packet" };
	struct rs_suggest s;
	char buf[256];

	rs_suggest_init(&s, "sendcq");
	for (unsigned i = 0; i < 6; i++)
		rs_suggest_add(&s, fields[i]);
	rs_suggest_fmt(&s, true, buf, sizeof(buf));
	CHECK_STR(buf, ", did you mean 'send_cq'?");

	/* Equally near: all of them, in the order offered. */
	rs_suggest_init(&s, "rd");
	for (unsigned i = 0; i < 6; i++)
		rs_suggest_add(&s, types[i]);
	rs_suggest_fmt(&s, false, buf, sizeof(buf));
	CHECK_STR(buf, ", did you mean 'rc' or 'ud'?");

	/* Nothing near: the short list, when asked for. */
	rs_suggest_init(&s, "queue");
	for (unsigned i = 0; i < 6; i++)
		rs_suggest_add(&s, types[i]);
	rs_suggest_fmt(&s, true, buf, sizeof(buf));
	CHECK_STR(buf, " (expected one of: rc, uc, ud, xrc_send, xrc_recv, "
		  "raw_packet)");
	rs_suggest_fmt(&s, false, buf, sizeof(buf));
	CHECK_STR(buf, "");

	/* A long list is not printed; a near name still is. */
	rs_suggest_init(&s, "zzzzzz");
	for (unsigned i = 0; i < 6; i++) {
		rs_suggest_add(&s, fields[i]);
		rs_suggest_add(&s, types[i]);
	}
	CHECK_UINT(s.n_names, 12);
	rs_suggest_fmt(&s, true, buf, sizeof(buf));
	CHECK_STR(buf, "");
	rs_suggest_add(&s, "zzzzz");
	rs_suggest_fmt(&s, true, buf, sizeof(buf));
	CHECK_STR(buf, ", did you mean 'zzzzz'?");

	/* A short buffer is cut, never overrun, and terminated. */
	rs_suggest_fmt(&s, true, buf, 8);
	CHECK_STR(buf, ", did y");
	/* The word itself, an empty name and a repeat are not offered. */
	rs_suggest_init(&s, "qps");
	rs_suggest_add(&s, "qps");
	rs_suggest_add(&s, "");
	rs_suggest_add(&s, NULL);
	rs_suggest_add(&s, "qp");
	rs_suggest_add(&s, "qp");
	CHECK_UINT(s.n_names, 1);
	CHECK_UINT(s.n_near, 1);

	/* One letter is near no other, but its other case is. */
	rs_suggest_init(&s, "c");
	rs_suggest_add(&s, "a");
	rs_suggest_add(&s, "b");
	CHECK_UINT(s.n_near, 0);
	rs_suggest_add(&s, "C");
	rs_suggest_fmt(&s, true, buf, sizeof(buf));
	CHECK_STR(buf, ", did you mean 'C'?");

	/* More than RS_SUGGEST_NEAR as near: none is meant, say nothing. */
	rs_suggest_init(&s, "max_dm");
	rs_suggest_add(&s, "max_qp");
	rs_suggest_add(&s, "max_cq");
	rs_suggest_add(&s, "max_mr");
	rs_suggest_fmt(&s, false, buf, sizeof(buf));
	CHECK_STR(buf, ", did you mean 'max_qp', 'max_cq' or 'max_mr'?");
	rs_suggest_add(&s, "max_pd");
	rs_suggest_fmt(&s, false, buf, sizeof(buf));
	CHECK_STR(buf, "");
	/* ... unless a nearer one comes. */
	rs_suggest_add(&s, "max_dmx");
	rs_suggest_fmt(&s, false, buf, sizeof(buf));
	CHECK_STR(buf, ", did you mean 'max_dmx'?");

	/* A number has no near name, only the list. */
	rs_suggest_init(&s, "16");
	rs_suggest_add(&s, "10");
	rs_suggest_add(&s, "14");
	rs_suggest_fmt(&s, true, buf, sizeof(buf));
	CHECK_STR(buf, " (expected one of: 10, 14)");
}
