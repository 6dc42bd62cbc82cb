// SPDX-License-Identifier: MIT
/*
 * A graph into a file as DOT, or as SVG or PNG through Graphviz's `dot`:
 * a child process (posix_spawnp, no shell) that reads the DOT text on
 * its stdin and writes the file itself (-o), or our stdout.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "graph_file.h"
#include "outfile.h"
#include "macros.h"

extern char **environ;

static const char *const format_names[] = {
	[RS_GRAPH_DOT] = "dot",
	[RS_GRAPH_SVG] = "svg",
	[RS_GRAPH_PNG] = "png",
};

int rs_graph_format_by_name(const char *name)
{
	for (size_t i = 0; i < RS_N(format_names); i++)
		if (!strcmp(name, format_names[i]))
			return (int)i;
	return -1;
}

int rs_graph_format_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *dot = strrchr(slash ? slash : path, '.');

	if (!dot || dot == path || dot[-1] == '/')
		return -1;
	if (!strcmp(dot, ".gv"))
		return RS_GRAPH_DOT;
	return rs_graph_format_by_name(dot + 1);
}

static int write_dot(struct rs_out *o, const char *what,
		     const struct rs_scenario *s, const struct rs_dot_run *run)
{
	/* A failed write is the stream's: the commit says it. */
	if (rs_dot_write_run(o->f, s, run) == -ENOMEM) {
		fprintf(stderr, "rdmascn: %s: out of memory\n", what);
		rs_out_abort(o);
		return -ENOMEM;
	}
	return rs_out_commit(o);
}

/* The DOT text into @fd, which is closed; SIGPIPE ignored meanwhile, so
 * a `dot` that dies early is an error here, not our end. */
static int feed(int fd, const struct rs_scenario *s,
		const struct rs_dot_run *run)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	FILE *f;
	int ret;

	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old);
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
	} else {
		ret = rs_dot_write_run(f, s, run);
		if (fclose(f) && !ret)
			ret = -EIO;
	}
	sigaction(SIGPIPE, &old, NULL);
	return ret;
}

static int render(const char *path, enum rs_graph_format fmt,
		  const char *what, const struct rs_scenario *s,
		  const struct rs_dot_run *run)
{
	char type[8], out[PATH_MAX + 3];
	/* -oFILE, one word: a name that starts with '-' (-V.svg) is still
	 * the file, never an option.  Graphviz takes no "--". */
	char *argv[] = { "dot", type, NULL, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t deflt;
	int fds[2], status, ret, fed;
	pid_t pid;

	snprintf(type, sizeof(type), "-T%s", format_names[fmt]);
	/* Without a path, to our stdout. */
	if (path && snprintf(out, sizeof(out), "-o%s", path) >=
		    (int)sizeof(out)) {
		fprintf(stderr, "rdmascn: %s: %s\n", what,
			strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	argv[2] = path ? out : NULL;
	if (pipe2(fds, O_CLOEXEC)) {
		ret = -errno;
		fprintf(stderr, "rdmascn: %s: %s\n", what, strerror(-ret));
		return ret;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[0], STDIN_FILENO);
	posix_spawnattr_init(&attr);
	sigemptyset(&deflt);
	sigaddset(&deflt, SIGPIPE);
	posix_spawnattr_setsigdefault(&attr, &deflt);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
	ret = posix_spawnp(&pid, "dot", &fa, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[0]);
	if (ret) {
		close(fds[1]);
		if (ret == ENOENT)
			fprintf(stderr, "rdmascn: %s: Graphviz's dot is not "
				"in PATH (install graphviz, or write .dot)\n",
				what);
		else
			fprintf(stderr, "rdmascn: %s: cannot run Graphviz's "
				"dot: %s\n", what, strerror(ret));
		return -ret;
	}
	fed = feed(fds[1], s, run);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		if (status != -1 && WIFSIGNALED(status))
			fprintf(stderr, "rdmascn: %s: dot was killed by "
				"signal %d\n", what, WTERMSIG(status));
		else
			fprintf(stderr, "rdmascn: %s: dot failed (exit %d)\n",
				what, status == -1 ? -1 : WEXITSTATUS(status));
		return -EIO;
	}
	if (fed)
		fprintf(stderr, "rdmascn: %s: %s\n", what, fed == -ENOMEM ?
			"out of memory" : "write error");
	return fed;
}

int rs_graph_write(const char *path, enum rs_graph_format fmt,
		   const char *what, const struct rs_scenario *s,
		   const struct rs_dot_run *run)
{
	struct rs_out o;
	char opt[64];
	int ret;

	/* @what is "--graph-out FILE" or "graph -o FILE": the option. */
	if (path && strlen(what) > strlen(path))
		snprintf(opt, sizeof(opt), "%.*s",
			 (int)(strlen(what) - strlen(path) - 1), what);
	else
		opt[0] = '\0';  /* standard output, as every verb's */
	ret = rs_out_open(&o, opt, path ? path : "-");
	if (ret)
		return ret;
	if (fmt == RS_GRAPH_DOT)
		return write_dot(&o, what, s, run);
	/* dot writes the file by name: our temporary one, renamed after;
	 * standard output it shares. */
	fflush(o.f);
	ret = render(path ? rs_out_name(&o) : NULL, fmt, what, s, run);
	if (ret) {
		rs_out_abort(&o);
		return ret;
	}
	return rs_out_commit(&o);
}
