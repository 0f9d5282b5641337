// SPDX-License-Identifier: GPL-2.0-only
/*
 * os_sock.h on BSD sockets: nonblocking IPv4 and IPv6 TCP sockets, epoll poll sets
 * (edge-triggered) and an eventfd to wake them.
 */
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "os_sock.h"

struct os_sock {
	int fd;
};

/* Room for a socket address of either family. */
union os_sa {
	struct sockaddr sa;
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;
};

struct os_pollset {
	int epfd;
	int evfd;
	const void *owner;	/* the thread in os_pollset_wait (os_self_tag) */
	bool self_woken;	/* the owner woke it while not waiting */
};

/* A per-thread address: which thread waits on a pollset. */
static __thread char os_self_tag;

static struct os_sock *os_sock_wrap(int fd)
{
	struct os_sock *s = os_zalloc(sizeof(*s));

	if (!s) {
		close(fd);
		return NULL;
	}
	s->fd = fd;
	return s;
}

int os_sock_from_fd(int fd, struct os_sock **out)
{
	*out = os_sock_wrap(fd);
	return *out ? 0 : -ENOMEM;
}

static void os_sin_make(struct sockaddr_in *sin, const u8 addr[4], u16 port)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	memcpy(&sin->sin_addr, addr, 4);
	sin->sin_port = htons(port);
}

/* @a:@port as a socket address: its length, 0 for a family we lack. */
static socklen_t os_sa_make(union os_sa *u, const struct os_sockaddr *a, u16 port)
{
	memset(u, 0, sizeof(*u));
	if (a->sa_len == 4) {
		os_sin_make(&u->sin, a->sa_addr, port);
		return sizeof(u->sin);
	}
	if (a->sa_len != 16)
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

/* A nonblocking TCP socket with address reuse, bound to @addr:@port. */
static int os_sock_bound(const struct os_sockaddr *addr, u16 port, int *fdp)
{
	union os_sa u;
	socklen_t ulen = os_sa_make(&u, addr, port);
	int one = 1;
	int fd, rc;

	if (!ulen)
		return -EAFNOSUPPORT;
	fd = socket(u.sa.sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* an IPv6 listener on an address of its own takes no IPv4 peers */
	if (addr->sa_len == 16)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, &u.sa, ulen) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	*fdp = fd;
	return 0;
}

/* @ns is always NULL here: a process has one namespace (os.h). */
int os_sock_listen_at(struct os_netns *ns, const struct os_sockaddr *addr, u16 port,
		      int backlog, struct os_sock **out)
{
	int fd, rc;

	rc = os_sock_bound(addr, port, &fd);
	if (rc)
		return rc;
	if (listen(fd, backlog) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	*out = os_sock_wrap(fd);
	return *out ? 0 : -ENOMEM;
}

static void os_sock_nodelay(int fd)
{
	int one = 1;

	/* LNet frames its own messages: send each as soon as it is queued. */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

int os_sock_set_tos(struct os_sock *s, int tos)
{
	union os_sa u;
	socklen_t len = sizeof(u);
	bool v6 = getsockname(s->fd, &u.sa, &len) == 0 && u.sa.sa_family == AF_INET6;

	/* IPv6 has the same byte as its traffic class */
	if (setsockopt(s->fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP, v6 ? IPV6_TCLASS : IP_TOS,
		       &tos, sizeof(tos)) < 0)
		return -errno;
	return 0;
}

int os_sock_accept_from(struct os_sock *ls, struct os_sock **out,
			struct os_sockaddr *peer, u16 *peer_port)
{
	union os_sa u;
	socklen_t len = sizeof(u);
	int fd;

	fd = accept4(ls->fd, &u.sa, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	os_sock_nodelay(fd);
	if (os_sa_get(&u, peer, peer_port)) {
		close(fd);
		return -EAFNOSUPPORT;
	}
	*out = os_sock_wrap(fd);
	return *out ? 0 : -ENOMEM;
}

int os_sock_get_tos(struct os_sock *s)
{
	int tos = 0;
	socklen_t len = sizeof(tos);

	if (getsockopt(s->fd, IPPROTO_IP, IP_TOS, &tos, &len) < 0)
		return -errno;
	return tos;
}

int os_sock_connect_to_tos(struct os_netns *ns, const struct os_sockaddr *laddr, u16 lport,
			   const struct os_sockaddr *raddr, u16 rport, int tos,
			   struct os_sock **out)
{
	bool v6 = laddr->sa_len == 16;
	union os_sa u;
	socklen_t ulen;
	int fd, rc;

	if (laddr->sa_len != raddr->sa_len)
		return -EAFNOSUPPORT;
	ulen = os_sa_make(&u, raddr, rport);
	rc = os_sock_bound(laddr, lport, &fd);
	if (rc)
		return rc;
	/* before connect(): the SYN carries it already (IPv6: traffic class) */
	if (tos >= 0 && setsockopt(fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP,
				   v6 ? IPV6_TCLASS : IP_TOS, &tos, sizeof(tos)) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	os_sock_nodelay(fd);
	if (connect(fd, &u.sa, ulen) < 0 && errno != EINPROGRESS) {
		/* The 4-tuple is taken: another local port may do. */
		rc = errno == EADDRNOTAVAIL ? -EADDRINUSE : -errno;
		close(fd);
		return rc;
	}
	*out = os_sock_wrap(fd);
	return *out ? 0 : -ENOMEM;
}

int os_sock_connect_result(struct os_sock *s)
{
	union os_sa sin;
	socklen_t len = sizeof(sin);
	int err = 0;

	if (getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
		return -errno;
	if (err)
		return -err;
	len = sizeof(sin);
	if (getpeername(s->fd, (struct sockaddr *)&sin, &len) < 0)
		return errno == ENOTCONN ? -EINPROGRESS : -errno;
	return 0;
}

/*
 * A socket call made under a no-I/O mutex (os.h): built with
 * LNET_LOCK_CHECKS, the process aborts naming the call, so that the test
 * run that got there shows the caller (the sanitizers print its stack).
 */
static void os_sock_noio_check(const char *call)
{
#ifdef LNET_LOCK_CHECKS
	if (os_noio_held) {
		fprintf(stderr, "lnet: %s under %d no-I/O mutex(es)\n", call, os_noio_held);
		abort();
	}
#else
	(void)call;
#endif
}

long os_sock_send(struct os_sock *s, const struct os_iov *iov, int n)
{
	struct msghdr mh = { 0 };
	ssize_t rc;

	os_sock_noio_check("os_sock_send");

	/* struct os_iov has the layout of struct iovec (base, length). */
	mh.msg_iov = (struct iovec *)iov;
	mh.msg_iovlen = (size_t)n;
	rc = sendmsg(s->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (rc < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	return rc;
}

long os_sock_recv(struct os_sock *s, void *buf, size_t len)
{
	ssize_t rc;

	os_sock_noio_check("os_sock_recv");
	rc = recv(s->fd, buf, len, MSG_DONTWAIT);
	if (rc < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	return rc;
}

long os_sock_unacked(struct os_sock *s)
{
	int n = 0;

	/* TCP's SIOCOUTQ: write_seq - snd_una, i.e. unsent + unacknowledged. */
	if (ioctl(s->fd, SIOCOUTQ, &n) < 0)
		return -errno;
	return n;
}

static unsigned int os_poll_from_revents(unsigned int re)
{
	unsigned int ev = 0;

	if (re & (POLLIN | POLLRDHUP))
		ev |= OS_POLL_IN;
	if (re & (POLLRDHUP | POLLHUP))
		ev |= OS_POLL_HUP;
	if (re & POLLOUT)
		ev |= OS_POLL_OUT;
	if (re & (POLLERR | POLLHUP))
		ev |= OS_POLL_ERR | OS_POLL_IN;
	return ev;
}

int os_sock_wait(struct os_sock *s, unsigned int events, u64 deadline_ns)
{
	struct pollfd p = { .fd = s->fd };
	u64 now;
	int rc;

	os_sock_noio_check("os_sock_wait");
	if (events & OS_POLL_IN)
		p.events |= POLLIN | POLLRDHUP;
	if (events & OS_POLL_OUT)
		p.events |= POLLOUT;
	for (;;) {
		now = os_now_ns();
		if (now >= deadline_ns)
			return 0;
		rc = poll(&p, 1, (int)((deadline_ns - now + 999999) / 1000000));
		if (rc > 0)
			return (int)os_poll_from_revents(p.revents);
		if (rc < 0 && errno != EINTR)
			return -errno;
	}
}

static int os_sock_name(struct os_sock *s, struct os_sockaddr *a, u16 *port, bool peer)
{
	union os_sa u;
	socklen_t len = sizeof(u);
	int rc;

	rc = peer ? getpeername(s->fd, &u.sa, &len) : getsockname(s->fd, &u.sa, &len);
	if (rc < 0)
		return -errno;
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

void os_sock_shutdown(struct os_sock *s)
{
	shutdown(s->fd, SHUT_RDWR);
}

void os_sock_close(struct os_sock *s)
{
	if (!s)
		return;
	close(s->fd);
	os_free(s);
}

int os_pollset_create(struct os_pollset **out)
{
	struct epoll_event e = { .events = EPOLLIN };
	struct os_pollset *ps = os_zalloc(sizeof(*ps));
	int rc;

	if (!ps)
		return -ENOMEM;
	ps->epfd = epoll_create1(EPOLL_CLOEXEC);
	ps->evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	e.data.ptr = ps;	/* the wake-up: told apart by this pointer */
	if (ps->epfd < 0 || ps->evfd < 0 ||
	    epoll_ctl(ps->epfd, EPOLL_CTL_ADD, ps->evfd, &e) < 0) {
		rc = -errno;
		if (ps->epfd >= 0)
			close(ps->epfd);
		if (ps->evfd >= 0)
			close(ps->evfd);
		os_free(ps);
		return rc;
	}
	*out = ps;
	return 0;
}

void os_pollset_destroy(struct os_pollset *ps)
{
	if (!ps)
		return;
	close(ps->epfd);
	close(ps->evfd);
	os_free(ps);
}

int os_pollset_add(struct os_pollset *ps, struct os_sock *s, void *data)
{
	struct epoll_event e = {
		.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET,
		.data.ptr = data,
	};

	return epoll_ctl(ps->epfd, EPOLL_CTL_ADD, s->fd, &e) < 0 ? -errno : 0;
}

void os_pollset_del(struct os_pollset *ps, struct os_sock *s)
{
	epoll_ctl(ps->epfd, EPOLL_CTL_DEL, s->fd, NULL);
}

static unsigned int os_poll_from_epoll(u32 re)
{
	unsigned int ev = 0;

	if (re & (EPOLLIN | EPOLLRDHUP))
		ev |= OS_POLL_IN;
	if (re & (EPOLLRDHUP | EPOLLHUP))
		ev |= OS_POLL_HUP;
	if (re & EPOLLOUT)
		ev |= OS_POLL_OUT;
	if (re & (EPOLLERR | EPOLLHUP))
		ev |= OS_POLL_ERR | OS_POLL_IN;
	return ev;
}

int os_pollset_wait(struct os_pollset *ps, struct os_poll_event *ev, int max,
		    int timeout_ms)
{
	struct epoll_event e[64];
	u64 count;
	int n, i, out = 0;

	if (max > 64)
		max = 64;
	__atomic_store_n(&ps->owner, &os_self_tag, __ATOMIC_RELAXED);
	if (ps->self_woken) {
		ps->self_woken = false;
		timeout_ms = 0;
	}
	n = epoll_wait(ps->epfd, e, max, timeout_ms);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	for (i = 0; i < n; i++) {
		if (e[i].data.ptr == ps) {
			/* Consume the wake-up so that the next wait sleeps. */
			if (read(ps->evfd, &count, sizeof(count)) < 0)
				count = 0;
			continue;
		}
		ev[out].data = e[i].data.ptr;
		ev[out].events = os_poll_from_epoll(e[i].events);
		out++;
	}
	return out;
}

void os_pollset_wake(struct os_pollset *ps)
{
	u64 one = 1;

	/*
	 * Woken by the thread that waits on it (a scheduler queueing a send
	 * on a connection it owns, from its own receive path): it is not
	 * asleep, so its next wait only has to return at once. That saves an
	 * eventfd write, its read and an epoll_wait round per message. Only
	 * the owner reads or writes self_woken.
	 */
	if (__atomic_load_n(&ps->owner, __ATOMIC_RELAXED) == &os_self_tag) {
		ps->self_woken = true;
		return;
	}
	if (write(ps->evfd, &one, sizeof(one)) < 0)
		return;	/* the counter is full: a wake-up is pending anyway */
}
