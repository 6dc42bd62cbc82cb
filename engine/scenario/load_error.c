// SPDX-License-Identifier: MIT
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_error.h"
#include "params.h"
#include "schema.h"
#include "suggest.h"

void rs_load_log_fn(cyaml_log_t level, void *ctx, const char *fmt,
		    va_list args)
{
	struct rs_load_log *log = ctx;
	struct rs_load_frame *f;
	char line[512];
	size_t len;

	if (level < CYAML_LOG_ERROR)
		return;
	vsnprintf(line, sizeof(line), fmt, args);
	len = strlen(line);
	while (len && line[len - 1] == '\n')
		line[--len] = '\0';
	if (!strncmp(line, "Load: Backtrace:", 16))
		return;
	if (!strncmp(line, "Load: ", 6)) {
		if (!log->msg[0])
			snprintf(log->msg, sizeof(log->msg), "%s", line + 6);
		return;
	}
	if (log->n == RS_LOAD_FRAMES)
		return;
	f = &log->frames[log->n];
	memset(f, 0, sizeof(*f));
	if (sscanf(line, "  in mapping field '%63[^']' (line: %u, column: %u)",
		   f->key, &f->line, &f->col) == 3 ||
	    sscanf(line, "  in mapping (line: %u, column: %u)", &f->line,
		   &f->col) == 2) {
		log->n++;
	} else if (sscanf(line, "  in sequence entry '%*u' (line: %u, column: %u)",
			  &f->line, &f->col) == 2) {
		f->entry = true;
		log->n++;
	}
}

/* Byte offset of 1-based (line, col) in @text. */
static size_t offset_of(const char *text, size_t len, unsigned line,
			unsigned col)
{
	size_t o = 0;

	for (unsigned l = 1; l < line && o < len; o++)
		if (text[o] == '\n')
			l++;
	o += col ? col - 1 : 0;
	return o < len ? o : len;
}

/* Is byte @off in @n?  An empty value ("type: }") has no bytes: libyaml
 * puts it where the next token starts, where no other node starts, and
 * at the end of a file it is where its collections end too. */
static bool holds(const struct rs_node *n, size_t off)
{
	if (n->start <= off && off < rs_node_end(n))
		return true;
	if (n->start == off && rs_node_end(n) == off)
		return true;
	return rs_node_end(n) == off && n->n &&
	       holds(&n->items[n->n - 1], off);
}

/* The chain of DOM nodes from the root down to the one holding @off. */
static unsigned chain(struct rs_node *root, size_t off, struct rs_node **out,
		      unsigned max)
{
	unsigned n = 0;
	struct rs_node *cur = root;

	while (cur && n < max) {
		struct rs_node *in = NULL;

		out[n++] = cur;
		if (cur->type == RS_NODE_SCALAR)
			break;
		for (size_t i = 0; i < cur->n; i++)
			if (holds(&cur->items[i], off)) {
				in = &cur->items[i];
				break;
			}
		cur = in;
	}
	return n;
}

static const char *what(const char *event)
{
	if (!strcmp(event, "SCALAR"))
		return "a scalar";
	if (!strcmp(event, "SEQUENCE_START"))
		return "a sequence";
	if (!strcmp(event, "MAPPING_START"))
		return "a mapping";
	return event;
}

static const char *expected(const char *type)
{
	if (!strcmp(type, "MAPPING"))
		return "a mapping";
	if (!strcmp(type, "SEQUENCE") || !strcmp(type, "SEQUENCE_FIXED"))
		return "a sequence";
	if (!strcmp(type, "FLAGS"))
		return "a list of flags";
	if (!strcmp(type, "STRING"))
		return "a string";
	if (!strcmp(type, "INT") || !strcmp(type, "UINT"))
		return "an integer";
	if (!strcmp(type, "ENUM") || !strcmp(type, "BOOL"))
		return "a name";
	return "a scalar";
}

/* The field path of ch[from..to), dotted, with [i] for entries. */
static void path_to(char *path, size_t len, struct rs_node **ch,
		    unsigned from, unsigned to)
{
	path[0] = '\0';
	for (unsigned i = from; i < to; i++) {
		size_t o = strlen(path);

		const struct rs_node *key = rs_node_key(ch[i]);

		if (key)
			snprintf(path + o, len - o, "%s%s", o ? "." : "",
				 key->value);
		else
			for (size_t j = 0; j < ch[i - 1]->n; j++)
				if (&ch[i - 1]->items[j] == ch[i])
					snprintf(path + o, len - o, "[%zu]", j);
	}
}

/* "did you mean" and every step type, for the unknown @word. */
static void step_types(const char *word, char *buf, size_t len)
{
	struct rs_suggest sg;
	size_t o;

	rs_suggest_init(&sg, word);
	for (unsigned i = 0; i < rs_registry_count(true); i++)
		rs_suggest_add(&sg, rs_registry_at(true, i)->section);
	o = rs_suggest_fmt(&sg, false, buf, len);
	o += snprintf(buf + o, len - o, " (expected one of: ");
	for (unsigned i = 0; i < rs_registry_count(true) && o < len; i++)
		o += snprintf(buf + o, len - o, "%s%s", i ? ", " : "",
			      rs_registry_at(true, i)->section);
	if (o < len)
		snprintf(buf + o, len - o, ")");
}

/* The keys of mapping @v (none unless it is one), offered to @sg. */
static void suggest_keys(struct rs_suggest *sg, const cyaml_schema_value_t *v)
{
	if (!v || v->type != CYAML_MAPPING)
		return;
	for (const cyaml_schema_field_t *f = v->mapping.fields; f->key; f++)
		rs_suggest_add(sg, f->key);
}

/* Index in the chain of the innermost mapping. */
static unsigned innermost_map(struct rs_node **ch, unsigned n)
{
	for (unsigned i = n; i-- > 0;)
		if (ch[i]->type == RS_NODE_MAP)
			return i;
	return 0;
}

/* The innermost mapping around the end of the path that holds @key (the
 * value before it may end deeper, in a mapping of its own), else the
 * innermost mapping. */
static unsigned map_with_key(struct rs_node **ch, unsigned n, const char *key)
{
	for (unsigned i = n; i-- > 0;)
		if (ch[i]->type == RS_NODE_MAP && rs_node_get(ch[i], key))
			return i;
	return innermost_map(ch, n);
}

/* Schema lookup along a DOM path: the field a message is about. */
static const cyaml_schema_value_t *field_value(const cyaml_schema_value_t *v,
					       struct rs_node **ch, unsigned n,
					       unsigned from)
{
	for (unsigned i = from; v && i < n; i++) {
		const struct rs_node *key;

		if (v->type == CYAML_SEQUENCE || v->type == CYAML_SEQUENCE_FIXED) {
			v = v->sequence.entry;
			continue;
		}
		key = v->type == CYAML_MAPPING ? rs_node_key(ch[i]) : NULL;
		if (!key)
			return i == n ? v : NULL;
		const cyaml_schema_field_t *f = v->mapping.fields;

		while (f->key && strcmp(f->key, key->value))
			f++;
		if (!f->key) {
			/* A steps entry: its type key selects the schema. */
			return NULL;
		}
		v = &f->value;
	}
	return v;
}

/* "did you mean" for @word, then " (expected one of: " or "some of" and
 * every name of enum or flags @v. */
static void names_list(const cyaml_schema_value_t *v, const char *word,
		       const char *which, char *buf, size_t len)
{
	const cyaml_strval_t *s = v->enumeration.strings;
	uint32_t n = v->enumeration.count;
	struct rs_suggest sg;
	size_t o;

	rs_suggest_init(&sg, word);
	for (uint32_t i = 0; i < n; i++)
		rs_suggest_add(&sg, s[i].str);
	o = rs_suggest_fmt(&sg, false, buf, len);
	o += snprintf(buf + o, len - o, " (expected %s of: ", which);
	for (uint32_t i = 0; i < n && o < len; i++)
		o += snprintf(buf + o, len - o, "%s%s", i ? ", " : "",
			      s[i].str);
	if (o < len)
		snprintf(buf + o, len - o, ")");
}

static void range_of(const cyaml_schema_value_t *v, char *buf, size_t len)
{
	int64_t min;
	uint64_t max;

	rs_schema_int_range(v, &min, &max);
	snprintf(buf, len, "%" PRId64 "..%" PRIu64, min, max);
}

static bool numeric(const char *s)
{
	char *end;

	if (*s == '-' || *s == '+')
		s++;
	if (!*s)
		return false;
	strtoull(s, &end, 0);
	return *end == '\0' || strspn(s, "0123456789") == strlen(s);
}

int rs_where_at(struct rs_node *root, size_t off, struct rs_where *w)
{
	struct rs_node **ch = w->ch;
	struct rs_node *key;
	unsigned n, section_no = 0;
	char no[48];

	memset(w, 0, sizeof(*w));
	n = w->n = chain(root, off, ch, RS_WHERE_DEPTH);

	/* Which object: a section entry (or a step entry, nested ones too). */
	if (n >= 3 && (key = rs_node_key(ch[1]))) {
		const char *section = key->value;

		w->kind = rs_registry_find(section, false);
		if (w->kind || !strcmp(section, "steps")) {
			w->obj = ch[2];
			w->obj_at = 2;
			for (size_t i = 0; i < ch[1]->n; i++)
				if (&ch[1]->items[i] == w->obj)
					section_no = i + 1;
		}
	}
	if (w->obj && w->kind) {
		struct rs_node *id = rs_node_get(w->obj, "id");

		if (id && id->type == RS_NODE_SCALAR && id->value[0])
			snprintf(w->who, sizeof(w->who), "%s '%s': ",
				 w->kind->name, id->value);
		else
			snprintf(w->who, sizeof(w->who), "%s #%u: ",
				 w->kind->name, section_no);
	} else if (w->obj) {
		/* A steps entry, maybe nested in parallel's steps: number it
		 * by its positions ("2.1"), as the loader names steps. */
		size_t o = snprintf(no, sizeof(no), "%u", section_no);

		for (unsigned i = w->obj_at + 2; i + 1 < n; i++)
			if ((key = rs_node_key(ch[i])) &&
			    !strcmp(key->value, "steps") &&
			    ch[i]->type == RS_NODE_SEQ &&
			    ch[i - 1]->type == RS_NODE_MAP) {
				w->obj = ch[i + 1];
				w->obj_at = i + 1;
				for (size_t j = 0; j < ch[i]->n && o < sizeof(no); j++)
					if (&ch[i]->items[j] == w->obj)
						o += snprintf(no + o, sizeof(no) - o,
							      ".%zu", j + 1);
			}
		if (w->obj->type == RS_NODE_MAP && w->obj->n >= 2) {
			struct rs_node *type = &w->obj->items[0];
			struct rs_node *id = rs_node_get(&w->obj->items[1],
							 "id");

			w->kind = rs_registry_find(type->value, true);
			if (!w->kind) {
				char types[640];

				step_types(type->value, types, sizeof(types));
				if (!strcmp(type->value, "id") ||
				    !strcmp(type->value, "after") ||
				    !strcmp(type->value, "deadline_ms"))
					/* - {id: x, write: {...}} */
					snprintf(w->unknown_step,
						 sizeof(w->unknown_step),
						 "step %s: '%s' goes inside the "
						 "step type, as in - write: "
						 "{%s: ...}", no, type->value,
						 type->value);
				else
					snprintf(w->unknown_step,
						 sizeof(w->unknown_step),
						 "step %s: unknown step type "
						 "'%s'%s", no,
						 type->value, types);
				w->unknown_step_loc = *rs_node_loc(type);
				return -EINVAL;
			}
			if (id && id->type == RS_NODE_SCALAR && id->value[0])
				snprintf(w->who, sizeof(w->who), "step '%s': ",
					 id->value);
			else
				snprintf(w->who, sizeof(w->who), "step %s (%s): ",
					 no, type->value);
			w->obj_at++; /* paths start inside the step type */
		} else {
			snprintf(w->who, sizeof(w->who), "step %s: ", no);
		}
	}
	/* A mapping key is not part of the path to itself. */
	if (n >= 2 && ch[n - 2]->type == RS_NODE_MAP) {
		bool is_key = false;

		for (size_t i = 0; i < ch[n - 2]->n; i += 2)
			is_key |= &ch[n - 2]->items[i] == ch[n - 1];
		n -= is_key;
	}
	path_to(w->path, sizeof(w->path), ch, w->obj ? w->obj_at + 1 : 1, n);
	return 0;
}

void rs_load_error_report(const struct rs_scenario *s,
			  const struct rs_load_log *log, const char *fallback,
			  struct rs_diag *d)
{
	const char *text = s->text ? s->text : s->doc.text;
	size_t len = s->text ? s->text_len : s->doc.len;
	const char *m = log->msg[0] ? log->msg : fallback;
	const cyaml_schema_value_t *v = NULL;
	/* v may point at this one: it must live as long as v does. */
	cyaml_schema_value_t obj_value = { .type = CYAML_MAPPING };
	char msg[1024], buf[768];
	struct rs_suggest sg;
	struct rs_where where, *w = &where;
	struct rs_node **ch = w->ch, *target, *obj;
	const struct rdmascn_kind *kind;
	char *who = w->who, *path = w->path;
	unsigned n, obj_at;
	size_t off = 0;

	if (log->n)
		off = rs_params_orig_offset(s, offset_of(text, len,
			log->frames[0].line, log->frames[0].col));
	if (rs_where_at(s->doc.root, off, w) < 0) {
		rs_diag_error(d, &w->unknown_step_loc, "%s", w->unknown_step);
		return;
	}
	n = w->n;
	obj = w->obj;
	obj_at = w->obj_at;
	kind = w->kind;
	target = ch[n - 1];
	/* An empty value is a point between tokens: its key says more. */
	if (rs_node_empty(target) && rs_node_key(target))
		target = rs_node_key(target);

	if (obj && kind) {
		obj_value.mapping.fields = kind->fields;
		v = field_value(&obj_value, ch, n, obj_at + 1);
	} else if (!obj)
		v = field_value(rs_registry_schema(), ch, n, 1);

	if (!strncmp(m, "Unexpected key: ", 16)) {
		const char *key = m + 16;
		unsigned mi = map_with_key(ch, n, key);

		/* The backtrace points at the previous value; the key is in
		 * the innermost mapping around it. */
		for (size_t j = 0; j + 1 < ch[mi]->n; j += 2)
			if (!strcmp(ch[mi]->items[j].value, key))
				target = &ch[mi]->items[j];
		path_to(path, sizeof(w->path), ch, obj ? obj_at + 1 : 1, mi + 1);
		/* The mapping the key is in: its keys are what was meant. */
		if (obj)
			v = kind ? field_value(&obj_value, ch, mi + 1,
					       obj_at + 1) : NULL;
		else
			v = field_value(rs_registry_schema(), ch, mi + 1, 1);
		rs_suggest_init(&sg, key);
		suggest_keys(&sg, v);
		/* Inside a top-level section that is not a kind's
		 * (`nodes:`, `requires:`): a field of it. */
		if (!obj && path[0]) {
			rs_suggest_fmt(&sg, true, buf, sizeof(buf));
			rs_diag_error(d, rs_node_loc(target),
				      "%s: unknown field '%s'%s", path, key,
				      buf);
			return;
		}
		if (!obj) {
			/* Too many sections to list: the near ones only. */
			rs_suggest_fmt(&sg, false, buf, sizeof(buf));
			rs_diag_error(d, rs_node_loc(target),
				      "unknown section '%s'%s",
				      key, buf);
			return;
		}
		rs_suggest_fmt(&sg, true, buf, sizeof(buf));
		rs_diag_error(d, rs_node_loc(target),
			      "%s%s%sunknown field '%s'%s",
			      who, path, path[0] ? ": " : "", key, buf);
		return;
	}
	if (!strncmp(m, "Missing required mapping field: ", 32)) {
		unsigned mi = innermost_map(ch, n);

		target = ch[mi];
		path_to(path, sizeof(w->path), ch, obj ? obj_at + 1 : 1, mi + 1);
		if (target != s->doc.root && !obj && path[0])
			rs_diag_error(d, rs_node_loc(target),
				      "%s: missing field '%s'",
				      path, m + 32);
		else if (target == s->doc.root || !obj)
			rs_diag_error(d, rs_node_loc(target),
				      "missing section '%s'",
				      m + 32);
		else
			rs_diag_error(d, rs_node_loc(target),
				      "%smissing field '%s%s%s'",
				      who, path, path[0] ? "." : "", m + 32);
		return;
	}
	if (!strncmp(m, "Unknown flag: ", 14)) {
		/* Point at the list entry, not at the list. */
		struct rs_node *seq = ch[n - 1]->type == RS_NODE_SEQ ? ch[n - 1] :
				      n >= 2 && ch[n - 2]->type == RS_NODE_SEQ ?
				      ch[n - 2] : NULL;

		for (size_t j = 0; seq && j < seq->n; j++)
			if (!strcmp(rs_node_text(&seq->items[j]) ?
				    rs_node_text(&seq->items[j]) : "", m + 14))
				target = &seq->items[j];
		if (seq && ch[n - 1] != seq) {
			n--; /* the path names the list */
			path_to(path, sizeof(w->path), ch, obj ? obj_at + 1 : 1, n);
		}
	}

	if (!strncmp(m, "Invalid ENUM value: ", 20)) {
		if (v && v->type == CYAML_ENUM) {
			names_list(v, m + 20, "one", buf, sizeof(buf));
			snprintf(msg, sizeof(msg), "unknown value '%s'%s",
				 m + 20, buf);
		} else {
			snprintf(msg, sizeof(msg), "unknown value '%s'", m + 20);
		}
	} else if (!strncmp(m, "Unknown flag: ", 14)) {
		if (v && v->type == CYAML_FLAGS) {
			names_list(v, m + 14, "some", buf, sizeof(buf));
			snprintf(msg, sizeof(msg), "unknown flag '%s'%s",
				 m + 14, buf);
		} else {
			snprintf(msg, sizeof(msg), "unknown flag '%s'", m + 14);
		}
	} else if (!strncmp(m, "Invalid FLOAT value: ", 21)) {
		snprintf(msg, sizeof(msg), "expected a number, got '%s'", m + 21);
	} else if (!strncmp(m, "Invalid ", 8) && strstr(m, " value: '")) {
		const char *val = strstr(m, " value: '") + 9;
		char value[128];

		snprintf(value, sizeof(value), "%.*s", (int)strcspn(val, "'"), val);
		if (numeric(value) && v && (v->type == CYAML_UINT || v->type == CYAML_INT)) {
			range_of(v, buf, sizeof(buf));
			snprintf(msg, sizeof(msg), "%s is out of range (%s)",
				 value, buf);
		} else {
			snprintf(msg, sizeof(msg), "expected an integer, got '%s'",
				 value);
		}
	} else if (!strncmp(m, "Expecting ", 10) && strstr(m, ", got event: ")) {
		char type[32];

		sscanf(m + 10, "%31[^,]", type);
		snprintf(msg, sizeof(msg), "expected %s, got %s", expected(type),
			 what(strstr(m, ", got event: ") + 13));
	} else if (!strncmp(m, "STRING length > ", 16)) {
		snprintf(msg, sizeof(msg), "longer than %d characters",
			 atoi(m + 16));
	} else if (!strncmp(m, "STRING length < ", 16)) {
		if (atoi(m + 16) == 1)
			snprintf(msg, sizeof(msg), "must not be empty");
		else
			snprintf(msg, sizeof(msg), "shorter than %d characters",
				 atoi(m + 16));
	} else if (!strncmp(m, "Excessive entries (", 19)) {
		snprintf(msg, sizeof(msg), "more than %d entries", atoi(m + 19));
	} else if (!strncmp(m, "Insufficient entries (", 22)) {
		/* "(%u of %u min)": how many there are, then the least. */
		const char *of = strstr(m + 22, " of ");

		int min = of ? atoi(of + 4) : atoi(m + 22);

		if (min == 1)
			snprintf(msg, sizeof(msg), "must not be empty");
		else
			snprintf(msg, sizeof(msg), "fewer than %d entries",
				 min);
	} else {
		snprintf(msg, sizeof(msg), "%s", m);
	}
	if (path[0])
		rs_diag_error(d, rs_node_loc(target),
			      "%s%s: %s", who, path, msg);
	else if (ch[n - 1] == s->doc.root || n < 2)
		rs_diag_error(d, rs_node_loc(target), "%s", msg);
	else
		rs_diag_error(d, rs_node_loc(target), "%s%s", who, msg);
}
