// SPDX-License-Identifier: MIT
/* What an mr holds before the steps run: a pattern, random bytes, one
 * byte, or literal bytes written in the scenario (text, hex, a file). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "kinds.h"
#include "literal.h"
#include "macros.h"
#include "live.h"

/* `fill: pattern` and `verify: {pattern: pattern}`: byte i is i mod 256,
 * so a misplaced or shifted block shows. */
/* `fill: random`: the same bytes on every run (splitmix64, seed 1), so a
 * failure can be replayed. */
static void fill_random(void *buf, size_t len)
{
	uint64_t s = 1;
	uint8_t *p = buf;

	for (size_t i = 0; i < len; i += 8) {
		uint64_t z = (s += 0x9e3779b97f4a7c15ull);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		memcpy(p + i, &z, len - i < 8 ? len - i : 8);
	}
}

static const char *const fill_names[] = {
	[RS_FILL_ZERO] = "zero", [RS_FILL_PATTERN] = "pattern",
	[RS_FILL_RANDOM] = "random", [RS_FILL_BYTE] = "byte",
	[RS_FILL_TEXT] = "text", [RS_FILL_HEX] = "hex",
	[RS_FILL_FILE] = "file",
};


/* The literal of fill_text, fill_hex or fill_file, as written. */
static const char *fill_literal(const struct rs_mr *m)
{
	return m->fill == RS_FILL_TEXT ? m->fill_text :
	       m->fill == RS_FILL_HEX ? m->fill_hex : m->fill_file;
}

/* The buffer's contents before the steps run.  A literal is copied to
 * the start and the rest is zero.  A mapped file keeps its own bytes
 * unless a fill is given. */
int rs_mr_fill(struct rs_run *run, struct rs_live *l, void *buf, size_t len)
{
	const struct rs_mr *m = l->obj->data;
	uint8_t *lit;
	size_t lit_len;
	char err[300];
	int r;

	switch (m->fill) {
	case RS_FILL_PATTERN:
		rs_mr_pattern(buf, len);
		break;
	case RS_FILL_RANDOM:
		fill_random(buf, len);
		break;
	case RS_FILL_BYTE:
		memset(buf, m->fill_byte, len);
		break;
	case RS_FILL_TEXT:
	case RS_FILL_HEX:
	case RS_FILL_FILE:
		r = rs_literal_load(l->obj, m->fill - RS_FILL_TEXT + RS_LIT_TEXT,
				    fill_literal(m), &lit, &lit_len, err,
				    sizeof(err));
		if (r)
			return rs_live_error(run, l, -r, "%s: %s",
					     m->fill == RS_FILL_TEXT ?
					     "fill_text" : m->fill == RS_FILL_HEX ?
					     "fill_hex" : "fill_file", err);
		if (lit_len > len) {
			/* The file grew since validate checked it. */
			rs_free(lit);
			return rs_live_error(run, l, EINVAL, "fill_file: %zu "
					     "bytes do not fit in the mr's "
					     "length %zu", lit_len, len);
		}
		memcpy(buf, lit, lit_len);
		memset((uint8_t *)buf + lit_len, 0, len - lit_len);
		rs_free(lit);
		break;
	default:
		/* posix_memalign() does not zero; mmap() does, and a
		 * mapped file keeps its bytes. */
		if (m->memory == RS_MEM_HEAP || rs_obj_has(l->obj, "fill"))
			memset(buf, 0, len);
		break;
	}
	return 0;
}

void rs_mr_fill_arg(struct rs_call *c, const struct rs_obj *obj)
{
	const struct rs_mr *m = obj->data;
	size_t bad;

	if (m->memory == RS_MEM_FILE && !m->fill &&
	    !rs_obj_has(obj, "fill"))
		rs_call_arg(c, "fill", "none (the file's bytes)");
	else if (m->fill == RS_FILL_BYTE)
		rs_call_arg(c, "fill", "byte 0x%02x", m->fill_byte);
	else if (m->fill == RS_FILL_TEXT || m->fill == RS_FILL_HEX)
		rs_call_arg(c, "fill", "%s (%zd bytes)", fill_names[m->fill],
			    m->fill == RS_FILL_TEXT ? (ssize_t)strlen(m->fill_text) :
			    rs_hex_parse(m->fill_hex, NULL, 0, &bad));
	else if (m->fill == RS_FILL_FILE)
		rs_call_arg(c, "fill", "file %s", m->fill_file);
	else if (m->fill >= 0 && (size_t)m->fill < RS_N(fill_names))
		rs_call_arg(c, "fill", "%s", fill_names[m->fill]);
}

/* The IBV_ACCESS_* names as the scenario writes them. */
const char *rs_mr_fill_name(int fill)
{
	return fill >= 0 && (size_t)fill < RS_N(fill_names) ? fill_names[fill] :
							      "?";
}
