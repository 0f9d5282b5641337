// SPDX-License-Identifier: GPL-2.0-only
/*
 * The wire codecs against two captures of two real Lustre nodes
 * (tests/data/wire/, see its README), one on IPv4 (socklnd V3, 8-byte
 * NIDs), one on IPv6 (acceptor v2, hello V4, 20-byte NIDs, ping infos with
 * large entries): each pcap is parsed here (records, Ethernet, IPv4 or
 * IPv6, TCP, each direction of each stream reassembled by
 * sequence number), every acceptor request, hello, LNet message header
 * and ping payload is decoded with kernel/wire/wire.c and checked field by
 * field, and re-encoding each decoded structure must give the captured
 * bytes. Then every error path of every decoder, and the NID wire form.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <unistd.h>
#include <libgen.h>
#include <cmocka.h>

#include "../../kernel/wire/lnet_wire.h"

#define PCAP_NAME	"lnet-tcp-ping-discover.pcap"
#define PCAP_SIZE	5782
#define PCAP_FRAMES	53
#define PCAP6_NAME	"lnet-ipv6-ping-discover.pcap"
#define PCAP6_SIZE	10552
#define PCAP6_FRAMES	72
#define VM1_IP		0xc0a83201U	/* 192.168.50.1 */
#define VM2_IP		0xc0a83202U
/* IPv6 hosts are told apart by their address's last 32 bits: ::1, ::2 */
#define VM1_IP6		1U		/* 2001:db8:50::1 */
#define VM2_IP6		2U
#define VM1_INC6	0x18edb167ab3a318cULL
#define VM2_INC6	0x18edb16821c1a235ULL
#define VM1_COOKIE6	0x18edb167a878dfd3ULL
#define VM2_COOKIE6	0x18edb1681eae21c4ULL
#define VM1_INC		0x18ed63e95b68359bULL	/* bytes 9b35685be963ed18 */
#define VM2_INC		0x18ed63e8a0cce8c6ULL	/* bytes c6e8cca0e863ed18 */
#define VM1_COOKIE	0x18ed63e9583651c7ULL	/* interface cookies */
#define VM2_COOKIE	0x18ed63e89d92ad16ULL
#define PING_BITS	0x8000000000000000ULL
#define MAX_DIRS	8
#define MAX_STREAM	4096
#define MAX_SEGS	16
#define MAX_MSGS	16

/* One direction of one TCP connection, reassembled. */
struct tcp_dir {
	u32 src_ip, dst_ip;
	u16 sport, dport;
	u32 isn;		/* sequence number of the first data byte */
	bool have_isn;
	u32 len;		/* bytes from isn to the highest byte seen */
	u8 data[MAX_STREAM];
	bool have[MAX_STREAM];	/* which bytes were seen: holes fail */
	u16 frame[MAX_STREAM];	/* the frame that brought each byte */
	u32 seg_len[MAX_SEGS];	/* data segment sizes in arrival order */
	u32 nsegs;
};

struct capture {
	u32 frames;
	u32 ndirs;
	struct tcp_dir dir[MAX_DIRS];
};

static struct capture *cap, *cap4, *cap6;

/* --- pcap reading ------------------------------------------------------------ */

static u16 be16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static u32 be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static struct tcp_dir *dir_of(u32 sip, u16 sport, u32 dip, u16 dport)
{
	struct tcp_dir *d;

	for (u32 i = 0; i < cap->ndirs; i++) {
		d = &cap->dir[i];
		if (d->src_ip == sip && d->sport == sport && d->dst_ip == dip &&
		    d->dport == dport)
			return d;
	}
	assert_true(cap->ndirs < MAX_DIRS);
	d = &cap->dir[cap->ndirs++];
	d->src_ip = sip;
	d->dst_ip = dip;
	d->sport = sport;
	d->dport = dport;
	return d;
}

/* Place a segment's data at its sequence offset (retransmits overwrite). */
static void tcp_segment(struct tcp_dir *d, u32 seq, bool syn, const u8 *data,
			u32 n, u32 frame)
{
	u32 off;

	if (syn) {
		d->isn = seq + 1;
		d->have_isn = true;
	}
	if (!n)
		return;
	assert_true(d->have_isn);	/* the capture holds every SYN */
	off = seq - d->isn;
	assert_true(off + n <= MAX_STREAM);
	memcpy(d->data + off, data, n);
	for (u32 i = 0; i < n; i++) {
		d->have[off + i] = true;
		d->frame[off + i] = (u16)frame;
	}
	if (off + n > d->len)
		d->len = off + n;
	assert_true(d->nsegs < MAX_SEGS);
	d->seg_len[d->nsegs++] = n;
}

/* A TCP segment of @n bytes at @tcp between the hosts @sip and @dip. */
static void tcp_packet(u32 sip, u32 dip, const u8 *tcp, u32 n, u32 frame)
{
	u32 thl;

	assert_true(n >= 20);
	thl = (tcp[12] >> 4) * 4u;
	assert_true(thl >= 20 && thl <= n);
	tcp_segment(dir_of(sip, be16(tcp), dip, be16(tcp + 2)), be32(tcp + 4),
		    tcp[13] & 0x02, tcp + thl, n - thl, frame);
}

/* IPv6: TCP right after the fixed header (MLD and ND are skipped). */
static void ipv6_packet(const u8 *ip, u32 n, u32 frame)
{
	u32 plen;

	assert_true(n >= 40);
	assert_int_equal(ip[0] >> 4, 6);
	plen = be16(ip + 4);
	assert_true(40 + plen <= n);
	if (ip[6] == 6)
		tcp_packet(be32(ip + 20), be32(ip + 36), ip + 40, plen, frame);
}

/* An Ethernet frame: IPv4 and IPv6 TCP are kept, ARP and ICMP skipped. */
static void ether_frame(const u8 *f, u32 n, u32 frame)
{
	const u8 *ip = f + 14, *tcp;
	u32 ihl, tot, thl, flags;

	assert_true(n >= 14);
	if (be16(f + 12) == 0x86dd) {
		ipv6_packet(ip, n - 14, frame);
		return;
	}
	if (be16(f + 12) != 0x0800)
		return;
	assert_true(n >= 34);
	ihl = (ip[0] & 0xf) * 4u;
	tot = be16(ip + 2);
	assert_int_equal(ip[0] >> 4, 4);
	assert_true(ihl >= 20 && tot >= ihl && 14 + tot <= n);
	if (ip[9] != 6)
		return;
	tcp = ip + ihl;
	thl = (tcp[12] >> 4) * 4u;
	assert_true(thl >= 20 && ihl + thl <= tot);
	flags = tcp[13];
	tcp_segment(dir_of(be32(ip + 12), be16(tcp), be32(ip + 16), be16(tcp + 2)),
		    be32(tcp + 4), flags & 0x02, tcp + thl, tot - ihl - thl, frame);
}

/* Little-endian microsecond pcap, Ethernet link type. */
static void pcap_parse(const u8 *b, size_t n)
{
	size_t off = 24;

	assert_true(n >= 24);
	assert_int_equal(lnet_get_le32(b), 0xa1b2c3d4);
	assert_int_equal(lnet_get_le32(b + 20), 1);
	while (off < n) {
		u32 incl;

		assert_true(off + 16 <= n);
		incl = lnet_get_le32(b + off + 8);
		assert_true(off + 16 + incl <= n);
		cap->frames++;
		ether_frame(b + off + 16, incl, cap->frames);
		off += 16 + incl;
	}
}

/* The data file @name, from the top of the tree or beside the test binary. */
static FILE *open_capture(const char *name)
{
	static const char *const rel[] = { "", "/../..", "/../../.." };
	char exe[1024], path[1200];
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof(path), "tests/data/wire/%s", name);
	f = fopen(path, "rb");
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	for (size_t i = 1; !f && n > 0 && i < 3; i++) {
		exe[n] = '\0';
		snprintf(path, sizeof(path), "%s%s/tests/data/wire/%s",
			 dirname(exe), rel[i], name);
		f = fopen(path, "rb");
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	}
	return f;
}

static struct capture *load_one(const char *name, size_t size)
{
	static u8 buf[PCAP6_SIZE + 1];
	FILE *f = open_capture(name);
	size_t n;

	if (!f) {
		fprintf(stderr, "test_wire: cannot open tests/data/wire/%s"
			" (run from the top of the tree)\n", name);
		return NULL;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (n != size) {
		fprintf(stderr, "test_wire: %s has %zu bytes, expected %zu\n",
			name, n, size);
		return NULL;
	}
	cap = calloc(1, sizeof(*cap));
	if (cap)
		pcap_parse(buf, n);
	return cap;
}

static int load_capture(void **state)
{
	cap4 = load_one(PCAP_NAME, PCAP_SIZE);
	cap6 = cap4 ? load_one(PCAP6_NAME, PCAP6_SIZE) : NULL;
	return cap6 ? 0 : -1;
}

static int free_capture(void **state)
{
	free(cap4);
	free(cap6);
	return 0;
}

static struct tcp_dir *find_dir(u32 sip, u16 sport, u32 dip, u16 dport)
{
	for (u32 i = 0; i < cap->ndirs; i++) {
		struct tcp_dir *d = &cap->dir[i];

		if (d->src_ip == sip && d->sport == sport && d->dst_ip == dip &&
		    d->dport == dport)
			return d;
	}
	fail_msg("no TCP data %x:%u -> %x:%u", sip, sport, dip, dport);
	return NULL;
}

static void assert_no_holes(const struct tcp_dir *d)
{
	for (u32 i = 0; i < d->len; i++)
		assert_true(d->have[i]);
}

/* A copy of @n stream bytes in a heap block of exactly @n bytes: the
 * sanitizer build then catches any read past the length given. */
static u8 *exact_copy(const u8 *p, size_t n)
{
	u8 *c = malloc(n ? n : 1);

	assert_non_null(c);
	memcpy(c, p, n);
	return c;
}

/* --- helpers for expected values --------------------------------------------- */

static void assert_nid(const struct lnet_nid *nid, const char *want)
{
	char buf[LNET_NID_STR_MAX];

	assert_true(lnet_nid_print(nid, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, want);
}

/* What tells the two captures apart for the checks both share. */
struct cap_spec {
	struct capture **cap;
	u32 vm1, vm2;			/* address keys */
	const char *nid1, *nid2;
	u32 hello_version;
	size_t accept_len, hello_len, hdr_len;
	const struct want_msg *msgs;
	u32 nmsgs;
};

static const struct cap_spec *cs;

static const char *vm_nid(u32 ip)
{
	return ip == cs->vm1 ? cs->nid1 : cs->nid2;
}

static u32 vm_peer(u32 ip)
{
	return ip ^ cs->vm1 ^ cs->vm2;
}

static struct lnet_nid nid_of(const char *s)
{
	struct lnet_nid nid;

	assert_int_equal(lnet_nid_parse(s, &nid, NULL, 0), 0);
	return nid;
}

/* --- the capture: streams ----------------------------------------------------- */

/* The three connections, their sizes and segments, as the README lists. */
static void test_capture_streams(void **state)
{
	static const u32 c1023[] = { 16, 56, 96, 96, 144, 96 };
	static const u32 s1023[] = { 56, 144, 144, 240 };
	struct tcp_dir *d;

	assert_int_equal(cap->frames, PCAP_FRAMES);
	assert_int_equal(cap->ndirs, 6);
	for (u16 port = 1021; port <= 1023; port++) {
		d = find_dir(VM1_IP, port, VM2_IP, LNET_ACCEPTOR_PORT);
		assert_no_holes(d);
		assert_int_equal(d->len, port == 1023 ? 504 : 72);
		if (port != 1023) {
			assert_int_equal(d->nsegs, 2);
			assert_int_equal(d->seg_len[0], 16);
			assert_int_equal(d->seg_len[1], 56);
		} else {
			assert_int_equal(d->nsegs, 6);
			assert_memory_equal(d->seg_len, c1023, sizeof(c1023));
		}
		d = find_dir(VM2_IP, LNET_ACCEPTOR_PORT, VM1_IP, port);
		assert_no_holes(d);
		assert_int_equal(d->len, port == 1023 ? 584 : 56);
		assert_int_equal(d->nsegs, port == 1023 ? 4 : 1);
		if (port == 1023)
			assert_memory_equal(d->seg_len, s1023, sizeof(s1023));
	}
}

/* --- the capture: acceptor requests and hellos ----------------------------------- */

static void test_capture_acceptor(void **state)
{
	static const u8 want[LNET_WIRE_ACCEPT_LEN] = {
		0x00, 0x71, 0xce, 0xac, 0x01, 0, 0, 0,
		0x02, 0x32, 0xa8, 0xc0, 0x00, 0x00, 0x02, 0x00 };

	for (u16 port = 1021; port <= 1023; port++) {
		struct tcp_dir *d = find_dir(VM1_IP, port, VM2_IP, LNET_ACCEPTOR_PORT);
		u8 *b = exact_copy(d->data, LNET_WIRE_ACCEPT_LEN);
		struct lnet_acceptor_req r;
		u8 out[LNET_WIRE_ACCEPT_LEN];

		assert_memory_equal(b, want, sizeof(want));
		assert_int_equal(lnet_acceptor_req_decode(b, LNET_WIRE_ACCEPT_LEN, &r), 0);
		assert_int_equal(r.acr_magic, LNET_PROTO_ACCEPTOR_MAGIC);
		assert_int_equal(r.acr_version, 1);
		assert_nid(&r.acr_nid, "192.168.50.2@tcp");
		assert_int_equal(lnet_acceptor_req_encode(&r, out), 0);
		assert_memory_equal(out, b, sizeof(out));
		free(b);
	}
}

/* One hello: from @src (VM1 or VM2) with connection kind @ctype. */
static void check_hello(const u8 *p, u32 src, s32 ctype)
{
	u8 *b = exact_copy(p, LNET_WIRE_HELLO_LEN);
	u64 inc = src == VM1_IP ? VM1_INC : VM2_INC;
	struct ksock_hello h;
	u8 out[LNET_WIRE_HELLO_LEN];

	assert_int_equal(lnet_hello_decode(b, LNET_WIRE_HELLO_LEN, &h), 0);
	assert_int_equal(h.kshm_magic, LNET_PROTO_MAGIC);
	assert_int_equal(h.kshm_version, KSOCK_PROTO_V3);
	assert_nid(&h.kshm_src_nid, vm_nid(src));
	assert_nid(&h.kshm_dst_nid, vm_nid(vm_peer(src)));
	assert_int_equal(h.kshm_src_pid, LNET_PID_LUSTRE);
	assert_int_equal(h.kshm_dst_pid, 0);
	assert_true(h.kshm_src_incarnation == inc);
	assert_true(h.kshm_dst_incarnation == 0);
	assert_int_equal(h.kshm_ctype, ctype);
	assert_int_equal(h.kshm_nips, 0);
	/* the incarnation as stored: little-endian bytes */
	assert_memory_equal(b + 32, src == VM1_IP ?
			    "\x9b\x35\x68\x5b\xe9\x63\xed\x18" :
			    "\xc6\xe8\xcc\xa0\xe8\x63\xed\x18", 8);
	assert_int_equal(lnet_hello_encode(&h, out), 0);
	assert_memory_equal(out, b, sizeof(out));
	free(b);
}

static void check_hello6(const u8 *p, u32 src, s32 ctype);

/* Kinds 1/2/3 from VM1 on 1023/1022/1021; VM2 mirrors them: 1/3/2 (both captures). */
static void test_capture_hellos(void **state)
{
	static const s32 vm1_kind[] = { SOCKLND_CONN_BULK_OUT, SOCKLND_CONN_BULK_IN,
					SOCKLND_CONN_CONTROL };
	static const s32 vm2_kind[] = { SOCKLND_CONN_BULK_IN, SOCKLND_CONN_BULK_OUT,
					SOCKLND_CONN_CONTROL };

	void (*check)(const u8 *p, u32 src, s32 ctype) =
		cs->hello_version == KSOCK_PROTO_V4 ? check_hello6 : check_hello;

	for (u16 port = 1021; port <= 1023; port++) {
		struct tcp_dir *c = find_dir(cs->vm1, port, cs->vm2, LNET_ACCEPTOR_PORT);
		struct tcp_dir *s = find_dir(cs->vm2, LNET_ACCEPTOR_PORT, cs->vm1, port);

		check(c->data + cs->accept_len, cs->vm1, vm1_kind[port - 1021]);
		check(s->data, cs->vm2, vm2_kind[port - 1021]);
	}
}

/* --- the capture: LNet messages on the 1023 connection ------------------------------ */

struct want_msg {
	u32 src;		/* VM1_IP or VM2_IP */
	u32 type;
	u32 payload;
	u64 cookie;		/* interface cookie of the handle */
	u64 object;		/* object cookie of the handle */
	u32 sink;		/* GET: sink length; ACK: mlength */
	u32 lo_seq;		/* ping payload: 0@lo's status word */
	u32 frame;		/* the frame that completes the message */
};

/* In the order they were sent (frame, then place in the stream). */
static const struct want_msg want_msgs[] = {
	{ VM1_IP, LNET_MSG_GET,   0,  VM1_COOKIE, 0x0d, 3960, 0, 17 },
	{ VM2_IP, LNET_MSG_REPLY, 48, VM1_COOKIE, 0x0d, 0, 3, 22 },
	{ VM1_IP, LNET_MSG_GET,   0,  VM1_COOKIE, 0x11, 272, 0, 38 },
	{ VM2_IP, LNET_MSG_REPLY, 48, VM1_COOKIE, 0x11, 0, 3, 39 },
	{ VM1_IP, LNET_MSG_PUT,   48, VM1_COOKIE, 0x15, 0, 2, 41 },
	{ VM2_IP, LNET_MSG_PUT,   48, VM2_COOKIE, 0x15, 0, 3, 42 },
	{ VM2_IP, LNET_MSG_ACK,   0,  VM1_COOKIE, 0x15, 48, 0, 42 },
	{ VM1_IP, LNET_MSG_ACK,   0,  VM2_COOKIE, 0x15, 48, 0, 43 },
};

/* The IPv6 capture: VM1's ping, discover, discover --force, then VM2's. */
static const struct want_msg want_msgs6[] = {
	{ VM1_IP6, LNET_MSG_GET,   0,  VM1_COOKIE6, 0x1c11, 3960, 0, 23 },
	{ VM2_IP6, LNET_MSG_REPLY, 56, VM1_COOKIE6, 0x1c11, 0, 2, 28 },
	{ VM1_IP6, LNET_MSG_GET,   0,  VM1_COOKIE6, 0x1c15, 272, 0, 44 },
	{ VM2_IP6, LNET_MSG_REPLY, 56, VM1_COOKIE6, 0x1c15, 0, 2, 45 },
	{ VM1_IP6, LNET_MSG_PUT,   56, VM1_COOKIE6, 0x1c19, 0, 3, 47 },
	/* frame 48 holds VM2's push first, then its ACK of VM1's */
	{ VM2_IP6, LNET_MSG_PUT,   56, VM2_COOKIE6, 0x1c11, 0, 2, 48 },
	{ VM2_IP6, LNET_MSG_ACK,   0,  VM1_COOKIE6, 0x1c19, 56, 0, 48 },
	{ VM1_IP6, LNET_MSG_ACK,   0,  VM2_COOKIE6, 0x1c11, 56, 0, 49 },
	{ VM1_IP6, LNET_MSG_GET,   0,  VM1_COOKIE6, 0x1c21, 272, 0, 51 },
	{ VM2_IP6, LNET_MSG_REPLY, 56, VM1_COOKIE6, 0x1c21, 0, 2, 53 },
	{ VM1_IP6, LNET_MSG_PUT,   56, VM1_COOKIE6, 0x1c25, 0, 3, 54 },
	{ VM2_IP6, LNET_MSG_ACK,   0,  VM1_COOKIE6, 0x1c25, 56, 0, 55 },
	{ VM2_IP6, LNET_MSG_GET,   0,  VM2_COOKIE6, 0x1c19, 3960, 0, 57 },
	{ VM1_IP6, LNET_MSG_REPLY, 56, VM2_COOKIE6, 0x1c19, 0, 3, 59 },
	{ VM2_IP6, LNET_MSG_GET,   0,  VM2_COOKIE6, 0x1c1d, 272, 0, 61 },
	{ VM1_IP6, LNET_MSG_REPLY, 56, VM2_COOKIE6, 0x1c1d, 0, 3, 62 },
};

#define NWANT	(sizeof(want_msgs) / sizeof(want_msgs[0]))
#define NWANT6	(sizeof(want_msgs6) / sizeof(want_msgs6[0]))

static const struct cap_spec spec4 = {
	&cap4, VM1_IP, VM2_IP, "192.168.50.1@tcp", "192.168.50.2@tcp",
	KSOCK_PROTO_V3, LNET_WIRE_ACCEPT_LEN, LNET_WIRE_HELLO_LEN,
	LNET_WIRE_MSG_HDR_LEN, want_msgs, NWANT,
};

static const struct cap_spec spec6 = {
	&cap6, VM1_IP6, VM2_IP6, "2001:db8:50::1@tcp", "2001:db8:50::2@tcp",
	KSOCK_PROTO_V4, LNET_WIRE_ACCEPT16_LEN, LNET_WIRE_HELLO_V4_LEN,
	LNET_WIRE_MSG_HDR16_LEN, want_msgs6, NWANT6,
};

/* Per-test setup: which capture the shared checks look at. */
static int use_cap4(void **state)
{
	cs = &spec4;
	cap = cap4;
	return 0;
}

static int use_cap6(void **state)
{
	cs = &spec6;
	cap = cap6;
	return 0;
}

struct got_msg {
	u32 src;
	u32 frame;
	u32 off;		/* in its direction's stream */
	const u8 *bytes;
	u32 len;		/* header + payload */
};

/* Split one direction's bytes after the handshake into messages. */
static u32 split_msgs(const struct tcp_dir *d, u32 start, struct got_msg *out,
		      u32 n)
{
	u32 off = start;

	while (off < d->len) {
		u32 plen;

		assert_true(off + cs->hdr_len <= d->len);
		/* payload_length: the header's last 44 bytes follow it */
		plen = lnet_get_le32(d->data + off + cs->hdr_len - 44);
		assert_true(off + cs->hdr_len + plen <= d->len);
		out[n].src = d->src_ip;
		out[n].off = off;
		out[n].bytes = d->data + off;
		out[n].len = (u32)cs->hdr_len + plen;
		out[n].frame = d->frame[off + out[n].len - 1];
		off += out[n].len;
		assert_true(++n <= cs->nmsgs);
	}
	return n;
}

static int got_cmp(const void *a, const void *b)
{
	const struct got_msg *x = a, *y = b;

	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static void check_fixed_hdr(const struct ksock_msg_hdr *k, const struct lnet_hdr *h,
			    const struct want_msg *w)
{
	assert_int_equal(k->ksm_type, KSOCK_MSG_LNET);
	assert_int_equal(k->ksm_csum, 0);
	assert_true(k->ksm_zc_cookies[0] == 0 && k->ksm_zc_cookies[1] == 0);
	assert_nid(&h->src_nid, vm_nid(w->src));
	assert_nid(&h->dest_nid, vm_nid(vm_peer(w->src)));
	assert_int_equal(h->dest_pid, LNET_PID_LUSTRE);
	assert_int_equal(h->src_pid, LNET_PID_LUSTRE);
	assert_int_equal(h->type, w->type);
	assert_int_equal(h->payload_length, w->payload);
}

static void check_handle(const struct lnet_handle_wire *wh, const struct want_msg *w)
{
	assert_true(wh->wh_interface_cookie == w->cookie);
	assert_true(wh->wh_object_cookie == w->object);
}

static void check_msg_union(const struct lnet_hdr *h, const struct want_msg *w)
{
	switch (w->type) {
	case LNET_MSG_GET:
		check_handle(&h->msg.get.return_wmd, w);
		assert_true(h->msg.get.match_bits == PING_BITS);
		assert_int_equal(h->msg.get.ptl_index, 0);
		assert_int_equal(h->msg.get.src_offset, 0);
		assert_int_equal(h->msg.get.sink_length, w->sink);
		break;
	case LNET_MSG_REPLY:
		check_handle(&h->msg.reply.dst_wmd, w);
		break;
	case LNET_MSG_PUT:
		check_handle(&h->msg.put.ack_wmd, w);
		assert_true(h->msg.put.match_bits == PING_BITS);
		assert_true(h->msg.put.hdr_data == 0);
		assert_int_equal(h->msg.put.ptl_index, 0);
		assert_int_equal(h->msg.put.offset, 0);
		break;
	case LNET_MSG_ACK:
		check_handle(&h->msg.ack.dst_wmd, w);
		assert_true(h->msg.ack.match_bits == PING_BITS);
		assert_int_equal(h->msg.ack.mlength, w->sink);
		break;
	default:
		fail_msg("unexpected type %u", w->type);
	}
}

/* The 48-byte ping/push payload: 0@lo then the sender's tcp NI. */
static void check_ping_payload(const u8 *p, u32 len, const struct want_msg *w)
{
	u8 *b = exact_copy(p, len);
	struct lnet_ping_info *pi = calloc(1, sizeof(*pi) + 4 * sizeof(pi->pi_ni[0]));
	u8 out[64];

	assert_non_null(pi);
	assert_int_equal(lnet_ping_info_decode(b, len, pi, 4), 2);
	assert_int_equal(pi->pi_magic, LNET_PROTO_PING_MAGIC);
	assert_memory_equal(b, "gnip", 4);
	assert_int_equal(pi->pi_features, LNET_PING_FEAT_NI_STATUS |
			 LNET_PING_FEAT_RTE_DISABLED | LNET_PING_FEAT_MULTI_RAIL |
			 LNET_PING_FEAT_DISCOVERY);
	assert_int_equal(pi->pi_pid, LNET_PID_LUSTRE);
	assert_int_equal(pi->pi_nnis, 2);
	assert_nid(&pi->pi_ni[0].ns_nid, "0@lo");
	/* Lustre keeps its ping buffer's sequence number in 0@lo's status */
	assert_int_equal(pi->pi_ni[0].ns_status, w->lo_seq);
	assert_int_equal(pi->pi_ni[0].ns_msg_size, 0);
	assert_nid(&pi->pi_ni[1].ns_nid, vm_nid(w->src));
	assert_int_equal(pi->pi_ni[1].ns_status, LNET_NI_STATUS_UP_WIRE);
	assert_int_equal(pi->pi_ni[1].ns_msg_size, 0);
	assert_int_equal(lnet_ping_info_encode(pi, out, sizeof(out)), 48);
	assert_memory_equal(out, b, 48);
	free(pi);
	free(b);
}

/*
 * The 56-byte ping/push payload of the IPv6 capture: one nid4 entry
 * (0@lo, whose ns_msg_size is the whole size), then one 24-byte large
 * entry for the sender's IPv6 NID, its primary.
 */
static void check_ping_payload6(const u8 *p, u32 len, const struct want_msg *w)
{
	static const u8 large_nid[] = { 0x0c, 0x02, 0x00, 0x00, 0x20, 0x01, 0x0d, 0xb8,
					0x00, 0x50, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	u8 *b = exact_copy(p, len);
	struct lnet_ping_info *pi = calloc(1, sizeof(*pi) + 4 * sizeof(pi->pi_ni[0]));
	u8 out[64];

	assert_non_null(pi);
	assert_int_equal(len, 56);
	assert_int_equal(lnet_get_le32(b + 12), 1);	/* nid4 entries only */
	assert_memory_equal(b + 36, large_nid, 19);
	assert_int_equal(b[55], w->src);
	assert_int_equal(lnet_ping_info_decode(b, len, pi, 4), 2);
	assert_int_equal(pi->pi_features, LNET_PING_FEAT_NI_STATUS |
			 LNET_PING_FEAT_RTE_DISABLED | LNET_PING_FEAT_MULTI_RAIL |
			 LNET_PING_FEAT_DISCOVERY | LNET_PING_FEAT_LARGE_ADDR |
			 LNET_PING_FEAT_PRIMARY_LARGE);
	assert_int_equal(pi->pi_features, 0x7e);
	assert_int_equal(pi->pi_pid, LNET_PID_LUSTRE);
	assert_int_equal(pi->pi_nnis, 2);
	assert_nid(&pi->pi_ni[0].ns_nid, "0@lo");
	assert_int_equal(pi->pi_ni[0].ns_status, w->lo_seq);
	assert_int_equal(pi->pi_ni[0].ns_msg_size, 56);
	assert_nid(&pi->pi_ni[1].ns_nid, vm_nid(w->src));
	assert_int_equal(pi->pi_ni[1].ns_status, LNET_NI_STATUS_UP_WIRE);
	assert_int_equal(pi->pi_ni[1].ns_msg_size, 0);
	assert_int_equal(lnet_ping_info_wire_len(pi), 56);
	assert_int_equal(lnet_ping_info_encode(pi, out, sizeof(out)), 56);
	assert_memory_equal(out, b, 56);
	/* a node that predates large addresses reads 0@lo alone */
	lnet_put_le32(b + 4, lnet_get_le32(b + 4) & ~(LNET_PING_FEAT_LARGE_ADDR |
						      LNET_PING_FEAT_PRIMARY_LARGE));
	assert_int_equal(lnet_ping_info_decode(b, len, pi, 4), 1);
	assert_nid(&pi->pi_ni[0].ns_nid, "0@lo");
	free(pi);
	free(b);
}

static void check_msg(const struct got_msg *g, const struct want_msg *w)
{
	bool v4 = cs->hello_version == KSOCK_PROTO_V4;
	u8 *b = exact_copy(g->bytes, cs->hdr_len);
	struct ksock_msg_hdr k;
	struct lnet_hdr h;
	u8 out[LNET_WIRE_MSG_HDR_MAX_LEN];

	assert_int_equal(g->src, w->src);
	assert_int_equal(g->frame, w->frame);
	assert_int_equal(lnet_msg_hdr_size(cs->hello_version), cs->hdr_len);
	assert_int_equal(v4 ? lnet_msg_hdr16_decode(b, cs->hdr_len, &k, &h) :
			      lnet_msg_hdr_decode(b, cs->hdr_len, &k, &h), 0);
	check_fixed_hdr(&k, &h, w);
	check_msg_union(&h, w);
	assert_int_equal(v4 ? lnet_msg_hdr16_encode(&k, &h, out) :
			      lnet_msg_hdr_encode(&k, &h, out), 0);
	assert_memory_equal(out, b, cs->hdr_len);
	if (w->payload && v4)
		check_ping_payload6(g->bytes + cs->hdr_len, w->payload, w);
	else if (w->payload)
		check_ping_payload(g->bytes + cs->hdr_len, w->payload, w);
	free(b);
}

/* Every message of the first connection, in the order they were sent. */
static void test_capture_messages(void **state)
{
	struct tcp_dir *c = find_dir(cs->vm1, 1023, cs->vm2, LNET_ACCEPTOR_PORT);
	struct tcp_dir *s = find_dir(cs->vm2, LNET_ACCEPTOR_PORT, cs->vm1, 1023);
	struct got_msg got[MAX_MSGS];
	u32 n;

	n = split_msgs(c, (u32)(cs->accept_len + cs->hello_len), got, 0);
	n = split_msgs(s, (u32)cs->hello_len, got, n);
	assert_int_equal(n, cs->nmsgs);
	qsort(got, n, sizeof(got[0]), got_cmp);
	for (u32 i = 0; i < n; i++)
		check_msg(&got[i], &cs->msgs[i]);
}

/* The other two connections carry nothing after the handshake. */
static void test_capture_idle_conns(void **state)
{
	for (u16 port = 1021; port <= 1022; port++) {
		assert_int_equal(find_dir(VM1_IP, port, VM2_IP, LNET_ACCEPTOR_PORT)->len,
				 LNET_WIRE_ACCEPT_LEN + LNET_WIRE_HELLO_LEN);
		assert_int_equal(find_dir(VM2_IP, LNET_ACCEPTOR_PORT, VM1_IP, port)->len,
				 LNET_WIRE_HELLO_LEN);
	}
}

/* --- the IPv6 capture: streams, acceptor requests v2, hellos V4 ----------------------- */

/* The three connections, their sizes and segments (README of tests/data/wire). */
static void test_capture6_streams(void **state)
{
	static const u32 c1023[] = { 28, 80, 120, 120, 176, 120, 120, 176, 176, 176 };
	static const u32 s1023[] = { 80, 176, 176, 296, 176, 120, 120, 120 };
	struct tcp_dir *d;

	assert_int_equal(cap->frames, PCAP6_FRAMES);
	assert_int_equal(cap->ndirs, 6);
	for (u16 port = 1021; port <= 1023; port++) {
		d = find_dir(VM1_IP6, port, VM2_IP6, LNET_ACCEPTOR_PORT);
		assert_no_holes(d);
		assert_int_equal(d->len, port == 1023 ? 1292 : 108);
		if (port == 1023) {
			assert_int_equal(d->nsegs, 10);
			assert_memory_equal(d->seg_len, c1023, sizeof(c1023));
		} else {
			assert_int_equal(d->nsegs, 2);
			assert_int_equal(d->seg_len[0], LNET_WIRE_ACCEPT16_LEN);
			assert_int_equal(d->seg_len[1], LNET_WIRE_HELLO_V4_LEN);
		}
		d = find_dir(VM2_IP6, LNET_ACCEPTOR_PORT, VM1_IP6, port);
		assert_no_holes(d);
		assert_int_equal(d->len, port == 1023 ? 1264 : 80);
		assert_int_equal(d->nsegs, port == 1023 ? 8 : 1);
		if (port == 1023)
			assert_memory_equal(d->seg_len, s1023, sizeof(s1023));
	}
}

static void test_capture6_acceptor(void **state)
{
	static const u8 want[LNET_WIRE_ACCEPT16_LEN] = {
		0x00, 0x71, 0xce, 0xac, 0x02, 0, 0, 0,
		0x0c, 0x02, 0x00, 0x00, 0x20, 0x01, 0x0d, 0xb8, 0x00, 0x50, 0x00, 0x00,
		0, 0, 0, 0, 0, 0, 0, 0x02 };

	for (u16 port = 1021; port <= 1023; port++) {
		struct tcp_dir *d = find_dir(VM1_IP6, port, VM2_IP6, LNET_ACCEPTOR_PORT);
		u8 *b = exact_copy(d->data, LNET_WIRE_ACCEPT16_LEN);
		struct lnet_acceptor_req r;
		u8 out[LNET_WIRE_ACCEPT16_LEN];

		assert_memory_equal(b, want, sizeof(want));
		/* the version says how long the request is: 16 bytes are not all */
		assert_int_equal(lnet_acceptor_req_decode(b, LNET_WIRE_ACCEPT_LEN, &r),
				 -EMSGSIZE);
		assert_int_equal(lnet_acceptor_req_decode(b, sizeof(want), &r), 0);
		assert_int_equal(r.acr_magic, LNET_PROTO_ACCEPTOR_MAGIC);
		assert_int_equal(r.acr_version, LNET_PROTO_ACCEPTOR_VERSION_16);
		assert_nid(&r.acr_nid, "2001:db8:50::2@tcp");
		assert_int_equal(lnet_acceptor_req_version(&r.acr_nid), 2);
		assert_int_equal(lnet_acceptor_req_size(r.acr_version), sizeof(want));
		assert_int_equal(lnet_acceptor_req_encode(&r, out), 0);
		assert_memory_equal(out, b, sizeof(out));
		free(b);
	}
}

/* One V4 hello: from @src (VM1 or VM2) with connection kind @ctype. */
static void check_hello6(const u8 *p, u32 src, s32 ctype)
{
	u8 *b = exact_copy(p, LNET_WIRE_HELLO_V4_LEN);
	u64 inc = src == VM1_IP6 ? VM1_INC6 : VM2_INC6;
	struct ksock_hello h;
	u8 out[LNET_WIRE_HELLO_V4_LEN];

	assert_int_equal(lnet_hello_decode(b, LNET_WIRE_HELLO_LEN, &h), -EMSGSIZE);
	assert_int_equal(lnet_hello_decode(b, LNET_WIRE_HELLO_V4_LEN, &h), 0);
	assert_int_equal(h.kshm_magic, LNET_PROTO_MAGIC);
	assert_int_equal(h.kshm_version, KSOCK_PROTO_V4);
	assert_nid(&h.kshm_src_nid, vm_nid(src));
	assert_nid(&h.kshm_dst_nid, vm_nid(vm_peer(src)));
	assert_int_equal(h.kshm_src_pid, LNET_PID_LUSTRE);
	assert_int_equal(h.kshm_dst_pid, 0);
	assert_true(h.kshm_src_incarnation == inc);
	assert_true(h.kshm_dst_incarnation == 0);
	assert_int_equal(h.kshm_ctype, ctype);
	assert_int_equal(h.kshm_nips, 0);
	/* the NIDs at 8 and 28, the pids at 48, the incarnation at 56 */
	assert_int_equal(b[8], 12);
	assert_int_equal(b[27], src);
	assert_int_equal(b[47], vm_peer(src));
	assert_int_equal(lnet_get_le32(b + 48), LNET_PID_LUSTRE);
	assert_true(lnet_get_le64(b + 56) == inc);
	assert_int_equal(lnet_get_le32(b + 72), (u32)ctype);
	assert_int_equal(lnet_hello_encode(&h, out), 0);
	assert_memory_equal(out, b, sizeof(out));
	free(b);
}

/* --- NIDs ------------------------------------------------------------------------------ */

static void check_nid_wire(const char *s, u64 want)
{
	struct lnet_nid nid = nid_of(s), back;
	u64 w = 1;

	assert_int_equal(lnet_nid_to_wire(&nid, &w), 0);
	assert_true(w == want);
	lnet_nid_from_wire(w, &back);
	assert_true(lnet_nid_equal(&nid, &back));
}

static void test_nid_wire(void **state)
{
	struct lnet_nid nid, zero;
	u64 w = 1;

	check_nid_wire("192.168.50.2@tcp", 0x00020000c0a83202ULL);
	check_nid_wire("10.0.0.1@tcp3", 0x000200030a000001ULL);
	check_nid_wire("10.0.0.1@o2ib1", 0x000500010a000001ULL);
	check_nid_wire("0@lo", 0x0009000000000000ULL);
	check_nid_wire("5@gni", 0x000d000000000005ULL);
	check_nid_wire("4294967295@kfi65535", 0x0010ffffffffffffULL);
	/* the empty NID is 0 both ways */
	memset(&zero, 0, sizeof(zero));
	assert_int_equal(lnet_nid_to_wire(&zero, &w), 0);
	assert_true(w == 0);
	memset(&nid, 0xff, sizeof(nid));
	lnet_nid_from_wire(0, &nid);
	assert_memory_equal(&nid, &zero, sizeof(nid));
	/* lo has one NID whatever the peer wrote */
	lnet_nid_from_wire(0x0009000712345678ULL, &nid);
	assert_nid(&nid, "0@lo");
	assert_int_equal(lnet_nid_to_wire(&nid, &w), 0);
	assert_true(w == 0x0009000000000000ULL);
	/* our LND is 8 bits: a wider one is cut, and one that cuts to 0 is empty */
	lnet_nid_from_wire(0x01020000c0a83202ULL, &nid);
	assert_nid(&nid, "192.168.50.2@tcp");
	memset(&nid, 0xff, sizeof(nid));
	lnet_nid_from_wire(0x0100000000000000ULL, &nid);
	assert_memory_equal(&nid, &zero, sizeof(nid));
	/* IPv6 does not fit in 8 bytes */
	nid = nid_of("2001:db8::1@tcp");
	w = 7;
	assert_int_equal(lnet_nid_to_wire(&nid, &w), -EAFNOSUPPORT);
	assert_true(w == 7);
}

/* --- error paths --------------------------------------------------------------------------- */

static const u8 good_accept[LNET_WIRE_ACCEPT_LEN] = {
	0x00, 0x71, 0xce, 0xac, 0x01, 0, 0, 0,
	0x02, 0x32, 0xa8, 0xc0, 0x00, 0x00, 0x02, 0x00 };

/* Every shorter prefix of @good is -EMSGSIZE, each in an exact heap block. */
#define ASSERT_SHORT(decode, good, full, out)					\
	do {									\
		for (size_t n_ = 0; n_ < (full); n_++) {			\
			u8 *b_ = exact_copy((good), n_);			\
			assert_int_equal(decode(b_, n_, (out)), -EMSGSIZE);	\
			free(b_);						\
		}								\
	} while (0)

static void test_acceptor_errors(void **state)
{
	struct lnet_acceptor_req r;
	u8 b[LNET_WIRE_ACCEPT_LEN];

	ASSERT_SHORT(lnet_acceptor_req_decode, good_accept, sizeof(b), &r);
	memcpy(b, good_accept, sizeof(b));
	assert_int_equal(lnet_acceptor_req_decode(b, sizeof(b), &r), 0);
	/* swapped magic (a big-endian peer), other magics: refused */
	lnet_put_le32(b, 0x0071ceac);
	assert_int_equal(lnet_acceptor_req_decode(b, sizeof(b), &r), -EPROTO);
	lnet_put_le32(b, LNET_PROTO_MAGIC);
	assert_int_equal(lnet_acceptor_req_decode(b, sizeof(b), &r), -EPROTO);
	/* a bad magic is known from its first 4 bytes */
	assert_int_equal(lnet_acceptor_req_decode(b, 4, &r), -EPROTO);
	memcpy(b, good_accept, sizeof(b));
	/* versions 1 (16 bytes) and 2 (28 bytes: 16 are short) */
	for (u32 v = 0; v < 4; v++) {
		lnet_put_le32(b + 4, v);
		assert_int_equal(lnet_acceptor_req_decode(b, sizeof(b), &r),
				 v == 1 ? 0 : v == 2 ? -EMSGSIZE : -EPROTO);
		assert_int_equal(lnet_acceptor_req_decode(b, 8, &r),
				 v == 1 || v == 2 ? -EMSGSIZE : -EPROTO);
		assert_int_equal(r.acr_version, v);	/* told, to answer with ours */
	}
	assert_int_equal(lnet_acceptor_req_size(0), 0);
	assert_int_equal(lnet_acceptor_req_size(3), 0);
	r.acr_version = 3;
	assert_int_equal(lnet_acceptor_req_encode(&r, b), -EPROTO);
	/* an IPv6 target needs v2; v2 carries an IPv4 one too */
	r.acr_version = LNET_PROTO_ACCEPTOR_VERSION;
	r.acr_nid = nid_of("2001:db8::1@tcp");
	assert_int_equal(lnet_acceptor_req_encode(&r, b), -EAFNOSUPPORT);
	assert_int_equal(lnet_acceptor_req_version(&r.acr_nid), 2);
	r.acr_nid = nid_of("10.1.2.3@tcp7");
	assert_int_equal(lnet_acceptor_req_version(&r.acr_nid), 1);
	r.acr_version = LNET_PROTO_ACCEPTOR_VERSION_16;
	{
		u8 b16[LNET_WIRE_ACCEPT16_LEN];
		struct lnet_acceptor_req r2;

		assert_int_equal(lnet_acceptor_req_encode(&r, b16), 0);
		assert_memory_equal(b16 + 8, "\x00\x02\x00\x07\x0a\x01\x02\x03", 8);
		ASSERT_SHORT(lnet_acceptor_req_decode, b16, sizeof(b16), &r2);
		assert_int_equal(lnet_acceptor_req_decode(b16, sizeof(b16), &r2), 0);
		assert_nid(&r2.acr_nid, "10.1.2.3@tcp7");
		/* a 16-byte address on a numeric LND, an odd length: refused */
		b16[8] = 12;
		b16[9] = 13;
		assert_int_equal(lnet_acceptor_req_decode(b16, sizeof(b16), &r2), -EPROTO);
		b16[9] = 2;
		b16[8] = 4;
		assert_int_equal(lnet_acceptor_req_decode(b16, sizeof(b16), &r2), -EPROTO);
	}
}

/* A good hello of @version (V3: IPv4 NIDs, V4: IPv6 ones) into @b. */
static void good_hello_v(u32 version, u8 *b)
{
	bool v4 = version == KSOCK_PROTO_V4;
	struct ksock_hello h = {
		.kshm_magic = LNET_PROTO_MAGIC, .kshm_version = version,
		.kshm_src_nid = nid_of(v4 ? "fd00::1@tcp" : "10.11.0.1@tcp"),
		.kshm_dst_nid = nid_of(v4 ? "fd00::2@tcp" : "10.11.0.2@tcp"),
		.kshm_src_pid = LNET_PID_LUSTRE, .kshm_src_incarnation = 77,
		.kshm_ctype = v4 ? SOCKLND_CONN_BULK_IN : SOCKLND_CONN_CONTROL,
	};

	assert_int_equal(lnet_hello_encode(&h, b), 0);
}

static void good_hello(u8 *b)
{
	good_hello_v(KSOCK_PROTO_V3, b);
}

/* Decode a good hello of @version with the u32 at @off set to @val. */
static int hello_v_rc_with(u32 version, u32 off, u32 val)
{
	struct ksock_hello h;
	u8 b[LNET_WIRE_HELLO_MAX_LEN];

	good_hello_v(version, b);
	lnet_put_le32(b + off, val);
	return lnet_hello_decode(b, lnet_hello_size(version), &h);
}

static int hello_rc_with(u32 off, u32 val)
{
	return hello_v_rc_with(KSOCK_PROTO_V3, off, val);
}

static void test_hello_errors(void **state)
{
	struct ksock_hello h;
	u8 b[LNET_WIRE_HELLO_LEN];

	good_hello(b);
	ASSERT_SHORT(lnet_hello_decode, b, sizeof(b), &h);
	assert_int_equal(lnet_hello_decode(b, sizeof(b), &h), 0);
	assert_nid(&h.kshm_src_nid, "10.11.0.1@tcp");
	assert_true(h.kshm_src_incarnation == 77);
	/* magics: swapped, v1, the acceptor's */
	assert_int_equal(hello_rc_with(0, 0x63697245), -EPROTO);
	assert_int_equal(hello_rc_with(0, LNET_PROTO_TCP_MAGIC), -EPROTO);
	assert_int_equal(hello_rc_with(0, LNET_PROTO_ACCEPTOR_MAGIC), -EPROTO);
	/* versions other than 3 and 4 (4 needs 80 bytes), stored to answer */
	assert_int_equal(hello_rc_with(4, 1), -EPROTO);
	assert_int_equal(hello_rc_with(4, 2), -EPROTO);
	assert_int_equal(hello_rc_with(4, 5), -EPROTO);
	assert_int_equal(hello_rc_with(4, 4), -EMSGSIZE);
	lnet_put_le32(b + 4, 2);
	assert_int_equal(lnet_hello_decode(b, sizeof(b), &h), -EPROTO);
	assert_int_equal(h.kshm_magic, LNET_PROTO_MAGIC);
	assert_int_equal(h.kshm_version, 2);
	/* nips: up to LNET_WIRE_HELLO_MAX_IPS */
	assert_int_equal(hello_rc_with(52, LNET_WIRE_HELLO_MAX_IPS), 0);
	assert_int_equal(hello_rc_with(52, LNET_WIRE_HELLO_MAX_IPS + 1), -EPROTO);
	assert_int_equal(hello_rc_with(52, 0xffffffff), -EPROTO);
	/* connection kinds: NONE (a refusal) .. BULK_OUT */
	assert_int_equal(hello_rc_with(48, (u32)SOCKLND_CONN_NONE), 0);
	assert_int_equal(hello_rc_with(48, SOCKLND_CONN_BULK_OUT), 0);
	assert_int_equal(hello_rc_with(48, 4), -EPROTO);
	assert_int_equal(hello_rc_with(48, (u32)-2), -EPROTO);
	/* a bad version is known from 8 bytes, a good start needs all 56 */
	good_hello(b);
	assert_int_equal(lnet_hello_decode(b, 8, &h), -EMSGSIZE);
	lnet_put_le32(b + 4, 2);
	assert_int_equal(lnet_hello_decode(b, 8, &h), -EPROTO);
	good_hello(b);
	h.kshm_magic = LNET_PROTO_MAGIC;
	h.kshm_version = KSOCK_PROTO_V3;
	h.kshm_dst_nid = nid_of("2001:db8::2@tcp");
	assert_int_equal(lnet_hello_encode(&h, b), -EAFNOSUPPORT);
	h.kshm_version = 5;
	assert_int_equal(lnet_hello_encode(&h, b), -EPROTO);
	assert_int_equal(lnet_hello_size(5), 0);
}

static void good_hello6(u8 *b)
{
	good_hello_v(KSOCK_PROTO_V4, b);
}

static int hello6_rc_with(u32 off, u32 val)
{
	return hello_v_rc_with(KSOCK_PROTO_V4, off, val);
}

/* V4: 20-byte NIDs, no IP list; V3 and V4 carry IPv4 NIDs alike. */
static void test_hello6_errors(void **state)
{
	struct ksock_hello h, h2;
	u8 b[LNET_WIRE_HELLO_V4_LEN];

	good_hello6(b);
	ASSERT_SHORT(lnet_hello_decode, b, sizeof(b), &h);
	assert_int_equal(lnet_hello_decode(b, sizeof(b), &h), 0);
	assert_nid(&h.kshm_src_nid, "fd00::1@tcp");
	assert_nid(&h.kshm_dst_nid, "fd00::2@tcp");
	assert_int_equal(h.kshm_ctype, SOCKLND_CONN_BULK_IN);
	assert_true(h.kshm_src_incarnation == 77);
	/* no IPs in V4, the usual kinds */
	assert_int_equal(hello6_rc_with(76, 1), -EPROTO);
	assert_int_equal(hello6_rc_with(72, 4), -EPROTO);
	assert_int_equal(hello6_rc_with(72, SOCKLND_CONN_BULK_OUT), 0);
	/* bad NIDs: odd address length, 16 bytes on lo */
	assert_int_equal(hello6_rc_with(8, 0x0002000d), -EPROTO);
	assert_int_equal(hello6_rc_with(28, 0x0009000c), -EPROTO);
	/* an IPv4 NID in V4 form decodes as in V3 */
	h.kshm_src_nid = nid_of("10.1.0.1@tcp2");
	assert_int_equal(lnet_hello_encode(&h, b), 0);
	assert_memory_equal(b + 8, "\x00\x02\x00\x02\x0a\x01\x00\x01\0\0\0\0", 12);
	assert_int_equal(lnet_hello_decode(b, sizeof(b), &h2), 0);
	assert_memory_equal(&h2, &h, sizeof(h));
	assert_int_equal(lnet_hello_size(KSOCK_PROTO_V3), LNET_WIRE_HELLO_LEN);
	assert_int_equal(lnet_hello_size(KSOCK_PROTO_V4), LNET_WIRE_HELLO_V4_LEN);
}

/* ASSERT_SHORT wants three arguments; the message header decoder has four. */
static int lnet_msg_hdr_decode_kh(const u8 *b, size_t n, struct ksock_msg_hdr *k)
{
	struct lnet_hdr h;

	return lnet_msg_hdr_decode(b, n, k, &h);
}

static int lnet_msg_hdr16_decode_kh(const u8 *b, size_t n, struct ksock_msg_hdr *k)
{
	struct lnet_hdr h;

	return lnet_msg_hdr16_decode(b, n, k, &h);
}

static void make_hdr(u32 type, u32 payload, u8 *b)
{
	struct ksock_msg_hdr k = { .ksm_type = KSOCK_MSG_LNET };
	struct lnet_hdr h = {
		.dest_nid = nid_of("10.11.0.2@tcp"), .src_nid = nid_of("10.11.0.1@tcp"),
		.dest_pid = LNET_PID_LUSTRE, .src_pid = LNET_PID_LUSTRE,
		.type = type, .payload_length = payload,
	};

	assert_int_equal(lnet_msg_hdr_encode(&k, &h, b), 0);
}

static int hdr_rc(u32 type, u32 payload)
{
	struct ksock_msg_hdr k;
	struct lnet_hdr h;
	u8 b[LNET_WIRE_MSG_HDR_LEN];

	make_hdr(type, payload, b);
	return lnet_msg_hdr_decode(b, sizeof(b), &k, &h);
}

static void test_msg_hdr_errors(void **state)
{
	struct ksock_msg_hdr k;
	struct lnet_hdr h;
	u8 b[LNET_WIRE_MSG_HDR_LEN];

	make_hdr(LNET_MSG_PUT, 10, b);
	ASSERT_SHORT(lnet_msg_hdr_decode_kh, b, sizeof(b), &k);
	/* socket message types */
	for (u32 t = 0xbf; t <= 0xc2; t++) {
		lnet_put_le32(b, t);
		assert_int_equal(lnet_msg_hdr_decode(b, sizeof(b), &k, &h),
				 t == 0xc1 || t == 0xc0 ? 0 : -EPROTO);
	}
	lnet_put_le32(b, 0xc1000000);	/* swapped */
	assert_int_equal(lnet_msg_hdr_decode(b, sizeof(b), &k, &h), -EPROTO);
	assert_int_equal(lnet_msg_hdr_decode(b, 4, &k, &h), -EPROTO);
	/* LNet types: 0..4 known */
	assert_int_equal(hdr_rc(LNET_MSG_REPLY, 0), 0);
	assert_int_equal(hdr_rc(LNET_MSG_HELLO, 0), 0);
	assert_int_equal(hdr_rc(5, 0), -EPROTO);
	assert_int_equal(hdr_rc(0xffffffff, 0), -EPROTO);
	/* payload: up to 1 MiB for PUT and REPLY, none for ACK, GET, HELLO */
	assert_int_equal(hdr_rc(LNET_MSG_PUT, LNET_MTU), 0);
	assert_int_equal(hdr_rc(LNET_MSG_REPLY, LNET_MTU), 0);
	assert_int_equal(hdr_rc(LNET_MSG_PUT, LNET_MTU + 1), -EPROTO);
	assert_int_equal(hdr_rc(LNET_MSG_PUT, 16U << 20), -EPROTO);
	assert_int_equal(hdr_rc(LNET_MSG_REPLY, 0xffffffff), -EPROTO);
	assert_int_equal(hdr_rc(LNET_MSG_ACK, 1), -EPROTO);
	assert_int_equal(hdr_rc(LNET_MSG_GET, 1), -EPROTO);
	assert_int_equal(hdr_rc(LNET_MSG_HELLO, 1), -EPROTO);
}

/* A NOOP is the 24-byte socket header alone. */
static void test_noop(void **state)
{
	struct ksock_msg_hdr k = { .ksm_type = KSOCK_MSG_NOOP,
				   .ksm_zc_cookies = { 5, 6 } }, k2;
	struct lnet_hdr h, h2;
	u8 b[LNET_WIRE_MSG_HDR_LEN], zero[LNET_WIRE_LNET_HDR_LEN] = { 0 };
	u8 *e;

	memset(&h, 0xa5, sizeof(h));
	assert_int_equal(lnet_msg_hdr_encode(&k, &h, b), 0);
	assert_int_equal(lnet_get_le32(b), KSOCK_MSG_NOOP);
	assert_true(lnet_get_le64(b + 8) == 5 && lnet_get_le64(b + 16) == 6);
	assert_memory_equal(b + LNET_WIRE_KSOCK_HDR_LEN, zero, sizeof(zero));
	e = exact_copy(b, LNET_WIRE_KSOCK_HDR_LEN);
	assert_int_equal(lnet_msg_hdr_decode(e, LNET_WIRE_KSOCK_HDR_LEN, &k2, &h2), 0);
	assert_int_equal(k2.ksm_type, KSOCK_MSG_NOOP);
	assert_true(k2.ksm_zc_cookies[0] == 5 && k2.ksm_zc_cookies[1] == 6);
	memset(&h, 0, sizeof(h));
	assert_memory_equal(&h2, &h, sizeof(h));
	assert_int_equal(lnet_msg_hdr_decode(e, LNET_WIRE_KSOCK_HDR_LEN - 1, &k2, &h2),
			 -EMSGSIZE);
	free(e);
}

/* Every union member survives encode -> decode, at its Lustre offset. */
static void test_msg_round_trip(void **state)
{
	struct ksock_msg_hdr k = { .ksm_type = KSOCK_MSG_LNET, .ksm_csum = 9 }, k2;
	struct lnet_hdr h = { .dest_nid = nid_of("5@gni1"), .src_nid = nid_of("0@lo"),
			      .dest_pid = 1, .src_pid = LNET_PID_USERFLAG | 2 }, h2;
	u8 b[LNET_WIRE_MSG_HDR_LEN];

	for (u32 t = LNET_MSG_ACK; t <= LNET_MSG_HELLO; t++) {
		u8 *p = (u8 *)&h.msg;

		memset(&h.msg, 0, sizeof(h.msg));
		for (size_t i = 0; i < sizeof(h.msg); i++)
			p[i] = (u8)(i * 7 + t + 1);
		h.type = t;
		h.payload_length = t == LNET_MSG_PUT || t == LNET_MSG_REPLY ? 4096 : 0;
		assert_int_equal(lnet_msg_hdr_encode(&k, &h, b), 0);
		assert_int_equal(lnet_msg_hdr_decode(b, sizeof(b), &k2, &h2), 0);
		assert_memory_equal(&k2, &k, sizeof(k));
		assert_int_equal(h2.type, t);
		assert_int_equal(h2.payload_length, h.payload_length);
		assert_int_equal(h2.src_pid, LNET_PID_USERFLAG | 2);
		assert_nid(&h2.dest_nid, "5@gni1");
		assert_nid(&h2.src_nid, "0@lo");
	}
	/* offsets within the 40-byte union, as in the capture's PUT */
	h.type = LNET_MSG_PUT;
	h.msg.put.ack_wmd.wh_interface_cookie = 1;
	h.msg.put.ack_wmd.wh_object_cookie = 2;
	h.msg.put.match_bits = 3;
	h.msg.put.hdr_data = 4;
	h.msg.put.ptl_index = 5;
	h.msg.put.offset = 6;
	assert_int_equal(lnet_msg_hdr_encode(&k, &h, b), 0);
	assert_true(lnet_get_le64(b + 56) == 1 && lnet_get_le64(b + 64) == 2 &&
		    lnet_get_le64(b + 72) == 3 && lnet_get_le64(b + 80) == 4 &&
		    lnet_get_le32(b + 88) == 5 && lnet_get_le32(b + 92) == 6);
	h.src_nid = nid_of("2001:db8::1@tcp");
	assert_int_equal(lnet_msg_hdr_encode(&k, &h, b), -EAFNOSUPPORT);
}

/* The nid16 header: every union member at its place after the 20-byte NIDs. */
static void test_msg16_round_trip(void **state)
{
	struct ksock_msg_hdr k = { .ksm_type = KSOCK_MSG_LNET, .ksm_zc_cookies = { 3, 4 } }, k2;
	struct lnet_hdr h = { .dest_nid = nid_of("fd00::2@tcp1"), .src_nid = nid_of("0@lo"),
			      .dest_pid = 1, .src_pid = LNET_PID_USERFLAG | 2 }, h2;
	u8 b[LNET_WIRE_MSG_HDR16_LEN];

	for (u32 t = LNET_MSG_ACK; t <= LNET_MSG_HELLO; t++) {
		u8 *p = (u8 *)&h.msg;

		for (size_t i = 0; i < sizeof(h.msg); i++)
			p[i] = (u8)(i * 5 + t + 3);
		h.type = t;
		h.payload_length = t == LNET_MSG_PUT || t == LNET_MSG_REPLY ? LNET_MTU : 0;
		assert_int_equal(lnet_msg_hdr16_encode(&k, &h, b), 0);
		assert_int_equal(lnet_msg_hdr16_decode(b, sizeof(b), &k2, &h2), 0);
		assert_memory_equal(&k2, &k, sizeof(k));
		assert_int_equal(h2.type, t);
		assert_int_equal(h2.payload_length, h.payload_length);
		assert_int_equal(h2.src_pid, LNET_PID_USERFLAG | 2);
		assert_nid(&h2.dest_nid, "fd00::2@tcp1");
		assert_nid(&h2.src_nid, "0@lo");
		ASSERT_SHORT(lnet_msg_hdr16_decode_kh, b, sizeof(b), &k2);
	}
	h.type = LNET_MSG_PUT;
	h.payload_length = 9;
	h.msg.put.match_bits = 3;
	h.msg.put.ptl_index = 5;
	h.msg.put.offset = 6;
	assert_int_equal(lnet_msg_hdr16_encode(&k, &h, b), 0);
	assert_memory_equal(b + 24, "\x0c\x02\x00\x01\xfd\x00", 6);
	assert_memory_equal(b + 44, "\x00\x09\x00\x00\x00\x00\x00\x00", 8);
	assert_true(lnet_get_le32(b + 72) == LNET_MSG_PUT && lnet_get_le32(b + 76) == 9 &&
		    lnet_get_le64(b + 96) == 3 && lnet_get_le32(b + 112) == 5 &&
		    lnet_get_le32(b + 116) == 6);
	/* the same type and length checks as nid4; bad NIDs */
	lnet_put_le32(b + 72, LNET_MSG_GET);
	assert_int_equal(lnet_msg_hdr16_decode(b, sizeof(b), &k2, &h2), -EPROTO);
	lnet_put_le32(b + 72, LNET_MSG_PUT);
	b[24] = 5;
	assert_int_equal(lnet_msg_hdr16_decode(b, sizeof(b), &k2, &h2), -EPROTO);
	b[24] = 12;
	b[45] = LNET_LND_LO;
	b[44] = 12;
	assert_int_equal(lnet_msg_hdr16_decode(b, sizeof(b), &k2, &h2), -EPROTO);
	/* a NOOP is 24 bytes in both forms */
	k.ksm_type = KSOCK_MSG_NOOP;
	assert_int_equal(lnet_msg_hdr16_encode(&k, &h, b), 0);
	assert_int_equal(lnet_msg_hdr16_decode(b, LNET_WIRE_KSOCK_HDR_LEN, &k2, &h2), 0);
	assert_true(k2.ksm_zc_cookies[0] == 3 && k2.ksm_zc_cookies[1] == 4);
	assert_int_equal(lnet_msg_hdr_size(KSOCK_PROTO_V3), LNET_WIRE_MSG_HDR_LEN);
	assert_int_equal(lnet_msg_hdr_size(KSOCK_PROTO_V4), LNET_WIRE_MSG_HDR16_LEN);
}

static struct lnet_ping_info *ping_alloc(u32 n)
{
	struct lnet_ping_info *pi = calloc(1, sizeof(*pi) + n * sizeof(pi->pi_ni[0]));

	assert_non_null(pi);
	return pi;
}

/* Three NIs, as we would send them. */
static struct lnet_ping_info *ping_three(void)
{
	struct lnet_ping_info *pi = ping_alloc(3);

	pi->pi_magic = LNET_PROTO_PING_MAGIC;
	pi->pi_features = LNET_PING_FEAT_BASE | LNET_PING_FEAT_NI_STATUS;
	pi->pi_pid = LNET_PID_LUSTRE;
	pi->pi_nnis = 3;
	pi->pi_ni[0].ns_nid = nid_of("0@lo");
	pi->pi_ni[0].ns_status = LNET_NI_STATUS_UP_WIRE;
	pi->pi_ni[1].ns_nid = nid_of("10.21.0.1@tcp");
	pi->pi_ni[1].ns_status = LNET_NI_STATUS_UP_WIRE;
	pi->pi_ni[2].ns_nid = nid_of("10.22.0.1@tcp1");
	pi->pi_ni[2].ns_status = LNET_NI_STATUS_DOWN_WIRE;
	pi->pi_ni[2].ns_msg_size = 4096;
	return pi;
}

/* The same payload in big-endian order, as a big-endian Lustre peer sends it. */
static void ping_swab(u8 *b, size_t len)
{
	for (size_t i = 0; i < LNET_WIRE_PING_HDR_LEN; i += 4)
		lnet_put_le32(b + i, __builtin_bswap32(lnet_get_le32(b + i)));
	for (size_t i = LNET_WIRE_PING_HDR_LEN; i < len; i += LNET_WIRE_PING_NI_LEN) {
		lnet_put_le64(b + i, __builtin_bswap64(lnet_get_le64(b + i)));
		lnet_put_le32(b + i + 8, __builtin_bswap32(lnet_get_le32(b + i + 8)));
		lnet_put_le32(b + i + 12, __builtin_bswap32(lnet_get_le32(b + i + 12)));
	}
}

static void test_ping_round_trip(void **state)
{
	struct lnet_ping_info *pi = ping_three(), *back = ping_alloc(3);
	u8 b[64], again[64];

	assert_int_equal(lnet_ping_info_encode(pi, b, sizeof(b)), 64);
	assert_int_equal(lnet_ping_info_decode(b, sizeof(b), back, 3), 3);
	assert_memory_equal(back, pi, sizeof(*pi) + 3 * sizeof(pi->pi_ni[0]));
	/* the big-endian form decodes to the same structure */
	ping_swab(b, sizeof(b));
	assert_memory_equal(b, "ping", 4);
	memset(back, 0, sizeof(*back) + 3 * sizeof(back->pi_ni[0]));
	assert_int_equal(lnet_ping_info_decode(b, sizeof(b), back, 3), 3);
	assert_memory_equal(back, pi, sizeof(*pi) + 3 * sizeof(pi->pi_ni[0]));
	assert_int_equal(lnet_ping_info_encode(back, again, sizeof(again)), 64);
	ping_swab(b, sizeof(b));
	assert_memory_equal(again, b, sizeof(b));
	free(back);
	free(pi);
}

static void test_ping_errors(void **state)
{
	struct lnet_ping_info *pi = ping_three(), *back = ping_alloc(3);
	u8 b[64];

	assert_int_equal(lnet_ping_info_encode(pi, b, sizeof(b)), 64);
	/* short: every prefix; an NI array cut anywhere */
	for (size_t n = 0; n < sizeof(b); n++) {
		u8 *e = exact_copy(b, n);

		assert_int_equal(lnet_ping_info_decode(e, n, back, 3), -EMSGSIZE);
		free(e);
	}
	/* bad magic, and a bad one known from 4 bytes */
	lnet_put_le32(b, LNET_PROTO_PING_MAGIC + 1);
	assert_int_equal(lnet_ping_info_decode(b, sizeof(b), back, 3), -EPROTO);
	assert_int_equal(lnet_ping_info_decode(b, 4, back, 3), -EPROTO);
	lnet_put_le32(b, LNET_PROTO_PING_MAGIC);
	/* NI counts: more than LNET_PING_MAX_NIS is a lie */
	lnet_put_le32(b + 12, LNET_PING_MAX_NIS + 1);
	assert_int_equal(lnet_ping_info_decode(b, sizeof(b), back, 3), -EPROTO);
	lnet_put_le32(b + 12, 0xffffffff);
	assert_int_equal(lnet_ping_info_decode(b, sizeof(b), back, 3), -EPROTO);
	lnet_put_le32(b + 12, LNET_PING_MAX_NIS);
	assert_int_equal(lnet_ping_info_decode(b, sizeof(b), back, 3), -EMSGSIZE);
	/* fewer NIs than sent: only max_nis stored, and said so */
	lnet_put_le32(b + 12, 3);
	assert_int_equal(lnet_ping_info_decode(b, sizeof(b), back, 2), 2);
	assert_int_equal(back->pi_nnis, 2);
	assert_nid(&back->pi_ni[1].ns_nid, "10.21.0.1@tcp");
	assert_int_equal(lnet_ping_info_decode(b, sizeof(b), back, 0), 0);
	/* zero NIs is a valid (old, empty) payload */
	lnet_put_le32(b + 12, 0);
	assert_int_equal(lnet_ping_info_decode(b, 16, back, 3), 0);
	/* encoder: room and NID form */
	assert_int_equal(lnet_ping_info_encode(pi, b, 63), -ENOSPC);
	assert_int_equal(lnet_ping_info_encode(pi, b, 0), -ENOSPC);
	pi->pi_ni[2].ns_nid.nid_addr_len = 5;
	assert_int_equal(lnet_ping_info_encode(pi, b, sizeof(b)), -EAFNOSUPPORT);
	free(back);
	free(pi);
}

/*
 * Large entries: [0@lo, fd00::1 (primary), 10.21.0.1, fd00::2] goes as
 * two nid4 entries then two large ones, PRIMARY_LARGE as the caller set
 * it, and decodes to the same order.
 */
static struct lnet_ping_info *ping_mixed(void)
{
	struct lnet_ping_info *pi = ping_alloc(4);

	pi->pi_magic = LNET_PROTO_PING_MAGIC;
	pi->pi_features = LNET_PING_FEAT_NI_STATUS | LNET_PING_FEAT_PRIMARY_LARGE;
	pi->pi_pid = LNET_PID_LUSTRE;
	pi->pi_nnis = 4;
	pi->pi_ni[0].ns_nid = nid_of("0@lo");
	pi->pi_ni[0].ns_status = 7;
	pi->pi_ni[1].ns_nid = nid_of("fd00::1@tcp");
	pi->pi_ni[1].ns_status = LNET_NI_STATUS_UP_WIRE;
	pi->pi_ni[2].ns_nid = nid_of("10.21.0.1@tcp1");
	pi->pi_ni[2].ns_status = LNET_NI_STATUS_UP_WIRE;
	pi->pi_ni[3].ns_nid = nid_of("fd00::2@tcp");
	pi->pi_ni[3].ns_status = LNET_NI_STATUS_DOWN_WIRE;
	return pi;
}

static void test_ping_large(void **state)
{
	struct lnet_ping_info *pi = ping_mixed(), *back = ping_alloc(4);
	u8 b[96], again[96];
	size_t sz = sizeof(*pi) + 4 * sizeof(pi->pi_ni[0]);

	assert_int_equal(lnet_ping_info_wire_len(pi), 16 + 2 * 16 + 2 * 24);
	assert_int_equal(lnet_ping_info_encode(pi, b, sizeof(b)), 96);
	assert_int_equal(lnet_get_le32(b + 4), LNET_PING_FEAT_NI_STATUS |
			 LNET_PING_FEAT_PRIMARY_LARGE | LNET_PING_FEAT_LARGE_ADDR);
	assert_int_equal(lnet_get_le32(b + 12), 2);		/* nid4 entries */
	assert_int_equal(lnet_get_le32(b + 28), 96);		/* total size */
	assert_true(lnet_get_le64(b + 32) == 0x000200010a150001ULL);
	assert_int_equal(lnet_get_le32(b + 48), LNET_NI_STATUS_UP_WIRE);
	assert_memory_equal(b + 52, "\x0c\x02\x00\x00\xfd\x00", 6);
	assert_int_equal(b[71], 1);
	assert_int_equal(lnet_get_le32(b + 72), LNET_NI_STATUS_DOWN_WIRE);
	assert_int_equal(b[95], 2);
	assert_int_equal(lnet_ping_info_decode(b, sizeof(b), back, 4), 4);
	pi->pi_features |= LNET_PING_FEAT_LARGE_ADDR;
	pi->pi_ni[0].ns_msg_size = 96;
	assert_memory_equal(back, pi, sz);
	/* every shorter prefix: more bytes needed */
	for (size_t n = 0; n < sizeof(b); n++) {
		u8 *e = exact_copy(b, n);

		assert_int_equal(lnet_ping_info_decode(e, n, back, 4), -EMSGSIZE);
		free(e);
	}
	/* the big-endian form: header, nid4 entries, sizes and statuses swapped */
	memcpy(again, b, sizeof(b));
	for (size_t i = 0; i < 16; i += 4)
		lnet_put_le32(again + i, __builtin_bswap32(lnet_get_le32(again + i)));
	for (size_t i = 16; i < 48; i += 16) {
		lnet_put_le64(again + i, __builtin_bswap64(lnet_get_le64(again + i)));
		lnet_put_le32(again + i + 8, __builtin_bswap32(lnet_get_le32(again + i + 8)));
		lnet_put_le32(again + i + 12, __builtin_bswap32(lnet_get_le32(again + i + 12)));
	}
	for (size_t i = 48; i < 96; i += 24)
		lnet_put_le32(again + i, __builtin_bswap32(lnet_get_le32(again + i)));
	assert_int_equal(lnet_ping_info_decode(again, sizeof(again), back, 4), 4);
	assert_memory_equal(back, pi, sz);
	/* without PRIMARY_LARGE the nid4 entries come first */
	lnet_put_le32(b + 4, LNET_PING_FEAT_NI_STATUS | LNET_PING_FEAT_LARGE_ADDR);
	assert_int_equal(lnet_ping_info_decode(b, sizeof(b), back, 4), 4);
	assert_nid(&back->pi_ni[1].ns_nid, "10.21.0.1@tcp1");
	assert_nid(&back->pi_ni[2].ns_nid, "fd00::1@tcp");
	/* room for 2: 0@lo and the primary, the rest falls off */
	lnet_put_le32(b + 4, LNET_PING_FEAT_PRIMARY_LARGE | LNET_PING_FEAT_LARGE_ADDR);
	assert_int_equal(lnet_ping_info_decode(b, sizeof(b), back, 2), 2);
	assert_nid(&back->pi_ni[1].ns_nid, "fd00::1@tcp");
	assert_int_equal(back->pi_ni[0].ns_msg_size, 16 + 16 + 24);
	/* a node that predates them reads the nid4 entries only */
	lnet_put_le32(b + 4, 0);
	assert_int_equal(lnet_ping_info_decode(b, sizeof(b), back, 4), 2);
	/* lies: a size below the nid4 end, past the bytes, an entry cut short,
	 * a large entry that is not IPv6, LARGE_ADDR with no nid4 entry */
	lnet_put_le32(b + 4, LNET_PING_FEAT_LARGE_ADDR);
	lnet_put_le32(b + 28, 47);
	assert_int_equal(lnet_ping_info_decode(b, sizeof(b), back, 4), -EPROTO);
	lnet_put_le32(b + 28, 100);
	assert_int_equal(lnet_ping_info_decode(b, sizeof(b), back, 4), -EMSGSIZE);
	lnet_put_le32(b + 28, 92);
	assert_int_equal(lnet_ping_info_decode(b, sizeof(b), back, 4), -EPROTO);
	lnet_put_le32(b + 28, 96);
	b[52] = 0;
	assert_int_equal(lnet_ping_info_decode(b, sizeof(b), back, 4), -EPROTO);
	assert_int_equal(back->pi_nnis, 0);
	lnet_put_le32(b + 12, 0);
	assert_int_equal(lnet_ping_info_decode(b, sizeof(b), back, 4), -EPROTO);
	/* encoder: room, and a nid4 entry to carry the size */
	assert_int_equal(lnet_ping_info_encode(pi, b, 95), -ENOSPC);
	pi->pi_ni[0] = pi->pi_ni[3];
	pi->pi_ni[2] = pi->pi_ni[3];
	{
		u8 big[16 + 4 * 24];

		assert_int_equal(lnet_ping_info_encode(pi, big, sizeof(big)), -EPROTO);
	}
	free(back);
	free(pi);
}

static void test_type_names(void **state)
{
	assert_string_equal(lnet_msg_type_name(LNET_MSG_ACK), "ACK");
	assert_string_equal(lnet_msg_type_name(LNET_MSG_PUT), "PUT");
	assert_string_equal(lnet_msg_type_name(LNET_MSG_GET), "GET");
	assert_string_equal(lnet_msg_type_name(LNET_MSG_REPLY), "REPLY");
	assert_string_equal(lnet_msg_type_name(LNET_MSG_HELLO), "HELLO");
	assert_string_equal(lnet_msg_type_name(5), "?");
	assert_string_equal(lnet_msg_type_name(0xffffffff), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_capture_streams, use_cap4),
		cmocka_unit_test_setup(test_capture_acceptor, use_cap4),
		cmocka_unit_test_setup(test_capture_hellos, use_cap4),
		cmocka_unit_test_setup(test_capture_messages, use_cap4),
		cmocka_unit_test_setup(test_capture_idle_conns, use_cap4),
		cmocka_unit_test_setup(test_capture6_streams, use_cap6),
		cmocka_unit_test_setup(test_capture6_acceptor, use_cap6),
		cmocka_unit_test_setup(test_capture_hellos, use_cap6),
		cmocka_unit_test_setup(test_capture_messages, use_cap6),
		cmocka_unit_test(test_nid_wire),
		cmocka_unit_test(test_acceptor_errors),
		cmocka_unit_test(test_hello_errors),
		cmocka_unit_test(test_hello6_errors),
		cmocka_unit_test(test_msg_hdr_errors),
		cmocka_unit_test(test_noop),
		cmocka_unit_test(test_msg_round_trip),
		cmocka_unit_test(test_msg16_round_trip),
		cmocka_unit_test(test_ping_round_trip),
		cmocka_unit_test(test_ping_errors),
		cmocka_unit_test(test_ping_large),
		cmocka_unit_test(test_type_names),
	};

	return cmocka_run_group_tests(tests, load_capture, free_capture);
}
