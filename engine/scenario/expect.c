// SPDX-License-Identifier: MIT
/*
 * expect: {create: fail, errno: EINVAL} on an object: the file says its
 * create is to fail.  The run then counts that failure as the pass; so
 * nothing may be built on the object, which never exists.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "registry.h"

/* glibc's errno names go this high (EHWPOISON is 133). */
#define ERRNO_MAX 200

/* "EINVAL" or "22" -> 22; 0: neither. */
static int errno_of(const char *s)
{
	char *end;
	long n;

	if (s[0] >= '0' && s[0] <= '9') {
		n = strtol(s, &end, 10);
		return !*end && n > 0 && n < ERRNO_MAX ? (int)n : 0;
	}
	for (int e = 1; e < ERRNO_MAX; e++) {
		const char *name = strerrorname_np(e);

		if (name && !strcmp(name, s))
			return e;
	}
	return 0;
}

int rs_expect_read(struct rs_scenario *s, struct rs_obj *o,
		   struct rs_diag *d)
{
	const struct rs_expect *x = *(struct rs_expect **)
		((char *)o->data + RS_EXPECT_AT(o->kind));
	struct rs_obj_more *more;

	if (!x)
		return 0;
	more = rs_obj_more(s, o);
	if (!more)
		return -ENOMEM;
	more->expect_fail = x->create == RS_EXPECT_FAIL;
	if (!x->err)
		return 0;
	more->expect_errno = errno_of(x->err);
	if (!more->expect_errno) {
		rs_obj_error(d, o, "expect.errno", "'%s' is no errno: give a "
			     "name (EINVAL, ENOMEM, EOPNOTSUPP, ...) or a "
			     "number from 1 to %d", x->err, ERRNO_MAX - 1);
		return -EINVAL;
	}
	return 0;
}

int rs_expect_check_refs(struct rs_scenario *s, struct rs_diag *d)
{
	int ret = 0;

	for (unsigned i = 0; i < s->n_objs && d->errors < RS_MAX_ERRORS; i++) {
		const struct rs_obj *o = &s->objs[i];

		for (unsigned e = 0; e < o->n_edges; e++) {
			const struct rs_obj *to = o->edges[e].to;

			if (!rs_obj_expect_fail(to))
				continue;
			rs_obj_error(d, o, rs_edge_field(o, &o->edges[e]),
				     "%s is expected "
				     "to fail its create (its expect: create: "
				     "fail): nothing may name it or come "
				     "after it", to->name);
			ret = -EINVAL;
			break;
		}
	}
	return ret;
}
