// SPDX-License-Identifier: MIT
/*
 * SIGINT and SIGTERM end a run in order: the first one is remembered and
 * made readable on a pipe (uv_poll and poll() watch it), whatever is
 * being built stops at the next object or wait, and teardown runs to the
 * end.  Signals during a teardown are noted and do not abort it; the
 * first of them still ends the run (a matrix stops) once that teardown
 * is over, which is why the flag is per teardown, not for the process.
 *
 * The handler is installed without SA_RESTART: an open() of a FIFO
 * nobody reads, or a write() into a full pipe, must end with EINTR on a
 * signal, not start again.  Every wait of the engine is a poll() (never
 * restarted anyway) or checks rs_interrupted; output writers
 * (outfile.c) give up on EINTR once rs_interrupted is set.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <stdbool.h>
#include <unistd.h>
#include <sys/stat.h>

#include "signals.h"

volatile sig_atomic_t rs_interrupted;
static volatile sig_atomic_t in_teardown;
/* The first signal of a teardown, when none came before it. */
static volatile sig_atomic_t held;
static int pipe_fds[2] = { -1, -1 };
/* Outputs that may block (a pipe, a FIFO, a socket): made non-blocking
 * on a signal, so that a write blocked after writing part of its buffer
 * (which returns that part, not EINTR, and is then written again by
 * stdio) ends too.  Slot 0 is standard output. */
static volatile int unblock[4] = { -1, -1, -1, -1 };

static void wake(void)
{
	if (pipe_fds[1] >= 0 && write(pipe_fds[1], "", 1) < 0)
		(void)0;
}

static void unblock_all(void)
{
	for (size_t i = 0; i < sizeof(unblock) / sizeof(unblock[0]); i++) {
		int fd = unblock[i], fl;

		if (fd >= 0 && (fl = fcntl(fd, F_GETFL)) >= 0)
			fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	}
}

static void on_signal(int sig)
{
	static const char msg[] =
		"rdmascn: tearing down; this signal does not stop that\n";
	int saved = errno;

	if (in_teardown) {
		if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
			(void)0;
		if (!rs_interrupted && !held)
			held = sig;
	} else if (!rs_interrupted) {
		rs_interrupted = sig;
		wake();
		unblock_all();
	}
	errno = saved;
}

int rs_signal_fd(void)
{
	return pipe_fds[0];
}

static bool may_block(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && (S_ISFIFO(st.st_mode) ||
				   S_ISSOCK(st.st_mode));
}

void rs_signals_unblock_fd(int fd, bool on)
{
	sigset_t both, old;

	if (on && !may_block(fd))
		return;
	sigemptyset(&both);
	sigaddset(&both, SIGINT);
	sigaddset(&both, SIGTERM);
	sigprocmask(SIG_BLOCK, &both, &old);
	for (size_t i = 1; i < sizeof(unblock) / sizeof(unblock[0]); i++) {
		if (on && unblock[i] < 0) {
			unblock[i] = fd;
			break;
		}
		if (!on && unblock[i] == fd)
			unblock[i] = -1;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

void rs_signals_install(void)
{
	struct sigaction sa;

	if (may_block(STDOUT_FILENO))
		unblock[0] = STDOUT_FILENO;

	if (pipe_fds[0] < 0 && pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) < 0)
		pipe_fds[0] = pipe_fds[1] = -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* Both block each other: one handler at a time. */
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void rs_signals_teardown_begin(void)
{
	in_teardown = 1;
}

void rs_signals_teardown_end(void)
{
	sigset_t both, old;

	/* The handler must not run between the two stores. */
	sigemptyset(&both);
	sigaddset(&both, SIGINT);
	sigaddset(&both, SIGTERM);
	sigprocmask(SIG_BLOCK, &both, &old);
	in_teardown = 0;
	if (held && !rs_interrupted) {
		rs_interrupted = held;
		wake();
		unblock_all();
	}
	held = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
}
