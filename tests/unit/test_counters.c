// SPDX-License-Identifier: MIT
/*
 * Port counters (exec/counters.c) on a sysfs tree of our own making in a
 * temporary directory: what a snapshot reads, its deltas, the lifespan
 * it waits out, directories that are not there, the error names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "check.h"
#include "counters.h"
#include "list.h"
#include "run.h"
#include "value.h"

struct tree {
	char root[64];
};

static void mkdirs(const struct tree *t, const char *sub)
{
	char path[512], *p;

	snprintf(path, sizeof(path), "%s/%s", t->root, sub);
	for (p = path + strlen(t->root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		CHECK(!mkdir(path, 0755) || errno == EEXIST);
		*p = '/';
	}
	CHECK(!mkdir(path, 0755) || errno == EEXIST);
}

static void put(const struct tree *t, const char *file, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", t->root, file);
	f = fopen(path, "w");
	CHECK(f);
	fputs(text, f);
	CHECK(!fclose(f));
}

/* rxe-like: a port's hw_counters (lifespan @life ms), no PMA set, no
 * device directory. */
static void tree_rxe(struct tree *t, const char *life)
{
	snprintf(t->root, sizeof(t->root), "/tmp/rs_ctr_XXXXXX");
	CHECK(mkdtemp(t->root));
	mkdirs(t, "rxe_a/ports/1/hw_counters");
	put(t, "rxe_a/ports/1/hw_counters/lifespan", life);
	put(t, "rxe_a/ports/1/hw_counters/sent_pkts", "100\n");
	put(t, "rxe_a/ports/1/hw_counters/rdma_sends", "7\n");
	put(t, "rxe_a/ports/1/hw_counters/rcvd_seq_err", "0\n");
}

static void tree_rm(const struct tree *t)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->root);
	CHECK(!system(cmd));
}

static uint64_t delta(const struct rs_val *v, const char *key,
		      const char *name)
{
	const struct rs_val *k = rs_val_get(v, key);

	CHECK(k);
	CHECK(rs_val_get(k, name));
	return rs_val_get_u64(k, name);
}

TEST(counters, deltas)
{
	struct rs_ctr_snap s = { 0 };
	struct rs_counters *c;
	struct rs_val *v = rs_val_obj();
	struct tree t;

	tree_rxe(&t, "1\n");
	/* The PMA set beside it, and the device's own directory. */
	mkdirs(&t, "rxe_a/ports/1/counters");
	put(&t, "rxe_a/ports/1/counters/port_xmit_data", "4294967290\n");
	put(&t, "rxe_a/ports/1/counters/link_downed", "1\n");
	put(&t, "rxe_a/ports/1/counters/unreadable", "N/A\n");
	put(&t, "rxe_a/ports/1/hw_counters/link_downed", "50\n");
	mkdirs(&t, "rxe_a/hw_counters");
	put(&t, "rxe_a/hw_counters/lifespan", "1\n");
	put(&t, "rxe_a/hw_counters/out_of_buffer", "3\n");
	c = rs_counters_new(t.root);
	CHECK(c);
	CHECK_INT(rs_ctr_snap_add(&s, c, "rxe_a", 1), 0);
	/* Twice is once. */
	CHECK_INT(rs_ctr_snap_add(&s, c, "rxe_a", 1), 0);
	CHECK_UINT(s.n, 3);
	CHECK_INT(rs_ctr_snap_end(&s, v), -EINVAL);
	CHECK_INT(rs_ctr_snap_begin(&s), 0);
	put(&t, "rxe_a/ports/1/hw_counters/sent_pkts", "2100\n");
	put(&t, "rxe_a/ports/1/hw_counters/rdma_sends", "1007\n");
	put(&t, "rxe_a/ports/1/counters/port_xmit_data", "18446744073709551615\n");
	put(&t, "rxe_a/ports/1/hw_counters/link_downed", "52\n");
	/* Reset in between: it counts from 0. */
	put(&t, "rxe_a/hw_counters/out_of_buffer", "2\n");
	CHECK_INT(rs_ctr_snap_end(&s, v), 0);
	CHECK_UINT(delta(v, "rxe_a/1", "sent_pkts"), 2000);
	CHECK_UINT(delta(v, "rxe_a/1", "rdma_sends"), 1000);
	CHECK_UINT(delta(v, "rxe_a/1", "rcvd_seq_err"), 0);
	CHECK_UINT(delta(v, "rxe_a/1", "port_xmit_data"),
		   18446744073709551615ull - 4294967290ull);
	/* A name both port directories have: the PMA set's. */
	CHECK_UINT(delta(v, "rxe_a/1", "link_downed"), 0);
	CHECK_UINT(delta(v, "rxe_a", "out_of_buffer"), 2);
	/* Not counters: the lifespan, what is not a number. */
	CHECK(!rs_val_get(rs_val_get(v, "rxe_a/1"), "lifespan"));
	CHECK(!rs_val_get(rs_val_get(v, "rxe_a/1"), "unreadable"));
	CHECK(!rs_val_get(rs_val_get(v, "rxe_a"), "lifespan"));
	CHECK_UINT(rs_val_len(v), 2);
	CHECK_UINT(rs_val_len(rs_val_get(v, "rxe_a/1")), 5);
	rs_ctr_snap_free(&s);
	CHECK_UINT(s.n, 0);
	rs_val_free(v);
	rs_counters_free(c);
	tree_rm(&t);
}

/* The second read waits until the directory's cache has expired (its
 * lifespan and a jiffy of 10 ms), and no longer; a directory without a
 * lifespan (the PMA set) does not. */
TEST(counters, lifespan)
{
	struct rs_ctr_snap s = { 0 }, p = { 0 };
	struct rs_counters *c;
	struct rs_val *v = rs_val_obj();
	struct tree t;
	double t0, ms;

	tree_rxe(&t, "120\n");
	mkdirs(&t, "pma/ports/2/counters");
	put(&t, "pma/ports/2/counters/symbol_error", "0\n");
	c = rs_counters_new(t.root);
	CHECK(c);
	CHECK_INT(rs_ctr_snap_add(&s, c, "rxe_a", 1), 0);
	CHECK_UINT(rs_ctr_snap_lifespan(&s), 120);
	t0 = rs_now_ms();
	CHECK_INT(rs_ctr_snap_begin(&s), 0);
	CHECK_INT(rs_ctr_snap_end(&s, v), 0);
	ms = rs_now_ms() - t0;
	CHECK(ms >= 130);
	CHECK(ms < 1000);
	/* Begun long enough ago: no wait. */
	rs_ctr_snap_free(&s);
	CHECK_INT(rs_ctr_snap_add(&s, c, "rxe_a", 1), 0);
	CHECK_INT(rs_ctr_snap_begin(&s), 0);
	usleep(150 * 1000);
	t0 = rs_now_ms();
	CHECK_INT(rs_ctr_snap_end(&s, v), 0);
	CHECK(rs_now_ms() - t0 < 60);
	rs_ctr_snap_free(&s);
	/* No lifespan file in a hw_counters directory: the default. */
	mkdirs(&t, "old/ports/1/hw_counters");
	put(&t, "old/ports/1/hw_counters/sent_pkts", "1\n");
	CHECK_INT(rs_ctr_snap_add(&s, c, "old", 1), 0);
	CHECK_UINT(rs_ctr_snap_lifespan(&s), 10);
	rs_ctr_snap_free(&s);
	CHECK_INT(rs_ctr_snap_add(&p, c, "pma", 2), 0);
	CHECK_UINT(rs_ctr_snap_lifespan(&p), 0);
	t0 = rs_now_ms();
	CHECK_INT(rs_ctr_snap_begin(&p), 0);
	CHECK_INT(rs_ctr_snap_end(&p, v), 0);
	CHECK(rs_now_ms() - t0 < 60);
	CHECK_UINT(delta(v, "pma/2", "symbol_error"), 0);
	rs_ctr_snap_free(&p);
	rs_val_free(v);
	rs_counters_free(c);
	tree_rm(&t);
}

/* No such device, port or directory: nothing read, nothing put, no
 * error. */
TEST(counters, missing)
{
	struct rs_ctr_snap s = { 0 };
	struct rs_counters *c;
	struct rs_val *v = rs_val_obj();
	struct tree t;

	tree_rxe(&t, "1\n");
	c = rs_counters_new(t.root);
	CHECK(c);
	CHECK_INT(rs_ctr_snap_add(&s, c, "mlx5_9", 1), 0);
	CHECK_INT(rs_ctr_snap_add(&s, c, "rxe_a", 2), 0);
	CHECK_UINT(s.n, 0);
	CHECK_INT(rs_ctr_snap_begin(&s), 0);
	CHECK_INT(rs_ctr_snap_end(&s, v), 0);
	CHECK_UINT(rs_val_len(v), 0);
	/* Listed once each, found again without reading sysfs. */
	CHECK_UINT(c->n_dirs, 6);
	CHECK_INT(rs_ctr_snap_add(&s, c, "mlx5_9", 1), 0);
	CHECK_UINT(c->n_dirs, 6);
	/* The directory goes away under the snapshot: its counters are
	 * left out. */
	CHECK_INT(rs_ctr_snap_add(&s, c, "rxe_a", 1), 0);
	CHECK_UINT(s.n, 1);
	CHECK_INT(rs_ctr_snap_begin(&s), 0);
	tree_rm(&t);
	CHECK_INT(rs_ctr_snap_end(&s, v), 0);
	CHECK_UINT(rs_val_len(v), 0);
	rs_ctr_snap_free(&s);
	rs_val_free(v);
	rs_counters_free(c);
	rs_counters_free(NULL);
}

/* Every allocation fails in turn: -ENOMEM, nothing half done left. */
TEST(counters, alloc_fails)
{
	struct tree t;
	long n;

	tree_rxe(&t, "0\n");
	mkdirs(&t, "rxe_a/hw_counters");
	put(&t, "rxe_a/hw_counters/lifespan", "0\n");
	put(&t, "rxe_a/hw_counters/out_of_buffer", "3\n");
	for (n = 1; n < 1000; n++) {
		struct rs_ctr_snap s = { 0 };
		struct rs_val *v = rs_val_obj();
		struct rs_counters *c;
		int r = -ENOMEM;

		CHECK(v);
		rs_alloc_fail_at(n);
		c = rs_counters_new(t.root);
		if (c)
			r = rs_ctr_snap_add(&s, c, "rxe_a", 1);
		if (!r)
			r = rs_ctr_snap_begin(&s);
		if (!r)
			r = rs_ctr_snap_end(&s, v);
		rs_alloc_fail_at(0);
		rs_ctr_snap_free(&s);
		rs_counters_free(c);
		if (!r) {
			CHECK_UINT(delta(v, "rxe_a/1", "sent_pkts"), 0);
			rs_val_free(v);
			break;
		}
		CHECK_INT(r, -ENOMEM);
		rs_val_free(v);
	}
	CHECK(n > 5);
	tree_rm(&t);
}

TEST(counters, error_names)
{
	static const char *const errors[] = {
		"rcvd_seq_err", "duplicate_request", "out_of_seq_request",
		"rcvd_rnr_err", "send_rnr_err", "retry_exceeded_err",
		"retry_rnr_exceeded_err", "completer_retry_err", "send_err",
		"link_downed", "out_of_sequence", "out_of_buffer",
		"packet_seq_err", "local_ack_timeout_err",
		"implied_nak_seq_err", "rnr_nak_retry_err", "np_cnp_sent",
		"rp_cnp_handled", "np_ecn_marked_roce_packets",
		"symbol_error", "port_rcv_errors", "port_xmit_discards",
		"port_rcv_switch_relay_errors", "VL15_dropped",
		"req_cqe_error",
	}, *const others[] = {
		"sent_pkts", "rcvd_pkts", "rdma_sends", "rdma_recvs",
		"ack_deferred", "ack_deffered", "port_xmit_data", "port_rcv_packets",
		"port_xmit_wait", "rx_write_requests", "lifespan",
	};

	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
		CHECK_STR(rs_counter_is_error(errors[i]) ? "error" : "not",
			  "error");
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		CHECK_STR(rs_counter_is_error(others[i]) ? others[i] : "not",
			  "not");
	CHECK_STR(rs_counter_unit("port_xmit_data"), "4-octet words");
	CHECK_STR(rs_counter_unit("port_rcv_data"), "4-octet words");
	CHECK_PTR(rs_counter_unit("sent_pkts"), NULL);
}
