// SPDX-License-Identifier: MIT
/*
 * The run record's one call that is not an entry: the engine is about
 * to wait.  Reporters may hold output back between entries (a line
 * written out per object is a syscall each, dear under emulation), and
 * this is where they must let it go: a script that waits for a line
 * before it signals the run, or `tail -f`, would otherwise wait for
 * output the run itself holds back while it waits.
 */
#include "record.h"

void rs_record_before_wait(struct rs_record *rec)
{
	/* Under the record's lock: a parallel step's thread may be adding
	 * an entry to the same stream. */
	pthread_mutex_lock(&rec->lock);
	for (unsigned i = 0; i < rec->n_reporters; i++)
		if (rec->reporters[i]->ops->before_wait)
			rec->reporters[i]->ops->before_wait(rec->reporters[i]);
	pthread_mutex_unlock(&rec->lock);
}
