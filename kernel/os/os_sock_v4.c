// SPDX-License-Identifier: GPL-2.0-only
/*
 * The IPv4-only calls of os_sock.h, for both OS layers: each is a 4-byte
 * address made into a struct os_sockaddr (or checked to be one) around
 * the family-neutral call that os_user_sock.c and os_linux_sock.c each
 * implement.
 */
#include "os_sock.h"

int os_sock_listen(const u8 addr[4], u16 port, int backlog, struct os_sock **out)
{
	struct os_sockaddr a;

	os_sockaddr_make(&a, addr, 4);
	return os_sock_listen_at(NULL, &a, port, backlog, out);
}

int os_sock_accept(struct os_sock *ls, struct os_sock **out, u8 peer_addr[4],
		   u16 *peer_port)
{
	struct os_sockaddr a;
	int rc = os_sock_accept_from(ls, out, &a, peer_port);

	if (rc)
		return rc;
	if (a.sa_len != 4) {
		os_sock_close(*out);
		*out = NULL;
		return -EAFNOSUPPORT;
	}
	memcpy(peer_addr, a.sa_addr, 4);
	return 0;
}

int os_sock_connect(const u8 laddr[4], u16 lport, const u8 raddr[4], u16 rport,
		    struct os_sock **out)
{
	return os_sock_connect_tos(laddr, lport, raddr, rport, -1, out);
}

int os_sock_connect_tos(const u8 laddr[4], u16 lport, const u8 raddr[4], u16 rport,
			int tos, struct os_sock **out)
{
	struct os_sockaddr l, r;

	os_sockaddr_make(&l, laddr, 4);
	os_sockaddr_make(&r, raddr, 4);
	return os_sock_connect_to_tos(NULL, &l, lport, &r, rport, tos, out);
}

int os_sock_connect_to(const struct os_sockaddr *laddr, u16 lport,
		       const struct os_sockaddr *raddr, u16 rport, struct os_sock **out)
{
	return os_sock_connect_to_tos(NULL, laddr, lport, raddr, rport, -1, out);
}

/* An IPv4 address from an os_sockaddr call, or -EAFNOSUPPORT. */
static int os_sock_name4(int rc, const struct os_sockaddr *a, u8 addr[4])
{
	if (!rc && a->sa_len != 4)
		rc = -EAFNOSUPPORT;
	if (!rc)
		memcpy(addr, a->sa_addr, 4);
	return rc;
}

int os_sock_local(struct os_sock *s, u8 addr[4], u16 *port)
{
	struct os_sockaddr a;

	return os_sock_name4(os_sock_local_addr(s, &a, port), &a, addr);
}

int os_sock_peer(struct os_sock *s, u8 addr[4], u16 *port)
{
	struct os_sockaddr a;

	return os_sock_name4(os_sock_peer_addr(s, &a, port), &a, addr);
}
