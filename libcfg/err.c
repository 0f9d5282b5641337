// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * How libcfg reports an error: cfg_fail() fills the caller's struct
 * cfg_err. Its own file, below the parsers and the model, which both
 * report through it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cfg.h"

int cfg_fail(struct cfg_err *err, int rc, const struct cfg_loc *loc,
	     const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return rc;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	if (loc)
		err->loc = *loc;
	else
		memset(&err->loc, 0, sizeof(err->loc));
	return rc;
}
