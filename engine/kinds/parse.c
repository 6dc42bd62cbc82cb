// SPDX-License-Identifier: MIT
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "hex.h"
#include "parse.h"

bool rs_is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int rs_parse_mac(const char *s, uint8_t mac[6])
{
	uint8_t out[6];
	char sep;

	if (!s || strlen(s) != 17)
		return -EINVAL;
	sep = s[2];
	if (sep != ':' && sep != '-')
		return -EINVAL;
	for (int i = 0; i < 6; i++) {
		const char *p = s + 3 * i;
		int hi = rs_hex_digit(p[0]), lo = rs_hex_digit(p[1]);

		if (hi < 0 || lo < 0 || (i < 5 && p[2] != sep))
			return -EINVAL;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	memcpy(mac, out, sizeof(out));
	return 0;
}

int rs_parse_ipv4(const char *s, uint8_t ip[4])
{
	struct in_addr a;

	if (!s || inet_pton(AF_INET, s, &a) != 1)
		return -EINVAL;
	memcpy(ip, &a, 4);
	return 0;
}

int rs_parse_ipv6(const char *s, uint8_t ip[16])
{
	struct in6_addr a;

	if (!s || inet_pton(AF_INET6, s, &a) != 1)
		return -EINVAL;
	memcpy(ip, &a, 16);
	return 0;
}

int rs_parse_gid(const char *s, uint8_t gid[16])
{
	uint8_t v4[4];

	if (!rs_parse_ipv6(s, gid))
		return 0;
	if (rs_parse_ipv4(s, v4))
		return -EINVAL;
	memset(gid, 0, 10);
	gid[10] = gid[11] = 0xff;
	memcpy(gid + 12, v4, 4);
	return 0;
}

int rs_parse_ip_family(const char *s)
{
	uint8_t b[16];

	if (!rs_parse_ipv4(s, b))
		return AF_INET;
	if (!rs_parse_ipv6(s, b))
		return AF_INET6;
	return -EINVAL;
}
