// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fault injection (kernel/core/fault.c) between two LNet instances joined
 * by memlnd: the checks of IOC_LNET_FAULT_*, drop rules on send (rate,
 * message type, health status) and on receive, delay rules (held, then
 * delivered; released by a delete; failed by an unconfigure), through the
 * ioctl entry point as lnetctl reaches it. node0: 10.21.0.1@tcp (m0e0);
 * node1: 10.21.0.2@tcp (m1e0), with a sink for PUTs on portal 5.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "memlnd_op.h"

#define SINK_PORTAL	5
#define SINK_BITS	0x77ULL
#define PEER		"10.21.0.2@tcp"

struct pair {
	struct memlnd_node *n0, *n1;
	struct lnet_handle_md sink;
	u8 sink_buf[4096];
};

static void set_global(struct memlnd_node *n, u32 id, u32 v)
{
	os_mutex_lock(&n->ln.ln_api_mutex);
	assert_int_equal(lnet_global_set(&n->ln, id, v), 0);
	os_mutex_unlock(&n->ln.ln_api_mutex);
}

static int setup(void **state)
{
	static const struct lnet_nid any;
	struct pair *p = calloc(1, sizeof(*p));
	struct lnet_md md = {
		.length = sizeof(p->sink_buf), .threshold = LNET_MD_THRESH_INF,
		.options = LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE | LNET_MD_TRUNCATE,
	};

	p->n0 = memlnd_node_new(0);
	p->n1 = memlnd_node_new(1);
	assert_int_equal(memlnd_ni_add(p->n0, "tcp", 0), 0);
	assert_int_equal(memlnd_ni_add(p->n1, "tcp", 0), 0);
	md.start = p->sink_buf;
	os_mutex_lock(&p->n1->ln.ln_api_mutex);
	assert_int_equal(lnet_me_attach_md(&p->n1->ln, SINK_PORTAL, &any, LNET_PID_ANY,
					   SINK_BITS, 0, true, &md, &p->sink), 0);
	os_mutex_unlock(&p->n1->ln.ln_api_mutex);
	/* a failed send fails at once: one try, one outcome per PUT */
	set_global(p->n0, LNET_GLOBAL_RETRY_COUNT, 0);
	*state = p;
	return 0;
}

static int teardown(void **state)
{
	struct pair *p = *state;

	assert_int_equal(memlnd_node_free(p->n0), 0);
	assert_int_equal(memlnd_node_free(p->n1), 0);
	free(p);
	return 0;
}

/* ---- requests -------------------------------------------------------------------- */

static int fault_ioc(struct memlnd_node *n, unsigned int cmd, struct lnet_ioc_fault *f)
{
	f->fa_hdr.ioc_len = sizeof(*f);
	f->fa_hdr.ioc_version = LNET_IOC_VERSION;
	return lnet_ioctl(&n->ln, cmd, f, sizeof(*f), true);
}

/* A rule of @type from anyone to PEER, one in @rate. */
static struct lnet_ioc_fault rule(u32 type, u32 rate)
{
	struct lnet_ioc_fault f = { .fa_type = type, .fa_rate = rate };

	f.fa_dst.fn_kind = LNET_FAULT_NID_ONE;
	f.fa_dst.fn_nid = memlnd_nid(PEER);
	if (type == LNET_FAULT_DELAY)
		f.fa_latency = 1;
	return f;
}

static void add(struct memlnd_node *n, struct lnet_ioc_fault f)
{
	assert_int_equal(fault_ioc(n, IOC_LNET_FAULT_ADD, &f), 0);
}

/* The @index-th rule of @type as GET returns it (-ENOENT: none). */
static int get(struct memlnd_node *n, u32 type, u32 index, struct lnet_ioc_fault *out)
{
	memset(out, 0, sizeof(*out));
	out->fa_type = type;
	out->fa_index = index;
	return fault_ioc(n, IOC_LNET_FAULT_GET, out);
}

static int del_all(struct memlnd_node *n, u32 type)
{
	struct lnet_ioc_fault f = { .fa_type = type, .fa_flags = LNET_FAULT_F_ALL };
	int rc = fault_ioc(n, IOC_LNET_FAULT_DEL, &f);

	return rc ? rc : (int)f.fa_index;
}

/* ---- traffic -------------------------------------------------------------------- */

static void put_start(struct memlnd_op *op, struct memlnd_node *n)
{
	int rc;

	os_mutex_lock(&n->ln.ln_api_mutex);
	rc = memlnd_op_put_locked(op, n, PEER, SINK_PORTAL, SINK_BITS);
	os_mutex_unlock(&n->ln.ln_api_mutex);
	assert_int_equal(rc, 0);
}

/* A PUT to PEER, waited for: the status of its final event. */
static int put(struct memlnd_node *n)
{
	struct memlnd_op *op = calloc(1, sizeof(*op));
	int rc;

	put_start(op, n);
	assert_true(memlnd_wait(memlnd_op_final, op, 5000));
	assert_true(memlnd_wait(memlnd_op_unlinked, op, 5000));
	rc = op->status;
	free(op);
	return rc;
}

static bool held(void *arg)
{
	struct memlnd_node *n = arg;
	bool h;

	os_mutex_lock(&n->ln.ln_api_mutex);
	h = !list_empty(&n->ln.ln_fault_held);
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return h;
}

/* ---- the checks ------------------------------------------------------------------- */

/* Each bad request is refused with EINVAL and leaves no rule behind. */
static void test_add_checks(void **state)
{
	struct pair *p = *state;
	struct lnet_ioc_fault f, out;
	unsigned int i;
	struct lnet_ioc_fault bad[12];

	for (i = 0; i < 12; i++)
		bad[i] = rule(LNET_FAULT_DROP, 2);
	bad[0].fa_type = 3;
	bad[1].fa_rate = 0;				/* neither rate nor interval */
	bad[2].fa_interval = 5;				/* both */
	bad[3].fa_msg_mask = 1U << 4;			/* HELLO */
	bad[4].fa_ptl_mask = 1;				/* a portal with ACKs */
	bad[4].fa_msg_mask = LNET_FAULT_MSG_ACK;
	bad[5].fa_hstatus_mask = 1;			/* bit 0: OK */
	bad[6].fa_latency = 1;				/* a latency on a drop */
	bad[7].fa_src.fn_kind = LNET_FAULT_NID_NET;	/* a net of no LND */
	bad[7].fa_src.fn_net = LNET_NET_ID(1, 0);
	bad[8].fa_dst.fn_nid.nid_addr_len = 5;
	bad[9].fa_flags = LNET_FAULT_F_RANDOM;		/* random needs an interval */
	bad[10].fa_reserved[2] = 1;
	bad[11] = rule(LNET_FAULT_DELAY, 1);
	bad[11].fa_latency = 0;
	for (i = 0; i < 12; i++) {
		f = bad[i];
		assert_int_equal(fault_ioc(p->n0, IOC_LNET_FAULT_ADD, &f), -EINVAL);
	}
	f = rule(LNET_FAULT_DELAY, 1);
	f.fa_hstatus_mask = 1U << LNET_IOC_HS_LOCAL_ERROR;
	assert_int_equal(fault_ioc(p->n0, IOC_LNET_FAULT_ADD, &f), -EINVAL);
	assert_int_equal(get(p->n0, LNET_FAULT_DROP, 0, &out), -ENOENT);
	assert_int_equal(get(p->n0, LNET_FAULT_DELAY, 0, &out), -ENOENT);
	/* deleting nothing is an error, as on Lustre */
	assert_int_equal(del_all(p->n0, LNET_FAULT_DROP), -ENOENT);
}

/* Rules come back as added, in order; DEL by patterns takes the right ones. */
static void test_add_get_del(void **state)
{
	struct pair *p = *state;
	struct lnet_ioc_fault a = rule(LNET_FAULT_DROP, 3), b = rule(LNET_FAULT_DROP, 1), out;

	b.fa_src.fn_kind = LNET_FAULT_NID_NET;
	b.fa_src.fn_net = LNET_NET_ID(LNET_LND_TCP, 0);
	b.fa_ptl_mask = 1ULL << SINK_PORTAL;
	b.fa_msg_mask = LNET_FAULT_MSG_PUT;
	add(p->n0, a);
	add(p->n0, b);
	assert_int_equal(get(p->n0, LNET_FAULT_DROP, 1, &out), 0);
	assert_int_equal(out.fa_src.fn_kind, LNET_FAULT_NID_NET);
	assert_true(out.fa_ptl_mask == 1ULL << SINK_PORTAL);
	assert_int_equal(out.fa_index, 1);
	assert_int_equal(get(p->n0, LNET_FAULT_DROP, 2, &out), -ENOENT);
	/* delete b by its patterns: a stays */
	out = (struct lnet_ioc_fault){ .fa_type = LNET_FAULT_DROP, .fa_src = b.fa_src,
				       .fa_dst = b.fa_dst };
	assert_int_equal(fault_ioc(p->n0, IOC_LNET_FAULT_DEL, &out), 0);
	assert_int_equal(out.fa_index, 1);
	assert_int_equal(get(p->n0, LNET_FAULT_DROP, 0, &out), 0);
	assert_int_equal(out.fa_rate, 3);
	assert_int_equal(get(p->n0, LNET_FAULT_DROP, 1, &out), -ENOENT);
	assert_int_equal(del_all(p->n0, LNET_FAULT_DROP), 1);
}

/* ---- drops ------------------------------------------------------------------------- */

/* One in 4 PUTs: 12 PUTs lose exactly 3, and the rule counts them. */
static void test_drop_rate(void **state)
{
	struct pair *p = *state;
	struct lnet_ioc_fault f = rule(LNET_FAULT_DROP, 4), out;
	int i, failed = 0;

	f.fa_msg_mask = LNET_FAULT_MSG_PUT;
	f.fa_hstatus_mask = 1U << LNET_IOC_HS_LOCAL_ERROR;
	add(p->n0, f);
	for (i = 0; i < 12; i++)
		failed += put(p->n0) != 0;
	assert_int_equal(failed, 3);
	assert_int_equal(get(p->n0, LNET_FAULT_DROP, 0, &out), 0);
	assert_int_equal(out.fs_count, 3);
	assert_int_equal(out.fs_msgs[LNET_MSG_PUT], 3);
	assert_int_equal(out.fs_msgs[LNET_MSG_ACK], 0);
	/* reset: the counters, not the rule */
	out = (struct lnet_ioc_fault){ .fa_type = LNET_FAULT_DROP };
	assert_int_equal(fault_ioc(p->n0, IOC_LNET_FAULT_RESET, &out), 0);
	assert_int_equal(get(p->n0, LNET_FAULT_DROP, 0, &out), 0);
	assert_int_equal(out.fs_count, 0);
	assert_int_equal(out.fa_rate, 4);
}

/*
 * One per interval: the first PUT at once, then none for the rest of the
 * hour; with F_RANDOM, one at most in the hour's window.
 */
static void test_drop_interval(void **state)
{
	struct pair *p = *state;
	struct lnet_ioc_fault f = rule(LNET_FAULT_DROP, 0), out;
	int i, failed = 0;

	f.fa_interval = 3600;
	f.fa_hstatus_mask = 1U << LNET_IOC_HS_LOCAL_ERROR;
	f.fa_msg_mask = LNET_FAULT_MSG_PUT;
	add(p->n0, f);
	assert_int_not_equal(put(p->n0), 0);
	for (i = 0; i < 5; i++)
		assert_int_equal(put(p->n0), 0);
	assert_int_equal(del_all(p->n0, LNET_FAULT_DROP), 1);
	f.fa_flags = LNET_FAULT_F_RANDOM;
	add(p->n0, f);
	for (i = 0; i < 5; i++)
		failed += put(p->n0) != 0;
	assert_int_equal(get(p->n0, LNET_FAULT_DROP, 0, &out), 0);
	assert_int_equal(out.fs_count, failed);
	assert_true(failed <= 1);
}

/* A rule for GETs and one for another portal leave our PUTs alone. */
static void test_drop_filters(void **state)
{
	struct pair *p = *state;
	struct lnet_ioc_fault f = rule(LNET_FAULT_DROP, 1), out;

	f.fa_msg_mask = LNET_FAULT_MSG_GET;
	f.fa_hstatus_mask = 1U << LNET_IOC_HS_LOCAL_ERROR;
	add(p->n0, f);
	f.fa_msg_mask = 0;
	f.fa_ptl_mask = 1ULL << (SINK_PORTAL + 1);
	add(p->n0, f);
	assert_int_equal(put(p->n0), 0);
	assert_int_equal(get(p->n0, LNET_FAULT_DROP, 0, &out), 0);
	assert_int_equal(out.fs_count, 0);
	assert_int_equal(get(p->n0, LNET_FAULT_DROP, 1, &out), 0);
	assert_int_equal(out.fs_count, 0);
}

/* A drop with a remote health status lowers the peer NI's health. */
static void test_drop_health(void **state)
{
	struct pair *p = *state;
	struct lnet_ioc_fault f = rule(LNET_FAULT_DROP, 1);
	struct lnet_nid peer = memlnd_nid(PEER);
	struct lnet_peer_ni *lpni;

	f.fa_hstatus_mask = 1U << LNET_IOC_HS_REMOTE_ERROR;
	add(p->n0, f);
	assert_int_not_equal(put(p->n0), 0);
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	lpni = lnet_peer_ni_find(&p->n0->ln, &peer);
	assert_non_null(lpni);
	assert_true(lpni->lpni_health.lh_value < LNET_MAX_HEALTH);
	assert_int_equal(lpni->lpni_health.lh_fail[LNET_MSG_STATUS_REMOTE_ERROR], 1);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
}

/* On node1, a drop rule on receive: the PUT never lands, node0 times out. */
static void test_drop_recv(void **state)
{
	struct pair *p = *state;
	struct lnet_ioc_fault f = rule(LNET_FAULT_DROP, 1), out;

	set_global(p->n0, LNET_GLOBAL_TRANSACTION_TIMEOUT, 1);
	f.fa_msg_mask = LNET_FAULT_MSG_PUT;
	add(p->n1, f);
	assert_int_not_equal(put(p->n0), 0);
	assert_int_equal(get(p->n1, LNET_FAULT_DROP, 0, &out), 0);
	assert_int_equal(out.fs_count, 1);
	assert_int_equal(out.fs_msgs[LNET_MSG_PUT], 1);
}

/* ---- delays -------------------------------------------------------------------------- */

/* A delayed PUT is held, then delivered; the rule counts it. */
static void test_delay_delivers(void **state)
{
	struct pair *p = *state;
	struct lnet_ioc_fault f = rule(LNET_FAULT_DELAY, 1), out;
	struct memlnd_op *op = calloc(1, sizeof(*op));

	f.fa_msg_mask = LNET_FAULT_MSG_PUT;
	add(p->n0, f);
	put_start(op, p->n0);
	assert_true(held(p->n0));
	assert_false(memlnd_op_final(op));
	assert_true(memlnd_wait(memlnd_op_final, op, 5000));
	assert_int_equal(op->status, 0);
	assert_int_equal(op->nack, 1);
	assert_true(memlnd_wait(memlnd_op_unlinked, op, 5000));
	assert_int_equal(get(p->n0, LNET_FAULT_DELAY, 0, &out), 0);
	assert_int_equal(out.fs_count, 1);
	assert_int_equal(out.fs_msgs[LNET_MSG_PUT], 1);
	free(op);
}

/* Deleting the rule sends what it holds at once (latency: an hour). */
static void test_delay_del_releases(void **state)
{
	struct pair *p = *state;
	struct lnet_ioc_fault f = rule(LNET_FAULT_DELAY, 1);
	struct memlnd_op *op = calloc(1, sizeof(*op));

	f.fa_latency = LNET_FAULT_LATENCY_MAX;
	add(p->n0, f);
	put_start(op, p->n0);
	assert_true(held(p->n0));
	assert_int_equal(del_all(p->n0, LNET_FAULT_DELAY), 1);
	assert_false(held(p->n0));
	assert_true(memlnd_wait(memlnd_op_final, op, 5000));
	assert_int_equal(op->status, 0);
	assert_true(memlnd_wait(memlnd_op_unlinked, op, 5000));
	free(op);
}

/* The NI a held message goes by is deleted: the message fails at once. */
static void test_delay_ni_deleted(void **state)
{
	struct pair *p = *state;
	struct lnet_ioc_fault f = rule(LNET_FAULT_DELAY, 1);
	struct memlnd_op *op = calloc(1, sizeof(*op));

	f.fa_latency = LNET_FAULT_LATENCY_MAX;
	add(p->n0, f);
	put_start(op, p->n0);
	assert_true(held(p->n0));
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(lnet_net_del(&p->n0->ln, LNET_NET_ID(LNET_LND_TCP, 0), "m0e0"), 0);
	assert_true(list_empty(&p->n0->ln.ln_fault_held));
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	assert_true(memlnd_wait(memlnd_op_final, op, 5000));
	assert_int_not_equal(op->status, 0);
	assert_true(memlnd_wait(memlnd_op_unlinked, op, 5000));
	free(op);
}

static bool rx_held(void *arg)
{
	struct memlnd_node *n = arg;
	bool h;

	os_mutex_lock(&n->ln.ln_api_mutex);
	h = !list_empty(&n->ln.ln_fault_rx_held);
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return h;
}

/* On node1, a delay rule holds the PUT it receives, then takes it in. */
static void test_delay_recv(void **state)
{
	struct pair *p = *state;
	struct lnet_ioc_fault f = rule(LNET_FAULT_DELAY, 1), out;
	struct memlnd_op *op = calloc(1, sizeof(*op));

	f.fa_msg_mask = LNET_FAULT_MSG_PUT;
	add(p->n1, f);
	put_start(op, p->n0);
	assert_true(memlnd_wait(rx_held, p->n1, 2000));
	assert_false(memlnd_op_final(op));
	assert_true(memlnd_wait(memlnd_op_final, op, 5000));
	assert_int_equal(op->status, 0);
	assert_int_equal(op->nack, 1);
	assert_true(memlnd_wait(memlnd_op_unlinked, op, 5000));
	assert_false(rx_held(p->n1));
	assert_int_equal(get(p->n1, LNET_FAULT_DELAY, 0, &out), 0);
	assert_int_equal(out.fs_msgs[LNET_MSG_PUT], 1);
	free(op);
}

/* Node1 unconfigures while it holds a received PUT: discarded, not leaked. */
static void test_delay_recv_unconfigure(void **state)
{
	struct pair *p = *state;
	struct lnet_ioc_fault f = rule(LNET_FAULT_DELAY, 1);
	struct memlnd_op *op = calloc(1, sizeof(*op));

	set_global(p->n0, LNET_GLOBAL_TRANSACTION_TIMEOUT, 1);
	f.fa_latency = LNET_FAULT_LATENCY_MAX;
	f.fa_msg_mask = LNET_FAULT_MSG_PUT;
	add(p->n1, f);
	put_start(op, p->n0);
	assert_true(memlnd_wait(rx_held, p->n1, 2000));
	os_mutex_lock(&p->n1->ln.ln_api_mutex);
	assert_int_equal(lnet_unconfigure(&p->n1->ln), 0);
	assert_true(list_empty(&p->n1->ln.ln_fault_rx_held));
	os_mutex_unlock(&p->n1->ln.ln_api_mutex);
	/* node0 never gets its ACK */
	assert_true(memlnd_wait(memlnd_op_final, op, 5000));
	assert_int_not_equal(op->status, 0);
	assert_true(memlnd_wait(memlnd_op_unlinked, op, 5000));
	free(op);
}

/* Unconfigure with a message held: it fails, nothing leaks (teardown checks). */
static void test_delay_unconfigure(void **state)
{
	struct pair *p = *state;
	struct lnet_ioc_fault f = rule(LNET_FAULT_DELAY, 1);
	struct memlnd_op *op = calloc(1, sizeof(*op));

	f.fa_latency = LNET_FAULT_LATENCY_MAX;
	add(p->n0, f);
	put_start(op, p->n0);
	assert_true(held(p->n0));
	os_mutex_lock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(lnet_unconfigure(&p->n0->ln), 0);
	assert_true(list_empty(&p->n0->ln.ln_fault_held));
	assert_int_equal(p->n0->ln.ln_fault_nrules[1], 0);
	os_mutex_unlock(&p->n0->ln.ln_api_mutex);
	assert_int_equal(op->nfinal, 1);
	assert_int_equal(op->status, -ESHUTDOWN);
	assert_true(op->unlinked);
	free(op);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_add_checks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_add_get_del, setup, teardown),
		cmocka_unit_test_setup_teardown(test_drop_rate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_drop_interval, setup, teardown),
		cmocka_unit_test_setup_teardown(test_drop_filters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_drop_health, setup, teardown),
		cmocka_unit_test_setup_teardown(test_drop_recv, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delay_delivers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delay_del_releases, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delay_ni_deleted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delay_recv, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delay_recv_unconfigure, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delay_unconfigure, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
