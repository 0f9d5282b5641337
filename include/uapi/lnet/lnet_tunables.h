/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The ranges and defaults of LNet's settings: one row each, and every user
 * (the kernel's checks, libcfg's YAML and argv parsers, lnetctl's help,
 * the tests of the man pages and schemas) expands these rows instead of
 * writing a number again. Included by lnet_ioctl.h.
 *
 * Tunable tables (per NI today; per LND later) have rows
 *     X(id, name, opt, letter, min, max, def, help)
 *   id    the enum constant made for the row (its index in the table)
 *   name  the YAML key and the field of the struct made from the table
 *   opt   the lnetctl option, without "--"; letter its one-letter form
 *         (0 for none)
 *   min, max, def   the allowed range and the value -1 stands for
 *   help  a phrase for lnetctl's help; the range is appended to it
 * The setting table has rows
 *     X(name, id, min, max, def)
 *   name  the YAML key and `lnetctl set` sub-command
 *   id    its enum lnet_global constant (the ABI number is fixed there:
 *         a new setting is a number there and a row here)
 * The rows of LNET_GLOBALS are in the order `global show` prints them.
 * The router buffer table has rows
 *     X(id, name, min, max, def)
 *   id    its enum lnet_buf_kind constant (its index, and its place in
 *         struct lnet_ioc_routing: rtr_tiny, rtr_small, rtr_large)
 *   name  the key of the YAML `buffers:` section; `lnetctl set` calls it
 *         <name>_buffers
 *   min, max  the range of a count; 0 stands for def
 *
 * min, max and def are plain decimal literals: lnetctl's help and the man
 * page tests stringify them. Each row also names its numbers: <id>_MIN,
 * <id>_MAX and <id>_DEF (LNET_TUN_CREDITS_MAX, LNET_GLOBAL_RETRY_COUNT_DEF,
 * LNET_BUF_TINY_MIN).
 * A tunable table is ABI (its struct is in an ioctl, and in struct
 * cfg_net of liblnetcfg): its rows are Lustre's four NI tunables and stay
 * so. Per-LND tunables (tcp's conns_per_peer, o2ib's map_on_demand, ...)
 * get a table and a struct of their own, carried where the ioctls and the
 * model have room for new fields (the ioctl's reserved words, the end of
 * struct cfg_net), never by growing this one. LNET_SOCK_TUNABLES is the
 * first: its three words took three of the four reserved words of struct
 * lnet_ioc_ni (ni_lnd_tun), so it stays at three rows.
 */
#ifndef _UAPI_LNET_TUNABLES_H
#define _UAPI_LNET_TUNABLES_H

#include <linux/types.h>

/* Per NI (IOC_LIBCFS_ADD_NET, GET_NET: ni_tun); -1 = the default. */
#define LNET_NI_TUNABLES(X)						\
	X(LNET_TUN_PEER_TIMEOUT, peer_timeout, "peer-timeout", 't',	\
	  0, 86400, 180, "seconds before a silent peer is dead")	\
	X(LNET_TUN_PEER_CREDITS, peer_credits, "peer-credits", 'c',	\
	  1, 1024, 8, "concurrent sends to one peer")			\
	X(LNET_TUN_PEER_BUFFER_CREDITS, peer_buffer_credits,		\
	  "peer-buffer-credits", 'b', 0, 16384, 0,			\
	  "router buffer credits per peer")				\
	X(LNET_TUN_CREDITS, credits, "credits", 'r',			\
	  1, 65536, 256, "concurrent sends on the NI")

/*
 * The socket LND's tunables of a tcp NI (IOC_LIBCFS_ADD_NET, GET_NET:
 * ni_lnd_tun), Lustre's `lnd tunables:` keys; rows as LNET_NI_TUNABLES.
 * -1 stands for def, and where def is -1 the value is derived:
 *   conns_per_peer  BULK_IN and BULK_OUT connections the LND opens to
 *                   each peer NI, each (CONTROL stays one). 0 and -1: the
 *                   LND chooses by the interface's link speed, Lustre's
 *                   rule (1 up to 4 Gb/s, 2 from 4 (veth: 10), 3 from 16,
 *                   4 from 64 Gb/s...; 1 when the device tells none).
 *                   GET_NET reports the value in force; a change applies
 *                   to the connections opened from then on.
 *   timeout         seconds a send may wait in the LND; -1 (the default)
 *                   follows the global lnd_timeout ((transaction_timeout
 *                   - 1) / (retry_count + 1)) as it changes. GET_NET
 *                   reports the value in force.
 *   tos             the IP type of service of the NI's connections; -1
 *                   (the default) leaves the system's.
 * The rows are in the order `net show -v` prints them, as Lustre.
 */
#define LNET_SOCK_TUNABLES(X)						\
	X(LNET_SOCK_CONNS_PER_PEER, conns_per_peer, "conns-per-peer", 'm', \
	  0, 127, 0, "connections to each peer (0: the LND chooses)")	\
	X(LNET_SOCK_TIMEOUT, timeout, "lnd-timeout", 0,		\
	  1, 86400, -1, "seconds a send may wait in the LND")		\
	X(LNET_SOCK_TOS, tos, "tos", 0,					\
	  -1, 255, -1, "IP type of service of the connections (-1: unset)")

/*
 * The global settings (IOC_LIBCFS_SET_GLOBAL). lnd_timeout is not a row:
 * it is read-only, derived from transaction_timeout and retry_count. No
 * setting goes above 2147483647 (INT_MAX).
 */
#define LNET_GLOBALS(X)							\
	X(numa_range, LNET_GLOBAL_NUMA_RANGE, 0, 2147483647, 0)		\
	X(max_interfaces, LNET_GLOBAL_MAX_INTERFACES, 16, 16384, 4096)	\
	X(discovery, LNET_GLOBAL_DISCOVERY, 0, 1, 1)			\
	X(drop_asym_route, LNET_GLOBAL_DROP_ASYM_ROUTE, 0, 1, 0)	\
	X(retry_count, LNET_GLOBAL_RETRY_COUNT, 0, 100, 2)		\
	X(transaction_timeout, LNET_GLOBAL_TRANSACTION_TIMEOUT, 1, 86400, 150) \
	X(health_sensitivity, LNET_GLOBAL_HEALTH_SENSITIVITY, 0, 1000, 100) \
	X(recovery_interval, LNET_GLOBAL_RECOVERY_INTERVAL, 1, 86400, 1) \
	X(router_sensitivity, LNET_GLOBAL_ROUTER_SENSITIVITY, 0, 100, 100) \
	X(response_tracking, LNET_GLOBAL_RESPONSE_TRACKING, 0, 3, 3)	\
	X(recovery_limit, LNET_GLOBAL_RECOVERY_LIMIT, 0, 2147483647, 0) \
	X(max_recovery_ping_interval, LNET_GLOBAL_MAX_RECOVERY_PING_INTERVAL, \
	  1, 2147483647, 900)						\
	X(alive_router_check_interval,					\
	  LNET_GLOBAL_ALIVE_ROUTER_CHECK_INTERVAL, 0, 86400, 60)	\
	X(router_ping_timeout, LNET_GLOBAL_ROUTER_PING_TIMEOUT, 1, 86400, 50) \
	X(avoid_asym_router_failure, LNET_GLOBAL_AVOID_ASYM_ROUTER_FAILURE, \
	  0, 1, 1)

/*
 * Router buffers (IOC_LIBCFS_ADD_BUF, GET_BUF), in the order of the
 * fields of struct lnet_ioc_routing.
 */
#define LNET_BUFFERS(X)							\
	X(LNET_BUF_TINY, tiny, 1, 1048576, 2048)			\
	X(LNET_BUF_SMALL, small, 1, 1048576, 16384)			\
	X(LNET_BUF_LARGE, large, 1, 1048576, 1024)

/*
 * The acceptor's settings: Lustre's lnet module parameters of these
 * names (fixed when LNet loads, read-only after), and the environment
 * variables of its user-space acceptor. lnetd takes them as options
 * (--accept-port ...) or from the environment, before any NI starts; no
 * ioctl carries them. Rows X(id, name, opt, env, min, max, def, help):
 *   accept_port     the TCP port of every node's acceptor: ours listen on
 *                   it and our connections go to it
 *   accept_backlog  the listen(2) backlog of each acceptor
 *   accept_timeout  seconds a new connection has for its acceptor request
 *                   and hello before it is dropped
 */
#define LNET_ACCEPTOR_TUNABLES(X)					\
	X(LNET_ACC_PORT, accept_port, "accept-port", "LNET_ACCEPT_PORT",	\
	  1, 65535, 988, "TCP port of the acceptors, the same on every node") \
	X(LNET_ACC_BACKLOG, accept_backlog, "accept-backlog",		\
	  "LNET_ACCEPT_BACKLOG", 1, 65535, 127,				\
	  "listen backlog of each acceptor")				\
	X(LNET_ACC_TIMEOUT, accept_timeout, "accept-timeout",		\
	  "LNET_ACCEPT_TIMEOUT", 1, 3600, 5,				\
	  "seconds a connection has for its acceptor request and hello")

/*
 * `accept`: the connections the acceptors take (Lustre's module parameter
 * accept, LNET_ACCEPT in its user-space acceptor). Rows X(id, name, help);
 * the first is the default. A privileged port is one below 1024, which
 * only a process with CAP_NET_BIND_SERVICE can bind: our connections come
 * from 1023 down to 512 when they may (see the socket LND).
 */
#define LNET_ACCEPT_MODES(X)						\
	X(LNET_ACCEPT_SECURE, secure,					\
	  "only connections from privileged ports (below 1024)")	\
	X(LNET_ACCEPT_ALL, all, "connections from any port")		\
	X(LNET_ACCEPT_NONE, none, "no acceptor: only our own connections")

/* --- what the tables make ------------------------------------------------- */

#define __LNET_TUN_ENUM(id, name, opt, letter, min, max, def, help)	id,
#define __LNET_TUN_FIELD(id, name, opt, letter, min, max, def, help)	__s32 name;
#define __LNET_TUN_NUMS(id, name, opt, letter, min, max, def, help)	\
	id##_MIN = (min), id##_MAX = (max), id##_DEF = (def),
#define __LNET_GLOBAL_NUMS(name, id, min, max, def)		\
	id##_MIN = (min), id##_MAX = (max), id##_DEF = (def),
#define __LNET_BUF_ENUM(id, name, min, max, def)	id,
#define __LNET_BUF_NUMS(id, name, min, max, def)		\
	id##_MIN = (min), id##_MAX = (max), id##_DEF = (def),

#define __LNET_ACC_ENUM(id, name, opt, env, min, max, def, help)	id,
#define __LNET_ACC_NUMS(id, name, opt, env, min, max, def, help)	\
	id##_MIN = (min), id##_MAX = (max), id##_DEF = (def),
#define __LNET_ACCEPT_ENUM(id, name, help)	id,

enum lnet_acceptor_tunable {
	LNET_ACCEPTOR_TUNABLES(__LNET_ACC_ENUM)
	__LNET_ACC_MAX
};

enum lnet_accept_mode {
	LNET_ACCEPT_MODES(__LNET_ACCEPT_ENUM)
	__LNET_ACCEPT_MAX
};

enum lnet_ni_tunable {
	LNET_NI_TUNABLES(__LNET_TUN_ENUM)
	__LNET_TUN_MAX
};

/* One __s32 per row, in row order (an ioctl carries it: 16 bytes). */
struct lnet_ni_tunables {
	LNET_NI_TUNABLES(__LNET_TUN_FIELD)
};

enum lnet_sock_tunable {
	LNET_SOCK_TUNABLES(__LNET_TUN_ENUM)
	__LNET_SOCK_TUN_MAX
};

/* One __s32 per row, in row order (12 bytes in struct lnet_ioc_ni). */
struct lnet_sock_tunables {
	LNET_SOCK_TUNABLES(__LNET_TUN_FIELD)
};

enum lnet_buf_kind {
	LNET_BUFFERS(__LNET_BUF_ENUM)
	LNET_NBUF_KINDS
};

enum {
	LNET_NI_TUNABLES(__LNET_TUN_NUMS)
	LNET_SOCK_TUNABLES(__LNET_TUN_NUMS)
	LNET_GLOBALS(__LNET_GLOBAL_NUMS)
	LNET_BUFFERS(__LNET_BUF_NUMS)
	LNET_ACCEPTOR_TUNABLES(__LNET_ACC_NUMS)
};

/* Only LNET_ names stay for the includer. */
#undef __LNET_TUN_ENUM
#undef __LNET_TUN_FIELD
#undef __LNET_TUN_NUMS
#undef __LNET_GLOBAL_NUMS
#undef __LNET_BUF_ENUM
#undef __LNET_BUF_NUMS
#undef __LNET_ACC_ENUM
#undef __LNET_ACC_NUMS
#undef __LNET_ACCEPT_ENUM

#endif /* _UAPI_LNET_TUNABLES_H */
