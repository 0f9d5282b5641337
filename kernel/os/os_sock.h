/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A narrow TCP socket API for the socket LND: IPv4 and IPv6 stream sockets that
 * never block (except os_sock_wait), vectored sends, plain receives, and a
 * poll set that scheduler threads sleep on and that other threads can wake.
 * User space implements it with BSD sockets, epoll and an eventfd
 * (os_user_sock.c); a kernel build can implement the same calls with
 * kernel sockets, sk callbacks and a wait queue.
 *
 * Addresses are 4 bytes in network order (as struct lnet_nid holds them)
 * for the IPv4-only calls, or a struct os_sockaddr (IPv4 or IPv6: a length
 * of 4 or 16 bytes) for the calls named *_at / *_to / *_from / *_addr;
 * ports are host order. Every call returns 0 (or a count) or -errno.
 */
#ifndef LNET_OS_SOCK_H
#define LNET_OS_SOCK_H

#include "os.h"

struct os_sock;
struct os_pollset;

/* An IP address: the family is told by the length, 4 or 16 bytes. */
struct os_sockaddr {
	u8 sa_len;			/* 4: IPv4, 16: IPv6 */
	u8 sa_addr[16];			/* network order, sa_len bytes used */
};

/* @addr_len bytes at @addr (4 or 16) as an os_sockaddr. */
static inline void os_sockaddr_make(struct os_sockaddr *sa, const u8 *addr, u8 addr_len)
{
	memset(sa, 0, sizeof(*sa));
	sa->sa_len = addr_len;
	memcpy(sa->sa_addr, addr, addr_len <= 16 ? addr_len : 16);
}

struct os_iov {
	void *iov_base;
	size_t iov_len;
};

/* Poll events (os_pollset_wait / os_sock_wait). */
#define OS_POLL_IN	(1U << 0)	/* readable, or EOF / error pending */
#define OS_POLL_OUT	(1U << 1)	/* writable, or a connect finished */
#define OS_POLL_ERR	(1U << 2)	/* hang-up or error */
#define OS_POLL_HUP	(1U << 3)	/* the peer shut its side: read to the end */

/*
 * Listen on @addr:@port (address reuse on, @backlog). Nonblocking.
 * -EADDRINUSE, -EADDRNOTAVAIL, -EACCES (a privileged port without the
 * right), -ENOMEM.
 */
int os_sock_listen(const u8 addr[4], u16 port, int backlog, struct os_sock **out);
/*
 * The same on an IPv4 or IPv6 address (-EAFNOSUPPORT for another length),
 * in network namespace @ns (NULL: the caller's; see os.h).
 */
int os_sock_listen_at(struct os_netns *ns, const struct os_sockaddr *addr, u16 port,
		      int backlog, struct os_sock **out);

/*
 * Accept one connection from @ls: 0 and a nonblocking *@out with the
 * peer's address and port, or -EAGAIN when none is waiting.
 */
int os_sock_accept(struct os_sock *ls, struct os_sock **out, u8 peer_addr[4],
		   u16 *peer_port);
/* The same for a listener of either family. */
int os_sock_accept_from(struct os_sock *ls, struct os_sock **out,
			struct os_sockaddr *peer, u16 *peer_port);

/*
 * Start a nonblocking connection from @laddr:@lport (@lport 0: any port)
 * to @raddr:@rport. 0 and *@out (connected or in progress: wait for
 * OS_POLL_OUT, then os_sock_connect_result()), or -errno with nothing
 * created: -EADDRINUSE when the local port is taken (try another),
 * -EADDRNOTAVAIL when @laddr is not a local address, -EACCES for a
 * privileged port without the right, -ENETUNREACH...
 */
int os_sock_connect(const u8 laddr[4], u16 lport, const u8 raddr[4], u16 rport,
		    struct os_sock **out);
/* The same in either family (both addresses of one; else -EAFNOSUPPORT). */
int os_sock_connect_to(const struct os_sockaddr *laddr, u16 lport,
		       const struct os_sockaddr *raddr, u16 rport, struct os_sock **out);
/*
 * os_sock_connect() with the IP type of service @tos (0-255; -1: the
 * system's) set before the connection starts, so that its first packet
 * carries it. -EINVAL for a @tos the system refuses.
 */
int os_sock_connect_tos(const u8 laddr[4], u16 lport, const u8 raddr[4], u16 rport,
			int tos, struct os_sock **out);
/* The same in either family, in network namespace @ns (NULL: the caller's). */
int os_sock_connect_to_tos(struct os_netns *ns, const struct os_sockaddr *laddr, u16 lport,
			   const struct os_sockaddr *raddr, u16 rport, int tos,
			   struct os_sock **out);
/* 0 once connected, -EINPROGRESS still going, or why it failed. */
int os_sock_connect_result(struct os_sock *s);

/*
 * Send from @n vectors: the bytes written (may be fewer than asked), or
 * -EAGAIN when nothing fits now, or -errno (-EPIPE, -ECONNRESET...).
 */
long os_sock_send(struct os_sock *s, const struct os_iov *iov, int n);
/*
 * Bytes written to @s that the peer's TCP has not acknowledged yet (sent
 * or still waiting to be): the count, or -errno. Written total minus
 * this is how far the peer has acknowledged the stream.
 */
long os_sock_unacked(struct os_sock *s);
/* Receive up to @len bytes: the count, 0 at end of stream, -EAGAIN, -errno. */
long os_sock_recv(struct os_sock *s, void *buf, size_t len);

/*
 * Wait until @s has one of @events or @deadline_ns (os_now_ns() clock)
 * passes: the events seen, 0 on timeout. For handshakes, not schedulers.
 */
int os_sock_wait(struct os_sock *s, unsigned int events, u64 deadline_ns);

/* The local / remote address and port of a connected socket. */
/* IPv4 only: -EAFNOSUPPORT on an IPv6 socket (use the *_addr calls). */
int os_sock_local(struct os_sock *s, u8 addr[4], u16 *port);
int os_sock_peer(struct os_sock *s, u8 addr[4], u16 *port);
int os_sock_local_addr(struct os_sock *s, struct os_sockaddr *addr, u16 *port);
int os_sock_peer_addr(struct os_sock *s, struct os_sockaddr *addr, u16 *port);

/* The IP type of service (0-255) of @s's packets (IPv6: traffic class). */
int os_sock_set_tos(struct os_sock *s, int tos);
/* The IP type of service @s's packets carry now (0-255), or -errno. */
int os_sock_get_tos(struct os_sock *s);

/*
 * Source routing of an NI's address (os_user_sock_route.c): the packets
 * from @addr, an address of interface @ifname, leave by @ifname (a rule
 * "from @addr" to a table holding the route to @ifname's subnet through
 * @ifname), what Lustre's `lnetctl setup-mrrouting` sets up. 0 and *@out
 * for os_sock_unroute_source(), or -ENODEV, -EADDRNOTAVAIL (@addr is not
 * on @ifname), -EEXIST (the rule is there: someone else's), -EPERM...
 * The kernel build has none yet: -EOPNOTSUPP, and the system's routes
 * pick the interface (the caller carries on without).
 */
struct os_sock_route {
	int r_ifindex;
	int r_prefixlen;
	u32 r_table;
	struct os_sockaddr r_addr;	/* IPv4 or IPv6 */
	bool r_set;		/* ours to remove */
};

int os_sock_route_source(const char *ifname, const struct os_sockaddr *addr,
			 struct os_sock_route *out);
/* Remove what os_sock_route_source() set up (nothing unless it succeeded). */
void os_sock_unroute_source(struct os_sock_route *r);

#ifndef __KERNEL__
/*
 * User space only, for tests that feed the socket LND from a
 * socketpair(2): the nonblocking connected stream socket @fd as an
 * os_sock (os_sock_close() closes it). 0, or -ENOMEM with @fd closed.
 */
int os_sock_from_fd(int fd, struct os_sock **out);
#endif

/* Stop both directions now (pending poll waits see OS_POLL_ERR). */
void os_sock_shutdown(struct os_sock *s);
/* Close and free (NULL is fine). Take it out of its poll set first. */
void os_sock_close(struct os_sock *s);

/*
 * A poll set: edge-triggered readiness of many sockets, each with a
 * pointer of its owner, plus a wake-up that another thread can fire.
 */
struct os_poll_event {
	void *data;		/* as given to os_pollset_add */
	unsigned int events;	/* OS_POLL_* */
};

int os_pollset_create(struct os_pollset **out);
void os_pollset_destroy(struct os_pollset *ps);
/* Watch @s for IN, OUT and errors, edge-triggered: read and write until
 * -EAGAIN before waiting again. */
int os_pollset_add(struct os_pollset *ps, struct os_sock *s, void *data);
void os_pollset_del(struct os_pollset *ps, struct os_sock *s);
/*
 * Wait up to @timeout_ms (-1: for ever) for socket events or a wake-up:
 * the number of events stored in @ev (at most @max; 0 after a wake-up or
 * a timeout), or -errno. A wake-up fired while nobody waits is kept and
 * ends the next wait at once.
 */
int os_pollset_wait(struct os_pollset *ps, struct os_poll_event *ev, int max,
		    int timeout_ms);
/* Make the current or next os_pollset_wait() return. Any thread, any lock. */
void os_pollset_wake(struct os_pollset *ps);

#endif /* LNET_OS_SOCK_H */
