// SPDX-License-Identifier: MIT
/*
 * The calls after the meeting: every node sends its part to the leader
 * under an operation and a tag; the leader waits for all parts, checks
 * that every node is at the same operation and tag, and answers each
 * with the outcome (all blobs, the worst verdict, or just "go").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "exit.h"
#include "rdv_int.h"

struct collect {
	enum rdv_op op;
	const char *tag;
	const void *mine;
	size_t len;
	struct rs_rdv_blob *all;        /* allgather; gather on the leader */
	int verdict;                    /* in: mine; out: the worst */
};

static bool missing(const struct rs_rdv *r, unsigned rank)
{
	return rank && !r->q[rank];
}

/* The leader's wait: a part from every node, or a node gone. */
static bool parts_in(struct rs_rdv *r, void *arg)
{
	struct collect *k = arg;
	unsigned i;

	for (i = 1; i < r->n; i++) {
		if (r->q[i])
			continue;
		if (r->state[i] == RDV_LIVE)
			return false;
		/* Gone with nothing more to say: it will never come. */
		rdv_fail_all(r, -ECONNRESET, "node '%s' %s before %s '%s'",
			     r->names[i], r->state[i] == RDV_LEFT ?
			     "closed its side" : "was lost",
			     rdv_op_name(k->op), k->tag);
		return true;
	}
	return true;
}

static void pop(struct rs_rdv *r, unsigned rank)
{
	struct rdv_msg *m = r->q[rank];

	r->q[rank] = m->next;
	rs_free(m->f.mem);
	rs_free(m);
}

static int copy_blob(struct rs_rdv_blob *b, const void *p, size_t len)
{
	b->data = rs_malloc(len ? len : 1);
	if (!b->data)
		return -ENOMEM;
	if (len)
		memcpy(b->data, p, len);
	b->len = len;
	return 0;
}

/* Every part is in and checked: the blobs into @all, in rank order. */
static int take_blobs(struct rs_rdv *r, struct collect *k)
{
	unsigned i;

	for (i = 0; i < r->n; i++)
		k->all[i].data = NULL;
	for (i = 0; i < r->n; i++) {
		const void *p = i ? r->q[i]->f.body : k->mine;
		size_t len = i ? r->q[i]->f.len : k->len;

		if (copy_blob(&k->all[i], p, len)) {
			rs_rdv_blobs_free(k->all, i);
			rdv_fail_all(r, -ENOMEM, "no memory for %s '%s'",
				     rdv_op_name(k->op), k->tag);
			return -ENOMEM;
		}
	}
	return 0;
}

static int answer(struct rs_rdv *r, struct collect *k)
{
	uint8_t type = RDV_RESULT | k->op, code[4];
	struct rdv_piece verdict = { code, 4 }, *pc = NULL;
	unsigned i, n = 0;
	int e = 0;

	if (k->op == RDV_OP_VERDICT) {
		rdv_put32(code, (uint32_t)k->verdict);
		pc = &verdict;
		n = 1;
	} else if (k->op == RDV_OP_ALLGATHER) {
		pc = rs_calloc(2 * r->n, sizeof(*pc));
		uint8_t (*lens)[4] = rs_calloc(r->n, 4);

		if (!pc || !lens) {
			rs_free(pc);
			rs_free(lens);
			rdv_fail_all(r, -ENOMEM, "no memory for allgather "
				     "'%s'", k->tag);
			return -ENOMEM;
		}
		for (i = 0; i < r->n; i++) {
			rdv_put32(lens[i], (uint32_t)k->all[i].len);
			pc[2 * i] = (struct rdv_piece){ lens[i], 4 };
			pc[2 * i + 1] = (struct rdv_piece){ k->all[i].data,
							    k->all[i].len };
		}
		n = 2 * r->n;
		for (i = 1; i < r->n && !e; i++)
			e = rdv_send(r->conn[i], type, k->tag, pc, n);
		rs_free(pc);
		rs_free(lens);
		if (e == -EMSGSIZE)
			rdv_fail_all(r, e, "allgather '%s': the nodes' blobs "
				     "are more than the %u bytes a frame "
				     "carries", k->tag, RS_RDV_FRAME_MAX);
		else if (e)
			rdv_fail_all(r, e, "allgather '%s': %s", k->tag,
				     strerror(-e));
		return e;
	}
	for (i = 1; i < r->n && !e; i++)
		e = rdv_send(r->conn[i], type, k->tag, pc, n);
	if (e)
		rdv_fail_all(r, e, "%s '%s': cannot answer node '%s': %s",
			     rdv_op_name(k->op), k->tag, r->names[i - 1],
			     strerror(-e));
	return e;
}

static int lead(struct rs_rdv *r, struct collect *k, char *err,
		size_t errlen)
{
	char names[512];
	unsigned i, cnt;
	int e;

	e = rdv_wait(r, parts_in, k, r->deadline_ms);
	if (e == -ETIMEDOUT) {
		rdv_names(r, missing, names, sizeof(names), &cnt);
		rdv_fail_all(r, e, "%s %s did not reach %s '%s' within %llu "
			     "ms", cnt > 1 ? "nodes" : "node", names,
			     rdv_op_name(k->op), k->tag,
			     (unsigned long long)r->deadline_ms);
	}
	if (r->fail)
		return rdv_failed(r, err, errlen);
	for (i = 1; i < r->n; i++) {
		const struct rdv_frame *f = &r->q[i]->f;
		unsigned op = f->type & 0x0f;

		if (f->type != (RDV_PUT | k->op) || strcmp(f->tag, k->tag)) {
			rdv_fail_all(r, -EINVAL, "node '%s' is at %s '%s', "
				     "node '%s' at %s '%s'", r->names[i],
				     rdv_op_name(op), f->tag, r->names[0],
				     rdv_op_name(k->op), k->tag);
			return rdv_failed(r, err, errlen);
		}
		if ((k->op == RDV_OP_VERDICT && f->len != 4) ||
		    f->len > RS_RDV_BLOB_MAX) {
			rdv_fail_all(r, -EPROTO, "node '%s' sent %zu bytes "
				     "for %s '%s'", r->names[i], f->len,
				     rdv_op_name(k->op), k->tag);
			return rdv_failed(r, err, errlen);
		}
		if (k->op == RDV_OP_VERDICT) {
			if (!rdv_code_ok(r, i, rdv_get32(f->body),
					 "its verdict"))
				return rdv_failed(r, err, errlen);
			k->verdict = rs_rdv_worst(k->verdict,
						  (int)rdv_get32(f->body));
		}
	}
	e = k->all ? take_blobs(r, k) : 0;
	if (!e) {
		e = answer(r, k);
		if (e && k->all)
			rs_rdv_blobs_free(k->all, r->n);
	}
	for (i = 1; i < r->n; i++)
		pop(r, i);
	return e ? rdv_failed(r, err, errlen) : 0;
}

static bool answered(struct rs_rdv *r, void *arg)
{
	(void)arg;
	return r->q[0] || r->state[0] != RDV_LIVE;
}

static int follow(struct rs_rdv *r, struct collect *k, char *err,
		  size_t errlen)
{
	uint64_t ms = r->deadline_ms + RS_RDV_GRACE_MS;
	const char *lead = r->names[0], *op = rdv_op_name(k->op);
	uint8_t code[4];
	struct rdv_piece pc = { k->mine, k->len };
	const struct rdv_frame *f;
	char why[160];
	int e;

	if (k->op == RDV_OP_VERDICT) {
		rdv_put32(code, (uint32_t)k->verdict);
		pc = (struct rdv_piece){ code, 4 };
	}
	e = rdv_send(r->conn[0], RDV_PUT | k->op, k->tag, &pc, 1);
	if (e) {
		rdv_fail(r, e, "node '%s' cannot send its part of %s '%s': "
			 "%s", r->names[r->self], op, k->tag, strerror(-e));
		return rdv_failed(r, err, errlen);
	}
	e = rdv_wait(r, answered, NULL, ms);
	if (e == -ETIMEDOUT)
		rdv_fail(r, e, "node '%s' (the leader) did not answer %s '%s' "
			 "within %llu ms", lead, op, k->tag,
			 (unsigned long long)ms);
	if (!r->fail && !r->q[0])
		rdv_fail(r, -ECONNRESET, "node '%s' (the leader) %s before "
			 "%s '%s'", lead, r->state[0] == RDV_LEFT ?
			 "closed its side" : "was lost", op, k->tag);
	if (r->fail)
		return rdv_failed(r, err, errlen);
	f = &r->q[0]->f;
	if (f->type != (RDV_RESULT | k->op) || strcmp(f->tag, k->tag)) {
		rdv_fail(r, -EPROTO, "node '%s' (the leader) answered %s '%s' "
			 "with a frame of type 0x%02x, tag '%s'", lead, op,
			 k->tag, f->type, f->tag);
		return rdv_failed(r, err, errlen);
	}
	e = 0;
	if (k->op == RDV_OP_VERDICT) {
		if (f->len != 4) {
			e = -EPROTO;
			snprintf(why, sizeof(why), "%zu bytes, not 4", f->len);
		} else if (!rs_exit_valid(rdv_get32(f->body))) {
			e = -EPROTO;
			snprintf(why, sizeof(why), "%u, which is no exit code "
				 "of rdmascn (0, 1, 2, 3, 77, 129 to 192)",
				 rdv_get32(f->body));
		} else {
			k->verdict = (int)rdv_get32(f->body);
		}
	} else if (k->op == RDV_OP_ALLGATHER) {
		e = rdv_blobs_parse(f->body, f->len, r->n, k->all, why,
				    sizeof(why));
	}
	pop(r, 0);
	if (e) {
		rdv_fail(r, e, "node '%s' (the leader) answered %s '%s' "
			 "wrongly: %s", lead, op, k->tag, why);
		return rdv_failed(r, err, errlen);
	}
	return 0;
}

static int collect_one(struct rs_rdv *r, struct collect *k, char *err,
		       size_t errlen)
{
	if (r->fail)
		return rdv_failed(r, err, errlen);
	if (!k->tag)
		k->tag = "";
	if (strlen(k->tag) > RS_RDV_TAG_MAX) {
		snprintf(err, errlen, "%s tag '%.32s...' is longer than %u "
			 "bytes", rdv_op_name(k->op), k->tag, RS_RDV_TAG_MAX);
		return -ENAMETOOLONG;
	}
	if (k->len > RS_RDV_BLOB_MAX) {
		snprintf(err, errlen, "%s '%s': %zu bytes, more than the %u "
			 "a node may give", rdv_op_name(k->op), k->tag,
			 k->len, RS_RDV_BLOB_MAX);
		return -EMSGSIZE;
	}
	if (r->n == 1) {
		if (k->all)
			return copy_blob(&k->all[0], k->mine, k->len);
		return 0;
	}
	return rdv_leader(r) ? lead(r, k, err, errlen) :
	       follow(r, k, err, errlen);
}

static int collect(struct rs_rdv *r, struct collect *k, char *err,
		   size_t errlen)
{
	uint64_t t0 = uv_hrtime();
	int e;

	if (r->fail)
		return rdv_failed(r, err, errlen);
	rdv_call_begin(r, k->tag ? k->tag : "");
	e = collect_one(r, k, err, errlen);
	rdv_call_end(r, t0);
	return e;
}

int rdv_tcp_allgather(struct rs_rdv *r, const char *tag, const void *mine,
		      size_t len, struct rs_rdv_blob *all,
		      char *err, size_t errlen)
{
	struct collect k = { RDV_OP_ALLGATHER, tag, mine, len, all, 0 };

	return collect(r, &k, err, errlen);
}

int rdv_tcp_gather(struct rs_rdv *r, const char *tag, const void *mine,
		   size_t len, struct rs_rdv_blob *all,
		  char *err, size_t errlen)
{
	struct collect k = { RDV_OP_GATHER, tag, mine, len,
			     rdv_leader(r) ? all : NULL, 0 };

	return collect(r, &k, err, errlen);
}

int rdv_tcp_barrier(struct rs_rdv *r, const char *tag,
		    char *err, size_t errlen)
{
	struct collect k = { RDV_OP_BARRIER, tag, NULL, 0, NULL, 0 };

	return collect(r, &k, err, errlen);
}

int rdv_tcp_verdict(struct rs_rdv *r, int mine, int *ret_all,
		    char *err, size_t errlen)
{
	return rdv_tcp_agree(r, "verdict", mine, ret_all, err, errlen);
}

int rdv_tcp_agree(struct rs_rdv *r, const char *tag, int mine, int *ret_all,
		  char *err, size_t errlen)
{
	struct collect k = { RDV_OP_VERDICT, tag, NULL, 0, NULL, mine };
	int e = collect(r, &k, err, errlen);

	if (!e)
		*ret_all = k.verdict;
	return e;
}
