// SPDX-License-Identifier: MIT
/*
 * libFuzzer: the text of a scenario in, everything `rdmascn plan FILE`
 * does (located DOM, params, libcyaml, checks, graph, order, the plan's
 * lines) and no device.  A crash, a leak, a timeout or an exit code other
 * than 0, 2 or 3 is a finding.
 */
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], verb[] = "plan";
	char *argv[] = { verb, path, NULL };
	int fd = fuzz_file(data, size, path, sizeof(path));
	int r;

	if (fd < 0)
		return 0;
	r = fuzz_plan(2, argv);
	close(fd);
	if (r != RS_EXIT_PASSED && r != RS_EXIT_INVALID && r != RS_EXIT_CANTRUN)
		abort();
	return 0;
}
