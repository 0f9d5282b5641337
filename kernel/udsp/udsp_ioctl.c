// SPDX-License-Identifier: GPL-2.0-only
/*
 * The UDSP ioctls (lnet_udsp.h), on the core's dispatch through the hooks
 * (core/hooks.h). lnet_ioctl() holds ln_api_mutex and has checked the
 * framing (ioc_len, ioc_version) and the table's checks below; the
 * command's own sizes and fields are checked here. Buffers are read and written with memcpy():
 * the transport does not promise alignment.
 */
#include "udsp_priv.h"
#include "udsp_explain.h"

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

/* --- batches ------------------------------------------------------------------ */

#define UDSP_BATCH_SIZE	((u32)sizeof(struct lnet_ioc_udsp_batch))

/* The answer of a batch: its header (with iub_done set) back in @buf. */
static int udsp_batch_reply(void *buf, struct lnet_ioc_udsp_batch *h,
			    u32 done, int rc)
{
	h->iub_done = done;
	memcpy(buf, h, sizeof(*h));
	return rc;
}

/*
 * The record at @off of @len bytes: its length in *rlen, 0 when it lies
 * within the request, else -EINVAL.
 */
static int udsp_record_at(const u8 *buf, u32 len, u32 off, u32 *rlen)
{
	struct lnet_ioc_udsp r;

	if (len - off < UDSP_HDR_SIZE)
		return -EINVAL;
	memcpy(&r, buf + off, sizeof(r));
	if (r.iou_hdr.ioc_len < UDSP_HDR_SIZE || r.iou_hdr.ioc_len > len - off)
		return -EINVAL;
	*rlen = r.iou_hdr.ioc_len;
	return 0;
}

/*
 * Every record of an ADD batch, validated before anything changes: the
 * framing, then each rule as ADD_UDSP reads it. 0, or -EINVAL with the
 * record at fault in *bad.
 */
static int udsp_batch_check(const u8 *buf, u32 len, u32 count,
			    struct lnet_udsp_desc *d, u32 *bad)
{
	u32 off = UDSP_BATCH_SIZE, rlen, i;

	for (i = 0; i < count; i++, off += rlen) {
		*bad = i;
		if (udsp_record_at(buf, len, off, &rlen) ||
		    lnet_udsp_demarshal(buf + off, rlen, d, NULL, 0))
			return -EINVAL;
	}
	*bad = count;
	return off == len ? 0 : -EINVAL;
}

/* Apply the records (checked) of @b in order, each idx written back. */
static int udsp_batch_apply(struct lnet *ln, struct lnet_udsp_batch *b, u8 *buf,
			    u32 count, struct lnet_udsp_desc *d, u32 *bad)
{
	u32 off = UDSP_BATCH_SIZE, i;
	struct lnet_ioc_udsp r;
	s32 idx;
	int rc;

	for (i = 0; i < count; i++, off += r.iou_hdr.ioc_len) {
		*bad = i;
		memcpy(&r, buf + off, sizeof(r));
		lnet_udsp_demarshal(buf + off, r.iou_hdr.ioc_len, d, NULL, 0);
		rc = lnet_udsp_batch_add(ln, b, d, &idx);
		if (rc)
			return rc;
		r.iou_idx = idx;
		memcpy(buf + off, &r, sizeof(r));
	}
	*bad = count;
	return 0;
}

static int udsp_ioc_add_batch(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	struct lnet_ioc_udsp_batch h;
	struct lnet_udsp_batch *b;
	struct lnet_udsp_desc *d;
	u32 bad = 0;
	int rc;

	memcpy(&h, buf, sizeof(h));
	if ((h.iub_flags & ~__LNET_UDSP_BATCH_F_ALL) || h.iub_idx ||
	    h.iub_count > (len - UDSP_BATCH_SIZE) / UDSP_HDR_SIZE)
		return udsp_batch_reply(buf, &h, 0, -EINVAL);
	/* ~2.4 KB: too big for a kernel stack frame */
	d = lnet_obj_alloc(ln, sizeof(*d));
	if (!d)
		return udsp_batch_reply(buf, &h, h.iub_count, -ENOMEM);
	rc = udsp_batch_check(buf, len, h.iub_count, d, &bad);
	if (!rc)
		rc = lnet_udsp_batch_begin(ln, h.iub_count, &b);
	if (!rc) {
		rc = udsp_batch_apply(ln, b, buf, h.iub_count, d, &bad);
		if (rc)
			lnet_udsp_batch_abort(ln, b);
		else
			rc = lnet_udsp_batch_commit(ln, b, h.iub_flags &
						    LNET_UDSP_BATCH_F_DEFER);
	}
	lnet_obj_free(ln, d);
	h.iub_total = lnet_udsp_of(ln)->us_count;
	return udsp_batch_reply(buf, &h, bad, rc);
}

/*
 * The records of a DEL batch into @idx: each a bare header with its idx
 * and nothing else. 0, or -EINVAL with the record at fault in *bad.
 */
static int udsp_del_batch_read(const u8 *buf, u32 len, u32 count, s32 *idx, u32 *bad)
{
	u32 off = UDSP_BATCH_SIZE, i;
	struct lnet_ioc_udsp r;

	for (i = 0; i < count; i++, off += UDSP_HDR_SIZE) {
		*bad = i;
		if (len - off < UDSP_HDR_SIZE)
			return -EINVAL;
		memcpy(&r, buf + off, sizeof(r));
		if (r.iou_hdr.ioc_len != UDSP_HDR_SIZE ||
		    r.iou_hdr.ioc_version != LNET_IOC_VERSION || r.iou_idx < 0 ||
		    r.iou_action || r.iou_priority || r.iou_flags ||
		    r.iou_bulk_size || r.iou_reserved)
			return -EINVAL;
		idx[i] = r.iou_idx;
	}
	*bad = count;
	return off == len ? 0 : -EINVAL;
}

static int udsp_ioc_del_batch(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	struct lnet_ioc_udsp_batch h;
	u32 bad = 0;
	s32 *idx;
	int rc;

	memcpy(&h, buf, sizeof(h));
	if ((h.iub_flags & ~__LNET_UDSP_BATCH_F_ALL) || h.iub_idx ||
	    h.iub_count > (len - UDSP_BATCH_SIZE) / UDSP_HDR_SIZE)
		return udsp_batch_reply(buf, &h, 0, -EINVAL);
	idx = lnet_obj_alloc(ln, (size_t)h.iub_count * sizeof(*idx) + 1);
	if (!idx)
		return udsp_batch_reply(buf, &h, h.iub_count, -ENOMEM);
	rc = udsp_del_batch_read(buf, len, h.iub_count, idx, &bad);
	if (!rc)
		rc = lnet_udsp_del_many(ln, idx, h.iub_count,
					h.iub_flags & LNET_UDSP_BATCH_F_DEFER, &bad);
	lnet_obj_free(ln, idx);
	h.iub_total = lnet_udsp_of(ln)->us_count;
	return udsp_batch_reply(buf, &h, bad, rc);
}

static int udsp_ioc_get_batch(struct lnet *ln, unsigned int cmd, void *buf, u32 len)
{
	struct lnet_udsp_set *us = lnet_udsp_of(ln);
	u32 off = UDSP_BATCH_SIZE, need, i;
	struct lnet_ioc_udsp_batch h;
	struct lnet_udsp *r;

	memcpy(&h, buf, sizeof(h));
	if (h.iub_flags || h.iub_count || h.iub_idx < 0)
		return udsp_batch_reply(buf, &h, 0, -EINVAL);
	h.iub_total = us->us_count;
	for (i = (u32)h.iub_idx; i < us->us_count; i++) {
		r = us->us_rules[i];
		need = UDSP_HDR_SIZE + lnet_udsp_bulk_size(&r->udsp_desc);
		if (need > len - off) {
			if (!h.iub_count)
				return udsp_batch_reply(buf, &h, need, -ENOSPC);
			break;
		}
		r->udsp_desc.idx = (s32)i;
		lnet_udsp_marshal(&r->udsp_desc, (u8 *)buf + off, need);
		off += need;
		h.iub_count++;
	}
	return udsp_batch_reply(buf, &h, off - UDSP_BATCH_SIZE, 0);
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

static bool udsp_batch_reserved_zero(const void *buf)
{
	const struct lnet_ioc_udsp_batch *b = buf;

	return !b->iub_reserved;
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
	{ IOC_LNET_ADD_UDSP_BATCH, sizeof(struct lnet_ioc_udsp_batch), true, false,
	  udsp_batch_reserved_zero, udsp_ioc_add_batch },
	{ IOC_LNET_DEL_UDSP_BATCH, sizeof(struct lnet_ioc_udsp_batch), true, false,
	  udsp_batch_reserved_zero, udsp_ioc_del_batch },
	{ IOC_LNET_GET_UDSP_BATCH, sizeof(struct lnet_ioc_udsp_batch), false, false,
	  udsp_batch_reserved_zero, udsp_ioc_get_batch },
	{ IOC_LNET_UDSP_MATCH, sizeof(struct lnet_ioc_udsp_match), false, false,
	  lnet_udsp_match_reserved_zero, lnet_udsp_ioc_match },
};
_Static_assert(sizeof(lnet_udsp_ioc_cmds) / sizeof(lnet_udsp_ioc_cmds[0]) ==
	       LNET_UDSP_IOC_NCMDS, "LNET_UDSP_IOC_NCMDS");
