// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SRPC codec (kernel/selftest/srpc_wire.c) against a capture of an lst
 * session between two real Lustre 2.17 nodes (tests/data/wire/
 * lnet-lst-ipv4.pcap, see its README): every TCP direction is walked
 * message by message (acceptor request, hello, socket and LNet headers
 * with kernel/wire/wire.c), every SRPC message is unpacked and printed
 * field by field, and the text must equal lnet-lst-ipv4.srpc.txt, which
 * an independent decoder wrote (the README says how). Each message must
 * pack back to its captured bytes. The bulk is checked too: the GETs and
 * PUTs on portal 52 are listed, the destination list of the test client
 * decodes to its one NID, the captured words of the brw bulk hold the
 * pattern of their check mode. Then the codec's error paths.
 *
 * The capture cut bulk-only frames to their headers (their length stays
 * in the IP header): those bytes are holes here; a hole in a header or in
 * an SRPC message fails the test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <unistd.h>
#include <libgen.h>
#include <cmocka.h>

#include "../../kernel/wire/lnet_wire.h"
#include "../../kernel/selftest/srpc_wire.h"

#define PCAP_NAME	"lnet-lst-ipv4.pcap"
#define PCAP_SIZE	2669266
#define PCAP_FRAMES	23746
#define GOLDEN_NAME	"lnet-lst-ipv4.srpc.txt"
#define VM1_IP		0xc0a83201U	/* 192.168.50.1: connects, console */
#define MAX_DIRS	6
#define MAX_GETS	64
#define TEXT_MAX	(256 * 1024)
#define MAX_ZC		256	/* zero-copy requests in the capture */

enum walk_state { W_PRE, W_HDR, W_PAYLOAD };

/* One TCP direction, parsed as its bytes arrive in sequence order. */
struct dir {
	u32 sip, dip;
	u16 sport, dport;
	u32 next_seq;
	u64 pos;			/* stream bytes so far */
	bool have_seq;
	enum walk_state st;
	u32 need, got;			/* bytes of the current item */
	u8 hdr[LNET_WIRE_MSG_HDR_MAX_LEN];	/* preamble or message header */
	u32 msg_frame;			/* frame of the item's first byte */
	u64 msg_pos;			/* its stream offset */
	struct lnet_hdr lh;
	u8 *payload;			/* LNET_MTU bytes */
	bool *have;			/* which payload bytes were captured */
};

/* A bulk GET seen on portal 52: its REPLY comes with this handle. */
struct bulk_get {
	u64 wmd_obj;
	u32 sink;
};

/* One line block of output, sorted by frame then stream offset. */
struct rec {
	u32 frame;
	u64 pos;
	char *text;
};

static struct {
	u8 *pcap;
	u32 frames, ndirs;
	struct dir dir[MAX_DIRS];
	struct bulk_get gets[MAX_GETS];
	u32 ngets;
	struct rec *recs;
	u32 nrecs, cap_recs;
	u32 srpc_msgs, dest_lists, full_bulks, simple_bulks, retransmits;
	/* ZC-REQs (sender's IP, cookie) and how many ZC-ACKs from the other node named each */
	struct { u32 ip; u64 cookie; u32 acks; } zc[MAX_ZC];
	u32 nzc, zc_noops, zc_unknown;
} C;

/* --- helpers --------------------------------------------------------------------- */

static u16 be16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static u32 be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static void add_rec(const struct dir *d, const char *text)
{
	if (C.nrecs == C.cap_recs) {
		C.cap_recs = C.cap_recs ? C.cap_recs * 2 : 512;
		C.recs = realloc(C.recs, C.cap_recs * sizeof(*C.recs));
		assert_non_null(C.recs);
	}
	C.recs[C.nrecs].frame = d->msg_frame;
	C.recs[C.nrecs].pos = d->msg_pos;
	C.recs[C.nrecs].text = strdup(text);
	assert_non_null(C.recs[C.nrecs].text);
	C.nrecs++;
}

/* The independent decoder's integer form: hex from 0x10000 on. */
static const char *num(char *buf, u64 v)
{
	snprintf(buf, 24, v >= 0x10000 ? "0x%llx" : "%llu", (unsigned long long)v);
	return buf;
}

static const char *arrow(const struct dir *d)
{
	return d->sip == VM1_IP ? "->" : "<-";
}

static const char *nid4_str(char *buf, u64 nid)
{
	struct lnet_nid n;

	if (nid == LST_NID_ANY)
		return "LNET_NID_ANY";
	lnet_nid_from_wire(nid, &n);
	assert_true(lnet_nid_print(&n, buf, LNET_NID_STR_MAX) > 0);
	return buf;
}

/* Append printf output to @s (a TEXT_MAX buffer). */
static void cat(char *s, const char *fmt, ...)
{
	size_t n = strlen(s);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s + n, TEXT_MAX - n, fmt, ap);
	va_end(ap);
}

static void cat_sid(char *s, const char *pfx, const struct lst_sid *sid)
{
	char nb[LNET_NID_STR_MAX];

	cat(s, "%s_sid={ses_nid=%s, ses_stamp=%lld}", pfx, nid4_str(nb, sid->ses_nid),
	    (long long)sid->ses_stamp);
}

static void cat_name(char *s, const char *key, const char *name)
{
	cat(s, "%s=%s", key, name[0] ? name : "''");
}

/* --- SRPC bodies as text ------------------------------------------------------------ */

static void cat_test_param(char *s, const struct srpc_msg *m)
{
	const struct srpc_test_reqst *t = &m->body.tes_reqst;
	const union srpc_test_param *p = &t->param;
	char a[24], b[24];

	switch (srpc_test_param_kind(t->service, m->ses_feats)) {
	case SRPC_PARAM_PING:
		cat(s, ", tsr_u.ping={png_size=%u, png_flags=%u}", p->ping.size, p->ping.flags);
		break;
	case SRPC_PARAM_BULK_V1:
		cat(s, ", tsr_u.bulk_v1={blk_opc=%u, blk_opc_name=%s, blk_flags=%u, "
		    "blk_flags_name=%s, blk_len=%s, blk_offset=%s}", p->bulk_v1.opc,
		    lst_brw_op_name(p->bulk_v1.opc), p->bulk_v1.flags,
		    lst_brw_check_name(p->bulk_v1.flags), num(a, p->bulk_v1.len),
		    num(b, p->bulk_v1.offset));
		break;
	default:
		fail_msg("TEST_REQST parameter kind not in the capture");
	}
}

static void cat_test_reqst(char *s, const struct srpc_msg *m)
{
	const struct srpc_test_reqst *t = &m->body.tes_reqst;
	char a[24], b[24], c[24];

	cat(s, "tsr_rpyid=%s, tsr_bulkid=%s, ", num(a, t->rpyid), num(b, t->bulkid));
	cat_sid(s, "tsr", &t->sid);
	cat(s, ", tsr_bid=%s, tsr_service=%u, tsr_service_name=%s, tsr_loop=%s, "
	    "tsr_concur=%u, tsr_is_client=%u, tsr_stop_onerr=%u, tsr_ndest=%u",
	    num(c, t->bid), t->service, srpc_service_name(t->service),
	    num(a, t->loop), t->concur, t->is_client, t->stop_onerr, t->ndest);
	cat_test_param(s, m);
}

static void cat_stat_reply(char *s, const struct srpc_stat_reply *r)
{
	const struct sfw_counters *f = &r->fw;
	const struct srpc_counters *c = &r->rpc;
	const struct lnet_counters_common *l = &r->lnet;
	char a[24], b[24], x[24], y[24];

	cat(s, "str_status=%u, ", r->status);
	cat_sid(s, "str", &r->sid);
	cat(s, ", str_fw={running_ms=%s, active_batches=%u, zombie_sessions=%u, "
	    "brw_errors=%u, ping_errors=%u}", num(a, f->running_ms), f->active_batches,
	    f->zombie_sessions, f->brw_errors, f->ping_errors);
	cat(s, ", str_rpc={errors=%u, rpcs_sent=%u, rpcs_rcvd=%u, rpcs_dropped=%u, "
	    "rpcs_expired=%u, bulk_get=%s, bulk_put=%s}", c->errors, c->rpcs_sent,
	    c->rpcs_rcvd, c->rpcs_dropped, c->rpcs_expired, num(a, c->bulk_get),
	    num(b, c->bulk_put));
	cat(s, ", str_lnet={msgs_alloc=%u, msgs_max=%u, errors=%u, send_count=%u, "
	    "recv_count=%u, route_count=%u, drop_count=%u, ", l->msgs_alloc, l->msgs_max,
	    l->errors, l->send_count, l->recv_count, l->route_count, l->drop_count);
	cat(s, "send_length=%s, recv_length=%s, route_length=%s, drop_length=%s}",
	    num(a, l->send_length), num(b, l->recv_length), num(x, l->route_length),
	    num(y, l->drop_length));
}

static void cat_framework(char *s, const struct srpc_msg *m)
{
	const struct srpc_batch_reqst *br = &m->body.bat_reqst;
	const struct srpc_batch_reply *bp = &m->body.bat_reply;
	char a[24], b[24];

	switch (m->type) {
	case SRPC_MSG_MKSN_REQST:
		cat(s, "mksn_rpyid=%s, ", num(a, m->body.mksn_reqst.rpyid));
		cat_sid(s, "mksn", &m->body.mksn_reqst.sid);
		cat(s, ", mksn_force=%u, ", m->body.mksn_reqst.force);
		cat_name(s, "mksn_name", m->body.mksn_reqst.name);
		break;
	case SRPC_MSG_MKSN_REPLY:
		cat(s, "mksn_status=%u, ", m->body.mksn_reply.status);
		cat_sid(s, "mksn", &m->body.mksn_reply.sid);
		cat(s, ", mksn_timeout=%u, ", m->body.mksn_reply.timeout);
		cat_name(s, "mksn_name", m->body.mksn_reply.name);
		break;
	case SRPC_MSG_RMSN_REQST:
		cat(s, "rmsn_rpyid=%s, ", num(a, m->body.rmsn_reqst.rpyid));
		cat_sid(s, "rmsn", &m->body.rmsn_reqst.sid);
		break;
	case SRPC_MSG_RMSN_REPLY:
	case SRPC_MSG_TEST_REPLY: {
		const char *p = m->type == SRPC_MSG_TEST_REPLY ? "tsr" : "rmsn";

		cat(s, "%s_status=%u, ", p, m->body.rmsn_reply.status);
		cat_sid(s, p, &m->body.rmsn_reply.sid);
		break;
	}
	case SRPC_MSG_BATCH_REQST:
		cat(s, "bar_rpyid=%s, ", num(a, br->rpyid));
		cat_sid(s, "bar", &br->sid);
		cat(s, ", bar_bid=%s, bar_opc=%u, bar_opc_name=%s, bar_testidx=%u, bar_arg=%u",
		    num(b, br->bid), br->opc, lst_batch_opc_name(br->opc), br->testidx, br->arg);
		break;
	case SRPC_MSG_BATCH_REPLY:
		cat(s, "bar_status=%u, ", bp->status);
		cat_sid(s, "bar", &bp->sid);
		cat(s, ", bar_active=%u, bar_time=%u", bp->active, bp->time);
		break;
	case SRPC_MSG_STAT_REQST:
		cat(s, "str_rpyid=%s, ", num(a, m->body.stat_reqst.rpyid));
		cat_sid(s, "str", &m->body.stat_reqst.sid);
		cat(s, ", str_type=%u", m->body.stat_reqst.type);
		break;
	case SRPC_MSG_STAT_REPLY:
		cat_stat_reply(s, &m->body.stat_reply);
		break;
	case SRPC_MSG_TEST_REQST:
		cat_test_reqst(s, m);
		break;
	default:
		fail_msg("SRPC type %u not in the capture", m->type);
	}
}

static void cat_tests(char *s, const struct srpc_msg *m)
{
	const struct srpc_brw_reqst *b = &m->body.brw_reqst;
	const struct srpc_ping_reqst *p = &m->body.ping_reqst;
	char w[24], x[24], y[24], z[24], t[24];

	switch (m->type) {
	case SRPC_MSG_BRW_REQST:
		cat(s, "brw_rpyid=%s, brw_bulkid=%s, brw_rw=%u, brw_rw_name=%s, brw_len=%s, "
		    "brw_flags=%u, brw_flags_name=%s", num(w, b->rpyid), num(x, b->bulkid),
		    b->rw, lst_brw_op_name(b->rw), num(y, b->len), b->flags,
		    lst_brw_check_name(b->flags));
		break;
	case SRPC_MSG_BRW_REPLY:
		cat(s, "brw_status=%u", m->body.brw_reply.status);
		break;
	case SRPC_MSG_PING_REQST:
		cat(s, "pnr_rpyid=%s, pnr_magic=%s, pnr_seq=%s, pnr_time_sec=%s, "
		    "pnr_time_nsec=%s", num(w, p->rpyid), num(x, p->magic), num(y, p->seq),
		    num(z, p->time_sec), num(t, p->time_nsec));
		break;
	case SRPC_MSG_PING_REPLY:
		cat(s, "pnr_status=%u, pnr_magic=%s, pnr_seq=%s", m->body.ping_reply.status,
		    num(w, m->body.ping_reply.magic), num(x, m->body.ping_reply.seq));
		break;
	default:
		cat_framework(s, m);
	}
}

/* --- LNet messages ----------------------------------------------------------------- */

/* An SRPC message: unpacked, printed, packed back to the same bytes. */
static void srpc_message(struct dir *d)
{
	const struct lnet_hdr *h = &d->lh;
	u8 again[SRPC_MSG_LEN];
	struct srpc_msg m;
	static char s[TEXT_MAX];
	char a[24];
	u32 svc;

	for (u32 i = 0; i < SRPC_MSG_LEN; i++)
		assert_true(d->have[i]);
	assert_int_equal(srpc_msg_unpack(d->payload, SRPC_MSG_LEN, &m), 0);
	assert_false(m.swabbed);
	assert_int_equal(srpc_msg_pack(&m, again), 0);
	assert_memory_equal(again, d->payload, SRPC_MSG_LEN);
	s[0] = '\0';
	cat(s, "frame %u %s PUT SRPC %s %s (portal %u, ", d->msg_frame, arrow(d),
	    m.type & 1 ? "reply" : "request", srpc_msg_type_name(m.type),
	    h->msg.put.ptl_index);
	svc = srpc_msg_service(m.type);
	if (m.type & 1) {
		assert_int_equal(h->msg.put.ptl_index, SRPC_RDMA_PORTAL);
		cat(s, "rpyid %s)\n", num(a, h->msg.put.match_bits));
	} else {
		assert_int_equal(h->msg.put.ptl_index, srpc_service_portal(svc));
		assert_int_equal(h->msg.put.match_bits, svc);
		cat(s, "service %s)\n", srpc_service_name(svc));
	}
	cat(s, "  srpc: magic 0x%x version %u type %u (%s) reserved 0,0 ses_feats 0x%x\n",
	    SRPC_MSG_MAGIC, m.version, m.type, srpc_msg_type_name(m.type), m.ses_feats);
	cat(s, "  srpc body: ");
	cat_tests(s, &m);
	cat(s, "\n");
	add_rec(d, s);
	C.srpc_msgs++;
}

static void bulk_get(struct dir *d)
{
	const struct lnet_hdr *h = &d->lh;
	char s[160], a[24];

	snprintf(s, sizeof(s), "frame %u %s GET bulk (portal 52, bulkid %s, sink %u)\n",
		 d->msg_frame, arrow(d), num(a, h->msg.get.match_bits), h->msg.get.sink_length);
	add_rec(d, s);
	/* a ring: a REPLY follows its GET closely */
	C.gets[C.ngets % MAX_GETS].wmd_obj = h->msg.get.return_wmd.wh_object_cookie;
	C.gets[C.ngets % MAX_GETS].sink = h->msg.get.sink_length;
	C.ngets++;
}

static bool payload_whole(const struct dir *d, u32 n)
{
	for (u32 i = 0; i < n; i++)
		if (!d->have[i])
			return false;
	return true;
}

/* Bulk data: brw pages (check the pattern where captured) or a destination list. */
static void bulk_data(struct dir *d, u32 len)
{
	u64 nid;
	u32 pid, n;

	if (len == LST_DEST_LEN) {
		assert_true(payload_whole(d, len));
		srpc_dest_unpack(d->payload, 0, false, &nid, &pid);
		assert_int_equal(nid, 0x20000c0a83201ULL);	/* 192.168.50.1@tcp */
		assert_int_equal(pid, SRPC_PID);
		C.dest_lists++;
		return;
	}
	n = len < 8192 ? len : 8192;
	if (!payload_whole(d, n))
		return;
	/*
	 * 1 MiB writes are CHECK_FULL; 64 KiB reads and 4 KiB writes
	 * CHECK_SIMPLE (see the README).
	 */
	if (len == LST_BRW_MAX_LEN) {
		assert_int_equal(lst_brw_check(d->payload, 0, n, LST_BRW_CHECK_FULL), 0);
		C.full_bulks++;
		return;
	}
	assert_true(len == 65536 || len == 4096);
	assert_int_equal(lst_brw_check(d->payload, 0, n, LST_BRW_CHECK_SIMPLE), 0);
	/* the first read's slot held no 1 MiB write yet: zeros between */
	if (len == 65536 && !C.simple_bulks)
		assert_int_equal(lst_brw_check(d->payload, 0, n, LST_BRW_CHECK_FULL),
				 -EBADMSG);
	C.simple_bulks++;
}

/* A REPLY: to a bulk GET (its handle is on the ring, used once) or not ours. */
static void bulk_reply(struct dir *d)
{
	const struct lnet_hdr *h = &d->lh;

	for (u32 i = 0; i < C.ngets && i < MAX_GETS; i++) {
		struct bulk_get *g = &C.gets[i];

		if (!g->sink || g->wmd_obj != h->msg.reply.dst_wmd.wh_object_cookie)
			continue;
		if (g->sink != h->payload_length)
			fail_msg("frame %u: REPLY of %u bytes to a GET of %u", d->msg_frame,
				 h->payload_length, g->sink);
		g->sink = 0;
		bulk_data(d, h->payload_length);
		return;
	}
}

static void lnet_message(struct dir *d)
{
	const struct lnet_hdr *h = &d->lh;
	char s[160], a[24];

	if (h->type == LNET_MSG_PUT && h->payload_length == SRPC_MSG_LEN &&
	    h->msg.put.ptl_index >= SRPC_REQUEST_PORTAL &&
	    h->msg.put.ptl_index <= SRPC_RDMA_PORTAL) {
		srpc_message(d);
	} else if (h->type == LNET_MSG_GET && h->msg.get.ptl_index == SRPC_RDMA_PORTAL) {
		bulk_get(d);
	} else if (h->type == LNET_MSG_PUT && h->msg.put.ptl_index == SRPC_RDMA_PORTAL) {
		snprintf(s, sizeof(s), "frame %u %s PUT bulk %u B (portal 52, bulkid %s)\n",
			 d->msg_frame, arrow(d), h->payload_length, num(a, h->msg.put.match_bits));
		add_rec(d, s);
		bulk_data(d, h->payload_length);
	} else if (h->type == LNET_MSG_REPLY) {
		bulk_reply(d);
	}
}

/* --- the stream walk ------------------------------------------------------------------ */

/* The next item; its frame and offset are its first byte's. */
static void item_start(struct dir *d, enum walk_state st, u32 need)
{
	d->st = st;
	d->need = need;
	d->got = 0;
}

/* The whole connection preamble (acceptor request + hello, or hello) is in. */
static void preamble_done(struct dir *d)
{
	struct lnet_acceptor_req req;
	struct ksock_hello hello;
	const u8 *p = d->hdr;

	if (d->sip == VM1_IP) {
		assert_int_equal(lnet_acceptor_req_decode(p, LNET_WIRE_ACCEPT_LEN, &req), 0);
		assert_int_equal(req.acr_version, LNET_PROTO_ACCEPTOR_VERSION);
		p += LNET_WIRE_ACCEPT_LEN;
	}
	assert_int_equal(lnet_hello_decode(p, LNET_WIRE_HELLO_LEN, &hello), 0);
	assert_int_equal(hello.kshm_version, KSOCK_PROTO_V3);
	assert_int_equal(hello.kshm_src_pid, LNET_PID_LUSTRE);
	assert_int_equal(hello.kshm_nips, 0);
}

/* @d's sender asks for a zero-copy ACK of @cookie (cookies[0] of an LNet frame). */
static void zc_req(const struct dir *d, u64 cookie)
{
	assert_true(C.nzc < MAX_ZC);
	C.zc[C.nzc].ip = d->sip;
	C.zc[C.nzc].cookie = cookie;
	C.zc[C.nzc++].acks = 0;
}

/* @d's sender acknowledges @cookie of the other node's. */
static void zc_ack_one(const struct dir *d, u64 cookie)
{
	for (u32 i = 0; i < C.nzc; i++)
		if (C.zc[i].ip == d->dip && C.zc[i].cookie == cookie) {
			C.zc[i].acks++;
			return;
		}
	C.zc_unknown++;
}

/* The cookies (@c0, @c1) of a ZC-ACK, in their forms: (0, c) one; a > b two; a < b the range. */
static void zc_ack(const struct dir *d, u64 c0, u64 c1)
{
	if (!c1 || (!c0 && c1 == 1))		/* none, or a keepalive */
		return;
	if (!c0 || c0 == c1) {
		zc_ack_one(d, c1);
	} else if (c0 > c1) {
		zc_ack_one(d, c0);
		zc_ack_one(d, c1);
	} else {
		for (u64 c = c0; c <= c1; c++)
			zc_ack_one(d, c);
	}
}

/* A header is complete: a NOOP ends here, an LNet message goes on. */
static void header_done(struct dir *d)
{
	struct ksock_msg_hdr k;

	if (d->need == LNET_WIRE_KSOCK_HDR_LEN) {
		if (lnet_get_le32(d->hdr) == KSOCK_MSG_NOOP) {
			C.zc_noops++;
			zc_ack(d, lnet_get_le64(d->hdr + 8), lnet_get_le64(d->hdr + 16));
			item_start(d, W_HDR, LNET_WIRE_KSOCK_HDR_LEN);
			return;
		}
		assert_int_equal(lnet_get_le32(d->hdr), KSOCK_MSG_LNET);
		d->need = LNET_WIRE_MSG_HDR_LEN;
		return;
	}
	assert_int_equal(lnet_msg_hdr_decode(d->hdr, LNET_WIRE_MSG_HDR_LEN, &k, &d->lh), 0);
	if (k.ksm_zc_cookies[0])
		zc_req(d, k.ksm_zc_cookies[0]);
	zc_ack(d, 0, k.ksm_zc_cookies[1]);	/* an LNet frame acknowledges by [1] only */
	if (!d->lh.payload_length) {
		lnet_message(d);
		item_start(d, W_HDR, LNET_WIRE_KSOCK_HDR_LEN);
		return;
	}
	d->st = W_PAYLOAD;
	d->need = d->lh.payload_length;
	d->got = 0;
	memset(d->have, 0, d->need);
}

/* One byte of the stream (@b NULL: not captured) at stream offset @pos. */
static void stream_byte(struct dir *d, const u8 *b, u32 frame, u64 pos)
{
	if (d->st != W_PAYLOAD) {
		assert_non_null(b);	/* headers are always captured */
		if (!d->got) {
			d->msg_frame = frame;
			d->msg_pos = pos;
		}
		d->hdr[d->got++] = *b;
		if (d->got < d->need)
			return;
		if (d->st == W_PRE) {
			preamble_done(d);
			item_start(d, W_HDR, LNET_WIRE_KSOCK_HDR_LEN);
		} else {
			header_done(d);
		}
		return;
	}
	if (b) {
		d->payload[d->got] = *b;
		d->have[d->got] = true;
	}
	if (++d->got == d->need) {
		lnet_message(d);
		item_start(d, W_HDR, LNET_WIRE_KSOCK_HDR_LEN);
	}
}

static struct dir *dir_of(u32 sip, u16 sport, u32 dip, u16 dport)
{
	struct dir *d;

	for (u32 i = 0; i < C.ndirs; i++) {
		d = &C.dir[i];
		if (d->sip == sip && d->sport == sport && d->dip == dip && d->dport == dport)
			return d;
	}
	assert_true(C.ndirs < MAX_DIRS);
	d = &C.dir[C.ndirs++];
	d->sip = sip;
	d->dip = dip;
	d->sport = sport;
	d->dport = dport;
	d->payload = malloc(LNET_MTU);
	d->have = malloc(LNET_MTU);
	assert_true(d->payload && d->have);
	item_start(d, W_PRE, (sip == VM1_IP ? LNET_WIRE_ACCEPT_LEN : 0) + LNET_WIRE_HELLO_LEN);
	return d;
}

/* A TCP segment: @n bytes of data of which @ncap were captured. */
static void tcp_data(struct dir *d, u32 seq, const u8 *data, u32 n, u32 ncap, u32 frame)
{
	u32 skip = 0;

	/* a retransmission: the part already walked is skipped */
	if ((s32)(seq - d->next_seq) < 0) {
		skip = d->next_seq - seq;
		if (skip >= n)
			return;
		C.retransmits++;
	} else if (seq != d->next_seq) {
		fail_msg("frame %u: a hole of %u bytes", frame, seq - d->next_seq);
	}
	for (u32 i = skip; i < n; i++)
		stream_byte(d, i < ncap ? data + i : NULL, frame, d->pos + i - skip);
	d->next_seq += n - skip;
	d->pos += n - skip;
}

/* An Ethernet frame of @incl captured bytes (IPv4 TCP kept). */
static void ether_frame(const u8 *f, u32 incl, u32 frame)
{
	const u8 *ip = f + 14, *tcp;
	u32 ihl, tot, thl, n, ncap;
	struct dir *d;

	if (incl < 14 + 20 || be16(f + 12) != 0x0800 || ip[9] != 6)
		return;
	ihl = (ip[0] & 0xf) * 4u;
	tot = be16(ip + 2);
	tcp = ip + ihl;
	assert_true(14 + ihl + 20 <= incl);
	thl = (tcp[12] >> 4) * 4u;
	assert_true(14 + ihl + thl <= incl);
	n = tot - ihl - thl;
	ncap = incl - 14 - ihl - thl;
	if (ncap > n)
		ncap = n;	/* Ethernet padding */
	d = dir_of(be32(ip + 12), be16(tcp), be32(ip + 16), be16(tcp + 2));
	if (tcp[13] & 0x02) {			/* SYN */
		d->next_seq = be32(tcp + 4) + 1;
		d->have_seq = true;
		return;
	}
	if (n) {
		assert_true(d->have_seq);
		tcp_data(d, be32(tcp + 4), tcp + thl, n, ncap, frame);
	}
}

static void pcap_walk(const u8 *b, size_t n)
{
	size_t off = 24;

	assert_int_equal(lnet_get_le32(b), 0xa1b2c3d4);
	assert_int_equal(lnet_get_le32(b + 20), 1);
	while (off < n) {
		u32 incl;

		assert_true(off + 16 <= n);
		incl = lnet_get_le32(b + off + 8);
		assert_true(off + 16 + incl <= n);
		C.frames++;
		ether_frame(b + off + 16, incl, C.frames);
		off += 16 + incl;
	}
}

/* --- the capture test -------------------------------------------------------------------- */

static FILE *open_data(const char *name)
{
	char exe[1024], path[1200];
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof(path), "tests/data/wire/%s", name);
	f = fopen(path, "rb");
	if (f)
		return f;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	/* build/tests/test_srpc_wire or build/san/tests/... */
	snprintf(path, sizeof(path), "%s/../../tests/data/wire/%s", dirname(exe), name);
	f = fopen(path, "rb");
	if (!f) {
		snprintf(path, sizeof(path), "%s/../../../tests/data/wire/%s", exe, name);
		f = fopen(path, "rb");
	}
	return f;
}

static char *read_data(const char *name, size_t *len)
{
	FILE *f = open_data(name);
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(PCAP_SIZE + 1);
	*len = buf ? fread(buf, 1, PCAP_SIZE + 1, f) : 0;
	fclose(f);
	if (buf)
		buf[*len < PCAP_SIZE ? *len : PCAP_SIZE] = '\0';
	return buf;
}

static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static void test_capture(void **state)
{
	size_t plen, glen, off = 0;
	char *golden;

	C.pcap = (u8 *)read_data(PCAP_NAME, &plen);
	golden = read_data(GOLDEN_NAME, &glen);
	if (!C.pcap || !golden)
		fail_msg("cannot read tests/data/wire/%s and %s (run from the top of the tree)",
			 PCAP_NAME, GOLDEN_NAME);
	assert_int_equal(plen, PCAP_SIZE);
	pcap_walk(C.pcap, plen);
	assert_int_equal(C.frames, PCAP_FRAMES);
	assert_int_equal(C.ndirs, 6);
	assert_int_equal(C.srpc_msgs, 312);
	assert_int_equal(C.dest_lists, 2);	/* b2's two client adds */
	assert_true(C.full_bulks >= 1);
	assert_true(C.simple_bulks >= 1);
	/*
	 * Zero-copy ACKs as the socket LND reads them (ksock_zc_covers): 88
	 * requests, on payloads of 16 KiB or more, each acknowledged once by
	 * the other node in a NOOP of its own, and no cookie acknowledged
	 * that was not asked for (the capture's README and the lst notes).
	 */
	assert_int_equal(C.nzc, 88);
	assert_int_equal(C.zc_noops, 88);
	assert_int_equal(C.zc_unknown, 0);
	for (u32 i = 0; i < C.nzc; i++)
		assert_int_equal(C.zc[i].acks, 1);
	qsort(C.recs, C.nrecs, sizeof(*C.recs), rec_cmp);
	for (u32 i = 0; i < C.nrecs; i++) {
		size_t n = strlen(C.recs[i].text);

		if (off + n > glen || memcmp(golden + off, C.recs[i].text, n))
			fail_msg("record %u differs from the golden text at byte %zu:\n%s",
				 i, off, C.recs[i].text);
		off += n;
		free(C.recs[i].text);
	}
	assert_int_equal(off, glen);
	for (u32 i = 0; i < C.ndirs; i++) {
		free(C.dir[i].payload);
		free(C.dir[i].have);
	}
	free(C.recs);
	free(golden);
	free(C.pcap);
}

/* --- the codec alone ----------------------------------------------------------------------- */

static void pack_ok(const struct srpc_msg *m, u8 *buf)
{
	assert_int_equal(srpc_msg_pack(m, buf), 0);
}

static void test_roundtrip_swabbed(void **state)
{
	struct srpc_msg m = { .type = SRPC_MSG_BATCH_REQST, .version = 1, .ses_feats = 1 };
	struct srpc_msg out;
	u8 buf[SRPC_MSG_LEN], be[SRPC_MSG_LEN];

	m.body.bat_reqst = (struct srpc_batch_reqst){ 0x1122334455667788ULL,
		{ 0x20000c0a83201ULL, -5 }, 9, LST_BATCH_QUERY, 2, 1 };
	pack_ok(&m, buf);
	assert_int_equal(srpc_msg_body_len(m.type), 44);
	for (u32 i = SRPC_HDR_LEN + 44; i < SRPC_MSG_LEN; i++)
		assert_int_equal(buf[i], 0);
	/* the same message from a big-endian sender: every field reversed */
	memcpy(be, buf, sizeof(be));
	for (u32 i = 0; i < 24; i += 4)
		for (u32 j = 0; j < 4; j++)
			be[i + j] = buf[i + 3 - j];
	for (u32 i = 24; i < 56; i += 8)
		for (u32 j = 0; j < 8; j++)
			be[i + j] = buf[i + 7 - j];
	for (u32 i = 56; i < 68; i += 4)
		for (u32 j = 0; j < 4; j++)
			be[i + j] = buf[i + 3 - j];
	assert_int_equal(srpc_msg_unpack(be, SRPC_MSG_LEN, &out), 0);
	assert_true(out.swabbed);
	assert_memory_equal(&out.body.bat_reqst, &m.body.bat_reqst, sizeof(m.body.bat_reqst));
	assert_int_equal(out.body.bat_reqst.sid.ses_stamp, -5);
}

static void test_unpack_errors(void **state)
{
	struct srpc_msg m = { .type = SRPC_MSG_MKSN_REQST, .version = 1, .ses_feats = 1 };
	struct srpc_msg out;
	u8 buf[SRPC_MSG_LEN], bad[SRPC_MSG_LEN];

	m.body.mksn_reqst.rpyid = 7;
	strcpy(m.body.mksn_reqst.name, "s1");
	pack_ok(&m, buf);
	assert_int_equal(srpc_msg_unpack(buf, SRPC_MSG_LEN - 1, &out), -EMSGSIZE);
	assert_int_equal(srpc_msg_unpack(buf, SRPC_MSG_LEN + 1, &out), -EMSGSIZE);
	memcpy(bad, buf, sizeof(bad));
	bad[0] ^= 1;					/* magic */
	assert_int_equal(srpc_msg_unpack(bad, SRPC_MSG_LEN, &out), -EBADMSG);
	memcpy(bad, buf, sizeof(bad));
	bad[8] = SRPC_MSG_NTYPES;			/* type */
	assert_int_equal(srpc_msg_unpack(bad, SRPC_MSG_LEN, &out), -EBADMSG);
	memcpy(bad, buf, sizeof(bad));
	bad[12] = 1;					/* reserved0 */
	assert_int_equal(srpc_msg_unpack(bad, SRPC_MSG_LEN, &out), -EBADMSG);
	memcpy(bad, buf, sizeof(bad));
	bad[19] = 1;					/* reserved1 */
	assert_int_equal(srpc_msg_unpack(bad, SRPC_MSG_LEN, &out), -EBADMSG);
	memcpy(bad, buf, sizeof(bad));
	memset(bad + SRPC_HDR_LEN + 28, 'x', LST_NAME_SIZE);	/* name with no NUL */
	assert_int_equal(srpc_msg_unpack(bad, SRPC_MSG_LEN, &out), -EBADMSG);
	memcpy(bad, buf, sizeof(bad));
	bad[4] = 2;					/* version: unpacked, EPROTO */
	assert_int_equal(srpc_msg_unpack(bad, SRPC_MSG_LEN, &out), -EPROTO);
	assert_int_equal(out.version, 2);
	assert_int_equal(out.body.mksn_reqst.rpyid, 7);
	assert_string_equal(out.body.mksn_reqst.name, "s1");
}

static void test_pack_errors(void **state)
{
	struct srpc_msg m = { .type = SRPC_MSG_TEST_REQST, .version = 1, .ses_feats = 1 };
	u8 buf[SRPC_MSG_LEN], zero[SRPC_MSG_LEN] = { 0 };

	m.body.tes_reqst.service = SRPC_SVC_BRW;
	m.body.tes_reqst.is_client = 2;
	assert_int_equal(srpc_msg_pack(&m, buf), -EINVAL);
	assert_memory_equal(buf, zero, SRPC_MSG_LEN);
	m.body.tes_reqst.is_client = 1;
	m.body.tes_reqst.stop_onerr = 1;
	pack_ok(&m, buf);
	buf[SRPC_HDR_LEN + 53] = 3;			/* stop_onerr */
	{
		struct srpc_msg out;

		assert_int_equal(srpc_msg_unpack(buf, SRPC_MSG_LEN, &out), -EBADMSG);
	}
	m.type = SRPC_MSG_NTYPES;
	assert_int_equal(srpc_msg_pack(&m, buf), -EINVAL);
	m.type = SRPC_MSG_DEBUG_REPLY;
	memset(m.body.dbg_reply.name, 'n', LST_NAME_SIZE);
	assert_int_equal(srpc_msg_pack(&m, buf), -EINVAL);
}

static void test_test_params(void **state)
{
	struct srpc_msg m = { .type = SRPC_MSG_TEST_REQST, .version = 1, .ses_feats = 0 };
	struct srpc_msg out;
	u8 buf[SRPC_MSG_LEN];

	/* without LST_FEAT_BULK_LEN brw is opc, pages, flags */
	m.body.tes_reqst.service = SRPC_SVC_BRW;
	m.body.tes_reqst.param.bulk.opc = LST_BRW_WRITE;
	m.body.tes_reqst.param.bulk.npg = 16;
	m.body.tes_reqst.param.bulk.flags = LST_BRW_CHECK_FULL;
	pack_ok(&m, buf);
	assert_int_equal(lnet_get_le32(buf + SRPC_HDR_LEN + 62), 16);
	assert_int_equal(srpc_msg_unpack(buf, SRPC_MSG_LEN, &out), 0);
	assert_int_equal(out.body.tes_reqst.param.bulk.npg, 16);
	/* with it: opc u16, flags u16, len, offset */
	m.ses_feats = LST_FEAT_BULK_LEN;
	m.body.tes_reqst.param.bulk_v1.opc = LST_BRW_READ;
	m.body.tes_reqst.param.bulk_v1.flags = LST_BRW_CHECK_SIMPLE;
	m.body.tes_reqst.param.bulk_v1.len = 65536;
	m.body.tes_reqst.param.bulk_v1.offset = 8;
	pack_ok(&m, buf);
	assert_int_equal(buf[SRPC_HDR_LEN + 58], LST_BRW_READ);
	assert_int_equal(buf[SRPC_HDR_LEN + 60], LST_BRW_CHECK_SIMPLE);
	assert_int_equal(lnet_get_le32(buf + SRPC_HDR_LEN + 66), 8);
	assert_int_equal(srpc_msg_unpack(buf, SRPC_MSG_LEN, &out), 0);
	assert_int_equal(out.body.tes_reqst.param.bulk_v1.len, 65536);
	/* not a test service: the bytes as they are */
	m.body.tes_reqst.service = 7;
	memset(m.body.tes_reqst.param.raw, 0xab, 12);
	pack_ok(&m, buf);
	assert_int_equal(srpc_msg_unpack(buf, SRPC_MSG_LEN, &out), 0);
	assert_int_equal(out.body.tes_reqst.param.raw[11], 0xab);
}

static void test_brw_pattern(void **state)
{
	static u8 buf[3 * LST_PAGE_SIZE];
	u64 magic = LST_BRW_MAGIC, word;

	memset(buf, 0, sizeof(buf));
	/* a bulk at offset 8 of 2 pages: fragments of 4088, 4096 and 8 bytes */
	lst_brw_fill(buf, 8, 2 * LST_PAGE_SIZE, LST_BRW_CHECK_SIMPLE);
	memcpy(&word, buf + 8, 8);
	assert_true(word == magic);
	memcpy(&word, buf + LST_PAGE_SIZE - 8, 8);
	assert_true(word == magic);
	memcpy(&word, buf + LST_PAGE_SIZE, 8);
	assert_true(word == magic);
	memcpy(&word, buf + 16, 8);
	assert_true(word == 0);
	assert_int_equal(lst_brw_check(buf, 8, 2 * LST_PAGE_SIZE, LST_BRW_CHECK_SIMPLE), 0);
	assert_int_equal(lst_brw_check(buf, 8, 2 * LST_PAGE_SIZE, LST_BRW_CHECK_FULL), -EBADMSG);
	lst_brw_fill(buf, 8, 2 * LST_PAGE_SIZE, LST_BRW_CHECK_FULL);
	assert_int_equal(lst_brw_check(buf, 8, 2 * LST_PAGE_SIZE, LST_BRW_CHECK_FULL), 0);
	buf[LST_PAGE_SIZE + 100] ^= 0x40;		/* one flipped bit */
	assert_int_equal(lst_brw_check(buf, 8, 2 * LST_PAGE_SIZE, LST_BRW_CHECK_FULL), -EBADMSG);
	assert_int_equal(lst_brw_check(buf, 8, 2 * LST_PAGE_SIZE, LST_BRW_CHECK_SIMPLE), 0);
	assert_int_equal(lst_brw_check(buf, 8, 2 * LST_PAGE_SIZE, LST_BRW_CHECK_NONE), 0);
	buf[2 * LST_PAGE_SIZE] ^= 1;			/* first word of the last page */
	assert_int_equal(lst_brw_check(buf, 8, 2 * LST_PAGE_SIZE, LST_BRW_CHECK_SIMPLE), -EBADMSG);
}

static void test_names(void **state)
{
	assert_string_equal(srpc_msg_type_name(SRPC_MSG_STAT_REPLY), "STAT_REPLY");
	assert_string_equal(srpc_msg_type_name(SRPC_MSG_NTYPES), "?");
	assert_string_equal(srpc_service_name(SRPC_SVC_QUERY_STAT), "QUERY_STAT");
	assert_string_equal(srpc_service_name(9), "?");
	assert_int_equal(srpc_msg_service(SRPC_MSG_PING_REPLY), SRPC_SVC_PING);
	assert_int_equal(srpc_service_portal(SRPC_SVC_TEST), SRPC_FRAMEWORK_REQUEST_PORTAL);
	assert_int_equal(srpc_service_portal(SRPC_SVC_BRW), SRPC_REQUEST_PORTAL);
	assert_string_equal(lst_brw_check_name(LST_BRW_CHECK_DISCARD), "CHECK_DISCARD");
	assert_string_equal(lst_batch_opc_name(0), "?");
	assert_int_equal(srpc_msg_body_len(SRPC_MSG_STAT_REPLY), SRPC_BODY_LEN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capture),
		cmocka_unit_test(test_roundtrip_swabbed),
		cmocka_unit_test(test_unpack_errors),
		cmocka_unit_test(test_pack_errors),
		cmocka_unit_test(test_test_params),
		cmocka_unit_test(test_brw_pattern),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
