// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What every section's show printer shares (section.h): a document started
 * only when there is something to print, so "no rules" prints nothing at
 * all and an error found by the first read prints nothing either; NIDs,
 * nets, priorities and counters in Lustre's key names. Also `stats show`,
 * which is no section of a document.
 */
#include <errno.h>
#include <string.h>
#include "section.h"

int pr_start(struct printer *p)
{
	int rc;

	if (p->started)
		return p->w.rc;
	rc = yemit_begin(&p->w, p->out, p->err);
	p->started = true;
	yemit_map_start(&p->w);
	return rc ? rc : p->w.rc;
}

int pr_finish(struct printer *p, int rc)
{
	int wrc;

	if (!p->started)
		return rc;
	yemit_map_end(&p->w);
	wrc = yemit_end(&p->w);
	return rc ? rc : wrc;
}

void emit_nid(struct yemit *w, const char *key, const struct lnet_nid *nid)
{
	char buf[LNET_NID_STR_MAX];

	if (lnet_nid_print(nid, buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "?");
	yemit_kv_str(w, key, buf);
}

void emit_net(struct yemit *w, const char *key, u32 net_id)
{
	char buf[LNET_NET_STR_MAX];

	if (lnet_net_print(net_id, buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "?");
	yemit_kv_str(w, key, buf);
}

const char *status_name(u32 status)
{
	return status == LNET_NI_STATUS_UP ? "up" : "down";
}

void emit_prio(struct yemit *w, const char *key, u32 prio)
{
	yemit_kv_s64(w, key, prio == LNET_PRIORITY_UNSET ? -1 : (long long)prio);
}

/* A latency's four keys, "<prefix>_samples" ... "<prefix>_avg_nsec", as Lustre. */
static void emit_latency(struct yemit *w, const char *prefix,
			 const struct lnet_ioc_latency *l)
{
	static const char *const suffix[] = {
		"samples", "min_nsec", "max_nsec", "avg_nsec",
	};
	const __u64 v[] = { l->lat_samples, l->lat_min_ns, l->lat_max_ns,
			    l->lat_avg_ns };
	char key[32];
	unsigned int i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		snprintf(key, sizeof(key), "%s_%s", prefix, suffix[i]);
		yemit_kv_u64(w, key, v[i]);
	}
}

void emit_stats(struct yemit *w, u64 send, u64 recv, u64 drop,
		const struct lnet_ioc_latency lat[__LNET_IOC_LAT_MAX])
{
	/* Lustre's order: egress, round trip, ack */
	static const char *const prefix[__LNET_IOC_LAT_MAX] = {
		[LNET_IOC_LAT_PUT_EGRESS] = "put_egress",
		[LNET_IOC_LAT_GET_RTT] = "get_rtt",
		[LNET_IOC_LAT_PUT_ACK] = "put_ack",
	};
	unsigned int k;

	yemit_key_map(w, "statistics");
	yemit_kv_u64(w, "send_count", send);
	yemit_kv_u64(w, "recv_count", recv);
	yemit_kv_u64(w, "drop_count", drop);
	for (k = 0; k < __LNET_IOC_LAT_MAX; k++)
		emit_latency(w, prefix[k], &lat[k]);
	yemit_map_end(w);
}

void emit_msg_stats(struct yemit *w,
		    const __u64 st[__LNET_IOC_STATS_MAX][__LNET_IOC_MSG_MAX])
{
	static const char *const kinds[__LNET_IOC_STATS_MAX] = {
		[LNET_IOC_STATS_SENT] = "sent_stats",
		[LNET_IOC_STATS_RECV] = "received_stats",
		[LNET_IOC_STATS_DROP] = "dropped_stats",
	};
	static const struct { const char *name; unsigned int type; } types[] = {
		{ "put", LNET_IOC_MSG_PUT }, { "get", LNET_IOC_MSG_GET },
		{ "reply", LNET_IOC_MSG_REPLY }, { "ack", LNET_IOC_MSG_ACK },
		{ "hello", LNET_IOC_MSG_HELLO },
	};
	unsigned int k, t;

	for (k = 0; k < __LNET_IOC_STATS_MAX; k++) {
		yemit_key_map(w, kinds[k]);
		for (t = 0; t < sizeof(types) / sizeof(types[0]); t++)
			yemit_kv_u64(w, types[t].name, st[k][types[t].type]);
		yemit_map_end(w);
	}
}

void emit_hs_counters(struct yemit *w, const __u64 *hs, const struct hs_key *keys,
		      size_t n)
{
	for (size_t i = 0; i < n; i++)
		yemit_kv_u64(w, keys[i].key, hs[keys[i].idx]);
}

/* --- stats show ----------------------------------------------------------------------- */

/*
 * Lustre's `stats show` keys in Lustre's order (route_count and
 * route_length: the messages this node forwarded as a router), then ours.
 */
static void write_stats(struct yemit *w, const struct lnet_ioc_stats *st)
{
	static const struct { const char *key; unsigned int hs; } hs[] = {
		{ "local_interrupt_count", LNET_IOC_HS_LOCAL_INTERRUPT },
		{ "local_dropped_count", LNET_IOC_HS_LOCAL_DROPPED },
		{ "local_aborted_count", LNET_IOC_HS_LOCAL_ABORTED },
		{ "local_no_route_count", LNET_IOC_HS_LOCAL_NO_ROUTE },
		{ "local_timeout_count", LNET_IOC_HS_LOCAL_TIMEOUT },
		{ "local_error_count", LNET_IOC_HS_LOCAL_ERROR },
		{ "remote_dropped_count", LNET_IOC_HS_REMOTE_DROPPED },
		{ "remote_error_count", LNET_IOC_HS_REMOTE_ERROR },
		{ "remote_timeout_count", LNET_IOC_HS_REMOTE_TIMEOUT },
		{ "network_timeout_count", LNET_IOC_HS_NETWORK_TIMEOUT },
	};
	size_t i;

	yemit_kv_u64(w, "msgs_alloc", st->st_msgs_alloc);
	yemit_kv_u64(w, "msgs_max", st->st_msgs_max);
	yemit_kv_u64(w, "rst_alloc", st->st_rst_alloc);
	yemit_kv_u64(w, "errors", st->st_errors);
	yemit_kv_u64(w, "send_count", st->st_dp_send_count);
	yemit_kv_u64(w, "resend_count", st->st_resend_count);
	yemit_kv_u64(w, "response_timeout_count", st->st_response_timeout_count);
	for (i = 0; i < sizeof(hs) / sizeof(hs[0]); i++)
		yemit_kv_u64(w, hs[i].key, st->st_hstatus[hs[i].hs]);
	yemit_kv_u64(w, "failed_resends", st->st_failed_resends);
	yemit_kv_u64(w, "successful_resends", st->st_successful_resends);
	yemit_kv_u64(w, "recv_count", st->st_dp_recv_count);
	yemit_kv_u64(w, "route_count", st->st_route_count);
	yemit_kv_u64(w, "drop_count", st->st_dp_drop_count);
	yemit_kv_u64(w, "send_length", st->st_dp_send_length);
	yemit_kv_u64(w, "recv_length", st->st_dp_recv_length);
	yemit_kv_u64(w, "route_length", st->st_route_length);
	yemit_kv_u64(w, "drop_length", st->st_dp_drop_length);
	yemit_kv_u64(w, "peer_send_count", st->st_peer_send_count);
	yemit_kv_u64(w, "peer_recv_count", st->st_peer_recv_count);
	yemit_kv_u64(w, "peer_drop_count", st->st_peer_drop_count);
	yemit_kv_u64(w, "local_nis", st->st_nis);
	yemit_kv_u64(w, "peer_nis", st->st_peer_nis);
	yemit_kv_u64(w, "routes", st->st_routes);
	yemit_kv_u64(w, "selftest_corrupt", st->st_selftest_corrupt);
}

int cfg_show_stats(struct cfg_handle *h, FILE *out, struct cfg_err *err)
{
	struct printer p = { .out = out, .err = err };
	struct lnet_ioc_stats st;
	int rc = cfg_stats_get(h, &st, err);

	if (rc)
		return rc;
	rc = pr_start(&p);
	yemit_key_map(&p.w, "statistics");
	write_stats(&p.w, &st);
	yemit_map_end(&p.w);
	return pr_finish(&p, rc);
}

