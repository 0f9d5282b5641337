// SPDX-License-Identifier: GPL-2.0-only
/*
 * Socket LND acceptor: one thread per listening address and port runs
 * the passive handshakes of every connection it accepted at once, each a
 * small state machine fed by the listener's poll set (the acceptor
 * request, 16 bytes in v1 or 28 in v2, which names the NI the connection
 * is for; then the peer's hello, V3 with its IP list on an IPv4 NI, V4 on
 * an IPv6 one; a hello of another version is answered with ours, for the
 * peer to retry in it, and refused). A connection that sends nothing, or
 * half a hello, holds a slot until its deadline and nothing else: the
 * handshakes of other peers go on meanwhile. A complete hello goes to
 * ksock_passive_finish() (check, our hello, attach).
 */
#include "socklnd_priv.h"

/* Room for a refusal: "it is for <NID>, not for our <up to 4 NIDs>". */
#define KSOCK_HS_WHY		(6 * LNET_NID_STR_MAX)

/*
 * With ks_lock held: the NI of @l's address and port whose NID is @nid,
 * not shutting down, or NULL.
 */
static struct ksock_net *ksock_listener_net(struct ksock_listener *l,
					    const struct lnet_nid *nid)
{
	struct ksock_net *net;

	list_for_each_entry(net, &ks.ks_nets, n_list)
		if (net->n_listener == l && !net->n_shutdown &&
		    lnet_nid_equal(&net->n_nid, nid))
			return net;
	return NULL;
}

/* With ks_lock held: "a@tcp, a@tcp2", the NIDs @l listens for. */
static void ksock_listener_nids(struct ksock_listener *l, char *buf, size_t len)
{
	char nidstr[LNET_NID_STR_MAX];
	struct ksock_net *net;
	size_t used = 0;

	buf[0] = '\0';
	list_for_each_entry(net, &ks.ks_nets, n_list) {
		if (net->n_listener != l || net->n_shutdown || used >= len)
			continue;
		lnet_nid_print(&net->n_nid, nidstr, sizeof(nidstr));
		used += snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
				 nidstr);
	}
}

/* Close @hs and forget it; @why (NULL: quietly) goes to the log. */
static void ksock_hs_drop(struct ksock_acceptor_ctx *ka, struct ksock_hs *hs,
			  const char *why)
{
	if (why)
		os_warn_ratelimited("socklnd: %s: refusing the connection: %s\n",
				    hs->h_name, why);
	list_del(&hs->h_list);
	ka->ka_npending--;
	os_pollset_del(ka->ka_l->l_ps, hs->h_sock);
	os_sock_close(hs->h_sock);
	os_free(hs);
}

/*
 * The acceptor request is in: is it for one of our NIs? 0, -EPROTO, or
 * -EMSGSIZE with h_need raised: a v2 request is longer than the 16 bytes
 * read first (the length of v1, the shorter form).
 */
static int ksock_hs_request(struct ksock_listener *l, struct ksock_hs *hs,
			    char *why, size_t wlen)
{
	char a[LNET_NID_STR_MAX], ours[4 * LNET_NID_STR_MAX];
	struct lnet_acceptor_req req;
	int rc;

	rc = lnet_acceptor_req_decode(hs->h_buf, hs->h_got, &req);
	if (rc == -EMSGSIZE) {
		hs->h_need = (u32)lnet_acceptor_req_size(req.acr_version);
		return rc;
	}
	if (rc) {
		snprintf(why, wlen, "bad acceptor request: magic 0x%08x version %u (expected 0x%08x version %u)",
			 lnet_get_le32(hs->h_buf), lnet_get_le32(hs->h_buf + 4),
			 LNET_PROTO_ACCEPTOR_MAGIC, LNET_PROTO_ACCEPTOR_VERSION);
		if (req.acr_version == LNET_PROTO_ACCEPTOR_VERSION_16)
			snprintf(why, wlen, "bad acceptor request v2: NID of address length %u on LND %u",
				 hs->h_buf[8] + 4u, hs->h_buf[9]);
		return -EPROTO;
	}
	os_mutex_lock(&ks.ks_lock);
	if (!ksock_listener_net(l, &req.acr_nid)) {
		ksock_listener_nids(l, ours, sizeof(ours));
		lnet_nid_print(&req.acr_nid, a, sizeof(a));
		snprintf(why, wlen, "it is for %s, not for our %s", a, ours);
		rc = -EPROTO;
	}
	os_mutex_unlock(&ks.ks_lock);
	hs->h_nid = req.acr_nid;
	return rc;
}

/* What a handshake that stopped (error @rc) in its current state lacks. */
static void ksock_hs_missing(const struct ksock_hs *hs, int rc, char *why, size_t wlen)
{
	static const char *const what[] = {
		[KSOCK_HS_REQUEST] = "no acceptor request",
		[KSOCK_HS_HELLO] = "no hello",
		[KSOCK_HS_HELLO_REST] = "hello cut short",
		[KSOCK_HS_IPS] = "hello cut short in its IP list",
	};

	snprintf(why, wlen, "%s: error %d", what[hs->h_state], rc);
}

/* Read what the current state still needs: 0 when it is all in, -EAGAIN, -errno. */
static int ksock_hs_read(struct ksock_hs *hs)
{
	long n;

	while (hs->h_got < hs->h_need) {
		n = os_sock_recv(hs->h_sock, hs->h_buf + hs->h_got, hs->h_need - hs->h_got);
		if (n == 0)
			return -ECONNRESET;
		if (n < 0)
			return (int)n;
		hs->h_got += (u32)n;
	}
	return 0;
}

/*
 * Move @hs on with the bytes that arrived, exactly as many as each step
 * needs (what follows the hello is the connection's). 1: the hello is
 * complete; 0: waiting for more; -errno: refused, the reason in @why.
 */
static int ksock_hs_step(struct ksock_listener *l, struct ksock_hs *hs, char *why,
			 size_t wlen)
{
	int rc;

	for (;;) {
		rc = ksock_hs_read(hs);
		if (rc == -EAGAIN)
			return 0;
		if (rc) {
			ksock_hs_missing(hs, rc, why, wlen);
			return rc;
		}
		switch (hs->h_state) {
		case KSOCK_HS_REQUEST:
			rc = ksock_hs_request(l, hs, why, wlen);
			if (rc == -EMSGSIZE)
				break;		/* v2: its NID's last 12 bytes */
			if (rc)
				return rc;
			hs->h_state = KSOCK_HS_HELLO;
			hs->h_version = ksock_nid_version(&hs->h_nid);
			hs->h_got = 0;
			hs->h_need = 8;
			break;
		case KSOCK_HS_HELLO:
			rc = ksock_hello_start(hs->h_buf, hs->h_version, why, wlen);
			if (rc < 0)
				return rc;
			hs->h_state = KSOCK_HS_HELLO_REST;
			hs->h_need = (u32)rc;
			break;
		case KSOCK_HS_HELLO_REST:
			rc = ksock_hello_parse(hs->h_buf, hs->h_version, &hs->h_hello, why, wlen);
			if (rc)
				return rc;
			hs->h_state = KSOCK_HS_IPS;
			hs->h_need += 4 * hs->h_hello.kshm_nips;
			break;
		case KSOCK_HS_IPS:
			return 1;
		}
	}
}

/*
 * @hs has its whole hello: hand the socket to its NI (if the NI is still
 * there: else it closes quietly, as at our shutdown). The NI is held
 * (n_refs) while ksock_passive_finish() answers and attaches.
 */
static void ksock_hs_complete(struct ksock_acceptor_ctx *ka, struct ksock_hs *hs)
{
	struct ksock_net *net;

	os_mutex_lock(&ks.ks_lock);
	net = ksock_listener_net(ka->ka_l, &hs->h_nid);
	if (net)
		net->n_refs++;
	os_mutex_unlock(&ks.ks_lock);
	if (!net) {
		ksock_hs_drop(ka, hs, NULL);
		return;
	}
	list_del(&hs->h_list);
	ka->ka_npending--;
	os_pollset_del(ka->ka_l->l_ps, hs->h_sock);
	ksock_passive_finish(net, hs->h_sock, hs->h_name, &hs->h_hello, hs->h_deadline);
	os_free(hs);
	os_mutex_lock(&ks.ks_lock);
	net->n_refs--;
	os_cond_broadcast(&ks.ks_cond);
	os_mutex_unlock(&ks.ks_lock);
}

/*
 * @hs sent a hello of another version than its NI's: our hello goes back
 * (built under ks_lock, which keeps the NI while it reads it; sent
 * after), and the refusal says so.
 */
static void ksock_hs_answer(struct ksock_acceptor_ctx *ka, struct ksock_hs *hs,
			    char *why, size_t wlen)
{
	u8 buf[LNET_WIRE_HELLO_MAX_LEN];
	struct ksock_net *net;
	size_t used = strlen(why);
	u32 len = 0;

	os_mutex_lock(&ks.ks_lock);
	net = ksock_listener_net(ka->ka_l, &hs->h_nid);
	if (net)
		len = ksock_hello_answer_make(net, NULL, buf);
	os_mutex_unlock(&ks.ks_lock);
	ksock_hello_answer_send(hs->h_sock, buf, len);
	if (net && used < wlen)
		snprintf(why + used, wlen - used, "; answered with our hello for a retry");
}

/* Data (or an error) on @hs's socket. */
void ksock_hs_run(struct ksock_acceptor_ctx *ka, struct ksock_hs *hs)
{
	char why[KSOCK_HS_WHY];
	int rc;

	rc = ksock_hs_step(ka->ka_l, hs, why, sizeof(why));
	if (rc == -EPROTONOSUPPORT)
		ksock_hs_answer(ka, hs, why, sizeof(why));
	if (rc < 0)
		ksock_hs_drop(ka, hs, why);
	else if (rc > 0)
		ksock_hs_complete(ka, hs);
}

/*
 * May a new connection from @port start a handshake? With accept=secure
 * (Lustre's default) only a privileged source port, one that only a
 * privileged process can bind, as Lustre's acceptor checks before reading
 * anything; and never more than ks_max_handshakes at once per listener,
 * so that a flood of connections that send nothing costs a bounded number
 * of slots, each for accept_timeout at most. NULL, or why not.
 */
static const char *ksock_hs_refuse(struct ksock_acceptor_ctx *ka, u16 port,
				   char *why, size_t wlen)
{
	enum lnet_accept_mode mode;
	u32 max;

	os_mutex_lock(&ks.ks_lock);
	max = ks.ks_max_handshakes;
	mode = ks.ks_accept;
	os_mutex_unlock(&ks.ks_lock);
	if (mode == LNET_ACCEPT_SECURE && port > KSOCK_MAX_RESV_PORT) {
		snprintf(why, wlen, "insecure port %u (accept=secure takes ports up to %u only)",
			 port, KSOCK_MAX_RESV_PORT);
		return why;
	}
	if (ka->ka_npending >= max) {
		snprintf(why, wlen, "%u handshakes are in progress already",
			 ka->ka_npending);
		return why;
	}
	return NULL;
}

/* A connection the listener accepted: its handshake starts. */
void ksock_hs_start(struct ksock_acceptor_ctx *ka, struct os_sock *s,
		    const struct os_sockaddr *addr, u16 port)
{
	struct ksock_hs *hs;
	char name[KSOCK_NAME_LEN], why[96];
	int rc;

	ksock_addr_name(addr, port, name, sizeof(name));
	if (ksock_hs_refuse(ka, port, why, sizeof(why))) {
		os_warn_ratelimited("socklnd: %s: refusing the connection: %s\n",
				    name, why);
		goto err_close;
	}
	hs = os_zalloc(sizeof(*hs));
	if (!hs)
		goto err_close;
	hs->h_sock = s;
	memcpy(hs->h_name, name, sizeof(name));
	hs->h_deadline = os_now_ns() + ks.ks_handshake_ns;
	hs->h_need = LNET_WIRE_ACCEPT_LEN;
	list_add_tail(&hs->h_list, &ka->ka_pending);
	ka->ka_npending++;
	rc = os_pollset_add(ka->ka_l->l_ps, s, hs);
	if (rc) {
		os_warn_ratelimited("socklnd: %s: refusing the connection: cannot poll it: error %d\n",
			name, rc);
		goto err_unlist;
	}
	ksock_hs_run(ka, hs);	/* its bytes may be there already */
	return;

err_unlist:
	list_del(&hs->h_list);
	ka->ka_npending--;
	os_free(hs);
err_close:
	os_sock_close(s);
}

/* The listener is readable: take every connection waiting. */
static void ksock_accept_all(struct ksock_acceptor_ctx *ka)
{
	struct os_sockaddr addr;
	struct os_sock *s;
	u16 port;
	int rc;

	for (;;) {
		rc = os_sock_accept_from(ka->ka_l->l_sock, &s, &addr, &port);
		if (rc == -EAGAIN || rc == -EINTR)
			return;
		if (rc) {
			if (!ksock_flag_set(&ka->ka_l->l_stop))
				os_warn("socklnd: accept failed: error %d\n", rc);
			return;
		}
		ksock_hs_start(ka, s, &addr, port);
	}
}

/* Refuse the handshakes past their deadline; ms until the next one (<= 1 s). */
int ksock_hs_expire(struct ksock_acceptor_ctx *ka, u64 now)
{
	struct ksock_hs *hs, *tmp;
	u64 wait = 1000000000ULL;
	char why[KSOCK_HS_WHY];

	list_for_each_entry_safe(hs, tmp, &ka->ka_pending, h_list) {
		if (hs->h_deadline <= now) {
			ksock_hs_missing(hs, -ETIMEDOUT, why, sizeof(why));
			ksock_hs_drop(ka, hs, why);
		} else if (hs->h_deadline - now < wait) {
			wait = hs->h_deadline - now;
		}
	}
	return (int)((wait + 999999) / 1000000);
}

/* The acceptor of one address and port (ksock_listener_open() starts it). */
int ksock_acceptor(void *arg)
{
	struct ksock_acceptor_ctx ka = { .ka_l = arg };
	struct os_poll_event ev[16];
	struct ksock_hs *hs, *tmp;
	int i, n, wait_ms = 1000;

	INIT_LIST_HEAD(&ka.ka_pending);
	while (!ksock_flag_set(&ka.ka_l->l_stop)) {
		n = os_pollset_wait(ka.ka_l->l_ps, ev, 16, wait_ms);
		for (i = 0; i < n; i++) {
			if (ev[i].data == ka.ka_l)
				ksock_accept_all(&ka);
			else
				ksock_hs_run(&ka, ev[i].data);
		}
		wait_ms = ksock_hs_expire(&ka, os_now_ns());
	}
	list_for_each_entry_safe(hs, tmp, &ka.ka_pending, h_list)
		ksock_hs_drop(&ka, hs, NULL);
	return 0;
}
