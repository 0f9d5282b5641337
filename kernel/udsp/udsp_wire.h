/* SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later */
/*
 * One UDSP rule in memory (struct lnet_udsp_desc, lnet_nidexpr.h) and its
 * wire form (lnet_udsp.h). Shared by the kernel side (demarshal ADD,
 * marshal GET) and libcfg (the reverse).
 */
#ifndef LNET_UDSP_WIRE_H
#define LNET_UDSP_WIRE_H

#include "../nid/nid.h"

/* Bytes after struct lnet_ioc_udsp that @d needs on the wire. */
u32 lnet_udsp_bulk_size(const struct lnet_udsp_desc *d);

/*
 * Write @d into @buf (room for @len bytes): header (ioc_len, ioc_version,
 * iou_* fields) and bulk. Returns the total size or -ENOSPC.
 */
int lnet_udsp_marshal(const struct lnet_udsp_desc *d, void *buf, u32 len);

/*
 * Read a rule from @buf of @len bytes (what the caller sent: ioc_len),
 * validating everything before anything is used: sizes (exact),
 * reserved fields, counts with overflow checks, ranges, kinds, action,
 * priority and shape (lnet_udsp_check_shape()). 0 or -EINVAL with a reason
 * in @err (may be NULL).
 */
int lnet_udsp_demarshal(const void *buf, u32 len, struct lnet_udsp_desc *d,
			char *err, size_t errlen);

/*
 * The six valid shapes (see lnet_udsp.h). 0 or -EINVAL with a reason, e.g.
 * "rte needs dst: a router rule is --dst with --rte".
 */
int lnet_udsp_check_shape(const struct lnet_udsp_desc *d, char *err, size_t errlen);

/* The same descriptors (as lnet_nidexpr_equal()) and action. */
bool lnet_udsp_desc_same_match(const struct lnet_udsp_desc *a,
			       const struct lnet_udsp_desc *b);
/*
 * A hash of what lnet_udsp_desc_same_match() compares: two rules it finds
 * the same have the same hash (idx and priority play no part).
 */
u32 lnet_udsp_desc_hash(const struct lnet_udsp_desc *d);

#endif /* LNET_UDSP_WIRE_H */
