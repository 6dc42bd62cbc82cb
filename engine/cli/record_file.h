/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_RECORD_FILE_H
#define RDMASCN_RECORD_FILE_H

#include <json-c/json.h>

/* The most a record file may hold: a dry run of a million objects
 * writes about 600 MiB. */
#define RS_RECORD_FILE_MAX (1024ull << 20)

/* The JSON document in @path (a regular file of at most
 * RS_RECORD_FILE_MAX bytes), or NULL with the reason said on stderr as
 * "rdmascn: CMD: PATH: ...". */
struct json_object *rs_cli_read_json(const char *cmd, const char *path);

#endif
