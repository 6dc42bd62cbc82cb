/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_LITERAL_H
#define RDMASCN_LITERAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "model.h"

/*
 * Bytes written into a scenario (literal.c): an mr's `fill_text`,
 * `fill_hex`, `fill_file` and verify's `equals_text`, `equals_hex`,
 * `equals_file`.  Text is its UTF-8 bytes without a terminating NUL; hex
 * is pairs of digits, bytes apart or together ("de ad be ef",
 * "deadbeef", "de:ad:be:ef"); a file is read whole, its path relative to
 * the scenario file's directory unless absolute.
 */
enum rs_literal_form { RS_LIT_NONE, RS_LIT_TEXT, RS_LIT_HEX, RS_LIT_FILE };

/* "text", "hex", "file" (or "none"). */
const char *rs_literal_form_name(int form);

/*
 * Hex digits into bytes: how many bytes @s holds (written to @out when
 * not NULL, at most @cap of them), or -EINVAL with the offset of the
 * offending character in *@ret_bad: not a hex digit, or a last digit
 * without its pair.  Space, tab, newline and ':' may stand
 * between bytes.
 */
ssize_t rs_hex_parse(const char *s, uint8_t *out, size_t cap,
		     size_t *ret_bad);

/* @file as opened: as written when absolute, else beside @obj's
 * scenario file.  0, or -ENAMETOOLONG. */
int rs_literal_path(const struct rs_obj *obj, const char *file, char *buf,
		    size_t len);

/* Whether the file at @path (stat() or an open @fd's fstat(), @fd >= 0
 * wins) holds data to read or map: 0, -EINVAL when it is not a regular
 * file (a FIFO would block, /dev/zero never ends), -EPERM when it is on
 * /proc or /sys (/proc/self/mem is "regular"), or -errno. */
int rs_literal_plain(const char *path, int fd);
/* What rs_literal_plain()'s @r means, in words. */
const char *rs_literal_why(int r);
/*
 * At validate: the length of the literal of @form in field @field of
 * @obj (@value as written), errors through rs_obj_error() naming the
 * field: bad hex, empty, a file that cannot be read.  0 or -EINVAL.
 */
int rs_literal_check(const struct rs_obj *obj, struct rs_diag *d,
		     const char *field, int form, const char *value,
		     uint64_t *ret_len);

/* At run time: the bytes (rs_malloc()ed, *@ret_len of them); 0, or
 * -errno with the reason in @err. */
int rs_literal_load(const struct rs_obj *obj, int form, const char *value,
		    uint8_t **ret, size_t *ret_len, char *err, size_t errlen);

#endif
