// SPDX-License-Identifier: MIT
/*
 * The engine's dma-buf for `dmabuf:` MRs (kinds/dmabuf.c), without a
 * device: a sealed memfd made a dma-buf by /dev/udmabuf.  Where the host
 * has /dev/udmabuf the dma-buf is made and its pages are the memfd's;
 * where it has none (Debian's kernels: CONFIG_UDMABUF unset) the failure
 * names the step that failed and leaves no descriptor behind.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "list.h"
#include "kinds.h"

static unsigned open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned n = 0;

	if (!d)
		return 0;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

TEST(dmabuf, make)
{
	size_t size = 2 * (size_t)sysconf(_SC_PAGESIZE);
	unsigned before = open_fds();
	const char *what = NULL;
	int memfd = -1, fd = -1;
	void *map = NULL;
	int r;

	CHECK(before > 0);
	r = rs_dmabuf_make(size, &memfd, &fd, &map, &what);
	if (access("/dev/udmabuf", R_OK | W_OK)) {
		/* Every step before the device was taken; the device's
		 * absence is what failed, and nothing was kept. */
		CHECK(r < 0);
		CHECK_STR(what, "open(/dev/udmabuf)");
		CHECK_INT(r, -errno);
		CHECK_UINT(open_fds(), before);
		CHECK_INT(memfd, -1);
		CHECK_PTR(map, NULL);
		return;
	}
	CHECK_INT(r, 0);
	CHECK(memfd >= 0 && fd >= 0 && map != NULL);
	/* Sealed against shrinking (udmabuf's condition), and one set of
	 * pages: what the engine writes in the map is in the memfd. */
	CHECK_INT(fcntl(memfd, F_GET_SEALS) & F_SEAL_SHRINK, F_SEAL_SHRINK);
	memset(map, 0xa5, size);
	{
		unsigned char b = 0;

		CHECK_INT((int)pread(memfd, &b, 1, (off_t)size - 1), 1);
		CHECK_UINT(b, 0xa5);
	}
	munmap(map, size);
	close(fd);
	close(memfd);
	CHECK_UINT(open_fds(), before);
}
