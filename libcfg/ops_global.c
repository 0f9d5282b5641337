// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Global settings (one table, LNET_GLOBALS in lnet_tunables.h, for lnetctl
 * set, the YAML global section and global show; checked before sending by
 * the core's own validator) and LNet statistics.
 */
#include <errno.h>
#include <string.h>

#include "ops_priv.h"

#define GLOBAL_ROW(name, id, min, max, def) { #name, id, min, max, def },
const struct cfg_global_spec cfg_global_specs[] = {
	LNET_GLOBALS(GLOBAL_ROW)
	{ NULL }
};

#define G_BIT(id)	(1U << (id))

const struct cfg_global_spec *cfg_global_find(const char *name)
{
	const struct cfg_global_spec *s;

	for (s = cfg_global_specs; s->name; s++)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

const struct cfg_global_spec *cfg_global_spec_at(unsigned int i)
{
	return i < sizeof(cfg_global_specs) / sizeof(cfg_global_specs[0]) - 1 ?
	       &cfg_global_specs[i] : NULL;
}

static const struct cfg_global_spec *spec_of(u32 id)
{
	const struct cfg_global_spec *s;

	for (s = cfg_global_specs; s->name && s->id != id; s++)
		;
	return s->name ? s : NULL;
}

static int global_cmd(struct cfg_handle *h, unsigned int cmd, u32 id, u32 *value)
{
	struct lnet_ioc_global g = { .gl_hdr.ioc_len = sizeof(g), .gl_id = id };
	int rc;

	g.gl_value = *value;
	rc = cfg_ioctl(h, cmd, &g);
	if (!rc)
		*value = g.gl_value;
	return rc;
}

static u32 global_now(struct cfg_handle *h, u32 id)
{
	u32 v = 0;

	global_cmd(h, IOC_LIBCFS_GET_GLOBAL, id, &v);
	return v;
}

/* The message for a value lnet_global_check() refused, as @bad says. */
static int global_bad(const struct cfg_global_spec *s, u32 value, const u32 *cur,
		      const struct lnet_bad *bad, struct cfg_err *err)
{
	const char *other = lnet_global_ranges[bad->other].name;

	switch (bad->why) {
	case LNET_BAD_NOT_BELOW:
		return cfg_fail(err, -EINVAL, NULL,
				"invalid %s '%u': must be smaller than %s (%u)",
				s->name, value, other, cur[bad->other]);
	case LNET_BAD_NOT_ABOVE:
		return cfg_fail(err, -EINVAL, NULL,
				"invalid %s '%u': must be greater than %s (%u)",
				s->name, value, other, cur[bad->other]);
	case LNET_BAD_ZERO_WHILE:
		return cfg_fail(err, -EINVAL, NULL, "invalid %s '%u': must be 0 while %s is 0",
				s->name, value, other);
	case LNET_BAD_RANGE:
		return cfg_fail(err, -EINVAL, NULL, "invalid %s '%u': expected an integer %u-%u",
				s->name, value, s->min, s->max);
	}
	return cfg_fail(err, -EINVAL, NULL, "invalid %s '%u': not a setting LNet takes",
			s->name, value);
}

int cfg_global_set(struct cfg_handle *h, const struct cfg_global_spec *s, u32 value,
		   struct cfg_err *err)
{
	struct lnet_bad bad;
	struct cfg_global cur;
	struct cfg_err ignored;
	char doing[64];
	u32 v = value;
	int rc;

	if (lnet_global_range_check(s->id, value, &bad))	/* no need to ask LNet */
		return global_bad(s, value, NULL, &bad, err);
	snprintf(doing, sizeof(doing), "cannot set %s", s->name);
	/* the cross-checks compare with the running values */
	rc = cfg_global_read(h, &cur, &ignored);
	if (!rc && lnet_global_check(cur.value, s->id, value, &bad))
		return global_bad(s, value, cur.value, &bad, err);
	if (!rc)
		rc = global_cmd(h, IOC_LIBCFS_SET_GLOBAL, s->id, &v);
	return rc ? cfg_ioc_fail(h, rc, err, NULL, doing) : 0;
}

/*
 * retry_count is checked alone: its checks cover both sides of each
 * cross-check, and the defaults of the settings it is compared with pass
 * every retry_count in range (test_validate holds the table to that), so
 * only the settings the document gives can conflict.
 */
int cfg_global_doc_check(const struct cfg_global *g, struct cfg_err *err)
{
	const u32 id = LNET_GLOBAL_RETRY_COUNT;
	u32 cur[__LNET_GLOBAL_MAX], i;
	struct lnet_bad bad;

	if (!(g->set & G_BIT(id)))
		return 0;
	for (i = 0; i < __LNET_GLOBAL_MAX; i++)
		cur[i] = (g->set & G_BIT(i)) ? g->value[i] : (u32)lnet_global_ranges[i].def;
	if (!lnet_global_check(cur, id, g->value[id], &bad))
		return 0;
	global_bad(spec_of(id), g->value[id], cur, &bad, err);
	err->loc = g->loc[id];
	return -EINVAL;
}

int cfg_global_read(struct cfg_handle *h, struct cfg_global *g, struct cfg_err *err)
{
	u32 id;
	int rc;

	memset(g, 0, sizeof(*g));
	for (id = 0; id < __LNET_GLOBAL_MAX; id++) {
		rc = global_cmd(h, IOC_LIBCFS_GET_GLOBAL, id, &g->value[id]);
		if (rc)
			return cfg_ioc_fail(h, rc, err, NULL, "cannot read the global settings");
		g->set |= G_BIT(id);
	}
	return 0;
}

static int apply_one(struct cfg_handle *h, const struct cfg_global *g, u32 id,
		     struct cfg_err *err)
{
	int rc;

	if (!(g->set & G_BIT(id)) || !spec_of(id))
		return 0;
	rc = cfg_global_set(h, spec_of(id), g->value[id], err);
	if (rc)
		err->loc = g->loc[id];
	return rc;
}

/*
 * retry_count < transaction_timeout holds before and after: raise the
 * timeout first when the new one is above the running retry count, else
 * lower the retry count first. A health_sensitivity of 0 comes last (it
 * zeroes retry_count), any other first (retries may need it).
 */
static int apply_ordered(struct cfg_handle *h, const struct cfg_global *g,
			 struct cfg_err *err)
{
	const u32 hs = LNET_GLOBAL_HEALTH_SENSITIVITY, rc_id = LNET_GLOBAL_RETRY_COUNT;
	const u32 tt = LNET_GLOBAL_TRANSACTION_TIMEOUT;
	bool hs_zero = (g->set & G_BIT(hs)) && !g->value[hs];
	bool tt_first;
	int rc = 0;
	u32 id;

	if (!hs_zero)
		rc = apply_one(h, g, hs, err);
	tt_first = (g->set & G_BIT(tt)) && g->value[tt] > global_now(h, rc_id);
	if (!rc)
		rc = apply_one(h, g, tt_first ? tt : rc_id, err);
	if (!rc)
		rc = apply_one(h, g, tt_first ? rc_id : tt, err);
	if (!rc && hs_zero)
		rc = apply_one(h, g, hs, err);
	for (id = 0; id < __LNET_GLOBAL_MAX && !rc; id++)
		if (id != hs && id != rc_id && id != tt)
			rc = apply_one(h, g, id, err);
	return rc;
}

int cfg_global_apply(struct cfg_handle *h, const struct cfg_global *g, struct cfg_err *err)
{
	struct cfg_global old;
	struct cfg_err ignored;
	int rc;

	if (!g->set)
		return 0;
	rc = cfg_global_read(h, &old, err);
	if (rc)
		return rc;
	rc = apply_ordered(h, g, err);
	if (rc) {
		old.set &= ~G_BIT(LNET_GLOBAL_LND_TIMEOUT);
		apply_ordered(h, &old, &ignored);
	}
	return rc;
}

/* --- statistics -------------------------------------------------------------------- */

static int stats_cmd(struct cfg_handle *h, unsigned int cmd, struct lnet_ioc_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->st_hdr.ioc_len = sizeof(*st);
	return cfg_ioctl(h, cmd, st);
}

int cfg_stats_get(struct cfg_handle *h, struct lnet_ioc_stats *st, struct cfg_err *err)
{
	int rc = stats_cmd(h, IOC_LIBCFS_GET_LNET_STATS, st);

	return rc ? cfg_ioc_fail(h, rc, err, NULL, "cannot read the statistics") : 0;
}

int cfg_stats_reset(struct cfg_handle *h, struct cfg_err *err)
{
	struct lnet_ioc_stats st;
	int rc = stats_cmd(h, IOC_LIBCFS_RESET_LNET_STATS, &st);

	return rc ? cfg_ioc_fail(h, rc, err, NULL, "cannot reset the statistics") : 0;
}
