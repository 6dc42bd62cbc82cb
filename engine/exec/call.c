// SPDX-License-Identifier: MIT
/*
 * Every verbs call that makes, changes or releases something passes
 * through here: printed by --dry-run and -v with its attributes, numbered,
 * failed on demand by RDMASCN_FAULT, and reported with the object's
 * FILE:LINE:COL when it fails.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#include "alloc.h"
#include "run.h"
#include "str_put.h"
#include "value.h"
#include "value_fmt.h"

/*
 * RDMASCN_FAULT=WHICH:WHAT[,WHICH:WHAT...]
 *   WHICH  N      the Nth create or modify call (as -v numbers them)
 *          NAME   the first call of that name (ibv_destroy_qp too)
 *   WHAT   ERRNO  fail the call with it (ENOMEM, EINVAL, 12, ...)
 *          SIGINT, SIGTERM  raise the signal just before the call, then
 *                 make it (for testing interruption at a known point)
 */
struct rs_fault {
	unsigned no;             /* 0: match by name */
	char name[64];
	int err;                 /* > 0: fail with it */
	int sig;                 /* > 0: raise it */
	bool fired;
};

static int errno_by_name(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s && !*end)
		return v > 0 && v < 4096 ? (int)v : -1;
	for (int e = 1; e < 256; e++) {
		const char *n = strerrorname_np(e);

		if (n && !strcmp(n, s))
			return e;
	}
	return -1;
}

int rs_faults_parse(struct rs_run *run, const char *spec, char *why,
		    size_t len)
{
	char *copy = rs_strdup(spec), *save = NULL, *tok;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':'), *end;
		struct rs_fault f = { 0 }, *grown;

		if (!colon || colon == tok || !colon[1])
			goto bad;
		*colon = '\0';
		f.no = (unsigned)strtoul(tok, &end, 10);
		if (*end) {
			f.no = 0;
			if (strlen(tok) >= sizeof(f.name))
				goto bad;
			strcpy(f.name, tok);
		} else if (!f.no) {
			goto bad;
		}
		if (!strcmp(colon + 1, "SIGINT"))
			f.sig = SIGINT;
		else if (!strcmp(colon + 1, "SIGTERM"))
			f.sig = SIGTERM;
		else if ((f.err = errno_by_name(colon + 1)) < 0)
			goto bad;
		if (!run)
			continue;       /* only checked */
		grown = rs_reallocarray(run->faults, run->n_faults + 1,
					sizeof(*grown));
		if (!grown) {
			ret = -ENOMEM;
			goto out;
		}
		run->faults = grown;
		run->faults[run->n_faults++] = f;
		continue;
bad:
		snprintf(why, len, "RDMASCN_FAULT: '%s' is not WHICH:WHAT "
			 "(WHICH a call number or name, WHAT an errno name or "
			 "number, SIGINT or SIGTERM)", tok);
		ret = -EINVAL;
		break;
	}
out:
	rs_free(copy);
	return ret;
}

/*
 * Whether calls' arguments are wanted as text.  Only the record's list of
 * calls reads them (a dry run, -v), and formatting them cost a run of
 * 2000 QPs more time than its verbs calls took (issue 21): without it,
 * rs_call_arg() returns at once.  Set by each run as it begins, before
 * its first call; true until then, for callers outside a run.
 */
static bool args_wanted = true;

void rs_call_want_args(bool want)
{
	args_wanted = want;
}

bool rs_call_args_wanted(void)
{
	return args_wanted;
}

void rs_call_init(struct rs_call *c, enum rs_call_class cls,
		  const char *name)
{
	c->cls = cls;
	c->quiet = !args_wanted;
	c->name = name;
	c->ok = false;
	c->made = false;
	c->err = 0;
	c->no = 0;
	c->len = 0;
	c->args[0] = '\0';
	c->n_at = 0;
	c->hint[0] = '\0';
	c->entry = NULL;
	c->t0 = c->t1 = 0;
}

void rs_call_arg(struct rs_call *c, const char *key, const char *fmt, ...)
{
	size_t room, sep, klen;
	char *p;
	va_list ap;
	int n;

	/* Every call of a real run without -v is quiet: nothing before. */
	if (c->quiet || c->len >= sizeof(c->args) - 1)
		return;
	room = sizeof(c->args) - c->len;
	sep = c->len ? 1 : 0;
	klen = strlen(key);
	p = c->args + c->len;
	if (c->n_at < RS_N(c->at))
		c->at[c->n_at++] = (uint16_t)(c->len + sep);
	/* " key=" copied, cut where snprintf() would cut it (room >= 2):
	 * a snprintf() here was a third of an argument's cost. */
	if (sep + klen + 1 >= room) {
		if (sep)
			*p++ = ' ';
		rs_str_put(p, room - sep, 0, key);
		c->len = sizeof(c->args) - 1;
		return;
	}
	if (sep)
		*p++ = ' ';
	memcpy(p, key, klen);
	p[klen] = '=';
	c->len += sep + klen + 1;
	room -= sep + klen + 1;
	va_start(ap, fmt);
	n = rs_vfmt(c->args + c->len, room, fmt, ap);
	va_end(ap);
	c->len = n < 0 || (size_t)n >= room ? sizeof(c->args) - 1 : c->len + n;
}

void rs_call_hint(struct rs_call *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rs_vfmt(c->hint, sizeof(c->hint), fmt, ap);
	va_end(ap);
}

static struct rs_fault *fault_for(struct rs_run *run, const struct rs_call *c)
{
	for (unsigned i = 0; i < run->n_faults; i++) {
		struct rs_fault *f = &run->faults[i];

		if (f->fired)
			continue;
		if (f->no ? f->no == c->no : !strcmp(f->name, c->name))
			return f;
	}
	return NULL;
}

static bool call_go(struct rs_run *run, const struct rs_live *l,
		    const struct rs_obj *obj, struct rs_call *c);

bool rs_call_go(struct rs_run *run, struct rs_live *l, struct rs_call *c)
{
	return call_go(run, l, l ? l->obj : NULL, c);
}

void rs_step_call(struct rs_run *run, const struct rs_obj *step,
		  struct rs_call *c)
{
	if (!run->rec->calls_wanted)
		return;
	call_go(run, NULL, step, c);
	/* Made by the step itself, outside the wrapper: no outcome. */
	c->entry = NULL;
}

static bool call_go(struct rs_run *run, const struct rs_live *l,
		    const struct rs_obj *obj, struct rs_call *c)
{
	struct rs_fault *f;

	if (c->cls == RS_CALL_CREATE || c->cls == RS_CALL_MODIFY)
		c->no = ++run->calls;
	if (run->rec->calls_wanted) {
		/* The object's name as its entry holds it: not a copy a
		 * call (four an object in a dry run). */
		const char *kept = l ? rs_rec_obj_name(l->entry) : NULL;

		/* Its outcome comes at rs_call_done(). */
		c->entry = rs_record_call(run->rec, c->no, c->name, c->args,
					  c->at, c->n_at,
					  kept ? kept : obj ? obj->name : NULL,
					  kept != NULL);
	}
	if (run->dry_run) {
		c->ok = true;
		return false;
	}
	f = fault_for(run, c);
	if (f) {
		f->fired = true;
		if (f->sig) {
			raise(f->sig);
		} else {
			c->ok = false;
			c->err = f->err;
			rs_call_hint(c, "injected by RDMASCN_FAULT");
			return false;
		}
	}
	c->made = true;
	if (c->entry)
		c->t0 = uv_hrtime();
	return true;
}

void rs_call_returned(struct rs_call *c)
{
	if (c->entry && !c->t1)
		c->t1 = uv_hrtime();
}

/* Made, or failed by RDMASCN_FAULT: what came of it, in the entry.  A
 * dry run's calls are not made and have none. */
static void put_outcome(struct rs_run *run, struct rs_call *c)
{
	struct rs_rec_call_out *e = rs_rec_call_out(c->entry);

	if (!e || (!c->made && c->ok))
		return;
	/* The entry is the record's: steps of a parallel add beside us. */
	pthread_mutex_lock(&run->rec->lock);
	e->ok = c->ok;
	e->err = c->ok ? 0 : c->err;
	if (c->made) {
		rs_call_returned(c);
		e->duration_ns = c->t1 - c->t0;
		e->outcome = RS_REC_CALL_MADE;
	} else {
		e->outcome = RS_REC_CALL_INJECTED;
	}
	pthread_mutex_unlock(&run->rec->lock);
}

int rs_call_done(struct rs_run *run, struct rs_live *l, struct rs_call *c)
{
	const struct rs_loc *loc;
	char what[160] = "", err[128];

	if (!c->ok && !c->err)
		c->err = EIO;
	put_outcome(run, c);
	if (c->ok)
		return 0;
	/* Found only for the message: a search of the file's lines, for
	 * each of a run's calls, else. */
	loc = l ? rs_obj_loc(l->obj, NULL) : NULL;
	/* A create the file expects to fail: the create path judges it. */
	if (l && rs_obj_expect_fail(l->obj) && c->cls == RS_CALL_CREATE &&
	    !l->create_errno) {
		l->create_errno = c->err;
		return -c->err;
	}
	if (l)
		snprintf(what, sizeof(what), "%s: ", l->obj->name);
	rs_diag_error(&run->diag, loc, "%s%s: %s%s%s%s", what, c->name,
		      rs_errno_text(c->err, err, sizeof(err)),
		      c->hint[0] ? " (" : "", c->hint,
		      c->hint[0] ? ")" : "");
	if (c->cls == RS_CALL_DESTROY)
		run->teardown_failed = true;
	return -c->err;
}

int rs_live_error(struct rs_run *run, struct rs_live *l, int err,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rs_diag_vnamed(&run->diag, false, l ? rs_obj_loc(l->obj, NULL) : NULL,
		       l ? l->obj->name : NULL, NULL, NULL, 0, fmt, ap);
	va_end(ap);
	return -err;
}

int rs_live_error_at(struct rs_run *run, struct rs_live *l, const char *path,
		     int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rs_diag_vnamed(&run->diag, false, rs_obj_loc(l->obj, path),
		       l->obj->name, path, NULL, 0, fmt, ap);
	va_end(ap);
	return -err;
}

void rs_live_warn_at(struct rs_run *run, struct rs_live *l, const char *path,
		     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rs_diag_vnamed(&run->diag, true, rs_obj_loc(l->obj, path),
		       l->obj->name, path, NULL, 0, fmt, ap);
	va_end(ap);
}

/* Copied, not snprintf()ed: a connection's facts make two of these
 * each, and a format for each flag cost more than the rest of them. */
const char *rs_bits_text(uint64_t bits, const struct rs_bit_name *names,
			 size_t n, char *buf, size_t len)
{
	size_t used = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (!(bits & names[i].bit))
			continue;
		if (used)
			used = rs_str_put(buf, len, used, "|");
		used = rs_str_put(buf, len, used, names[i].name);
	}
	if (!used)
		rs_str_put(buf, len, 0, "0");
	return buf;
}

const char *rs_hex(uint64_t v, unsigned digits, char buf[RS_HEX_MAX])
{
	char tmp[16];
	unsigned n = 0, i = 2;

	do {
		tmp[n++] = "0123456789abcdef"[v & 0xf];
		v >>= 4;
	} while (v);
	if (digits > RS_HEX_MAX - 3)
		digits = RS_HEX_MAX - 3;
	buf[0] = '0';
	buf[1] = 'x';
	for (; n < digits; digits--)
		buf[i++] = '0';
	while (n)
		buf[i++] = tmp[--n];
	buf[i] = '\0';
	return buf;
}
