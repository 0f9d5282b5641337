// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The peer section: peers and their NIs, parsed, applied, read back and
 * shown (cfg_show_peers, cfg_show_peer_list, the peer part of export).
 *
 *   peer:
 *   - primary nid: 10.0.0.2@tcp     # default: the first peer ni
 *     Multi-Rail: true              # default true
 *     Lock Primary NID: false       # default false (lnetctl peer add --lock_prim)
 *     peer ni:
 *     - nid: 10.0.0.2@tcp
 *
 * Read-only keys that show and export write (peer state, state, credits,
 * statistics, health stats, udsp info) are accepted and ignored.
 * export --backup streams the peers straight from LNet (no model per peer).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "section.h"

static const char *const peer_top[] = { "peer", NULL };
static const char *const peer_keys[] = {
	"primary nid", "Multi-Rail", "Lock Primary NID", "peer ni", NULL
};
static const char *const peer_ignored[] = { "peer state", NULL };
static const char *const peer_ni_keys[] = { "nid", NULL };
static const char *const peer_ni_ignored[] = {
	"state", "max_ni_tx_credits", "available_tx_credits", "min_tx_credits",
	"tx_q_num_of_buf", "available_rtr_credits", "min_rtr_credits",
	"refcount", "statistics", "sent_stats", "received_stats",
	"dropped_stats", "health stats", "udsp info", NULL
};

/* --- parse ------------------------------------------------------------------------ */

static int find_nid(const struct cfg_peer *peer, const struct lnet_nid *nid)
{
	u32 i;

	for (i = 0; i < peer->nnids; i++)
		if (lnet_nid_equal(&peer->nids[i], nid))
			return (int)i;
	return -1;
}

static int parse_peer_ni(struct dparse *p, const struct ynode *item,
			 struct cfg_peer *peer, struct cfg_loc *locs)
{
	const struct ynode *v;
	struct lnet_nid nid;
	int rc, dup;

	rc = need_type(p, item, YNODE_MAP, "peer ni");
	if (!rc)
		rc = check_keys(p, item, "a peer ni", peer_ni_keys, peer_ni_ignored);
	if (rc)
		return rc;
	v = ytree_get(item, "nid");
	if (!v)
		return cfg_fail(p->err, -EINVAL, &item->loc, "a peer ni needs 'nid'");
	rc = need_value(p, v, "nid");
	if (!rc)
		rc = at_node(p->err, v, cfg_parse_nid("nid", v->str, &nid, p->err));
	if (rc)
		return rc;
	dup = find_nid(peer, &nid);
	if (dup >= 0)
		return cfg_fail(p->err, -EINVAL, &v->loc,
				"nid '%s' is listed twice (first at %u:%u)",
				v->str, locs[dup].line, locs[dup].col);
	if (peer->nnids >= LNET_PEER_MAX_NIS)
		return cfg_fail(p->err, -EINVAL, &v->loc,
				"too many peer NIs: at most %d per peer",
				LNET_PEER_MAX_NIS);
	locs[peer->nnids] = v->loc;
	if (cfg_peer_append(peer, &nid))
		return cfg_fail(p->err, -ENOMEM, NULL, "out of memory reading the configuration");
	return 0;
}

static int parse_peer_flag(struct dparse *p, const struct ynode *map, const char *key,
			   u32 flag, bool when, struct cfg_peer *peer)
{
	const struct ynode *v = ytree_get(map, key);
	bool b;
	int rc;

	if (!v)
		return 0;
	rc = need_value(p, v, key);
	if (!rc)
		rc = at_node(p->err, v, cfg_parse_bool(key, v->str, &b, p->err));
	if (!rc && b == when)
		peer->flags |= flag;
	return rc;
}

/* Everything the kernel would refuse about one peer, found now. */
static int check_peer(struct dparse *p, const struct ynode *item,
		      struct cfg_peer *peer, const struct cfg_loc *locs)
{
	u32 i;

	if (lnet_nid_is_zero(&peer->prim)) {
		if (!peer->nnids)
			return cfg_fail(p->err, -EINVAL, &item->loc,
					"a peer needs 'primary nid' or 'peer ni'");
		peer->prim = peer->nids[0];
	}
	if (!(peer->flags & LNET_PEER_F_NON_MR))
		return 0;
	for (i = 0; i < peer->nnids; i++) {
		char buf[LNET_NID_STR_MAX];

		if (lnet_nid_equal(&peer->nids[i], &peer->prim))
			continue;
		lnet_nid_print(&peer->nids[i], buf, sizeof(buf));
		return cfg_fail(p->err, -EINVAL, &locs[i],
				"nid '%s': a peer with 'Multi-Rail: false' has only its primary nid",
				buf);
	}
	return 0;
}

static int parse_peer_fields(struct dparse *p, const struct ynode *item,
			     struct cfg_peer *peer)
{
	struct cfg_loc locs[LNET_PEER_MAX_NIS];
	const struct ynode *v, *c;
	int rc = 0;

	v = ytree_get(item, "primary nid");
	if (v) {
		rc = need_value(p, v, "primary nid");
		if (!rc)
			rc = at_node(p->err, v, cfg_parse_nid("primary nid", v->str,
							      &peer->prim, p->err));
	}
	if (!rc)
		rc = parse_peer_flag(p, item, "Multi-Rail", LNET_PEER_F_NON_MR, false, peer);
	if (!rc)
		rc = parse_peer_flag(p, item, "Lock Primary NID", LNET_PEER_F_LOCK_PRIM,
				     true, peer);
	v = ytree_get(item, "peer ni");
	if (!rc && !is_empty(v)) {
		rc = need_type(p, v, YNODE_SEQ, "peer ni");
		for (c = v->first; c && !rc; c = c->next)
			rc = parse_peer_ni(p, c, peer, locs);
	}
	if (!rc)
		rc = check_peer(p, item, peer, locs);
	return rc;
}

static int parse_peer_item(struct dparse *p, const struct ynode *item)
{
	struct cfg_doc *d = p->doc;
	struct cfg_peer peer;
	int rc;

	rc = need_type(p, item, YNODE_MAP, "peer");
	if (!rc)
		rc = check_keys(p, item, "a peer", peer_keys, peer_ignored);
	if (rc)
		return rc;
	cfg_peer_init(&peer);
	peer.loc = item->loc;
	rc = parse_peer_fields(p, item, &peer);
	if (!rc)
		rc = doc_append(&d->peers, &d->npeers, &peer, sizeof(peer), p->err);
	if (rc)
		cfg_peer_fini(&peer);
	return rc;
}

static int parse_peers(struct dparse *p, const struct ynode *key)
{
	return parse_items(p, key, parse_peer_item);
}

/* --- apply ------------------------------------------------------------------------- */

/*
 * A doc peer is compared with the running peer of its primary NID: a new
 * peer is added whole; an existing one gets only the NIDs it lacks (and
 * import --del takes only the NIDs it has). Multi-Rail and Lock Primary
 * NID cannot change on a peer that exists: that is an error naming both.
 */

/* @to's NIDs become those of @from. */
static int copy_nids(struct cfg_peer *to, const struct cfg_peer *from, struct cfg_err *err)
{
	u32 i;

	to->nnids = 0;
	for (i = 0; i < from->nnids; i++)
		if (cfg_peer_append(to, &from->nids[i]))
			return cfg_fail(err, -ENOMEM, NULL, "out of memory");
	return 0;
}

static bool peer_lists_primary(const struct cfg_peer *p)
{
	u32 i;

	for (i = 0; i < p->nnids; i++)
		if (lnet_nid_equal(&p->nids[i], &p->prim))
			return true;
	return false;
}

#define PEER_ADMIN_FLAGS	(LNET_PEER_F_NON_MR | LNET_PEER_F_LOCK_PRIM)

/* The running peer whose primary NID is @prim. */
struct live_peer {
	bool found;
	bool configured;	/* added by an admin, not only by traffic */
	u32 flags;		/* PEER_ADMIN_FLAGS */
	struct cfg_peer nids;	/* every NID, the primary's too */
};

static int read_live_peer(struct applier *a, const struct cfg_peer *p, struct live_peer *lp)
{
	struct lnet_ioc_peer pr;
	u32 i;
	int rc;

	memset(lp, 0, sizeof(*lp));
	cfg_peer_init(&lp->nids);
	for (i = 0;; i++) {
		memset(&pr, 0, sizeof(pr));
		rc = cfg_peer_ni_get(a->h, i, &p->prim, &pr);
		if (rc == -ENOENT)
			return 0;
		if (rc)
			return cfg_ioc_fail(a->h, rc, a->err, &p->loc, "cannot read the peers");
		if (!lnet_nid_equal(&pr.pr_prim_nid, &p->prim))
			return 0;	/* a NID of another peer: adding it fails, and says so */
		lp->found = true;
		lp->configured = pr.pr_peer_state & LNET_PEER_STATE_CONFIGURED;
		lp->flags = pr.pr_flags & PEER_ADMIN_FLAGS;
		if (cfg_peer_append(&lp->nids, &pr.pr_nid) == -ENOMEM)
			return cfg_fail(a->err, -ENOMEM, NULL, "out of memory");
	}
}

/*
 * The NIDs of @p other than its primary that the running peer has
 * (@present) or lacks (!@present), into @s (initialized: prim and flags of @p).
 */
static int pick_nids(struct cfg_peer *s, const struct cfg_peer *p, const struct live_peer *lp,
		     bool present, struct cfg_err *err)
{
	u32 i;

	s->prim = p->prim;
	s->flags = p->flags;
	s->loc = p->loc;
	s->nnids = 0;
	for (i = 0; i < p->nnids; i++) {
		if (lnet_nid_equal(&p->nids[i], &p->prim) ||
		    (find_nid(&lp->nids, &p->nids[i]) >= 0) != present)
			continue;
		if (cfg_peer_append(s, &p->nids[i]))
			return cfg_fail(err, -ENOMEM, NULL, "out of memory");
	}
	return 0;
}

static const char *bool_name(bool b)
{
	return b ? "true" : "false";
}

/* A flag an existing peer would need changed: one clear error. */
static int flags_differ(struct applier *a, const struct cfg_peer *p, const struct live_peer *lp)
{
	char buf[LNET_NID_STR_MAX];
	u32 diff = (p->flags ^ lp->flags) & PEER_ADMIN_FLAGS;
	const char *key = diff & LNET_PEER_F_NON_MR ? "Multi-Rail" : "Lock Primary NID";
	bool now = diff & LNET_PEER_F_NON_MR ? !(lp->flags & LNET_PEER_F_NON_MR) :
					       lp->flags & LNET_PEER_F_LOCK_PRIM;

	if (!diff || !lp->configured)
		return 0;
	lnet_nid_print(&p->prim, buf, sizeof(buf));
	return cfg_fail(a->err, -EINVAL, &p->loc,
			"peer %s: '%s' is %s, the file says %s: it cannot change on a peer that exists (delete the peer first)",
			buf, key, bool_name(now), bool_name(!now));
}

static void plan_nids(struct applier *a, char op, const struct cfg_peer *s)
{
	char prim[LNET_NID_STR_MAX], nid[LNET_NID_STR_MAX];
	u32 i;

	lnet_nid_print(&s->prim, prim, sizeof(prim));
	for (i = 0; i < s->nnids; i++)
		plan_line(a, op, "peer %s: nid %s", prim,
			  lnet_nid_print(&s->nids[i], nid, sizeof(nid)) < 0 ? "?" : nid);
}

static void plan_peer(struct applier *a, char op, const struct lnet_nid *prim)
{
	char buf[LNET_NID_STR_MAX];

	lnet_nid_print(prim, buf, sizeof(buf));
	plan_line(a, op, "peer %s", buf);
}

/* An added peer (u->whole) or NIDs added to one: u->data, as they were added. */
static int undo_peer_add(struct applier *a, const struct undo *u, struct cfg_err *e)
{
	struct cfg_peer *s = u->data;

	if (u->whole) {
		s->nnids = 0;
		s->flags = LNET_PEER_F_FORCE;
	} else if (!s->nnids) {
		return 0;	/* a peer traffic made, now the admin's: it stays */
	} else {
		s->flags = 0;
	}
	return cfg_peer_del(a->h, s, e);
}

/* A deleted peer, or some of its NIDs: add them again. */
static int undo_peer_del(struct applier *a, const struct undo *u, struct cfg_err *e)
{
	return cfg_peer_add(a->h, u->data, e);
}

static void release_peer(struct undo *u)
{
	if (u->data)
		cfg_peer_fini(u->data);
	free(u->data);
}

/* Add @s (a peer, or NIDs of one) and push how to take it back; @s is taken over. */
static int add_step(struct applier *a, const struct cfg_peer *p, struct cfg_peer *s,
		    bool whole)
{
	struct undo u = { .undo = undo_peer_add, .release = release_peer, .whole = whole };
	int rc = cfg_peer_add(a->h, s, a->err);

	if (rc)
		return item_failed(a, &p->loc, rc);
	u.data = malloc(sizeof(*s));
	if (!u.data) {
		u.data = s;
		undo_peer_add(a, &u, a->err);
		return cfg_fail(a->err, -ENOMEM, NULL, "out of memory");
	}
	memcpy(u.data, s, sizeof(*s));
	s->nids = NULL;		/* the undo owns the list now */
	s->nnids = 0;
	return push_undo(a, &u);
}

static int add_peer(struct applier *a, const struct cfg_peer *p, struct cfg_peer *s)
{
	struct live_peer lp;
	int rc = read_live_peer(a, p, &lp);

	if (!rc)
		rc = flags_differ(a, p, &lp);
	if (!rc)
		rc = pick_nids(s, p, &lp, false, a->err);
	/* a peer that only traffic made becomes the admin's: add it too */
	if (rc || (lp.configured && !s->nnids))
		goto out;
	if (a->plan) {
		if (!lp.configured)
			plan_peer(a, '+', &p->prim);
		plan_nids(a, '+', s);
	} else {
		rc = add_step(a, p, s, !lp.found);
	}
out:
	cfg_peer_fini(&lp.nids);
	return rc;
}

static int add_peers(struct applier *a)
{
	const struct cfg_doc *d = a->doc;
	struct cfg_peer s;
	size_t i;
	int rc = 0;

	for (i = 0; i < d->npeers && !rc; i++) {
		cfg_peer_init(&s);
		rc = add_peer(a, d->peers[i], &s);
		cfg_peer_fini(&s);
	}
	return rc;
}

/* The whole running peer @lp, to add it back: its NIDs but the primary. */
static int save_peer(const struct live_peer *lp, const struct cfg_peer *p,
		     struct cfg_peer *saved, struct cfg_err *err)
{
	u32 i;

	cfg_peer_init(saved);
	saved->prim = p->prim;
	saved->flags = lp->flags;
	for (i = 0; i < lp->nids.nnids; i++)
		if (!lnet_nid_equal(&lp->nids.nids[i], &p->prim) &&
		    cfg_peer_append(saved, &lp->nids.nids[i]))
			return cfg_fail(err, -ENOMEM, NULL, "out of memory");
	return 0;
}

/* Delete @del (the whole peer, or its NIDs), saving what comes back on undo. */
static int del_step(struct applier *a, const struct cfg_peer *p, const struct live_peer *lp,
		    struct cfg_peer *del, bool whole)
{
	struct undo u = { .undo = undo_peer_del, .release = release_peer };
	struct cfg_peer *saved = malloc(sizeof(*saved));
	int rc;

	if (!saved)
		return cfg_fail(a->err, -ENOMEM, NULL, "out of memory");
	u.data = saved;
	rc = save_peer(lp, p, saved, a->err);
	if (!rc && whole) {
		del->nnids = 0;
		del->flags = lp->flags & LNET_PEER_F_LOCK_PRIM ? LNET_PEER_F_FORCE : 0;
	} else if (!rc) {
		/* Only those NIDs come back on undo. */
		rc = copy_nids(saved, del, a->err);
		del->flags = 0;
	}
	if (!rc)
		rc = cfg_peer_del(a->h, del, a->err);
	if (rc) {
		release_undo(&u);
		return item_failed(a, &p->loc, rc);
	}
	rc = push_undo(a, &u);
	return rc ? item_failed(a, &p->loc, rc) : 0;
}

static int del_peer(struct applier *a, const struct cfg_peer *p, struct cfg_peer *del)
{
	bool whole = !p->nnids || peer_lists_primary(p);
	struct live_peer lp;
	int rc = read_live_peer(a, p, &lp);

	if (!rc && lp.found)
		rc = pick_nids(del, p, &lp, true, a->err);
	if (rc || !lp.found || (!whole && !del->nnids))
		goto out;
	if (a->plan && whole)
		plan_peer(a, '-', &p->prim);
	else if (a->plan)
		plan_nids(a, '-', del);
	else
		rc = del_step(a, p, &lp, del, whole);
out:
	cfg_peer_fini(&lp.nids);
	return rc;
}

static int del_peers(struct applier *a)
{
	struct cfg_peer del;
	size_t i;
	int rc = 0;

	cfg_peer_init(&del);
	for (i = a->doc->npeers; i-- > 0 && !rc;)
		rc = del_peer(a, a->doc->peers[i], &del);
	cfg_peer_fini(&del);
	return rc;
}

static int apply_peers(struct applier *a)
{
	return a->del ? del_peers(a) : add_peers(a);
}

/* --- read -------------------------------------------------------------------------- */

/* Peers as the import reads them: every NI listed, the primary first. */
static int read_peers(struct cfg_handle *h, struct cfg_doc *doc, struct cfg_err *err)
{
	struct cfg_peer *p = NULL, fresh;
	struct lnet_ioc_peer pr;
	u32 i;
	int rc;

	for (i = 0;; i++) {
		memset(&pr, 0, sizeof(pr));
		rc = cfg_peer_ni_get(h, i, NULL, &pr);
		if (rc == -ENOENT)
			return 0;
		if (rc)
			return cfg_fail(err, rc, NULL, "cannot read the peers from %s: %s",
					cfg_target(h), strerror(-rc));
		if (!p || !lnet_nid_equal(&p->prim, &pr.pr_prim_nid)) {
			cfg_peer_init(&fresh);
			fresh.prim = pr.pr_prim_nid;
			fresh.flags = pr.pr_flags & (LNET_PEER_F_NON_MR | LNET_PEER_F_LOCK_PRIM);
			rc = doc_append(&doc->peers, &doc->npeers, &fresh, sizeof(fresh), err);
			if (rc)
				return rc;
			p = doc->peers[doc->npeers - 1];
		}
		if (cfg_peer_append(p, &pr.pr_nid) == -ENOMEM)
			return cfg_fail(err, -ENOMEM, NULL, "out of memory");
	}
}

/* --- show and write ---------------------------------------------------------------- */

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
		yemit_kv_s64(w, "available_rtr_credits", pr->pr_rtr_credits);
		yemit_kv_s64(w, "min_rtr_credits", pr->pr_min_rtr_credits);
		yemit_kv_u64(w, "refcount", pr->pr_refcount);
		emit_stats(w, pr->pr_send_count, pr->pr_recv_count, pr->pr_drop_count,
			   pr->pr_lat);
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

static int export_peers(struct printer *p, struct cfg_handle *h)
{
	return emit_peers(p, h, NULL, 4, false);
}

static int backup_peers(struct printer *p, struct cfg_handle *h)
{
	return emit_peers(p, h, NULL, -1, false);
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

static void write_peers(struct yemit *w, const struct cfg_doc *doc)
{
	size_t i;

	yemit_key_seq(w, "peer");
	for (i = 0; i < doc->npeers; i++)
		write_peer(w, doc->peers[i]);
	yemit_seq_end(w);
}

static bool has_peers(const struct cfg_doc *doc)
{
	return doc->npeers;
}

const struct cfg_section cfg_sec_peer = {
	.keys = peer_top,
	.parse = parse_peers,
	.apply = apply_peers,
	.read = read_peers,
	.has = has_peers,
	.write = write_peers,
	.export = export_peers,
	.backup = backup_peers,
};
