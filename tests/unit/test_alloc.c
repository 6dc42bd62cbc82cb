// SPDX-License-Identifier: MIT
/*
 * The allocator's promise (alloc.h): allocation N can be failed.  For
 * every scenario in scenarios/, `validate`, `plan` and `run --dry-run`
 * are run with allocation 1 failed, then 2, and so on until one run
 * makes fewer allocations than N: each must end with the "could not
 * run" exit code (3) and a message, not a crash and not another code,
 * and, in the ASan build, leave nothing leaked.  So must `validate` on
 * each file of the bad-input corpus, which may also report its error.
 * The commands run in a child per file, called as main() would call
 * them: a fork and exec for each N would take minutes under ASan.
 */
#include <errno.h>
#include <limits.h>
#include <glob.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc.h"
#include "check.h"
#include "cli.h"
#include "list.h"
#include "model.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/lsan_interface.h>
#define HAVE_LSAN 1
#else
#define HAVE_LSAN 0
#endif

/* Does LeakSanitizer find memory nothing points to?  (It prints what.) */
static bool leaks_now(void)
{
#if HAVE_LSAN
	return __lsan_do_recoverable_leak_check();
#else
	return false;
#endif
}

/* RDMASCN_FAIL_ALLOC=N counts from the start of the process: the runner
 * made none before the test, so these are the first. */
TEST(alloc, env)
{
	void *a, *b, *c;

	setenv("RDMASCN_FAIL_ALLOC", "2", 1);
	a = rs_malloc(1);
	errno = 0;
	b = rs_calloc(1, 1);
	CHECK_INT(errno, ENOMEM);
	c = rs_strdup("x");
	CHECK(a);
	CHECK_PTR(b, NULL);
	CHECK(c);
	CHECK_INT(rs_alloc_count(), 3);
	rs_free(a);
	rs_free(c);
}

TEST(alloc, fail_at)
{
	void *p[4];

	rs_alloc_fail_at(3);
	p[0] = rs_malloc(8);
	p[1] = rs_reallocarray(NULL, 2, 8);
	p[2] = rs_calloc_aligned(64, 8);
	p[3] = rs_strndup("abc", 2);
	CHECK_INT(rs_alloc_count(), 4);
	CHECK(p[0]);
	CHECK(p[1]);
	CHECK(p[3]);
	CHECK_PTR(p[2], NULL);
	CHECK_STR(p[3], "ab");
	/* A new N restarts the count; 0 fails nothing. */
	rs_alloc_fail_at(1);
	CHECK_PTR(rs_strdup("x"), NULL);
	rs_alloc_fail_at(0);
	p[2] = rs_calloc(1, 1);
	CHECK(p[2]);
	CHECK_INT(rs_alloc_count(), 1);
	for (unsigned i = 0; i < 4; i++)
		rs_free(p[i]);
}

/* A huge block freed is kept for the next: the same block, what was
 * written in it cleared, poisoned while kept (ASan), and asking for it
 * still counts as an allocation that can fail. */
TEST(alloc, huge_kept)
{
	char *a, *b, *c;

	rs_alloc_fail_at(0);
	a = rs_malloc_huge(RS_HUGE_PAGE);
	CHECK(a);
	CHECK_UINT((uintptr_t)a % RS_HUGE_PAGE, 0);
	memset(a, 0x5a, 4096);
	rs_free_huge(a, 4096);
#if HAVE_LSAN
	CHECK(__asan_address_is_poisoned(a));
	CHECK(__asan_address_is_poisoned(a + RS_HUGE_PAGE - 1));
#endif
	rs_alloc_fail_at(1);
	CHECK_PTR(rs_malloc_huge(RS_HUGE_PAGE), NULL);
	rs_alloc_fail_at(0);
	b = rs_malloc_huge(RS_HUGE_PAGE);
	CHECK_PTR(b, a);
	CHECK_INT(b[0], 0);
	CHECK_INT(b[4095], 0);
	b[RS_HUGE_PAGE - 1] = 1;
	/* Kept one only: a second goes back to the C library. */
	c = rs_malloc_huge(RS_HUGE_PAGE);
	CHECK(c && c != b);
	rs_free_huge(b, RS_HUGE_PAGE);
	rs_free_huge(c, 0);
	CHECK_PTR(rs_malloc_huge(RS_HUGE_PAGE), b);
	CHECK_INT(b[RS_HUGE_PAGE - 1], 0);
	rs_free_huge(b, RS_HUGE_PAGE);
	rs_free_huge(NULL, 0);
}

/* One command, as main() dispatches it: stdout thrown away, stderr
 * kept in *@ret_err (a malloc'ed string). */
static int cli(const char *const *words, char **ret_err)
{
	static const struct rs_cmd cmds[] = {
		{ "validate", rs_cmd_validate, "", "", "" },
		{ "plan", rs_cmd_plan, "", "", "" },
		{ "run", rs_cmd_run, "", "", "" },
	};
	const struct rs_cmd *cmd = NULL;
	char *argv[8] = { NULL }, *copies[8], *err = NULL;
	FILE *out_was = stdout, *err_was = stderr, *out, *errs;
	size_t len = 0;
	int argc = 0, code;

	for (size_t i = 0; i < sizeof(cmds) / sizeof(*cmds); i++)
		if (!strcmp(cmds[i].name, words[0]))
			cmd = &cmds[i];
	CHECK(cmd);
	/* getopt permutes argv and --set cuts its word at the '=', as in
	 * a real argv: a fresh, writable copy each time. */
	for (; words[argc] && argc < 7; argc++) {
		argv[argc] = copies[argc] = strdup(words[argc]);
		CHECK(argv[argc]);
	}
	out = fopen("/dev/null", "w");
	errs = open_memstream(&err, &len);
	CHECK(out);
	CHECK(errs);
	/* glibc's stdout and stderr are variables, there to be assigned. */
	stdout = out;
	stderr = errs;
	optind = 0;
	code = cmd->run(cmd, argc, argv);
	stdout = out_was;
	stderr = err_was;
	fclose(out);
	fclose(errs);
	for (int i = 0; i < argc; i++)
		free(copies[i]);
	*ret_err = err;
	return code;
}

/*
 * Did the command cope with an allocation failed?  It says it ran out of
 * memory and exits 3, or, on an invalid file (@base_code 2), it may have
 * found the error first: then it says the same (@base_err), or says
 * where the error is (FILE:LINE:COL) and that it ran out of memory
 * while reporting it.
 */
static bool coped(const char *file, int code, const char *err,
		  int base_code, const char *base_err)
{
	/* "out of memory", or strerror(ENOMEM) */
	bool oom = strstr(err, "memory");

	if (code == RS_EXIT_CANTRUN)
		return oom;
	return code == RS_EXIT_INVALID && base_code == RS_EXIT_INVALID &&
	       (!strcmp(err, base_err) ||
		(oom && !strncmp(err, file, strlen(file))));
}

/*
 * Each allocation failed in turn reruns the whole command: n runs of n
 * allocations.  Past EACH_BUDGET allocations in all (a file that counts
 * 100000 QPs makes 10^5 per run: hours), the first @first fail one by
 * one and the rest at @first even points after them.
 */
#define EACH_BUDGET 20000000L

static long each_stride(long total, long *first)
{
	if (total <= 0 || total <= EACH_BUDGET / total) {
		*first = total;
		return 1;
	}
	*first = EACH_BUDGET / total / 2;
	return (total - *first) / *first + 1;
}

/* Fail allocation 1, 2, ... up to @limit of the command, until it makes
 * fewer; how many it makes when none fails. */
static long fail_each(const char *const *words, const char *file,
		      long limit, long *stride, long *first)
{
	char *base_err;
	int base_code;
	long n, total;

	/* What it says when nothing fails. */
	rs_alloc_fail_at(0);
	base_code = cli(words, &base_err);
	total = rs_alloc_count();
	*stride = each_stride(total, first);
	for (n = 1; n <= limit; n += n < *first ? 1 : *stride) {
		char *err;
		bool hit;
		int code;

		rs_alloc_fail_at(n);
		code = cli(words, &err);
		hit = rs_alloc_count() >= n;
		rs_alloc_fail_at(0);
		if (!hit) {
			/* The same as the first time. */
			CHECK_INT(code, base_code);
			CHECK_STR(err, base_err);
			free(err);
			n = total + 1;
			break;
		}
		if (!coped(file, code, err, base_code, base_err)) {
			fprintf(stderr, "rdmascn %s %s, allocation %ld failed: "
				"exit %d, stderr:\n%s", words[0], file, n,
				code, err);
			CHECK(!"a clean error");
		}
		free(err);
	}
	free(base_err);
	return n - 1;
}

/* A child's exit status when LeakSanitizer found something. */
#define LEAKED 42

/* What fail_each() did with one file, said on stdout. */
static void say_each(const char *cmd, const char *opt, const char *file,
		     long n, long stride, long first)
{
	const char *name = strrchr(file, '/') + 1, *sp = opt ? " " : "";

	if (!opt)
		opt = "";
	if (stride == 1)
		printf("  %s %s%s%s: %ld allocations, each failed in turn\n",
		       cmd, opt, sp, name, n);
	else
		printf("  %s %s%s%s: %ld allocations, the first %ld failed in "
		       "turn, then every %ldth\n", cmd, opt, sp, name, n,
		       first, stride);
}

/*
 * fail_each() on @n files in a child of their own, then LeakSanitizer
 * asked once: asked after every N, it takes minutes; once a file in a
 * child, a file of the bad-input corpus took 5 ms in the asking under
 * ASan.  One file a child tells whose leak it is (one_scenario()).
 * @limit: allocations 1..@limit only (LONG_MAX: all); @quiet: the
 * sanitizers' reports to /dev/null.  The child's wait status.
 */
static int child(const char *cmd, const char *opt, char *const *files,
		 size_t n, long limit, bool quiet)
{
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	CHECK(pid >= 0);
	if (!pid) {
		if (quiet)
			CHECK(freopen("/dev/null", "w", stderr));
		for (size_t i = 0; i < n; i++) {
			const char *words[] = { cmd, opt ? opt : files[i],
						opt ? files[i] : NULL, NULL };
			long made, stride, first;

			made = fail_each(words, files[i], limit, &stride,
					 &first);
			if (limit == LONG_MAX)
				say_each(cmd, opt, files[i], made, stride,
					 first);
		}
		if (leaks_now())
			_exit(LEAKED);
		exit(0);
	}
	CHECK_INT(waitpid(pid, &status, 0), pid);
	return status;
}

static bool leaked(int status)
{
	return WIFEXITED(status) && WEXITSTATUS(status) == LEAKED;
}

/* Fail each allocation of one command on @file; false if anything went
 * wrong (said on stderr).  On a leak, the first N that leaks is found
 * by bisection, each try a child failing 1..N: for the first scenario
 * that leaks only, to bound the time a leak takes to report. */
static bool one_scenario(const char *cmd, const char *opt, char *file)
{
	/* Once: the next scenario's leak is most likely the same. */
	static bool bisected;
	const char *name = strrchr(file, '/') + 1;
	int status = child(cmd, opt, &file, 1, LONG_MAX, false);
	long lo = 0, hi = 1;

	if (WIFSIGNALED(status)) {
		fprintf(stderr, "rdmascn %s %s: killed by SIG%s\n", cmd,
			name, sigabbrev_np(WTERMSIG(status)));
		return false;
	}
	if (!leaked(status)) {
		if (WEXITSTATUS(status))
			fprintf(stderr, "rdmascn %s %s: exit status %d\n",
				cmd, name, WEXITSTATUS(status));
		return !WEXITSTATUS(status);
	}
	if (bisected) {
		fprintf(stderr, "rdmascn %s %s leaks too\n", cmd, name);
		return false;
	}
	bisected = true;
	/* Failing 1..lo leaks nothing, failing 1..hi does. */
	while (!leaked(child(cmd, opt, &file, 1, hi, true))) {
		lo = hi;
		hi *= 2;
		CHECK(hi < LONG_MAX / 2); /* it leaked only now and then */
	}
	while (hi - lo > 1) {
		long mid = lo + (hi - lo) / 2;

		if (leaked(child(cmd, opt, &file, 1, mid, true)))
			hi = mid;
		else
			lo = mid;
	}
	fprintf(stderr, "rdmascn %s %s leaks when allocation %ld fails "
		"(LeakSanitizer's report above)\n", cmd, name, hi);
	return false;
}

static bool lsan_off(void)
{
	const char *o = getenv("ASAN_OPTIONS");

	return o && strstr(o, "detect_leaks=0");
}

/* Files a child: the corpus's 362 in 23 children, not 362. */
#define GROUP 16

/* Every file @pattern matches, under @cmd with @opt (or none). */
static void each_file(const char *pattern, const char *cmd, const char *opt)
{
	unsigned failed = 0;
	glob_t g;

	CHECK_INT(glob(pattern, 0, NULL, &g), 0);
	CHECK(g.gl_pathc > 0);
	/* Core kinds and plugins, once, as the first command would. */
	rs_cli_registry_init();
	for (size_t i = 0; i < g.gl_pathc; i += GROUP) {
		size_t n = g.gl_pathc - i < GROUP ? g.gl_pathc - i : GROUP;
		int status = child(cmd, opt, g.gl_pathv + i, n, LONG_MAX,
				   true);

		if (WIFEXITED(status) && !WEXITSTATUS(status))
			continue;
		/* Which of them, and what it says. */
		printf("  (a failure in files %zu to %zu: each again, "
		       "alone)\n", i + 1, i + n);
		for (size_t k = i; k < i + n; k++)
			failed += !one_scenario(cmd, opt, g.gl_pathv[k]);
	}
	printf("  %s%s%s: %zu files%s\n", cmd, opt ? " " : "",
	       opt ? opt : "", g.gl_pathc, !HAVE_LSAN ? "" :
	       lsan_off() ? ", LeakSanitizer turned off by ASAN_OPTIONS" :
	       ", each checked by LeakSanitizer");
	globfree(&g);
	CHECK_UINT(failed, 0);
}

#define SCENARIOS RDMASCN_TEST_SOURCE_DIR "/scenarios/*.yaml"

TEST(alloc, validate_each)
{
	each_file(SCENARIOS, "validate", NULL);
}

TEST(alloc, plan_each)
{
	each_file(SCENARIOS, "plan", NULL);
}

TEST(alloc, dry_run_each)
{
	/* Parsed (and allocated) by run, though a dry run fires none. */
	setenv("RDMASCN_FAULT", "3:ENOMEM,ibv_destroy_qp:EBUSY", 1);
	each_file(SCENARIOS, "run", "--dry-run");
}

/* The bad-input corpus: the error paths' allocations (without the
 * corpus's --set lines: some files are valid then, others say another
 * error; either way the same each time). */
TEST(alloc, bad_each)
{
	each_file(RDMASCN_TEST_SOURCE_DIR "/tests/bad/*.yaml", "validate",
		  NULL);
}
