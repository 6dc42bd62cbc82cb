/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_CELLS_H
#define RDMASCN_CELLS_H

#include <sys/types.h>

/*
 * Cells in processes of their own, for the matrix (run_matrix.c) and the
 * search (cmd_explore.c): one way to start a cell, and one wait that
 * wakes as soon as any cell ends (SIGCHLD written to a self-pipe) or a
 * signal of ours arrives, not at a poll's timeout.
 */

/* Between rs_cells_open() and rs_cells_close() a cell's end wakes
 * rs_cells_wait(); without it (the pipe could not be made) the wait
 * falls back to polling every 100 ms.  0 or -errno. */
int rs_cells_open(void);
void rs_cells_close(void);

/* Fork; in the child, stdout to @out and stderr to @err (created, 0600),
 * then _exit(@fn(@ctx)) after flushing.  The child's pid, or -errno. */
pid_t rs_cells_spawn(const char *out, const char *err,
		     int (*fn)(void *ctx), void *ctx);

/* Reap a cell that ended, waiting up to @timeout_ms (-1: until one
 * ends or a signal of ours arrives).  Its pid, with its exit code (its
 * own, or 128+signal) in *@ret_code; 0 when none ended in time or a
 * signal came; -ECHILD when there are no children. */
pid_t rs_cells_wait(int timeout_ms, int *ret_code);

/* Pass signal @sig on to the @n cells of @pids that still run (> 0). */
void rs_cells_kill(const pid_t *pids, unsigned long n, int sig);

#endif
