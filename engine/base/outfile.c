// SPDX-License-Identifier: MIT
/*
 * Outputs: open, commit, abort (outfile.h).  The stream is a
 * fopencookie() over our own write loop, not fdopen(): glibc's file
 * stream forgets errno once a write failed, and after a partial write
 * into a pipe it writes the rest again, blocking past a signal.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "alloc.h"
#include "exit.h"
#include "outfile.h"
#include "signals.h"

static ssize_t out_write(void *cookie, const char *buf, size_t size)
{
	struct rs_out *o = cookie;
	size_t done = 0;

	while (done < size) {
		ssize_t n = write(o->fd, buf + done, size - done);

		/* A signal ends a write that blocks (a pipe, a FIFO: the
		 * handler made it non-blocking, EAGAIN); the exit code says
		 * why.  A file's write does not block: it goes on. */
		if (n < 0 && errno == EINTR && !rs_interrupted)
			continue;
		if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
			o->err = o->err ? o->err : EINTR;
			return -1;
		}
		if (n < 0) {
			o->err = o->err ? o->err : errno;
			return -1;
		}
		done += n;
	}
	return size;
}

static void say(const struct rs_out *o, int err)
{
	bool out = !strcmp(o->path, "-");

	fprintf(stderr, "rdmascn: %s%s%s: %s\n", o->what, *o->what ? " " : "",
		out ? "standard output" : o->path, strerror(err));
}

/* Why standard output failed: stdio forgot errno when an earlier flush
 * failed; a write of nothing asks the file again (/dev/full, a closed
 * descriptor answer; a full disk does not, and is "I/O error"). */
static int stdout_errno(void)
{
	int e = errno;

	if (e)
		return e;
	if (write(STDOUT_FILENO, "", 0) < 0)
		return errno;
	return EIO;
}

static void out_free(struct rs_out *o)
{
	if (o->target != o->path)
		free(o->target);
	rs_free(o->buf);
	o->buf = NULL;
	free(o->tmp);
	o->target = NULL;
	o->tmp = NULL;
	o->f = NULL;
	o->fd = -1;
}

/* The temporary file next to @o->target, mode as the file it replaces
 * (or as open(O_CREAT) would make it). */
static int open_tmp(struct rs_out *o, const struct stat *st, bool exists)
{
	char *dir_copy = strdup(o->target), *base_copy = strdup(o->target);
	mode_t mask;
	int e = 0;

	if (!dir_copy || !base_copy ||
	    asprintf(&o->tmp, "%s/.%s.XXXXXX", dirname(dir_copy),
		     basename(base_copy)) < 0) {
		o->tmp = NULL;
		e = ENOMEM;
		goto out;
	}
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		e = errno;
		free(o->tmp);
		o->tmp = NULL;
		goto out;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(o->fd, exists ? st->st_mode & 07777 : 0666 & ~mask))
		(void)0;  /* the file is still right, its mode less so */
out:
	free(dir_copy);
	free(base_copy);
	return -e;
}

int rs_out_open(struct rs_out *o, const char *what, const char *path)
{
	static const cookie_io_functions_t io = { .write = out_write };
	struct stat st;
	bool exists;
	int e;

	*o = (struct rs_out){ .what = what, .path = path, .fd = -1 };
	if (!strcmp(path, "-")) {
		o->f = stdout;
		o->fd = STDOUT_FILENO;
		return 0;
	}
	exists = !stat(path, &st);
	o->target = (char *)path;
	if (exists && S_ISREG(st.st_mode)) {
		/* Through a symbolic link: replace what it points to. */
		char *real = realpath(path, NULL);

		if (real)
			o->target = real;
	}
	if (!exists || S_ISREG(st.st_mode)) {
		e = open_tmp(o, &st, exists);
		if (e)
			goto fail;
	} else {
		/* A FIFO's open() waits for a reader: a signal ends that;
		 * after one, nothing waits (no reader: ENXIO). */
		int fl = O_WRONLY | O_CLOEXEC | O_NOCTTY;

		do
			o->fd = open(path, fl | (rs_interrupted ?
						 O_NONBLOCK : 0));
		while (o->fd < 0 && errno == EINTR && !rs_interrupted);
		if (o->fd < 0) {
			e = -errno;
			goto fail;
		}
		rs_signals_unblock_fd(o->fd, true);
	}
	o->f = fopencookie(o, "w", io);
	if (!o->f) {
		e = -errno;
		goto fail;
	}
	/* Nobody sees a temporary file before it is renamed: it is written
	 * in large pieces (a record is megabytes, a write(2) is dear in a
	 * VM).  Special files keep stdio's own buffer: whoever reads a
	 * FIFO sees what was written as soon as it was.  Without the
	 * memory, stdio's buffer still does. */
	if (o->tmp) {
		o->buf = rs_malloc(RS_OUT_BUF);
		if (o->buf)
			setvbuf(o->f, o->buf, _IOFBF, RS_OUT_BUF);
	}
	return 0;
fail:
	say(o, -e);
	rs_out_abort(o);
	return e;
}

int rs_out_write(struct rs_out *o, const void *buf, size_t n)
{
	if (o->f == stdout)
		return fwrite(buf, 1, n, stdout) == n ? 0 : -EIO;
	/* After what the stream holds; a failure is the stream's error
	 * (o->err), which rs_out_commit() says. */
	if (fflush(o->f) || out_write(o, buf, n) < 0)
		return -EIO;
	return 0;
}

const char *rs_out_name(const struct rs_out *o)
{
	return o->tmp ? o->tmp : o->path;
}

void rs_out_abort(struct rs_out *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	if (o->fd > STDERR_FILENO) {
		rs_signals_unblock_fd(o->fd, false);
		close(o->fd);
	}
	if (o->tmp)
		unlink(o->tmp);
	out_free(o);
}

int rs_out_commit(struct rs_out *o)
{
	int e = 0;

	if (!o->f)
		return 0;
	if (o->f == stdout) {
		errno = 0;
		if (fflush(stdout) || ferror(stdout))
			e = stdout_errno();
		clearerr(stdout);  /* said here, not again at exit */
		if (e)
			say(o, e);
		out_free(o);
		return -e;
	}
	if (fflush(o->f) || ferror(o->f) || o->err)
		e = o->err ? o->err : EIO;
	fclose(o->f);
	o->f = NULL;
	/* On the disk before it replaces the file before it. */
	if (!e && o->tmp && fsync(o->fd))
		e = errno;
	rs_signals_unblock_fd(o->fd, false);
	if (close(o->fd) && !e && errno != EINTR)
		e = errno;
	o->fd = -1;
	if (!e && o->tmp && rename(o->tmp, o->target))
		e = errno;
	if (e) {
		say(o, e);
		rs_out_abort(o);
		return -e;
	}
	out_free(o);
	return 0;
}

/* @path resolved: its directory's real path and its last name. */
static char *resolve(const char *path)
{
	char *dir_copy = strdup(path), *base_copy = strdup(path);
	char *dir = NULL, *ret = NULL;

	if (dir_copy && base_copy)
		dir = realpath(dirname(dir_copy), NULL);
	if (dir && asprintf(&ret, "%s/%s", dir, basename(base_copy)) < 0)
		ret = NULL;
	free(dir);
	free(dir_copy);
	free(base_copy);
	return ret;
}

bool rs_out_same(const char *a, const char *b)
{
	struct stat sa, sb;
	char *ra, *rb;
	bool same;

	if (!a || !b || !strcmp(a, "-") || !strcmp(b, "-"))
		return false;
	if (!stat(a, &sa) && !stat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	ra = resolve(a);
	rb = resolve(b);
	same = ra && rb ? !strcmp(ra, rb) : !strcmp(a, b);
	free(ra);
	free(rb);
	return same;
}

int rs_out_stdout_close(int ret)
{
	int e = 0;

	errno = 0;
	if (fflush(stdout) || ferror(stdout))
		e = stdout_errno();
	/* A closed standard output nothing was written to is no error. */
	if (fclose(stdout) && !e && errno != EBADF)
		e = errno;
	if (!e)
		return ret;
	fprintf(stderr, "rdmascn: standard output: %s\n", strerror(e));
	return ret == RS_EXIT_PASSED || ret == RS_EXIT_FAILED ||
	       ret == RS_EXIT_SKIPPED ? RS_EXIT_CANTRUN : ret;
}
