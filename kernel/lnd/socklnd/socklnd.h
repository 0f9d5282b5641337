/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The socket LND (LNET_LND_TCP): LNet over TCP with the Lustre socket
 * LND's wire format (see kernel/wire/lnet_wire.h), so that our nodes and
 * Lustre nodes talk to each other. The same files build into lnetd
 * (os_sock.h on BSD sockets and epoll) and into lnet.ko (on kernel
 * sockets, sk callbacks and wait queues): they go through os_sock.h only.
 */
#ifndef LNET_SOCKLND_H
#define LNET_SOCKLND_H

#include "../../core/lnet.h"

extern const struct lnet_lnd lnet_socklnd;

/*
 * Register the socket LND with @ln (before lnet_configure). The first call
 * of the process also sets up the LND's shared state. 0 or -errno from
 * lnet_lnd_register().
 */
int lnet_socklnd_register(struct lnet *ln);

/*
 * The TCP port the acceptors listen on and connections go to: 0 restores
 * LNET_ACCEPTOR_PORT (988). lnetd's --accept-port (or LNET_ACCEPT_PORT);
 * applies to NIs started afterwards.
 */
void lnet_socklnd_set_port(u16 port);

/*
 * The acceptor's other settings (lnet_tunables.h: LNET_ACCEPT_MODES,
 * LNET_ACCEPTOR_TUNABLES), checked against their table by the caller:
 * which connections it takes (secure: from privileged ports only; none:
 * no listener, our own connections only), its listen backlog, and the
 * seconds a connection has for its handshake. For NIs started afterwards.
 */
void lnet_socklnd_set_accept(enum lnet_accept_mode mode, u32 backlog, u32 timeout_s);

#endif /* LNET_SOCKLND_H */
