/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_PMIX_LOAD_H
#define RDMASCN_PMIX_LOAD_H

#include <stddef.h>

#include <pmix.h>

/*
 * libpmix, loaded (dlopen) when a rendezvous goes through PMIx rather
 * than at every start: with what it pulls in (libevent, hwloc, munge,
 * udev) it was six of the shared libraries every command loaded, and its
 * directory outside the system's (RUNPATH) made the dynamic loader try
 * every other library there first, 150 failed opens a start (over 9p in
 * the Soft-RoCE VM; docs/setup-speed-log.md).  rdv_pmix.c includes this after
 * <pmix.h> and calls PMIx_* as it did: each name below is the loaded
 * function, the ones pmix.h's macros call (PMIx_Info_load,
 * PMIx_Value_destruct) too.
 */
struct rs_pmix_lib {
	__typeof__(PMIx_Init) *Init;
	__typeof__(PMIx_Finalize) *Finalize;
	__typeof__(PMIx_Abort) *Abort;
	__typeof__(PMIx_Put) *Put;
	__typeof__(PMIx_Commit) *Commit;
	__typeof__(PMIx_Get) *Get;
	__typeof__(PMIx_Fence_nb) *Fence_nb;
	__typeof__(PMIx_Notify_event) *Notify_event;
	__typeof__(PMIx_Register_event_handler) *Register_event_handler;
	__typeof__(PMIx_Deregister_event_handler) *Deregister_event_handler;
	__typeof__(PMIx_Error_string) *Error_string;
	__typeof__(PMIx_Info_load) *Info_load;
	__typeof__(PMIx_Value_destruct) *Value_destruct;
};

/* Set by a successful rs_pmix_load(); NULL before. */
extern const struct rs_pmix_lib *rs_pmix_lib;

/* Load libpmix (the one the build found): 0, or -ELIBACC with
 * dlerror()'s reason in @err.  Once a process; later calls say the
 * same. */
int rs_pmix_load(char *err, size_t errlen);

#ifndef RS_PMIX_LOAD_IMPL
#define PMIx_Init (rs_pmix_lib->Init)
#define PMIx_Finalize (rs_pmix_lib->Finalize)
#define PMIx_Abort (rs_pmix_lib->Abort)
#define PMIx_Put (rs_pmix_lib->Put)
#define PMIx_Commit (rs_pmix_lib->Commit)
#define PMIx_Get (rs_pmix_lib->Get)
#define PMIx_Fence_nb (rs_pmix_lib->Fence_nb)
#define PMIx_Notify_event (rs_pmix_lib->Notify_event)
#define PMIx_Register_event_handler (rs_pmix_lib->Register_event_handler)
#define PMIx_Deregister_event_handler (rs_pmix_lib->Deregister_event_handler)
#define PMIx_Error_string (rs_pmix_lib->Error_string)
#define PMIx_Info_load (rs_pmix_lib->Info_load)
#define PMIx_Value_destruct (rs_pmix_lib->Value_destruct)
#endif

#endif
