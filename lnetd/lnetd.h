/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lnetd: hosts one LNet instance in user space and serves the ioctl ABI
 * of include/uapi/lnet/lnet_ioctl.h on a Unix stream socket.
 *
 * Wire framing on the socket (all fields host byte order: both ends are
 * on the same machine; libcfg/transport.c is the client side):
 *
 *   request   u32 cmd                 the ioctl number (IOC_LIBCFS_*)
 *             ioc_len bytes           the ioctl buffer, starting with
 *                                     struct lnet_ioc_hdr (ioc_len, ioc_version)
 *   reply     s32 rc                  0 or -errno, as lnet_ioctl() returned
 *             u32 len                 ioc_len of the request, or 0
 *             len bytes               the buffer after the command ran
 *
 * ioc_len is checked (sizeof(struct lnet_ioc_hdr) <= ioc_len <=
 * LNET_IOC_MAX_LEN) before anything else is read. A request with a bad
 * ioc_len gets rc -EINVAL, len 0, and its connection is closed (the stream
 * cannot be resynchronised). The buffer comes back even when rc is not 0,
 * since some errors carry data (GET_UDSP -ENOSPC returns the size needed).
 * Anyone who can connect may run the commands that only read; those the
 * ioctl table marks as modifying get -EPERM unless the connecting process
 * held CAP_NET_ADMIN in lnetd's user namespace when its connection was
 * accepted (cred.c tells how that is found out, and its limits).
 *
 * One request at a time per connection (the next is read once the reply
 * is out); requests of different connections run at the same time, so a
 * ping waiting for the network does not hold up another client's show.
 */
#ifndef LNETD_H
#define LNETD_H

#include <stdbool.h>
#include <sys/types.h>

#include "../kernel/os/os.h"
#include "lnet/lnet_ioctl.h"

struct lnet;

/* Bytes before the ioctl buffer in a request, and before it in a reply. */
#define LNETD_REQ_HEAD		4	/* u32 cmd */
#define LNETD_REPLY_HEAD	8	/* s32 rc, u32 len */
/* Connections served at once; more are accepted and closed with a log line. */
#define LNETD_MAX_CONNS		256
/*
 * Of them, those kept for clients that may modify: anyone may connect (and
 * hold connections open), so clients that may only show get at most
 * LNETD_MAX_CONNS - LNETD_ADMIN_CONNS, and an administrator always gets in.
 */
#define LNETD_ADMIN_CONNS	32
/*
 * Seconds a client has to finish sending a request it began, and to read
 * a reply: then the connection is closed. lnetctl writes a request at
 * once and reads its reply at once, so only a stalled or hostile client
 * meets it; an idle connection (an interactive shell's) has no deadline.
 */
#define LNETD_CLIENT_TIMEOUT_S	10
/*
 * Requests run on worker threads (lnet_ioctl() may wait for the network),
 * started as needed up to this many; more requests at once wait in a queue.
 */
#define LNETD_MAX_WORKERS	32

/*
 * The framing of one request (request.c), apart from the socket: the
 * loop reads into lnetd_req_next() and tells lnetd_req_got() what came.
 */
struct lnetd_req {
	u8 head[LNETD_REQ_HEAD + sizeof(struct lnet_ioc_hdr)];
	u32 head_got;
	u32 cmd;
	u8 *buf;			/* len (ioc_len) bytes, NULL until the head is in */
	u32 len, got;
};

/* Where the next bytes go, and how many are still missing (> 0). */
u8 *lnetd_req_next(struct lnetd_req *r, size_t *want);
/*
 * @n (<= the last want) more bytes arrived: 1 when the request is
 * complete (cmd, buf, len), 0 while more are missing, -EINVAL when the
 * head's ioc_len is out of range (in len; nothing allocated: the stream
 * cannot be resynchronised), -ENOMEM.
 */
int lnetd_req_got(struct lnetd_req *r, size_t n);
/* Some bytes of a request are in. */
bool lnetd_req_started(const struct lnetd_req *r);
/* Free the buffer and wait for a new head. */
void lnetd_req_reset(struct lnetd_req *r);

/* The connecting process, as SO_PEERCRED tells it (at connect()). */
struct lnetd_peer {
	pid_t pid;			/* in our pid namespace; 0: not visible */
	uid_t uid;			/* effective uid */
};

/*
 * May the process at the other end of the connected Unix socket @fd
 * (@p from its SO_PEERCRED) modify LNet? 0 and *@may, or -errno (*@may
 * false): -ESRCH it is gone or out of sight, -EPERM its uid changed since
 * connect() or it is in another user namespace, -ENOENT no /proc...
 */
int lnetd_peer_may_modify(int fd, const struct lnetd_peer *p, bool *may);

/*
 * Serve @listen_fd until a signal readable on @signal_fd (SIGTERM, SIGINT)
 * arrives. Returns 0 on a clean stop, -errno if the loop itself failed.
 */
int lnetd_serve(struct lnet *ln, int listen_fd, int signal_fd);

/*
 * The link monitor (link.c): a thread that follows rtnetlink link and
 * address events in lnetd's network namespace and calls lnet_link_event()
 * for the interface concerned. Start: 0 or -errno. Stop joins the thread.
 */
int lnetd_link_start(struct lnet *ln);
void lnetd_link_stop(void);

/*
 * printf-style line into lnetd's log (os_log), "lnetd: " prefixed, at the
 * levels of the core's (os.h): a failure that loses function, refused or
 * odd input, lifecycle.
 */
void lnetd_log(enum os_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define lnetd_err(...)	lnetd_log(OS_LOG_ERR, __VA_ARGS__)
#define lnetd_warn(...)	lnetd_log(OS_LOG_WARN, __VA_ARGS__)
#define lnetd_info(...)	lnetd_log(OS_LOG_INFO, __VA_ARGS__)
#define lnetd_debug(...)	lnetd_log(OS_LOG_DEBUG, __VA_ARGS__)
/* A warning any local user can cause at will: its call site is rate limited. */
#define lnetd_warn_ratelimited(...)					\
	do {								\
		static struct os_ratelimit lnetd_rl_;			\
									\
		if (os_ratelimit_ok(&lnetd_rl_))			\
			lnetd_warn(__VA_ARGS__);			\
	} while (0)

#endif /* LNETD_H */
