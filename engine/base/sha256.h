/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_SHA256_H
#define RDMASCN_SHA256_H

#include <stddef.h>

/* 64 hex digits and the NUL. */
#define RS_SHA256_HEX 65

/*
 * SHA-256 (FIPS 180-4) of @p, @n bytes, as lower-case hex in @ret, which
 * it returns: the scenario file's fingerprint in the record, the nodes'
 * check that they run the same file, `report`'s that it was given the
 * file the record ran.  Ours, not libmd's SHA256Data(): one library
 * fewer for every process to load (docs/setup-speed-log.md, set-up 5); the
 * rendezvous' HMAC stays nettle's.
 */
char *rs_sha256_hex(const void *p, size_t n, char ret[RS_SHA256_HEX]);

#endif
