// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fault injection: drop rules and delay rules (lnet_fault.h says what
 * they match and do). The data path calls the hooks: lnet_fault_send()
 * on send, lnet_fault_recv() and lnet_fault_recv_hold() on receive; the
 * monitor releases what delay rules hold, once a tick. Everything runs
 * under ln_api_mutex, so a rule may come and go while traffic runs: a
 * rule deleted first gives what it holds back to the send or receive
 * path, and nothing else points at a rule.
 */
#include "lnet_priv.h"
#include "fault.h"

#define NS_PER_S	1000000000ULL

struct lnet_fault_rule {
	struct list_head fr_list;		/* on ln_fault_rules[type - 1] */
	struct lnet_ioc_fault fr_attr;		/* as added; the fs_* are ours */
	u32 fr_seen;				/* rate: matches in this window */
	u32 fr_hit_at;				/* rate: the one of the window hit */
	u64 fr_next_ns;				/* interval: no hit before this */
	u64 fr_window_ns;			/* interval, F_RANDOM: the window's end */
};

/* A received header a delay rule holds, with what lnet_parse was given. */
struct lnet_fault_rx {
	struct list_head fx_list;		/* on ln_fault_rx_held */
	const struct lnet_fault_rule *fx_rule;
	u64 fx_release_ns;
	struct lnet_ni *fx_ni;
	struct lnet_hdr fx_hdr;
	struct lnet_nid fx_from;
	bool fx_has_from;
	void *fx_private;			/* the LND's, for lnd_recv */
};

static struct list_head *lnet_fault_list(struct lnet *ln, u32 type)
{
	return &ln->ln_fault_rules[type - LNET_FAULT_DROP];
}

void lnet_fault_init(struct lnet *ln)
{
	u32 i;

	for (i = 0; i < LNET_FAULT_NTYPES; i++)
		INIT_LIST_HEAD(&ln->ln_fault_rules[i]);
	INIT_LIST_HEAD(&ln->ln_fault_held);
	INIT_LIST_HEAD(&ln->ln_fault_rx_held);
}

/* ---- matching ---------------------------------------------------------------- */

static bool lnet_fault_nid_match(const struct lnet_fault_nid *p, const struct lnet_nid *nid)
{
	switch (p->fn_kind) {
	case LNET_FAULT_NID_ANY:
		return true;
	case LNET_FAULT_NID_NET:
		return lnet_nid_net(nid) == p->fn_net;
	default:
		return lnet_nid_equal(&p->fn_nid, nid);
	}
}

static u32 lnet_hdr_portal(const struct lnet_hdr *hdr)
{
	return hdr->type == LNET_MSG_PUT ? hdr->msg.put.ptl_index : hdr->msg.get.ptl_index;
}

/* Does @a match a message of @hdr through the local NI @local (may be NULL)? */
static bool lnet_fault_match(const struct lnet_ioc_fault *a, const struct lnet_hdr *hdr,
			     const struct lnet_ni *local)
{
	u32 type = hdr->type;

	if (type > LNET_MSG_REPLY)
		return false;		/* HELLO is the LND's */
	if (a->fa_msg_mask && !(a->fa_msg_mask & (1U << type)))
		return false;
	if (a->fa_ptl_mask && (type == LNET_MSG_PUT || type == LNET_MSG_GET) &&
	    (lnet_hdr_portal(hdr) >= 64 || !(a->fa_ptl_mask & (1ULL << lnet_hdr_portal(hdr)))))
		return false;
	if (!lnet_nid_is_zero(&a->fa_local_nid) &&
	    (!local || !lnet_nid_equal(&a->fa_local_nid, &local->ni_nid)))
		return false;
	return lnet_fault_nid_match(&a->fa_src, &hdr->src_nid) &&
	       lnet_fault_nid_match(&a->fa_dst, &hdr->dest_nid);
}

static u32 lnet_fault_random(u32 n)
{
	return n > 1 ? (u32)(os_random_u64() % n) : 0;
}

/*
 * Is this matching message the one @r hits? Rate: the fr_hit_at-th of
 * each window of fa_rate matches. Interval: the first match at or after
 * fr_next_ns; with F_RANDOM, fr_next_ns is a random moment of the window
 * of fa_interval seconds that ends at fr_window_ns, and one hit at most
 * falls in each window.
 */
static bool lnet_fault_hit(struct lnet_fault_rule *r, u64 now_ns)
{
	u64 len = (u64)r->fr_attr.fa_interval * NS_PER_S, start;
	bool hit;

	if (r->fr_attr.fa_rate) {
		hit = r->fr_seen == r->fr_hit_at;
		if (++r->fr_seen == r->fr_attr.fa_rate) {
			r->fr_seen = 0;
			r->fr_hit_at = lnet_fault_random(r->fr_attr.fa_rate);
		}
		return hit;
	}
	if (!(r->fr_attr.fa_flags & LNET_FAULT_F_RANDOM)) {
		if (now_ns < r->fr_next_ns)
			return false;
		r->fr_next_ns = now_ns + len;
		return true;
	}
	if (now_ns >= r->fr_window_ns) {	/* a new window, and its moment */
		start = r->fr_window_ns && now_ns - r->fr_window_ns < len ?
			r->fr_window_ns : now_ns;
		r->fr_window_ns = start + len;
		r->fr_next_ns = start + os_random_u64() % len;
	}
	if (now_ns < r->fr_next_ns)
		return false;
	r->fr_next_ns = r->fr_window_ns;
	return true;
}

static void lnet_fault_count(struct lnet_fault_rule *r, u32 type)
{
	r->fr_attr.fs_count++;
	r->fr_attr.fs_msgs[type]++;
}

/* The first rule of @type that matches and hits the message, or NULL. */
static struct lnet_fault_rule *lnet_fault_find(struct lnet *ln, u32 type,
					       const struct lnet_hdr *hdr,
					       const struct lnet_ni *local)
{
	struct lnet_fault_rule *r;
	u64 now = 0;

	list_for_each_entry(r, lnet_fault_list(ln, type), fr_list) {
		if (!lnet_fault_match(&r->fr_attr, hdr, local))
			continue;
		if (!now && r->fr_attr.fa_interval)
			now = os_now_ns();
		if (lnet_fault_hit(r, now)) {
			lnet_fault_count(r, hdr->type);
			return r;
		}
	}
	return NULL;
}

/* ---- the hooks --------------------------------------------------------------- */

/* One of the health statuses of @mask, at random. */
static u32 lnet_fault_hstatus(u32 mask)
{
	u32 n = 0, pick, h;

	for (h = 1; h < __LNET_IOC_HS_MAX; h++)
		n += !!(mask & (1U << h));
	pick = lnet_fault_random(n);
	for (h = 1; h < __LNET_IOC_HS_MAX; h++)
		if ((mask & (1U << h)) && pick-- == 0)
			return h;
	return LNET_MSG_STATUS_OK;
}

static void lnet_fault_drop_send(struct lnet *ln, struct lnet_msg *msg,
				 const struct lnet_fault_rule *r)
{
	u32 hs = lnet_fault_hstatus(r->fr_attr.fa_hstatus_mask);

	if (hs == LNET_MSG_STATUS_OK) {
		/* lost on the wire: the send went, no answer will come */
		lnet_finalize_locked(ln, msg, 0);
		return;
	}
	msg->msg_health_status = hs;
	lnet_finalize_locked(ln, msg, -EIO);
}

bool lnet_fault_send(struct lnet *ln, struct lnet_msg *msg)
{
	struct lnet_fault_rule *r;

	if (ln->ln_fault_nrules[0]) {
		r = lnet_fault_find(ln, LNET_FAULT_DROP, &msg->msg_hdr, msg->msg_txni);
		if (r) {
			lnet_fault_drop_send(ln, msg, r);
			return true;
		}
	}
	if (!ln->ln_fault_nrules[1])
		return false;
	r = lnet_fault_find(ln, LNET_FAULT_DELAY, &msg->msg_hdr, msg->msg_txni);
	if (!r)
		return false;
	msg->msg_fault_rule = r;
	msg->msg_fault_release_ns = os_now_ns() + (u64)r->fr_attr.fa_latency * NS_PER_S;
	/*
	 * On msg_txq as a message waiting for credits (it holds none): when
	 * its NI or peer NI goes, lnet_txq_fail() fails it like those.
	 */
	list_add_tail(&msg->msg_txq, &ln->ln_fault_held);
	return true;
}

bool lnet_fault_recv(struct lnet *ln, struct lnet_ni *ni, const struct lnet_hdr *hdr)
{
	return ln->ln_fault_nrules[0] && lnet_fault_find(ln, LNET_FAULT_DROP, hdr, ni);
}

bool lnet_fault_recv_hold(struct lnet *ln, struct lnet_ni *ni, const struct lnet_hdr *hdr,
			  const struct lnet_nid *from, void *private)
{
	struct lnet_fault_rule *r;
	struct lnet_fault_rx *fx;

	if (!ni->ni_lnd || ni->ni_lnd->lnd_type == LNET_LND_LO)
		return false;
	r = lnet_fault_find(ln, LNET_FAULT_DELAY, hdr, ni);
	if (!r)
		return false;
	fx = lnet_obj_alloc(ln, sizeof(*fx));
	if (!fx)
		return false;		/* counted, but goes on at once */
	fx->fx_rule = r;
	fx->fx_release_ns = os_now_ns() + (u64)r->fr_attr.fa_latency * NS_PER_S;
	fx->fx_ni = ni;
	fx->fx_hdr = *hdr;
	fx->fx_has_from = from != NULL;
	if (from)
		fx->fx_from = *from;
	fx->fx_private = private;
	list_add_tail(&fx->fx_list, &ln->ln_fault_rx_held);
	return true;
}

/*
 * The held headers of @rule (NULL: any) due by @now_ns (0: all of them)
 * go on through lnet_parse_resume(), or, @discard, are dropped.
 */
static void lnet_fault_rx_release(struct lnet *ln, const struct lnet_fault_rule *rule,
				  u64 now_ns, bool discard)
{
	struct lnet_fault_rx *fx, *tmp;
	LIST_HEAD(due);

	list_for_each_entry_safe(fx, tmp, &ln->ln_fault_rx_held, fx_list) {
		if ((rule && fx->fx_rule != rule) || (now_ns && fx->fx_release_ns > now_ns))
			continue;
		list_del(&fx->fx_list);
		list_add_tail(&fx->fx_list, &due);
	}
	list_for_each_entry_safe(fx, tmp, &due, fx_list) {
		list_del(&fx->fx_list);
		if (discard)
			lnet_parse_discard(ln, fx->fx_ni, &fx->fx_hdr, fx->fx_private);
		else
			lnet_parse_resume(ln, fx->fx_ni, &fx->fx_hdr,
					  fx->fx_has_from ? &fx->fx_from : NULL, fx->fx_private);
		lnet_obj_free(ln, fx);
	}
}

void lnet_fault_rx_abandon(struct lnet *ln, struct lnet_ni *ni, void *private)
{
	struct lnet_fault_rx *fx, *tmp;

	list_for_each_entry_safe(fx, tmp, &ln->ln_fault_rx_held, fx_list) {
		if (fx->fx_ni != ni || fx->fx_private != private)
			continue;
		/* no lnd_recv: the connection it would read from is gone */
		list_del(&fx->fx_list);
		lnet_count(ln, LNET_STATS_DROP, ni, NULL, fx->fx_hdr.type,
			   fx->fx_hdr.payload_length);
		lnet_obj_free(ln, fx);
	}
}

void lnet_fault_forget_ni(struct lnet *ln, struct lnet_ni *ni)
{
	struct lnet_fault_rx *fx, *tmp;
	LIST_HEAD(gone);

	list_for_each_entry_safe(fx, tmp, &ln->ln_fault_rx_held, fx_list) {
		if (fx->fx_ni != ni)
			continue;
		list_del(&fx->fx_list);
		list_add_tail(&fx->fx_list, &gone);
	}
	list_for_each_entry_safe(fx, tmp, &gone, fx_list) {
		list_del(&fx->fx_list);
		lnet_parse_discard(ln, ni, &fx->fx_hdr, fx->fx_private);
		lnet_obj_free(ln, fx);
	}
}

/* Send on the held messages of @rule (NULL: any) due by @now_ns (0: all of them). */
static void lnet_fault_release(struct lnet *ln, const struct lnet_fault_rule *rule,
			       u64 now_ns)
{
	struct lnet_msg *msg, *tmp;
	LIST_HEAD(due);

	list_for_each_entry_safe(msg, tmp, &ln->ln_fault_held, msg_txq) {
		if ((rule && msg->msg_fault_rule != rule) ||
		    (now_ns && msg->msg_fault_release_ns > now_ns))
			continue;
		list_del(&msg->msg_txq);
		list_add_tail(&msg->msg_txq, &due);
	}
	/* off the held list before any send: a send may finalize others */
	list_for_each_entry_safe(msg, tmp, &due, msg_txq) {
		list_del_init(&msg->msg_txq);
		msg->msg_fault_rule = NULL;
		lnet_send_resume(ln, msg);
	}
	lnet_fault_rx_release(ln, rule, now_ns, false);
	lnet_finalize_run(ln);
}

void lnet_fault_tick(struct lnet *ln, u64 now_ns)
{
	if (!list_empty(&ln->ln_fault_held) || !list_empty(&ln->ln_fault_rx_held))
		lnet_fault_release(ln, NULL, now_ns);
}

static void lnet_fault_free(struct lnet *ln, struct lnet_fault_rule *r)
{
	lnet_fault_release(ln, r, 0);
	list_del(&r->fr_list);
	ln->ln_fault_nrules[r->fr_attr.fa_type - LNET_FAULT_DROP]--;
	lnet_obj_free(ln, r);
}

void lnet_fault_shutdown(struct lnet *ln)
{
	struct lnet_fault_rule *r, *rtmp;
	struct lnet_msg *msg, *tmp;
	u32 t;

	list_for_each_entry_safe(msg, tmp, &ln->ln_fault_held, msg_txq) {
		list_del_init(&msg->msg_txq);
		msg->msg_fault_rule = NULL;
		msg->msg_health_status = LNET_MSG_STATUS_LOCAL_ABORTED;
		lnet_finalize_defer(ln, msg, -ESHUTDOWN);
	}
	/* the LNDs still run: the payloads of held headers are discarded */
	lnet_fault_rx_release(ln, NULL, 0, true);
	lnet_finalize_run(ln);
	for (t = 0; t < LNET_FAULT_NTYPES; t++)
		list_for_each_entry_safe(r, rtmp, &ln->ln_fault_rules[t], fr_list)
			lnet_fault_free(ln, r);
}

/* ---- the ioctls ---------------------------------------------------------------- */

bool lnet_fault_reserved_zero(const void *buf)
{
	const struct lnet_ioc_fault *f = buf;
	u32 i;

	if (f->fa_pad)
		return false;
	for (i = 0; i < sizeof(f->fa_reserved) / sizeof(f->fa_reserved[0]); i++)
		if (f->fa_reserved[i])
			return false;
	return true;
}

static bool lnet_fault_nid_ok(const struct lnet_nid *nid, bool zero_ok)
{
	u32 i;

	if (nid->nid_addr_len == 0) {
		if (!zero_ok || nid->nid_lnd || nid->nid_netnum)
			return false;
		for (i = 0; i < sizeof(nid->nid_addr); i++)
			if (nid->nid_addr[i])
				return false;
		return true;
	}
	if (nid->nid_addr_len != 4 && nid->nid_addr_len != 16)
		return false;
	for (i = nid->nid_addr_len; i < sizeof(nid->nid_addr); i++)
		if (nid->nid_addr[i])
			return false;
	return nid->nid_lnd != LNET_LND_NONE && lnet_lnd_name(nid->nid_lnd);
}

static bool lnet_fault_pattern_ok(const struct lnet_fault_nid *p)
{
	static const struct lnet_nid zero;

	switch (p->fn_kind) {
	case LNET_FAULT_NID_ANY:
		return !p->fn_net && !memcmp(&p->fn_nid, &zero, sizeof(zero));
	case LNET_FAULT_NID_NET:
		return lnet_lnd_name(LNET_NET_LND(p->fn_net)) &&
		       !memcmp(&p->fn_nid, &zero, sizeof(zero));
	case LNET_FAULT_NID_ONE:
		return !p->fn_net && lnet_fault_nid_ok(&p->fn_nid, false);
	default:
		return false;
	}
}

static bool lnet_fault_out_zero(const struct lnet_ioc_fault *f)
{
	u32 i;

	for (i = 0; i < LNET_FAULT_NMSG; i++)
		if (f->fs_msgs[i])
			return false;
	return !f->fs_count && !f->fa_index;
}

/* ADD's checks, before anything changes (lnet_fault.h lists them). */
static int lnet_fault_add_check(const struct lnet_ioc_fault *f)
{
	bool delay = f->fa_type == LNET_FAULT_DELAY;

	if (!lnet_fault_pattern_ok(&f->fa_src) || !lnet_fault_pattern_ok(&f->fa_dst) ||
	    !lnet_fault_nid_ok(&f->fa_local_nid, true) || !lnet_fault_out_zero(f))
		return -EINVAL;
	if ((f->fa_msg_mask & ~__LNET_FAULT_MSG_ALL) ||
	    (f->fa_hstatus_mask & ~LNET_FAULT_HS_ALL) || (delay && f->fa_hstatus_mask))
		return -EINVAL;
	if (f->fa_ptl_mask && (f->fa_msg_mask & (LNET_FAULT_MSG_ACK | LNET_FAULT_MSG_REPLY)))
		return -EINVAL;		/* ACK and REPLY carry no portal */
	if (!f->fa_rate == !f->fa_interval || f->fa_rate > LNET_FAULT_RATE_MAX ||
	    f->fa_interval > LNET_FAULT_INTERVAL_MAX)
		return -EINVAL;
	if (f->fa_flags & ~LNET_FAULT_F_RANDOM ||
	    ((f->fa_flags & LNET_FAULT_F_RANDOM) && !f->fa_interval))
		return -EINVAL;
	if (delay ? !f->fa_latency || f->fa_latency > LNET_FAULT_LATENCY_MAX : !!f->fa_latency)
		return -EINVAL;
	return 0;
}

static int lnet_fault_add(struct lnet *ln, const struct lnet_ioc_fault *f)
{
	u32 t = f->fa_type - LNET_FAULT_DROP;
	struct lnet_fault_rule *r;
	int rc = lnet_fault_add_check(f);

	if (rc)
		return rc;
	if (ln->ln_fault_nrules[t] >= LNET_FAULT_MAX_RULES)
		return -ENOSPC;
	r = lnet_obj_alloc(ln, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->fr_attr = *f;
	r->fr_hit_at = lnet_fault_random(f->fa_rate);
	list_add_tail(&r->fr_list, lnet_fault_list(ln, f->fa_type));
	ln->ln_fault_nrules[t]++;
	return 0;
}

static bool lnet_fault_same(const struct lnet_fault_nid *a, const struct lnet_fault_nid *b)
{
	return a->fn_kind == b->fn_kind && a->fn_net == b->fn_net &&
	       !memcmp(&a->fn_nid, &b->fn_nid, sizeof(a->fn_nid));
}

/* DEL and RESET take the type, DEL the patterns or F_ALL, and nothing else. */
static bool lnet_fault_rest_zero(const struct lnet_ioc_fault *f)
{
	static const struct lnet_nid zero;

	return !memcmp(&f->fa_local_nid, &zero, sizeof(zero)) && !f->fa_msg_mask &&
	       !f->fa_hstatus_mask && !f->fa_ptl_mask && !f->fa_rate && !f->fa_interval &&
	       !f->fa_latency && lnet_fault_out_zero(f);
}

static int lnet_fault_del(struct lnet *ln, struct lnet_ioc_fault *f)
{
	static const struct lnet_fault_nid any;
	bool all = f->fa_flags & LNET_FAULT_F_ALL;
	struct lnet_fault_rule *r, *tmp;
	u32 n = 0;

	if ((f->fa_flags & ~LNET_FAULT_F_ALL) || !lnet_fault_rest_zero(f))
		return -EINVAL;
	if (all ? !lnet_fault_same(&f->fa_src, &any) || !lnet_fault_same(&f->fa_dst, &any) :
		  !lnet_fault_pattern_ok(&f->fa_src) || !lnet_fault_pattern_ok(&f->fa_dst))
		return -EINVAL;
	list_for_each_entry_safe(r, tmp, lnet_fault_list(ln, f->fa_type), fr_list) {
		if (!all && (!lnet_fault_same(&r->fr_attr.fa_src, &f->fa_src) ||
			     !lnet_fault_same(&r->fr_attr.fa_dst, &f->fa_dst)))
			continue;
		lnet_fault_free(ln, r);
		n++;
	}
	f->fa_index = n;
	return n ? 0 : -ENOENT;
}

static int lnet_fault_reset(struct lnet *ln, const struct lnet_ioc_fault *f)
{
	static const struct lnet_fault_nid any;
	struct lnet_fault_rule *r;

	if (f->fa_flags || !lnet_fault_rest_zero(f) || !lnet_fault_same(&f->fa_src, &any) ||
	    !lnet_fault_same(&f->fa_dst, &any))
		return -EINVAL;
	list_for_each_entry(r, lnet_fault_list(ln, f->fa_type), fr_list) {
		r->fr_attr.fs_count = 0;
		memset(r->fr_attr.fs_msgs, 0, sizeof(r->fr_attr.fs_msgs));
	}
	return 0;
}

static int lnet_fault_get(struct lnet *ln, struct lnet_ioc_fault *f)
{
	static const struct lnet_fault_nid any;
	struct lnet_fault_rule *r;
	u32 i = 0, index = f->fa_index;

	f->fa_index = 0;
	if (f->fa_flags || !lnet_fault_rest_zero(f) || !lnet_fault_same(&f->fa_src, &any) ||
	    !lnet_fault_same(&f->fa_dst, &any))
		return -EINVAL;
	list_for_each_entry(r, lnet_fault_list(ln, f->fa_type), fr_list) {
		if (i++ != index)
			continue;
		*f = r->fr_attr;
		f->fa_index = index;
		return 0;
	}
	return -ENOENT;
}

int lnet_ioc_fault(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	struct lnet_ioc_fault *f = buf;

	if (f->fa_type != LNET_FAULT_DROP && f->fa_type != LNET_FAULT_DELAY)
		return -EINVAL;
	switch (cmd) {
	case IOC_LNET_FAULT_ADD:
		return lnet_fault_add(ln, f);
	case IOC_LNET_FAULT_DEL:
		return lnet_fault_del(ln, f);
	case IOC_LNET_FAULT_RESET:
		return lnet_fault_reset(ln, f);
	default:
		return lnet_fault_get(ln, f);
	}
}
