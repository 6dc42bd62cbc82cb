// SPDX-License-Identifier: MIT
/*
 * Cells in processes of their own (cells.h).  The wait sleeps in poll()
 * on two pipes: the one SIGINT and SIGTERM write (signals.c) and one
 * SIGCHLD writes here.  A child that ends between waitpid() and poll()
 * has already written its byte, so no end is missed and none costs a
 * timeout: with 100 ms polls a matrix of 24 dry-run cells took 1.5 s on
 * two jobs against 0.07 s in one process.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>

#include "cells.h"
#include "exit.h"
#include "signals.h"

/* Without the self-pipe: how often the wait looks for ended cells. */
#define FALLBACK_POLL_MS 100

static int chld_pipe[2] = { -1, -1 };

static void on_chld(int sig)
{
	int saved = errno;

	(void)sig;
	if (chld_pipe[1] >= 0 && write(chld_pipe[1], "", 1) < 0)
		(void)0;  /* full: a byte is there to wake the wait */
	errno = saved;
}

int rs_cells_open(void)
{
	struct sigaction sa = { .sa_handler = on_chld,
				.sa_flags = SA_NOCLDSTOP | SA_RESTART };

	if (chld_pipe[0] >= 0)
		return 0;
	if (pipe2(chld_pipe, O_CLOEXEC | O_NONBLOCK))
		return -errno;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGCHLD, &sa, NULL)) {
		int r = -errno;

		rs_cells_close();
		return r;
	}
	return 0;
}

void rs_cells_close(void)
{
	signal(SIGCHLD, SIG_DFL);
	for (int i = 0; i < 2; i++)
		if (chld_pipe[i] >= 0) {
			close(chld_pipe[i]);
			chld_pipe[i] = -1;
		}
}

pid_t rs_cells_spawn(const char *out, const char *err,
		     int (*fn)(void *ctx), void *ctx)
{
	pid_t pid;
	int fd, ret;

	fflush(NULL);
	pid = fork();
	if (pid)
		return pid < 0 ? -errno : pid;
	/* The cell's own children are the cell's to wait for. */
	rs_cells_close();
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
		_exit(RS_EXIT_CANTRUN);
	close(fd);
	fd = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
		_exit(RS_EXIT_CANTRUN);
	close(fd);
	ret = fn(ctx);
	fflush(NULL);
	_exit(ret);
}

/* A process's end as an exit code: its own, or 128+signal. */
static int exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : RS_EXIT_CANTRUN;
}

/* A cell that ended, reaped: its pid, 0 when none has, or -errno. */
static pid_t reap(int *ret_code)
{
	int status;
	pid_t pid;

	do
		pid = waitpid(-1, &status, WNOHANG);
	while (pid < 0 && errno == EINTR);
	if (pid > 0)
		*ret_code = exit_code(status);
	return pid < 0 ? -errno : pid;
}

pid_t rs_cells_wait(int timeout_ms, int *ret_code)
{
	/* Once a signal came its pipe stays readable: watching it then
	 * would spin; the cells it was passed on to end soon. */
	struct pollfd p[2] = {
		{ .fd = rs_interrupted ? -1 : rs_signal_fd(),
		  .events = POLLIN },
		{ .fd = chld_pipe[0], .events = POLLIN },
	};
	char buf[64];
	pid_t pid = reap(ret_code);

	if (pid)
		return pid;
	if (chld_pipe[0] < 0 && (timeout_ms < 0 ||
				 timeout_ms > FALLBACK_POLL_MS))
		timeout_ms = FALLBACK_POLL_MS;
	if (!timeout_ms)
		return 0;
	if (poll(p, 2, timeout_ms) < 0 && errno != EINTR)
		return -errno;
	while (chld_pipe[0] >= 0 && read(chld_pipe[0], buf, sizeof(buf)) > 0)
		;
	return reap(ret_code);
}

void rs_cells_kill(const pid_t *pids, unsigned long n, int sig)
{
	for (unsigned long i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], sig);
}
