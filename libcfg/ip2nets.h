/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ip2nets: rules that choose the nets and interfaces of this node from its
 * addresses, as Lustre has them (the `ip2nets:` YAML section, the
 * `ip2nets=` module parameter string, `net add --ip2net`). Parsing and
 * matching need no LNet: the interfaces are an input (cfg_ifs_read()
 * gets them where LNet runs), so that the legacy converter and the tests
 * can call the matcher on interfaces of their own.
 *
 * Lustre's rules, which cfg_ip2nets_eval() follows:
 *  - a rule that lists interfaces matches when every one of them exists,
 *    is up and, if the rule has ranges, has an address in one of them;
 *    its NIs are those interfaces;
 *  - a rule with ranges only matches the interfaces that are up and have
 *    an address in a range (all of them);
 *  - a rule with neither takes the first interface that is up and has an
 *    IPv4 address;
 *  - a rule that matches nothing is skipped; only the first matching rule
 *    of each net applies; no rule applying at all is an error.
 * An interface's address is the one an NI on it would get without large
 * NIDs (its first IPv4 address, else its first global IPv6 one: GET_IF's
 * default address).
 */
#ifndef LNET_CFG_IP2NETS_H
#define LNET_CFG_IP2NETS_H

#include "ops_priv.h"

#define CFG_IP2NETS_MAX_RANGES	32
#define CFG_IP2NETS_MAX_RULES	256

/*
 * One address range: IPv4 as four octet patterns ("192.168.1.[2-20/2]",
 * "10.*.*.*"; each octet a number, '*', or [a,b-c,d-e/step]), or IPv6 as
 * an address with an optional prefix length ("2001:db8::/64").
 */
struct cfg_iprange {
	u8 family;		/* 4 or 6 */
	u8 prefix;		/* IPv6: bits compared */
	u8 addr6[16];
	u8 octet[4][32];	/* IPv4: bit v of octet[k] = value v allowed */
};

struct cfg_ip2net {
	struct cfg_net net;	/* the net, listed interfaces, tunables, loc */
	u32 nranges;
	struct cfg_iprange ranges[CFG_IP2NETS_MAX_RANGES];
};

/* The rules of a document or a string, in order. */
struct cfg_ip2nets {
	struct cfg_ip2net *rules;
	size_t nrules;
};

/* An interface as the matcher sees it. */
struct cfg_ifinfo {
	char name[LNET_IFNAME_LEN];
	bool up;
	u8 addr_len;		/* 0 (no usable address), 4 or 16 */
	u8 addr[16];
};

int cfg_iprange_parse(const char *what, const char *s, struct cfg_iprange *r,
		      struct cfg_err *err);
bool cfg_iprange_match(const struct cfg_iprange *r, const u8 *addr, u8 len);

/* A new rule *@out for net @net_id at the end of @set (no interface, range). */
int cfg_ip2nets_add(struct cfg_ip2nets *set, u32 net_id, struct cfg_ip2net **out,
		    struct cfg_err *err);
void cfg_ip2nets_release(struct cfg_ip2nets *set);

/*
 * The legacy string: rules separated by ';' or new lines, '#' to the end
 * of a line a comment; a rule is NET or NET(IF,IF...) then address ranges
 * separated by blanks ("tcp(eth0) 192.168.0.[2,4]; o2ib 10.0.0.*").
 * Appended to @set, each with the tunables of @tmpl (NULL: defaults).
 */
int cfg_ip2nets_parse_legacy(const char *s, const struct cfg_net *tmpl,
			     struct cfg_ip2nets *set, struct cfg_err *err);

/*
 * The NIs the rules of @set give on the interfaces @ifs (Lustre's rules
 * above): *@out a new array of *@nout nets (one per rule applied, its
 * interfaces filled in), to free with cfg_ip2nets_free_nets(). -ENODEV
 * when no rule applies.
 */
int cfg_ip2nets_eval(const struct cfg_ip2nets *set, const struct cfg_ifinfo *ifs,
		     size_t nifs, struct cfg_net **out, size_t *nout, struct cfg_err *err);
void cfg_ip2nets_free_nets(struct cfg_net *nets, size_t n);

/* The interfaces where LNet runs (IOC_LNET_GET_IF), a new array. */
int cfg_ifs_read(struct cfg_handle *h, struct cfg_ifinfo **ifs, size_t *n,
		 struct cfg_err *err);

#endif /* LNET_CFG_IP2NETS_H */
