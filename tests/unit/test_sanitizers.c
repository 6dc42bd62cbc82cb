// SPDX-License-Identifier: MIT
/*
 * The sanitized tree (-DRDMASCN_SANITIZE=ON) as CMakeLists.txt sets it
 * up: UBSan's checks trap, with no runtime library, and ASan reports the
 * trap with the stack and each frame's FILE:LINE, and exits 1
 * (handle_sigill, cmake/asan_defaults.c).  Elsewhere it is skipped.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "list.h"

#if defined(__SANITIZE_ADDRESS__)
static int __attribute__((noinline)) add_one(int a)
{
	return a + 1;   /* INT_MAX + 1: undefined */
}
#endif

TEST(sanitizers, ub_reported)
{
#if !defined(__SANITIZE_ADDRESS__)
	SKIP("not the sanitized tree (-DRDMASCN_SANITIZE=ON)");
#else
	volatile int big = INT_MAX;
	char said[16384];
	FILE *err = tmpfile();
	int status;
	size_t n;
	pid_t pid;

	CHECK(err);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	CHECK(pid >= 0);
	if (!pid) {
		dup2(fileno(err), STDERR_FILENO);
		printf("%d\n", add_one(big));
		_exit(0);
	}
	CHECK_INT(waitpid(pid, &status, 0), pid);
	rewind(err);
	n = fread(said, 1, sizeof(said) - 1, err);
	said[n] = '\0';
	fclose(err);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 1)
		fprintf(stderr, "%s", said);
	CHECK(WIFEXITED(status));
	CHECK_INT(WEXITSTATUS(status), 1);
	CHECK(strstr(said, "AddressSanitizer: ILL"));
	CHECK(strstr(said, " in add_one "));
	CHECK(strstr(said, "test_sanitizers.c:21"));
#endif
}
