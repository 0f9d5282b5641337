// SPDX-License-Identifier: GPL-2.0-only
/*
 * os_if_lookup() and os_if_name() for user space: an interface's link
 * state and address, and the interfaces there are, from rtnetlink through
 * libnl-route-3, in the caller's network namespace.
 */
#include "os.h"

#include <linux/ethtool.h>
#include <linux/if.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <netlink/netlink.h>
#include <netlink/cache.h>
#include <netlink/route/link.h>
#include <netlink/route/addr.h>

struct os_if_pick {
	int ifindex;
	struct os_ifaddr *out;
};

static bool os_ipv4_usable(const u8 *a)
{
	return a[0] != 127;
}

/* Global IPv6: not ::1, not fe80::/10. */
static bool os_ipv6_usable(const u8 *a)
{
	static const u8 v6_lo[16] = { [15] = 1 };

	if (memcmp(a, v6_lo, sizeof(v6_lo)) == 0)
		return false;
	return !(a[0] == 0xfe && (a[1] & 0xc0) == 0x80);
}

/* Remember the first usable address of each family on the interface. */
static void os_if_addr_visit(struct nl_object *obj, void *arg)
{
	struct rtnl_addr *ra = (struct rtnl_addr *)obj;
	struct os_if_pick *pick = arg;
	struct os_ifaddr *out = pick->out;
	struct nl_addr *a;
	unsigned int len;

	if (rtnl_addr_get_ifindex(ra) != pick->ifindex)
		return;
	a = rtnl_addr_get_local(ra);
	if (!a)
		return;
	len = nl_addr_get_len(a);
	if (nl_addr_get_family(a) == AF_INET && len == 4 && !out->has4 &&
	    os_ipv4_usable(nl_addr_get_binary_addr(a))) {
		memcpy(out->addr4, nl_addr_get_binary_addr(a), 4);
		out->has4 = true;
	} else if (nl_addr_get_family(a) == AF_INET6 && len == 16 &&
		   !out->has6 && os_ipv6_usable(nl_addr_get_binary_addr(a))) {
		memcpy(out->addr6, nl_addr_get_binary_addr(a), 16);
		out->has6 = true;
	}
}

static int os_if_link(struct nl_sock *sk, const char *ifname,
		      struct os_ifaddr *out, int *ifindex)
{
	struct rtnl_link *link = NULL;
	unsigned int flags;
	int rc;

	rc = rtnl_link_get_kernel(sk, 0, ifname, &link);
	if (rc == -NLE_OBJ_NOTFOUND || rc == -NLE_NODEV)
		return -ENODEV;
	if (rc < 0 || !link)
		return -EIO;
	*ifindex = rtnl_link_get_ifindex(link);
	flags = rtnl_link_get_flags(link);
	out->up = (flags & IFF_UP) &&
		  ((flags & IFF_LOWER_UP) || rtnl_link_get_carrier(link));
	rtnl_link_put(link);
	return 0;
}

static int os_if_addr(struct nl_sock *sk, int ifindex, struct os_ifaddr *out)
{
	struct os_if_pick pick = { .ifindex = ifindex, .out = out };
	struct nl_cache *cache = NULL;

	if (rtnl_addr_alloc_cache(sk, &cache) < 0)
		return -EIO;
	nl_cache_foreach(cache, os_if_addr_visit, &pick);
	nl_cache_free(cache);
	return os_ifaddr_pick(out) ? 0 : -EADDRNOTAVAIL;
}

/*
 * @ifname's link speed in Mb/s from ethtool (SIOCETHTOOL works in the
 * caller's namespace, where /sys/class/net may show another's), 0 when
 * the device reports none or unknown.
 */
static u32 os_if_speed(const char *ifname)
{
	struct ethtool_cmd cmd = { .cmd = ETHTOOL_GSET };
	struct ifreq ifr;
	u32 speed = 0;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return 0;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, ifname, strlen(ifname));
	ifr.ifr_data = (char *)&cmd;
	if (ioctl(fd, SIOCETHTOOL, &ifr) == 0) {
		speed = ethtool_cmd_speed(&cmd);
		if (speed == (u32)SPEED_UNKNOWN)
			speed = 0;
	}
	close(fd);
	return speed;
}

int os_if_lookup(const char *ifname, struct os_ifaddr *out)
{
	struct nl_sock *sk;
	int ifindex = 0;
	int rc;

	if (!ifname || !ifname[0] || strlen(ifname) >= IFNAMSIZ)
		return -ENODEV;
	memset(out, 0, sizeof(*out));
	sk = nl_socket_alloc();
	if (!sk)
		return -ENOMEM;
	if (nl_connect(sk, NETLINK_ROUTE) < 0) {
		nl_socket_free(sk);
		return -EIO;
	}
	rc = os_if_link(sk, ifname, out, &ifindex);
	out->ifindex = ifindex;
	if (!rc)
		rc = os_if_addr(sk, ifindex, out);
	nl_socket_free(sk);
	if (!rc)
		out->speed_mbps = os_if_speed(ifname);
	return rc;
}

struct os_if_nth {
	u32 want, seen;
	char *name;
	bool found;
};

static void os_if_name_visit(struct nl_object *obj, void *arg)
{
	struct os_if_nth *nth = arg;
	const char *name = rtnl_link_get_name((struct rtnl_link *)obj);

	if (nth->found || nth->seen++ != nth->want || !name)
		return;
	snprintf(nth->name, IFNAMSIZ, "%s", name);
	nth->found = true;
}

int os_if_name(u32 index, char *name)
{
	struct os_if_nth nth = { .want = index, .name = name };
	struct nl_cache *cache = NULL;
	struct nl_sock *sk;
	int rc = 0;

	sk = nl_socket_alloc();
	if (!sk)
		return -ENOMEM;
	if (nl_connect(sk, NETLINK_ROUTE) < 0 ||
	    rtnl_link_alloc_cache(sk, AF_UNSPEC, &cache) < 0)
		rc = -EIO;
	if (!rc)
		nl_cache_foreach(cache, os_if_name_visit, &nth);
	nl_cache_free(cache);
	nl_socket_free(sk);
	return rc ? rc : nth.found ? 0 : -ENOENT;
}

/* A process has one namespace: @ns is NULL (os.h). */
int os_if_lookup_ns(struct os_netns *ns, const char *ifname, struct os_ifaddr *out)
{
	return ns ? -EOPNOTSUPP : os_if_lookup(ifname, out);
}

int os_if_name_ns(struct os_netns *ns, u32 index, char *name)
{
	return ns ? -EOPNOTSUPP : os_if_name(index, name);
}
