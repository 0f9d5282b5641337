// SPDX-License-Identifier: GPL-2.0-only
/*
 * The selftest service and the ioctls of ping, discover and selftest:
 * runs over 0@lo with exact counts; a PUT with wrong bytes counted by the
 * receiving side (st_selftest_corrupt); a GET answered with wrong bytes
 * counted corrupt by the initiator; a message that never completes
 * (a fake tcp LND that holds every send) counted failed after the
 * timeout and freed when LNet goes down (the sanitized build checks that
 * nothing leaks or is used after free); every argument check.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../kernel/core/lnet_priv.h"
#include "../../kernel/udsp/udsp.h"
#include "../../kernel/core/selftest.h"
#include "fake_if.h"

#define TCP	LNET_NET_ID(LNET_LND_TCP, 0)

/* ---- a tcp LND that holds every send until it is shut down ---------------------- */

#define MAX_HELD	16

static struct lnet_msg *held[MAX_HELD];
static unsigned int nheld;

static int hold_startup(struct lnet *ln, struct lnet_ni *ni)
{
	return 0;
}

static void hold_shutdown(struct lnet *ln, struct lnet_ni *ni)
{
	unsigned int i;

	for (i = 0; i < nheld; i++)
		if (held[i] && held[i]->msg_txni == ni) {
			struct lnet_msg *msg = held[i];

			held[i] = NULL;
			lnet_finalize(ln, msg, -ESHUTDOWN);
		}
}

static int send_rc;		/* not 0: hold_send fails every send with it */

static int hold_send(struct lnet_ni *ni, struct lnet_msg *msg)
{
	if (send_rc)
		return send_rc;
	assert_true(nheld < MAX_HELD);
	held[nheld++] = msg;
	return 0;
}

static int hold_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
		     void *buf, u32 mlen, u32 rlen)
{
	return -EIO;
}

static const struct lnet_lnd hold_lnd = {
	.lnd_type = LNET_LND_TCP,
	.lnd_startup = hold_startup,
	.lnd_shutdown = hold_shutdown,
	.lnd_send = hold_send,
	.lnd_recv = hold_recv,
};

static const struct fake_if fake_ifs[] = {
	FAKE_IF4("eth0", 10, 0, 0, 1),
};

static int fake_lookup(const char *ifname, struct os_ifaddr *out)
{
	return fake_if_lookup(fake_ifs, FAKE_IF_COUNT(fake_ifs), ifname, out);
}

/* ---- instance ------------------------------------------------------------------------ */

static int setup(void **state)
{
	struct lnet *ln = calloc(1, sizeof(*ln));
	struct lnet_ioc_config c = { .cfg_hdr = { sizeof(c), LNET_IOC_VERSION } };

	assert_non_null(ln);
	memset(held, 0, sizeof(held));
	nheld = 0;
	lnet_init(ln);
	assert_int_equal(lnet_builtin_register(ln), 0);
	ln->ln_if_lookup = fake_lookup;
	assert_int_equal(lnet_lnd_register(ln, &hold_lnd), 0);
	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_CONFIGURE, &c, sizeof(c), true), 0);
	/* the held sends are counted: no discovery ping before them */
	ln->ln_globals[LNET_GLOBAL_DISCOVERY] = 0;
	*state = ln;
	return 0;
}

static int teardown(void **state)
{
	struct lnet *ln = *state;

	lnet_fini(ln);		/* unconfigures: held sends fail, slots and service go */
	assert_int_equal(ln->ln_nobjects, 0);
	free(ln);
	return 0;
}

static struct lnet_nid nid_of(u8 lnd, u8 a, u8 b, u8 c, u8 d)
{
	u8 addr[4] = { a, b, c, d };
	struct lnet_nid n;

	memset(&n, 0, sizeof(n));
	lnet_nid_make(&n, LNET_NET_ID(lnd, 0), addr, 4);
	return n;
}

static struct lnet_nid lo_nid(void)
{
	return nid_of(LNET_LND_LO, 0, 0, 0, 0);
}

static struct lnet_ioc_selftest req_of(u32 op, u32 size, u32 count, u32 concurrency)
{
	struct lnet_ioc_selftest r = {
		.sft_hdr = { sizeof(r), LNET_IOC_VERSION },
		.sft_op = op, .sft_size = size, .sft_count = count,
		.sft_concurrency = concurrency, .sft_timeout_ms = 5000,
	};

	r.sft_target = lo_nid();
	return r;
}

static int run(struct lnet *ln, struct lnet_ioc_selftest *r)
{
	return lnet_ioctl(ln, IOC_LNET_SELFTEST, r, sizeof(*r), true);
}

static u64 target_corrupt(struct lnet *ln)
{
	struct lnet_ioc_stats st = { .st_hdr = { sizeof(st), LNET_IOC_VERSION } };

	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_GET_LNET_STATS, &st, sizeof(st), false), 0);
	return st.st_selftest_corrupt;
}

/* ---- runs over 0@lo ------------------------------------------------------------------- */

static void test_runs_lo(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_selftest r = req_of(LNET_SELFTEST_OP_PUT, LNET_SELFTEST_MAX_SIZE, 20, 4);

	assert_int_equal(run(ln, &r), 0);
	assert_int_equal(r.sft_ok, 20);
	assert_int_equal(r.sft_failed, 0);
	assert_int_equal(r.sft_corrupt, 0);
	assert_true(r.sft_elapsed_ns > 0);
	r = req_of(LNET_SELFTEST_OP_GET, 12345, 50, 64);
	assert_int_equal(run(ln, &r), 0);
	assert_int_equal(r.sft_ok, 50);
	assert_int_equal(r.sft_failed + r.sft_corrupt, 0);
	r = req_of(LNET_SELFTEST_OP_GET, 0, 1, 1);
	assert_int_equal(run(ln, &r), 0);
	assert_int_equal(r.sft_ok, 1);
	assert_int_equal(target_corrupt(ln), 0);
	/* each PUT and ACK, GET and REPLY was sent once */
	assert_int_equal(ln->ln_dp.dp_count[LNET_STATS_SENT], 2 * (20 + 50 + 1));
	assert_int_equal(ln->ln_dp.dp_length[LNET_STATS_SENT],
			 20ULL * LNET_SELFTEST_MAX_SIZE + 50 * 12345);
}

/* ---- the target's check of a PUT ---------------------------------------------------- */

static unsigned int nacks;

static void count_ack(struct lnet *ln, struct lnet_event *ev)
{
	if (ev->type == LNET_EVENT_ACK && !ev->status)
		nacks++;
}

/* PUT @len bytes of @buf to our own selftest sink, as a peer would. */
static void put_to_sink_hdr(struct lnet *ln, u8 *buf, u32 len, u64 hdr_data)
{
	struct lnet_md md = { .start = buf, .length = len, .threshold = 2,
			      .handler = count_ack };
	struct lnet_nid lo = lo_nid();
	struct lnet_handle_md h;

	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_md_bind(ln, &md, &h), 0);
	assert_int_equal(lnet_put(ln, NULL, h, true, &lo, LNET_PID_LUSTRE,
				  LNET_SELFTEST_PORTAL, LNET_SELFTEST_PUT_BITS, 0, len,
				  hdr_data), 0);
	lnet_md_unlink(ln, h);
	os_mutex_unlock(&ln->ln_api_mutex);
}

static void put_to_sink(struct lnet *ln, u8 *buf, u32 len)
{
	put_to_sink_hdr(ln, buf, len, 0);
}

static void test_put_corrupt_counted_by_target(void **state)
{
	struct lnet *ln = *state;
	u8 buf[300];
	u32 i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = lnet_selftest_byte(i);
	nacks = 0;
	put_to_sink(ln, buf, sizeof(buf));
	assert_int_equal(target_corrupt(ln), 0);
	buf[299] ^= 1;
	put_to_sink(ln, buf, sizeof(buf));
	assert_int_equal(target_corrupt(ln), 1);
	buf[299] ^= 1;
	buf[0] = 0;
	/* more PUTs than sinks: each sink is posted again after its PUT */
	for (i = 0; i < 3 * LNET_SELFTEST_NSINKS; i++)
		put_to_sink(ln, buf, sizeof(buf));
	assert_int_equal(nacks, 2 + 3 * LNET_SELFTEST_NSINKS);
	assert_int_equal(target_corrupt(ln), 1 + 3 * LNET_SELFTEST_NSINKS);
	/* stats reset zeroes it */
	{
		struct lnet_ioc_stats st = { .st_hdr = { sizeof(st), LNET_IOC_VERSION } };

		assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_RESET_LNET_STATS, &st,
					    sizeof(st), true), 0);
	}
	assert_int_equal(target_corrupt(ln), 0);
}

/*
 * The check a PUT's hdr_data asks for: none sees no byte, simple sees both
 * ends of each 4096 bytes and the message's last 8, full every byte; any
 * other hdr_data (a bad magic, an unknown mode) gets the full check.
 */
static void test_put_check_modes(void **state)
{
	static const struct {
		u32 flip;		/* the byte made wrong */
		u64 hdr;		/* the PUT's hdr_data */
		u32 corrupt;		/* 1: the target counts it */
	} cases[] = {
		{ 5000, LNET_SELFTEST_HDR_CHECK(LNET_LST_CHECK_none), 0 },
		{ 0, LNET_SELFTEST_HDR_CHECK(LNET_LST_CHECK_none), 0 },
		{ 5000, LNET_SELFTEST_HDR_CHECK(LNET_LST_CHECK_simple), 0 },
		{ 4096 + 7, LNET_SELFTEST_HDR_CHECK(LNET_LST_CHECK_simple), 1 },
		{ 8191, LNET_SELFTEST_HDR_CHECK(LNET_LST_CHECK_simple), 1 },
		{ 8192 + 8, LNET_SELFTEST_HDR_CHECK(LNET_LST_CHECK_simple), 0 },
		{ 9999, LNET_SELFTEST_HDR_CHECK(LNET_LST_CHECK_simple), 1 },	/* the last 8 */
		{ 5000, LNET_SELFTEST_HDR_CHECK(LNET_LST_CHECK_full), 1 },
		{ 5000, 0, 1 },
		{ 5000, LNET_SELFTEST_HDR_CHECK(4), 1 },
		{ 5000, ((u64)(LNET_SELFTEST_HDR_MAGIC ^ 1) << 32) | LNET_LST_CHECK_none, 1 },
	};
	struct lnet *ln = *state;
	static u8 buf[10000];
	u64 before;
	u32 i, c;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = lnet_selftest_byte(i);
	nacks = 0;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		before = target_corrupt(ln);
		buf[cases[c].flip] ^= 0x40;
		put_to_sink_hdr(ln, buf, sizeof(buf), cases[c].hdr);
		buf[cases[c].flip] ^= 0x40;
		assert_int_equal(target_corrupt(ln) - before, cases[c].corrupt);
	}
	assert_int_equal(nacks, c);
	/* a short message under simple: every byte of it is an end */
	before = target_corrupt(ln);
	buf[3] ^= 1;
	put_to_sink_hdr(ln, buf, 12, LNET_SELFTEST_HDR_CHECK(LNET_LST_CHECK_simple));
	buf[3] ^= 1;
	assert_int_equal(target_corrupt(ln) - before, 1);
}

/* The ioctl's sft_check reaches the target in each PUT's hdr_data. */
static unsigned int nputs;
static u64 last_hdr_data;

static void spy_put(struct lnet *ln, struct lnet_event *ev)
{
	if (ev->type == LNET_EVENT_PUT) {
		nputs++;
		last_hdr_data = ev->hdr_data;
	}
}

static void test_put_carries_check(void **state)
{
	static const struct lnet_nid any;
	static u8 sink[64];
	struct lnet *ln = *state;
	struct lnet_md md = { .start = sink, .length = sizeof(sink),
			      .threshold = LNET_MD_THRESH_INF,
			      .options = LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE,
			      .handler = spy_put };
	struct lnet_ioc_selftest r;
	struct lnet_handle_md h;
	u32 mode;

	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_me_attach_md(ln, LNET_SELFTEST_PORTAL, &any, LNET_PID_ANY,
					   LNET_SELFTEST_PUT_BITS, 0, false, &md, &h), 0);
	os_mutex_unlock(&ln->ln_api_mutex);
	for (mode = 0; mode <= LNET_LST_CHECK_full; mode++) {
		r = req_of(LNET_SELFTEST_OP_PUT, 32, 2, 1);
		r.sft_check = mode;
		nputs = 0;
		assert_int_equal(run(ln, &r), 0);
		assert_int_equal(r.sft_ok, 2);
		assert_int_equal(nputs, 2);
		assert_true(last_hdr_data ==
			    LNET_SELFTEST_HDR_CHECK(mode ? mode : LNET_LST_CHECK_full));
	}
	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_md_unlink(ln, h), 0);
	os_mutex_unlock(&ln->ln_api_mutex);
}

/* ---- the initiator's check of a GET ------------------------------------------------- */

static void test_get_corrupt_counted_by_initiator(void **state)
{
	struct lnet *ln = *state;
	static u8 bad[4096];
	struct lnet_md md = { .start = bad, .length = sizeof(bad),
			      .threshold = LNET_MD_THRESH_INF,
			      .options = LNET_MD_OP_GET | LNET_MD_MANAGE_REMOTE };
	struct lnet_ioc_selftest r = req_of(LNET_SELFTEST_OP_GET, sizeof(bad), 5, 2);
	static const struct lnet_nid any;
	struct lnet_handle_md h;
	u32 i;

	/* the pattern but one byte, served ahead of the service's source */
	for (i = 0; i < sizeof(bad); i++)
		bad[i] = lnet_selftest_byte(i);
	bad[4000] ^= 0x80;
	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_me_attach_md(ln, LNET_SELFTEST_PORTAL, &any, LNET_PID_ANY,
					   LNET_SELFTEST_GET_BITS, 0, false, &md, &h), 0);
	os_mutex_unlock(&ln->ln_api_mutex);
	assert_int_equal(run(ln, &r), 0);
	assert_int_equal(r.sft_ok, 0);
	assert_int_equal(r.sft_failed, 0);
	assert_int_equal(r.sft_corrupt, 5);
	/* a shorter GET stops before the bad byte */
	r = req_of(LNET_SELFTEST_OP_GET, 4000, 3, 1);
	assert_int_equal(run(ln, &r), 0);
	assert_int_equal(r.sft_ok, 3);
	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_md_unlink(ln, h), 0);
	os_mutex_unlock(&ln->ln_api_mutex);
	r = req_of(LNET_SELFTEST_OP_GET, sizeof(bad), 5, 2);
	assert_int_equal(run(ln, &r), 0);
	assert_int_equal(r.sft_ok, 5);
}

/* The same wrong byte (mid-page) under each check mode of a GET. */
static void test_get_check_modes(void **state)
{
	static const u32 corrupt[] = {
		[0] = 3, [LNET_LST_CHECK_none] = 0, [LNET_LST_CHECK_simple] = 0,
		[LNET_LST_CHECK_full] = 3,
	};
	struct lnet *ln = *state;
	static u8 bad[8192];
	struct lnet_md md = { .start = bad, .length = sizeof(bad),
			      .threshold = LNET_MD_THRESH_INF,
			      .options = LNET_MD_OP_GET | LNET_MD_MANAGE_REMOTE };
	struct lnet_ioc_selftest r;
	static const struct lnet_nid any;
	struct lnet_handle_md h;
	u32 i, mode;

	for (i = 0; i < sizeof(bad); i++)
		bad[i] = lnet_selftest_byte(i);
	bad[6000] ^= 0x80;
	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_me_attach_md(ln, LNET_SELFTEST_PORTAL, &any, LNET_PID_ANY,
					   LNET_SELFTEST_GET_BITS, 0, false, &md, &h), 0);
	os_mutex_unlock(&ln->ln_api_mutex);
	for (mode = 0; mode <= LNET_LST_CHECK_full; mode++) {
		r = req_of(LNET_SELFTEST_OP_GET, sizeof(bad), 3, 1);
		r.sft_check = mode;
		assert_int_equal(run(ln, &r), 0);
		assert_int_equal(r.sft_corrupt, corrupt[mode]);
		assert_int_equal(r.sft_ok, 3 - corrupt[mode]);
	}
	/* simple sees a page's last byte; none sees nothing but the length */
	bad[6000] ^= 0x80;
	bad[8191] ^= 0x80;
	r = req_of(LNET_SELFTEST_OP_GET, sizeof(bad), 2, 1);
	r.sft_check = LNET_LST_CHECK_simple;
	assert_int_equal(run(ln, &r), 0);
	assert_int_equal(r.sft_corrupt, 2);
	os_mutex_lock(&ln->ln_api_mutex);
	assert_int_equal(lnet_md_unlink(ln, h), 0);
	os_mutex_unlock(&ln->ln_api_mutex);
}

/* ---- messages that never complete ---------------------------------------------------- */

static void add_tcp(struct lnet *ln)
{
	struct lnet_ioc_ni n = { .ni_hdr = { sizeof(n), LNET_IOC_VERSION }, .ni_net = TCP,
				 .ni_ifname = "eth0", .ni_tun = { -1, -1, -1, -1 } };

	assert_int_equal(lnet_ioctl(ln, IOC_LIBCFS_ADD_NET, &n, sizeof(n), true), 0);
}

static void test_timeout_then_shutdown(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_selftest r = req_of(LNET_SELFTEST_OP_GET, 1000, 5, 3);

	add_tcp(ln);
	r.sft_target = nid_of(LNET_LND_TCP, 10, 0, 0, 2);
	r.sft_timeout_ms = 50;
	assert_int_equal(run(ln, &r), 0);
	assert_int_equal(r.sft_ok, 0);
	assert_int_equal(r.sft_corrupt, 0);
	assert_int_equal(r.sft_failed, 5);
	assert_true(r.sft_elapsed_ns >= 2 * 50000000ULL);	/* 3 then 2: two timeouts */
	/* no end event within the timeout: given up on, by the run itself */
	assert_int_equal(r.sft_failed_by[LNET_SELFTEST_FAIL_ABANDONED], 5);
	assert_int_equal(r.sft_duplicate, 0);
	assert_int_equal(nheld, 5);
	/* the run is over, the LND still holds the five: teardown frees them */
	r = req_of(LNET_SELFTEST_OP_PUT, 10, 4, 4);
	r.sft_target = nid_of(LNET_LND_TCP, 10, 0, 0, 1);	/* our own NID: lolnd */
	assert_int_equal(run(ln, &r), 0);
	assert_int_equal(r.sft_ok, 4);
}

/* Sends the LND refuses end with an error event each: counted once, by cause. */
static void test_failed_by_cause(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_selftest r = req_of(LNET_SELFTEST_OP_PUT, 1000, 6, 2);
	unsigned int c;

	add_tcp(ln);
	r.sft_target = nid_of(LNET_LND_TCP, 10, 0, 0, 2);
	send_rc = -EIO;
	assert_int_equal(run(ln, &r), 0);
	send_rc = 0;
	assert_int_equal(r.sft_ok, 0);
	assert_int_equal(r.sft_failed, 6);
	for (c = 0; c < LNET_SELFTEST_NCAUSES; c++)
		if (c != LNET_SELFTEST_FAIL_NETWORK)
			assert_int_equal(r.sft_failed_by[c], 0);
	assert_int_equal(r.sft_failed_by[LNET_SELFTEST_FAIL_NETWORK], 6);
	assert_int_equal(r.sft_duplicate, 0);
	assert_int_equal(nheld, 0);
}

/* ---- arguments ---------------------------------------------------------------------- */

static void test_selftest_args(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ioc_selftest r;

#define BAD(field, value) do {							\
		r = req_of(LNET_SELFTEST_OP_PUT, 10, 1, 1);			\
		r.field = value;						\
		assert_int_equal(run(ln, &r), -EINVAL);				\
	} while (0)
	BAD(sft_op, 0);
	BAD(sft_op, 3);
	BAD(sft_size, LNET_SELFTEST_MAX_SIZE + 1);
	BAD(sft_count, 0);
	BAD(sft_count, LNET_SELFTEST_MAX_COUNT + 1);
	BAD(sft_concurrency, 0);
	BAD(sft_concurrency, LNET_SELFTEST_MAX_CONCURRENCY + 1);
	BAD(sft_timeout_ms, 0);
	BAD(sft_timeout_ms, LNET_SELFTEST_MAX_TIMEOUT_MS + 1);
	BAD(sft_check, LNET_LST_CHECK_full + 1);
	BAD(sft_pad2, 1);
	BAD(sft_reserved[3], 1);
	BAD(sft_target.nid_addr_len, 0);
	BAD(sft_src.nid_addr_len, 5);
#undef BAD
	/* a well-formed source that is not ours has its own errno */
	r = req_of(LNET_SELFTEST_OP_PUT, 10, 1, 1);
	r.sft_src = nid_of(LNET_LND_TCP, 10, 0, 0, 9);
	assert_int_equal(run(ln, &r), -EADDRNOTAVAIL);
	r = req_of(LNET_SELFTEST_OP_PUT, 10, 1, 1);
	r.sft_src = lo_nid();
	assert_int_equal(run(ln, &r), 0);
	assert_int_equal(r.sft_ok, 1);
	r = req_of(LNET_SELFTEST_OP_PUT, 10, 1, 1);
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_SELFTEST, &r, sizeof(r), false), -EPERM);
	assert_int_equal(lnet_ioctl(ln, IOC_LNET_SELFTEST, &r, sizeof(r) - 4, true), -EINVAL);
}

static struct lnet_ioc_ping ping_of(const struct lnet_nid *nid)
{
	struct lnet_ioc_ping p;

	memset(&p, 0, sizeof(p));
	p.ping_hdr.ioc_len = sizeof(p);
	p.ping_hdr.ioc_version = LNET_IOC_VERSION;
	p.ping_nid = *nid;
	p.ping_timeout_ms = 1000;
	return p;
}

static int ping(struct lnet *ln, unsigned int cmd, struct lnet_ioc_ping *p, bool may_modify)
{
	return lnet_ioctl(ln, cmd, p, sizeof(*p), may_modify);
}

static void test_ping_args(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid lo = lo_nid(), far = nid_of(LNET_LND_TCP, 10, 0, 0, 9);
	struct lnet_ioc_ping p = ping_of(&lo);

	add_tcp(ln);
	/* anyone may ping; the answer lists our NIDs, 0@lo left out */
	assert_int_equal(ping(ln, IOC_LIBCFS_PING_PEER, &p, false), 0);
	assert_true(lnet_nid_equal(&p.ping_primary, &lo));
	assert_int_equal(p.ping_multi_rail, 0);
	assert_int_equal(p.ping_nnids, 1);
	assert_int_equal(p.ping_nids[0].nid_lnd, LNET_LND_TCP);
	assert_int_equal(p.ping_nids[1].nid_addr_len, 0);
	/* discover changes peers: not for show-only callers */
	p = ping_of(&far);
	assert_int_equal(ping(ln, IOC_LIBCFS_DISCOVER, &p, false), -EPERM);
#define BAD(cmd, field, value) do {						\
		p = ping_of(&lo);						\
		p.field = value;						\
		assert_int_equal(ping(ln, cmd, &p, true), -EINVAL);		\
	} while (0)
	BAD(IOC_LIBCFS_PING_PEER, ping_timeout_ms, 0);
	BAD(IOC_LIBCFS_PING_PEER, ping_timeout_ms, LNET_PING_TIMEOUT_MAX_MS + 1);
	BAD(IOC_LIBCFS_PING_PEER, ping_flags, LNET_PING_F_FORCE);	/* DISCOVER only */
	BAD(IOC_LIBCFS_DISCOVER, ping_flags, 2);
	BAD(IOC_LIBCFS_DISCOVER, ping_src, lo);				/* no source */
	BAD(IOC_LIBCFS_PING_PEER, ping_reserved[0], 1);
	BAD(IOC_LIBCFS_PING_PEER, ping_nid.nid_addr_len, 0);
#undef BAD
	/* a well-formed source that is not ours has its own errno */
	p = ping_of(&lo);
	p.ping_src = far;
	assert_int_equal(ping(ln, IOC_LIBCFS_PING_PEER, &p, true), -EADDRNOTAVAIL);
	/* the held send never answers: the timeout */
	p = ping_of(&far);
	p.ping_timeout_ms = 30;
	assert_int_equal(ping(ln, IOC_LIBCFS_PING_PEER, &p, true), -ETIMEDOUT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_runs_lo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_put_corrupt_counted_by_target, setup, teardown),
		cmocka_unit_test_setup_teardown(test_put_check_modes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_put_carries_check, setup, teardown),
		cmocka_unit_test_setup_teardown(test_get_corrupt_counted_by_initiator, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_get_check_modes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timeout_then_shutdown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_by_cause, setup, teardown),
		cmocka_unit_test_setup_teardown(test_selftest_args, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ping_args, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
