// SPDX-License-Identifier: MIT
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "cli.h"
#include "paths.h"

#define HELPER "rdmascn-softroce"

static int exec_helper(char **args)
{
	char helper[PATH_MAX];
	int r = rs_path_helper(HELPER, helper, sizeof(helper));

	if (r < 0) {
		fprintf(stderr, "rdmascn: cannot find %s (%s); set "
			"RDMASCN_HELPER_DIR or reinstall.\n", HELPER,
			strerror(-r));
		return RS_EXIT_CANTRUN;
	}
	args[0] = helper;
	fflush(NULL);
	execv(helper, args);
	fprintf(stderr, "rdmascn: exec %s: %s\n", helper, strerror(errno));
	return RS_EXIT_CANTRUN;
}

/* `rdmascn softroce ARGS` is the helper with the same ARGS. */
int rs_cmd_softroce(const struct rs_cmd *cmd, int argc, char **argv)
{
	char **args = rs_calloc(argc + 1, sizeof(*args));
	int r;

	if (!args)
		return RS_EXIT_CANTRUN;
	memcpy(args + 1, argv + 1, (argc - 1) * sizeof(*args));
	r = exec_helper(args);
	rs_free(args);
	return r;
}

int rs_softroce_maybe_reexec(int argc, char **argv)
{
	char self[PATH_MAX];
	char **args;
	int i, n = 0, r;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--softroce"))
			break;
	if (i == argc || strcmp(argv[i], "--softroce"))
		return 0;
	if (getenv("RDMASCN_SOFTROCE")) {
		fprintf(stderr, "rdmascn: --softroce given inside the "
			"Soft-RoCE VM already\n");
		return RS_EXIT_INVALID;
	}
	r = rs_path_self(self, sizeof(self));
	if (r < 0) {
		fprintf(stderr, "rdmascn: /proc/self/exe: %s\n", strerror(-r));
		return RS_EXIT_CANTRUN;
	}
	/* HELPER -- SELF [-v] COMMAND ARGS-without---softroce NULL */
	args = rs_calloc(argc + 5, sizeof(*args));
	if (!args)
		return RS_EXIT_CANTRUN;
	args[n++] = NULL; /* the helper's path, filled in by exec_helper */
	args[n++] = "--";
	args[n++] = self;
	if (rs_verbose)
		args[n++] = "-v";
	for (int j = 0; j < argc; j++)
		if (j != i)
			args[n++] = argv[j];
	r = exec_helper(args);
	rs_free(args);
	return r;
}
