// SPDX-License-Identifier: MIT
/*
 * SIGINT and SIGTERM end a run in order: the first one is remembered and
 * made readable on a pipe (uv_poll and poll() watch it), whatever is
 * being built stops at the next object or wait, and teardown runs to the
 * end.  Signals during teardown are noted and do not abort it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "signals.h"

volatile sig_atomic_t rs_interrupted;
static volatile sig_atomic_t in_teardown;
static int pipe_fds[2] = { -1, -1 };

static void on_signal(int sig)
{
	static const char msg[] =
		"rdmascn: tearing down; this signal does not stop that\n";
	int saved = errno;

	if (in_teardown) {
		if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
			(void)0;
	} else if (!rs_interrupted) {
		rs_interrupted = sig;
		if (pipe_fds[1] >= 0 && write(pipe_fds[1], "", 1) < 0)
			(void)0;
	}
	errno = saved;
}

int rs_signal_fd(void)
{
	return pipe_fds[0];
}

void rs_signals_install(void)
{
	struct sigaction sa;

	if (pipe_fds[0] < 0 && pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) < 0)
		pipe_fds[0] = pipe_fds[1] = -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void rs_signals_teardown(void)
{
	in_teardown = 1;
}
