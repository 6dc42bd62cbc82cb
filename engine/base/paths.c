// SPDX-License-Identifier: MIT
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paths.h"

int rs_path_self(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);

	if (n < 0)
		return -errno;
	if ((size_t)n >= len - 1)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return 0;
}

/* PREFIX/REL, where the binary is PREFIX/bin/rdmascn. */
static int under_prefix(const char *rel, char *buf, size_t len)
{
	char self[PATH_MAX];
	int r = rs_path_self(self, sizeof(self));

	if (r < 0)
		return r;
	/* dirname() twice: PREFIX/bin/rdmascn -> PREFIX */
	if (snprintf(buf, len, "%s/%s", dirname(dirname(self)), rel) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

static int from_env_or_prefix(const char *env, const char *rel, char *buf,
			      size_t len)
{
	const char *e = getenv(env);

	if (e && *e) {
		if (snprintf(buf, len, "%s", e) >= (int)len)
			return -ENAMETOOLONG;
		return 0;
	}
	return under_prefix(rel, buf, len);
}

int rs_path_plugindir(char *buf, size_t len)
{
	return from_env_or_prefix("RDMASCN_PLUGIN_DIR", RDMASCN_PLUGINDIR_REL,
				  buf, len);
}

int rs_path_extra_plugindir(char *buf, size_t len)
{
	const char *e = getenv("RDMASCN_EXTRA_PLUGIN_DIR");

	if (!e || !*e)
		return -ENOENT;
	if (snprintf(buf, len, "%s", e) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

int rs_path_helper(const char *name, char *buf, size_t len)
{
	char dir[PATH_MAX];
	int r = from_env_or_prefix("RDMASCN_HELPER_DIR", RDMASCN_HELPERDIR_REL,
				   dir, sizeof(dir));

	if (r < 0)
		return r;
	if (snprintf(buf, len, "%s/%s", dir, name) >= (int)len)
		return -ENAMETOOLONG;
	return access(buf, X_OK) == 0 ? 0 : -errno;
}
