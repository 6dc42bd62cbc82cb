// SPDX-License-Identifier: MIT
/*
 * Importing a context, a PD and an MR into a second context of the
 * process (ibv_import_device() on a dup of the first's cmd_fd).  Not every
 * provider can (rxe has no import_context op), and no device attribute
 * says so: a trial on a context of our own says, before anything of the
 * scenario is created.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kinds.h"
#include "live.h"

/* Only "the provider has none" is a missing capability; any other error
 * is left to the create, which reports it in place. */
static int lacks(char *why, unsigned len, const char *what, const char *call)
{
	if (errno != EOPNOTSUPP && errno != ENOSYS)
		return 0;
	snprintf(why, len, "%s import (a trial %s: %s)", what, call,
		 strerror(errno));
	return -EOPNOTSUPP;
}

int rs_import_trial(const struct rs_dev *dev, const char *what, char *why,
		    unsigned len)
{
	bool want_pd = strcmp(what, "context") != 0;
	bool want_mr = !strcmp(what, "mr");
	struct ibv_context *ctx, *ictx = NULL;
	struct ibv_pd *pd = NULL, *ipd = NULL;
	struct ibv_mr *mr = NULL, *imr = NULL;
	static char byte;
	int fd, ret = 0;

	if (!dev || !dev->device || !(ctx = ibv_open_device(dev->device)))
		return 0;
	fd = dup(ctx->cmd_fd);
	if (fd < 0)
		goto out;
	errno = 0;
	ictx = ibv_import_device(fd);
	if (!ictx) {
		ret = lacks(why, len, "context", "ibv_import_device");
		close(fd);
		goto out;
	}
	if (!want_pd || !(pd = ibv_alloc_pd(ctx)))
		goto out;
	errno = 0;
	ipd = ibv_import_pd(ictx, pd->handle);
	if (!ipd) {
		ret = lacks(why, len, "pd", "ibv_import_pd");
		goto out;
	}
	if (!want_mr || !(mr = ibv_reg_mr(pd, &byte, 1, 0)))
		goto out;
	errno = 0;
	imr = ibv_import_mr(ipd, mr->handle);
	if (!imr)
		ret = lacks(why, len, "mr", "ibv_import_mr");
out:
	/* The imports first, as the scenario's teardown does. */
	if (imr)
		ibv_unimport_mr(imr);
	if (ipd)
		ibv_unimport_pd(ipd);
	if (ictx)
		ibv_close_device(ictx);
	if (mr)
		ibv_dereg_mr(mr);
	if (pd)
		ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return ret;
}
