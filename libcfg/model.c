// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The life of a model struct (cfg.h's rule on growth): init with the
 * caller's size, the lists the library owns (appended by doubling, freed
 * by fini), the size check every entry point makes, and the copy that
 * gives an older program's struct the defaults of the fields it lacks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ops_priv.h"

int cfg_model_size(const void *obj, const struct cfg_model *m, struct cfg_err *err)
{
	const unsigned char *b = obj;
	u32 size;
	size_t i;

	memcpy(&size, obj, sizeof(size));
	if (size < m->first) {
		if (err)
			cfg_fail(err, -EINVAL, NULL,
				 "struct %s of %u bytes: not set up by %s_init()",
				 m->name, size, m->name);
		return -EINVAL;
	}
	for (i = m->known; i < size; i++)
		if (b[i]) {
			if (err)
				cfg_fail(err, -E2BIG, NULL,
					 "struct %s of %u bytes: byte %zu is set, this library knows %zu",
					 m->name, size, i, m->known);
			return -E2BIG;
		}
	return 0;
}

int cfg_model_read(const void *obj, void *full, const struct cfg_model *m,
		   struct cfg_err *err)
{
	u32 size, known = (u32)m->known;
	int rc = cfg_model_size(obj, m, err);

	if (rc)
		return rc;
	memcpy(&size, obj, sizeof(size));
	m->init(full, m->known);
	memcpy(full, obj, size < known ? size : known);
	memcpy(full, &known, sizeof(known));	/* a whole struct of this release now */
	return 0;
}

/*
 * @obj's @size bytes set up from @full, a whole struct of this release
 * holding the defaults: as far as @size reaches (an older program's struct
 * gets only the fields it has, nothing is written past it), zero beyond
 * (a newer program's fields, unknown here); @size recorded.
 */
static void model_init(void *obj, size_t size, const void *full, size_t known)
{
	u32 s = (u32)size;

	memset(obj, 0, size);
	memcpy(obj, full, size < known ? size : known);
	memcpy(obj, &s, sizeof(s));
}

void cfg_net_init_size(struct cfg_net *n, size_t size)
{
	struct cfg_net full;

	memset(&full, 0, sizeof(full));
	lnet_ni_tunables_unset(&full.tun);
	lnet_sock_tunables_unset(&full.lnd_tun);
	model_init(n, size, &full, sizeof(full));
}

void cfg_peer_init_size(struct cfg_peer *p, size_t size)
{
	struct cfg_peer full;

	memset(&full, 0, sizeof(full));
	model_init(p, size, &full, sizeof(full));
}

void cfg_policy_init_size(struct cfg_policy *p, size_t size)
{
	struct cfg_policy full;

	memset(&full, 0, sizeof(full));
	full.d.idx = -1;
	full.d.action = LNET_UDSP_ACTION_NONE;
	model_init(p, size, &full, sizeof(full));
}

void cfg_route_init_size(struct cfg_route *r, size_t size)
{
	struct cfg_route full;

	memset(&full, 0, sizeof(full));
	full.hops = LNET_ROUTE_HOPS_UNSET;
	model_init(r, size, &full, sizeof(full));
}

/* The init functions as cfg_model.init, which takes any model struct. */
static void net_init(void *obj, size_t size)
{
	cfg_net_init_size(obj, size);
}

static void peer_init(void *obj, size_t size)
{
	cfg_peer_init_size(obj, size);
}

static void policy_init(void *obj, size_t size)
{
	cfg_policy_init_size(obj, size);
}

static void route_init(void *obj, size_t size)
{
	cfg_route_init_size(obj, size);
}

const struct cfg_model cfg_net_model = {
	"cfg_net", CFG_NET_SIZE_0_1, sizeof(struct cfg_net), net_init
};
const struct cfg_model cfg_peer_model = {
	"cfg_peer", CFG_PEER_SIZE_0_1, sizeof(struct cfg_peer), peer_init
};
const struct cfg_model cfg_policy_model = {
	"cfg_policy", CFG_POLICY_SIZE_0_1, sizeof(struct cfg_policy), policy_init
};
const struct cfg_model cfg_route_model = {
	"cfg_route", CFG_ROUTE_SIZE_0_1, sizeof(struct cfg_route), route_init
};

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
	int rc = cfg_model_size(n, &cfg_net_model, NULL);

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
	int rc = cfg_model_size(p, &cfg_peer_model, NULL);

	if (!rc)
		rc = cfg_list_append(&p->nids, p->nnids, LNET_PEER_MAX_NIS, nid, sizeof(*nid));
	if (!rc)
		p->nnids++;
	return rc;
}

int cfg_route_append(struct cfg_route *r, const struct lnet_nid *gw)
{
	int rc = cfg_model_size(r, &cfg_route_model, NULL);

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
