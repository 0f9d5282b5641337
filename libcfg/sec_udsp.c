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
 * peers and routes they match, many to a request (see apply below); a rule
 * to delete is found by what it matches, and an undo puts a rule back at
 * the idx it had (import --del) or every rule back as it was (import).
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

		for (j = lnet_udsp_desc_hash(&a->d) & (size - 1); slots[j];
		     j = (j + 1) & (size - 1)) {
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

struct rule_list {
	struct cfg_policy *rules;
	size_t n;
};

static int append_rule(void *arg, struct cfg_policy *p)
{
	struct rule_list *l = arg;

	if (cfg_list_append(&l->rules, l->n, SIZE_MAX, p, sizeof(*p)))
		return -ENOMEM;
	l->n++;
	return 0;
}

static int read_rule_list(struct cfg_handle *h, struct cfg_policy **out, size_t *n,
			  struct cfg_err *err)
{
	struct rule_list l = { NULL, 0 };
	int rc = cfg_policy_each(h, 0, append_rule, &l);

	if (rc) {
		free(l.rules);
		if (rc == -ENOMEM)
			return cfg_fail(err, rc, NULL, "out of memory reading the rules");
		return cfg_fail(err, rc, NULL, "cannot read rule %zu from %s: %s",
				l.n, cfg_target(h), strerror(-rc));
	}
	*out = l.rules;
	*n = l.n;
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
 *
 * An import sends its rules many to a request (cfg_policy_batch), the
 * core re-flattening once at the end, and undoes them all at once: the
 * rules as they were are read first, and on a failure every rule goes and
 * those come back, in their order (the flattened values are a function of
 * the rules, so they come back too). import --del deletes rule by rule.
 */

/* A running rule: what it is now, where, and its hash chain. */
struct run_rule {
	const struct cfg_policy *p;	/* its d.idx is not read: pos is */
	size_t pos;
	u32 hash;			/* lnet_udsp_desc_hash() */
	struct run_rule *next;
};

/* The running rules, kept in step with what this import does to them. */
struct running {
	struct cfg_policy *saved;	/* as read; @at points into it */
	size_t nsaved;
	struct run_rule **at;		/* n of them, in idx order */
	size_t n;
	struct run_rule *nodes;		/* room for every rule there can be */
	size_t nnodes;
	struct run_rule **hash;
	size_t hsize;			/* a power of two */
};

static void run_link(struct running *r, struct run_rule *x)
{
	struct run_rule **head = &r->hash[x->hash & (r->hsize - 1)];

	x->next = *head;
	*head = x;
}

static void run_unlink(struct running *r, struct run_rule *x)
{
	struct run_rule **pp = &r->hash[x->hash & (r->hsize - 1)];

	while (*pp != x)
		pp = &(*pp)->next;
	*pp = x->next;
}

static void run_renumber(struct running *r, size_t from)
{
	for (; from < r->n; from++)
		r->at[from]->pos = from;
}

/* @x at @pos (room: nnodes). */
static void run_place(struct running *r, struct run_rule *x, size_t pos)
{
	memmove(&r->at[pos + 1], &r->at[pos], (r->n - pos) * sizeof(r->at[0]));
	r->at[pos] = x;
	r->n++;
	run_renumber(r, pos);
}

static void run_unplace(struct running *r, struct run_rule *x)
{
	memmove(&r->at[x->pos], &r->at[x->pos + 1], (r->n - x->pos - 1) * sizeof(r->at[0]));
	r->n--;
	run_renumber(r, x->pos);
}

/* The running rules as read, with room for @more added by the import. */
static int running_init(struct running *r, struct cfg_handle *h, size_t more,
			struct cfg_err *err)
{
	size_t i;
	int rc;

	memset(r, 0, sizeof(*r));
	rc = read_rule_list(h, &r->saved, &r->nsaved, err);
	if (rc)
		return rc;
	r->nnodes = r->nsaved + more;
	for (r->hsize = 16; r->hsize < 2 * r->nnodes; r->hsize *= 2)
		;
	r->at = calloc(r->nnodes + 1, sizeof(*r->at));
	r->nodes = calloc(r->nnodes + 1, sizeof(*r->nodes));
	r->hash = calloc(r->hsize, sizeof(*r->hash));
	if (!r->at || !r->nodes || !r->hash)
		return cfg_fail(err, -ENOMEM, NULL, "out of memory reading the rules");
	for (i = 0; i < r->nsaved; i++) {
		struct run_rule *x = &r->nodes[i];

		x->p = &r->saved[i];
		x->pos = i;
		x->hash = lnet_udsp_desc_hash(&x->p->d);
		r->at[i] = x;
		run_link(r, x);
	}
	r->n = r->nsaved;
	return 0;
}

static void running_fini(struct running *r)
{
	free(r->saved);
	free(r->at);
	free(r->nodes);
	free(r->hash);
}

static struct run_rule *find_rule(const struct running *r, const struct lnet_udsp_desc *d)
{
	u32 h = lnet_udsp_desc_hash(d);
	struct run_rule *x;

	for (x = r->hash[h & (r->hsize - 1)]; x; x = x->next)
		if (x->hash == h && lnet_udsp_desc_same_match(&x->p->d, d))
			return x;
	return NULL;
}

/* Where a rule asked for at @idx lands among @n rules (as the core places it). */
static size_t landing(s32 idx, size_t n)
{
	return idx >= 0 && (size_t)idx < n ? (size_t)idx : n;
}

/* The rules as they were, back: every rule goes, the saved ones come back. */
static int undo_rules_restore(struct applier *a, const struct undo *u, struct cfg_err *e)
{
	const struct cfg_policy *saved = u->data;
	struct cfg_policy_batch b;
	struct cfg_policy rule;
	size_t i;
	int rc;

	if (!u->whole)
		return 0;	/* no request went through: nothing to undo */
	rc = cfg_policy_del(a->h, -1, e);
	if (!rc)
		rc = cfg_policy_batch_init(&b, a->h);
	if (rc)
		return rc == -ENOMEM ? cfg_fail(e, rc, NULL, "out of memory") : rc;
	for (i = 0; i < u->ndata && !rc; i++) {
		rule = saved[i];
		rule.d.idx = -1;
		rc = cfg_policy_batch_add(&b, &rule, e);
	}
	if (!rc)
		rc = cfg_policy_batch_end(&b, e);
	cfg_policy_batch_fini(&b);
	return rc;
}

static void release_saved(struct undo *u)
{
	free(u->data);
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

/* What an import of rules works with: the running rules and the requests. */
struct rules_apply {
	struct applier *a;
	struct running r;
	struct cfg_policy_batch b;	/* unused when planning or deleting */
	bool restore;			/* its undo is on a's stack (the top) */
};

/* Before the first change: how to undo them all (it takes r.saved). */
static int restore_first(struct rules_apply *ra)
{
	struct undo u = { .undo = undo_rules_restore, .release = release_saved };
	int rc;

	if (ra->restore)
		return 0;
	u.data = ra->r.saved;
	u.ndata = ra->r.nsaved;
	/* the undo owns it now (released if the push fails); r.at points into it */
	ra->r.saved = NULL;
	rc = push_undo(ra->a, &u);
	if (!rc)
		ra->restore = true;
	return rc;
}

/* A request went through (even if the last one failed): undo restores. */
static void restore_needed(struct rules_apply *ra)
{
	if (ra->restore)
		ra->a->undo[ra->a->nundo - 1].whole = ra->b.applied;
}

static int queue_change(struct rules_apply *ra, const struct cfg_policy *rule)
{
	int rc = restore_first(ra);

	if (rc)
		return rc;
	rc = cfg_policy_batch_add(&ra->b, rule, ra->a->err);
	restore_needed(ra);
	return rc;
}

static int queue_del(struct rules_apply *ra, size_t pos, const struct cfg_loc *loc)
{
	int rc = restore_first(ra);

	if (rc)
		return rc;
	rc = cfg_policy_batch_del(&ra->b, (s32)pos, loc, ra->a->err);
	restore_needed(ra);
	return rc;
}

/* The batch of an import, opened (nothing to open for a plan). */
static int batch_open(struct rules_apply *ra)
{
	int rc;

	if (ra->a->plan)
		return 0;
	rc = cfg_policy_batch_init(&ra->b, ra->a->h);
	return rc ? cfg_fail(ra->a->err, rc, NULL, "out of memory") : 0;
}

/* The last request of the batch (after @rc, the changes' outcome), and its end. */
static int batch_close(struct rules_apply *ra, int rc)
{
	if (ra->a->plan)
		return rc;
	if (!rc) {
		rc = cfg_policy_batch_end(&ra->b, ra->a->err);
		restore_needed(ra);
	}
	cfg_policy_batch_fini(&ra->b);
	return rc;
}

/* A new rule: added where the file says (or appended). */
static int add_new_rule(struct rules_apply *ra, const struct cfg_policy *rule,
			struct run_rule *x)
{
	struct running *r = &ra->r;
	char text[3 * LNET_EXPR_STR_MAX + 64];
	size_t at = landing(rule->d.idx, r->n);
	int rc;

	if (ra->a->plan) {
		plan_line(ra->a, '+', "udsp idx %zu: %s", at,
			  rule_text(&rule->d, text, sizeof(text)));
	} else {
		rc = queue_change(ra, rule);
		if (rc)
			return rc;
	}
	x->p = rule;
	x->hash = lnet_udsp_desc_hash(&rule->d);
	run_link(r, x);
	run_place(r, x, at);
	return 0;
}

/* An existing rule @x: moved and/or given its new priority, if either differs. */
static int change_rule(struct rules_apply *ra, struct run_rule *x, const struct cfg_policy *rule)
{
	struct running *r = &ra->r;
	size_t k = x->pos, to = k;
	char diff[128];
	int rc;

	if (!rule_differs(x->p, k, rule, r->n, diff, sizeof(diff)))
		return 0;
	if (rule->d.idx >= 0)
		to = landing(rule->d.idx, r->n - 1);
	if (ra->a->plan) {
		plan_line(ra->a, '~', "udsp idx %zu: %s", k, diff);
	} else {
		rc = queue_change(ra, rule);
		if (rc)
			return rc;
	}
	x->p = rule;
	run_unplace(r, x);
	run_place(r, x, to);
	return 0;
}

static int add_rules(struct rules_apply *ra)
{
	const struct cfg_doc *doc = ra->a->doc;
	size_t i, used = ra->r.nsaved;
	struct run_rule *x;
	int rc = batch_open(ra);

	if (rc)
		return rc;
	for (i = 0; i < doc->npolicies && !rc; i++) {
		const struct cfg_policy *rule = doc->policies[i];

		x = find_rule(&ra->r, &rule->d);
		rc = x ? change_rule(ra, x, rule) : add_new_rule(ra, rule, &ra->r.nodes[used++]);
	}
	return batch_close(ra, rc);
}

/* A rule that is not there is nothing to delete. */
static int del_rule(struct rules_apply *ra, size_t i)
{
	const struct cfg_policy *p = ra->a->doc->policies[i];
	struct run_rule *x = find_rule(&ra->r, &p->d);
	int rc;

	if (!x)
		return 0;
	if (ra->a->plan) {
		plan_line(ra->a, '-', "udsp idx %zu", x->pos);
	} else {
		rc = queue_del(ra, x->pos, &p->loc);
		if (rc)
			return rc;
	}
	run_unlink(&ra->r, x);
	run_unplace(&ra->r, x);
	return 0;
}

/*
 * import --del: the file's rules that run go, last first, in batches that
 * re-flatten once at the end; a failure restores every rule as it was.
 */
static int del_rules(struct rules_apply *ra)
{
	size_t i, n = ra->a->doc->npolicies;
	int rc = batch_open(ra);

	if (rc)
		return rc;
	for (i = 0; i < n && !rc; i++)
		rc = del_rule(ra, n - 1 - i);
	return batch_close(ra, rc);
}

static int apply_rules(struct applier *a)
{
	struct rules_apply ra = { .a = a };
	size_t n = a->doc->npolicies;
	int rc;

	if (!n)
		return 0;
	rc = running_init(&ra.r, a->h, a->del ? 0 : n, a->err);
	if (!rc)
		rc = a->del ? del_rules(&ra) : add_rules(&ra);
	running_fini(&ra.r);
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

void emit_rule_fields(struct yemit *w, const struct lnet_udsp_desc *d)
{
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
}

static void emit_rule(struct yemit *w, const struct lnet_udsp_desc *d)
{
	yemit_map_start(w);
	emit_rule_fields(w, d);
	yemit_map_end(w);
}

struct emit_state {
	struct printer *p;
	u32 n;
};

static int emit_one(void *arg, struct cfg_policy *pol)
{
	struct emit_state *st = arg;

	if (!st->n++) {
		pr_start(st->p);
		yemit_key_seq(&st->p->w, "udsp");
	}
	emit_rule(&st->p->w, &pol->d);
	return 0;
}

/* Rule @idx, or all of them (idx < 0: fetched many to a request). */
static int emit_rules(struct printer *p, struct cfg_handle *h, s32 idx)
{
	struct emit_state st = { .p = p };
	struct cfg_policy pol;
	int rc;

	if (idx < 0) {
		rc = cfg_policy_each(h, 0, emit_one, &st);
	} else {
		cfg_policy_init(&pol);
		rc = cfg_policy_get(h, (u32)idx, &pol);
		if (!rc)
			emit_one(&st, &pol);
	}
	if (st.n)
		yemit_seq_end(&p->w);
	if (!rc)
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
