// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <inttypes.h>

#include "value.h"

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

static void indent(FILE *f, bool pretty, int depth)
{
	if (!pretty)
		return;
	fputc('\n', f);
	for (int i = 0; i < depth; i++)
		fputs("  ", f);
}

static void json_val(FILE *f, const struct rs_val *v, bool pretty, int depth)
{
	switch (v->type) {
	case RS_VAL_NULL: fputs("null", f); break;
	case RS_VAL_BOOL: fputs(v->b ? "true" : "false", f); break;
	case RS_VAL_INT: fprintf(f, "%" PRId64, v->i); break;
	case RS_VAL_UINT: fprintf(f, "%" PRIu64, v->u); break;
	case RS_VAL_DOUBLE:
		if (isfinite(v->d))
			fprintf(f, "%.17g", v->d);
		else
			fputs("null", f);
		break;
	case RS_VAL_STR: json_str(f, v->s); break;
	case RS_VAL_ARR:
	case RS_VAL_OBJ:
		fputc(v->type == RS_VAL_OBJ ? '{' : '[', f);
		for (size_t i = 0; i < v->n; i++) {
			if (i)
				fputc(',', f);
			indent(f, pretty, depth + 1);
			if (v->type == RS_VAL_OBJ) {
				json_str(f, v->items[i]->key);
				fputs(pretty ? ": " : ":", f);
			}
			json_val(f, v->items[i], pretty, depth + 1);
		}
		if (v->n)
			indent(f, pretty, depth);
		fputc(v->type == RS_VAL_OBJ ? '}' : ']', f);
		break;
	}
}

int rs_val_write_json(FILE *f, const struct rs_val *v, bool pretty)
{
	int r = rs_val_check(v);

	if (r < 0)
		return r;
	json_val(f, v, pretty, 0);
	fputc('\n', f);
	return fflush(f) == 0 && !ferror(f) ? 0 : -EIO;
}
