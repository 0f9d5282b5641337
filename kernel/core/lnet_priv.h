/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internal interfaces between the files of the LNet core (kernel/core/).
 * Not for other parts of the tree: they use lnet.h.
 */
#ifndef LNET_CORE_PRIV_H
#define LNET_CORE_PRIV_H

#include "lnet.h"

/* hash.c: NID -> peer NI. Insert never fails (growth is best effort). */
int lnet_lpni_hash_init(struct lnet *ln);
void lnet_lpni_hash_fini(struct lnet *ln);
void lnet_lpni_hash_insert(struct lnet *ln, struct lnet_peer_ni *lpni);
void lnet_lpni_hash_remove(struct lnet *ln, struct lnet_peer_ni *lpni);
struct lnet_peer_ni *lnet_lpni_hash_find(struct lnet *ln,
					 const struct lnet_nid *nid);

/* net.c */
int lnet_lo_net_create(struct lnet *ln);
void lnet_nets_destroy(struct lnet *ln);

/* peer.c */
void lnet_peers_destroy(struct lnet *ln);
struct lnet_peer *lnet_peer_create(struct lnet *ln, const struct lnet_nid *prim,
				   u32 flags);

/* route.c */
void lnet_routes_destroy(struct lnet *ln);
/* Drop every route through @gw (its peer is being deleted). True if any. */
bool lnet_routes_del_gateway(struct lnet *ln, struct lnet_peer *gw);

/* global.c: routing off, default buffers and settings (configure). */
void lnet_settings_init(struct lnet *ln);

static inline bool lnet_nid_is_lo(const struct lnet_nid *nid)
{
	return nid->nid_lnd == LNET_LND_LO;
}

#endif /* LNET_CORE_PRIV_H */
