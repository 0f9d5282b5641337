// SPDX-License-Identifier: GPL-2.0-only
/*
 * Link state: lnetd's rtnetlink listener and the module's netdevice
 * notifier report an interface going up or down. Every NI on it takes
 * that status, which selection honours (a down NI is not chosen while an
 * up one reaches the peer) and our ping info shows. Health is not touched:
 * an NI coming back up keeps the health its failures left it, but its
 * recovery ping (none are sent while it is down) goes out at once.
 */
#include "ping_priv.h"

/*
 * Is the event of device @ifindex named @ifname about @ni? By index when
 * both are known, else by name; a match by name teaches @ni the index.
 */
static bool lnet_link_match(struct lnet_ni *ni, int ifindex, const char *ifname)
{
	if (ni->ni_ifindex && ifindex)
		return ni->ni_ifindex == ifindex;
	if (strcmp(ni->ni_ifname, ifname))
		return false;
	if (ifindex)
		ni->ni_ifindex = ifindex;
	return true;
}

/* With ln_api_mutex held: @ni's link is @up now. True if that changed. */
static bool lnet_ni_link_set(struct lnet_ni *ni, bool up)
{
	u32 status = up ? LNET_NI_STATUS_UP : LNET_NI_STATUS_DOWN;

	if (ni->ni_status == status)
		return false;
	ni->ni_status = status;
	lnet_ni_log(ni, up ? "up" : "down");
	if (up)
		lnet_recovery_now(&ni->ni_health);
	return true;
}

void lnet_link_event_dev(struct lnet *ln, int ifindex, const char *ifname, bool up,
			 bool gone)
{
	struct lnet_net *net;
	struct lnet_ni *ni;
	bool changed = false;

	if (!ifname)
		return;
	os_mutex_lock(&ln->ln_api_mutex);
	if (ln->ln_configured) {
		list_for_each_entry(net, &ln->ln_nets, net_list)
			list_for_each_entry(ni, &net->net_nis, ni_list) {
				if (!lnet_link_match(ni, ifindex, ifname))
					continue;
				if (lnet_ni_link_set(ni, up))
					changed = true;
				if (gone)
					ni->ni_ifindex = 0;
			}
	}
	if (changed) {
		lnet_ping_target_update(ln);
		os_cond_broadcast(&ln->ln_dp.dp_cond);
	}
	os_mutex_unlock(&ln->ln_api_mutex);
}

void lnet_link_event(struct lnet *ln, const char *ifname, bool up)
{
	lnet_link_event_dev(ln, 0, ifname, up, false);
}
