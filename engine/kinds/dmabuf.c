// SPDX-License-Identifier: MIT
/*
 * dma-buf MRs: the buffer is a memfd, sealed against shrinking, that
 * /dev/udmabuf (UDMABUF_CREATE) turns into a dma-buf; the MR is
 * registered on the dma-buf's fd with ibv_reg_dmabuf_mr(), and the engine
 * reads and writes the bytes through a mapping of the memfd (the same
 * pages).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/udmabuf.h>

#include "kinds.h"
#include "live.h"

#define UDMABUF_DEV "/dev/udmabuf"

/*
 * Two questions, before anything is created.  The device: a trial
 * ibv_reg_dmabuf_mr() on a plain memfd (not a dma-buf) fails with
 * EOPNOTSUPP where the provider or the kernel driver has no dma-buf MRs,
 * and with another error (the fd is no dma-buf) where it has them.  The
 * host: without /dev/udmabuf (CONFIG_UDMABUF) the engine has no dma-buf
 * to give.
 */
int rs_dmabuf_trial(const struct rs_dev *dev, char *why, unsigned len)
{
	long page = sysconf(_SC_PAGESIZE);
	struct ibv_context *ctx;
	struct ibv_pd *pd = NULL;
	struct ibv_mr *mr = NULL;
	int fd = -1, ret = 0;

	if (!dev || !dev->device || !(ctx = ibv_open_device(dev->device)))
		return 0;
	pd = ibv_alloc_pd(ctx);
	fd = memfd_create("rdmascn-dmabuf-trial", MFD_CLOEXEC);
	if (pd && fd >= 0 && !ftruncate(fd, page)) {
		errno = 0;
		mr = ibv_reg_dmabuf_mr(pd, 0, page, 0, fd,
				       IBV_ACCESS_LOCAL_WRITE);
		if (!mr && (errno == EOPNOTSUPP || errno == ENOSYS ||
			    errno == EPROTONOSUPPORT)) {
			snprintf(why, len, "dmabuf (a trial "
				 "ibv_reg_dmabuf_mr: %s)", strerror(errno));
			ret = -EOPNOTSUPP;
		}
	}
	if (mr)
		ibv_dereg_mr(mr);
	if (fd >= 0)
		close(fd);
	if (pd)
		ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	if (!ret && access(UDMABUF_DEV, R_OK | W_OK)) {
		snprintf(why, len, "dmabuf source (%s: %s; the kernel needs "
			 "CONFIG_UDMABUF, `modprobe udmabuf`)", UDMABUF_DEV,
			 strerror(errno));
		ret = -EOPNOTSUPP;
	}
	return ret;
}

int rs_dmabuf_make(size_t size, int *ret_memfd, int *ret_dmabuf_fd,
		   void **ret_map, const char **ret_what)
{
	struct udmabuf_create cr = {
		.flags = UDMABUF_FLAGS_CLOEXEC,
		.size = size,
	};
	int memfd, dev = -1, fd = -1, ret;
	void *map;

	*ret_what = "memfd_create";
	memfd = memfd_create("rdmascn-dmabuf", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (memfd < 0)
		return -errno;
	*ret_what = "ftruncate";
	if (ftruncate(memfd, (off_t)size))
		goto fail;
	/* udmabuf refuses a memfd that could shrink under the device. */
	*ret_what = "fcntl(F_ADD_SEALS, F_SEAL_SHRINK)";
	if (fcntl(memfd, F_ADD_SEALS, F_SEAL_SHRINK))
		goto fail;
	*ret_what = "open(" UDMABUF_DEV ")";
	dev = open(UDMABUF_DEV, O_RDWR | O_CLOEXEC);
	if (dev < 0)
		goto fail;
	*ret_what = "ioctl(UDMABUF_CREATE)";
	cr.memfd = (uint32_t)memfd;
	fd = ioctl(dev, UDMABUF_CREATE, &cr);
	if (fd < 0)
		goto fail;
	*ret_what = "mmap";
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	if (map == MAP_FAILED)
		goto fail;
	close(dev);
	*ret_memfd = memfd;
	*ret_dmabuf_fd = fd;
	*ret_map = map;
	return 0;
fail:
	ret = errno ? -errno : -EIO;
	if (fd >= 0)
		close(fd);
	if (dev >= 0)
		close(dev);
	close(memfd);
	return ret;
}
