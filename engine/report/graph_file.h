/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_GRAPH_FILE_H
#define RDMASCN_GRAPH_FILE_H

#include "dot.h"

enum rs_graph_format {
	RS_GRAPH_DOT,
	RS_GRAPH_SVG,
	RS_GRAPH_PNG,
};

/* "dot", "svg", "png": the format; -1 for any other name. */
int rs_graph_format_by_name(const char *name);
/* By @path's extension: .dot and .gv are DOT, .svg SVG, .png PNG; -1
 * for any other or none. */
int rs_graph_format_of(const char *path);

/*
 * rs_dot_write_run() into @path (NULL: stdout) as @fmt: DOT written
 * here, SVG and PNG by Graphviz's `dot`, run from PATH with the DOT text
 * on its stdin.  Returns 0, or -errno after one line on stderr that
 * starts "rdmascn: @what: " (ENOENT and "not in PATH" when there is no
 * `dot`; -EIO when `dot` failed, after its own message).
 */
int rs_graph_write(const char *path, enum rs_graph_format fmt,
		   const char *what, const struct rs_scenario *s,
		   const struct rs_dot_run *run);

#endif
