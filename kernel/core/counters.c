// SPDX-License-Identifier: GPL-2.0-only
/*
 * Message counters: a message sent, received or dropped counts once in
 * the data path's totals and once in the struct lnet_counters of the local
 * NI and of the peer NI it went through (lnet_count). GET_NET and GET_PEER
 * report one NI's, GET_LNET_STATS the sums over every NI and peer NI,
 * RESET_LNET_STATS zeroes them all. The latencies (lnet_count_latency)
 * live in the same struct, so the same walk reports and resets them.
 */
#include "lnet_priv.h"

void lnet_count_obj(struct lnet_ni *ni, struct lnet_peer_ni *lpni, u32 kind,
		    u32 type)
{
	/* a dropped message's type comes off the wire: it may be anything */
	if (type > LNET_MSG_HELLO)
		type = LNET_MSG_HELLO;
	if (ni)
		ni->ni_counters.lc_msgs[kind][type]++;
	if (lpni)
		lpni->lpni_counters.lc_msgs[kind][type]++;
}

void lnet_count(struct lnet *ln, u32 kind, struct lnet_ni *ni,
		struct lnet_peer_ni *lpni, u32 type, u32 len)
{
	lnet_count_obj(ni, lpni, kind, type);
	ln->ln_dp.dp_count[kind]++;
	ln->ln_dp.dp_length[kind] += len;
}

static void lnet_latency_add(struct lnet_latency *l, u64 ns)
{
	if (!l->ll_samples || ns < l->ll_min_ns)
		l->ll_min_ns = ns;
	if (ns > l->ll_max_ns)
		l->ll_max_ns = ns;
	l->ll_samples++;
	l->ll_total_ns += ns;
}

void lnet_count_latency(u32 lat, struct lnet_ni *ni, struct lnet_peer_ni *lpni,
			u64 start_ns)
{
	u64 now = os_now_ns();
	/* a sample of 0 would read as "none": a clock that did not move is 1 ns */
	u64 ns = now > start_ns ? now - start_ns : 1;

	if (!start_ns)		/* never handed to an LND: nothing to measure */
		return;
	if (ni)
		lnet_latency_add(&ni->ni_counters.lc_lat[lat], ns);
	if (lpni)
		lnet_latency_add(&lpni->lpni_counters.lc_lat[lat], ns);
}

u64 lnet_latency_avg_ns(const struct lnet_latency *l)
{
	return l->ll_samples ? l->ll_total_ns / l->ll_samples : 0;
}

u64 lnet_counters_total(const struct lnet_counters *c, u32 kind)
{
	u64 n = 0;
	u32 type;

	for (type = 0; type <= LNET_MSG_HELLO; type++)
		n += c->lc_msgs[kind][type];
	return n;
}

void lnet_counters_walk(struct lnet *ln,
			void (*fn)(struct lnet_counters *c, u32 kind, void *arg),
			void *arg)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;
	struct lnet_net *net;
	struct lnet_ni *ni;

	list_for_each_entry(net, &ln->ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list)
			fn(&ni->ni_counters, LNET_KIND_NI, arg);
	list_for_each_entry(lp, &ln->ln_peers, lp_list)
		list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list)
			list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
				fn(&lpni->lpni_counters, LNET_KIND_PEER_NI, arg);
}

static void lnet_counters_add(struct lnet_counters *c, u32 kind, void *arg)
{
	struct lnet_counters_sum *sum = arg;
	u32 k;

	for (k = 0; k < LNET_STATS_KINDS; k++)
		sum->cs_msgs[kind][k] += lnet_counters_total(c, k);
	sum->cs_objects[kind]++;
}

void lnet_counters_sum(struct lnet *ln, struct lnet_counters_sum *sum)
{
	memset(sum, 0, sizeof(*sum));
	lnet_counters_walk(ln, lnet_counters_add, sum);
}

static void lnet_counters_clear(struct lnet_counters *c, u32 kind, void *arg)
{
	memset(c, 0, sizeof(*c));
}

void lnet_counters_reset(struct lnet *ln)
{
	lnet_counters_walk(ln, lnet_counters_clear, NULL);
}
