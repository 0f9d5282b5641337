/* SPDX-License-Identifier: GPL-2.0-only */
/* The lnet module's parts (kernel/module/): shared between its files. */
#ifndef LNET_MODULE_H
#define LNET_MODULE_H

#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include "../core/lnet.h"
#include "../builtin/builtin.h"
#include "../lnd/socklnd/socklnd.h"

struct net;

/*
 * One LNet instance per network namespace (net_generic() of lnet_net_id):
 * made when the namespace is (or at load for those alive), gone with it.
 * Its link changes wait on lp_changes for lp_link_work (netdev.c).
 */
struct lnet_pernet {
	struct lnet *lp_ln;
	spinlock_t lp_lock;		/* lp_changes */
	struct list_head lp_changes;	/* struct lnet_link_change, in order */
	struct work_struct lp_link_work;
};

/* @net's instance: NULL before its init ran (never after its exit began). */
struct lnet_pernet *lnet_pernet(struct net *net);

/*
 * The netdevice notifier (netdev.c): an interface's up/down changes reach
 * lnet_link_event() of its own namespace's instance from that instance's
 * work item. lnet_link_pernet_init() before the instance can be found,
 * lnet_link_pernet_exit() when it goes (no work item left after it).
 */
void lnet_link_pernet_init(struct lnet_pernet *lp);
void lnet_link_pernet_exit(struct lnet_pernet *lp);
int lnet_link_notifier_start(void);
void lnet_link_notifier_stop(void);

/*
 * The acceptor's module parameters (params.c) checked and handed to the
 * socket LND, at load before any instance: 0, or -EINVAL (logged).
 */
int lnet_module_params_apply(void);

#endif /* LNET_MODULE_H */
