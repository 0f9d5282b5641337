// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The udsp section: selection policy rules, parsed, applied, read back and
 * shown (cfg_show_policies, the udsp part of export).
 *
 *   udsp:
 *   - idx: 0                        # optional: append
 *     src: tcp                      # src, dst, rte: NID range expressions
 *     action: {priority: 1}         # or "priority: 1" in the item
 *
 * Also the forms Lustre writes and documents: `action:` as a list of
 * one-key mappings (`action: [{priority: 1}]`, the UDSP design document),
 * and a NID-pair (src + dst) or router (dst + rte) rule that carries a
 * priority, as Lustre 2.17's export writes every rule its import made: its
 * kernel keeps that priority and never uses it (a pair or router rule
 * prefers NIDs; it has no priority). Such a rule is imported as the pair
 * or router rule it is, and the priority is dropped.
 *
 * Two rules of one document that match the same NIDs are an error found
 * before anything is applied. Rules go in after, and out before, the nets,
 * peers and routes they match; a rule to delete is found by what it
 * matches, and an undo puts a rule back at the idx it had.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "section.h"

static const char *const udsp_top[] = { "udsp", NULL };
static const char *const udsp_keys[] = {
	"idx", "src", "dst", "rte", "action", "priority", NULL
};
static const char *const action_keys[] = { "priority", NULL };

/* --- parse ------------------------------------------------------------------------ */

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

/*
 * `action: {priority: N}`: the priority, unless the rule has one already
 * (@twice says where the other one was).
 */
static int parse_action_map(struct dparse *p, const struct ynode *act, bool *has, u32 *prio,
			    const char *twice)
{
	const struct ynode *v;
	int rc = need_map(p, act, "action", action_keys);

	v = rc ? NULL : ytree_get(act, "priority");
	if (!v)
		return rc;
	if (*has)
		return cfg_fail(p->err, -EINVAL, &v->loc, "priority given twice: %s", twice);
	return parse_priority(p, v, has, prio);
}

/* `action: [{priority: N}]`: each item an action mapping. */
static int parse_action_list(struct dparse *p, const struct ynode *act, bool *has, u32 *prio)
{
	const char *twice = *has ? "in the rule and in 'action'" : "in two 'action' items";
	const struct ynode *c;
	int rc = 0;

	for (c = act->first; c && !rc; c = c->next)
		rc = parse_action_map(p, c, has, prio, twice);
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
	if (act->type == YNODE_SEQ)
		return parse_action_list(p, act, has, prio);
	return parse_action_map(p, act, has, prio, "in the rule and in 'action'");
}

/* A NID-pair or router rule: one whose action is a list of preferred NIDs. */
static bool prefers_nids(const struct lnet_udsp_desc *d)
{
	return lnet_nidexpr_present(&d->dst) &&
	       (lnet_nidexpr_present(&d->src) || lnet_nidexpr_present(&d->rte));
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
	if (!rc && prefers_nids(&pol->d))
		has_prio = false;
	if (!rc)
		rc = at_node(p->err, item, cfg_policy_finish(pol, has_prio, prio, p->err));
	return rc;
}

static int parse_udsp_item(struct dparse *p, const struct ynode *item)
{
	struct cfg_doc *d = p->doc;
	struct cfg_policy pol;
	int rc;

	rc = need_type(p, item, YNODE_MAP, "udsp");
	if (!rc)
		rc = check_keys(p, item, "a udsp rule", udsp_keys, NULL);
	if (rc)
		return rc;
	cfg_policy_init(&pol);
	pol.loc = item->loc;
	rc = parse_udsp_fields(p, item, &pol);
	if (!rc)
		rc = doc_append(&d->policies, &d->npolicies, &pol, sizeof(pol), p->err);
	return rc;
}

static int parse_rules(struct dparse *p, const struct ynode *key)
{
	return parse_items(p, key, parse_udsp_item);
}

/* --- rules repeated within one document ---------------------------------------------- */

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
		const struct cfg_policy *a = d->policies[i];

		for (j = hash_rule(&a->d) & (size - 1); slots[j]; j = (j + 1) & (size - 1)) {
			const struct cfg_policy *b = d->policies[slots[j] - 1];

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

/* --- reading the running rules -------------------------------------------------------- */

static int read_rule_list(struct cfg_handle *h, struct cfg_policy **out, size_t *n,
			  struct cfg_err *err)
{
	struct cfg_policy *rules = NULL, pol;
	size_t i;
	int rc;

	cfg_policy_init(&pol);
	for (i = 0;; i++) {
		rc = cfg_policy_get(h, (u32)i, &pol);
		if (rc == -ENOENT)
			break;
		if (rc) {
			free(rules);
			return cfg_fail(err, rc, NULL, "cannot read rule %zu from %s: %s",
					i, cfg_target(h), strerror(-rc));
		}
		pol.d.idx = (s32)i;
		if (cfg_list_append(&rules, i, SIZE_MAX, &pol, sizeof(pol))) {
			free(rules);
			return cfg_fail(err, -ENOMEM, NULL, "out of memory reading the rules");
		}
	}
	*out = rules;
	*n = i;
	return 0;
}

static int read_rules(struct cfg_handle *h, struct cfg_doc *doc, struct cfg_err *err)
{
	struct cfg_policy *rules;
	size_t i, n;
	int rc = read_rule_list(h, &rules, &n, err);

	if (rc)
		return rc;
	for (i = 0; !rc && i < n; i++)
		rc = doc_append(&doc->policies, &doc->npolicies, &rules[i], sizeof(rules[i]),
				err);
	free(rules);
	return rc;
}

/* --- apply ------------------------------------------------------------------------- */

/*
 * A doc rule is found among the running rules by what it matches
 * (descriptors and action, as lnet_udsp_desc_same_match()), not by idx:
 * idx shift as rules go, and a file written by export names each rule
 * completely. Found, it is left alone, or given its new priority, or
 * moved to the idx the file gives it (one ADD_UDSP: the core does both);
 * not found, it is added. The running list is kept in step with every
 * change (also when planning), so each step sees the idx the core has.
 */

/* The running rules, kept in step with what this import does to them. */
struct running {
	struct cfg_policy *rules;
	size_t n;
};

static int find_rule(const struct running *r, const struct lnet_udsp_desc *d)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (lnet_udsp_desc_same_match(&r->rules[i].d, d))
			return (int)i;
	return -1;
}

/* Where a rule asked for at @idx lands among @n rules (as the core places it). */
static size_t landing(s32 idx, size_t n)
{
	return idx >= 0 && (size_t)idx < n ? (size_t)idx : n;
}

/* @rule into the running list at @at (room: the list came from cfg_list_append). */
static int running_insert(struct running *r, const struct cfg_policy *rule, size_t at,
			  struct cfg_err *err)
{
	size_t i;

	if (cfg_list_append(&r->rules, r->n, SIZE_MAX, rule, sizeof(*rule)))
		return cfg_fail(err, -ENOMEM, NULL, "out of memory");
	memmove(&r->rules[at + 1], &r->rules[at], (r->n - at) * sizeof(r->rules[0]));
	r->rules[at] = *rule;
	r->n++;
	for (i = 0; i < r->n; i++)
		r->rules[i].d.idx = (s32)i;
	return 0;
}

static void running_remove(struct running *r, size_t k)
{
	size_t i;

	memmove(&r->rules[k], &r->rules[k + 1], (r->n - k - 1) * sizeof(r->rules[0]));
	r->n--;
	for (i = 0; i < r->n; i++)
		r->rules[i].d.idx = (s32)i;
}

/* An added rule: delete it at the idx it landed at. */
static int undo_rule_add(struct applier *a, const struct undo *u, struct cfg_err *e)
{
	return cfg_policy_del(a->h, u->rule.d.idx, e);
}

/* A changed (moved, new priority) or deleted rule: the old one, at its idx. */
static int undo_rule_restore(struct applier *a, const struct undo *u, struct cfg_err *e)
{
	struct cfg_policy rule = u->rule;

	return cfg_policy_add(a->h, &rule, e);
}

/* What differs between running rule @now (at @k) and @want: "KEY OLD -> NEW, ...". */
static bool rule_differs(const struct cfg_policy *now, size_t k, const struct cfg_policy *want,
			 size_t n, char *buf, size_t len)
{
	buf[0] = '\0';
	if (want->d.idx >= 0 && landing(want->d.idx, n - 1) != k)
		plan_change(buf, len, "idx", (long long)k,
			    (long long)landing(want->d.idx, n - 1));
	if (want->d.action == LNET_UDSP_ACTION_PRIORITY &&
	    now->d.priority != want->d.priority)
		plan_change(buf, len, "priority", now->d.priority, want->d.priority);
	return buf[0];
}

/* What a new rule matches and does: "src tcp, priority 1", for the plan. */
static const char *rule_text(const struct lnet_udsp_desc *d, char *buf, size_t len)
{
	const struct lnet_nidexpr *e[] = { &d->src, &d->dst, &d->rte };
	static const char *const key[] = { "src", "dst", "rte" };
	char expr[LNET_EXPR_STR_MAX];
	size_t off = 0, i;

	buf[0] = '\0';
	for (i = 0; i < 3; i++)
		if (lnet_nidexpr_present(e[i]) && off < len)
			off += snprintf(buf + off, len - off, "%s%s %s", off ? ", " : "", key[i],
					cfg_nidexpr_str(e[i], expr, sizeof(expr)));
	if (d->action == LNET_UDSP_ACTION_PRIORITY && off < len)
		snprintf(buf + off, len - off, ", priority %u", d->priority);
	return buf;
}

/* A new rule: added where the file says (or appended). */
static int add_new_rule(struct applier *a, struct running *r, struct cfg_policy *rule)
{
	struct undo u = { .undo = undo_rule_add };
	int rc;

	if (a->plan) {
		char text[3 * LNET_EXPR_STR_MAX + 64];

		rule->d.idx = (s32)landing(rule->d.idx, r->n);
		plan_line(a, '+', "udsp idx %d: %s", rule->d.idx,
			  rule_text(&rule->d, text, sizeof(text)));
	} else {
		rc = cfg_policy_add(a->h, rule, a->err);
		if (rc)
			return item_failed(a, &rule->loc, rc);
		u.rule = *rule;
		rc = push_undo(a, &u);
		if (rc)
			return rc;
	}
	return running_insert(r, rule, (size_t)rule->d.idx, a->err);
}

/* An existing rule at @k: moved and/or given its new priority, if either differs. */
static int change_rule(struct applier *a, struct running *r, int k, struct cfg_policy *rule)
{
	struct undo u = { .undo = undo_rule_restore, .rule = r->rules[k] };
	char diff[128];
	int rc;

	if (!rule_differs(&r->rules[k], (size_t)k, rule, r->n, diff, sizeof(diff)))
		return 0;
	if (a->plan) {
		plan_line(a, '~', "udsp idx %d: %s", k, diff);
		if (rule->d.idx >= 0)
			rule->d.idx = (s32)landing(rule->d.idx, r->n - 1);
	} else {
		rc = cfg_policy_add(a->h, rule, a->err);
		if (rc)
			return item_failed(a, &rule->loc, rc);
		rc = push_undo(a, &u);
		if (rc)
			return rc;
	}
	if (rule->d.idx < 0)
		rule->d.idx = k;
	running_remove(r, (size_t)k);
	return running_insert(r, rule, (size_t)rule->d.idx, a->err);
}

static int add_rule(struct applier *a, struct running *r, size_t i)
{
	struct cfg_policy rule = *a->doc->policies[i];
	int k = find_rule(r, &rule.d);

	return k < 0 ? add_new_rule(a, r, &rule) : change_rule(a, r, k, &rule);
}

/* A rule that is not there is nothing to delete. */
static int del_rule(struct applier *a, struct running *r, size_t i)
{
	const struct cfg_policy *p = a->doc->policies[i];
	struct undo u = { .undo = undo_rule_restore, .item = i };
	int k = find_rule(r, &p->d);
	int rc;

	if (k < 0)
		return 0;
	if (a->plan) {
		plan_line(a, '-', "udsp idx %d", k);
	} else {
		u.rule = r->rules[k];
		rc = cfg_policy_del(a->h, k, a->err);
		if (rc)
			return item_failed(a, &p->loc, rc);
		rc = push_undo(a, &u);
		if (rc)
			return rc;
	}
	running_remove(r, (size_t)k);
	return 0;
}

static int apply_rules(struct applier *a)
{
	struct running r;
	size_t i, n = a->doc->npolicies;
	int rc;

	if (!n)
		return 0;
	rc = read_rule_list(a->h, &r.rules, &r.n, a->err);
	if (rc)
		return rc;
	for (i = 0; i < n && !rc; i++)
		rc = a->del ? del_rule(a, &r, n - 1 - i) : add_rule(a, &r, i);
	free(r.rules);
	return rc;
}

/* --- show and write ---------------------------------------------------------------- */

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

	cfg_policy_init(&pol);
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

static int export_rules(struct printer *p, struct cfg_handle *h)
{
	return emit_rules(p, h, -1);
}

static void write_rules(struct yemit *w, const struct cfg_doc *doc)
{
	size_t i;

	yemit_key_seq(w, "udsp");
	for (i = 0; i < doc->npolicies; i++)
		emit_rule(w, &doc->policies[i]->d);
	yemit_seq_end(w);
}

static bool has_rules(const struct cfg_doc *doc)
{
	return doc->npolicies;
}

const struct cfg_section cfg_sec_udsp = {
	.keys = udsp_top,
	.last = true,
	.parse = parse_rules,
	.check = check_repeated_rules,
	.apply = apply_rules,
	.read = read_rules,
	.has = has_rules,
	.write = write_rules,
	.export = export_rules,
};
