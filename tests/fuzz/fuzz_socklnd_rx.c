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
#include "socklnd_world.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
