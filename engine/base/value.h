/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_VALUE_H
#define RDMASCN_VALUE_H

/*
 * Results are data: commands build a tree of values and a reporter prints
 * it (JSON here; tables, JUnit and others walk the same tree).  Builders
 * never check each call: a failed allocation marks the container, and
 * rs_val_check() reports it once at the end.  The tree is typed nodes in
 * arenas owned by its root (value.c); an object keeps its members in the
 * order they were added (adding a key again replaces its value where it
 * stands), and JSON is written as json-c wrote it.  json-c is for JSON
 * files read (rs_val_from_json()), not the tree.  Plugins call the
 * builders as rdmascn_val_* (rdmascn/value.h, value_api.c).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"

struct rs_val;
struct json_object;

enum rs_val_type {
	RS_VAL_NULL,
	RS_VAL_BOOL,
	RS_VAL_INT,
	RS_VAL_UINT,
	RS_VAL_DOUBLE,
	RS_VAL_STR,
	RS_VAL_ARR,
	RS_VAL_OBJ,
};

/* An empty object or array; NULL when out of memory. */
struct rs_val *rs_val_obj(void);
struct rs_val *rs_val_arr(void);
/* Frees a tree made on its own (NULL: nothing); what was added to a
 * container goes with that container's tree. */
void rs_val_free(struct rs_val *v);
int rs_val_check(const struct rs_val *v);

/* Scalars on their own, to add to an array or an object. */
struct rs_val *rs_val_str(const char *s);
struct rs_val *rs_val_strn(const char *s, size_t len);
struct rs_val *rs_val_null(void);
struct rs_val *rs_val_u64(uint64_t u);
struct rs_val *rs_val_i64(int64_t i);
struct rs_val *rs_val_bool(bool b);
struct rs_val *rs_val_double(double d);

/* Add @child (owned from here on, freed on failure) to an array or, with
 * a key, to an object.  Returns @child, or NULL. */
struct rs_val *rs_val_push(struct rs_val *arr, struct rs_val *child);
struct rs_val *rs_val_put(struct rs_val *obj, const char *key,
			  struct rs_val *child);
struct rs_val *rs_val_put_obj(struct rs_val *obj, const char *key);
struct rs_val *rs_val_put_arr(struct rs_val *obj, const char *key);
void rs_val_put_str(struct rs_val *obj, const char *key, const char *s);
void rs_val_put_strf(struct rs_val *obj, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void rs_val_put_vstrf(struct rs_val *obj, const char *key, const char *fmt,
		      va_list ap) __attribute__((format(printf, 3, 0)));
void rs_val_put_u64(struct rs_val *obj, const char *key, uint64_t u);
void rs_val_put_i64(struct rs_val *obj, const char *key, int64_t i);
void rs_val_put_bool(struct rs_val *obj, const char *key, bool b);
void rs_val_put_double(struct rs_val *obj, const char *key, double d);
struct rs_val *rs_val_push_obj(struct rs_val *arr);
struct rs_val *rs_val_push_arr(struct rs_val *arr);
void rs_val_push_str(struct rs_val *arr, const char *s);
void rs_val_push_u64(struct rs_val *arr, uint64_t u);
/* @obj's member @key: the object of @text's "key=value" pairs, a key
 * starting at each of @at (a call's arguments as -v prints them, the
 * string member @text of @obj's): a value an integer when it is a plain
 * decimal number, else its text.  Held as the text's offsets, a few
 * bytes, until something reads its members (nothing in the engine does
 * but the JSON writer, which writes them from the text). */
void rs_val_put_pairs(struct rs_val *obj, const char *key,
		      const struct rs_val *text, const uint16_t *at,
		      unsigned n_at);
/*
 * An array of its owner's typed structs, not of nodes (the record's
 * calls: 400k of them in a dry run of 100k QPs): an item is made as a
 * tree of its own only when it is written (and freed then), or, for a
 * reader that asks for items (rs_val_at()), all of them once, kept from
 * then on.  @data (the owner's, living as long as the tree: in its arena,
 * rs_val_alloc()) is handed to @ops.
 */
/*
 * An item's member as the writer takes it from the item's struct (no
 * node made): its key, and a string (not NUL-terminated), a number, a
 * bool, a double, the "key=value" pairs of a string member's text given
 * before it (as rs_val_put_pairs() holds them), a tree the struct
 * keeps (rs_val_obj_in(): written as it is, linked when made), or an
 * object of another struct's members (@ops's of @data, which lives as
 * long as the field's: a part of the struct, a connection's settings of
 * one side), written from its fields, made as an object of its own.
 */
#define RS_VAL_FIELD_PAIRS 0x40
#define RS_VAL_FIELD_TREE 0x41
#define RS_VAL_FIELD_STRUCT 0x42
struct rs_val_struct;
/* A call's pairs: @n keys at offsets @at of @text (@len bytes), each
 * "key=value" and joined by spaces. */
struct rs_val_pairs {
	const char *text;
	size_t len;
	const uint16_t *at;
	unsigned n;
};
struct rs_val_field {
	const char *key;
	uint8_t type;           /* enum rs_val_type, or RS_VAL_FIELD_* */
	uint8_t klen;           /* RS_VAL_KEY()'s length: written as it is;
				 * 0: looked at for escapes */
	union {
		struct {
			const char *s;
			size_t len;
		} str;
		uint64_t u;
		int64_t i;
		bool b;
		double d;
		/* .text: an earlier string field's s */
		struct rs_val_pairs pairs;
		struct rs_val *tree;
		struct {
			const struct rs_val_struct *ops;
			const void *data;
		} st;
	} v;
};
/* A field's key, a literal with nothing to escape: the writer copies it
 * (88k keys in a dry run at n=1000 were each scanned a byte at a time). */
#define RS_VAL_KEY(lit) .key = "" lit, .klen = sizeof(lit) - 1
/* Fields of literal keys: a string of @n bytes at @s, a number, a
 * bool, @ops's members of @data (RS_VAL_FIELD_STRUCT). */
#define RS_VAL_F_STR(lit, s_, n_) ((struct rs_val_field){ \
	RS_VAL_KEY(lit), .type = RS_VAL_STR, .v.str = { (s_), (n_) } })
#define RS_VAL_F_U64(lit, u_) ((struct rs_val_field){ \
	RS_VAL_KEY(lit), .type = RS_VAL_UINT, .v.u = (u_) })
#define RS_VAL_F_I64(lit, i_) ((struct rs_val_field){ \
	RS_VAL_KEY(lit), .type = RS_VAL_INT, .v.i = (i_) })
#define RS_VAL_F_BOOL(lit, b_) ((struct rs_val_field){ \
	RS_VAL_KEY(lit), .type = RS_VAL_BOOL, .v.b = (b_) })
#define RS_VAL_F_STRUCT(lit, ops_, data_) ((struct rs_val_field){ \
	RS_VAL_KEY(lit), .type = RS_VAL_FIELD_STRUCT, \
	.v.st = { .ops = (ops_), .data = (data_) } })
/* (A connection's settings of one side are 18.) */
#define RS_VAL_FIELDS_MAX 24
/* Bytes @fields may use for what it points its fields at. */
#define RS_VAL_FIELDS_ROOM 4096
struct rs_val_list {
	/* The item after @prev (NULL: the first); NULL after the last. */
	const void *(*next)(const void *data, const void *prev);
	/* @item as a tree of its own; NULL when out of memory. */
	struct rs_val *(*make)(const void *item);
	size_t (*len)(const void *data);
	/* Optional: @item's members in @f (RS_VAL_FIELDS_MAX at most),
	 * pointing into @item or @room (RS_VAL_FIELDS_ROOM bytes, 8-byte
	 * aligned); their count.  The writer writes them as @make's tree
	 * would be written, without making it (the 400k calls of a dry run
	 * of 100k QPs were each a tree of a dozen nodes, made, written and
	 * freed). */
	unsigned (*fields)(const void *item, struct rs_val_field *f,
			   void *room);
};
/* @n fields as an object of its own (what a list's @make can be made
 * from); NULL when out of memory. */
struct rs_val *rs_val_of_fields(const struct rs_val_field *f, unsigned n);
/* The same in @buf (@len bytes, 8-byte aligned), which it never grows
 * past: a tree that needs no memory, to tell when there is none left (a
 * teardown's line).  NULL when it does not fit.  Not freed (rs_val_free()
 * leaves it) and never added to another tree; it lives as long as
 * @buf. */
struct rs_val *rs_val_of_fields_on(void *buf, size_t len,
				   const struct rs_val_field *f, unsigned n);
struct rs_val *rs_val_put_list(struct rs_val *obj, const char *key,
			       const struct rs_val_list *ops, const void *data);
/*
 * An object that is its owner's struct until something reads it or adds
 * to it (the record's object entries: 400k in a dry run of 100k QPs,
 * eight members each as nodes): @members adds what @data holds to @obj
 * (each key once: they are appended without looking for an earlier
 * one), to write it or, once, to make it an object for good (then with
 * a copy of @data: pointers into the struct's first 16 bytes do not
 * survive it, strings after them do).
 */
struct rs_val_struct {
	/* NULL when @fields is given: made from them. */
	void (*members)(struct rs_val *obj, const void *data);
	/* Optional: as rs_val_list's @fields, from @data; written without
	 * making @members' tree (a dry run's 400k object entries). */
	unsigned (*fields)(const void *data, struct rs_val_field *f,
			   void *room);
	/* The one tree the struct points at (NULL: none; the op may be
	 * NULL), for rs_val_check(): a member @members links, not copies
	 * (rs_val_obj_in()). */
	const struct rs_val *(*kid)(const void *data);
};
#define RS_VAL_STRUCT_MAX 256
/* A struct of @size bytes (zeroed) as @arr's new item, in its arena; the
 * item (its struct: rs_val_struct_of()), or NULL (and @arr marked) when
 * out of memory. */
struct rs_val *rs_val_push_struct(struct rs_val *arr,
				  const struct rs_val_struct *ops, size_t size);
/*
 * @obj, an empty object (rs_val_obj_in(), rs_val_put_obj(), ...), holds
 * a struct of @size bytes (zeroed, in its arena) from now on, where its
 * key and place stay: its members are @ops's of the struct, written
 * from it, and made nodes, once, when something reads or adds to it (a
 * real run's facts: 40 members of a connection's were 40 nodes each
 * made, only to be written).  Unlike rs_val_push_struct()'s, any size;
 * the struct stays where it is when @obj is made nodes.  The struct, or
 * NULL (and @obj marked) when out of memory or @obj is not an empty
 * object.
 */
void *rs_val_obj_struct(struct rs_val *obj, const struct rs_val_struct *ops,
			size_t size);
/* @v's struct while it still is one of @ops's, else NULL. */
void *rs_val_struct_of(const struct rs_val *v,
		       const struct rs_val_struct *ops);
/* @v (a struct) as a tree of its own, to tell; NULL when out of memory
 * or not a struct. */
struct rs_val *rs_val_struct_tree(const struct rs_val *v);
/* The same in @buf, as rs_val_of_fields_on(): NULL when it does not
 * fit.  A member the struct links (its facts) is linked, not copied. */
struct rs_val *rs_val_struct_tree_on(void *buf, size_t len,
				     const struct rs_val *v);
/* @size bytes in @c's arena (@c an object or an array), freed with its
 * tree; NULL (and @c marked) when out of memory.  For a list's structs. */
void *rs_val_alloc(struct rs_val *c, size_t size);
/*
 * An empty object keyed @key in @near's arena (@near a container or a
 * struct item, left as it is), in no object yet: a struct item's member
 * kept as a tree of its own (a real run's object entry's facts), which
 * its @members links with rs_val_link() each time it is made, not
 * copied.  NULL (and @near marked) when out of memory.
 */
struct rs_val *rs_val_obj_in(struct rs_val *near, const char *key);
/* @m (from rs_val_obj_in()) as @obj's last member, by its key; @m may
 * have been linked to another object before (one written and let go). */
void rs_val_link(struct rs_val *obj, struct rs_val *m);
/* @key's member (if any) first of @obj's. */
void rs_val_move_first(struct rs_val *obj, const char *key);

const struct rs_val *rs_val_get(const struct rs_val *obj, const char *key);
/* The same, to add to what it finds. */
struct rs_val *rs_val_get_mut(struct rs_val *obj, const char *key);
const char *rs_val_get_str(const struct rs_val *obj, const char *key);
uint64_t rs_val_get_u64(const struct rs_val *obj, const char *key);
double rs_val_get_double(const struct rs_val *obj, const char *key);
int64_t rs_val_get_i64(const struct rs_val *obj, const char *key);
bool rs_val_get_bool(const struct rs_val *obj, const char *key);

/* A value as a C type, converted as json-c's getters did (a number
 * from a bool or a numeric string, a bool true when not zero or empty);
 * a string only from a string (NULL otherwise). */
const char *rs_val_str_of(const struct rs_val *v);
uint64_t rs_val_u64_of(const struct rs_val *v);
int64_t rs_val_i64_of(const struct rs_val *v);
double rs_val_double_of(const struct rs_val *v);
bool rs_val_bool_of(const struct rs_val *v);
/* A string's text, or any other value's JSON (PLAIN) in @buf, cut to
 * fit, as json-c's json_object_get_string() gave it; NULL for NULL. */
const char *rs_val_text_of(const struct rs_val *v, char *buf, size_t len);

/* Reading a tree: its type, the length of an array (or the members of an
 * object), the item of an array at @i. */
enum rs_val_type rs_val_type_of(const struct rs_val *v);
size_t rs_val_len(const struct rs_val *v);
const struct rs_val *rs_val_at(const struct rs_val *arr, size_t i);
/* An object's members in order: the first (NULL: none), the one after
 * @member, and a member's key. */
const struct rs_val *rs_val_first(const struct rs_val *obj);
const struct rs_val *rs_val_next(const struct rs_val *member);
const char *rs_val_key(const struct rs_val *member);
#define rs_val_foreach(obj, m) \
	for (const struct rs_val *m = rs_val_first(obj); m; \
	     m = rs_val_next(m))

/* @child (a tree of its own) copied into @arr's arena, compact, and
 * freed: the copy is the one to change from then on.  For an entry built
 * on its own and kept in a long list (the record's): its own arena would
 * be a chunk each, half empty. */
struct rs_val *rs_val_push_moved(struct rs_val *arr, struct rs_val *child);
/* From now on, what is added to @root's tree allocates under a lock of
 * the tree's: threads may add to different containers of it at once
 * (adding to the same one is still the caller's to serialize).  0,
 * -ENOMEM, or -EINVAL when @root is not a tree's root. */
int rs_val_share(struct rs_val *root);
/* @v to be freed once more with rs_val_free(): the same tree when @v is
 * a tree's root, else a copy.  Added to a container, a root held so is
 * copied. */
struct rs_val *rs_val_ref(const struct rs_val *v);
/* A tree of its own with @v's contents (NULL when out of memory). */
struct rs_val *rs_val_copy(const struct rs_val *v);
/* Same type and contents; an object's members in any order. */
bool rs_val_equal(const struct rs_val *a, const struct rs_val *b);
/* A tree of @j's contents, for a JSON file read with json-c; doubles
 * are written again as they were read. */
struct rs_val *rs_val_from_json(struct json_object *j);
/* A tree of JSON text; NULL when it is not JSON or out of memory. */
struct rs_val *rs_val_parse(const char *text);

/* As json-c's json_object_to_json_string_ext() wrote it with
 * NOSLASHESCAPE and PRETTY|SPACED (@pretty) or PLAIN. */
int rs_val_write_json(FILE *f, const struct rs_val *v, bool pretty);
/* The same, handed to @put in pieces of up to 256 KiB (one write each
 * for a file, rs_out_write()): 0; -ENOMEM; or -EIO when @put failed
 * (< 0), after which nothing more was handed to it. */
int rs_val_write_json_to(const struct rs_val *v, bool pretty,
			 int (*put)(void *arg, const void *buf, size_t n),
			 void *arg);
/* The same, without the newline, as a string to free(). */
char *rs_val_json_string(const struct rs_val *v, bool pretty);

/* @loc (NULL: nothing) as @e's "file", "line" and "col".  Inline: not a
 * plugin's call (struct rs_loc is not public). */
static inline void rs_val_put_loc(struct rs_val *e, const struct rs_loc *loc)
{
	if (!loc)
		return;
	rs_val_put_str(e, "file", loc->file);
	rs_val_put_u64(e, "line", loc->line);
	rs_val_put_u64(e, "col", loc->col);
}

/* A string member of @obj, "" when it has none: for printing. */
static inline const char *rs_val_text(const struct rs_val *obj,
				      const char *key)
{
	const char *s = rs_val_get_str(obj, key);

	return s ? s : "";
}

#endif
