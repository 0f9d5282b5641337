// SPDX-License-Identifier: GPL-2.0-only
/*
 * Source routing for the socket LND (os_sock.h): the packets of an NI's
 * connections leave by the NI's interface, also when two interfaces hold
 * addresses of one subnet (the kernel's main table would send all of them
 * by the first). Per address: a rule "from ADDR lookup TABLE" and, in
 * TABLE, the route to the interface's subnet through the interface, with
 * ADDR as its source; destinations beyond the subnet find no route there
 * and go on to the main table (gateways as before).
 *
 * Why rules and not SO_BINDTODEVICE: a socket bound to a device also
 * takes in only what arrives on that device. On one subnet, a peer that
 * routes by its own table answers through whichever of its interfaces it
 * likes, and the answer reaches our other interface: a bound socket drops
 * it, the connection dies. A source rule only steers what we send; what
 * comes in is taken on any interface, as before. This is what Lustre's
 * `lnetctl setup-mrrouting` (ksocklnd-config) installs, done here by the
 * LND for each NI it starts, and removed when the NI's address goes.
 * IPv4 and IPv6 alike: the rule and the route are of the address's family
 * (tables are per family, so one number per interface serves both).
 */
#include <net/if.h>
#include <netinet/in.h>
#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>
#include <netlink/netlink.h>
#include <netlink/addr.h>
#include <netlink/cache.h>
#include <netlink/route/addr.h>
#include <netlink/route/route.h>
#include <netlink/route/nexthop.h>
#include <netlink/route/rule.h>

#include "os_sock.h"

/* Our tables and rules: one table per interface, above any a distribution numbers. */
#define OS_ROUTE_TABLE_BASE	0x4c4e0000U	/* "LN" */
#define OS_ROUTE_RULE_PRIO	32000		/* before the main table's 32766 */

struct os_prefix_find {
	int ifindex;
	const struct os_sockaddr *addr;
	int prefixlen;		/* -1: not found */
};

static int os_route_family(const struct os_sockaddr *a)
{
	return a->sa_len == 16 ? AF_INET6 : AF_INET;
}

static void os_prefix_visit(struct nl_object *obj, void *arg)
{
	struct rtnl_addr *ra = (struct rtnl_addr *)obj;
	struct os_prefix_find *f = arg;
	struct nl_addr *a = rtnl_addr_get_local(ra);

	if (rtnl_addr_get_ifindex(ra) != f->ifindex || !a ||
	    nl_addr_get_family(a) != os_route_family(f->addr) ||
	    nl_addr_get_len(a) != f->addr->sa_len ||
	    memcmp(nl_addr_get_binary_addr(a), f->addr->sa_addr, f->addr->sa_len))
		return;
	f->prefixlen = (int)nl_addr_get_prefixlen(a);
}

/* The prefix length of @addr on interface @ifindex, or -EADDRNOTAVAIL. */
static int os_route_prefixlen(struct nl_sock *sk, int ifindex,
			      const struct os_sockaddr *addr)
{
	struct os_prefix_find f = { .ifindex = ifindex, .addr = addr, .prefixlen = -1 };
	struct nl_cache *cache = NULL;

	if (rtnl_addr_alloc_cache(sk, &cache) < 0)
		return -EIO;
	nl_cache_foreach(cache, os_prefix_visit, &f);
	nl_cache_free(cache);
	return f.prefixlen < 0 ? -EADDRNOTAVAIL : f.prefixlen;
}

/* An nl_addr of @addr masked to @prefixlen bits. */
static struct nl_addr *os_route_net(const struct os_sockaddr *addr, int prefixlen)
{
	struct nl_addr *n;
	u8 net[16];
	int i;

	memcpy(net, addr->sa_addr, sizeof(net));
	for (i = 0; i < addr->sa_len; i++) {
		int keep = prefixlen - 8 * i;	/* bits of this byte kept */

		if (keep <= 0)
			net[i] = 0;
		else if (keep < 8)
			net[i] &= (u8)(0xff << (8 - keep));
	}
	n = nl_addr_build(os_route_family(addr), net, addr->sa_len);
	if (n)
		nl_addr_set_prefixlen(n, prefixlen);
	return n;
}

static int os_nl_errno(int nlerr)
{
	switch (-nlerr) {
	case NLE_EXIST:
		return -EEXIST;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_PERM:
		return -EPERM;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	default:
		return -EIO;
	}
}

/* The route of table @table to @addr's subnet through @ifindex, source @addr. */
static struct rtnl_route *os_route_make(int ifindex, const struct os_sockaddr *addr,
					int prefixlen, u32 table)
{
	struct rtnl_route *r = rtnl_route_alloc();
	struct rtnl_nexthop *nh = rtnl_route_nh_alloc();
	struct nl_addr *dst = os_route_net(addr, prefixlen);
	struct nl_addr *src = nl_addr_build(os_route_family(addr), addr->sa_addr,
					    addr->sa_len);

	if (r && nh && dst && src) {
		rtnl_route_set_family(r, os_route_family(addr));
		rtnl_route_set_table(r, table);
		rtnl_route_set_scope(r, RT_SCOPE_LINK);
		rtnl_route_set_protocol(r, RTPROT_STATIC);
		rtnl_route_set_type(r, RTN_UNICAST);
		rtnl_route_set_dst(r, dst);
		rtnl_route_set_pref_src(r, src);
		rtnl_route_nh_set_ifindex(nh, ifindex);
		rtnl_route_add_nexthop(r, nh);
		nh = NULL;
	} else if (r) {
		rtnl_route_put(r);
		r = NULL;
	}
	if (nh)
		rtnl_route_nh_free(nh);
	nl_addr_put(dst);
	nl_addr_put(src);
	return r;
}

/* The rule "from @addr lookup @table". */
static struct rtnl_rule *os_rule_make(const struct os_sockaddr *addr, u32 table)
{
	struct rtnl_rule *rule = rtnl_rule_alloc();
	struct nl_addr *src = nl_addr_build(os_route_family(addr), addr->sa_addr,
					    addr->sa_len);

	if (rule && src) {
		nl_addr_set_prefixlen(src, 8 * addr->sa_len);
		rtnl_rule_set_family(rule, os_route_family(addr));
		rtnl_rule_set_src(rule, src);
		rtnl_rule_set_table(rule, table);
		rtnl_rule_set_action(rule, FR_ACT_TO_TBL);
		rtnl_rule_set_prio(rule, OS_ROUTE_RULE_PRIO);
	} else if (rule) {
		rtnl_rule_put(rule);
		rule = NULL;
	}
	nl_addr_put(src);
	return rule;
}

static struct nl_sock *os_route_sock(void)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (sk && nl_connect(sk, NETLINK_ROUTE) < 0) {
		nl_socket_free(sk);
		return NULL;
	}
	return sk;
}

/* Add (@add) or delete the route and the rule of @r. 0 or -errno. */
static int os_route_apply(struct nl_sock *sk, const struct os_sock_route *r, bool add)
{
	struct rtnl_route *route = os_route_make(r->r_ifindex, &r->r_addr, r->r_prefixlen,
						 r->r_table);
	struct rtnl_rule *rule = os_rule_make(&r->r_addr, r->r_table);
	int rc = -ENOMEM;

	if (route && rule) {
		if (add) {
			rc = rtnl_route_add(sk, route, NLM_F_CREATE | NLM_F_REPLACE);
			if (!rc)
				rc = rtnl_rule_add(sk, rule, NLM_F_CREATE | NLM_F_EXCL);
			/*
			 * The very rule is there already: an lnetd that died
			 * (SIGKILL, a crash) could not remove it. Ours now,
			 * removed with the NI, not left for ever (the soak
			 * restarts killed routers).
			 */
			if (rc == -NLE_EXIST)
				rc = 0;
			if (rc)
				rtnl_route_delete(sk, route, 0);
		} else {
			rc = rtnl_rule_delete(sk, rule, 0);
			/* the table's route: only ours, only for this address */
			rtnl_route_delete(sk, route, 0);
		}
		rc = rc < 0 ? os_nl_errno(rc) : 0;
	}
	if (route)
		rtnl_route_put(route);
	if (rule)
		rtnl_rule_put(rule);
	return rc;
}

int os_sock_route_source(const char *ifname, const struct os_sockaddr *addr,
			 struct os_sock_route *out)
{
	struct nl_sock *sk;
	int rc;

	memset(out, 0, sizeof(*out));
	out->r_ifindex = (int)if_nametoindex(ifname);
	if (!out->r_ifindex)
		return -ENODEV;
	if (addr->sa_len != 4 && addr->sa_len != 16)
		return -EAFNOSUPPORT;
	out->r_addr = *addr;
	out->r_table = OS_ROUTE_TABLE_BASE + (u32)out->r_ifindex;
	sk = os_route_sock();
	if (!sk)
		return -EIO;
	rc = os_route_prefixlen(sk, out->r_ifindex, addr);
	if (rc >= 0) {
		out->r_prefixlen = rc;
		rc = os_route_apply(sk, out, true);
	}
	nl_socket_free(sk);
	out->r_set = !rc;
	return rc;
}

void os_sock_unroute_source(struct os_sock_route *r)
{
	struct nl_sock *sk;

	if (!r->r_set)
		return;
	r->r_set = false;
	sk = os_route_sock();
	if (!sk)
		return;
	os_route_apply(sk, r, false);
	nl_socket_free(sk);
}
