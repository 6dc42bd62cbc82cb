/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_SIGNALS_H
#define RDMASCN_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

/* The first SIGINT or SIGTERM received, or 0.  Waits check it. */
extern volatile sig_atomic_t rs_interrupted;
/* Readable once a signal came: for uv_poll and poll(). */
int rs_signal_fd(void);
/* The handlers, without SA_RESTART: a blocked open() or write() ends
 * with EINTR. */
void rs_signals_install(void);
/* While @on, output @fd is made non-blocking by a signal when it is a
 * pipe, FIFO or socket (standard output always is): a write blocked
 * there ends.  outfile.c calls it. */
void rs_signals_unblock_fd(int fd, bool on);
/* Around one teardown: a signal in between is noted on stderr and does
 * not stop it; the first such signal becomes rs_interrupted at _end(),
 * so what follows (a matrix's next cell) stops.  Called in pairs, once
 * per teardown. */
void rs_signals_teardown_begin(void);
void rs_signals_teardown_end(void);

#endif
