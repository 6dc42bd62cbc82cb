// SPDX-License-Identifier: MIT
/*
 * libcyaml's load, read off the located DOM (fill.h).  libcyaml parsed the
 * whole file a second time to fill the same structs the DOM already
 * described: 28% of a validate of 100k objects, and a malloc() for every
 * string, mapping and growing sequence.  Here each value is interpreted
 * by the same cyaml_schema_value_t tables, with libcyaml 1.3.1's rules
 * (src/load.c: cyaml__read_value() and its readers), so the structs come
 * out as it would fill them; a sequence's array is made once, at its
 * final size, and strings are the DOM's.  Errors are not reported here:
 * libcyaml reports them, from its own load, which the caller falls back
 * to (-EAGAIN) so that every message stays as it was.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fill.h"

/* Not libcyaml's: it would say why, or this does not read it. */
#define NOT_MINE (-EAGAIN)

/* The most fields one mapping schema has (the top level has a section
 * per registered kind). */
#define FIELDS_MAX 256

static bool host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

/* cyaml_data_write(): the low @size bytes of @v, as the host orders them. */
static int put(uint64_t v, uint64_t size, uint8_t *data)
{
	const uint8_t *b = (const uint8_t *)&v;

	if (size == 0 || size > sizeof(v))
		return NOT_MINE;
	if (host_big_endian())
		b += sizeof(v) - size;
	memcpy(data, b, size);
	return 0;
}

static int read_int(const cyaml_schema_value_t *v, const char *s,
		    uint8_t *data)
{
	int64_t max, min;
	long long t;
	char *end = NULL;

	if (v->data_size == 0 || v->data_size > sizeof(uint64_t))
		return NOT_MINE;
	max = (int64_t)((UINT64_MAX >> ((8 - v->data_size) * 8)) / 2);
	min = -max - 1;
	errno = 0;
	t = strtoll(s, &end, 0);
	if (end == s || errno == ERANGE || t < min || t > max)
		return NOT_MINE;
	return put((uint64_t)t, v->data_size, data);
}

static int read_uint(const cyaml_schema_value_t *v, const char *s,
		     uint8_t *data)
{
	unsigned long long t;
	char *end = NULL;

	if (v->data_size == 0 || v->data_size > sizeof(uint64_t))
		return NOT_MINE;
	errno = 0;
	t = strtoull(s, &end, 0);
	if (end == s || errno == ERANGE ||
	    t > (~(uint64_t)0) >> ((8 - v->data_size) * 8))
		return NOT_MINE;
	return put(t, v->data_size, data);
}

/* libcyaml compares with a UTF-8 case folding: ASCII words only here. */
static int read_bool(const cyaml_schema_value_t *v, const char *s,
		     uint8_t *data)
{
	static const char *const no[] = { "false", "no", "off", "disable",
					  "0" };
	bool t = true;

	for (const char *p = s; *p; p++)
		if (*p & 0x80)
			return NOT_MINE;
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (!strcasecmp(s, no[i]))
			t = false;
	return put(t, v->data_size, data);
}

static int read_enum(const cyaml_schema_value_t *v, const char *s,
		     uint8_t *data)
{
	const cyaml_strval_t *names = v->enumeration.strings;

	for (uint32_t i = 0; i < v->enumeration.count; i++)
		if (!strcmp(s, names[i].str))
			return put((uint32_t)names[i].val, v->data_size, data);
	if (v->flags & CYAML_FLAG_STRICT)
		return NOT_MINE;
	return read_int(v, s, data);
}

static int read_float(const cyaml_schema_value_t *v, const char *s,
		      uint8_t *data)
{
	bool strict = v->flags & CYAML_FLAG_STRICT;
	char *end = NULL;

	errno = 0;
	if (v->data_size == sizeof(float)) {
		float f = strtof(s, &end);

		if (end == s || (errno == ERANGE && strict))
			return NOT_MINE;
		memcpy(data, &f, sizeof(f));
	} else if (v->data_size == sizeof(double)) {
		double f = strtod(s, &end);

		if (end == s || (errno == ERANGE && strict))
			return NOT_MINE;
		memcpy(data, &f, sizeof(f));
	} else {
		return NOT_MINE;
	}
	return 0;
}

static int read_flags(const cyaml_schema_value_t *v, const struct rs_node *n,
		      uint8_t *data)
{
	const cyaml_strval_t *names = v->enumeration.strings;
	uint64_t flags = 0;

	if (v->data_size == 0)
		return NOT_MINE;
	for (size_t i = 0; i < n->n; i++) {
		const char *s = n->items[i].value;
		uint32_t j;

		if (n->items[i].type != RS_NODE_SCALAR)
			return NOT_MINE;
		for (j = 0; j < v->enumeration.count; j++)
			if (!strcmp(s, names[j].str))
				break;
		if (j < v->enumeration.count) {
			flags |= (uint64_t)names[j].val;
		} else if (!(v->flags & CYAML_FLAG_STRICT)) {
			uint64_t max = (~(uint64_t)0) >>
				       ((8 - v->data_size) * 8);
			char *end = NULL;
			long long t;

			errno = 0;
			t = strtoll(s, &end, 0);
			if (end == s || errno == ERANGE || t < 0 ||
			    (uint64_t)t > max)
				return NOT_MINE;
			flags |= (uint64_t)t;
		} else {
			return NOT_MINE;
		}
	}
	return put(flags, v->data_size, data);
}

static int read_string(const cyaml_schema_value_t *v, const char *s,
		       uint8_t *data)
{
	size_t len = strlen(s);

	if (v->string.min > v->string.max || len < v->string.min ||
	    len > v->string.max)
		return NOT_MINE;
	/* The DOM's text lives as long as the structs do. */
	if (v->flags & CYAML_FLAG_POINTER)
		memcpy(data, &s, sizeof(s));
	else
		memcpy(data, s, len + 1);
	return 0;
}

/* cyaml__string_is_null_ptr(). */
static bool is_null(const cyaml_schema_value_t *v, const char *s)
{
	if ((v->flags & CYAML_FLAG_POINTER_NULL) == CYAML_FLAG_POINTER_NULL &&
	    !s[0])
		return true;
	if ((v->flags & CYAML_FLAG_POINTER_NULL_STR) !=
	    CYAML_FLAG_POINTER_NULL_STR)
		return false;
	return !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
	       !strcmp(s, "NULL");
}

/* The node type each schema type is read from. */
static bool node_fits(const cyaml_schema_value_t *v, const struct rs_node *n)
{
	switch (v->type) {
	case CYAML_INT:
	case CYAML_UINT:
	case CYAML_BOOL:
	case CYAML_ENUM:
	case CYAML_FLOAT:
	case CYAML_STRING:
		return n->type == RS_NODE_SCALAR;
	case CYAML_FLAGS:
	case CYAML_SEQUENCE:
		return n->type == RS_NODE_SEQ;
	case CYAML_MAPPING:
		return n->type == RS_NODE_MAP;
	case CYAML_IGNORE:
		return true;
	default:
		return false; /* bitfields, fixed sequences */
	}
}

static int value(struct rs_doc *doc, const struct rs_node *n,
		 const cyaml_schema_value_t *v,
		 const cyaml_schema_field_t *field, uint8_t *data,
		 uint8_t *parent);

static int mapping(struct rs_doc *doc, const struct rs_node *n,
		   const cyaml_schema_value_t *v, uint8_t *data)
{
	const cyaml_schema_field_t *fields = v->mapping.fields;
	uint64_t seen[FIELDS_MAX / 64] = { 0 };
	unsigned count = 0;
	int r;

	if (v->flags & CYAML_FLAG_CASE_INSENSITIVE)
		return NOT_MINE;
	while (fields[count].key)
		if (++count > FIELDS_MAX)
			return NOT_MINE;
	for (size_t i = 0, at = 0; i + 1 < n->n; i += 2) {
		const char *key = n->items[i].value;
		unsigned f = at, tries;

		/* Files mostly give a kind's fields in the table's order:
		 * look from the one after the last found, round. */
		for (tries = 0; tries < count && strcmp(fields[f].key, key);
		     tries++)
			f = f + 1 < count ? f + 1 : 0;
		if (tries == count)
			return NOT_MINE; /* "Unexpected key" */
		at = f + 1 < count ? f + 1 : 0;
		if (fields[f].value.type != CYAML_IGNORE &&
		    (seen[f / 64] >> (f % 64) & 1))
			return NOT_MINE;
		seen[f / 64] |= UINT64_C(1) << (f % 64);
		r = value(doc, &n->items[i + 1], &fields[f].value, &fields[f],
			  data + fields[f].data_offset, data);
		if (r < 0)
			return r;
	}
	for (unsigned f = 0; f < count; f++)
		if (!(fields[f].value.flags & CYAML_FLAG_OPTIONAL) &&
		    !(seen[f / 64] >> (f % 64) & 1))
			return NOT_MINE; /* "Missing required mapping field" */
	return 0;
}

/* The whole array at once: libcyaml grows it an entry at a time. */
static int sequence(struct rs_doc *doc, const struct rs_node *n,
		    const cyaml_schema_value_t *v,
		    const cyaml_schema_field_t *field, uint8_t *data,
		    uint8_t *parent)
{
	const cyaml_schema_value_t *entry = v->sequence.entry;
	uint8_t *base = data;
	int r;

	/* A sequence directly in a sequence is an error of libcyaml's; the
	 * count of one at the top level is not a struct field. */
	if (!field || !parent || entry->type == CYAML_SEQUENCE ||
	    n->n > v->sequence.max || n->n < v->sequence.min)
		return NOT_MINE;
	if (!n->n)
		return 0;
	if (v->flags & CYAML_FLAG_POINTER) {
		if (v->data_size && n->n > SIZE_MAX / v->data_size)
			return -ENOMEM;
		base = rs_doc_alloc(doc, n->n * v->data_size);
		if (!base)
			return -ENOMEM;
		memcpy(data, &base, sizeof(base));
	}
	r = put(n->n, field->count_size, parent + field->count_offset);
	for (size_t i = 0; !r && i < n->n; i++)
		r = value(doc, &n->items[i], entry, NULL,
			  base + i * v->data_size, NULL);
	return r;
}

/* What rs_int_scalars_check() would refuse (before libcyaml, which reads
 * `2abc` as 2): refused here too, and the caller's walk then says so. */
static bool int_ok(const cyaml_schema_value_t *v, const struct rs_node *n)
{
	if ((v->type != CYAML_INT && v->type != CYAML_UINT) ||
	    n->type != RS_NODE_SCALAR || !n->value[0])
		return true;
	if (rs_int_syntax(n->value))
		return false;
	return !(v->type == CYAML_UINT && n->value[0] == '-');
}

static int value(struct rs_doc *doc, const struct rs_node *n,
		 const cyaml_schema_value_t *v,
		 const cyaml_schema_field_t *field, uint8_t *data,
		 uint8_t *parent)
{
	if (!int_ok(v, n))
		return NOT_MINE;
	if (n->type == RS_NODE_SCALAR && is_null(v, n->value))
		return 0;
	if (!node_fits(v, n))
		return NOT_MINE; /* "Expecting ..., got event: ..." */
	if (v->type == CYAML_SEQUENCE)
		return sequence(doc, n, v, field, data, parent);
	if (v->type == CYAML_IGNORE)
		return v->flags & CYAML_FLAG_POINTER ? NOT_MINE : 0;
	if ((v->flags & CYAML_FLAG_POINTER) && v->type != CYAML_STRING) {
		uint8_t *p = rs_doc_alloc(doc, v->data_size);

		if (!p)
			return -ENOMEM;
		memcpy(data, &p, sizeof(p));
		data = p;
	}
	switch (v->type) {
	case CYAML_INT:
		return read_int(v, n->value, data);
	case CYAML_UINT:
		return read_uint(v, n->value, data);
	case CYAML_BOOL:
		return read_bool(v, n->value, data);
	case CYAML_ENUM:
		return read_enum(v, n->value, data);
	case CYAML_FLOAT:
		return read_float(v, n->value, data);
	case CYAML_STRING:
		return read_string(v, n->value, data);
	case CYAML_FLAGS:
		return read_flags(v, n, data);
	case CYAML_MAPPING:
		return mapping(doc, n, v, data);
	default:
		return NOT_MINE;
	}
}

int rs_fill(struct rs_doc *doc, const struct rs_node *root,
	    const cyaml_schema_value_t *schema, void **ret)
{
	void *top = NULL;
	int r;

	/* libcyaml loads a top-level value only through a pointer. */
	if (!root || !(schema->flags & CYAML_FLAG_POINTER))
		return NOT_MINE;
	r = value(doc, root, schema, NULL, (uint8_t *)&top, NULL);
	if (r < 0)
		return r;
	*ret = top;
	return 0;
}
