// SPDX-License-Identifier: GPL-2.0-only
/*
 * Routing on this node: the `set routing` state machine and the router
 * buffer pools that forwarded messages are received into.
 *
 * States (enum lnet_routing_state): DISABLED does not forward. `set
 * routing 1` makes STARTING, which forwards but still tells peers (ping
 * feature bit RTE_DISABLED) that it does not, until alive_router_check_
 * interval + router_ping_timeout have passed: by then every peer has had
 * a check of this gateway and learns it at once. `set routing 0` makes
 * STOPPING, which tells peers at once and keeps forwarding what still
 * comes, so traffic drains; the monitor then goes DISABLED once the pools
 * are idle after that same delay, or after three times it regardless.
 *
 * Pools: tiny (no payload), small (up to a page), large (up to LNET_MTU).
 * rp_nbuffers is the count `set tiny_buffers` etc. asked for; buffers are
 * allocated when first needed (a router that forwards little costs
 * little) and kept for reuse, so rp_credits bounds the memory.
 */
#include "lnet_priv.h"
#include "validate.h"

#define LNET_RTR_PAGE		4096U

static const u32 lnet_rtr_npages[LNET_NBUF_KINDS] = {
	[LNET_BUF_TINY] = 0,
	[LNET_BUF_SMALL] = 1,
	[LNET_BUF_LARGE] = LNET_MTU / LNET_RTR_PAGE,
};

bool lnet_routing_forwards(const struct lnet *ln)
{
	return ln->ln_routing != LNET_ROUTING_DISABLED;
}

bool lnet_routing_advertised(const struct lnet *ln)
{
	return ln->ln_routing == LNET_ROUTING_ENABLED;
}

/* interval + timeout: how long a peer may take to see a change, in ns. */
static u64 lnet_routing_delay_ns(const struct lnet *ln)
{
	u64 s = (u64)ln->ln_globals[LNET_GLOBAL_ALIVE_ROUTER_CHECK_INTERVAL] +
		ln->ln_globals[LNET_GLOBAL_ROUTER_PING_TIMEOUT];

	return s * 1000000000ULL;
}

/* Pools sized from the counts asked for (credits follow a change). */
void lnet_rtr_pools_size(struct lnet *ln)
{
	u32 k;

	for (k = 0; k < LNET_NBUF_KINDS; k++) {
		struct lnet_rtr_pool *rp = &ln->ln_rtr_pools[k];
		s32 delta = ln->ln_buffers[k] - (s32)rp->rp_nbuffers;

		rp->rp_npages = lnet_rtr_npages[k];
		rp->rp_nbuffers = ln->ln_buffers[k];
		rp->rp_credits += delta;
		/* a pool of another size: its low-water mark starts again */
		if (delta)
			rp->rp_min_credits = rp->rp_credits;
		lnet_rtr_pool_kick(ln, rp);
	}
}

/* Routing starts: the low-water marks start from the credits, as Lustre's. */
static void lnet_rtr_pools_mark_full(struct lnet *ln)
{
	u32 k;

	for (k = 0; k < LNET_NBUF_KINDS; k++)
		ln->ln_rtr_pools[k].rp_min_credits = ln->ln_rtr_pools[k].rp_credits;
}

static void lnet_routing_enter(struct lnet *ln, u32 state)
{
	ln->ln_routing = state;
	ln->ln_routing_since_ns = os_now_ns();
}

int lnet_routing_set(struct lnet *ln, u32 enable)
{
	u64 delay_s = lnet_routing_delay_ns(ln) / 1000000000ULL;

	if (lnet_routing_check(enable, NULL))
		return -EINVAL;
	if (enable) {
		if (ln->ln_routing == LNET_ROUTING_STOPPING)
			return -EBUSY;
		if (ln->ln_routing != LNET_ROUTING_DISABLED)
			return 0;
		lnet_rtr_pools_size(ln);
		lnet_rtr_pools_mark_full(ln);
		lnet_routing_enter(ln, LNET_ROUTING_STARTING);
		/* its tick ends STARTING (and STOPPING), even with no NI yet */
		lnet_dp_monitor_ensure(ln);
		os_info("message forwarding will be enabled in %llus\n",
			(unsigned long long)delay_s);
		return 0;
	}
	if (ln->ln_routing == LNET_ROUTING_DISABLED)
		return 0;
	lnet_routing_enter(ln, LNET_ROUTING_STOPPING);
	lnet_dp_monitor_ensure(ln);
	os_info("message forwarding will stop in %llus to %llus\n",
		(unsigned long long)delay_s, (unsigned long long)(3 * delay_s));
	return 0;
}

static bool lnet_rtr_pools_idle(const struct lnet *ln)
{
	u32 k;

	for (k = 0; k < LNET_NBUF_KINDS; k++)
		if (ln->ln_rtr_pools[k].rp_credits !=
		    (s32)ln->ln_rtr_pools[k].rp_nbuffers)
			return false;
	return true;
}

void lnet_router_tick(struct lnet *ln, u64 now_ns)
{
	u64 delay = lnet_routing_delay_ns(ln);
	u64 since = now_ns - ln->ln_routing_since_ns;

	switch (ln->ln_routing) {
	case LNET_ROUTING_STARTING:
		if (since < delay)
			return;
		lnet_routing_enter(ln, LNET_ROUTING_ENABLED);
		os_info("message forwarding enabled\n");
		break;
	case LNET_ROUTING_STOPPING:
		if (since < delay || (!lnet_rtr_pools_idle(ln) && since < 3 * delay))
			return;
		lnet_routing_enter(ln, LNET_ROUTING_DISABLED);
		lnet_rtr_pools_drain(ln);
		os_info("message forwarding disabled\n");
		break;
	default:
		break;
	}
}

void lnet_rtr_pool_info(struct lnet *ln, u32 kind, struct lnet_rtr_pool_info *out)
{
	const struct lnet_rtr_pool *rp = &ln->ln_rtr_pools[kind];

	out->npages = lnet_rtr_npages[kind];
	out->nbuffers = lnet_routing_forwards(ln) ? rp->rp_nbuffers : 0;
	out->credits = lnet_routing_forwards(ln) ? rp->rp_credits : 0;
	out->min_credits = lnet_routing_forwards(ln) ? rp->rp_min_credits : 0;
}
