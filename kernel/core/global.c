// SPDX-License-Identifier: GPL-2.0-only
/*
 * Routing, router buffers, global settings and statistics: the values
 * lnetctl set / routing show / global show / stats read and write, with
 * the ranges of lnet_tunables.h and the cross-checks of validate.c.
 */
#include "lnet_priv.h"
#include "validate.h"

void lnet_settings_init(struct lnet *ln)
{
	u32 i;

	ln->ln_routing = LNET_ROUTING_DISABLED;
	for (i = 0; i < LNET_NBUF_KINDS; i++)
		ln->ln_buffers[i] = lnet_buf_ranges[i].def;
	for (i = 0; i < __LNET_GLOBAL_MAX; i++)
		ln->ln_globals[i] = lnet_global_ranges[i].def;
}

int lnet_buffers_set(struct lnet *ln, const s32 counts[LNET_NBUF_KINDS])
{
	int rc = lnet_buffers_check(counts, NULL);
	u32 i;

	if (rc)
		return rc;
	for (i = 0; i < LNET_NBUF_KINDS; i++)
		if (counts[i] != -1)
			ln->ln_buffers[i] = counts[i] ? counts[i] : lnet_buf_ranges[i].def;
	if (lnet_routing_forwards(ln))
		lnet_rtr_pools_size(ln);
	return 0;
}

int lnet_global_set(struct lnet *ln, u32 id, u32 value)
{
	int rc = lnet_global_check(ln->ln_globals, id, value, NULL);

	if (rc)
		return rc;
	ln->ln_globals[id] = value;
	/* Without health there is nothing to retry on. */
	if (id == LNET_GLOBAL_HEALTH_SENSITIVITY && !value)
		ln->ln_globals[LNET_GLOBAL_RETRY_COUNT] = 0;
	return 0;
}

/* How long an LND waits: the transaction timeout shared by every try. */
static u32 lnet_lnd_timeout(const struct lnet *ln)
{
	u32 t = (ln->ln_globals[LNET_GLOBAL_TRANSACTION_TIMEOUT] - 1) /
		(ln->ln_globals[LNET_GLOBAL_RETRY_COUNT] + 1);

	return t ? t : 1;
}

int lnet_global_get(struct lnet *ln, u32 id, u32 *value)
{
	if (id >= __LNET_GLOBAL_MAX)
		return -EINVAL;
	if (id == LNET_GLOBAL_LND_TIMEOUT)
		*value = lnet_lnd_timeout(ln);
	else
		*value = ln->ln_globals[id];
	return 0;
}

void lnet_stats_get(struct lnet *ln, struct lnet_ioc_stats *st)
{
	struct lnet_ioc_hdr hdr = st->st_hdr;
	struct lnet_counters_sum sum;
	struct lnet_route *r;

	memset(st, 0, sizeof(*st));
	st->st_hdr = hdr;
	lnet_counters_sum(ln, &sum);
	st->st_send_count = sum.cs_msgs[LNET_KIND_NI][LNET_STATS_SENT];
	st->st_recv_count = sum.cs_msgs[LNET_KIND_NI][LNET_STATS_RECV];
	st->st_drop_count = sum.cs_msgs[LNET_KIND_NI][LNET_STATS_DROP];
	st->st_peer_send_count = sum.cs_msgs[LNET_KIND_PEER_NI][LNET_STATS_SENT];
	st->st_peer_recv_count = sum.cs_msgs[LNET_KIND_PEER_NI][LNET_STATS_RECV];
	st->st_peer_drop_count = sum.cs_msgs[LNET_KIND_PEER_NI][LNET_STATS_DROP];
	st->st_nis = sum.cs_objects[LNET_KIND_NI];
	st->st_peer_nis = sum.cs_objects[LNET_KIND_PEER_NI];
	list_for_each_entry(r, &ln->ln_routes, lr_list)
		st->st_routes++;
}

void lnet_stats_reset(struct lnet *ln)
{
	lnet_counters_reset(ln);
}
