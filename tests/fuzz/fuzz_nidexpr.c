// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the NID and NID range expression parsers. Every expression that
 * parses must print, and its printed form must parse back into an equal
 * expression that prints the same text, and every NID it expands into
 * must match it; the same round trip for NIDs. Any breach aborts, which
 * libFuzzer reports as a crash.
 */
#include <stdint.h>
#include <stdlib.h>

#include "../../kernel/nid/nid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every NID an expression expands into must match it. */
static int expanded_matches(const struct lnet_nid *nid, void *arg)
{
	if (!lnet_nidexpr_match_nid(arg, nid))
		abort();
	return 0;
}

static void check_expr(const char *s)
{
	struct lnet_nidexpr e, e2;
	char buf[LNET_EXPR_STR_MAX], buf2[LNET_EXPR_STR_MAX], err[256];
	struct lnet_nid nid = { 0 };

	if (lnet_nidexpr_parse(s, &e, err, sizeof(err)))
		return;
	if (lnet_nidexpr_validate(&e, err, sizeof(err)))
		abort();
	if (lnet_nidexpr_print(&e, buf, sizeof(buf)) < 0)
		abort();
	if (lnet_nidexpr_parse(buf, &e2, err, sizeof(err)))
		abort();
	if (!lnet_nidexpr_equal(&e, &e2))
		abort();
	if (lnet_nidexpr_print(&e2, buf2, sizeof(buf2)) < 0 || strcmp(buf, buf2))
		abort();
	/* exercise matching on a NID of the expression's LND */
	nid.nid_lnd = e.ne_lnd;
	nid.nid_addr_len = e.ne_kind == LNET_UDSP_KIND_IPV6 ? 16 : 4;
	(void)lnet_nidexpr_match_nid(&e, &nid);
	if (lnet_nidexpr_expand(&e, 64, expanded_matches, &e) == -EINVAL &&
	    (e.ne_kind == LNET_UDSP_KIND_IPV4 || e.ne_kind == LNET_UDSP_KIND_NUM) &&
	    e.ne_count[0] == 1 && e.ne_r[0].lo == e.ne_r[0].hi)
		abort();
}

static void check_nid(const char *s)
{
	struct lnet_nid nid, nid2;
	char buf[LNET_NID_STR_MAX], err[256];

	if (lnet_nid_parse(s, &nid, err, sizeof(err)))
		return;
	if (lnet_nid_print(&nid, buf, sizeof(buf)) < 0)
		abort();
	if (lnet_nid_parse(buf, &nid2, err, sizeof(err)) ||
	    !lnet_nid_equal(&nid, &nid2) ||
	    lnet_nid_hash(&nid) != lnet_nid_hash(&nid2))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size > 4096)
		return 0;
	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	check_expr(s);
	check_nid(s);
	free(s);
	return 0;
}
