/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_MEM_H_PUBLIC
#define RDMASCN_MEM_H_PUBLIC

#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

/*
 * Memory as the steps see it: what the facet as_mem (rdmascn/kind.h)
 * gives.  The core's mrs are such memory; a plugin's kind that is memory
 * the steps may name where an mr is asked for (mlx5's indirect mkeys)
 * makes a handle for it.  Such memory is addressed as the steps address
 * an mr: local offsets from its address, keys from its ibv_mr (whose
 * lkey and rkey are what WRs carry).
 */
struct rdmascn_run;
struct rdmascn_mem_handle;

/* @mr's keys, @addr what a peer puts in remote_addr, @length bytes; @buf
 * the bytes when they are one range of this process's memory, else NULL.
 * NULL when out of memory. */
struct rdmascn_mem_handle *rdmascn_mem_handle_new(struct ibv_mr *mr,
						  uint64_t addr,
						  size_t length, void *buf);
void rdmascn_mem_handle_free(struct rdmascn_mem_handle *h);

/* The memory the object @id is (its facet as_mem: an mr); NULL when it
 * is none or not made (a dry run).  Its keys and address. */
struct rdmascn_mem_handle *rdmascn_live_mem(struct rdmascn_run *run,
					    const char *id);
const struct ibv_mr *rdmascn_mem_mr(const struct rdmascn_mem_handle *h);
uint64_t rdmascn_mem_addr(const struct rdmascn_mem_handle *h);

#endif
