// SPDX-License-Identifier: GPL-2.0-only
/*
 * The socket LND end to end: two LNet instances in one process, A on
 * 127.0.0.1@tcp and B on 127.0.0.2@tcp (fake interface lookups), talking
 * over real TCP connections through the acceptor port 988 (tests run as
 * root). PUTs and GETs of 0..1 MiB with every byte checked, many messages
 * in flight, the connection kinds and ports of both ends, and hostile
 * peers (raw sockets) that must be disconnected with one log line while
 * the instances keep working.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "../../kernel/core/lnet.h"
#include "../../kernel/core/validate.h"
#include "../../kernel/udsp/udsp.h"
#include "../../kernel/builtin/builtin.h"
#include "../../kernel/lnd/socklnd/socklnd_priv.h"

#define TCP		LNET_NET_ID(LNET_LND_TCP, 0)
#define PT_SINK		10		/* B: PUT target */
#define PT_SOURCE	11		/* B: GET source */
#define PT_MANY		12		/* B: one PUT target per slot */
#define MANY_BITS	100		/* match bits of slot 0 */
#define MANY		64
#define MANY_SLOT	(300 * 1024)
#define WAIT_NS		(20ULL * 1000000000ULL)

struct node {
	struct lnet ln;
	struct lnet_nid nid;
	u8 addr[4];
};

static struct node A, B;
static u8 *pattern;		/* LNET_MTU bytes: byte i is (i * 7 + 3) & 0xff */
static u8 *sink, *many_sink;	/* B's PUT targets */
static u8 *sink_a;		/* A's GET sink */
/*
 * The LND's threads write the log through logf (O_APPEND: always at the
 * end); the test reads it through log_rd. One FILE for both would let a
 * write land wherever the reader's fseek left the shared position, over
 * lines not read yet.
 */
static FILE *logf, *log_rd;

/* ---- fixtures ------------------------------------------------------------ */

static int lookup_for(const u8 addr[4], const char *ifname, struct os_ifaddr *out)
{
	if (strcmp(ifname, "lo"))
		return -ENODEV;
	memset(out, 0, sizeof(*out));
	out->addr_len = 4;
	memcpy(out->addr, addr, 4);
	out->up = true;
	return 0;
}

static int lookup_a(const char *ifname, struct os_ifaddr *out)
{
	return lookup_for(A.addr, ifname, out);
}

static int lookup_b(const char *ifname, struct os_ifaddr *out)
{
	return lookup_for(B.addr, ifname, out);
}

static int lookup_c(const char *ifname, struct os_ifaddr *out)
{
	static const u8 c[4] = { 127, 0, 0, 5 };
	static const u8 v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 5 };

	if (!strcmp(ifname, "v6")) {
		memset(out, 0, sizeof(*out));
		out->addr_len = 16;
		memcpy(out->addr, v6, 16);
		out->up = true;
		return 0;
	}
	return lookup_for(c, ifname, out);
}

static struct lnet_nid nid4(u8 d)
{
	u8 addr[4] = { 127, 0, 0, d };
	struct lnet_nid n;

	lnet_nid_make(&n, TCP, addr, 4);
	return n;
}

static void node_up(struct node *n, u8 last,
		    int (*lookup)(const char *, struct os_ifaddr *))
{
	u8 addr[4] = { 127, 0, 0, last };

	memcpy(n->addr, addr, 4);
	n->nid = nid4(last);
	lnet_init(&n->ln);
	assert_int_equal(lnet_builtin_register(&n->ln), 0);
	n->ln.ln_if_lookup = lookup;
	assert_int_equal(lnet_socklnd_register(&n->ln), 0);
	os_mutex_lock(&n->ln.ln_api_mutex);
	assert_int_equal(lnet_configure(&n->ln), 0);
	/* the LND's tests count exact messages: no discovery ping first */
	n->ln.ln_globals[LNET_GLOBAL_DISCOVERY] = 0;
	assert_int_equal(lnet_ni_add(&n->ln, TCP, "lo", NULL), 0);
	os_mutex_unlock(&n->ln.ln_api_mutex);
}

/* ---- events ---------------------------------------------------------------- */

/* One operation's events (initiator side), or a target MD's tallies. */
struct op {
	int nsend, nresp, send_status, resp_status;
	u32 resp_mlength;
	int nput, nget;			/* target MDs */
	u32 last_mlength;
	struct lnet_nid last_initiator;
};

static void handler(struct lnet *ln, struct lnet_event *ev)
{
	struct op *op = ev->md_user_ptr;

	switch (ev->type) {
	case LNET_EVENT_SEND:
		op->nsend++;
		op->send_status = ev->status;
		break;
	case LNET_EVENT_ACK:
	case LNET_EVENT_REPLY:
		op->nresp++;
		op->resp_status = ev->status;
		op->resp_mlength = ev->mlength;
		break;
	case LNET_EVENT_PUT:
		op->nput++;
		op->last_mlength = ev->mlength;
		op->last_initiator = ev->initiator;
		break;
	case LNET_EVENT_GET:
		op->nget++;
		break;
	default:
		break;
	}
	os_cond_broadcast(&ln->ln_dp.dp_cond);
}

/* Wait (lock held) until *@v >= @want; false on timeout. */
static bool wait_count(struct lnet *ln, const int *v, int want)
{
	u64 deadline = os_now_ns() + WAIT_NS;

	while (*v < want)
		if (os_cond_wait(&ln->ln_dp.dp_cond, &ln->ln_api_mutex, deadline))
			return *v >= want;
	return true;
}

static struct op sink_op, source_op, many_op;

/* B's match entries: PUT sink, GET source, and MANY slots. */
static void b_targets(void)
{
	struct lnet_md md = {
		.threshold = LNET_MD_THRESH_INF,
		.handler = handler,
	};
	struct lnet_nid any = { 0 };
	struct lnet_handle_md h;
	u64 i;

	os_mutex_lock(&B.ln.ln_api_mutex);
	md.start = sink;
	md.length = LNET_MTU;
	md.options = LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE;
	md.user_ptr = &sink_op;
	assert_int_equal(lnet_me_attach_md(&B.ln, PT_SINK, &any, LNET_PID_ANY, 1, 0,
					   true, &md, &h), 0);
	md.start = pattern;
	md.options = LNET_MD_OP_GET | LNET_MD_MANAGE_REMOTE;
	md.user_ptr = &source_op;
	assert_int_equal(lnet_me_attach_md(&B.ln, PT_SOURCE, &any, LNET_PID_ANY, 2, 0,
					   true, &md, &h), 0);
	md.length = MANY_SLOT;
	md.options = LNET_MD_OP_PUT;
	md.user_ptr = &many_op;
	for (i = 0; i < MANY; i++) {
		md.start = many_sink + (size_t)i * MANY_SLOT;
		assert_int_equal(lnet_me_attach_md(&B.ln, PT_MANY, &any, LNET_PID_ANY,
						   MANY_BITS + i, 0, true, &md, &h), 0);
	}
	os_mutex_unlock(&B.ln.ln_api_mutex);
}

static int group_setup(void **state)
{
	u32 i;

	char path[] = "/tmp/test_socklnd.log.XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_SETFL, O_APPEND), 0);
	logf = fdopen(fd, "a");
	log_rd = fopen(path, "r");
	unlink(path);
	assert_true(logf && log_rd);
	setvbuf(logf, NULL, _IOLBF, 0);
	os_log_file = logf;
	pattern = malloc(LNET_MTU);
	sink = calloc(1, LNET_MTU);
	sink_a = calloc(1, LNET_MTU);
	many_sink = calloc(MANY, MANY_SLOT);
	assert_true(pattern && sink && sink_a && many_sink);
	for (i = 0; i < LNET_MTU; i++)
		pattern[i] = (u8)(i * 7 + 3);
	node_up(&A, 1, lookup_a);
	node_up(&B, 2, lookup_b);
	b_targets();
	return 0;
}

static int group_teardown(void **state)
{
	lnet_fini(&A.ln);
	lnet_fini(&B.ln);
	free(pattern);
	free(sink);
	free(sink_a);
	free(many_sink);
	os_log_file = NULL;
	fclose(logf);
	fclose(log_rd);
	return 0;
}

/* ---- PUT and GET ------------------------------------------------------------- */

static struct lnet_handle_md a_bind(void *start, u32 len, struct op *op)
{
	struct lnet_md md = {
		.start = start,
		.length = len,
		.threshold = LNET_MD_THRESH_INF,
		.user_ptr = op,
		.handler = handler,
	};
	struct lnet_handle_md h;

	assert_int_equal(lnet_md_bind(&A.ln, &md, &h), 0);
	return h;
}

/* PUT @len pattern bytes A -> B with ACK; B's sink must hold them exactly. */
static void put_one(u32 len)
{
	struct op op = { 0 };
	struct lnet_handle_md h;
	int nput;

	memset(sink, 0, LNET_MTU);
	os_mutex_lock(&B.ln.ln_api_mutex);
	nput = sink_op.nput;
	os_mutex_unlock(&B.ln.ln_api_mutex);

	os_mutex_lock(&A.ln.ln_api_mutex);
	h = a_bind(pattern, len, &op);
	assert_int_equal(lnet_put(&A.ln, NULL, h, true, &B.nid, LNET_PID_LUSTRE,
				  PT_SINK, 1, 0, len, 0), 0);
	assert_true(wait_count(&A.ln, &op.nresp, 1));
	assert_int_equal(op.nsend, 1);
	assert_int_equal(op.send_status, 0);
	assert_int_equal(op.resp_status, 0);
	assert_int_equal(op.resp_mlength, len);
	lnet_md_unlink(&A.ln, h);
	os_mutex_unlock(&A.ln.ln_api_mutex);

	os_mutex_lock(&B.ln.ln_api_mutex);
	assert_int_equal(sink_op.nput, nput + 1);
	assert_int_equal(sink_op.last_mlength, len);
	assert_true(lnet_nid_equal(&sink_op.last_initiator, &A.nid));
	os_mutex_unlock(&B.ln.ln_api_mutex);
	assert_memory_equal(sink, pattern, len);
	if (len < LNET_MTU)
		assert_int_equal(sink[len], 0);
}

static void test_put_sizes(void **state)
{
	static const u32 sizes[] = { 0, 1, 1023, 1024, 4096, 65543, 999999, LNET_MTU };
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		put_one(sizes[i]);
}

/* GET @len bytes of B's pattern into A's sink. */
static void get_one(u32 len)
{
	struct op op = { 0 };
	struct lnet_handle_md h;

	memset(sink_a, 0, LNET_MTU);
	os_mutex_lock(&A.ln.ln_api_mutex);
	h = a_bind(sink_a, len, &op);
	assert_int_equal(lnet_get(&A.ln, NULL, h, &B.nid, LNET_PID_LUSTRE,
				  PT_SOURCE, 2, 0, len), 0);
	assert_true(wait_count(&A.ln, &op.nresp, 1));
	assert_int_equal(op.send_status, 0);
	assert_int_equal(op.resp_status, 0);
	assert_int_equal(op.resp_mlength, len);
	lnet_md_unlink(&A.ln, h);
	os_mutex_unlock(&A.ln.ln_api_mutex);
	assert_memory_equal(sink_a, pattern, len);
	if (len < LNET_MTU)
		assert_int_equal(sink_a[len], 0);
}

static void test_get_sizes(void **state)
{
	static const u32 sizes[] = { 0, 1, 1023, 1024, 65536, 777777, LNET_MTU };
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		get_one(sizes[i]);
}

/* MANY PUTs of mixed sizes at once, each matching its own slot on B. */
static void test_many_in_flight(void **state)
{
	static struct op ops[MANY];
	struct lnet_handle_md h[MANY];
	u32 len[MANY];
	int i, nput;

	memset(many_sink, 0, (size_t)MANY * MANY_SLOT);
	memset(ops, 0, sizeof(ops));
	os_mutex_lock(&B.ln.ln_api_mutex);
	nput = many_op.nput;
	os_mutex_unlock(&B.ln.ln_api_mutex);

	os_mutex_lock(&A.ln.ln_api_mutex);
	for (i = 0; i < MANY; i++) {
		len[i] = i % 3 == 0 ? (u32)i * 5 : MANY_SLOT - (u32)i * 1013;
		h[i] = a_bind(pattern + i, len[i], &ops[i]);
		assert_int_equal(lnet_put(&A.ln, NULL, h[i], true, &B.nid, LNET_PID_LUSTRE,
					  PT_MANY, MANY_BITS + (u64)i, 0, len[i], 0), 0);
	}
	for (i = 0; i < MANY; i++) {
		assert_true(wait_count(&A.ln, &ops[i].nresp, 1));
		assert_int_equal(ops[i].send_status, 0);
		assert_int_equal(ops[i].resp_status, 0);
		assert_int_equal(ops[i].resp_mlength, len[i]);
		lnet_md_unlink(&A.ln, h[i]);
	}
	os_mutex_unlock(&A.ln.ln_api_mutex);

	os_mutex_lock(&B.ln.ln_api_mutex);
	assert_int_equal(many_op.nput, nput + MANY);
	os_mutex_unlock(&B.ln.ln_api_mutex);
	for (i = 0; i < MANY; i++) {
		u8 *slot = many_sink + (size_t)i * MANY_SLOT;

		assert_memory_equal(slot, pattern + i, len[i]);
		if (len[i] < MANY_SLOT)
			assert_int_equal(slot[len[i]], 0);
	}
}

/* ---- connections -------------------------------------------------------------- */

struct conn_view {
	int kind;
	u16 lport, rport;
	u64 picked;		/* when it last carried a send (0: never) */
	int tos;		/* IP_TOS of its socket */
};

/* The open connections of @self's NI to @peer: kinds and ports. */
static int conns_of(struct node *self, struct node *peer, struct conn_view *v, int max)
{
	struct lnet_ni *ni;
	struct ksock_net *net;
	struct ksock_peer *kp;
	struct ksock_conn *c;
	u8 addr[4];
	int n = 0;

	os_mutex_lock(&self->ln.ln_api_mutex);
	ni = lnet_ni_find(&self->ln, &self->nid);
	assert_non_null(ni);
	net = ni->ni_lnd_data;
	os_mutex_lock(&ks.ks_lock);
	kp = ksock_peer_find(net, &peer->nid);
	if (kp)
		list_for_each_entry(c, &kp->p_conns, c_list) {
			if (c->c_closing || n == max)
				continue;
			v[n].kind = c->c_kind;
			v[n].picked = c->c_picked;
			v[n].tos = os_sock_get_tos(c->c_sock);
			assert_int_equal(os_sock_local(c->c_sock, addr, &v[n].lport), 0);
			assert_int_equal(os_sock_peer(c->c_sock, addr, &v[n].rport), 0);
			n++;
		}
	os_mutex_unlock(&ks.ks_lock);
	os_mutex_unlock(&self->ln.ln_api_mutex);
	return n;
}

static int mirror(int kind)
{
	return kind == SOCKLND_CONN_BULK_IN ? SOCKLND_CONN_BULK_OUT :
	       kind == SOCKLND_CONN_BULK_OUT ? SOCKLND_CONN_BULK_IN : kind;
}

/*
 * A connected three times (CONTROL, BULK_IN, BULK_OUT) from privileged
 * ports to 988; B holds the same three connections with the mirror kinds.
 */
static void test_connection_kinds(void **state)
{
	struct conn_view a[8], b[8];
	int na, nb, i, j, seen = 0;

	put_one(10);
	put_one(LNET_MTU);
	na = conns_of(&A, &B, a, 8);
	nb = conns_of(&B, &A, b, 8);
	assert_int_equal(na, 3);
	assert_int_equal(nb, 3);
	for (i = 0; i < na; i++) {
		seen |= 1 << a[i].kind;
		assert_int_equal(a[i].rport, LNET_ACCEPTOR_PORT);
		assert_in_range(a[i].lport, KSOCK_MIN_RESV_PORT, KSOCK_MAX_RESV_PORT);
		for (j = 0; j < nb; j++)
			if (b[j].rport == a[i].lport)
				break;
		assert_true(j < nb);
		assert_int_equal(b[j].lport, LNET_ACCEPTOR_PORT);
		assert_int_equal(b[j].kind, mirror(a[i].kind));
	}
	assert_int_equal(seen, 1 << SOCKLND_CONN_CONTROL | 1 << SOCKLND_CONN_BULK_IN |
			 1 << SOCKLND_CONN_BULK_OUT);
}

/* ---- hostile peers --------------------------------------------------------------- */

static struct lnet_nid fake;	/* 127.0.0.3@tcp: the raw client's NID */

/*
 * A blocking TCP connection from A's address, from a privileged port as a
 * Lustre peer connects (the acceptor's default, accept=secure, takes no
 * other), to B:988, with a receive buffer of @rcvbuf bytes (0: the
 * system's); its local port in *@port. The ports go round 900 down to
 * 512, below those the LND's own connections take first (1023 down), and
 * a port still in TIME_WAIT towards B is skipped.
 */
static int raw_connect_rcvbuf(u16 *port, int rcvbuf)
{
	static u16 next = 900;
	struct sockaddr_in a = { .sin_family = AF_INET }, b = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = -1, one = 1, tries;

	memcpy(&a.sin_addr, A.addr, 4);
	memcpy(&b.sin_addr, B.addr, 4);
	b.sin_port = htons(LNET_ACCEPTOR_PORT);
	for (tries = 0; tries < 389; tries++) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		assert_true(fd >= 0);
		if (rcvbuf)
			assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
						    sizeof(rcvbuf)), 0);
		assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)), 0);
		a.sin_port = htons(next);
		next = next > 512 ? next - 1 : 900;
		if (!bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
		    !connect(fd, (struct sockaddr *)&b, sizeof(b)))
			break;
		assert_true(errno == EADDRINUSE || errno == EADDRNOTAVAIL);
		close(fd);
		fd = -1;
	}
	assert_true(fd >= 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	*port = ntohs(a.sin_port);
	return fd;
}

static int raw_connect(u16 *port)
{
	return raw_connect_rcvbuf(port, 0);
}

static void raw_write(int fd, const void *buf, size_t len)
{
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
}

/* True when B closes the connection within @ms (what it sends is dropped). */
static bool raw_closed_within(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[512];
	ssize_t n;

	for (;;) {
		if (poll(&p, 1, ms) <= 0)
			return false;
		n = recv(fd, buf, sizeof(buf), 0);
		if (n <= 0)
			return true;
	}
}

static bool raw_closed(int fd)
{
	return raw_closed_within(fd, 5000);
}

/* Acceptor request for @dst, then a hello with @magic/@version/@kind, in @buf. */
static void raw_hello_bytes(u8 buf[LNET_WIRE_ACCEPT_LEN + LNET_WIRE_HELLO_LEN],
			    const struct lnet_nid *dst, u32 magic, u32 version, s32 kind)
{
	struct lnet_acceptor_req r = {
		.acr_magic = LNET_PROTO_ACCEPTOR_MAGIC,
		.acr_version = LNET_PROTO_ACCEPTOR_VERSION,
		.acr_nid = B.nid,
	};
	struct ksock_hello h = {
		.kshm_magic = LNET_PROTO_MAGIC,
		.kshm_version = KSOCK_PROTO_V3,
		.kshm_src_nid = fake,
		.kshm_dst_nid = *dst,
		.kshm_src_pid = LNET_PID_LUSTRE,
		.kshm_src_incarnation = 0x1234,
		.kshm_ctype = kind,
	};

	assert_int_equal(lnet_acceptor_req_encode(&r, buf), 0);
	assert_int_equal(lnet_hello_encode(&h, buf + LNET_WIRE_ACCEPT_LEN), 0);
	lnet_put_le32(buf + LNET_WIRE_ACCEPT_LEN, magic);
	lnet_put_le32(buf + LNET_WIRE_ACCEPT_LEN + 4, version);
}

/* Acceptor request for @dst, then a hello with @magic/@version/@kind. */
static void raw_hello(int fd, const struct lnet_nid *dst, u32 magic, u32 version,
		      s32 kind)
{
	u8 buf[LNET_WIRE_ACCEPT_LEN + LNET_WIRE_HELLO_LEN];

	raw_hello_bytes(buf, dst, magic, version, kind);
	raw_write(fd, buf, sizeof(buf));
}

/*
 * A full handshake as kind @kind (receive buffer @rcvbuf, 0: the
 * system's); B's hello must be the mirror.
 */
static int raw_session_rcvbuf(u16 *port, s32 kind, int rcvbuf)
{
	u8 buf[LNET_WIRE_HELLO_LEN];
	struct ksock_hello h;
	int fd = raw_connect_rcvbuf(port, rcvbuf);

	raw_hello(fd, &B.nid, LNET_PROTO_MAGIC, KSOCK_PROTO_V3, kind);
	assert_int_equal(recv(fd, buf, sizeof(buf), MSG_WAITALL), (ssize_t)sizeof(buf));
	assert_int_equal(lnet_hello_decode(buf, sizeof(buf), &h), 0);
	assert_true(lnet_nid_equal(&h.kshm_src_nid, &B.nid));
	assert_true(lnet_nid_equal(&h.kshm_dst_nid, &fake));
	assert_int_equal(h.kshm_src_pid, LNET_PID_LUSTRE);
	assert_int_equal(h.kshm_dst_pid, 0);
	assert_int_equal(h.kshm_ctype, mirror(kind));
	assert_int_equal(h.kshm_nips, 0);
	os_mutex_lock(&B.ln.ln_api_mutex);
	assert_true(h.kshm_src_incarnation == B.ln.ln_dp.dp_incarnation);
	os_mutex_unlock(&B.ln.ln_api_mutex);
	return fd;
}

static int raw_session(u16 *port, s32 kind)
{
	return raw_session_rcvbuf(port, kind, 0);
}

/* Where log_has() starts reading: where the running test began. */
static long log_from;

/*
 * Every test's setup: log_has() reads only what this test logged, since
 * a port number of an earlier test's connection may come back in ours.
 */
static int log_mark(void **state)
{
	fflush(logf);
	fseek(log_rd, 0, SEEK_END);
	log_from = ftell(log_rd);
	return 0;
}

/* Does the log hold a socklnd line from "127.0.0.1:<port>" (0: any) with @text? */
static bool log_has(u16 port, const char *text)
{
	char want[64], line[512];
	bool found = false;

	if (port)
		snprintf(want, sizeof(want), "socklnd: 127.0.0.1:%u", port);
	else
		snprintf(want, sizeof(want), "socklnd: ");
	fflush(logf);
	clearerr(log_rd);
	fseek(log_rd, log_from, SEEK_SET);
	while (!found && fgets(line, sizeof(line), log_rd))
		found = strstr(line, want) && strstr(line, text);
	return found;
}

/* A PUT header from the raw client to @dst, @len payload bytes, ACK to @ack. */
static void raw_put_hdr_ack(u8 *buf, const struct lnet_nid *dst, u32 len, u64 ack)
{
	struct ksock_msg_hdr k = { .ksm_type = KSOCK_MSG_LNET };
	struct lnet_hdr h = {
		.dest_nid = *dst,
		.src_nid = fake,
		.dest_pid = LNET_PID_LUSTRE,
		.src_pid = LNET_PID_LUSTRE,
		.type = LNET_MSG_PUT,
		.payload_length = len,
	};

	h.msg.put.ack_wmd.wh_interface_cookie = ack;
	h.msg.put.ack_wmd.wh_object_cookie = ack;
	h.msg.put.match_bits = 1;
	h.msg.put.ptl_index = PT_SINK;
	assert_int_equal(lnet_msg_hdr_encode(&k, &h, buf), 0);
}

static void raw_put_hdr(u8 *buf, const struct lnet_nid *dst, u32 len)
{
	raw_put_hdr_ack(buf, dst, len, LNET_WIRE_COOKIE_NONE);
}

static void test_hostile_handshakes(void **state)
{
	struct lnet_nid wrong = nid4(9);
	u16 port;
	int fd;

	fake = nid4(3);
	fd = raw_connect(&port);
	raw_write(fd, "0123456789abcdef", LNET_WIRE_ACCEPT_LEN);
	assert_true(raw_closed(fd));
	close(fd);
	assert_true(log_has(port, "bad acceptor request: magic 0x33323130"));

	fd = raw_connect(&port);
	raw_hello(fd, &B.nid, 0xdeadbeef, KSOCK_PROTO_V3, SOCKLND_CONN_CONTROL);
	assert_true(raw_closed(fd));
	close(fd);
	assert_true(log_has(port, "bad hello: magic 0xdeadbeef version 3"));

	fd = raw_connect(&port);
	raw_hello(fd, &B.nid, LNET_PROTO_MAGIC, 2, SOCKLND_CONN_CONTROL);
	assert_true(raw_closed(fd));
	close(fd);
	assert_true(log_has(port, "bad hello: magic 0x45726963 version 2"));

	fd = raw_connect(&port);
	raw_hello(fd, &B.nid, LNET_PROTO_MAGIC, KSOCK_PROTO_V3, 7);
	assert_true(raw_closed(fd));
	close(fd);
	assert_true(log_has(port, "bad hello: connection kind 7 (expected 0, 1, 2 or 3)"));

	fd = raw_connect(&port);
	raw_hello(fd, &B.nid, LNET_PROTO_MAGIC, KSOCK_PROTO_V3, SOCKLND_CONN_NONE);
	assert_true(raw_closed(fd));
	close(fd);
	assert_true(log_has(port, "bad hello: connection kind -1 (expected 0, 1, 2 or 3)"));

	fd = raw_connect(&port);
	raw_hello(fd, &wrong, LNET_PROTO_MAGIC, KSOCK_PROTO_V3, SOCKLND_CONN_CONTROL);
	assert_true(raw_closed(fd));
	close(fd);
	assert_true(log_has(port, "bad hello: it is for 127.0.0.9@tcp, not for our 127.0.0.2@tcp"));
	put_one(4096);
}

/* Does the log get @text for @port within 6 s? */
static bool log_waits_for(u16 port, const char *text)
{
	int i;

	for (i = 0; i < 600 && !log_has(port, text); i++)
		usleep(10000);
	return log_has(port, text);
}

/*
 * Peers that connect and stall do not hold up the others: with SILENT
 * connections that send nothing and one stopped halfway through its
 * hello, a well-behaved peer's handshake completes while every one of
 * them is still waiting (none refused: their deadline is 5 s away).
 * Then each is refused at its deadline, saying what it lacked.
 */
#define SILENT		8
static void test_stalled_handshakes(void **state)
{
	u8 buf[LNET_WIRE_ACCEPT_LEN + LNET_WIRE_HELLO_LEN];
	u16 ports[SILENT], half_port, port;
	int fds[SILENT], half_fd, fd, i;

	fake = nid4(3);
	for (i = 0; i < SILENT; i++)
		fds[i] = raw_connect(&ports[i]);
	half_fd = raw_connect(&half_port);
	raw_hello_bytes(buf, &B.nid, LNET_PROTO_MAGIC, KSOCK_PROTO_V3, SOCKLND_CONN_CONTROL);
	raw_write(half_fd, buf, LNET_WIRE_ACCEPT_LEN + 20);

	fd = raw_session(&port, SOCKLND_CONN_CONTROL);
	for (i = 0; i < SILENT; i++)
		assert_false(log_has(ports[i], "refusing"));
	assert_false(log_has(half_port, "refusing"));
	close(fd);

	/* their 5 s started before the session: 10 s is ample, however loaded */
	for (i = 0; i < SILENT; i++) {
		assert_true(raw_closed_within(fds[i], 10000));
		close(fds[i]);
		assert_true(log_has(ports[i], "refusing the connection: no acceptor request: error -110"));
	}
	assert_true(raw_closed_within(half_fd, 10000));
	close(half_fd);
	assert_true(log_has(half_port, "refusing the connection: hello cut short: error -110"));
	put_one(100);
}

/*
 * A listener runs a bounded number of handshakes at once (256; 4 here,
 * so that every connection surely reaches the acceptor, whose listen
 * backlog is 127): the next connection is refused at once, saying so;
 * the waiting ones that hang up are refused for it and free their places.
 */
#define HS_MAX		4
static void test_handshake_limit(void **state)
{
	int fds[HS_MAX], fd, i;
	u16 ports[HS_MAX], port;
	u32 max;

	fake = nid4(3);
	os_mutex_lock(&ks.ks_lock);
	max = ks.ks_max_handshakes;
	ks.ks_max_handshakes = HS_MAX;
	os_mutex_unlock(&ks.ks_lock);
	assert_int_equal(max, 256);
	for (i = 0; i < HS_MAX; i++)
		fds[i] = raw_connect(&ports[i]);
	fd = raw_connect(&port);
	assert_true(raw_closed(fd));
	close(fd);
	assert_true(log_has(port, "refusing the connection: 4 handshakes are in progress already"));
	for (i = 0; i < HS_MAX; i++)
		close(fds[i]);
	for (i = 0; i < HS_MAX; i++)
		assert_true(log_waits_for(ports[i], "refusing the connection: no acceptor request: error -104"));
	os_mutex_lock(&ks.ks_lock);
	ks.ks_max_handshakes = max;
	os_mutex_unlock(&ks.ks_lock);
	put_one(100);
}

static void test_hostile_messages(void **state)
{
	u8 hdr[LNET_WIRE_MSG_HDR_LEN];
	struct lnet_nid wrong = nid4(9);
	u16 port;
	int fd;

	fake = nid4(3);
	/* closed in the middle of a header */
	raw_put_hdr(hdr, &B.nid, 0);
	fd = raw_session(&port, SOCKLND_CONN_CONTROL);
	raw_write(fd, hdr, 50);
	shutdown(fd, SHUT_WR);
	assert_true(raw_closed(fd));
	close(fd);
	assert_true(log_has(port, "(127.0.0.3@tcp): closing the connection: the peer closed the connection in a message header (50 of 96 bytes)"));

	/* a payload longer than LNET_MTU */
	raw_put_hdr(hdr, &B.nid, 0);
	lnet_put_le32(hdr + LNET_WIRE_KSOCK_HDR_LEN + 28, LNET_MTU + 1);
	fd = raw_session(&port, SOCKLND_CONN_BULK_OUT);
	raw_write(fd, hdr, sizeof(hdr));
	assert_true(raw_closed(fd));
	close(fd);
	assert_true(log_has(port, "payload length 1048577 is over the 1048576-byte maximum"));

	/* garbage */
	memset(hdr, 0x5a, sizeof(hdr));
	fd = raw_session(&port, SOCKLND_CONN_BULK_IN);
	raw_write(fd, hdr, sizeof(hdr));
	assert_true(raw_closed(fd));
	close(fd);
	assert_true(log_has(port, "bad socket message type 0x5a5a5a5a"));

	/* a header the core refuses (not for B's NID) */
	raw_put_hdr(hdr, &wrong, 0);
	fd = raw_session(&port, SOCKLND_CONN_CONTROL);
	raw_write(fd, hdr, sizeof(hdr));
	assert_true(raw_closed(fd));
	close(fd);
	assert_true(log_has(port, "the core refused its PUT: error -71"));
	put_one(LNET_MTU);
	get_one(100000);
}

/*
 * A peer without typed connections (kind ANY): NOOPs are skipped, its PUT
 * lands (payload straight in), and B's ACK comes back on that connection.
 */
static void test_any_noop_put_ack(void **state)
{
	u8 buf[LNET_WIRE_KSOCK_HDR_LEN * 2 + LNET_WIRE_MSG_HDR_LEN + 300] = { 0 };
	u8 ack[LNET_WIRE_MSG_HDR_LEN];
	struct ksock_msg_hdr k;
	struct lnet_hdr h;
	u8 *p = buf;
	u16 port;
	int fd, nput;

	fake = nid4(3);
	memset(sink, 0, LNET_MTU);
	os_mutex_lock(&B.ln.ln_api_mutex);
	nput = sink_op.nput;
	os_mutex_unlock(&B.ln.ln_api_mutex);
	lnet_put_le32(p, KSOCK_MSG_NOOP);
	lnet_put_le32(p + LNET_WIRE_KSOCK_HDR_LEN, KSOCK_MSG_NOOP);
	p += 2 * LNET_WIRE_KSOCK_HDR_LEN;
	raw_put_hdr_ack(p, &B.nid, 300, 0xabcdef);
	memcpy(p + LNET_WIRE_MSG_HDR_LEN, pattern, 300);

	fd = raw_session(&port, SOCKLND_CONN_ANY);
	/* in two pieces, cut inside the LNet header */
	raw_write(fd, buf, 70);
	usleep(20000);
	raw_write(fd, buf + 70, sizeof(buf) - 70);
	os_mutex_lock(&B.ln.ln_api_mutex);
	assert_true(wait_count(&B.ln, &sink_op.nput, nput + 1));
	assert_int_equal(sink_op.last_mlength, 300);
	assert_true(lnet_nid_equal(&sink_op.last_initiator, &fake));
	os_mutex_unlock(&B.ln.ln_api_mutex);
	assert_memory_equal(sink, pattern, 300);

	assert_int_equal(recv(fd, ack, sizeof(ack), MSG_WAITALL), (ssize_t)sizeof(ack));
	assert_int_equal(lnet_msg_hdr_decode(ack, sizeof(ack), &k, &h), 0);
	assert_int_equal(k.ksm_type, KSOCK_MSG_LNET);
	assert_int_equal(h.type, LNET_MSG_ACK);
	assert_true(lnet_nid_equal(&h.dest_nid, &fake));
	assert_true(lnet_nid_equal(&h.src_nid, &B.nid));
	assert_int_equal(h.payload_length, 0);
	assert_int_equal(h.msg.ack.dst_wmd.wh_object_cookie, 0xabcdef);
	assert_int_equal(h.msg.ack.mlength, 300);
	close(fd);
}

/*
 * 30 small PUTs and the close in one write, while B's scheduler is held
 * in lnet_parse() (we hold B's lock), so the data and the FIN are both
 * waiting when it reads on: every PUT lands (the 21st header straddles
 * two 4 KiB reads of the receive stage), and the close is still seen
 * although the read that meets it comes back short.
 */
#define BURST		30
#define BURST_LEN	100
static void test_burst_then_close(void **state)
{
	static u8 buf[BURST * (LNET_WIRE_MSG_HDR_LEN + BURST_LEN)];
	u8 *p = buf;
	u16 port;
	int fd, nput, i;

	fake = nid4(3);
	memset(sink, 0, LNET_MTU);
	for (i = 0; i < BURST; i++) {
		raw_put_hdr(p, &B.nid, BURST_LEN);
		memcpy(p + LNET_WIRE_MSG_HDR_LEN, pattern, BURST_LEN);
		p += LNET_WIRE_MSG_HDR_LEN + BURST_LEN;
	}
	fd = raw_session(&port, SOCKLND_CONN_CONTROL);
	os_mutex_lock(&B.ln.ln_api_mutex);
	nput = sink_op.nput;
	raw_write(fd, buf, sizeof(buf));
	shutdown(fd, SHUT_WR);
	usleep(50000);
	assert_int_equal(sink_op.nput, nput);	/* nothing got past the lock */
	assert_true(wait_count(&B.ln, &sink_op.nput, nput + BURST));
	assert_int_equal(sink_op.last_mlength, BURST_LEN);
	os_mutex_unlock(&B.ln.ln_api_mutex);
	assert_memory_equal(sink, pattern, BURST_LEN);
	assert_true(raw_closed(fd));
	close(fd);
	assert_true(log_has(port, "(127.0.0.3@tcp): closing the connection: the peer closed the connection"));
	assert_false(log_has(port, "in a message"));
}

/* ---- failures and shutdown ------------------------------------------------------- */

/* B's view of the raw client's peer NI (lnet_notify sets it). */
static u32 fake_state(void)
{
	struct lnet_peer_ni *lpni;
	u32 state;

	os_mutex_lock(&B.ln.ln_api_mutex);
	lpni = lnet_peer_ni_find(&B.ln, &fake);
	assert_non_null(lpni);
	state = lpni->lpni_state;
	os_mutex_unlock(&B.ln.ln_api_mutex);
	return state;
}

/* The state once it is @want, or what it is after 2 s (told by a thread). */
static u32 fake_state_wait(u32 want)
{
	int i;

	for (i = 0; i < 200 && fake_state() != want; i++)
		usleep(10000);
	return fake_state();
}

/*
 * A peer that completes the handshake and then never reads: B's 1 MiB
 * PUTs fill the connection, the oldest one outlives the LND timeout (1 s
 * here) and the connection is closed; the unsent PUTs fail with
 * NETWORK_TIMEOUT, the ones the socket took completed, and the ones
 * sent later find nobody listening at 127.0.0.3.
 */
static void test_tx_timeout(void **state)
{
	static struct op ops[16];
	struct lnet_md md = {
		.start = pattern, .length = LNET_MTU,
		.threshold = LNET_MD_THRESH_INF, .handler = handler,
	};
	struct lnet_handle_md h[16];
	int i, ok = 0, failed = 0, refused = 0, fd;
	u64 timeouts;
	u16 port;

	fake = nid4(3);
	memset(ops, 0, sizeof(ops));
	fd = raw_session(&port, SOCKLND_CONN_BULK_IN);
	os_mutex_lock(&B.ln.ln_api_mutex);
	timeouts = B.ln.ln_dp.dp_hstatus_count[LNET_MSG_STATUS_NETWORK_TIMEOUT];
	assert_int_equal(lnet_global_set(&B.ln, LNET_GLOBAL_RETRY_COUNT, 0), 0);
	assert_int_equal(lnet_global_set(&B.ln, LNET_GLOBAL_TRANSACTION_TIMEOUT, 1), 0);
	for (i = 0; i < 16; i++) {
		md.user_ptr = &ops[i];
		assert_int_equal(lnet_md_bind(&B.ln, &md, &h[i]), 0);
		assert_int_equal(lnet_put(&B.ln, NULL, h[i], false, &fake, LNET_PID_LUSTRE,
					  PT_SINK, 1, 0, LNET_MTU, 0), 0);
	}
	for (i = 0; i < 16; i++) {
		assert_true(wait_count(&B.ln, &ops[i].nsend, 1));
		if (ops[i].send_status == 0)
			ok++;
		else if (ops[i].send_status == -EIO)
			failed++;
		else if (ops[i].send_status == -ECONNREFUSED ||
			 ops[i].send_status == -ETIMEDOUT)
			refused++;
		else
			print_message("PUT %d: status %d\n", i, ops[i].send_status);
		lnet_md_unlink(&B.ln, h[i]);
	}
	/*
	 * Peer credits let 8 PUTs at a time reach the LND; the ones after
	 * the close find no connection and the connect is refused, or the
	 * core times them out while they wait for a credit.
	 */
	assert_int_equal(ok + failed + refused, 16);
	assert_true(failed > 0);
	assert_int_equal(B.ln.ln_dp.dp_hstatus_count[LNET_MSG_STATUS_NETWORK_TIMEOUT],
			 timeouts + (u64)failed);
	assert_int_equal(lnet_global_set(&B.ln, LNET_GLOBAL_TRANSACTION_TIMEOUT, 150), 0);
	assert_int_equal(lnet_global_set(&B.ln, LNET_GLOBAL_RETRY_COUNT, 2), 0);
	os_mutex_unlock(&B.ln.ln_api_mutex);
	assert_true(log_has(port, "(127.0.0.3@tcp): closing the connection: no progress sending for 1 s ("));
	close(fd);
	/* lnet_notify: down since the close, up again with a new connection */
	assert_int_equal(fake_state_wait(LNET_NI_STATUS_DOWN), LNET_NI_STATUS_DOWN);
	fd = raw_session(&port, SOCKLND_CONN_CONTROL);
	assert_int_equal(fake_state_wait(LNET_NI_STATUS_UP), LNET_NI_STATUS_UP);
	close(fd);
	get_one(LNET_MTU);
}

/*
 * B's socket LND peer for the raw client (NULL: none), with B's API mutex
 * and ks_lock taken; fake_peer_unlock() releases them.
 */
static struct ksock_peer *fake_peer_lock(void)
{
	struct lnet_ni *ni;

	os_mutex_lock(&B.ln.ln_api_mutex);
	ni = lnet_ni_find(&B.ln, &B.nid);
	assert_non_null(ni);
	os_mutex_lock(&ks.ks_lock);
	return ksock_peer_find(ni->ni_lnd_data, &fake);
}

static void fake_peer_unlock(void)
{
	os_mutex_unlock(&ks.ks_lock);
	os_mutex_unlock(&B.ln.ln_api_mutex);
}

/* B's connection to the raw client: its messages queued and written-unacked. */
static bool fake_conn_counts(int *queued, int *acking)
{
	struct ksock_peer *kp;
	struct ksock_conn *c;
	struct ksock_tx *tx;
	bool found = false;

	*queued = *acking = 0;
	kp = fake_peer_lock();
	if (kp)
		list_for_each_entry(c, &kp->p_conns, c_list) {
			if (c->c_closing)
				continue;
			found = true;
			list_for_each_entry(tx, &c->c_txq, tx_list)
				(*queued)++;
			list_for_each_entry(tx, &c->c_ackq, tx_list)
				(*acking)++;
		}
	fake_peer_unlock();
	return found;
}

/* B attached the raw client's connection (it does once its hello is out). */
static void wait_fake_attached(void)
{
	int queued, acking, i;

	for (i = 0; i < 100 && !fake_conn_counts(&queued, &acking); i++)
		usleep(10000);
	assert_true(fake_conn_counts(&queued, &acking));
}

/*
 * Stalls, with a 1 s LND timeout. (1) A peer that stops reading: B's
 * 200 KiB PUT goes into the socket, the peer's TCP stops acknowledging
 * (its receive buffer is full); the PUT is not counted as sent while
 * its bytes may still die there (queued or written: both happen), and after no progress for 1 s the connection is closed and the
 * PUT fails with NETWORK_TIMEOUT. (2) A peer that stops in the middle
 * of a message's payload: closed after 1 s without a byte.
 */
static void test_stalled_connections(void **state)
{
	struct lnet_md md = {
		.start = pattern, .length = 200 * 1024,
		.threshold = LNET_MD_THRESH_INF, .handler = handler,
	};
	u8 hdr[LNET_WIRE_MSG_HDR_LEN];
	struct lnet_handle_md h;
	struct op op = { 0 };
	int fd, queued, acking, i;
	u64 timeouts, t0, dt;
	u16 port;

	fake = nid4(3);
	/* a tiny receive buffer: its TCP soon stops acknowledging */
	fd = raw_session_rcvbuf(&port, SOCKLND_CONN_BULK_IN, 4096);
	wait_fake_attached();
	os_mutex_lock(&B.ln.ln_api_mutex);
	timeouts = B.ln.ln_dp.dp_hstatus_count[LNET_MSG_STATUS_NETWORK_TIMEOUT];
	assert_int_equal(lnet_global_set(&B.ln, LNET_GLOBAL_RETRY_COUNT, 0), 0);
	assert_int_equal(lnet_global_set(&B.ln, LNET_GLOBAL_TRANSACTION_TIMEOUT, 1), 0);
	md.user_ptr = &op;
	assert_int_equal(lnet_md_bind(&B.ln, &md, &h), 0);
	t0 = os_now_ns();
	assert_int_equal(lnet_put(&B.ln, NULL, h, false, &fake, LNET_PID_LUSTRE,
				  PT_SINK, 1, 0, 200 * 1024, 0), 0);
	os_mutex_unlock(&B.ln.ln_api_mutex);
	/* half a second on, the PUT is still held by the LND */
	usleep(500000);
	assert_true(fake_conn_counts(&queued, &acking));
	assert_int_equal(queued + acking, 1);
	os_mutex_lock(&B.ln.ln_api_mutex);
	assert_int_equal(op.nsend, 0);
	assert_true(wait_count(&B.ln, &op.nsend, 1));
	dt = os_now_ns() - t0;
	assert_int_equal(op.send_status, -EIO);
	assert_int_equal(B.ln.ln_dp.dp_hstatus_count[LNET_MSG_STATUS_NETWORK_TIMEOUT],
			 timeouts + 1);
	lnet_md_unlink(&B.ln, h);
	os_mutex_unlock(&B.ln.ln_api_mutex);
	/* 1 s without progress, seen by a scan once a second */
	assert_true(dt >= 1000000000ULL && dt < 3500000000ULL);
	assert_true(log_has(port, "(127.0.0.3@tcp): closing the connection: no progress sending for 1 s ("));
	assert_true(log_has(port, "bytes unacknowledged, "));
	assert_true(raw_closed(fd));
	close(fd);

	/* 1000 of 100000 payload bytes, then nothing */
	raw_put_hdr(hdr, &B.nid, 100000);
	fd = raw_session(&port, SOCKLND_CONN_BULK_OUT);
	raw_write(fd, hdr, sizeof(hdr));
	raw_write(fd, pattern, 1000);
	t0 = os_now_ns();
	for (i = 0; i < 100 && !log_has(port, "no progress receiving"); i++)
		usleep(50000);
	dt = os_now_ns() - t0;
	assert_true(log_has(port, "(127.0.0.3@tcp): closing the connection: no progress receiving a message for 1 s"));
	assert_true(dt >= 900000000ULL && dt < 3500000000ULL);
	assert_true(raw_closed(fd));
	close(fd);

	os_mutex_lock(&B.ln.ln_api_mutex);
	assert_int_equal(lnet_global_set(&B.ln, LNET_GLOBAL_TRANSACTION_TIMEOUT, 150), 0);
	assert_int_equal(lnet_global_set(&B.ln, LNET_GLOBAL_RETRY_COUNT, 2), 0);
	os_mutex_unlock(&B.ln.ln_api_mutex);
	put_one(LNET_MTU);
	get_one(LNET_MTU);
}

/* ---- busy polling ---------------------------------------------------------------- */

static u64 busy_polls(void)
{
	u64 n = 0;
	int i;

	os_mutex_lock(&ks.ks_lock);
	for (i = 0; i < KSOCK_NSCHED; i++)
		n += ks.ks_sched[i].s_busy_polls;
	os_mutex_unlock(&ks.ks_lock);
	return n;
}

/*
 * Within 2 s: every scheduler asleep in its poll and, with @partial, the
 * raw client's connection in the middle of a message, with @misses
 * busy-polls in a row that found nothing (-1: any number).
 */
static bool scheds_asleep(bool partial, int misses)
{
	struct ksock_conn *c;
	struct ksock_peer *kp;
	bool ok = false;
	int i, t;

	for (t = 0; t < 200 && !ok; t++) {
		if (t)
			usleep(10000);
		kp = fake_peer_lock();
		ok = !partial;
		if (kp)
			list_for_each_entry(c, &kp->p_conns, c_list)
				ok = ok || (c->c_rx_partial && !c->c_closing &&
					    (misses < 0 || c->c_rx_spin_misses == misses));
		for (i = 0; i < KSOCK_NSCHED; i++)
			ok = ok && ks.ks_sched[i].s_polling;
		fake_peer_unlock();
	}
	return ok;
}

/* B's sink got PUT number @nput from the raw client: @len pattern bytes. */
static void raw_put_landed(int nput, u32 len)
{
	os_mutex_lock(&B.ln.ln_api_mutex);
	assert_true(wait_count(&B.ln, &sink_op.nput, nput));
	assert_int_equal(sink_op.last_mlength, len);
	assert_true(lnet_nid_equal(&sink_op.last_initiator, &fake));
	os_mutex_unlock(&B.ln.ln_api_mutex);
	assert_memory_equal(sink, pattern, len);
}

/*
 * A payload of KSOCK_BUSY_POLL_MIN bytes or more that stops: its scheduler
 * busy-polls for it, finds nothing and sleeps in its poll; after
 * KSOCK_BUSY_POLL_MISSES such stops it no longer busy-polls for that
 * payload, and the rest completes the PUT. One below that size that stops
 * sends its scheduler straight to sleep.
 */
static void test_busy_poll(void **state)
{
	u8 hdr[LNET_WIRE_MSG_HDR_LEN];
	u32 big = 200000, small = KSOCK_BUSY_POLL_MIN - 1, off = 0;
	int fd, nput, miss;
	u64 before;
	u16 port;

	fake = nid4(3);
	memset(sink, 0, LNET_MTU);
	os_mutex_lock(&B.ln.ln_api_mutex);
	nput = sink_op.nput;
	os_mutex_unlock(&B.ln.ln_api_mutex);
	fd = raw_session(&port, SOCKLND_CONN_BULK_OUT);
	wait_fake_attached();
	assert_true(scheds_asleep(false, -1));

	raw_put_hdr(hdr, &B.nid, big);
	raw_write(fd, hdr, sizeof(hdr));
	for (miss = 1; miss <= KSOCK_BUSY_POLL_MISSES; miss++) {
		raw_write(fd, pattern + off, 30000);
		off += 30000;
		assert_true(scheds_asleep(true, miss));
	}
	before = busy_polls();
	raw_write(fd, pattern + off, big - off);
	raw_put_landed(nput + 1, big);
	assert_int_equal(busy_polls(), before);

	memset(sink, 0, LNET_MTU);
	before = busy_polls();
	raw_put_hdr(hdr, &B.nid, small);
	raw_write(fd, hdr, sizeof(hdr));
	raw_write(fd, pattern, small / 2);
	assert_true(scheds_asleep(true, 0));
	assert_int_equal(busy_polls(), before);
	raw_write(fd, pattern + small / 2, small - small / 2);
	raw_put_landed(nput + 2, small);
	close(fd);
	put_one(LNET_MTU);
}

/* ---- zero-copy ACKs ------------------------------------------------------------ */

/* ksock_zc_merge: @zc0/@zc1 + @cookie gives @ok and @want0/@want1. */
static void test_zc_merge(void **state)
{
	static const struct {
		u64 zc0, zc1, cookie;
		bool ok;
		u64 want0, want1;
	} cases[] = {
		{ 0, 5, 5, true, 0, 5 },	/* one, again */
		{ 0, 5, 6, true, 6, 5 },	/* one + next: two */
		{ 0, 5, 9, true, 9, 5 },	/* one + any: two */
		{ 0, 9, 5, true, 9, 5 },
		{ 9, 5, 9, true, 9, 5 },	/* two, again */
		{ 7, 5, 6, true, 5, 7 },	/* two + the middle: a range */
		{ 6, 5, 7, true, 5, 7 },	/* two + next: a range */
		{ 6, 5, 4, true, 4, 6 },
		{ 9, 5, 6, false, 9, 5 },	/* not consecutive */
		{ 5, 7, 6, true, 5, 7 },	/* in the range */
		{ 5, 7, 8, true, 5, 8 },	/* range grows */
		{ 5, 7, 4, true, 4, 7 },
		{ 5, 7, 9, false, 5, 7 },
		{ 5, 7, 3, false, 5, 7 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		u64 zc[2] = { cases[i].zc0, cases[i].zc1 };

		print_message("case %zu\n", i);
		assert_int_equal(ksock_zc_merge(zc, cases[i].cookie), cases[i].ok);
		assert_int_equal(zc[0], cases[i].want0);
		assert_int_equal(zc[1], cases[i].want1);
	}
}

#define ZC_LEN		(16 * 1024)

/* A 16 KiB PUT from the raw client with ZC cookie @cookie ([0]), in @buf. */
static size_t raw_zc_put(u8 *buf, u64 cookie)
{
	raw_put_hdr(buf, &B.nid, ZC_LEN);
	lnet_put_le64(buf + 8, cookie);
	memcpy(buf + LNET_WIRE_MSG_HDR_LEN, pattern, ZC_LEN);
	return LNET_WIRE_MSG_HDR_LEN + ZC_LEN;
}

/* The next 24 bytes from @fd are a NOOP with ksm_zc_cookies @c0, @c1. */
static void raw_expect_noop(int fd, u64 c0, u64 c1)
{
	u8 got[LNET_WIRE_KSOCK_HDR_LEN], want[LNET_WIRE_KSOCK_HDR_LEN];
	struct pollfd p = { .fd = fd, .events = POLLIN };

	lnet_put_le32(want, KSOCK_MSG_NOOP);
	lnet_put_le32(want + 4, 0);
	lnet_put_le64(want + 8, c0);
	lnet_put_le64(want + 16, c1);
	assert_int_equal(poll(&p, 1, 5000), 1);
	assert_int_equal(recv(fd, got, sizeof(got), MSG_WAITALL), (ssize_t)sizeof(got));
	assert_memory_equal(got, want, sizeof(want));
}

/* Nothing more from @fd for @ms. */
static void raw_expect_silence(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	assert_int_equal(poll(&p, 1, ms), 0);
}

/*
 * A Lustre sender (the raw client, on its BULK_OUT connection: B's
 * BULK_IN, where B answers): a keepalive NOOP gets no answer; a 16 KiB
 * PUT with cookie 2 gets NOOP (0, 2) at once; PUTs read in one go merge
 * their answers into NOOPs not written yet: 3, 4, 5 -> (3, 5), the range;
 * 10, 20, 30 -> (20, 10), two cookies, then (0, 30). Every PUT lands, a
 * PUT without cookie gets no NOOP, and A and B still talk.
 */
static void test_zc_ack(void **state)
{
	static u8 buf[3 * (LNET_WIRE_MSG_HDR_LEN + ZC_LEN)];
	static const u64 bursts[2][3] = { { 3, 4, 5 }, { 10, 20, 30 } };
	u8 noop[LNET_WIRE_KSOCK_HDR_LEN] = { 0 };
	int fd, nput, i, j;
	size_t len;
	u16 port;

	fake = nid4(3);
	fd = raw_session(&port, SOCKLND_CONN_BULK_OUT);
	wait_fake_attached();
	os_mutex_lock(&B.ln.ln_api_mutex);
	nput = sink_op.nput;
	os_mutex_unlock(&B.ln.ln_api_mutex);

	lnet_put_le32(noop, KSOCK_MSG_NOOP);
	lnet_put_le64(noop + 16, 1);		/* Lustre's keepalive */
	raw_write(fd, noop, sizeof(noop));
	raw_expect_silence(fd, 200);

	len = raw_zc_put(buf, 2);
	raw_write(fd, buf, len);
	raw_expect_noop(fd, 0, 2);

	for (j = 0; j < 2; j++) {
		len = 0;
		for (i = 0; i < 3; i++)
			len += raw_zc_put(buf + len, bursts[j][i]);
		/* B's scheduler waits in lnet_parse() while all of it arrives */
		os_mutex_lock(&B.ln.ln_api_mutex);
		raw_write(fd, buf, len);
		usleep(50000);
		os_mutex_unlock(&B.ln.ln_api_mutex);
		if (j == 0) {
			raw_expect_noop(fd, 3, 5);
		} else {
			raw_expect_noop(fd, 20, 10);
			raw_expect_noop(fd, 0, 30);
		}
	}
	len = raw_zc_put(buf, 0);
	raw_write(fd, buf, len);
	os_mutex_lock(&B.ln.ln_api_mutex);
	assert_true(wait_count(&B.ln, &sink_op.nput, nput + 8));
	assert_int_equal(sink_op.last_mlength, ZC_LEN);
	os_mutex_unlock(&B.ln.ln_api_mutex);
	raw_expect_silence(fd, 200);
	assert_memory_equal(sink, pattern, ZC_LEN);
	close(fd);
	put_one(LNET_MTU);
}

/* The test's end of a socketpair given to B as a connection with @peer. */
static int zc_peer_attach(const struct lnet_nid *peer)
{
	struct ksock_net *net;
	struct os_sock *sock;
	int sv[2];

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	assert_int_equal(fcntl(sv[0], F_SETFL, O_NONBLOCK), 0);
	os_mutex_lock(&B.ln.ln_api_mutex);
	net = lnet_ni_find(&B.ln, &B.nid)->ni_lnd_data;
	os_mutex_unlock(&B.ln.ln_api_mutex);
	assert_int_equal(os_sock_from_fd(sv[0], &sock), 0);
	assert_int_equal(ksock_conn_attach(net, sock, "zc-peer", peer, 1, SOCKLND_CONN_ANY), 0);
	return sv[1];
}

/* B PUTs ZC_LEN pattern bytes to @peer, with an ACK or not; @h, @op: its MD. */
static void zc_b_put(const struct lnet_nid *peer, bool ack, struct lnet_handle_md *h,
		     struct op *op)
{
	struct lnet_md md = {
		.start = pattern, .length = ZC_LEN, .threshold = LNET_MD_THRESH_INF,
		.handler = handler, .user_ptr = op,
	};

	os_mutex_lock(&B.ln.ln_api_mutex);
	assert_int_equal(lnet_md_bind(&B.ln, &md, h), 0);
	assert_int_equal(lnet_put(&B.ln, NULL, *h, ack, peer, LNET_PID_LUSTRE, PT_SINK, 1, 0,
				  ZC_LEN, 0), 0);
	os_mutex_unlock(&B.ln.ln_api_mutex);
}

/* The next message on @fd: a ZC_LEN PUT from B with ZC-REQ cookie @cookie. */
static void zc_expect_put(int fd, u64 cookie, struct lnet_hdr *h)
{
	static u8 buf[LNET_WIRE_MSG_HDR_LEN + ZC_LEN];
	struct ksock_msg_hdr k;

	assert_int_equal(recv(fd, buf, sizeof(buf), MSG_WAITALL), (ssize_t)sizeof(buf));
	assert_int_equal(lnet_msg_hdr_decode(buf, LNET_WIRE_MSG_HDR_LEN, &k, h), 0);
	assert_int_equal(k.ksm_type, KSOCK_MSG_LNET);
	assert_int_equal(k.ksm_zc_cookies[0], cookie);
	assert_int_equal(k.ksm_zc_cookies[1], 0);
	assert_int_equal(h->type, LNET_MSG_PUT);
	assert_int_equal(h->payload_length, ZC_LEN);
	assert_memory_equal(buf + LNET_WIRE_MSG_HDR_LEN, pattern, ZC_LEN);
}

/* Bytes @fd holds unread, once B wrote @want of them (or 5 s went by). */
static int zc_wait_unread(int fd, int want)
{
	int n = 0, i;

	for (i = 0; i < 500; i++) {
		assert_int_equal(ioctl(fd, FIONREAD, &n), 0);
		if (n >= want)
			break;
		usleep(10000);
	}
	return n;
}

/*
 * ZC-REQs: B's PUTs of 16 KiB without ACK carry cookies 2, 3 and wait for
 * the peer's ZC-ACK, which finalizes each. The peer is the test, on a
 * socketpair given to B as a connection: it reads nothing until it has
 * answered, so the bytes stay unacknowledged (unread) and no look at
 * TCP's ACK could finalize them; only the NOOPs can. An unknown cookie is
 * ignored and the connection stays. A PUT whose ACK comes back asks for
 * no ZC-ACK (cookie 0); its ACK finalizes it.
 */
static void test_zc_req(void **state)
{
	const int one = LNET_WIRE_MSG_HDR_LEN + ZC_LEN;
	struct lnet_nid peer = nid4(6);
	struct op ops[3];
	struct lnet_handle_md h[3];
	struct ksock_msg_hdr k = { .ksm_type = KSOCK_MSG_LNET };
	u8 noop[LNET_WIRE_KSOCK_HDR_LEN] = { 0 }, ack[LNET_WIRE_MSG_HDR_LEN];
	struct lnet_hdr put, a;
	int fd, i;

	memset(ops, 0, sizeof(ops));
	fd = zc_peer_attach(&peer);
	zc_b_put(&peer, false, &h[0], &ops[0]);
	zc_b_put(&peer, false, &h[1], &ops[1]);
	assert_int_equal(zc_wait_unread(fd, 2 * one), 2 * one);
	usleep(20000);		/* ticks come and go: nothing is acknowledged */
	os_mutex_lock(&B.ln.ln_api_mutex);
	assert_int_equal(ops[0].nsend + ops[1].nsend, 0);
	os_mutex_unlock(&B.ln.ln_api_mutex);

	lnet_put_le32(noop, KSOCK_MSG_NOOP);
	lnet_put_le64(noop + 16, 2);
	raw_write(fd, noop, sizeof(noop));
	os_mutex_lock(&B.ln.ln_api_mutex);
	assert_true(wait_count(&B.ln, &ops[0].nsend, 1));
	assert_int_equal(ops[0].send_status, 0);
	assert_int_equal(ops[1].nsend, 0);
	os_mutex_unlock(&B.ln.ln_api_mutex);
	/* an unknown cookie, then 3 as the range (3, 3) */
	lnet_put_le64(noop + 16, 99);
	raw_write(fd, noop, sizeof(noop));
	lnet_put_le64(noop + 8, 3);
	lnet_put_le64(noop + 16, 3);
	raw_write(fd, noop, sizeof(noop));
	os_mutex_lock(&B.ln.ln_api_mutex);
	assert_true(wait_count(&B.ln, &ops[1].nsend, 1));
	assert_int_equal(ops[1].send_status, 0);
	os_mutex_unlock(&B.ln.ln_api_mutex);
	zc_expect_put(fd, 2, &put);
	zc_expect_put(fd, 3, &put);

	/* with an ACK wanted: no cookie, and the ACK finalizes it */
	zc_b_put(&peer, true, &h[2], &ops[2]);
	zc_expect_put(fd, 0, &put);
	memset(&a, 0, sizeof(a));
	a.dest_nid = B.nid;
	a.src_nid = peer;
	a.dest_pid = LNET_PID_LUSTRE;
	a.src_pid = LNET_PID_LUSTRE;
	a.type = LNET_MSG_ACK;
	a.msg.ack.dst_wmd = put.msg.put.ack_wmd;
	a.msg.ack.match_bits = 1;
	a.msg.ack.mlength = ZC_LEN;
	assert_int_equal(lnet_msg_hdr_encode(&k, &a, ack), 0);
	raw_write(fd, ack, sizeof(ack));
	os_mutex_lock(&B.ln.ln_api_mutex);
	assert_true(wait_count(&B.ln, &ops[2].nresp, 1));
	assert_true(wait_count(&B.ln, &ops[2].nsend, 1));
	assert_int_equal(ops[2].send_status, 0);
	assert_int_equal(ops[2].resp_status, 0);
	for (i = 0; i < 3; i++)
		lnet_md_unlink(&B.ln, h[i]);
	os_mutex_unlock(&B.ln.ln_api_mutex);
	close(fd);
	get_one(LNET_MTU);
}

/*
 * C (127.0.0.5) sends to 127.0.0.4, whose "acceptor" takes connections and
 * never answers: the message waits for the handshake; unconfiguring C
 * fails it at once (no wait for the connect timeout). An IPv6 NI on an
 * address the host lacks fails to start.
 */
static void test_shutdown_fails_waiting(void **state)
{
	static struct node C;
	struct sockaddr_in sa = { .sin_family = AF_INET };
	struct lnet_nid silent = nid4(4);
	struct lnet_handle_md h;
	struct op op = { 0 };
	u8 buf[16] = { 0 };
	int one = 1, lfd;
	u64 t0;

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	sa.sin_addr.s_addr = htonl(0x7f000004);
	sa.sin_port = htons(LNET_ACCEPTOR_PORT);
	assert_int_equal(bind(lfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(lfd, 8), 0);

	node_up(&C, 5, lookup_c);
	os_mutex_lock(&C.ln.ln_api_mutex);
	/*
	 * An IPv6 NI is the LND's too: its listener on an address this host
	 * does not have fails, and so does the NI (nothing kept).
	 */
	assert_int_equal(lnet_ni_add(&C.ln, LNET_NET_ID(LNET_LND_TCP, 1), "v6", NULL),
			 -EADDRNOTAVAIL);
	{
		static const u8 v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 5 };
		struct lnet_nid n6;

		lnet_nid_make(&n6, LNET_NET_ID(LNET_LND_TCP, 1), v6, 16);
		assert_null(lnet_ni_find(&C.ln, &n6));
	}
	assert_true(log_has(0, "socklnd: cannot listen on [2001:db8::5]:988: error -99"));
	{
		struct lnet_md md = { .start = buf, .length = sizeof(buf),
				      .threshold = LNET_MD_THRESH_INF,
				      .user_ptr = &op, .handler = handler };

		assert_int_equal(lnet_md_bind(&C.ln, &md, &h), 0);
	}
	assert_int_equal(lnet_put(&C.ln, NULL, h, false, &silent, LNET_PID_LUSTRE,
				  PT_SINK, 1, 0, sizeof(buf), 0), 0);
	os_mutex_unlock(&C.ln.ln_api_mutex);
	usleep(300000);
	t0 = os_now_ns();
	os_mutex_lock(&C.ln.ln_api_mutex);
	assert_int_equal(op.nsend, 0);		/* still waiting for the hello */
	assert_int_equal(lnet_unconfigure(&C.ln), 0);
	assert_int_equal(op.nsend, 1);
	assert_int_equal(op.send_status, -ENETDOWN);
	/* our side failed: LOCAL_ERROR */
	assert_int_equal(C.ln.ln_dp.dp_hstatus_count[LNET_MSG_STATUS_LOCAL_ERROR], 1);
	assert_int_equal(C.ln.ln_dp.dp_hstatus_count[LNET_MSG_STATUS_REMOTE_ERROR], 0);
	os_mutex_unlock(&C.ln.ln_api_mutex);
	assert_true(os_now_ns() - t0 < 2000000000ULL);
	lnet_fini(&C.ln);
	close(lfd);
	put_one(1000);
}

/* ---- two nets on one address ------------------------------------------------- */

#define TCP2		LNET_NET_ID(LNET_LND_TCP, 2)

static int lookup_d(const char *ifname, struct os_ifaddr *out)
{
	static const u8 d[4] = { 127, 0, 0, 7 };

	return lookup_for(d, ifname, out);
}

static int lookup_e(const char *ifname, struct os_ifaddr *out)
{
	static const u8 e[4] = { 127, 0, 0, 8 };

	return lookup_for(e, ifname, out);
}

/* An instance with a tcp and a tcp2 NI on one address (one listener). */
static void two_net_node(struct node *n, u8 last,
			 int (*lookup)(const char *, struct os_ifaddr *))
{
	node_up(n, last, lookup);
	os_mutex_lock(&n->ln.ln_api_mutex);
	assert_int_equal(lnet_ni_add(&n->ln, TCP2, "lo", NULL), 0);
	os_mutex_unlock(&n->ln.ln_api_mutex);
}

/* PUT 100 bytes E -> @dst (D's sink); wait for the ACK. */
static void put_to(struct node *e, const struct lnet_nid *dst)
{
	struct lnet_md md = {
		.start = pattern,
		.length = 100,
		.threshold = LNET_MD_THRESH_INF,
		.handler = handler,
	};
	struct lnet_handle_md h;
	struct op op = { 0 };

	md.user_ptr = &op;
	os_mutex_lock(&e->ln.ln_api_mutex);
	assert_int_equal(lnet_md_bind(&e->ln, &md, &h), 0);
	assert_int_equal(lnet_put(&e->ln, NULL, h, true, dst, LNET_PID_LUSTRE,
				  PT_SINK, 1, 0, 100, 0), 0);
	assert_true(wait_count(&e->ln, &op.nresp, 1));
	assert_int_equal(op.send_status, 0);
	assert_int_equal(op.resp_status, 0);
	lnet_md_unlink(&e->ln, h);
	os_mutex_unlock(&e->ln.ln_api_mutex);
}

static u64 recv_count(struct node *n, const struct lnet_nid *nid)
{
	struct lnet_ni *ni;
	u64 v;

	os_mutex_lock(&n->ln.ln_api_mutex);
	ni = lnet_ni_find(&n->ln, nid);
	assert_non_null(ni);
	v = lnet_counters_total(&ni->ni_counters, LNET_STATS_RECV);
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return v;
}

/* A connection to D's address for @dst: refused, with one log line. */
static void raw_unknown_nid(const struct lnet_nid *dst)
{
	struct sockaddr_in b = { .sin_family = AF_INET };
	struct lnet_acceptor_req r = {
		.acr_magic = LNET_PROTO_ACCEPTOR_MAGIC,
		.acr_version = LNET_PROTO_ACCEPTOR_VERSION,
		.acr_nid = *dst,
	};
	struct sockaddr_in a = { .sin_family = AF_INET };
	u8 buf[LNET_WIRE_ACCEPT_LEN];
	int fd = -1, one = 1;
	u16 port;

	b.sin_addr.s_addr = htonl(0x7f000007);
	b.sin_port = htons(LNET_ACCEPTOR_PORT);
	/* from a privileged port (accept=secure), below raw_connect's */
	for (port = 500; port > 400 && fd < 0; port--) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		assert_true(fd >= 0);
		assert_int_equal(setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)), 0);
		a.sin_port = htons(port);
		if (bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
		    connect(fd, (struct sockaddr *)&b, sizeof(b))) {
			assert_true(errno == EADDRINUSE || errno == EADDRNOTAVAIL);
			close(fd);
			fd = -1;
		}
	}
	assert_true(fd >= 0);
	assert_int_equal(lnet_acceptor_req_encode(&r, buf), 0);
	raw_write(fd, buf, sizeof(buf));
	assert_true(raw_closed(fd));
	close(fd);
}

/*
 * D has 127.0.0.7@tcp and 127.0.0.7@tcp2 (one listener on 127.0.0.7:988);
 * E reaches each NID: every message arrives on the NI it names.
 */
static void test_two_nets_one_address(void **state)
{
	struct node *d = calloc(1, sizeof(*d)), *e = calloc(1, sizeof(*e));
	struct lnet_md md = {
		.start = sink,
		.length = LNET_MTU,
		.threshold = LNET_MD_THRESH_INF,
		.options = LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE,
		.handler = handler,
	};
	struct lnet_nid d1 = nid4(7), d2 = nid4(7), unknown = nid4(7), any = { 0 };
	struct lnet_handle_md h;
	struct op dop = { 0 };
	u64 r1, r2;

	assert_true(d && e);
	d2.nid_netnum = 2;
	unknown.nid_netnum = 9;
	two_net_node(d, 7, lookup_d);
	two_net_node(e, 8, lookup_e);
	md.user_ptr = &dop;
	os_mutex_lock(&d->ln.ln_api_mutex);
	assert_int_equal(lnet_me_attach_md(&d->ln, PT_SINK, &any, LNET_PID_ANY, 1, 0,
					   true, &md, &h), 0);
	os_mutex_unlock(&d->ln.ln_api_mutex);
	r1 = recv_count(d, &d1);
	r2 = recv_count(d, &d2);

	put_to(e, &d1);
	assert_int_equal(recv_count(d, &d1), r1 + 1);
	assert_int_equal(recv_count(d, &d2), r2);
	put_to(e, &d2);
	put_to(e, &d2);
	assert_int_equal(recv_count(d, &d1), r1 + 1);
	assert_int_equal(recv_count(d, &d2), r2 + 2);
	os_mutex_lock(&d->ln.ln_api_mutex);
	assert_int_equal(dop.nput, 3);
	os_mutex_unlock(&d->ln.ln_api_mutex);

	raw_unknown_nid(&unknown);
	assert_true(log_has(0, "refusing the connection: it is for 127.0.0.7@tcp9, not for our 127.0.0.7@tcp, 127.0.0.7@tcp2"));
	lnet_fini(&e->ln);
	lnet_fini(&d->ln);
	free(d);
	free(e);
	put_one(100);
}

/* A send to a NID where nobody listens fails with an error event. */
static void test_connect_refused(void **state)
{
	struct lnet_nid nobody = nid4(6);
	struct lnet_peer_ni *lpni;
	struct lnet_handle_md h;
	struct op op = { 0 };
	u64 remote;

	os_mutex_lock(&A.ln.ln_api_mutex);
	remote = A.ln.ln_dp.dp_hstatus_count[LNET_MSG_STATUS_REMOTE_ERROR];
	assert_int_equal(lnet_global_set(&A.ln, LNET_GLOBAL_RETRY_COUNT, 0), 0);
	h = a_bind(pattern, 100, &op);
	assert_int_equal(lnet_put(&A.ln, NULL, h, true, &nobody, LNET_PID_LUSTRE,
				  PT_SINK, 1, 0, 100, 0), 0);
	assert_true(wait_count(&A.ln, &op.nsend, 1));
	assert_int_equal(op.send_status, -ECONNREFUSED);
	/* the peer's side failed: REMOTE_ERROR, on its peer NI */
	lpni = lnet_peer_ni_find(&A.ln, &nobody);
	assert_non_null(lpni);
	assert_int_equal(lpni->lpni_health.lh_fail[LNET_MSG_STATUS_REMOTE_ERROR], 1);
	assert_int_equal(A.ln.ln_dp.dp_hstatus_count[LNET_MSG_STATUS_REMOTE_ERROR],
			 remote + 1);
	lnet_md_unlink(&A.ln, h);
	os_mutex_unlock(&A.ln.ln_api_mutex);
	assert_true(log_has(0, "127.0.0.6:988 (127.0.0.6@tcp): cannot connect: connect failed: error -111"));
	put_one(100);
}


/* ---- connections per peer ------------------------------------------------------ */

/* Lustre's rule for conns_per_peer 0 / unset, by link speed in Mb/s. */
static void test_conns_per_peer_rule(void **state)
{
	static const struct { u32 mbps; s32 cpp; } rows[] = {
		{ 0, 1 }, { 100, 1 }, { 1000, 1 }, { 2500, 1 }, { 3999, 1 },
		{ 4000, 2 }, { 10000, 2 }, { 15999, 2 }, { 16000, 3 }, { 25000, 3 },
		{ 40000, 3 }, { 64000, 4 }, { 100000, 4 }, { 200000, 4 },
		{ 256000, 5 }, { 400000, 5 },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (lnet_conns_per_peer_for_speed(rows[i].mbps) != rows[i].cpp)
			fail_msg("%u Mb/s: %d connections, expected %d", rows[i].mbps,
				 lnet_conns_per_peer_for_speed(rows[i].mbps), rows[i].cpp);
	}
}

/*
 * Which connection of a kind carries a send: the fewest bytes queued,
 * then one the sending thread schedules, then round robin; CONTROL
 * messages never go on a bulk connection.
 */
static void test_conn_pick(void **state)
{
	struct ksock_net net = { .n_conns_per_peer = 3 };
	struct ksock_peer peer = { .p_net = &net };
	struct ksock_conn c[4];
	struct ksock_tx big = { .tx_nob = 5000 }, small = { .tx_nob = 100 };
	static struct ksock_sched other, mine;	/* large: not on the stack */
	int i;

	INIT_LIST_HEAD(&peer.p_conns);
	memset(c, 0, sizeof(c));
	for (i = 0; i < 4; i++) {
		c[i].c_sched = &other;
		c[i].c_kind = i ? SOCKLND_CONN_BULK_OUT : SOCKLND_CONN_CONTROL;
		INIT_LIST_HEAD(&c[i].c_txq);
		list_add_tail(&c[i].c_list, &peer.p_conns);
	}
	assert_true(ksock_peer_short(&peer, SOCKLND_CONN_BULK_IN));	/* none */
	assert_false(ksock_peer_short(&peer, SOCKLND_CONN_BULK_OUT));	/* 3 of 3 */
	assert_false(ksock_peer_short(&peer, SOCKLND_CONN_CONTROL));
	assert_int_equal(ksock_peer_conn_count(&peer, SOCKLND_CONN_BULK_OUT), 3);
	assert_int_equal(ksock_peer_conns_wanted(&peer, SOCKLND_CONN_CONTROL), 1);
	assert_int_equal(ksock_peer_conns_wanted(&peer, SOCKLND_CONN_BULK_IN), 3);
	/* all empty: each in turn */
	assert_ptr_equal(ksock_peer_conn(&peer, SOCKLND_CONN_BULK_OUT), &c[1]);
	assert_ptr_equal(ksock_peer_conn(&peer, SOCKLND_CONN_BULK_OUT), &c[2]);
	assert_ptr_equal(ksock_peer_conn(&peer, SOCKLND_CONN_BULK_OUT), &c[3]);
	assert_ptr_equal(ksock_peer_conn(&peer, SOCKLND_CONN_BULK_OUT), &c[1]);
	assert_ptr_equal(ksock_peer_conn(&peer, SOCKLND_CONN_CONTROL), &c[0]);
	assert_ptr_equal(ksock_peer_conn(&peer, SOCKLND_CONN_BULK_IN), NULL);
	/* c[2] holds 5000 bytes, c[3] 100: c[1], the empty one, every time */
	list_add_tail(&big.tx_list, &c[2].c_txq);
	list_add_tail(&small.tx_list, &c[3].c_txq);
	assert_ptr_equal(ksock_peer_conn(&peer, SOCKLND_CONN_BULK_OUT), &c[1]);
	assert_ptr_equal(ksock_peer_conn(&peer, SOCKLND_CONN_BULK_OUT), &c[1]);
	list_del(&small.tx_list);	/* c[1], c[3] empty: the one chosen longer ago */
	assert_ptr_equal(ksock_peer_conn(&peer, SOCKLND_CONN_BULK_OUT), &c[3]);
	assert_ptr_equal(ksock_peer_conn(&peer, SOCKLND_CONN_BULK_OUT), &c[1]);
	c[1].c_closing = true;		/* closing: never chosen */
	assert_ptr_equal(ksock_peer_conn(&peer, SOCKLND_CONN_BULK_OUT), &c[3]);
	assert_ptr_equal(ksock_peer_conn(&peer, SOCKLND_CONN_BULK_OUT), &c[3]);
	assert_int_equal(ksock_peer_conn_count(&peer, SOCKLND_CONN_BULK_OUT), 2);
	list_del(&big.tx_list);
	/*
	 * c[2] is scheduled by this thread (as if it were its scheduler):
	 * among empty ones it wins every time, a fuller one never does.
	 */
	c[1].c_closing = false;
	mine.s_thread.started = true;
	mine.s_thread.t = pthread_self();
	c[2].c_sched = &mine;
	assert_ptr_equal(ksock_peer_conn(&peer, SOCKLND_CONN_BULK_OUT), &c[2]);
	assert_ptr_equal(ksock_peer_conn(&peer, SOCKLND_CONN_BULK_OUT), &c[2]);
	list_add_tail(&small.tx_list, &c[2].c_txq);
	assert_ptr_equal(ksock_peer_conn(&peer, SOCKLND_CONN_BULK_OUT), &c[1]);
	assert_ptr_equal(ksock_peer_conn(&peer, SOCKLND_CONN_BULK_OUT), &c[3]);
	list_del(&small.tx_list);
}

/* @self's open connections to @peer of each kind, counted into @n[4]. */
static void kinds_of(struct node *self, struct node *peer, int n[4])
{
	struct conn_view v[32];
	int i, k = conns_of(self, peer, v, 32);

	memset(n, 0, 4 * sizeof(int));
	for (i = 0; i < k; i++)
		n[v[i].kind]++;
}

/* Wait until A holds @want[4] connections of each kind to B (top-ups are async). */
static bool a_kinds_become(const int want[4])
{
	u64 deadline = os_now_ns() + WAIT_NS;
	int n[4];

	for (;;) {
		kinds_of(&A, &B, n);
		if (!memcmp(n, want, sizeof(n)))
			return true;
		if (os_now_ns() >= deadline)
			return false;
		usleep(20000);
	}
}

/* `net set` of one LND tunable @row to @v on @n's NI. */
static void set_lnd(struct node *n, u32 row, s32 v)
{
	struct lnet_sock_tunables t;

	lnet_sock_tunables_unset(&t);
	*lnet_sock_tun_ref(&t, row) = v;
	os_mutex_lock(&n->ln.ln_api_mutex);
	assert_int_equal(lnet_ni_lnd_set(&n->ln, 0, &n->nid, &t, LNET_NI_LND_ROW(row)), 0);
	os_mutex_unlock(&n->ln.ln_api_mutex);
}

static void a_set_conns_per_peer(s32 cpp)
{
	set_lnd(&A, LNET_SOCK_CONNS_PER_PEER, cpp);
}

/* @n PUTs of LNET_MTU bytes A -> B's sink at once, each ACKed, the bytes intact. */
static void put_burst(int n)
{
	struct op ops[16];
	struct lnet_handle_md h[16];
	int i;

	assert_true(n <= 16);
	memset(ops, 0, sizeof(ops));
	memset(sink, 0, LNET_MTU);
	os_mutex_lock(&A.ln.ln_api_mutex);
	for (i = 0; i < n; i++) {
		h[i] = a_bind(pattern, LNET_MTU, &ops[i]);
		assert_int_equal(lnet_put(&A.ln, NULL, h[i], true, &B.nid, LNET_PID_LUSTRE,
					  PT_SINK, 1, 0, LNET_MTU, 0), 0);
	}
	for (i = 0; i < n; i++) {
		assert_true(wait_count(&A.ln, &ops[i].nresp, 1));
		assert_int_equal(ops[i].send_status, 0);
		assert_int_equal(ops[i].resp_status, 0);
		assert_int_equal(ops[i].resp_mlength, LNET_MTU);
		lnet_md_unlink(&A.ln, h[i]);
	}
	os_mutex_unlock(&A.ln.ln_api_mutex);
	assert_memory_equal(sink, pattern, LNET_MTU);
}

/*
 * conns_per_peer 3 on A (B keeps 1): A's next sends open two more
 * BULK_IN and BULK_OUT connections (CONTROL stays one), B accepts them
 * all (the mirror kinds), and a burst of PUTs goes over every BULK_OUT
 * connection, intact. Back to 1: the connections there stay (the value
 * applies to new connections).
 */
static void test_conns_per_peer(void **state)
{
	static const int three[4] = { [SOCKLND_CONN_CONTROL] = 1,
		[SOCKLND_CONN_BULK_IN] = 3, [SOCKLND_CONN_BULK_OUT] = 3 };
	struct conn_view v[32];
	int nb[4], i, n, used = 0, tos_a[256] = { 0 }, tos_b[256] = { 0 };
	u64 before = 0;

	/* the connections opened from now on carry each side's tos */
	set_lnd(&A, LNET_SOCK_TOS, 0x48);
	set_lnd(&B, LNET_SOCK_TOS, 0x20);
	a_set_conns_per_peer(3);
	put_one(LNET_MTU);
	assert_true(a_kinds_become(three));
	kinds_of(&B, &A, nb);
	assert_int_equal(nb[SOCKLND_CONN_CONTROL], 1);
	assert_int_equal(nb[SOCKLND_CONN_BULK_IN], 3);
	assert_int_equal(nb[SOCKLND_CONN_BULK_OUT], 3);
	n = conns_of(&A, &B, v, 32);
	for (i = 0; i < n; i++)		/* the last send chosen before the burst */
		before = v[i].picked > before ? v[i].picked : before;
	for (i = 0; i < n; i++)
		tos_a[v[i].tos & 0xff]++;
	assert_int_equal(tos_a[0x48], 4);	/* the four new ones; three old ones keep 0 */
	assert_int_equal(tos_a[0], 3);
	n = conns_of(&B, &A, v, 32);
	for (i = 0; i < n; i++)
		tos_b[v[i].tos & 0xff]++;
	assert_int_equal(tos_b[0x20], 4);	/* B's side: its own tos, set on accept */
	assert_int_equal(tos_b[0], 3);
	set_lnd(&A, LNET_SOCK_TOS, -1);
	set_lnd(&B, LNET_SOCK_TOS, -1);
	put_burst(12);
	n = conns_of(&A, &B, v, 32);
	for (i = 0; i < n; i++)
		used += v[i].kind == SOCKLND_CONN_BULK_OUT && v[i].picked > before;
	assert_int_equal(used, 3);
	a_set_conns_per_peer(1);
	put_one(LNET_MTU);
	assert_true(a_kinds_become(three));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_put_sizes, log_mark),
		cmocka_unit_test_setup(test_get_sizes, log_mark),
		cmocka_unit_test_setup(test_many_in_flight, log_mark),
		cmocka_unit_test_setup(test_connection_kinds, log_mark),
		cmocka_unit_test_setup(test_hostile_handshakes, log_mark),
		cmocka_unit_test_setup(test_stalled_handshakes, log_mark),
		cmocka_unit_test_setup(test_handshake_limit, log_mark),
		cmocka_unit_test_setup(test_hostile_messages, log_mark),
		cmocka_unit_test_setup(test_any_noop_put_ack, log_mark),
		cmocka_unit_test_setup(test_burst_then_close, log_mark),
		cmocka_unit_test_setup(test_tx_timeout, log_mark),
		cmocka_unit_test_setup(test_stalled_connections, log_mark),
		cmocka_unit_test_setup(test_busy_poll, log_mark),
		cmocka_unit_test(test_zc_merge),
		cmocka_unit_test_setup(test_zc_ack, log_mark),
		cmocka_unit_test_setup(test_zc_req, log_mark),
		cmocka_unit_test_setup(test_connect_refused, log_mark),
		cmocka_unit_test_setup(test_two_nets_one_address, log_mark),
		cmocka_unit_test_setup(test_conns_per_peer_rule, log_mark),
		cmocka_unit_test_setup(test_conn_pick, log_mark),
		cmocka_unit_test_setup(test_conns_per_peer, log_mark),
		cmocka_unit_test_setup(test_shutdown_fails_waiting, log_mark),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
