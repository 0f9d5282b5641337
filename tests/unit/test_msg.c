// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the LNet messaging core: PUT/GET over 0@lo with the data
 * checked, match entries, MD thresholds/offsets/truncation, ACK_DISABLE,
 * the receive path through lnet_parse, and credits with a fake LND that
 * holds the sends it is given (registered for tcp; its NIs come from a
 * fake interface lookup). Every event is recorded: each message must be
 * finalized exactly once, and every object freed when LNet goes down.
 *
 * The monitor thread starts with the first traffic, so every call into
 * the core holds ln_api_mutex, as lnet_ioctl() does.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../kernel/core/lnet_priv.h"
#include "../../kernel/udsp/udsp.h"
#include "fake_if.h"

#define TCP		LNET_NET_ID(LNET_LND_TCP, 0)
#define PORTAL		5
#define BITS		0x1234ULL
#define MAX_EVENTS	64
#define MAX_HELD	32

/* ---- events ------------------------------------------------------------------ */

static struct lnet_event events[MAX_EVENTS];
static unsigned int held_at[MAX_EVENTS];	/* the fake LND's sends by then */
static unsigned int nevents;
static unsigned int fake_nheld(void);

static void record(struct lnet *ln, struct lnet_event *ev)
{
	assert_true(nevents < MAX_EVENTS);
	held_at[nevents] = fake_nheld();
	events[nevents++] = *ev;
}

/* How many events of @type (status @status) were recorded for @h. */
static unsigned int count_events(struct lnet_handle_md h, enum lnet_event_kind type,
				 int status)
{
	unsigned int i, n = 0;

	for (i = 0; i < nevents; i++)
		if (events[i].md_handle.cookie == h.cookie && events[i].type == type &&
		    events[i].status == status)
			n++;
	return n;
}

static struct lnet_event *event_of(struct lnet_handle_md h, enum lnet_event_kind type)
{
	unsigned int i;

	for (i = 0; i < nevents; i++)
		if (events[i].md_handle.cookie == h.cookie && events[i].type == type)
			return &events[i];
	fail_msg("no event %d for MD %llu", type, (unsigned long long)h.cookie);
	return NULL;
}

/* ---- the fake LND on tcp --------------------------------------------------------- */

struct fake {
	struct lnet *ln;
	struct lnet_msg *held[MAX_HELD];	/* sends given to us, in order */
	struct lnet_nid held_to[MAX_HELD];	/* copied at lnd_send */
	unsigned int nheld, nstarted, nshutdown;
	int send_rc;				/* lnd_send's answer */
	int shutdown_status;			/* what lnd_shutdown finalizes with */
	/* the last lnd_recv */
	struct lnet_msg *rx_msg;
	void *rx_buf;
	u32 rx_mlen, rx_rlen;
	unsigned int nrecv;
};

static struct fake fk;

static unsigned int fake_nheld(void)
{
	return fk.nheld;
}

static int fake_startup(struct lnet *ln, struct lnet_ni *ni)
{
	ni->ni_lnd_data = &fk;
	fk.ln = ln;
	fk.nstarted++;
	return 0;
}

/* Without the lock: finalize what we hold for @ni, as an LND must. */
static void fake_shutdown(struct lnet *ln, struct lnet_ni *ni)
{
	unsigned int i;

	fk.nshutdown++;
	for (i = 0; i < fk.nheld; i++)
		if (fk.held[i] && fk.held[i]->msg_txni == ni) {
			struct lnet_msg *msg = fk.held[i];

			fk.held[i] = NULL;
			lnet_finalize(ln, msg, fk.shutdown_status);
		}
}

static int fake_send(struct lnet_ni *ni, struct lnet_msg *msg)
{
	if (fk.send_rc)
		return fk.send_rc;
	assert_true(fk.nheld < MAX_HELD);
	fk.held_to[fk.nheld] = msg->msg_txpeer->lpni_nid;
	fk.held[fk.nheld++] = msg;
	return 0;
}

static int fake_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
		     void *buf, u32 mlen, u32 rlen)
{
	fk.rx_msg = msg;
	fk.rx_buf = buf;
	fk.rx_mlen = mlen;
	fk.rx_rlen = rlen;
	fk.nrecv++;
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
	FAKE_IF4("eth1", 10, 0, 0, 2),
};

static int fake_lookup(const char *ifname, struct os_ifaddr *out)
{
	return fake_if_lookup(fake_ifs, FAKE_IF_COUNT(fake_ifs), ifname, out);
}

/* Complete the @i-th held send (UNLOCKED, as an LND thread does). */
static void fake_complete(unsigned int i, int status)
{
	struct lnet_msg *msg = fk.held[i];

	assert_non_null(msg);
	fk.held[i] = NULL;
	lnet_finalize(fk.ln, msg, status);
}

/* ---- instance -------------------------------------------------------------------------- */

static struct lnet_nid nid4(u8 a, u8 b, u8 c, u8 d)
{
	u8 addr[4] = { a, b, c, d };
	struct lnet_nid n;

	memset(&n, 0, sizeof(n));
	lnet_nid_make(&n, TCP, addr, 4);
	return n;
}

/* The messages of @kind (enum lnet_stats_kind) through @ni / with @lpni. */
static u64 ni_total(const struct lnet_ni *ni, u32 kind)
{
	return lnet_counters_total(&ni->ni_counters, kind);
}

static u64 lpni_total(const struct lnet_peer_ni *lpni, u32 kind)
{
	return lnet_counters_total(&lpni->lpni_counters, kind);
}

static struct lnet_nid lo_nid(void)
{
	static const u8 zero[4];
	struct lnet_nid n;

	memset(&n, 0, sizeof(n));
	lnet_nid_make(&n, LNET_NET_ID(LNET_LND_LO, 0), zero, 4);
	return n;
}

/* Held by the test thread: a failed assertion leaves it held for teardown. */
static bool locked;

static void lock(struct lnet *ln)
{
	os_mutex_lock(&ln->ln_api_mutex);
	locked = true;
}

static void unlock(struct lnet *ln)
{
	locked = false;
	os_mutex_unlock(&ln->ln_api_mutex);
}

static int setup_with(void **state, bool with_fake)
{
	struct lnet *ln = calloc(1, sizeof(*ln));

	assert_non_null(ln);
	memset(&fk, 0, sizeof(fk));
	nevents = 0;
	lnet_init(ln);
	assert_int_equal(lnet_builtin_register(ln), 0);
	ln->ln_if_lookup = fake_lookup;
	if (with_fake)
		assert_int_equal(lnet_lnd_register(ln, &fake_lnd), 0);
	lock(ln);
	assert_int_equal(lnet_configure(ln), 0);
	ln->ln_globals[LNET_GLOBAL_DISCOVERY] = 0;	/* counts exact messages */
	unlock(ln);
	*state = ln;
	return 0;
}

static int setup(void **state)
{
	return setup_with(state, false);
}

static int setup_fake(void **state)
{
	return setup_with(state, true);
}

static int teardown(void **state)
{
	struct lnet *ln = *state;

	if (!locked)
		lock(ln);
	assert_int_equal(lnet_unconfigure(ln), 0);
	assert_int_equal(ln->ln_nobjects, 0);
	unlock(ln);
	lnet_fini(ln);
	free(ln);
	return 0;
}

/* ---- helpers ------------------------------------------------------------------------- */

static struct lnet_handle_md attach(struct lnet *ln, u32 portal, u64 bits, u64 ignore,
				    const struct lnet_nid *id, u32 pid, void *buf,
				    u32 len, int threshold, u32 options)
{
	struct lnet_md md = {
		.start = buf, .length = len, .threshold = threshold,
		.options = options, .handler = record,
	};
	struct lnet_handle_md h = { 0 };

	assert_int_equal(lnet_me_attach_md(ln, portal, id, pid, bits, ignore, true,
					   &md, &h), 0);
	return h;
}

static struct lnet_handle_md md_bind(struct lnet *ln, void *buf, u32 len,
				     int threshold, u32 options)
{
	struct lnet_md md = {
		.start = buf, .length = len, .threshold = threshold,
		.options = options, .handler = record,
	};
	struct lnet_handle_md h = { 0 };

	assert_int_equal(lnet_md_bind(ln, &md, &h), 0);
	return h;
}

static void fill(u8 *p, u32 len, u32 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		p[i] = (u8)(i * 7 + seed);
}

static void check_bytes(const u8 *got, const u8 *want, u32 len)
{
	u32 i;

	for (i = 0; i < len; i++)
		if (got[i] != want[i])
			fail_msg("byte %u: got %u, want %u", i, got[i], want[i]);
}

/* ---- PUT and GET over 0@lo -------------------------------------------------------- */

static const u32 sizes[] = { 0, 1, 4096, 1U << 20 };

static void put_lo(struct lnet *ln, u32 len)
{
	struct lnet_nid lo = lo_nid();
	u8 *src = malloc(len + 1), *dst = calloc(1, len + 1);
	struct lnet_handle_md th, ih;
	struct lnet_ni *loni;
	u64 sent0, recv0;

	nevents = 0;
	fill(src, len, len);
	lock(ln);
	loni = lnet_lo_ni(ln);
	sent0 = ni_total(loni, LNET_STATS_SENT);
	recv0 = ni_total(loni, LNET_STATS_RECV);
	th = attach(ln, PORTAL, BITS, 0, NULL, LNET_PID_ANY, dst, len, 1, LNET_MD_OP_PUT);
	ih = md_bind(ln, src, len, 2, 0);
	assert_int_equal(lnet_put(ln, NULL, ih, true, &lo, LNET_PID_LUSTRE, PORTAL,
				  BITS, 0, len, 0xabcd), 0);
	/* the PUT landed, then the initiator saw SEND and ACK */
	assert_int_equal(nevents, 3);
	assert_int_equal(events[0].type, LNET_EVENT_PUT);
	assert_int_equal(events[0].md_handle.cookie, th.cookie);
	assert_int_equal(events[0].mlength, len);
	assert_int_equal(events[0].rlength, len);
	assert_int_equal(events[0].hdr_data, 0xabcd);
	assert_int_equal(events[0].match_bits, BITS);
	assert_int_equal(events[0].pt_index, PORTAL);
	assert_true(lnet_nid_equal(&events[0].initiator, &lo));
	assert_int_equal(events[0].initiator_pid, LNET_PID_LUSTRE);
	assert_true(events[0].unlinked);
	assert_int_equal(events[1].type, LNET_EVENT_SEND);
	assert_int_equal(events[1].md_handle.cookie, ih.cookie);
	assert_int_equal(events[1].status, 0);
	assert_false(events[1].unlinked);
	assert_int_equal(events[2].type, LNET_EVENT_ACK);
	assert_int_equal(events[2].status, 0);
	assert_int_equal(events[2].mlength, len);
	assert_true(events[2].unlinked);
	check_bytes(dst, src, len);
	/* PUT and ACK each sent and received once through 0@lo */
	assert_int_equal(ni_total(loni, LNET_STATS_SENT) - sent0, 2);
	assert_int_equal(ni_total(loni, LNET_STATS_RECV) - recv0, 2);
	assert_int_equal(ln->ln_dp.dp_msgs_alloc, 0);
	unlock(ln);
	free(src);
	free(dst);
}

static void get_lo(struct lnet *ln, u32 len)
{
	struct lnet_nid lo = lo_nid();
	u8 *src = malloc(len + 1), *dst = calloc(1, len + 1);
	struct lnet_handle_md th, ih;

	nevents = 0;
	fill(src, len, len + 3);
	lock(ln);
	th = attach(ln, PORTAL, BITS, 0, NULL, LNET_PID_ANY, src, len, 1, LNET_MD_OP_GET);
	ih = md_bind(ln, dst, len, 2, 0);
	assert_int_equal(lnet_get(ln, NULL, ih, &lo, LNET_PID_LUSTRE, PORTAL, BITS,
				  0, len), 0);
	assert_int_equal(nevents, 3);
	assert_int_equal(events[0].type, LNET_EVENT_GET);
	assert_int_equal(events[0].md_handle.cookie, th.cookie);
	assert_int_equal(events[0].mlength, len);
	assert_int_equal(events[0].status, 0);
	assert_true(events[0].unlinked);
	assert_int_equal(events[1].type, LNET_EVENT_SEND);
	assert_int_equal(events[1].md_handle.cookie, ih.cookie);
	assert_false(events[1].unlinked);
	assert_int_equal(events[2].type, LNET_EVENT_REPLY);
	assert_int_equal(events[2].status, 0);
	assert_int_equal(events[2].mlength, len);
	assert_int_equal(events[2].rlength, len);
	assert_true(events[2].unlinked);
	check_bytes(dst, src, len);
	assert_int_equal(ln->ln_dp.dp_msgs_alloc, 0);
	unlock(ln);
	free(src);
	free(dst);
}

static unsigned int count_mds(struct lnet *ln)
{
	struct lnet_libmd *md;
	unsigned int n = 0;

	list_for_each_entry(md, &ln->ln_dp.dp_mds, md_list)
		n++;
	return n;
}

static void test_put_get_lo(void **state)
{
	struct lnet *ln = *state;
	unsigned int i, mds;
	s64 objs;

	lock(ln);
	mds = count_mds(ln);		/* the ping and push targets */
	objs = ln->ln_nobjects;
	unlock(ln);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		put_lo(ln, sizes[i]);
		get_lo(ln, sizes[i]);
	}
	/* every MD and ME went with its last event */
	lock(ln);
	assert_int_equal(count_mds(ln), mds);
	assert_int_equal(ln->ln_nobjects, objs);
	unlock(ln);
}

/* 4 PUTs and 4 GETs with ACK/REPLY: counters of 0@lo and of the instance. */
static void test_stats_lo(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ni *loni;

	lock(ln);
	loni = lnet_lo_ni(ln);
	assert_int_equal(ln->ln_dp.dp_count[LNET_STATS_SENT], 0);
	unlock(ln);
	put_lo(ln, 100);
	get_lo(ln, 50);
	lock(ln);
	/* PUT 100 + ACK, GET + REPLY 50 */
	assert_int_equal(ln->ln_dp.dp_count[LNET_STATS_SENT], 4);
	assert_int_equal(ln->ln_dp.dp_count[LNET_STATS_RECV], 4);
	assert_int_equal(ln->ln_dp.dp_length[LNET_STATS_SENT], 150);
	assert_int_equal(ln->ln_dp.dp_length[LNET_STATS_RECV], 150);
	assert_int_equal(ln->ln_dp.dp_count[LNET_STATS_DROP], 0);
	assert_int_equal(ni_total(loni, LNET_STATS_SENT), 4);
	assert_int_equal(ni_total(loni, LNET_STATS_RECV), 4);
	assert_int_equal(loni->ni_counters.lc_msgs[LNET_STATS_SENT][LNET_MSG_PUT], 1);
	assert_int_equal(loni->ni_counters.lc_msgs[LNET_STATS_SENT][LNET_MSG_ACK], 1);
	assert_int_equal(loni->ni_counters.lc_msgs[LNET_STATS_SENT][LNET_MSG_GET], 1);
	assert_int_equal(loni->ni_counters.lc_msgs[LNET_STATS_SENT][LNET_MSG_REPLY], 1);
	assert_int_equal(loni->ni_counters.lc_msgs[LNET_STATS_RECV][LNET_MSG_PUT], 1);
	assert_int_equal(loni->ni_counters.lc_msgs[LNET_STATS_RECV][LNET_MSG_REPLY], 1);
	/* a PUT, its receive and the ACK's receive at once */
	assert_int_equal(ln->ln_dp.dp_msgs_max, 3);
	/* lo measures too: one sample of each, no peer NI */
	assert_int_equal(loni->ni_counters.lc_lat[LNET_LAT_PUT_EGRESS].ll_samples, 1);
	assert_int_equal(loni->ni_counters.lc_lat[LNET_LAT_PUT_ACK].ll_samples, 1);
	assert_int_equal(loni->ni_counters.lc_lat[LNET_LAT_GET_RTT].ll_samples, 1);
	assert_true(loni->ni_counters.lc_lat[LNET_LAT_GET_RTT].ll_min_ns > 0);
	unlock(ln);
}

/* ---- match entries ---------------------------------------------------------------- */

/* PUT @len bytes of @buf to 0@lo with @bits, no ACK: the SEND is checked. */
static void put_bits(struct lnet *ln, u64 bits, void *buf, u32 len)
{
	struct lnet_nid lo = lo_nid();
	struct lnet_handle_md ih = md_bind(ln, buf, len, 1, 0);

	assert_int_equal(lnet_put(ln, NULL, ih, false, &lo, LNET_PID_LUSTRE, PORTAL,
				  bits, 0, len, 0), 0);
	assert_int_equal(count_events(ih, LNET_EVENT_SEND, 0), 1);
}

static void test_match_bits(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid lo = lo_nid(), other = nid4(10, 0, 0, 9);
	u8 src[8] = "abcdefg", a[8], b[8], c[8], d[8];
	struct lnet_handle_md ha, hb, hc, hd;

	lock(ln);
	/* 0xff00 with the low byte ignored; only from 10.0.0.9; pid 777 only */
	ha = attach(ln, PORTAL, 0xff00, 0x00ff, NULL, LNET_PID_ANY, a, 8,
		    LNET_MD_THRESH_INF, LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE);
	hb = attach(ln, PORTAL, 0x77, 0, &other, LNET_PID_ANY, b, 8,
		    LNET_MD_THRESH_INF, LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE);
	hc = attach(ln, PORTAL, 0x77, 0, NULL, 777, c, 8,
		    LNET_MD_THRESH_INF, LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE);
	hd = attach(ln, PORTAL, 0x77, 0, &lo, LNET_PID_LUSTRE, d, 8,
		    LNET_MD_THRESH_INF, LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE);

	put_bits(ln, 0xff12, src, 8);		/* ignored bits differ: a */
	put_bits(ln, 0xff00, src, 8);		/* a */
	put_bits(ln, 0xfe00, src, 8);		/* nobody: dropped */
	put_bits(ln, 0x77, src, 8);		/* not b (NID), not c (pid): d */
	assert_int_equal(count_events(ha, LNET_EVENT_PUT, 0), 2);
	assert_int_equal(count_events(hb, LNET_EVENT_PUT, 0), 0);
	assert_int_equal(count_events(hc, LNET_EVENT_PUT, 0), 0);
	assert_int_equal(count_events(hd, LNET_EVENT_PUT, 0), 1);
	assert_memory_equal(d, src, 8);
	assert_int_equal(ln->ln_dp.dp_count[LNET_STATS_DROP], 1);
	assert_int_equal(ln->ln_dp.dp_length[LNET_STATS_DROP], 8);
	assert_int_equal(ni_total(lnet_lo_ni(ln), LNET_STATS_DROP), 1);
	assert_int_equal(lnet_lo_ni(ln)->ni_counters.lc_msgs[LNET_STATS_DROP][LNET_MSG_PUT], 1);

	/* unlinked MDs no longer match; an ME put at the head goes first */
	assert_int_equal(lnet_md_unlink(ln, hd), 0);
	assert_int_equal(count_events(hd, LNET_EVENT_UNLINK, 0), 1);
	assert_int_equal(lnet_md_unlink(ln, hd), -ENOENT);
	put_bits(ln, 0x77, src, 8);
	assert_int_equal(ln->ln_dp.dp_count[LNET_STATS_DROP], 2);
	{
		struct lnet_md md = { .start = b, .length = 8, .threshold = 1,
				      .options = LNET_MD_OP_PUT, .handler = record };
		struct lnet_handle_md head, tail;

		tail = attach(ln, PORTAL, 0x99, 0, NULL, LNET_PID_ANY, c, 8, 1,
			      LNET_MD_OP_PUT);
		assert_int_equal(lnet_me_attach_md(ln, PORTAL, NULL, LNET_PID_ANY, 0x99, 0,
						   false, &md, &head), 0);
		put_bits(ln, 0x99, src, 8);
		assert_int_equal(count_events(head, LNET_EVENT_PUT, 0), 1);
		assert_int_equal(count_events(tail, LNET_EVENT_PUT, 0), 0);
		assert_int_equal(lnet_md_unlink(ln, tail), 0);
	}
	assert_int_equal(lnet_md_unlink(ln, ha), 0);
	assert_int_equal(lnet_md_unlink(ln, hb), 0);
	assert_int_equal(lnet_md_unlink(ln, hc), 0);
	/* a GET-only MD does not take PUTs */
	hd = attach(ln, PORTAL, 0x55, 0, NULL, LNET_PID_ANY, d, 8, 1, LNET_MD_OP_GET);
	put_bits(ln, 0x55, src, 8);
	assert_int_equal(count_events(hd, LNET_EVENT_PUT, 0), 0);
	assert_int_equal(ln->ln_dp.dp_count[LNET_STATS_DROP], 3);
	assert_int_equal(lnet_md_unlink(ln, hd), 0);
	unlock(ln);
}

/* ---- thresholds, offsets, truncation --------------------------------------------- */

static void test_threshold_unlink(void **state)
{
	struct lnet *ln = *state;
	u8 src[4] = { 1, 2, 3, 4 }, dst[16];
	struct lnet_nid lo = lo_nid();
	struct lnet_handle_md th, ih;
	struct lnet_md bad = { .start = dst, .length = 16, .threshold = 0,
			       .handler = record };
	unsigned int i, seen = 0;
	s64 objs;

	lock(ln);
	objs = ln->ln_nobjects;
	assert_int_equal(lnet_md_bind(ln, &bad, &ih), -EINVAL);
	th = attach(ln, PORTAL, BITS, 0, NULL, LNET_PID_ANY, dst, 16, 2,
		    LNET_MD_OP_PUT);
	nevents = 0;
	for (i = 0; i < 3; i++)
		put_bits(ln, BITS, src, 4);
	/* two PUTs taken, the second one's event unlinked it; the third dropped */
	assert_int_equal(count_events(th, LNET_EVENT_PUT, 0), 2);
	for (i = 0; i < nevents; i++) {
		if (events[i].md_handle.cookie != th.cookie)
			continue;
		assert_int_equal(events[i].offset, seen * 4);
		assert_int_equal(events[i].unlinked, seen == 1);
		seen++;
	}
	assert_int_equal(ln->ln_dp.dp_count[LNET_STATS_DROP], 1);
	assert_int_equal(lnet_md_unlink(ln, th), -ENOENT);
	assert_int_equal(ln->ln_nobjects, objs);

	/* an unlinked bound MD cannot be used; an infinite one waits for unlink */
	ih = md_bind(ln, src, 4, LNET_MD_THRESH_INF, 0);
	assert_int_equal(lnet_md_unlink(ln, ih), 0);
	assert_int_equal(count_events(ih, LNET_EVENT_UNLINK, 0), 1);
	assert_true(event_of(ih, LNET_EVENT_UNLINK)->unlinked);
	assert_int_equal(lnet_put(ln, NULL, ih, false, &lo, LNET_PID_LUSTRE,
				  PORTAL, BITS, 0, 4, 0), -EINVAL);
	assert_int_equal(ln->ln_nobjects, objs);
	unlock(ln);
}

static void test_offsets(void **state)
{
	struct lnet *ln = *state;
	struct lnet_md md = { .length = 100, .max_size = 40,
			      .threshold = LNET_MD_THRESH_INF,
			      .options = LNET_MD_OP_PUT | LNET_MD_MAX_SIZE,
			      .handler = record };
	u8 src[30], local[100], remote[200];
	struct lnet_nid lo = lo_nid();
	struct lnet_handle_md hl, hr, ih;
	s64 objs;

	fill(src, 30, 1);
	memset(local, 0, sizeof(local));
	memset(remote, 0, sizeof(remote));
	lock(ln);
	objs = ln->ln_nobjects;
	/* max_size without a size, or above the length: refused */
	md.start = local;
	md.max_size = 0;
	assert_int_equal(lnet_me_attach_md(ln, PORTAL, NULL, LNET_PID_ANY, 1, 0, true,
					   &md, &hl), -EINVAL);
	md.max_size = 101;
	assert_int_equal(lnet_me_attach_md(ln, PORTAL, NULL, LNET_PID_ANY, 1, 0, true,
					   &md, &hl), -EINVAL);
	/* local offsets: one PUT after the other, until < max_size is left */
	md.max_size = 40;
	assert_int_equal(lnet_me_attach_md(ln, PORTAL, NULL, LNET_PID_ANY, 1, 0, true,
					   &md, &hl), 0);
	hr = attach(ln, PORTAL, 2, 0, NULL, LNET_PID_ANY, remote, 200,
		    LNET_MD_THRESH_INF, LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE);
	nevents = 0;
	put_bits(ln, 1, src, 30);		/* at 0 */
	put_bits(ln, 1, src, 30);		/* at 30 */
	put_bits(ln, 1, src, 30);		/* at 60: 10 left < 40, used up */
	put_bits(ln, 1, src, 30);		/* dropped */
	assert_int_equal(count_events(hl, LNET_EVENT_PUT, 0), 3);
	assert_int_equal(events[0].offset, 0);
	assert_int_equal(events[2].offset, 30);
	assert_int_equal(events[4].offset, 60);
	assert_false(events[2].unlinked);
	assert_true(events[4].unlinked);
	check_bytes(local, src, 30);
	check_bytes(local + 30, src, 30);
	check_bytes(local + 60, src, 30);
	assert_int_equal(local[90], 0);
	assert_int_equal(ln->ln_dp.dp_count[LNET_STATS_DROP], 1);

	/* MANAGE_REMOTE: where the initiator says */
	ih = md_bind(ln, src, 30, 1, 0);
	assert_int_equal(lnet_put(ln, NULL, ih, false, &lo, LNET_PID_LUSTRE, PORTAL,
				  2, 20, 10, 0), 0);
	assert_int_equal(event_of(hr, LNET_EVENT_PUT)->offset, 20);
	check_bytes(remote + 20, src + 20, 10);
	assert_int_equal(remote[19], 0);
	assert_int_equal(remote[30], 0);
	/* a range outside the MD is refused at once */
	ih = md_bind(ln, src, 30, 1, 0);
	assert_int_equal(lnet_put(ln, NULL, ih, false, &lo, LNET_PID_LUSTRE, PORTAL,
				  2, 25, 10, 0), -EINVAL);
	assert_int_equal(lnet_md_unlink(ln, ih), 0);
	assert_int_equal(lnet_md_unlink(ln, hr), 0);
	assert_int_equal(ln->ln_nobjects, objs);
	unlock(ln);
}

static void test_truncate(void **state)
{
	struct lnet *ln = *state;
	u8 src[16], small[8], cut[8];
	struct lnet_nid lo = lo_nid();
	struct lnet_handle_md hs, hc, ih;

	fill(src, 16, 9);
	memset(small, 0, sizeof(small));
	lock(ln);
	hs = attach(ln, PORTAL, 1, 0, NULL, LNET_PID_ANY, small, 8, 1, LNET_MD_OP_PUT);
	hc = attach(ln, PORTAL, 2, 0, NULL, LNET_PID_ANY, cut, 8, 1,
		    LNET_MD_OP_PUT | LNET_MD_TRUNCATE);
	nevents = 0;
	put_bits(ln, 1, src, 16);		/* too long: dropped */
	assert_int_equal(count_events(hs, LNET_EVENT_PUT, 0), 0);
	assert_int_equal(ln->ln_dp.dp_count[LNET_STATS_DROP], 1);
	assert_int_equal(small[0], 0);
	ih = md_bind(ln, src, 16, 2, 0);
	assert_int_equal(lnet_put(ln, NULL, ih, true, &lo, LNET_PID_LUSTRE, PORTAL,
				  2, 0, 16, 0), 0);
	assert_int_equal(event_of(hc, LNET_EVENT_PUT)->mlength, 8);
	assert_int_equal(event_of(hc, LNET_EVENT_PUT)->rlength, 16);
	assert_int_equal(event_of(ih, LNET_EVENT_ACK)->mlength, 8);
	check_bytes(cut, src, 8);
	assert_int_equal(lnet_md_unlink(ln, hs), 0);
	unlock(ln);
}

/* The target's MD refuses ACKs: the PUT's message waits until shutdown. */
static void test_ack_disable(void **state)
{
	struct lnet *ln = *state;
	u8 src[8] = "1234567", dst[8];
	struct lnet_nid lo = lo_nid();
	struct lnet_handle_md th, ih;

	lock(ln);
	th = attach(ln, PORTAL, 1, 0, NULL, LNET_PID_ANY, dst, 8, 1,
		    LNET_MD_OP_PUT | LNET_MD_ACK_DISABLE);
	ih = md_bind(ln, src, 8, 2, 0);
	nevents = 0;
	assert_int_equal(lnet_put(ln, NULL, ih, true, &lo, LNET_PID_LUSTRE, PORTAL,
				  1, 0, 8, 0), 0);
	assert_int_equal(nevents, 2);
	assert_int_equal(events[0].type, LNET_EVENT_PUT);
	assert_int_equal(events[0].md_handle.cookie, th.cookie);
	assert_int_equal(events[1].type, LNET_EVENT_SEND);
	assert_int_equal(events[1].status, 0);
	assert_false(events[1].unlinked);
	assert_memory_equal(dst, src, 8);
	assert_int_equal(ln->ln_dp.dp_msgs_alloc, 1);
	assert_false(list_empty(&ln->ln_dp.dp_active));
	assert_true(ln->ln_dp.dp_active.next->next == &ln->ln_dp.dp_active);
	/* only one ACK/ACK_DISABLE send: PUT counted, no ACK */
	assert_int_equal(lnet_lo_ni(ln)->ni_counters.lc_msgs[LNET_STATS_SENT][LNET_MSG_ACK], 0);
	/* going down fails it: one ACK event, -ESHUTDOWN, the MD unlinked */
	assert_int_equal(lnet_unconfigure(ln), 0);
	assert_int_equal(nevents, 3);
	assert_int_equal(events[2].type, LNET_EVENT_ACK);
	assert_int_equal(events[2].status, -ESHUTDOWN);
	/* the ACK's threshold was never used: the MD goes with the instance */
	assert_false(events[2].unlinked);
	assert_int_equal(ln->ln_nobjects, 0);
	assert_int_equal(lnet_configure(ln), 0);
	ln->ln_globals[LNET_GLOBAL_DISCOVERY] = 0;	/* counts exact messages */
	unlock(ln);
}

/* ---- the fake LND: credits, source NID, failures ------------------------------- */

static struct lnet_ni *add_ni(struct lnet *ln, const char *ifname, s32 credits,
			      s32 peer_credits)
{
	struct lnet_ni_tunables tun = { -1, peer_credits, -1, credits };
	struct lnet_nid n;

	assert_int_equal(lnet_ni_add(ln, TCP, ifname, &tun), 0);
	n = nid4(10, 0, 0, ifname[3] == '0' ? 1 : 2);
	assert_non_null(lnet_ni_find(ln, &n));
	return lnet_ni_find(ln, &n);
}

/* A PUT (no ACK) of 100 bytes from a new MD to 10.0.0.@d; its MD handle. */
static struct lnet_handle_md put_to(struct lnet *ln, u8 d, const struct lnet_nid *src)
{
	static u8 buf[100];
	struct lnet_nid to = nid4(10, 0, 0, d);
	struct lnet_handle_md h = md_bind(ln, buf, sizeof(buf), 1, 0);

	assert_int_equal(lnet_put(ln, src, h, false, &to, LNET_PID_LUSTRE, PORTAL,
				  BITS, 0, sizeof(buf), 0), 0);
	return h;
}

/* A PUT to 10.0.0.@d that fails before any LND holds it: one SEND event, @status. */
static void put_fails_at_once(struct lnet *ln, u8 d, int status)
{
	struct lnet_handle_md h = put_to(ln, d, NULL);

	assert_int_equal(nevents, 1);
	assert_int_equal(count_events(h, LNET_EVENT_SEND, status), 1);
}

static struct lnet_peer_ni *lpni_of(struct lnet *ln, u8 d)
{
	struct lnet_nid n = nid4(10, 0, 0, d);
	struct lnet_peer_ni *lpni = lnet_peer_ni_find(ln, &n);

	assert_non_null(lpni);
	return lpni;
}

static void assert_held_to(unsigned int i, u8 d)
{
	struct lnet_nid n = nid4(10, 0, 0, d);

	assert_true(i < fk.nheld);
	assert_true(lnet_nid_equal(&fk.held_to[i], &n));
}

static void test_credits(void **state)
{
	struct lnet *ln = *state;
	struct lnet_handle_md h[5];
	struct lnet_ni *ni;
	unsigned int i;

	lock(ln);
	ni = add_ni(ln, "eth0", 2, 1);
	assert_int_equal(fk.nstarted, 1);
	assert_ptr_equal(ni->ni_lnd, &fake_lnd);
	h[0] = put_to(ln, 100, NULL);	/* A1: sent */
	h[1] = put_to(ln, 100, NULL);	/* A2: waits for A's credit */
	h[2] = put_to(ln, 101, NULL);	/* B1: sent, the NI's last credit */
	h[3] = put_to(ln, 101, NULL);	/* B2: waits for B's credit */
	h[4] = put_to(ln, 102, NULL);	/* C1: waits for an NI credit */
	assert_int_equal(fk.nheld, 2);
	assert_held_to(0, 100);
	assert_held_to(1, 101);
	assert_int_equal(ni->ni_tx_credits, -1);
	assert_int_equal(ni->ni_min_tx_credits, -1);
	assert_int_equal(lpni_of(ln, 100)->lpni_tx_credits, -1);
	assert_int_equal(lpni_of(ln, 102)->lpni_tx_credits, 0);
	assert_int_equal(lpni_of(ln, 100)->lpni_min_tx_credits, -1);
	/* each message on its way holds its peer NI (peer show's refcount - 1) */
	assert_int_equal(lnet_msgs_holding(ln, lpni_of(ln, 100)), 2);
	assert_int_equal(lnet_msgs_holding(ln, lpni_of(ln, 102)), 1);
	/* peers made by traffic are not "configured" */
	assert_false(lpni_of(ln, 100)->lpni_peer_net->lpn_peer->lp_state &
		     LNET_PEER_S_CONFIGURED);
	assert_int_equal(nevents, 0);
	unlock(ln);

	fake_complete(0, 0);		/* NI credit -> C1, A's credit -> A2 waits */
	assert_int_equal(fk.nheld, 3);
	assert_held_to(2, 102);
	fake_complete(1, 0);		/* NI credit -> A2, B's credit -> B2 waits */
	assert_held_to(3, 100);
	fake_complete(2, 0);		/* -> B2 */
	assert_held_to(4, 101);
	assert_int_equal(fk.nheld, 5);
	fake_complete(3, 0);
	fake_complete(4, 0);

	lock(ln);
	assert_int_equal(nevents, 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(count_events(h[i], LNET_EVENT_SEND, 0), 1);
	/* SEND events in the order the LND completed them: A1 B1 C1 A2 B2 */
	assert_int_equal(events[0].md_handle.cookie, h[0].cookie);
	assert_int_equal(events[1].md_handle.cookie, h[2].cookie);
	assert_int_equal(events[2].md_handle.cookie, h[4].cookie);
	assert_int_equal(events[3].md_handle.cookie, h[1].cookie);
	assert_int_equal(events[4].md_handle.cookie, h[3].cookie);
	assert_int_equal(ni->ni_tx_credits, 2);
	assert_int_equal(ni->ni_min_tx_credits, -1);
	assert_int_equal(lpni_of(ln, 100)->lpni_tx_credits, 1);
	assert_int_equal(lpni_of(ln, 101)->lpni_tx_credits, 1);
	assert_int_equal(lpni_of(ln, 102)->lpni_tx_credits, 1);
	assert_int_equal(ni_total(ni, LNET_STATS_SENT), 5);
	assert_int_equal(ni->ni_counters.lc_msgs[LNET_STATS_SENT][LNET_MSG_PUT], 5);
	assert_int_equal(lpni_total(lpni_of(ln, 100), LNET_STATS_SENT), 2);
	assert_int_equal(lpni_total(lpni_of(ln, 101), LNET_STATS_SENT), 2);
	assert_int_equal(lpni_total(lpni_of(ln, 102), LNET_STATS_SENT), 1);
	assert_int_equal(lpni_of(ln, 102)->lpni_counters.lc_msgs[LNET_STATS_SENT][LNET_MSG_PUT], 1);
	assert_int_equal(ln->ln_dp.dp_count[LNET_STATS_SENT], 5);
	assert_int_equal(ln->ln_dp.dp_length[LNET_STATS_SENT], 500);
	assert_int_equal(ln->ln_dp.dp_msgs_alloc, 0);
	assert_int_equal(lnet_msgs_holding(ln, lpni_of(ln, 100)), 0);
	unlock(ln);
}

static void test_source_nid(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid not_ours = nid4(10, 0, 0, 7);
	struct lnet_ni *eth0, *eth1;
	unsigned int i;

	lock(ln);
	eth0 = add_ni(ln, "eth0", 8, 8);
	eth1 = add_ni(ln, "eth1", 8, 8);
	for (i = 0; i < 3; i++)
		put_to(ln, 100, &eth1->ni_nid);
	for (i = 0; i < 3; i++)
		assert_ptr_equal(fk.held[i]->msg_txni, eth1);
	assert_true(lnet_nid_equal(&fk.held[0]->msg_hdr.src_nid, &eth1->ni_nid));
	/* without one, selection takes the NI with more credits left */
	put_to(ln, 100, NULL);
	put_to(ln, 100, NULL);
	assert_ptr_equal(fk.held[3]->msg_txni, eth0);
	assert_ptr_equal(fk.held[4]->msg_txni, eth0);
	{
		static u8 buf[4];
		struct lnet_nid to = nid4(10, 0, 0, 100);
		struct lnet_handle_md h = md_bind(ln, buf, 4, 1, 0);

		assert_int_equal(lnet_put(ln, &not_ours, h, false, &to, LNET_PID_LUSTRE,
					  PORTAL, BITS, 0, 4, 0), -EINVAL);
		assert_int_equal(lnet_md_unlink(ln, h), 0);
	}
	assert_int_equal(eth0->ni_tx_credits + eth1->ni_tx_credits, 11);
	unlock(ln);
	for (i = 0; i < 5; i++)
		fake_complete(i, 0);
	lock(ln);
	assert_int_equal(ni_total(eth1, LNET_STATS_SENT), 3);
	assert_int_equal(ni_total(eth0, LNET_STATS_SENT), 2);
	unlock(ln);
}

/* An NI whose type has no LND: the send fails at once, one event. */
static void test_no_lnd(void **state)
{
	struct lnet *ln = *state;
	struct lnet_ni *ni;

	lock(ln);
	ni = add_ni(ln, "eth0", 8, 8);
	assert_null(ni->ni_lnd);
	put_fails_at_once(ln, 100, -ENETUNREACH);
	assert_true(events[0].unlinked);
	assert_int_equal(ni_total(ni, LNET_STATS_SENT), 0);
	assert_int_equal(ln->ln_dp.dp_msgs_alloc, 0);
	assert_int_equal(ni->ni_tx_credits, 8);
	unlock(ln);
}

/* A failing lnd_send: the SEND event carries its error. */
static void test_send_error(void **state)
{
	struct lnet *ln = *state;
	struct lnet_handle_md h;
	struct lnet_ni *ni;

	lock(ln);
	assert_int_equal(lnet_global_set(ln, LNET_GLOBAL_RETRY_COUNT, 0), 0);
	ni = add_ni(ln, "eth0", 8, 8);
	fk.send_rc = -EIO;
	put_fails_at_once(ln, 100, -EIO);
	assert_int_equal(ni->ni_tx_credits, 8);
	assert_int_equal(lpni_of(ln, 100)->lpni_tx_credits, 8);
	fk.send_rc = 0;
	/* and a completion with an error too */
	h = put_to(ln, 100, NULL);
	unlock(ln);
	fake_complete(0, -ECONNRESET);
	lock(ln);
	assert_int_equal(count_events(h, LNET_EVENT_SEND, -ECONNRESET), 1);
	assert_int_equal(ni_total(ni, LNET_STATS_SENT), 0);
	assert_int_equal(ln->ln_dp.dp_msgs_alloc, 0);
	unlock(ln);
}

/* ---- the receive path (lnet_parse) ---------------------------------------------------- */

static struct lnet_hdr hdr_to(struct lnet_ni *ni, const struct lnet_nid *from, u32 type)
{
	struct lnet_hdr h;

	memset(&h, 0, sizeof(h));
	h.dest_nid = ni->ni_nid;
	h.src_nid = *from;
	h.dest_pid = LNET_PID_LUSTRE;
	h.src_pid = LNET_PID_LUSTRE;
	h.type = type;
	return h;
}

static void test_parse_errors(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid from = nid4(10, 0, 0, 50);
	struct lnet_ni *ni;
	struct lnet_hdr h;

	lock(ln);
	ni = add_ni(ln, "eth0", 8, 8);
	unlock(ln);
	h = hdr_to(ni, &from, LNET_MSG_PUT);
	h.dest_nid = nid4(10, 0, 0, 2);
	assert_int_equal(lnet_parse(ln, ni, &h, &from, NULL), -EPROTO);
	h = hdr_to(ni, &from, LNET_MSG_HELLO);
	assert_int_equal(lnet_parse(ln, ni, &h, &from, NULL), -EPROTO);
	h = hdr_to(ni, &from, LNET_MSG_PUT);
	h.payload_length = LNET_MTU + 1;
	assert_int_equal(lnet_parse(ln, ni, &h, &from, NULL), -EPROTO);
	h = hdr_to(ni, &from, LNET_MSG_GET);
	h.payload_length = 1;
	assert_int_equal(lnet_parse(ln, ni, &h, &from, NULL), -EPROTO);
	h = hdr_to(ni, &from, LNET_MSG_ACK);
	h.payload_length = 4;
	assert_int_equal(lnet_parse(ln, ni, &h, &from, NULL), -EPROTO);
	memset(&h.src_nid, 0, sizeof(h.src_nid));
	h.payload_length = 0;
	assert_int_equal(lnet_parse(ln, ni, &h, &from, NULL), -EPROTO);
	/* nothing reached the LND's receive, nothing was counted or created */
	lock(ln);
	assert_int_equal(fk.nrecv, 0);
	assert_int_equal(ni_total(ni, LNET_STATS_RECV), 0);
	assert_int_equal(ni_total(ni, LNET_STATS_DROP), 0);
	assert_null(lnet_peer_ni_find(ln, &from));
	unlock(ln);
}

/* A peer PUTs to us (ACK wanted) and GETs from us, through the fake LND. */
static void test_parse_put_get(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid from = nid4(10, 0, 0, 50);
	u8 payload[16], dst[16], data[10];
	struct lnet_handle_md th, gh;
	struct lnet_peer_ni *lpni;
	struct lnet_msg *out;
	struct lnet_ni *ni;
	struct lnet_hdr h;

	fill(payload, 16, 4);
	fill(data, 10, 5);
	lock(ln);
	ni = add_ni(ln, "eth0", 8, 8);
	th = attach(ln, PORTAL, BITS, 0, NULL, LNET_PID_ANY, dst, 16, 1, LNET_MD_OP_PUT);
	gh = attach(ln, PORTAL, BITS, 0, NULL, LNET_PID_ANY, data, 10, 1, LNET_MD_OP_GET);
	unlock(ln);

	h = hdr_to(ni, &from, LNET_MSG_PUT);
	h.payload_length = 16;
	h.msg.put.ack_wmd.wh_interface_cookie = 0x11;
	h.msg.put.ack_wmd.wh_object_cookie = 0x22;
	h.msg.put.match_bits = BITS;
	h.msg.put.ptl_index = PORTAL;
	h.msg.put.hdr_data = 77;
	assert_int_equal(lnet_parse(ln, ni, &h, &from, (void *)1), 0);
	assert_int_equal(fk.nrecv, 1);
	assert_non_null(fk.rx_msg);
	assert_ptr_equal(fk.rx_buf, dst);
	assert_int_equal(fk.rx_mlen, 16);
	assert_int_equal(fk.rx_rlen, 16);
	lock(ln);
	lpni = lpni_of(ln, 50);
	assert_true(lpni->lpni_last_alive_ns > 0);
	assert_false(lpni->lpni_peer_net->lpn_peer->lp_state & LNET_PEER_S_CONFIGURED);
	unlock(ln);
	memcpy(fk.rx_buf, payload, 16);		/* the LND moves the bytes */
	lnet_finalize(ln, fk.rx_msg, 0);
	lock(ln);
	assert_int_equal(count_events(th, LNET_EVENT_PUT, 0), 1);
	assert_int_equal(event_of(th, LNET_EVENT_PUT)->hdr_data, 77);
	/* the ACK was on its way before the event: its sender waits for it */
	assert_int_equal(held_at[event_of(th, LNET_EVENT_PUT) - events], 1);
	assert_int_equal(event_of(th, LNET_EVENT_PUT)->mlength, 16);
	assert_true(event_of(th, LNET_EVENT_PUT)->unlinked);	/* threshold 1 */
	assert_true(lnet_nid_equal(&event_of(th, LNET_EVENT_PUT)->initiator, &from));
	check_bytes(dst, payload, 16);
	/* the ACK goes back through the NI it came in by */
	assert_int_equal(fk.nheld, 1);
	out = fk.held[0];
	assert_int_equal(out->msg_hdr.type, LNET_MSG_ACK);
	assert_true(lnet_nid_equal(&out->msg_hdr.dest_nid, &from));
	assert_true(lnet_nid_equal(&out->msg_hdr.src_nid, &ni->ni_nid));
	assert_int_equal(out->msg_hdr.msg.ack.dst_wmd.wh_interface_cookie, 0x11);
	assert_int_equal(out->msg_hdr.msg.ack.dst_wmd.wh_object_cookie, 0x22);
	assert_int_equal(out->msg_hdr.msg.ack.mlength, 16);
	assert_int_equal(out->msg_hdr.msg.ack.match_bits, BITS);
	assert_int_equal(out->msg_hdr.payload_length, 0);
	assert_int_equal(lpni_total(lpni, LNET_STATS_RECV), 1);
	assert_int_equal(ni_total(ni, LNET_STATS_RECV), 1);
	assert_int_equal(ni->ni_counters.lc_msgs[LNET_STATS_RECV][LNET_MSG_PUT], 1);
	unlock(ln);
	fake_complete(0, 0);

	/* GET: received at once (NULL message), answered by a REPLY */
	h = hdr_to(ni, &from, LNET_MSG_GET);
	h.msg.get.return_wmd.wh_interface_cookie = 0x33;
	h.msg.get.return_wmd.wh_object_cookie = 0x44;
	h.msg.get.match_bits = BITS;
	h.msg.get.ptl_index = PORTAL;
	h.msg.get.sink_length = 10;
	assert_int_equal(lnet_parse(ln, ni, &h, &from, (void *)1), 0);
	assert_int_equal(fk.nrecv, 2);
	assert_null(fk.rx_msg);
	lock(ln);
	assert_int_equal(fk.nheld, 2);
	out = fk.held[1];
	assert_int_equal(out->msg_hdr.type, LNET_MSG_REPLY);
	assert_int_equal(out->msg_hdr.payload_length, 10);
	assert_int_equal(out->msg_hdr.msg.reply.dst_wmd.wh_interface_cookie, 0x33);
	assert_int_equal(out->msg_hdr.msg.reply.dst_wmd.wh_object_cookie, 0x44);
	assert_ptr_equal(out->msg_buf, data);
	assert_int_equal(out->msg_len, 10);
	assert_int_equal(count_events(gh, LNET_EVENT_GET, 0), 0);
	unlock(ln);
	fake_complete(1, 0);
	lock(ln);
	assert_int_equal(count_events(gh, LNET_EVENT_GET, 0), 1);
	assert_true(event_of(gh, LNET_EVENT_GET)->unlinked);
	assert_int_equal(lpni_total(lpni, LNET_STATS_SENT), 2);
	assert_int_equal(lpni_total(lpni, LNET_STATS_RECV), 2);
	assert_int_equal(ni->ni_counters.lc_msgs[LNET_STATS_SENT][LNET_MSG_REPLY], 1);
	assert_int_equal(ln->ln_dp.dp_length[LNET_STATS_SENT], 10);
	assert_int_equal(ln->ln_dp.dp_length[LNET_STATS_RECV], 16);

	/* no match: dropped, the LND told to discard the payload */
	h = hdr_to(ni, &from, LNET_MSG_PUT);
	h.payload_length = 5;
	h.msg.put.match_bits = 999;
	h.msg.put.ptl_index = PORTAL;
	unlock(ln);
	assert_int_equal(lnet_parse(ln, ni, &h, &from, (void *)1), 0);
	lock(ln);
	assert_null(fk.rx_msg);
	assert_int_equal(fk.rx_rlen, 5);
	assert_int_equal(lpni_total(lpni, LNET_STATS_DROP), 1);
	assert_int_equal(ni_total(ni, LNET_STATS_DROP), 1);
	assert_int_equal(ln->ln_dp.dp_msgs_alloc, 0);
	unlock(ln);
}


/* PUT @bits with @len bytes from @from to @ni: the message the LND was given (NULL: dropped). */
static struct lnet_msg *put_from(struct lnet *ln, struct lnet_ni *ni,
				 const struct lnet_nid *from, u64 bits, u32 len)
{
	struct lnet_hdr h = hdr_to(ni, from, LNET_MSG_PUT);

	h.payload_length = len;
	h.msg.put.match_bits = bits;
	h.msg.put.ptl_index = PORTAL;
	fk.rx_msg = NULL;
	assert_int_equal(lnet_parse(ln, ni, &h, from, (void *)1), 0);
	return fk.rx_msg;
}

/*
 * Multi-Rail: an ME that names a NID takes what any NID of that NID's
 * peer sends (a peer answers from the NI the selection picked), and the
 * event gives the initiator by its primary NID and the source as it sent.
 * Lustre's lnet_selftest RPCs to a Multi-Rail peer depend on it.
 */
static void test_match_multi_rail(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid prim = nid4(10, 0, 0, 50), second = nid4(10, 0, 0, 51);
	struct lnet_nid other = nid4(10, 0, 0, 60);
	struct lnet_handle_md by_prim, by_second, by_other;
	u8 a[8], b[8], c[8];
	struct lnet_msg *msg;
	struct lnet_ni *ni;

	lock(ln);
	ni = add_ni(ln, "eth0", 8, 8);
	assert_int_equal(lnet_peer_ni_add(ln, &prim, NULL, 0), 0);
	assert_int_equal(lnet_peer_ni_add(ln, &prim, &second, 0), 0);
	by_prim = attach(ln, PORTAL, 1, 0, &prim, LNET_PID_ANY, a, 8, 1,
			 LNET_MD_OP_PUT | LNET_MD_ACK_DISABLE);
	by_second = attach(ln, PORTAL, 2, 0, &second, LNET_PID_ANY, b, 8, 1,
			   LNET_MD_OP_PUT | LNET_MD_ACK_DISABLE);
	by_other = attach(ln, PORTAL, 3, 0, &other, LNET_PID_ANY, c, 8, 1,
			  LNET_MD_OP_PUT | LNET_MD_ACK_DISABLE);
	unlock(ln);

	/* the peer's second NID answers an ME that names its primary */
	msg = put_from(ln, ni, &second, 1, 8);
	assert_non_null(msg);
	lnet_finalize(ln, msg, 0);
	/* and its primary one that names the second */
	msg = put_from(ln, ni, &prim, 2, 8);
	assert_non_null(msg);
	lnet_finalize(ln, msg, 0);
	/* a NID of another node does not: dropped, the ME still there */
	assert_null(put_from(ln, ni, &second, 3, 8));
	assert_null(put_from(ln, ni, &other, 1, 8));

	lock(ln);
	assert_int_equal(count_events(by_prim, LNET_EVENT_PUT, 0), 1);
	assert_true(lnet_nid_equal(&event_of(by_prim, LNET_EVENT_PUT)->initiator, &prim));
	assert_true(lnet_nid_equal(&event_of(by_prim, LNET_EVENT_PUT)->source, &second));
	assert_int_equal(count_events(by_second, LNET_EVENT_PUT, 0), 1);
	assert_true(lnet_nid_equal(&event_of(by_second, LNET_EVENT_PUT)->initiator, &prim));
	assert_true(lnet_nid_equal(&event_of(by_second, LNET_EVENT_PUT)->source, &prim));
	assert_int_equal(count_events(by_other, LNET_EVENT_PUT, 0), 0);
	assert_int_equal(ni_total(ni, LNET_STATS_DROP), 2);
	unlock(ln);
	/* the ME that named the other node takes its PUT */
	msg = put_from(ln, ni, &other, 3, 8);
	assert_non_null(msg);
	lnet_finalize(ln, msg, 0);
	lock(ln);
	assert_int_equal(count_events(by_other, LNET_EVENT_PUT, 0), 1);
	assert_true(lnet_nid_equal(&event_of(by_other, LNET_EVENT_PUT)->initiator, &other));
	unlock(ln);
}

/* Our PUT+ACK and GET to a peer: the answers are matched by their cookie. */
static void test_parse_ack_reply(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid peer = nid4(10, 0, 0, 100);
	u8 src[20], sink[8], reply[8];
	struct lnet_handle_md ph, gh;
	struct lnet_handle_wire wmd;
	struct lnet_ni *ni;
	struct lnet_hdr h;

	fill(src, 20, 2);
	fill(reply, 8, 3);
	lock(ln);
	ni = add_ni(ln, "eth0", 8, 8);
	ph = md_bind(ln, src, 20, 2, 0);
	assert_int_equal(lnet_put(ln, NULL, ph, true, &peer, LNET_PID_LUSTRE, PORTAL,
				  BITS, 0, 20, 0), 0);
	wmd = fk.held[0]->msg_hdr.msg.put.ack_wmd;
	assert_int_equal(wmd.wh_interface_cookie, ln->ln_dp.dp_interface_cookie);
	unlock(ln);

	/* the ACK may come before the LND reports the send done */
	h = hdr_to(ni, &peer, LNET_MSG_ACK);
	h.msg.ack.dst_wmd = wmd;
	h.msg.ack.dst_wmd.wh_interface_cookie ^= 1;	/* another incarnation */
	h.msg.ack.mlength = 20;
	assert_int_equal(lnet_parse(ln, ni, &h, &peer, (void *)1), 0);
	assert_null(fk.rx_msg);
	h.msg.ack.dst_wmd = wmd;
	assert_int_equal(lnet_parse(ln, ni, &h, &peer, (void *)1), 0);
	assert_non_null(fk.rx_msg);
	lnet_finalize(ln, fk.rx_msg, 0);
	assert_int_equal(nevents, 0);		/* SEND first, then ACK */
	fake_complete(0, 0);
	lock(ln);
	assert_int_equal(nevents, 2);
	assert_int_equal(events[0].type, LNET_EVENT_SEND);
	assert_int_equal(events[1].type, LNET_EVENT_ACK);
	assert_int_equal(events[1].mlength, 20);
	assert_true(events[1].unlinked);
	assert_int_equal(lpni_total(lpni_of(ln, 100), LNET_STATS_DROP), 1);

	/* GET: a REPLY longer than asked is dropped, the right one lands */
	gh = md_bind(ln, sink, 8, 2, 0);
	assert_int_equal(lnet_get(ln, NULL, gh, &peer, LNET_PID_LUSTRE, PORTAL, BITS,
				  0, 8), 0);
	wmd = fk.held[1]->msg_hdr.msg.get.return_wmd;
	assert_int_equal(fk.held[1]->msg_hdr.msg.get.sink_length, 8);
	unlock(ln);
	fake_complete(1, 0);
	h = hdr_to(ni, &peer, LNET_MSG_REPLY);
	h.msg.reply.dst_wmd = wmd;
	h.payload_length = 9;
	assert_int_equal(lnet_parse(ln, ni, &h, &peer, (void *)1), 0);
	assert_null(fk.rx_msg);
	h.payload_length = 8;
	assert_int_equal(lnet_parse(ln, ni, &h, &peer, (void *)1), 0);
	assert_ptr_equal(fk.rx_buf, sink);
	assert_int_equal(fk.rx_mlen, 8);
	memcpy(fk.rx_buf, reply, 8);
	lnet_finalize(ln, fk.rx_msg, 0);
	lock(ln);
	assert_int_equal(count_events(gh, LNET_EVENT_SEND, 0), 1);
	assert_int_equal(count_events(gh, LNET_EVENT_REPLY, 0), 1);
	assert_int_equal(event_of(gh, LNET_EVENT_REPLY)->mlength, 8);
	check_bytes(sink, reply, 8);
	/* a second REPLY for the same GET finds nothing */
	unlock(ln);
	assert_int_equal(lnet_parse(ln, ni, &h, &peer, (void *)1), 0);
	assert_null(fk.rx_msg);
	lock(ln);
	assert_int_equal(lpni_total(lpni_of(ln, 100), LNET_STATS_DROP), 3);
	assert_int_equal(ln->ln_dp.dp_msgs_alloc, 0);
	unlock(ln);
}

/* ---- latencies ------------------------------------------------------------------------ */

#define MS	1000000ULL

static void sleep_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

/* @l has @samples samples between @min_ns and @max_ns, min <= avg <= max. */
static void assert_latency(const struct lnet_latency *l, u64 samples,
			   u64 min_ns, u64 max_ns)
{
	u64 avg = lnet_latency_avg_ns(l);

	assert_int_equal(l->ll_samples, samples);
	assert_true(l->ll_min_ns >= min_ns);
	assert_true(l->ll_max_ns <= max_ns);
	assert_true(l->ll_min_ns <= avg && avg <= l->ll_max_ns);
}

/* The same latencies on the local NI that sent and the peer NI it went to. */
static void assert_latency_both(struct lnet_ni *ni, struct lnet_peer_ni *lpni,
				u32 lat, u64 samples, u64 min_ns, u64 max_ns)
{
	assert_latency(&ni->ni_counters.lc_lat[lat], samples, min_ns, max_ns);
	assert_latency(&lpni->lpni_counters.lc_lat[lat], samples, min_ns, max_ns);
	assert_memory_equal(&ni->ni_counters.lc_lat[lat],
			    &lpni->lpni_counters.lc_lat[lat], sizeof(struct lnet_latency));
}

/* Feed 10.0.0.100's ACK (@type LNET_MSG_ACK) or 8-byte REPLY for @wmd to @ni. */
static void answer(struct lnet *ln, struct lnet_ni *ni, u32 type,
		   struct lnet_handle_wire wmd)
{
	struct lnet_nid peer = nid4(10, 0, 0, 100);
	struct lnet_hdr h = hdr_to(ni, &peer, type);

	if (type == LNET_MSG_ACK) {
		h.msg.ack.dst_wmd = wmd;
	} else {
		h.msg.reply.dst_wmd = wmd;
		h.payload_length = 8;
	}
	fk.rx_msg = NULL;
	assert_int_equal(lnet_parse(ln, ni, &h, &peer, (void *)1), 0);
	assert_non_null(fk.rx_msg);
	lnet_finalize(ln, fk.rx_msg, 0);
}

/*
 * PUT egress ends when the LND reports the send done, PUT ACK and GET RTT
 * when the answer is in, all from the hand-over to the LND; the LND here
 * holds each send as long as the test sleeps. A PUT without ACK adds an
 * egress sample only, a failed send none.
 */
static void test_latency(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid peer = nid4(10, 0, 0, 100);
	struct lnet_handle_wire ack_wmd, reply_wmd;
	struct lnet_peer_ni *lpni;
	u64 t0 = os_now_ns(), bound;
	u8 src[20], sink[8];
	struct lnet_ni *ni;

	lock(ln);
	ni = add_ni(ln, "eth0", 8, 8);
	assert_int_equal(lnet_put(ln, NULL, md_bind(ln, src, 20, 2, 0), true, &peer,
				  LNET_PID_LUSTRE, PORTAL, BITS, 0, 20, 0), 0);
	ack_wmd = fk.held[0]->msg_hdr.msg.put.ack_wmd;
	lpni = lpni_of(ln, 100);
	unlock(ln);
	sleep_ms(2);
	fake_complete(0, 0);
	sleep_ms(2);
	answer(ln, ni, LNET_MSG_ACK, ack_wmd);

	lock(ln);
	put_to(ln, 100, NULL);		/* no ACK: held 6 ms */
	assert_int_equal(lnet_get(ln, NULL, md_bind(ln, sink, 8, 2, 0), &peer,
				  LNET_PID_LUSTRE, PORTAL, BITS, 0, 8), 0);
	reply_wmd = fk.held[2]->msg_hdr.msg.get.return_wmd;
	unlock(ln);
	sleep_ms(3);
	fake_complete(2, 0);		/* GET egress is no PUT egress */
	sleep_ms(3);
	fake_complete(1, 0);
	answer(ln, ni, LNET_MSG_REPLY, reply_wmd);

	lock(ln);
	put_to(ln, 100, NULL);
	unlock(ln);
	fake_complete(3, -EIO);		/* failed: no sample */

	lock(ln);
	bound = os_now_ns() - t0;
	assert_latency_both(ni, lpni, LNET_LAT_PUT_EGRESS, 2, 2 * MS, bound);
	assert_true(ni->ni_counters.lc_lat[LNET_LAT_PUT_EGRESS].ll_max_ns >= 6 * MS);
	assert_latency_both(ni, lpni, LNET_LAT_PUT_ACK, 1, 4 * MS, bound);
	assert_latency_both(ni, lpni, LNET_LAT_GET_RTT, 1, 6 * MS, bound);
	unlock(ln);
}

/* ---- going down with messages in flight ------------------------------------------ */

static void test_unconfigure_in_flight(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid peer = nid4(10, 0, 0, 100);
	struct lnet_handle_md h[4], ah;
	static u8 buf[32];
	unsigned int i;

	lock(ln);
	add_ni(ln, "eth0", 1, 1);
	ah = md_bind(ln, buf, 32, 2, 0);
	assert_int_equal(lnet_put(ln, NULL, ah, true, &peer, LNET_PID_LUSTRE, PORTAL,
				  BITS, 0, 32, 0), 0);
	unlock(ln);
	fake_complete(0, 0);			/* now waiting for its ACK */
	lock(ln);
	h[0] = put_to(ln, 100, NULL);		/* with the LND */
	h[1] = put_to(ln, 100, NULL);		/* waits for the peer credit */
	h[2] = put_to(ln, 101, NULL);		/* waits for the NI credit */
	h[3] = put_to(ln, 102, NULL);		/* too */
	assert_int_equal(fk.nheld, 2);
	fk.shutdown_status = -ECANCELED;
	assert_int_equal(lnet_unconfigure(ln), 0);
	assert_int_equal(fk.nshutdown, 1);
	assert_int_equal(count_events(h[0], LNET_EVENT_SEND, -ECANCELED), 1);
	for (i = 1; i < 4; i++)
		assert_int_equal(count_events(h[i], LNET_EVENT_SEND, -ENETDOWN), 1);
	assert_int_equal(count_events(ah, LNET_EVENT_ACK, -ESHUTDOWN), 1);
	assert_int_equal(nevents, 6);		/* + the SEND of the PUT+ACK */
	for (i = 0; i < 4; i++)
		assert_true(event_of(h[i], LNET_EVENT_SEND)->unlinked);
	assert_int_equal(ln->ln_nobjects, 0);
	assert_int_equal(lnet_configure(ln), 0);
	ln->ln_globals[LNET_GLOBAL_DISCOVERY] = 0;	/* counts exact messages */
	unlock(ln);
}

static void test_net_del_in_flight(void **state)
{
	struct lnet *ln = *state;
	struct lnet_handle_md h[3];
	s64 objs;

	lock(ln);
	objs = ln->ln_nobjects;
	add_ni(ln, "eth0", 1, 8);
	add_ni(ln, "eth1", 1, 8);
	h[0] = put_to(ln, 100, NULL);
	h[1] = put_to(ln, 100, NULL);
	h[2] = put_to(ln, 100, NULL);		/* both NIs busy: waits */
	assert_int_equal(fk.nheld, 2);
	fk.shutdown_status = -ECANCELED;
	assert_int_equal(lnet_global_set(ln, LNET_GLOBAL_RETRY_COUNT, 0), 0);
	assert_int_equal(lnet_net_del(ln, TCP, NULL), 0);
	assert_int_equal(fk.nshutdown, 2);
	assert_int_equal(nevents, 3);
	assert_int_equal(count_events(h[0], LNET_EVENT_SEND, -ECANCELED), 1);
	assert_int_equal(count_events(h[1], LNET_EVENT_SEND, -ECANCELED), 1);
	assert_int_equal(count_events(h[2], LNET_EVENT_SEND, -ENETDOWN), 1);
	assert_int_equal(ln->ln_dp.dp_msgs_alloc, 0);
	/* the peer made by the traffic stays; deleting it gives the count back */
	assert_int_equal(lnet_peer_ni_del(ln, &lpni_of(ln, 100)->lpni_nid, NULL, 0), 0);
	assert_int_equal(ln->ln_nobjects, objs);
	unlock(ln);
}

static void test_peer_del_in_flight(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid a = nid4(10, 0, 0, 100);
	struct lnet_handle_md h[2];
	struct lnet_ni *ni;

	lock(ln);
	assert_int_equal(lnet_global_set(ln, LNET_GLOBAL_RETRY_COUNT, 0), 0);
	ni = add_ni(ln, "eth0", 8, 1);
	h[0] = put_to(ln, 100, NULL);
	h[1] = put_to(ln, 100, NULL);		/* waits for A's credit */
	assert_int_equal(lnet_peer_ni_del(ln, &a, NULL, 0), 0);
	assert_int_equal(count_events(h[1], LNET_EVENT_SEND, -EHOSTUNREACH), 1);
	assert_null(fk.held[0]->msg_txpeer);
	/* the peer went away: our NI is not to blame */
	assert_int_equal(ni->ni_health.lh_value, LNET_MAX_HEALTH);
	unlock(ln);
	fake_complete(0, 0);			/* the LND still had it */
	lock(ln);
	assert_int_equal(count_events(h[0], LNET_EVENT_SEND, 0), 1);
	assert_int_equal(ni->ni_tx_credits, 8);
	assert_int_equal(ni_total(ni, LNET_STATS_SENT), 1);
	assert_int_equal(ln->ln_dp.dp_msgs_alloc, 0);
	unlock(ln);
}

/* Unlinked with a send in flight: the UNLINK event comes after the SEND. */
static void test_unlink_in_flight(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid a = nid4(10, 0, 0, 100);
	static u8 buf[64];
	struct lnet_handle_md h;
	s64 objs;

	lock(ln);
	add_ni(ln, "eth0", 8, 8);
	objs = ln->ln_nobjects;
	h = md_bind(ln, buf, 64, LNET_MD_THRESH_INF, 0);
	assert_int_equal(lnet_put(ln, NULL, h, false, &a, LNET_PID_LUSTRE, PORTAL, BITS,
				  0, 64, 0), 0);
	assert_int_equal(lnet_md_unlink(ln, h), 0);
	assert_int_equal(nevents, 0);
	assert_int_equal(lnet_md_unlink(ln, h), -ENOENT);
	assert_int_equal(lnet_put(ln, NULL, h, false, &a, LNET_PID_LUSTRE, PORTAL, BITS,
				  0, 64, 0), -EINVAL);
	unlock(ln);
	fake_complete(0, 0);
	lock(ln);
	assert_int_equal(nevents, 2);
	assert_int_equal(events[0].type, LNET_EVENT_SEND);
	assert_false(events[0].unlinked);
	assert_int_equal(events[1].type, LNET_EVENT_UNLINK);
	assert_true(events[1].unlinked);
	assert_int_equal(events[1].md_handle.cookie, h.cookie);
	/* what is left: the peer made by the traffic (peer, peer net, peer NI) */
	assert_int_equal(ln->ln_nobjects, objs + 3);
	unlock(ln);
}

/* An LND's view of a peer NI: its state and when it was last heard of. */
static void test_notify(void **state)
{
	struct lnet *ln = *state;
	struct lnet_nid a = nid4(10, 0, 0, 100), b = nid4(10, 0, 0, 101);
	struct lnet_peer_ni *lpni;
	struct lnet_ni *ni;

	lock(ln);
	ni = add_ni(ln, "eth0", 8, 8);
	assert_int_equal(lnet_peer_ni_add(ln, &a, NULL, 0), 0);
	lpni = lpni_of(ln, 100);
	assert_true(lpni->lpni_peer_net->lpn_peer->lp_state & LNET_PEER_S_CONFIGURED);
	assert_int_equal(lpni->lpni_last_alive_ns, 0);
	unlock(ln);
	lnet_notify(ln, ni, &a, false);
	lock(ln);
	assert_int_equal(lpni->lpni_state, LNET_NI_STATUS_DOWN);
	assert_int_equal(lpni->lpni_last_alive_ns, 0);
	unlock(ln);
	lnet_notify(ln, ni, &a, true);
	lnet_notify(ln, ni, &b, true);		/* unknown: nothing made */
	lock(ln);
	assert_int_equal(lpni->lpni_state, LNET_NI_STATUS_UP);
	assert_true(lpni->lpni_last_alive_ns > 0);
	assert_null(lnet_peer_ni_find(ln, &b));
	unlock(ln);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_put_get_lo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stats_lo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_match_bits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threshold_unlink, setup, teardown),
		cmocka_unit_test_setup_teardown(test_offsets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ack_disable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_credits, setup_fake, teardown),
		cmocka_unit_test_setup_teardown(test_source_nid, setup_fake, teardown),
		cmocka_unit_test_setup_teardown(test_no_lnd, setup, teardown),
		cmocka_unit_test_setup_teardown(test_send_error, setup_fake, teardown),
		cmocka_unit_test_setup_teardown(test_parse_errors, setup_fake, teardown),
		cmocka_unit_test_setup_teardown(test_parse_put_get, setup_fake, teardown),
		cmocka_unit_test_setup_teardown(test_parse_ack_reply, setup_fake, teardown),
		cmocka_unit_test_setup_teardown(test_match_multi_rail, setup_fake, teardown),
		cmocka_unit_test_setup_teardown(test_latency, setup_fake, teardown),
		cmocka_unit_test_setup_teardown(test_unconfigure_in_flight, setup_fake,
						teardown),
		cmocka_unit_test_setup_teardown(test_net_del_in_flight, setup_fake,
						teardown),
		cmocka_unit_test_setup_teardown(test_peer_del_in_flight, setup_fake,
						teardown),
		cmocka_unit_test_setup_teardown(test_notify, setup_fake, teardown),
		cmocka_unit_test_setup_teardown(test_unlink_in_flight, setup_fake,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
