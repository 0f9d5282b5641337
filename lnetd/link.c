// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetd's link monitor: a thread listening to rtnetlink link and address
 * events (libnl-route-3) in lnetd's network namespace, telling the core
 * through lnet_link_event() whether each interface can carry traffic.
 *
 * Every event is turned into a fresh look at the interface (os_if_lookup():
 * IFF_UP and carrier, and a usable address) rather than trusting the
 * event's own fields, so events that arrive out of order or in bursts
 * still leave the core with the current state. When the kernel drops
 * events (the socket's buffer overflowed: ENOBUFS) every interface is
 * looked at again.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include <netlink/netlink.h>
#include <netlink/cache.h>
#include <netlink/msg.h>
#include <netlink/route/link.h>
#include <netlink/route/addr.h>
#include <linux/rtnetlink.h>

#include "lnetd.h"
#include "../kernel/core/lnet.h"

/* Interfaces whose last state is remembered, to log changes only. */
#define LINK_SEEN_MAX	64

struct link_seen {
	char name[IFNAMSIZ];
	bool up;
};

static struct {
	struct lnet *ln;
	struct nl_sock *events;		/* multicast: the event groups */
	struct nl_sock *query;		/* requests: a link by index, dumps */
	int stop_fd;			/* eventfd: the thread returns */
	pthread_t thread;
	bool started;
	struct link_seen seen[LINK_SEEN_MAX];
	unsigned int nseen, next_evict;
} mon = { .stop_fd = -1 };

/* Log @name's state when it is new or changed. */
static void link_log_change(const char *name, bool up)
{
	struct link_seen *s = NULL;
	unsigned int i;

	for (i = 0; i < mon.nseen; i++) {
		if (strcmp(mon.seen[i].name, name) == 0) {
			s = &mon.seen[i];
			break;
		}
	}
	if (s && s->up == up)
		return;
	if (!s && mon.nseen < LINK_SEEN_MAX) {
		s = &mon.seen[mon.nseen++];
	} else if (!s) {
		s = &mon.seen[mon.next_evict];
		mon.next_evict = (mon.next_evict + 1) % LINK_SEEN_MAX;
	}
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->up = up;
	lnetd_info("link %s %s", name, up ? "up" : "down");
}

static void link_report(const char *name, bool up)
{
	link_log_change(name, up);
	lnet_link_event(mon.ln, name, up);
}

/* Up: IFF_UP, carrier and an address an NI can use. */
static void link_check(const char *name)
{
	struct os_ifaddr ifa;
	int rc = os_if_lookup(name, &ifa);

	/* Gone meanwhile: its RTM_DELLINK is on the way. */
	if (rc == -ENODEV)
		return;
	link_report(name, rc == 0 && ifa.up);
}

static void link_check_index(int ifindex)
{
	struct rtnl_link *link = NULL;

	if (ifindex <= 0 || rtnl_link_get_kernel(mon.query, ifindex, NULL, &link) < 0)
		return;
	if (rtnl_link_get_name(link))
		link_check(rtnl_link_get_name(link));
	rtnl_link_put(link);
}

static void link_object(struct nl_object *obj, void *arg)
{
	const char *type = nl_object_get_type(obj);

	if (strcmp(type, "route/link") == 0) {
		struct rtnl_link *link = (struct rtnl_link *)obj;
		const char *name = rtnl_link_get_name(link);

		if (!name)
			return;
		if (nl_object_get_msgtype(obj) == RTM_DELLINK)
			link_report(name, false);
		else
			link_check(name);
	} else if (strcmp(type, "route/addr") == 0) {
		link_check_index(rtnl_addr_get_ifindex((struct rtnl_addr *)obj));
	}
}

static int link_msg(struct nl_msg *msg, void *arg)
{
	/* Objects of other kinds (none subscribed) are skipped by the parser. */
	nl_msg_parse(msg, link_object, NULL);
	return NL_OK;
}

static void link_resync_one(struct nl_object *obj, void *arg)
{
	const char *name = rtnl_link_get_name((struct rtnl_link *)obj);

	if (name)
		link_check(name);
}

/* Events were lost: look at every interface again. */
static void link_resync(void)
{
	struct nl_cache *cache = NULL;
	int rc;

	lnetd_warn("link events were lost (socket buffer full): checking every interface");
	rc = rtnl_link_alloc_cache(mon.query, AF_UNSPEC, &cache);
	if (rc < 0) {
		lnetd_err("cannot list interfaces: %s", nl_geterror(rc));
		return;
	}
	nl_cache_foreach(cache, link_resync_one, NULL);
	nl_cache_free(cache);
}

static void *link_main(void *arg)
{
	struct pollfd p[2] = {
		{ .fd = nl_socket_get_fd(mon.events), .events = POLLIN },
		{ .fd = mon.stop_fd, .events = POLLIN },
	};

	for (;;) {
		int rc = poll(p, 2, -1);

		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0) {
			lnetd_err("link monitor: poll: %s; link changes are no longer seen",
				  strerror(errno));
			break;
		}
		if (p[1].revents)
			break;
		if (!p[0].revents)
			continue;
		rc = nl_recvmsgs_default(mon.events);
		/* libnl reports the kernel's ENOBUFS as NLE_NOMEM. */
		if (rc == -NLE_NOMEM)
			link_resync();
		else if (rc < 0 && rc != -NLE_AGAIN)
			lnetd_warn("link monitor: %s", nl_geterror(rc));
	}
	return NULL;
}

static int link_open_events(void)
{
	struct nl_sock *sk = nl_socket_alloc();
	int rc;

	if (!sk)
		return -ENOMEM;
	mon.events = sk;
	/* Multicast messages carry no sequence numbers of ours. */
	nl_socket_disable_seq_check(sk);
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, link_msg, NULL);
	rc = nl_connect(sk, NETLINK_ROUTE);
	if (!rc)
		rc = nl_socket_add_memberships(sk, RTNLGRP_LINK, RTNLGRP_IPV4_IFADDR,
					       RTNLGRP_IPV6_IFADDR, 0);
	if (!rc)
		rc = nl_socket_set_nonblocking(sk);
	/* Room for a burst (many interfaces changing at once). */
	if (!rc)
		rc = nl_socket_set_buffer_size(sk, 1 << 20, 0);
	return rc < 0 ? -EIO : 0;
}

static void link_close(void)
{
	if (mon.events)
		nl_socket_free(mon.events);
	if (mon.query)
		nl_socket_free(mon.query);
	if (mon.stop_fd >= 0)
		close(mon.stop_fd);
	mon.events = mon.query = NULL;
	mon.stop_fd = -1;
}

int lnetd_link_start(struct lnet *ln)
{
	sigset_t all, old;
	int rc;

	mon.ln = ln;
	rc = link_open_events();
	if (!rc) {
		mon.query = nl_socket_alloc();
		rc = !mon.query ? -ENOMEM :
		     nl_connect(mon.query, NETLINK_ROUTE) < 0 ? -EIO : 0;
	}
	if (!rc) {
		mon.stop_fd = eventfd(0, EFD_CLOEXEC);
		rc = mon.stop_fd < 0 ? -errno : 0;
	}
	if (!rc) {
		/* Signals are for the main loop's signalfd. */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		rc = -pthread_create(&mon.thread, NULL, link_main, NULL);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	if (rc) {
		link_close();
		return rc;
	}
	mon.started = true;
	return 0;
}

void lnetd_link_stop(void)
{
	if (!mon.started)
		return;
	if (eventfd_write(mon.stop_fd, 1)) {
		/* Left running (and its sockets open) until the process exits. */
		lnetd_err("cannot stop the link monitor: %s", strerror(errno));
		return;
	}
	pthread_join(mon.thread, NULL);
	mon.started = false;
	link_close();
}
