/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_PUBLIC_NAMES_H
#define RDMASCN_PUBLIC_NAMES_H

/*
 * The handles of the plugin ABI (include/rdmascn/) are opaque: a plugin
 * knows them as struct rdmascn_*, the engine, which defines them, as its
 * own structs.  A struct tag is no part of the ABI (no symbol, no
 * layout), so the engine reads the public headers with its own names for
 * them; every engine header that includes a public one includes this
 * first, and a file that does not fails to build (two struct types).
 */
#define rdmascn_run rs_run
#define rdmascn_live rs_live
#define rdmascn_obj rs_obj
#define rdmascn_diag rs_diag
#define rdmascn_val rs_val
#define rdmascn_step_run rs_step_run
#define rdmascn_dev rs_dev
#define rdmascn_qp_handle rs_qp_rt
#define rdmascn_cq_handle rs_cq_rt
#define rdmascn_mem_handle rs_mr_rt
#define rdmascn_mw_handle rs_mw_rt

#endif
