// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the socket LND's receive state machine (socklnd_sched.c: header
 * gathering, NOOPs, lnet_parse, payload into the MD, slop, ZC-ACKs) with
 * the bytes a peer could send on an established connection, after its
 * hello. The instance is built once: 10.0.0.1@tcp (V3, 96-byte headers)
 * and [2001:db8::1]@tcp1 (V4, 120-byte headers), a match entry on portal
 * 4 that takes any PUT or GET (at the offset the header asks, truncated
 * to its 64 KiB), and the socket LND itself but for its
 * startup, which makes each NI's state without the shared threads and
 * the listener: the harness is the scheduler. Each input gets a
 * connection of its own, one end of a socketpair attached as the peer's
 * (ksock_conn_attach), and ksock_scheduler() runs one round on the
 * calling thread (ks_stop is set) after each piece written, then after
 * the end of the stream, until the connection closed.
 *
 * The first byte of an input picks the NI (bit 0: the V4 one) and how the
 * stream is cut (the other bits: 0 for one piece, else a seed for pieces
 * of 1 byte up to 4 KiB); the rest is the stream. Afterwards everything
 * is as before the input: no connection, nothing queued to send or on a
 * scheduler's lists, no peer waiting for the connd, no message of the
 * core's alive, and as many of the core's objects as before (once the
 * peers that traffic made are counted in). Any breach aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/socket.h>

#include "../../kernel/core/lnet_priv.h"
#include "../../kernel/core/ping_priv.h"
#include "../../kernel/builtin/builtin.h"
#include "../../kernel/lnd/socklnd/socklnd_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define TCP(n)		LNET_NET_ID(LNET_LND_TCP, n)
#define PORTAL		4
#define ROUNDS_MAX	64	/* scheduler rounds after the end of the stream */
#define PEERS_MAX	64	/* peer NIs traffic may make before a rebuild */
#define RESENDS_MAX	8	/* above retry_count (2: the default) */

static void must(bool ok)
{
	if (!ok)
		abort();
}

static const u8 v4_ours[4] = { 10, 0, 0, 1 }, v4_peer[4] = { 10, 0, 0, 2 };
static const u8 v6_ours[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
static const u8 v6_peer[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };

static int fake_if_lookup(const char *ifname, struct os_ifaddr *out)
{
	memset(out, 0, sizeof(*out));
	out->up = true;
	if (!strcmp(ifname, "eth0")) {
		out->has4 = true;
		memcpy(out->addr4, v4_ours, 4);
	} else if (!strcmp(ifname, "eth6")) {
		out->has6 = true;
		memcpy(out->addr6, v6_ours, 16);
	} else {
		return -ENODEV;
	}
	os_ifaddr_pick(out);
	return 0;
}

/*
 * ksock_startup() without the shared threads and the listener: the NI's
 * state, on ks_nets. The rest of the LND is the real one (fake_lnd).
 */
static int fake_startup(struct lnet *ln, struct lnet_ni *ni)
{
	struct ksock_net *net = os_zalloc(sizeof(*net));

	if (!net)
		return -ENOMEM;
	net->n_ln = ln;
	net->n_ni = ni;
	net->n_nid = ni->ni_nid;
	net->n_version = ksock_nid_version(&ni->ni_nid);
	net->n_hdr_len = (u32)lnet_msg_hdr_size(net->n_version);
	net->n_incarnation = ln->ln_dp.dp_incarnation;
	net->n_timeout_ns = lnet_ni_lnd_timeout_ns(ln, ni);
	net->n_conns_per_peer = 1;
	net->n_port = LNET_ACCEPTOR_PORT;
	INIT_LIST_HEAD(&net->n_peers);
	os_mutex_lock(&ks.ks_lock);
	list_add_tail(&net->n_list, &ks.ks_nets);
	ks.ks_nnets++;
	os_mutex_unlock(&ks.ks_lock);
	ni->ni_lnd_data = net;
	return 0;
}

static struct lnet_lnd fake_lnd;

static struct {
	struct lnet ln;
	bool up;
	struct ksock_net *net[2];	/* V3, V4 */
	struct lnet_nid peer[2];	/* the connections' other end */
	s64 nobjects;			/* the core's objects after an input... */
	u32 npeer_nis;			/* ...with this many peer NIs */
} w;

/* The schedulers' poll sets, for good: their threads never start. */
static void scheds_init(void)
{
	static bool done;
	int i;

	if (done)
		return;
	for (i = 0; i < KSOCK_NSCHED; i++) {
		INIT_LIST_HEAD(&ks.ks_sched[i].s_ready);
		INIT_LIST_HEAD(&ks.ks_sched[i].s_acking);
		must(!os_pollset_create(&ks.ks_sched[i].s_ps));
	}
	/* one round per ksock_scheduler() call */
	ks.ks_stop = true;
	done = true;
}

static void world_init(void)
{
	static u8 sink[65536];
	struct lnet *ln = &w.ln;
	struct lnet_md md = {
		.start = sink, .length = sizeof(sink), .threshold = LNET_MD_THRESH_INF,
		/* the offset is the header's: the MD never changes */
		.options = LNET_MD_OP_PUT | LNET_MD_OP_GET | LNET_MD_TRUNCATE |
			   LNET_MD_MANAGE_REMOTE,
	};
	struct lnet_nid any = { 0 }, nid;
	struct lnet_handle_md h;
	int i;

	if (!os_log_file)
		os_log_file = fopen("/dev/null", "w");
	fake_lnd = lnet_socklnd;
	fake_lnd.lnd_startup = fake_startup;
	lnet_init(ln);
	must(!lnet_builtin_register(ln));
	must(!lnet_lnd_register(ln, &fake_lnd));
	/* sets up the LND's shared state; tcp is fake_lnd's already */
	must(lnet_socklnd_register(ln) == -EEXIST);
	scheds_init();
	ln->ln_if_lookup = fake_if_lookup;
	lnet_nid_make(&w.peer[0], TCP(0), v4_peer, 4);
	lnet_nid_make(&w.peer[1], TCP(1), v6_peer, 16);
	os_mutex_lock(&ln->ln_api_mutex);
	must(!lnet_configure(ln));
	/* nothing timed changes the instance between inputs */
	must(!lnet_global_set(ln, LNET_GLOBAL_HEALTH_SENSITIVITY, 0));
	must(!lnet_global_set(ln, LNET_GLOBAL_ALIVE_ROUTER_CHECK_INTERVAL, 0));
	must(!lnet_global_set(ln, LNET_GLOBAL_DISCOVERY, 0));
	must(!lnet_global_set(ln, LNET_GLOBAL_TRANSACTION_TIMEOUT, 86400));
	must(!lnet_ni_add(ln, TCP(0), "eth0", NULL));
	must(!lnet_ni_add(ln, TCP(1), "eth6", NULL));
	for (i = 0; i < 2; i++)
		must(!lnet_peer_ni_add(ln, &w.peer[i], &w.peer[i], 0));
	must(!lnet_me_attach_md(ln, PORTAL, &any, LNET_PID_ANY, 0, ~0ULL, true, &md, &h));
	for (i = 0; i < 2; i++) {
		if (i)
			lnet_nid_make(&nid, TCP(1), v6_ours, 16);
		else
			lnet_nid_make(&nid, TCP(0), v4_ours, 4);
		w.net[i] = lnet_ni_find(ln, &nid)->ni_lnd_data;
		must(w.net[i] && w.net[i]->n_hdr_len ==
		     (i ? LNET_WIRE_MSG_HDR16_LEN : LNET_WIRE_MSG_HDR_LEN));
	}
	w.nobjects = ln->ln_nobjects;
	w.npeer_nis = ln->ln_npeer_nis;
	os_mutex_unlock(&ln->ln_api_mutex);
	w.up = true;
}

static void world_fini(void)
{
	lnet_fini(&w.ln);
	must(w.ln.ln_nobjects == 0);
	os_mutex_lock(&ks.ks_lock);
	must(list_empty(&ks.ks_nets) && !ks.ks_nnets);
	os_mutex_unlock(&ks.ks_lock);
	w.up = false;
}

/* With ks_lock held: @net's connection, NULL once it closed. */
static struct ksock_conn *conn_of(struct ksock_net *net, const struct lnet_nid *peer)
{
	struct ksock_peer *p = ksock_peer_find(net, peer);

	if (!net->n_nconns || !p || list_empty(&p->p_conns))
		return NULL;
	return list_first_entry(&p->p_conns, struct ksock_conn, c_list);
}

/*
 * One scheduler round for @net's connection, asked to read (to the end of
 * the stream with @eof), or to close with @close. False once it is gone.
 */
static bool sched_round(struct ksock_net *net, const struct lnet_nid *peer, bool eof,
			bool close)
{
	struct ksock_conn *conn;
	struct ksock_sched *s;
	bool woken;

	os_mutex_lock(&ks.ks_lock);
	conn = conn_of(net, peer);
	/* scheduling an idle connection wakes its scheduler */
	woken = conn && !conn->c_ready_flags;
	if (conn && close)
		ksock_conn_close_req(conn, "the fuzz input is over",
				     LNET_MSG_STATUS_LOCAL_ERROR);
	else if (conn)
		ksock_conn_schedule(conn, KSOCK_DO_RX | (eof ? KSOCK_DO_RX_ALL : 0));
	s = conn ? conn->c_sched : NULL;
	os_mutex_unlock(&ks.ks_lock);
	if (!s)
		return false;
	if (!woken)
		os_pollset_wake(s->s_ps);
	ksock_scheduler(s);
	return true;
}

/* Bytes of the next piece: all that is left, or a size from the seed. */
static size_t piece(u32 *seed, size_t left)
{
	static const size_t sizes[] = { 1, 2, 3, 7, 8, 23, 24, 25, 95, 96, 97, 119,
					120, 121, 1000, 4095, 4096 };
	size_t k;

	if (!*seed)
		return left;
	*seed ^= *seed << 13;
	*seed ^= *seed >> 17;
	*seed ^= *seed << 5;
	k = sizes[*seed % (sizeof(sizes) / sizeof(sizes[0]))];
	return k < left ? k : left;
}

/* The stream through a new connection of @net, until the LND closes it. */
static void feed(struct ksock_net *net, const struct lnet_nid *peer,
		 const u8 *s, size_t len, u32 seed)
{
	struct os_sock *sock;
	size_t off = 0;
	int sv[2], i, stuck = 0;
	ssize_t n;

	must(!socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv));
	must(!os_sock_from_fd(sv[0], &sock));
	must(!ksock_conn_attach(net, sock, "fuzz", peer, 1, SOCKLND_CONN_ANY));
	/* a full socket the LND does not read from is given up on */
	while (off < len && stuck < ROUNDS_MAX) {
		n = send(sv[1], s + off, piece(&seed, len - off), MSG_NOSIGNAL);
		must(n > 0 || errno == EAGAIN || errno == EPIPE);
		if (n > 0)
			off += (size_t)n;
		stuck = n > 0 ? 0 : stuck + 1;
		/* the last piece is read with the end of the stream */
		if (off < len && !sched_round(net, peer, false, false))
			break;
	}
	shutdown(sv[1], SHUT_WR);
	for (i = 0; i < ROUNDS_MAX && sched_round(net, peer, true, false); i++)
		;
	/* still open: a header the core holds (it never should here) */
	if (sched_round(net, peer, false, true))
		must(!sched_round(net, peer, false, false));
	close(sv[1]);
}

/*
 * What the connd would do with what the input left: messages for peers
 * without a connection fail (as at shutdown), peer states are not told.
 * The core resends a failed message (up to retry_count times), to the
 * same peers: again until none is left.
 */
static void lnd_reset(void)
{
	struct ksock_peer *p;
	bool more = true;
	int i, n;

	for (n = 0; more; n++) {
		must(n <= RESENDS_MAX);
		more = false;
		for (i = 0; i < 2; i++) {
			LIST_HEAD(txs);

			os_mutex_lock(&ks.ks_lock);
			must(!w.net[i]->n_nconns && !w.net[i]->n_refs);
			list_for_each_entry(p, &w.net[i]->n_peers, p_list) {
				must(list_empty(&p->p_conns));
				ksock_list_splice_init(&p->p_txq, &txs);
				if (p->p_connecting) {
					list_del_init(&p->p_connd);
					p->p_connecting = false;
				}
				list_del_init(&p->p_notify);
			}
			os_mutex_unlock(&ks.ks_lock);
			more |= !list_empty(&txs);
			ksock_txs_finalize(w.net[i], &txs, LNET_MSG_STATUS_LOCAL_ERROR,
					   -ENETDOWN);
		}
	}
}

static void check_idle(void)
{
	struct lnet *ln = &w.ln;
	struct ksock_peer *p;
	int i;

	os_mutex_lock(&ks.ks_lock);
	must(list_empty(&ks.ks_connd_peers) && list_empty(&ks.ks_notifyq) &&
	     list_empty(&ks.ks_connd_accs));
	for (i = 0; i < KSOCK_NSCHED; i++)
		must(list_empty(&ks.ks_sched[i].s_ready) &&
		     list_empty(&ks.ks_sched[i].s_acking));
	for (i = 0; i < 2; i++) {
		must(!w.net[i]->n_nconns);
		list_for_each_entry(p, &w.net[i]->n_peers, p_list)
			must(list_empty(&p->p_conns) && list_empty(&p->p_txq) &&
			     !p->p_connecting);
	}
	os_mutex_unlock(&ks.ks_lock);
	os_mutex_lock(&ln->ln_api_mutex);
	/* a PUT to our push target waits for the monitor: merged now */
	lnet_push_process(ln);
	must(list_empty(&ln->ln_dp.dp_msgs));
	/* the same objects, but for the peers traffic made */
	if (ln->ln_npeer_nis == w.npeer_nis)
		must(ln->ln_nobjects == w.nobjects);
	w.nobjects = ln->ln_nobjects;
	w.npeer_nis = ln->ln_npeer_nis;
	os_mutex_unlock(&ln->ln_api_mutex);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int v;

	if (!size)
		return 0;
	if (!w.up)
		world_init();
	v = data[0] & 1;
	feed(w.net[v], &w.peer[v], data + 1, size - 1,
	     (data[0] >> 1) ? 0x9e3779b9U * (data[0] >> 1) : 0);
	lnd_reset();
	check_idle();
	if (w.ln.ln_npeer_nis > PEERS_MAX)
		world_fini();
	return 0;
}
