// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * cfg_doc_apply(): a parsed document onto the running LNet, all or nothing.
 * Every step that succeeds pushes how to undo it; the first failure undoes
 * the stack in reverse order, which also puts rules back at the very idx
 * they had (each undo sees the list exactly as its step left it).
 *
 * cfg_doc_read(): the running configuration as a document (export).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "yemit.h"
#include "route_priv.h"

enum undo_kind {
	UNDO_NET_ADD,		/* added doc net: delete its NIs */
	UNDO_PEER_ADD,		/* added doc peer (whole, or its NIDs) */
	UNDO_RULE_ADD,		/* added rule: delete it at the idx it landed at */
	UNDO_RULE_UPDATE,	/* rewrote a rule's priority: write the old one */
	UNDO_NET_DEL,		/* deleted NIs: add them again */
	UNDO_PEER_DEL,		/* deleted a peer or some of its NIDs: add again */
	UNDO_RULE_DEL,		/* deleted a rule: add it again at its idx */
};

struct undo {
	enum undo_kind kind;
	size_t item;		/* index in the doc section */
	bool whole;		/* UNDO_PEER_*: the whole peer */
	struct cfg_policy rule;	/* UNDO_RULE_*: what to delete / restore */
	struct cfg_net *nets;	/* UNDO_NET_DEL: the NIs deleted */
	size_t nnets;
	struct cfg_peer *peer;	/* UNDO_PEER_DEL: what was deleted */
};

struct applier {
	struct cfg_handle *h;
	const struct cfg_doc *doc;
	struct cfg_err *err;
	struct undo *undo;
	size_t nundo, cap;
	struct cfg_policy *rules;	/* the running rules, kept in step */
	size_t nrules;
	struct cfg_peer scratch;
};

static int push_undo(struct applier *a, const struct undo *u)
{
	if (a->nundo == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 16;
		struct undo *p = realloc(a->undo, cap * sizeof(*p));

		if (!p)
			return cfg_fail(a->err, -ENOMEM, NULL,
					"out of memory applying the configuration");
		a->undo = p;
		a->cap = cap;
	}
	a->undo[a->nundo++] = *u;
	return 0;
}

static void free_undo(struct undo *u)
{
	free(u->nets);
	free(u->peer);
}

/* The same peer without its primary NID in the list of NIDs to add/remove. */
static const struct cfg_peer *peer_nids_only(struct applier *a, const struct cfg_peer *p)
{
	struct cfg_peer *s = &a->scratch;
	u32 i;

	s->prim = p->prim;
	s->flags = p->flags;
	s->loc = p->loc;
	s->nnids = 0;
	for (i = 0; i < p->nnids; i++)
		if (!lnet_nid_equal(&p->nids[i], &p->prim))
			s->nids[s->nnids++] = p->nids[i];
	return s;
}

static bool peer_lists_primary(const struct cfg_peer *p)
{
	u32 i;

	for (i = 0; i < p->nnids; i++)
		if (lnet_nid_equal(&p->nids[i], &p->prim))
			return true;
	return false;
}

static int undo_one(struct applier *a, const struct undo *u, struct cfg_err *e)
{
	const struct cfg_doc *d = a->doc;
	struct cfg_policy rule = u->rule;
	struct cfg_peer *s = &a->scratch;
	size_t i;
	int rc = 0;

	switch (u->kind) {
	case UNDO_NET_ADD:
		return cfg_net_del(a->h, &d->nets[u->item], e);
	case UNDO_PEER_ADD:
		peer_nids_only(a, &d->peers[u->item]);
		if (u->whole) {
			s->nnids = 0;
			s->flags = LNET_PEER_F_FORCE;
		} else if (!s->nnids) {
			return 0;
		} else {
			s->flags = 0;
		}
		return cfg_peer_del(a->h, s, e);
	case UNDO_RULE_ADD:
		return cfg_policy_del(a->h, u->rule.d.idx, e);
	case UNDO_RULE_UPDATE:
	case UNDO_RULE_DEL:
		return cfg_policy_add(a->h, &rule, e);
	case UNDO_NET_DEL:
		for (i = 0; i < u->nnets && !rc; i++)
			rc = cfg_net_add(a->h, &u->nets[i], e);
		return rc;
	case UNDO_PEER_DEL:
		return cfg_peer_add(a->h, u->peer, e);
	}
	return 0;
}

/* Undo everything, newest first; the first undo failure is appended to err. */
static int rollback(struct applier *a, int rc)
{
	struct cfg_err e;
	bool failed = false;
	size_t len;

	while (a->nundo) {
		struct undo *u = &a->undo[--a->nundo];

		memset(&e, 0, sizeof(e));
		if (undo_one(a, u, &e) && !failed) {
			failed = true;
			len = strlen(a->err->msg);
			snprintf(a->err->msg + len, sizeof(a->err->msg) - len,
				 "; undoing the import failed too: %s", e.msg);
		}
		free_undo(u);
	}
	return rc;
}

/* The error of an operation, pinned to the document item that caused it. */
static int item_failed(struct applier *a, const struct cfg_loc *loc, int rc)
{
	a->err->loc = *loc;
	return rc;
}

/* --- reading the running rules -------------------------------------------- */

static int read_rules(struct cfg_handle *h, struct cfg_policy **out, size_t *n,
		      struct cfg_err *err)
{
	struct cfg_policy *rules = NULL, *p;
	size_t cap = 0, i;
	int rc;

	for (i = 0;; i++) {
		if (i == cap) {
			cap = cap ? cap * 2 : 16;
			p = realloc(rules, cap * sizeof(*p));
			if (!p) {
				free(rules);
				return cfg_fail(err, -ENOMEM, NULL, "out of memory reading the rules");
			}
			rules = p;
		}
		rc = cfg_policy_get(h, (u32)i, &rules[i]);
		if (rc == -ENOENT)
			break;
		if (rc) {
			free(rules);
			return cfg_fail(err, rc, NULL, "cannot read rule %zu from %s: %s",
					i, cfg_target(h), strerror(-rc));
		}
		rules[i].d.idx = (s32)i;
	}
	*out = rules;
	*n = i;
	return 0;
}

static int find_rule(const struct applier *a, const struct lnet_udsp_desc *d)
{
	size_t i;

	for (i = 0; i < a->nrules; i++)
		if (lnet_udsp_desc_same_match(&a->rules[i].d, d))
			return (int)i;
	return -1;
}

/* --- add ------------------------------------------------------------------ */

static int add_nets(struct applier *a)
{
	const struct cfg_doc *d = a->doc;
	struct undo u = { .kind = UNDO_NET_ADD };
	size_t i;
	int rc;

	for (i = 0; i < d->nnets; i++) {
		const struct cfg_net *n = &d->nets[i];

		if (!n->nifs)
			return cfg_fail(a->err, -EINVAL, &n->loc,
					"adding a net needs 'local NI(s)' with 'interfaces'");
		rc = cfg_net_add(a->h, n, a->err);
		if (rc)
			return item_failed(a, &n->loc, rc);
		u.item = i;
		rc = push_undo(a, &u);
		if (rc)
			return rc;
	}
	return 0;
}

/* Is @prim the primary NID of an existing peer? */
static bool peer_exists(struct cfg_handle *h, const struct lnet_nid *prim)
{
	struct lnet_ioc_peer pr;

	memset(&pr, 0, sizeof(pr));
	return !cfg_peer_ni_get(h, 0, prim, &pr) &&
	       lnet_nid_equal(&pr.pr_prim_nid, prim);
}

static int add_peers(struct applier *a)
{
	const struct cfg_doc *d = a->doc;
	struct undo u = { .kind = UNDO_PEER_ADD };
	size_t i;
	int rc;

	for (i = 0; i < d->npeers; i++) {
		const struct cfg_peer *p = &d->peers[i];

		u.item = i;
		u.whole = !peer_exists(a->h, &p->prim);
		rc = cfg_peer_add(a->h, peer_nids_only(a, p), a->err);
		if (rc)
			return item_failed(a, &p->loc, rc);
		rc = push_undo(a, &u);
		if (rc)
			return rc;
	}
	return 0;
}

static int add_rule(struct applier *a, size_t i)
{
	struct cfg_policy rule = a->doc->policies[i];
	struct undo u = { .item = i };
	int old = find_rule(a, &rule.d);
	int rc;

	rc = cfg_policy_add(a->h, &rule, a->err);
	if (rc)
		return item_failed(a, &rule.loc, rc);
	if (old >= 0) {
		/* Same match, other priority: the kernel rewrote it in place. */
		u.kind = UNDO_RULE_UPDATE;
		u.rule = a->rules[old];
		u.rule.d.idx = -1;
	} else {
		u.kind = UNDO_RULE_ADD;
		u.rule = rule;
	}
	return push_undo(a, &u);
}

static int add_rules(struct applier *a)
{
	size_t i;
	int rc = 0;

	if (!a->doc->npolicies)
		return 0;
	rc = read_rules(a->h, &a->rules, &a->nrules, a->err);
	for (i = 0; i < a->doc->npolicies && !rc; i++)
		rc = add_rule(a, i);
	return rc;
}

/* --- delete ----------------------------------------------------------------- */

/* The NIs of @n as they are now (one cfg_net per NI), to add them back. */
static int save_nis(struct applier *a, const struct cfg_net *n, struct undo *u)
{
	struct lnet_ioc_ni ni;
	u32 i, j;
	int rc;

	for (i = 0;; i++) {
		struct cfg_net *s, *p;

		memset(&ni, 0, sizeof(ni));
		rc = cfg_ni_get(a->h, i, n->net_id, &ni);
		if (rc == -ENOENT)
			return 0;
		if (rc)
			return cfg_fail(a->err, rc, &n->loc, "cannot read the NIs from %s: %s",
					cfg_target(a->h), strerror(-rc));
		for (j = 0; j < n->nifs && strcmp(n->ifnames[j], ni.ni_ifname); j++)
			;
		if (n->nifs && j == n->nifs)
			continue;
		p = realloc(u->nets, (u->nnets + 1) * sizeof(*p));
		if (!p)
			return cfg_fail(a->err, -ENOMEM, NULL, "out of memory");
		u->nets = p;
		s = &p[u->nnets++];
		cfg_net_init(s);
		s->net_id = n->net_id;
		s->nifs = 1;
		memcpy(s->ifnames[0], ni.ni_ifname, sizeof(s->ifnames[0]));
		s->ifnames[0][LNET_IFNAME_LEN - 1] = '\0';
		s->tun = ni.ni_tun;
	}
}

static int del_nets(struct applier *a)
{
	const struct cfg_doc *d = a->doc;
	size_t i;
	int rc;

	for (i = d->nnets; i-- > 0;) {
		const struct cfg_net *n = &d->nets[i];
		struct undo u = { .kind = UNDO_NET_DEL, .item = i };

		rc = save_nis(a, n, &u);
		if (!rc)
			rc = cfg_net_del(a->h, n, a->err);
		if (rc) {
			free_undo(&u);
			return item_failed(a, &n->loc, rc);
		}
		rc = push_undo(a, &u);
		if (rc) {
			free_undo(&u);
			return rc;
		}
	}
	return 0;
}

/* The whole peer owning @prim as it is now, to add it back. */
static int save_peer(struct applier *a, const struct cfg_peer *p, struct cfg_peer *s)
{
	struct lnet_ioc_peer pr;
	u32 i;
	int rc;

	cfg_peer_init(s);
	for (i = 0;; i++) {
		memset(&pr, 0, sizeof(pr));
		rc = cfg_peer_ni_get(a->h, i, &p->prim, &pr);
		if (rc == -ENOENT && i)
			return 0;
		if (rc == -ENOENT) {
			char buf[LNET_NID_STR_MAX];

			lnet_nid_print(&p->prim, buf, sizeof(buf));
			return cfg_fail(a->err, rc, &p->loc, "no peer has nid '%s'", buf);
		}
		if (rc)
			return cfg_fail(a->err, rc, &p->loc, "cannot read peer NIs from %s: %s",
					cfg_target(a->h), strerror(-rc));
		s->prim = pr.pr_prim_nid;
		s->flags = pr.pr_flags & (LNET_PEER_F_NON_MR | LNET_PEER_F_LOCK_PRIM);
		if (!lnet_nid_equal(&pr.pr_nid, &pr.pr_prim_nid) &&
		    s->nnids < LNET_PEER_MAX_NIS)
			s->nids[s->nnids++] = pr.pr_nid;
	}
}

static int del_peer(struct applier *a, size_t i)
{
	const struct cfg_peer *p = &a->doc->peers[i];
	struct undo u = { .kind = UNDO_PEER_DEL, .item = i };
	struct cfg_peer *del;
	int rc;

	u.whole = !p->nnids || peer_lists_primary(p);
	u.peer = malloc(sizeof(*u.peer));
	if (!u.peer)
		return cfg_fail(a->err, -ENOMEM, NULL, "out of memory");
	rc = save_peer(a, p, u.peer);
	del = (struct cfg_peer *)peer_nids_only(a, p);
	if (u.whole) {
		del->nnids = 0;
		del->flags = p->flags & LNET_PEER_F_LOCK_PRIM ? LNET_PEER_F_FORCE : 0;
	} else {
		/* Only those NIDs come back on undo. */
		memcpy(u.peer->nids, del->nids, del->nnids * sizeof(del->nids[0]));
		u.peer->nnids = del->nnids;
		del->flags = 0;
	}
	if (!rc)
		rc = cfg_peer_del(a->h, del, a->err);
	if (!rc)
		rc = push_undo(a, &u);
	if (rc) {
		free_undo(&u);
		return item_failed(a, &p->loc, rc);
	}
	return 0;
}

static int del_peers(struct applier *a)
{
	size_t i;
	int rc;

	for (i = a->doc->npeers; i-- > 0;) {
		rc = del_peer(a, i);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * A rule to delete is found by what it matches (descriptors and action,
 * as lnet_udsp_desc_same_match()), not by idx: idx shift as rules go, and
 * a file written by export names each rule completely.
 */
static int del_rule(struct applier *a, size_t i)
{
	const struct cfg_policy *p = &a->doc->policies[i];
	struct undo u = { .kind = UNDO_RULE_DEL, .item = i };
	int k = find_rule(a, &p->d);
	int rc;

	if (k < 0)
		return cfg_fail(a->err, -ENOENT, &p->loc,
				"no rule matches this one: nothing to delete");
	u.rule = a->rules[k];
	u.rule.d.idx = k;
	rc = cfg_policy_del(a->h, k, a->err);
	if (rc)
		return item_failed(a, &p->loc, rc);
	memmove(&a->rules[k], &a->rules[k + 1], (a->nrules - k - 1) * sizeof(a->rules[0]));
	a->nrules--;
	return push_undo(a, &u);
}

static int del_rules(struct applier *a)
{
	size_t i;
	int rc;

	if (!a->doc->npolicies)
		return 0;
	rc = read_rules(a->h, &a->rules, &a->nrules, a->err);
	for (i = a->doc->npolicies; i-- > 0 && !rc;)
		rc = del_rule(a, i);
	return rc;
}

int cfg_doc_apply(struct cfg_handle *h, const struct cfg_doc *doc, bool del,
		  struct cfg_err *err)
{
	struct applier *a = calloc(1, sizeof(*a));
	struct cfg_route_undo *routes = NULL;
	int rc;

	memset(err, 0, sizeof(*err));
	if (!a)
		return cfg_fail(err, -ENOMEM, NULL, "out of memory");
	a->h = h;
	a->doc = doc;
	a->err = err;
	if (del) {
		rc = del_rules(a);
		if (!rc)
			rc = cfg_doc_apply_routes(h, doc, true, err, &routes);
		if (!rc)
			rc = del_peers(a);
		if (!rc)
			rc = del_nets(a);
	} else {
		rc = add_nets(a);
		if (!rc)
			rc = add_peers(a);
		if (!rc)
			rc = cfg_doc_apply_routes(h, doc, false, err, &routes);
		if (!rc)
			rc = add_rules(a);
	}
	if (rc) {
		rollback(a, rc);
		cfg_doc_undo_routes(h, routes, err);
	} else {
		cfg_doc_free_routes(routes);
	}
	while (a->nundo)
		free_undo(&a->undo[--a->nundo]);
	free(a->undo);
	free(a->rules);
	free(a);
	return rc;
}

/* --- read ----------------------------------------------------------------- */

static int read_nets(struct cfg_handle *h, struct cfg_doc *doc, struct cfg_err *err)
{
	struct lnet_ioc_ni ni;
	struct cfg_net *n;
	u32 i;
	int rc;

	for (i = 0;; i++) {
		memset(&ni, 0, sizeof(ni));
		rc = cfg_ni_get(h, i, 0, &ni);
		if (rc == -ENOENT)
			return 0;
		if (rc)
			return cfg_fail(err, rc, NULL, "cannot read the NIs from %s: %s",
					cfg_target(h), strerror(-rc));
		/* The net is that of the NID: the one thing every NI has. */
		if (LNET_NET_LND(lnet_nid_net(&ni.ni_nid)) == LNET_LND_LO)
			continue;
		n = realloc(doc->nets, (doc->nnets + 1) * sizeof(*n));
		if (!n)
			return cfg_fail(err, -ENOMEM, NULL, "out of memory");
		doc->nets = n;
		n = &n[doc->nnets++];
		cfg_net_init(n);
		n->net_id = lnet_nid_net(&ni.ni_nid);
		n->nifs = 1;
		memcpy(n->ifnames[0], ni.ni_ifname, sizeof(n->ifnames[0]));
		n->ifnames[0][LNET_IFNAME_LEN - 1] = '\0';
		n->tun = ni.ni_tun;
	}
}

/* Peers as the import reads them: every NI listed, the primary first. */
static int read_peers(struct cfg_handle *h, struct cfg_doc *doc, struct cfg_err *err)
{
	struct cfg_peer *p = NULL;
	struct lnet_ioc_peer pr;
	size_t cap = 0;
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
			if (doc->npeers == cap) {
				cap = cap ? cap * 2 : 16;
				p = realloc(doc->peers, cap * sizeof(*p));
				if (!p)
					return cfg_fail(err, -ENOMEM, NULL, "out of memory");
				doc->peers = p;
			}
			p = &doc->peers[doc->npeers++];
			cfg_peer_init(p);
			p->prim = pr.pr_prim_nid;
			p->flags = pr.pr_flags & (LNET_PEER_F_NON_MR | LNET_PEER_F_LOCK_PRIM);
		}
		if (p->nnids < LNET_PEER_MAX_NIS)
			p->nids[p->nnids++] = pr.pr_nid;
	}
}

int cfg_doc_read_nets_rules(struct cfg_handle *h, struct cfg_doc *doc,
			    struct cfg_err *err)
{
	int rc;

	memset(doc, 0, sizeof(*doc));
	rc = read_nets(h, doc, err);
	if (!rc)
		rc = read_rules(h, &doc->policies, &doc->npolicies, err);
	if (!rc)
		rc = cfg_doc_read_routes(h, doc, err);
	if (rc)
		cfg_doc_free(doc);
	return rc;
}

int cfg_doc_read(struct cfg_handle *h, struct cfg_doc *doc, struct cfg_err *err)
{
	int rc = cfg_doc_read_nets_rules(h, doc, err);

	if (!rc)
		rc = read_peers(h, doc, err);
	if (rc)
		cfg_doc_free(doc);
	return rc;
}
