// SPDX-License-Identifier: MIT
/*
 * The run's key (run_key.h): read, checked, and kept out of the way.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "cli.h"
#include "exit.h"
#include "run_key.h"

/* Trailing white space (a newline from `echo` or an editor) is no part
 * of the key; then its length must be within bounds. */
static int take(const struct rs_cmd *cmd, const char *what, const char *p,
		size_t len, uint8_t **ret, size_t *ret_len)
{
	while (len && strchr(" \t\r\n", p[len - 1]))
		len--;
	if (len < RS_KEY_MIN || len > RS_KEY_MAX) {
		return rs_cmd_refuse(cmd, "%s: a key of %zu bytes; a key is "
				     "%d to %d bytes (make one with `head -c "
				     "32 /dev/urandom | base64`)", what, len,
				     RS_KEY_MIN, RS_KEY_MAX);
	}
	*ret = rs_malloc(len);
	if (!*ret)
		return rs_cmd_no_memory(cmd);
	memcpy(*ret, p, len);
	*ret_len = len;
	return 0;
}

static int from_file(const struct rs_cmd *cmd, const char *file,
		     uint8_t **ret, size_t *ret_len)
{
	char buf[RS_KEY_MAX + 2], what[300];
	struct stat st;
	ssize_t got;
	size_t have = 0;
	int fd, r;

	snprintf(what, sizeof(what), "--key-file %s", file);
	/* O_NONBLOCK: a FIFO in its place must not hang us in open(). */
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return rs_cmd_refuse(cmd, "%s: %s", what, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return rs_cmd_refuse(cmd, "%s: not a regular file", what);
	}
	if (st.st_mode & 077) {
		close(fd);
		return rs_cmd_refuse(cmd, "%s: mode %04o lets others read or "
				     "change the key: chmod 600 %s", what,
				     (unsigned)(st.st_mode & 07777), file);
	}
	while (have < sizeof(buf)) {
		got = read(fd, buf + have, sizeof(buf) - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		have += (size_t)got;
	}
	r = got < 0 ? errno : 0;
	close(fd);
	if (r)
		return rs_cmd_refuse(cmd, "%s: %s", what, strerror(r));
	r = take(cmd, what, buf, have, ret, ret_len);
	explicit_bzero(buf, sizeof(buf));
	return r;
}

int rs_run_key_load(const struct rs_cmd *cmd, const char *file,
		    uint8_t **ret, size_t *ret_len)
{
	const char *env = getenv("RDMASCN_KEY");

	*ret = NULL;
	*ret_len = 0;
	if (file)
		return from_file(cmd, file, ret, ret_len);
	if (env && *env)
		return take(cmd, "RDMASCN_KEY", env, strlen(env), ret,
			    ret_len);
	return 0;
}

void rs_run_key_free(uint8_t *key, size_t len)
{
	if (key)
		explicit_bzero(key, len);
	rs_free(key);
}
