// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The life of a model struct (cfg.h's rule on growth): init with the
 * caller's size, the lists the library owns (appended by doubling, freed
 * by fini), and the size check every entry point makes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ops_priv.h"

int cfg_model_size(const void *obj, size_t known, const char *type, struct cfg_err *err)
{
	const unsigned char *b = obj;
	u32 size;
	size_t i;

	memcpy(&size, obj, sizeof(size));
	if (size < known) {
		if (err)
			cfg_fail(err, -EINVAL, NULL,
				 "struct %s of %u bytes: not set up by %s_init()",
				 type, size, type);
		return -EINVAL;
	}
	for (i = known; i < size; i++)
		if (b[i]) {
			if (err)
				cfg_fail(err, -E2BIG, NULL,
					 "struct %s of %u bytes: byte %zu is set, this library knows %zu",
					 type, size, i, known);
			return -E2BIG;
		}
	return 0;
}

/* Zero the @size bytes the caller has and record @size. */
static void model_init(void *obj, size_t size)
{
	u32 s = (u32)size;

	memset(obj, 0, size);
	memcpy(obj, &s, sizeof(s));
}

void cfg_net_init_size(struct cfg_net *n, size_t size)
{
	model_init(n, size);
	lnet_ni_tunables_unset(&n->tun);
}

void cfg_peer_init_size(struct cfg_peer *p, size_t size)
{
	model_init(p, size);
}

void cfg_policy_init_size(struct cfg_policy *p, size_t size)
{
	model_init(p, size);
	p->d.idx = -1;
	p->d.action = LNET_UDSP_ACTION_NONE;
}

void cfg_route_init_size(struct cfg_route *r, size_t size)
{
	model_init(r, size);
	r->hops = LNET_ROUTE_HOPS_UNSET;
}

int cfg_list_append(void *arr, size_t n, size_t max, const void *item, size_t size)
{
	void **list = arr;
	void *p;

	if (n >= max)
		return -E2BIG;
	if (!n || (n >= 4 && !(n & (n - 1)))) {
		p = realloc(*list, (n ? 2 * n : 4) * size);
		if (!p)
			return -ENOMEM;
		*list = p;
	}
	memcpy((char *)*list + n * size, item, size);
	return 0;
}

int cfg_net_append(struct cfg_net *n, const char *ifname)
{
	char name[LNET_IFNAME_LEN] = "";
	int rc = cfg_model_size(n, sizeof(*n), "cfg_net", NULL);

	if (rc)
		return rc;
	strncpy(name, ifname, sizeof(name) - 1);
	rc = cfg_list_append(&n->ifnames, n->nifs, CFG_MAX_IFS, name, sizeof(name));
	if (!rc)
		n->nifs++;
	return rc;
}

int cfg_peer_append(struct cfg_peer *p, const struct lnet_nid *nid)
{
	int rc = cfg_model_size(p, sizeof(*p), "cfg_peer", NULL);

	if (!rc)
		rc = cfg_list_append(&p->nids, p->nnids, LNET_PEER_MAX_NIS, nid, sizeof(*nid));
	if (!rc)
		p->nnids++;
	return rc;
}

int cfg_route_append(struct cfg_route *r, const struct lnet_nid *gw)
{
	int rc = cfg_model_size(r, sizeof(*r), "cfg_route", NULL);

	if (!rc)
		rc = cfg_list_append(&r->gws, r->ngws, LNET_PEER_MAX_NIS, gw, sizeof(*gw));
	if (!rc)
		r->ngws++;
	return rc;
}

void cfg_net_fini(struct cfg_net *n)
{
	free(n->ifnames);
	n->ifnames = NULL;
	n->nifs = 0;
}

void cfg_peer_fini(struct cfg_peer *p)
{
	free(p->nids);
	p->nids = NULL;
	p->nnids = 0;
}

void cfg_route_fini(struct cfg_route *r)
{
	free(r->gws);
	r->gws = NULL;
	r->ngws = 0;
}
