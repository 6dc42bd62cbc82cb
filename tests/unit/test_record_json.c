// SPDX-License-Identifier: MIT
/*
 * The run record's JSON is the bytes json-c wrote before the record was
 * a tree of our own (value.c): every dry run of scenarios/ and of the
 * schema's valid corpus, written with --json, read back by json-c and
 * written again by it (NOSLASHESCAPE, PRETTY|SPACED: what the writer
 * was), must come out the same, byte for byte.  json-c keeps an object's
 * members in their order and a double's text as it was read, so the
 * round trip is exact exactly when our writer is json-c's.
 */
#include <getopt.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "check.h"
#include "cli.h"
#include "list.h"

/* `rdmascn run --dry-run --json @json @file`, as main() dispatches it:
 * stdout and stderr thrown away. */
static int dry_run(const char *file, const char *json)
{
	static const struct rs_cmd run = { "run", rs_cmd_run, "", "", "" };
	const char *words[] = { "run", "--dry-run", "--json", json, file };
	char *argv[6] = { NULL };
	FILE *out_was = stdout, *err_was = stderr, *null;
	int code;

	for (int i = 0; i < 5; i++) {
		argv[i] = strdup(words[i]);
		CHECK(argv[i]);
	}
	null = fopen("/dev/null", "w");
	CHECK(null);
	/* glibc's stdout and stderr are variables, there to be assigned. */
	stdout = null;
	stderr = null;
	optind = 0;
	code = run.run(&run, 5, argv);
	stdout = out_was;
	stderr = err_was;
	fclose(null);
	for (int i = 0; i < 5; i++)
		free(argv[i]);
	return code;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	if (getdelim(&s, &len, '\0', f) < 0) {
		free(s);
		s = NULL;
	}
	fclose(f);
	return s;
}

/* 1 when @file's record is json-c's bytes, 0 when it wrote none. */
static unsigned same_as_json_c(const char *file, const char *json)
{
	const int flags = JSON_C_TO_STRING_NOSLASHESCAPE |
			  JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED;
	struct json_object *j;
	char *ours, *theirs;

	unlink(json);
	dry_run(file, json);
	ours = slurp(json);
	if (!ours)
		return 0;
	j = json_object_from_file(json);
	CHECK(j);
	CHECK(asprintf(&theirs, "%s\n",
		       json_object_to_json_string_ext(j, flags)) > 0);
	if (strcmp(ours, theirs))
		fprintf(stderr, "%s: the record is not json-c's bytes\n",
			file);
	CHECK_STR(ours, theirs);
	json_object_put(j);
	free(ours);
	free(theirs);
	return 1;
}

TEST(record_json, dry_runs_as_json_c)
{
	static const char *const patterns[] = {
		RDMASCN_TEST_SOURCE_DIR "/scenarios/*.yaml",
		RDMASCN_TEST_SOURCE_DIR "/scenarios/*/*.yaml",
		RDMASCN_TEST_SOURCE_DIR "/tests/schema/valid/*.yaml",
	};
	char json[] = "/tmp/rdmascn-record-json-XXXXXX";
	unsigned files = 0, written = 0;
	int fd = mkstemp(json);

	CHECK(fd >= 0);
	close(fd);
	rs_cli_registry_init();
	for (size_t p = 0; p < sizeof(patterns) / sizeof(*patterns); p++) {
		glob_t g;

		if (glob(patterns[p], 0, NULL, &g))
			continue;
		for (size_t i = 0; i < g.gl_pathc; i++, files++)
			written += same_as_json_c(g.gl_pathv[i], json);
		globfree(&g);
	}
	unlink(json);
	printf("  %u files, %u records compared\n", files, written);
	/* Most write one (a file a plugin's device needs is refused). */
	CHECK(files > 40);
	CHECK(written > files / 2);
}
