// SPDX-License-Identifier: MIT
/* An object's name and step number, for messages and the record: made at
 * their length in the DOM's arena (load.c and count.c name objects). */
#include <errno.h>
#include <string.h>

#include "model.h"

int rs_obj_number(struct rs_scenario *s, struct rs_obj *o, const char *no)
{
	if (!no || !*no) {
		o->no = "";
		return 0;
	}
	o->no = rs_doc_strndup(&s->doc, no, RS_STEP_NO_MAX - 1);
	return o->no ? 0 : -ENOMEM;
}

/* @a @b... into @buf of @size (cut there), as snprintf("%s%s...") would:
 * a name for each of 100k objects through snprintf() was 5% of a
 * validate. */
static size_t cat(char *buf, size_t size, const char *const *parts)
{
	size_t len = 0;

	for (; *parts; parts++) {
		size_t n = strlen(*parts);

		if (n > size - 1 - len)
			n = size - 1 - len;
		memcpy(buf + len, *parts, n);
		len += n;
	}
	buf[len] = '\0';
	return len;
}

int rs_obj_name(struct rs_scenario *s, struct rs_obj *o)
{
	/* As long as the inline name was: an id is at most RDMASCN_ID_MAX
	 * bytes, so nothing is cut. */
	char name[RDMASCN_ID_MAX + 32];
	size_t len;

	if (!o->kind->step)
		len = cat(name, sizeof(name), (const char *[]){
			o->kind->name, " '", o->id, "'", NULL });
	else if (o->id)
		len = cat(name, sizeof(name), (const char *[]){
			"step '", o->id, "'", NULL });
	else
		len = cat(name, sizeof(name), (const char *[]){
			"step ", o->no, " (", o->kind->section, ")", NULL });
	o->name = rs_doc_strndup(&s->doc, name, len);
	return o->name ? 0 : -ENOMEM;
}

/*
 * The names of @n objects of one kind, as rs_obj_name() makes them: "qp '"
 * or "step '" once, then each id, each name written at its length, not
 * through cat()'s strlen()s (a counted entry's elements: 3500 in the
 * set-up bench).
 */
int rs_obj_names(struct rs_scenario *s, struct rs_obj *o, unsigned n)
{
	const char *kind = o->kind->step ? "step" : o->kind->name;
	size_t kind_len = strlen(kind);

	for (unsigned i = 0; i < n; i++, o++) {
		size_t id_len = o->id ? strlen(o->id) : 0;
		size_t len = kind_len + 2 + id_len + 1;
		char *name;

		/* No id, or a name rs_obj_name() would cut. */
		if (!o->id || len >= RDMASCN_ID_MAX + 32) {
			if (rs_obj_name(s, o) < 0)
				return -ENOMEM;
			continue;
		}
		name = rs_doc_alloc(&s->doc, len + 1);
		if (!name)
			return -ENOMEM;
		memcpy(name, kind, kind_len);
		memcpy(name + kind_len, " '", 2);
		memcpy(name + kind_len + 2, o->id, id_len);
		name[len - 1] = '\'';
		name[len] = '\0';
		o->name = name;
	}
	return 0;
}
