// SPDX-License-Identifier: GPL-2.0-only
/*
 * Link state in the lnet module: a netdevice notifier tells the instance
 * of the interface's own network namespace, by lnet_link_event(), when an
 * interface goes up or down (running and carrier), as lnetd's rtnetlink
 * monitor does in user space. A change names the device by its index in
 * the namespace (an NI follows its device, renamed or not; one whose
 * device went away takes the next of its name), and an interface of
 * another namespace never touches an instance's NIs, whatever its name.
 *
 * The notifier runs with rtnl_lock held, and lnet_link_event() takes
 * ln_api_mutex, which an ioctl may hold for a while: so the notifier only
 * queues the change and the instance's work item hands it to the core, in
 * order. The order is LNet's lock, then rtnl_lock (os_if_lookup() reads a
 * link's speed under it), never the reverse.
 *
 * Devices of a namespace being dismantled are skipped: their DOWN and
 * UNREGISTER come when the instance is about to go with the namespace
 * (lnet_pernet exit, after the devices' own exit), which stops the NIs.
 */
#include <linux/netdevice.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include "lnet_module.h"

struct lnet_link_change {
	struct list_head list;
	char name[IFNAMSIZ];
	int ifindex;
	bool up;
	bool gone;			/* NETDEV_UNREGISTER */
};

static struct lnet_link_change *lnet_link_next(struct lnet_pernet *lp)
{
	struct lnet_link_change *ch;

	spin_lock_bh(&lp->lp_lock);
	ch = list_first_entry_or_null(&lp->lp_changes, struct lnet_link_change, list);
	if (ch)
		list_del(&ch->list);
	spin_unlock_bh(&lp->lp_lock);
	return ch;
}

static void lnet_link_work_fn(struct work_struct *work)
{
	struct lnet_pernet *lp = container_of(work, struct lnet_pernet, lp_link_work);
	struct lnet_link_change *ch;

	while ((ch = lnet_link_next(lp))) {
		lnet_link_event_dev(lp->lp_ln, ch->ifindex, ch->name, ch->up, ch->gone);
		kfree(ch);
	}
}

static int lnet_netdev_event(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct lnet_link_change *ch;
	struct lnet_pernet *lp;

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
	lp = lnet_pernet(dev_net(dev));
	if (!lp)
		return NOTIFY_DONE;
	/* rtnl_lock held: process context, may sleep */
	ch = kzalloc(sizeof(*ch), GFP_KERNEL);
	if (!ch) {
		pr_err("no memory to record a link change of %s\n", dev->name);
		return NOTIFY_DONE;
	}
	strscpy(ch->name, dev->name, sizeof(ch->name));
	ch->ifindex = dev->ifindex;
	ch->gone = event == NETDEV_UNREGISTER;
	ch->up = !ch->gone && netif_running(dev) && netif_carrier_ok(dev);
	spin_lock_bh(&lp->lp_lock);
	list_add_tail(&ch->list, &lp->lp_changes);
	spin_unlock_bh(&lp->lp_lock);
	schedule_work(&lp->lp_link_work);
	return NOTIFY_DONE;
}

static struct notifier_block lnet_netdev_nb = {
	.notifier_call = lnet_netdev_event,
};

void lnet_link_pernet_init(struct lnet_pernet *lp)
{
	spin_lock_init(&lp->lp_lock);
	INIT_LIST_HEAD(&lp->lp_changes);
	INIT_WORK(&lp->lp_link_work, lnet_link_work_fn);
}

/*
 * The namespace is dying: the notifier queues nothing more for it
 * (check_net()), so after this no work item runs and nothing is queued.
 */
void lnet_link_pernet_exit(struct lnet_pernet *lp)
{
	struct lnet_link_change *ch;

	cancel_work_sync(&lp->lp_link_work);
	while ((ch = lnet_link_next(lp)))
		kfree(ch);
}

/* Replays UP for every running interface: harmless, no NI exists yet. */
int lnet_link_notifier_start(void)
{
	return register_netdevice_notifier(&lnet_netdev_nb);
}

void lnet_link_notifier_stop(void)
{
	unregister_netdevice_notifier(&lnet_netdev_nb);
}
