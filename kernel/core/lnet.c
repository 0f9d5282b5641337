// SPDX-License-Identifier: GPL-2.0-only
/*
 * The LNet instance: lifetime, configure/unconfigure and object accounting.
 */
#include "lnet_priv.h"

void lnet_init(struct lnet *ln)
{
	memset(ln, 0, sizeof(*ln));
	os_mutex_init_noio(&ln->ln_api_mutex);
	INIT_LIST_HEAD(&ln->ln_nets);
	INIT_LIST_HEAD(&ln->ln_peers);
	INIT_LIST_HEAD(&ln->ln_routes);
	ln->ln_if_lookup = os_if_lookup;
	ln->ln_if_name = os_if_name;
	lnet_settings_init(ln);
	lnet_rtr_pools_init(ln);
	/* the cond outlives configure cycles: waiters may be woken late */
	os_cond_init(&ln->ln_dp.dp_cond);
	INIT_LIST_HEAD(&ln->ln_dp.dp_msgs);
	INIT_LIST_HEAD(&ln->ln_dp.dp_finalizeq);
	INIT_LIST_HEAD(&ln->ln_dp.dp_active);
	INIT_LIST_HEAD(&ln->ln_dp.dp_mds);
	INIT_LIST_HEAD(&ln->ln_dp.dp_pushq);
	INIT_LIST_HEAD(&ln->ln_recoveryq[LNET_KIND_NI]);
	INIT_LIST_HEAD(&ln->ln_recoveryq[LNET_KIND_PEER_NI]);
	lnet_fault_init(ln);
}

int lnet_if_lookup(struct lnet *ln, const char *ifname, struct os_ifaddr *out)
{
	if (ln->ln_netns)
		return os_if_lookup_ns(ln->ln_netns, ifname, out);
	return ln->ln_if_lookup(ifname, out);
}

int lnet_if_name(struct lnet *ln, u32 index, char *name)
{
	if (ln->ln_netns)
		return os_if_name_ns(ln->ln_netns, index, name);
	return ln->ln_if_name(index, name);
}

void lnet_fini(struct lnet *ln)
{
	os_mutex_lock(&ln->ln_api_mutex);
	lnet_unconfigure(ln);
	os_mutex_unlock(&ln->ln_api_mutex);
	lnet_hook(ln, release);
	ln->ln_hooks = NULL;
	ln->ln_hooks_priv = NULL;
	os_cond_destroy(&ln->ln_dp.dp_cond);
	os_mutex_destroy(&ln->ln_api_mutex);
}

int lnet_configure(struct lnet *ln)
{
	int rc;

	if (ln->ln_configured)
		return 0;
	if (ln->ln_dp.dp_stopping)
		return -EBUSY;		/* an unconfigure waits for its LNDs */
	rc = lnet_lpni_hash_init(ln);
	if (rc)
		return rc;
	rc = lnet_lo_net_create(ln);
	if (rc)
		goto err_hash;
	lnet_settings_init(ln);
	ln->ln_configured = true;
	rc = lnet_dp_startup(ln);
	if (rc)
		goto err_nets;
	return 0;

err_nets:
	ln->ln_configured = false;
	lnet_nets_shutdown(ln);
	lnet_nets_destroy(ln);
err_hash:
	lnet_lpni_hash_fini(ln);
	return rc;
}

int lnet_unconfigure(struct lnet *ln)
{
	if (!ln->ln_configured)
		return 0;
	/*
	 * Not configured from here on: commands get -ENETDOWN while the lock
	 * is dropped around the LNDs' shutdown, and LNDs' messages drop.
	 */
	ln->ln_configured = false;
	ln->ln_large_nids = false;
	lnet_dp_shutdown(ln);
	/* The engine first: its rules go without touching the objects. */
	lnet_hook(ln, unconfigure);
	/* Routes point at gateway peers, so they go before the peers. */
	lnet_routes_destroy(ln);
	lnet_peers_destroy(ln);
	lnet_nets_destroy(ln);
	lnet_lpni_hash_fini(ln);
	ln->ln_dp.dp_stopping = false;
	return 0;
}

int lnet_hooks_register(struct lnet *ln, const struct lnet_hooks *hooks,
			void *priv)
{
	if (ln->ln_hooks)
		return -EBUSY;
	ln->ln_hooks = hooks;
	ln->ln_hooks_priv = priv;
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
