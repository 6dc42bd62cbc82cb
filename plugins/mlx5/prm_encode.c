// SPDX-License-Identifier: MIT
/* A command's input from named values, a create's derived destroy. */
#include <errno.h>
#include <stdio.h>
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
	size_t used = len, o = 0;

	while (used > 4 && !b[used - 1])
		used--;
	used = (used + 3) / 4 * 4;
	if (used > len)
		used = len;
	buf[0] = '\0';
	for (size_t i = 0; i < used && o + 3 <= size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%02x", b[i]);
	return buf;
}
