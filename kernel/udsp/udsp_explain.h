/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the explanation of the rules (udsp_explain.c, IOC_LNET_UDSP_MATCH)
 * runs of the flattening (udsp_apply.c): its own match test, its lookup of
 * the rule that decides an object and its functions that set an object's
 * values, on objects that are on no list (the caller's scratch copies).
 * Nothing here is a second implementation: what the explanation says is
 * what the flattening does. All under ln_api_mutex, as the flattening.
 */
#ifndef LNET_UDSP_EXPLAIN_H
#define LNET_UDSP_EXPLAIN_H

#include "udsp_priv.h"

/* The local NIDs and gateways that pair and router rules pick from, now. */
struct lnet_udsp_probe;

/* 0 or -ENOMEM. */
int lnet_udsp_probe_new(struct lnet *ln, struct lnet_udsp_probe **out);
void lnet_udsp_probe_free(struct lnet *ln, struct lnet_udsp_probe *pr);

/*
 * Does the descriptor of rule @r that selects the objects of class @cls
 * hold the object (@net, and @nid unless a net class)? For a priority
 * class that is the rule matching; a pair or router rule also needs
 * something to pick (lnet_udsp_probe_picks() > 0).
 */
bool lnet_udsp_probe_selects(struct lnet_udsp_probe *pr, const struct lnet_udsp *r,
			     u32 cls, u32 net, const struct lnet_nid *nid);
/* How many local NIDs (UC_PAIR) or gateways (UC_ROUTER) rule @r picks now. */
u32 lnet_udsp_probe_picks(struct lnet_udsp_probe *pr, const struct lnet_udsp *r,
			  u32 cls);
/* Does pair (router) rule @r pick local NID (gateway) @nid, if it is one? */
bool lnet_udsp_rule_picks(const struct lnet_udsp *r, u32 cls, const struct lnet_nid *nid);
/* The rule of class @cls that decides the object, as flattening finds it; or NULL. */
const struct lnet_udsp *lnet_udsp_probe_first(struct lnet *ln, struct lnet_udsp_probe *pr,
					      u32 cls, u32 net,
					      const struct lnet_nid *nid);
/*
 * Set the peer NI priority and the two lists of @lpni as the flattening
 * sets a peer NI's; @lpni is on no list, its lists the caller's to free.
 */
void lnet_udsp_probe_peer_ni(struct lnet *ln, struct lnet_udsp_probe *pr,
			     struct lnet_peer_ni *lpni);

/* The ioctl (udsp_explain.c), a row of lnet_udsp_ioc_cmds[]. */
int lnet_udsp_ioc_match(struct lnet *ln, unsigned int cmd, void *buf, u32 len);
bool lnet_udsp_match_reserved_zero(const void *buf);

#endif /* LNET_UDSP_EXPLAIN_H */
