// SPDX-License-Identifier: MIT
/*
 * rdmascn devices as text, from data alone: a `devices -j` as an rxe
 * host would print it (tests/unit/devices/rxe0.json, written from the
 * shape rs_devices_describe() gives, with a device that could not be
 * opened and one with no caps beside it) through the report layer's
 * renderer, compared byte for byte with the text it is to print.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "list.h"
#include "report.h"
#include "value.h"

#define DIR RDMASCN_TEST_SOURCE_DIR "/tests/unit/devices/"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;
	FILE *m;
	int c;

	if (!f)
		return NULL;
	m = open_memstream(&text, &len);
	while (m && (c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(f);
	if (m)
		fclose(m);
	return text;
}

/* The renderer's text of DIR/rxe0.json against DIR/@golden. */
static void renders_as(const char *golden, bool all)
{
	struct json_object *j = json_object_from_file(DIR "rxe0.json");
	char *text = NULL, *want = slurp(golden);
	struct rs_val *v;
	size_t len = 0;
	FILE *f;

	CHECK(j != NULL);
	CHECK(want != NULL);
	f = open_memstream(&text, &len);
	CHECK(f != NULL);
	v = rs_val_from_json(j);
	rs_devices_text(f, v, all);
	rs_val_free(v);
	fclose(f);
	if (strcmp(text, want))
		fprintf(stderr, "--- want %s\n%s--- got\n%s", golden, want,
			text);
	CHECK_STR(text, want);
	free(text);
	free(want);
	json_object_put(j);
}

/* The summary: the caps line wrapped at 78 columns, a row per GID,
 * "-" for a port without one and for a missing netdev, the error of a
 * device that could not be opened. */
TEST(devices, text_summary)
{
	renders_as(DIR "rxe0.txt", false);
}

/* -v: every attribute below the summary, sizes and masks in hex, the
 * port codes named, flag lists with their raw word and wrapped under
 * the value column, nested groups, and a plugin's object. */
TEST(devices, text_all)
{
	renders_as(DIR "rxe0-v.txt", true);
}
