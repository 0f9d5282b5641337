/* SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later */
/*
 * Internal helpers of the NID library, shared by nid.c and nidexpr*.c:
 * error reporting, number scanning, a bounded string builder, LND name
 * splitting and IPv6 address text.
 */
#ifndef LNET_NID_PRIV_H
#define LNET_NID_PRIV_H

#include "nid.h"

/* Write a reason into @err (if any) and evaluate to -EINVAL. */
#define nid_err(err, errlen, ...)					\
	({								\
		if ((err) && (errlen))					\
			snprintf((err), (errlen), __VA_ARGS__);		\
		-EINVAL;						\
	})

/* Saturation value of the number scanners: above every bound we check. */
#define NID_NUM_HUGE	(1ULL << 40)

static inline bool nid_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Is @c in [p, end)? Returns its position or NULL. */
static inline const char *nid_find_char(const char *p, const char *end, char c)
{
	for (; p < end; p++)
		if (*p == c)
			return p;
	return NULL;
}

static inline bool nid_has_char(const char *p, const char *end, char c)
{
	return nid_find_char(p, end, c) != NULL;
}

static inline int nid_hex_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Scan digits of @base (10 or 16) in [p, end) into *val (saturating at
 * NID_NUM_HUGE). Returns the number of digits consumed (0 = none).
 */
size_t nid_scan_digits(const char *p, const char *end, unsigned int base, u64 *val);

/* Numeric LNDs (gni, ptlf, kfi): addresses are plain 32-bit numbers. */
bool lnet_lnd_is_num(u32 lnd);

/*
 * Split an LND name off the front of [s, end): the name must not be
 * followed by a letter ("tcpx" is unknown). 0 with *lnd and *namelen, or
 * -EINVAL with a reason (unknown LND, uppercase name).
 */
int nid_lnd_split(const char *s, const char *end, u32 *lnd, size_t *namelen,
		  char *err, size_t errlen);

/* A bounded string builder: printers append, then nid_sb_done(). */
struct nid_sb {
	char *buf;
	size_t len;
	size_t pos;
};

void nid_sb_str(struct nid_sb *sb, const char *s);
void nid_sb_mem(struct nid_sb *sb, const char *s, size_t n);
void nid_sb_u32(struct nid_sb *sb, u32 v, bool hex);
/* Length written, or -ENOSPC if it did not fit (buf still NUL-terminated). */
int nid_sb_done(const struct nid_sb *sb);

/* IPv6 address text: RFC 5952 (lowercase, longest zero run as "::"). */
void nid_sb_ip6(struct nid_sb *sb, const u8 addr[16]);
/* A plain IPv6 address (hex groups, "::", dotted IPv4 tail) in [p, end). */
int nid_ip6_parse(const char *p, const char *end, u8 addr[16],
		  char *err, size_t errlen);
/* Index and length of the longest run (>= 2) of @zero groups, or len 0. */
void nid_zero_run(const bool zero[8], int *start, int *len);

/* --- expressions ----------------------------------------------------------- */

/* Address lists of @kind (NET 0, IPV4 4, NUM 1, IPV6 8); -1 if unknown. */
int nidexpr_kind_lists(u32 kind);
/* Largest value list @list of a (@lnd, @kind) expression may hold. */
u32 nidexpr_list_max(u32 lnd, u32 kind, unsigned int list);
/* First range of list @list of @e (lists are stored one after the other). */
const struct lnet_ioc_range *nidexpr_list(const struct lnet_nidexpr *e,
					  unsigned int list);
/* Does range @r hold @v? */
static inline bool nidexpr_range_has(const struct lnet_ioc_range *r, u32 v)
{
	return v >= r->lo && v <= r->hi && (v - r->lo) % r->stride == 0;
}

#endif /* LNET_NID_PRIV_H */
