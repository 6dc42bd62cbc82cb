/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_DEVICES_H
#define RDMASCN_DEVICES_H

#include "value.h"

/*
 * Describe the RDMA devices of this host (all, or only @name) as data:
 * an array of device objects with their ports, GIDs and capabilities.
 * Returns 0, -ENODEV when there is none (or none called @name), or -errno.
 */
int rs_devices_describe(const char *name, struct rs_val **ret_devices);

/* Tell the user how to get a device; used wherever none was found.
 * @retry is the command line to try in the VM ("rdmascn devices"). */
void rs_devices_explain_none(FILE *f, const char *retry);

#endif
