/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_ESCAPE_H
#define RDMASCN_ESCAPE_H

#include <stddef.h>

/*
 * Text from a scenario (its name, ids, paths, values) printed on a
 * terminal: control characters are spelled out, so that an id cannot
 * clear the screen, set the window title or write the clipboard (OSC
 * 52).  C0 controls but the tab, DEL and the C1 controls (as UTF-8)
 * become \n, \e, \x07, \u009b and the like; everything else is as it
 * was.  JSON output needs none of this: json-c escapes what it writes.
 */

/* True when @s holds something rs_escape() would change. */
int rs_escape_needed(const char *s);
/* @s escaped into @buf of @len bytes (cut short to fit, always ended
 * with a NUL).  Returns @buf. */
char *rs_escape(char *buf, size_t len, const char *s);
/* @s itself when it needs no escape, else its escaped text in one of 8
 * buffers of this thread, used in turn: good until the 8th call after,
 * enough for the fields of one printf(). */
const char *rs_esc(const char *s);

#endif
