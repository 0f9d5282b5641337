// SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later
/*
 * NIDs and nets: the LND table, parsing and canonical printing of nets and
 * NIDs (IPv4, IPv6, numeric, 0@lo), equality and hashing.
 */
#include "nid_priv.h"

enum lnd_addr_form {
	LND_ADDR_IP,		/* IPv4 or IPv6 */
	LND_ADDR_NUM,		/* 0..4294967295 */
	LND_ADDR_LO,		/* only 0 */
};

static const struct lnd_info {
	u32 type;
	const char *name;
	enum lnd_addr_form form;
} lnd_table[] = {
	{ LNET_LND_TCP,  "tcp",  LND_ADDR_IP },
	{ LNET_LND_O2IB, "o2ib", LND_ADDR_IP },
	{ LNET_LND_EFA,  "efa",  LND_ADDR_IP },
	{ LNET_LND_GNI,  "gni",  LND_ADDR_NUM },
	{ LNET_LND_PTLF, "ptlf", LND_ADDR_NUM },
	{ LNET_LND_KFI,  "kfi",  LND_ADDR_NUM },
	{ LNET_LND_LO,   "lo",   LND_ADDR_LO },
};

#define LND_COUNT	(sizeof(lnd_table) / sizeof(lnd_table[0]))
#define LND_LIST	"tcp, o2ib, efa, gni, ptlf, kfi or lo"

static const struct lnd_info *lnd_find(u32 lnd)
{
	for (size_t i = 0; i < LND_COUNT; i++)
		if (lnd_table[i].type == lnd)
			return &lnd_table[i];
	return NULL;
}

const char *lnet_lnd_name(u32 lnd)
{
	const struct lnd_info *li = lnd_find(lnd);

	return li ? li->name : NULL;
}

int lnet_lnd_lookup(const char *s, size_t len, u32 *lnd)
{
	for (size_t i = 0; i < LND_COUNT; i++) {
		if (strlen(lnd_table[i].name) == len &&
		    !memcmp(lnd_table[i].name, s, len)) {
			*lnd = lnd_table[i].type;
			return 0;
		}
	}
	return -EINVAL;
}

bool lnet_lnd_is_ip(u32 lnd)
{
	const struct lnd_info *li = lnd_find(lnd);

	return li && li->form == LND_ADDR_IP;
}

bool lnet_lnd_is_num(u32 lnd)
{
	const struct lnd_info *li = lnd_find(lnd);

	return li && li->form == LND_ADDR_NUM;
}

/* --- helpers shared with the expression code -------------------------------- */

size_t nid_scan_digits(const char *p, const char *end, unsigned int base, u64 *val)
{
	size_t n = 0;
	u64 v = 0;

	for (; p + n < end; n++) {
		int d = base == 16 ? nid_hex_val(p[n]) :
			nid_is_digit(p[n]) ? p[n] - '0' : -1;

		if (d < 0)
			break;
		v = v * base + (u64)d;
		if (v > NID_NUM_HUGE)
			v = NID_NUM_HUGE;
	}
	*val = v;
	return n;
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static bool is_alnum(char c)
{
	return nid_is_digit(c) || lower(c) != c || (c >= 'a' && c <= 'z');
}

/* Does [s, s + n) spell @name ignoring case? */
static bool same_ignoring_case(const char *s, size_t n, const char *name)
{
	if (strlen(name) != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (lower(s[i]) != name[i])
			return false;
	return true;
}

/* The word a user meant as an LND name: letters/digits, trailing digits off. */
static size_t lnd_word_len(const char *s, const char *end)
{
	size_t n = 0, w;

	while (s + n < end && is_alnum(s[n]))
		n++;
	w = n;
	while (w > 0 && nid_is_digit(s[w - 1]))
		w--;
	if (w == 0)
		w = n ? n : (size_t)(end - s);
	return w;
}

static int lnd_unknown(const char *s, const char *end, char *err, size_t errlen)
{
	size_t w = lnd_word_len(s, end);

	for (size_t i = 0; i < LND_COUNT; i++)
		if (same_ignoring_case(s, w, lnd_table[i].name) &&
		    memcmp(s, lnd_table[i].name, w))
			return nid_err(err, errlen,
				       "LND '%.*s' must be lowercase: expected '%s'",
				       (int)w, s, lnd_table[i].name);
	return nid_err(err, errlen, "unknown LND '%.*s': expected " LND_LIST,
		       (int)w, s);
}

int nid_lnd_split(const char *s, const char *end, u32 *lnd, size_t *namelen,
		  char *err, size_t errlen)
{
	for (size_t i = 0; i < LND_COUNT; i++) {
		size_t n = strlen(lnd_table[i].name);

		if ((size_t)(end - s) < n || memcmp(s, lnd_table[i].name, n))
			continue;
		/* "tcpx" is not tcp: a letter would continue the name */
		if (s + n < end && is_alnum(s[n]) && !nid_is_digit(s[n]))
			continue;
		*lnd = lnd_table[i].type;
		*namelen = n;
		return 0;
	}
	return lnd_unknown(s, end, err, errlen);
}

/* --- string builder ----------------------------------------------------------- */

void nid_sb_mem(struct nid_sb *sb, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++, sb->pos++)
		if (sb->pos + 1 < sb->len)
			sb->buf[sb->pos] = s[i];
	if (sb->len)
		sb->buf[sb->pos < sb->len ? sb->pos : sb->len - 1] = '\0';
}

void nid_sb_str(struct nid_sb *sb, const char *s)
{
	nid_sb_mem(sb, s, strlen(s));
}

void nid_sb_u32(struct nid_sb *sb, u32 v, bool hex)
{
	char tmp[16];
	int n = snprintf(tmp, sizeof(tmp), hex ? "%x" : "%u", v);

	nid_sb_mem(sb, tmp, (size_t)n);
}

int nid_sb_done(const struct nid_sb *sb)
{
	return sb->pos < sb->len ? (int)sb->pos : -ENOSPC;
}

/* --- IPv6 text ------------------------------------------------------------------ */

void nid_zero_run(const bool zero[8], int *start, int *len)
{
	int best = -1, best_len = 0;

	for (int i = 0; i < 8;) {
		int j = i;

		while (j < 8 && zero[j])
			j++;
		if (j - i > best_len) {
			best = i;
			best_len = j - i;
		}
		i = j > i ? j : i + 1;
	}
	*start = best_len >= 2 ? best : -1;
	*len = best_len >= 2 ? best_len : 0;
}

static bool ip6_is_v4_mapped(const u8 a[16])
{
	static const u8 prefix[12] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(a, prefix, sizeof(prefix));
}

static void sb_ip4(struct nid_sb *sb, const u8 a[4])
{
	for (int i = 0; i < 4; i++) {
		if (i)
			nid_sb_str(sb, ".");
		nid_sb_u32(sb, a[i], false);
	}
}

void nid_sb_ip6(struct nid_sb *sb, const u8 addr[16])
{
	int ngroups = ip6_is_v4_mapped(addr) ? 6 : 8;
	bool zero[8] = { false };
	int start, len;

	for (int i = 0; i < ngroups; i++)
		zero[i] = !addr[2 * i] && !addr[2 * i + 1];
	nid_zero_run(zero, &start, &len);
	for (int i = 0; i < ngroups; i++) {
		if (i == start) {
			nid_sb_str(sb, "::");
			i += len - 1;
			continue;
		}
		if (i && i != start + len)
			nid_sb_str(sb, ":");
		nid_sb_u32(sb, (u32)addr[2 * i] << 8 | addr[2 * i + 1], true);
	}
	if (ngroups == 6) {
		if (start + len != 6)
			nid_sb_str(sb, ":");
		sb_ip4(sb, addr + 12);
	}
}

static int count_char(const char *p, const char *end, char c)
{
	int n = 0;

	for (; p < end; p++)
		n += *p == c;
	return n;
}

/* One octet [p, q) of the IPv4 address [s, end). */
static int ip4_octet(const char *p, const char *q, const char *s, const char *end,
		     u8 *out, char *err, size_t errlen)
{
	u64 v;
	size_t n = nid_scan_digits(p, q, 10, &v);

	if (p == q)
		return nid_err(err, errlen,
			       "IPv4 address '%.*s' has an empty octet: expected a.b.c.d, each 0-255",
			       (int)(end - s), s);
	if (n != (size_t)(q - p))
		return nid_err(err, errlen,
			       "octet '%.*s' of '%.*s' is not a decimal number 0-255",
			       (int)(q - p), p, (int)(end - s), s);
	if (v > 255)
		return nid_err(err, errlen, "octet '%.*s' is out of range 0-255",
			       (int)n, p);
	*out = (u8)v;
	return 0;
}

/* Dotted IPv4 (4 decimal octets, 0-255) in [s, end) into a[4]. */
static int ip4_parse(const char *s, const char *end, u8 a[4], char *err, size_t errlen)
{
	int dots = count_char(s, end, '.');
	const char *p = s;

	if (dots != 3)
		return nid_err(err, errlen,
			       "IPv4 address '%.*s' has %d octets: expected 4 (a.b.c.d)",
			       (int)(end - s), s, dots + 1);
	for (int i = 0; i < 4; i++) {
		const char *q = nid_find_char(p, end, '.');
		int rc;

		q = q ? q : end;
		rc = ip4_octet(p, q, s, end, &a[i], err, errlen);
		if (rc)
			return rc;
		p = q + 1;
	}
	return 0;
}

/*
 * Groups of one side of "::" (or of a whole address) [p, end) into g[], *n of
 * them; [s, send) is the whole address for messages. A dotted IPv4 tail is
 * allowed at the very end of the address only (@v4_tail).
 */
static int ip6_groups(const char *p, const char *end, const char *s, const char *send,
		      u16 *g, int max, int *n, bool v4_tail, char *err, size_t errlen)
{
	*n = 0;
	while (p < end) {
		const char *colon = p;
		u64 v;
		size_t d;

		while (colon < end && *colon != ':')
			colon++;
		if (v4_tail && colon == end && nid_has_char(p, end, '.')) {
			u8 a[4];
			int rc;

			if (*n + 2 > max)
				goto too_many;
			rc = ip4_parse(p, end, a, err, errlen);
			if (rc)
				return rc;
			g[(*n)++] = (u16)(a[0] << 8 | a[1]);
			g[(*n)++] = (u16)(a[2] << 8 | a[3]);
			return 0;
		}
		d = nid_scan_digits(p, colon, 16, &v);
		if (colon == p)
			return nid_err(err, errlen,
				       "IPv6 address '%.*s' has an empty group: expected groups of 1-4 hex digits",
				       (int)(send - s), s);
		if (d != (size_t)(colon - p) || d > 4)
			return nid_err(err, errlen,
				       "group '%.*s' of IPv6 address '%.*s' is not 1-4 hex digits",
				       (int)(colon - p), p, (int)(send - s), s);
		if (*n >= max)
			goto too_many;
		g[(*n)++] = (u16)v;
		if (colon == end)
			break;
		p = colon + 1;
		if (p == end)
			return nid_err(err, errlen,
				       "IPv6 address '%.*s' ends with a single ':'",
				       (int)(send - s), s);
	}
	return 0;
too_many:
	return nid_err(err, errlen,
		       "IPv6 address '%.*s' has more than 8 groups",
		       (int)(send - s), s);
}

static int ip6_side(const char *p, const char *end, const char *s, const char *send,
		    u16 *g, int max, int *n, char *err, size_t errlen)
{
	return ip6_groups(p, end, s, send, g, max, n, end == send, err, errlen);
}

static const char *find_double_colon(const char *p, const char *end)
{
	for (; p + 1 < end; p++)
		if (p[0] == ':' && p[1] == ':')
			return p;
	return NULL;
}

int nid_ip6_parse(const char *p, const char *end, u8 addr[16],
		  char *err, size_t errlen)
{
	const char *dc = find_double_colon(p, end);
	u16 g[8] = { 0 }, right[8];
	int nl = 0, nr = 0, rc;

	if (!dc) {
		rc = ip6_side(p, end, p, end, g, 8, &nl, err, errlen);
		if (!rc && nl != 8)
			rc = nid_err(err, errlen,
				     "IPv6 address '%.*s' has %d groups: expected 8, or '::' for a run of zeros",
				     (int)(end - p), p, nl);
	} else if (find_double_colon(dc + 1, end)) {
		rc = nid_err(err, errlen,
			     "IPv6 address '%.*s' has more than one '::'",
			     (int)(end - p), p);
	} else {
		rc = ip6_side(p, dc, p, end, g, 7, &nl, err, errlen);
		if (!rc)
			rc = ip6_side(dc + 2, end, p, end, right, 7 - nl, &nr,
				      err, errlen);
		for (int i = 0; !rc && i < nr; i++)
			g[8 - nr + i] = right[i];
	}
	for (int i = 0; !rc && i < 8; i++) {
		addr[2 * i] = (u8)(g[i] >> 8);
		addr[2 * i + 1] = (u8)g[i];
	}
	return rc;
}

/* --- nets -------------------------------------------------------------------- */

static int netnum_parse(const char *p, const char *end, const char *net,
			u32 lnd, u32 *num, char *err, size_t errlen)
{
	u64 v;
	size_t n = nid_scan_digits(p, end, 10, &v);

	if (p + n != end)
		return nid_err(err, errlen, "trailing junk '%.*s' after net '%.*s'",
			       (int)(end - p - n), p + n, (int)(p + n - net), net);
	if (v > LNET_NETNUM_MAX)
		return nid_err(err, errlen,
			       "net number '%.*s' is out of range 0-65535",
			       (int)n, p);
	if (lnd == LNET_LND_LO && v)
		return nid_err(err, errlen,
			       "net '%.*s': lo has no net number (only 'lo')",
			       (int)(end - net), net);
	*num = (u32)v;
	return 0;
}

static int net_parse_range(const char *s, const char *end, u32 *net_id,
			   char *err, size_t errlen)
{
	size_t namelen;
	u32 lnd, num = 0;
	int rc;

	if (s == end)
		return nid_err(err, errlen,
			       "net is empty: expected an LND (" LND_LIST ") and an optional net number, e.g. 'tcp1'");
	rc = nid_lnd_split(s, end, &lnd, &namelen, err, errlen);
	if (!rc)
		rc = netnum_parse(s + namelen, end, s, lnd, &num, err, errlen);
	if (!rc)
		*net_id = LNET_NET_ID(lnd, num);
	return rc;
}

int lnet_net_parse(const char *s, u32 *net_id, char *err, size_t errlen)
{
	return net_parse_range(s, s + strlen(s), net_id, err, errlen);
}

static void sb_net(struct nid_sb *sb, u32 net_id)
{
	const char *name = lnet_lnd_name(LNET_NET_LND(net_id));

	if (!name) {
		nid_sb_str(sb, "lnd");
		nid_sb_u32(sb, LNET_NET_LND(net_id), false);
		/* a dash keeps the LND type and the net number apart */
		if (LNET_NET_NUM(net_id))
			nid_sb_str(sb, "-");
	} else {
		nid_sb_str(sb, name);
	}
	if (LNET_NET_NUM(net_id))
		nid_sb_u32(sb, LNET_NET_NUM(net_id), false);
}

int lnet_net_print(u32 net_id, char *buf, size_t len)
{
	struct nid_sb sb = { buf, len, 0 };

	sb_net(&sb, net_id);
	return nid_sb_done(&sb);
}

/* --- NIDs -------------------------------------------------------------------- */

static int ip4_check(const u8 a[4], const char *p, const char *end,
		     char *err, size_t errlen)
{
	if (a[0] == 127)
		return nid_err(err, errlen,
			       "address '%.*s' is a loopback address (127.0.0.0/8): not a valid NID",
			       (int)(end - p), p);
	return 0;
}

static int ip6_check(const u8 a[16], const char *p, const char *end,
		     char *err, size_t errlen)
{
	static const u8 loop[16] = { [15] = 1 };

	if (!memcmp(a, loop, 16))
		return nid_err(err, errlen,
			       "address '%.*s' is the IPv6 loopback address (::1): not a valid NID",
			       (int)(end - p), p);
	if (a[0] == 0xfe && (a[1] & 0xc0) == 0x80)
		return nid_err(err, errlen,
			       "address '%.*s' is an IPv6 link-local address (fe80::/10): not a valid NID",
			       (int)(end - p), p);
	return 0;
}

static int nid_addr_ip(const char *p, const char *end, struct lnet_nid *nid,
		       char *err, size_t errlen)
{
	int rc;

	if (nid_has_char(p, end, ':')) {
		rc = nid_ip6_parse(p, end, nid->nid_addr, err, errlen);
		if (!rc)
			rc = ip6_check(nid->nid_addr, p, end, err, errlen);
		nid->nid_addr_len = 16;
	} else {
		rc = ip4_parse(p, end, nid->nid_addr, err, errlen);
		if (!rc)
			rc = ip4_check(nid->nid_addr, p, end, err, errlen);
		nid->nid_addr_len = 4;
	}
	return rc;
}

/* Decimal or 0x hex, 0..4294967295, the whole of [p, end). */
static int nid_addr_num(const char *p, const char *end, u32 lnd,
			struct lnet_nid *nid, char *err, size_t errlen)
{
	bool hex = end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	const char *d = hex ? p + 2 : p;
	u64 v;
	size_t n = nid_scan_digits(d, end, hex ? 16 : 10, &v);

	if (!n || d + n != end)
		return nid_err(err, errlen,
			       "address '%.*s' is not a number: %s addresses are 0-4294967295 (decimal or 0x hex)",
			       (int)(end - p), p, lnet_lnd_name(lnd));
	if (v > 0xffffffffULL)
		return nid_err(err, errlen,
			       "address '%.*s' is out of range 0-4294967295",
			       (int)(end - p), p);
	nid->nid_addr_len = 4;
	nid->nid_addr[0] = (u8)(v >> 24);
	nid->nid_addr[1] = (u8)(v >> 16);
	nid->nid_addr[2] = (u8)(v >> 8);
	nid->nid_addr[3] = (u8)v;
	return 0;
}

static int nid_addr_parse(const char *p, const char *end, u32 lnd,
			  struct lnet_nid *nid, char *err, size_t errlen)
{
	if (p == end)
		return nid_err(err, errlen,
			       "NID has an empty address before '@': expected <address>@<net>");
	if (lnet_lnd_is_ip(lnd))
		return nid_addr_ip(p, end, nid, err, errlen);
	if (lnd != LNET_LND_LO)
		return nid_addr_num(p, end, lnd, nid, err, errlen);
	if (end - p != 1 || *p != '0')
		return nid_err(err, errlen,
			       "lo address '%.*s' is not 0: the only lo NID is 0@lo",
			       (int)(end - p), p);
	nid->nid_addr_len = 4;
	return 0;
}

int lnet_nid_parse(const char *s, struct lnet_nid *nid, char *err, size_t errlen)
{
	const char *end = s + strlen(s);
	const char *at = nid_find_char(s, end, '@');
	struct lnet_nid n = { 0 };
	u32 net_id;
	int rc;

	if (!at)
		return nid_err(err, errlen,
			       "NID '%s' has no '@': expected <address>@<net>, e.g. '10.0.0.1@tcp'",
			       s);
	if (nid_has_char(at + 1, end, '@'))
		return nid_err(err, errlen,
			       "NID '%s' has more than one '@': expected <address>@<net>",
			       s);
	rc = net_parse_range(at + 1, end, &net_id, err, errlen);
	if (rc)
		return rc;
	n.nid_lnd = (u8)LNET_NET_LND(net_id);
	n.nid_netnum = (u16)LNET_NET_NUM(net_id);
	rc = nid_addr_parse(s, at, n.nid_lnd, &n, err, errlen);
	if (!rc)
		*nid = n;
	return rc;
}

static void sb_nid_addr(struct nid_sb *sb, const struct lnet_nid *nid)
{
	const u8 *a = nid->nid_addr;

	if (nid->nid_addr_len == 16)
		nid_sb_ip6(sb, a);
	else if (lnet_lnd_is_ip(nid->nid_lnd))
		sb_ip4(sb, a);
	else
		nid_sb_u32(sb, (u32)a[0] << 24 | (u32)a[1] << 16 |
			   (u32)a[2] << 8 | a[3], false);
}

int lnet_nid_print(const struct lnet_nid *nid, char *buf, size_t len)
{
	struct nid_sb sb = { buf, len, 0 };

	if (nid->nid_addr_len != 4 && nid->nid_addr_len != 16) {
		nid_sb_str(&sb, "<none>");
		return nid_sb_done(&sb);
	}
	sb_nid_addr(&sb, nid);
	nid_sb_str(&sb, "@");
	sb_net(&sb, lnet_nid_net(nid));
	return nid_sb_done(&sb);
}

int lnet_ip_print(const u8 *addr, u8 addr_len, u16 port, char *buf, size_t len)
{
	struct nid_sb sb = { buf, len, 0 };

	if (addr_len == 16) {
		nid_sb_str(&sb, "[");
		nid_sb_ip6(&sb, addr);
		nid_sb_str(&sb, "]");
	} else if (addr_len == 4) {
		sb_ip4(&sb, addr);
	} else {
		nid_sb_str(&sb, "<none>");
	}
	nid_sb_str(&sb, ":");
	nid_sb_u32(&sb, port, false);
	return nid_sb_done(&sb);
}

/* 32-bit finaliser of MurmurHash3: every input bit reaches every output bit. */
static u32 mix32(u32 h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bU;
	h ^= h >> 13;
	h *= 0xc2b2ae35U;
	h ^= h >> 16;
	return h;
}

u32 lnet_nid_hash(const struct lnet_nid *nid)
{
	u8 len = nid->nid_addr_len > 16 ? 16 : nid->nid_addr_len;
	u32 h = 0x811c9dc5U ^ lnet_nid_net(nid) ^ (u32)len << 24;

	/* FNV-1a over the address bytes, then a full avalanche */
	for (u8 i = 0; i < len; i++)
		h = (h ^ nid->nid_addr[i]) * 0x01000193U;
	return mix32(h ^ mix32(lnet_nid_net(nid)));
}

void lnet_nid_make(struct lnet_nid *nid, u32 net_id, const u8 *addr, u8 addr_len)
{
	memset(nid, 0, sizeof(*nid));
	if (addr_len > 16)
		addr_len = 16;
	nid->nid_lnd = (u8)LNET_NET_LND(net_id);
	nid->nid_netnum = (u16)LNET_NET_NUM(net_id);
	nid->nid_addr_len = addr_len;
	memcpy(nid->nid_addr, addr, addr_len);
}
