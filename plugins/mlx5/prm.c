// SPDX-License-Identifier: MIT
/*
 * Finding a command and its fields by name, and putting values into its
 * bytes the way DEVX_SET does: big-endian, bit 0 the most significant
 * bit of byte 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prm_layouts.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

const struct prm_cmd prm_cmds[] = {
	{ "QUERY_HCA_CAP", 0x100, &prm_query_hca_cap_in,
	  &prm_query_hca_cap_out },
	{ "CREATE_MKEY", 0x200, &prm_create_mkey_in, &prm_create_mkey_out },
	{ "QUERY_MKEY", 0x201, &prm_query_mkey_in, &prm_query_mkey_out },
	{ "DESTROY_MKEY", 0x202, &prm_destroy_mkey_in, &prm_destroy_mkey_out },
	{ "CREATE_CQ", 0x400, &prm_create_cq_in, &prm_create_cq_out },
	{ "DESTROY_CQ", 0x401, &prm_destroy_cq_in, &prm_destroy_cq_out },
	{ "QUERY_CQ", 0x402, &prm_query_cq_in, &prm_query_cq_out },
	{ "MODIFY_CQ", 0x403, &prm_modify_cq_in, &prm_modify_cq_out },
	{ "ALLOC_PD", 0x800, &prm_alloc_pd_in, &prm_alloc_pd_out },
	{ "DEALLOC_PD", 0x801, &prm_dealloc_pd_in, &prm_dealloc_pd_out },
	{ "ALLOC_TRANSPORT_DOMAIN", 0x816, &prm_alloc_transport_domain_in,
	  &prm_alloc_transport_domain_out },
	{ "DEALLOC_TRANSPORT_DOMAIN", 0x817, &prm_dealloc_transport_domain_in,
	  &prm_dealloc_transport_domain_out },
	{ "CREATE_TIR", 0x900, &prm_create_tir_in, &prm_create_tir_out },
	{ "MODIFY_TIR", 0x901, &prm_modify_tir_in, &prm_modify_tir_out },
	{ "DESTROY_TIR", 0x902, &prm_destroy_tir_in, &prm_destroy_tir_out },
	{ "QUERY_TIR", 0x903, &prm_query_tir_in, &prm_query_tir_out },
	{ "CREATE_SQ", 0x904, &prm_create_sq_in, &prm_create_sq_out },
	{ "MODIFY_SQ", 0x905, &prm_modify_sq_in, &prm_modify_sq_out },
	{ "DESTROY_SQ", 0x906, &prm_destroy_sq_in, &prm_destroy_sq_out },
	{ "QUERY_SQ", 0x907, &prm_query_sq_in, &prm_query_sq_out },
	{ "CREATE_RQ", 0x908, &prm_create_rq_in, &prm_create_rq_out },
	{ "MODIFY_RQ", 0x909, &prm_modify_rq_in, &prm_modify_rq_out },
	{ "DESTROY_RQ", 0x90a, &prm_destroy_rq_in, &prm_destroy_rq_out },
	{ "QUERY_RQ", 0x90b, &prm_query_rq_in, &prm_query_rq_out },
	{ "CREATE_TIS", 0x912, &prm_create_tis_in, &prm_create_tis_out },
	{ "MODIFY_TIS", 0x913, &prm_modify_tis_in, &prm_modify_tis_out },
	{ "DESTROY_TIS", 0x914, &prm_destroy_tis_in, &prm_destroy_tis_out },
	{ "QUERY_TIS", 0x915, &prm_query_tis_in, &prm_query_tis_out },
	{ "CREATE_FLOW_TABLE", 0x930, &prm_create_flow_table_in,
	  &prm_create_flow_table_out },
	{ "DESTROY_FLOW_TABLE", 0x931, &prm_destroy_flow_table_in,
	  &prm_destroy_flow_table_out },
	{ "QUERY_FLOW_TABLE", 0x932, &prm_query_flow_table_in,
	  &prm_query_flow_table_out },
	{ "CREATE_FLOW_GROUP", 0x933, &prm_create_flow_group_in,
	  &prm_create_flow_group_out },
	{ "DESTROY_FLOW_GROUP", 0x934, &prm_destroy_flow_group_in,
	  &prm_destroy_flow_group_out },
	{ "QUERY_FLOW_GROUP", 0x935, &prm_query_flow_group_in,
	  &prm_query_flow_group_out },
	{ "SET_FLOW_TABLE_ENTRY", 0x936, &prm_set_fte_in, &prm_set_fte_out },
	{ "QUERY_FLOW_TABLE_ENTRY", 0x937, &prm_query_fte_in,
	  &prm_query_fte_out },
	{ "DELETE_FLOW_TABLE_ENTRY", 0x938, &prm_delete_fte_in,
	  &prm_delete_fte_out },
	{ "MODIFY_FLOW_TABLE", 0x93c, &prm_modify_flow_table_in,
	  &prm_modify_flow_table_out },
};
const size_t prm_n_cmds = N(prm_cmds);

/* What each create returns and how its destroy is made (the kernel's
 * DevX destroys an object with the command derived here). */
const struct prm_create prm_creates[] = {
	{ "ALLOC_PD", "DEALLOC_PD", "pd", { { "pd", "pd", true } } },
	{ "ALLOC_TRANSPORT_DOMAIN", "DEALLOC_TRANSPORT_DOMAIN",
	  "transport_domain",
	  { { "transport_domain", "transport_domain", true } } },
	{ "CREATE_CQ", "DESTROY_CQ", "cqn", { { "cqn", "cqn", true } } },
	{ "CREATE_MKEY", "DESTROY_MKEY", "mkey_index",
	  { { "mkey_index", "mkey_index", true } } },
	{ "CREATE_TIS", "DESTROY_TIS", "tisn", { { "tisn", "tisn", true } } },
	{ "CREATE_TIR", "DESTROY_TIR", "tirn", { { "tirn", "tirn", true } } },
	{ "CREATE_SQ", "DESTROY_SQ", "sqn", { { "sqn", "sqn", true } } },
	{ "CREATE_RQ", "DESTROY_RQ", "rqn", { { "rqn", "rqn", true } } },
	{ "CREATE_FLOW_TABLE", "DESTROY_FLOW_TABLE", "table_id",
	  { { "other_vport", "other_vport", false },
	    { "vport_number", "vport_number", false },
	    { "table_type", "table_type", false },
	    { "table_id", "table_id", true } } },
	{ "CREATE_FLOW_GROUP", "DESTROY_FLOW_GROUP", "group_id",
	  { { "table_type", "table_type", false },
	    { "table_id", "table_id", false },
	    { "group_id", "group_id", true } } },
	/* An entry has no output: its input names it. */
	{ "SET_FLOW_TABLE_ENTRY", "DELETE_FLOW_TABLE_ENTRY", NULL,
	  { { "table_type", "table_type", false },
	    { "table_id", "table_id", false },
	    { "flow_index", "flow_index", false } } },
};
const size_t prm_n_creates = N(prm_creates);

const struct prm_cmd *prm_cmd_find(const char *name)
{
	for (size_t i = 0; i < prm_n_cmds; i++)
		if (!strcmp(prm_cmds[i].name, name))
			return &prm_cmds[i];
	return NULL;
}

const struct prm_cmd *prm_cmd_by_opcode(uint16_t opcode)
{
	for (size_t i = 0; i < prm_n_cmds; i++)
		if (prm_cmds[i].opcode == opcode)
			return &prm_cmds[i];
	return NULL;
}

const struct prm_create *prm_create_of(const struct prm_cmd *cmd)
{
	for (size_t i = 0; cmd && i < prm_n_creates; i++)
		if (!strcmp(prm_creates[i].create, cmd->name))
			return &prm_creates[i];
	return NULL;
}

int prm_find(const struct prm_layout *l, const char *path,
	     struct prm_loc *ret)
{
	uint32_t base = 0;

	while (l) {
		size_t len = strcspn(path, ".[");
		const struct prm_field *f;
		uint32_t idx = 0;

		for (f = l->fields; f->name; f++)
			if (strlen(f->name) == len &&
			    !strncmp(f->name, path, len))
				break;
		if (!f->name)
			return -ENOENT;
		path += len;
		if (*path == '[') {
			char *end;
			unsigned long v = strtoul(path + 1, &end, 10);

			if (!f->sub || end == path + 1 || *end != ']')
				return -ENOENT;
			if (v >= (f->count ? f->count : 1))
				return -ERANGE;
			idx = (uint32_t)v;
			path = end + 1;
		}
		base += f->off + idx * f->width;
		if (!f->sub) {
			if (*path)
				return -ENOENT;
			ret->off = base;
			ret->width = f->width;
			return 0;
		}
		if (!*path)
			return -EISDIR;
		if (*path != '.')
			return -ENOENT;
		path++;
		l = f->sub;
	}
	return -ENOENT;
}

static void put_bit(uint8_t *buf, uint32_t bit, bool one)
{
	uint8_t m = (uint8_t)(0x80u >> (bit & 7));

	if (one)
		buf[bit >> 3] |= m;
	else
		buf[bit >> 3] &= (uint8_t)~m;
}

int prm_set(uint8_t *buf, size_t len, uint32_t off, uint32_t width,
	    uint64_t v)
{
	if (!width || width > 64)
		return -EINVAL;
	if (width < 64 && v >> width)
		return -ERANGE;
	if ((uint64_t)off + width > (uint64_t)len * 8)
		return -ENOSPC;
	for (uint32_t i = 0; i < width; i++)
		put_bit(buf, off + i, v >> (width - 1 - i) & 1);
	return 0;
}

int prm_set_bytes(uint8_t *buf, size_t len, uint32_t off, uint32_t width,
		  const uint8_t *bytes, size_t n)
{
	size_t field = width / 8;

	if (off % 8 || width % 8)
		return -EINVAL;
	if (n > field)
		return -ERANGE;
	if ((uint64_t)off + width > (uint64_t)len * 8)
		return -ENOSPC;
	memset(buf + off / 8, 0, field - n);
	memcpy(buf + off / 8 + field - n, bytes, n);
	return 0;
}

uint64_t prm_get(const uint8_t *buf, size_t len, uint32_t off,
		 uint32_t width)
{
	uint64_t v = 0;

	if (width > 64) {
		off += width - 64;
		width = 64;
	}
	if ((uint64_t)off + width > (uint64_t)len * 8)
		return 0;
	for (uint32_t i = 0; i < width; i++)
		v = v << 1 | (buf[(off + i) >> 3] >> (7 - ((off + i) & 7)) & 1);
	return v;
}

static int walk(const struct prm_layout *l, uint32_t base, char *path,
		size_t at, size_t size,
		int (*fn)(const char *, const struct prm_loc *, void *),
		void *arg)
{
	for (const struct prm_field *f = l->fields; f->name; f++) {
		uint32_t n = f->sub && f->count ? f->count : 1;

		for (uint32_t i = 0; i < n; i++) {
			int w = f->sub && f->count ?
				snprintf(path + at, size - at, "%s%s[%u]",
					 at ? "." : "", f->name, i) :
				snprintf(path + at, size - at, "%s%s",
					 at ? "." : "", f->name);
			int r;

			if (w < 0 || (size_t)w >= size - at)
				return -ENAMETOOLONG;
			if (f->sub) {
				r = walk(f->sub, base + f->off + i * f->width,
					 path, at + (size_t)w, size, fn, arg);
			} else {
				struct prm_loc loc = { base + f->off,
						       f->width };

				r = fn(path, &loc, arg);
			}
			if (r)
				return r;
		}
	}
	path[at] = '\0';
	return 0;
}

int prm_walk(const struct prm_layout *l,
	     int (*fn)(const char *, const struct prm_loc *, void *),
	     void *arg)
{
	char path[256] = "";

	return walk(l, 0, path, 0, sizeof(path), fn, arg);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int prm_parse_value(const char *s, uint64_t *ret, uint8_t *bytes,
		    size_t max, size_t *ret_n)
{
	*ret_n = 0;
	if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2)) {
		size_t digits = strlen(s + 2);

		if (!digits)
			return -EINVAL;
		for (size_t i = 0; i < digits; i++)
			if (hexval(s[2 + i]) < 0)
				return -EINVAL;
		if (digits > 16) {
			/* Wide: bytes, the first digit pair may be one. */
			size_t n = (digits + 1) / 2, d = 0;

			if (n > max)
				return -ERANGE;
			for (size_t i = 0; i < n; i++) {
				int hi = (digits % 2 && i == 0) ? 0 :
					 hexval(s[2 + d++]);

				bytes[i] = (uint8_t)(hi << 4 |
						     hexval(s[2 + d++]));
			}
			*ret_n = n;
			*ret = 0;
			return 0;
		}
		*ret = strtoull(s + 2, NULL, 16);
		return 0;
	}
	if (!*s)
		return -EINVAL;
	for (const char *p = s; *p; p++)
		if (*p < '0' || *p > '9')
			return -EINVAL;
	errno = 0;
	*ret = strtoull(s, NULL, 10);
	return errno ? -ERANGE : 0;
}
