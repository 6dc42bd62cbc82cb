// SPDX-License-Identifier: MIT
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <sys/resource.h>

#include "diag.h"
#include "escape.h"

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
	/* Escaped for the terminal; the sink (the run record) gets the
	 * text as it is, and its reporters escape what they print. */
	if (loc && loc->file)
		snprintf(line, sizeof(line), "%s:%u:%u: %s", rs_esc(loc->file),
			 loc->line, loc->col, rs_esc(msg));
	else
		snprintf(line, sizeof(line), "%s", rs_esc(msg));
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

void rs_diag_warning(struct rs_diag *d, const struct rs_loc *loc,
		     const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	d->warnings++;
	if (d->f && loc && loc->file)
		fprintf(d->f, "%s:%u:%u: warning: %s\n", rs_esc(loc->file),
			loc->line, loc->col, rs_esc(msg));
	else if (d->f)
		fprintf(d->f, "warning: %s\n", rs_esc(msg));
	if (d->warn_sink)
		d->warn_sink(d->sink_ctx, loc && loc->file ? loc : NULL, msg);
}

void rs_diag_vnamed(struct rs_diag *d, bool warning, const struct rs_loc *loc,
		    const char *name, const char *field, char *ret_msg,
		    size_t len, const char *fmt, va_list ap)
{
	bool named = name && *name, fielded = field && *field;
	char msg[768];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (ret_msg)
		snprintf(ret_msg, len, "%s", msg);
	if (warning)
		rs_diag_warning(d, loc, "%s%s%s%s%s", named ? name : "",
				named ? ": " : "", fielded ? field : "",
				fielded ? ": " : "", msg);
	else
		rs_diag_error(d, loc, "%s%s%s%s%s", named ? name : "",
			      named ? ": " : "", fielded ? field : "",
			      fielded ? ": " : "", msg);
}

const char *rs_errno_text(int err, char *buf, size_t len)
{
	struct rlimit rl;

	if (err != EMFILE || getrlimit(RLIMIT_NOFILE, &rl)) {
		snprintf(buf, len, "%s", strerror(err));
		return buf;
	}
	snprintf(buf, len, "too many open files (RLIMIT_NOFILE soft %llu, "
		 "hard %llu)", (unsigned long long)rl.rlim_cur,
		 (unsigned long long)rl.rlim_max);
	return buf;
}
