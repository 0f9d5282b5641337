// SPDX-License-Identifier: GPL-2.0-only
/*
 * The monitor thread: every LNET_MONITOR_TICK_NS it fails the messages
 * whose ACK/REPLY did not come before their transaction deadline, sends
 * recovery pings to the NIs and peer NIs whose health was lowered (a
 * reply raises it back to LNET_MAX_HEALTH, a failure doubles the wait
 * before the next ping), checks the routes' gateways (route.c) and keeps
 * our ping target up to date. It also
 * merges the pushes that peers sent us, as soon as they arrive.
 *
 * Recovery is written once for both kinds of object (struct lnet_health):
 * lnet_recovery_kinds holds what differs between a local NI and a peer NI.
 */
#include "ping_priv.h"

/* At most this many recovery pings of each kind per tick. */
#define LNET_RECOVERY_BATCH	16

/* ---- timeouts ------------------------------------------------------------------- */

static bool lnet_msg_expired(const struct lnet_msg *msg, u64 now)
{
	/* one waiting for a discovery is not out yet: the ping times out */
	return !msg->msg_sending && !msg->msg_dc_wait &&
	       msg->msg_resp == LNET_MSG_RESP_NONE &&
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

/*
 * What differs between recovering a local NI and a peer NI: how the
 * object is found again by its NID (it may have gone while the lock was
 * dropped or a ping was out), whether it may be pinged now, and the ping.
 */
struct lnet_recovery_kind {
	struct lnet_health *(*find)(struct lnet *ln, const struct lnet_nid *nid);
	const struct lnet_nid *(*nid)(struct lnet_health *h);
	bool (*may_ping)(struct lnet_health *h);
	/* 0: a ping is out; -errno: none is (the caller schedules again) */
	int (*ping)(struct lnet *ln, struct lnet_health *h,
		    const struct lnet_nid *nid);
};

static const struct lnet_recovery_kind lnet_recovery_kinds[LNET_NKINDS];

struct lnet_recovery_op {
	u32 kind;			/* enum lnet_kind of the object */
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

static void lnet_recovery_result(struct lnet *ln,
				 const struct lnet_recovery_op *op, bool ok)
{
	struct lnet_health *h = lnet_recovery_kinds[op->kind].find(ln, &op->nid);

	if (!h)
		return;
	h->lh_recovery_pending = false;
	if (ok)
		lnet_health_recovered(h);
	else
		lnet_recovery_schedule(ln, h);
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

/* GET @dst's ping info (from @src if given) for the object @kind, @nid. */
static int lnet_recovery_send(struct lnet *ln, u32 kind,
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

	if (!op)
		return -ENOMEM;
	op->kind = kind;
	op->nid = *nid;
	md.start = op->buf;
	md.user_ptr = op;
	return lnet_ping_get(ln, &md, src, dst, &op->reported);
}

/* ---- local NIs ---- */

static struct lnet_ni *lnet_health_ni(struct lnet_health *h)
{
	return container_of(h, struct lnet_ni, ni_health);
}

static struct lnet_health *lnet_recovery_find_ni(struct lnet *ln,
						 const struct lnet_nid *nid)
{
	struct lnet_ni *ni = lnet_ni_find(ln, nid);

	return ni ? &ni->ni_health : NULL;
}

static const struct lnet_nid *lnet_recovery_nid_ni(struct lnet_health *h)
{
	return &lnet_health_ni(h)->ni_nid;
}

/* A ping through a down link only fails: wait for up. */
static bool lnet_recovery_may_ping_ni(struct lnet_health *h)
{
	struct lnet_ni *ni = lnet_health_ni(h);

	return !ni->ni_dying && !lnet_nid_is_lo(&ni->ni_nid) &&
	       ni->ni_status == LNET_NI_STATUS_UP;
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
				if (best && lpni->lpni_health.lh_value <=
					    best->lpni_health.lh_value)
					continue;
				best = lpni;
				if (best->lpni_health.lh_value >= LNET_MAX_HEALTH)
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
static int lnet_recovery_ping_ni(struct lnet *ln, struct lnet_health *h,
				 const struct lnet_nid *nid)
{
	const struct lnet_peer_ni *peer;
	struct lnet_nid dst;

	peer = lnet_recovery_peer_for(ln, lnet_health_ni(h));
	if (!peer)
		return -EHOSTUNREACH;
	dst = peer->lpni_nid;
	return lnet_recovery_send(ln, LNET_KIND_NI, nid, nid, &dst);
}

/* ---- peer NIs ---- */

static struct lnet_health *lnet_recovery_find_lpni(struct lnet *ln,
						   const struct lnet_nid *nid)
{
	struct lnet_peer_ni *lpni = lnet_peer_ni_find(ln, nid);

	return lpni ? &lpni->lpni_health : NULL;
}

static const struct lnet_nid *lnet_recovery_nid_lpni(struct lnet_health *h)
{
	return &container_of(h, struct lnet_peer_ni, lpni_health)->lpni_nid;
}

static bool lnet_recovery_may_ping_lpni(struct lnet_health *h)
{
	return true;
}

/*
 * Selection would send the ping to the peer's healthiest NI, not to the
 * one being recovered. Selection runs inside lnet_get() under the lock we
 * hold, so for that call the peer NI is made the healthiest of all
 * (LNET_MAX_HEALTH + 1, never seen outside) and then given back its health,
 * less what a failure during the call took (a success sets it to the max).
 */
static int lnet_recovery_ping_lpni(struct lnet *ln, struct lnet_health *h,
				   const struct lnet_nid *nid)
{
	u32 saved = h->lh_value, lost;
	int rc;

	h->lh_value = LNET_MAX_HEALTH + 1;
	rc = lnet_recovery_send(ln, LNET_KIND_PEER_NI, nid, NULL, nid);
	h = lnet_recovery_find_lpni(ln, nid);
	if (!h)
		return rc;
	if (h->lh_value > LNET_MAX_HEALTH) {
		h->lh_value = saved;
	} else if (h->lh_recovery_pending || h->lh_ping_count) {
		lost = LNET_MAX_HEALTH + 1 - h->lh_value;
		h->lh_value = saved > lost ? saved - lost : 0;
	}
	return rc;
}

static const struct lnet_recovery_kind lnet_recovery_kinds[LNET_NKINDS] = {
	[LNET_KIND_NI] = {
		.find = lnet_recovery_find_ni,
		.nid = lnet_recovery_nid_ni,
		.may_ping = lnet_recovery_may_ping_ni,
		.ping = lnet_recovery_ping_ni,
	},
	[LNET_KIND_PEER_NI] = {
		.find = lnet_recovery_find_lpni,
		.nid = lnet_recovery_nid_lpni,
		.may_ping = lnet_recovery_may_ping_lpni,
		.ping = lnet_recovery_ping_lpni,
	},
};

/* ---- both ---- */

/* Send the recovery ping of the @kind object of @nid, if it is still there. */
static void lnet_recover(struct lnet *ln, u32 kind, const struct lnet_nid *nid)
{
	const struct lnet_recovery_kind *k = &lnet_recovery_kinds[kind];
	struct lnet_health *h = k->find(ln, nid);
	int rc;

	if (!h)
		return;
	h->lh_next_ping_ns = 0;
	h->lh_ping_count++;
	h->lh_recovery_pending = true;
	rc = k->ping(ln, h, nid);
	if (!rc)
		return;
	/* a failed send finalized messages: it may be gone */
	h = k->find(ln, nid);
	if (h) {
		h->lh_recovery_pending = false;
		lnet_recovery_schedule(ln, h);
	}
}

/*
 * Only the queued objects are looked at (health.c queues one when its
 * health is lowered, a recovery takes it off). One raised to the max by
 * someone else leaves the queue here. Up to LNET_RECOVERY_BATCH NIDs of
 * those due go to @out.
 */
static u32 lnet_recovery_due(struct lnet *ln, u32 kind, u64 now,
			     struct lnet_nid *out)
{
	const struct lnet_recovery_kind *k = &lnet_recovery_kinds[kind];
	struct lnet_health *h, *tmp;
	u32 n = 0;

	list_for_each_entry_safe(h, tmp, &ln->ln_recoveryq[kind],
				 lh_recovery_list) {
		if (h->lh_value >= LNET_MAX_HEALTH) {
			list_del_init(&h->lh_recovery_list);
			continue;
		}
		/* its ping time lost (no peer to ping, a failed send) */
		lnet_recovery_schedule(ln, h);
		if (n < LNET_RECOVERY_BATCH && !h->lh_recovery_pending &&
		    h->lh_next_ping_ns && now >= h->lh_next_ping_ns &&
		    k->may_ping(h))
			out[n++] = *k->nid(h);
	}
	return n;
}

/* NIDs first, pings after: a send may change the lists being walked. */
static void lnet_monitor_recovery(struct lnet *ln, u64 now)
{
	struct lnet_nid due[LNET_RECOVERY_BATCH];
	u32 kind, i, n;

	for (kind = 0; kind < LNET_NKINDS; kind++) {
		n = lnet_recovery_due(ln, kind, now, due);
		for (i = 0; i < n; i++)
			lnet_recover(ln, kind, &due[i]);
	}
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
			lnet_dc_process(ln);
			lnet_srpc_process(ln);
			if (now >= next_tick) {
				lnet_monitor_expire(ln, now);
				lnet_monitor_recovery(ln, now);
				lnet_router_tick(ln, now);
				lnet_fault_tick(ln, now);
				lnet_gateways_check(ln, now);
				lnet_ping_target_update(ln);
				lnet_srpc_tick(ln, now);
				next_tick = now + LNET_MONITOR_TICK_NS;
			}
		}
		if (dp->dp_monitor_stop)
			break;
		/*
		 * Selftest units queued meanwhile: another turn soon, but the
		 * mutex released first for a while (units whose RPCs end
		 * inside their send, to this node itself, would otherwise keep
		 * every other thread out: a mutex has no queue, and a release
		 * and take again at once wins over the waiters woken).
		 */
		if (lnet_srpc_pending(ln)) {
			os_cond_wait(&dp->dp_monitor_cond, &ln->ln_api_mutex,
				     os_now_ns() + LNET_MONITOR_SRPC_TURN_NS);
			continue;
		}
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
