// SPDX-License-Identifier: MIT
/*
 * The unit tests' one runner.  It knows every test from list.h and runs
 * each in a child process of its own: a crash or an abort fails that test
 * alone, named with its signal, and the next starts from a clean process
 * (the registry, the allocator's count, plugins: all process-wide).
 *
 *	unit_runner                 every test
 *	unit_runner GROUP[.NAME]... those (CTest runs one each)
 *	unit_runner --list          the names
 *	unit_runner --self-test     the runner's own promises
 *
 * The output is TAP.  The exit status is 0 when all passed or skipped,
 * 77 when all that ran were skipped, 1 otherwise.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "list.h"

struct unit_test {
	const char *name;
	void (*fn)(void);
};

static const struct unit_test tests[] = {
#define X(group, name) { #group "." #name, test_##group##_##name },
	RS_UNIT_TESTS(X)
#undef X
};

#define N_TESTS (sizeof(tests) / sizeof(*tests))

/* A test still running after this long is killed (SIGALRM) and fails. */
#define TIMEOUT_S 300

enum outcome { PASSED, SKIPPED, FAILED };

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static enum outcome judge(int status, char *why, size_t len)
{
	if (WIFEXITED(status)) {
		int code = WEXITSTATUS(status);

		if (code == 0)
			return PASSED;
		if (code == 77)
			return SKIPPED;
		/* 1: a check failed, or ASan found an error or a leak
		 * (its report is above). */
		snprintf(why, len, "exit status %d", code);
		return FAILED;
	}
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		const char *abbrev = sigabbrev_np(sig);

		snprintf(why, len, "killed by SIG%s (%s)%s",
			 abbrev ? abbrev : "?", strsignal(sig),
			 sig == SIGALRM ? ": timed out" : "");
		return FAILED;
	}
	snprintf(why, len, "wait status 0x%x", (unsigned)status);
	return FAILED;
}

static enum outcome run_one(const struct unit_test *t, unsigned no,
			    char *why, size_t why_len)
{
	enum outcome o;
	double t0 = now_s();
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		printf("not ok %u %s: fork: %s\n", no, t->name,
		       strerror(errno));
		return FAILED;
	}
	if (!pid) {
		alarm(TIMEOUT_S);
		t->fn();
		/* exit(), not _exit(): LeakSanitizer looks at exit. */
		exit(0);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			printf("not ok %u %s: waitpid: %s\n", no, t->name,
			       strerror(errno));
			return FAILED;
		}
	}
	o = judge(status, why, why_len);
	if (o == PASSED)
		printf("ok %u %s (%.2f s)\n", no, t->name, now_s() - t0);
	else if (o == SKIPPED)
		printf("ok %u %s # SKIP\n", no, t->name);
	else
		printf("not ok %u %s: %s\n", no, t->name, why);
	fflush(stdout);
	return o;
}

/* "load" selects the group, "load.errors" the one test. */
static bool selected(const char *name, int argc, char **argv)
{
	if (argc < 2)
		return true;
	for (int i = 1; i < argc; i++) {
		size_t n = strlen(argv[i]);

		if (!strcmp(name, argv[i]) ||
		    (!strncmp(name, argv[i], n) && name[n] == '.'))
			return true;
	}
	return false;
}

/* --- the runner's own tests ---------------------------------------------- */

static void self_pass(void)
{
}

static void self_check(void)
{
	CHECK_INT(1 + 1, 3);
}

static void self_abort(void)
{
	abort();
}

static void self_segv(void)
{
	raise(SIGSEGV);
}

static void self_skip(void)
{
	SKIP("on purpose");
}

/* Tests that must end as said, one after the other: a crash, an abort
 * or a failed check fails its test alone and is named. */
static int self_test(void)
{
	static const struct {
		struct unit_test t;
		enum outcome want;
		const char *why;
	} cases[] = {
		{ { "self.check", self_check }, FAILED, "exit status 1" },
		{ { "self.abort", self_abort }, FAILED,
		  "killed by SIGABRT (Aborted)" },
#if defined(__SANITIZE_ADDRESS__)
		/* ASan reports it and exits. */
		{ { "self.segv", self_segv }, FAILED, "exit status 1" },
#else
		{ { "self.segv", self_segv }, FAILED,
		  "killed by SIGSEGV (Segmentation fault)" },
#endif
		{ { "self.skip", self_skip }, SKIPPED, "" },
		{ { "self.pass", self_pass }, PASSED, "" },
	};
	unsigned bad = 0;

	puts("# the runner's own tests: three must fail, one skip");
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char why[160] = "";
		enum outcome o = run_one(&cases[i].t, i + 1, why, sizeof(why));

		if (o == cases[i].want && !strcmp(why, cases[i].why))
			continue;
		printf("# %s: ended as '%s', not as '%s'\n", cases[i].t.name,
		       why, cases[i].why);
		bad++;
	}
	printf("# runner: %s\n", bad ? "FAILED" : "as promised");
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned run = 0, failed = 0, skipped = 0;
	char why[160];

	if (argc == 2 && !strcmp(argv[1], "--self-test"))
		return self_test();
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < N_TESTS; i++)
			puts(tests[i].name);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		bool known = false;

		for (size_t j = 0; j < N_TESTS && !known; j++)
			known = selected(tests[j].name, 2,
					 (char *[]){ NULL, argv[i] });
		if (!known) {
			fprintf(stderr, "Unknown test '%s'.\n", argv[i]);
			return 2;
		}
	}
	for (size_t i = 0; i < N_TESTS; i++) {
		if (!selected(tests[i].name, argc, argv))
			continue;
		switch (run_one(&tests[i], ++run, why, sizeof(why))) {
		case PASSED:
			break;
		case SKIPPED:
			skipped++;
			break;
		case FAILED:
			failed++;
			break;
		}
	}
	printf("1..%u\n", run);
	if (failed)
		printf("# %u of %u failed\n", failed, run);
	return failed ? 1 : skipped == run ? 77 : 0;
}
