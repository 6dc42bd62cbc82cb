// SPDX-License-Identifier: MIT
/*
 * A terminal's extras for the text reporter: colour and the progress
 * line (term.h), and the choice of both for an output (report.h); the
 * node's prefix on each line under a launcher (report.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "alloc.h"
#include "term.h"

#define GREEN "\033[32m"
#define RED "\033[31m"
#define YELLOW "\033[33m"
#define RESET "\033[0m"

static bool term_ok(FILE *out)
{
	const char *term = getenv("TERM");

	return isatty(fileno(out)) && !(term && !strcmp(term, "dumb"));
}

int rs_text_opts_init(struct rs_text_opts *o, FILE *out, const char *color,
		      bool quiet)
{
	const char *no_color = getenv("NO_COLOR");
	bool tty = term_ok(out);

	*o = (struct rs_text_opts){ .quiet = quiet, .progress = tty && !quiet };
	if (!color || !strcmp(color, "auto"))
		o->color = tty && !(no_color && *no_color);
	else if (!strcmp(color, "always"))
		o->color = true; /* a flag overrides NO_COLOR, as it says */
	else if (strcmp(color, "never"))
		return -EINVAL;
	return 0;
}

const char *rs_term_color(const struct rs_text_opts *o, const char *outcome)
{
	static const struct {
		const char *outcome, *color;
	} colors[] = {
		{ "passed", GREEN },
		{ "dry run done", GREEN },
		{ "failed", RED },
		{ "skipped", YELLOW },
		{ "could not run", YELLOW },
		{ "not created", YELLOW },
		{ "interrupted", YELLOW },
	};

	if (!o || !o->color)
		return "";
	for (size_t i = 0; i < sizeof(colors) / sizeof(colors[0]); i++)
		if (!strcmp(outcome, colors[i].outcome))
			return colors[i].color;
	return "";
}

const char *rs_term_reset(const struct rs_text_opts *o)
{
	return o && o->color ? RESET : "";
}

void rs_text_outcome(FILE *f, const struct rs_text_opts *o,
		     const char *outcome)
{
	const char *c = rs_term_color(o, outcome);

	fprintf(f, "%s%s%s", c, outcome, *c ? RESET : "");
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int columns(FILE *f)
{
	struct winsize ws;

	if (ioctl(fileno(f), TIOCGWINSZ, &ws) || !ws.ws_col)
		return 80;
	return ws.ws_col;
}

bool rs_term_line_draw(struct rs_term_line *l, const char *text, bool force)
{
	double now = now_ms();
	/* The last column stays free: a line that fills it wraps on some
	 * terminals, and \r then redraws only its second half. */
	int width = columns(l->f) - 1;

	if (!force && l->drawn_ms && now - l->drawn_ms < RS_TERM_REDRAW_MS)
		return false;
	fprintf(l->f, "\r%.*s\033[K", width > 0 ? width : 0, text);
	fflush(l->f);
	l->shown = true;
	l->drawn_ms = now;
	return true;
}

void rs_term_line_clear(struct rs_term_line *l)
{
	if (!l->shown)
		return;
	fputs("\r\033[K", l->f);
	l->shown = false;
}

/* A stream that writes each line to another with a prefix before it. */
struct prefixed {
	FILE *f;
	bool mid;        /* inside a line: its prefix is written */
	char prefix[];
};

static ssize_t prefixed_write(void *cookie, const char *buf, size_t len)
{
	struct prefixed *p = cookie;
	size_t i = 0;

	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (buf + i)) + 1 : len - i;

		if (!p->mid && fputs(p->prefix, p->f) == EOF)
			return -1;
		if (fwrite(buf + i, 1, n, p->f) != n)
			return -1;
		p->mid = !nl;
		i += n;
	}
	/* Each line leaves at once: a launcher merges the processes'
	 * outputs line by line, and a line held back reaches it late. */
	return fflush(p->f) ? -1 : (ssize_t)len;
}

static int prefixed_close(void *cookie)
{
	struct prefixed *p = cookie;
	int r = fflush(p->f) ? -1 : 0;

	rs_free(p);  /* @f is its owner's to close */
	return r;
}

FILE *rs_text_prefixed(FILE *f, const char *prefix)
{
	static const cookie_io_functions_t io = {
		.write = prefixed_write,
		.close = prefixed_close,
	};
	size_t len = strlen(prefix);
	struct prefixed *p = rs_calloc(1, sizeof(*p) + len + 1);
	FILE *pf;

	if (!p)
		return NULL;
	p->f = f;
	memcpy(p->prefix, prefix, len + 1);
	pf = fopencookie(p, "w", io);
	if (!pf) {
		rs_free(p);
		return NULL;
	}
	setvbuf(pf, NULL, _IOLBF, 0);
	return pf;
}
