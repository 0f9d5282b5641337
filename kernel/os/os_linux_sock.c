// SPDX-License-Identifier: GPL-2.0-only
/*
 * os_sock.h on kernel sockets, for the socket LND in lnet.ko.
 *
 * Sockets are made in the namespace the caller names (an instance's
 * ln_netns) and never block: connect and accept are started with
 * O_NONBLOCK, sends and receives carry MSG_DONTWAIT. The socket LND's
 * threads are kthreads that sleep in os_pollset_wait(), as lnetd's sleep
 * in epoll_wait(): everything the LND does runs in process context.
 *
 * The sk callbacks (sk_data_ready, sk_write_space, sk_state_change) run
 * in softirq context: they only mark the socket ready (its poll set's
 * ready list) and wake the thread waiting on it. The waiter then asks the
 * protocol for the socket's state (sock->ops->poll), so the events it sees
 * are the state of the moment, edge-triggered like epoll: a socket is
 * marked again only by a new callback.
 *
 * Lifetime: the callbacks find their os_sock in sk_user_data under
 * sk_callback_lock (read); whoever changes what they use (the poll set,
 * the callbacks themselves at close) takes it for writing, so a callback
 * never sees a poll set or an os_sock being freed. sk_user_data carries
 * SK_USER_DATA_NOCOPY: the children a listener clones start without it,
 * and get their own when accepted.
 */
#include <linux/net.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/tcp.h>
#include <linux/poll.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/sched/signal.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include "os_linux_sock.h"

/* Room for a socket address of either family. */
union os_sa {
	struct sockaddr sa;
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;
	struct sockaddr_storage ss;
};

/* ---- callbacks (softirq) ------------------------------------------------ */

static void os_sock_mark(struct sock *sk)
{
	struct os_pollset *ps;
	struct os_sock *s;
	unsigned long flags;

	read_lock_bh(&sk->sk_callback_lock);
	s = os_sock_of(sk);
	if (!s)
		goto out;
	atomic_inc(&s->s_gen);
	if (wq_has_sleeper(&s->s_wq))
		wake_up_interruptible_all(&s->s_wq);
	ps = s->s_ps;
	if (!ps)
		goto out;
	spin_lock_irqsave(&ps->ps_lock, flags);
	if (list_empty(&s->s_ready))
		list_add_tail(&s->s_ready, &ps->ps_ready);
	spin_unlock_irqrestore(&ps->ps_lock, flags);
	wake_up(&ps->ps_wq);
out:
	read_unlock_bh(&sk->sk_callback_lock);
}

static void os_sk_data_ready(struct sock *sk)
{
	os_sock_mark(sk);
}

static void os_sk_state_change(struct sock *sk)
{
	os_sock_mark(sk);
}

/* As sk_stream_write_space(): only once there is room again. */
static void os_sk_write_space(struct sock *sk)
{
	struct socket *sock = sk->sk_socket;

	if (!sk_stream_is_writeable(sk) || !sock)
		return;
	clear_bit(SOCK_NOSPACE, &sock->flags);
	os_sock_mark(sk);
}

/* ---- sockets ----------------------------------------------------------- */

/*
 * @sock as an os_sock with our callbacks; @old: the callbacks to put back
 * at close (an accepted socket has its listener's, ours, copied).
 */
static struct os_sock *os_sock_wrap(struct socket *sock, const struct os_sock *old)
{
	struct os_sock *s = kzalloc(sizeof(*s), GFP_KERNEL);
	struct sock *sk = sock->sk;

	if (!s) {
		sock_release(sock);
		return NULL;
	}
	s->s_sock = sock;
	INIT_LIST_HEAD(&s->s_ready);
	init_waitqueue_head(&s->s_wq);
	atomic_set(&s->s_gen, 0);
	write_lock_bh(&sk->sk_callback_lock);
	s->s_old_data_ready = old ? old->s_old_data_ready : sk->sk_data_ready;
	s->s_old_write_space = old ? old->s_old_write_space : sk->sk_write_space;
	s->s_old_state_change = old ? old->s_old_state_change : sk->sk_state_change;
	__rcu_assign_sk_user_data_with_flags(sk, s, SK_USER_DATA_NOCOPY);
	sk->sk_data_ready = os_sk_data_ready;
	sk->sk_write_space = os_sk_write_space;
	sk->sk_state_change = os_sk_state_change;
	write_unlock_bh(&sk->sk_callback_lock);
	return s;
}

/* @a:@port as a socket address: its length, 0 for a family we lack. */
static int os_sa_make(union os_sa *u, const struct os_sockaddr *a, u16 port)
{
	memset(u, 0, sizeof(*u));
	if (a->sa_len == 4) {
		u->sin.sin_family = AF_INET;
		memcpy(&u->sin.sin_addr, a->sa_addr, 4);
		u->sin.sin_port = htons(port);
		return sizeof(u->sin);
	}
	if (a->sa_len != 16 || !IS_ENABLED(CONFIG_IPV6))
		return 0;
	u->sin6.sin6_family = AF_INET6;
	memcpy(&u->sin6.sin6_addr, a->sa_addr, 16);
	u->sin6.sin6_port = htons(port);
	return sizeof(u->sin6);
}

/* The address and port of @u: 0, or -EAFNOSUPPORT for another family. */
static int os_sa_get(const union os_sa *u, struct os_sockaddr *a, u16 *port)
{
	if (u->sa.sa_family == AF_INET) {
		os_sockaddr_make(a, (const u8 *)&u->sin.sin_addr, 4);
		*port = ntohs(u->sin.sin_port);
		return 0;
	}
	if (u->sa.sa_family != AF_INET6)
		return -EAFNOSUPPORT;
	os_sockaddr_make(a, (const u8 *)&u->sin6.sin6_addr, 16);
	*port = ntohs(u->sin6.sin6_port);
	return 0;
}

/* The IP type of service / IPv6 traffic class of @sock. */
static int os_sock_tos_set(struct socket *sock, int tos)
{
	bool v6 = sock->sk->sk_family == AF_INET6;

	return sock->ops->setsockopt(sock, v6 ? SOL_IPV6 : SOL_IP,
				     v6 ? IPV6_TCLASS : IP_TOS,
				     KERNEL_SOCKPTR(&tos), sizeof(tos));
}

/* A TCP socket of @ns with address reuse, bound to @addr:@port. */
static int os_sock_bound(struct os_netns *ns, const struct os_sockaddr *addr, u16 port,
			 int tos, struct socket **out)
{
	struct socket *sock;
	union os_sa u;
	int ulen = os_sa_make(&u, addr, port);
	int rc;

	if (!ulen)
		return -EAFNOSUPPORT;
	rc = sock_create_kern(os_netns_net(ns), u.sa.sa_family, SOCK_STREAM,
			      IPPROTO_TCP, &sock);
	if (rc)
		return rc;
	sock_set_reuseaddr(sock->sk);
	/* an IPv6 socket on an address of its own takes no IPv4 peers */
	if (addr->sa_len == 16)
		sock->sk->sk_ipv6only = 1;
	/* before connect(): the SYN carries it already */
	rc = tos >= 0 ? os_sock_tos_set(sock, tos) : 0;
	if (!rc)
		rc = kernel_bind(sock, &u.sa, ulen);
	if (rc) {
		sock_release(sock);
		return rc;
	}
	*out = sock;
	return 0;
}

int os_sock_listen_at(struct os_netns *ns, const struct os_sockaddr *addr, u16 port,
		      int backlog, struct os_sock **out)
{
	struct socket *sock;
	int rc;

	rc = os_sock_bound(ns, addr, port, -1, &sock);
	if (rc)
		return rc;
	rc = kernel_listen(sock, backlog);
	if (rc) {
		sock_release(sock);
		return rc;
	}
	*out = os_sock_wrap(sock, NULL);
	return *out ? 0 : -ENOMEM;
}

/* @sk's remote address and port, whatever its state now. */
static void os_sock_remote(struct sock *sk, union os_sa *u)
{
	const struct inet_sock *inet = inet_sk(sk);

	memset(u, 0, sizeof(*u));
	if (sk->sk_family == AF_INET) {
		u->sin.sin_family = AF_INET;
		u->sin.sin_addr.s_addr = inet->inet_daddr;
		u->sin.sin_port = inet->inet_dport;
	}
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		u->sin6.sin6_family = AF_INET6;
		u->sin6.sin6_addr = sk->sk_v6_daddr;
		u->sin6.sin6_port = inet->inet_dport;
	}
#endif
}

int os_sock_accept_from(struct os_sock *ls, struct os_sock **out,
			struct os_sockaddr *peer, u16 *peer_port)
{
	struct socket *sock;
	union os_sa u;
	int rc;

	rc = kernel_accept(ls->s_sock, &sock, O_NONBLOCK);
	if (rc)
		return rc == -EWOULDBLOCK ? -EAGAIN : rc;
	/* LNet frames its own messages: send each as soon as it is queued. */
	tcp_sock_set_nodelay(sock->sk);
	/*
	 * The address the connection came from, as accept(2) reports it: from
	 * the socket itself, which keeps it when the peer has reset the
	 * connection already (getpeername would fail, and the listener's
	 * queue must still be drained: the reset shows on the first read).
	 */
	os_sock_remote(sock->sk, &u);
	if (os_sa_get(&u, peer, peer_port)) {
		sock_release(sock);
		return -EAFNOSUPPORT;
	}
	*out = os_sock_wrap(sock, ls);
	return *out ? 0 : -ENOMEM;
}

int os_sock_connect_to_tos(struct os_netns *ns, const struct os_sockaddr *laddr,
			   u16 lport, const struct os_sockaddr *raddr, u16 rport, int tos,
			   struct os_sock **out)
{
	struct socket *sock;
	union os_sa u;
	int ulen, rc;

	if (laddr->sa_len != raddr->sa_len)
		return -EAFNOSUPPORT;
	ulen = os_sa_make(&u, raddr, rport);
	rc = os_sock_bound(ns, laddr, lport, tos, &sock);
	if (rc)
		return rc;
	tcp_sock_set_nodelay(sock->sk);
	/* wrapped first: the callbacks must see the connection complete */
	*out = os_sock_wrap(sock, NULL);
	if (!*out)
		return -ENOMEM;
	rc = kernel_connect(sock, &u.sa, ulen, O_NONBLOCK);
	if (rc && rc != -EINPROGRESS) {
		os_sock_close(*out);
		*out = NULL;
		/* The 4-tuple is taken: another local port may do. */
		return rc == -EADDRNOTAVAIL ? -EADDRINUSE : rc;
	}
	return 0;
}

int os_sock_connect_result(struct os_sock *s)
{
	union os_sa u;
	int rc = sock_error(s->s_sock->sk);

	if (rc)
		return rc;
	rc = kernel_getpeername(s->s_sock, &u.sa);
	if (rc == -ENOTCONN)
		return -EINPROGRESS;
	return rc < 0 ? rc : 0;
}

long os_sock_send(struct os_sock *s, const struct os_iov *iov, int n)
{
	struct msghdr mh = { .msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL };
	size_t total = 0;
	int i, rc;

	/* struct os_iov has the layout of struct kvec (base, length). */
	BUILD_BUG_ON(sizeof(struct os_iov) != sizeof(struct kvec));
	BUILD_BUG_ON(offsetof(struct os_iov, iov_len) != offsetof(struct kvec, iov_len));
	for (i = 0; i < n; i++)
		total += iov[i].iov_len;
	rc = kernel_sendmsg(s->s_sock, &mh, (struct kvec *)iov, n, total);
	return rc == -EWOULDBLOCK ? -EAGAIN : rc;
}

long os_sock_recv(struct os_sock *s, void *buf, size_t len)
{
	struct msghdr mh = { .msg_flags = MSG_DONTWAIT };
	struct kvec kv = { .iov_base = buf, .iov_len = len };
	int rc = kernel_recvmsg(s->s_sock, &mh, &kv, 1, len, MSG_DONTWAIT);

	return rc == -EWOULDBLOCK ? -EAGAIN : rc;
}

/* TCP's SIOCOUTQ: write_seq - snd_una, unsent + unacknowledged. */
long os_sock_unacked(struct os_sock *s)
{
	struct sock *sk = s->s_sock->sk;
	const struct tcp_sock *tp = tcp_sk(sk);

	if (inet_sk_state_load(sk) == TCP_LISTEN)
		return -EINVAL;
	return (long)(u32)(READ_ONCE(tp->write_seq) - READ_ONCE(tp->snd_una));
}

static int os_sock_name(struct os_sock *s, struct os_sockaddr *a, u16 *port, bool peer)
{
	union os_sa u;
	int rc;

	memset(&u, 0, sizeof(u));
	rc = peer ? kernel_getpeername(s->s_sock, &u.sa) :
		    kernel_getsockname(s->s_sock, &u.sa);
	if (rc < 0)
		return rc;
	return os_sa_get(&u, a, port);
}

int os_sock_local_addr(struct os_sock *s, struct os_sockaddr *addr, u16 *port)
{
	return os_sock_name(s, addr, port, false);
}

int os_sock_peer_addr(struct os_sock *s, struct os_sockaddr *addr, u16 *port)
{
	return os_sock_name(s, addr, port, true);
}

int os_sock_set_tos(struct os_sock *s, int tos)
{
	return os_sock_tos_set(s->s_sock, tos);
}

/* As user space's IP_TOS: the IPv4 byte, on either family's socket. */
int os_sock_get_tos(struct os_sock *s)
{
	return READ_ONCE(inet_sk(s->s_sock->sk)->tos);
}

/*
 * No fib rules from the kernel yet (os_sock.h): the system's routes pick
 * the interface of each connection.
 */
int os_sock_route_source(const char *ifname, const struct os_sockaddr *addr,
			 struct os_sock_route *out)
{
	memset(out, 0, sizeof(*out));
	return -EOPNOTSUPP;
}

void os_sock_unroute_source(struct os_sock_route *r)
{
	r->r_set = false;
}

void os_sock_shutdown(struct os_sock *s)
{
	kernel_sock_shutdown(s->s_sock, SHUT_RDWR);
}

/*
 * The callbacks put back under sk_callback_lock: after this none of them
 * runs with @s, which can go.
 */
void os_sock_close(struct os_sock *s)
{
	struct sock *sk;

	if (!s)
		return;
	sk = s->s_sock->sk;
	write_lock_bh(&sk->sk_callback_lock);
	__rcu_assign_sk_user_data_with_flags(sk, NULL, 0);
	sk->sk_data_ready = s->s_old_data_ready;
	sk->sk_write_space = s->s_old_write_space;
	sk->sk_state_change = s->s_old_state_change;
	write_unlock_bh(&sk->sk_callback_lock);
	sock_release(s->s_sock);
	kfree(s);
}
