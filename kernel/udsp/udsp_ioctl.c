// SPDX-License-Identifier: GPL-2.0-only
/*
 * The UDSP ioctls (lnet_udsp.h), on the core's dispatch through the hooks
 * (core/hooks.h). lnet_ioctl() holds ln_api_mutex and has checked the
 * framing (ioc_len, ioc_version) and the table's checks below; the
 * command's own sizes and fields are checked here. Buffers are read and written with memcpy():
 * the transport does not promise alignment.
 */
#include "udsp_priv.h"

#define UDSP_HDR_SIZE	((u32)sizeof(struct lnet_ioc_udsp))

static int udsp_ioc_add(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	struct lnet_udsp_desc *d;
	struct lnet_ioc_udsp h;
	s32 idx = -1;
	int rc;

	/* ~2.4 KB: too big for a kernel stack frame */
	d = lnet_obj_alloc(ln, sizeof(*d));
	if (!d)
		return -ENOMEM;
	rc = lnet_udsp_demarshal(buf, len, d, NULL, 0);
	if (!rc)
		rc = lnet_udsp_add(ln, d, &idx);
	lnet_obj_free(ln, d);
	if (rc)
		return rc;
	memcpy(&h, buf, sizeof(h));
	h.iou_idx = idx;
	memcpy(buf, &h, sizeof(h));
	return 0;
}

/* The fixed part of DEL, GET_SIZE and GET: no flags, nothing reserved. */
static int udsp_ioc_header(const void *buf, u32 len, u32 exact,
			   struct lnet_ioc_udsp *h)
{
	if (len < UDSP_HDR_SIZE || (exact && len != UDSP_HDR_SIZE))
		return -EINVAL;
	memcpy(h, buf, sizeof(*h));
	if (h->iou_flags || h->iou_reserved)
		return -EINVAL;
	return 0;
}

static int udsp_ioc_del(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	struct lnet_ioc_udsp h;
	int rc;

	rc = udsp_ioc_header(buf, len, true, &h);
	if (rc)
		return rc;
	if (h.iou_bulk_size)
		return -EINVAL;
	return lnet_udsp_del(ln, h.iou_idx);
}

static struct lnet_udsp *udsp_ioc_rule(struct lnet *ln, const struct lnet_ioc_udsp *h)
{
	if (h->iou_idx < 0)
		return NULL;
	return lnet_udsp_get(ln, (u32)h->iou_idx);
}

static int udsp_ioc_get_size(struct lnet *ln, unsigned int cmd, void *buf,
			     u32 len)
{
	struct lnet_ioc_udsp h;
	struct lnet_udsp *r;
	int rc;

	rc = udsp_ioc_header(buf, len, true, &h);
	if (rc)
		return rc;
	r = udsp_ioc_rule(ln, &h);
	if (!r)
		return -ENOENT;
	h.iou_bulk_size = lnet_udsp_bulk_size(&r->udsp_desc);
	memcpy(buf, &h, sizeof(h));
	return 0;
}

static int udsp_ioc_get(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	struct lnet_ioc_udsp h;
	struct lnet_udsp *r;
	u32 need;
	int rc;

	rc = udsp_ioc_header(buf, len, false, &h);
	if (rc)
		return rc;
	r = udsp_ioc_rule(ln, &h);
	if (!r)
		return -ENOENT;
	need = lnet_udsp_bulk_size(&r->udsp_desc);
	if (len - UDSP_HDR_SIZE < need) {
		h.iou_bulk_size = need;
		memcpy(buf, &h, sizeof(h));
		return -ENOSPC;
	}
	r->udsp_desc.idx = (s32)r->udsp_idx;
	rc = lnet_udsp_marshal(&r->udsp_desc, buf, len);
	return rc < 0 ? rc : 0;
}

static void udsp_info_copy(struct lnet_nid *to, u32 *n_out,
			   const struct lnet_nid *from, u32 n)
{
	*n_out = n;
	if (n > LNET_PREF_MAX)
		n = LNET_PREF_MAX;
	memset(to, 0, LNET_PREF_MAX * sizeof(*to));
	if (n)
		memcpy(to, from, n * sizeof(*to));
}

static int udsp_info_fill(struct lnet *ln, struct lnet_ioc_udsp_info *info)
{
	struct lnet_peer_ni *lpni;
	struct lnet_ni *ni;

	udsp_info_copy(info->cud_pref, &info->cud_npref, NULL, 0);
	udsp_info_copy(info->cud_rtr, &info->cud_nrtr, NULL, 0);
	if (!info->cud_peer) {
		ni = lnet_ni_find(ln, &info->cud_nid);
		if (!ni)
			return -ENOENT;
		info->cud_net_priority = ni->ni_net->net_sel_priority;
		info->cud_nid_priority = ni->ni_sel_priority;
		return 0;
	}
	lpni = lnet_peer_ni_find(ln, &info->cud_nid);
	if (!lpni)
		return -ENOENT;
	info->cud_net_priority = lpni->lpni_peer_net->lpn_sel_priority;
	info->cud_nid_priority = lpni->lpni_sel_priority;
	udsp_info_copy(info->cud_pref, &info->cud_npref,
		       lpni->lpni_pref_nids, lpni->lpni_npref);
	udsp_info_copy(info->cud_rtr, &info->cud_nrtr,
		       lpni->lpni_rtr_nids, lpni->lpni_nrtr);
	return 0;
}

static int udsp_ioc_info(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	struct lnet_ioc_udsp_info *info;
	int rc;

	if (len != sizeof(*info))
		return -EINVAL;
	/* ~700 bytes: keep it off the kernel stack */
	info = lnet_obj_alloc(ln, sizeof(*info));
	if (!info)
		return -ENOMEM;
	memcpy(info, buf, sizeof(*info));
	if (info->cud_peer > 1 || info->cud_reserved)
		rc = -EINVAL;
	else
		rc = udsp_info_fill(ln, info);
	if (!rc)
		memcpy(buf, info, sizeof(*info));
	lnet_obj_free(ln, info);
	return rc;
}

static bool udsp_reserved_zero(const void *buf)
{
	const struct lnet_ioc_udsp *u = buf;

	return !u->iou_reserved && !u->iou_flags;
}

static bool udsp_info_reserved_zero(const void *buf)
{
	const struct lnet_ioc_udsp_info *i = buf;

	return !i->cud_reserved;
}

const struct lnet_ioc_cmd lnet_udsp_ioc_cmds[] = {
	{ IOC_LIBCFS_ADD_UDSP, sizeof(struct lnet_ioc_udsp), true, false,
	  udsp_reserved_zero, udsp_ioc_add },
	{ IOC_LIBCFS_DEL_UDSP, sizeof(struct lnet_ioc_udsp), true, false,
	  udsp_reserved_zero, udsp_ioc_del },
	{ IOC_LIBCFS_GET_UDSP_SIZE, sizeof(struct lnet_ioc_udsp), false, false,
	  udsp_reserved_zero, udsp_ioc_get_size },
	{ IOC_LIBCFS_GET_UDSP, sizeof(struct lnet_ioc_udsp), false, false,
	  udsp_reserved_zero, udsp_ioc_get },
	{ IOC_LIBCFS_GET_CONST_UDSP_INFO, sizeof(struct lnet_ioc_udsp_info),
	  false, false, udsp_info_reserved_zero, udsp_ioc_info },
};
_Static_assert(sizeof(lnet_udsp_ioc_cmds) / sizeof(lnet_udsp_ioc_cmds[0]) ==
	       LNET_UDSP_IOC_NCMDS, "LNET_UDSP_IOC_NCMDS");
