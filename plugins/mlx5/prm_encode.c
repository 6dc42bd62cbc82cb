// SPDX-License-Identifier: MIT
/* A command's input from named values, a create's derived destroy. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prm.h"

int prm_encode(const struct prm_cmd *cmd, const struct prm_val *vals,
	       size_t n, uint8_t *in, size_t cap, size_t *ret_len,
	       size_t *ret_bad)
{
	size_t len = cmd->in->bits / 8;

	if (cap < len)
		return -ENOSPC;
	memset(in, 0, cap);
	prm_set(in, cap, 0, 16, cmd->opcode);
	for (size_t i = 0; i < n; i++) {
		struct prm_loc loc;
		size_t end;
		int r = prm_find(cmd->in, vals[i].field, &loc);

		if (!r && !strcmp(vals[i].field, "opcode"))
			r = -EPERM;     /* the command's name sets it */
		if (!r)
			r = vals[i].n || loc.width > 64 ?
			    prm_set_bytes(in, cap, loc.off, loc.width,
					  vals[i].bytes, vals[i].n) :
			    prm_set(in, cap, loc.off, loc.width, vals[i].v);
		if (r) {
			*ret_bad = i;
			return r;
		}
		/* Past the layout only through an array at its end. */
		end = ((loc.off + loc.width + 31) / 32) * 4;
		if (end > len)
			len = end;
	}
	*ret_len = len;
	return 0;
}

int prm_destroy_encode(const struct prm_create *cr, const uint8_t *cin,
		       size_t cin_len, const uint8_t *cout, size_t cout_len,
		       uint8_t *din, size_t cap, size_t *ret_len)
{
	const struct prm_cmd *create = prm_cmd_find(cr->create);
	const struct prm_cmd *destroy = prm_cmd_find(cr->destroy);
	struct prm_val vals[4];
	size_t n = 0, bad;

	if (!create || !destroy)
		return -ENOENT;
	for (const struct prm_copy *c = cr->copy; n < 4 && c->to; c++, n++) {
		struct prm_loc from;
		int r = prm_find(c->from_out ? create->out : create->in,
				 c->from, &from);

		if (r)
			return r;
		vals[n] = (struct prm_val){ .field = c->to,
			.v = prm_get(c->from_out ? cout : cin,
				     c->from_out ? cout_len : cin_len,
				     from.off, from.width) };
	}
	return prm_encode(destroy, vals, n, din, cap, ret_len, &bad);
}

char *prm_hex(const uint8_t *b, size_t len, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < len;) {
		size_t run = 0;
		int w;

		while (i + run < len && !b[i + run])
			run++;
		if (run >= 16) {
			w = snprintf(buf + o, size - o, "<%zu*00>", run);
			i += run;
		} else {
			w = snprintf(buf + o, size - o, "%02x", b[i]);
			i++;
		}
		if (w < 0 || (size_t)w >= size - o) {
			if (size >= 4)
				strcpy(buf + (o < size - 4 ? o : size - 4),
				       "...");
			break;
		}
		o += (size_t)w;
	}
	return buf;
}

static int hexdigit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long prm_unhex(const char *s, uint8_t *out, size_t cap)
{
	size_t n = 0;
	int hi = -1;

	if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2))
		s += 2;
	for (; *s; s++) {
		int v;

		if (*s == ' ' || *s == '_' || *s == '\n')
			continue;
		if (*s == '<') {
			char *end;
			unsigned long run = strtoul(s + 1, &end, 10);

			if (hi >= 0 || end == s + 1 || strncmp(end, "*00>", 4))
				return -EINVAL;
			if (run > cap - n)
				return -ENOSPC;
			memset(out + n, 0, run);
			n += run;
			s = end + 3;
			continue;
		}
		v = hexdigit(*s);
		if (v < 0)
			return -EINVAL;
		if (hi < 0) {
			hi = v;
			continue;
		}
		if (n == cap)
			return -ENOSPC;
		out[n++] = (uint8_t)(hi << 4 | v);
		hi = -1;
	}
	return hi >= 0 ? -EINVAL : (long)n;
}
