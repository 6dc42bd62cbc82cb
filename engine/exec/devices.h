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

/* How to get a device, for wherever none was found: lines (each ending
 * in a newline) into @buf; snprintf()'s return.  @retry is the command
 * line to try in the VM ("rdmascn devices"). */
int rs_devices_advice(char *buf, size_t len, const char *retry);

#endif
