// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * cfg_doc_parse(): a YAML configuration (Lustre's layout: net, peer and
 * udsp sections) into a struct cfg_doc, validated whole before anything is
 * applied. Every value goes through the shared parsers of cfg.h with its
 * YAML key as the name, and every error carries the line:column of the
 * node at fault.
 *
 * Layout read (keys are case-sensitive, as Lustre writes them):
 *
 *   net:
 *   - net type: tcp                 # "lo" blocks are skipped
 *     tunables: {...}               # optional default for the NIs below
 *     local NI(s):                  # absent: the whole net (import --del)
 *     - interfaces: {0: eth0}       # or a sequence [eth0, eth1]
 *       tunables: {peer_timeout, peer_credits, peer_buffer_credits, credits}
 *   peer:
 *   - primary nid: 10.0.0.2@tcp     # default: the first peer ni
 *     Multi-Rail: true              # default true
 *     Lock Primary NID: false       # default false (lnetctl peer add --lock_prim)
 *     peer ni:
 *     - nid: 10.0.0.2@tcp
 *   udsp:
 *   - idx: 0                        # optional: append
 *     src: tcp                      # src, dst, rte: NID range expressions
 *     action: {priority: 1}         # or "priority: 1" in the item
 *
 * Read-only keys that show and export write (nid, status, statistics,
 * health stats, udsp info, state, ...) are accepted and ignored, so that a
 * full export imports back.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ytree.h"
#include "../kernel/core/validate.h"
#include "route_priv.h"

struct dparse {
	struct cfg_doc *doc;
	struct cfg_err *err;
	size_t cap_nets, cap_peers, cap_policies;
};

static const char *const top_keys[] = {
	"net", "peer", "udsp", "route", "routing", "buffers", "global", NULL
};
static const char *const net_keys[] = { "net type", "local NI(s)", "tunables", NULL };
static const char *const ni_keys[] = { "interfaces", "tunables", NULL };
static const char *const ni_ignored[] = {
	"nid", "status", "statistics", "health stats", "udsp info",
	"sent_stats", "received_stats", "dropped_stats", "dev cpt",
	"max_tx_credits", "available_tx_credits", "min_tx_credits", "tx_q_num_of_buf",
	NULL
};
#define TUN_KEY(id, name, opt, letter, min, max, def, help) #name,
static const char *const tunable_keys[] = { LNET_NI_TUNABLES(TUN_KEY) NULL };
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
static const char *const udsp_keys[] = {
	"idx", "src", "dst", "rte", "action", "priority", NULL
};
static const char *const action_keys[] = { "priority", NULL };

void cfg_doc_free(struct cfg_doc *doc)
{
	free(doc->nets);
	free(doc->peers);
	free(doc->policies);
	free(doc->routes);
	memset(doc, 0, sizeof(*doc));
}

/* Tie the error a shared parser just reported to node @n. */
static int at_node(struct cfg_err *err, const struct ynode *n, int rc)
{
	if (rc)
		err->loc = n->loc;
	return rc;
}

static bool in_list(const char *const *list, const char *s)
{
	for (; list && *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

static void join_keys(const char *const *keys, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (; *keys && off < len; keys++)
		off += snprintf(buf + off, len - off, "%s'%s'",
				off ? ", " : "", *keys);
}

/* Every key of @map is in @allowed or @ignored. */
static int check_keys(struct dparse *p, const struct ynode *map, const char *where,
		      const char *const *allowed, const char *const *ignored)
{
	const struct ynode *k;
	char list[256];

	for (k = map->first; k; k = k->next) {
		if (in_list(allowed, k->str) || in_list(ignored, k->str))
			continue;
		join_keys(allowed, list, sizeof(list));
		return cfg_fail(p->err, -EINVAL, &k->loc,
				"unknown key '%s' in %s: expected %s",
				k->str, where, list);
	}
	return 0;
}

static int need_type(struct dparse *p, const struct ynode *n, enum ynode_type type,
		     const char *what)
{
	if (n->type == type)
		return 0;
	return cfg_fail(p->err, -EINVAL, &n->loc, "'%s' must be a %s, not a %s",
			what, ytree_type_name(type), ytree_type_name(n->type));
}

/* A scalar with a value: the text the shared parsers take. */
static int need_value(struct dparse *p, const struct ynode *n, const char *what)
{
	int rc = need_type(p, n, YNODE_SCALAR, what);

	if (rc)
		return rc;
	if (ytree_is_null(n))
		return cfg_fail(p->err, -EINVAL, &n->loc,
				"no value given for '%s'", what);
	return 0;
}

int cfg_doc_plain_number(const struct ynode *n, const char *what, struct cfg_err *err)
{
	if (n->plain)
		return 0;
	return cfg_fail(err, -EINVAL, &n->loc,
			"invalid %s '%s': expected a number, not a quoted string", what, n->str);
}

/* A scalar with a value, written as a number. */
static int need_number(struct dparse *p, const struct ynode *n, const char *what)
{
	int rc = need_value(p, n, what);

	return rc ? rc : cfg_doc_plain_number(n, what, p->err);
}

/* A section or list that may be written empty ("peer ni:"). */
static bool is_empty(const struct ynode *n)
{
	return !n || ytree_is_null(n);
}

static int grow(void **arr, size_t *cap, size_t n, size_t size, struct cfg_err *err)
{
	size_t ncap = *cap ? *cap * 2 : 8;
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*arr, ncap * size);
	if (!p)
		return cfg_fail(err, -ENOMEM, NULL, "out of memory reading the configuration");
	*arr = p;
	*cap = ncap;
	return 0;
}

/* --- net ------------------------------------------------------------------- */

/* The keys of LNET_NI_TUNABLES, each in its row's range. */
static int parse_tunables(struct dparse *p, const struct ynode *map,
			  struct lnet_ni_tunables *tun)
{
	const struct ynode *k;
	size_t i;
	int rc;

	if (is_empty(map))
		return 0;
	rc = need_type(p, map, YNODE_MAP, "tunables");
	if (!rc)
		rc = check_keys(p, map, "tunables", tunable_keys, NULL);
	for (k = map->first; k && !rc; k = k->next) {
		for (i = 0; strcmp(tunable_keys[i], k->str); i++)
			;
		rc = need_number(p, k->value, k->str);
		if (!rc)
			rc = at_node(p->err, k->value,
				     cfg_parse_s32(k->str, k->value->str,
						   lnet_ni_tun_ranges[i].min,
						   lnet_ni_tun_ranges[i].max,
						   lnet_ni_tun_ref(tun, i), p->err));
	}
	return rc;
}

static int parse_ifname(struct dparse *p, const struct ynode *v, struct cfg_net *n)
{
	int rc = need_value(p, v, "interfaces");

	if (rc)
		return rc;
	if (strchr(v->str, ','))
		return cfg_fail(p->err, -EINVAL, &v->loc,
				"invalid interfaces '%s': expected one interface name per entry",
				v->str);
	return at_node(p->err, v, cfg_parse_ifnames("interfaces", v->str, n, p->err));
}

/* {0: eth0, 1: eth1} (Lustre) or [eth0, eth1]. */
static int parse_interfaces(struct dparse *p, const struct ynode *ifs, struct cfg_net *n)
{
	const struct ynode *c;
	u32 index;
	int rc = 0;

	if (ifs->type == YNODE_SEQ) {
		for (c = ifs->first; c && !rc; c = c->next)
			rc = parse_ifname(p, c, n);
		return rc;
	}
	rc = need_type(p, ifs, YNODE_MAP, "interfaces");
	for (c = ifs->first; c && !rc; c = c->next) {
		rc = at_node(p->err, c, cfg_parse_u32("interfaces index", c->str, 0,
						      CFG_MAX_IFS - 1, &index, p->err));
		if (!rc)
			rc = parse_ifname(p, c->value, n);
	}
	return rc;
}

static int add_net(struct dparse *p, const struct cfg_net *n)
{
	struct cfg_doc *d = p->doc;
	int rc = grow((void **)&d->nets, &p->cap_nets, d->nnets, sizeof(*n), p->err);

	if (!rc)
		d->nets[d->nnets++] = *n;
	return rc;
}

static int parse_local_ni(struct dparse *p, const struct ynode *item,
			  const struct cfg_net *net)
{
	struct cfg_net n = *net;
	const struct ynode *ifs;
	int rc;

	n.loc = item->loc;
	rc = need_type(p, item, YNODE_MAP, "local NI(s)");
	if (!rc)
		rc = check_keys(p, item, "a local NI", ni_keys, ni_ignored);
	if (rc)
		return rc;
	ifs = ytree_get(item, "interfaces");
	if (is_empty(ifs))
		return cfg_fail(p->err, -EINVAL, &item->loc,
				"a local NI needs 'interfaces' (e.g. '0: eth0')");
	/* no interface would mean the whole net: with --del, all of its NIs */
	if (ifs->type != YNODE_SCALAR && !ifs->first)
		return cfg_fail(p->err, -EINVAL, &ifs->loc,
				"'interfaces' is empty: a local NI needs one (e.g. '0: eth0')");
	rc = parse_interfaces(p, ifs, &n);
	if (!rc)
		rc = parse_tunables(p, ytree_get(item, "tunables"), &n.tun);
	if (!rc)
		rc = add_net(p, &n);
	return rc;
}

static int parse_net_item(struct dparse *p, const struct ynode *item)
{
	const struct ynode *type, *nis, *c;
	struct cfg_net n;
	int rc;

	cfg_net_init(&n);
	n.loc = item->loc;
	rc = need_type(p, item, YNODE_MAP, "net");
	if (!rc)
		rc = check_keys(p, item, "a net", net_keys, NULL);
	if (rc)
		return rc;
	type = ytree_get(item, "net type");
	if (!type)
		return cfg_fail(p->err, -EINVAL, &item->loc, "a net needs 'net type'");
	rc = need_value(p, type, "net type");
	if (!rc)
		rc = at_node(p->err, type, cfg_parse_net("net type", type->str,
							 &n.net_id, p->err));
	if (rc || LNET_NET_LND(n.net_id) == LNET_LND_LO)
		return rc;	/* lo is always there: a full export lists it */
	rc = parse_tunables(p, ytree_get(item, "tunables"), &n.tun);
	nis = ytree_get(item, "local NI(s)");
	if (rc || is_empty(nis))
		return rc ? rc : add_net(p, &n);
	rc = need_type(p, nis, YNODE_SEQ, "local NI(s)");
	if (!rc && !nis->first)
		return cfg_fail(p->err, -EINVAL, &nis->loc,
				"'local NI(s)' is empty: list the NIs, or leave it out for the whole net");
	for (c = nis->first; c && !rc; c = c->next)
		rc = parse_local_ni(p, c, &n);
	return rc;
}

/* --- peer ------------------------------------------------------------------- */

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
	peer->nids[peer->nnids++] = nid;
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

static int parse_peer_item(struct dparse *p, const struct ynode *item)
{
	struct cfg_doc *d = p->doc;
	struct cfg_loc locs[LNET_PEER_MAX_NIS];
	const struct ynode *v, *c;
	struct cfg_peer *peer;
	int rc;

	rc = need_type(p, item, YNODE_MAP, "peer");
	if (!rc)
		rc = check_keys(p, item, "a peer", peer_keys, peer_ignored);
	if (!rc)
		rc = grow((void **)&d->peers, &p->cap_peers, d->npeers,
			  sizeof(*peer), p->err);
	if (rc)
		return rc;
	peer = &d->peers[d->npeers];
	cfg_peer_init(peer);
	peer->loc = item->loc;
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
	if (!rc)
		d->npeers++;
	return rc;
}

/* --- udsp -------------------------------------------------------------------- */

static int parse_expr(struct dparse *p, const struct ynode *item, const char *key,
		      struct lnet_nidexpr *e)
{
	const struct ynode *v = ytree_get(item, key);
	int rc;

	if (!v)
		return 0;
	rc = need_value(p, v, key);
	if (!rc)
		rc = at_node(p->err, v, cfg_parse_nidexpr(key, v->str, e, p->err));
	return rc;
}

static int parse_priority(struct dparse *p, const struct ynode *v, bool *has, u32 *prio)
{
	int rc = need_number(p, v, "priority");

	if (!rc)
		rc = at_node(p->err, v, cfg_parse_u32("priority", v->str, 0,
						      LNET_PRIORITY_UNSET - 1, prio, p->err));
	*has = !rc;
	return rc;
}

static int parse_action(struct dparse *p, const struct ynode *item, bool *has, u32 *prio)
{
	const struct ynode *act = ytree_get(item, "action");
	const struct ynode *v = ytree_get(item, "priority");
	int rc = 0;

	if (v)
		rc = parse_priority(p, v, has, prio);
	if (rc || !act)
		return rc;
	rc = need_type(p, act, YNODE_MAP, "action");
	if (!rc)
		rc = check_keys(p, act, "action", action_keys, NULL);
	v = ytree_get(act, "priority");
	if (rc || !v)
		return rc;
	if (*has)
		return cfg_fail(p->err, -EINVAL, &v->loc,
				"priority given twice: in the rule and in 'action'");
	return parse_priority(p, v, has, prio);
}

static int parse_udsp_fields(struct dparse *p, const struct ynode *item,
			     struct cfg_policy *pol)
{
	const struct ynode *v;
	bool has_prio = false;
	u32 prio = 0;
	int rc = 0;

	v = ytree_get(item, "idx");
	if (v) {
		rc = need_number(p, v, "idx");
		if (!rc)
			rc = at_node(p->err, v, cfg_parse_s32("idx", v->str, -1,
							      LNET_UDSP_MAX_RULES - 1,
							      &pol->d.idx, p->err));
	}
	if (!rc)
		rc = parse_expr(p, item, "src", &pol->d.src);
	if (!rc)
		rc = parse_expr(p, item, "dst", &pol->d.dst);
	if (!rc)
		rc = parse_expr(p, item, "rte", &pol->d.rte);
	if (!rc)
		rc = parse_action(p, item, &has_prio, &prio);
	if (!rc)
		rc = at_node(p->err, item, cfg_policy_finish(pol, has_prio, prio, p->err));
	return rc;
}

static int parse_udsp_item(struct dparse *p, const struct ynode *item)
{
	struct cfg_doc *d = p->doc;
	struct cfg_policy *pol;
	int rc;

	rc = need_type(p, item, YNODE_MAP, "udsp");
	if (!rc)
		rc = check_keys(p, item, "a udsp rule", udsp_keys, NULL);
	if (!rc)
		rc = grow((void **)&d->policies, &p->cap_policies, d->npolicies,
			  sizeof(*pol), p->err);
	if (rc)
		return rc;
	pol = &d->policies[d->npolicies];
	cfg_policy_init(pol);
	pol->loc = item->loc;
	rc = parse_udsp_fields(p, item, pol);
	if (!rc)
		d->npolicies++;
	return rc;
}

/* --- rules repeated within one document -------------------------------------- */

static u64 hash_bytes(u64 h, const void *buf, size_t len)
{
	const unsigned char *s = buf;

	while (len--)
		h = (h ^ *s++) * 0x100000001b3ULL;
	return h;
}

static u64 hash_expr(u64 h, const struct lnet_nidexpr *e)
{
	char buf[LNET_EXPR_STR_MAX];
	int n = 0;

	if (lnet_nidexpr_present(e))
		n = lnet_nidexpr_print(e, buf, sizeof(buf));
	if (n < 0)
		n = 0;
	return hash_bytes(h, buf, (size_t)n) * 31 + 7;
}

static u64 hash_rule(const struct lnet_udsp_desc *d)
{
	u64 h = hash_bytes(0xcbf29ce484222325ULL, &d->action, sizeof(d->action));

	h = hash_expr(h, &d->src);
	h = hash_expr(h, &d->dst);
	return hash_expr(h, &d->rte);
}

/*
 * Two items with the same descriptors would make the second one fail
 * (EALREADY) or silently rewrite the first one's priority: both are
 * mistakes in the file, reported before anything is applied.
 */
static int check_repeated_rules(struct dparse *p)
{
	const struct cfg_doc *d = p->doc;
	size_t size, i, j;
	size_t *slots;
	int rc = 0;

	for (size = 16; size < d->npolicies * 2; size *= 2)
		;
	slots = calloc(size, sizeof(*slots));	/* index + 1; 0 = empty */
	if (!slots)
		return cfg_fail(p->err, -ENOMEM, NULL, "out of memory checking the rules");
	for (i = 0; i < d->npolicies && !rc; i++) {
		const struct cfg_policy *a = &d->policies[i];

		for (j = hash_rule(&a->d) & (size - 1); slots[j]; j = (j + 1) & (size - 1)) {
			const struct cfg_policy *b = &d->policies[slots[j] - 1];

			if (!lnet_udsp_desc_same_match(&a->d, &b->d))
				continue;
			rc = cfg_fail(p->err, -EINVAL, &a->loc,
				      "this rule matches the same NIDs as the rule at %u:%u",
				      b->loc.line, b->loc.col);
			break;
		}
		slots[j] = i + 1;
	}
	free(slots);
	return rc;
}

/* --- document -------------------------------------------------------------- */

static int parse_section(struct dparse *p, const struct ynode *key)
{
	int (*item_fn)(struct dparse *, const struct ynode *);
	const struct ynode *c, *seq = key->value;
	int rc;

	if (cfg_doc_is_route_section(key->str))
		return cfg_doc_parse_route_section(p->doc, key, p->err);
	if (!strcmp(key->str, "net"))
		item_fn = parse_net_item;
	else if (!strcmp(key->str, "peer"))
		item_fn = parse_peer_item;
	else
		item_fn = parse_udsp_item;
	if (is_empty(seq))
		return 0;
	rc = need_type(p, seq, YNODE_SEQ, key->str);
	for (c = seq->first; c && !rc; c = c->next)
		rc = item_fn(p, c);
	return rc;
}

static int parse_root(struct dparse *p, const struct ynode *root)
{
	const struct ynode *k;
	int rc;

	if (!root || ytree_is_null(root))
		return 0;
	if (root->type != YNODE_MAP)
		return cfg_fail(p->err, -EINVAL, &root->loc,
				"the document must be a mapping of 'net', 'peer' and 'udsp', not a %s",
				ytree_type_name(root->type));
	rc = check_keys(p, root, "the document", top_keys, NULL);
	for (k = root->first; k && !rc; k = k->next)
		rc = parse_section(p, k);
	if (!rc)
		rc = check_repeated_rules(p);
	return rc;
}

int cfg_doc_parse(const char *text, size_t len, struct cfg_doc *doc,
		  struct cfg_err *err)
{
	struct dparse p = { .doc = doc, .err = err };
	struct ynode *root;
	int rc;

	memset(doc, 0, sizeof(*doc));
	memset(err, 0, sizeof(*err));
	rc = ytree_load(text, len, &root, err);
	if (rc)
		return rc;
	rc = parse_root(&p, root);
	ytree_free(root);
	if (rc)
		cfg_doc_free(doc);
	return rc;
}
