// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ip2nets rules: address ranges, the legacy string, and the matcher that
 * turns rules and interfaces into NIs (ip2nets.h says which rules).
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ip2nets.h"

/* --- address ranges ---------------------------------------------------------- */

static void bit_set(u8 *map, u32 v)
{
	map[v / 8] |= (u8)(1U << (v % 8));
}

static bool bit_get(const u8 *map, u32 v)
{
	return map[v / 8] & (1U << (v % 8));
}

/* N, N-M or N-M/S inside brackets, into @map. */
static int octet_item(const char **pp, u8 *map)
{
	u32 lo = 0, hi = 0, step = 1, v;
	int rc = cfg_parse_span(pp, 255, &lo, &hi, &step);

	for (v = lo; !rc && v <= hi; v += step)
		bit_set(map, v);
	return rc;
}

/* A plain octet (no range outside brackets). */
static int span_number_only(const char **pp, u32 *v)
{
	u32 hi, step;
	const char *p = *pp;
	int rc = cfg_parse_span(&p, 255, v, &hi, &step);

	if (!rc && hi != *v)
		rc = -EINVAL;	/* "1-3" needs brackets */
	if (!rc)
		*pp = p;
	return rc;
}

/* One octet pattern: '*', a number, or [items]; it ends at '.' or the end. */
static int octet_parse(const char **pp, u8 *map)
{
	u32 v;
	int rc;

	if (**pp == '*') {
		(*pp)++;
		memset(map, 0xff, 32);
		return 0;
	}
	if (**pp != '[') {
		rc = span_number_only(pp, &v);
		if (!rc)
			bit_set(map, v);
		return rc;
	}
	(*pp)++;
	for (;;) {
		rc = octet_item(pp, map);
		if (rc || **pp != ',')
			break;
		(*pp)++;
	}
	if (!rc && *(*pp)++ != ']')
		rc = -EINVAL;
	return rc;
}

static int iprange_parse4(const char *s, struct cfg_iprange *r)
{
	const char *p = s;
	int k, rc = 0;

	r->family = 4;
	for (k = 0; k < 4 && !rc; k++) {
		rc = octet_parse(&p, r->octet[k]);
		if (!rc && k < 3 && *p++ != '.')
			rc = -EINVAL;
	}
	return !rc && *p ? -EINVAL : rc;
}

static int iprange_parse6(const char *s, struct cfg_iprange *r)
{
	char buf[INET6_ADDRSTRLEN + 4];
	char *slash;
	u32 prefix = 128;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash) {
		const char *p = slash + 1;

		*slash = '\0';
		prefix = 0;
		if (!*p)
			return -EINVAL;
		for (; *p; p++) {
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			prefix = prefix * 10 + (u32)(*p - '0');
			if (prefix > 128)
				return -EINVAL;
		}
	}
	if (inet_pton(AF_INET6, buf, r->addr6) != 1)
		return -EINVAL;
	r->family = 6;
	r->prefix = (u8)prefix;
	return 0;
}

int cfg_iprange_parse(const char *what, const char *s, struct cfg_iprange *r,
		      struct cfg_err *err)
{
	int rc;

	memset(r, 0, sizeof(*r));
	rc = strchr(s, ':') ? iprange_parse6(s, r) : iprange_parse4(s, r);
	if (rc)
		return cfg_fail(err, -EINVAL, NULL,
				"invalid %s '%s': expected an IPv4 pattern such as '192.168.1.[2-20/2]' or '10.*.*.*', or an IPv6 address[/prefix]",
				what, s);
	return 0;
}

bool cfg_iprange_match(const struct cfg_iprange *r, const u8 *addr, u8 len)
{
	u32 k, full, rest;

	if (r->family == 4) {
		if (len != 4)
			return false;
		for (k = 0; k < 4; k++)
			if (!bit_get(r->octet[k], addr[k]))
				return false;
		return true;
	}
	if (len != 16)
		return false;
	full = r->prefix / 8;
	rest = r->prefix % 8;
	if (memcmp(addr, r->addr6, full))
		return false;
	return !rest || !((addr[full] ^ r->addr6[full]) & (0xffU << (8 - rest)));
}

/* --- rule sets ------------------------------------------------------------------ */

int cfg_ip2nets_add(struct cfg_ip2nets *set, u32 net_id, struct cfg_ip2net **out,
		    struct cfg_err *err)
{
	struct cfg_ip2net *rules, *r;

	if (set->nrules >= CFG_IP2NETS_MAX_RULES)
		return cfg_fail(err, -E2BIG, NULL, "too many ip2nets rules: at most %d",
				CFG_IP2NETS_MAX_RULES);
	rules = realloc(set->rules, (set->nrules + 1) * sizeof(*rules));
	if (!rules)
		return cfg_fail(err, -ENOMEM, NULL, "out of memory");
	set->rules = rules;
	r = &rules[set->nrules++];
	memset(r, 0, sizeof(*r));
	cfg_net_init(&r->net);
	r->net.net_id = net_id;
	*out = r;
	return 0;
}

void cfg_ip2nets_release(struct cfg_ip2nets *set)
{
	size_t i;

	for (i = 0; i < set->nrules; i++)
		cfg_net_fini(&set->rules[i].net);
	free(set->rules);
	set->rules = NULL;
	set->nrules = 0;
}

/* --- the legacy string ------------------------------------------------------------ */

/* Copy the next word of @s (up to a blank) into @buf; past it in *@end. */
static size_t next_word(const char *s, char *buf, size_t len, const char **end)
{
	size_t n = 0;

	while (s[n] && !isspace((unsigned char)s[n]))
		n++;
	*end = s + n;
	if (n >= len)
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return n;
}

/* NET or NET(IF,IF...) into @r's net. */
static int legacy_netspec(const char *spec, struct cfg_ip2nets *set,
			  const struct cfg_net *tmpl, struct cfg_err *err)
{
	char net[LNET_NET_STR_MAX + 1];
	const char *paren = strchr(spec, '(');
	size_t nlen = paren ? (size_t)(paren - spec) : strlen(spec);
	struct cfg_ip2net *r;
	u32 net_id;
	int rc;

	if (nlen >= sizeof(net) || (paren && spec[strlen(spec) - 1] != ')'))
		return cfg_fail(err, -EINVAL, NULL,
				"invalid ip2nets net '%s': expected NET or NET(IF[,IF...])", spec);
	memcpy(net, spec, nlen);
	net[nlen] = '\0';
	rc = cfg_parse_net("ip2nets net", net, &net_id, err);
	if (rc)
		return rc;
	rc = cfg_ip2nets_add(set, net_id, &r, err);
	if (rc)
		return rc;
	if (tmpl) {
		r->net.tun = tmpl->tun;
		r->net.lnd_tun = tmpl->lnd_tun;
	}
	if (paren) {
		char ifs[256];
		size_t ilen = strlen(paren + 1) - 1;

		if (!ilen || ilen >= sizeof(ifs))
			return cfg_fail(err, -EINVAL, NULL,
					"invalid ip2nets net '%s': expected NET(IF[,IF...])", spec);
		memcpy(ifs, paren + 1, ilen);
		ifs[ilen] = '\0';
		rc = cfg_parse_ifnames("ip2nets interfaces", ifs, &r->net, err);
	}
	return rc;
}

/* One rule: the net spec, then its ranges. */
static int legacy_rule(const char *s, const struct cfg_net *tmpl,
		       struct cfg_ip2nets *set, struct cfg_err *err)
{
	char word[256];
	struct cfg_ip2net *r;
	const char *p = s;
	int rc;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return 0;		/* an empty rule */
	if (!next_word(p, word, sizeof(word), &p))
		return cfg_fail(err, -EINVAL, NULL, "invalid ip2nets rule '%s': a word is too long", s);
	rc = legacy_netspec(word, set, tmpl, err);
	if (rc)
		return rc;
	r = &set->rules[set->nrules - 1];
	for (;;) {
		while (!rc && isspace((unsigned char)*p))
			p++;
		if (rc || !*p)
			break;
		if (!next_word(p, word, sizeof(word), &p))
			return cfg_fail(err, -EINVAL, NULL,
					"invalid ip2nets rule '%s': a word is too long", s);
		if (r->nranges >= CFG_IP2NETS_MAX_RANGES)
			return cfg_fail(err, -E2BIG, NULL,
					"invalid ip2nets rule '%s': at most %d address ranges",
					s, CFG_IP2NETS_MAX_RANGES);
		rc = cfg_iprange_parse("ip2nets address range", word,
				       &r->ranges[r->nranges++], err);
	}
	return rc;
}

int cfg_ip2nets_parse_legacy(const char *s, const struct cfg_net *tmpl,
			     struct cfg_ip2nets *set, struct cfg_err *err)
{
	char rule[1024];
	size_t before = set->nrules;
	const char *p = s;
	int rc = 0;

	while (*p && !rc) {
		size_t n = strcspn(p, ";\n#");

		if (n >= sizeof(rule))
			return cfg_fail(err, -EINVAL, NULL, "invalid ip2nets: a rule is too long");
		memcpy(rule, p, n);
		rule[n] = '\0';
		rc = legacy_rule(rule, tmpl, set, err);
		p += n;
		if (*p == '#')
			p += strcspn(p, "\n");
		if (*p)
			p++;
	}
	if (!rc && set->nrules == before)
		rc = cfg_fail(err, -EINVAL, NULL, "invalid ip2nets '%s': no rule in it", s);
	return rc;
}

/* --- matching ---------------------------------------------------------------------- */

static bool in_ranges(const struct cfg_ip2net *r, const struct cfg_ifinfo *f)
{
	u32 i;

	for (i = 0; i < r->nranges; i++)
		if (cfg_iprange_match(&r->ranges[i], f->addr, f->addr_len))
			return true;
	return false;
}

static const struct cfg_ifinfo *if_find(const struct cfg_ifinfo *ifs, size_t n,
					const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(ifs[i].name, name))
			return &ifs[i];
	return NULL;
}

/* Rule @r with interfaces: all of them up, and in a range if it has any. */
static bool listed_match(const struct cfg_ip2net *r, const struct cfg_ifinfo *ifs,
			 size_t nifs)
{
	u32 i;

	for (i = 0; i < r->net.nifs; i++) {
		const struct cfg_ifinfo *f = if_find(ifs, nifs, r->net.ifnames[i]);

		if (!f || !f->up || !f->addr_len || (r->nranges && !in_ranges(r, f)))
			return false;
	}
	return true;
}

/* The NIs of rule @r into @n (its interfaces): 0, 1 when @r matches none. */
static int rule_nis(const struct cfg_ip2net *r, const struct cfg_ifinfo *ifs,
		    size_t nifs, struct cfg_net *n)
{
	size_t i;
	u32 j;

	if (r->net.nifs) {
		if (!listed_match(r, ifs, nifs))
			return 1;
		for (j = 0; j < r->net.nifs; j++)
			if (cfg_net_append(n, r->net.ifnames[j]))
				return -ENOMEM;
		return 0;
	}
	for (i = 0; i < nifs; i++) {
		const struct cfg_ifinfo *f = &ifs[i];
		bool take = r->nranges ? f->up && f->addr_len && in_ranges(r, f)
				       : f->up && f->addr_len == 4;

		if (take && cfg_net_append(n, f->name))
			return -ENOMEM;
		if (take && !r->nranges)
			break;	/* the first such interface only */
	}
	return n->nifs ? 0 : 1;
}

static bool net_applied(const struct cfg_net *nets, size_t n, u32 net_id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (nets[i].net_id == net_id)
			return true;
	return false;
}

void cfg_ip2nets_free_nets(struct cfg_net *nets, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		cfg_net_fini(&nets[i]);
	free(nets);
}

int cfg_ip2nets_eval(const struct cfg_ip2nets *set, const struct cfg_ifinfo *ifs,
		     size_t nifs, struct cfg_net **out, size_t *nout, struct cfg_err *err)
{
	struct cfg_net *nets = calloc(set->nrules ? set->nrules : 1, sizeof(*nets));
	size_t i, n = 0;
	int rc = 0;

	if (!nets)
		return cfg_fail(err, -ENOMEM, NULL, "out of memory");
	for (i = 0; i < set->nrules && rc >= 0; i++) {
		const struct cfg_ip2net *r = &set->rules[i];

		if (net_applied(nets, n, r->net.net_id))
			continue;	/* the first matching rule of a net wins */
		cfg_net_init(&nets[n]);
		nets[n].net_id = r->net.net_id;
		nets[n].tun = r->net.tun;
		nets[n].lnd_tun = r->net.lnd_tun;
		nets[n].loc = r->net.loc;
		rc = rule_nis(r, ifs, nifs, &nets[n]);
		if (rc)
			cfg_net_fini(&nets[n]);
		else
			n++;
	}
	if (rc < 0) {
		cfg_ip2nets_free_nets(nets, n);
		return cfg_fail(err, rc, NULL, "out of memory");
	}
	if (!n) {
		cfg_ip2nets_free_nets(nets, n);
		return cfg_fail(err, -ENODEV, set->nrules ? &set->rules[0].net.loc : NULL,
				"no ip2nets rule matches an interface of this node");
	}
	*out = nets;
	*nout = n;
	return 0;
}

/* --- the interfaces -------------------------------------------------------------- */

int cfg_ifs_read(struct cfg_handle *h, struct cfg_ifinfo **ifs, size_t *n,
		 struct cfg_err *err)
{
	struct cfg_ifinfo *list = NULL, *grown;
	struct lnet_ioc_if f;
	size_t count = 0;
	int rc;

	for (;;) {
		rc = cfg_if_get(h, (u32)count, 0, &f);
		if (rc == -ENOENT)
			break;
		if (rc) {
			free(list);
			return cfg_ioc_fail(h, rc, err, NULL, "cannot list the interfaces");
		}
		grown = realloc(list, (count + 1) * sizeof(*list));
		if (!grown) {
			free(list);
			return cfg_fail(err, -ENOMEM, NULL, "out of memory");
		}
		list = grown;
		memset(&list[count], 0, sizeof(list[count]));
		memcpy(list[count].name, f.if_name, LNET_IFNAME_LEN - 1);
		list[count].up = f.if_status == LNET_NI_STATUS_UP;
		list[count].addr_len = f.if_addr_len <= 16 ? f.if_addr_len : 0;
		memcpy(list[count].addr, f.if_addr, list[count].addr_len);
		count++;
	}
	*ifs = list;
	*n = count;
	return 0;
}

/* --- net add --ip2net -------------------------------------------------------------- */

int cfg_net_add_ip2nets(struct cfg_handle *h, const char *rules, const struct cfg_net *tmpl,
			struct cfg_err *err)
{
	struct cfg_ip2nets set = { 0 };
	struct cfg_ifinfo *ifs = NULL;
	struct cfg_net *nets = NULL;
	size_t nifs = 0, n = 0, i = 0;
	int rc = cfg_ip2nets_parse_legacy(rules, tmpl, &set, err);

	if (!rc)
		rc = cfg_ifs_read(h, &ifs, &nifs, err);
	if (!rc)
		rc = cfg_ip2nets_eval(&set, ifs, nifs, &nets, &n, err);
	for (; !rc && i < n; i++) {
		rc = cfg_net_add(h, &nets[i], err);
		if (rc)
			while (i--)	/* all or nothing: the nets added before */
				cfg_net_del(h, &nets[i], NULL);
	}
	cfg_ip2nets_free_nets(nets, n);
	cfg_ip2nets_release(&set);
	free(ifs);
	return rc;
}
