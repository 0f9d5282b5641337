// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The net section: local NIs, parsed, applied, read back and shown
 * (cfg_show_nets, the net part of export).
 *
 *   net:
 *   - net type: tcp                 # "lo" blocks are skipped
 *     tunables: {...}               # optional default for the NIs below
 *     lnd tunables: {...}           # optional default for the NIs below
 *     local NI(s):                  # absent: the whole net (import --del)
 *     - interfaces: {0: eth0}       # or a sequence [eth0, eth1]
 *       tunables: {peer_timeout, peer_credits, peer_buffer_credits, credits}
 *       lnd tunables: {conns_per_peer, timeout, tos}    # tcp (o2ib: below)
 *       CPT: "[0,1]"                # accepted; one partition here
 *
 * Read-only keys that show and export write (nid, status, statistics,
 * health stats, udsp info, credits) are accepted and ignored, so that a
 * full export imports back. A net entry is one cfg_net per local NI, or one
 * without interfaces for the whole net.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "section.h"

static const char *const net_top[] = { "net", "ip2nets", NULL };
static const char *const ip2net_keys[] = {
	"net-spec", "interfaces", "ip-range", "tunables", "lnd tunables", "CPT", NULL
};
static const char *const net_keys[] = {
	"net type", "local NI(s)", "tunables", "lnd tunables", NULL
};
static const char *const ni_keys[] = {
	"interfaces", "nid", "tunables", "lnd tunables", "CPT", NULL
};
static const char *const ni_ignored[] = {
	"status", "status reason", "statistics", "health stats", "udsp info",
	"sent_stats", "received_stats", "dropped_stats", "dev cpt",
	"max_tx_credits", "available_tx_credits", "min_tx_credits", "tx_q_num_of_buf",
	NULL
};
#define TUN_KEY(id, name, opt, letter, min, max, def, help) #name,
static const char *const tunable_keys[] = { LNET_NI_TUNABLES(TUN_KEY) NULL };
static const char *const sock_tunable_keys[] = { LNET_SOCK_TUNABLES(TUN_KEY) NULL };
/*
 * What Lustre's o2iblnd writes under `lnd tunables`. No o2ib LND runs
 * here (an o2ib NI is configuration only), so they are accepted, checked
 * to be values, and not kept: lnet.yaml(5) says so.
 */
static const char *const o2ib_tunable_keys[] = {
	"peercredits_hiw", "map_on_demand", "concurrent_sends", "fmr_pool_size",
	"fmr_flush_trigger", "fmr_cache", "ntx", "conns_per_peer", "timeout", "tos",
	NULL
};

/* The partitions every NI runs on: this core has one. */
#define NI_CPT_LIST	"[0]"
/* The CPU partition of the NI's device: none (no NUMA placement here). */
#define NI_DEV_CPT	-1

/* --- parse ------------------------------------------------------------------------ */

/* A table of lnet_tunables.h as a YAML mapping sees it. */
struct tun_rows {
	const char *const *keys;		/* the rows' names, in row order */
	const struct lnet_range *ranges;
	s32 *(*ref)(void *t, u32 id);		/* field @id of the struct */
};

static s32 *ni_tun_ref(void *t, u32 id)
{
	return lnet_ni_tun_ref(t, id);
}

static s32 *sock_tun_ref(void *t, u32 id)
{
	return lnet_sock_tun_ref(t, id);
}

static const struct tun_rows ni_rows = { tunable_keys, lnet_ni_tun_ranges, ni_tun_ref };
static const struct tun_rows sock_rows = {
	sock_tunable_keys, lnet_sock_tun_ranges, sock_tun_ref
};

/* Each key of @map (checked to be a row of @rows) in its row's range, into @t. */
static int parse_rows(struct dparse *p, const struct ynode *map, const char *what,
		      const struct tun_rows *rows, void *t)
{
	const struct ynode *k;
	size_t i;
	int rc = check_keys(p, map, what, rows->keys, NULL);

	for (k = map->first; k && !rc; k = k->next) {
		for (i = 0; strcmp(rows->keys[i], k->str); i++)
			;
		rc = need_number(p, k->value, k->str);
		if (!rc)
			rc = at_node(p->err, k->value,
				     cfg_parse_s32(k->str, k->value->str, rows->ranges[i].min,
						   rows->ranges[i].max, rows->ref(t, (u32)i),
						   p->err));
	}
	return rc;
}

/* The keys of LNET_NI_TUNABLES, each in its row's range. */
static int parse_tunables(struct dparse *p, const struct ynode *map,
			  struct lnet_ni_tunables *tun)
{
	int rc;

	if (is_empty(map))
		return 0;
	rc = need_type(p, map, YNODE_MAP, "tunables");
	return rc ? rc : parse_rows(p, map, "tunables", &ni_rows, tun);
}

/* Keys of @allowed whose values only need to be values (o2ib's). */
static int accept_values(struct dparse *p, const struct ynode *map)
{
	const struct ynode *k;
	int rc = 0;

	for (k = map->first; k && !rc; k = k->next)
		rc = need_value(p, k->value, k->str);
	return rc;
}

/*
 * `lnd tunables` of a net of LND @lnd: tcp's rows of LNET_SOCK_TUNABLES,
 * each in range, into @t; o2ib's keys accepted and dropped; no key for the
 * other LNDs (they have none in Lustre's files either).
 */
static int parse_lnd_tunables(struct dparse *p, const struct ynode *map, u32 lnd,
			      struct lnet_sock_tunables *t)
{
	int rc;

	if (is_empty(map))
		return 0;
	rc = need_type(p, map, YNODE_MAP, "lnd tunables");
	if (rc)
		return rc;
	if (lnd == LNET_LND_O2IB) {
		rc = check_keys(p, map, "lnd tunables", o2ib_tunable_keys, NULL);
		return rc ? rc : accept_values(p, map);
	}
	if (lnd != LNET_LND_TCP && map->first)
		return cfg_fail(p->err, -EINVAL, &map->first->loc,
				"unknown key '%s' in lnd tunables: only tcp and o2ib nets have lnd tunables",
				map->first->str);
	return parse_rows(p, map, "lnd tunables", &sock_rows, t);
}

/*
 * CPT: "[0,1]" (Lustre writes a quoted string), a flow sequence [0, 1], or
 * one partition. Checked, then not kept: every NI runs on partition 0.
 */
static int parse_cpt(struct dparse *p, const struct ynode *v)
{
	const struct ynode *c;
	char buf[16];
	int rc = 0;

	if (is_empty(v))
		return 0;
	if (v->type != YNODE_SEQ) {
		rc = need_value(p, v, "CPT");
		return rc ? rc : at_node(p->err, v, cfg_parse_cpts("CPT", v->str, NULL, p->err));
	}
	for (c = v->first; c && !rc; c = c->next) {
		rc = need_value(p, c, "CPT");
		if (!rc && (strchr(c->str, '[') || strchr(c->str, ',')))
			rc = cfg_fail(p->err, -EINVAL, &c->loc,
				      "invalid CPT '%s': expected one partition per entry",
				      c->str);
		if (!rc) {
			snprintf(buf, sizeof(buf), "%s", c->str);
			rc = at_node(p->err, c, cfg_parse_cpts("CPT", buf, NULL, p->err));
		}
	}
	return rc;
}

/* @n (and its interfaces) into the document. */
static int add_net(struct dparse *p, const struct cfg_net *n)
{
	struct cfg_doc *d = p->doc;

	return doc_append(&d->nets, &d->nnets, n, sizeof(*n), p->err);
}

/*
 * nid: the NID the NI must have (a full export writes it): on the block's
 * net, for its one interface; the interface's address is checked when the
 * NI is added.
 */
static int parse_ni_nid(struct dparse *p, const struct ynode *v, struct cfg_net *n)
{
	char net[LNET_NET_STR_MAX], nid[LNET_NID_STR_MAX];
	int rc;

	if (is_empty(v))
		return 0;
	rc = need_value(p, v, "nid");
	if (!rc)
		rc = at_node(p->err, v, cfg_parse_nid("nid", v->str, &n->nid, p->err));
	if (rc)
		return rc;
	cfg_nid_str(&n->nid, nid, sizeof(nid));
	if (lnet_nid_net(&n->nid) != n->net_id)
		return cfg_fail(p->err, -EINVAL, &v->loc, "NID '%s' is not on net %s", nid,
				cfg_net_str(n->net_id, net, sizeof(net)));
	if (n->nifs > 1)
		return cfg_fail(p->err, -EINVAL, &v->loc,
				"NID '%s' names one NI: give it one interface, not %u", nid, n->nifs);
	return 0;
}

/* The NI's tunables, lnd tunables and CPT, then the NI into the document. */
static int parse_ni_rest(struct dparse *p, const struct ynode *item, struct cfg_net *n)
{
	int rc = parse_tunables(p, ytree_get(item, "tunables"), &n->tun);

	if (!rc)
		rc = parse_lnd_tunables(p, ytree_get(item, "lnd tunables"),
					LNET_NET_LND(n->net_id), &n->lnd_tun);
	if (!rc)
		rc = parse_cpt(p, ytree_get(item, "CPT"));
	if (!rc)
		rc = add_net(p, n);
	if (rc)
		cfg_net_fini(n);
	return rc;
}

/* `- nid: X` without interfaces (what Lustre's net add --nid sends). */
static int parse_ni_by_nid(struct dparse *p, const struct ynode *item, struct cfg_net *n)
{
	int rc = parse_ni_nid(p, ytree_get(item, "nid"), n);

	return rc ? rc : parse_ni_rest(p, item, n);
}

/* "eth0,eth1" is two interfaces; "eth0[0,1]" one with its partitions. */
static bool comma_outside_brackets(const char *s)
{
	int depth = 0;

	for (; *s; s++) {
		if (*s == '[')
			depth++;
		else if (*s == ']' && depth > 0)
			depth--;
		else if (*s == ',' && !depth)
			return true;
	}
	return false;
}

static int parse_ifname(struct dparse *p, const struct ynode *v, struct cfg_net *n)
{
	int rc = need_value(p, v, "interfaces");

	if (rc)
		return rc;
	if (comma_outside_brackets(v->str))
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
	if (is_empty(ifs) && !is_empty(ytree_get(item, "nid")))
		return parse_ni_by_nid(p, item, &n);
	if (is_empty(ifs))
		return cfg_fail(p->err, -EINVAL, &item->loc,
				"a local NI needs 'interfaces' (e.g. '0: eth0') or its 'nid'");
	/* no interface would mean the whole net: with --del, all of its NIs */
	if (ifs->type != YNODE_SCALAR && !ifs->first)
		return cfg_fail(p->err, -EINVAL, &ifs->loc,
				"'interfaces' is empty: a local NI needs one (e.g. '0: eth0')");
	rc = parse_interfaces(p, ifs, &n);
	if (!rc)
		rc = parse_ni_nid(p, ytree_get(item, "nid"), &n);
	if (rc) {
		cfg_net_fini(&n);
		return rc;
	}
	return parse_ni_rest(p, item, &n);
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
	if (!rc)
		rc = parse_lnd_tunables(p, ytree_get(item, "lnd tunables"),
					LNET_NET_LND(n.net_id), &n.lnd_tun);
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

/* ip-range: {0: RANGE, ...} (Lustre), a sequence, or one range. */
static int parse_ip_ranges(struct dparse *p, const struct ynode *v, struct cfg_ip2net *r)
{
	const struct ynode *c, *val;
	int rc = 0;

	if (is_empty(v))
		return 0;
	if (v->type == YNODE_SCALAR)
		c = v;
	else
		c = v->first;
	for (; c && !rc; c = v->type == YNODE_SCALAR ? NULL : c->next) {
		val = v->type == YNODE_MAP ? c->value : c;
		rc = need_value(p, val, "ip-range");
		if (!rc && r->nranges >= CFG_IP2NETS_MAX_RANGES)
			rc = cfg_fail(p->err, -E2BIG, &val->loc,
				      "too many ip-range entries: at most %d", CFG_IP2NETS_MAX_RANGES);
		if (!rc)
			rc = at_node(p->err, val, cfg_iprange_parse("ip-range", val->str,
								    &r->ranges[r->nranges++],
								    p->err));
	}
	return rc;
}

/* One rule of `ip2nets:` (net-spec first, as Lustre requires). */
static int parse_ip2net_item(struct dparse *p, const struct ynode *item)
{
	struct cfg_ip2nets *set = &doc_priv(p->doc)->ip2nets;
	const struct ynode *spec, *ifs;
	struct cfg_ip2net *r;
	u32 net_id;
	int rc = need_type(p, item, YNODE_MAP, "ip2nets");

	if (!rc)
		rc = check_keys(p, item, "an ip2nets rule", ip2net_keys, NULL);
	if (rc)
		return rc;
	spec = item->first;
	if (!spec || strcmp(spec->str, "net-spec"))
		return cfg_fail(p->err, -EINVAL, &item->loc,
				"an ip2nets rule starts with 'net-spec' (e.g. 'net-spec: tcp')");
	rc = need_value(p, spec->value, "net-spec");
	if (!rc)
		rc = at_node(p->err, spec->value, cfg_parse_net("net-spec", spec->value->str,
								&net_id, p->err));
	if (!rc && LNET_NET_LND(net_id) == LNET_LND_LO)
		rc = cfg_fail(p->err, -EINVAL, &spec->value->loc,
			      "invalid net-spec 'lo': 'lnetctl lnet configure' creates 0@lo");
	if (!rc)
		rc = at_node(p->err, item, cfg_ip2nets_add(set, net_id, &r, p->err));
	if (rc)
		return rc;
	r->net.loc = item->loc;
	ifs = ytree_get(item, "interfaces");
	if (!is_empty(ifs))
		rc = parse_interfaces(p, ifs, &r->net);
	if (!rc)
		rc = parse_ip_ranges(p, ytree_get(item, "ip-range"), r);
	if (!rc)
		rc = parse_tunables(p, ytree_get(item, "tunables"), &r->net.tun);
	if (!rc)
		rc = parse_lnd_tunables(p, ytree_get(item, "lnd tunables"),
					LNET_NET_LND(net_id), &r->net.lnd_tun);
	return rc ? rc : parse_cpt(p, ytree_get(item, "CPT"));
}

static int parse_nets(struct dparse *p, const struct ynode *key)
{
	if (!strcmp(key->str, "ip2nets"))
		return parse_items(p, key, parse_ip2net_item);
	return parse_items(p, key, parse_net_item);
}

/* --- apply ------------------------------------------------------------------------- */

/*
 * One NI per step: a doc entry with several interfaces is one step per
 * interface, each compared with the running NI on that interface.
 */

/* Add back the NIs (one cfg_net each) that a step deleted. */
static int undo_net_del(struct applier *a, const struct undo *u, struct cfg_err *e)
{
	const struct cfg_net *nets = u->data;
	size_t i;
	int rc = 0;

	for (i = 0; i < u->ndata && !rc; i++)
		rc = cfg_net_add(a->h, &nets[i], e);
	return rc;
}

/* Delete the NI (a one-interface cfg_net) that a step added. */
static int undo_net_add(struct applier *a, const struct undo *u, struct cfg_err *e)
{
	return cfg_net_del(a->h, u->data, e);
}

static void release_nets(struct undo *u)
{
	struct cfg_net *nets = u->data;
	size_t i;

	for (i = 0; i < u->ndata; i++)
		cfg_net_fini(&nets[i]);
	free(nets);
}

/* The model of one running NI: its interface and tunables, in net @net_id. */
static int net_of_ni(struct cfg_net *s, u32 net_id, const struct lnet_ioc_ni *ni,
		     struct cfg_err *err)
{
	cfg_net_init(s);
	s->net_id = net_id;
	s->tun = ni->ni_tun;
	if (ni->ni_flags & LNET_NI_F_LND_TUN)
		s->lnd_tun = ni->ni_lnd_tun;
	if (ni->ni_flags & LNET_NI_F_LND_TIMEOUT_DEF)
		s->lnd_tun.timeout = -1;	/* added back, it follows the global again */
	if (cfg_net_append(s, ni->ni_ifname))
		return cfg_fail(err, -ENOMEM, NULL, "out of memory");
	return 0;
}

/* Entry @n on interface @ifname, into @one (initialized here; fini it). */
static int one_ni_on(const struct cfg_net *n, const char *ifname, struct cfg_net *one,
		     struct cfg_err *err)
{
	cfg_net_init(one);
	one->net_id = n->net_id;
	one->tun = n->tun;
	one->lnd_tun = n->lnd_tun;
	one->nid = n->nid;
	one->loc = n->loc;
	if (cfg_net_append(one, ifname))
		return cfg_fail(err, -ENOMEM, NULL, "out of memory");
	return 0;
}

/* Entry @n with interface @j alone, into @one (initialized here; fini it). */
static int one_ni(const struct cfg_net *n, u32 j, struct cfg_net *one, struct cfg_err *err)
{
	return one_ni_on(n, n->ifnames[j], one, err);
}

/* "tcp(eth0)", or "tcp" for a whole net: how the plan names an NI. */
static const char *ni_name(const struct cfg_net *n, char *buf, size_t len)
{
	char net[LNET_NET_STR_MAX];

	lnet_net_print(n->net_id, net, sizeof(net));
	if (n->nifs)
		snprintf(buf, len, "%s(%s)", net, n->ifnames[0]);
	else
		snprintf(buf, len, "%s", net);
	return buf;
}

static int read_nis_failed(struct applier *a, const struct cfg_net *n, int rc)
{
	return cfg_ioc_fail(a->h, rc, a->err, &n->loc, "cannot read the NIs");
}

/*
 * The running NI of net n->net_id on interface n->ifnames[0] (any NI of
 * the net when @n has none) in @ni: 0, -ENOENT, or an error in a->err.
 */
static int running_ni(struct applier *a, const struct cfg_net *n, struct lnet_ioc_ni *ni)
{
	u32 i;
	int rc;

	for (i = 0;; i++) {
		memset(ni, 0, sizeof(*ni));
		rc = cfg_ni_get(a->h, i, n->net_id, ni);
		if (rc == -ENOENT)
			return rc;
		if (rc)
			return read_nis_failed(a, n, rc);
		if (!n->nifs || !strcmp(ni->ni_ifname, n->ifnames[0]))
			return 0;
	}
}

/* The tunables @want sets to a value @have does not hold, as "KEY OLD -> NEW, ...". */
static bool tunables_differ(const struct lnet_ni_tunables *want,
			    const struct lnet_ni_tunables *have, char *buf, size_t len)
{
	u32 i;

	buf[0] = '\0';
	for (i = 0; i < __LNET_TUN_MAX; i++)
		if (lnet_ni_tun_get(want, i) >= 0 &&
		    lnet_ni_tun_get(want, i) != lnet_ni_tun_get(have, i))
			plan_change(buf, len, lnet_ni_tun_ranges[i].name,
				    lnet_ni_tun_get(have, i), lnet_ni_tun_get(want, i));
	return buf[0];
}

/*
 * The same for the LND tunables a tcp NI has (tos -1 is a value too), in
 * a buffer of its own: their rows, as LNET_NI_LND_ROW() bits (0: none).
 */
static u32 lnd_tunables_differ(const struct cfg_net *want, const struct lnet_ioc_ni *have,
			       char *buf, size_t len)
{
	u32 i, rows = 0;

	buf[0] = '\0';
	if (!(have->ni_flags & LNET_NI_F_LND_TUN))
		return 0;	/* accepted and ignored (o2ib): nothing to compare */
	for (i = 0; i < __LNET_SOCK_TUN_MAX; i++) {
		s32 w = lnet_sock_tun_get(&want->lnd_tun, i);
		s32 h = lnet_sock_tun_get(&have->ni_lnd_tun, i);

		/* conns_per_peer 0 is the LND's choice: what it chose is in force */
		if (i == LNET_SOCK_CONNS_PER_PEER && !w)
			continue;
		if (w != -1 && w != h) {
			plan_change(buf, len, lnet_sock_tun_ranges[i].name, h, w);
			rows |= LNET_NI_LND_ROW(i);
		}
	}
	return rows;
}

/* What an in-place LND change saved: the NI, the rows, the values before. */
struct lnd_saved {
	struct lnet_nid nid;
	u32 rows;
	struct lnet_sock_tunables old;
};

static int undo_lnd_set(struct applier *a, const struct undo *u, struct cfg_err *e)
{
	const struct lnd_saved *s = u->data;

	return cfg_net_lnd_set(a->h, 0, &s->nid, &s->old, s->rows, e);
}

static void release_lnd_saved(struct undo *u)
{
	free(u->data);
}

/*
 * Change the LND tunables @rows of the running NI @have to those of @one,
 * in place (IOC_LNET_SET_NI_LND); the undo puts back the values before (a
 * timeout that followed the global one follows it again).
 */
static int lnd_set_step(struct applier *a, const struct cfg_net *one,
			const struct lnet_ioc_ni *have, u32 rows)
{
	struct undo u = { .undo = undo_lnd_set, .release = release_lnd_saved, .ndata = 1 };
	struct lnd_saved *s = malloc(sizeof(*s));
	int rc;

	if (!s)
		return cfg_fail(a->err, -ENOMEM, NULL, "out of memory");
	s->nid = have->ni_nid;
	s->rows = rows;
	s->old = have->ni_lnd_tun;
	if (have->ni_flags & LNET_NI_F_LND_TIMEOUT_DEF)
		s->old.timeout = -1;
	rc = cfg_net_lnd_set(a->h, 0, &have->ni_nid, &one->lnd_tun, rows, a->err);
	if (rc) {
		free(s);
		return item_failed(a, &one->loc, rc);
	}
	u.data = s;
	return push_undo(a, &u);
}

/* The NIs of @n as they are now (one cfg_net per NI), to add them back. */
static int save_nis(struct applier *a, const struct cfg_net *n, struct undo *u)
{
	struct cfg_net *nets;
	struct lnet_ioc_ni ni;
	u32 i;
	int rc;

	for (i = 0;; i++) {
		memset(&ni, 0, sizeof(ni));
		rc = cfg_ni_get(a->h, i, n->net_id, &ni);
		if (rc == -ENOENT)
			return 0;
		if (rc)
			return read_nis_failed(a, n, rc);
		if (n->nifs && strcmp(n->ifnames[0], ni.ni_ifname))
			continue;
		if (!n->nifs && n->nid.nid_lnd && !lnet_nid_equal(&n->nid, &ni.ni_nid))
			continue;	/* an NI named by its NID alone */
		nets = realloc(u->data, (u->ndata + 1) * sizeof(*nets));
		if (!nets)
			return cfg_fail(a->err, -ENOMEM, NULL, "out of memory");
		u->data = nets;
		rc = net_of_ni(&nets[u->ndata], n->net_id, &ni, a->err);
		u->ndata++;
		if (rc)
			return rc;
	}
}

/* Delete @n (one NI, or a whole net), saving what it removes for the undo. */
static int del_step(struct applier *a, const struct cfg_net *n)
{
	struct undo u = { .undo = undo_net_del, .release = release_nets };
	int rc = save_nis(a, n, &u);

	if (!rc)
		rc = cfg_net_del(a->h, n, a->err);
	if (rc) {
		release_undo(&u);
		return item_failed(a, &n->loc, rc);
	}
	return push_undo(a, &u);
}

/* Add @one (one NI; the undo takes it over: @one is empty after). */
static int add_step(struct applier *a, struct cfg_net *one)
{
	struct undo u = { .undo = undo_net_add, .release = release_nets, .ndata = 1 };
	struct cfg_net *copy;
	int rc = cfg_net_add(a->h, one, a->err);

	if (rc)
		return item_failed(a, &one->loc, rc);
	copy = malloc(sizeof(*copy));
	if (!copy) {
		cfg_net_del(a->h, one, a->err);
		return cfg_fail(a->err, -ENOMEM, NULL, "out of memory");
	}
	*copy = *one;
	one->ifnames = NULL;	/* the copy owns the list now */
	one->nifs = 0;
	u.data = copy;
	return push_undo(a, &u);
}

/*
 * A running NI @ni that @one names: its LND tunables change in place;
 * its four NI tunables cannot change while it exists, and deleting and
 * adding it again would move it after the other NIs (a rollback could not
 * put it back in its place): such a change is one error naming the
 * values, for the admin to delete it first.
 */
static int change_ni(struct applier *a, const struct cfg_net *one,
		     const struct lnet_ioc_ni *ni)
{
	char name[LNET_NET_STR_MAX + LNET_IFNAME_LEN + 2], diff[256];
	char net[LNET_NET_STR_MAX];
	u32 rows;

	if (tunables_differ(&one->tun, &ni->ni_tun, diff, sizeof(diff))) {
		lnet_net_print(one->net_id, net, sizeof(net));
		return cfg_fail(a->err, -EBUSY, &one->loc,
				"net %s: tunables %s: an NI's tunables cannot change while it exists (delete it first: lnetctl net del --net %s --if %s)",
				ni_name(one, name, sizeof(name)), diff, net, one->ifnames[0]);
	}
	rows = lnd_tunables_differ(one, ni, diff, sizeof(diff));
	if (!rows)
		return 0;
	if (!a->plan)
		return lnd_set_step(a, one, ni, rows);
	plan_line(a, '~', "net %s: %s", ni_name(one, name, sizeof(name)), diff);
	return 0;
}

/* Bring the NI @one into force: added, changed in place (change_ni), or left alone. */
static int add_ni(struct applier *a, struct cfg_net *one)
{
	char name[LNET_NET_STR_MAX + LNET_IFNAME_LEN + 2];
	struct lnet_ioc_ni ni;
	int rc = running_ni(a, one, &ni);

	if (rc && rc != -ENOENT)
		return rc;
	if (!rc)
		return change_ni(a, one, &ni);
	if (!a->plan)
		return add_step(a, one);
	plan_line(a, '+', "net %s", ni_name(one, name, sizeof(name)));
	return 0;
}

/* @step on each NI of doc entry @n, as a one-interface cfg_net. */
static int each_ni(struct applier *a, const struct cfg_net *n,
		   int (*step)(struct applier *a, struct cfg_net *one))
{
	struct cfg_net one;
	u32 j;
	int rc = 0;

	for (j = 0; j < n->nifs && !rc; j++) {
		rc = one_ni(n, j, &one, a->err);
		if (!rc)
			rc = step(a, &one);
		cfg_net_fini(&one);
	}
	return rc;
}

/*
 * @step on the NI of doc entry @n that names its NID alone (`- nid: X`):
 * when adding, on the interface that has the NID's address; when deleting,
 * the NI that has the NID (none: nothing to delete).
 */
static int by_nid(struct applier *a, const struct cfg_net *n,
		  int (*step)(struct applier *a, struct cfg_net *one))
{
	char ifname[LNET_IFNAME_LEN];
	struct lnet_ioc_ni ni;
	struct cfg_net one;
	int rc;

	if (a->del) {
		rc = cfg_ni_of_nid(a->h, &n->nid, &ni);
		if (rc == -ENOENT)
			return 0;
		if (rc)
			return read_nis_failed(a, n, rc);
		memcpy(ifname, ni.ni_ifname, sizeof(ifname));
		ifname[LNET_IFNAME_LEN - 1] = '\0';
	} else {
		rc = cfg_if_of_nid(a->h, &n->nid, &n->loc, ifname, a->err);
		if (rc)
			return rc;
	}
	rc = one_ni_on(n, ifname, &one, a->err);
	if (!rc)
		rc = step(a, &one);
	cfg_net_fini(&one);
	return rc;
}

static int add_nets(struct applier *a)
{
	const struct cfg_doc *d = a->doc;
	size_t i;
	int rc = 0;

	for (i = 0; i < d->nnets && !rc; i++) {
		const struct cfg_net *n = d->nets[i];

		if (!n->nifs && !n->nid.nid_lnd)
			return cfg_fail(a->err, -EINVAL, &n->loc,
					"adding a net needs 'local NI(s)' with 'interfaces' or 'nid'");
		rc = n->nifs ? each_ni(a, n, add_ni) : by_nid(a, n, add_ni);
	}
	return rc;
}

/* Delete @one (one NI or a whole net) if it is there. */
static int del_ni(struct applier *a, struct cfg_net *one)
{
	char name[LNET_NET_STR_MAX + LNET_IFNAME_LEN + 2];
	struct lnet_ioc_ni ni;
	int rc = running_ni(a, one, &ni);

	if (rc)
		return rc == -ENOENT ? 0 : rc;
	if (!a->plan)
		return del_step(a, one);
	plan_line(a, '-', "net %s", ni_name(one, name, sizeof(name)));
	return 0;
}

static int del_nets(struct applier *a)
{
	const struct cfg_doc *d = a->doc;
	size_t i;
	int rc = 0;

	for (i = d->nnets; i-- > 0 && !rc;) {
		const struct cfg_net *n = d->nets[i];

		if (n->nifs)
			rc = each_ni(a, n, del_ni);
		else if (n->nid.nid_lnd)
			rc = by_nid(a, n, del_ni);
		else
			rc = del_ni(a, d->nets[i]);
	}
	return rc;
}

/* --- apply: ip2nets ------------------------------------------------------------ */

/* The rules of `ip2nets:` against the interfaces where LNet runs. */
static int apply_ip2nets(struct applier *a)
{
	const struct cfg_ip2nets *set = &doc_priv(a->doc)->ip2nets;
	struct cfg_ifinfo *ifs = NULL;
	struct cfg_net *nets = NULL;
	size_t nifs = 0, n = 0, i;
	int rc;

	if (!set->nrules)
		return 0;
	rc = cfg_ifs_read(a->h, &ifs, &nifs, a->err);
	if (!rc)
		rc = cfg_ip2nets_eval(set, ifs, nifs, &nets, &n, a->err);
	/* as the NIs of net: entries, so that an NI in force is left alone */
	for (i = 0; !rc && i < n; i++)
		rc = each_ni(a, &nets[i], a->del ? del_ni : add_ni);
	cfg_ip2nets_free_nets(nets, n);
	free(ifs);
	return rc;
}

static int apply_nets(struct applier *a)
{
	int rc;

	if (a->del) {
		rc = apply_ip2nets(a);
		return rc ? rc : del_nets(a);
	}
	rc = add_nets(a);
	return rc ? rc : apply_ip2nets(a);
}

/* --- read -------------------------------------------------------------------------- */

static int read_nets(struct cfg_handle *h, struct cfg_doc *doc, struct cfg_err *err)
{
	struct lnet_ioc_ni ni;
	struct cfg_net n;
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
		rc = net_of_ni(&n, lnet_nid_net(&ni.ni_nid), &ni, err);
		if (!rc)
			rc = doc_append(&doc->nets, &doc->nnets, &n, sizeof(n), err);
		if (rc) {
			cfg_net_fini(&n);
			return rc;
		}
	}
}

/* --- show and write ---------------------------------------------------------------- */

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

/* A running NI's LND tunables, every row (tcp NIs only, as Lustre). */
static void emit_lnd_tunables(struct yemit *w, const struct lnet_ioc_ni *ni)
{
	u32 i;

	if (!(ni->ni_flags & LNET_NI_F_LND_TUN))
		return;
	yemit_key_map(w, "lnd tunables");
	for (i = 0; i < __LNET_SOCK_TUN_MAX; i++)
		yemit_kv_s64(w, lnet_sock_tun_ranges[i].name,
			     lnet_sock_tun_get(&ni->ni_lnd_tun, i));
	yemit_map_end(w);
}

/*
 * The LND tunables of a model NI as a backup writes them (Lustre's form):
 * those set, but timeout, which Lustre's backup leaves out (read-only).
 * tos -1 is written next to a conns_per_peer: it is tos's default value.
 */
static void write_lnd_tunables(struct yemit *w, const struct lnet_sock_tunables *t)
{
	if (t->conns_per_peer < 0 && t->tos < 0)
		return;
	yemit_key_map(w, "lnd tunables");
	if (t->conns_per_peer >= 0)
		yemit_kv_s64(w, "conns_per_peer", t->conns_per_peer);
	yemit_kv_s64(w, "tos", t->tos);
	yemit_map_end(w);
}

/* Why an NI is down (GET_NET's ni_down_reason), the words of `status reason`. */
static const char *down_reason_name(u32 reason)
{
	switch (reason) {
	case LNET_NI_DOWN_LINK:
		return "link down";
	case LNET_NI_DOWN_NO_LND:
		return "no LND";
	case LNET_NI_DOWN_FAMILY:
		return "address family not carried";
	default:
		return NULL;
	}
}

static void emit_ni(struct yemit *w, const struct lnet_ioc_ni *ni, int verbose)
{
	const char *reason = down_reason_name(ni->ni_down_reason);

	yemit_map_start(w);
	emit_nid(w, "nid", &ni->ni_nid);
	yemit_kv_str(w, "status", status_name(ni->ni_status));
	if (verbose >= 1 && reason)
		yemit_kv_str(w, "status reason", reason);
	if (ni->ni_ifname[0]) {
		yemit_key_map(w, "interfaces");
		yemit_plain(w, "0");
		yemit_str(w, ni->ni_ifname);
		yemit_map_end(w);
	}
	if (verbose >= 1)
		emit_stats(w, ni->ni_send_count, ni->ni_recv_count, ni->ni_drop_count,
			   ni->ni_lat);
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
	if (verbose >= 1) {
		emit_tunables(w, &ni->ni_tun);
		emit_lnd_tunables(w, ni);
		yemit_kv_s64(w, "dev cpt", NI_DEV_CPT);
		yemit_kv_dquoted(w, "CPT", NI_CPT_LIST);
	}
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

static int export_nets(struct printer *p, struct cfg_handle *h)
{
	return emit_nets(p, h, 0, 4);
}

/*
 * A net entry without interfaces (a whole net, import --del) stays a block
 * of its own, and NIs are grouped only while consecutive, so that reading
 * the output back gives the same entries in the same order.
 */
static size_t write_net_block(struct yemit *w, struct cfg_net *const *nets, size_t n)
{
	size_t k = 1, i;
	char key[12];
	u32 j;

	yemit_map_start(w);
	emit_net(w, "net type", nets[0]->net_id);
	if (!nets[0]->nifs) {
		emit_tunables(w, &nets[0]->tun);
		write_lnd_tunables(w, &nets[0]->lnd_tun);
		yemit_map_end(w);
		return 1;
	}
	while (k < n && nets[k]->net_id == nets[0]->net_id && nets[k]->nifs)
		k++;
	yemit_key_seq(w, "local NI(s)");
	for (i = 0; i < k; i++) {
		yemit_map_start(w);
		yemit_key_map(w, "interfaces");
		for (j = 0; j < nets[i]->nifs; j++) {
			snprintf(key, sizeof(key), "%u", j);
			yemit_plain(w, key);
			yemit_str(w, nets[i]->ifnames[j]);
		}
		yemit_map_end(w);
		emit_tunables(w, &nets[i]->tun);
		write_lnd_tunables(w, &nets[i]->lnd_tun);
		yemit_kv_dquoted(w, "CPT", NI_CPT_LIST);
		yemit_map_end(w);
	}
	yemit_seq_end(w);
	yemit_map_end(w);
	return k;
}

static void write_nets(struct yemit *w, const struct cfg_doc *doc)
{
	size_t i;

	yemit_key_seq(w, "net");
	for (i = 0; i < doc->nnets;)
		i += write_net_block(w, doc->nets + i, doc->nnets - i);
	yemit_seq_end(w);
}

static bool has_nets(const struct cfg_doc *doc)
{
	return doc->nnets;
}

const struct cfg_section cfg_sec_net = {
	.keys = net_top,
	.parse = parse_nets,
	.apply = apply_nets,
	.read = read_nets,
	.has = has_nets,
	.write = write_nets,
	.export = export_nets,
};
