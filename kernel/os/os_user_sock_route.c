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
	const u8 *addr;
	int prefixlen;		/* -1: not found */
};

static void os_prefix_visit(struct nl_object *obj, void *arg)
{
	struct rtnl_addr *ra = (struct rtnl_addr *)obj;
	struct os_prefix_find *f = arg;
	struct nl_addr *a = rtnl_addr_get_local(ra);

	if (rtnl_addr_get_ifindex(ra) != f->ifindex || !a ||
	    nl_addr_get_family(a) != AF_INET || nl_addr_get_len(a) != 4 ||
	    memcmp(nl_addr_get_binary_addr(a), f->addr, 4))
		return;
	f->prefixlen = (int)nl_addr_get_prefixlen(a);
}

/* The prefix length of @addr on interface @ifindex, or -EADDRNOTAVAIL. */
static int os_route_prefixlen(struct nl_sock *sk, int ifindex, const u8 addr[4])
{
	struct os_prefix_find f = { .ifindex = ifindex, .addr = addr, .prefixlen = -1 };
	struct nl_cache *cache = NULL;

	if (rtnl_addr_alloc_cache(sk, &cache) < 0)
		return -EIO;
	nl_cache_foreach(cache, os_prefix_visit, &f);
	nl_cache_free(cache);
	return f.prefixlen < 0 ? -EADDRNOTAVAIL : f.prefixlen;
}

/* An IPv4 nl_addr of @addr masked to @prefixlen bits. */
static struct nl_addr *os_route_net(const u8 addr[4], int prefixlen)
{
	u32 a, mask = prefixlen ? ~0U << (32 - prefixlen) : 0;
	struct nl_addr *n;
	u8 net[4];

	a = (u32)addr[0] << 24 | (u32)addr[1] << 16 | (u32)addr[2] << 8 | addr[3];
	a &= mask;
	net[0] = (u8)(a >> 24);
	net[1] = (u8)(a >> 16);
	net[2] = (u8)(a >> 8);
	net[3] = (u8)a;
	n = nl_addr_build(AF_INET, net, 4);
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
static struct rtnl_route *os_route_make(int ifindex, const u8 addr[4], int prefixlen,
					u32 table)
{
	struct rtnl_route *r = rtnl_route_alloc();
	struct rtnl_nexthop *nh = rtnl_route_nh_alloc();
	struct nl_addr *dst = os_route_net(addr, prefixlen);
	struct nl_addr *src = nl_addr_build(AF_INET, addr, 4);

	if (r && nh && dst && src) {
		rtnl_route_set_family(r, AF_INET);
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
static struct rtnl_rule *os_rule_make(const u8 addr[4], u32 table)
{
	struct rtnl_rule *rule = rtnl_rule_alloc();
	struct nl_addr *src = nl_addr_build(AF_INET, addr, 4);

	if (rule && src) {
		nl_addr_set_prefixlen(src, 32);
		rtnl_rule_set_family(rule, AF_INET);
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
	struct rtnl_route *route = os_route_make(r->r_ifindex, r->r_addr, r->r_prefixlen,
						 r->r_table);
	struct rtnl_rule *rule = os_rule_make(r->r_addr, r->r_table);
	int rc = -ENOMEM;

	if (route && rule) {
		if (add) {
			rc = rtnl_route_add(sk, route, NLM_F_CREATE | NLM_F_REPLACE);
			if (!rc)
				rc = rtnl_rule_add(sk, rule, NLM_F_CREATE | NLM_F_EXCL);
			if (rc && rc != -NLE_EXIST)
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

int os_sock_route_source(const char *ifname, const u8 addr[4], struct os_sock_route *out)
{
	struct nl_sock *sk;
	int rc;

	memset(out, 0, sizeof(*out));
	out->r_ifindex = (int)if_nametoindex(ifname);
	if (!out->r_ifindex)
		return -ENODEV;
	memcpy(out->r_addr, addr, 4);
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
