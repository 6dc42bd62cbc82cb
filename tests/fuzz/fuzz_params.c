// SPDX-License-Identifier: MIT
/*
 * libFuzzer: the --set path.  The input is NAME=VALUE lines, each given
 * as `--set LINE`, then optionally a line "%%" and a scenario; without
 * one, the scenario below, which uses its params in every place a
 * ${...} may stand (numbers, lists, words, a count, a matrix).  Then
 * everything `rdmascn plan --set ... FILE` does.
 */
#include "fuzz_common.h"

#define MAX_SETS 32

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char small[] =
	"scenario: params\n"
	"params: {size: 4096, n: 2, depth: 16, type: rc, access: local_write,\n"
	"         iters: 3, port: 1, env: {default: 1, env: RDMASCN_FUZZ_P}}\n"
	"matrix: {size: [64, \"${size}\"]}\n"
	"contexts: [{id: ctx, device: any, port: \"${port}\"}]\n"
	"pds: [{id: pd, context: ctx}]\n"
	"cqs: [{id: cq, context: ctx, cqe: \"${depth * 2}\"}]\n"
	"mrs:\n"
	"  - {id: src, pd: pd, length: \"${size}\", access: [\"${access}\"],\n"
	"     fill: pattern}\n"
	"  - {id: dst, pd: pd, length: \"${size}\",\n"
	"     access: [local_write, remote_write]}\n"
	"qps:\n"
	"  - {id: q, count: \"${n}\", pd: pd, type: \"${type}\", send_cq: cq,\n"
	"     recv_cq: cq, cap: {max_send_wr: \"${depth}\"}}\n"
	"connections: [{id: c, a: \"q[0]\", b: \"q[1]\"}]\n"
	"steps:\n"
	"  - write: {qp: \"q[0]\", local: src, remote: dst,\n"
	"            length: \"${size}\", iterations: \"${iters}\"}\n"
	"  - verify: {mr: dst, equals: src}\n";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *argv[2 * MAX_SETS + 3];
	const char *scn = small;
	size_t scn_len = sizeof(small) - 1;
	char path[64], verb[] = "plan", set[] = "--set";
	int argc = 0, fd, r;
	char *line, *next;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	argv[argc++] = verb;
	for (line = text; line && argc < 2 * MAX_SETS + 1; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strcmp(line, "%%")) {
			scn = next ? next : "";
			scn_len = next ? size - (size_t)(next - text) : 0;
			break;
		}
		argv[argc++] = set;
		argv[argc++] = line;
	}
	fd = fuzz_file((const uint8_t *)scn, scn_len, path, sizeof(path));
	if (fd < 0) {
		free(text);
		return 0;
	}
	argv[argc++] = path;
	argv[argc] = NULL;
	r = fuzz_plan(argc, argv);
	close(fd);
	free(text);
	if (r != RS_EXIT_PASSED && r != RS_EXIT_INVALID && r != RS_EXIT_CANTRUN)
		abort();
	return 0;
}
