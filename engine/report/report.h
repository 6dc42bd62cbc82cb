/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_REPORT_H
#define RDMASCN_REPORT_H

#include <stdio.h>

#include "record.h"

/* What users read as the run goes, on @out (calls of a -v run on
 * stderr).  NULL when out of memory. */
struct rs_reporter *rs_report_text(FILE *out);
/* The whole record as one JSON document, written at the end to @path
 * ("-": stdout). */
struct rs_reporter *rs_report_json(const char *path);

#endif
