// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The lnet module parameters of a site that configured LNet before YAML
 * (`options lnet networks=... ip2nets=... routes=...` in modprobe.d),
 * converted to the YAML configuration import reads (`lnetctl convert`):
 *
 *   networks="tcp0(eth0,eth1),o2ib(ib0)[0,1]"   ->  net:     one block per net
 *   ip2nets="tcp(eth0) 10.0.0.*; o2ib 10.1.*.*"  ->  ip2nets: one rule per entry
 *   routes="o2ib 2 10.0.0.[1-2]@tcp:1; tcp1 ..." ->  route:   one per gateway word
 *
 * The syntax is Lustre's: networks is a comma-separated list of
 * NET[(IF,...)][CPT-LIST]; ip2nets and routes are entries separated by ';'
 * or a newline, '#' starting a comment to the end of the entry. An ip2nets
 * entry is a net-spec (NET[(IF,...)]) then one or more address ranges; a
 * routes entry is NET, an optional hop count, then gateways, each NID or
 * NID range optionally followed by ':PRIORITY'. Every value is checked
 * with the parsers import uses, so what converts also imports; an error
 * names the parameter and the part that is wrong.
 */
#include <ctype.h>
#include <errno.h>
#include <ifaddrs.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <netinet/in.h>
#include "ops_priv.h"
#include "yemit.h"

#define LEGACY_MAX_WORDS	(LNET_PEER_MAX_NIS + 2)

/* Say which parameter and part @err's message (from a parser) is about. */
static int in_part(struct cfg_err *err, int rc, const char *param, const char *part)
{
	char msg[sizeof(err->msg)];

	snprintf(msg, sizeof(msg), "%s", err->msg);
	return cfg_fail(err, rc, NULL, "%s: in '%s': %s", param, part, msg);
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* Take the blanks out of @s: "eth0, eth1" is "eth0,eth1" (names have none). */
static void squeeze(char *s)
{
	char *w = s;

	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			*w++ = *s;
	*w = '\0';
}

/* Cut @s at a '#' comment. */
static void drop_comment(char *s)
{
	char *hash = strchr(s, '#');

	if (hash)
		*hash = '\0';
}

/* Split @s at whitespace into at most @max words; -E2BIG past that. */
static int split_words(char *s, char **words, int max, int *n)
{
	char *save = NULL, *w;

	*n = 0;
	for (w = strtok_r(s, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
		if (*n == max)
			return -E2BIG;
		words[(*n)++] = w;
	}
	return 0;
}

/* --- NET[(IF,...)][CPT-LIST]: networks items and ip2nets net-specs ------------------- */

struct legacy_net {
	char *net;		/* as written: "tcp0" */
	char *ifs;		/* "eth0,eth1" or NULL */
	char *cpts;		/* "[0,1]" or NULL */
	u32 net_id;
	struct cfg_net parsed;	/* the interface names, as import reads them */
};

static void legacy_net_fini(struct legacy_net *n)
{
	cfg_net_fini(&n->parsed);
	free(n->cpts);
	n->cpts = NULL;
}

static int parse_net_spec(char *s, const char *param, struct legacy_net *n,
			  struct cfg_err *err)
{
	char part[256], *open, *close;
	int rc;

	snprintf(part, sizeof(part), "%s", s);
	memset(n, 0, sizeof(*n));
	cfg_net_init(&n->parsed);
	n->net = s;
	open = strpbrk(s, "([");
	if (open && *open == '(') {
		close = strchr(open, ')');
		if (!close)
			return cfg_fail(err, -EINVAL, NULL,
					"%s: in '%s': '(' without ')': expected NET(IF[,IF...])",
					param, part);
		*open = *close = '\0';
		n->ifs = open + 1;
		squeeze(n->ifs);
		/* Lustre's eth0[0]: a CPT per interface, which import does not take */
		if (strpbrk(n->ifs, "()[]"))
			return cfg_fail(err, -EINVAL, NULL,
					"%s: in '%s': an interface with a CPT list (eth0[0]) or a '(': expected NET(IF[,IF...])[CPT-LIST]",
					param, part);
		open = close + 1;
		if (*open && *open != '[')
			return cfg_fail(err, -EINVAL, NULL,
					"%s: in '%s': '%s' after ')': expected only a CPT list [N,...]",
					param, part, open);
	}
	if (open && *open == '[') {
		size_t len = strlen(open);

		if (len < 3 || open[len - 1] != ']' ||
		    strspn(open + 1, "0123456789,-") != len - 2)
			return cfg_fail(err, -EINVAL, NULL,
					"%s: in '%s': bad CPT list '%s': expected [N,...] or [N-M]",
					param, part, open);
		n->cpts = strdup(open);
		*open = '\0';
		if (!n->cpts)
			return cfg_fail(err, -ENOMEM, NULL, "out of memory");
	}
	n->net = trim(n->net);
	rc = cfg_parse_net("net", n->net, &n->net_id, err);
	if (!rc && n->ifs)
		rc = cfg_parse_ifnames("interface", n->ifs, &n->parsed, err);
	if (rc) {
		legacy_net_fini(n);
		return in_part(err, rc, param, part);
	}
	return 0;
}

/* The interfaces of @n as {0: eth0, 1: eth1}, under @key. */
static void emit_ifs(struct yemit *w, const char *key, const struct legacy_net *n)
{
	char idx[16];
	u32 i;

	yemit_key_map(w, key);
	for (i = 0; i < n->parsed.nifs; i++) {
		snprintf(idx, sizeof(idx), "%u", i);
		yemit_plain(w, idx);
		yemit_str(w, n->parsed.ifnames[i]);
	}
	yemit_map_end(w);
}

static void emit_net_name(struct yemit *w, const char *key, u32 net_id)
{
	char buf[LNET_NET_STR_MAX];

	yemit_kv_str(w, key, cfg_net_str(net_id, buf, sizeof(buf)));
}

/* --- networks= --------------------------------------------------------------------- */

/* The next item of a networks list: up to a ',' outside (...) and [...]. */
static char *next_item(char **s)
{
	char *start = *s, *p;
	int depth = 0;

	if (!*start)
		return NULL;
	for (p = start; *p; p++) {
		if (*p == '(' || *p == '[')
			depth++;
		else if ((*p == ')' || *p == ']') && depth)
			depth--;
		else if (*p == ',' && !depth)
			break;
	}
	if (*p)
		*p++ = '\0';
	*s = p;
	return start;
}

/*
 * networks="tcp", no interface named: the lnet module takes the first
 * interface that is up, is not loopback and has an IPv4 address. convert,
 * run on the node, picks it the same way, so that what it prints names it.
 */
static int default_interface(struct legacy_net *n, struct cfg_err *err)
{
	struct ifaddrs *all, *i;
	int rc = 1;

	if (getifaddrs(&all))
		return cfg_fail(err, -errno, NULL, "networks: %s names no interface, and "
				"this node's cannot be listed: %s", n->net, strerror(errno));
	for (i = all; i && rc > 0; i = i->ifa_next)
		if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
		    (i->ifa_flags & IFF_UP) && !(i->ifa_flags & IFF_LOOPBACK))
			rc = cfg_net_append(&n->parsed, i->ifa_name) ?
			     cfg_fail(err, -ENOMEM, NULL, "out of memory") : 0;
	freeifaddrs(all);
	if (rc > 0)
		rc = cfg_fail(err, -ENODEV, NULL, "networks: %s names no interface, and this "
			      "node has none up with an IPv4 address (besides loopback): "
			      "name one, e.g. %s(eth0)", n->net, n->net);
	return rc;
}

static int emit_networks(struct yemit *w, char *s, struct cfg_err *err)
{
	struct legacy_net n;
	char *item;
	int rc = 0, count = 0;

	drop_comment(s);
	s = trim(s);
	yemit_key_seq(w, "net");
	while (!rc && (item = next_item(&s))) {
		count++;
		item = trim(item);
		if (!*item)
			return cfg_fail(err, -EINVAL, NULL,
					"networks: an empty item: expected NET[(IF,...)][CPT-LIST], comma-separated");
		rc = parse_net_spec(item, "networks", &n, err);
		if (!rc && !n.ifs && LNET_NET_LND(n.net_id) == LNET_LND_TCP) {
			rc = default_interface(&n, err);
			n.ifs = rc ? NULL : n.parsed.ifnames[0];
			if (rc)
				legacy_net_fini(&n);
		}
		if (rc)
			break;
		yemit_map_start(w);
		emit_net_name(w, "net type", n.net_id);
		if (n.ifs || n.cpts) {
			yemit_key_seq(w, "local NI(s)");
			yemit_map_start(w);
			if (n.ifs)
				emit_ifs(w, "interfaces", &n);
			if (n.cpts)
				yemit_kv_str(w, "CPT", n.cpts);
			yemit_map_end(w);
			yemit_seq_end(w);
		}
		yemit_map_end(w);
		legacy_net_fini(&n);
	}
	yemit_seq_end(w);
	if (!rc && !count)
		rc = cfg_fail(err, -EINVAL, NULL, "networks: no net: the string is empty");
	return rc;
}

/* --- entries of ip2nets= and routes= --------------------------------------------------- */

/* The next entry: up to ';' or a newline, comment dropped; NULL at the end. */
static char *next_entry(char **s)
{
	char *e;

	while (**s) {
		e = *s;
		*s += strcspn(e, ";\n");
		if (**s)
			*(*s)++ = '\0';
		drop_comment(e);
		e = trim(e);
		if (*e)
			return e;
	}
	return NULL;
}

static int emit_ip2nets_entry(struct yemit *w, char *entry, void *unused,
			      struct cfg_err *err)
{
	char part[256], *words[LEGACY_MAX_WORDS], expr[LNET_EXPR_STR_MAX + 16], idx[16];
	struct lnet_nidexpr e;
	struct legacy_net n;
	int nwords, i, rc;

	snprintf(part, sizeof(part), "%s", entry);
	if (split_words(entry, words, LEGACY_MAX_WORDS, &nwords))
		return cfg_fail(err, -EINVAL, NULL, "ip2nets: in '%s': too many words", part);
	if (nwords < 2)
		return cfg_fail(err, -EINVAL, NULL,
				"ip2nets: in '%s': expected NET[(IF,...)] and at least one address range",
				part);
	/* every range is an address expression: check it as one of the net */
	for (i = 1; i < nwords; i++) {
		snprintf(expr, sizeof(expr), "%s@tcp", words[i]);
		rc = cfg_parse_nidexpr("ip-range", expr, &e, err);
		if (rc)
			return cfg_fail(err, rc, NULL,
					"ip2nets: in '%s': invalid address range '%s': expected an IP address expression (10.0.0.*, 10.0.[1-3].[2-20/2])",
					part, words[i]);
	}
	rc = parse_net_spec(words[0], "ip2nets", &n, err);
	if (rc)
		return rc;
	yemit_map_start(w);
	emit_net_name(w, "net-spec", n.net_id);
	if (n.ifs)
		emit_ifs(w, "interfaces", &n);
	yemit_key_map(w, "ip-range");
	for (i = 1; i < nwords; i++) {
		snprintf(idx, sizeof(idx), "%d", i - 1);
		yemit_plain(w, idx);
		yemit_str(w, words[i]);
	}
	yemit_map_end(w);
	if (n.cpts)
		yemit_kv_str(w, "CPT", n.cpts);
	yemit_map_end(w);
	legacy_net_fini(&n);
	return 0;
}

/* GW[:PRIORITY]: the gateways (checked) and the priority (0 when none). */
static int parse_gateway(char *word, const char *part, struct cfg_route *r,
			 struct cfg_err *err)
{
	char *colon = strrchr(word, ':');
	int rc = 0;

	r->priority = 0;
	/* an IPv6 gateway has colons of its own: a priority follows "@net" */
	if (colon && strchr(word, '@') < colon) {
		*colon = '\0';
		rc = cfg_parse_u32("priority", colon + 1, 0, LNET_ROUTE_PRIORITY_MAX,
				   &r->priority, err);
	}
	r->ngws = 0;
	if (!rc)
		rc = cfg_parse_gateways("gateway", word, r, err);
	return rc ? in_part(err, rc, "routes", part) : 0;
}

/* The (net, gateway) pairs written so far: a second one is a mistake import refuses. */
struct route_seen {
	u32 *nets;
	struct lnet_nid *gws;
	size_t n, cap;
};

static int route_seen_add(struct route_seen *s, const struct cfg_route *r, const char *part,
			  struct cfg_err *err)
{
	char nid[LNET_NID_STR_MAX], net[LNET_NET_STR_MAX];
	size_t i, k;

	for (k = 0; k < r->ngws; k++) {
		for (i = 0; i < s->n; i++)
			if (s->nets[i] == r->net_id && lnet_nid_equal(&s->gws[i], &r->gws[k]))
				return cfg_fail(err, -EINVAL, NULL,
						"routes: in '%s': the route to %s through %s is given twice",
						part, cfg_net_str(r->net_id, net, sizeof(net)),
						cfg_nid_str(&r->gws[k], nid, sizeof(nid)));
		if (s->n == s->cap) {
			size_t cap = s->cap ? 2 * s->cap : 16;
			u32 *nets = realloc(s->nets, cap * sizeof(*nets));
			struct lnet_nid *gws = nets ? realloc(s->gws, cap * sizeof(*gws)) : NULL;

			if (nets)
				s->nets = nets;
			if (!gws)
				return cfg_fail(err, -ENOMEM, NULL, "out of memory");
			s->gws = gws;
			s->cap = cap;
		}
		s->nets[s->n] = r->net_id;
		s->gws[s->n++] = r->gws[k];
	}
	return 0;
}

static int emit_routes_entry(struct yemit *w, char *entry, void *seen, struct cfg_err *err)
{
	char part[256], *words[LEGACY_MAX_WORDS];
	struct cfg_route r;
	int nwords, first = 1, i, rc;
	u32 net_id;

	snprintf(part, sizeof(part), "%s", entry);
	if (split_words(entry, words, LEGACY_MAX_WORDS, &nwords))
		return cfg_fail(err, -EINVAL, NULL, "routes: in '%s': too many words", part);
	if (nwords < 2)
		return cfg_fail(err, -EINVAL, NULL,
				"routes: in '%s': expected NET [HOPS] GATEWAY[:PRIORITY]...", part);
	rc = cfg_parse_net("net", words[0], &net_id, err);
	if (rc)
		return in_part(err, rc, "routes", part);
	cfg_route_init(&r);
	r.net_id = net_id;
	/* a word with no '@' after the net is the hop count */
	if (!strchr(words[1], '@')) {
		rc = cfg_parse_s32("hop", words[1], 1, LNET_ROUTE_HOPS_MAX, &r.hops, err);
		if (rc) {
			cfg_route_fini(&r);
			return in_part(err, rc, "routes", part);
		}
		first = 2;
	}
	if (first >= nwords)
		rc = cfg_fail(err, -EINVAL, NULL, "routes: in '%s': no gateway after the hop count",
			      part);
	for (i = first; !rc && i < nwords; i++) {
		rc = parse_gateway(words[i], part, &r, err);
		if (!rc)
			rc = route_seen_add(seen, &r, part, err);
		if (rc)
			break;
		yemit_map_start(w);
		emit_net_name(w, "net", r.net_id);
		yemit_kv_str(w, "gateway", words[i]);
		yemit_kv_s64(w, "hop", r.hops);
		yemit_kv_u64(w, "priority", r.priority);
		yemit_map_end(w);
	}
	cfg_route_fini(&r);
	return rc;
}

/* The entries of parameter @param as the sequence @key. */
static int emit_entries(struct yemit *w, const char *param, const char *key, char *s,
			int (*entry)(struct yemit *w, char *e, void *arg, struct cfg_err *err),
			void *arg, struct cfg_err *err)
{
	char *e;
	int rc = 0, n = 0;

	yemit_key_seq(w, key);
	while (!rc && (e = next_entry(&s))) {
		rc = entry(w, e, arg, err);
		n++;
	}
	yemit_seq_end(w);
	if (!rc && !n)
		rc = cfg_fail(err, -EINVAL, NULL, "%s: no entry: the string is empty", param);
	return rc;
}

/* --- the document ------------------------------------------------------------------- */

/* A copy of @s in @buf (parsing cuts it up); -ENOMEM in @err. */
static int dup_param(const char *s, char **buf, struct cfg_err *err)
{
	*buf = s ? strdup(s) : NULL;
	return s && !*buf ? cfg_fail(err, -ENOMEM, NULL, "out of memory") : 0;
}

static int write_doc(struct yemit *w, char *const p[3], struct cfg_err *err)
{
	struct route_seen seen = { 0 };
	int rc = 0;

	yemit_map_start(w);
	if (p[0])
		rc = emit_networks(w, p[0], err);
	if (!rc && p[1])
		rc = emit_entries(w, "ip2nets", "ip2nets", p[1], emit_ip2nets_entry, NULL, err);
	if (!rc && p[2])
		rc = emit_entries(w, "routes", "route", p[2], emit_routes_entry, &seen, err);
	yemit_map_end(w);
	free(seen.nets);
	free(seen.gws);
	return rc;
}

int cfg_legacy_yaml(const struct cfg_legacy *l, FILE *out, struct cfg_err *err)
{
	char *p[3] = { NULL }, *text = NULL;
	struct cfg_err emit_err = { 0 };
	size_t len = 0;
	struct yemit w;
	FILE *mem;
	int rc, wrc;

	if (!l->networks && !l->ip2nets && !l->routes)
		return cfg_fail(err, -EINVAL, NULL,
				"nothing to convert: no networks, ip2nets or routes");
	if (l->networks && l->ip2nets)
		return cfg_fail(err, -EINVAL, NULL,
				"networks and ip2nets both given: the lnet module takes one or the other");
	rc = dup_param(l->networks, &p[0], err);
	if (!rc)
		rc = dup_param(l->ip2nets, &p[1], err);
	if (!rc)
		rc = dup_param(l->routes, &p[2], err);
	/* into memory first: nothing reaches @out when a part is wrong */
	mem = rc ? NULL : open_memstream(&text, &len);
	if (!rc && !mem)
		rc = cfg_fail(err, -ENOMEM, NULL, "out of memory");
	/*
	 * The writer's errors go to @emit_err: a document cut short by a
	 * conversion error does not close cleanly, which is no news.
	 */
	if (!rc)
		rc = yemit_begin(&w, mem, &emit_err);
	if (!rc) {
		rc = write_doc(&w, p, err);
		wrc = yemit_end(&w);
		if (!rc && wrc)
			rc = cfg_fail(err, wrc, NULL, "%s", emit_err.msg);
	}
	if (mem)
		fclose(mem);
	if (!rc && fwrite(text, 1, len, out) != len)
		rc = cfg_fail(err, -EIO, NULL, "cannot write the YAML: %s", strerror(errno));
	free(text);
	free(p[0]);
	free(p[1]);
	free(p[2]);
	return rc;
}

/* --- modprobe.d files ----------------------------------------------------------------- */

/* Join lines ending in '\' with the next one, in place. */
static void join_continued(char *text)
{
	char *r = text, *w = text;

	while (*r) {
		if (r[0] == '\\' && r[1] == '\n') {
			*w++ = ' ';
			r += 2;
			continue;
		}
		*w++ = *r++;
	}
	*w = '\0';
}

/* The next word of an options line, quotes removed ("a b" is one word). */
static char *next_option_word(char **s, bool *bad_quote)
{
	char *p = *s, *out, *start;
	char quote = 0;

	*bad_quote = false;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return NULL;
	start = out = p;
	for (; *p && (quote || (*p != ' ' && *p != '\t')); p++) {
		if (!quote && (*p == '"' || *p == '\''))
			quote = *p;
		else if (quote && *p == quote)
			quote = 0;
		else
			*out++ = *p;
	}
	*bad_quote = quote != 0;
	if (*p)
		p++;
	*out = '\0';
	*s = p;
	return start;
}

static int take_option(char *word, unsigned int line, struct cfg_legacy *l,
		       struct cfg_err *err)
{
	static const char *const names[] = { "networks", "ip2nets", "routes" };
	const char **slot[] = { &l->networks, &l->ip2nets, &l->routes };
	char *eq = strchr(word, '=');
	unsigned int i;

	if (!eq)
		return 0;	/* a flag parameter: nothing of ours */
	*eq = '\0';
	for (i = 0; i < 3; i++) {
		if (strcmp(word, names[i]))
			continue;
		if (*slot[i])
			return cfg_fail(err, -EINVAL, NULL, "line %u: %s= given twice", line,
					names[i]);
		*slot[i] = eq + 1;
	}
	return 0;
}

int cfg_legacy_modprobe(char *text, struct cfg_legacy *l, struct cfg_err *err)
{
	char *line, *next, *word, *s;
	unsigned int n = 0;
	bool bad_quote;
	int rc = 0;

	memset(l, 0, sizeof(*l));
	join_continued(text);
	for (line = text; line && !rc; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		n++;
		s = line;
		word = next_option_word(&s, &bad_quote);
		/* comment lines start with '#'; other modules' lines are not ours */
		if (!word || strcmp(word, "options"))
			continue;
		word = next_option_word(&s, &bad_quote);
		if (!word || strcmp(word, "lnet"))
			continue;
		while (!rc && (word = next_option_word(&s, &bad_quote))) {
			if (bad_quote)
				return cfg_fail(err, -EINVAL, NULL, "line %u: unterminated quote in '%s'",
						n, word);
			rc = take_option(word, n, l, err);
		}
	}
	return rc;
}
