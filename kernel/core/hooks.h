/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hooks: how a layer above the core follows the core's objects without the
 * core knowing it. The selection policy engine (kernel/udsp/) is the one
 * user: it registers once per instance, right after lnet_init() (the lnet
 * module's init, lnetd's start, and every test or bench that builds an
 * instance: lnet_builtin_register() in kernel/builtin/), and stays until
 * lnet_fini().
 *
 * The core calls the hooks with ln_api_mutex held, from the code that
 * changed the objects (ioctl handlers, configure, discovery, the data
 * path's peer NI creation); a hook must not drop the mutex. An instance
 * without hooks runs with every object at its default (no priorities, no
 * preferred lists), as one whose engine holds no rule.
 */
#ifndef LNET_CORE_HOOKS_H
#define LNET_CORE_HOOKS_H

#include "lnet.h"

/*
 * One ioctl command: its fixed structure, whether it needs may_modify and
 * may run while unconfigured, the check that its reserved fields are 0,
 * and its handler. lnet_ioctl() runs every check before the handler.
 */
struct lnet_ioc_cmd {
	unsigned int cmd;
	u32 size;			/* the command's fixed structure */
	bool modifies;			/* needs may_modify */
	bool when_down;			/* allowed while not configured */
	bool (*reserved_zero)(const void *buf);
	int (*handler)(struct lnet *ln, unsigned int cmd, void *buf, u32 len);
};

struct lnet_hooks {
	/*
	 * A new object, already on its lists (its net's, its peer's): the
	 * engine sets what it derives for it (priorities, preferred lists).
	 * A new net comes before its first NI, a new peer net before its
	 * first peer NI.
	 */
	void (*net_added)(struct lnet *ln, struct lnet_net *net);
	void (*ni_added)(struct lnet *ln, struct lnet_ni *ni);
	void (*peer_net_added)(struct lnet *ln, struct lnet_peer_net *lpn);
	void (*peer_ni_added)(struct lnet *ln, struct lnet_peer_ni *lpni);
	/*
	 * The local NIs or the routes changed: an NI added or deleted, a
	 * route added or deleted, a gateway deleted with its routes. Objects
	 * deleted are already freed: the engine holds none of them.
	 */
	void (*local_changed)(struct lnet *ln);
	/* Unconfigure, before any object goes: drop what was configured. */
	void (*unconfigure)(struct lnet *ln);
	/* lnet_fini(), after the unconfigure: free the engine's own state. */
	void (*release)(struct lnet *ln);
	/* Commands the engine serves, checked and locked as the core's. */
	const struct lnet_ioc_cmd *ioc_cmds;
	unsigned int n_ioc_cmds;
};

/*
 * Register @hooks (static, outliving the instance) with @priv, the
 * engine's state (lnet_hooks_priv()). Once per instance: -EBUSY if hooks
 * are registered already, else 0. Not under ln_api_mutex: before the
 * instance is used.
 */
int lnet_hooks_register(struct lnet *ln, const struct lnet_hooks *hooks,
			void *priv);

static inline void *lnet_hooks_priv(const struct lnet *ln)
{
	return ln->ln_hooks_priv;
}

#endif /* LNET_CORE_HOOKS_H */
