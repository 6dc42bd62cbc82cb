/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_MLX5_PRM_H
#define RDMASCN_MLX5_PRM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * DevX commands as data: the PRM layout of each command's input and
 * output as tables of named fields, a bit offset and a width each (bit 0
 * is the most significant bit of byte 0, as the PRM and mlx5_ifc.h count
 * them), and an encoder with DEVX_SET's semantics.  The facts are the
 * public PRM layouts of the kernel's include/linux/mlx5/mlx5_ifc.h
 * (reserved fields left out); the tables are ours: one line per field,
 * one table per structure, a structure inside another named by a field
 * that points at its table.  Nothing here touches a device.
 */
struct prm_layout;

struct prm_field {
	const char *name;
	uint32_t off;                 /* bits from the start of its layout */
	uint32_t width;               /* bits; of one item for an array */
	const struct prm_layout *sub; /* a structure: its fields */
	uint32_t count;               /* an array of @sub: its items (0: 1) */
};

struct prm_layout {
	const char *name;             /* mlx5_ifc's name, "cqc" */
	uint32_t bits;
	const struct prm_field *fields; /* ends with { NULL } */
};

struct prm_cmd {
	const char *name;             /* "CREATE_CQ" */
	uint16_t opcode;
	const struct prm_layout *in, *out;
};

/* Where a create's object id is, and how its destroy is made from it:
 * the destroy command, and each of its fields taken from the create's
 * input or output. */
struct prm_copy {
	const char *to;               /* a field of the destroy's input */
	const char *from;             /* of the create's input or output */
	bool from_out;
};

struct prm_create {
	const char *create;           /* "CREATE_CQ" */
	const char *destroy;          /* "DESTROY_CQ" */
	const char *id;               /* the output that names it: "cqn" */
	struct prm_copy copy[4];      /* ends with { NULL } */
};

/* A field found by its dotted path ("cq_context.log_cq_size",
 * "flow_context.destination[1].destination_id"). */
struct prm_loc {
	uint32_t off, width;
};

extern const struct prm_cmd prm_cmds[];
extern const size_t prm_n_cmds;
extern const struct prm_create prm_creates[];
extern const size_t prm_n_creates;

const struct prm_cmd *prm_cmd_find(const char *name);
const struct prm_cmd *prm_cmd_by_opcode(uint16_t opcode);
/* NULL when @cmd makes nothing to destroy (a query, ALLOC is a create). */
const struct prm_create *prm_create_of(const struct prm_cmd *cmd);

/* 0, or -ENOENT (no such field; a structure is not a field: -EISDIR;
 * an index past an array: -ERANGE). */
int prm_find(const struct prm_layout *l, const char *path,
	     struct prm_loc *ret);

/* Set @width bits at bit @off of the big-endian @buf to @v, as DEVX_SET
 * does: 0, or -ERANGE when @v needs more than @width bits, -ENOSPC
 * when the field is past @len bytes.  Fields wider than 64 bits take
 * bytes (prm_set_bytes). */
int prm_set(uint8_t *buf, size_t len, uint32_t off, uint32_t width,
	    uint64_t v);
/* A byte-aligned field of @width bits from @n bytes, right-aligned (the
 * last byte given is the field's last): -ERANGE when @n is larger. */
int prm_set_bytes(uint8_t *buf, size_t len, uint32_t off, uint32_t width,
		  const uint8_t *bytes, size_t n);
/* The field's value (up to 64 bits: the low ones of a wider field). */
uint64_t prm_get(const uint8_t *buf, size_t len, uint32_t off,
		 uint32_t width);

/* Each leaf field of @l, its full path in @path: for listing and tests.
 * Calls @fn until it returns non-zero, which is returned. */
int prm_walk(const struct prm_layout *l,
	     int (*fn)(const char *path, const struct prm_loc *loc,
		       void *arg),
	     void *arg);

/* "0x..." or decimal into *@ret; hex longer than 16 digits goes to
 * @bytes (big-endian, *@ret_n of them, at most @max).  0, or -EINVAL. */
int prm_parse_value(const char *s, uint64_t *ret, uint8_t *bytes,
		    size_t max, size_t *ret_n);

/* One named field's value: @v, or @n bytes for a field wider than 64
 * bits. */
struct prm_val {
	const char *field;
	uint64_t v;
	const uint8_t *bytes;
	size_t n;
};

/* The input of @cmd with its opcode and each of @vals: into @in (@cap
 * bytes, zeroed first), its length (the layout's, longer when an array
 * at its end is used) in *@ret_len.  0, or the error of the value at
 * *@ret_bad (prm_find()'s or prm_set()'s). */
int prm_encode(const struct prm_cmd *cmd, const struct prm_val *vals,
	       size_t n, uint8_t *in, size_t cap, size_t *ret_len,
	       size_t *ret_bad);

/* The input of @cr's destroy from the create's input and output (what
 * the kernel sends when the object is destroyed): 0 or -errno. */
int prm_destroy_encode(const struct prm_create *cr, const uint8_t *cin,
		       size_t cin_len, const uint8_t *cout, size_t cout_len,
		       uint8_t *din, size_t cap, size_t *ret_len);

/* The bytes as hex digits into @buf, a run of 16 or more zero bytes
 * written <N*00> so that a command's 1 KiB fits a line:
 * "08010000<4*00>00123456<4*00>" is hex "0801000000000000001234560...".
 * Cut short (ending "...") when @size is too small.  Returns @buf. */
char *prm_hex(const uint8_t *b, size_t len, char *buf, size_t size);
/* Hex digits (spaces and underscores between them ignored, an optional
 * 0x first; <N*00> as prm_hex writes it) into @out: the number of
 * bytes, or -EINVAL (not hex, odd digits), -ENOSPC (more than @cap). */
long prm_unhex(const char *s, uint8_t *out, size_t cap);

/* A structure's bytes from named values, as prm_encode() without a
 * command: @l's size in @buf (zeroed first).  0, or the error of the
 * value at *@ret_bad (prm_find()'s or prm_set()'s); -ENOSPC when @cap
 * is smaller than @l. */
int prm_encode_struct(const struct prm_layout *l, const struct prm_val *vals,
		      size_t n, uint8_t *buf, size_t cap, size_t *ret_bad);

/* Which of fte_match_param's parameter sets (0x200 bits each: outer
 * headers, misc, inner headers, misc 2, misc 3, ...) the fields at
 * @vals lie in: the match_criteria_enable of a matcher or flow group,
 * bit i for set i.  Fields that are not found count for none. */
uint8_t prm_match_criteria(const struct prm_val *vals, size_t n);

/* mlx5dv_pp_alloc()'s context (set_pp_rate_limit_context) and the
 * match parameters of mlx5dv_create_flow_matcher() and _flow(). */
extern const struct prm_layout prm_set_pp_rate_limit_context;
extern const struct prm_layout prm_fte_match_param;

#endif
