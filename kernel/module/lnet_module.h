/* SPDX-License-Identifier: GPL-2.0-only */
/* The lnet module's parts (kernel/module/): shared between its files. */
#ifndef LNET_MODULE_H
#define LNET_MODULE_H

#include "../core/lnet.h"
#include "../builtin/builtin.h"
#include "../lnd/socklnd/socklnd.h"

/*
 * The netdevice notifier (netdev.c): interface up/down changes reach
 * lnet_link_event() of @ln from a work item. Start: 0 or -errno.
 */
int lnet_link_notifier_start(struct lnet *ln);
void lnet_link_notifier_stop(void);

#endif /* LNET_MODULE_H */
