// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the socket LND's acceptor (socklnd_accept.c): the bytes a peer
 * sends on a connection it opened to us, from the acceptor request (v1,
 * 16 bytes, or v2, 28) through its hello (V3 with its IP list, V4) and,
 * once the handshake completed, on the connection it made (our hello
 * written, ksock_passive_finish, then the receive state machine). The
 * world (socklnd_world.h) is built once; the harness plays the acceptor
 * thread of the NIs' listener: each input gets a socketpair whose one end
 * is "accepted" (ksock_hs_start) from 10.0.0.2 or [2001:db8::2], and
 * ksock_hs_run() runs after each piece written; then, if the handshake
 * completed, scheduler rounds as in fuzz_socklnd_rx.c.
 *
 * The first byte of an input: bit 0 the NI (1: the V4 one), bit 1 the
 * source port (1: 40000, which accept=secure refuses before reading; 0:
 * 1000), bit 2 how a handshake that is still going at the end of the
 * stream ends (1: its deadline passes, ksock_hs_expire; 0: the peer's end
 * of the stream), the other bits a seed for cutting the stream into
 * pieces (0: one piece). Afterwards nothing of the input is left: no
 * handshake, no connection, the core's objects as before (as in
 * fuzz_socklnd_rx.c). Any breach aborts.
 */
#include "socklnd_world.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The acceptor "thread" of fake_listener: its handshakes in progress. */
static struct ksock_acceptor_ctx ka = { .ka_l = &fake_listener };

static struct ksock_hs *hs_pending(void)
{
	return ka.ka_npending ?
	       list_first_entry(&ka.ka_pending, struct ksock_hs, h_list) : NULL;
}

/*
 * Feed @s from @off into @fd while the handshake goes on: the offset
 * reached (the handshake completed or was dropped, or the stream ended).
 */
static size_t feed_handshake(int fd, const u8 *s, size_t len, u32 *seed)
{
	struct ksock_hs *hs;
	size_t off = 0;
	ssize_t n;
	int stuck = 0;

	while ((hs = hs_pending()) && off < len && stuck < ROUNDS_MAX) {
		n = send(fd, s + off, piece(seed, len - off), MSG_NOSIGNAL);
		must(n > 0 || errno == EAGAIN || errno == EPIPE);
		if (n > 0)
			off += (size_t)n;
		stuck = n > 0 ? 0 : stuck + 1;
		ksock_hs_run(&ka, hs);
	}
	return off;
}

/* A handshake still going when the stream is over ends as @expire says. */
static void end_handshake(int fd, bool expire)
{
	struct ksock_hs *hs = hs_pending();

	if (!hs)
		return;
	if (expire) {
		ksock_hs_expire(&ka, UINT64_MAX);
		must(!hs_pending());
		return;
	}
	shutdown(fd, SHUT_WR);
	ksock_hs_run(&ka, hs);
	/* the end of the stream ends any handshake but a complete one */
	must(!hs_pending());
}

/*
 * The NI a completed handshake attached its connection to: the one its
 * request named, which need not be the one of the address family the
 * harness "accepted" it from (a real listener has one family).
 */
static struct ksock_net *net_with_conn(int v)
{
	bool has;
	int i;

	for (i = 0; i < 2; i++) {
		os_mutex_lock(&ks.ks_lock);
		has = w.net[i]->n_nconns;
		os_mutex_unlock(&ks.ks_lock);
		if (has)
			return w.net[i];
	}
	return w.net[v];
}

/* The connection the handshake made, if any: the rest of the stream, then closed. */
static void feed_conn(struct ksock_net *net, int fd, const u8 *s, size_t len,
		      size_t off, u32 *seed)
{
	int i, stuck = 0;
	ssize_t n;

	while (off < len && stuck < ROUNDS_MAX) {
		n = send(fd, s + off, piece(seed, len - off), MSG_NOSIGNAL);
		must(n > 0 || errno == EAGAIN || errno == EPIPE);
		if (n > 0)
			off += (size_t)n;
		stuck = n > 0 ? 0 : stuck + 1;
		if (off < len && !sched_round(net, NULL, false, false))
			break;
	}
	shutdown(fd, SHUT_WR);
	for (i = 0; i < ROUNDS_MAX && sched_round(net, NULL, true, false); i++)
		;
	if (sched_round(net, NULL, false, true))
		must(!sched_round(net, NULL, false, false));
}

static void feed(int v, bool secure_port, bool expire, const u8 *s, size_t len, u32 seed)
{
	struct os_sockaddr addr;
	struct os_sock *sock;
	size_t off;
	int sv[2];

	must(!socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv));
	must(!os_sock_from_fd(sv[0], &sock));
	os_sockaddr_make(&addr, v ? v6_peer : v4_peer, v ? 16 : 4);
	ksock_hs_start(&ka, sock, &addr, secure_port ? 1000 : 40000);
	if (!secure_port)
		must(!hs_pending());	/* refused before a byte is read */
	off = feed_handshake(sv[1], s, len, &seed);
	end_handshake(sv[1], expire);
	feed_conn(net_with_conn(v), sv[1], s, len, off, &seed);
	close(sv[1]);
	must(!ka.ka_npending && list_empty(&ka.ka_pending));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u32 cut;

	if (!size)
		return 0;
	if (!w.up) {
		world_init();
		INIT_LIST_HEAD(&ka.ka_pending);
	}
	cut = data[0] >> 3;
	feed(data[0] & 1, !(data[0] & 2), data[0] & 4, data + 1, size - 1,
	     cut ? 0x9e3779b9U * cut : 0);
	lnd_reset();
	check_idle();
	if (w.ln.ln_npeer_nis > PEERS_MAX)
		world_fini();
	return 0;
}
