/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_RUN_KEY_H
#define RDMASCN_RUN_KEY_H

#include <stddef.h>
#include <stdint.h>

struct rs_cmd;

/* A run key's length in bytes, trailing white space not counted. */
#define RS_KEY_MIN 16
#define RS_KEY_MAX 4096

/*
 * The run's key, which every node of a run must hold (docs/nodes.md,
 * "Who can join"): the contents of @file (--key-file), else of the
 * environment's RDMASCN_KEY, else none (*@ret_len 0).  A key file must
 * be a regular file that only its owner may read or write, as ssh and
 * MUNGE want theirs.  0, or an exit code with the reason on stderr.
 * *@ret is rs_malloc()ed; free it with rs_run_key_free().
 */
int rs_run_key_load(const struct rs_cmd *cmd, const char *file,
		    uint8_t **ret, size_t *ret_len);
void rs_run_key_free(uint8_t *key, size_t len);

#endif
