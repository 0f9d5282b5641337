// SPDX-License-Identifier: GPL-2.0-only
/*
 * Print the tables of lnet_tunables.h, one row a line, for tests/tools/check-ranges.py:
 *
 *   tunable NAME OPTION MIN MAX DEFAULT
 *   sock NAME OPTION MIN MAX DEFAULT     (the socket LND's; -1 = derived)
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
#define SOCK_ROW(id, name, opt, letter, min, max, def, help) \
	printf("sock %s %s %d %d %d\n", #name, opt, id##_MIN, id##_MAX, id##_DEF);
#define GLOBAL_ROW(name, id, min, max, def) \
	printf("global %s %d %d %d\n", #name, id##_MIN, id##_MAX, id##_DEF);
#define BUFFER_ROW(id, name, min, max, def) \
	printf("buffer %s %d %d %d\n", #name, id##_MIN, id##_MAX, id##_DEF);

int main(void)
{
	LNET_NI_TUNABLES(TUN_ROW)
	LNET_SOCK_TUNABLES(SOCK_ROW)
	LNET_GLOBALS(GLOBAL_ROW)
	LNET_BUFFERS(BUFFER_ROW)
	return 0;
}
