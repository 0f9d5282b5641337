// SPDX-License-Identifier: GPL-2.0-only
/*
 * Socket LND connection setup: the hello v3 exchange on both sides (the
 * acceptor of each address and port, socklnd_accept.c, reads the passive
 * side's and calls ksock_passive_finish()), the connd (active connects
 * from privileged ports, hellos of sockets lnd_accept() gave, tx
 * timeouts), and attaching an established connection to its peer and a
 * scheduler.
 */
#include "socklnd_priv.h"

#define KSOCK_WAIT_SLICE_NS	(200ULL * 1000000ULL)

static const int ksock_kinds[] = {
	SOCKLND_CONN_CONTROL, SOCKLND_CONN_BULK_IN, SOCKLND_CONN_BULK_OUT,
};

/* What the other end calls a connection we call @kind. */
static int ksock_kind_mirror(int kind)
{
	if (kind == SOCKLND_CONN_BULK_IN)
		return SOCKLND_CONN_BULK_OUT;
	if (kind == SOCKLND_CONN_BULK_OUT)
		return SOCKLND_CONN_BULK_IN;
	return kind;
}

/* With ks_lock taken: is @flag (a shutdown or stop flag) set? */
bool ksock_flag_set(const bool *flag)
{
	bool set;

	os_mutex_lock(&ks.ks_lock);
	set = *flag;
	os_mutex_unlock(&ks.ks_lock);
	return set;
}

/* Wait for @events on @s: >0, -ETIMEDOUT, -ENETDOWN (NI going), -errno. */
static int ksock_sock_wait(const bool *down, struct os_sock *s,
			   unsigned int events, u64 deadline)
{
	u64 now, until;
	int rc;

	for (;;) {
		if (ksock_flag_set(down))
			return -ENETDOWN;
		now = os_now_ns();
		if (now >= deadline)
			return -ETIMEDOUT;
		until = deadline - now > KSOCK_WAIT_SLICE_NS ?
			now + KSOCK_WAIT_SLICE_NS : deadline;
		rc = os_sock_wait(s, events, until);
		if (rc)
			return rc;
	}
}

/* Read exactly @len bytes before @deadline: 0, -ECONNRESET at EOF, -errno. */
static int ksock_read_full(const bool *down, struct os_sock *s, void *buf,
			   size_t len, u64 deadline)
{
	size_t got = 0;
	long n;
	int rc;

	while (got < len) {
		n = os_sock_recv(s, (u8 *)buf + got, len - got);
		if (n > 0) {
			got += (size_t)n;
			continue;
		}
		if (n == 0)
			return -ECONNRESET;
		if (n != -EAGAIN)
			return (int)n;
		rc = ksock_sock_wait(down, s, OS_POLL_IN, deadline);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int ksock_write_full(const bool *down, struct os_sock *s,
			    const void *buf, size_t len, u64 deadline)
{
	struct os_iov iov;
	size_t done = 0;
	long n;
	int rc;

	while (done < len) {
		iov.iov_base = (u8 *)buf + done;
		iov.iov_len = len - done;
		n = os_sock_send(s, &iov, 1);
		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (n != -EAGAIN)
			return n ? (int)n : -EIO;
		rc = ksock_sock_wait(down, s, OS_POLL_OUT, deadline);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static void ksock_hello_make(struct ksock_net *net, const struct lnet_nid *peer,
			     int kind, struct ksock_hello *h)
{
	memset(h, 0, sizeof(*h));
	h->kshm_magic = LNET_PROTO_MAGIC;
	h->kshm_version = net->n_version;
	h->kshm_src_nid = net->n_nid;
	h->kshm_dst_nid = *peer;
	h->kshm_src_pid = LNET_PID_LUSTRE;
	h->kshm_src_incarnation = net->n_incarnation;
	h->kshm_ctype = kind;
}

/*
 * The hello version of an NI with @nid, as a Lustre node offers it on
 * the socket's family: V3 (8-byte NIDs) on IPv4, V4 (20-byte NIDs, no IP
 * list) on IPv6. Every connection of the NI speaks it.
 */
u32 ksock_nid_version(const struct lnet_nid *nid)
{
	return nid->nid_addr_len == 16 ? KSOCK_PROTO_V4 : KSOCK_PROTO_V3;
}

/*
 * The first 8 bytes of a hello (magic, version) for an NI speaking
 * @version: the size of the hello's fixed part, or -EPROTO (not a hello
 * of ours: a v1 magic, a swapped one, garbage) or -EPROTONOSUPPORT (a
 * hello of another version: the passive side answers with its own hello
 * so that the peer can retry in that version, as Lustre does), the
 * reason in @why.
 */
int ksock_hello_start(const u8 *buf, u32 version, char *why, size_t wlen)
{
	u32 magic = lnet_get_le32(buf), v = lnet_get_le32(buf + 4);

	if (magic == LNET_PROTO_MAGIC && v == version)
		return (int)lnet_hello_size(v);
	snprintf(why, wlen, "bad hello: magic 0x%08x version %u (expected 0x%08x version %u)",
		 magic, v, LNET_PROTO_MAGIC, version);
	return magic == LNET_PROTO_MAGIC ? -EPROTONOSUPPORT : -EPROTO;
}

/*
 * Our hello in @buf (LNET_WIRE_HELLO_MAX_LEN bytes), as the answer to a
 * hello of a version @net does not speak (to @peer; NULL: a NID of our
 * family with a zero address), as Lustre answers one: the peer learns our
 * version and may retry in it. Its length, 0 if it could not be encoded.
 */
u32 ksock_hello_answer_make(struct ksock_net *net, const struct lnet_nid *peer, u8 *buf)
{
	struct lnet_nid any = net->n_nid;
	struct ksock_hello out;

	memset(any.nid_addr, 0, sizeof(any.nid_addr));
	ksock_hello_make(net, peer ? peer : &any, SOCKLND_CONN_NONE, &out);
	if (lnet_hello_encode(&out, buf))
		return 0;
	return lnet_hello_size(out.kshm_version);
}

/*
 * Send that answer on @sock, best effort and without waiting (a new
 * socket has room for 80 bytes): the connection closes next anyway.
 */
void ksock_hello_answer_send(struct os_sock *sock, u8 *buf, u32 len)
{
	struct os_iov iov = { buf, len };

	if (len)
		os_sock_send(sock, &iov, 1);
}

/*
 * Check the fixed part of a hello of @version in @buf (its
 * lnet_hello_size() bytes) and decode it into @h; a V3 hello's IP list (4
 * * kshm_nips bytes) follows on the wire. 0, or -EPROTO /
 * -EPROTONOSUPPORT with the reason in @why.
 */
int ksock_hello_parse(const u8 *buf, u32 version, struct ksock_hello *h, char *why,
		      size_t wlen)
{
	u32 max_ips = version == KSOCK_PROTO_V4 ? 0 : LNET_WIRE_HELLO_MAX_IPS;
	int rc = ksock_hello_start(buf, version, why, wlen);

	if (rc < 0)
		return rc;
	rc = lnet_hello_decode(buf, (size_t)rc, h);
	if (rc && h->kshm_nips > max_ips) {
		snprintf(why, wlen, "bad hello: %u IPs (at most %u)", h->kshm_nips, max_ips);
		return -EPROTO;
	}
	if (rc && (h->kshm_ctype < SOCKLND_CONN_NONE || h->kshm_ctype > SOCKLND_CONN_BULK_OUT)) {
		snprintf(why, wlen, "bad hello: connection kind %d (expected 0, 1, 2 or 3)",
			 h->kshm_ctype);
		return -EPROTO;
	}
	if (rc) {
		snprintf(why, wlen, "bad hello: a NID that is not a 4- or 16-byte address");
		return -EPROTO;
	}
	return 0;
}

/*
 * Read and check a hello (and skip its IPs). 0, or -EPROTO with the
 * reason in @why, or a socket error.
 */
static int ksock_hello_read(struct ksock_net *net, struct os_sock *s, u64 deadline,
			    struct ksock_hello *h, char *why, size_t wlen)
{
	u8 buf[LNET_WIRE_HELLO_LEN + 4 * LNET_WIRE_HELLO_MAX_IPS];
	int rc, len;

	rc = ksock_read_full(&net->n_shutdown, s, buf, 8, deadline);
	if (!rc) {
		len = ksock_hello_start(buf, net->n_version, why, wlen);
		if (len < 0)
			return len;
		rc = ksock_read_full(&net->n_shutdown, s, buf + 8, (size_t)len - 8, deadline);
	}
	if (rc) {
		snprintf(why, wlen, "no hello: error %d", rc);
		return rc;
	}
	rc = ksock_hello_parse(buf, net->n_version, h, why, wlen);
	if (rc)
		return rc;
	rc = ksock_read_full(&net->n_shutdown, s, buf + len, 4 * h->kshm_nips,
			     deadline);
	if (rc)
		snprintf(why, wlen, "hello cut short in its IP list: error %d", rc);
	return rc;
}

/* What a peer may ask for: ANY (untyped) or one of the three kinds. */
static bool ksock_kind_valid(s32 kind)
{
	return kind >= SOCKLND_CONN_ANY && kind <= SOCKLND_CONN_BULK_OUT;
}

/* The NIDs and kind of a received hello. 0 or -EPROTO with @why. */
static int ksock_hello_check(struct ksock_net *net, const struct ksock_hello *h,
			     const struct lnet_nid *want_src, s32 want_kind,
			     char *why, size_t wlen)
{
	char a[LNET_NID_STR_MAX], b[LNET_NID_STR_MAX];

	if (!lnet_nid_equal(&h->kshm_dst_nid, &net->n_nid)) {
		lnet_nid_print(&h->kshm_dst_nid, a, sizeof(a));
		lnet_nid_print(&net->n_nid, b, sizeof(b));
		snprintf(why, wlen, "bad hello: it is for %s, not for our %s", a, b);
		return -EPROTO;
	}
	if (h->kshm_src_nid.nid_addr_len != net->n_nid.nid_addr_len ||
	    lnet_nid_net(&h->kshm_src_nid) != lnet_nid_net(&net->n_nid) ||
	    (want_src && !lnet_nid_equal(&h->kshm_src_nid, want_src))) {
		lnet_nid_print(&h->kshm_src_nid, a, sizeof(a));
		snprintf(why, wlen, "bad hello: source NID %s is not the expected peer", a);
		return -EPROTO;
	}
	if (!ksock_kind_valid(h->kshm_ctype) ||
	    (want_kind != SOCKLND_CONN_NONE && h->kshm_ctype != want_kind)) {
		if (want_kind == SOCKLND_CONN_NONE)
			snprintf(why, wlen, "bad hello: connection kind %d (expected 0, 1, 2 or 3)",
				 h->kshm_ctype);
		else
			snprintf(why, wlen, "bad hello: connection kind %d (expected %d)",
				 h->kshm_ctype, want_kind);
		return -EPROTO;
	}
	return 0;
}

/* ---- attach --------------------------------------------------------------------- */

static struct ksock_conn *ksock_conn_new(struct os_sock *sock, const char *name,
					 int kind)
{
	struct ksock_conn *conn = os_zalloc(sizeof(*conn));

	if (!conn)
		return NULL;
	conn->c_sock = sock;
	conn->c_kind = kind;
	snprintf(conn->c_name, sizeof(conn->c_name), "%s", name);
	INIT_LIST_HEAD(&conn->c_txq);
	INIT_LIST_HEAD(&conn->c_ready);
	INIT_LIST_HEAD(&conn->c_ackq);
	INIT_LIST_HEAD(&conn->c_acking);
	conn->c_rx_state = KSOCK_RX_HEADER;
	return conn;
}

/* With ks_lock held: the messages waiting for a @conn of its kind. */
static void ksock_peer_feed(struct ksock_peer *peer, struct ksock_conn *conn)
{
	struct ksock_tx *tx, *tmp;

	list_for_each_entry_safe(tx, tmp, &peer->p_txq, tx_list) {
		if (tx->tx_kind != conn->c_kind)
			continue;
		list_del(&tx->tx_list);
		ksock_conn_queue_tx(conn, tx);
	}
}

/* With ks_lock held: a new incarnation means the old connections are stale. */
static void ksock_peer_incarnation(struct ksock_peer *peer, u64 incarnation)
{
	struct ksock_conn *conn;

	if (peer->p_incarnation && peer->p_incarnation != incarnation)
		list_for_each_entry(conn, &peer->p_conns, c_list)
			ksock_conn_close_req(conn, "the peer restarted",
					     LNET_MSG_STATUS_REMOTE_ERROR);
	peer->p_incarnation = incarnation;
}

/*
 * With ks_lock held: the scheduler with the fewest connections of @kind
 * (then the fewest in all), from a turning start: two flows on two NIs
 * have their bulk connections on two threads, not one, whatever the
 * order the connections came in.
 */
static struct ksock_sched *ksock_sched_pick(int kind)
{
	struct ksock_sched *best = NULL, *s;
	u32 i, all, best_all = 0;

	for (i = 0; i < KSOCK_NSCHED; i++) {
		s = &ks.ks_sched[(ks.ks_next_sched + i) % KSOCK_NSCHED];
		all = s->s_nconns[0] + s->s_nconns[1] + s->s_nconns[2] + s->s_nconns[3];
		if (!best || s->s_nconns[kind] < best->s_nconns[kind] ||
		    (s->s_nconns[kind] == best->s_nconns[kind] && all < best_all)) {
			best = s;
			best_all = all;
		}
	}
	ks.ks_next_sched++;
	best->s_nconns[kind]++;
	return best;
}

/*
 * Give an established @sock to a scheduler as a connection of @kind to
 * @peer_nid. The socket is the connection's (closed on failure). 0 or -errno.
 */
int ksock_conn_attach(struct ksock_net *net, struct os_sock *sock, const char *name,
		      const struct lnet_nid *peer_nid, u64 incarnation, int kind)
{
	struct ksock_conn *conn = ksock_conn_new(sock, name, kind);
	struct ksock_peer *peer;
	int rc = -ENOMEM;

	if (!conn)
		goto err_close;
	os_mutex_lock(&ks.ks_lock);
	peer = net->n_shutdown ? NULL : ksock_peer_find_or_create(net, peer_nid);
	if (peer) {
		conn->c_peer = peer;
		conn->c_sched = ksock_sched_pick(kind);
		rc = os_pollset_add(conn->c_sched->s_ps, sock, conn);
		if (rc)
			conn->c_sched->s_nconns[kind]--;
	} else if (net->n_shutdown) {
		rc = -ENETDOWN;
	}
	if (rc)
		goto err_unlock;
	ksock_peer_incarnation(peer, incarnation);
	peer->p_last_alive = os_now_ns();
	conn->c_tx_deadline = peer->p_last_alive + net->n_timeout_ns;
	conn->c_rx_deadline = conn->c_tx_deadline;
	list_add_tail(&conn->c_list, &peer->p_conns);
	ksock_peer_notify(peer, true);
	net->n_nconns++;
	ksock_peer_feed(peer, conn);
	os_mutex_unlock(&ks.ks_lock);
	return 0;

err_unlock:
	os_mutex_unlock(&ks.ks_lock);
	os_free(conn);
err_close:
	os_sock_close(sock);
	return rc;
}

/* ---- passive side ------------------------------------------------------------- */

/*
 * Refuse the connection on @sock after its handshake failed (@rc, @why):
 * logged, rate limited as a peer can try again at will, unless the NI is
 * going down (-ENETDOWN: no peer's fault); then closed.
 */
static void ksock_refuse(struct os_sock *sock, const char *name, int rc, const char *why)
{
	if (rc != -ENETDOWN)
		os_warn_ratelimited("socklnd: %s: refusing the connection: %s\n", name, why);
	os_sock_close(sock);
}

/*
 * The NI's tos tunable on an accepted connection (-1: leave the system's;
 * its SYN-ACK went out before, as on Lustre; active connections set it
 * before connecting). A failure only leaves the default: the connection
 * works without it.
 */
static void ksock_sock_tos(const struct ksock_net *net, struct os_sock *s)
{
	s32 tos = net->n_ni->ni_lnd_tun.tos;

	if (tos >= 0 && os_sock_set_tos(s, tos))
		os_warn("socklnd: cannot set tos %d on a connection\n", tos);
}

/*
 * The passive side's last step, once @in, the peer's hello, was read off
 * @sock before @deadline: check it, answer with ours, attach the
 * connection. Refusals are logged (not -ENETDOWN: our own shutdown) and
 * close @sock.
 */
void ksock_passive_finish(struct ksock_net *net, struct os_sock *sock, const char *name,
			  const struct ksock_hello *in, u64 deadline)
{
	u8 buf[LNET_WIRE_HELLO_MAX_LEN];
	struct ksock_hello out;
	char why[200];
	int rc, kind;

	rc = ksock_hello_check(net, in, NULL, SOCKLND_CONN_NONE, why, sizeof(why));
	if (!rc) {
		ksock_sock_tos(net, sock);
		kind = ksock_kind_mirror(in->kshm_ctype);
		ksock_hello_make(net, &in->kshm_src_nid, kind, &out);
		rc = lnet_hello_encode(&out, buf);
		if (!rc)
			rc = ksock_write_full(&net->n_shutdown, sock, buf,
					      lnet_hello_size(out.kshm_version), deadline);
		if (rc)
			snprintf(why, sizeof(why), "cannot send our hello: error %d", rc);
	}
	if (rc) {
		ksock_refuse(sock, name, rc, why);
		return;
	}
	ksock_conn_attach(net, sock, name, &in->kshm_src_nid, in->kshm_src_incarnation, kind);
}

/* A socket lnd_accept() gave us (its request read elsewhere): the hello. */
static void ksock_passive(struct ksock_acc *acc)
{
	struct ksock_net *net = acc->a_net;
	u64 deadline = os_now_ns() + ks.ks_handshake_ns;
	struct ksock_hello in;
	char why[200];
	int rc;

	rc = ksock_hello_read(net, acc->a_sock, deadline, &in, why, sizeof(why));
	if (rc == -EPROTONOSUPPORT) {
		u8 buf[LNET_WIRE_HELLO_MAX_LEN];

		ksock_hello_answer_send(acc->a_sock, buf,
					ksock_hello_answer_make(net, NULL, buf));
	}
	if (rc) {
		ksock_refuse(acc->a_sock, acc->a_name, rc, why);
		return;
	}
	ksock_passive_finish(net, acc->a_sock, acc->a_name, &in, deadline);
}

/* With ks_lock held: queue @sock for the hello of @net (the connd's). */
static int ksock_accept_locked(struct ksock_net *net, void *sock)
{
	struct ksock_acc *acc;
	struct os_sockaddr addr = { .sa_len = 0 };
	u16 port = 0;

	if (net->n_shutdown)
		return -ENETDOWN;
	acc = os_zalloc(sizeof(*acc));
	if (!acc)
		return -ENOMEM;
	os_sock_peer_addr(sock, &addr, &port);
	ksock_addr_name(&addr, port, acc->a_name, sizeof(acc->a_name));
	acc->a_net = net;
	acc->a_sock = sock;
	list_add_tail(&acc->a_list, &ks.ks_connd_accs);
	os_cond_broadcast(&ks.ks_cond);
	return 0;
}

/* lnd_accept: the acceptor checked the request; queue @sock for its hello. */
int ksock_accept(struct lnet_ni *ni, void *sock)
{
	int rc;

	os_mutex_lock(&ks.ks_lock);
	rc = ksock_accept_locked(ni->ni_lnd_data, sock);
	os_mutex_unlock(&ks.ks_lock);
	return rc;
}

/* ---- active side ------------------------------------------------------------- */

/* Why a connect failed, for the health of the messages it fails. */
static enum lnet_msg_hstatus ksock_connect_hstatus(int rc)
{
	switch (rc) {
	case -ETIMEDOUT:
		return LNET_MSG_STATUS_NETWORK_TIMEOUT;
	case -ENETDOWN:
	case -ENETUNREACH:
	case -EADDRNOTAVAIL:
	case -ENOMEM:
	case -EMFILE:
	case -ENFILE:
		return LNET_MSG_STATUS_LOCAL_ERROR;
	default:
		return LNET_MSG_STATUS_REMOTE_ERROR;
	}
}

/*
 * A socket from our address, from a privileged port if one is free, with
 * the NI's tos from its first packet on.
 */
static int ksock_connect_start(struct ksock_net *net, const struct lnet_nid *peer,
			       struct os_sock **out)
{
	s32 tos = net->n_ni->ni_lnd_tun.tos;
	struct os_sockaddr la, ra;
	u16 port;
	int rc = -EADDRINUSE;

	ksock_nid_addr(&net->n_nid, &la);
	ksock_nid_addr(peer, &ra);
	for (port = KSOCK_MAX_RESV_PORT; port >= KSOCK_MIN_RESV_PORT; port--) {
		rc = os_sock_connect_to_tos(net->n_ln->ln_netns, &la, port, &ra,
					    net->n_port, tos, out);
		if (rc != -EADDRINUSE)
			break;
	}
	if (rc == -EADDRINUSE || rc == -EACCES)
		rc = os_sock_connect_to_tos(net->n_ln->ln_netns, &la, 0, &ra, net->n_port,
					    tos, out);
	return rc;
}

/* Acceptor request + our hello, then the peer's hello. */
static int ksock_connect_hello(struct ksock_net *net, struct os_sock *s,
			       const struct lnet_nid *peer, int kind, u64 deadline,
			       struct ksock_hello *in, char *why, size_t wlen)
{
	u8 buf[LNET_WIRE_ACCEPT_MAX_LEN + LNET_WIRE_HELLO_MAX_LEN];
	/* v2 (a 20-byte NID) exactly when the peer's NID is not a nid4, as Lustre */
	struct lnet_acceptor_req req = {
		.acr_magic = LNET_PROTO_ACCEPTOR_MAGIC,
		.acr_version = lnet_acceptor_req_version(peer),
		.acr_nid = *peer,
	};
	size_t rlen = lnet_acceptor_req_size(req.acr_version);
	struct ksock_hello out;
	int rc;

	ksock_hello_make(net, peer, kind, &out);
	rc = lnet_acceptor_req_encode(&req, buf);
	if (!rc)
		rc = lnet_hello_encode(&out, buf + rlen);
	if (!rc)
		rc = ksock_write_full(&net->n_shutdown, s, buf,
				      rlen + lnet_hello_size(out.kshm_version), deadline);
	if (rc) {
		snprintf(why, wlen, "cannot send our hello: error %d", rc);
		return rc;
	}
	rc = ksock_hello_read(net, s, deadline, in, why, wlen);
	if (!rc)
		rc = ksock_hello_check(net, in, peer, ksock_kind_mirror(kind), why, wlen);
	return rc;
}

/* Connect one connection of @kind to @peer. 0, or -errno (logged). */
static int ksock_connect_one(struct ksock_net *net, const struct lnet_nid *peer,
			     int kind)
{
	char name[KSOCK_NAME_LEN], nidstr[LNET_NID_STR_MAX], why[200];
	struct ksock_hello in;
	struct os_sock *s = NULL;
	struct os_sockaddr ra;
	u64 deadline;
	int rc;

	os_mutex_lock(&ks.ks_lock);
	deadline = os_now_ns() + net->n_timeout_ns;
	os_mutex_unlock(&ks.ks_lock);

	ksock_nid_addr(peer, &ra);
	ksock_addr_name(&ra, net->n_port, name, sizeof(name));
	snprintf(why, sizeof(why), "connect failed");
	rc = ksock_connect_start(net, peer, &s);
	if (!rc) {
		rc = ksock_sock_wait(&net->n_shutdown, s, OS_POLL_OUT, deadline);
		rc = rc < 0 ? rc : os_sock_connect_result(s);
	}
	if (!rc)
		rc = ksock_connect_hello(net, s, peer, kind, deadline, &in, why,
					 sizeof(why));
	if (rc) {
		os_sock_close(s);
		if (rc != -ENETDOWN) {
			lnet_nid_print(peer, nidstr, sizeof(nidstr));
			os_warn("socklnd: %s (%s): cannot connect: %s: error %d\n",
				name, nidstr, why, rc);
		}
		return rc;
	}
	return ksock_conn_attach(net, s, name, peer, in.kshm_src_incarnation, kind);
}

/*
 * With ks_lock taken: how many connections of @kind @peer still wants. A
 * round opens at most that many: one closed at once does not make the
 * connd try again and again.
 */
static u32 ksock_peer_missing(struct ksock_peer *peer, int kind)
{
	u32 have, want;

	os_mutex_lock(&ks.ks_lock);
	have = ksock_peer_conn_count(peer, kind);
	want = ksock_peer_conns_wanted(peer, kind);
	os_mutex_unlock(&ks.ks_lock);
	return have < want ? want - have : 0;
}

/*
 * The connd's work for a peer with messages and no connection for them,
 * or fewer connections than conns_per_peer: one CONTROL, then the bulk
 * kinds up to conns_per_peer each (as Lustre: CONTROL stays one).
 */
static void ksock_active(struct ksock_peer *peer)
{
	struct ksock_net *net = peer->p_net;
	struct lnet_nid nid = peer->p_nid;
	struct ksock_tx *tx, *tmp;
	struct ksock_conn *conn;
	LIST_HEAD(failed);
	unsigned int i;
	u32 n;
	int rc = 0;

	for (i = 0; i < sizeof(ksock_kinds) / sizeof(ksock_kinds[0]) && !rc; i++)
		for (n = ksock_peer_missing(peer, ksock_kinds[i]); n && !rc; n--)
			rc = ksock_connect_one(net, &nid, ksock_kinds[i]);
	os_mutex_lock(&ks.ks_lock);
	peer->p_connecting = false;
	if (net->n_shutdown) {
		os_mutex_unlock(&ks.ks_lock);
		return;		/* ksock_shutdown fails what is left */
	}
	if (rc)		/* no storm of connects from every send meanwhile */
		peer->p_topup_after = os_now_ns() + KSOCK_TOPUP_RETRY_NS;
	list_for_each_entry_safe(tx, tmp, &peer->p_txq, tx_list) {
		conn = ksock_peer_conn(peer, tx->tx_kind);
		if (conn) {
			list_del(&tx->tx_list);
			ksock_conn_queue_tx(conn, tx);
		} else if (rc) {
			ksock_list_move_tail(&tx->tx_list, &failed);
		}
	}
	if (!list_empty(&peer->p_txq))
		ksock_peer_start_connect(peer);	/* a connection went meanwhile */
	if (rc && !ksock_peer_alive(peer))
		ksock_peer_notify(peer, false);
	os_mutex_unlock(&ks.ks_lock);
	ksock_txs_finalize(net, &failed, ksock_connect_hstatus(rc), rc);
}

/* ---- tx timeouts -------------------------------------------------------------- */

/* With ks_lock held: the messages queued on @conn. */
static u32 ksock_conn_queued(const struct ksock_conn *conn)
{
	const struct ksock_tx *tx;
	u32 n = 0;

	list_for_each_entry(tx, &conn->c_txq, tx_list)
		n++;
	return n;
}

/*
 * With ks_lock held: close @conn if it stalled, as Lustre's socket LND
 * does: data not acknowledged yet (queued, or in the socket's send queue)
 * and no progress (bytes written or acknowledged) for the NI's lnd
 * timeout, or a message partly read and no byte for as long. Its
 * messages then fail with NETWORK_TIMEOUT and the core resends them,
 * on another path when there is one. An idle side is never late.
 */
static void ksock_conn_check_stall(struct ksock_conn *conn, u64 now)
{
	u64 timeout = conn->c_peer->p_net->n_timeout_ns;
	char why[96];

	if (conn->c_closing)
		return;
	ksock_conn_sample_unacked(conn, now);
	if (list_empty(&conn->c_txq) && !conn->c_tx_unacked) {
		conn->c_tx_deadline = now + timeout;
	} else if (now >= conn->c_tx_deadline) {
		snprintf(why, sizeof(why),
			 "no progress sending for %llu s (%llu bytes unacknowledged, %u messages queued)",
			 (unsigned long long)(timeout / 1000000000ULL),
			 (unsigned long long)conn->c_tx_unacked, ksock_conn_queued(conn));
		ksock_conn_close_req(conn, why, LNET_MSG_STATUS_NETWORK_TIMEOUT);
		return;
	}
	if (!conn->c_rx_partial) {
		conn->c_rx_deadline = now + timeout;
	} else if (now >= conn->c_rx_deadline) {
		snprintf(why, sizeof(why), "no progress receiving a message for %llu s",
			 (unsigned long long)(timeout / 1000000000ULL));
		ksock_conn_close_req(conn, why, LNET_MSG_STATUS_NETWORK_TIMEOUT);
	}
}

/* With ks_lock held: expired waiting messages to @txs, stalled connections closed. */
static void ksock_net_reap(struct ksock_net *net, u64 now, struct list_head *txs)
{
	struct ksock_peer *peer;
	struct ksock_conn *conn;
	struct ksock_tx *tx, *tmp;

	list_for_each_entry(peer, &net->n_peers, p_list) {
		list_for_each_entry_safe(tx, tmp, &peer->p_txq, tx_list)
			if (tx->tx_deadline <= now)
				ksock_list_move_tail(&tx->tx_list, txs);
		list_for_each_entry(conn, &peer->p_conns, c_list)
			ksock_conn_check_stall(conn, now);
	}
}

/* With ks_lock held (dropped while failing messages). */
static void ksock_reap(u64 now)
{
	struct ksock_net *net;
	LIST_HEAD(txs);

	list_for_each_entry(net, &ks.ks_nets, n_list) {
		if (net->n_shutdown)
			continue;
		ksock_net_reap(net, now, &txs);
		if (list_empty(&txs))
			continue;
		net->n_refs++;
		os_mutex_unlock(&ks.ks_lock);
		ksock_txs_finalize(net, &txs, LNET_MSG_STATUS_NETWORK_TIMEOUT, -ETIMEDOUT);
		os_mutex_lock(&ks.ks_lock);
		net->n_refs--;
		os_cond_broadcast(&ks.ks_cond);
	}
}

/* With ks_lock held (dropped for the call): the core learns @peer's state. */
static void ksock_peer_tell(struct ksock_peer *peer)
{
	struct ksock_net *net = peer->p_net;
	struct lnet_nid nid = peer->p_nid;
	bool alive = peer->p_alive;

	os_mutex_unlock(&ks.ks_lock);
	lnet_notify(net->n_ln, net->n_ni, &nid, alive);
}

/* With ks_lock held: one piece of connd work, dropping the lock for it. */
static bool ksock_connd_work(bool passive)
{
	struct ksock_acc *acc;
	struct ksock_peer *peer;
	struct ksock_net *net;

	if (passive && !list_empty(&ks.ks_notifyq)) {
		peer = list_first_entry(&ks.ks_notifyq, struct ksock_peer, p_notify);
		list_del_init(&peer->p_notify);
		net = peer->p_net;
		net->n_refs++;
		ksock_peer_tell(peer);
	} else if (passive && !list_empty(&ks.ks_connd_accs)) {
		acc = list_first_entry(&ks.ks_connd_accs, struct ksock_acc, a_list);
		list_del(&acc->a_list);
		net = acc->a_net;
		net->n_refs++;
		os_mutex_unlock(&ks.ks_lock);
		ksock_passive(acc);
		os_free(acc);
	} else if (!passive && !list_empty(&ks.ks_connd_peers)) {
		peer = list_first_entry(&ks.ks_connd_peers, struct ksock_peer, p_connd);
		list_del_init(&peer->p_connd);
		net = peer->p_net;
		net->n_refs++;
		os_mutex_unlock(&ks.ks_lock);
		ksock_active(peer);
	} else {
		return false;
	}
	os_mutex_lock(&ks.ks_lock);
	net->n_refs--;
	os_cond_broadcast(&ks.ks_cond);
	return true;
}

/* @arg is ks.ks_connd[0] (lnd_accept()'s sockets, peer states) or [1] (connects). */
int ksock_connd(void *arg)
{
	bool passive = arg == &ks.ks_connd[0];
	u64 next_reap = os_now_ns() + KSOCK_REAP_NS;

	os_mutex_lock(&ks.ks_lock);
	while (!ks.ks_stop) {
		if (ksock_connd_work(passive))
			continue;
		if (!passive && os_now_ns() >= next_reap) {
			ksock_reap(os_now_ns());
			next_reap = os_now_ns() + KSOCK_REAP_NS;
			continue;
		}
		os_cond_wait(&ks.ks_cond, &ks.ks_lock, next_reap);
		if (passive)
			next_reap = os_now_ns() + KSOCK_REAP_NS;
	}
	os_mutex_unlock(&ks.ks_lock);
	return 0;
}
