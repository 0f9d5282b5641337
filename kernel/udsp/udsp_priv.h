/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internal interface between the rule list (udsp.c) and the flattening
 * (udsp_apply.c): the rule index that makes a full re-flatten cost
 * O(objects x rules of their net) instead of O(objects x rules).
 */
#ifndef LNET_UDSP_PRIV_H
#define LNET_UDSP_PRIV_H

#include "udsp.h"

/*
 * Build the index of ln_udsp_list as it is, leaving out @skip (a rule
 * about to be deleted; may be NULL). *out is NULL when no rule is left.
 * 0 or -ENOMEM (nothing changed).
 */
int lnet_udsp_index_build(struct lnet *ln, const struct lnet_udsp *skip,
			  struct lnet_udsp_index **out);
void lnet_udsp_index_free(struct lnet *ln, struct lnet_udsp_index *ix);

#endif /* LNET_UDSP_PRIV_H */
