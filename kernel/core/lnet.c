// SPDX-License-Identifier: GPL-2.0-only
/*
 * The LNet instance: lifetime, configure/unconfigure and object accounting.
 */
#include "lnet_priv.h"
#include "../udsp/udsp.h"

void lnet_init(struct lnet *ln)
{
	memset(ln, 0, sizeof(*ln));
	os_mutex_init(&ln->ln_api_mutex);
	INIT_LIST_HEAD(&ln->ln_nets);
	INIT_LIST_HEAD(&ln->ln_peers);
	INIT_LIST_HEAD(&ln->ln_routes);
	INIT_LIST_HEAD(&ln->ln_udsp_list);
	ln->ln_if_lookup = os_if_lookup;
	lnet_settings_init(ln);
}

void lnet_fini(struct lnet *ln)
{
	os_mutex_lock(&ln->ln_api_mutex);
	lnet_unconfigure(ln);
	os_mutex_unlock(&ln->ln_api_mutex);
	os_mutex_destroy(&ln->ln_api_mutex);
}

int lnet_configure(struct lnet *ln)
{
	int rc;

	if (ln->ln_configured)
		return 0;
	rc = lnet_lpni_hash_init(ln);
	if (rc)
		return rc;
	rc = lnet_lo_net_create(ln);
	if (rc) {
		lnet_lpni_hash_fini(ln);
		return rc;
	}
	lnet_settings_init(ln);
	ln->ln_configured = true;
	return 0;
}

int lnet_unconfigure(struct lnet *ln)
{
	if (!ln->ln_configured)
		return 0;
	/* Rules first: they are freed without touching the objects. */
	lnet_udsp_destroy_all(ln);
	/* Routes point at gateway peers, so they go before the peers. */
	lnet_routes_destroy(ln);
	lnet_peers_destroy(ln);
	lnet_nets_destroy(ln);
	lnet_lpni_hash_fini(ln);
	ln->ln_configured = false;
	return 0;
}

void *lnet_obj_alloc(struct lnet *ln, size_t size)
{
	void *p = os_zalloc(size);

	if (p)
		ln->ln_nobjects++;
	return p;
}

void lnet_obj_free(struct lnet *ln, void *p)
{
	if (!p)
		return;
	os_free(p);
	ln->ln_nobjects--;
}
