// SPDX-License-Identifier: MIT
/*
 * devx: DevX commands written by name with named PRM fields (or as raw
 * hex), checked against the PRM tables before anything runs: an unknown
 * command or field, a structure named as a field, a value wider than
 * its field, an output another object does not have, all at FILE:LINE:COL.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "devx.h"
#include "mlx5.h"
#include "res.h"

const cyaml_schema_value_t mlx5_id_schema = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 1, RDMASCN_ID_MAX),
};

static const cyaml_schema_field_t devx_set_fields[] = {
	CYAML_FIELD_STRING_PTR("field", CYAML_FLAG_POINTER, struct devx_set,
			       field, 1, 256),
	MLX5_FIELD_STR("value", struct devx_set, value),
	MLX5_FIELD_OPT_REF("ref", struct devx_set, ref),
	MLX5_FIELD_STR("out", struct devx_set, out),
	MLX5_FIELD_OPT_REF("uar", struct devx_set, uar),
	MLX5_FIELD_OPT_REF("var", struct devx_set, var),
	MLX5_FIELD_OPT_REF("pp", struct devx_set, pp),
	MLX5_FIELD_OPT_REF("umem", struct devx_set, umem),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t devx_set_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct devx_set,
			    devx_set_fields),
};

static const cyaml_schema_field_t devx_fields[] = {
	MLX5_FIELD_ID(struct devx_obj),
	MLX5_FIELD_AFTER(struct devx_obj),
	MLX5_FIELD_REF("context", struct devx_obj, context),
	MLX5_FIELD_STR("command", struct devx_obj, command),
	MLX5_FIELD_STR("raw", struct devx_obj, raw),
	MLX5_FIELD_OPT_REF("object", struct devx_obj, object),
	CYAML_FIELD_SEQUENCE("set", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			     struct devx_obj, set, &devx_set_schema, 0,
			     CYAML_UNLIMITED),
	CYAML_FIELD_UINT("outlen", CYAML_FLAG_OPTIONAL, struct devx_obj,
			 outlen),
	CYAML_FIELD_END
};

static const struct rdmascn_ref devx_refs[] = {
	MLX5_REF("context", struct devx_obj, context, "mlx5_context"),
	MLX5_REF("object", struct devx_obj, object, "devx_obj"),
	{ .field = "set", .offset = offsetof(struct devx_obj, set),
	  .count_offset = offsetof(struct devx_obj, set_count),
	  .kinds = RDMASCN_KINDS("devx_obj"),
	  .stride = sizeof(struct devx_set), .item_key = "ref" },
#define DEVX_RES_REF(key, kind)                                           \
	{ .field = "set", .offset = offsetof(struct devx_obj, set),       \
	  .count_offset = offsetof(struct devx_obj, set_count),           \
	  .kinds = RDMASCN_KINDS(kind), .stride = sizeof(struct devx_set), \
	  .item_offset = offsetof(struct devx_set, key), .item_key = #key }
	DEVX_RES_REF(uar, "mlx5_uar"),
	DEVX_RES_REF(var, "mlx5_var"),
	DEVX_RES_REF(pp, "mlx5_pp"),
	DEVX_RES_REF(umem, "mlx5_umem"),
	MLX5_REF_AFTER(struct devx_obj),
	{ .field = NULL }
};

int devx_set_res(const struct devx_set *s, const char **ret_id)
{
	const char *ids[] = { s->uar, s->var, s->pp, s->umem };

	/* In mlx5_res_kinds' order. */
	for (int i = 0; i < 4; i++)
		if (ids[i]) {
			*ret_id = ids[i];
			return i;
		}
	return -1;
}

const struct prm_cmd *devx_cmd(const struct devx_obj *d)
{
	uint8_t head[2];

	if (d->command)
		return prm_cmd_find(d->command);
	if (d->raw && prm_unhex(d->raw, head, sizeof(head)) == -ENOSPC)
		return prm_cmd_by_opcode((uint16_t)(head[0] << 8 | head[1]));
	return NULL;
}

enum devx_how devx_how(const struct devx_obj *d, const struct prm_cmd *cmd)
{
	if (d->object && cmd && !strncmp(cmd->name, "MODIFY_", 7))
		return DEVX_MODIFY;
	if (d->object)
		return DEVX_QUERY;
	if (!cmd && d->raw)
		return DEVX_CREATE;     /* raw without object: a create */
	return prm_create_of(cmd) ? DEVX_CREATE : DEVX_GENERAL;
}

const char *devx_out_name(const struct devx_obj *target, const char *out)
{
	const struct prm_create *cr;

	if (out)
		return out;
	cr = prm_create_of(devx_cmd(target));
	return cr ? cr->id : NULL;
}

uint32_t devx_outlen(const struct devx_obj *d, const struct prm_cmd *cmd)
{
	if (d->outlen)
		return d->outlen;
	return cmd ? cmd->out->bits / 8 : 16;
}

/* The destroy a create derives: not a command of its own. */
static const struct prm_create *destroyed_by(const struct prm_cmd *cmd)
{
	for (size_t i = 0; cmd && i < prm_n_creates; i++)
		if (!strcmp(prm_creates[i].destroy, cmd->name))
			return &prm_creates[i];
	return NULL;
}

/* The commands one can write, for "did you mean": those a destroy is
 * not derived from ("" skips one). */
static const char *cmd_name(void *arg, unsigned i, char *tmp, size_t tmp_len)
{
	(void)arg, (void)tmp, (void)tmp_len;
	if (i >= prm_n_cmds)
		return NULL;
	return destroyed_by(&prm_cmds[i]) ? "" : prm_cmds[i].name;
}

/* "CQ" of QUERY_CQ, CREATE_CQ, ALLOC_PD's "PD": what a command is on. */
static const char *object_word(const char *name)
{
	const char *u = strchr(name, '_');

	return u ? u + 1 : name;
}

static int check_value(struct rdmascn_obj *obj, struct rdmascn_diag *d,
		       unsigned i, const struct devx_set *s,
		       const struct prm_loc *loc)
{
	char path[48];
	uint8_t bytes[64];
	uint64_t v;
	size_t n;
	int r;

	snprintf(path, sizeof(path), "set[%u].value", i);
	r = prm_parse_value(s->value, &v, bytes, sizeof(bytes), &n);
	if (r == -EINVAL) {
		rdmascn_obj_error(d, obj, path, "'%s' is not a number "
				  "(decimal, or hex with 0x)", s->value);
		return -EINVAL;
	}
	if (!r && n && n > (loc->width + 7) / 8)
		r = -ERANGE;
	if (!r && n && loc->width <= 64) {
		/* Long hex for a narrow field: its value must fit. */
		for (size_t k = 0; k + 8 < n; k++)
			if (bytes[k])
				r = -ERANGE;
		v = 0;
		for (size_t k = n > 8 ? n - 8 : 0; k < n; k++)
			v = v << 8 | bytes[k];
	}
	if (!r && loc->width < 64 && v >> loc->width)
		r = -ERANGE;
	if (r) {
		rdmascn_obj_error(d, obj, path, "%s does not fit %s (%" PRIu32
				  " bits)", s->value, s->field, loc->width);
		return -ERANGE;
	}
	return 0;
}

static int check_ref(struct rdmascn_obj *obj, struct rdmascn_diag *d,
		     unsigned i, const struct devx_set *s,
		     const struct prm_loc *loc)
{
	const struct devx_obj *t = rdmascn_obj_ref_data(obj, s->ref);
	const struct prm_cmd *tc = t ? devx_cmd(t) : NULL;
	const char *out = t ? devx_out_name(t, s->out) : NULL;
	struct prm_loc from;
	char path[48];

	if (!t)
		return -EINVAL;         /* resolve said so */
	snprintf(path, sizeof(path), "set[%u].%s", i, s->out ? "out" : "ref");
	if (!tc) {
		rdmascn_obj_error(d, obj, path, "'%s' is raw hex with an "
				  "opcode we have no layout for: its "
				  "outputs have no names", s->ref);
		return -EINVAL;
	}
	if (!out) {
		rdmascn_obj_error(d, obj, path, "%s returns no object id: "
				  "name one of its outputs with out:",
				  tc->name);
		return -EINVAL;
	}
	if (prm_find(tc->out, out, &from)) {
		rdmascn_obj_error(d, obj, path, "%s (of '%s') has no output "
				  "'%s'", tc->name, s->ref, out);
		return -EINVAL;
	}
	if (from.width > 64 || (from.width > loc->width)) {
		rdmascn_obj_error(d, obj, path, "%s's %s is %" PRIu32 " bits, "
				  "%s is %" PRIu32, tc->name, out, from.width,
				  s->field, loc->width);
		return -ERANGE;
	}
	return 0;
}

static int check_set(struct rdmascn_obj *obj, struct rdmascn_diag *d,
		     const struct prm_cmd *cmd, unsigned i,
		     const struct devx_set *s)
{
	struct prm_loc loc;
	const char *res_id;
	char path[48];
	int r, res;

	snprintf(path, sizeof(path), "set[%u].field", i);
	r = prm_find(cmd->in, s->field, &loc);
	if (!r && !strcmp(s->field, "opcode")) {
		rdmascn_obj_error(d, obj, path, "the command's name sets the "
				  "opcode");
		return -EINVAL;
	}
	if (r == -EISDIR) {
		rdmascn_obj_error(d, obj, path, "'%s' is a structure: name a "
				  "field in it ('%s.FIELD')", s->field,
				  s->field);
		return -EINVAL;
	}
	if (r == -ERANGE) {
		rdmascn_obj_error(d, obj, path, "'%s': index past the end of "
				  "its array", s->field);
		return -EINVAL;
	}
	if (r) {
		char near[160];

		mlx5_field_near(cmd->in, s->field, near, sizeof(near));
		rdmascn_obj_error(d, obj, path, "%s has no field '%s'%s",
				  cmd->name, s->field, near);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "set[%u]", i);
	if (!!s->value + !!s->ref + !!s->uar + !!s->var + !!s->pp +
	    !!s->umem != 1) {
		rdmascn_obj_error(d, obj, path, "give value: or ref: (or a "
				  "resource: uar:, var:, pp:, umem:), one of "
				  "them");
		return -EINVAL;
	}
	res = devx_set_res(s, &res_id);
	if (res >= 0) {
		const struct mlx5_res_kind *rk = &mlx5_res_kinds[res];

		if (rk->width <= loc.width)
			return 0;
		snprintf(path, sizeof(path), "set[%u].%s", i, rk->key);
		rdmascn_obj_error(d, obj, path, "%s's %s is %" PRIu32 " bits, "
				  "%s is %" PRIu32, res_id, rk->out, rk->width,
				  s->field, loc.width);
		return -ERANGE;
	}
	if (s->out && !s->ref) {
		snprintf(path, sizeof(path), "set[%u].out", i);
		rdmascn_obj_error(d, obj, path, "out: names an output of the "
				  "object in ref:, and there is none");
		return -EINVAL;
	}
	return s->value ? check_value(obj, d, i, s, &loc) :
			  check_ref(obj, d, i, s, &loc);
}

static int check_raw(struct rdmascn_obj *obj, struct rdmascn_diag *d,
		     const struct devx_obj *x)
{
	static uint8_t buf[DEVX_MAX_IN];
	long n = prm_unhex(x->raw, buf, sizeof(buf));

	if (n == -ENOSPC) {
		rdmascn_obj_error(d, obj, "raw", "longer than %u bytes",
				  DEVX_MAX_IN);
		return -EINVAL;
	}
	if (n < 0 || n < 8 || n % 4) {
		rdmascn_obj_error(d, obj, "raw", "not a command's input: "
				  "hex digits, a whole number of 32-bit "
				  "words, 8 bytes at least");
		return -EINVAL;
	}
	if (x->set_count) {
		rdmascn_obj_error(d, obj, "set", "set: needs command: (raw "
				  "is the whole input)");
		return -EINVAL;
	}
	if (!devx_cmd(x) && !x->outlen) {
		rdmascn_obj_error(d, obj, "raw", "opcode 0x%02x%02x has no "
				  "layout here: give outlen:", buf[0], buf[1]);
		return -EINVAL;
	}
	return 0;
}

static int devx_check(struct rdmascn_obj *obj, struct rdmascn_diag *d)
{
	const struct devx_obj *x = rdmascn_obj_data(obj);
	const struct prm_cmd *cmd;
	const struct prm_create *cr;
	int ret = 0;

	if (!x->command == !x->raw) {
		rdmascn_obj_error(d, obj, NULL, "give command: or raw:, one "
				  "of them");
		return -EINVAL;
	}
	if (x->outlen > DEVX_MAX_OUT) {
		rdmascn_obj_error(d, obj, "outlen", "more than %u bytes",
				  DEVX_MAX_OUT);
		return -EINVAL;
	}
	if (x->raw)
		return check_raw(obj, d, x);
	cmd = devx_cmd(x);
	if (!cmd) {
		char names[1024];
		size_t o = 0;

		/* As libcyaml names an enum's values: those one can write. */
		for (size_t i = 0; i < prm_n_cmds && o < sizeof(names); i++)
			if (!destroyed_by(&prm_cmds[i]))
				o += (size_t)snprintf(names + o,
						      sizeof(names) - o,
						      "%s%s", o ? ", " : "",
						      prm_cmds[i].name);
		char near[160];

		rdmascn_did_you_mean(x->command, cmd_name, NULL, near,
				     sizeof(near));
		rdmascn_obj_error(d, obj, "command", "unknown DevX command "
				  "'%s'%s (expected one of: %s)", x->command,
				  near, names);
		return -EINVAL;
	}
	cr = destroyed_by(cmd);
	if (cr) {
		rdmascn_obj_error(d, obj, "command", "%s is derived from %s "
				  "when that object is destroyed: declare the "
				  "%s", cmd->name, cr->create, cr->create);
		return -EINVAL;
	}
	if (x->outlen && x->outlen < cmd->out->bits / 8) {
		rdmascn_obj_error(d, obj, "outlen", "%s's output is %u bytes",
				  cmd->name, cmd->out->bits / 8);
		return -EINVAL;
	}
	if (prm_create_of(cmd) && x->object) {
		rdmascn_obj_error(d, obj, "object", "%s makes an object; "
				  "object: is for QUERY_ and MODIFY_",
				  cmd->name);
		return -EINVAL;
	}
	if (!prm_create_of(cmd) && !x->object &&
	    (!strncmp(cmd->name, "QUERY_", 6) ||
	     !strncmp(cmd->name, "MODIFY_", 7)) &&
	    strcmp(cmd->name, "QUERY_HCA_CAP")) {
		rdmascn_obj_error(d, obj, "command", "%s is about an object: "
				  "name it with object:", cmd->name);
		return -EINVAL;
	}
	if (x->object) {
		const struct devx_obj *t = rdmascn_obj_ref_data(obj, x->object);
		const struct prm_cmd *tc = t ? devx_cmd(t) : NULL;

		if (tc && strcmp(object_word(tc->name),
				 object_word(cmd->name))) {
			rdmascn_obj_error(d, obj, "object", "%s is not about "
					  "what %s made ('%s')", cmd->name,
					  tc->name, x->object);
			return -EINVAL;
		}
	}
	for (unsigned i = 0; i < x->set_count; i++)
		if (check_set(obj, d, cmd, i, &x->set[i]) < 0)
			ret = -EINVAL;
	return ret;
}

extern const struct rdmascn_ops mlx5_devx_ops;

const struct rdmascn_kind mlx5_kind_devx = {
	.name = "devx_obj",
	.section = "devx",
	.summary = "a DevX command by name with named PRM fields, or raw "
		   "hex (mlx5dv_devx_obj_create, _general_cmd, _obj_query, "
		   "_obj_modify)",
	.fields = devx_fields,
	.size = sizeof(struct devx_obj),
	.id_offset = offsetof(struct devx_obj, id),
	.refs = devx_refs,
	.check = devx_check,
	.ops = &mlx5_devx_ops,
};
