// SPDX-License-Identifier: GPL-2.0-only
/*
 * The socket LND: its operations (startup, shutdown, send, recv, query,
 * notify, accept), peers, and the shared threads' lifetime. Connection
 * setup is in socklnd_conn.c, socket I/O in socklnd_sched.c.
 */
#include "socklnd_priv.h"

struct ksock_global ks;

void ksock_addr_name(const struct os_sockaddr *addr, u16 port, char *buf, size_t len)
{
	if (lnet_ip_print(addr->sa_addr, addr->sa_len, port, buf, len) < 0)
		snprintf(buf, len, "?:%u", port);
}

/* @nid's address (IPv4 or IPv6) as a socket address. */
void ksock_nid_addr(const struct lnet_nid *nid, struct os_sockaddr *sa)
{
	os_sockaddr_make(sa, nid->nid_addr, nid->nid_addr_len);
}

struct ksock_peer *ksock_peer_find(struct ksock_net *net, const struct lnet_nid *nid)
{
	struct ksock_peer *peer;

	list_for_each_entry(peer, &net->n_peers, p_list)
		if (lnet_nid_equal(&peer->p_nid, nid))
			return peer;
	return NULL;
}

/* With ks_lock held. NULL when out of memory. */
struct ksock_peer *ksock_peer_find_or_create(struct ksock_net *net,
					     const struct lnet_nid *nid)
{
	struct ksock_peer *peer = ksock_peer_find(net, nid);

	if (peer)
		return peer;
	peer = os_zalloc(sizeof(*peer));
	if (!peer)
		return NULL;
	peer->p_net = net;
	peer->p_nid = *nid;
	INIT_LIST_HEAD(&peer->p_conns);
	INIT_LIST_HEAD(&peer->p_txq);
	INIT_LIST_HEAD(&peer->p_connd);
	INIT_LIST_HEAD(&peer->p_notify);
	list_add_tail(&peer->p_list, &net->n_peers);
	return peer;
}

/* Bytes of the messages queued on @conn (whole messages: a cheap, stable measure). */
static u64 ksock_conn_queued(const struct ksock_conn *conn)
{
	const struct ksock_tx *tx;
	u64 nob = 0;

	list_for_each_entry(tx, &conn->c_txq, tx_list)
		nob += tx->tx_nob;
	return nob;
}

/*
 * Should @c carry the next send rather than @best? Fewer queued bytes;
 * among equals, one the calling thread schedules (a send started from a
 * scheduler's own receive path, e.g. the next message after an ACK, is
 * then written by that thread without waking another); then round robin.
 */
static bool ksock_conn_better(const struct ksock_conn *c, u64 c_queued,
			      const struct ksock_conn *best, u64 best_queued)
{
	bool c_mine, best_mine;

	if (!best)
		return true;
	if (c_queued != best_queued)
		return c_queued < best_queued;
	c_mine = os_thread_is_current(&c->c_sched->s_thread);
	best_mine = os_thread_is_current(&best->c_sched->s_thread);
	if (c_mine != best_mine)
		return c_mine;
	return c->c_picked < best->c_picked;
}

/*
 * The open connection of @kind for a send (with ks_lock held): of the
 * conns_per_peer of that kind, the one with the fewest bytes queued, and
 * among equals the one chosen longest ago; else one of kind ANY (peers
 * without typed connections send everything on those), or NULL.
 */
struct ksock_conn *ksock_peer_conn(struct ksock_peer *peer, int kind)
{
	struct ksock_conn *conn, *best = NULL, *any = NULL;
	u64 q, best_q = 0;

	list_for_each_entry(conn, &peer->p_conns, c_list) {
		if (conn->c_closing)
			continue;
		if (conn->c_kind == SOCKLND_CONN_ANY && !any)
			any = conn;
		if (conn->c_kind != kind)
			continue;
		q = ksock_conn_queued(conn);
		if (ksock_conn_better(conn, q, best, best_q)) {
			best = conn;
			best_q = q;
		}
	}
	if (!best)
		best = any;
	if (best)
		best->c_picked = ++peer->p_picks;
	return best;
}

/* With ks_lock held: @peer's open connections of @kind (ANY counts for every kind). */
u32 ksock_peer_conn_count(struct ksock_peer *peer, int kind)
{
	struct ksock_conn *conn;
	u32 n = 0;

	list_for_each_entry(conn, &peer->p_conns, c_list)
		if (!conn->c_closing &&
		    (conn->c_kind == kind || conn->c_kind == SOCKLND_CONN_ANY))
			n++;
	return n;
}

/* How many connections of @kind we open to @peer: one CONTROL, conns_per_peer of a bulk kind. */
u32 ksock_peer_conns_wanted(const struct ksock_peer *peer, int kind)
{
	return kind == SOCKLND_CONN_CONTROL ? 1 : peer->p_net->n_conns_per_peer;
}

/*
 * With ks_lock held: does @peer have fewer connections of @kind than
 * wanted? A send tops up only its own kind: a passive side's ACK on the
 * one CONTROL must not race the active side's bulk connections with
 * its own.
 */
bool ksock_peer_short(struct ksock_peer *peer, int kind)
{
	return ksock_peer_conn_count(peer, kind) < ksock_peer_conns_wanted(peer, kind);
}

/* Queue @peer for the connd (ks_lock held). */
void ksock_peer_start_connect(struct ksock_peer *peer)
{
	if (peer->p_connecting)
		return;
	peer->p_connecting = true;
	list_add_tail(&peer->p_connd, &ks.ks_connd_peers);
	os_cond_broadcast(&ks.ks_cond);
}

/* With ks_lock held: does @peer have a connection that is not closing? */
bool ksock_peer_alive(struct ksock_peer *peer)
{
	struct ksock_conn *conn;

	list_for_each_entry(conn, &peer->p_conns, c_list)
		if (!conn->c_closing)
			return true;
	return false;
}

/* With ks_lock held: have connd 0 tell the core that @peer is (not) alive. */
void ksock_peer_notify(struct ksock_peer *peer, bool alive)
{
	peer->p_alive = alive;
	if (!list_empty(&peer->p_notify) || peer->p_net->n_shutdown)
		return;
	list_add_tail(&peer->p_notify, &ks.ks_notifyq);
	os_cond_broadcast(&ks.ks_cond);
}

/*
 * Finalize the txs of @txs (taken off every list) with @status and health
 * @hs, without any lock held, and free them. A NOOP (ZC-ACK) has no
 * message: the core never knew it.
 */
void ksock_txs_finalize(struct ksock_net *net, struct list_head *txs,
			enum lnet_msg_hstatus hs, int status)
{
	struct ksock_tx *tx, *tmp;

	list_for_each_entry_safe(tx, tmp, txs, tx_list) {
		list_del(&tx->tx_list);
		if (tx->tx_msg) {
			tx->tx_msg->msg_health_status = hs;
			lnet_finalize(net->n_ln, tx->tx_msg, status);
		}
		os_free(tx);
	}
	ksock_sched_flush(ksock_sched_current());
}

/* ---- shared threads ---------------------------------------------------- */

static void ksock_threads_stop(void)
{
	int i;

	os_mutex_lock(&ks.ks_lock);
	ks.ks_stop = true;
	os_cond_broadcast(&ks.ks_cond);
	os_mutex_unlock(&ks.ks_lock);
	for (i = 0; i < KSOCK_NSCHED; i++)
		if (ks.ks_sched[i].s_ps)
			os_pollset_wake(ks.ks_sched[i].s_ps);
	for (i = 0; i < 2; i++) {
		if (ks.ks_connd[i].started)
			os_thread_join(&ks.ks_connd[i]);
		memset(&ks.ks_connd[i], 0, sizeof(ks.ks_connd[i]));
	}
	for (i = 0; i < KSOCK_NSCHED; i++) {
		struct ksock_sched *s = &ks.ks_sched[i];

		if (s->s_thread.started)
			os_thread_join(&s->s_thread);
		os_pollset_destroy(s->s_ps);
		memset(s, 0, sizeof(*s));
	}
	ks.ks_stop = false;
	ks.ks_running = false;
}

/* With ks_thread_mutex held: no NI left while the threads run? */
static bool ksock_threads_idle(void)
{
	bool idle;

	os_mutex_lock(&ks.ks_lock);
	idle = !ks.ks_nnets && ks.ks_running;
	os_mutex_unlock(&ks.ks_lock);
	return idle;
}

/*
 * A scheduler's lists and poll set, before its thread starts (the fuzz
 * harnesses, which are the scheduler, call it too: one place to add a list).
 */
int ksock_sched_init(struct ksock_sched *s)
{
	INIT_LIST_HEAD(&s->s_ready);
	INIT_LIST_HEAD(&s->s_acking);
	INIT_LIST_HEAD(&s->s_deferred);
	return os_pollset_create(&s->s_ps);
}

/* With ks_thread_mutex held: the connd and the schedulers, once. */
static int ksock_threads_start(void)
{
	char name[32];
	int i, rc = 0;

	if (ks.ks_running)
		return 0;
	ks.ks_running = true;
	for (i = 0; i < KSOCK_NSCHED && !rc; i++) {
		struct ksock_sched *s = &ks.ks_sched[i];

		rc = ksock_sched_init(s);
		snprintf(name, sizeof(name), "socklnd_sd%d", i);
		if (!rc)
			rc = os_thread_start(&s->s_thread, ksock_scheduler, s, name);
	}
	if (!rc)
		rc = os_thread_start(&ks.ks_connd[0], ksock_connd, &ks.ks_connd[0],
				     "socklnd_hello");
	if (!rc)
		rc = os_thread_start(&ks.ks_connd[1], ksock_connd, &ks.ks_connd[1],
				     "socklnd_connd");
	if (rc)
		ksock_threads_stop();
	return rc;
}

/* ---- startup and shutdown ------------------------------------------------ */

static void ksock_listener_free(struct ksock_listener *l)
{
	os_sock_unroute_source(&l->l_route);
	os_pollset_destroy(l->l_ps);
	os_sock_close(l->l_sock);
	os_free(l);
}

/* A new listener on @addr:@port with its acceptor thread running. */
static int ksock_listener_open(struct os_netns *ns, const struct os_sockaddr *addr,
			       u16 port, struct ksock_listener **out)
{
	struct ksock_listener *l = os_zalloc(sizeof(*l));
	char name[KSOCK_NAME_LEN];
	int rc;

	if (!l)
		return -ENOMEM;
	l->l_ns = ns;
	l->l_addr = *addr;
	l->l_port = port;
	ksock_addr_name(addr, port, name, sizeof(name));
	rc = os_sock_listen_at(ns, addr, port, (int)ks.ks_backlog, &l->l_sock);
	if (!rc)
		rc = os_pollset_create(&l->l_ps);
	if (!rc)
		rc = os_pollset_add(l->l_ps, l->l_sock, l);
	if (!rc)
		rc = os_thread_start(&l->l_thread, ksock_acceptor, l,
				     "socklnd_accept");
	if (rc) {
		os_err("socklnd: cannot listen on %s: error %d\n", name, rc);
		ksock_listener_free(l);
		return rc;
	}
	*out = l;
	return 0;
}

/*
 * The connections of @l's address leave by its interface @ifname, also
 * when another interface has an address of the same subnet (see
 * os_user_sock_route.c: source rules, not sockets bound to a device). No
 * rule for loopback addresses; without one (no right to add it), the
 * system's routes pick the interface, as before.
 */
static void ksock_listener_route(struct ksock_listener *l, const char *ifname)
{
	static const u8 v6_lo[16] = { [15] = 1 };
	char name[KSOCK_NAME_LEN];
	int rc;

	if ((l->l_addr.sa_len == 4 && l->l_addr.sa_addr[0] == 127) ||
	    (l->l_addr.sa_len == 16 && !memcmp(l->l_addr.sa_addr, v6_lo, 16)))
		return;
	rc = os_sock_route_source(ifname, &l->l_addr, &l->l_route);
	if (rc == -EOPNOTSUPP) {
		os_debug("socklnd: no source routing here: the system's routes apply\n");
	} else if (rc) {
		ksock_addr_name(&l->l_addr, l->l_port, name, sizeof(name));
		os_warn("socklnd: %s: cannot route its packets by %s: error %d\n", name,
			ifname, rc);
	}
}

/*
 * With ks_thread_mutex held: @net shares the listener of its namespace,
 * address and port (several NIs, of several nets or instances, on one
 * address), and opens it when it is the first.
 */
static int ksock_net_listen(struct ksock_net *net)
{
	struct ksock_listener *l;
	struct os_sockaddr addr;
	int rc;

	ksock_nid_addr(&net->n_nid, &addr);
	list_for_each_entry(l, &ks.ks_listeners, l_list) {
		if (l->l_ns == net->n_ln->ln_netns && l->l_port == net->n_port &&
		    l->l_addr.sa_len == addr.sa_len &&
		    !memcmp(l->l_addr.sa_addr, addr.sa_addr, addr.sa_len)) {
			l->l_refs++;
			net->n_listener = l;
			return 0;
		}
	}
	rc = ksock_listener_open(net->n_ln->ln_netns, &addr, net->n_port, &l);
	if (rc)
		return rc;
	ksock_listener_route(l, net->n_ni->ni_ifname);
	l->l_refs = 1;
	list_add_tail(&l->l_list, &ks.ks_listeners);
	net->n_listener = l;
	return 0;
}

/*
 * With ks_thread_mutex held: @net leaves its listener; the last one
 * stops the acceptor (woken at once: stop flag, socket shut down, pollset
 * woken) and closes the socket.
 */
static void ksock_net_unlisten(struct ksock_net *net)
{
	struct ksock_listener *l = net->n_listener;

	net->n_listener = NULL;
	if (!l || --l->l_refs)
		return;
	list_del(&l->l_list);
	os_mutex_lock(&ks.ks_lock);
	l->l_stop = true;
	os_mutex_unlock(&ks.ks_lock);
	os_sock_shutdown(l->l_sock);
	os_pollset_wake(l->l_ps);
	os_thread_join(&l->l_thread);
	ksock_listener_free(l);
}

/* The NI's conns_per_peer in force (the core resolved 0 and -1). */
static u32 ksock_ni_conns_per_peer(const struct lnet_ni *ni)
{
	s32 cpp = ni->ni_lnd_tun.conns_per_peer;

	return cpp > 0 ? (u32)cpp : 1;
}

static int ksock_startup(struct lnet *ln, struct lnet_ni *ni)
{
	char nidstr[LNET_NID_STR_MAX];
	struct ksock_net *net;
	int rc;

	if (!lnet_lnd_carries_family(LNET_LND_TCP, ni->ni_nid.nid_addr_len)) {
		lnet_nid_print(&ni->ni_nid, nidstr, sizeof(nidstr));
		os_warn("socklnd: %s: only IPv4 and IPv6 NIDs are carried\n", nidstr);
		return -EAFNOSUPPORT;
	}
	net = os_zalloc(sizeof(*net));
	if (!net)
		return -ENOMEM;
	net->n_ln = ln;
	net->n_ni = ni;
	net->n_nid = ni->ni_nid;
	net->n_version = ksock_nid_version(&ni->ni_nid);
	net->n_hdr_len = (u32)lnet_msg_hdr_size(net->n_version);
	net->n_incarnation = ln->ln_dp.dp_incarnation;
	net->n_timeout_ns = lnet_ni_lnd_timeout_ns(ln, ni);
	net->n_conns_per_peer = ksock_ni_conns_per_peer(ni);
	net->n_port = ks.ks_port ? ks.ks_port : LNET_ACCEPTOR_PORT;
	INIT_LIST_HEAD(&net->n_peers);

	os_mutex_lock(&ks.ks_thread_mutex);
	rc = ksock_threads_start();
	/* accept=none: no listener; our own connections carry everything */
	if (!rc && ks.ks_accept != LNET_ACCEPT_NONE)
		rc = ksock_net_listen(net);
	if (rc) {
		if (ksock_threads_idle())
			ksock_threads_stop();
		os_mutex_unlock(&ks.ks_thread_mutex);
		os_free(net);
		return rc;
	}
	os_mutex_lock(&ks.ks_lock);
	list_add_tail(&net->n_list, &ks.ks_nets);
	ks.ks_nnets++;
	os_mutex_unlock(&ks.ks_lock);
	os_mutex_unlock(&ks.ks_thread_mutex);
	ni->ni_lnd_data = net;
	return 0;
}

/* Shutdown, with ks_lock held: every message and connection of @net. */
static void ksock_net_drain(struct ksock_net *net, struct list_head *txs)
{
	struct ksock_acc *acc, *atmp;
	struct ksock_peer *peer;
	struct ksock_conn *conn;

	list_for_each_entry(peer, &net->n_peers, p_list) {
		ksock_list_splice_init(&peer->p_txq, txs);
		if (peer->p_connecting && !list_empty(&peer->p_connd)) {
			list_del_init(&peer->p_connd);
			peer->p_connecting = false;
		}
		list_del_init(&peer->p_notify);
		list_for_each_entry(conn, &peer->p_conns, c_list)
			ksock_conn_close_req(conn, "the NI is shutting down",
					     LNET_MSG_STATUS_LOCAL_ERROR);
	}
	list_for_each_entry_safe(acc, atmp, &ks.ks_connd_accs, a_list) {
		if (acc->a_net != net)
			continue;
		list_del(&acc->a_list);
		os_sock_close(acc->a_sock);
		os_free(acc);
	}
}

static void ksock_shutdown(struct lnet *ln, struct lnet_ni *ni)
{
	struct ksock_net *net = ni->ni_lnd_data;
	struct ksock_peer *peer, *ptmp;
	LIST_HEAD(txs);

	if (!net)
		return;
	os_mutex_lock(&ks.ks_lock);
	net->n_shutdown = true;
	os_mutex_unlock(&ks.ks_lock);
	/* the acceptor takes no lock but ks_lock: safe to join under this one */
	os_mutex_lock(&ks.ks_thread_mutex);
	ksock_net_unlisten(net);
	os_mutex_unlock(&ks.ks_thread_mutex);

	/*
	 * No ks_thread_mutex while waiting: a scheduler may be stuck in
	 * lnet_parse() of another instance whose lock is held by an
	 * lnd_startup waiting for ks_thread_mutex.
	 */
	os_mutex_lock(&ks.ks_lock);
	ksock_net_drain(net, &txs);
	while (net->n_nconns || net->n_refs)
		os_cond_wait(&ks.ks_cond, &ks.ks_lock, OS_NO_DEADLINE);
	list_for_each_entry_safe(peer, ptmp, &net->n_peers, p_list) {
		ksock_list_splice_init(&peer->p_txq, &txs);
		list_del(&peer->p_list);
		os_free(peer);
	}
	list_del(&net->n_list);
	ks.ks_nnets--;
	os_mutex_unlock(&ks.ks_lock);
	ksock_txs_finalize(net, &txs, LNET_MSG_STATUS_LOCAL_ERROR, -ENETDOWN);

	/* The last NI: no connection is left, the threads stop. */
	os_mutex_lock(&ks.ks_thread_mutex);
	if (ksock_threads_idle())
		ksock_threads_stop();
	os_mutex_unlock(&ks.ks_thread_mutex);
	ni->ni_lnd_data = NULL;
	os_free(net);
}

/* ---- send and receive -------------------------------------------------------- */

static struct ksock_tx *ksock_tx_make(const struct ksock_net *net, struct lnet_msg *msg,
				      u64 timeout_ns, int *rcp)
{
	struct ksock_msg_hdr k = { .ksm_type = KSOCK_MSG_LNET };
	struct ksock_tx *tx;

	if (msg->msg_hdr.payload_length != msg->msg_len ||
	    msg->msg_len > LNET_MTU || (msg->msg_len && !msg->msg_buf)) {
		*rcp = -EINVAL;
		return NULL;
	}
	tx = os_zalloc(sizeof(*tx));
	if (!tx) {
		*rcp = -ENOMEM;
		return NULL;
	}
	if (net->n_version == KSOCK_PROTO_V4)
		*rcp = lnet_msg_hdr16_encode(&k, &msg->msg_hdr, tx->tx_hdr);
	else
		*rcp = lnet_msg_hdr_encode(&k, &msg->msg_hdr, tx->tx_hdr);
	if (*rcp) {
		os_free(tx);
		return NULL;
	}
	tx->tx_msg = msg;
	tx->tx_hdr_len = net->n_hdr_len;
	tx->tx_nob = net->n_hdr_len + msg->msg_len;
	tx->tx_kind = msg->msg_len < KSOCK_SMALL_MAX ? SOCKLND_CONN_CONTROL :
						       SOCKLND_CONN_BULK_OUT;
	tx->tx_deadline = os_now_ns() + timeout_ns;
	return tx;
}

static int ksock_send(struct lnet_ni *ni, struct lnet_msg *msg)
{
	struct ksock_net *net = ni->ni_lnd_data;
	const struct lnet_nid *dst = &msg->msg_txpeer->lpni_nid;
	struct ksock_sched *me = ksock_sched_current();
	struct ksock_peer *peer;
	struct ksock_conn *conn;
	struct ksock_tx *tx;
	bool claimed = false;
	u64 timeout;
	int rc;

	/* a connection carries one family: IPv4 NIDs from IPv4 NIs, IPv6 from IPv6 */
	if (dst->nid_addr_len != net->n_nid.nid_addr_len ||
	    lnet_nid_net(dst) != lnet_nid_net(&net->n_nid))
		return -EHOSTUNREACH;
	timeout = lnet_ni_lnd_timeout_ns(net->n_ln, ni);
	tx = ksock_tx_make(net, msg, timeout, &rc);
	if (!tx)
		return rc;
	os_mutex_lock(&ks.ks_lock);
	net->n_timeout_ns = timeout;
	/* `net set --conns-per-peer` applies to connections opened from now on */
	net->n_conns_per_peer = ksock_ni_conns_per_peer(ni);
	peer = net->n_shutdown ? NULL : ksock_peer_find_or_create(net, dst);
	if (!peer) {
		rc = net->n_shutdown ? -ENETDOWN : -ENOMEM;
		os_mutex_unlock(&ks.ks_lock);
		os_free(tx);
		return rc;
	}
	msg->msg_private = tx;
	ksock_tx_zc_req(peer, tx);
	conn = ksock_peer_conn(peer, tx->tx_kind);
	if (conn) {
		/*
		 * Only a scheduler writes: it does so once the core call
		 * returns (ksock_sched_flush). Any other caller holds the
		 * core's mutex for as long as it runs: its message goes to
		 * the connection's scheduler.
		 */
		if (me)
			claimed = ksock_conn_send_claim(conn, tx);
		else
			ksock_conn_queue_tx(conn, tx);
		if (os_now_ns() >= peer->p_topup_after && ksock_peer_short(peer, tx->tx_kind))
			ksock_peer_start_connect(peer);
	} else {
		list_add_tail(&tx->tx_list, &peer->p_txq);
		ksock_peer_start_connect(peer);
	}
	os_mutex_unlock(&ks.ks_lock);
	if (claimed) {	/* see socklnd_priv.h */
		tx->tx_conn = conn;
		list_add_tail(&tx->tx_list, &me->s_deferred);
	}
	return 0;
}

/*
 * Called inside lnet_parse() (or later) with the instance lock held: the
 * scheduler that owns the connection picks the payload up from here.
 */
static int ksock_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
		      void *buf, u32 mlen, u32 rlen)
{
	struct ksock_conn *conn = private;
	bool wake;

	if (mlen > rlen || rlen != conn->c_rx_plen || (mlen && !buf))
		return -EINVAL;
	os_mutex_lock(&ks.ks_lock);
	if (conn->c_rx_state != KSOCK_RX_PARSE) {
		os_mutex_unlock(&ks.ks_lock);
		return -EINVAL;
	}
	if (conn->c_closing) {	/* a forwarded header parked; its owner closes */
		os_mutex_unlock(&ks.ks_lock);
		return -ECONNRESET;
	}
	conn->c_rx_msg = msg;
	conn->c_rx_buf = buf;
	conn->c_rx_mlen = mlen;
	conn->c_rx_done = 0;
	conn->c_rx_spin_misses = 0;
	conn->c_rx_slop = rlen - mlen;
	conn->c_rx_state = KSOCK_RX_PAYLOAD;
	wake = !conn->c_rx_in_parse;
	if (wake)
		ksock_conn_schedule(conn, KSOCK_DO_RX);
	os_mutex_unlock(&ks.ks_lock);
	return 0;
}

static void ksock_query(struct lnet_ni *ni, const struct lnet_nid *nid, u64 *when)
{
	struct ksock_net *net = ni->ni_lnd_data;
	struct ksock_peer *peer;

	os_mutex_lock(&ks.ks_lock);
	peer = ksock_peer_find(net, nid);
	*when = peer ? peer->p_last_alive : 0;
	os_mutex_unlock(&ks.ks_lock);
}

/* The core says @nid is down: drop its connections (a send reconnects). */
static void ksock_notify_peer(struct lnet_ni *ni, const struct lnet_nid *nid,
			      bool alive)
{
	struct ksock_net *net = ni->ni_lnd_data;
	struct ksock_peer *peer;
	struct ksock_conn *conn;

	if (alive)
		return;
	os_mutex_lock(&ks.ks_lock);
	peer = ksock_peer_find(net, nid);
	if (peer)
		list_for_each_entry(conn, &peer->p_conns, c_list)
			ksock_conn_close_req(conn, "the peer was reported down",
					     LNET_MSG_STATUS_REMOTE_ERROR);
	os_mutex_unlock(&ks.ks_lock);
}

const struct lnet_lnd lnet_socklnd = {
	.lnd_type = LNET_LND_TCP,
	.lnd_startup = ksock_startup,
	.lnd_shutdown = ksock_shutdown,
	.lnd_send = ksock_send,
	.lnd_recv = ksock_recv,
	.lnd_notify_peer = ksock_notify_peer,
	.lnd_query = ksock_query,
	.lnd_accept = ksock_accept,
};

void lnet_socklnd_set_port(u16 port)
{
	ks.ks_port = port;
}

/* Before any NI starts: the acceptor threads read them unlocked. */
void lnet_socklnd_set_accept(enum lnet_accept_mode mode, u32 backlog, u32 timeout_s)
{
	ks.ks_accept = mode;
	ks.ks_backlog = backlog;
	ks.ks_handshake_ns = (u64)timeout_s * 1000000000ULL;
}

int lnet_socklnd_register(struct lnet *ln)
{
	if (!ks.ks_inited) {
		os_mutex_init_noio(&ks.ks_lock);
		os_mutex_init(&ks.ks_thread_mutex);
		os_cond_init(&ks.ks_cond);
		INIT_LIST_HEAD(&ks.ks_nets);
		INIT_LIST_HEAD(&ks.ks_listeners);
		INIT_LIST_HEAD(&ks.ks_connd_peers);
		INIT_LIST_HEAD(&ks.ks_connd_accs);
		INIT_LIST_HEAD(&ks.ks_notifyq);
		ks.ks_max_handshakes = KSOCK_MAX_HANDSHAKES;
		/* Lustre's defaults, unless lnetd set them already */
		if (!ks.ks_backlog)
			lnet_socklnd_set_accept(LNET_ACCEPT_SECURE, LNET_ACC_BACKLOG_DEF,
						LNET_ACC_TIMEOUT_DEF);
		ks.ks_inited = true;
	}
	return lnet_lnd_register(ln, &lnet_socklnd);
}
