/* SPDX-License-Identifier: MIT */
/*
 * What both fuzz targets share: the input as a file the loader can open
 * (a memfd, named /proc/self/fd/N), and `rdmascn plan` called as the
 * program calls it, its output thrown away.
 */
#ifndef RDMASCN_FUZZ_COMMON_H
#define RDMASCN_FUZZ_COMMON_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"

static const struct rs_cmd fuzz_plan_cmd = {
	"plan", rs_cmd_plan, "[--set NAME=VALUE]... [-v] FILE", "", NULL,
};

/* Output goes to /dev/null: the plan's lines and the loader's errors.
 * libFuzzer and the sanitizers write to fd 2 themselves, so their
 * reports still show. */
static inline void fuzz_quiet(void)
{
	FILE *null = fopen("/dev/null", "w");

	if (!null)
		abort();
	fflush(stdout);
	dup2(fileno(null), STDOUT_FILENO);
	stderr = null;
	rs_cli_registry_init();
}

/* @data in a memfd; its name into @path.  Returns the fd, or -1. */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path,
			    size_t len)
{
	int fd = memfd_create("scenario", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	for (size_t off = 0; off < size;) {
		ssize_t w = write(fd, data + off, size - off);

		if (w <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* `rdmascn plan ARGV...`: getopt starts afresh each time. */
static inline int fuzz_plan(int argc, char **argv)
{
	optind = 0;
	return rs_cmd_plan(&fuzz_plan_cmd, argc, argv);
}

#endif
