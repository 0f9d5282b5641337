// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * import --exec: a document of actions rather than configuration, in
 * Lustre's layout:
 *
 *   ping:
 *     nids: {0: 10.0.0.2@tcp, 1: 10.0.0.3@tcp}   # or a sequence
 *     timeout: 5000                              # optional, milliseconds
 *     source: 10.0.0.1@tcp                       # optional
 *   discover:
 *     nids: {0: 10.0.0.2@tcp}
 *
 * The whole document is checked before anything is sent; then each NID is
 * pinged or discovered in document order and the answers are written as
 * the `ping:` and `discover:` documents of lnetctl ping and discover.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "section.h"

#define EXEC_MAX_NIDS	1024

static const char *const exec_keys[] = { "ping", "discover", NULL };
static const char *const ping_keys[] = { "nids", "timeout", "source", NULL };
static const char *const discover_keys[] = { "nids", NULL };

/* One section: what to do, to whom. */
struct action {
	bool discover;
	u32 timeout_ms;
	bool has_src;
	struct lnet_nid src;
	size_t n;
	struct lnet_nid nids[EXEC_MAX_NIDS];
	struct cfg_loc locs[EXEC_MAX_NIDS];
};

static int exec_nid(struct dparse *p, const struct ynode *v, struct action *act)
{
	int rc = need_value(p, v, "nids");

	if (!rc && act->n == EXEC_MAX_NIDS)
		rc = cfg_fail(p->err, -EINVAL, &v->loc, "too many NIDs: at most %d",
			      EXEC_MAX_NIDS);
	if (!rc)
		rc = at_node(p->err, v, cfg_parse_nid("nids", v->str, &act->nids[act->n],
						      p->err));
	if (!rc)
		act->locs[act->n++] = v->loc;
	return rc;
}

/* {0: NID, 1: NID} as Lustre writes it, or [NID, NID]. */
static int exec_nids(struct dparse *p, const struct ynode *v, struct action *act)
{
	const struct ynode *c;
	int rc = 0;

	if (is_empty(v) || (v->type != YNODE_SCALAR && !v->first))
		return cfg_fail(p->err, -EINVAL, &v->loc,
				"'nids' lists no NID (e.g. '0: 10.0.0.2@tcp')");
	if (v->type == YNODE_SCALAR)
		return exec_nid(p, v, act);
	for (c = v->first; c && !rc; c = c->next)
		rc = exec_nid(p, v->type == YNODE_MAP ? c->value : c, act);
	return rc;
}

static int exec_section(struct dparse *p, const struct ynode *key, struct action *act)
{
	const struct ynode *map = key->value, *v;
	u32 timeout_ms = CFG_PING_TIMEOUT_DEF * 1000;
	int rc;

	memset(act, 0, sizeof(*act));
	act->discover = !strcmp(key->str, "discover");
	rc = need_type(p, map, YNODE_MAP, key->str);
	if (!rc)
		rc = check_keys(p, map, key->str, act->discover ? discover_keys : ping_keys,
				NULL);
	if (rc)
		return rc;
	if (!ytree_get(map, "nids"))
		return cfg_fail(p->err, -EINVAL, &map->loc, "'%s' needs 'nids'", key->str);
	rc = exec_nids(p, ytree_get(map, "nids"), act);
	v = ytree_get(map, "timeout");
	if (!rc && v && !(rc = need_number(p, v, "timeout")))
		rc = at_node(p->err, v, cfg_parse_u32("timeout", v->str, 1,
						      CFG_PING_TIMEOUT_MAX * 1000, &timeout_ms,
						      p->err));
	act->timeout_ms = timeout_ms;
	v = ytree_get(map, "source");
	if (!rc && v && !(rc = need_value(p, v, "source")))
		rc = at_node(p->err, v, cfg_parse_nid("source", v->str, &act->src, p->err));
	act->has_src = v != NULL;
	return rc;
}

/* Every NID of @act, the answers written as one document; the first failure stops it. */
static int exec_action(struct cfg_handle *h, const struct action *act, FILE *out,
		       struct cfg_err *err)
{
	struct lnet_ioc_ping *res = calloc(act->n, sizeof(*res));
	struct cfg_err show = { 0 };
	size_t i;
	int rc = 0, src;

	if (!res)
		return cfg_fail(err, -ENOMEM, NULL, "out of memory");
	for (i = 0; i < act->n && !rc; i++) {
		rc = act->discover ?
		     cfg_discover(h, &act->nids[i], false, act->timeout_ms, &res[i], err) :
		     cfg_ping(h, &act->nids[i], act->has_src ? &act->src : NULL,
			      act->timeout_ms, &res[i], err);
		if (rc)
			err->loc = act->locs[i];
	}
	src = cfg_show_ping(act->discover ? "discover" : "ping", res, rc ? i - 1 : i, out,
			    &show);
	free(res);
	if (!rc && src)
		*err = show;
	return rc ? rc : src;
}

int cfg_doc_exec(struct cfg_handle *h, const char *text, size_t len, FILE *out,
		 struct cfg_err *err)
{
	struct dparse p = { .err = err };
	struct action *acts = NULL;
	const struct ynode *k;
	struct ynode *root;
	size_t n = 0, i;
	int rc;

	memset(err, 0, sizeof(*err));
	rc = ytree_load(text, len, &root, err);
	if (rc || !root || ytree_is_null(root)) {
		ytree_free(root);
		return rc;
	}
	rc = need_type(&p, root, YNODE_MAP, "the document");
	if (!rc)
		rc = check_keys(&p, root, "an import --exec document", exec_keys, NULL);
	if (!rc && !(acts = calloc(root->nchildren, sizeof(*acts))))
		rc = cfg_fail(err, -ENOMEM, NULL, "out of memory");
	for (k = rc ? NULL : root->first; k && !rc; k = k->next)
		rc = exec_section(&p, k, &acts[n++]);
	ytree_free(root);
	for (i = 0; i < n && !rc; i++)
		rc = exec_action(h, &acts[i], out, err);
	free(acts);
	return rc;
}
