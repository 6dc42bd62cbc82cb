// SPDX-License-Identifier: MIT
/* libpmix, loaded on first use (pmix_load.h). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#define RS_PMIX_LOAD_IMPL
#include "dl.h"
#include "macros.h"
#include "pmix_load.h"

const struct rs_pmix_lib *rs_pmix_lib;

static struct rs_pmix_lib lib;
static int loaded;              /* 0 loaded, -ELIBACC failed */
static char why[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	static const struct rs_dl_sym syms[] = {
#define SYM(field) { "PMIx_" #field, offsetof(struct rs_pmix_lib, field) }
		SYM(Init), SYM(Finalize), SYM(Abort), SYM(Put), SYM(Commit),
		SYM(Get), SYM(Fence_nb), SYM(Notify_event),
		SYM(Register_event_handler), SYM(Deregister_event_handler),
		SYM(Error_string), SYM(Info_load), SYM(Value_destruct),
#undef SYM
	};
	/* Never closed (rs_dl_load()): PMIx_Finalize() leaves libpmix's
	 * threads and state behind, and a later meeting in the process
	 * uses it again. */
	loaded = rs_dl_load(RDMASCN_PMIX_LIB, syms, RS_N(syms), &lib, why,
			    sizeof(why));
	if (!loaded)
		rs_pmix_lib = &lib;
}

int rs_pmix_load(char *err, size_t errlen)
{
	pthread_once(&once, load);
	if (loaded)
		snprintf(err, errlen, "cannot load libpmix: %s", why);
	return loaded;
}
