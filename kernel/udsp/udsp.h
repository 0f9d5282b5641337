/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The UDSP engine: the rule list (ln_udsp_list) and its flattening into
 * priorities and preferred lists on nets, NIs, peer nets and peer NIs.
 */
#ifndef LNET_UDSP_H
#define LNET_UDSP_H

#include "../core/lnet.h"
#include "udsp_wire.h"

struct lnet_udsp {
	struct list_head udsp_list;		/* on ln_udsp_list */
	u32 udsp_idx;				/* == position in the list */
	struct lnet_udsp_desc udsp_desc;
};

/* UDSP ioctls (ADD, DEL, GET_SIZE, GET, GET_CONST_INFO), ln_api_mutex held. */
int lnet_udsp_ioctl(struct lnet *ln, unsigned int cmd, void *buf, u32 len);

/*
 * Add a validated rule at d->idx (-1 = append). Returns 0 and the final
 * idx in *idx_out, -EALREADY, or -ENOSPC/-ENOMEM. Re-flattens everything.
 */
int lnet_udsp_add(struct lnet *ln, const struct lnet_udsp_desc *d, s32 *idx_out);
/* idx >= 0: delete it (-ENOENT if none); idx == -1: delete all. Re-flattens. */
int lnet_udsp_del(struct lnet *ln, s32 idx);
struct lnet_udsp *lnet_udsp_get(struct lnet *ln, u32 idx);
/* Free every rule without touching other objects (unconfigure). */
void lnet_udsp_destroy_all(struct lnet *ln);

/* Reset every UDSP-derived value to its default, then apply all rules. */
void lnet_udsp_apply_all(struct lnet *ln);
/* New objects get the rules at creation (the core calls these). */
void lnet_udsp_apply_net(struct lnet *ln, struct lnet_net *net);
void lnet_udsp_apply_ni(struct lnet *ln, struct lnet_ni *ni);
void lnet_udsp_apply_peer_net(struct lnet *ln, struct lnet_peer_net *lpn);
void lnet_udsp_apply_peer_ni(struct lnet *ln, struct lnet_peer_ni *lpni);
/* A local NI or a route went away or came: pair/router lists depend on them. */
void lnet_udsp_local_changed(struct lnet *ln);

#endif /* LNET_UDSP_H */
