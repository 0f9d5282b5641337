// SPDX-License-Identifier: GPL-2.0-only
/*
 * os_sock.h's poll sets and waits on kernel sockets: a poll set is a ready
 * list, filled by the sk callbacks (os_linux_sock.c), and a wait queue its
 * thread sleeps on. What a socket is ready for is read from the protocol
 * (sock->ops->poll) when its thread looks, not from the callback: the
 * callback says only "look at me".
 */
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/jiffies.h>
#include "os_linux_sock.h"

/* The protocol's poll bits of @s as OS_POLL_* (as epoll's, user space). */
static unsigned int os_sock_events(struct os_sock *s, __poll_t want)
{
	__poll_t re = s->s_sock->ops->poll(NULL, s->s_sock, NULL) & want;
	unsigned int ev = 0;

	if (re & (EPOLLIN | EPOLLRDHUP))
		ev |= OS_POLL_IN;
	if (re & (EPOLLRDHUP | EPOLLHUP))
		ev |= OS_POLL_HUP;
	if (re & EPOLLOUT)
		ev |= OS_POLL_OUT;
	if (re & (EPOLLERR | EPOLLHUP))
		ev |= OS_POLL_ERR | OS_POLL_IN;
	return ev;
}

/* Jiffies from now to @deadline_ns: 0 when it has passed. */
static long os_jiffies_until(u64 deadline_ns)
{
	u64 now = os_now_ns(), j;

	if (deadline_ns == OS_NO_DEADLINE)
		return MAX_SCHEDULE_TIMEOUT;
	if (now >= deadline_ns)
		return 0;
	j = nsecs_to_jiffies64(deadline_ns - now) + 1;
	return j < MAX_SCHEDULE_TIMEOUT ? (long)j : MAX_SCHEDULE_TIMEOUT;
}

/*
 * Sleep on @wq until @cond or @left jiffies: interruptible in a kthread
 * (no signals; not counted as load), killable in a task (a caught signal
 * must not end a handshake). The jiffies left, 0 on timeout, <0 if killed.
 */
#define os_sleep_on(wq, cond, left)					\
	((current->flags & PF_KTHREAD) ?				\
	 wait_event_interruptible_timeout(wq, cond, left) :		\
	 wait_event_killable_timeout(wq, cond, left))

int os_sock_wait(struct os_sock *s, unsigned int events, u64 deadline_ns)
{
	__poll_t want = EPOLLERR | EPOLLHUP;
	unsigned int ev;
	long left;
	int gen;

	if (events & OS_POLL_IN)
		want |= EPOLLIN | EPOLLRDNORM | EPOLLRDHUP;
	if (events & OS_POLL_OUT)
		want |= EPOLLOUT;
	for (;;) {
		gen = atomic_read(&s->s_gen);
		ev = os_sock_events(s, want);
		if (ev)
			return (int)ev;
		left = os_jiffies_until(deadline_ns);
		if (!left)
			return 0;
		left = os_sleep_on(s->s_wq, atomic_read(&s->s_gen) != gen, left);
		if (left < 0)
			return 0;	/* killed: as a timeout, the caller gives up */
	}
}

int os_pollset_create(struct os_pollset **out)
{
	struct os_pollset *ps = kzalloc(sizeof(*ps), GFP_KERNEL);

	if (!ps)
		return -ENOMEM;
	spin_lock_init(&ps->ps_lock);
	INIT_LIST_HEAD(&ps->ps_ready);
	init_waitqueue_head(&ps->ps_wq);
	*out = ps;
	return 0;
}

/* Every socket is out of it already (os_sock.h). */
void os_pollset_destroy(struct os_pollset *ps)
{
	kfree(ps);
}

/* Look at @s once: what epoll_ctl(ADD) reports of a socket ready already. */
static void os_pollset_queue(struct os_pollset *ps, struct os_sock *s)
{
	spin_lock_bh(&ps->ps_lock);
	if (list_empty(&s->s_ready))
		list_add_tail(&s->s_ready, &ps->ps_ready);
	spin_unlock_bh(&ps->ps_lock);
	wake_up(&ps->ps_wq);
}

int os_pollset_add(struct os_pollset *ps, struct os_sock *s, void *data)
{
	struct sock *sk = s->s_sock->sk;

	write_lock_bh(&sk->sk_callback_lock);
	if (s->s_ps) {
		write_unlock_bh(&sk->sk_callback_lock);
		return -EEXIST;
	}
	s->s_ps = ps;
	s->s_data = data;
	write_unlock_bh(&sk->sk_callback_lock);
	os_pollset_queue(ps, s);
	return 0;
}

/* No callback adds @s after the first step; the second takes it off. */
void os_pollset_del(struct os_pollset *ps, struct os_sock *s)
{
	struct sock *sk = s->s_sock->sk;

	write_lock_bh(&sk->sk_callback_lock);
	s->s_ps = NULL;
	write_unlock_bh(&sk->sk_callback_lock);
	spin_lock_bh(&ps->ps_lock);
	list_del_init(&s->s_ready);
	spin_unlock_bh(&ps->ps_lock);
}

/*
 * Take up to @max marked sockets off the ready list with their events (a
 * socket with none was marked for nothing: dropped). Under ps_lock, so
 * that os_pollset_del() cannot free one being looked at. *@woken: a
 * wake-up was pending (consumed).
 */
static int os_pollset_collect(struct os_pollset *ps, struct os_poll_event *ev,
			      int max, bool *woken)
{
	const __poll_t all = EPOLLIN | EPOLLRDNORM | EPOLLRDHUP | EPOLLOUT |
			     EPOLLERR | EPOLLHUP;
	struct os_sock *s;
	int n = 0;

	spin_lock_bh(&ps->ps_lock);
	while (n < max && !list_empty(&ps->ps_ready)) {
		s = list_first_entry(&ps->ps_ready, struct os_sock, s_ready);
		list_del_init(&s->s_ready);
		ev[n].events = os_sock_events(s, all);
		ev[n].data = s->s_data;
		if (ev[n].events)
			n++;
	}
	*woken = ps->ps_woken;
	ps->ps_woken = false;
	spin_unlock_bh(&ps->ps_lock);
	return n;
}

static bool os_pollset_pending(struct os_pollset *ps)
{
	return !list_empty_careful(&ps->ps_ready) || READ_ONCE(ps->ps_woken);
}

int os_pollset_wait(struct os_pollset *ps, struct os_poll_event *ev, int max,
		    int timeout_ms)
{
	u64 deadline = timeout_ms < 0 ? OS_NO_DEADLINE :
		       os_now_ns() + (u64)timeout_ms * 1000000ULL;
	bool woken;
	long left;
	int n;

	for (;;) {
		n = os_pollset_collect(ps, ev, max, &woken);
		if (n || woken)
			return n;
		left = os_jiffies_until(deadline);
		if (!left)
			return 0;
		left = os_sleep_on(ps->ps_wq, os_pollset_pending(ps), left);
		if (left <= 0)
			return 0;
	}
}

void os_pollset_wake(struct os_pollset *ps)
{
	spin_lock_bh(&ps->ps_lock);
	ps->ps_woken = true;
	spin_unlock_bh(&ps->ps_lock);
	wake_up(&ps->ps_wq);
}
