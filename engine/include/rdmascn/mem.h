/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_MEM_H_PUBLIC
#define RDMASCN_MEM_H_PUBLIC

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

/*
 * Memory as the steps see it: what the facet as_mem (rdmascn/kind.h)
 * returns.  The core's mrs keep one in their rt; a plugin's kind that
 * is memory the steps may name where an mr is asked for (mlx5's
 * indirect mkeys) keeps one too (ABI 5: a structure that was only named
 * before, its layout unchanged).  Such memory is addressed as the steps
 * address an mr: local offsets from @addr, keys from @mr (an ibv_mr
 * whose lkey and rkey are what WRs carry); @buf NULL when its bytes are
 * not one range of this process's memory.
 */
struct rs_mr_rt {
	void *buf;               /* the bytes (NULL for a dm mr) */
	size_t length;           /* as declared */
	size_t map_length;       /* what was mmap()ed, 0 if allocated */
	struct ibv_mr *mr;
	uint64_t addr;           /* what the peer puts in remote_addr: the
				  * iova when given, else buf */
	bool imported;           /* buf is the original mr's */
	struct {                 /* a dma-buf mr's (map NULL: none) */
		void *map;       /* the memfd's pages; buf is in them */
		size_t size;
		int memfd, fd;   /* the memfd, the dma-buf */
	} dmabuf;
};

/* The memory the object @id is (its facet as_mem: an mr); NULL when it
 * is none or not made (a dry run). */
struct rs_run;
struct rs_mr_rt *rdmascn_live_mem(struct rs_run *run, const char *id);

#endif
