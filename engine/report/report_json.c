// SPDX-License-Identifier: MIT
/* The JSON reporter: the whole run record, one document, at the end. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "report.h"

struct json_rep {
	struct rs_reporter r;
	char *path;
};

static int json_end(struct rs_reporter *r, const struct rs_val *rec)
{
	struct json_rep *j = (struct json_rep *)r;
	bool out = !strcmp(j->path, "-");
	FILE *f = out ? stdout : fopen(j->path, "w");
	int ret;

	if (!f) {
		ret = -errno;
		fprintf(stderr, "rdmascn: --json %s: %s\n", j->path,
			strerror(-ret));
		return ret;
	}
	ret = rs_val_write_json(f, rec, true);
	if (!out && fclose(f) && !ret)
		ret = -errno;
	if (ret)
		fprintf(stderr, "rdmascn: --json %s: %s\n", j->path,
			strerror(-ret));
	return ret;
}

static void json_free(struct rs_reporter *r)
{
	struct json_rep *j = (struct json_rep *)r;

	rs_free(j->path);
	rs_free(j);
}

static const struct rs_reporter_ops json_ops = {
	.end = json_end,
	.free = json_free,
};

struct rs_reporter *rs_report_json(const char *path)
{
	struct json_rep *j = rs_calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->r.ops = &json_ops;
	j->path = rs_strdup(path);
	if (!j->path) {
		rs_free(j);
		return NULL;
	}
	return &j->r;
}
