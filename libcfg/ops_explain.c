// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `lnetctl policy explain NID`: IOC_LNET_EXPLAIN and its two outputs. The
 * core runs its own selection with a trace (kernel/core/explain.c); this
 * file only words what it recorded. Candidates come in the order the
 * selection compared them; consecutive ones of one kind (and one gateway
 * path) make a step:
 *
 *   explain:
 *     destination: 10.0.1.2@tcp1
 *     source: any
 *     peer: 10.0.0.2@tcp            # or "none: a send makes it"
 *     Multi-Rail: true
 *     discovery first: false
 *     path: direct                  # local, direct, routed, none
 *     steps:
 *     - step: local net
 *       candidates:
 *       - {net: tcp1, peer net: tcp1, ..., result: chosen}
 *       - {net: tcp, ..., result: lost to tcp1 on peer net priority}
 *     - step: local NI ...
 *     chosen: {local NI: ..., peer NI: ..., gateway: ...}
 */
#include <errno.h>
#include <string.h>
#include "yemit.h"
#include "ops_priv.h"

int cfg_explain(struct cfg_handle *h, const struct lnet_nid *dst, const struct lnet_nid *src,
		struct lnet_ioc_explain *out, struct cfg_err *err)
{
	char nbuf[LNET_NID_STR_MAX], sbuf[LNET_NID_STR_MAX], doing[LNET_NID_STR_MAX + 32];
	int rc;

	memset(out, 0, sizeof(*out));
	out->ex_hdr.ioc_len = sizeof(*out);
	out->ex_dst = *dst;
	if (src)
		out->ex_src = *src;
	rc = cfg_ioctl(h, IOC_LNET_EXPLAIN, out);
	if (!rc)
		return 0;
	cfg_nid_str(dst, nbuf, sizeof(nbuf));
	if (rc == -EADDRNOTAVAIL && src && !cfg_unreachable(h))
		return cfg_fail(err, rc, NULL,
				"cannot explain a send to %s: --source %s is not a NID of this node",
				nbuf, cfg_nid_str(src, sbuf, sizeof(sbuf)));
	snprintf(doing, sizeof(doing), "cannot explain a send to %s", nbuf);
	return cfg_ioc_fail(h, rc, err, NULL, doing);
}

/* --- words ------------------------------------------------------------------- */

#define CRIT_WORDS_(name, value, words) [value] = words,
static const char *const crit_words[LNET_EXPLAIN_C_COUNT] = {
	LNET_EXPLAIN_CRITERIA(CRIT_WORDS_)
};
#undef CRIT_WORDS_

const char *cfg_explain_criterion(uint32_t c)
{
	return c < LNET_EXPLAIN_C_COUNT && crit_words[c] ? crit_words[c] : "?";
}

static const char *kind_step(uint32_t kind)
{
	switch (kind) {
	case LNET_EXPLAIN_K_NET:
		return "local net";
	case LNET_EXPLAIN_K_NI:
		return "local NI";
	case LNET_EXPLAIN_K_PEER_NI:
		return "peer NI";
	case LNET_EXPLAIN_K_ROUTE:
		return "route";
	case LNET_EXPLAIN_K_REMOTE_NET:
		return "remote peer net";
	default:
		return "?";
	}
}

static const char *path_words(uint32_t path)
{
	static const char *const w[] = {
		[LNET_EXPLAIN_PATH_NONE] = "none",
		[LNET_EXPLAIN_PATH_LOCAL] = "local",
		[LNET_EXPLAIN_PATH_DIRECT] = "direct",
		[LNET_EXPLAIN_PATH_ROUTED] = "routed",
	};

	return path < sizeof(w) / sizeof(w[0]) ? w[path] : "?";
}

/* A candidate's name: its NID, its net(s). */
static const char *cand_name(const struct lnet_ioc_explain_cand *c, char *buf, size_t len)
{
	char a[LNET_NID_STR_MAX], b[LNET_NID_STR_MAX];

	switch (c->ec_kind) {
	case LNET_EXPLAIN_K_NET:
		snprintf(buf, len, "%s (peer net %s)", cfg_net_str(c->ec_net, a, sizeof(a)),
			 cfg_net_str(c->ec_peer_net, b, sizeof(b)));
		break;
	case LNET_EXPLAIN_K_REMOTE_NET:
		cfg_net_str(c->ec_peer_net, buf, len);
		break;
	default:
		cfg_nid_str(&c->ec_nid, buf, len);
	}
	return buf;
}

/* "chosen", the reason it was left out, or "lost to X on CRITERION". */
static const char *cand_result(const struct lnet_ioc_explain *ex,
			       const struct lnet_ioc_explain_cand *c, char *buf, size_t len)
{
	char name[2 * LNET_NID_STR_MAX];

	if (c->ec_verdict == LNET_EXPLAIN_C_WON)
		return "chosen";
	if (c->ec_against >= ex->ex_ncand)
		return cfg_explain_criterion(c->ec_verdict);
	snprintf(buf, len, "lost to %s on %s",
		 cand_name(&ex->ex_cand[c->ec_against], name, sizeof(name)),
		 cfg_explain_criterion(c->ec_verdict));
	return buf;
}

static long long prio(uint32_t p)
{
	return p == LNET_PRIORITY_UNSET ? -1 : (long long)p;
}

/* --- YAML ---------------------------------------------------------------------- */

static void kv_nid(struct yemit *w, const char *key, const struct lnet_nid *nid)
{
	char buf[LNET_NID_STR_MAX];

	yemit_kv_str(w, key, cfg_nid_str(nid, buf, sizeof(buf)));
}

static void kv_net(struct yemit *w, const char *key, uint32_t net)
{
	char buf[LNET_NID_STR_MAX];

	yemit_kv_str(w, key, cfg_net_str(net, buf, sizeof(buf)));
}

static void write_net(struct yemit *w, const struct lnet_ioc_explain_cand *c)
{
	kv_net(w, "net", c->ec_net);
	kv_net(w, "peer net", c->ec_peer_net);
	yemit_kv_bool(w, "NI up", c->ec_up);
	yemit_kv_u64(w, "peer net health", c->ec_health);
	yemit_kv_s64(w, "peer net priority", prio(c->ec_priority));
	yemit_kv_u64(w, "net health", c->ec_health2);
	yemit_kv_s64(w, "net priority", prio(c->ec_priority2));
	yemit_kv_u64(w, "peer net round robin", c->ec_seq);
	yemit_kv_u64(w, "net round robin", c->ec_seq2);
}

static void write_ni(struct yemit *w, const struct lnet_ioc_explain_cand *c)
{
	kv_nid(w, "nid", &c->ec_nid);
	yemit_kv_str(w, "status", c->ec_up ? "up" : "down");
	yemit_kv_u64(w, "health", c->ec_health);
	yemit_kv_s64(w, "priority", prio(c->ec_priority));
	if (c->ec_kind == LNET_EXPLAIN_K_PEER_NI)
		yemit_kv_bool(w, "prefers the NI", c->ec_pref);
	yemit_kv_s64(w, "credits", c->ec_credits);
	yemit_kv_u64(w, "round robin", c->ec_seq);
}

static void write_route(struct yemit *w, const struct lnet_ioc_explain_cand *c)
{
	kv_nid(w, "gateway", &c->ec_nid);
	kv_net(w, "net", c->ec_net);
	yemit_kv_bool(w, "alive", c->ec_up);
	yemit_kv_bool(w, "preferred", c->ec_pref);
	yemit_kv_s64(w, "priority", (long long)c->ec_priority);
	yemit_kv_u64(w, "hops", c->ec_priority2);
	if (c->ec_up) {
		yemit_kv_u64(w, "gateway health", c->ec_health);
		yemit_kv_u64(w, "queued bytes", c->ec_queued);
		yemit_kv_s64(w, "gateway credits", c->ec_credits);
	}
	yemit_kv_u64(w, "round robin", c->ec_seq);
}

static void write_rnet(struct yemit *w, const struct lnet_ioc_explain_cand *c)
{
	kv_net(w, "peer net", c->ec_peer_net);
	yemit_kv_u64(w, "health", c->ec_health);
	yemit_kv_s64(w, "priority", prio(c->ec_priority));
	yemit_kv_u64(w, "round robin", c->ec_seq);
}

static void write_steps(struct yemit *w, const struct lnet_ioc_explain *ex, uint32_t parent);

static void write_cand(struct yemit *w, const struct lnet_ioc_explain *ex, uint32_t i)
{
	const struct lnet_ioc_explain_cand *c = &ex->ex_cand[i];
	char res[3 * LNET_NID_STR_MAX];
	uint32_t j;

	yemit_map_start(w);
	if (c->ec_kind == LNET_EXPLAIN_K_NET)
		write_net(w, c);
	else if (c->ec_kind == LNET_EXPLAIN_K_ROUTE)
		write_route(w, c);
	else if (c->ec_kind == LNET_EXPLAIN_K_REMOTE_NET)
		write_rnet(w, c);
	else
		write_ni(w, c);
	yemit_kv_str(w, "result", cand_result(ex, c, res, sizeof(res)));
	for (j = 0; j < ex->ex_ncand; j++)
		if (ex->ex_cand[j].ec_parent == i)
			break;
	if (j < ex->ex_ncand) {
		yemit_key_seq(w, "path to the gateway");
		write_steps(w, ex, i);
		yemit_seq_end(w);
	}
	yemit_map_end(w);
}

/* The steps of the entries whose parent is @parent, in order. */
static void write_steps(struct yemit *w, const struct lnet_ioc_explain *ex, uint32_t parent)
{
	uint32_t i, kind = 0;
	bool open = false;

	for (i = 0; i < ex->ex_ncand; i++) {
		const struct lnet_ioc_explain_cand *c = &ex->ex_cand[i];

		if (c->ec_parent != parent)
			continue;
		if (!open || c->ec_kind != kind) {
			if (open) {
				yemit_seq_end(w);
				yemit_map_end(w);
			}
			kind = c->ec_kind;
			open = true;
			yemit_map_start(w);
			yemit_kv_str(w, "step", kind_step(kind));
			yemit_key_seq(w, "candidates");
		}
		write_cand(w, ex, i);
	}
	if (open) {
		yemit_seq_end(w);
		yemit_map_end(w);
	}
}

static void write_head(struct yemit *w, const struct lnet_ioc_explain *ex)
{
	kv_nid(w, "destination", &ex->ex_dst);
	if (lnet_nid_is_zero(&ex->ex_src))
		yemit_kv_str(w, "source", "any");
	else
		kv_nid(w, "source", &ex->ex_src);
	if (ex->ex_flags & LNET_EXPLAIN_F_NO_PEER)
		yemit_kv_str(w, "peer", "none: a send makes it");
	else if (!lnet_nid_is_zero(&ex->ex_peer))
		kv_nid(w, "peer", &ex->ex_peer);
	yemit_kv_bool(w, "Multi-Rail", ex->ex_flags & LNET_EXPLAIN_F_MULTI_RAIL);
	yemit_kv_bool(w, "discovery first", ex->ex_flags & LNET_EXPLAIN_F_DISCOVER);
	yemit_kv_str(w, "path", path_words(ex->ex_path));
	if (ex->ex_rc)
		yemit_kv_str(w, "error", strerror(-ex->ex_rc));
	if (ex->ex_flags & LNET_EXPLAIN_F_TRUNCATED)
		yemit_kv_bool(w, "truncated", true);
}

static void write_chosen(struct yemit *w, const struct lnet_ioc_explain *ex)
{
	if (ex->ex_path == LNET_EXPLAIN_PATH_NONE)
		return;
	yemit_key_map(w, "chosen");
	kv_nid(w, "local NI", &ex->ex_ni);
	if (!lnet_nid_is_zero(&ex->ex_lpni))
		kv_nid(w, "peer NI", &ex->ex_lpni);
	if (!lnet_nid_is_zero(&ex->ex_gw))
		kv_nid(w, "gateway", &ex->ex_gw);
	yemit_map_end(w);
}

static int show_yaml(const struct lnet_ioc_explain *ex, FILE *out, struct cfg_err *err)
{
	struct yemit w;
	int rc = yemit_begin(&w, out, err);

	yemit_map_start(&w);
	yemit_key_map(&w, "explain");
	write_head(&w, ex);
	if (ex->ex_ncand) {
		yemit_key_seq(&w, "steps");
		write_steps(&w, ex, LNET_EXPLAIN_NONE);
		yemit_seq_end(&w);
	}
	write_chosen(&w, ex);
	yemit_map_end(&w);
	yemit_map_end(&w);
	{
		int wrc = yemit_end(&w);

		return rc ? rc : wrc;
	}
}

/* --- text ----------------------------------------------------------------------- */

static void text_cand(FILE *out, const struct lnet_ioc_explain *ex, uint32_t i, int depth)
{
	const struct lnet_ioc_explain_cand *c = &ex->ex_cand[i];
	char name[2 * LNET_NID_STR_MAX], res[3 * LNET_NID_STR_MAX];

	fprintf(out, "%*s%-28s %s", depth * 4 + 4, "", cand_name(c, name, sizeof(name)),
		cand_result(ex, c, res, sizeof(res)));
	switch (c->ec_kind) {
	case LNET_EXPLAIN_K_NET:
		fprintf(out, " (NI %s, peer net health %u priority %lld, net health %u "
			"priority %lld, round robin %u/%u)\n", c->ec_up ? "up" : "down",
			c->ec_health, prio(c->ec_priority), c->ec_health2,
			prio(c->ec_priority2), c->ec_seq, c->ec_seq2);
		break;
	case LNET_EXPLAIN_K_ROUTE:
		fprintf(out, " (%s%s, priority %u, hops %u, health %u, queued %llu, "
			"credits %d, round robin %u)\n", c->ec_up ? "alive" : "down",
			c->ec_pref ? ", preferred" : "", c->ec_priority, c->ec_priority2,
			c->ec_health, (unsigned long long)c->ec_queued, c->ec_credits, c->ec_seq);
		break;
	case LNET_EXPLAIN_K_REMOTE_NET:
		fprintf(out, " (health %u, priority %lld, round robin %u)\n", c->ec_health,
			prio(c->ec_priority), c->ec_seq);
		break;
	default:
		fprintf(out, " (%s, health %u, priority %lld%s, credits %d, round robin %u)\n",
			c->ec_up ? "up" : "down", c->ec_health, prio(c->ec_priority),
			c->ec_pref ? ", prefers the NI" : "", c->ec_credits, c->ec_seq);
	}
}

static void text_steps(FILE *out, const struct lnet_ioc_explain *ex, uint32_t parent, int depth)
{
	uint32_t i, j, kind = 0;

	for (i = 0; i < ex->ex_ncand; i++) {
		if (ex->ex_cand[i].ec_parent != parent)
			continue;
		if (ex->ex_cand[i].ec_kind != kind) {
			kind = ex->ex_cand[i].ec_kind;
			fprintf(out, "%*s%s:\n", depth * 4 + 2, "", kind_step(kind));
		}
		text_cand(out, ex, i, depth);
		for (j = 0; j < ex->ex_ncand; j++)
			if (ex->ex_cand[j].ec_parent == i)
				break;
		if (j < ex->ex_ncand)
			text_steps(out, ex, i, depth + 1);
	}
}

static int show_text(const struct lnet_ioc_explain *ex, FILE *out)
{
	char a[LNET_NID_STR_MAX], b[LNET_NID_STR_MAX], c[LNET_NID_STR_MAX];

	fprintf(out, "send to %s from %s: path %s", cfg_nid_str(&ex->ex_dst, a, sizeof(a)),
		lnet_nid_is_zero(&ex->ex_src) ? "any NI" : cfg_nid_str(&ex->ex_src, b, sizeof(b)),
		path_words(ex->ex_path));
	if (ex->ex_rc)
		fprintf(out, " (%s)", strerror(-ex->ex_rc));
	fprintf(out, "\n");
	if (ex->ex_flags & LNET_EXPLAIN_F_NO_PEER)
		fprintf(out, "peer: none yet (a send makes it)%s\n",
			ex->ex_flags & LNET_EXPLAIN_F_DISCOVER ? "; a send discovers it first" : "");
	else if (!lnet_nid_is_zero(&ex->ex_peer))
		fprintf(out, "peer: %s%s%s\n", cfg_nid_str(&ex->ex_peer, a, sizeof(a)),
			ex->ex_flags & LNET_EXPLAIN_F_MULTI_RAIL ? ", Multi-Rail" : "",
			ex->ex_flags & LNET_EXPLAIN_F_DISCOVER ? "; a send discovers it first" : "");
	text_steps(out, ex, LNET_EXPLAIN_NONE, 0);
	if (ex->ex_path != LNET_EXPLAIN_PATH_NONE) {
		fprintf(out, "chosen: from %s", cfg_nid_str(&ex->ex_ni, a, sizeof(a)));
		if (!lnet_nid_is_zero(&ex->ex_lpni))
			fprintf(out, " to %s", cfg_nid_str(&ex->ex_lpni, b, sizeof(b)));
		if (!lnet_nid_is_zero(&ex->ex_gw))
			fprintf(out, " through %s", cfg_nid_str(&ex->ex_gw, c, sizeof(c)));
		fprintf(out, "\n");
	}
	if (ex->ex_flags & LNET_EXPLAIN_F_TRUNCATED)
		fprintf(out, "(more candidates than the core reports: the first %u)\n",
			LNET_EXPLAIN_MAX_CAND);
	return ferror(out) ? -EIO : 0;
}

int cfg_show_explain(const struct lnet_ioc_explain *ex, bool yaml, FILE *out,
		     struct cfg_err *err)
{
	int rc;

	if (yaml)
		return show_yaml(ex, out, err);
	rc = show_text(ex, out);
	return rc ? cfg_fail(err, rc, NULL, "cannot write the explanation") : 0;
}
