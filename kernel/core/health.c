// SPDX-License-Identifier: GPL-2.0-only
/*
 * Health: a failed send lowers the health of the local NI (LOCAL_*
 * statuses) or of the peer NI (REMOTE_* and NETWORK_TIMEOUT) by the
 * health_sensitivity setting, which makes selection prefer the other
 * paths, and schedules a recovery ping (monitor.c) that raises it back.
 * The message itself is resent, on whatever path selection now prefers,
 * while retry_count and the transaction timeout allow it.
 */
#include "ping_priv.h"

static u32 lnet_global(struct lnet *ln, u32 id)
{
	u32 v = 0;

	lnet_global_get(ln, id, &v);
	return v;
}

/*
 * The lnd_timeout that `global show` reports: the transaction timeout
 * shared by the first try and every retry, less a second so that the last
 * try ends before the transaction does.
 */
u64 lnet_lnd_timeout_ns(struct lnet *ln)
{
	return (u64)lnet_global(ln, LNET_GLOBAL_LND_TIMEOUT) * 1000000000ULL;
}

/*
 * recovery_interval doubled per recovery ping already sent, so that a
 * dead interface is not pinged every second for ever; at most
 * max_recovery_ping_interval seconds unless recovery_interval itself is
 * longer (then every ping waits recovery_interval).
 */
u64 lnet_recovery_interval_ns(struct lnet *ln, u32 ping_count)
{
	u64 base = lnet_global(ln, LNET_GLOBAL_RECOVERY_INTERVAL);
	u64 cap = lnet_global(ln, LNET_GLOBAL_MAX_RECOVERY_PING_INTERVAL);
	u64 s = base ? base : 1;
	u32 i;

	if (cap < s)
		cap = s;
	for (i = 0; i < ping_count && s < cap; i++)
		s *= 2;
	if (s > cap)
		s = cap;
	return s * 1000000000ULL;
}

void lnet_health_init(struct lnet_health *h, u32 kind)
{
	memset(h, 0, sizeof(*h));
	h->lh_value = LNET_MAX_HEALTH;
	h->lh_kind = kind;
	INIT_LIST_HEAD(&h->lh_recovery_list);
}

void lnet_health_fini(struct lnet_health *h)
{
	list_del_init(&h->lh_recovery_list);
}

/*
 * The recovery queues hold what needs a recovery ping, so that the monitor
 * looks at the few unhealthy objects and not at every peer NI. Scheduling
 * a recovery ping puts the object on its kind's queue (once).
 */
void lnet_recovery_schedule(struct lnet *ln, struct lnet_health *h)
{
	if (list_empty(&h->lh_recovery_list))
		list_add_tail(&h->lh_recovery_list,
			      &ln->ln_recoveryq[h->lh_kind]);
	if (h->lh_recovery_pending || h->lh_next_ping_ns)
		return;
	h->lh_next_ping_ns = os_now_ns() +
		lnet_recovery_interval_ns(ln, h->lh_ping_count);
}

void lnet_recovery_now(struct lnet_health *h)
{
	if (h->lh_value >= LNET_MAX_HEALTH || h->lh_recovery_pending)
		return;
	h->lh_ping_count = 0;
	h->lh_next_ping_ns = os_now_ns();
}

void lnet_health_recovered(struct lnet_health *h)
{
	h->lh_value = LNET_MAX_HEALTH;
	h->lh_next_ping_ns = 0;
	h->lh_recovery_pending = false;
	h->lh_ping_count = 0;
	list_del_init(&h->lh_recovery_list);
}

void lnet_health_set(struct lnet *ln, struct lnet_health *h, u32 value)
{
	if (value >= LNET_MAX_HEALTH) {
		lnet_health_recovered(h);
		return;
	}
	h->lh_value = value;
	lnet_recovery_schedule(ln, h);
}

static bool lnet_hstatus_is_local(enum lnet_msg_hstatus hs)
{
	return hs >= LNET_MSG_STATUS_LOCAL_INTERRUPT &&
	       hs <= LNET_MSG_STATUS_LOCAL_TIMEOUT;
}

/* The health @hs blames: of the local NI or of the peer NI, or none. */
static struct lnet_health *lnet_health_blamed(struct lnet_msg *msg,
					      enum lnet_msg_hstatus hs)
{
	if (lnet_hstatus_is_local(hs)) {
		/* 0@lo is never recovered by a ping: leave it alone. */
		if (!msg->msg_txni || lnet_nid_is_lo(&msg->msg_txni->ni_nid))
			return NULL;
		return &msg->msg_txni->ni_health;
	}
	return msg->msg_txpeer ? &msg->msg_txpeer->lpni_health : NULL;
}

/* Lower the NI or peer NI that @hs blames; count the failure. */
static void lnet_health_blame(struct lnet *ln, struct lnet_msg *msg,
			      enum lnet_msg_hstatus hs)
{
	u32 sens = lnet_global(ln, LNET_GLOBAL_HEALTH_SENSITIVITY);
	struct lnet_health *h = lnet_health_blamed(msg, hs);

	if (!h)
		return;
	h->lh_fail[hs]++;
	h->lh_value = h->lh_value > sens ? h->lh_value - sens : 0;
	if (h->lh_value < LNET_MAX_HEALTH)
		lnet_recovery_schedule(ln, h);
}

/*
 * Any failed send may be tried again: the LNDs report a failure only for
 * a message that did not reach the peer whole (a message whose answer is
 * late is timed out by the monitor, which never resends). Not a recovery
 * ping: it tests one path, and an answer from another would prove nothing.
 */
static bool lnet_msg_may_resend(struct lnet *ln, const struct lnet_msg *msg)
{
	if (!msg->msg_deadline_ns || lnet_msg_is_recovery(msg))
		return false;
	if (msg->msg_retries >= lnet_global(ln, LNET_GLOBAL_RETRY_COUNT))
		return false;
	return os_now_ns() < msg->msg_deadline_ns;
}

/*
 * Resend @msg, on another path when there is one. A failure does not
 * always blame what broke (a connect to an unreachable peer NI reports a
 * local error), so for this one selection the NI and the peer NI that just
 * failed look dead and any other pair wins; their health is given back
 * right after. Selection runs inside lnet_send_msg() under the lock we
 * hold, and we run inside the finalize loop, so a failure of the new try
 * is only queued: nothing else sees or changes these values meanwhile.
 */
static int lnet_resend_elsewhere(struct lnet *ln, struct lnet_msg *msg,
				 struct lnet_ni *ni, struct lnet_peer_ni *lpni)
{
	u32 ni_health = ni ? ni->ni_health.lh_value : 0;
	u32 lpni_health = lpni ? lpni->lpni_health.lh_value : 0;
	int rc;

	if (ni)
		ni->ni_health.lh_value = 0;
	if (lpni)
		lpni->lpni_health.lh_value = 0;
	rc = lnet_send_msg(ln, msg);
	if (ni)
		ni->ni_health.lh_value = ni_health;
	if (lpni)
		lpni->lpni_health.lh_value = lpni_health;
	return rc;
}

/*
 * Called by the core's finalize for a send that failed (its credits
 * already returned). Resending goes through selection again.
 */
bool lnet_health_handle_failure(struct lnet *ln, struct lnet_msg *msg)
{
	enum lnet_msg_hstatus hs = msg->msg_health_status;
	struct lnet_peer_ni *lpni = msg->msg_txpeer;
	struct lnet_ni *ni = msg->msg_txni;
	int rc;

	if (hs == LNET_MSG_STATUS_OK || hs > LNET_MSG_STATUS_NETWORK_TIMEOUT)
		return false;
	ln->ln_dp.dp_hstatus_count[hs]++;
	lnet_health_blame(ln, msg, hs);
	if (!lnet_msg_may_resend(ln, msg)) {
		if (msg->msg_retries)
			ln->ln_dp.dp_failed_resends++;
		return false;
	}
	msg->msg_txni = NULL;
	msg->msg_txpeer = NULL;
	msg->msg_health_status = LNET_MSG_STATUS_OK;
	msg->msg_retries++;
	ln->ln_dp.dp_resend_count++;
	rc = lnet_resend_elsewhere(ln, msg, ni, lpni);
	if (rc) {
		/* Nothing was sent: the caller finalizes with the first failure. */
		msg->msg_health_status = hs;
		ln->ln_dp.dp_failed_resends++;
		return false;
	}
	return true;
}

/*
 * A message timed out waiting for its ACK/REPLY (monitor.c): the core's
 * finalize does not call lnet_health_handle_failure for it, so the peer
 * NI it went to is blamed here.
 */
void lnet_health_timeout(struct lnet *ln, struct lnet_msg *msg)
{
	enum lnet_msg_hstatus hs = msg->msg_health_status;

	if (hs == LNET_MSG_STATUS_OK || hs > LNET_MSG_STATUS_NETWORK_TIMEOUT)
		return;
	ln->ln_dp.dp_hstatus_count[hs]++;
	lnet_health_blame(ln, msg, hs);
}
