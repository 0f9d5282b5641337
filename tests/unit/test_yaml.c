// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of libcfg's YAML side: the node tree (locations, duplicate
 * keys, limits, libyaml errors), cfg_doc_parse() on good documents and on
 * every kind of mistake (exact LINE:COL and message), the writer's quoting,
 * and, through an in-process transport that hands each request straight to
 * an LNet core instance with fake interfaces, import (apply, rollback,
 * --del), the show printers and export, byte for byte.
 *
 * The in-process transport: this file defines every function of
 * libcfg/transport.c (cfg_open, cfg_close, cfg_target, cfg_ioctl,
 * cfg_unreachable), so the linker never takes transport.o from libcfg.a
 * and the operations of libcfg run against struct lnet directly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../kernel/core/lnet.h"
#include "../../kernel/udsp/udsp.h"
#include "../../libcfg/cfg.h"
#include "../../libcfg/ytree.h"
#include "../../libcfg/yemit.h"
#include "fake_if.h"

/* --- in-process transport -------------------------------------------------- */

struct cfg_handle {
	struct lnet *ln;
};

static struct lnet *next_ln;	/* what the next cfg_open() talks to */

int cfg_open(const char *socket, struct cfg_handle **h)
{
	*h = calloc(1, sizeof(**h));
	if (!*h)
		return -ENOMEM;
	(*h)->ln = next_ln;
	return 0;
}

void cfg_close(struct cfg_handle *h)
{
	free(h);
}

const char *cfg_target(const struct cfg_handle *h)
{
	return "in-process";
}

bool cfg_unreachable(const struct cfg_handle *h)
{
	return false;
}

/* Fault injection: the @fail_nth-th call of @fail_cmd from now returns @fail_rc. */
static unsigned int fail_cmd, fail_nth;
static int fail_rc;
/* Another client: @race_fn runs once right before the next call of @race_cmd. */
static unsigned int race_cmd;
static void (*race_fn)(struct lnet *ln);

static void fail_at(unsigned int cmd, unsigned int nth, int rc)
{
	fail_cmd = cmd;
	fail_nth = nth;
	fail_rc = rc;
}

int cfg_ioctl(struct cfg_handle *h, unsigned int cmd, void *buf)
{
	struct lnet_ioc_hdr *hdr = buf;

	void (*race)(struct lnet *ln) = race_fn;

	if (fail_nth && cmd == fail_cmd && !--fail_nth)
		return fail_rc;
	if (race && cmd == race_cmd) {
		race_fn = NULL;
		race(h->ln);
	}
	hdr->ioc_version = LNET_IOC_VERSION;
	return lnet_ioctl(h->ln, cmd, buf, hdr->ioc_len, true);
}

static const struct fake_if fake_ifs[] = {
	FAKE_IF4("eth0", 10, 0, 0, 1),
	FAKE_IF4("eth1", 10, 0, 1, 1),
	FAKE_IF4("eth2", 10, 0, 2, 1),
};

static int fake_lookup(const char *ifname, struct os_ifaddr *out)
{
	return fake_if_lookup(fake_ifs, FAKE_IF_COUNT(fake_ifs), ifname, out);
}

/* The latencies in statistics of an NI or peer NI that sent nothing. */
#define IDLE_LATENCY \
	"            put_egress_samples: 0\n" \
	"            put_egress_min_nsec: 0\n" \
	"            put_egress_max_nsec: 0\n" \
	"            put_egress_avg_nsec: 0\n" \
	"            get_rtt_samples: 0\n" \
	"            get_rtt_min_nsec: 0\n" \
	"            get_rtt_max_nsec: 0\n" \
	"            get_rtt_avg_nsec: 0\n" \
	"            put_ack_samples: 0\n" \
	"            put_ack_min_nsec: 0\n" \
	"            put_ack_max_nsec: 0\n" \
	"            put_ack_avg_nsec: 0\n"

/*
 * -v 4 counters of an NI or a peer NI that has moved no message: sent,
 * received and dropped, each by message type.
 */
#define IDLE_MSG_STATS \
	"        sent_stats:\n" \
	"            put: 0\n" \
	"            get: 0\n" \
	"            reply: 0\n" \
	"            ack: 0\n" \
	"            hello: 0\n" \
	"        received_stats:\n" \
	"            put: 0\n" \
	"            get: 0\n" \
	"            reply: 0\n" \
	"            ack: 0\n" \
	"            hello: 0\n" \
	"        dropped_stats:\n" \
	"            put: 0\n" \
	"            get: 0\n" \
	"            reply: 0\n" \
	"            ack: 0\n" \
	"            hello: 0\n"

/* A peer NI's -v 4 lines after its udsp info: up, 8 credits, no traffic. */
#define IDLE_PEER_NI_TAIL \
	"        state: up\n" \
	"        max_ni_tx_credits: 8\n" \
	"        available_tx_credits: 8\n" \
	"        min_tx_credits: 8\n" \
	"        tx_q_num_of_buf: 0\n" \
	"        available_rtr_credits: 8\n" \
	"        min_rtr_credits: 8\n" \
	"        refcount: 1\n" \
	"        statistics:\n" \
	"            send_count: 0\n" \
	"            recv_count: 0\n" \
	"            drop_count: 0\n" \
	IDLE_LATENCY \
	IDLE_MSG_STATS \
	"        health stats:\n" \
	"            health value: 1000\n" \
	"            dropped: 0\n" \
	"            timeout: 0\n" \
	"            error: 0\n" \
	"            network timeout: 0\n" \
	"            ping_count: 0\n" \
	"            next_ping: 0\n"

struct inst {
	struct lnet ln;
	struct cfg_handle *h;
};

static struct inst *inst_new(void)
{
	struct inst *in = calloc(1, sizeof(*in));
	struct cfg_err err;

	assert_non_null(in);
	lnet_init(&in->ln);
	assert_int_equal(lnet_builtin_register(&in->ln), 0);
	in->ln.ln_if_lookup = fake_lookup;
	next_ln = &in->ln;
	assert_int_equal(cfg_open(NULL, &in->h), 0);
	assert_int_equal(cfg_lnet_configure(in->h, &err), 0);
	return in;
}

static void inst_free(struct inst *in)
{
	cfg_close(in->h);
	lnet_fini(&in->ln);
	free(in);
}

static int setup(void **state)
{
	*state = inst_new();
	return 0;
}

static int teardown(void **state)
{
	inst_free(*state);
	return 0;
}

/* --- helpers ------------------------------------------------------------------ */

static void parse_ok(const char *text, struct cfg_doc **doc)
{
	struct cfg_err err = { 0 };
	int rc = cfg_doc_parse(text, strlen(text), doc, &err);

	if (rc)
		fail_msg("parse failed: %u:%u: %s", err.loc.line, err.loc.col, err.msg);
}

static void parse_err(const char *text, int rc, unsigned int line, unsigned int col,
		      const char *msg)
{
	struct cfg_err err = { 0 };
	struct cfg_doc stale, *doc = &stale;	/* must come back NULL */

	assert_int_equal(cfg_doc_parse(text, strlen(text), &doc, &err), rc);
	if (strcmp(err.msg, msg) || err.loc.line != line || err.loc.col != col)
		fail_msg("for:\n%s\ngot %u:%u: %s\nwant %u:%u: %s", text, err.loc.line,
			 err.loc.col, err.msg, line, col, msg);
	assert_null(doc);
}

static struct lnet_nid nid(const char *s)
{
	struct lnet_nid n;

	assert_int_equal(lnet_nid_parse(s, &n, NULL, 0), 0);
	return n;
}

static void assert_expr(const struct lnet_nidexpr *e, const char *want)
{
	char buf[LNET_EXPR_STR_MAX];

	if (!want) {
		assert_false(lnet_nidexpr_present(e));
		return;
	}
	assert_true(lnet_nidexpr_print(e, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, want);
}

static void assert_rule(const struct cfg_policy *p, s32 idx, const char *src,
			const char *dst, const char *rte, u32 action, u32 prio)
{
	assert_int_equal(p->d.idx, idx);
	assert_expr(&p->d.src, src);
	assert_expr(&p->d.dst, dst);
	assert_expr(&p->d.rte, rte);
	assert_int_equal(p->d.action, action);
	assert_int_equal(p->d.priority, prio);
}

/* What a printer writes, as a malloc'ed string (the caller frees). */
typedef int (*printer_fn)(struct inst *in, FILE *out, struct cfg_err *err);

static char *capture(struct inst *in, printer_fn fn, int want_rc, const char *want_msg)
{
	struct cfg_err err = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	assert_non_null(f);
	rc = fn(in, f, &err);
	assert_int_equal(fclose(f), 0);
	if (rc != want_rc)
		fail_msg("printer returned %d (%s), expected %d", rc, err.msg, want_rc);
	if (want_msg)
		assert_string_equal(err.msg, want_msg);
	return buf;
}

static void assert_prints(struct inst *in, printer_fn fn, const char *want)
{
	char *got = capture(in, fn, 0, NULL);

	assert_string_equal(got, want);
	free(got);
}

static int print_backup(struct inst *in, FILE *out, struct cfg_err *err)
{
	return cfg_export(in->h, true, out, err);
}

static int print_nets(struct inst *in, FILE *out, struct cfg_err *err)
{
	return cfg_show_nets(in->h, 0, 0, out, err);
}

static int print_nets_v4(struct inst *in, FILE *out, struct cfg_err *err)
{
	return cfg_show_nets(in->h, LNET_NET_ID(LNET_LND_TCP, 1), 4, out, err);
}

/* What an import that fails must leave as it was: also every flattened value. */
static int print_state(struct inst *in, FILE *out, struct cfg_err *err)
{
	int rc = cfg_export(in->h, true, out, err);

	if (!rc)
		rc = cfg_show_nets(in->h, 0, 4, out, err);
	if (!rc)
		rc = cfg_show_peers(in->h, NULL, 4, out, err);
	return rc;
}

static int print_nets_tcp9(struct inst *in, FILE *out, struct cfg_err *err)
{
	return cfg_show_nets(in->h, LNET_NET_ID(LNET_LND_TCP, 9), 0, out, err);
}

static int print_peers(struct inst *in, FILE *out, struct cfg_err *err)
{
	return cfg_show_peers(in->h, NULL, 0, out, err);
}

static int print_peer_v4(struct inst *in, FILE *out, struct cfg_err *err)
{
	struct lnet_nid n = nid("10.0.1.2@tcp1");

	return cfg_show_peers(in->h, &n, 4, out, err);
}

static int print_peer_unknown(struct inst *in, FILE *out, struct cfg_err *err)
{
	struct lnet_nid n = nid("10.9.9.9@tcp");

	return cfg_show_peers(in->h, &n, 0, out, err);
}

static int print_peer_list(struct inst *in, FILE *out, struct cfg_err *err)
{
	return cfg_show_peer_list(in->h, out, err);
}

static int print_rules(struct inst *in, FILE *out, struct cfg_err *err)
{
	return cfg_show_policies(in->h, -1, out, err);
}

static int print_rule3(struct inst *in, FILE *out, struct cfg_err *err)
{
	return cfg_show_policies(in->h, 3, out, err);
}

static int print_rule9(struct inst *in, FILE *out, struct cfg_err *err)
{
	return cfg_show_policies(in->h, 9, out, err);
}

static void import(struct inst *in, const char *text, bool del)
{
	struct cfg_err err = { 0 };
	struct cfg_doc *doc;
	int rc;

	parse_ok(text, &doc);
	rc = cfg_doc_apply(in->h, doc, del, &err);
	cfg_doc_free(doc);
	if (rc)
		fail_msg("apply failed: %d %u:%u: %s", rc, err.loc.line, err.loc.col, err.msg);
}

static void import_fails(struct inst *in, const char *text, bool del, int want_rc,
			 unsigned int line, unsigned int col, const char *msg)
{
	struct cfg_err err = { 0 };
	struct cfg_doc *doc;

	parse_ok(text, &doc);
	assert_int_equal(cfg_doc_apply(in->h, doc, del, &err), want_rc);
	cfg_doc_free(doc);
	assert_string_equal(err.msg, msg);
	assert_int_equal(err.loc.line, line);
	assert_int_equal(err.loc.col, col);
}

/* --- ytree ------------------------------------------------------------------------ */

static void t_ytree_locations(void **state)
{
	const char *text = "a: 1\nb:\n  - x\n  - {c: 'd'}\n";
	struct cfg_err err = { 0 };
	const struct ynode *b, *x, *m;
	struct ynode *root;

	assert_int_equal(ytree_load(text, strlen(text), &root, &err), 0);
	assert_int_equal(root->type, YNODE_MAP);
	assert_int_equal(root->nchildren, 2);
	assert_string_equal(root->first->str, "a");
	assert_int_equal(root->first->loc.line, 1);
	assert_int_equal(root->first->loc.col, 1);
	assert_string_equal(ytree_get(root, "a")->str, "1");
	assert_int_equal(ytree_get(root, "a")->loc.col, 4);
	assert_true(ytree_get(root, "a")->plain);
	assert_int_equal(root->first->next->loc.line, 2);
	b = ytree_get(root, "b");
	assert_int_equal(b->type, YNODE_SEQ);
	assert_int_equal(b->nchildren, 2);
	assert_int_equal(b->loc.line, 3);
	assert_int_equal(b->loc.col, 3);
	x = b->first;
	assert_string_equal(x->str, "x");
	assert_int_equal(x->loc.line, 3);
	assert_int_equal(x->loc.col, 5);
	m = x->next;
	assert_int_equal(m->type, YNODE_MAP);
	assert_int_equal(m->loc.line, 4);
	assert_int_equal(m->loc.col, 5);
	assert_string_equal(ytree_get(m, "c")->str, "d");
	assert_false(ytree_get(m, "c")->plain);
	assert_int_equal(ytree_get(m, "c")->loc.col, 9);
	assert_null(ytree_get(root, "z"));
	assert_null(ytree_get(b, "x"));
	ytree_free(root);
}

static void t_ytree_null_and_empty(void **state)
{
	const char *text = "a:\nb: ~\nc: ''\nd: null\n";
	struct cfg_err err = { 0 };
	struct ynode *root;

	assert_int_equal(ytree_load(text, strlen(text), &root, &err), 0);
	assert_true(ytree_is_null(ytree_get(root, "a")));
	assert_true(ytree_is_null(ytree_get(root, "b")));
	assert_false(ytree_is_null(ytree_get(root, "c")));
	assert_true(ytree_is_null(ytree_get(root, "d")));
	ytree_free(root);
	assert_int_equal(ytree_load("", 0, &root, &err), 0);
	assert_null(root);
	assert_int_equal(ytree_load("# only a comment\n", 17, &root, &err), 0);
	assert_null(root);
}

static void ytree_err(const char *text, size_t len, unsigned int line, unsigned int col,
		      const char *msg)
{
	struct cfg_err err = { 0 };
	struct ynode *root = (struct ynode *)&err;

	assert_int_equal(ytree_load(text, len, &root, &err), -EINVAL);
	assert_null(root);
	assert_string_equal(err.msg, msg);
	assert_int_equal(err.loc.line, line);
	assert_int_equal(err.loc.col, col);
}

static void t_ytree_errors(void **state)
{
	ytree_err("a: 1\nb: 2\na: 3\n", 15, 3, 1, "duplicate key 'a' (first at 1:1)");
	ytree_err("x:\n  - {k: 1, k: 2}\n", 20, 2, 12, "duplicate key 'k' (first at 2:6)");
	ytree_err("a: b: c\n", 8, 1, 5, "mapping values are not allowed in this context");
	ytree_err("a: [1, 2\n", 9, 2, 1,
		  "did not find expected ',' or ']' while parsing a flow sequence");
	ytree_err("\t- x\n", 5, 1, 1,
		  "found character that cannot start any token while scanning for the next token");
	ytree_err("a: &x 1\nb: *x\n", 14, 2, 4, "aliases (*name) are not supported");
	ytree_err("a: 1\n---\nb: 2\n", 14, 2, 1, "only one YAML document is allowed");
	ytree_err("a: \"x\\0y\"\n", 10, 1, 4, "a NUL character is not allowed in a value");
	ytree_err("? [a]\n: 1\n", 10, 1, 3, "a mapping key must be a scalar, not a sequence");
	ytree_err("a: \x01\n", 5, 1, 4, "control characters are not allowed");
}

static void t_ytree_limits(void **state)
{
	char deep[2 * YTREE_MAX_DEPTH + 4];
	struct cfg_err err = { 0 };
	struct ynode *root;
	char *big;
	int i;

	/* 32 nested sequences load, 33 do not. */
	for (i = 0; i < YTREE_MAX_DEPTH; i++)
		deep[i] = '[';
	for (i = 0; i < YTREE_MAX_DEPTH; i++)
		deep[YTREE_MAX_DEPTH + i] = ']';
	assert_int_equal(ytree_load(deep, 2 * YTREE_MAX_DEPTH, &root, &err), 0);
	ytree_free(root);
	memmove(deep + 1, deep, 2 * YTREE_MAX_DEPTH);
	deep[2 * YTREE_MAX_DEPTH + 1] = ']';
	ytree_err(deep, 2 * YTREE_MAX_DEPTH + 2, 1, 33, "nesting deeper than 32 levels");

	big = malloc(YTREE_MAX_SIZE + 1);
	assert_non_null(big);
	memset(big, ' ', YTREE_MAX_SIZE + 1);
	ytree_err(big, YTREE_MAX_SIZE + 1, 1, 1,
		  "document is 16777217 bytes, more than the 16777216 allowed");
	free(big);
}

/* --- cfg_doc_parse: good documents -------------------------------------------------- */

static const char full_doc[] =
	"net:\n"
	"    - net type: tcp\n"
	"      tunables:\n"
	"          peer_timeout: 100\n"
	"      local NI(s):\n"
	"        - interfaces:\n"
	"              0: eth0\n"
	"              1: eth1\n"
	"          tunables:\n"
	"              peer_credits: 16\n"
	"              peer_buffer_credits: 0\n"
	"              credits: 512\n"
	"        - interfaces: [eth2]\n"
	"    - net type: lo\n"
	"      local NI(s):\n"
	"        - nid: 0@lo\n"
	"    - net type: o2ib3\n"
	"peer:\n"
	"    - primary nid: 10.0.0.2@tcp\n"
	"      Multi-Rail: true\n"
	"      peer ni:\n"
	"        - nid: 10.0.0.2@tcp\n"
	"        - nid: 10.0.1.2@tcp1\n"
	"    - primary nid: 10.0.0.3@tcp\n"
	"      Multi-Rail: False\n"
	"      Lock Primary NID: yes\n"
	"    - peer ni:\n"
	"        - nid: 5@gni\n"
	"udsp:\n"
	"    - idx: 0\n"
	"      src: tcp\n"
	"      action:\n"
	"          priority: 1\n"
	"    - src: 10.0.0.1@tcp\n"
	"      priority: 0\n"
	"    - dst: tcp1\n"
	"    - idx: 2\n"
	"      dst: 10.0.0.[2-3]@tcp\n"
	"      action: {priority: 4294967294}\n"
	"    - src: 10.0.0.1@tcp\n"
	"      dst: 10.0.0.2@tcp\n"
	"    - dst: '[1-3]@gni'\n"
	"      rte: 10.0.1.[1-9/2]@tcp1\n";

static void t_parse_full(void **state)
{
	struct cfg_doc *doc;
	const struct cfg_net *n;
	const struct cfg_peer *p;
	struct lnet_nid a = nid("10.0.0.2@tcp"), b = nid("10.0.1.2@tcp1");

	parse_ok(full_doc, &doc);
	assert_int_equal(doc->nnets, 3);
	n = doc->nets[0];
	assert_int_equal(n->net_id, LNET_NET_ID(LNET_LND_TCP, 0));
	assert_int_equal(n->nifs, 2);
	assert_string_equal(n->ifnames[0], "eth0");
	assert_string_equal(n->ifnames[1], "eth1");
	assert_int_equal(n->tun.peer_timeout, 100);	/* from the net */
	assert_int_equal(n->tun.peer_credits, 16);
	assert_int_equal(n->tun.peer_buffer_credits, 0);
	assert_int_equal(n->tun.credits, 512);
	assert_int_equal(n->loc.line, 6);
	assert_int_equal(n->loc.col, 11);
	n = doc->nets[1];
	assert_int_equal(n->nifs, 1);
	assert_string_equal(n->ifnames[0], "eth2");
	assert_int_equal(n->tun.peer_timeout, 100);
	assert_int_equal(n->tun.peer_credits, -1);
	assert_int_equal(n->tun.credits, -1);
	n = doc->nets[2];	/* lo skipped; a net without NIs is the whole net */
	assert_int_equal(n->net_id, LNET_NET_ID(LNET_LND_O2IB, 3));
	assert_int_equal(n->nifs, 0);
	assert_int_equal(n->loc.line, 17);

	assert_int_equal(doc->npeers, 3);
	p = doc->peers[0];
	assert_true(lnet_nid_equal(&p->prim, &a));
	assert_int_equal(p->flags, 0);
	assert_int_equal(p->nnids, 2);
	assert_true(lnet_nid_equal(&p->nids[0], &a));
	assert_true(lnet_nid_equal(&p->nids[1], &b));
	assert_int_equal(p->loc.line, 19);
	assert_int_equal(p->loc.col, 7);
	p = doc->peers[1];
	assert_int_equal(p->flags, LNET_PEER_F_NON_MR | LNET_PEER_F_LOCK_PRIM);
	assert_int_equal(p->nnids, 0);
	p = doc->peers[2];	/* no primary nid: the first peer ni */
	a = nid("5@gni");
	assert_true(lnet_nid_equal(&p->prim, &a));
	assert_int_equal(p->nnids, 1);

	assert_int_equal(doc->npolicies, 6);
	assert_rule(doc->policies[0], 0, "tcp", NULL, NULL, LNET_UDSP_ACTION_PRIORITY, 1);
	assert_rule(doc->policies[1], -1, "10.0.0.1@tcp", NULL, NULL,
		    LNET_UDSP_ACTION_PRIORITY, 0);
	assert_rule(doc->policies[2], -1, NULL, "tcp1", NULL, LNET_UDSP_ACTION_PRIORITY, 0);
	assert_rule(doc->policies[3], 2, NULL, "10.0.0.[2-3]@tcp", NULL,
		    LNET_UDSP_ACTION_PRIORITY, 4294967294U);
	assert_rule(doc->policies[4], -1, "10.0.0.1@tcp", "10.0.0.2@tcp", NULL,
		    LNET_UDSP_ACTION_PREFERRED_LIST, 0);
	assert_rule(doc->policies[5], -1, NULL, "[1-3]@gni", "10.0.1.[1-9/2]@tcp1",
		    LNET_UDSP_ACTION_PREFERRED_LIST, 0);
	assert_int_equal(doc->policies[5]->loc.line, 42);
	assert_int_equal(doc->policies[5]->loc.col, 7);
	cfg_doc_free(doc);
	cfg_doc_free(NULL);	/* does nothing */
}

/* What a full (not --backup) export holds imports back: read-only keys ignored. */
static void t_parse_show_keys(void **state)
{
	static const char text[] =
		"net:\n"
		"-   net type: lo\n"
		"    local NI(s):\n"
		"    -   nid: 0@lo\n"
		"        status: up\n"
		"-   net type: tcp\n"
		"    local NI(s):\n"
		"    -   nid: 10.0.0.1@tcp\n"
		"        status: up\n"
		"        interfaces:\n"
		"            0: eth0\n"
		"        statistics: {send_count: 0, recv_count: 0, drop_count: 0}\n"
		"        udsp info: {net priority: -1, nid priority: -1}\n"
		"        health stats: {health value: 1000}\n"
		"        tunables: {peer_timeout: 180, peer_credits: 8,"
		" peer_buffer_credits: 0, credits: 256}\n"
		"peer:\n"
		"-   primary nid: 10.0.0.2@tcp\n"
		"    Multi-Rail: true\n"
		"    peer ni:\n"
		"    -   nid: 10.0.0.2@tcp\n"
		"        udsp info: {net priority: -1, nid priority: 0}\n"
		"        state: up\n"
		"        max_ni_tx_credits: 8\n"
		"        available_tx_credits: 8\n"
		"        statistics: {send_count: 0, recv_count: 0, drop_count: 0}\n"
		"        health stats: {health value: 1000}\n"
		"udsp:\n";
	struct cfg_doc *doc;

	parse_ok(text, &doc);
	assert_int_equal(doc->nnets, 1);
	assert_string_equal(doc->nets[0]->ifnames[0], "eth0");
	assert_int_equal(doc->nets[0]->tun.credits, 256);
	assert_int_equal(doc->npeers, 1);
	assert_int_equal(doc->peers[0]->nnids, 1);
	assert_int_equal(doc->npolicies, 0);
	cfg_doc_free(doc);

	parse_ok("", &doc);
	assert_int_equal(doc->nnets + doc->npeers + doc->npolicies, 0);
	cfg_doc_free(doc);
	parse_ok("net:\npeer: ~\n", &doc);
	assert_int_equal(doc->nnets + doc->npeers + doc->npolicies, 0);
	cfg_doc_free(doc);
}

/* --- cfg_doc_parse: every error, with its place ------------------------------------- */

static void t_parse_errors(void **state)
{
	parse_err("peer:\n    - primary nid: 10.0.0.300@tcp\n", -EINVAL, 2, 20,
		  "invalid primary nid '10.0.0.300@tcp': octet '300' is out of range 0-255");
	parse_err("peer:\n- peer ni:\n  - nid: 1.2.3.4@tcp9x\n", -EINVAL, 3, 10,
		  "invalid nid '1.2.3.4@tcp9x': trailing junk 'x' after net 'tcp9'");
	parse_err("udsp:\n- src: tcp\n  priority: abc\n", -EINVAL, 3, 13,
		  "invalid priority 'abc': expected an integer 0-4294967294");
	parse_err("udsp:\n- src: tcp\n  action:\n    priority: 4294967295\n", -ERANGE, 4, 15,
		  "invalid priority '4294967295': expected an integer 0-4294967294");
	parse_err("udsp:\n- src: tcp\n  priority: -1\n", -EINVAL, 3, 13,
		  "invalid priority '-1': expected an integer 0-4294967294");
	parse_err("udsp:\n- src: tcp\n  priority: \"3\"\n", -EINVAL, 3, 13,
		  "invalid priority '3': expected a number, not a quoted string");
	parse_err("udsp:\n- src: tcp\n  idx: '0'\n", -EINVAL, 3, 8,
		  "invalid idx '0': expected a number, not a quoted string");
	parse_err("net:\n- net type: tcp\n  local NI(s):\n  - interfaces: {0: eth0}\n"
		  "    tunables: {credits: '9'}\n", -EINVAL, 5, 25,
		  "invalid credits '9': expected a number, not a quoted string");
	parse_err("route:\n- net: o2ib\n  gateway: 10.0.0.1@tcp\n  hop: \"2\"\n", -EINVAL, 4, 8,
		  "invalid hop '2': expected a number, not a quoted string");
	parse_err("global:\n  retry_count: '2'\n", -EINVAL, 2, 16,
		  "invalid retry_count '2': expected a number, not a quoted string");
	parse_err("udsp:\n- src: tcp\n  priority: 1\n  action: {priority: 2}\n", -EINVAL, 4, 22,
		  "priority given twice: in the rule and in 'action'");
	parse_err("udsp:\n- src: 10.0.0.[1-300]@tcp\n", -EINVAL, 2, 8,
		  "invalid src '10.0.0.[1-300]@tcp': octet '300' is out of range 0-255");
	parse_err("udsp:\n- idx: x\n  src: tcp\n", -EINVAL, 2, 8,
		  "invalid idx 'x': expected an integer -1-65535");
	parse_err("udsp:\n- src:\n", -EINVAL, 2, 7, "no value given for 'src'");
	parse_err("udsp:\n- rte: tcp\n", -EINVAL, 2, 3,
		  "invalid rule (rte): --rte needs --dst: a router rule is --dst with --rte");
	parse_err("udsp:\n- {}\n", -EINVAL, 2, 3, "a rule needs at least one of src, dst and rte");
	parse_err("udsp:\n- src: tcp\n  action: {prio: 1}\n", -EINVAL, 3, 12,
		  "unknown key 'prio' in action: expected 'priority'");
	parse_err("udsp:\n- src: tcp\n  dst: tcp1\n- dst: tcp1\n  src: tcp\n", -EINVAL, 4, 3,
		  "this rule matches the same NIDs as the rule at 2:3");
	parse_err("nets:\n- net type: tcp\n", -EINVAL, 1, 1,
		  "unknown key 'nets' in the document: expected 'net', 'ip2nets', 'peer', 'udsp', 'route', 'routing', 'buffers', 'global', 'numa'");
	parse_err("net:\n- net type: tcp\n  local NI(s):\n  - interfaces: {0: eth0}\n"
		  "    cpt: 0\n", -EINVAL, 5, 5,
		  "unknown key 'cpt' in a local NI: expected 'interfaces', 'nid', 'tunables', "
		  "'lnd tunables', 'CPT'");
	parse_err("peer:\n- primary nid: 1.2.3.4@tcp\n  multi-rail: true\n", -EINVAL, 3, 3,
		  "unknown key 'multi-rail' in a peer: expected 'primary nid', 'Multi-Rail', "
		  "'Lock Primary NID', 'peer ni'");
	parse_err("net: tcp\n", -EINVAL, 1, 6, "'net' must be a sequence, not a scalar");
	parse_err("- net\n", -EINVAL, 1, 1,
		  "the document must be a mapping of 'net', 'peer' and 'udsp', not a sequence");
	parse_err("udsp:\n- src: [tcp]\n", -EINVAL, 2, 8, "'src' must be a scalar, not a sequence");
	parse_err("net:\n- net type: tcp\n  local NI(s): {interfaces: {0: eth0}}\n", -EINVAL,
		  3, 16, "'local NI(s)' must be a sequence, not a mapping");
	parse_err("net:\n- net type: tcp\n  net type: tcp1\n", -EINVAL, 3, 3,
		  "duplicate key 'net type' (first at 2:3)");
	parse_err("net:\n- net type: tcpx\n", -EINVAL, 2, 13,
		  "invalid net type 'tcpx': unknown LND 'tcpx': expected tcp, o2ib, efa, gni, "
		  "ptlf, kfi or lo");
	parse_err("net:\n- local NI(s):\n  - interfaces: {0: eth0}\n", -EINVAL, 2, 3,
		  "a net needs 'net type'");
	parse_err("net:\n- net type: tcp\n  local NI(s):\n  - tunables: {credits: 8}\n",
		  -EINVAL, 4, 5, "a local NI needs 'interfaces' (e.g. '0: eth0') or its 'nid'");
	parse_err("net:\n- net type: tcp\n  local NI(s):\n  - interfaces: {0: eth0}\n"
		  "    tunables:\n      credits: 0\n", -ERANGE, 6, 16,
		  "invalid credits '0': expected an integer 1-65536");
	parse_err("net:\n- net type: tcp\n  local NI(s):\n  - interfaces: {x: eth0}\n",
		  -EINVAL, 4, 18, "invalid interfaces index 'x': expected an integer 0-31");
	parse_err("net:\n- net type: tcp\n  local NI(s):\n  - interfaces: {0: 'eth0,eth1'}\n",
		  -EINVAL, 4, 21,
		  "invalid interfaces 'eth0,eth1': expected one interface name per entry");
	parse_err("net:\n- net type: tcp\n  local NI(s):\n  - interfaces: [eth0, eth0]\n",
		  -EINVAL, 4, 24,
		  "invalid interfaces 'eth0': interface 'eth0' is listed twice");
	parse_err("peer:\n- Multi-Rail: maybe\n  primary nid: 1.2.3.4@tcp\n", -EINVAL, 2, 15,
		  "invalid Multi-Rail 'maybe': expected true/false, yes/no, on/off or 1/0");
	parse_err("peer:\n- Multi-Rail: false\n  primary nid: 1.2.3.4@tcp\n  peer ni:\n"
		  "  - nid: 1.2.3.4@tcp\n  - nid: 1.2.3.5@tcp\n", -EINVAL, 6, 10,
		  "nid '1.2.3.5@tcp': a peer with 'Multi-Rail: false' has only its primary nid");
	parse_err("peer:\n- peer ni:\n  - nid: 5@gni\n  - nid: 5@gni\n", -EINVAL, 4, 10,
		  "nid '5@gni' is listed twice (first at 3:10)");
	parse_err("peer:\n- Multi-Rail: true\n", -EINVAL, 2, 3,
		  "a peer needs 'primary nid' or 'peer ni'");
	parse_err("peer:\n- primary nid: 5@gni\n  peer ni:\n  - 6@gni\n", -EINVAL, 4, 5,
		  "'peer ni' must be a mapping, not a scalar");
	parse_err("peer:\n- peer ni:\n  - {state: up}\n", -EINVAL, 3, 5, "a peer ni needs 'nid'");
	parse_err("udsp:\n- src: tcp\n  src: tcp1\n", -EINVAL, 3, 3,
		  "duplicate key 'src' (first at 2:3)");
	parse_err("udsp:\n- src: tcp\n   dst: x\n", -EINVAL, 3, 7,
		  "mapping values are not allowed in this context");
}

/* --- the writer ------------------------------------------------------------------------ */

static const char *const tricky[] = {
	"[1-3]@gni", "*@tcp", "10.10.10.[5-8]@tcp1", "tcp", "true", "", "a: b", "#x",
	"- x", "'q'", "x\"y", " lead", "trail ", "&a", "!t", "%p", "@at", "`b", "{c}",
	"|", ">", "?", "2001:db8::[1-ff]@tcp", "~", "null", "0x10", "a\nb",
};

static void t_emit_quoting(void **state)
{
	const size_t n = sizeof(tricky) / sizeof(tricky[0]);
	struct cfg_err err = { 0 };
	const struct ynode *k;
	struct ynode *root;
	struct yemit w;
	char *buf = NULL, key[8];
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(yemit_begin(&w, f, &err), 0);
	yemit_map_start(&w);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "k%zu", i);
		yemit_kv_str(&w, key, tricky[i]);
	}
	yemit_map_end(&w);
	assert_int_equal(yemit_end(&w), 0);
	assert_int_equal(fclose(f), 0);
	/* Plain where a parser reads the same string, quoted where it would not. */
	assert_non_null(strstr(buf, "k0: '[1-3]@gni'\n"));
	assert_non_null(strstr(buf, "k1: '*@tcp'\n"));
	assert_non_null(strstr(buf, "k2: 10.10.10.[5-8]@tcp1\n"));
	assert_non_null(strstr(buf, "k3: tcp\n"));
	assert_non_null(strstr(buf, "k4: 'true'\n"));
	assert_non_null(strstr(buf, "k25: '0x10'\n"));

	assert_int_equal(ytree_load(buf, len, &root, &err), 0);
	assert_int_equal(root->nchildren, n);
	for (i = 0, k = root->first; i < n; i++, k = k->next) {
		assert_string_equal(k->value->str, tricky[i]);
		/* What would read back as null, a boolean or a number is quoted. */
		if (!strcmp(tricky[i], "") || !strcmp(tricky[i], "~") ||
		    !strcmp(tricky[i], "null") || !strcmp(tricky[i], "true") ||
		    !strcmp(tricky[i], "0x10"))
			assert_false(k->value->plain);
	}
	ytree_free(root);
	free(buf);
}

static bool net_equal(const struct cfg_net *a, const struct cfg_net *b)
{
	u32 i;

	if (a->net_id != b->net_id || a->nifs != b->nifs ||
	    memcmp(&a->tun, &b->tun, sizeof(a->tun)))
		return false;
	for (i = 0; i < a->nifs; i++)
		if (strcmp(a->ifnames[i], b->ifnames[i]))
			return false;
	return true;
}

static bool peer_equal(const struct cfg_peer *a, const struct cfg_peer *b)
{
	u32 i;

	if (!lnet_nid_equal(&a->prim, &b->prim) || a->flags != b->flags ||
	    a->nnids != b->nnids)
		return false;
	for (i = 0; i < a->nnids; i++)
		if (!lnet_nid_equal(&a->nids[i], &b->nids[i]))
			return false;
	return true;
}

static bool rule_equal(const struct lnet_udsp_desc *a, const struct lnet_udsp_desc *b)
{
	return a->idx == b->idx && a->priority == b->priority &&
	       lnet_udsp_desc_same_match(a, b);
}

/* cfg_doc_write() then cfg_doc_parse() gives the same document back. */
static void t_doc_write_roundtrip(void **state)
{
	struct cfg_err err = { 0 };
	struct cfg_doc *a, *b;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	parse_ok(full_doc, &a);
	assert_int_equal(cfg_doc_write(a, f, &err), 0);
	assert_int_equal(fclose(f), 0);
	parse_ok(buf, &b);
	assert_int_equal(a->nnets, b->nnets);
	assert_int_equal(a->npeers, b->npeers);
	assert_int_equal(a->npolicies, b->npolicies);
	for (i = 0; i < a->nnets; i++)
		assert_true(net_equal(a->nets[i], b->nets[i]));
	for (i = 0; i < a->npeers; i++)
		assert_true(peer_equal(a->peers[i], b->peers[i]));
	for (i = 0; i < a->npolicies; i++)
		assert_true(rule_equal(&a->policies[i]->d, &b->policies[i]->d));
	cfg_doc_free(a);
	cfg_doc_free(b);
	free(buf);

	/* An empty document writes nothing. */
	buf = NULL;
	f = open_memstream(&buf, &len);
	parse_ok("", &a);
	assert_int_equal(cfg_doc_write(a, f, &err), 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(len, 0);
	cfg_doc_free(a);
	free(buf);
}

/* --- import, show, export through a live core --------------------------------------- */

/* The demo configuration of examples/lnet.yaml, on the fake interfaces. */
static const char demo_doc[] =
	"net:\n"
	"    - net type: tcp\n"
	"      local NI(s):\n"
	"        - interfaces: {0: eth0}\n"
	"          tunables: {peer_timeout: 180, peer_credits: 8}\n"
	"    - net type: tcp1\n"
	"      local NI(s):\n"
	"        - interfaces: {0: eth1}\n"
	"peer:\n"
	"    - primary nid: 10.0.0.2@tcp\n"
	"      peer ni:\n"
	"        - nid: 10.0.0.2@tcp\n"
	"        - nid: 10.0.1.2@tcp1\n"
	"    - primary nid: 10.0.0.3@tcp\n"
	"      Multi-Rail: false\n"
	"    - primary nid: 5@gni\n"
	"      Lock Primary NID: true\n"
	"udsp:\n"
	"    - src: tcp\n"
	"      action: {priority: 1}\n"
	"    - src: 10.0.0.1@tcp\n"
	"      priority: 0\n"
	"    - dst: tcp1\n"
	"      action: {priority: 3}\n"
	"    - dst: 10.0.0.[2-3]@tcp\n"
	"    - src: 10.0.0.1@tcp\n"
	"      dst: 10.0.0.2@tcp\n"
	"    - idx: 2\n"
	"      dst: '[1-3]@gni'\n"
	"      rte: 10.0.1.[1-9]@tcp1\n";

static const char demo_backup[] =
	"net:\n"
	"-   net type: tcp\n"
	"    local NI(s):\n"
	"    -   interfaces:\n"
	"            0: eth0\n"
	"        tunables:\n"
	"            peer_timeout: 180\n"
	"            peer_credits: 8\n"
	"            peer_buffer_credits: 0\n"
	"            credits: 256\n"
	"        lnd tunables:\n"
	"            conns_per_peer: 1\n"
	"            tos: -1\n"
	"        CPT: \"[0]\"\n"
	"-   net type: tcp1\n"
	"    local NI(s):\n"
	"    -   interfaces:\n"
	"            0: eth1\n"
	"        tunables:\n"
	"            peer_timeout: 180\n"
	"            peer_credits: 8\n"
	"            peer_buffer_credits: 0\n"
	"            credits: 256\n"
	"        lnd tunables:\n"
	"            conns_per_peer: 1\n"
	"            tos: -1\n"
	"        CPT: \"[0]\"\n"
	"peer:\n"
	"-   primary nid: 10.0.0.2@tcp\n"
	"    Multi-Rail: true\n"
	"    peer ni:\n"
	"    -   nid: 10.0.0.2@tcp\n"
	"    -   nid: 10.0.1.2@tcp1\n"
	"-   primary nid: 10.0.0.3@tcp\n"
	"    Multi-Rail: false\n"
	"    peer ni:\n"
	"    -   nid: 10.0.0.3@tcp\n"
	"-   primary nid: 5@gni\n"
	"    Multi-Rail: true\n"
	"    Lock Primary NID: true\n"
	"    peer ni:\n"
	"    -   nid: 5@gni\n"
	"udsp:\n"
	"-   idx: 0\n"
	"    src: tcp\n"
	"    action:\n"
	"        priority: 1\n"
	"-   idx: 1\n"
	"    src: 10.0.0.1@tcp\n"
	"    action:\n"
	"        priority: 0\n"
	"-   idx: 2\n"
	"    dst: '[1-3]@gni'\n"
	"    rte: 10.0.1.[1-9]@tcp1\n"
	"-   idx: 3\n"
	"    dst: tcp1\n"
	"    action:\n"
	"        priority: 3\n"
	"-   idx: 4\n"
	"    dst: 10.0.0.[2-3]@tcp\n"
	"    action:\n"
	"        priority: 0\n"
	"-   idx: 5\n"
	"    src: 10.0.0.1@tcp\n"
	"    dst: 10.0.0.2@tcp\n";

static void t_import_export(void **state)
{
	struct inst *in = *state;

	assert_prints(in, print_backup, "");
	assert_prints(in, print_rules, "");	/* no rules: nothing at all */
	import(in, demo_doc, false);
	assert_prints(in, print_backup, demo_backup);
}

static size_t read_counts[3];	/* nets, peers, rules cfg_doc_read() found */

static int print_read_doc(struct inst *in, FILE *out, struct cfg_err *err)
{
	struct cfg_doc *doc;
	int rc = cfg_doc_read(in->h, &doc, err);

	if (rc)
		return rc;
	read_counts[0] = doc->nnets;
	read_counts[1] = doc->npeers;
	read_counts[2] = doc->npolicies;
	rc = cfg_doc_write(doc, out, err);
	cfg_doc_free(doc);
	return rc;
}

/* cfg_doc_read() + cfg_doc_write() is exactly what export --backup prints. */
static void t_doc_read(void **state)
{
	struct inst *in = *state;

	assert_prints(in, print_read_doc, "");	/* lo is not read */
	assert_int_equal(read_counts[0] + read_counts[1] + read_counts[2], 0);
	import(in, demo_doc, false);
	assert_prints(in, print_read_doc, demo_backup);
	assert_int_equal(read_counts[0], 2);
	assert_int_equal(read_counts[1], 3);
	assert_int_equal(read_counts[2], 6);
}

/* export --backup into a fresh LNet, exported again: the very same text. */
static void t_backup_reimport(void **state)
{
	struct inst *in = *state, *fresh;
	char *again;

	import(in, demo_doc, false);
	fresh = inst_new();
	import(fresh, demo_backup, false);
	again = capture(fresh, print_backup, 0, NULL);
	assert_string_equal(again, demo_backup);
	free(again);
	inst_free(fresh);
}

static void t_show(void **state)
{
	struct inst *in = *state;
	char *out;

	import(in, demo_doc, false);
	assert_prints(in, print_nets,
		      "net:\n"
		      "-   net type: lo\n"
		      "    local NI(s):\n"
		      "    -   nid: 0@lo\n"
		      "        status: up\n"
		      "-   net type: tcp\n"
		      "    local NI(s):\n"
		      "    -   nid: 10.0.0.1@tcp\n"
		      "        status: up\n"
		      "        interfaces:\n"
		      "            0: eth0\n"
		      "-   net type: tcp1\n"
		      "    local NI(s):\n"
		      "    -   nid: 10.0.1.1@tcp1\n"
		      "        status: up\n"
		      "        interfaces:\n"
		      "            0: eth1\n");
	assert_prints(in, print_nets_v4,
		      "net:\n"
		      "-   net type: tcp1\n"
		      "    local NI(s):\n"
		      "    -   nid: 10.0.1.1@tcp1\n"
		      "        status: up\n"
		      "        interfaces:\n"
		      "            0: eth1\n"
		      "        statistics:\n"
		      "            send_count: 0\n"
		      "            recv_count: 0\n"
		      "            drop_count: 0\n"
		      IDLE_LATENCY
		      "        udsp info:\n"
		      "            net priority: -1\n"
		      "            nid priority: -1\n"
		      IDLE_MSG_STATS
		      "        health stats:\n"
		      "            fatal_error: 0\n"
		      "            health value: 1000\n"
		      "            interrupts: 0\n"
		      "            dropped: 0\n"
		      "            aborted: 0\n"
		      "            no route: 0\n"
		      "            timeouts: 0\n"
		      "            error: 0\n"
		      "            ping_count: 0\n"
		      "            next_ping: 0\n"
		      "        max_tx_credits: 256\n"
		      "        available_tx_credits: 256\n"
		      "        min_tx_credits: 256\n"
		      "        tx_q_num_of_buf: 0\n"
		      "        tunables:\n"
		      "            peer_timeout: 180\n"
		      "            peer_credits: 8\n"
		      "            peer_buffer_credits: 0\n"
		      "            credits: 256\n"
		      "        lnd tunables:\n"
		      "            conns_per_peer: 1\n"
		      "            timeout: 49\n"
		      "            tos: -1\n"
		      "        dev cpt: -1\n"
		      "        CPT: \"[0]\"\n");
	out = capture(in, print_nets_tcp9, -ENOENT, "no NI in net 'tcp9'");
	assert_string_equal(out, "");
	free(out);
	assert_prints(in, print_peers,
		      "peer:\n"
		      "-   primary nid: 10.0.0.2@tcp\n"
		      "    Multi-Rail: true\n"
		      "    peer ni:\n"
		      "    -   nid: 10.0.0.2@tcp\n"
		      "        state: up\n"
		      "    -   nid: 10.0.1.2@tcp1\n"
		      "        state: up\n"
		      "-   primary nid: 10.0.0.3@tcp\n"
		      "    Multi-Rail: false\n"
		      "    peer ni:\n"
		      "    -   nid: 10.0.0.3@tcp\n"
		      "        state: up\n"
		      "-   primary nid: 5@gni\n"
		      "    Multi-Rail: true\n"
		      "    Lock Primary NID: true\n"
		      "    peer ni:\n"
		      "    -   nid: 5@gni\n"
		      "        state: up\n");
	/* -v 4 of the peer owning a secondary NID: both NIs, UDSP values signed. */
	assert_prints(in, print_peer_v4,
		      "peer:\n"
		      "-   primary nid: 10.0.0.2@tcp\n"
		      "    Multi-Rail: true\n"
		      "    peer state: 8\n"
		      "    peer ni:\n"
		      "    -   nid: 10.0.0.2@tcp\n"
		      "        udsp info:\n"
		      "            net priority: -1\n"
		      "            nid priority: 0\n"
		      "            Preferred source NIDs:\n"
		      "                NID-0: 10.0.0.1@tcp\n"
		      IDLE_PEER_NI_TAIL
		      "    -   nid: 10.0.1.2@tcp1\n"
		      "        udsp info:\n"
		      "            net priority: 3\n"
		      "            nid priority: -1\n"
		      IDLE_PEER_NI_TAIL);
	out = capture(in, print_peer_unknown, -ENOENT, "no peer has nid '10.9.9.9@tcp'");
	assert_string_equal(out, "");
	free(out);
	assert_prints(in, print_peer_list,
		      "peer list:\n"
		      "-   nid: 10.0.0.2@tcp\n"
		      "-   nid: 10.0.0.3@tcp\n"
		      "-   nid: 5@gni\n");
	assert_prints(in, print_rule3,
		      "udsp:\n"
		      "-   idx: 3\n"
		      "    dst: tcp1\n"
		      "    action:\n"
		      "        priority: 3\n");
	out = capture(in, print_rule9, -ENOENT, "no rule with idx 9");
	assert_string_equal(out, "");
	free(out);
}

/* A failure while applying undoes everything that import applied. */
/* The rule another client adds: the last one of t_rollback's import. */
static void race_add_o2ib(struct lnet *ln)
{
	struct lnet_udsp_desc *d = calloc(1, sizeof(*d));

	d->idx = -1;
	d->action = LNET_UDSP_ACTION_PRIORITY;
	d->priority = 1;
	assert_int_equal(lnet_nidexpr_parse("o2ib", &d->dst, NULL, 0), 0);
	assert_int_equal(lnet_udsp_add(ln, d, NULL), 0);
	free(d);
}

/* 2,000 rules (more than one request holds), then a rule on tcp. */
static const char *many_rules_n(int n)
{
	static char text[5000 * 64 + 64];
	size_t off = snprintf(text, sizeof(text), "udsp:\n");

	assert_true(n <= 5000);
	for (int i = 0; i < n; i++)
		off += snprintf(text + off, sizeof(text) - off,
				"- dst: 10.%d.%d.[1-254/%d]@tcp\n  priority: %d\n",
				i / 250, i % 250, i % 5 + 1, i);
	snprintf(text + off, sizeof(text) - off, "- src: tcp\n  priority: 9\n");
	return text;
}

static const char *many_rules(void)
{
	return many_rules_n(2000);
}

static void t_rollback(void **state)
{
	struct inst *in = *state;
	char *before, *after;

	import(in, "udsp:\n- src: tcp\n  priority: 3\n- dst: 5@gni\n  priority: 2\n", false);
	before = capture(in, print_backup, 0, NULL);

	/* Second net on a missing interface: the first net goes again. */
	import_fails(in, "net:\n- net type: tcp\n  local NI(s):\n  - interfaces: {0: eth0}\n"
		     "- net type: tcp1\n  local NI(s):\n  - interfaces: {0: nope0}\n",
		     false, -ENODEV, 7, 5, "interface 'nope0' does not exist");
	after = capture(in, print_backup, 0, NULL);
	assert_string_equal(after, before);
	free(after);

	/*
	 * Nets, peers, a rule inserted at idx 0, a priority rewritten in place,
	 * a rule moved to idx 0, then a rule the core refuses (another client
	 * added the same one just before): the core undoes the request, the
	 * import undoes the nets and peers; the changed rules are back at
	 * their idx with their old priorities, every value as it was.
	 */
	free(before);
	before = capture(in, print_state, 0, NULL);
	race_cmd = IOC_LNET_ADD_UDSP_BATCH;
	race_fn = race_add_o2ib;
	import_fails(in, "net:\n- net type: tcp\n  local NI(s):\n  - interfaces: {0: eth0}\n"
		     "peer:\n- primary nid: 10.0.0.2@tcp\n  peer ni:\n  - nid: 10.0.0.9@tcp\n"
		     "udsp:\n- idx: 0\n  dst: tcp1\n- src: tcp\n  priority: 7\n"
		     "- idx: 0\n  dst: 5@gni\n  priority: 2\n- dst: o2ib\n  priority: 1\n",
		     false, -EALREADY, 17, 3, "an identical rule already exists");
	assert_null(race_fn);
	assert_int_equal(lnet_udsp_del(&in->ln, 2), 0);	/* the other client's */
	after = capture(in, print_state, 0, NULL);
	assert_string_equal(after, before);
	free(after);

	/*
	 * An import of many rules goes out in several requests, deferring the
	 * re-flatten: the second one fails, the first one's rules are in; all
	 * go, the old ones come back, every value as it was.
	 */
	fail_at(IOC_LNET_ADD_UDSP_BATCH, 2, -ENOMEM);
	import_fails(in, many_rules(), false, -ENOMEM, 0, 0,
		     "cannot add the rules: LNet is out of memory");
	assert_int_equal(fail_nth, 0);
	after = capture(in, print_state, 0, NULL);
	assert_string_equal(after, before);
	free(after);
	free(before);
}

/* Another client deletes the last rule. */
static void race_del_last(struct lnet *ln)
{
	assert_int_equal(lnet_udsp_del(ln, (s32)lnet_udsp_of(ln)->us_count - 1), 0);
}

/*
 * import --del goes out in requests of up to 4,096 deletions, deferring
 * the re-flatten to the last: 5,001 rules take two. The second one fails:
 * every rule comes back in its place, every value as it was. A rule that
 * another client deleted meanwhile is named with its place in the file.
 */
static void t_import_del_rollback(void **state)
{
	struct inst *in = *state;
	const char *doc = many_rules_n(5000);
	struct cfg_policy p;
	char *before, *after;

	import(in, "net:\n- net type: tcp\n  local NI(s):\n  - interfaces: {0: eth0}\n"
		   "peer:\n- primary nid: 10.0.0.2@tcp\n  peer ni:\n  - nid: 10.0.0.9@tcp\n"
		   "udsp:\n- dst: tcp1\n", false);
	import(in, doc, false);
	before = capture(in, print_state, 0, NULL);
	fail_at(IOC_LNET_DEL_UDSP_BATCH, 2, -ENOMEM);
	import_fails(in, doc, true, -ENOMEM, 0, 0,
		     "cannot delete the rules: LNet is out of memory");
	assert_int_equal(fail_nth, 0);
	after = capture(in, print_state, 0, NULL);
	assert_string_equal(after, before);
	free(after);
	free(before);

	/* the race: the file's last rule (line 10002) is gone first */
	race_cmd = IOC_LNET_DEL_UDSP_BATCH;
	race_fn = race_del_last;
	import_fails(in, doc, true, -ENOENT, 10002, 3, "no rule at index 5001");
	assert_null(race_fn);
	assert_int_equal(lnet_udsp_of(&in->ln)->us_count, 5001);

	/* and then it all goes, but the rule that is not in the file */
	import(in, doc, true);
	assert_int_equal(lnet_udsp_of(&in->ln)->us_count, 1);
	cfg_policy_init(&p);
	assert_int_equal(cfg_policy_get(in->h, 0, &p), 0);
	assert_int_equal(p.d.dst.ne_lnd, LNET_LND_TCP);
}

static void t_import_del(void **state)
{
	struct inst *in = *state;
	char *before, *after;

	import(in, demo_doc, false);
	/* Rules by content, in any order; a peer's secondary NID; one net. */
	import(in, "net:\n- net type: tcp1\n"
		   "peer:\n- primary nid: 10.0.0.2@tcp\n  peer ni:\n  - nid: 10.0.1.2@tcp1\n"
		   "- primary nid: 5@gni\n  Lock Primary NID: true\n"
		   "udsp:\n- src: 10.0.0.1@tcp\n  dst: 10.0.0.2@tcp\n- src: tcp\n"
		   "- dst: '[1-3]@gni'\n  rte: 10.0.1.[1-9]@tcp1\n", true);
	assert_prints(in, print_backup,
		      "net:\n"
		      "-   net type: tcp\n"
		      "    local NI(s):\n"
		      "    -   interfaces:\n"
		      "            0: eth0\n"
		      "        tunables:\n"
		      "            peer_timeout: 180\n"
		      "            peer_credits: 8\n"
		      "            peer_buffer_credits: 0\n"
		      "            credits: 256\n"
		      "        lnd tunables:\n"
		      "            conns_per_peer: 1\n"
		      "            tos: -1\n"
		      "        CPT: \"[0]\"\n"
		      "peer:\n"
		      "-   primary nid: 10.0.0.2@tcp\n"
		      "    Multi-Rail: true\n"
		      "    peer ni:\n"
		      "    -   nid: 10.0.0.2@tcp\n"
		      "-   primary nid: 10.0.0.3@tcp\n"
		      "    Multi-Rail: false\n"
		      "    peer ni:\n"
		      "    -   nid: 10.0.0.3@tcp\n"
		      "udsp:\n"
		      "-   idx: 0\n"
		      "    src: 10.0.0.1@tcp\n"
		      "    action:\n"
		      "        priority: 0\n"
		      "-   idx: 1\n"
		      "    dst: tcp1\n"
		      "    action:\n"
		      "        priority: 3\n"
		      "-   idx: 2\n"
		      "    dst: 10.0.0.[2-3]@tcp\n"
		      "    action:\n"
		      "        priority: 0\n");

	/* What is not there is nothing to delete. */
	before = capture(in, print_backup, 0, NULL);
	import(in, "net:\n- net type: tcp9\n- net type: tcp\n  local NI(s):\n"
		   "  - interfaces: {0: eth7}\npeer:\n- primary nid: 10.0.0.99@tcp\n"
		   "- primary nid: 10.0.0.3@tcp\n  peer ni: [{nid: 10.0.0.98@tcp}]\n"
		   "udsp:\n- dst: tcp7\n", true);
	after = capture(in, print_backup, 0, NULL);
	assert_string_equal(after, before);
	free(after);
	free(before);
	/* A failure deleting: what was deleted before it comes back. */
	before = capture(in, print_backup, 0, NULL);
	fail_at(IOC_LNET_DEL_UDSP_BATCH, 1, -ENOMEM);
	import_fails(in, "net:\n- net type: tcp\npeer:\n- primary nid: 10.0.0.3@tcp\n"
		     "udsp:\n- dst: 10.0.0.[2-3]@tcp\n- dst: tcp1\n  priority: 3\n", true,
		     -ENOMEM, 0, 0, "cannot delete the rules: LNet is out of memory");
	assert_int_equal(fail_nth, 0);
	after = capture(in, print_backup, 0, NULL);
	assert_string_equal(after, before);
	free(after);
	free(before);

	/* Everything, from its own backup. */
	before = capture(in, print_backup, 0, NULL);
	import(in, before, true);
	assert_prints(in, print_backup, "");
	free(before);
}

static void t_import_checks(void **state)
{
	struct inst *in = *state;

	import_fails(in, "net:\n- net type: tcp\n", false, -EINVAL, 2, 3,
		     "adding a net needs 'local NI(s)' with 'interfaces' or 'nid'");
	import(in, demo_doc, false);
	/* The same again: all of it is in force, nothing changes. */
	import(in, demo_doc, false);
	assert_prints(in, print_backup, demo_backup);
}

static int print_plan(struct inst *in, const char *text, bool del, FILE *out,
		      struct cfg_err *err)
{
	struct cfg_doc *doc;
	int rc;

	parse_ok(text, &doc);
	rc = cfg_doc_plan(in->h, doc, del, out, err);
	cfg_doc_free(doc);
	return rc;
}

/* The plan of a document: its lines, nothing applied. */
static void assert_plan(struct inst *in, const char *text, bool del, const char *want)
{
	struct cfg_err err = { 0 };
	char *before = capture(in, print_backup, 0, NULL), *after, *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(print_plan(in, text, del, f, &err), 0);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, want);
	free(buf);
	after = capture(in, print_backup, 0, NULL);
	assert_string_equal(after, before);
	free(after);
	free(before);
}

static void t_plan(void **state)
{
	struct inst *in = *state;

	assert_plan(in, demo_doc, false,
		    "+ net tcp(eth0)\n"
		    "+ net tcp1(eth1)\n"
		    "+ peer 10.0.0.2@tcp\n"
		    "+ peer 10.0.0.2@tcp: nid 10.0.1.2@tcp1\n"
		    "+ peer 10.0.0.3@tcp\n"
		    "+ peer 5@gni\n"
		    "+ udsp idx 0: src tcp, priority 1\n"
		    "+ udsp idx 1: src 10.0.0.1@tcp, priority 0\n"
		    "+ udsp idx 2: dst tcp1, priority 3\n"
		    "+ udsp idx 3: dst 10.0.0.[2-3]@tcp, priority 0\n"
		    "+ udsp idx 4: src 10.0.0.1@tcp, dst 10.0.0.2@tcp\n"
		    "+ udsp idx 2: dst [1-3]@gni, rte 10.0.1.[1-9]@tcp1\n");
	import(in, demo_doc, false);
	assert_plan(in, demo_doc, false, "");
	/* deleting goes backwards; each idx is the rule's when it goes */
	assert_plan(in, demo_doc, true,
		    "- udsp idx 2\n- udsp idx 4\n- udsp idx 3\n- udsp idx 2\n- udsp idx 1\n"
		    "- udsp idx 0\n- peer 5@gni\n- peer 10.0.0.3@tcp\n- peer 10.0.0.2@tcp\n"
		    "- net tcp1(eth1)\n- net tcp(eth0)\n");
	assert_plan(in, "net:\n- net type: tcp\n  local NI(s):\n  - interfaces: [eth0, eth1]\n"
		    "peer:\n- primary nid: 10.0.0.2@tcp\n  peer ni: [{nid: 10.0.0.7@tcp}]\n"
		    "udsp:\n- {idx: 5, src: tcp1, priority: 1}\n- {idx: 0, dst: tcp1, priority: 4}\n"
		    "global: {retry_count: 5}\n",
		    false,
		    "+ net tcp(eth1)\n"
		    "+ peer 10.0.0.2@tcp: nid 10.0.0.7@tcp\n"
		    "~ global: retry_count 2 -> 5\n"
		    "+ udsp idx 5: src tcp1, priority 1\n"
		    "~ udsp idx 3: idx 3 -> 0, priority 3 -> 4\n");
	/* a new priority keeps the rule's place: the next rule's idx is as it was */
	assert_plan(in, "udsp:\n- {src: tcp, priority: 9}\n"
		    "- {idx: 0, dst: '10.0.0.[2-3]@tcp', priority: 0}\n", false,
		    "~ udsp idx 0: priority 1 -> 9\n~ udsp idx 4: idx 4 -> 0\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_ytree_locations),
		cmocka_unit_test(t_ytree_null_and_empty),
		cmocka_unit_test(t_ytree_errors),
		cmocka_unit_test(t_ytree_limits),
		cmocka_unit_test(t_parse_full),
		cmocka_unit_test(t_parse_show_keys),
		cmocka_unit_test(t_parse_errors),
		cmocka_unit_test(t_emit_quoting),
		cmocka_unit_test(t_doc_write_roundtrip),
		cmocka_unit_test_setup_teardown(t_import_export, setup, teardown),
		cmocka_unit_test_setup_teardown(t_backup_reimport, setup, teardown),
		cmocka_unit_test_setup_teardown(t_doc_read, setup, teardown),
		cmocka_unit_test_setup_teardown(t_show, setup, teardown),
		cmocka_unit_test_setup_teardown(t_rollback, setup, teardown),
		cmocka_unit_test_setup_teardown(t_import_del, setup, teardown),
		cmocka_unit_test_setup_teardown(t_import_del_rollback, setup, teardown),
		cmocka_unit_test_setup_teardown(t_import_checks, setup, teardown),
		cmocka_unit_test_setup_teardown(t_plan, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
