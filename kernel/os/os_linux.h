/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The OS layer in the Linux kernel: the lnet module (kernel/module/).
 * Everything os.h promises, from the kernel's own headers. The list API
 * is the kernel's <linux/list.h> (kernel/os/list.h defines nothing under
 * __KERNEL__).
 */
#ifndef LNET_OS_LINUX_H
#define LNET_OS_LINUX_H

#include <linux/types.h>	/* u8..u64, s32, s64, bool, size_t */
#include <linux/stddef.h>	/* NULL, offsetof */
#include <linux/errno.h>
#include <linux/kernel.h>	/* snprintf, container_of */
#include <linux/string.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/mm.h>		/* kvzalloc, kvfree */
#include <linux/vmalloc.h>	/* vzalloc */
#include <linux/printk.h>
#include <asm/byteorder.h>

/*
 * Zeroed memory that may sleep (every caller runs in process context under
 * ln_api_mutex). kvzalloc takes the slab for small sizes and falls back to
 * vmalloc for the large ones (peer NI hash tables), so one free fits both.
 */
static inline void *os_zalloc(size_t size)
{
	return kvzalloc(size, GFP_KERNEL);
}

static inline void os_free(const void *p)
{
	kvfree(p);
}

/* vmalloc memory starts on a page; kvfree (os_free) takes it too. */
static inline void *os_zalloc_pages(size_t size)
{
	return vzalloc(size);
}

struct os_mutex {
	struct mutex m;
};

/*
 * A macro, not a function: mutex_init() gives every call site its own
 * lockdep class key, which a shared inline function would merge into one.
 */
#define os_mutex_init(om)	mutex_init(&(om)->m)
/* not counted here: the same callers are checked in user space (os.h) */
#define os_mutex_init_noio(om)	mutex_init(&(om)->m)

static inline void os_mutex_lock(struct os_mutex *m)
{
	mutex_lock(&m->m);
}

static inline void os_mutex_unlock(struct os_mutex *m)
{
	mutex_unlock(&m->m);
}

static inline void os_mutex_destroy(struct os_mutex *m)
{
	mutex_destroy(&m->m);
}

#include <linux/wait.h>
#include <linux/atomic.h>
#include <linux/sched.h>

/* See os.h: a wait queue and a generation count stand in for a condvar. */
struct os_cond {
	wait_queue_head_t wq;
	atomic_t gen;
};

#define os_cond_init(oc)	do { init_waitqueue_head(&(oc)->wq); \
				     atomic_set(&(oc)->gen, 0); } while (0)
static inline void os_cond_destroy(struct os_cond *c)
{
}

int os_cond_wait(struct os_cond *c, struct os_mutex *m, u64 deadline_ns);
int os_cond_wait_intr(struct os_cond *c, struct os_mutex *m, u64 deadline_ns);
void os_cond_broadcast(struct os_cond *c);

#include <linux/completion.h>

struct task_struct;
struct os_thread {
	struct task_struct *task;
	struct completion running;	/* fn has been called */
	int (*fn)(void *arg);
	void *arg;
	bool started;
};

/* The kernel log at the call's level, prefixed "lnet: " by the module's pr_fmt. */
#define os_err(fmt, ...)	pr_err(fmt, ##__VA_ARGS__)
#define os_warn(fmt, ...)	pr_warn(fmt, ##__VA_ARGS__)
#define os_info(fmt, ...)	pr_info(fmt, ##__VA_ARGS__)
#define os_debug(fmt, ...)	pr_debug(fmt, ##__VA_ARGS__)
#define os_warn_ratelimited(fmt, ...) pr_warn_ratelimited(fmt, ##__VA_ARGS__)

/*
 * In the kernel an os_netns is a struct net (os.h): the namespace itself,
 * the caller holding a reference for as long as it is used.
 */
struct net;
struct os_netns;
static inline struct os_netns *os_netns_of(struct net *net)
{
	return (struct os_netns *)net;
}

/* @ns as a struct net; NULL: the calling task's (a kthread's: init_net). */
struct net *os_netns_net(struct os_netns *ns);

#define os_htonl(x)	((__force u32)cpu_to_be32(x))
#define os_ntohl(x)	((u32)be32_to_cpu((__force __be32)(x)))

#endif /* LNET_OS_LINUX_H */
