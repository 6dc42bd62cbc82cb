// SPDX-License-Identifier: MIT
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "alloc.h"
#include "diag.h"
#include "dom.h"

#define MAX_DEPTH 64 /* deeper nesting is hostile, not a scenario */

/*
 * The tree lives in an arena: nodes (a collection's items are an array
 * of them) and their texts are carved from big chunks and freed with
 * them.  A node each its own
 * malloc() cost a third of a validate in malloc and free (callgrind, 35k
 * objects), and 16 bytes of malloc's own per node.  A chunk is a huge
 * page (rs_malloc_huge()): filling 4 KiB pages one fault at a time was
 * a quarter of a validate of 100k objects.
 */
#define CHUNK (RS_HUGE_PAGE - sizeof(struct rs_doc_chunk))

/* A node's start is a 28-bit field: the file's last index must fit. */
_Static_assert(RS_DOC_MAX < 1u << 28, "RS_DOC_MAX past a node's start");
_Static_assert(sizeof(struct rs_node) == 16, "a node is 16 bytes");

struct rs_doc_chunk {
	struct rs_doc_chunk *next;
	size_t used, cap;
	bool big;               /* a collection's items, in big_chunks[] */
	bool own;               /* one block (rs_doc_release()) */
	/* A node finds its document's file and lines here: a node's
	 * chunk is a huge page, aligned to its size (rs_malloc_huge()),
	 * so its head is the node's address rounded down. */
	struct rs_doc_src *src;
	max_align_t data[];
};

/*
 * What a location needs that its node does not hold: a node keeps only
 * libyaml's index of its start, and its line and column are found from
 * where each line starts.  Kept per node they were 16 of a node's 48
 * bytes (168 bytes an object); this is 4 bytes a line.
 */
struct rs_doc_src {
	const char *file;
	struct rs_node *root;
	/* Line i (0-based) starts at index line[i].  A line no node
	 * starts on holds the next one's start, so that the last line
	 * starting at or before an index is that index's line. */
	uint32_t *line;
	unsigned nlines, cap;
	/* The non-empty scalars' starts and ends, in file order (so by
	 * start), while the text is: a node has no room for its end, and
	 * a collection's is after its items. */
	uint32_t (*ends)[2];
	unsigned nends, ends_cap;
};

/*
 * A collection's items are one array of nodes, and one of more than a
 * quarter of a chunk (a section of 22k objects) has a chunk of its own,
 * whose nodes past its first huge page would round down to the middle
 * of the array.  They are few (one a big section): they are looked up
 * here, by address, before rounding.  A location is asked for from any
 * thread; the documents are loaded and freed from one at a time.
 */
static pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rs_doc_chunk **big_chunks;
static unsigned big_cap;
static atomic_uint big_n;

static int big_add(struct rs_doc_chunk *c)
{
	struct rs_doc_chunk **a;
	unsigned n;
	int r = 0;

	pthread_mutex_lock(&big_lock);
	n = atomic_load(&big_n);
	a = rs_grow(big_chunks, n, &big_cap, sizeof(*a));
	if (a) {
		big_chunks = a;
		a[n] = c;
		atomic_store(&big_n, n + 1);
	} else {
		r = -ENOMEM;
	}
	pthread_mutex_unlock(&big_lock);
	return r;
}

static void big_del(const struct rs_doc_chunk *c)
{
	unsigned n;

	pthread_mutex_lock(&big_lock);
	n = atomic_load(&big_n);
	for (unsigned i = 0; i < n; i++)
		if (big_chunks[i] == c) {
			big_chunks[i] = big_chunks[n - 1];
			atomic_store(&big_n, n - 1);
			break;
		}
	pthread_mutex_unlock(&big_lock);
}

static struct rs_doc_src *src_of(const struct rs_node *n)
{
	uintptr_t head = (uintptr_t)n & ~(uintptr_t)(RS_HUGE_PAGE - 1);
	struct rs_doc_src *src = NULL;

	if (atomic_load(&big_n)) {
		pthread_mutex_lock(&big_lock);
		for (unsigned i = 0; i < atomic_load(&big_n); i++) {
			const struct rs_doc_chunk *c = big_chunks[i];
			const char *p = (const char *)n, *lo = (char *)c->data;

			if (p >= lo && p < lo + c->used)
				src = c->src;
		}
		pthread_mutex_unlock(&big_lock);
		if (src)
			return src;
	}
	return ((const struct rs_doc_chunk *)head)->src;
}

const struct rs_loc *rs_node_loc_to(const struct rs_node *n,
				    struct rs_loc *ret)
{
	const struct rs_doc_src *src;
	unsigned lo = 0, hi;

	if (!n)
		return NULL;
	src = src_of(n);
	/* The last line starting at or before n->start: line[0] is at
	 * or before the first node. */
	hi = src->nlines;
	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;

		if (src->line[mid] <= n->start)
			lo = mid;
		else
			hi = mid;
	}
	ret->file = src->file;
	ret->line = lo + 1;
	ret->col = n->start - (src->nlines ? src->line[lo] : 0) + 1;
	return ret;
}

const char *rs_node_file(const struct rs_node *n)
{
	return src_of(n)->file;
}

/*
 * The collection below @c whose item @n is, and @n's index there.  Items
 * are in the file's order and do not overlap, except that an empty
 * value is a point that may be where the next item starts: the item
 * holding @n is the last one starting at or before it, or one before
 * that starting at the same place.
 */
static struct rs_node *parent_of(struct rs_node *c, const struct rs_node *n,
				 unsigned *ret_i)
{
	unsigned lo = 0, hi = c->n;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (c->items[mid].start <= n->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (unsigned i = lo; i-- > 0;) {
		struct rs_node *x = &c->items[i], *p;

		if (x == n) {
			*ret_i = i;
			return c;
		}
		if (x->type != RS_NODE_SCALAR && (p = parent_of(x, n, ret_i)))
			return p;
		if (x->start < n->start)
			break;
	}
	return NULL;
}

struct rs_node *rs_node_key(const struct rs_node *n)
{
	struct rs_node *root = n ? src_of(n)->root : NULL, *p;
	unsigned i;

	if (!root || root == n || root->type == RS_NODE_SCALAR)
		return NULL;
	p = parent_of(root, n, &i);
	return p && p->type == RS_NODE_MAP && i % 2 ? &p->items[i - 1] : NULL;
}

/* A node starts at @m: the lines up to its own now have their start.
 * libyaml's marks only move forward, and its index and column count
 * the same characters, so their difference is where the line starts. */
static int line_seen(struct rs_doc_src *src, const yaml_mark_t *m)
{
	uint32_t start = m->index - m->column;

	while (src->nlines <= m->line) {
		uint32_t *line = rs_grow(src->line, src->nlines, &src->cap,
					 sizeof(*line));

		if (!line)
			return -ENOMEM;
		src->line = line;
		src->line[src->nlines++] = start;
	}
	return 0;
}

void *rs_doc_alloc(struct rs_doc *doc, size_t size)
{
	struct rs_doc_chunk *c = doc->arena;
	/* Nodes, pointers and text: a pointer's alignment is enough. */
	size_t need = (size + sizeof(void *) - 1) & ~(sizeof(void *) - 1);
	void *p;

	if (!c || c->cap - c->used < need) {
		size_t cap = need > CHUNK / 4 ? need : CHUNK;

		c = cap == CHUNK ? rs_malloc_huge(RS_HUGE_PAGE) :
				   rs_malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->used = 0;
		c->cap = cap;
		c->big = false;
		c->own = cap != CHUNK;
		c->src = doc->src;
		/* A big one goes behind the current chunk, which keeps
		 * its room for the small ones. */
		if (cap > CHUNK && doc->arena) {
			c->next = doc->arena->next;
			doc->arena->next = c;
		} else {
			c->next = doc->arena;
			doc->arena = c;
		}
	}
	p = (char *)c->data + c->used;
	c->used += need;
	return memset(p, 0, size);
}

bool rs_doc_release(struct rs_doc *doc, void *p)
{
	for (struct rs_doc_chunk **at = &doc->arena; *at; at = &(*at)->next) {
		struct rs_doc_chunk *c = *at;

		if (c->own && (void *)c->data == p) {
			*at = c->next;
			rs_free(c);
			return true;
		}
	}
	return false;
}

void *rs_doc_shrink(struct rs_doc *doc, void *p, size_t size)
{
	for (struct rs_doc_chunk **at = &doc->arena; *at; at = &(*at)->next) {
		struct rs_doc_chunk *c = *at;

		if (c->own && (void *)c->data == p) {
			if (size >= c->cap)
				return p;
			c = rs_reallocarray(c, 1, sizeof(*c) + size);
			if (!c)
				return p;
			c->cap = c->used = size;
			*at = c;
			return c->data;
		}
	}
	return p;
}

char *rs_doc_strndup(struct rs_doc *doc, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *d = rs_doc_alloc(doc, len + 1);

	if (d)
		memcpy(d, s, len);
	return d;
}

/*
 * The nodes of the collections being read, on one stack: a collection's
 * items are the top of it from where it started, and at its end they
 * are copied to the arena at their final count, in place of the
 * pointers to them the tree held before.  An open collection is an
 * index here, as the stack moves when it grows.
 */
struct pending {
	struct rs_node *items;
	unsigned n, cap;
};

static int pending_push(struct pending *p, const struct rs_node *n)
{
	struct rs_node *items = rs_grow(p->items, p->n, &p->cap,
					sizeof(*items));

	if (!items)
		return -ENOMEM;
	p->items = items;
	p->items[p->n++] = *n;
	return 0;
}

/* @n nodes in the arena, together, then @tail bytes: a big array in a
 * chunk of its own, a huge page's worth or more (see big_add()). */
static void *nodes_alloc(struct rs_doc *doc, size_t tail, unsigned n)
{
	size_t size = (size_t)n * sizeof(struct rs_node) + tail;
	struct rs_doc_chunk *c;

	if (size <= CHUNK / 4)
		return rs_doc_alloc(doc, size);
	/* Not a huge page: the rest of the last one would be resident
	 * and unused (1.4 MiB for a section of 25k objects). */
	c = rs_malloc(sizeof(*c) + size);
	if (!c)
		return NULL;
	c->used = c->cap = size;
	c->big = true;
	c->own = false;
	c->src = doc->src;
	if (big_add(c) < 0) {
		rs_free(c);
		return NULL;
	}
	/* Behind the current chunk, which keeps its room. */
	if (doc->arena) {
		c->next = doc->arena->next;
		doc->arena->next = c;
	} else {
		c->next = NULL;
		doc->arena = c;
	}
	return c->data;
}

/* Collection @ci of the stack, whose items start at @base, is complete
 * and ends at @end: its items, then its end, to the arena (an empty
 * one's too: it has an end).  The end goes after the items, not
 * before: there it left them 4 bytes off their 8-byte alignment
 * (UBSan), and the arena rounds to 8 either way. */
static int pending_close(struct rs_doc *doc, struct pending *p,
			 unsigned ci, unsigned base, uint32_t end)
{
	struct rs_node *c = &p->items[ci];
	unsigned n = p->n - base;
	struct rs_node *items = nodes_alloc(doc, sizeof(uint32_t), n);

	if (!items)
		return -ENOMEM;
	memcpy(items, p->items + base, n * sizeof(*items));
	memcpy(items + n, &end, sizeof(end));
	c->n = n;
	c->items = items;
	p->n = base;
	return 0;
}

/* A scalar from @start to @end: an empty one says so in its style, the
 * others' ends go to the table. */
static int scalar_end(struct rs_doc_src *src, struct rs_node *n,
		      uint32_t end)
{
	uint32_t (*ends)[2];

	if (end == n->start) {
		n->style = RS_STYLE_EMPTY;
		return 0;
	}
	ends = rs_grow(src->ends, src->nends, &src->ends_cap,
		       sizeof(*ends));
	if (!ends)
		return -ENOMEM;
	src->ends = ends;
	src->ends[src->nends][0] = n->start;
	src->ends[src->nends++][1] = end;
	return 0;
}

uint32_t rs_node_end(const struct rs_node *n)
{
	const struct rs_doc_src *src;
	unsigned lo = 0, hi;

	if (n->type != RS_NODE_SCALAR) {
		uint32_t end;

		memcpy(&end, n->items + n->n, sizeof(end));
		return end;
	}
	if (n->style == RS_STYLE_EMPTY)
		return n->start;
	src = src_of(n);
	hi = src->nends;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (src->ends[mid][0] < n->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Gone with the text: its start, for lack of better. */
	return lo < src->nends && src->ends[lo][0] == n->start ?
	       src->ends[lo][1] : n->start;
}

void rs_doc_ends_free(struct rs_doc *doc)
{
	if (!doc->src)
		return;
	rs_free(doc->src->ends);
	doc->src->ends = NULL;
	doc->src->nends = doc->src->ends_cap = 0;
}

/*
 * Short scalars that repeat (every key, and values such as "rc" or
 * "4096") are one copy in the arena: a direct-mapped cache by hash, a
 * slot holding the latest text that landed on it.  Kept for the first
 * instead, the slots all went to the first 4096 unique ids (a file's
 * PDs and CQs), and every later "4096", "rc" or "local_write" was a
 * copy of its own: 640k copies in a validate of 100k objects, 190k
 * now (42 bytes an object).  A text that repeats within a few thousand
 * others keeps its slot.  Nothing writes into a node's text (a ${}
 * substitution points the node at a new one), so nodes may share it.
 */
#define INTERN_SLOTS 4096u
#define INTERN_LEN 24u

struct interned {
	char *text;
	size_t len;
};

static char *intern(struct rs_doc *doc, struct interned *cache,
		    const char *v, size_t len)
{
	uint32_t h = 2166136261u;
	struct interned *slot;

	/* A text with a \0 is cut there by its copy: not comparable. */
	if (len > INTERN_LEN || memchr(v, '\0', len))
		return rs_doc_strndup(doc, v, len);
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)v[i]) * 16777619u;
	slot = &cache[h & (INTERN_SLOTS - 1)];
	if (slot->text && slot->len == len && !memcmp(slot->text, v, len))
		return slot->text;
	slot->text = rs_doc_strndup(doc, v, len);
	slot->len = len;
	return slot->text;
}

/* A node of @type starting at @m, into @n: its line's start is known. */
static int node_init(struct rs_doc *doc, struct rs_node *n,
		     enum rs_node_type type, const yaml_mark_t *m)
{
	memset(n, 0, sizeof(*n));
	n->type = type;
	n->start = m->index;
	return line_seen(doc->src, m);
}

static const char *type_name(enum rs_node_type t)
{
	return t == RS_NODE_MAP ? "mapping" : t == RS_NODE_SEQ ? "sequence" :
	       "scalar";
}

/* Is there a ${ on the line of @off, before it?  A plain scalar in a flow
 * collection cannot hold '{', so {n: ${x}} is a YAML error. */
static bool param_in_flow(const char *text, size_t off)
{
	size_t i = off;

	while (i > 0 && text[i - 1] != '\n')
		i--;
	for (; i + 1 < off + 2 && text[i] && text[i] != '\n'; i++)
		if (text[i] == '$' && text[i + 1] == '{')
			return true;
	return false;
}

int rs_doc_parse(struct rs_doc *doc, const char *file, char *text,
		 size_t len, struct rs_diag *d)
{
	/* The open collections, as indexes into @pend (the root is its
	 * first node), and where each one's items start there. */
	unsigned stack[MAX_DEPTH + 1], base[MAX_DEPTH + 1];
	struct pending pend = { 0 };
	struct interned *cache = rs_calloc(INTERN_SLOTS, sizeof(*cache));
	int depth = 0, r = 0;
	unsigned nodes = 0;
	yaml_parser_t p;
	bool done = false;

	memset(doc, 0, sizeof(*doc));
	doc->file = file;
	doc->text = text;
	doc->len = len;
	doc->src = rs_calloc(1, sizeof(*doc->src));
	if (!cache || !doc->src || !yaml_parser_initialize(&p)) {
		rs_free(cache);
		rs_free(doc->src);
		doc->src = NULL;
		return -ENOMEM;
	}
	doc->src->file = file;
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);

	while (!done) {
		struct rs_node node, *n = NULL;
		struct rs_node *top = depth ? &pend.items[stack[depth - 1]] :
				      NULL;
		yaml_mark_t at_mark;
		/* How many items @top has so far. */
		unsigned top_n = depth ? pend.n - base[depth - 1] : 0;
		yaml_event_t ev;

		if (!yaml_parser_parse(&p, &ev)) {
			const yaml_mark_t *pm = &p.problem_mark, *cm = &p.context_mark;
			struct rs_loc loc = { file, pm->line + 1, pm->column + 1 };
			char at[64] = "";

			if (p.error == YAML_MEMORY_ERROR) {
				r = -ENOMEM;
				break;
			}
			/* libyaml notices an unclosed quote or bracket only
			 * where it gives up, lines later (or past the end):
			 * point at what was left open, and say where.  Other
			 * errors (indentation, tabs) are where it gave up. */
			if (p.context && cm->line < pm->line &&
			    (strstr(p.context, "quoted scalar") ||
			     strstr(p.context, "flow "))) {
				loc.line = cm->line + 1;
				loc.col = cm->column + 1;
				snprintf(at, sizeof(at), " (gave up at %zu:%zu)",
					 pm->line + 1, pm->column + 1);
			}
			rs_diag_error(d, &loc, "YAML syntax error: %s%s%s%s%s",
				      p.problem ? p.problem : "unknown",
				      p.context ? " " : "",
				      p.context ? p.context : "", at,
				      param_in_flow(text, pm->index) ?
				      " (in {...} or [...] quote it: \"${name}\")" : "");
			r = -EINVAL;
			break;
		}
		/* About 70 bytes a node with its text and its place in
		 * its parent's items: 128 MiB of "0," would be 4.7 GB of
		 * tree.  A million objects take half the bound. */
		if ((ev.type == YAML_SCALAR_EVENT ||
		     ev.type == YAML_SEQUENCE_START_EVENT ||
		     ev.type == YAML_MAPPING_START_EVENT) &&
		    ++nodes > RS_DOC_NODES_MAX) {
			struct rs_loc loc = { file, ev.start_mark.line + 1,
					      ev.start_mark.column + 1 };

			rs_diag_error(d, &loc, "more than %u YAML nodes "
				      "(scalars, mappings, sequences), the "
				      "most a scenario may hold",
				      RS_DOC_NODES_MAX);
			yaml_event_delete(&ev);
			r = -EINVAL;
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (pend.n) {
				struct rs_loc loc = { file,
					ev.start_mark.line + 1,
					ev.start_mark.column + 1 };

				rs_diag_error(d, &loc, "a scenario file holds "
					      "one YAML document");
				r = -EINVAL;
			}
			break;
		case YAML_ALIAS_EVENT: {
			struct rs_loc loc = { file, ev.start_mark.line + 1,
					      ev.start_mark.column + 1 };

			/* Aliases would let a tiny file expand to a huge
			 * graph; scenarios have params for reuse. */
			rs_diag_error(d, &loc, "YAML aliases are not supported "
				      "(use params)");
			r = -EINVAL;
			break;
		}
		case YAML_SCALAR_EVENT:
			n = &node;
			if (node_init(doc, n, RS_NODE_SCALAR,
				      &ev.start_mark) < 0 ||
			    !(n->value = intern(doc, cache,
					(char *)ev.data.scalar.value,
					ev.data.scalar.length))) {
				n = NULL;
				r = -ENOMEM;
				break;
			}
			n->style = ev.data.scalar.style ==
				   YAML_PLAIN_SCALAR_STYLE ? RS_STYLE_PLAIN :
				   RS_STYLE_QUOTED;
			/* "\0" in a double-quoted scalar: C strings end there,
			 * so the loader must refuse it, not read half. */
			if (memchr(ev.data.scalar.value, '\0',
				   ev.data.scalar.length)) {
				n->style = RS_STYLE_QUOTED_NUL;
				doc->nul = true;
			}
			if (scalar_end(doc->src, n, ev.end_mark.index) < 0) {
				n = NULL;
				r = -ENOMEM;
			}
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (depth == MAX_DEPTH) {
				struct rs_loc loc = { file, ev.start_mark.line + 1,
						      ev.start_mark.column + 1 };

				rs_diag_error(d, &loc, "nesting deeper than %d "
					      "levels", MAX_DEPTH);
				r = -EINVAL;
				break;
			}
			n = &node;
			if (node_init(doc, n,
				      ev.type == YAML_SEQUENCE_START_EVENT ?
				      RS_NODE_SEQ : RS_NODE_MAP,
				      &ev.start_mark) < 0) {
				n = NULL;
				r = -ENOMEM;
			}
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			if (pending_close(doc, &pend, stack[depth],
					  base[depth], ev.end_mark.index) < 0)
				r = -ENOMEM;
			break;
		default:
			break;
		}
		at_mark = ev.start_mark;
		yaml_event_delete(&ev);
		if (r < 0 || !n)
			goto next;

		if (top && top->type == RS_NODE_MAP && top_n % 2 == 0 &&
		    n->type != RS_NODE_SCALAR) {
			/* Keys must be scalars: the schema never has others.
			 * Not in the arena yet: where libyaml said. */
			struct rs_loc loc = { file, at_mark.line + 1,
					      at_mark.column + 1 };

			rs_diag_error(d, &loc,
				      "a mapping key must be a "
				      "scalar, not a %s", type_name(n->type));
			r = -EINVAL;
			goto next;
		}
		if (pending_push(&pend, n) < 0) {
			r = -ENOMEM;
			goto next;
		}
		if (n->type != RS_NODE_SCALAR) {
			stack[depth] = pend.n - 1;
			base[depth++] = pend.n;
		}
next:
		if (r < 0)
			break;
	}
	yaml_parser_delete(&p);
	/* The root, complete, to the arena too. */
	if (!r && pend.n) {
		doc->root = nodes_alloc(doc, 0, 1);
		if (doc->root)
			*doc->root = pend.items[0];
		else
			r = -ENOMEM;
		doc->src->root = doc->root;
	}
	rs_free(pend.items);
	rs_free(cache);
	if (r < 0) {
		rs_doc_arena_free(doc);
		doc->root = NULL;
		return r;
	}
	return 0;
}

/* A file past RS_DOC_MAX: said at its start, as nothing of it was read
 * (or nothing of it will be). */
static int too_big(const char *path, struct rs_diag *d)
{
	struct rs_loc loc = { path, 1, 1 };

	rs_diag_error(d, &loc, "the file is longer than %u MiB, the most a "
		      "scenario may be", RS_DOC_MAX / (1024u * 1024u));
	return -EFBIG;
}

/*
 * The whole file, at most RS_DOC_MAX bytes of it: a regular file's size
 * is known before reading; a pipe, stdin or a device (/dev/zero) is read
 * until one byte past the limit, so neither asks for more memory.
 */
int rs_doc_load(struct rs_doc *doc, const char *path, struct rs_diag *d)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char *text = NULL;
	size_t len = 0, cap = 0;
	struct stat st;
	int r;

	if (!f) {
		r = -errno;
		rs_diag_error(d, NULL, "%s: %s", path, strerror(errno));
		return r;
	}
	if (fstat(fileno(f), &st))
		st.st_mode = 0;  /* unknown: read, to the limit */
	if (S_ISDIR(st.st_mode)) {
		r = -EISDIR;
		rs_diag_error(d, NULL, "%s: %s", path, strerror(EISDIR));
		goto fail;
	}
	if (S_ISREG(st.st_mode) && st.st_size > (off_t)RS_DOC_MAX) {
		r = too_big(path, d);
		goto fail;
	}
	for (;;) {
		size_t got;

		/* At most room for the byte past the limit, and the NUL. */
		if (cap - len < 65536 && cap < (size_t)RS_DOC_MAX + 2) {
			size_t want = cap ? cap * 2 : 65536;
			char *t;

			if (want > (size_t)RS_DOC_MAX + 2)
				want = (size_t)RS_DOC_MAX + 2;
			t = rs_reallocarray(text, want, 1);
			if (!t) {
				r = -ENOMEM;
				goto fail;
			}
			text = t;
			cap = want;
		}
		got = fread(text + len, 1, cap - len - 1, f);
		len += got;
		if (len > RS_DOC_MAX) {
			r = too_big(path, d);
			goto fail;
		}
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		r = -EIO;
		rs_diag_error(d, NULL, "%s: read error", path);
		goto fail;
	}
	text[len] = '\0';
	if (f != stdin)
		fclose(f);
	r = rs_doc_parse(doc, path, text, len, d);
	if (r < 0) {
		rs_free(text);
		doc->text = NULL;
	}
	return r;
fail:
	if (f != stdin)
		fclose(f);
	rs_free(text);
	return r;
}

void rs_doc_arena_free(struct rs_doc *doc)
{
	while (doc->arena) {
		struct rs_doc_chunk *c = doc->arena;

		doc->arena = c->next;
		if (c->big)
			big_del(c);
		if (c->own || c->big)
			rs_free(c);
		else
			rs_free_huge(c, sizeof(*c) + c->used);
	}
	if (doc->src) {
		rs_free(doc->src->line);
		rs_free(doc->src->ends);
	}
	rs_free(doc->src);
	doc->src = NULL;
}

void rs_doc_free(struct rs_doc *doc)
{
	rs_doc_arena_free(doc);
	rs_free(doc->text);
	memset(doc, 0, sizeof(*doc));
}

struct rs_node *rs_node_get(const struct rs_node *map, const char *key)
{
	if (!map || map->type != RS_NODE_MAP)
		return NULL;
	/* The first byte before strcmp(): most keys asked of a mapping
	 * are not in it (a kind's checks ask for the fields it may
	 * refuse, 21,000 times at N=1000 in the set-up bench). */
	for (size_t i = 0; i + 1 < map->n; i += 2)
		if (map->items[i].type == RS_NODE_SCALAR &&
		    map->items[i].value[0] == key[0] &&
		    !strcmp(map->items[i].value, key))
			return &map->items[i + 1];
	return NULL;
}

bool rs_node_key_starts(const struct rs_node *map, char c)
{
	if (!map || map->type != RS_NODE_MAP)
		return false;
	for (size_t i = 0; i + 1 < map->n; i += 2)
		if (map->items[i].type == RS_NODE_SCALAR &&
		    map->items[i].value[0] == c)
			return true;
	return false;
}

const struct rs_loc *rs_doc_entry_loc_to(const struct rs_doc *doc,
					 const char *section, unsigned i,
					 const char *key, struct rs_loc *ret)
{
	struct rs_node *seq = rs_node_get(doc->root, section);
	struct rs_node *n = seq && i < seq->n ? &seq->items[i] : NULL;
	struct rs_node *v = n ? rs_node_get(n, key) : NULL;

	return rs_node_loc_to(v ? v : n ? n : doc->root, ret);
}

struct rs_node *rs_node_at(struct rs_node *n, size_t off)
{
	while (n && n->type != RS_NODE_SCALAR) {
		struct rs_node *in = NULL;

		for (size_t i = 0; i < n->n; i++)
			if (n->items[i].start <= off &&
			    off < rs_node_end(&n->items[i])) {
				in = &n->items[i];
				break;
			}
		if (!in)
			break;
		n = in;
	}
	return n;
}
