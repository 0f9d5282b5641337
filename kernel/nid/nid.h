/* SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later */
/*
 * NIDs, nets and NID range expressions: parse, print, compare, match.
 * Shared by the LNet core (kernel/) and by libcfg; uses only the OS layer.
 *
 * Every parser takes a NUL-terminated string, never prints, and returns 0 or
 * -EINVAL; on -EINVAL it writes a one-line reason into @err (at most
 * @errlen bytes, may be NULL) that names the offending part of the input
 * and the allowed form, e.g. "octet '256' is out of range 0-255".
 * Every printer returns the length written (without the NUL) or -ENOSPC.
 */
#ifndef LNET_NID_H
#define LNET_NID_H

#include "../os/os.h"
#include "lnet/lnet_nidexpr.h"	/* LNET_*_STR_MAX, struct lnet_nidexpr */

/* --- LNDs -------------------------------------------------------------- */

/* "tcp", "o2ib", "kfi", "gni", "ptlf", "efa", "lo"; NULL if unknown. */
const char *lnet_lnd_name(u32 lnd);
/* Exact name match of the first @len bytes of @s. 0 or -EINVAL. */
int lnet_lnd_lookup(const char *s, size_t len, u32 *lnd);
/* tcp, o2ib, efa: addresses are IPv4 or IPv6. */
bool lnet_lnd_is_ip(u32 lnd);

/* --- nets ---------------------------------------------------------------- */

/* "tcp", "tcp0", "tcp12", "o2ib3", "lo" (lo has no number). */
int lnet_net_parse(const char *s, u32 *net_id, char *err, size_t errlen);
/* Canonical: net number 0 prints without digits ("tcp", "tcp1", "lo"). */
int lnet_net_print(u32 net_id, char *buf, size_t len);

/* --- NIDs ---------------------------------------------------------------- */

/*
 * "<addr>@<net>": dotted IPv4 or IPv6 for the IP LNDs, a decimal or 0x
 * number for the numeric ones, and exactly "0@lo" for lo. Loopback
 * (127.0.0.0/8, ::1) and link-local IPv6 addresses are not NIDs.
 */
int lnet_nid_parse(const char *s, struct lnet_nid *nid, char *err, size_t errlen);
/* Canonical: "10.0.0.1@tcp", "2001:db8::1@tcp1" (RFC 5952), "5@gni", "0@lo". */
int lnet_nid_print(const struct lnet_nid *nid, char *buf, size_t len);
/*
 * An IP endpoint as "a.b.c.d:port" (@addr_len 4) or "[v6]:port" (16, the
 * address in the compressed form NIDs use): like lnet_nid_print().
 */
int lnet_ip_print(const u8 *addr, u8 addr_len, u16 port, char *buf, size_t len);
/* Inline: the send path and the re-flatten call these per peer NI. */
static inline u32 lnet_nid_net(const struct lnet_nid *nid)
{
	return LNET_NET_ID(nid->nid_lnd, nid->nid_netnum);
}

static inline bool lnet_nid_is_zero(const struct lnet_nid *nid)
{
	return nid->nid_addr_len == 0;
}

static inline bool lnet_nid_equal(const struct lnet_nid *a, const struct lnet_nid *b)
{
	u8 len = a->nid_addr_len > 16 ? 16 : a->nid_addr_len;

	return a->nid_addr_len == b->nid_addr_len && a->nid_lnd == b->nid_lnd &&
	       a->nid_netnum == b->nid_netnum &&
	       !memcmp(a->nid_addr, b->nid_addr, len);
}
u32  lnet_nid_hash(const struct lnet_nid *nid);	/* well mixed, all bits */
/* The NID of address @addr (@addr_len bytes, network order) on @net_id. */
void lnet_nid_make(struct lnet_nid *nid, u32 net_id, const u8 *addr, u8 addr_len);

/* --- NID range expressions (UDSP descriptors) ------------------------------ */

/*
 * Grammar (the ip2nets syntax of the UDSP design, plus IPv6):
 *   expr    := net | addr "@" net
 *   net     := lnd [ num | "*" | "[" list "]" ]       (lo: no number)
 *   addr    := ipv4 | ipv6 | numexpr                  (by the LND)
 *   ipv4    := item "." item "." item "." item        (values 0..255)
 *   numexpr := item                                   (0..4294967295)
 *   ipv6    := groups with "::" as usual, each group an item in hex
 *              (0..ffff), or an IPv6 address "/" prefix (CIDR, 0..128)
 *   item    := num | "*" | "[" list "]"
 *   list    := range { "," range }
 *   range   := num | "*" | num "-" num [ "/" stride ]  (lo <= hi, stride >= 1)
 * "tcp" and "tcp0" both mean net number 0; "tcp*" every net number.
 * Numbers are decimal (hex in IPv6 groups, strides included; numeric
 * addresses may also be 0x hex). "*@tcp" is every IPv4 address. A CIDR
 * address's host bits are ignored ("2001:db8::1/64" = "2001:db8::/64").
 */
int lnet_nidexpr_parse(const char *s, struct lnet_nidexpr *e,
		       char *err, size_t errlen);
/*
 * Canonical text that lnet_nidexpr_parse() turns back into an equal expr;
 * -EINVAL if @e is absent or fails lnet_nidexpr_validate().
 */
int lnet_nidexpr_print(const struct lnet_nidexpr *e, char *buf, size_t len);
bool lnet_nidexpr_equal(const struct lnet_nidexpr *a, const struct lnet_nidexpr *b);
static inline bool lnet_nidexpr_present(const struct lnet_nidexpr *e)
{
	return e->ne_lnd != 0;
}
static inline bool lnet_nidexpr_is_net(const struct lnet_nidexpr *e)
{
	return e->ne_kind == LNET_UDSP_KIND_NET;
}
/* Does the net part match @net_id (LND equal, net number in list 0)? */
bool lnet_nidexpr_match_net(const struct lnet_nidexpr *e, u32 net_id);
/*
 * Does @nid match? The net part must match; a net descriptor matches every
 * NID of its nets; otherwise the address must be of the kind's form (IPv4
 * for IPV4, 16 bytes for IPV6, numeric LND for NUM) and every list must
 * hold its part of the address.
 */
bool lnet_nidexpr_match_nid(const struct lnet_nidexpr *e, const struct lnet_nid *nid);
/*
 * Structural checks shared by the parser and the kernel's demarshaller:
 * LND known, kind allowed for the LND, ne_nlists = 1 + lists of the kind,
 * counts add up, every range lo <= hi, stride >= 1, values within the
 * list's bounds. 0 or -EINVAL (with a reason in @err).
 */
int lnet_nidexpr_validate(const struct lnet_nidexpr *e, char *err, size_t errlen);
/*
 * Call @fn for every NID the expression holds (IPv4 and numeric kinds with a
 * single net number only), stopping after @max NIDs (-E2BIG if more) or at
 * the first non-zero return of @fn (returned). 0 when all were visited.
 */
int lnet_nidexpr_expand(const struct lnet_nidexpr *e, unsigned int max,
			int (*fn)(const struct lnet_nid *nid, void *arg), void *arg);

#endif /* LNET_NID_H */
