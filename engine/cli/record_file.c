// SPDX-License-Identifier: MIT
/* Run records read back (compare, report). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "record_file.h"

/* @path's bytes, NUL-terminated, in *ret_text and *ret_len: 0, or -1
 * with the reason said. */
static int slurp(const char *cmd, const char *path, char **ret_text,
		 size_t *ret_len)
{
	FILE *f = fopen(path, "r");
	struct stat st;
	char *text;

	if (!f) {
		fprintf(stderr, "rdmascn: %s: %s: %s\n", cmd, path,
			strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "rdmascn: %s: %s: not a regular file\n", cmd,
			path);
		fclose(f);
		return -1;
	}
	if ((unsigned long long)st.st_size > RS_RECORD_FILE_MAX) {
		fprintf(stderr, "rdmascn: %s: %s: %lld bytes, more than a run "
			"record may hold (%llu MiB)\n", cmd, path,
			(long long)st.st_size, RS_RECORD_FILE_MAX >> 20);
		fclose(f);
		return -1;
	}
	text = rs_calloc(1, st.st_size + 1);
	if (!text || fread(text, 1, st.st_size, f) != (size_t)st.st_size) {
		fprintf(stderr, "rdmascn: %s: %s: %s\n", cmd, path, text ?
			"cannot read it" : strerror(ENOMEM));
		rs_free(text);
		fclose(f);
		return -1;
	}
	fclose(f);
	*ret_text = text;
	*ret_len = st.st_size;
	return 0;
}

struct json_object *rs_cli_read_json(const char *cmd, const char *path)
{
	struct json_tokener *tok;
	struct json_object *v;
	enum json_tokener_error err;
	char *text;
	size_t len, end;

	if (slurp(cmd, path, &text, &len))
		return NULL;
	tok = json_tokener_new();
	if (!tok) {
		fprintf(stderr, "rdmascn: %s: %s\n", cmd, strerror(ENOMEM));
		rs_free(text);
		return NULL;
	}
	v = json_tokener_parse_ex(tok, text, len);
	err = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (v && err == json_tokener_success) {
		end += strspn(text + end, " \t\r\n");
		if (end != len) {
			fprintf(stderr, "rdmascn: %s: %s: not a run record: "
				"more after the JSON, at byte %zu\n", cmd,
				path, end);
			json_object_put(v);
			v = NULL;
		}
	} else {
		json_object_put(v);
		v = NULL;
		if (err == json_tokener_continue ||
		    err == json_tokener_success)
			fprintf(stderr, "rdmascn: %s: %s: not a run record: "
				"the JSON ends early\n", cmd, path);
		else
			fprintf(stderr, "rdmascn: %s: %s: not a run record: "
				"invalid JSON at byte %zu: %s\n", cmd, path,
				end, json_tokener_error_desc(err));
	}
	json_tokener_free(tok);
	rs_free(text);
	return v;
}
