/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_PARSE_H
#define RDMASCN_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/* Pure helpers the kinds' checks share.  Parsers return 0 or -EINVAL. */
bool rs_is_pow2(uint64_t v);
/* "aa:bb:cc:dd:ee:ff" (or '-' separated), two hex digits a byte. */
int rs_parse_mac(const char *s, uint8_t mac[6]);
int rs_parse_ipv4(const char *s, uint8_t ip[4]);
int rs_parse_ipv6(const char *s, uint8_t ip[16]);
/* A GID: IPv6 text ("fe80::1", or eight groups as ibv_devinfo prints),
 * or IPv4 mapped to ::ffff:a.b.c.d as RoCE v2 does. */
int rs_parse_gid(const char *s, uint8_t gid[16]);
/* An IPv4 or IPv6 address literal: AF_INET, AF_INET6, or -EINVAL. */
int rs_parse_ip_family(const char *s);

#endif
