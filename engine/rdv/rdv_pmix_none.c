// SPDX-License-Identifier: MIT
/* A build without libpmix (pkg-config found no "pmix" when it was
 * configured): the TCP star is the only transport; asking for PMIx
 * says why not (docs/nodes.md, "PMIx"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "rdv_int.h"

bool rdv_pmix_launched(void)
{
	const char *ns = getenv("PMIX_NAMESPACE");

	return ns && *ns;
}

int rdv_pmix_meet(const struct rs_rdv_conf *c, struct rs_rdv **ret,
		  char *err, size_t errlen)
{
	(void)c;
	(void)ret;
	snprintf(err, errlen, "this rdmascn was built without PMIx: libpmix "
		 "was not found when it was configured (Debian: apt-get "
		 "install libpmix-dev, then configure again); use "
		 "--rendezvous tcp");
	return -ENOTSUP;
}
