// SPDX-License-Identifier: MIT
/* Bytes written into a scenario: text, hex digits, or a file's contents. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "alloc.h"
#include "dom.h"
#include "hex.h"
#include "literal.h"

const char *rs_literal_form_name(int form)
{
	static const char *const names[] = {
		[RS_LIT_NONE] = "none", [RS_LIT_TEXT] = "text",
		[RS_LIT_HEX] = "hex", [RS_LIT_FILE] = "file",
	};

	return form >= 0 && form <= RS_LIT_FILE ? names[form] : "none";
}

ssize_t rs_hex_parse(const char *s, uint8_t *out, size_t cap,
		     size_t *ret_bad)
{
	size_t n = 0;

	for (size_t i = 0; s[i];) {
		int hi, lo;

		if (strchr(" \t\r\n:", s[i])) {
			i++;
			continue;
		}
		hi = rs_hex_digit(s[i]);
		lo = hi < 0 ? -1 : rs_hex_digit(s[i + 1]);
		if (lo < 0) {
			/* Blame the second character of a pair that has
			 * one ("0x10": the 'x'), else the first. */
			*ret_bad = hi >= 0 && s[i + 1] ? i + 1 : i;
			return -EINVAL;
		}
		if (out && n < cap)
			out[n] = (uint8_t)(hi << 4 | lo);
		n++;
		i += 2;
	}
	return (ssize_t)n;
}

int rs_literal_path(const struct rs_obj *obj, const char *file, char *buf,
		    size_t len)
{
	const char *scn = obj->node ? rs_node_file(obj->node) : NULL;
	const char *slash = scn ? strrchr(scn, '/') : NULL;
	int n;

	if (file[0] == '/' || !slash)
		n = snprintf(buf, len, "%s", file);
	else
		n = snprintf(buf, len, "%.*s/%s", (int)(slash - scn), scn,
			     file);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

const char *rs_literal_why(int r)
{
	return r == -EINVAL ? "not a regular file" :
	       r == -EPERM ? "a file of /proc or /sys, not data" :
	       strerror(-r);
}

#define PROC_MAGIC 0x9fa0
#define SYSFS_MAGIC 0x62656572

int rs_literal_plain(const char *path, int fd)
{
	struct statfs fs;
	struct stat st;

	if (fd >= 0 ? fstat(fd, &st) : stat(path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (!(fd >= 0 ? fstatfs(fd, &fs) : statfs(path, &fs)) &&
	    (fs.f_type == PROC_MAGIC || fs.f_type == SYSFS_MAGIC))
		return -EPERM;
	return 0;
}

/* Its size, or -errno (not a regular file: -EINVAL). */
static int file_size(const char *path, uint64_t *ret)
{
	struct stat st;
	int r = rs_literal_plain(path, -1);

	if (r)
		return r;
	if (stat(path, &st))
		return -errno;
	if (access(path, R_OK))
		return -errno;
	*ret = (uint64_t)st.st_size;
	return 0;
}

int rs_literal_check(const struct rs_obj *obj, struct rs_diag *d,
		     const char *field, int form, const char *value,
		     uint64_t *ret_len)
{
	char path[4096];
	uint64_t len = 0;
	ssize_t n;
	size_t bad;
	int r;

	switch (form) {
	case RS_LIT_TEXT:
		len = strlen(value);
		break;
	case RS_LIT_HEX:
		n = rs_hex_parse(value, NULL, 0, &bad);
		if (n < 0) {
			rs_obj_error(d, obj, field, "'%c' at character %zu "
				     "%s", value[bad], bad + 1,
				     rs_hex_digit(value[bad]) < 0 ?
				     "is not a hex digit" :
				     "has no second hex digit");
			return -EINVAL;
		}
		len = (uint64_t)n;
		break;
	case RS_LIT_FILE:
		if (rs_literal_path(obj, value, path, sizeof(path))) {
			rs_obj_error(d, obj, field, "path too long");
			return -EINVAL;
		}
		r = file_size(path, &len);
		if (r) {
			/* The path as written: the message is the same
			 * wherever the scenario is. */
			rs_obj_error(d, obj, field, "cannot read '%s'%s: %s",
				     value, value[0] == '/' ? "" :
				     " (beside the scenario)",
				     rs_literal_why(r));
			return -EINVAL;
		}
		break;
	default:
		return -EINVAL;
	}
	if (!len) {
		rs_obj_error(d, obj, field, "holds no bytes");
		return -EINVAL;
	}
	*ret_len = len;
	return 0;
}

static int load_file(const char *path, uint8_t **ret, size_t *ret_len,
		     char *err, size_t errlen)
{
	uint64_t size;
	uint8_t *buf;
	size_t got = 0;
	int fd, r = file_size(path, &size);

	if (r) {
		snprintf(err, errlen, "cannot read '%s': %s", path,
			 rs_literal_why(r));
		return r;
	}
	buf = rs_malloc(size ? size : 1);
	if (!buf) {
		snprintf(err, errlen, "'%s': %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	/* Checked again on what was opened: it may have been replaced
	 * since (by a FIFO, which O_NONBLOCK keeps from blocking). */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		r = -errno;
	else
		r = rs_literal_plain(path, fd);
	while (!r && got < size) {
		ssize_t n = read(fd, buf + got, size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* Shorter than stat() said: it changed under us. */
			r = n < 0 ? -errno : -EIO;
			break;
		}
		got += (size_t)n;
	}
	if (fd >= 0)
		close(fd);
	if (r) {
		snprintf(err, errlen, "cannot read '%s': %s", path,
			 rs_literal_why(r));
		rs_free(buf);
		return r;
	}
	*ret = buf;
	*ret_len = got;
	return 0;
}

int rs_literal_load(const struct rs_obj *obj, int form, const char *value,
		    uint8_t **ret, size_t *ret_len, char *err, size_t errlen)
{
	char path[4096];
	uint8_t *buf;
	size_t len, bad;
	ssize_t n;

	switch (form) {
	case RS_LIT_TEXT:
		len = strlen(value);
		buf = rs_malloc(len ? len : 1);
		if (buf)
			memcpy(buf, value, len);
		break;
	case RS_LIT_HEX:
		n = rs_hex_parse(value, NULL, 0, &bad);
		if (n < 0) {
			snprintf(err, errlen, "bad hex at character %zu",
				 bad + 1);
			return -EINVAL;
		}
		len = (size_t)n;
		buf = rs_malloc(len ? len : 1);
		if (buf)
			rs_hex_parse(value, buf, len, &bad);
		break;
	case RS_LIT_FILE:
		if (rs_literal_path(obj, value, path, sizeof(path))) {
			snprintf(err, errlen, "path too long");
			return -ENAMETOOLONG;
		}
		return load_file(path, ret, ret_len, err, errlen);
	default:
		snprintf(err, errlen, "no literal");
		return -EINVAL;
	}
	if (!buf) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	*ret = buf;
	*ret_len = len;
	return 0;
}
