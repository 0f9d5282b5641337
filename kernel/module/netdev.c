// SPDX-License-Identifier: GPL-2.0-only
/*
 * Link state in the lnet module: a netdevice notifier tells the core, by
 * lnet_link_event(), when an interface goes up or down (running and
 * carrier), as lnetd's rtnetlink monitor does in user space.
 *
 * The notifier runs with rtnl_lock held, and lnet_link_event() takes
 * ln_api_mutex, which an ioctl may hold for a while: so the notifier only
 * queues the change and a work item hands it to the core, in order. The
 * order is LNet's lock, then rtnl_lock (os_if_lookup() reads a link's
 * speed under it), never the reverse.
 *
 * Interfaces are named, not tied to a network namespace: the core knows
 * its NIs by interface name only, so a change of an interface of the same
 * name in another live namespace counts too. Devices of a namespace being
 * dismantled are skipped: `ip netns del` returns before its devices go,
 * and their late DOWN/UNREGISTER must not take down the NI of a newer
 * interface of the same name (the test suites make one netns per test).
 */
#include <linux/netdevice.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include "lnet_module.h"

struct lnet_link_change {
	struct list_head list;
	char name[IFNAMSIZ];
	bool up;
};

static struct lnet *lnet_link_ln;
static LIST_HEAD(lnet_link_changes);
static DEFINE_SPINLOCK(lnet_link_lock);

static void lnet_link_work_fn(struct work_struct *work);
static DECLARE_WORK(lnet_link_work, lnet_link_work_fn);

static struct lnet_link_change *lnet_link_next(void)
{
	struct lnet_link_change *ch;

	spin_lock(&lnet_link_lock);
	ch = list_first_entry_or_null(&lnet_link_changes,
				      struct lnet_link_change, list);
	if (ch)
		list_del(&ch->list);
	spin_unlock(&lnet_link_lock);
	return ch;
}

static void lnet_link_work_fn(struct work_struct *work)
{
	struct lnet_link_change *ch;

	while ((ch = lnet_link_next())) {
		lnet_link_event(lnet_link_ln, ch->name, ch->up);
		kfree(ch);
	}
}

static int lnet_netdev_event(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct lnet_link_change *ch;

	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:		/* flags and carrier (linkwatch) */
	case NETDEV_UNREGISTER:
		break;
	default:
		return NOTIFY_DONE;
	}
	if (!check_net(dev_net(dev)))
		return NOTIFY_DONE;
	ch = kzalloc(sizeof(*ch), GFP_KERNEL);
	if (!ch) {
		pr_err("no memory to record a link change of %s\n", dev->name);
		return NOTIFY_DONE;
	}
	strscpy(ch->name, dev->name, sizeof(ch->name));
	ch->up = event != NETDEV_UNREGISTER && netif_running(dev) &&
		 netif_carrier_ok(dev);
	spin_lock(&lnet_link_lock);
	list_add_tail(&ch->list, &lnet_link_changes);
	spin_unlock(&lnet_link_lock);
	schedule_work(&lnet_link_work);
	return NOTIFY_DONE;
}

static struct notifier_block lnet_netdev_nb = {
	.notifier_call = lnet_netdev_event,
};

int lnet_link_notifier_start(struct lnet *ln)
{
	lnet_link_ln = ln;
	/* Replays UP for every running interface: harmless, no NI exists yet. */
	return register_netdevice_notifier(&lnet_netdev_nb);
}

/* After this no work item runs and nothing is queued. */
void lnet_link_notifier_stop(void)
{
	struct lnet_link_change *ch;

	unregister_netdevice_notifier(&lnet_netdev_nb);
	cancel_work_sync(&lnet_link_work);
	while ((ch = lnet_link_next()))
		kfree(ch);
}
