// SPDX-License-Identifier: GPL-2.0-only
/*
 * The monitor thread: every LNET_MONITOR_TICK_NS it fails the messages
 * whose ACK/REPLY did not come before their transaction deadline, sends
 * recovery pings to the NIs and peer NIs whose health was lowered (a
 * reply raises it back to LNET_MAX_HEALTH, a failure doubles the wait
 * before the next ping), and keeps our ping target up to date. It also
 * merges the pushes that peers sent us, as soon as they arrive.
 */
#include "ping_priv.h"

/* At most this many recovery pings of each kind per tick. */
#define LNET_RECOVERY_BATCH	16

/* ---- timeouts ------------------------------------------------------------------- */

static bool lnet_msg_expired(const struct lnet_msg *msg, u64 now)
{
	return !msg->msg_sending && msg->msg_resp == LNET_MSG_RESP_NONE &&
	       list_empty(&msg->msg_fin) && msg->msg_deadline_ns &&
	       now >= msg->msg_deadline_ns;
}

static struct lnet_msg *lnet_first_expired(struct lnet *ln, u64 now)
{
	struct lnet_msg *msg;

	list_for_each_entry(msg, &ln->ln_dp.dp_active, msg_list)
		if (lnet_msg_expired(msg, now))
			return msg;
	return NULL;
}

/*
 * Finalizing may start other sends and deliver events that change
 * dp_active, so the walk starts again after each one; the bound only
 * guards against a message that finalize left on the list.
 */
static void lnet_monitor_expire(struct lnet *ln, u64 now)
{
	struct lnet_msg *msg;
	u32 n = 0, max = 0;

	list_for_each_entry(msg, &ln->ln_dp.dp_active, msg_list)
		max++;
	while (n++ < max && (msg = lnet_first_expired(ln, now))) {
		/* it went out, and the network lost it or its answer */
		msg->msg_health_status = LNET_MSG_STATUS_NETWORK_TIMEOUT;
		ln->ln_dp.dp_response_timeout_count++;
		lnet_health_timeout(ln, msg);
		lnet_finalize_locked(ln, msg, -ETIMEDOUT);
	}
}

/* ---- recovery pings -------------------------------------------------------------- */

struct lnet_recovery_op {
	bool local;			/* a local NI, else a peer NI */
	bool reported;			/* the outcome was applied */
	struct lnet_nid nid;		/* of the NI / peer NI */
	u8 buf[LNET_PING_INFO_MAX_LEN];
};

static bool lnet_recovery_reply_ok(const struct lnet_recovery_op *op,
				   const struct lnet_event *ev)
{
	struct lnet_ping_info pi;

	if (ev->status || ev->type != LNET_EVENT_REPLY)
		return false;
	/* room for no NI: only the header and the lengths are checked */
	return lnet_ping_info_decode(op->buf, ev->mlength, &pi, 0) >= 0;
}

/* Look the object up again: it may have gone while the ping was out. */
static void lnet_recovery_result(struct lnet *ln,
				 const struct lnet_recovery_op *op, bool ok)
{
	if (op->local) {
		struct lnet_ni *ni = lnet_ni_find(ln, &op->nid);

		if (!ni)
			return;
		ni->ni_recovery_pending = false;
		if (ok)
			lnet_ni_recovered(ni);
		else
			lnet_ni_recovery_schedule(ln, ni);
	} else {
		struct lnet_peer_ni *lpni = lnet_peer_ni_find(ln, &op->nid);

		if (!lpni)
			return;
		lpni->lpni_recovery_pending = false;
		if (ok)
			lnet_lpni_recovered(lpni);
		else
			lnet_lpni_recovery_schedule(ln, lpni);
	}
}

static void lnet_recovery_event(struct lnet *ln, struct lnet_event *ev)
{
	struct lnet_recovery_op *op = ev->md_user_ptr;

	if (ev->unlinked) {
		if (!op->reported)
			lnet_recovery_result(ln, op,
					     lnet_recovery_reply_ok(op, ev));
		lnet_obj_free(ln, op);
		return;
	}
	if (op->reported || (!ev->status && ev->type != LNET_EVENT_REPLY))
		return;
	op->reported = true;
	lnet_recovery_result(ln, op, lnet_recovery_reply_ok(op, ev));
	/* A failed GET leaves threshold unused: its unlink frees @op. */
	lnet_md_unlink(ln, ev->md_handle);
}

bool lnet_msg_is_recovery(const struct lnet_msg *msg)
{
	return msg->msg_md && msg->msg_md->md_handler == lnet_recovery_event;
}

/* GET @dst's ping info (from @src if given) for the object @op names. */
static int lnet_recovery_send(struct lnet *ln, bool local,
			      const struct lnet_nid *nid,
			      const struct lnet_nid *src,
			      const struct lnet_nid *dst)
{
	struct lnet_recovery_op *op = lnet_obj_alloc(ln, sizeof(*op));
	struct lnet_md md = {
		.length = LNET_PING_INFO_MAX_LEN,
		.threshold = 1,		/* one GET: unlinked with its last event */
		.handler = lnet_recovery_event,
	};
	struct lnet_handle_md h;
	int rc;

	if (!op)
		return -ENOMEM;
	op->local = local;
	op->nid = *nid;
	md.start = op->buf;
	md.user_ptr = op;
	rc = lnet_md_bind(ln, &md, &h);
	if (rc) {
		lnet_obj_free(ln, op);
		return rc;
	}
	rc = lnet_get(ln, src, h, dst, LNET_PID_LUSTRE, LNET_RESERVED_PORTAL,
		      LNET_PROTO_PING_MATCHBITS, 0, LNET_PING_INFO_MAX_LEN);
	if (rc) {
		/* no event will report it: the unlink event frees @op */
		op->reported = true;
		if (lnet_md_unlink(ln, h) == -ENOENT)
			lnet_obj_free(ln, op);
	}
	return rc;
}

/*
 * The healthiest peer NI on @ni's net, the first of equals: whom a local
 * NI's ping goes to. Nothing beats LNET_MAX_HEALTH, so the walk stops at
 * the first healthy one (on a big cluster nearly always one of the first
 * peers); only a net where every peer NI is unhealthy is walked whole.
 */
static const struct lnet_peer_ni *lnet_recovery_peer_for(struct lnet *ln,
							 const struct lnet_ni *ni)
{
	const struct lnet_peer_ni *best = NULL, *lpni;
	const struct lnet_peer_net *lpn;
	const struct lnet_peer *lp;

	list_for_each_entry(lp, &ln->ln_peers, lp_list)
		list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list) {
			if (lpn->lpn_net_id != ni->ni_net->net_id)
				continue;
			list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list) {
				if (best && lpni->lpni_health <= best->lpni_health)
					continue;
				best = lpni;
				if (best->lpni_health >= LNET_MAX_HEALTH)
					return best;
			}
		}
	return best;
}

/*
 * A local NI is tested by pinging a peer through it (our own NIDs loop
 * back through lolnd, which would prove nothing). With no peer on its net
 * yet there is nothing to test it with: try again later.
 */
static void lnet_recover_ni(struct lnet *ln, const struct lnet_nid *nid)
{
	struct lnet_ni *ni = lnet_ni_find(ln, nid);
	const struct lnet_peer_ni *peer;
	struct lnet_nid dst;

	if (!ni)
		return;
	ni->ni_next_ping_ns = 0;
	ni->ni_ping_count++;
	peer = lnet_recovery_peer_for(ln, ni);
	if (!peer) {
		lnet_ni_recovery_schedule(ln, ni);
		return;
	}
	dst = peer->lpni_nid;
	ni->ni_recovery_pending = true;
	if (lnet_recovery_send(ln, true, nid, nid, &dst)) {
		ni = lnet_ni_find(ln, nid);
		if (ni) {
			ni->ni_recovery_pending = false;
			lnet_ni_recovery_schedule(ln, ni);
		}
	}
}

/*
 * Selection would send the ping to the peer's healthiest NI, not to the
 * one being recovered. Selection runs inside lnet_get() under the lock we
 * hold, so for that call the peer NI is made the healthiest of all
 * (LNET_MAX_HEALTH + 1, never seen outside) and then given back its health,
 * less what a failure during the call took (a success sets it to the max).
 */
static void lnet_recover_lpni(struct lnet *ln, const struct lnet_nid *nid)
{
	struct lnet_peer_ni *lpni = lnet_peer_ni_find(ln, nid);
	u32 saved, lost;
	int rc;

	if (!lpni)
		return;
	lpni->lpni_next_ping_ns = 0;
	lpni->lpni_ping_count++;
	lpni->lpni_recovery_pending = true;
	saved = lpni->lpni_health;
	lpni->lpni_health = LNET_MAX_HEALTH + 1;
	rc = lnet_recovery_send(ln, false, nid, NULL, nid);
	lpni = lnet_peer_ni_find(ln, nid);
	if (!lpni)
		return;
	if (lpni->lpni_health > LNET_MAX_HEALTH) {
		lpni->lpni_health = saved;
	} else if (lpni->lpni_recovery_pending || lpni->lpni_ping_count) {
		lost = LNET_MAX_HEALTH + 1 - lpni->lpni_health;
		lpni->lpni_health = saved > lost ? saved - lost : 0;
	}
	if (rc) {
		lpni->lpni_recovery_pending = false;
		lnet_lpni_recovery_schedule(ln, lpni);
	}
}

static bool lnet_recovery_due(u32 health, bool pending, u64 *next, u64 now)
{
	if (health >= LNET_MAX_HEALTH || pending)
		return false;
	return *next && now >= *next;
}

/*
 * Only the queued NIs are looked at (health.c queues one when its health
 * is lowered, a recovery takes it off). One raised to the max by someone
 * else leaves the queue here.
 */
static u32 lnet_due_nis(struct lnet *ln, u64 now, struct lnet_nid *out)
{
	struct list_head *q = &ln->ln_ni_recoveryq;
	struct lnet_ni *ni, *tmp;
	u32 n = 0;

	list_for_each_entry_safe(ni, tmp, q, ni_recovery_list) {
		if (ni->ni_health >= LNET_MAX_HEALTH) {
			list_del_init(&ni->ni_recovery_list);
			continue;
		}
		if (ni->ni_dying || lnet_nid_is_lo(&ni->ni_nid))
			continue;
		/* its ping time lost (no peer to ping, a failed send) */
		lnet_ni_recovery_schedule(ln, ni);
		/* a ping through a down link only fails: wait for up */
		if (n < LNET_RECOVERY_BATCH &&
		    ni->ni_status == LNET_NI_STATUS_UP &&
		    lnet_recovery_due(ni->ni_health, ni->ni_recovery_pending,
				      &ni->ni_next_ping_ns, now))
			out[n++] = ni->ni_nid;
	}
	return n;
}

static u32 lnet_due_lpnis(struct lnet *ln, u64 now, struct lnet_nid *out)
{
	struct list_head *q = &ln->ln_lpni_recoveryq;
	struct lnet_peer_ni *lpni, *tmp;
	u32 n = 0;

	list_for_each_entry_safe(lpni, tmp, q, lpni_recovery_list) {
		if (lpni->lpni_health >= LNET_MAX_HEALTH) {
			list_del_init(&lpni->lpni_recovery_list);
			continue;
		}
		lnet_lpni_recovery_schedule(ln, lpni);
		if (n < LNET_RECOVERY_BATCH &&
		    lnet_recovery_due(lpni->lpni_health,
				      lpni->lpni_recovery_pending,
				      &lpni->lpni_next_ping_ns, now))
			out[n++] = lpni->lpni_nid;
	}
	return n;
}

/* NIDs first, pings after: a send may change the lists being walked. */
static void lnet_monitor_recovery(struct lnet *ln, u64 now)
{
	struct lnet_nid due[LNET_RECOVERY_BATCH];
	u32 i, n;

	n = lnet_due_nis(ln, now, due);
	for (i = 0; i < n; i++)
		lnet_recover_ni(ln, &due[i]);
	n = lnet_due_lpnis(ln, now, due);
	for (i = 0; i < n; i++)
		lnet_recover_lpni(ln, &due[i]);
}

/* ---- the thread ------------------------------------------------------------------ */

static int lnet_monitor_main(void *arg)
{
	struct lnet *ln = arg;
	struct lnet_dp *dp = &ln->ln_dp;
	u64 next_tick = 0, now;

	os_mutex_lock(&ln->ln_api_mutex);
	while (!dp->dp_monitor_stop) {
		now = os_now_ns();
		if (ln->ln_configured && !dp->dp_stopping) {
			lnet_push_process(ln);
			if (now >= next_tick) {
				lnet_monitor_expire(ln, now);
				lnet_monitor_recovery(ln, now);
				lnet_ping_target_update(ln);
				next_tick = now + LNET_MONITOR_TICK_NS;
			}
		}
		if (dp->dp_monitor_stop)
			break;
		/*
		 * Its own condition, not dp_cond (broadcast by every finalize):
		 * woken by a push or by stop, else once a tick.
		 */
		os_cond_wait(&dp->dp_monitor_cond, &ln->ln_api_mutex,
			     next_tick > now ? next_tick : now + LNET_MONITOR_TICK_NS);
	}
	os_mutex_unlock(&ln->ln_api_mutex);
	return 0;
}

int lnet_monitor_start(struct lnet *ln)
{
	struct lnet_dp *dp = &ln->ln_dp;
	int rc;

	os_cond_init(&dp->dp_monitor_cond);
	dp->dp_monitor_stop = false;
	rc = os_thread_start(&dp->dp_monitor, lnet_monitor_main, ln,
			     "lnet_monitor");
	if (rc) {
		os_cond_destroy(&dp->dp_monitor_cond);
		dp->dp_monitor_stop = true;	/* nothing for stop to do */
	}
	return rc;
}

/*
 * Called with ln_api_mutex held (lnet_dp_shutdown): the thread needs the
 * lock to see the flag and leave, so it is released around the join and
 * taken again before returning.
 */
void lnet_monitor_stop(struct lnet *ln)
{
	struct lnet_dp *dp = &ln->ln_dp;

	if (dp->dp_monitor_stop)
		return;		/* not running */
	dp->dp_monitor_stop = true;
	os_cond_broadcast(&dp->dp_monitor_cond);
	os_mutex_unlock(&ln->ln_api_mutex);
	os_thread_join(&dp->dp_monitor);
	os_mutex_lock(&ln->ln_api_mutex);
	os_cond_destroy(&dp->dp_monitor_cond);
}
