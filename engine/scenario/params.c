// SPDX-License-Identifier: MIT
/*
 * Parameters: `params:` declares names with defaults; `${name}` in any
 * scalar is replaced; `--set name=value` overrides; an environment
 * variable overrides only where the declaration names it (`env:`).
 *
 * libcyaml reads text, so substituted scalars are written back into a copy
 * of the text as double-quoted YAML strings.  The edits are kept so that a
 * position libcyaml reports maps back to the file the user wrote.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "idmap.h"
#include "load_error.h"
#include "expr.h"
#include "facts.h"
#include "launcher.h"
#include "params.h"
#include "suggest.h"

/* A node set sized by its launcher: ${launcher.size} is how many
 * processes it started (base/launcher.c lists the variables), or what
 * --set launcher.size gives; without either, validate and plan assume
 * LAUNCHER_SIZE_ASSUMED and say so. */
#define LAUNCHER_SIZE "launcher.size"
#define LAUNCHER_SIZE_ASSUMED "2"

/* Names are looked up once per ${} and per --set: by hash, as a file
 * may declare tens of thousands. */
static struct rs_param *find(struct rs_scenario *s, const struct rs_idmap *m,
			     const char *name)
{
	unsigned i = rs_idmap_get(m, name);

	return i == RS_IDMAP_NONE ? NULL : &s->params[i];
}

static bool valid_name(const char *n)
{
	if (!*n)
		return false;
	for (const char *p = n; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z') ||
		      (p != n && *p >= '0' && *p <= '9')))
			return false;
	return true;
}

static int declare(struct rs_scenario *s, struct rs_node *params,
		   struct rs_diag *d)
{
	if (!params)
		return 0;
	if (params->type != RS_NODE_MAP) {
		rs_diag_error(d, rs_node_loc(params),
			      "params: expected a mapping of "
			      "names to defaults");
		return -EINVAL;
	}
	s->params = rs_calloc(params->n / 2 + 1, sizeof(*s->params));
	if (!s->params)
		return -ENOMEM;
	for (size_t i = 0; i + 1 < params->n; i += 2) {
		struct rs_node *k = &params->items[i];
		struct rs_node *v = &params->items[i + 1];
		struct rs_param *p = &s->params[s->n_params];
		struct rs_node *def = v;

		if (!valid_name(k->value)) {
			rs_diag_error(d, rs_node_loc(k),
				      "params: '%s' is not a valid "
				      "name (letters, digits, _)", k->value);
			return -EINVAL;
		}
		if (v->type == RS_NODE_MAP) {
			/* {default: X, env: NAME, description: ...} */
			for (size_t j = 0; j + 1 < v->n; j += 2) {
				const char *key = v->items[j].value;
				struct rs_node *val = &v->items[j + 1];

				if (strcmp(key, "default") && strcmp(key, "env") &&
				    strcmp(key, "description")) {
					struct rs_suggest sg;
					char near[160];

					rs_suggest_init(&sg, key);
					rs_suggest_add(&sg, "default");
					rs_suggest_add(&sg, "env");
					rs_suggest_add(&sg, "description");
					rs_suggest_fmt(&sg, false, near,
						       sizeof(near));
					rs_diag_error(d,
						      rs_node_loc(&v->items[j]),
						      "param '%s': unknown field "
						      "'%s'%s (default, env, "
						      "description)", k->value,
						      key, near);
					return -EINVAL;
				}
				if (val->type != RS_NODE_SCALAR) {
					rs_diag_error(d, rs_node_loc(val),
						      "param '%s': "
						      "'%s' must be a scalar",
						      k->value, key);
					return -EINVAL;
				}
			}
			def = rs_node_get(v, "default");
			if (rs_node_get(v, "env"))
				p->env = rs_node_get(v, "env")->value;
		} else if (v->type != RS_NODE_SCALAR) {
			rs_diag_error(d, rs_node_loc(v),
				      "param '%s': a default must be "
				      "a scalar", k->value);
			return -EINVAL;
		}
		p->name = k->value;
		p->node = k;
		p->value = def ? def->value : NULL;
		s->n_params++;
	}
	return 0;
}

/* The length of the UTF-8 sequence at @p, with its code point in
 * *ret_cp; 0 when it is not UTF-8 (cut short, overlong, a surrogate,
 * past U+10FFFF). */
static size_t utf8_next(const unsigned char *p, uint32_t *ret_cp)
{
	static const uint32_t min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t len = p[0] < 0x80 ? 1 : (p[0] & 0xe0) == 0xc0 ? 2 :
		     (p[0] & 0xf0) == 0xe0 ? 3 : (p[0] & 0xf8) == 0xf0 ? 4 : 0;
	uint32_t cp;

	if (!len)
		return 0;
	cp = len == 1 ? p[0] : p[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	*ret_cp = cp;
	return len;
}

/* Beyond the C0 controls, what libyaml will not read raw, though a
 * double-quoted scalar may spell it with an escape: DEL, the C1
 * controls, U+FFFE and U+FFFF. */
static bool yaml_refuses(uint32_t cp)
{
	return cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) || cp == 0xfffe ||
	       cp == 0xffff;
}

/* A value from outside the file (--set, the environment) must be text
 * that the file itself could hold: otherwise libyaml would reject the
 * substituted text at 1:1, naming neither the param nor the option. */
static int check_outside(const char *v, char *why, size_t len)
{
	const unsigned char *u = (const unsigned char *)v;

	for (size_t i = 0; u[i];) {
		uint32_t cp;
		size_t n = utf8_next(u + i, &cp);

		if (!n) {
			snprintf(why, len, "the value is not UTF-8 (byte %zu "
				 "is 0x%02x)", i + 1, u[i]);
			return -EINVAL;
		}
		if (yaml_refuses(cp)) {
			snprintf(why, len, "the value holds U+%04X at byte "
				 "%zu, which YAML does not allow",
				 (unsigned)cp, i + 1);
			return -EINVAL;
		}
		i += n;
	}
	return 0;
}

/* Where a param's env: names its variable, for a bad value from it. */
static const struct rs_node *env_node(const struct rs_scenario *s,
				      const struct rs_param *p)
{
	struct rs_node *decl = rs_node_get(rs_node_get(s->doc.root, "params"),
					   p->name);
	struct rs_node *env = rs_node_get(decl, "env");

	return env ? env : p->node;
}

static int override(struct rs_scenario *s, const struct rs_idmap *names,
		    const struct rs_set *sets, unsigned n_sets,
		    struct rs_diag *d, const char **ret_launcher_size)
{
	struct rs_loc top = { s->doc.file, 1, 1 };

	for (unsigned i = 0; i < s->n_params; i++) {
		const char *e = s->params[i].env ? getenv(s->params[i].env) : NULL;

		if (e)
			s->params[i].value = (char *)e;
	}
	for (unsigned i = 0; i < n_sets; i++) {
		struct rs_param *p = find(s, names, sets[i].name);

		if (!strcmp(sets[i].name, LAUNCHER_SIZE)) {
			if (rs_launcher_whole(sets[i].value) < 1) {
				rs_diag_error(d, &top, "--set %s=%s: not a "
					      "number of processes from 1",
					      sets[i].name, sets[i].value);
				return -EINVAL;
			}
			*ret_launcher_size = sets[i].value;
			continue;
		}
		if (!p) {
			char near[640];

			rs_param_near(s, sets[i].name, true, near,
				      sizeof(near));
			rs_diag_error(d, &top, "--set %s: the scenario has no "
				      "param '%s'%s", sets[i].name,
				      sets[i].name, near);
			return -EINVAL;
		}
		p->value = (char *)sets[i].value;
		p->set = true;
	}
	for (unsigned i = 0; i < s->n_params; i++) {
		struct rs_param *p = &s->params[i];
		const char *e = p->env ? getenv(p->env) : NULL;
		char why[96];

		if (!p->value) {
			rs_diag_error(d, rs_node_loc(p->node), "param '%s' has "
				      "no default; give it with --set %s=VALUE",
				      p->name, p->name);
			return -EINVAL;
		}
		if (p->set && check_outside(p->value, why, sizeof(why)) < 0) {
			rs_diag_error(d, rs_node_loc(p->node),
				      "--set %s=...: %s",
				      p->name, why);
			return -EINVAL;
		}
		if (!p->set && e && check_outside(e, why, sizeof(why)) < 0) {
			rs_diag_error(d, rs_node_loc(env_node(s, p)),
				      "param '%s': "
				      "environment variable %s: %s", p->name,
				      p->env, why);
			return -EINVAL;
		}
	}
	return 0;
}

struct edit {
	size_t start, end; /* original byte range */
	char *text;        /* replacement */
};

/* P_FAILED: its error is reported; a use of it fails without a word. */
enum { P_RAW, P_BUSY, P_DONE, P_FAILED };
/* An error inside a param's value, already reported where it is. */
#define REPORTED (-ECANCELED)

struct subst {
	struct rs_scenario *s;
	struct rs_idmap names;   /* param names to indexes */
	struct rs_node *params;
	struct rs_diag *d;
	struct edit *edits;
	size_t n, cap;
	/* Each param's value is expanded before use, once; a param met
	 * again while its own is expanded is a loop, @stack its path. */
	unsigned char *state;
	unsigned *stack, depth;
	/* The ids a fact may name: the objects whose kind probes a
	 * device (contexts). */
	const char **ctx_ids;
	unsigned n_ctx;
	/* Where the ${} being evaluated is, for messages and uses. */
	const struct rs_loc *at;
	const char *where;
	/* Bytes of every value expanded so far (params and scalars). */
	size_t total;
	/* Past a bound: what follows would fail the same way. */
	bool stop;
	/* ${launcher.size}: --set launcher.size=N, else the launcher's,
	 * else assumed (said once). */
	const char *launcher_size;
	bool size_said;
};

/* A param whose value names a param whose value names ...: this deep
 * at most. */
#define PARAM_DEPTH_MAX 64
/* An expression in a message: this many bytes of it at most. */
#define EXPR_SHOWN 80
/*
 * "${a}${a}" doubles at each level: 60 such params in a 2 KB file
 * would ask for 2^60 bytes.  So a value may grow to RS_PARAM_LEN_MAX
 * and all of them together to RS_PARAMS_TOTAL_MAX, checked before each
 * piece is copied in: the first one past is the error, where it is.
 */
#define MIB (1024u * 1024u)

static int param_value(struct subst *st, struct rs_param *p, char *why,
		       size_t why_len);

/* "CTX.GROUP.FIELD" of @len bytes: the value of that fact of CTX's
 * device, through the scenario's resolver, or assumed without one. */
static int fact_value(struct subst *st, const char *name, size_t len,
		      struct rs_expr_val *ret, char *why, size_t why_len)
{
	struct rs_scenario *s = st->s;
	const char *dot = memchr(name, '.', len);
	const struct rs_fact *f = rs_fact_find(dot + 1, len - (dot + 1 - name));
	size_t cl = dot - name;
	const char *ctx = NULL;
	struct rs_fact_use *u = NULL;
	int r;

	for (unsigned i = 0; i < st->n_ctx && !ctx; i++)
		if (strlen(st->ctx_ids[i]) == cl &&
		    !memcmp(st->ctx_ids[i], name, cl))
			ctx = st->ctx_ids[i];
	if (!ctx) {
		size_t o = snprintf(why, why_len, "'%.*s' is not a context "
				    "(contexts:", (int)cl, name);

		for (unsigned i = 0; i < st->n_ctx && o < why_len; i++)
			o += snprintf(why + o, why_len - o, "%s %s",
				      i ? "," : "", st->ctx_ids[i]);
		if (o < why_len)
			snprintf(why + o, why_len - o, "%s)",
				 st->n_ctx ? "" : " none");
		return -EINVAL;
	}
	if (!f) {
		char near[160];

		rs_fact_near(dot + 1, len - cl - 1, near, sizeof(near));
		snprintf(why, why_len, "unknown fact '%.*s'%s (device.FIELD, "
			 "port.FIELD as `rdmascn devices -j` names them, "
			 "gid.index, gid.type, gid.gid, or mlx5.FIELD as "
			 "mlx5dv_query_device() says)",
			 (int)(len - cl - 1), dot + 1, near);
		return -EINVAL;
	}
	for (unsigned i = 0; i < s->n_fact_uses && !u; i++)
		if (s->fact_uses[i].fact == f &&
		    !strcmp(s->fact_uses[i].ctx, ctx))
			u = &s->fact_uses[i];
	if (!u) {
		struct rs_fact_use *t = rs_reallocarray(s->fact_uses,
			s->n_fact_uses + 1, sizeof(*t));

		if (!t)
			return -ENOMEM;
		s->fact_uses = t;
		u = &t[s->n_fact_uses++];
		*u = (struct rs_fact_use){ .ctx = ctx, .fact = f,
					   .loc = *st->at,
					   .assumed = !s->facts };
		if (!s->facts) {
			rs_fact_assumed(f, &u->val);
		} else {
			r = s->facts->get(s->facts->arg, ctx, f, &u->val);
			if (r) {
				s->n_fact_uses--;
				snprintf(why, why_len, "%.*s: %s", (int)len,
					 name, strerror(-r));
				return r == -ENOMEM ? r : -EINVAL;
			}
		}
	}
	ret->text = u->val.text;
	ret->num = u->val.num;
	ret->str = u->val.str;
	return 0;
}

size_t rs_param_near(const struct rs_scenario *s, const char *word,
		     bool list, char *buf, size_t len)
{
	struct rs_suggest sg;

	rs_suggest_init(&sg, word);
	for (unsigned i = 0; i < s->n_params; i++)
		rs_suggest_add(&sg, s->params[i].name);
	return rs_suggest_fmt(&sg, list, buf, len);
}

static int launcher_size(struct subst *st, struct rs_expr_val *ret,
			 char *why, size_t why_len)
{
	const struct rs_launcher *l = rs_launcher_find();
	const char *v = st->launcher_size;
	char names[160];

	if (!v && l && l->size && getenv(l->size)) {
		v = getenv(l->size);
		if (rs_launcher_whole(v) < 1) {
			snprintf(why, why_len, "%s is '%s', not a number of "
				 "processes", l->size, v);
			return -EINVAL;
		}
	}
	if (!v) {
		v = LAUNCHER_SIZE_ASSUMED;
		if (!st->size_said) {
			rs_launcher_size_names(names, sizeof(names));
			rs_diag_warning(st->d, st->at, "${%s}: no launcher "
					"(%s) and no --set %s=N: assuming %s",
					LAUNCHER_SIZE, names, LAUNCHER_SIZE,
					v);
			st->size_said = true;
		}
	}
	ret->str = v;
	ret->text = !rs_expr_int(v, &ret->num);
	return 0;
}

static int lookup(void *arg, const char *name, size_t len,
		  struct rs_expr_val *ret, char *why, size_t why_len)
{
	struct subst *st = arg;
	struct rs_param *p = NULL;
	char key[256];
	int r;

	if (len == strlen(LAUNCHER_SIZE) &&
	    !memcmp(name, LAUNCHER_SIZE, len))
		return launcher_size(st, ret, why, why_len);
	if (memchr(name, '.', len))
		return fact_value(st, name, len, ret, why, why_len);
	if (len < sizeof(key)) {
		memcpy(key, name, len);
		key[len] = '\0';
		p = find(st->s, &st->names, key);
	}
	if (!p) {
		char near[640];

		rs_param_near(st->s, len < sizeof(key) ? key : "", true, near,
			      sizeof(near));
		snprintf(why, why_len, "unknown param '%.*s'%s", (int)len,
			 name, near);
		return -EINVAL;
	}
	r = param_value(st, p, why, why_len);
	if (r)
		return r;
	ret->str = p->value;
	ret->text = !rs_expr_int(p->value, &ret->num);
	return 0;
}

/* True when @e (@len bytes) is one name and nothing else: its text is
 * put in as it is ("any", "0x10", "007"). */
static bool lone_param(const char *e, size_t len)
{
	while (len && (*e == ' ' || *e == '\t')) {
		e++;
		len--;
	}
	while (len && (e[len - 1] == ' ' || e[len - 1] == '\t'))
		len--;
	if (!len || !(*e == '_' || (*e >= 'a' && *e <= 'z') ||
		      (*e >= 'A' && *e <= 'Z')))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!(e[i] == '_' || (e[i] >= 'a' && e[i] <= 'z') ||
		      (e[i] >= 'A' && e[i] <= 'Z') ||
		      (e[i] >= '0' && e[i] <= '9')))
			return false;
	return true;
}

/*
 * "${expr}" -> its value; "$${" -> "${".  @v is a scalar's text or a
 * param's value; @n is where it is: errors point at the ${ when @v is
 * @n's own text on one line (a plain scalar), else at @n.
 */
static int expand(struct subst *st, const char *v, struct rs_node *n,
		  char **ret)
{
	const char *v0 = v;
	size_t len = 0, cap = strlen(v) + 64;
	struct rs_loc loc = *rs_node_loc(n);
	bool failed = false;
	char *out;

	if (cap > RS_PARAM_LEN_MAX + 1)
		cap = RS_PARAM_LEN_MAX + 1;
	out = rs_malloc(cap);
	if (!out)
		return -ENOMEM;
	while (*v) {
		const char *piece = v;
		size_t plen = 1;
		char num[48];

		if (v[0] == '$' && v[1] == '$' && v[2] == '{') {
			piece = "${";
			plen = 2;
			v += 3;
		} else if (v[0] == '$' && v[1] == '{') {
			const char *end = strchr(v, '}');
			const struct rs_loc *saved = st->at;
			struct rs_expr_val val;
			char why[320] = "";
			int r = -EINVAL;

			loc = *rs_node_loc(n);
			if (rs_node_plain(n) && n->value == v0 &&
			    !strchr(n->value, '\n'))
				loc.col += v - v0;
			st->at = &loc;
			if (end)
				r = rs_expr_eval(v + 2, end - v - 2, lookup, st,
						 &val, why, sizeof(why));
			st->at = saved;
			if (r) {
				struct rs_where w;
				char where[sizeof(w.who) + sizeof(w.path) + 2];

				if (r == -ENOMEM) {
					rs_free(out);
					return r;
				}
				failed = true;
				/* A use of a param whose own error is said:
				 * no second word; on to the next ${}. */
				if (r == REPORTED && end && !st->stop) {
					v = end + 1;
					continue;
				}
				if (r == REPORTED)
					break;
				rs_where_at(st->s->doc.root, n->start, &w);
				snprintf(where, sizeof(where), "%s%s%s", w.who,
					 w.path, w.path[0] ? ": " : "");
				if (!end)
					rs_diag_error(st->d, &loc, "%sunterminated "
						      "'${' (write '$${' for a "
						      "literal)", where);
				else if (lone_param(v + 2, end - v - 2))
					rs_diag_error(st->d, &loc, "%s%s", where,
						      why);
				else	/* a long one by its start */
					rs_diag_error(st->d, &loc, "%s'${%.*s%s}': "
						      "%s", where,
						      end - v - 2 > EXPR_SHOWN ?
						      EXPR_SHOWN : (int)(end - v - 2),
						      v + 2, end - v - 2 > EXPR_SHOWN ?
						      "..." : "", why);
				/* Every bad ${} of the value, each said. */
				if (!end || st->d->errors >= RS_MAX_ERRORS)
					break;
				v = end + 1;
				continue;
			}
			if (val.text) {
				piece = val.str;
			} else if (lone_param(v + 2, end - v - 2)) {
				piece = val.str; /* as the param spells it */
			} else {
				piece = rs_expr_num_text(val.num, num,
							 sizeof(num));
			}
			plen = strlen(piece);
			v = end + 1;
		} else {
			v++;
		}
		if (len + plen > RS_PARAM_LEN_MAX ||
		    st->total + len + plen > RS_PARAMS_TOTAL_MAX) {
			bool one = len + plen > RS_PARAM_LEN_MAX;
			struct rs_where w;

			rs_free(out);
			st->stop = true;
			rs_where_at(st->s->doc.root, n->start, &w);
			rs_diag_error(st->d, &loc, "%s%s%s%s past %u MiB, the "
				      "most %s", w.who, w.path,
				      w.path[0] ? ": " : "",
				      one ? "the value grows" :
				      "all values together grow",
				      (one ? RS_PARAM_LEN_MAX :
				       RS_PARAMS_TOTAL_MAX) / MIB,
				      one ? "one value may hold after ${} "
				      "expansion" :
				      "a file's ${} may expand to");
			return -EINVAL;
		}
		if (len + plen + 1 > cap) {
			char *t;

			cap = (len + plen + 1) * 2;
			if (cap > RS_PARAM_LEN_MAX + 1)
				cap = RS_PARAM_LEN_MAX + 1;
			t = rs_reallocarray(out, cap, 1);
			if (!t) {
				rs_free(out);
				return -ENOMEM;
			}
			out = t;
		}
		memcpy(out + len, piece, plen);
		len += plen;
	}
	if (failed) {
		rs_free(out);
		return -EINVAL;
	}
	out[len] = '\0';
	st->total += len;
	*ret = out;
	return 0;
}

/* The node a param's value comes from: its default, or its name for a
 * value from --set or the environment. */
static struct rs_node *value_node(struct subst *st, struct rs_param *p)
{
	struct rs_node *decl = rs_node_get(st->params, p->name);
	struct rs_node *def = decl && decl->type == RS_NODE_MAP ?
			      rs_node_get(decl, "default") : decl;

	if (p->set || !def || def->value != p->value)
		return p->node;
	return def;
}

static int param_value(struct subst *st, struct rs_param *p, char *why,
		       size_t why_len)
{
	unsigned i = p - st->s->params;
	struct rs_node *n;
	char *v;
	int r;

	if (st->state[i] == P_DONE)
		return 0;
	if (st->state[i] == P_FAILED || st->stop)
		return REPORTED;
	if (st->state[i] == P_BUSY) {
		/* The loop is the path from @p's own expansion to here. */
		size_t o = snprintf(why, why_len, "params loop:");
		unsigned k = 0;

		while (k < st->depth && st->stack[k] != i)
			k++;
		for (; k < st->depth && o < why_len; k++)
			o += snprintf(why + o, why_len - o, " %s ->",
				      st->s->params[st->stack[k]].name);
		if (o < why_len)
			snprintf(why + o, why_len - o, " %s", p->name);
		return -EINVAL;
	}
	if (!strstr(p->value, "${") && !strstr(p->value, "$${")) {
		st->state[i] = P_DONE;
		return 0;
	}
	if (st->depth == PARAM_DEPTH_MAX) {
		/* Each level is a few C frames: a file must not choose how
		 * deep the stack goes.  Said once: a chain of 100000 would
		 * say it at every 64th. */
		st->stop = true;
		snprintf(why, why_len, "params nested deeper than %d (%s -> "
			 "%s -> ... -> %s)", PARAM_DEPTH_MAX,
			 st->s->params[st->stack[0]].name,
			 st->s->params[st->stack[1]].name, p->name);
		return -EINVAL;
	}
	st->state[i] = P_BUSY;
	st->stack[st->depth++] = i;
	n = value_node(st, p);
	r = expand(st, p->value, n, &v);
	st->depth--;
	if (r) {
		st->state[i] = P_FAILED;
		return r == -ENOMEM ? r : REPORTED;
	}
	p->owned = v;
	p->value = v;
	st->state[i] = P_DONE;
	return 0;
}
/* A double-quoted YAML scalar holding @v, on one line.  @v is UTF-8:
 * the file's own text (libyaml checked it), or checked by override(). */
static char *quote(const char *v, unsigned newlines)
{
	/* At most 4 bytes for 1 ("\x7f"); escapes of longer sequences
	 * take 2 for 1 at most. */
	size_t cap = strlen(v) * 4 + 3 + newlines;
	char *q = rs_malloc(cap), *o = q;

	if (!q)
		return NULL;
	*o++ = '"';
	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		uint32_t cp = 0;
		size_t n = *p < 0x80 ? 1 : utf8_next(p, &cp);

		if (*p == '"' || *p == '\\') {
			*o++ = '\\';
			*o++ = *p;
		} else if (*p == '\n') {
			*o++ = '\\';
			*o++ = 'n';
		} else if (*p < 0x20 || *p == 0x7f) {
			o += sprintf(o, "\\x%02x", *p);
		} else if (n > 1 && yaml_refuses(cp)) {
			/* A default may spell these with escapes; write them
			 * back the same way, or libyaml refuses the text. */
			o += sprintf(o, cp > 0xff ? "\\u%04X" : "\\x%02X",
				     (unsigned)cp);
			p += n - 1;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '"';
	/* Keep the line count: later positions must still map back. */
	while (newlines--)
		*o++ = '\n';
	*o = '\0';
	return q;
}

/* The ids of the objects that stand for a device (their kind probes
 * one): what CTX in ${CTX.port.FIELD} may be.  Read from the DOM, as
 * libcyaml has not read the file yet. */
static int context_ids(struct subst *st)
{
	struct rs_node *root = st->s->doc.root;
	unsigned n = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (unsigned k = 0; k < rs_registry_count(false); k++) {
			const struct rdmascn_kind *kd = rs_registry_at(false, k);
			struct rs_node *seq = rs_node_get(root, kd->section);

			/* An object standing for a context (an mlx5
			 * context) reads its device's facts too. */
			if (!kd->ops || (!kd->ops->probe &&
					 !kd->ops->as_context) || !seq ||
			    seq->type != RS_NODE_SEQ)
				continue;
			for (size_t i = 0; i < seq->n; i++) {
				struct rs_node *e = &seq->items[i];
				struct rs_node *id = e->type == RS_NODE_MAP ?
					rs_node_get(e, "id") : NULL;

				if (!id || id->type != RS_NODE_SCALAR)
					continue;
				if (pass)
					st->ctx_ids[st->n_ctx++] = id->value;
				else
					n++;
			}
		}
		if (!pass && !(st->ctx_ids = rs_calloc(n + 1, sizeof(char *))))
			return -ENOMEM;
	}
	return 0;
}

/* Every scalar, past the errors of earlier ones: each bad ${} is
 * reported, up to RS_MAX_ERRORS or a bound. */
static int walk(struct subst *st, struct rs_node *n)
{
	int ret = 0;

	if (n == st->params)
		return 0;
	if (n->type != RS_NODE_SCALAR) {
		for (size_t i = 0; i < n->n && !st->stop &&
				   st->d->errors < RS_MAX_ERRORS; i++) {
			int r = walk(st, &n->items[i]);

			if (r == -ENOMEM)
				return r;
			if (r < 0)
				ret = r;
		}
		return ret;
	}
	if (!strchr(n->value, '$') || !strstr(n->value, "${")) {
		return 0;
	} else {
		unsigned nl = 0;
		uint32_t end = rs_node_end(n);
		char *v, *q;
		int r = expand(st, n->value, n, &v);

		if (r < 0)
			return r;
		for (size_t i = n->start; i < end; i++)
			nl += st->s->doc.text[i] == '\n';
		q = quote(v, nl);
		if (!q) {
			rs_free(v);
			return -ENOMEM;
		}
		n->value = rs_doc_strndup(&st->s->doc, v, (size_t)-1);
		rs_free(v);
		if (!n->value) {
			rs_free(q);
			return -ENOMEM;
		}
		if (st->n == st->cap) {
			size_t cap = st->cap ? st->cap * 2 : 16;
			struct edit *e = rs_reallocarray(st->edits, cap,
							 sizeof(*e));
			if (!e) {
				rs_free(q);
				return -ENOMEM;
			}
			st->edits = e;
			st->cap = cap;
		}
		st->edits[st->n++] = (struct edit){ n->start, end, q };
		return 0;
	}
}

int rs_params_apply(struct rs_scenario *s, const struct rs_set *sets,
		    unsigned n_sets, struct rs_diag *d)
{
	struct rs_node *root = s->doc.root;
	struct subst st = { .s = s, .d = d };
	size_t len, o = 0, prev = 0;
	int r, bad = 0;

	st.params = rs_node_get(root, "params");
	r = declare(s, st.params, d);
	if (!r && s->n_params)
		r = rs_idmap_build_stride(&st.names, &s->params[0].name,
					  sizeof(*s->params), s->n_params);
	if (!r)
		r = override(s, &st.names, sets, n_sets, d,
			     &st.launcher_size);
	if (!r)
		r = context_ids(&st);
	if (!r) {
		st.state = rs_calloc(s->n_params + 1, 1);
		st.stack = rs_calloc(s->n_params + 1, sizeof(*st.stack));
		if (!st.state || !st.stack)
			r = -ENOMEM;
	}
	/* Every param, used or not: a loop is an error wherever it is.
	 * All of them, and then every scalar, each error reported. */
	for (unsigned i = 0; !r && i < s->n_params && !st.stop &&
			     d->errors < RS_MAX_ERRORS; i++) {
		char why[8];
		int pr = param_value(&st, &s->params[i], why, sizeof(why));

		if (pr == -ENOMEM)
			r = pr;
		else if (pr)
			bad = -EINVAL;
	}
	if (!r && !st.stop)
		r = walk(&st, root);
	if (!r)
		r = bad;
	if (r < 0 || !st.n)
		goto out;

	len = s->doc.len;
	for (size_t i = 0; i < st.n; i++)
		len += strlen(st.edits[i].text);
	s->text = rs_malloc(len + 1);
	s->edits = rs_calloc(st.n, sizeof(*s->edits));
	if (!s->text || !s->edits) {
		r = -ENOMEM;
		goto out;
	}
	/* DOM order is file order, so the edits are sorted already. */
	for (size_t i = 0; i < st.n; i++) {
		const struct edit *e = &st.edits[i];
		size_t tl = strlen(e->text);

		memcpy(s->text + o, s->doc.text + prev, e->start - prev);
		o += e->start - prev;
		s->edits[i] = (struct rs_text_edit){
			.orig_start = e->start, .orig_end = e->end,
			.new_start = o, .new_end = o + tl,
		};
		memcpy(s->text + o, e->text, tl);
		o += tl;
		prev = e->end;
	}
	memcpy(s->text + o, s->doc.text + prev, s->doc.len - prev);
	o += s->doc.len - prev;
	s->text[o] = '\0';
	s->text_len = o;
	s->n_edits = st.n;
out:
	rs_idmap_free(&st.names);
	rs_free(st.state);
	rs_free(st.stack);
	rs_free(st.ctx_ids);
	for (size_t i = 0; i < st.n; i++)
		rs_free(st.edits[i].text);
	rs_free(st.edits);
	return r;
}

size_t rs_params_orig_offset(const struct rs_scenario *s, size_t off)
{
	ptrdiff_t delta = 0;

	for (size_t i = 0; i < s->n_edits; i++) {
		const struct rs_text_edit *e = &s->edits[i];

		if (off < e->new_start)
			break;
		if (off < e->new_end)
			return e->orig_start;
		delta = (ptrdiff_t)e->orig_end - (ptrdiff_t)e->new_end;
	}
	return off + delta;
}
