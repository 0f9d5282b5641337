/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the kernel os_sock.h files share (os_linux_sock.c: sockets and their
 * callbacks; os_linux_poll.c: poll sets and waits). See os_linux_sock.c
 * for the locking.
 */
#ifndef LNET_OS_LINUX_SOCK_H
#define LNET_OS_LINUX_SOCK_H

#include <linux/net.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <net/sock.h>
#include "os_sock.h"

struct os_pollset {
	spinlock_t ps_lock;
	struct list_head ps_ready;	/* os_sock.s_ready, marked by callbacks */
	wait_queue_head_t ps_wq;	/* the thread in os_pollset_wait() */
	bool ps_woken;			/* os_pollset_wake() not yet seen */
};

struct os_sock {
	struct socket *s_sock;
	struct os_pollset *s_ps;	/* under sk_callback_lock (write) */
	void *s_data;
	struct list_head s_ready;	/* on s_ps->ps_ready, under ps_lock */
	wait_queue_head_t s_wq;		/* os_sock_wait() */
	atomic_t s_gen;			/* callbacks seen */
	void (*s_old_data_ready)(struct sock *sk);
	void (*s_old_write_space)(struct sock *sk);
	void (*s_old_state_change)(struct sock *sk);
};

/* With sk_callback_lock held: the os_sock of @sk, NULL for none. */
static inline struct os_sock *os_sock_of(struct sock *sk)
{
	return (struct os_sock *)((uintptr_t)sk->sk_user_data & SK_USER_DATA_PTRMASK);
}

#endif /* LNET_OS_LINUX_SOCK_H */
