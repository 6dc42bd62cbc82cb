/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_DOM_H
#define RDMASCN_DOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/*
 * The scenario file as libyaml saw it: every node keeps where it starts
 * (1-based line and column, byte offset) and where it ends, so that every
 * later message can point into the file.  libcyaml (1.3.1) has no location
 * API; this tree is how rdmascn knows where things are.
 */
enum rs_node_type { RS_NODE_SCALAR, RS_NODE_SEQ, RS_NODE_MAP };

/* A scalar's style, in two bits: only a double-quoted one holds a \0
 * (an escape), and only a plain one is empty (start == end). */
enum rs_node_style {
	RS_STYLE_QUOTED,
	RS_STYLE_QUOTED_NUL,   /* its text held a \0: value is cut there */
	RS_STYLE_PLAIN,
	RS_STYLE_EMPTY,        /* plain, a point between tokens */
};

struct rs_node {
	/* One or the other, by type: 8 bytes a node less (84 an object).
	 * A collection's value is not NULL: read a node of unknown type
	 * with rs_node_text(). */
	union {
		char *value;            /* scalar text (after ${} substitution) */
		/* Exactly n of them, in place: item i is &items[i].  An
		 * array of pointers to them was 8 bytes a node more. */
		struct rs_node *items;
	};
	/* Where it starts in the file (libyaml's mark index: bytes, for
	 * ASCII; 28 bits hold an index of a RS_DOC_MAX file), and the
	 * item count.  No line, column nor file: they are worked out
	 * from @start when a message needs them (rs_node_loc()), nor its
	 * key (rs_node_key()), nor its end (rs_node_end()). */
	uint32_t start : 28;
	uint32_t type : 2;     /* enum rs_node_type */
	uint32_t style : 2;    /* a scalar's enum rs_node_style */
	uint32_t n;
	/* 16 bytes, not 80: 10.5 million of them for a million
	 * objects. */
};

struct rs_doc_chunk;
struct rs_doc_src;

struct rs_doc {
	const char *file;
	char *text;
	size_t len;
	struct rs_node *root;
	bool nul;              /* some scalar has nul set */
	struct rs_doc_chunk *arena; /* where the nodes and their texts are */
	struct rs_doc_src *src; /* the file's name and where its lines start */
};

struct rs_diag;

/* The longest scenario file, in bytes: 128 MiB holds a million objects
 * (bench/gen_scenario.sh 1000000 is 68 MiB). */
#define RS_DOC_MAX (128u * 1024u * 1024u)
/* The most nodes (scalars, mappings, sequences) its tree may hold:
 * gen_scenario.sh 1000000 makes 10.5 million, about 60 bytes each. */
#define RS_DOC_NODES_MAX 20000000u

/* Read and parse @path ("-" is stdin).  Errors go to @d; returns 0 or
 * -errno (-EINVAL for a syntax error). */
int rs_doc_load(struct rs_doc *doc, const char *path, struct rs_diag *d);
int rs_doc_parse(struct rs_doc *doc, const char *file, char *text,
		 size_t len, struct rs_diag *d);
void rs_doc_free(struct rs_doc *doc);
/* The nodes only (the text stays). */
void rs_doc_arena_free(struct rs_doc *doc);
/* Zeroed memory, or a copy of at most @n bytes of @s, that lives as long
 * as @doc's nodes (a node's value replaced goes here too). */
void *rs_doc_alloc(struct rs_doc *doc, size_t size);
char *rs_doc_strndup(struct rs_doc *doc, const char *s, size_t n);
/* Free @p from @doc's arena now, if rs_doc_alloc() made it a chunk of
 * its own (one bigger than a chunk always is; one of more than a quarter
 * is when the current chunk has no room for it); true if it did.  The
 * rest of the arena goes with the document. */
bool rs_doc_release(struct rs_doc *doc, void *p);
/* Cut @p, a chunk of its own (as above), to its first @size bytes, and
 * give the rest back: where it is now (it may move), or @p as it was
 * when it is not one or there is no memory to move it. */
void *rs_doc_shrink(struct rs_doc *doc, void *p, size_t size);

/*
 * Where @n starts, as libyaml marked it (1-based line and column, and the
 * file), filled into @ret; returns @ret (NULL for a NULL @n).  @n must be
 * a node of a parsed document: its arena chunk knows the document.
 */
const struct rs_loc *rs_node_loc_to(const struct rs_node *n,
				    struct rs_loc *ret);
/* The same into a location that lives as long as the enclosing block:
 * pass it on or copy it, never keep the pointer past the block. */
#define rs_node_loc(n) rs_node_loc_to((n), &(struct rs_loc){ 0 })
/* The name of the file @n was read from. */
const char *rs_node_file(const struct rs_node *n);
/* The key node of @n when @n is a mapping's value, else NULL: found
 * from the document's root, for messages. */
struct rs_node *rs_node_key(const struct rs_node *n);

/* Where @n ends (libyaml's end mark index).  A collection's is kept
 * after its items; a scalar's, but for an empty one's, only while the
 * document's text is (rs_doc_ends_free()): their readers are the load's
 * checks of the text, the params and libcyaml's messages. */
uint32_t rs_node_end(const struct rs_node *n);
/* The scalars' ends, once nothing will ask. */
void rs_doc_ends_free(struct rs_doc *doc);

static inline bool rs_node_plain(const struct rs_node *n)
{
	return n->style >= RS_STYLE_PLAIN;
}

static inline bool rs_node_nul(const struct rs_node *n)
{
	return n->style == RS_STYLE_QUOTED_NUL;
}

/* An empty value (a: , - ): a point between tokens. */
static inline bool rs_node_empty(const struct rs_node *n)
{
	return n->type == RS_NODE_SCALAR && n->style == RS_STYLE_EMPTY;
}

/* @n's text when it is a scalar, else NULL. */
static inline const char *rs_node_text(const struct rs_node *n)
{
	return n && n->type == RS_NODE_SCALAR ? n->value : NULL;
}

/* The value node of @key in mapping @map, or NULL. */
struct rs_node *rs_node_get(const struct rs_node *map, const char *key);
/* Does a key of mapping @map begin with byte @c? */
bool rs_node_key_starts(const struct rs_node *map, char c);
/* Where entry @i of the document's top-level list @section is, or its
 * field @key when it has one: that field's value, else the entry, else
 * the document (for a message about a declaration), into @ret. */
const struct rs_loc *rs_doc_entry_loc_to(const struct rs_doc *doc,
					 const char *section, unsigned i,
					 const char *key, struct rs_loc *ret);
#define rs_doc_entry_loc(doc, section, i, key) \
	rs_doc_entry_loc_to((doc), (section), (i), (key), \
			    &(struct rs_loc){ 0 })
/* The innermost node whose range holds byte @off, below @n. */
struct rs_node *rs_node_at(struct rs_node *n, size_t off);

#endif
