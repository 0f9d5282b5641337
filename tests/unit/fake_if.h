/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared unit-test fixture: fake interfaces for ln_if_lookup, and one
 * struct lnet brought up and down with every step checked.
 *
 * Each test file keeps its own table (the addresses its expectations
 * name) and a two-line lookup that hands the table to fake_if_lookup():
 * ln_if_lookup takes no context pointer, so the table cannot be passed in.
 *
 * Header-only and static: each tests/unit/test_*.c is its own binary.
 * Include it after <cmocka.h> and its prerequisites.
 */
#ifndef LNET_TEST_FAKE_IF_H
#define LNET_TEST_FAKE_IF_H

#include "../../kernel/core/lnet.h"
#include "../../kernel/udsp/udsp.h"
#include "../../kernel/builtin/builtin.h"

/*
 * An interface and what a lookup of it answers: @rc, else the address
 * (@len 4 or 16) and, with @dual, a global IPv6 address @addr6 besides the
 * IPv4 one.
 */
struct fake_if {
	const char *name;
	int rc;
	u8 len;
	u8 addr[16];
	bool up;
	bool dual;
	u8 addr6[16];
};

/* An IPv4 interface a.b.c.d that is up. */
#define FAKE_IF4(n, a, b, c, d) \
	{ .name = (n), .len = 4, .addr = { (a), (b), (c), (d) }, .up = true }

#define FAKE_IF_COUNT(tab)	(sizeof(tab) / sizeof((tab)[0]))

/* Answer a lookup of @ifname from @tab (@n entries), as os_if_lookup would. */
static inline int fake_if_lookup(const struct fake_if *tab, size_t n,
				 const char *ifname, struct os_ifaddr *out)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct fake_if *f = &tab[i];

		if (strcmp(f->name, ifname))
			continue;
		if (f->rc)
			return f->rc;
		memset(out, 0, sizeof(*out));
		out->has4 = f->len == 4;
		memcpy(out->addr4, f->addr, sizeof(out->addr4));
		out->has6 = f->len == 16 || f->dual;
		memcpy(out->addr6, f->dual ? f->addr6 : f->addr, sizeof(out->addr6));
		os_ifaddr_pick(out);
		out->up = f->up;
		return 0;
	}
	return -ENODEV;
}

/* Initialize @ln with interfaces from @lookup and configure it. */
static inline void fake_lnet_up(struct lnet *ln,
				int (*lookup)(const char *, struct os_ifaddr *))
{
	lnet_init(ln);
	assert_int_equal(lnet_builtin_register(ln), 0);
	ln->ln_if_lookup = lookup;
	assert_int_equal(lnet_configure(ln), 0);
}

/* Unconfigure @ln: it must leave no object behind; then release it. */
static inline void fake_lnet_down(struct lnet *ln)
{
	int rc;

	/* held, as every core call expects: a monitor thread may be running */
	os_mutex_lock(&ln->ln_api_mutex);
	rc = lnet_unconfigure(ln);
	os_mutex_unlock(&ln->ln_api_mutex);
	assert_int_equal(rc, 0);
	assert_int_equal(ln->ln_nobjects, 0);
	lnet_fini(ln);
}

#endif /* LNET_TEST_FAKE_IF_H */
