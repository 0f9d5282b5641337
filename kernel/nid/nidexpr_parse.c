// SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later
/*
 * NID range expressions: the parser. The input is cut into spans (the net,
 * the octets or groups, the elements of a list) and every span must be
 * consumed whole, so junk anywhere is reported with the span it spoils.
 * Ranges go into the expression list after list, in the wire's order: the
 * net numbers first, then the address lists, most significant first.
 */
#include "nid_priv.h"

/* What one list holds: its name in messages, its bounds and its base. */
struct field {
	const char *what;
	u32 min;		/* 1 for strides, else 0 */
	u32 max;
	unsigned int base;	/* 10 or 16 */
	bool hex_prefix;	/* "0x" numbers allowed (numeric addresses) */
};

static const struct field f_net = { "net number", 0, LNET_NETNUM_MAX, 10, false };
static const struct field f_octet = { "octet", 0, 255, 10, false };
static const struct field f_num = { "address", 0, 0xffffffffU, 10, true };
static const struct field f_group = { "group", 0, 0xffff, 16, false };

struct span {
	const char *p;
	const char *end;
};

/* Parser state: the expression being built and where errors go. */
struct px {
	const char *s;		/* the whole input, for messages */
	struct lnet_nidexpr *e;
	const struct field *f;	/* field of the list being parsed */
	struct span list;	/* the "[...]" being parsed, for messages */
	char *err;
	size_t errlen;
};

#define SPAN(s)		(int)((s).end - (s).p), (s).p
#define px_err(x, ...)	nid_err((x)->err, (x)->errlen, __VA_ARGS__)

static void begin_list(struct px *x, const struct field *f)
{
	x->f = f;
	x->e->ne_nlists++;
}

static int expr_add_range(struct px *x, u32 lo, u32 hi, u32 stride)
{
	struct lnet_nidexpr *e = x->e;

	if (e->ne_nranges >= LNET_UDSP_MAX_RANGES)
		return px_err(x, "too many ranges: an expression holds at most %u in all",
			      LNET_UDSP_MAX_RANGES);
	e->ne_r[e->ne_nranges].lo = lo;
	e->ne_r[e->ne_nranges].hi = hi;
	e->ne_r[e->ne_nranges].stride = stride;
	e->ne_nranges++;
	e->ne_count[e->ne_nlists - 1]++;
	return 0;
}

/* "0-255", "0-ffff", "1-4294967295": the field's bounds as typed */
static void print_bounds(char *buf, size_t len, const struct field *f)
{
	snprintf(buf, len, f->base == 16 ? "%x-%x" : "%u-%u", f->min, f->max);
}

static const char *base_name(const struct field *f)
{
	return f->base == 16 ? "hex" : f->hex_prefix ? "decimal or 0x hex" : "decimal";
}

/*
 * A number of the current field at the front of @s: *v and the span it
 * took (@num). A missing number is an error naming @s.
 */
static int scan_num(struct px *x, struct span s, u32 *v, struct span *num)
{
	const struct field *f = x->f;
	bool hex = f->hex_prefix && s.end - s.p > 2 && s.p[0] == '0' &&
		   (s.p[1] == 'x' || s.p[1] == 'X');
	const char *d = hex ? s.p + 2 : s.p;
	char bounds[32];
	u64 val;
	size_t n = nid_scan_digits(d, s.end, hex ? 16 : f->base, &val);

	print_bounds(bounds, sizeof(bounds), f);
	if (!n)
		return px_err(x, "%s '%.*s' is not a number: expected %s %s",
			      f->what, SPAN(s), base_name(f), bounds);
	num->p = s.p;
	num->end = d + n;
	*v = val > 0xffffffffU ? 0xffffffffU : (u32)val;
	if (val > f->max || val < f->min)
		return px_err(x, "%s '%.*s' is out of range %s", f->what,
			      SPAN(*num), bounds);
	return 0;
}

static int parse_stride(struct px *x, struct span s, u32 *stride)
{
	const struct field *list_field = x->f;
	struct field f = *x->f;
	struct span num = { NULL, NULL };
	int rc;

	if (s.p == s.end)
		return px_err(x, "empty stride after '/' in '%.*s': expected a number of at least 1",
			      SPAN(x->list));
	f.what = "stride";
	f.min = 1;
	x->f = &f;
	rc = scan_num(x, s, stride, &num);
	x->f = list_field;
	if (rc && num.p && *stride == 0)
		return px_err(x, "stride '%.*s' must be at least 1 in '%.*s'",
			      SPAN(num), SPAN(x->list));
	if (rc)
		return rc;
	if (num.end != s.end)
		return px_err(x, "trailing junk '%.*s' after stride '%.*s' in '%.*s'",
			      (int)(s.end - num.end), num.end, SPAN(num), SPAN(x->list));
	return 0;
}

static int add_full(struct px *x)
{
	return expr_add_range(x, 0, x->f->max, 1);
}

/* "lo-hi[/stride]" after lo: @s starts at the '-'. */
static int parse_span_range(struct px *x, struct span r, u32 lo, struct span s)
{
	const char *slash;
	struct span num;
	u32 hi, stride = 1;
	int rc;

	s.p++;
	slash = nid_find_char(s.p, s.end, '/');
	if (s.p == (slash ? slash : s.end))
		return px_err(x, "range '%.*s' has no upper bound: expected lo-hi",
			      SPAN(r));
	rc = scan_num(x, (struct span){ s.p, slash ? slash : s.end }, &hi, &num);
	if (rc)
		return rc;
	if (num.end != (slash ? slash : s.end))
		return px_err(x, "trailing junk '%.*s' in range '%.*s': expected lo-hi/stride",
			      (int)(s.end - num.end), num.end, SPAN(r));
	if (lo > hi)
		return px_err(x, "range '%.*s' has lo > hi: expected lo <= hi",
			      (int)(num.end - r.p), r.p);
	if (slash) {
		rc = parse_stride(x, (struct span){ slash + 1, s.end }, &stride);
		if (rc)
			return rc;
	}
	return expr_add_range(x, lo, hi, stride);
}

/* One element of a list: "*", "v" or "lo-hi[/stride]". */
static int parse_range(struct px *x, struct span r)
{
	struct span num;
	u32 lo;
	int rc;

	if (r.p == r.end)
		return px_err(x, "empty element in list '%.*s': expected [range{,range}]",
			      SPAN(x->list));
	if (r.end - r.p == 1 && *r.p == '*')
		return add_full(x);
	rc = scan_num(x, r, &lo, &num);
	if (rc)
		return rc;
	if (num.end == r.end)
		return expr_add_range(x, lo, lo, 1);
	if (*num.end == '-')
		return parse_span_range(x, r, lo, (struct span){ num.end, r.end });
	return px_err(x, "trailing junk '%.*s' after '%.*s' in list '%.*s'",
		      (int)(r.end - num.end), num.end, SPAN(num), SPAN(x->list));
}

/* "[" range { "," range } "]" at the front of @s, the whole of @s. */
static int parse_list(struct px *x, struct span s)
{
	const char *close = nid_find_char(s.p, s.end, ']');
	const char *p;
	int rc = 0;

	if (!close)
		return px_err(x, "unclosed '[' in '%.*s': expected ']'", SPAN(s));
	x->list = (struct span){ s.p, close + 1 };
	if (close + 1 != s.end)
		return px_err(x, "trailing junk '%.*s' after '%.*s'",
			      (int)(s.end - close - 1), close + 1, SPAN(x->list));
	if (close == s.p + 1)
		return px_err(x, "empty list '[]': expected [range{,range}] of %s values",
			      x->f->what);
	for (p = s.p + 1; !rc && p <= close; ) {
		const char *comma = nid_find_char(p, close, ',');
		const char *q = comma ? comma : close;

		rc = parse_range(x, (struct span){ p, q });
		p = q + 1;
	}
	return rc;
}

/* An item, the whole of @s: "*", a number or a "[list]" of field @f. */
static int parse_item(struct px *x, struct span s, const struct field *f)
{
	struct span num;
	u32 v;
	int rc;

	begin_list(x, f);
	if (s.p == s.end)
		return px_err(x, "empty %s in '%s': expected a number, '*' or '[list]'",
			      f->what, x->s);
	if (*s.p == '[')
		return parse_list(x, s);
	if (*s.p == '*') {
		if (s.end - s.p != 1)
			return px_err(x, "trailing junk '%.*s' after '*'",
				      (int)(s.end - s.p - 1), s.p + 1);
		return add_full(x);
	}
	rc = scan_num(x, s, &v, &num);
	if (rc)
		return rc;
	if (num.end != s.end && strchr("-,/", *num.end))
		return px_err(x, "range '%.*s' must be in brackets: '[%.*s]'",
			      SPAN(s), SPAN(s));
	if (num.end != s.end)
		return px_err(x, "trailing junk '%.*s' after %s '%.*s'",
			      (int)(s.end - num.end), num.end, f->what, SPAN(num));
	return expr_add_range(x, v, v, 1);
}

/* "lnd[num|*|[list]]": the LND and list 0. */
static int parse_net(struct px *x, struct span s)
{
	size_t namelen;
	u32 lnd;
	int rc;

	if (s.p == s.end)
		return px_err(x, "net is empty: expected an LND (tcp, o2ib, efa, gni, ptlf, kfi or lo) and an optional net number, e.g. 'tcp1'");
	rc = nid_lnd_split(s.p, s.end, &lnd, &namelen, x->err, x->errlen);
	if (rc)
		return rc;
	x->e->ne_lnd = (u8)lnd;
	s.p += namelen;
	if (s.p == s.end) {
		begin_list(x, &f_net);
		return expr_add_range(x, 0, 0, 1);
	}
	if (lnd == LNET_LND_LO && !(s.end - s.p == 1 && *s.p == '0'))
		return px_err(x, "net 'lo%.*s': lo has no net number (only 'lo')",
			      SPAN(s));
	return parse_item(x, s, &f_net);
}

static bool is_star(struct span s)
{
	return s.end - s.p == 1 && *s.p == '*';
}

static int count_char(struct span s, char c)
{
	int n = 0;

	for (const char *p = s.p; p < s.end; p++)
		n += *p == c;
	return n;
}

/* Four octet items; "*" alone is every IPv4 address ("*.*.*.*"). */
static int parse_ipv4(struct px *x, struct span a)
{
	int dots = count_char(a, '.'), rc = 0;

	x->e->ne_kind = LNET_UDSP_KIND_IPV4;
	if (is_star(a)) {
		for (int i = 0; !rc && i < 4; i++)
			rc = parse_item(x, a, &f_octet);
		return rc;
	}
	if (dots != 3)
		return px_err(x, "IPv4 expression '%.*s' has %d octets: expected 4 (a.b.c.d), or '*'",
			      SPAN(a), dots + 1);
	for (int i = 0; !rc && i < 4; i++) {
		const char *dot = nid_find_char(a.p, a.end, '.');

		rc = parse_item(x, (struct span){ a.p, dot ? dot : a.end }, &f_octet);
		a.p = dot ? dot + 1 : a.end;
	}
	return rc;
}

/* The '/' of a CIDR expression: the first one outside brackets. */
static const char *find_cidr_slash(struct span a)
{
	int depth = 0;

	for (const char *p = a.p; p < a.end; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']')
			depth--;
		else if (*p == '/' && depth <= 0)
			return p;
	}
	return NULL;
}

static int cidr_prefix(struct px *x, struct span pfx, u32 *plen)
{
	u64 v;
	size_t n = nid_scan_digits(pfx.p, pfx.end, 10, &v);

	if (!n || pfx.p + n != pfx.end)
		return px_err(x, "prefix '%.*s' is not a number: expected /0 to /128",
			      SPAN(pfx));
	if (v > 128)
		return px_err(x, "prefix '%.*s' is out of range 0-128", SPAN(pfx));
	*plen = (u32)v;
	return 0;
}

/* "addr/len": each group becomes the range of values the prefix allows. */
static int parse_cidr(struct px *x, struct span a, const char *slash)
{
	u8 addr[16];
	u32 plen;
	int rc;

	if (nid_has_char(a.p, slash, '[') || nid_has_char(a.p, slash, '*'))
		return px_err(x, "CIDR address '%.*s' must be a plain IPv6 address, e.g. '2001:db8::/64'",
			      (int)(slash - a.p), a.p);
	rc = cidr_prefix(x, (struct span){ slash + 1, a.end }, &plen);
	if (!rc)
		rc = nid_ip6_parse(a.p, slash, addr, x->err, x->errlen);
	for (u32 g = 0; !rc && g < 8; g++) {
		u32 bits = plen > 16 * g ? plen - 16 * g : 0;
		u32 mask = bits >= 16 ? 0xffff : (0xffffU << (16 - bits)) & 0xffff;
		u32 lo = ((u32)addr[2 * g] << 8 | addr[2 * g + 1]) & mask;

		begin_list(x, &f_group);
		rc = expr_add_range(x, lo, lo | (~mask & 0xffff), 1);
	}
	return rc;
}

/* Cut @s at ':' into at most @max spans (an empty @s has none). */
static int split_groups(struct px *x, struct span s, struct span whole,
			struct span *out, int max, int *n)
{
	*n = 0;
	if (s.p == s.end)
		return 0;
	for (const char *p = s.p; ; ) {
		const char *colon = nid_find_char(p, s.end, ':');

		if (*n >= max)
			return px_err(x, "IPv6 expression '%.*s' has more than 8 groups",
				      SPAN(whole));
		out[(*n)++] = (struct span){ p, colon ? colon : s.end };
		if (!colon)
			return 0;
		p = colon + 1;
	}
}

static const char *find_double_colon(struct span s)
{
	for (const char *p = s.p; p + 1 < s.end; p++)
		if (p[0] == ':' && p[1] == ':')
			return p;
	return NULL;
}

/* Groups (hex items) with at most one "::" standing for zero groups. */
static int parse_groups(struct px *x, struct span a)
{
	const char *dc = find_double_colon(a);
	struct span g[8];
	int nl, nr = 0, rc;

	if (dc && find_double_colon((struct span){ dc + 1, a.end }))
		return px_err(x, "IPv6 expression '%.*s' has more than one '::'",
			      SPAN(a));
	rc = split_groups(x, (struct span){ a.p, dc ? dc : a.end }, a, g,
			  dc ? 7 : 8, &nl);
	if (!rc && dc)
		rc = split_groups(x, (struct span){ dc + 2, a.end }, a, g + nl,
				  7 - nl, &nr);
	if (!rc && !dc && nl != 8)
		rc = px_err(x, "IPv6 expression '%.*s' has %d groups: expected 8, or '::' for a run of zero groups",
			    SPAN(a), nl);
	for (int i = 0; !rc && i < nl; i++)
		rc = parse_item(x, g[i], &f_group);
	for (int i = nl + nr; !rc && i < 8; i++) {
		begin_list(x, &f_group);
		rc = expr_add_range(x, 0, 0, 1);
	}
	for (int i = nl; !rc && i < nl + nr; i++)
		rc = parse_item(x, g[i], &f_group);
	return rc;
}

static int parse_ipv6(struct px *x, struct span a)
{
	const char *slash = find_cidr_slash(a);

	x->e->ne_kind = LNET_UDSP_KIND_IPV6;
	return slash ? parse_cidr(x, a, slash) : parse_groups(x, a);
}

/* A numeric LND's address, or lo's only address 0. */
static int parse_num(struct px *x, struct span a, const char *lnd)
{
	const struct lnet_ioc_range *r = &x->e->ne_r[1];
	int rc;

	if (x->e->ne_lnd != LNET_LND_LO &&
	    (nid_has_char(a.p, a.end, ':') || nid_has_char(a.p, a.end, '.')))
		return px_err(x, "%s address '%.*s' on %s: %s addresses are numbers 0-4294967295",
			      nid_has_char(a.p, a.end, ':') ? "IPv6" : "IPv4",
			      SPAN(a), lnd, lnd);
	x->e->ne_kind = LNET_UDSP_KIND_NUM;
	rc = parse_item(x, a, &f_num);
	/* lo's net list is [0], so its address range is ne_r[1] */
	if (x->e->ne_lnd == LNET_LND_LO &&
	    (rc || x->e->ne_count[1] != 1 || r->lo || r->hi))
		return px_err(x, "lo address '%.*s' is not 0: the only lo NID is 0@lo",
			      SPAN(a));
	return rc;
}

static int parse_addr(struct px *x, struct span a)
{
	const char *lnd = lnet_lnd_name(x->e->ne_lnd);

	if (a.p == a.end)
		return px_err(x, "empty address before '@': expected <address>@<net> or a net alone");
	if (!lnet_lnd_is_ip(x->e->ne_lnd))
		return parse_num(x, a, lnd);
	if (nid_has_char(a.p, a.end, ':'))
		return parse_ipv6(x, a);
	if (find_cidr_slash(a))
		return px_err(x, "CIDR '%.*s' is for IPv6 only: write IPv4 ranges per octet, e.g. '10.0.0.*'",
			      SPAN(a));
	return parse_ipv4(x, a);
}

int lnet_nidexpr_parse(const char *s, struct lnet_nidexpr *e,
		       char *err, size_t errlen)
{
	struct span all = { s, s + strlen(s) };
	const char *at = nid_find_char(all.p, all.end, '@');
	struct lnet_nidexpr tmp = { 0 };
	struct px x = { .s = s, .e = &tmp, .err = err, .errlen = errlen };
	int rc;

	if (all.p == all.end)
		return px_err(&x, "expression is empty: expected a net ('tcp1', 'o2ib[1-3]') or <address>@<net> ('10.0.0.[1-5]@tcp')");
	if (at && nid_has_char(at + 1, all.end, '@'))
		return px_err(&x, "expression '%s' has more than one '@'", s);
	rc = parse_net(&x, (struct span){ at ? at + 1 : s, all.end });
	if (!rc && at)
		rc = parse_addr(&x, (struct span){ s, at });
	if (rc)
		return rc;
	*e = tmp;
	return 0;
}
