// SPDX-License-Identifier: GPL-2.0-only
/*
 * The data path's lifetime and the LND registry. The registry outlives
 * configure/unconfigure (LNDs register once, after lnet_init); the rest of
 * struct lnet_dp is set up by lnet_dp_startup and torn down by
 * lnet_dp_shutdown.
 */
#include "lnet_priv.h"

int lnet_lnd_register(struct lnet *ln, const struct lnet_lnd *lnd)
{
	struct lnet_dp *dp = &ln->ln_dp;

	if (!lnd || !lnd->lnd_send || !lnd->lnd_recv)
		return -EINVAL;
	if (lnet_lnd_find(ln, lnd->lnd_type))
		return -EEXIST;
	if (dp->dp_nlnds >= sizeof(dp->dp_lnds) / sizeof(dp->dp_lnds[0]))
		return -ENOSPC;
	dp->dp_lnds[dp->dp_nlnds++] = lnd;
	return 0;
}

const struct lnet_lnd *lnet_lnd_find(struct lnet *ln, u32 lnd_type)
{
	struct lnet_dp *dp = &ln->ln_dp;
	u32 i;

	for (i = 0; i < dp->dp_nlnds; i++)
		if (dp->dp_lnds[i]->lnd_type == lnd_type)
			return dp->dp_lnds[i];
	return NULL;
}

struct lnet_ni *lnet_lo_ni(struct lnet *ln)
{
	struct lnet_net *net = lnet_net_find(ln, LNET_NET_ID(LNET_LND_LO, 0));

	if (!net || list_empty(&net->net_nis))
		return NULL;
	return list_first_entry(&net->net_nis, struct lnet_ni, ni_list);
}

/* A random cookie that is neither 0 (no handle) nor the wire's "none". */
static u64 lnet_random_cookie(void)
{
	u64 c;

	do {
		c = os_random_u64();
	} while (!c || c == LNET_WIRE_COOKIE_NONE);
	return c;
}

void lnet_dp_counters_clear(struct lnet_dp *dp)
{
	dp->dp_errors = 0;
	memset(dp->dp_count, 0, sizeof(dp->dp_count));
	memset(dp->dp_length, 0, sizeof(dp->dp_length));
	dp->dp_resend_count = 0;
	dp->dp_route_count = dp->dp_route_length = 0;
	dp->dp_response_timeout_count = 0;
	dp->dp_failed_resends = dp->dp_successful_resends = 0;
	memset(dp->dp_hstatus_count, 0, sizeof(dp->dp_hstatus_count));
}

static void lnet_dp_counters_reset(struct lnet_dp *dp)
{
	dp->dp_msgs_alloc = 0;
	dp->dp_msgs_max = 0;
	lnet_dp_counters_clear(dp);
}

int lnet_dp_startup(struct lnet *ln)
{
	struct lnet_dp *dp = &ln->ln_dp;
	int rc;

	lnet_portals_init(ln);
	INIT_LIST_HEAD(&dp->dp_mds);
	INIT_LIST_HEAD(&dp->dp_active);
	INIT_LIST_HEAD(&dp->dp_resendq);
	INIT_LIST_HEAD(&dp->dp_finalizeq);
	INIT_LIST_HEAD(&dp->dp_msgs);
	INIT_LIST_HEAD(&dp->dp_dcq);
	dp->dp_finalizing = false;
	dp->dp_stopping = false;
	dp->dp_md_cookie = 1;
	dp->dp_msg_cookie = 1;
	dp->dp_interface_cookie = lnet_random_cookie();
	dp->dp_incarnation = lnet_random_cookie();
	dp->dp_monitor_stop = false;
	lnet_dp_counters_reset(dp);

	dp->dp_monitor_running = false;
	rc = lnet_ping_target_init(ln);
	if (rc)
		return rc;
	rc = lnet_selftest_init(ln);
	if (rc)
		goto err_ping;
	rc = lnet_srpc_init(ln);
	if (!rc)
		return 0;
	lnet_selftest_fini(ln);
err_ping:
	lnet_ping_target_fini(ln);
	lnet_portals_fini(ln);
	lnet_mds_destroy(ln);
	return rc;
}

void lnet_dp_monitor_ensure(struct lnet *ln)
{
	struct lnet_dp *dp = &ln->ln_dp;
	int rc;

	if (dp->dp_monitor_running || !ln->ln_configured || dp->dp_stopping)
		return;
	rc = lnet_monitor_start(ln);
	if (rc) {
		os_err("cannot start the monitor thread: error %d\n", rc);
		return;
	}
	dp->dp_monitor_running = true;
}

/* Messages an LND never gave back: freed so that nothing leaks. */
static void lnet_msgs_leftover(struct lnet *ln)
{
	struct lnet_msg *msg, *tmp;
	u32 n = 0;

	list_for_each_entry_safe(msg, tmp, &ln->ln_dp.dp_msgs, msg_all) {
		list_del_init(&msg->msg_fin);
		list_del_init(&msg->msg_txq);
		lnet_msg_free(ln, msg);
		n++;
	}
	if (n)
		os_warn("shutdown freed %u messages that were never finalized\n", n);
}

void lnet_dp_shutdown(struct lnet *ln)
{
	struct lnet_dp *dp = &ln->ln_dp;

	dp->dp_stopping = true;
	if (dp->dp_monitor_running) {
		lnet_monitor_stop(ln);
		dp->dp_monitor_running = false;
	}
	/* delayed sends fail and the fault rules go (not configured: no more) */
	lnet_fault_shutdown(ln);
	/* messages waiting for a discovery fail before its ping MD goes */
	lnet_dc_flush(ln);
	lnet_srpc_fini(ln);
	lnet_selftest_fini(ln);
	lnet_ping_target_fini(ln);
	/* no forwarding from here on: what waits for a buffer is dropped */
	ln->ln_routing = LNET_ROUTING_DISABLED;
	lnet_rtr_pools_drain(ln);
	/* the LNDs give back what they hold; then the waiting ones fail */
	lnet_nets_shutdown(ln);
	lnet_msgs_fail_active(ln);
	lnet_msgs_leftover(ln);
	lnet_portals_fini(ln);
	lnet_mds_destroy(ln);
	lnet_rtr_pools_fini(ln);
	os_cond_broadcast(&dp->dp_cond);
}
