// SPDX-License-Identifier: MIT
/* The figure table (figures.h) laid out as data. */
#include <stddef.h>
#include <string.h>

#include "figures.h"

#define RS_FIGURE_ROW(id, g, k, t, u, d, b, a, gate, h, desc)             \
	[RS_FIGROW_##id] = { g, k, RS_FIGT_##t, u, d, b, a, RS_FIGG_##gate, \
			     h, desc },
const struct rs_figure_row rs_figure_rows[RS_FIGROW_COUNT] = {
	RS_FIGURE_MAP(RS_FIGURE_ROW)
};
#undef RS_FIGURE_ROW

#define RS_FIG_DEF_NO(id, g, k, u, h)
#define RS_FIG_DEF_LOW(id, g, k, u, h)                                    \
	[RS_FIG_##id] = { g "." k, g, k, u, true, h },
#define RS_FIG_DEF_HIGH(id, g, k, u, h)                                   \
	[RS_FIG_##id] = { g "." k, g, k, u, false, h },
#define RS_FIG_DEF(id, g, k, t, u, d, b, a, gate, h, desc)                \
	RS_FIG_DEF_##gate(id, g, k, u, h)
const struct rs_figure_def rs_figures[RS_FIG_COUNT] = {
	RS_FIGURE_MAP(RS_FIG_DEF)
};
#undef RS_FIG_DEF

#define RS_FIGURE_GROUP(g, desc) { g, desc },
static const struct {
	const char *group;
	const char *description;
} groups[] = {
	RS_FIGURE_GROUP_MAP(RS_FIGURE_GROUP)
};
#undef RS_FIGURE_GROUP

const char *rs_figure_group_description(const char *group)
{
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (!strcmp(groups[i].group, group))
			return groups[i].description;
	return NULL;
}

const struct rs_figure_def *rs_figure_find(const char *group, const char *key)
{
	for (unsigned i = 0; i < RS_FIG_COUNT; i++)
		if (!strcmp(rs_figures[i].group, group) &&
		    !strcmp(rs_figures[i].key, key))
			return &rs_figures[i];
	return NULL;
}
