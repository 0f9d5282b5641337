// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * policy show --nid / --net: the rules that decide a NID or a net, as the
 * engine itself finds them (IOC_LNET_UDSP_MATCH: nothing is matched
 * here), each rule printed as policy show prints it.
 *
 *   policy match:
 *       nid: 10.0.0.5@tcp               # or net: tcp
 *       kind: peer NI                   # local NI, unconfigured peer NI,
 *                                       #   local net, peer net
 *       pending: true                   # only while rule changes are
 *       rules:                          #   not flattened yet
 *       -   idx: 0
 *           dst: tcp
 *           action:
 *               priority: 1
 *           sets: peer net priority
 *           wins: true
 *       -   ...
 *           wins: false
 *           overridden by: 0            # the rule that decides the value
 *       effective:
 *           peer net priority: 1
 *           peer NI priority: -1        # -1: no rule sets it
 *           preferred source NIDs: []
 *           preferred routers: []
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "section.h"

#define MATCH_LEN	((u32)sizeof(struct lnet_ioc_udsp_match))

/* What the value of each rule class is called, in rules and effective. */
static const char *const value_names[__LNET_UDSP_VAL_MAX] = {
	[LNET_UDSP_VAL_NET_PRIO] = "net priority",
	[LNET_UDSP_VAL_NI_PRIO] = "NI priority",
	[LNET_UDSP_VAL_PEER_NET_PRIO] = "peer net priority",
	[LNET_UDSP_VAL_PEER_NI_PRIO] = "peer NI priority",
	[LNET_UDSP_VAL_PREF_NIDS] = "preferred source NIDs",
	[LNET_UDSP_VAL_PREF_RTRS] = "preferred routers",
};

/* A local NI's pair rules make it a source of peer NIs. */
#define SOURCE_OF	"preferred source of"

static const char *const kind_names[__LNET_UDSP_MATCH_KIND_MAX] = {
	[LNET_UDSP_MATCH_LOCAL_NI] = "local NI",
	[LNET_UDSP_MATCH_PEER_NI] = "peer NI",
	[LNET_UDSP_MATCH_NEW_PEER_NI] = "unconfigured peer NI",
	[LNET_UDSP_MATCH_LOCAL_NET] = "local net",
	[LNET_UDSP_MATCH_PEER_NET] = "peer net",
};

/* The values each kind has, in the order they print (lnet_udsp.h's table). */
static const u8 kind_values[__LNET_UDSP_MATCH_KIND_MAX][__LNET_UDSP_VAL_MAX + 1] = {
	[LNET_UDSP_MATCH_LOCAL_NI] = { LNET_UDSP_VAL_NET_PRIO, LNET_UDSP_VAL_NI_PRIO,
				       LNET_UDSP_VAL_PREF_NIDS, __LNET_UDSP_VAL_MAX },
	[LNET_UDSP_MATCH_PEER_NI] = { LNET_UDSP_VAL_PEER_NET_PRIO, LNET_UDSP_VAL_PEER_NI_PRIO,
				      LNET_UDSP_VAL_PREF_NIDS, LNET_UDSP_VAL_PREF_RTRS,
				      __LNET_UDSP_VAL_MAX },
	[LNET_UDSP_MATCH_NEW_PEER_NI] = { LNET_UDSP_VAL_PEER_NET_PRIO, LNET_UDSP_VAL_PEER_NI_PRIO,
					  LNET_UDSP_VAL_PREF_NIDS, LNET_UDSP_VAL_PREF_RTRS,
					  __LNET_UDSP_VAL_MAX },
	[LNET_UDSP_MATCH_LOCAL_NET] = { LNET_UDSP_VAL_NET_PRIO, LNET_UDSP_VAL_PEER_NET_PRIO,
					__LNET_UDSP_VAL_MAX },
	[LNET_UDSP_MATCH_PEER_NET] = { LNET_UDSP_VAL_PEER_NET_PRIO, __LNET_UDSP_VAL_MAX },
};

/*
 * The whole answer: the first reply as it came (kind, values, lists), the
 * last one's um_next, and every hit.
 */
struct match {
	struct lnet_ioc_udsp_match first;
	struct lnet_ioc_udsp_hit *hits;
	size_t nhits;
};

static bool is_list(u32 value)
{
	return value == LNET_UDSP_VAL_PREF_NIDS || value == LNET_UDSP_VAL_PREF_RTRS;
}

static const char *value_name(const struct match *mt, u32 value)
{
	if (value == LNET_UDSP_VAL_PREF_NIDS && mt->first.um_kind == LNET_UDSP_MATCH_LOCAL_NI)
		return SOURCE_OF;
	return value_names[value];
}

/* --- asking LNet --------------------------------------------------------------------- */

static int match_append(struct match *mt, const struct lnet_ioc_udsp_match *r)
{
	struct lnet_ioc_udsp_hit *hits;
	u32 i;

	if (r->um_nhits > LNET_UDSP_MATCH_HITS)
		return -EPROTO;
	for (i = 0; i < r->um_nhits; i++)
		if (r->um_hits[i].uh_value >= __LNET_UDSP_VAL_MAX)
			return -EPROTO;
	if (!r->um_nhits)
		return 0;
	hits = realloc(mt->hits, (mt->nhits + r->um_nhits) * sizeof(*hits));
	if (!hits)
		return -ENOMEM;
	memcpy(hits + mt->nhits, r->um_hits, r->um_nhits * sizeof(*hits));
	mt->hits = hits;
	mt->nhits += r->um_nhits;
	return 0;
}

/*
 * Every page of the answer, from um_first 0 on until um_next reaches
 * um_total; -EAGAIN when the rule list changed between two pages.
 */
static int match_fetch(struct cfg_handle *h, const struct lnet_ioc_udsp_match *req,
		       struct match *mt)
{
	struct lnet_ioc_udsp_match r = *req;
	int rc;

	mt->nhits = 0;
	rc = cfg_ioctl(h, IOC_LNET_UDSP_MATCH, &r);
	if (rc)
		return rc;
	if (r.um_kind >= __LNET_UDSP_MATCH_KIND_MAX)
		return -EPROTO;
	mt->first = r;
	for (;;) {
		rc = match_append(mt, &r);
		if (rc || r.um_next >= r.um_total)
			return rc;
		if (r.um_next <= r.um_first)
			return -EPROTO;		/* no progress */
		r = *req;
		r.um_first = mt->first.um_next;
		rc = cfg_ioctl(h, IOC_LNET_UDSP_MATCH, &r);
		if (rc)
			return rc;
		if (r.um_total != mt->first.um_total)
			return -EAGAIN;
		mt->first.um_next = r.um_next;
	}
}

/*
 * Did anything change since @mt was fetched? The first page is what the
 * rules and objects are now: asked again, it must come back the same.
 */
static int match_same(struct cfg_handle *h, const struct lnet_ioc_udsp_match *req,
		      const struct match *mt)
{
	struct lnet_ioc_udsp_match r = *req, was = mt->first;
	int rc = cfg_ioctl(h, IOC_LNET_UDSP_MATCH, &r);

	if (rc)
		return rc;
	r.um_next = was.um_next;	/* the last page's in @mt */
	return memcmp(&r, &was, sizeof(r)) ? -EAGAIN : 0;
}

/* --- printing ------------------------------------------------------------------------- */

static void emit_nids(struct yemit *w, const char *key, const struct lnet_nid *nids, u32 n)
{
	char more[64];
	u32 i;

	yemit_key_seq(w, key);
	for (i = 0; i < n && i < LNET_PREF_MAX; i++) {
		char buf[LNET_NID_STR_MAX];

		yemit_str(w, cfg_nid_str(&nids[i], buf, sizeof(buf)));
	}
	yemit_seq_end(w);
	if (n > LNET_PREF_MAX) {
		snprintf(more, sizeof(more), "%s not shown", key);
		yemit_kv_u64(w, more, n - LNET_PREF_MAX);
	}
}

static void emit_effective(struct yemit *w, const struct match *mt)
{
	const struct lnet_ioc_udsp_match *m = &mt->first;
	const u8 *v;

	yemit_key_map(w, "effective");
	for (v = kind_values[m->um_kind]; *v < __LNET_UDSP_VAL_MAX; v++) {
		if (*v == LNET_UDSP_VAL_PREF_NIDS)
			emit_nids(w, value_name(mt, *v), m->um_pref, m->um_value[*v]);
		else if (*v == LNET_UDSP_VAL_PREF_RTRS)
			emit_nids(w, value_name(mt, *v), m->um_rtr, m->um_value[*v]);
		else
			emit_prio(w, value_name(mt, *v), m->um_value[*v]);
	}
	yemit_map_end(w);
}

/* What one rule does to the object, after its own keys. */
static void emit_hit(struct yemit *w, const struct match *mt,
		     const struct lnet_ioc_udsp_hit *hit)
{
	s32 winner = mt->first.um_winner[hit->uh_value];
	bool wins = hit->uh_flags & LNET_UDSP_HIT_F_WINS;

	yemit_kv_str(w, "sets", value_name(mt, hit->uh_value));
	if (is_list(hit->uh_value))
		yemit_kv_u64(w, mt->first.um_kind == LNET_UDSP_MATCH_LOCAL_NI ?
			     "peer NIs" : "picks", hit->uh_count);
	yemit_kv_bool(w, "wins", wins);
	if (!wins && winner >= 0)
		yemit_kv_s64(w, "overridden by", winner);
}

/* Each hit with its rule, read now (it may have gone since: -EAGAIN). */
static int emit_hits(struct yemit *w, struct cfg_handle *h, const struct match *mt)
{
	struct cfg_policy pol;
	size_t i;
	int rc;

	cfg_policy_init(&pol);
	yemit_key_seq(w, "rules");
	for (i = 0; i < mt->nhits; i++) {
		rc = cfg_policy_get(h, mt->hits[i].uh_idx, &pol);
		if (rc)
			return rc == -ENOENT ? -EAGAIN : rc;
		pol.d.idx = (s32)mt->hits[i].uh_idx;
		yemit_map_start(w);
		emit_rule_fields(w, &pol.d);
		emit_hit(w, mt, &mt->hits[i]);
		yemit_map_end(w);
	}
	yemit_seq_end(w);
	return 0;
}

static int emit_match(struct printer *p, struct cfg_handle *h, const struct match *mt)
{
	const struct lnet_ioc_udsp_match *m = &mt->first;
	struct yemit *w = &p->w;
	int rc;

	if (m->um_kind >= __LNET_UDSP_MATCH_KIND_MAX)
		return -EPROTO;
	pr_start(p);
	yemit_key_map(w, "policy match");
	if (m->um_flags & LNET_UDSP_MATCH_F_NET)
		emit_net(w, "net", m->um_net);
	else
		emit_nid(w, "nid", &m->um_nid);
	yemit_kv_str(w, "kind", kind_names[m->um_kind]);
	if (m->um_state & LNET_UDSP_MATCH_S_PENDING)
		yemit_kv_bool(w, "pending", true);
	rc = emit_hits(w, h, mt);
	if (rc)
		return rc;
	emit_effective(w, mt);
	yemit_map_end(w);
	return 0;
}

/*
 * The document into memory (*@text), the rules read as it is written; a
 * failure half-way prints nothing.
 */
static int print_match(struct cfg_handle *h, const struct match *mt, char **text,
		       size_t *len, struct cfg_err *err)
{
	struct printer p = { .err = err };
	int rc;

	p.out = open_memstream(text, len);
	if (!p.out)
		return cfg_fail(err, -ENOMEM, NULL, "out of memory");
	rc = pr_finish(&p, emit_match(&p, h, mt));
	if (fclose(p.out) && !rc)
		rc = cfg_fail(err, -ENOMEM, NULL, "out of memory");
	return rc;
}

/*
 * Fetch, print, and check that nothing changed meanwhile (a rule read
 * for printing must be the one that matched); three tries, else -EAGAIN.
 */
static int show_match(struct cfg_handle *h, const struct lnet_ioc_udsp_match *req,
		      FILE *out, struct cfg_err *err)
{
	struct match mt = { .hits = NULL };
	char *text = NULL;
	size_t len = 0;
	int rc = -EAGAIN, tries;

	for (tries = 0; tries < 3 && rc == -EAGAIN; tries++) {
		free(text);
		text = NULL;
		rc = match_fetch(h, req, &mt);
		if (!rc)
			rc = print_match(h, &mt, &text, &len, err);
		if (!rc)
			rc = match_same(h, req, &mt);
	}
	if (!rc && fwrite(text, 1, len, out) != len)
		rc = cfg_fail(err, -EIO, NULL, "cannot write the output: %s", strerror(errno));
	free(text);
	free(mt.hits);
	return rc;
}

int cfg_show_policy_match(struct cfg_handle *h, const struct lnet_nid *nid, uint32_t net_id,
			  FILE *out, struct cfg_err *err)
{
	struct lnet_ioc_udsp_match req;
	char what[LNET_NID_STR_MAX], doing[LNET_NID_STR_MAX + 64];
	int rc;

	memset(&req, 0, sizeof(req));
	req.um_hdr.ioc_len = MATCH_LEN;
	if (nid) {
		req.um_nid = *nid;
		cfg_nid_str(nid, what, sizeof(what));
	} else {
		req.um_flags = LNET_UDSP_MATCH_F_NET;
		req.um_net = net_id;
		cfg_net_str(net_id, what, sizeof(what));
	}
	err->msg[0] = '\0';
	rc = show_match(h, &req, out, err);
	if (!rc || err->msg[0])
		return rc;
	if (rc == -EAGAIN)
		return cfg_fail(err, rc, NULL, "the rules changed while they were matched "
				"against %s: try again", what);
	snprintf(doing, sizeof(doing), "cannot match the rules against %s", what);
	if (rc == -ENOTTY && !cfg_unreachable(h))
		return cfg_fail(err, rc, NULL, "%s: %s does not know this request "
				"(an older lnetd or lnet module)", doing, cfg_target(h));
	return cfg_ioc_fail(h, rc, err, NULL, doing);
}
