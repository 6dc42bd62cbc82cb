// SPDX-License-Identifier: MIT
/*
 * requires.uniform: this host's value of each name the scenario asks
 * every node to share, as "name=value" for the hello (rs_rdv_conf's
 * uniform list), read before any device is opened: the kernel's
 * release, and the firmware versions and kernel drivers of the host's
 * RDMA devices (sysfs), each set sorted and without repeats, so that two
 * hosts with the same devices say the same whatever their names.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "alloc.h"
#include "macros.h"
#include "nodes.h"
#include "schema.h"

#define SYS_IB "/sys/class/infiniband"

/* @dev's firmware version, as ibv_query_device() gives it. */
static void fw_ver(const char *dev, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), SYS_IB "/%s/fw_ver", dev);
	buf[0] = '\0';
	f = fopen(path, "re");
	if (f) {
		if (!fgets(buf, (int)len, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* @dev's kernel driver: its parent device's (mlx5_core, irdma); a
 * software device has no parent (rxe, siw): its name's letters. */
static void driver(const char *dev, char *buf, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX];
	ssize_t n;
	const char *base;
	size_t k = 0;

	snprintf(path, sizeof(path), SYS_IB "/%s/device/driver", dev);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		base = strrchr(link, '/');
		snprintf(buf, len, "%s", base ? base + 1 : link);
		return;
	}
	while (dev[k] >= 'a' && dev[k] <= 'z' && k + 1 < len) {
		buf[k] = dev[k];
		k++;
	}
	buf[k] = '\0';
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "@name=v1,v2": @get of every device, sorted, each once. */
static char *of_devices(const char *name,
			void (*get)(const char *, char *, size_t))
{
	char *vals[64], *out = NULL;
	unsigned n = 0;
	size_t len = strlen(name) + 2;
	struct dirent *e;
	DIR *d = opendir(SYS_IB);

	while (d && (e = readdir(d)) && n < 64) {
		char v[128];

		if (e->d_name[0] == '.')
			continue;
		get(e->d_name, v, sizeof(v));
		vals[n] = rs_strdup(v);
		if (!vals[n])
			goto out;
		len += strlen(v) + 1;
		n++;
	}
	qsort(vals, n, sizeof(*vals), by_str);
	out = rs_malloc(len + 8);
	if (!out)
		goto out;
	snprintf(out, len + 8, "%s=%s", name, n ? "" : "(no device)");
	for (unsigned i = 0; i < n; i++) {
		if (i && !strcmp(vals[i], vals[i - 1]))
			continue;
		if (i)
			strcat(out, ",");
		strcat(out, vals[i]);
	}
out:
	for (unsigned i = 0; i < n; i++)
		rs_free(vals[i]);
	if (d)
		closedir(d);
	return out;
}

static char *kernel(void)
{
	struct utsname u;
	size_t len;
	char *out;

	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	len = strlen(u.release) + sizeof("kernel=");
	out = rs_malloc(len);
	if (out)
		snprintf(out, len, "kernel=%s", u.release);
	return out;
}

int rs_uniform_values(uint32_t bits, char ***ret, unsigned *ret_n)
{
	char **v = rs_calloc(RS_N(rs_uniform_bits) + 1, sizeof(*v));
	unsigned n = 0;

	if (!v)
		return -ENOMEM;
	/* In name order, as the leader compares them. */
	if (bits & RS_UNI_DRIVER && !(v[n++] = of_devices("driver", driver)))
		goto nomem;
	if (bits & RS_UNI_FW_VER && !(v[n++] = of_devices("fw_ver", fw_ver)))
		goto nomem;
	if (bits & RS_UNI_KERNEL && !(v[n++] = kernel()))
		goto nomem;
	*ret = v;
	*ret_n = n;
	return 0;
nomem:
	rs_uniform_free(v, n);
	return -ENOMEM;
}

void rs_uniform_free(char **v, unsigned n)
{
	for (unsigned i = 0; v && i < n; i++)
		rs_free(v[i]);
	rs_free(v);
}
