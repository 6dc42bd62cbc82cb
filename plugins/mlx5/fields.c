// SPDX-License-Identifier: MIT
/*
 * What the kinds of UAR, VAR, packet pacing, UMEM and flow steering
 * share: the resources a devx `set:` item can name, and PRM structures
 * written as named fields, checked at validate time against the same
 * tables DevX commands use.  The DevX context they need is checked by
 * kind_mlx5_context.c (mlx5_need_devx()): the kinds' files stand on
 * this one, and it calls none of them back.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "res.h"

const struct mlx5_res_kind mlx5_res_kinds[] = {
	/* page_id is a uint32_t; the PRM's uar_page fields are 24 bits. */
	{ "uar", "mlx5_uar", "page_id", 24 },
	{ "var", "mlx5_var", "page_id", 32 },
	{ "pp", "mlx5_pp", "index", 16 },
	{ "umem", "mlx5_umem", "umem_id", 32 },
};
const unsigned mlx5_n_res_kinds = sizeof(mlx5_res_kinds) /
				  sizeof(mlx5_res_kinds[0]);

static const cyaml_schema_field_t mlx5_field_fields[] = {
	CYAML_FIELD_STRING_PTR("field", CYAML_FLAG_POINTER, struct mlx5_field,
			       field, 1, 256),
	MLX5_FIELD_STR("value", struct mlx5_field, value),
	MLX5_FIELD_STR("mask", struct mlx5_field, mask),
	CYAML_FIELD_END
};

const cyaml_schema_value_t mlx5_field_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct mlx5_field,
			    mlx5_field_fields),
};

/* @s fits @width bits: 0, -EINVAL (not a number), -ERANGE. */
static int fits(const char *s, uint32_t width)
{
	uint8_t bytes[64];
	uint64_t v;
	size_t n;

	if (prm_parse_value(s, &v, bytes, sizeof(bytes), &n))
		return -EINVAL;
	if (n) {
		/* Long hex: its leading bytes past the field are zero. */
		size_t keep = (width + 7) / 8;

		for (size_t k = 0; k + keep < n; k++)
			if (bytes[k])
				return -ERANGE;
		if (width % 8 && n >= keep &&
		    bytes[n - keep] >> (width % 8))
			return -ERANGE;
		return 0;
	}
	return width < 64 && v >> width ? -ERANGE : 0;
}

/* The fields of one layout, each after the path that led there. */
struct near_level {
	const struct prm_layout *l;
	const char *prefix;      /* "cq_context." */
	size_t prefix_len;
};

static const char *level_name(void *arg, unsigned i, char *tmp,
			      size_t tmp_len)
{
	const struct near_level *n = arg;

	/* Asked in order from 0: past the last, the NULL ending them. */
	if (!n->l->fields[i].name)
		return NULL;
	snprintf(tmp, tmp_len, "%.*s%s", (int)n->prefix_len, n->prefix,
		 n->l->fields[i].name);
	return tmp;
}

size_t mlx5_field_near(const struct prm_layout *l, const char *path,
		       char *buf, size_t len)
{
	struct near_level n = { .l = l, .prefix = path };
	const char *p = path;

	/* Down the names that are there; the first that is not is the
	 * mistyped one, among its layout's fields. */
	while (n.l) {
		size_t w = strcspn(p, ".[");
		const struct prm_field *f;

		for (f = n.l->fields; f->name; f++)
			if (strlen(f->name) == w && !strncmp(f->name, p, w))
				break;
		if (!f->name || !f->sub)
			break;
		p += w;
		if (*p == '[')
			p += strcspn(p, "]") + (p[strcspn(p, "]")] ? 1 : 0);
		if (*p != '.')
			break;
		p++;
		n.l = f->sub;
		n.prefix_len = (size_t)(p - path);
	}
	if (!n.l) {
		buf[0] = '\0';
		return 0;
	}
	return rdmascn_did_you_mean(path, level_name, &n, buf, len);
}

int mlx5_fields_check(struct rdmascn_obj *obj, struct rdmascn_diag *d,
		      const char *key, const struct prm_layout *l,
		      const struct mlx5_field *f, unsigned n, bool masks)
{
	char path[64];
	int ret = 0;

	for (unsigned i = 0; i < n; i++) {
		const char *what = masks ? "mask" : "value";
		const char *s = masks ? f[i].mask : f[i].value;
		struct prm_loc loc;
		int r = prm_find(l, f[i].field, &loc);

		snprintf(path, sizeof(path), "%s[%u].field", key, i);
		if (r == -EISDIR) {
			rdmascn_obj_error(d, obj, path, "'%s' is a structure: "
					  "name a field in it ('%s.FIELD')",
					  f[i].field, f[i].field);
			ret = -EINVAL;
			continue;
		}
		if (r) {
			char near[160];

			mlx5_field_near(l, f[i].field, near, sizeof(near));
			rdmascn_obj_error(d, obj, path,
					  "%s has no field '%s'%s", l->name,
					  f[i].field, near);
			ret = -EINVAL;
			continue;
		}
		snprintf(path, sizeof(path), "%s[%u]", key, i);
		if (masks ? !!f[i].value : !f[i].value || f[i].mask) {
			rdmascn_obj_error(d, obj, path, masks ?
					  "a criterion has a mask (all ones "
					  "when left out), not a value" :
					  "give value: (and no mask: the "
					  "matcher has the masks)");
			ret = -EINVAL;
			continue;
		}
		if (!s)
			continue;
		snprintf(path, sizeof(path), "%s[%u].%s", key, i, what);
		r = fits(s, loc.width);
		if (r == -EINVAL)
			rdmascn_obj_error(d, obj, path, "'%s' is not a number "
					  "(decimal, or hex with 0x)", s);
		else if (r)
			rdmascn_obj_error(d, obj, path, "%s does not fit %s "
					  "(%" PRIu32 " bits)", s, f[i].field,
					  loc.width);
		if (r)
			ret = -EINVAL;
	}
	return ret;
}

void mlx5_fields_vals(const struct mlx5_field *f, unsigned n, bool masks,
		      const struct prm_layout *l, struct prm_val *vals,
		      uint8_t (*wide)[64])
{
	for (unsigned i = 0; i < n; i++) {
		const char *s = masks ? f[i].mask : f[i].value;
		struct prm_loc loc = { 0, 64 };

		vals[i] = (struct prm_val){ .field = f[i].field };
		prm_find(l, f[i].field, &loc);
		if (s) {
			prm_parse_value(s, &vals[i].v, wide[i],
					sizeof(wide[i]), &vals[i].n);
		} else if (loc.width > 64) {
			vals[i].n = loc.width / 8 < 64 ? loc.width / 8 : 64;
			memset(wide[i], 0xff, vals[i].n);
		} else {
			vals[i].v = loc.width == 64 ? ~0ull :
				    (1ull << loc.width) - 1;
		}
		vals[i].bytes = wide[i];
	}
}
