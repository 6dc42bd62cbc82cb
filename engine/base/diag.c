// SPDX-License-Identifier: MIT
#include <limits.h>
#include <stdarg.h>
#include <string.h>

#include "diag.h"

void rs_diag_init(struct rs_diag *d, FILE *f)
{
	memset(d, 0, sizeof(*d));
	d->f = f;
}

void rs_diag_error(struct rs_diag *d, const struct rs_loc *loc,
		   const char *fmt, ...)
{
	char msg[1024];
	char line[sizeof(msg) + PATH_MAX + 32];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (loc && loc->file)
		snprintf(line, sizeof(line), "%s:%u:%u: %s", loc->file,
			 loc->line, loc->col, msg);
	else
		snprintf(line, sizeof(line), "%s", msg);
	if (!d->errors++) {
		size_t len = strnlen(line, sizeof(d->first) - 1);

		memcpy(d->first, line, len);
		d->first[len] = '\0';
	}
	if (d->f)
		fprintf(d->f, "%s\n", line);
	if (d->sink)
		d->sink(d->sink_ctx, loc && loc->file ? loc : NULL, msg);
}
