// SPDX-License-Identifier: GPL-2.0-only
/*
 * The OS layer in the Linux kernel: interface addresses and time.
 *
 * Interfaces are looked up in the namespace the caller names (an
 * instance's ln_netns: the namespace it serves, whichever thread asks),
 * or for NULL in that of the calling task (the initial namespace without
 * a task context).
 */
#include <linux/netdevice.h>
#include <linux/ethtool.h>
#include <linux/rtnetlink.h>
#include <linux/inetdevice.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include <linux/jiffies.h>
#include <net/net_namespace.h>
#include <net/addrconf.h>
#include <net/if_inet6.h>
#include "os.h"

/* @ns, or the calling task's namespace (os.h: NULL). */
struct net *os_netns_net(struct os_netns *ns)
{
	if (ns)
		return (struct net *)ns;
	if (in_task() && current->nsproxy)
		return current->nsproxy->net_ns;
	return &init_net;
}

/* The first IPv4 address of @dev that is not a loopback address: addr4. */
static void os_if_ipv4(struct net_device *dev, struct os_ifaddr *out)
{
	const struct in_ifaddr *ifa;
	struct in_device *in_dev;

	rcu_read_lock();
	in_dev = __in_dev_get_rcu(dev);
	if (in_dev) {
		in_dev_for_each_ifa_rcu(ifa, in_dev) {
			if (ipv4_is_loopback(ifa->ifa_local))
				continue;
			memcpy(out->addr4, &ifa->ifa_local, 4);
			out->has4 = true;
			break;
		}
	}
	rcu_read_unlock();
}

/* The first IPv6 address of @dev that is neither loopback nor link-local: addr6. */
static void os_if_ipv6(struct net_device *dev, struct os_ifaddr *out)
{
#if IS_ENABLED(CONFIG_IPV6)
	const int skip = IPV6_ADDR_LOOPBACK | IPV6_ADDR_LINKLOCAL |
			 IPV6_ADDR_MULTICAST;
	struct inet6_ifaddr *ifp;
	struct inet6_dev *idev;

	idev = in6_dev_get(dev);
	if (!idev)
		return;
	read_lock_bh(&idev->lock);
	list_for_each_entry(ifp, &idev->addr_list, if_list) {
		if (ipv6_addr_type(&ifp->addr) & skip)
			continue;
		memcpy(out->addr6, &ifp->addr, 16);
		out->has6 = true;
		break;
	}
	read_unlock_bh(&idev->lock);
	in6_dev_put(idev);
#endif
}

/*
 * @dev's ethtool link speed in Mb/s, 0 when it tells none. rtnl_lock is
 * taken under LNet's own lock: nothing holds rtnl while waiting for
 * LNet's (the netdevice notifier only queues its changes).
 */
static u32 os_if_speed(struct net_device *dev)
{
	struct ethtool_link_ksettings ks;
	u32 speed = 0;

	rtnl_lock();
	if (!__ethtool_get_link_ksettings(dev, &ks) && ks.base.speed != (u32)SPEED_UNKNOWN)
		speed = ks.base.speed;
	rtnl_unlock();
	return speed;
}

int os_if_lookup(const char *ifname, struct os_ifaddr *out)
{
	return os_if_lookup_ns(NULL, ifname, out);
}

int os_if_lookup_ns(struct os_netns *ns, const char *ifname, struct os_ifaddr *out)
{
	struct net_device *dev;
	bool found;

	memset(out, 0, sizeof(*out));
	if (!ifname[0] || strnlen(ifname, IFNAMSIZ) >= IFNAMSIZ)
		return -ENODEV;
	dev = dev_get_by_name(os_netns_net(ns), ifname);
	if (!dev)
		return -ENODEV;
	out->up = netif_running(dev) && netif_carrier_ok(dev);
	out->ifindex = dev->ifindex;
	os_if_ipv4(dev, out);
	os_if_ipv6(dev, out);
	found = os_ifaddr_pick(out);
	if (found)
		out->speed_mbps = os_if_speed(dev);
	dev_put(dev);
	return found ? 0 : -EADDRNOTAVAIL;
}

int os_if_name(u32 index, char *name)
{
	return os_if_name_ns(NULL, index, name);
}

int os_if_name_ns(struct os_netns *ns, u32 index, char *name)
{
	struct net_device *dev;
	int rc = -ENOENT;
	u32 i = 0;

	rcu_read_lock();
	for_each_netdev_rcu(os_netns_net(ns), dev) {
		if (i++ != index)
			continue;
		strscpy(name, dev->name, IFNAMSIZ);
		rc = 0;
		break;
	}
	rcu_read_unlock();
	return rc;
}

u64 os_now_ns(void)
{
	return ktime_get_ns();
}

void os_relax(void)
{
	cond_resched();
}

/*
 * How a waiter sleeps. Kernel threads (monitor, LND threads) get no
 * signals: interruptible, so that an idle thread neither counts in the
 * load average nor trips the hung-task detector. A task in an ioctl
 * (ping, discover, selftest) sleeps killable: a handled signal (the
 * shell's SIGWINCH) must not cut a ping short, while a fatal one must end
 * the wait at once; an interruptible sleep with a signal pending would
 * return at once on every call and spin until the deadline.
 */
static long os_cond_sleep(struct os_cond *c, int gen, long left)
{
	if (current->flags & PF_KTHREAD)
		return wait_event_interruptible_timeout(c->wq,
				atomic_read(&c->gen) != gen, left);
	return wait_event_killable_timeout(c->wq, atomic_read(&c->gen) != gen,
					   left);
}

/* SIGINT pending for this task: the shell's Ctrl-C, asking the ioctl to end. */
static bool os_sigint_pending(void)
{
	return sigismember(&current->pending.signal, SIGINT) ||
	       sigismember(&current->signal->shared_pending.signal, SIGINT);
}

/*
 * A task's sleep that Ctrl-C ends: interruptible, but only SIGINT (or a
 * fatal signal) ends the wait. Another handled signal stays pending until
 * the ioctl returns, so after one the sleep is killable, as os_cond_sleep.
 */
static long os_cond_sleep_intr(struct os_cond *c, int gen, long left)
{
	long rc;

	if (current->flags & PF_KTHREAD)
		return os_cond_sleep(c, gen, left);
	if (signal_pending(current) && !os_sigint_pending())
		return os_cond_sleep(c, gen, left);
	rc = wait_event_interruptible_timeout(c->wq, atomic_read(&c->gen) != gen, left);
	if (rc != -ERESTARTSYS || os_sigint_pending() || fatal_signal_pending(current))
		return rc;
	return 1;	/* another signal: woken, the caller looks and waits again */
}

/* Jiffies from now to @deadline_ns: 0 when it has passed. */
static long os_cond_left(u64 deadline_ns)
{
	u64 now = os_now_ns(), j;

	if (deadline_ns == OS_NO_DEADLINE)
		return MAX_SCHEDULE_TIMEOUT;
	if (now >= deadline_ns)
		return 0;
	/* A deadline too far to count in jiffies is no deadline. */
	j = nsecs_to_jiffies64(deadline_ns - now) + 1;
	return j < MAX_SCHEDULE_TIMEOUT ? (long)j : MAX_SCHEDULE_TIMEOUT;
}

static int os_cond_wait_how(struct os_cond *c, struct os_mutex *m, u64 deadline_ns,
			    bool intr)
{
	int gen = atomic_read(&c->gen);
	long left = os_cond_left(deadline_ns);

	if (!left)
		return -ETIMEDOUT;
	mutex_unlock(&m->m);
	left = intr ? os_cond_sleep_intr(c, gen, left) : os_cond_sleep(c, gen, left);
	mutex_lock(&m->m);
	if (left < 0)	/* a fatal signal, or SIGINT in an intr wait */
		return intr && !fatal_signal_pending(current) ? -EINTR : -ETIMEDOUT;
	return left == 0 ? -ETIMEDOUT : 0;
}

/* os.h; a task being killed gets -ETIMEDOUT, which ends every wait loop. */
int os_cond_wait(struct os_cond *c, struct os_mutex *m, u64 deadline_ns)
{
	return os_cond_wait_how(c, m, deadline_ns, false);
}

/* os.h; -EINTR on the shell's Ctrl-C, -ETIMEDOUT on a fatal signal. */
int os_cond_wait_intr(struct os_cond *c, struct os_mutex *m, u64 deadline_ns)
{
	return os_cond_wait_how(c, m, deadline_ns, true);
}

void os_cond_broadcast(struct os_cond *c)
{
	atomic_inc(&c->gen);
	wake_up_all(&c->wq);
}

static int os_thread_main(void *arg)
{
	struct os_thread *t = arg;
	int rc;

	complete(&t->running);
	rc = t->fn(t->arg);
	/* kthread_stop() collects the result: wait for it. */
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return rc;
}

int os_thread_start(struct os_thread *t, int (*fn)(void *), void *arg,
		    const char *name)
{
	struct task_struct *task;

	t->fn = fn;
	t->arg = arg;
	init_completion(&t->running);
	task = kthread_run(os_thread_main, t, "%s", name);
	if (IS_ERR(task))
		return PTR_ERR(task);
	t->task = task;
	t->started = true;
	return 0;
}

/*
 * kthread_stop() on a thread that has not run yet never calls its function:
 * wait until @fn has started, so that it always runs (and returns) as
 * under pthreads, whatever it has to clean up on its way out.
 */
void os_thread_join(struct os_thread *t)
{
	if (!t->started)
		return;
	wait_for_completion(&t->running);
	kthread_stop(t->task);
	t->started = false;
}

bool os_thread_is_current(const struct os_thread *t)
{
	return t->started && t->task == current;
}

u64 os_random_u64(void)
{
	return get_random_u64();
}
