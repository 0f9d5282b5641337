// SPDX-License-Identifier: GPL-2.0-only
/*
 * The acceptor's module parameters, Lustre's names and meanings
 * (lnet_tunables.h: LNET_ACCEPT_MODES, LNET_ACCEPTOR_TUNABLES, the tables
 * lnetd's options come from too): fixed at load and read-only after, as
 * Lustre's are. They are checked before anything starts; a bad one fails
 * the load with one line naming it, its value and what it may be.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include "lnet_module.h"

/* the first row of LNET_ACCEPT_MODES, Lustre's default */
static char *accept = "secure";
module_param(accept, charp, 0444);
MODULE_PARM_DESC(accept, "connections the acceptors take: secure (privileged source "
		 "ports only, the default), all, or none (no acceptor)");

#define __LNET_ACC_PARAM(id, name, opt, env, min, max, def, help)		\
	static int name = def;							\
	module_param(name, int, 0444);						\
	MODULE_PARM_DESC(name, help " (" #min "-" #max ", default " #def ")");
LNET_ACCEPTOR_TUNABLES(__LNET_ACC_PARAM)

#define __LNET_ACC_NAME(id, name, help)	[id] = #name,
static const char *const lnet_accept_names[__LNET_ACCEPT_MAX] = {
	LNET_ACCEPT_MODES(__LNET_ACC_NAME)
};

/* The mode named @s, or -EINVAL with the names logged. */
static int lnet_param_accept_mode(const char *s)
{
	int i;

	for (i = 0; i < __LNET_ACCEPT_MAX; i++)
		if (!strcmp(s, lnet_accept_names[i]))
			return i;
	pr_err("accept=%s: expected %s, %s or %s\n", s, lnet_accept_names[0],
	       lnet_accept_names[1], lnet_accept_names[2]);
	return -EINVAL;
}
static_assert(__LNET_ACCEPT_MAX == 3, "lnet_param_accept_mode() names three modes");

static int lnet_param_check(const char *name, int v, int min, int max)
{
	if (v >= min && v <= max)
		return 0;
	pr_err("%s=%d: expected an integer %d-%d\n", name, v, min, max);
	return -EINVAL;
}

int lnet_module_params_apply(void)
{
	int mode = lnet_param_accept_mode(accept);
	int rc = mode < 0 ? mode : 0;

#define __LNET_ACC_CHECK(id, name, opt, env, min, max, def, help)		\
	rc = rc ? rc : lnet_param_check(#name, name, min, max);
	LNET_ACCEPTOR_TUNABLES(__LNET_ACC_CHECK)
	if (rc)
		return rc;
	lnet_socklnd_set_port((u16)accept_port);
	lnet_socklnd_set_accept(mode, (u32)accept_backlog, (u32)accept_timeout);
	return 0;
}
