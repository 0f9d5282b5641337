// SPDX-License-Identifier: GPL-2.0-only
/*
 * Print the tables of lnet_tunables.h and the router buffer limits of
 * lnet_ioctl.h, one row a line, for tests/tools/check-ranges.py:
 *
 *   tunable NAME OPTION MIN MAX DEFAULT
 *   global NAME MIN MAX DEFAULT
 *   buffer KIND MIN MAX DEFAULT
 *
 * Built from the header by the test itself (tests/bats/tables.bats), so the
 * numbers checked are the numbers the code uses.
 */
#include <stdio.h>
#include "lnet/lnet_ioctl.h"

#define TUN_ROW(id, name, opt, letter, min, max, def, help) \
	printf("tunable %s %s %d %d %d\n", #name, opt, id##_MIN, id##_MAX, id##_DEF);
#define GLOBAL_ROW(name, id, min, max, def) \
	printf("global %s %d %d %d\n", #name, id##_MIN, id##_MAX, id##_DEF);

int main(void)
{
	LNET_NI_TUNABLES(TUN_ROW)
	LNET_GLOBALS(GLOBAL_ROW)
	printf("buffer tiny %d %d %d\n", LNET_TINY_BUF_MIN, LNET_BUF_MAX, LNET_TINY_BUF_DEF);
	printf("buffer small %d %d %d\n", LNET_SMALL_BUF_MIN, LNET_BUF_MAX, LNET_SMALL_BUF_DEF);
	printf("buffer large %d %d %d\n", LNET_LARGE_BUF_MIN, LNET_BUF_MAX, LNET_LARGE_BUF_DEF);
	return 0;
}
