// SPDX-License-Identifier: MIT
/*
 * The public calls of the rendezvous (rendezvous.h), each through the
 * ops of the transport the meeting chose: the TCP star (rdv_meet.c and
 * the files under it) or PMIx (rdv_pmix.c).  The choice is made once,
 * here; nothing past the meeting asks which it was.
 */
#include <errno.h>
#include <stdio.h>

#include "alloc.h"
#include "rdv_int.h"

const struct rdv_ops rdv_tcp_ops = {
	.name = "tcp",
	.allgather = rdv_tcp_allgather,
	.gather = rdv_tcp_gather,
	.barrier = rdv_tcp_barrier,
	.verdict = rdv_tcp_verdict,
	.agree = rdv_tcp_agree,
	.exchange = rdv_tcp_exchange,
	.abort = rdv_tcp_abort,
	.fd = rdv_tcp_fd,
	.poll = rdv_tcp_poll,
	.close = rdv_tcp_close,
};

int rs_rdv_meet(const struct rs_rdv_conf *c, struct rs_rdv **ret,
		char *err, size_t errlen)
{
	struct rs_rdv *r = NULL;
	int e;

	switch (c->via) {
	case RS_RDV_PMIX:
		return rdv_pmix_meet(c, ret, err, errlen);
	case RS_RDV_AUTO:
		/* Not launched by one, PMIx_Init would only fail, 25 ms
		 * later; launched by one that does not answer, in a
		 * build without it or where libpmix cannot be loaded, the
		 * TCP star is the way still. */
		if (rdv_pmix_launched()) {
			e = rdv_pmix_meet(c, ret, err, errlen);
			if (e != -EHOSTUNREACH && e != -ENOTSUP &&
			    e != -ELIBACC)
				return e;
		}
		break;
	case RS_RDV_TCP:
		break;
	}
	e = rdv_tcp_meet(c, &r, err, errlen);
	if (r) {
		r->ops = &rdv_tcp_ops;
		*ret = r;
	}
	return e;
}

int rs_rdv_allgather(struct rs_rdv *r, const char *tag, const void *mine,
		     size_t len, struct rs_rdv_blob *all,
		     char *err, size_t errlen)
{
	return r->ops->allgather(r, tag, mine, len, all, err, errlen);
}

int rs_rdv_gather(struct rs_rdv *r, const char *tag, const void *mine,
		  size_t len, struct rs_rdv_blob *all,
		  char *err, size_t errlen)
{
	return r->ops->gather(r, tag, mine, len, all, err, errlen);
}

int rs_rdv_barrier(struct rs_rdv *r, const char *tag,
		   char *err, size_t errlen)
{
	return r->ops->barrier(r, tag, err, errlen);
}

int rs_rdv_verdict(struct rs_rdv *r, int mine, int *ret_all,
		   char *err, size_t errlen)
{
	return r->ops->verdict(r, mine, ret_all, err, errlen);
}

int rs_rdv_agree(struct rs_rdv *r, const char *tag, int mine, int *ret_all,
		 char *err, size_t errlen)
{
	return r->ops->agree(r, tag, mine, ret_all, err, errlen);
}

int rs_rdv_exchange(struct rs_rdv *r, const char *tag,
		    const struct rs_rdv_msg *out, unsigned n_out,
		    struct rs_rdv_msg *want, unsigned n_want, char *err,
		    size_t errlen)
{
	return r->ops->exchange(r, tag, out, n_out, want, n_want, err,
				errlen);
}

void rs_rdv_abort(struct rs_rdv *r, int code, const char *why)
{
	if (r)
		r->ops->abort(r, code, why);
}

int rs_rdv_fd(const struct rs_rdv *r)
{
	return r->ops->fd(r);
}

int rs_rdv_poll(struct rs_rdv *r, char *err, size_t errlen)
{
	return r->ops->poll(r, err, errlen);
}

const char *rs_rdv_via_name(const struct rs_rdv *r)
{
	return r->ops->name;
}

void rs_rdv_close(struct rs_rdv *r)
{
	if (r)
		r->ops->close(r);
}
