// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Operations on peers: create a peer and add its NIDs as one step that
 * either fully happens or is undone; delete peers or some of their NIDs.
 */
#include <string.h>

#include "ops_priv.h"

static void peer_request(struct lnet_ioc_peer *pr, const struct lnet_nid *prim,
			 const struct lnet_nid *nid, u32 flags)
{
	memset(pr, 0, sizeof(*pr));
	pr->pr_hdr.ioc_len = sizeof(*pr);
	if (prim)
		pr->pr_prim_nid = *prim;
	if (nid)
		pr->pr_nid = *nid;
	pr->pr_flags = flags;
}

int cfg_peer_ni_get(struct cfg_handle *h, u32 index, const struct lnet_nid *nid,
		    struct lnet_ioc_peer *out)
{
	peer_request(out, nid, NULL, 0);
	out->pr_index = index;
	return cfg_ioctl(h, IOC_LIBCFS_GET_PEER_NI, out);
}

static int peer_cmd(struct cfg_handle *h, unsigned int cmd,
		    const struct lnet_nid *prim, const struct lnet_nid *nid, u32 flags)
{
	struct lnet_ioc_peer pr;

	peer_request(&pr, prim, nid, flags);
	return cfg_ioctl(h, cmd, &pr);
}

/* The primary NID of the peer that owns @nid: 0 or -ENOENT (or -errno). */
static int peer_owner(struct cfg_handle *h, const struct lnet_nid *nid,
		      struct lnet_nid *prim)
{
	struct lnet_ioc_peer pr;
	int rc = cfg_peer_ni_get(h, 0, nid, &pr);

	if (!rc)
		*prim = pr.pr_prim_nid;
	return rc;
}

static int peer_non_mr_fail(const struct cfg_peer *p, int rc, struct cfg_err *err)
{
	char a[LNET_NID_STR_MAX];

	return cfg_fail(err, rc, &p->loc,
			"peer %s is not multi-rail (non_mr): it has its primary NID only",
			cfg_nid_str(&p->prim, a, sizeof(a)));
}

/* The message for what lnet_peer_add_check() refused. */
static int peer_add_bad(const struct cfg_peer *p, const struct lnet_bad *bad,
			struct cfg_err *err)
{
	switch (bad->why) {
	case LNET_BAD_ZERO_NID:
		return cfg_fail(err, -EINVAL, &p->loc, "a peer needs a primary NID");
	case LNET_BAD_FLAGS:
		if (p->flags & LNET_PEER_F_FORCE)
			return cfg_fail(err, -EINVAL, &p->loc,
					"force applies to deleting a peer, not to adding one");
		return cfg_fail(err, -EINVAL, &p->loc,
				"invalid peer flags '%#x': expected non_mr and lock_prim only",
				p->flags);
	case LNET_BAD_LO_NID:
		return cfg_fail(err, -EINVAL, &p->loc, "0@lo cannot be a peer NID");
	}
	return peer_non_mr_fail(p, -EINVAL, err);
}

/* LNet's own checks of each NID (validate.c), before the first is sent. */
static int peer_add_check(const struct cfg_peer *p, struct cfg_err *err)
{
	struct lnet_bad bad;
	u32 i = 0;

	do {
		const struct lnet_nid *nid = p->nnids ? &p->nids[i] : NULL;

		if (lnet_peer_add_check(&p->prim, nid, p->flags, &bad))
			return peer_add_bad(p, &bad, err);
	} while (++i < p->nnids);
	return 0;
}

/* Is @nid one of this node's own NIDs? (A failed lookup says no.) */
static bool is_own_nid(struct cfg_handle *h, const struct lnet_nid *nid)
{
	struct lnet_ioc_ni ni;
	u32 i;

	for (i = 0; !cfg_ni_get(h, i, 0, &ni); i++)
		if (!memcmp(&ni.ni_nid, nid, sizeof(*nid)))
			return true;
	return false;
}

/* Why adding @nid (NULL: creating the peer) to @p failed. */
static int peer_add_fail(struct cfg_handle *h, const struct cfg_peer *p,
			 const struct lnet_nid *nid, int rc, struct cfg_err *err)
{
	char a[LNET_NID_STR_MAX], b[LNET_NID_STR_MAX], doing[160];
	const struct lnet_nid *what = nid ? nid : &p->prim;
	struct lnet_nid owner;

	cfg_nid_str(&p->prim, a, sizeof(a));
	cfg_nid_str(what, b, sizeof(b));
	snprintf(doing, sizeof(doing), "cannot add NID %s to peer %s", b, a);
	if (cfg_unreachable(h))
		return cfg_ioc_fail(h, rc, err, &p->loc, doing);
	if (rc == -EEXIST && !nid)
		return cfg_fail(err, rc, &p->loc,
				"peer %s already exists with other flags (non_mr, lock_prim)", a);
	/* the cause is known; the lookup only names the owner */
	if (rc == -EEXIST && !peer_owner(h, what, &owner))
		return cfg_fail(err, rc, &p->loc, "NID %s already belongs to peer %s",
				b, cfg_nid_str(&owner, a, sizeof(a)));
	if (rc == -EMLINK)
		return peer_non_mr_fail(p, rc, err);
	if (rc == -EADDRINUSE && !is_own_nid(h, &p->prim))
		return cfg_fail(err, rc, &p->loc,
				"NID %s is one of this node's own NIDs, not a peer's", b);
	if (rc == -EADDRINUSE)
		return cfg_fail(err, rc, &p->loc,
				"NID %s is not one of this node's own NIDs: peer %s is this node",
				b, a);
	if (rc == -ENOSPC)
		return cfg_fail(err, rc, &p->loc, "peer %s already has the most NIDs allowed (%d)",
				a, LNET_PEER_MAX_NIS);
	return cfg_ioc_fail(h, rc, err, &p->loc, doing);
}

/* Undo: the whole peer if this call created it, else the NIDs it added. */
static void peer_add_undo(struct cfg_handle *h, const struct cfg_peer *p,
			  bool created, u32 added)
{
	u32 i;

	if (created) {
		peer_cmd(h, IOC_LIBCFS_DEL_PEER_NI, &p->prim, NULL, LNET_PEER_F_FORCE);
		return;
	}
	for (i = 0; i < added; i++)
		if (!lnet_nid_equal(&p->nids[i], &p->prim))
			peer_cmd(h, IOC_LIBCFS_DEL_PEER_NI, &p->prim, &p->nids[i], 0);
}

int cfg_peer_add(struct cfg_handle *h, const struct cfg_peer *in, struct cfg_err *err)
{
	struct cfg_peer full;
	const struct cfg_peer *p = &full;
	struct lnet_nid owner;
	bool exists, created = false;
	int rc;
	u32 i;

	rc = cfg_model_read(in, &full, &cfg_peer_model, err);
	if (!rc)
		rc = peer_add_check(p, err);
	if (rc)
		return rc;
	rc = peer_owner(h, &p->prim, &owner);
	if (rc && (rc != -ENOENT || cfg_unreachable(h)))
		return peer_add_fail(h, p, NULL, rc, err);
	exists = !rc;
	if (exists && !lnet_nid_equal(&owner, &p->prim))
		return peer_add_fail(h, p, &p->prim, -EEXIST, err);
	if (!exists || !p->nnids) {
		rc = peer_cmd(h, IOC_LIBCFS_ADD_PEER_NI, &p->prim, NULL, p->flags);
		if (rc)
			return peer_add_fail(h, p, NULL, rc, err);
		created = !exists;
	}
	for (i = 0; i < p->nnids; i++) {
		if (lnet_nid_equal(&p->nids[i], &p->prim))
			continue;
		rc = peer_cmd(h, IOC_LIBCFS_ADD_PEER_NI, &p->prim, &p->nids[i], p->flags);
		if (rc) {
			peer_add_fail(h, p, &p->nids[i], rc, err);
			peer_add_undo(h, p, created, i);
			return rc;
		}
	}
	return 0;
}

static int peer_del_fail(struct cfg_handle *h, const struct cfg_peer *p,
			 const struct lnet_nid *nid, int rc, struct cfg_err *err)
{
	char a[LNET_NID_STR_MAX], b[LNET_NID_STR_MAX], doing[160];

	cfg_nid_str(&p->prim, a, sizeof(a));
	snprintf(doing, sizeof(doing), "cannot delete peer %s", a);
	if (cfg_unreachable(h))
		return cfg_ioc_fail(h, rc, err, &p->loc, doing);
	if (rc == -ENOENT)
		return cfg_fail(err, rc, &p->loc, "no peer has NID %s", a);
	if (rc == -ENXIO && nid)
		return cfg_fail(err, rc, &p->loc, "NID %s is not a NID of peer %s",
				cfg_nid_str(nid, b, sizeof(b)), a);
	if (rc == -EBUSY)
		return cfg_fail(err, rc, &p->loc,
				"the primary NID of peer %s is locked (lock_prim): force deletes it",
				a);
	return cfg_ioc_fail(h, rc, err, &p->loc, doing);
}

int cfg_peer_del(struct cfg_handle *h, const struct cfg_peer *in, struct cfg_err *err)
{
	struct cfg_peer full;
	const struct cfg_peer *p = &full;
	u32 flags, i;
	int rc;

	rc = cfg_model_read(in, &full, &cfg_peer_model, err);
	if (rc)
		return rc;
	flags = p->flags & LNET_PEER_F_FORCE;
	if (lnet_nid_is_zero(&p->prim))
		return cfg_fail(err, -EINVAL, &p->loc, "a peer needs a primary NID");
	if (!p->nnids) {
		rc = peer_cmd(h, IOC_LIBCFS_DEL_PEER_NI, &p->prim, NULL, flags);
		return rc ? peer_del_fail(h, p, NULL, rc, err) : 0;
	}
	for (i = 0; i < p->nnids; i++) {
		rc = peer_cmd(h, IOC_LIBCFS_DEL_PEER_NI, &p->prim, &p->nids[i], flags);
		if (rc)
			return peer_del_fail(h, p, &p->nids[i], rc, err);
	}
	return 0;
}
