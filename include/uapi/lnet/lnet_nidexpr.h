/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NID range expressions and UDSP rules in memory: the parsed forms that the
 * NID library and the policy engine (kernel/nid, kernel/udsp) share with
 * liblnetcfg's public API (<lnet/cfg.h>). Not on the wire: the ioctl form
 * of a rule is the one of lnet_udsp.h, into which these are marshalled.
 * Like the rest of this directory, only <linux/types.h> types, so that the
 * kernel, lnetd and programs using liblnetcfg read the same layout.
 */
#ifndef _UAPI_LNET_NIDEXPR_H
#define _UAPI_LNET_NIDEXPR_H

#include "lnet_ioctl.h"

/* Text sizes (the NUL included) of a NID, a net and an expression. */
#define LNET_NID_STR_MAX	64	/* enough for any NID */
#define LNET_NET_STR_MAX	16
/*
 * Enough for any expression: the longest is a numeric one with 63 ranges
 * "4294967293-4294967294/4294967295" and a net range "65534-65535/65535",
 * 2104 characters on ptlf.
 */
#define LNET_EXPR_STR_MAX	2304

/*
 * A parsed descriptor, in the same terms as the wire layout of
 * lnet_udsp.h: 1 + N range lists, list 0 the net numbers, then the address
 * lists of the kind. Ranges are stored list after list in ne_r.
 * A zeroed structure is an absent descriptor.
 */
struct lnet_nidexpr {
	__u8 ne_lnd;				/* 0 = absent */
	__u8 ne_kind;				/* enum lnet_udsp_kind */
	__u8 ne_nlists;				/* 1 + address lists */
	__u8 ne_nranges;			/* sum of ne_count[] */
	__u8 ne_count[LNET_UDSP_MAX_LISTS];	/* ranges of each list */
	struct lnet_ioc_range ne_r[LNET_UDSP_MAX_RANGES];
};

/* One UDSP rule. */
struct lnet_udsp_desc {
	__s32 idx;				/* -1 = append */
	__u32 action;				/* enum lnet_udsp_action */
	__u32 priority;				/* PRIORITY rules only */
	struct lnet_nidexpr src, dst, rte;	/* zeroed = absent */
};

#endif /* _UAPI_LNET_NIDEXPR_H */
