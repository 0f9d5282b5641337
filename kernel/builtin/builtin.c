// SPDX-License-Identifier: GPL-2.0-only
/* The built-in parts of an instance: see builtin.h. */
#include "builtin.h"
#include "../udsp/udsp.h"
#include "../lnd/lolnd.h"

int lnet_builtin_register(struct lnet *ln)
{
	int rc = lnet_udsp_register(ln);

	if (rc)
		return rc;
	return lnet_lolnd_register(ln);
}
