/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The world of the socket LND harnesses (fuzz_socklnd_rx.c,
 * fuzz_socklnd_accept.c), built once per process: an instance with
 * 10.0.0.1@tcp (V3) and [2001:db8::1]@tcp1 (V4), a peer NI on each
 * (10.0.0.2@tcp, [2001:db8::2]@tcp1), a match entry on portal 4 taking any
 * PUT or GET, and the socket LND but for its startup (fake_startup: each
 * NI's state, on a listener of the harness's that no thread serves, and
 * no shared thread: the harness is the scheduler and the acceptor). Then
 * what each input needs: a scheduler round, the connd's work on what an
 * input left, and the check that everything is as before. Static
 * functions in a header: each harness is a program of its own.
 */
#ifndef FUZZ_SOCKLND_WORLD_H
#define FUZZ_SOCKLND_WORLD_H

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/socket.h>

#include "../../kernel/core/lnet_priv.h"
#include "../../kernel/core/ping_priv.h"
#include "../../kernel/builtin/builtin.h"
#include "../../kernel/lnd/socklnd/socklnd_priv.h"

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

/*
 * The listener of both NIs: a poll set for the handshakes, no socket, no
 * thread. Its references never drop to 0 (ksock_shutdown leaves it).
 */
static struct ksock_listener fake_listener = { .l_refs = 1U << 30 };

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
	net->n_listener = &fake_listener;
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
		must(!ksock_sched_init(&ks.ks_sched[i]));
	}
	must(!os_pollset_create(&fake_listener.l_ps));
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

/*
 * With ks_lock held: @net's connection with @peer (NULL: with any peer),
 * NULL once it closed.
 */
static struct ksock_conn *conn_of(struct ksock_net *net, const struct lnet_nid *peer)
{
	struct ksock_peer *p;

	if (!net->n_nconns)
		return NULL;
	if (peer) {
		p = ksock_peer_find(net, peer);
		return p && !list_empty(&p->p_conns) ?
		       list_first_entry(&p->p_conns, struct ksock_conn, c_list) : NULL;
	}
	list_for_each_entry(p, &net->n_peers, p_list)
		if (!list_empty(&p->p_conns))
			return list_first_entry(&p->p_conns, struct ksock_conn, c_list);
	return NULL;
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

/* The core's messages alive now. */
static int msgs_alive(void)
{
	struct lnet_msg *m;
	int n = 0;

	os_mutex_lock(&w.ln.ln_api_mutex);
	list_for_each_entry(m, &w.ln.ln_dp.dp_msgs, msg_all)
		n++;
	os_mutex_unlock(&w.ln.ln_api_mutex);
	return n;
}

/*
 * What the connd would do with what the input left: messages for peers
 * without a connection fail (as at shutdown), peer states are not told.
 * The core resends a failed message (up to retry_count times), to the
 * same peers, and a failure hands its peer credit to a message waiting
 * for one: again until none is left. Each round fails at least one of
 * the messages alive at the start or one of their resends.
 */
static void lnd_reset(void)
{
	int i, n, rounds = RESENDS_MAX + msgs_alive();
	struct ksock_peer *p;
	bool more = true;

	for (n = 0; more; n++) {
		must(n <= rounds);
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
		     list_empty(&ks.ks_sched[i].s_acking) &&
		     list_empty(&ks.ks_sched[i].s_deferred) &&
		     !ks.ks_sched[i].s_rx_streaming);
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


#endif /* FUZZ_SOCKLND_WORLD_H */
