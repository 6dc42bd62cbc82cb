// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>

#include "escape.h"

/* The length of what starts at @p when it is a control (0 if not). */
static size_t control(const unsigned char *p)
{
	if ((*p < 0x20 && *p != '\t') || *p == 0x7f)
		return 1;
	/* U+0080 to U+009F: CSI (U+009B) and OSC (U+009D) among them. */
	if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
		return 2;
	return 0;
}

int rs_escape_needed(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++)
		if (control(p))
			return 1;
	return 0;
}

char *rs_escape(char *buf, size_t len, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t o = 0;

	if (!len)
		return buf;
	while (*p) {
		size_t n = control(p);
		char e[8];
		size_t el;

		if (!n) {
			e[0] = (char)*p;
			el = 1;
		} else if (n == 2) {
			el = (size_t)snprintf(e, sizeof(e), "\\u%04x", p[1]);
		} else if (*p == '\n' || *p == '\r' || *p == 0x1b) {
			e[0] = '\\';
			e[1] = *p == '\n' ? 'n' : *p == '\r' ? 'r' : 'e';
			el = 2;
		} else {
			el = (size_t)snprintf(e, sizeof(e), "\\x%02x", *p);
		}
		if (o + el >= len)
			break;
		memcpy(buf + o, e, el);
		o += el;
		p += n ? n : 1;
	}
	buf[o] = '\0';
	return buf;
}

const char *rs_esc(const char *s)
{
	static __thread char ring[8][2048];
	static __thread unsigned next;
	char *buf;

	if (!s || !rs_escape_needed(s))
		return s;
	buf = ring[next++ % 8];
	return rs_escape(buf, sizeof(ring[0]), s);
}
