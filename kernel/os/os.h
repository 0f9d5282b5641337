/* SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later */
/*
 * The OS layer: the only header of kernel/ that names the host. Code in
 * kernel/ includes this and nothing of libc or of the Linux kernel
 * directly, so that the same sources build into lnetd (user space, libc)
 * and into the lnet module (Linux kernel). What it offers:
 *
 *   types      u8 u16 u32 u64 s32 s64 bool, size_t, NULL
 *   errors     the E* constants (negative values are returned everywhere)
 *   memory     os_zalloc(size) (zeroed; NULL on failure), os_free(p);
 *              os_zalloc_pages(size): the same, starting on a page
 *              boundary (selftest's brw buffers), freed by os_free
 *   strings    memcpy memset memcmp strlen strcmp strncmp strchr snprintf
 *              (the subset that libc and the kernel both provide)
 *   lists      struct list_head and the kernel's list_* helpers
 *   locking    struct os_mutex: os_mutex_init/lock/unlock/destroy;
 *              os_mutex_init_noio(): a mutex under which no thread
 *              sends, receives or waits on a socket (the core's
 *              ln_api_mutex, the socket LND's ks_lock: a network system
 *              call there would hold every other thread up). User space
 *              counts the ones a thread holds; built with
 *              LNET_LOCK_CHECKS (the sanitized builds: unit tests, the
 *              soak's lnetd) os_sock_send/recv/wait abort when called
 *              under one. The module does not count: its socket calls
 *              come from the same code, checked in user space.
 *              struct os_cond: os_cond_init/destroy/wait/broadcast
 *   threads    struct os_thread: os_thread_start/join
 *   logging    os_err/os_warn/os_info(fmt, ...): see below
 *   network    os_if_lookup(): an interface's address and link state;
 *              struct os_netns, the network namespace an instance serves
 *   time       os_now_ns(), os_relax() in a short busy-wait
 */
#ifndef LNET_OS_H
#define LNET_OS_H

#ifdef __KERNEL__
#include "os_linux.h"
#else
#include "os_user.h"
#endif

#include "list.h"

/*
 * Logging, by severity as the kernel's pr_err/pr_warn/pr_info/pr_debug:
 *   os_err   a failure that loses function (a thread, a buffer, a list
 *            not set up: something no longer works as configured)
 *   os_warn  input refused or odd (a bad header, a refused connection,
 *            an NI kept as configuration only)
 *   os_warn_ratelimited
 *            the same, for what a remote peer can trigger at will (its
 *            headers, its connections): the first lines of a call site
 *            always show, a flood is cut down (kernel: pr_warn_ratelimited;
 *            user space: OS_RATELIMIT_BURST lines per call site and
 *            OS_RATELIMIT_INTERVAL_NS, then one line counting the others
 *            at the site's next line after the interval)
 *   os_info  lifecycle (module load and unload, a connection closed)
 *   os_debug what only a developer follows (kernel: pr_debug, dynamic
 *            debug; lnetd: shown with --verbose)
 * The host adds the one product prefix: the lnet module's pr_fmt puts
 * "lnet: " in front, lnetd's log the time stamp and the level. So a
 * message of the core has no prefix of its own; one of another part
 * names that part ("socklnd: ", "udsp: ", "selftest: "). Lines end in
 * "\n" (the kernel needs it; lnetd adds a missing one).
 */

/*
 * What os_if_lookup() reports about one interface: its first usable
 * address of each family (has4/addr4, has6/addr6), and in addr/addr_len
 * the IPv4 one, else the IPv6 one (what most callers want).
 */
struct os_ifaddr {
	u8   addr_len;		/* 4 (IPv4) or 16 (IPv6) */
	u8   addr[16];		/* network byte order */
	bool has4, has6;	/* addr4 / addr6 hold an address */
	u8   addr4[4];		/* the first IPv4 address, not loopback */
	u8   addr6[16];		/* the first global IPv6 address */
	bool up;		/* IFF_UP and carrier */
	int  ifindex;		/* the device's index in its namespace (> 0) */
	u32  speed_mbps;	/* link speed in Mb/s, 0 when the device tells none */
};

/* addr/addr_len from has4/has6: IPv4 first. False when it has neither. */
static inline bool os_ifaddr_pick(struct os_ifaddr *a)
{
	if (a->has4) {
		a->addr_len = 4;
		memcpy(a->addr, a->addr4, 4);
	} else if (a->has6) {
		a->addr_len = 16;
		memcpy(a->addr, a->addr6, 16);
	}
	return a->has4 || a->has6;
}

/*
 * Look up interface @ifname: its first IPv4 address and its first global
 * IPv6 address. Loopback and link-local addresses are never returned.
 * The speed is the device's ethtool link speed (veth says 10000).
 * Returns 0, -ENODEV (no such interface) or -EADDRNOTAVAIL (no usable
 * address).
 */
int os_if_lookup(const char *ifname, struct os_ifaddr *out);
/*
 * The name of the @index-th interface (0, 1, ... in the system's order)
 * into @name (IFNAMSIZ, 16 bytes): 0, or -ENOENT past the last one.
 */
int os_if_name(u32 index, char *name);

/*
 * A network namespace (kernel: struct net; user space: none, the
 * process's own). The lnet module binds each instance to the namespace it
 * serves (struct lnet.ln_netns) so that its interfaces are looked up and
 * its sockets made there, whatever thread asks (an ioctl, a kworker, an
 * LND thread). NULL means the calling task's namespace: in user space the
 * process's, in the kernel current's (a kthread's is the initial one).
 */
struct os_netns;

/* os_if_lookup() / os_if_name() in @ns (NULL: as they are). */
int os_if_lookup_ns(struct os_netns *ns, const char *ifname, struct os_ifaddr *out);
int os_if_name_ns(struct os_netns *ns, u32 index, char *name);

u64 os_now_ns(void);
/*
 * Between two looks of a short busy-wait: let another task run if one
 * is due (kernel: cond_resched()); user space has nothing to do, its
 * look is a system call already.
 */
void os_relax(void);

/*
 * Wait on @c with @m held: @m is released while waiting and held again on
 * return. Returns 0 when woken (or spuriously: callers re-check their
 * condition in a loop), -ETIMEDOUT once os_now_ns() >= @deadline_ns
 * (OS_NO_DEADLINE waits for ever). In the kernel, a task being killed
 * (fatal signal) also gets -ETIMEDOUT, so that every wait loop ends.
 */
#define OS_NO_DEADLINE	((u64)~0ULL)
/*
 * os_cond_wait_intr(c, m, deadline_ns): os_cond_wait() that also ends with
 * -EINTR when the caller is asked to stop: in the kernel, the task in the
 * ioctl has SIGINT pending (the shell's Ctrl-C); in user space, never (an
 * lnetd client that stops waiting closes its connection instead). Only
 * for waits the caller can abandon: a ping's, a discovery's.
 */
/* os_cond_broadcast(c): wake every waiter of @c (call with the mutex held). */

/*
 * Start a thread running @fn(@arg); @name shows in ps (kernel) / the log.
 * 0 or -errno. os_thread_join() waits for @fn to return: the caller tells
 * the thread to stop first (a flag under a mutex, then a broadcast).
 */
int os_thread_start(struct os_thread *t, int (*fn)(void *), void *arg,
		    const char *name);
void os_thread_join(struct os_thread *t);
/* Is the calling thread @t (started, not joined)? */
bool os_thread_is_current(const struct os_thread *t);

/* Random bytes that need not be secret (incarnations, cookies). */
u64 os_random_u64(void);

#endif /* LNET_OS_H */
