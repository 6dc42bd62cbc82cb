/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_OUTFILE_H
#define RDMASCN_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

/*
 * One output of a verb (--json, --junit, --samples, --graph-out,
 * graph -o), the one way every writer opens, finishes and drops it:
 * a regular file (or one not there yet) is written to a temporary file
 * in its directory and renamed over it only when all of it was written,
 * so a failure never leaves half a file and keeps the one before; a
 * special file (/dev/full, /dev/stdout, a FIFO) is written in place; "-"
 * is standard output.  Every write is checked through the close, and a
 * failure names the option, the path and errno on stderr.  Writes end
 * on SIGINT/SIGTERM (rs_interrupted) instead of blocking on a FIFO
 * nobody reads.
 */
/* A temporary file's stream buffer: its writes are this large. */
#define RS_OUT_BUF ((size_t)256 << 10)

struct rs_out {
	const char *what;     /* the option, for messages: "--json" */
	const char *path;     /* as given */
	char *target;         /* what is renamed onto: path, or where its
			       * symbolic link points */
	char *tmp;            /* the temporary file; NULL: in place */
	FILE *f;              /* write here */
	char *buf;            /* f's buffer, for a temporary file */
	int fd;
	int err;              /* the first failed write's errno */
};

/* Open @path ("-": standard output) for the option @what: 0, or -errno
 * (said on stderr). */
int rs_out_open(struct rs_out *o, const char *what, const char *path);
/* @n bytes at @buf to @o, after what its stream holds, in one write(2)
 * for a file (not copied into the stream's buffer first: a writer that
 * fills a buffer of its own, the record's JSON).  0, or -EIO: the error
 * is the stream's, said by rs_out_commit(). */
int rs_out_write(struct rs_out *o, const void *buf, size_t n);
/* The name a child process may write instead of o->f (Graphviz's dot
 * -o): the temporary file, or the path itself. */
const char *rs_out_name(const struct rs_out *o);
/* Flush, check and close; rename into place.  0, or -errno (said on
 * stderr, the temporary file removed).  Accepts an output never opened
 * (o->f NULL): nothing to do. */
int rs_out_commit(struct rs_out *o);
/* Drop it: a temporary file is removed, the file before kept. */
void rs_out_abort(struct rs_out *o);

/* Whether @a and @b name the same file: the same device and inode where
 * both exist, else the same resolved path.  "-" is never a file. */
bool rs_out_same(const char *a, const char *b);

/* Standard output at the end of a verb that exits @ret: flushed and
 * checked; a write error is said (naming "standard output" and errno)
 * and turns an exit of 0, 1 or 77 into 3. */
int rs_out_stdout_close(int ret);

#endif
