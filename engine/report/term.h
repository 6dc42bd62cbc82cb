/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_TERM_H
#define RDMASCN_TERM_H

#include <stdbool.h>
#include <stdio.h>

#include "report.h"

/*
 * What a terminal gets beyond plain lines (report/term.c): outcomes in
 * colour, and one line at the bottom redrawn in place (\r, then \033[K
 * to clear what is left of the last one).  Anything printed clears that
 * line first; nothing here ever reaches a file or a pipe unless asked
 * for (--color=always).
 */

/* The ANSI colour of an outcome ("passed", "failed", ...) when @o wants
 * colour, else "" (and so is rs_term_reset()'s answer). */
const char *rs_term_color(const struct rs_text_opts *o, const char *outcome);
const char *rs_term_reset(const struct rs_text_opts *o);

/* The line redrawn in place, on @f. */
struct rs_term_line {
	FILE *f;
	bool shown;       /* it is on the screen: clear before printing */
	double drawn_ms;  /* when it was drawn last (a monotonic clock) */
};

/* Draw @text over what is there, cut to the terminal's width so that it
 * never wraps; not more often than every RS_TERM_REDRAW_MS unless
 * @force.  True when it was drawn. */
#define RS_TERM_REDRAW_MS 100
bool rs_term_line_draw(struct rs_term_line *l, const char *text, bool force);
/* Take it off the screen (before a line of output). */
void rs_term_line_clear(struct rs_term_line *l);

#endif
