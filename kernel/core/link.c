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

void lnet_link_event(struct lnet *ln, const char *ifname, bool up)
{
	u32 status = up ? LNET_NI_STATUS_UP : LNET_NI_STATUS_DOWN;
	struct lnet_net *net;
	struct lnet_ni *ni;
	bool changed = false;

	if (!ifname)
		return;
	os_mutex_lock(&ln->ln_api_mutex);
	if (ln->ln_configured) {
		list_for_each_entry(net, &ln->ln_nets, net_list)
			list_for_each_entry(ni, &net->net_nis, ni_list) {
				if (strcmp(ni->ni_ifname, ifname) ||
				    ni->ni_status == status)
					continue;
				ni->ni_status = status;
				lnet_ni_log(ni, up ? "up" : "down");
				changed = true;
				if (up)
					lnet_recovery_now(&ni->ni_health);
			}
	}
	if (changed) {
		lnet_ping_target_update(ln);
		os_cond_broadcast(&ln->ln_dp.dp_cond);
	}
	os_mutex_unlock(&ln->ln_api_mutex);
}
