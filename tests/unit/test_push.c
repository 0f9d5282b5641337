// SPDX-License-Identifier: GPL-2.0-only
/*
 * The push target under pushes that arrive at the same time: a fake LND
 * holds each receive it is given (as the socket LND does while it reads
 * a payload off the wire), so two peers' pushes are both matched before
 * either's bytes are written. Each must land in its own place and teach
 * us exactly its own NIDs; the target keeps taking pushes after its
 * buffers are used up.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../kernel/core/lnet_priv.h"
#include "../../kernel/udsp/udsp.h"
#include "../../kernel/core/ping_priv.h"
#include "fake_if.h"

#define TCP		LNET_NET_ID(LNET_LND_TCP, 0)
#define MAX_HELD	64

/* Receives the fake LND was given and has not finished. */
static struct {
	struct lnet_msg *msg[MAX_HELD];
	u8 *buf[MAX_HELD];
	u32 mlen[MAX_HELD];
	unsigned int n;
} rx;

static int fake_startup(struct lnet *ln, struct lnet_ni *ni)
{
	return 0;
}

static void fake_shutdown(struct lnet *ln, struct lnet_ni *ni)
{
}

static int fake_send(struct lnet_ni *ni, struct lnet_msg *msg)
{
	return -EIO;	/* pushes are received here, never sent */
}

static int fake_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
		     void *buf, u32 mlen, u32 rlen)
{
	assert_true(rx.n < MAX_HELD);
	rx.msg[rx.n] = msg;
	rx.buf[rx.n] = buf;
	rx.mlen[rx.n] = mlen;
	rx.n++;
	return 0;
}

static const struct lnet_lnd fake_lnd = {
	.lnd_type	= LNET_LND_TCP,
	.lnd_startup	= fake_startup,
	.lnd_shutdown	= fake_shutdown,
	.lnd_send	= fake_send,
	.lnd_recv	= fake_recv,
};

static const struct fake_if fake_ifs[] = {
	FAKE_IF4("eth0", 10, 0, 0, 1),
};

static int fake_lookup(const char *ifname, struct os_ifaddr *out)
{
	return fake_if_lookup(fake_ifs, FAKE_IF_COUNT(fake_ifs), ifname, out);
}

static struct lnet_nid nid4(u8 c, u8 d)
{
	u8 addr[4] = { 10, 0, c, d };
	struct lnet_nid n;

	memset(&n, 0, sizeof(n));
	lnet_nid_make(&n, TCP, addr, 4);
	return n;
}

/* The wire bytes of a push from a peer with NIDs 10.0.0.@d and 10.0.1.@d. */
static int push_bytes(u8 d, u8 *buf, size_t len)
{
	struct lnet_ping_info *pi = lnet_ping_info_alloc(2);
	int n;

	assert_non_null(pi);
	pi->pi_magic = LNET_PROTO_PING_MAGIC;
	pi->pi_features = LNET_PING_FEAT_BASE | LNET_PING_FEAT_NI_STATUS |
			  LNET_PING_FEAT_MULTI_RAIL;
	pi->pi_pid = LNET_PID_LUSTRE;
	pi->pi_nnis = 2;
	pi->pi_ni[0].ns_nid = nid4(0, d);
	pi->pi_ni[0].ns_status = LNET_NI_STATUS_UP_WIRE;
	pi->pi_ni[1].ns_nid = nid4(1, d);
	pi->pi_ni[1].ns_status = LNET_NI_STATUS_UP_WIRE;
	n = lnet_ping_info_encode(pi, buf, len);
	os_free(pi);
	assert_true(n > 0);
	return n;
}

/* Announce a push of @len bytes from 10.0.0.@d (its receive is held). Unlocked. */
static void push_parse(struct lnet *ln, struct lnet_ni *ni, u8 d, u32 len)
{
	struct lnet_nid from = nid4(0, d);
	struct lnet_hdr h;

	memset(&h, 0, sizeof(h));
	h.dest_nid = ni->ni_nid;
	h.src_nid = from;
	h.dest_pid = LNET_PID_LUSTRE;
	h.src_pid = LNET_PID_LUSTRE;
	h.type = LNET_MSG_PUT;
	h.payload_length = len;
	h.msg.put.ptl_index = LNET_RESERVED_PORTAL;
	h.msg.put.match_bits = LNET_PROTO_PING_MATCHBITS;
	h.msg.put.ack_wmd.wh_interface_cookie = LNET_WIRE_COOKIE_NONE;
	h.msg.put.ack_wmd.wh_object_cookie = LNET_WIRE_COOKIE_NONE;
	assert_int_equal(lnet_parse(ln, ni, &h, &from, NULL), 0);
}

/* Does 10.0.0.@d's peer hold exactly 10.0.0.@d and 10.0.1.@d? */
static bool peer_is(struct lnet *ln, u8 d)
{
	struct lnet_nid a = nid4(0, d), b = nid4(1, d);
	struct lnet_peer_ni *pa, *pb;

	pa = lnet_peer_ni_find(ln, &a);
	pb = lnet_peer_ni_find(ln, &b);
	return pa && pb && pa->lpni_peer_net->lpn_peer == pb->lpni_peer_net->lpn_peer &&
	       pa->lpni_peer_net->lpn_peer->lp_nnis == 2;
}

/* Wait (lock held, released meanwhile) until the monitor merged them all. */
static bool peers_are(struct lnet *ln, const u8 *ds, unsigned int n)
{
	unsigned int i, tries, ok;

	for (tries = 0; tries < 500; tries++) {
		for (i = 0, ok = 0; i < n; i++)
			ok += peer_is(ln, ds[i]);
		if (ok == n)
			return true;
		os_mutex_unlock(&ln->ln_api_mutex);
		usleep(10000);
		os_mutex_lock(&ln->ln_api_mutex);
	}
	return false;
}

static int setup(void **state)
{
	struct lnet *ln = calloc(1, sizeof(*ln));

	assert_non_null(ln);
	memset(&rx, 0, sizeof(rx));
	lnet_init(ln);
	assert_int_equal(lnet_builtin_register(ln), 0);
	ln->ln_if_lookup = fake_lookup;
	assert_int_equal(lnet_lnd_register(ln, &fake_lnd), 0);
	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_configure(ln), 0);
	assert_int_equal(lnet_ni_add(ln, TCP, "eth0", NULL), 0);
	lnet_dp_monitor_ensure(ln);
	os_mutex_unlock(&ln->ln_api_mutex);
	*state = ln;
	return 0;
}

static int teardown(void **state)
{
	struct lnet *ln = *state;

	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_unconfigure(ln), 0);
	assert_int_equal(ln->ln_nobjects, 0);
	os_mutex_unlock(&ln->ln_api_mutex);
	lnet_fini(ln);
	free(ln);
	return 0;
}

/* Our NI (it stays while the test runs; looked up under the lock). */
static struct lnet_ni *the_ni(struct lnet *ln)
{
	struct lnet_nid nid = nid4(0, 1);
	struct lnet_ni *ni;

	os_mutex_lock(&ln->ln_api_mutex);
	ni = lnet_ni_find(ln, &nid);
	os_mutex_unlock(&ln->ln_api_mutex);
	assert_non_null(ni);
	return ni;
}

/*
 * Two peers push at the same moment: both PUTs are matched, then both
 * payloads written, then both finalized. Different places in the
 * target; each peer gets its own two NIDs.
 */
static void test_two_pushes_at_once(void **state)
{
	static const u8 ds[] = { 50, 60 };
	struct lnet *ln = *state;
	u8 x[256], y[256];
	int lx, ly;

	lx = push_bytes(50, x, sizeof(x));
	ly = push_bytes(60, y, sizeof(y));
	assert_int_equal(lx, ly);
	push_parse(ln, the_ni(ln), 50, (u32)lx);
	push_parse(ln, the_ni(ln), 60, (u32)ly);
	assert_int_equal(rx.n, 2);
	assert_int_equal(rx.mlen[0], lx);
	assert_int_equal(rx.mlen[1], ly);
	assert_true(rx.buf[0] + lx <= rx.buf[1] || rx.buf[1] + ly <= rx.buf[0]);
	memcpy(rx.buf[0], x, lx);
	memcpy(rx.buf[1], y, ly);
	lnet_finalize(ln, rx.msg[0], 0);
	lnet_finalize(ln, rx.msg[1], 0);
	os_mutex_lock(&ln->ln_api_mutex);
	assert_true(peers_are(ln, ds, 2));
	os_mutex_unlock(&ln->ln_api_mutex);
}

/*
 * 40 peers push, 10 at a time: more pushes than the buffers posted at
 * first hold (2 x 8), so used-up buffers go and fresh ones take over;
 * every push lands and every peer is learnt.
 */
#define NPUSH		40
#define AT_ONCE		10
static void test_pushes_outlast_the_buffers(void **state)
{
	struct lnet *ln = *state;
	u8 ds[NPUSH], b[256];
	unsigned int i, k;
	int len = 0;

	for (k = 0; k < NPUSH; k += AT_ONCE) {
		rx.n = 0;
		for (i = k; i < k + AT_ONCE; i++) {
			ds[i] = (u8)(100 + i);
			len = push_bytes(ds[i], b, sizeof(b));
			push_parse(ln, the_ni(ln), ds[i], (u32)len);
		}
		assert_int_equal(rx.n, AT_ONCE);
		for (i = 0; i < AT_ONCE; i++) {
			assert_int_equal(rx.mlen[i], len);
			push_bytes(ds[k + i], rx.buf[i], rx.mlen[i]);
		}
		for (i = 0; i < AT_ONCE; i++)
			lnet_finalize(ln, rx.msg[i], 0);
	}
	os_mutex_lock(&ln->ln_api_mutex);
	assert_true(peers_are(ln, ds, NPUSH));
	os_mutex_unlock(&ln->ln_api_mutex);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_two_pushes_at_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pushes_outlast_the_buffers, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
