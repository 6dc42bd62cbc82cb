/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_SIGNALS_H
#define RDMASCN_SIGNALS_H

#include <signal.h>

/* The first SIGINT or SIGTERM received, or 0.  Waits check it. */
extern volatile sig_atomic_t rs_interrupted;
/* Readable once a signal came: for uv_poll and poll(). */
int rs_signal_fd(void);
/* 0 after the first signal when the run is still building; teardown
 * ignores further signals (it says so on stderr). */
void rs_signals_install(void);
void rs_signals_teardown(void);

#endif
