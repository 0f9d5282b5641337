// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The show printers and export, all through one YAML writer (yemit.h) and
 * in Lustre's key names. A printer starts its document only when it has
 * something to print, so "no rules" prints nothing at all and an error
 * found by the first read prints nothing either.
 */
#include <errno.h>
#include <string.h>
#include "yemit.h"
#include "../kernel/core/validate.h"
#include "route_priv.h"

struct printer {
	struct yemit w;
	FILE *out;
	bool started;
	struct cfg_err *err;
};

/* Open the document and its top mapping on first use; errors stick in p->w. */
static int pr_start(struct printer *p)
{
	int rc;

	if (p->started)
		return p->w.rc;
	rc = yemit_begin(&p->w, p->out, p->err);
	p->started = true;
	yemit_map_start(&p->w);
	return rc ? rc : p->w.rc;
}

static int pr_finish(struct printer *p, int rc)
{
	int wrc;

	if (!p->started)
		return rc;
	yemit_map_end(&p->w);
	wrc = yemit_end(&p->w);
	return rc ? rc : wrc;
}

static void emit_nid(struct yemit *w, const char *key, const struct lnet_nid *nid)
{
	char buf[LNET_NID_STR_MAX];

	if (lnet_nid_print(nid, buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "?");
	yemit_kv_str(w, key, buf);
}

static void emit_net(struct yemit *w, const char *key, u32 net_id)
{
	char buf[LNET_NET_STR_MAX];

	if (lnet_net_print(net_id, buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "?");
	yemit_kv_str(w, key, buf);
}

static const char *status_name(u32 status)
{
	return status == LNET_NI_STATUS_UP ? "up" : "down";
}

/* Unset prints as -1, as Lustre does; every set priority as itself. */
static void emit_prio(struct yemit *w, const char *key, u32 prio)
{
	yemit_kv_s64(w, key, prio == LNET_PRIORITY_UNSET ? -1 : (long long)prio);
}

static void emit_stats(struct yemit *w, u64 send, u64 recv, u64 drop)
{
	yemit_key_map(w, "statistics");
	yemit_kv_u64(w, "send_count", send);
	yemit_kv_u64(w, "recv_count", recv);
	yemit_kv_u64(w, "drop_count", drop);
	yemit_map_end(w);
}

/* sent_stats, received_stats, dropped_stats: by message type, Lustre's order. */
static void emit_msg_stats(struct yemit *w, const __u64 st[__LNET_IOC_STATS_MAX][__LNET_IOC_MSG_MAX])
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

/* A failure counter of a health status array and the YAML key it shows under. */
struct hs_key {
	const char *key;
	unsigned int idx;	/* LNET_IOC_HS_* */
};

static void emit_hs_counters(struct yemit *w, const __u64 *hs, const struct hs_key *keys,
			     size_t n)
{
	for (size_t i = 0; i < n; i++)
		yemit_kv_u64(w, keys[i].key, hs[keys[i].idx]);
}

/* A local NI's health stats, Lustre's keys: the LOCAL_* failures. */
static void emit_ni_health(struct yemit *w, const struct lnet_ioc_ni *ni)
{
	static const struct hs_key local[] = {
		{ "interrupts", LNET_IOC_HS_LOCAL_INTERRUPT },
		{ "dropped", LNET_IOC_HS_LOCAL_DROPPED },
		{ "aborted", LNET_IOC_HS_LOCAL_ABORTED },
		{ "no route", LNET_IOC_HS_LOCAL_NO_ROUTE },
		{ "timeouts", LNET_IOC_HS_LOCAL_TIMEOUT },
		{ "error", LNET_IOC_HS_LOCAL_ERROR },
	};

	yemit_key_map(w, "health stats");
	yemit_kv_u64(w, "fatal_error", ni->ni_status != LNET_NI_STATUS_UP);
	yemit_kv_u64(w, "health value", ni->ni_health);
	emit_hs_counters(w, ni->ni_hstatus, local, sizeof(local) / sizeof(local[0]));
	yemit_kv_u64(w, "ping_count", ni->ni_ping_count);
	yemit_kv_u64(w, "next_ping", ni->ni_next_ping_s);
	yemit_map_end(w);
}

/* A peer NI's health stats, Lustre's keys: the REMOTE_* failures. */
static void emit_peer_ni_health(struct yemit *w, const struct lnet_ioc_peer *pr)
{
	static const struct hs_key remote[] = {
		{ "dropped", LNET_IOC_HS_REMOTE_DROPPED },
		{ "timeout", LNET_IOC_HS_REMOTE_TIMEOUT },
		{ "error", LNET_IOC_HS_REMOTE_ERROR },
		{ "network timeout", LNET_IOC_HS_NETWORK_TIMEOUT },
	};

	yemit_key_map(w, "health stats");
	yemit_kv_u64(w, "health value", pr->pr_health);
	emit_hs_counters(w, pr->pr_hstatus, remote, sizeof(remote) / sizeof(remote[0]));
	yemit_kv_u64(w, "ping_count", pr->pr_ping_count);
	yemit_kv_u64(w, "next_ping", pr->pr_next_ping_s);
	yemit_map_end(w);
}

/* A local NI's transmit credits (-v 2), named as for peer NIs. */
static void emit_ni_credits(struct yemit *w, const struct lnet_ioc_ni *ni)
{
	yemit_kv_s64(w, "max_tx_credits", ni->ni_tun.credits);
	yemit_kv_u64(w, "available_tx_credits", ni->ni_tx_credits);
	yemit_kv_s64(w, "min_tx_credits", ni->ni_min_tx_credits);
	yemit_kv_u64(w, "tx_q_num_of_buf", ni->ni_txq_len);
}

/* Only the tunables that are set (-1 = the default, not written). */
static void emit_tunables(struct yemit *w, const struct lnet_ni_tunables *t)
{
	bool any = false;
	u32 i;

	for (i = 0; i < __LNET_TUN_MAX; i++)
		any |= lnet_ni_tun_get(t, i) >= 0;
	if (!any)
		return;
	yemit_key_map(w, "tunables");
	for (i = 0; i < __LNET_TUN_MAX; i++)
		if (lnet_ni_tun_get(t, i) >= 0)
			yemit_kv_s64(w, lnet_ni_tun_ranges[i].name, lnet_ni_tun_get(t, i));
	yemit_map_end(w);
}

static void emit_nid_list(struct yemit *w, const char *key,
			  const struct lnet_nid *nids, u32 n)
{
	char name[16];
	u32 i;

	if (!n)
		return;
	yemit_key_map(w, key);
	for (i = 0; i < n && i < LNET_PREF_MAX; i++) {
		snprintf(name, sizeof(name), "NID-%u", i);
		emit_nid(w, name, &nids[i]);
	}
	yemit_map_end(w);
}

/* --- net show ---------------------------------------------------------------- */

static void emit_ni(struct yemit *w, const struct lnet_ioc_ni *ni, int verbose)
{
	yemit_map_start(w);
	emit_nid(w, "nid", &ni->ni_nid);
	yemit_kv_str(w, "status", status_name(ni->ni_status));
	if (ni->ni_ifname[0]) {
		yemit_key_map(w, "interfaces");
		yemit_plain(w, "0");
		yemit_str(w, ni->ni_ifname);
		yemit_map_end(w);
	}
	if (verbose >= 1)
		emit_stats(w, ni->ni_send_count, ni->ni_recv_count, ni->ni_drop_count);
	if (verbose >= 4) {
		yemit_key_map(w, "udsp info");
		emit_prio(w, "net priority", ni->ni_net_priority);
		emit_prio(w, "nid priority", ni->ni_nid_priority);
		yemit_map_end(w);
	}
	if (verbose >= 2) {
		emit_msg_stats(w, (const __u64 (*)[__LNET_IOC_MSG_MAX])ni->ni_stats);
		emit_ni_health(w, ni);
		emit_ni_credits(w, ni);
	}
	if (verbose >= 1)
		emit_tunables(w, &ni->ni_tun);
	yemit_map_end(w);
}

static int emit_nets(struct printer *p, struct cfg_handle *h, u32 net_id, int verbose)
{
	struct yemit *w = &p->w;
	struct lnet_ioc_ni ni;
	u32 i, net, cur = 0;
	int rc;

	for (i = 0;; i++) {
		memset(&ni, 0, sizeof(ni));
		rc = cfg_ni_get(h, i, net_id, &ni);
		if (rc)
			break;
		net = lnet_nid_net(&ni.ni_nid);
		if (!i) {
			pr_start(p);
			yemit_key_seq(w, "net");
		} else if (net != cur) {
			yemit_seq_end(w);
			yemit_map_end(w);
		}
		if (!i || net != cur) {
			yemit_map_start(w);
			emit_net(w, "net type", net);
			yemit_key_seq(w, "local NI(s)");
			cur = net;
		}
		emit_ni(w, &ni, verbose);
	}
	if (i) {
		yemit_seq_end(w);
		yemit_map_end(w);
		yemit_seq_end(w);
	}
	if (rc == -ENOENT && (i || !net_id))
		return 0;
	if (rc == -ENOENT) {
		char buf[LNET_NET_STR_MAX];

		lnet_net_print(net_id, buf, sizeof(buf));
		return cfg_fail(p->err, rc, NULL, "no NI in net '%s'", buf);
	}
	return cfg_fail(p->err, rc, NULL, "cannot read the NIs from %s: %s",
			cfg_target(h), strerror(-rc));
}

int cfg_show_nets(struct cfg_handle *h, u32 net_id, int verbose, FILE *out,
		  struct cfg_err *err)
{
	struct printer p = { .out = out, .err = err };

	return pr_finish(&p, emit_nets(&p, h, net_id, verbose));
}

/* --- peer show --------------------------------------------------------------- */

/* @verbose < 0: the export --backup form, the NID alone. */
static void emit_peer_ni(struct yemit *w, const struct lnet_ioc_peer *pr, int verbose)
{
	yemit_map_start(w);
	emit_nid(w, "nid", &pr->pr_nid);
	if (verbose < 0) {
		yemit_map_end(w);
		return;
	}
	if (verbose >= 4) {
		yemit_key_map(w, "udsp info");
		emit_prio(w, "net priority", pr->pr_net_priority);
		emit_prio(w, "nid priority", pr->pr_nid_priority);
		emit_nid_list(w, "Preferred source NIDs", pr->pr_pref, pr->pr_npref);
		emit_nid_list(w, "Preferred gateway NIDs", pr->pr_rtr, pr->pr_nrtr);
		yemit_map_end(w);
	}
	yemit_kv_str(w, "state", status_name(pr->pr_state));
	if (verbose >= 1) {
		yemit_kv_u64(w, "max_ni_tx_credits", pr->pr_max_tx_credits);
		yemit_kv_u64(w, "available_tx_credits", pr->pr_tx_credits);
		yemit_kv_s64(w, "min_tx_credits", pr->pr_min_tx_credits);
		yemit_kv_u64(w, "tx_q_num_of_buf", pr->pr_txq_len);
		emit_stats(w, pr->pr_send_count, pr->pr_recv_count, pr->pr_drop_count);
	}
	if (verbose >= 2) {
		emit_msg_stats(w, (const __u64 (*)[__LNET_IOC_MSG_MAX])pr->pr_stats);
		emit_peer_ni_health(w, pr);
	}
	yemit_map_end(w);
}

/*
 * Multi-Rail: what discovery learnt once the peer is discovered; for a
 * peer the admin added, what they said (peer add --non_mr); a peer that
 * only traffic created is not Multi-Rail until discovered (as in Lustre).
 * @state < 0: not known (a document being written: the admin's flags);
 * @show_state: `peer state` too (-v 3 and up).
 */
static void emit_peer_head(struct yemit *w, const struct lnet_nid *prim, u32 flags,
			   long long state, bool show_state)
{
	bool mr = !(flags & LNET_PEER_F_NON_MR);

	if (state >= 0 && (state & LNET_PEER_STATE_DISCOVERED))
		mr = state & LNET_PEER_STATE_MULTI_RAIL;
	else if (state >= 0 && !(state & LNET_PEER_STATE_CONFIGURED))
		mr = false;
	yemit_map_start(w);
	emit_nid(w, "primary nid", prim);
	yemit_kv_bool(w, "Multi-Rail", mr);
	if (flags & LNET_PEER_F_LOCK_PRIM)
		yemit_kv_bool(w, "Lock Primary NID", true);
	if (state >= 0 && show_state)
		yemit_kv_u64(w, "peer state", (u64)state);
}

static int peers_failed(struct printer *p, struct cfg_handle *h,
			const struct lnet_nid *nid, u32 n, int rc)
{
	char buf[LNET_NID_STR_MAX];

	if (rc == -ENOENT && (n || !nid))
		return 0;
	if (rc == -ENOENT) {
		lnet_nid_print(nid, buf, sizeof(buf));
		return cfg_fail(p->err, rc, NULL, "no peer has nid '%s'", buf);
	}
	return cfg_fail(p->err, rc, NULL, "cannot read the peers from %s: %s",
			cfg_target(h), strerror(-rc));
}

/*
 * The backup form (@verbose < 0) keeps only the peers an admin added: the
 * gateways of routes, peers that traffic or discovery created come back by
 * themselves, and importing them as peers would mark them configured.
 */
static bool peer_skipped(const struct lnet_ioc_peer *pr, int verbose)
{
	return verbose < 0 && !(pr->pr_peer_state & LNET_PEER_STATE_CONFIGURED);
}

/* @list: the `peer list` form (primary NIDs only). */
static int emit_peers(struct printer *p, struct cfg_handle *h,
		      const struct lnet_nid *nid, int verbose, bool list)
{
	struct yemit *w = &p->w;
	struct lnet_ioc_peer pr;
	struct lnet_nid cur;
	u32 i, shown = 0;
	int rc;

	for (i = 0;; i++) {
		memset(&pr, 0, sizeof(pr));
		rc = cfg_peer_ni_get(h, i, nid, &pr);
		if (rc)
			break;
		if (peer_skipped(&pr, verbose))
			continue;
		if (!shown++) {
			pr_start(p);
			yemit_key_seq(w, list ? "peer list" : "peer");
		} else if (lnet_nid_equal(&pr.pr_prim_nid, &cur)) {
			if (!list)
				emit_peer_ni(w, &pr, verbose);
			continue;
		} else if (!list) {
			yemit_seq_end(w);
			yemit_map_end(w);
		}
		cur = pr.pr_prim_nid;
		if (list) {
			yemit_map_start(w);
			emit_nid(w, "nid", &cur);
			yemit_map_end(w);
			continue;
		}
		emit_peer_head(w, &cur, pr.pr_flags, pr.pr_peer_state, verbose >= 3);
		yemit_key_seq(w, "peer ni");
		emit_peer_ni(w, &pr, verbose);
	}
	if (shown && !list) {
		yemit_seq_end(w);
		yemit_map_end(w);
	}
	if (shown)
		yemit_seq_end(w);
	return peers_failed(p, h, nid, i, rc);
}

int cfg_show_peers(struct cfg_handle *h, const struct lnet_nid *nid, int verbose,
		   FILE *out, struct cfg_err *err)
{
	struct printer p = { .out = out, .err = err };

	return pr_finish(&p, emit_peers(&p, h, nid, verbose, false));
}

int cfg_show_peer_list(struct cfg_handle *h, FILE *out, struct cfg_err *err)
{
	struct printer p = { .out = out, .err = err };

	return pr_finish(&p, emit_peers(&p, h, NULL, 0, true));
}

/* --- policy show --------------------------------------------------------------- */

static void emit_expr(struct yemit *w, const char *key, const struct lnet_nidexpr *e)
{
	char buf[LNET_EXPR_STR_MAX];

	if (!lnet_nidexpr_present(e))
		return;
	if (lnet_nidexpr_print(e, buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "?");
	yemit_kv_str(w, key, buf);
}

static void emit_rule(struct yemit *w, const struct lnet_udsp_desc *d)
{
	yemit_map_start(w);
	if (d->idx >= 0)
		yemit_kv_s64(w, "idx", d->idx);
	emit_expr(w, "src", &d->src);
	emit_expr(w, "dst", &d->dst);
	emit_expr(w, "rte", &d->rte);
	if (d->action == LNET_UDSP_ACTION_PRIORITY) {
		yemit_key_map(w, "action");
		yemit_kv_u64(w, "priority", d->priority);
		yemit_map_end(w);
	}
	yemit_map_end(w);
}

static int emit_rules(struct printer *p, struct cfg_handle *h, s32 idx)
{
	struct cfg_policy pol;
	u32 i = idx >= 0 ? (u32)idx : 0;
	u32 n = 0;
	int rc;

	for (;; i++) {
		rc = cfg_policy_get(h, i, &pol);
		if (rc)
			break;
		pol.d.idx = (s32)i;
		if (!n++) {
			pr_start(p);
			yemit_key_seq(&p->w, "udsp");
		}
		emit_rule(&p->w, &pol.d);
		if (idx >= 0)
			break;
	}
	if (n)
		yemit_seq_end(&p->w);
	if (!rc || (rc == -ENOENT && (n || idx < 0)))
		return 0;
	if (rc == -ENOENT)
		return cfg_fail(p->err, rc, NULL, "no rule with idx %d", idx);
	return cfg_fail(p->err, rc, NULL, "cannot read the rules from %s: %s",
			cfg_target(h), strerror(-rc));
}

int cfg_show_policies(struct cfg_handle *h, s32 idx, FILE *out, struct cfg_err *err)
{
	struct printer p = { .out = out, .err = err };

	return pr_finish(&p, emit_rules(&p, h, idx));
}

/* --- documents and export -------------------------------------------------------- */

/*
 * A net entry without interfaces (a whole net, import --del) stays a block
 * of its own, and NIs are grouped only while consecutive, so that reading
 * the output back gives the same entries in the same order.
 */
static size_t write_net_block(struct yemit *w, const struct cfg_net *nets, size_t n)
{
	size_t k = 1, i;
	char key[12];
	u32 j;

	yemit_map_start(w);
	emit_net(w, "net type", nets[0].net_id);
	if (!nets[0].nifs) {
		emit_tunables(w, &nets[0].tun);
		yemit_map_end(w);
		return 1;
	}
	while (k < n && nets[k].net_id == nets[0].net_id && nets[k].nifs)
		k++;
	yemit_key_seq(w, "local NI(s)");
	for (i = 0; i < k; i++) {
		yemit_map_start(w);
		yemit_key_map(w, "interfaces");
		for (j = 0; j < nets[i].nifs; j++) {
			snprintf(key, sizeof(key), "%u", j);
			yemit_plain(w, key);
			yemit_str(w, nets[i].ifnames[j]);
		}
		yemit_map_end(w);
		emit_tunables(w, &nets[i].tun);
		yemit_map_end(w);
	}
	yemit_seq_end(w);
	yemit_map_end(w);
	return k;
}

static void write_peer(struct yemit *w, const struct cfg_peer *p)
{
	u32 i;

	emit_peer_head(w, &p->prim, p->flags, -1, false);
	if (p->nnids) {
		yemit_key_seq(w, "peer ni");
		for (i = 0; i < p->nnids; i++) {
			yemit_map_start(w);
			emit_nid(w, "nid", &p->nids[i]);
			yemit_map_end(w);
		}
		yemit_seq_end(w);
	}
	yemit_map_end(w);
}

static void write_nets(struct yemit *w, const struct cfg_doc *doc)
{
	size_t i;

	if (!doc->nnets)
		return;
	yemit_key_seq(w, "net");
	for (i = 0; i < doc->nnets;)
		i += write_net_block(w, doc->nets + i, doc->nnets - i);
	yemit_seq_end(w);
}

static void write_rules(struct yemit *w, const struct cfg_doc *doc)
{
	size_t i;

	if (!doc->npolicies)
		return;
	yemit_key_seq(w, "udsp");
	for (i = 0; i < doc->npolicies; i++)
		emit_rule(w, &doc->policies[i].d);
	yemit_seq_end(w);
}

int cfg_doc_write(const struct cfg_doc *doc, FILE *out, struct cfg_err *err)
{
	struct printer p = { .out = out, .err = err };
	size_t i;

	if (!doc->nnets && !doc->npeers && !doc->npolicies && !cfg_doc_has_routes(doc))
		return 0;
	pr_start(&p);
	write_nets(&p.w, doc);
	if (doc->npeers) {
		yemit_key_seq(&p.w, "peer");
		for (i = 0; i < doc->npeers; i++)
			write_peer(&p.w, &doc->peers[i]);
		yemit_seq_end(&p.w);
	}
	cfg_doc_write_routes(&p.w, doc);
	write_rules(&p.w, doc);
	return pr_finish(&p, 0);
}

/*
 * export --backup writes what cfg_doc_read() reads, in the same layout as
 * cfg_doc_write(), but streams the peers straight from LNet: 100k peer NIs
 * would otherwise mean 100k struct cfg_peer (each room for 128 NIDs).
 */
static int export_backup(struct cfg_handle *h, FILE *out, struct cfg_err *err)
{
	struct printer p = { .out = out, .err = err };
	struct cfg_doc doc;
	int rc;

	rc = cfg_doc_read_nets_rules(h, &doc, err);
	if (rc)
		return rc;
	if (doc.nnets) {
		pr_start(&p);
		write_nets(&p.w, &doc);
	}
	rc = emit_peers(&p, h, NULL, -1, false);
	if (!rc && cfg_doc_has_routes(&doc)) {
		pr_start(&p);
		cfg_doc_write_routes(&p.w, &doc);
	}
	if (!rc && doc.npolicies) {
		pr_start(&p);
		write_rules(&p.w, &doc);
	}
	cfg_doc_free(&doc);
	return pr_finish(&p, rc);
}

int cfg_export(struct cfg_handle *h, bool backup, FILE *out, struct cfg_err *err)
{
	struct printer p = { .out = out, .err = err };
	int rc;

	if (backup)
		return export_backup(h, out, err);
	rc = emit_nets(&p, h, 0, 4);
	if (!rc)
		rc = emit_peers(&p, h, NULL, 4, false);
	if (!rc) {
		pr_start(&p);
		rc = cfg_export_routes(&p.w, h, err);
	}
	if (!rc)
		rc = emit_rules(&p, h, -1);
	return pr_finish(&p, rc);
}
