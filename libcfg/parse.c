// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Value parsers shared by lnetctl's argv and the YAML importer, and the
 * model constructors. Every message (through cfg_fail(), err.c) has the form
 *   invalid <what> '<value>': <allowed form or reason>
 * so that the user sees which option or key, and which value, is wrong.
 */
#include <strings.h>

#include "ops_priv.h"

/* --- integers and booleans ------------------------------------------------ */

/*
 * Decimal digits only, into *@v. -EINVAL for an empty string or junk,
 * -ERANGE when the number does not fit in 64 bits.
 */
static int parse_digits(const char *s, u64 *v)
{
	u64 n = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		if (n > (UINT64_MAX - (u64)(*s - '0')) / 10)
			return -ERANGE;
		n = n * 10 + (u64)(*s - '0');
	}
	*v = n;
	return 0;
}

/*
 * A command-line number as strtol(s, NULL, 0) would read it, but whole:
 * "0x" or "0X" then hex digits, "0" then octal digits, else decimal.
 * -EINVAL for junk (also "08", "0x"), -ERANGE past 64 bits.
 */
static int parse_c_number_len(const char *s, size_t len, u64 *v)
{
	const char *end = s + len;
	unsigned int base = 10, d;
	u64 n = 0;

	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (len > 1 && s[0] == '0') {
		base = 8;
		s++;
	}
	if (s == end)
		return -EINVAL;
	for (; s < end; s++) {
		if (*s >= '0' && *s <= '9')
			d = (unsigned int)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned int)(*s - 'a') + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned int)(*s - 'A') + 10;
		else
			return -EINVAL;
		if (d >= base)
			return -EINVAL;
		if (n > (UINT64_MAX - d) / base)
			return -ERANGE;
		n = n * base + d;
	}
	*v = n;
	return 0;
}

static int parse_c_number(const char *s, u64 *v)
{
	return parse_c_number_len(s, strlen(s), v);
}

/*
 * "123", "0x40K", "1m": a number as parse_c_number() reads it, then an
 * optional K or M (neither is a hex digit, so "0x1K" is 1024). 0 and
 * *@v, or -EINVAL / -ERANGE (past 2^32 - 1).
 */
static int parse_size(const char *s, u64 *v)
{
	size_t len = strlen(s);
	u64 n = 0, unit = 1;
	int rc;

	if (len && (s[len - 1] == 'k' || s[len - 1] == 'K'))
		unit = 1024;
	else if (len && (s[len - 1] == 'm' || s[len - 1] == 'M'))
		unit = 1024 * 1024;
	rc = parse_c_number_len(s, unit > 1 ? len - 1 : len, &n);
	if (rc)
		return rc;
	if (n > 0xffffffffULL)
		return -ERANGE;
	*v = n * unit;
	return *v > 0xffffffffULL ? -ERANGE : 0;
}

/*
 * @s read by @number (parse_digits, parse_c_number, parse_size) and checked against
 * [@min, @max]: 0 with *@out set, or -EINVAL / -ERANGE with *@out untouched.
 */
static int parse_u32_in(int (*number)(const char *s, u64 *v), const char *s,
			u32 min, u32 max, u32 *out)
{
	u64 v = 0;
	int rc = number(s, &v);

	if (!rc && (v < min || v > max))
		rc = -ERANGE;
	if (!rc)
		*out = (u32)v;
	return rc;
}

static int u32_result(int rc, const char *what, const char *s, u32 min, u32 max,
		      struct cfg_err *err)
{
	if (rc)
		return cfg_fail(err, rc, NULL,
				"invalid %s '%s': expected an integer %u-%u",
				what, s, min, max);
	return 0;
}

int cfg_parse_u32(const char *what, const char *s, u32 min, u32 max, u32 *out,
		  struct cfg_err *err)
{
	return u32_result(parse_u32_in(parse_digits, s, min, max, out), what, s, min, max, err);
}

int cfg_parse_arg_u32(const char *what, const char *s, u32 min, u32 max, u32 *out,
		      struct cfg_err *err)
{
	return u32_result(parse_u32_in(parse_c_number, s, min, max, out), what, s, min, max,
			  err);
}

int cfg_parse_size(const char *what, const char *s, u32 min, u32 max, u32 *out,
		   struct cfg_err *err)
{
	int rc = parse_u32_in(parse_size, s, min, max, out);

	if (rc)
		return cfg_fail(err, rc, NULL,
				"invalid %s '%s': expected bytes %u-%u (a K or M suffix counts 1024 or 1048576)",
				what, s, min, max);
	return 0;
}

/* @s ('-' allowed) read by @number into [@min, @max], or the message. */
static int parse_s32_in(int (*number)(const char *s, u64 *v), const char *what,
			const char *s, s32 min, s32 max, s32 *out, struct cfg_err *err)
{
	bool neg = s[0] == '-';
	s64 sv = 0;
	u64 v;
	int rc = number(s + neg, &v);

	if (!rc && v > (u64)INT32_MAX + neg)
		rc = -ERANGE;
	if (!rc) {
		sv = neg ? -(s64)v : (s64)v;
		if (sv < min || sv > max)
			rc = -ERANGE;
	}
	if (rc)
		return cfg_fail(err, rc, NULL,
				"invalid %s '%s': expected an integer %d-%d",
				what, s, min, max);
	*out = (s32)sv;
	return 0;
}

int cfg_parse_s32(const char *what, const char *s, s32 min, s32 max, s32 *out,
		  struct cfg_err *err)
{
	return parse_s32_in(parse_digits, what, s, min, max, out, err);
}

int cfg_parse_arg_s32(const char *what, const char *s, s32 min, s32 max, s32 *out,
		      struct cfg_err *err)
{
	return parse_s32_in(parse_c_number, what, s, min, max, out, err);
}

int cfg_parse_bool(const char *what, const char *s, bool *out, struct cfg_err *err)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return cfg_fail(err, -EINVAL, NULL,
			"invalid %s '%s': expected true/false, yes/no, on/off or 1/0",
			what, s);
}

/* --- nets, NIDs, expressions -------------------------------------------- */

/* A NID library parser's @rc: 0, or the error naming @what and @s, with its @why. */
static int nidlib_result(int rc, const char *what, const char *s, const char *why,
			 struct cfg_err *err)
{
	if (rc)
		return cfg_fail(err, rc, NULL, "invalid %s '%s': %s", what, s, why);
	return 0;
}

int cfg_parse_net(const char *what, const char *s, u32 *net_id, struct cfg_err *err)
{
	char why[256] = "";
	int rc = lnet_net_parse(s, net_id, why, sizeof(why));

	return nidlib_result(rc, what, s, why, err);
}

/*
 * A NID written without "@net" is on tcp, as Lustre reads it
 * ("10.0.0.1" is 10.0.0.1@tcp, "10.0.0.[1-3]" three tcp NIDs): @s, or
 * @s with "@tcp" appended in @buf. Only NIDs take the default: in a NID
 * expression a word alone is a net ("tcp1").
 */
static const char *nid_on_net(const char *s, char *buf, size_t len)
{
	if (!*s || strchr(s, '@'))
		return s;
	if ((size_t)snprintf(buf, len, "%s@tcp", s) >= len)
		return s;	/* too long to be a NID anyway: the parser says so */
	return buf;
}

/* The message of a NID that failed to parse, saying when tcp was assumed. */
static int nid_fail(int rc, const char *what, const char *s, bool on_tcp,
		    const char *why, struct cfg_err *err)
{
	return cfg_fail(err, rc, NULL, "invalid %s '%s': %s%s", what, s, why,
			on_tcp ? " (a NID without '@<net>' is on tcp)" : "");
}

int cfg_parse_nid(const char *what, const char *s, struct lnet_nid *nid,
		  struct cfg_err *err)
{
	char why[256] = "", full[LNET_EXPR_STR_MAX];
	const char *parsed = nid_on_net(s, full, sizeof(full));
	int rc = lnet_nid_parse(parsed, nid, why, sizeof(why));

	return rc ? nid_fail(rc, what, s, parsed != s, why, err) : 0;
}

/* The @len decimal digits at @s, at most @max: the value, or -1. */
static int small_number(const char *s, size_t len, int max)
{
	int v = 0;
	size_t i;

	if (!len || len > 3)
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v <= max ? v : -1;
}

/* One octet of an IPv4 CIDR, the top @bits of @v fixed: "v", "[lo-hi]" or "*". */
static int cidr_octet(char *buf, size_t len, int v, int bits)
{
	int lo;

	if (bits >= 8)
		return snprintf(buf, len, "%d", v);
	if (bits <= 0)
		return snprintf(buf, len, "*");
	lo = v & (0xff << (8 - bits)) & 0xff;
	return snprintf(buf, len, "[%d-%d]", lo, lo + (1 << (8 - bits)) - 1);
}

/*
 * Lustre takes IPv4 CIDR in NID expressions ("10.0.0.0/24@tcp"); the
 * expression grammar has IPv4 ranges instead, which say the same:
 * 10.0.0.0/24 is 10.0.0.*, 10.0.16.0/20 is 10.0.[16-31].*. @s rewritten
 * so into @buf and 1, or 0 when @s is no IPv4 CIDR (left to the parser);
 * -EINVAL with the message for an IPv4 CIDR that is malformed.
 */
static int ipv4_cidr(const char *what, const char *s, char *buf, size_t len,
		     struct cfg_err *err)
{
	const char *slash = strchr(s, '/'), *at = strchr(s, '@'), *p = s, *dot;
	int octet[4], prefix = -1, i;
	size_t n = 0;

	if (!slash || !at || slash > at || strchr(s, ':') || strpbrk(s, "[*"))
		return 0;
	for (i = 0; i < 4 && p; i++) {
		dot = i < 3 ? memchr(p, '.', slash - p) : slash;
		octet[i] = dot ? small_number(p, dot - p, 255) : -1;
		p = dot && octet[i] >= 0 ? dot + 1 : NULL;
	}
	if (p == slash + 1)
		prefix = small_number(p, at - p, 32);
	if (prefix < 0)
		return cfg_fail(err, -EINVAL, NULL,
				"invalid %s '%s': an IPv4 CIDR is four octets 0-255, '/' and a "
				"prefix length 0-32, e.g. '10.0.0.0/24@tcp'", what, s);
	for (i = 0; i < 4 && n < len; i++) {
		n += cidr_octet(buf + n, len - n, octet[i], prefix - 8 * i);
		if (n < len)
			n += snprintf(buf + n, len - n, "%s", i < 3 ? "." : at);
	}
	return n < len;		/* too long: the parser names what is wrong */
}

int cfg_parse_nidexpr(const char *what, const char *s, struct lnet_nidexpr *e,
		      struct cfg_err *err)
{
	char why[256] = "", ranges[LNET_EXPR_STR_MAX];
	int rc = ipv4_cidr(what, s, ranges, sizeof(ranges), err);

	if (rc < 0)
		return rc;
	rc = lnet_nidexpr_parse(rc ? ranges : s, e, why, sizeof(why));
	return nidlib_result(rc, what, s, why, err);
}

/* --- lists ------------------------------------------------------------------ */

/*
 * The next comma-separated item of *@pos (commas inside [...] do not
 * separate: "10.0.0.[1,3]@tcp" is one item), copied into @item.
 * Returns the item's length, or -E2BIG if it does not fit in @size.
 */
static int next_item(const char **pos, char *item, size_t size)
{
	const char *p = *pos;
	int depth = 0;
	size_t len;

	for (; *p && (*p != ',' || depth > 0); p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']' && depth > 0)
			depth--;
	}
	len = (size_t)(p - *pos);
	if (len >= size)
		return -E2BIG;
	memcpy(item, *pos, len);
	item[len] = '\0';
	*pos = *p ? p + 1 : p;
	return (int)len;
}

static const char *ifname_problem(const char *name)
{
	if (!*name)
		return "empty interface name";
	if (strchr(name, '/'))
		return "'/' is not allowed in an interface name";
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return "'.' and '..' are not interface names";
	for (; *name; name++)
		if (*name == ' ' || *name == '\t' || *name == '\n' || *name == ':')
			return "whitespace and ':' are not allowed in an interface name";
	return NULL;
}

static bool net_has_if(const struct cfg_net *n, const char *name)
{
	u32 i;

	for (i = 0; i < n->nifs; i++)
		if (!strcmp(n->ifnames[i], name))
			return true;
	return false;
}

static int add_ifname(const char *what, const char *s, const char *name,
		      struct cfg_net *n, struct cfg_err *err)
{
	const char *why = ifname_problem(name);

	if (why)
		return cfg_fail(err, -EINVAL, NULL, "invalid %s '%s': %s",
				what, s, why);
	if (net_has_if(n, name))
		return cfg_fail(err, -EINVAL, NULL,
				"invalid %s '%s': interface '%s' is listed twice",
				what, s, name);
	if (n->nifs >= CFG_MAX_IFS)
		return cfg_fail(err, -E2BIG, NULL,
				"invalid %s '%s': at most %d interfaces per net",
				what, s, CFG_MAX_IFS);
	if (cfg_net_append(n, name))
		return cfg_fail(err, -ENOMEM, NULL, "out of memory");
	return 0;
}

/*
 * Lustre's "eth0[0,1]": the interface's CPU partitions after its name.
 * The list is checked and dropped (one partition here, as for CPT:),
 * leaving the name in @item.
 */
static int ifname_cpts(const char *what, const char *s, char *item, struct cfg_err *err)
{
	char *open = strchr(item, '[');
	size_t len = strlen(item);

	if (!open)
		return 0;
	if (open == item || item[len - 1] != ']' || cfg_parse_cpts(what, open, NULL, NULL))
		return cfg_fail(err, -EINVAL, NULL,
				"invalid %s '%s': expected IF or IF[partitions], e.g. eth0[0,1] (partitions 0-%d)",
				what, s, CFG_CPT_MAX);
	*open = '\0';
	return 0;
}

int cfg_parse_ifnames(const char *what, const char *s, struct cfg_net *n,
		      struct cfg_err *err)
{
	u32 before = n->nifs;
	const char *pos = s;
	char name[LNET_IFNAME_LEN + 64];
	int rc = cfg_model_size(n, &cfg_net_model, err);

	if (rc)
		return rc;

	do {
		int len = next_item(&pos, name, sizeof(name));

		if (len >= 0)
			rc = ifname_cpts(what, s, name, err);
		if (!rc && (len < 0 || strlen(name) >= LNET_IFNAME_LEN))
			rc = cfg_fail(err, -EINVAL, NULL,
				      "invalid %s '%s': an interface name has 1-%d characters",
				      what, s, LNET_IFNAME_LEN - 1);
		else if (!rc)
			rc = add_ifname(what, s, name, n, err);
	} while (!rc && *pos);
	if (!rc && pos > s && pos[-1] == ',')
		rc = cfg_fail(err, -EINVAL, NULL, "invalid %s '%s': empty interface name",
			      what, s);
	if (rc)
		n->nifs = before;
	return rc;
}

/* --- CPT lists ---------------------------------------------------------------- */

/* A number 0..@max at *@pp (digits), moving past it. */
static int span_number(const char **pp, u32 max, u32 *out)
{
	const char *p = *pp;
	u32 n = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (u32)(*p - '0');
		if (n > max)
			return -ERANGE;
	}
	*pp = p;
	*out = n;
	return 0;
}

int cfg_parse_span(const char **pp, u32 max, u32 *lo, u32 *hi, u32 *step)
{
	int rc = span_number(pp, max, lo);

	*hi = *lo;
	*step = 1;
	if (!rc && **pp == '-') {
		(*pp)++;
		rc = span_number(pp, max, hi);
		if (!rc && **pp == '/') {
			(*pp)++;
			rc = span_number(pp, max, step);
		}
		if (!rc && (*hi < *lo || !*step))
			rc = -EINVAL;
	}
	return rc;
}

static void skip_blanks(const char **pp)
{
	while (**pp == ' ' || **pp == '\t')
		(*pp)++;
}

/* One item of a CPT list: its partitions (those below 64) into @mask. */
static int cpt_item(const char **pp, u64 *mask)
{
	u32 lo = 0, hi = 0, step = 1, i;
	int rc = cfg_parse_span(pp, CFG_CPT_MAX, &lo, &hi, &step);

	for (i = lo; !rc && i <= hi && i < 64; i += step)
		*mask |= 1ULL << i;
	return rc;
}

int cfg_parse_cpts(const char *what, const char *s, uint64_t *mask,
		   struct cfg_err *err)
{
	const char *p = s;
	bool bracket;
	u64 m = 0;
	int rc;

	skip_blanks(&p);
	bracket = *p == '[';
	if (bracket)
		p++;
	for (;;) {
		skip_blanks(&p);
		rc = cpt_item(&p, &m);
		skip_blanks(&p);
		if (rc || *p != ',')
			break;
		p++;
	}
	if (!rc && bracket && *p++ != ']')
		rc = -EINVAL;
	if (!rc) {
		skip_blanks(&p);
		if (*p)
			rc = -EINVAL;
	}
	if (rc)
		return cfg_fail(err, -EINVAL, NULL,
				"invalid %s '%s': expected a list of partitions 0-%d such as '[0,1]' or '[0-3]'",
				what, s, CFG_CPT_MAX);
	if (mask)
		*mask = m;
	return 0;
}

struct nidlist_ctx {
	struct cfg_peer *p;
	struct lnet_nid dup;		/* set when a NID is listed twice */
};

static bool peer_has_nid(const struct cfg_peer *p, const struct lnet_nid *nid)
{
	u32 i;

	for (i = 0; i < p->nnids; i++)
		if (lnet_nid_equal(&p->nids[i], nid))
			return true;
	return false;
}

static int nidlist_add(const struct lnet_nid *nid, void *arg)
{
	struct nidlist_ctx *ctx = arg;

	if (peer_has_nid(ctx->p, nid)) {
		ctx->dup = *nid;
		return -EEXIST;
	}
	return cfg_peer_append(ctx->p, nid);	/* -E2BIG past LNET_PEER_MAX_NIS */
}

static int nidlist_fail(const char *what, const char *s, int rc,
			const struct nidlist_ctx *ctx, struct cfg_err *err)
{
	char nid[LNET_NID_STR_MAX];

	if (rc == -EEXIST) {
		lnet_nid_print(&ctx->dup, nid, sizeof(nid));
		return cfg_fail(err, -EINVAL, NULL,
				"invalid %s '%s': NID %s is listed twice", what, s, nid);
	}
	if (rc == -E2BIG)
		return cfg_fail(err, -E2BIG, NULL,
				"invalid %s '%s': a peer has at most %d NIDs",
				what, s, LNET_PEER_MAX_NIS);
	if (rc == -ENOMEM)
		return cfg_fail(err, rc, NULL, "out of memory");
	return cfg_fail(err, rc, NULL,
			"invalid %s '%s': only IPv4 and numeric NID ranges on one net can be listed",
			what, s);
}

/* @item (no '@') is a net expression such as "o2ib[1-2]", not NIDs on tcp. */
static bool is_net_only(const char *item)
{
	struct lnet_nidexpr e;

	return !strchr(item, '@') && !lnet_nidexpr_parse(item, &e, NULL, 0) &&
	       lnet_nidexpr_is_net(&e);
}

/* One item: a NID, or a NID range expanded into NIDs (on tcp without "@net"). */
static int nidlist_item(const char *what, const char *s, const char *item,
			struct nidlist_ctx *ctx, struct cfg_err *err)
{
	char why[256] = "", full[LNET_EXPR_STR_MAX];
	const char *parsed = nid_on_net(item, full, sizeof(full));
	struct lnet_nid nid;
	struct lnet_nidexpr e;
	int rc;

	if (is_net_only(item))
		return cfg_fail(err, -EINVAL, NULL,
				"invalid %s '%s': '%s' is a net, expected NIDs",
				what, s, item);
	if (!strpbrk(parsed, "[*")) {
		rc = lnet_nid_parse(parsed, &nid, why, sizeof(why));
		if (rc)
			return nid_fail(rc, what, s, parsed != item, why, err);
		rc = nidlist_add(&nid, ctx);
		return rc ? nidlist_fail(what, s, rc, ctx, err) : 0;
	}
	rc = lnet_nidexpr_parse(parsed, &e, why, sizeof(why));
	if (rc)
		return nid_fail(rc, what, s, parsed != item, why, err);
	if (lnet_nidexpr_is_net(&e))
		return cfg_fail(err, -EINVAL, NULL,
				"invalid %s '%s': '%s' is a net, expected NIDs",
				what, s, item);
	rc = lnet_nidexpr_expand(&e, LNET_PEER_MAX_NIS - ctx->p->nnids,
				 nidlist_add, ctx);
	return rc ? nidlist_fail(what, s, rc, ctx, err) : 0;
}

int cfg_parse_nidlist(const char *what, const char *s, struct cfg_peer *p,
		      struct cfg_err *err)
{
	struct nidlist_ctx ctx = { .p = p };
	u32 before = p->nnids;
	const char *pos = s;
	char item[LNET_EXPR_STR_MAX];
	int rc = cfg_model_size(p, &cfg_peer_model, err);

	if (rc)
		return rc;

	do {
		int len = next_item(&pos, item, sizeof(item));

		if (len == 0)
			rc = cfg_fail(err, -EINVAL, NULL,
				      "invalid %s '%s': empty NID in the list", what, s);
		else if (len < 0)
			rc = cfg_fail(err, -EINVAL, NULL,
				      "invalid %s '%s': an item is longer than %d characters",
				      what, s, LNET_EXPR_STR_MAX - 1);
		else
			rc = nidlist_item(what, s, item, &ctx, err);
	} while (!rc && *pos);
	if (!rc && pos > s && pos[-1] == ',')
		rc = cfg_fail(err, -EINVAL, NULL,
			      "invalid %s '%s': empty NID in the list", what, s);
	if (rc)
		p->nnids = before;
	return rc;
}

/* --- policies ------------------------------------------------------------------ */

/* "src + dst + priority 3": what the user gave, for messages. */
static const char *policy_parts(const struct cfg_policy *p, bool has_priority,
				u32 priority, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s%s%s",
			 lnet_nidexpr_present(&p->d.src) ? " + src" : "",
			 lnet_nidexpr_present(&p->d.dst) ? " + dst" : "",
			 lnet_nidexpr_present(&p->d.rte) ? " + rte" : "");

	if (has_priority && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, " + priority %u", priority);
	return buf + 3;		/* skip the first " + " */
}

int cfg_policy_finish(struct cfg_policy *p, bool has_priority, u32 priority,
		      struct cfg_err *err)
{
	struct lnet_udsp_desc *d = &p->d;
	bool src = lnet_nidexpr_present(&d->src);
	bool dst = lnet_nidexpr_present(&d->dst);
	bool rte = lnet_nidexpr_present(&d->rte);
	char parts[64], why[256] = "";
	int rc = cfg_model_size(p, &cfg_policy_model, err);

	if (rc)
		return rc;
	if (!src && !dst && !rte)
		return cfg_fail(err, -EINVAL, &p->loc,
				"a rule needs at least one of src, dst and rte");
	if (has_priority && priority >= LNET_PRIORITY_UNSET)
		return cfg_fail(err, -ERANGE, &p->loc,
				"invalid priority '%u': expected an integer 0-%u",
				priority, LNET_PRIORITY_UNSET - 1);
	if (has_priority) {
		d->action = LNET_UDSP_ACTION_PRIORITY;
		d->priority = priority;
	} else if ((src && dst) || (dst && rte)) {
		d->action = LNET_UDSP_ACTION_PREFERRED_LIST;
		d->priority = 0;
	} else {
		d->action = LNET_UDSP_ACTION_PRIORITY;
		d->priority = 0;
	}
	rc = lnet_udsp_check_shape(d, why, sizeof(why));
	if (rc) {
		return cfg_fail(err, rc, &p->loc, "invalid rule (%s): %s",
				policy_parts(p, has_priority, priority, parts, sizeof(parts)),
				why);
	}
	return 0;
}
