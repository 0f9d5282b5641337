// SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later
/*
 * The UDSP wire form (lnet_udsp.h): marshal a rule into one flat buffer and
 * read one back. The reader trusts nothing: every count and size is checked
 * against the bytes actually given before it is used. Buffers may be
 * unaligned (a socket or fuzzer hands them over as bytes), so structures
 * are copied out with memcpy() instead of being cast in place.
 */
#include "udsp_wire.h"

#define UDSP_HDR_SIZE	((u32)sizeof(struct lnet_ioc_udsp))
#define UDSP_DESCR_SIZE	((u32)sizeof(struct lnet_ioc_udsp_descr))
#define UDSP_LIST_SIZE	((u32)sizeof(struct lnet_ioc_range_list))
#define UDSP_RANGE_SIZE	((u32)sizeof(struct lnet_ioc_range))

static const char *const udsp_descr_name[3] = { "src", "dst", "rte" };

#define udsp_err(err, errlen, ...) do {				\
	if (err && errlen)					\
		snprintf(err, errlen, __VA_ARGS__);		\
} while (0)

/* Address lists that follow the net-number list, by kind. */
static int udsp_kind_lists(u32 kind)
{
	switch (kind) {
	case LNET_UDSP_KIND_NET:
		return 0;
	case LNET_UDSP_KIND_IPV4:
		return 4;
	case LNET_UDSP_KIND_NUM:
		return 1;
	case LNET_UDSP_KIND_IPV6:
		return 8;
	}
	return -1;
}

static u32 udsp_expr_size(const struct lnet_nidexpr *e)
{
	if (!lnet_nidexpr_present(e))
		return 0;
	return e->ne_nlists * UDSP_LIST_SIZE + e->ne_nranges * UDSP_RANGE_SIZE;
}

u32 lnet_udsp_bulk_size(const struct lnet_udsp_desc *d)
{
	return 3 * UDSP_DESCR_SIZE + udsp_expr_size(&d->src) +
	       udsp_expr_size(&d->dst) + udsp_expr_size(&d->rte);
}

/* Write one descriptor at @p; returns the bytes written. */
static u32 udsp_marshal_expr(const struct lnet_nidexpr *e, u8 *p)
{
	struct lnet_ioc_udsp_descr h;
	struct lnet_ioc_range_list l;
	u32 off = UDSP_DESCR_SIZE, r = 0, i;

	memset(&h, 0, sizeof(h));
	if (lnet_nidexpr_present(e)) {
		h.iud_lnd = e->ne_lnd;
		h.iud_kind = e->ne_kind;
		h.iud_nlists = e->ne_nlists;
		h.iud_size = udsp_expr_size(e);
	}
	memcpy(p, &h, sizeof(h));
	if (!lnet_nidexpr_present(e))
		return off;
	for (i = 0; i < e->ne_nlists; i++) {
		l.count = e->ne_count[i];
		memcpy(p + off, &l, sizeof(l));
		off += UDSP_LIST_SIZE;
		memcpy(p + off, &e->ne_r[r], l.count * UDSP_RANGE_SIZE);
		off += l.count * UDSP_RANGE_SIZE;
		r += l.count;
	}
	return off;
}

int lnet_udsp_marshal(const struct lnet_udsp_desc *d, void *buf, u32 len)
{
	u32 bulk = lnet_udsp_bulk_size(d);
	u32 total = UDSP_HDR_SIZE + bulk;
	struct lnet_ioc_udsp h;
	u8 *p = buf;
	u32 off = UDSP_HDR_SIZE;

	if (len < total)
		return -ENOSPC;
	memset(&h, 0, sizeof(h));
	h.iou_hdr.ioc_len = total;
	h.iou_hdr.ioc_version = LNET_IOC_VERSION;
	h.iou_idx = d->idx;
	h.iou_action = d->action;
	h.iou_priority = d->priority;
	h.iou_bulk_size = bulk;
	memcpy(p, &h, sizeof(h));
	off += udsp_marshal_expr(&d->src, p + off);
	off += udsp_marshal_expr(&d->dst, p + off);
	off += udsp_marshal_expr(&d->rte, p + off);
	return (int)off;
}

static int udsp_check_header(const struct lnet_ioc_udsp *h, u32 len,
			     char *err, size_t errlen)
{
	if (h->iou_hdr.ioc_len != len) {
		udsp_err(err, errlen, "ioc_len %u differs from the %u bytes given",
			 h->iou_hdr.ioc_len, len);
		return -EINVAL;
	}
	if (h->iou_bulk_size != len - UDSP_HDR_SIZE) {
		udsp_err(err, errlen,
			 "iou_bulk_size %u: expected %u (ioc_len - %u)",
			 h->iou_bulk_size, len - UDSP_HDR_SIZE, UDSP_HDR_SIZE);
		return -EINVAL;
	}
	if (h->iou_flags || h->iou_reserved) {
		udsp_err(err, errlen, "iou_flags 0x%x / iou_reserved 0x%x: must be 0",
			 h->iou_flags, h->iou_reserved);
		return -EINVAL;
	}
	if (h->iou_idx < -1) {
		udsp_err(err, errlen, "idx %d: expected -1 (append) or 0-%u",
			 h->iou_idx, LNET_UDSP_MAX_RULES - 1);
		return -EINVAL;
	}
	if (h->iou_action != LNET_UDSP_ACTION_PRIORITY &&
	    h->iou_action != LNET_UDSP_ACTION_PREFERRED_LIST) {
		udsp_err(err, errlen,
			 "action %u: expected 1 (priority) or 2 (preferred list)",
			 h->iou_action);
		return -EINVAL;
	}
	return 0;
}

/* Header of a present descriptor: everything but the range lists. */
static int udsp_check_descr(const struct lnet_ioc_udsp_descr *h, const char *name,
			    u32 room, char *err, size_t errlen)
{
	int lists = udsp_kind_lists(h->iud_kind);

	if (h->iud_pad || h->iud_reserved[0] || h->iud_reserved[1]) {
		udsp_err(err, errlen, "%s: iud_pad/iud_reserved must be 0", name);
		return -EINVAL;
	}
	if (lists < 0) {
		udsp_err(err, errlen, "%s: kind %u is not one of 0-%u", name,
			 h->iud_kind, __LNET_UDSP_KIND_MAX - 1);
		return -EINVAL;
	}
	if (h->iud_nlists != 1 + lists) {
		udsp_err(err, errlen, "%s: %u range lists: kind %u needs %d",
			 name, h->iud_nlists, h->iud_kind, 1 + lists);
		return -EINVAL;
	}
	if (h->iud_size > room) {
		udsp_err(err, errlen, "%s: iud_size %u exceeds the %u bytes left",
			 name, h->iud_size, room);
		return -EINVAL;
	}
	return 0;
}

/* The range lists of one descriptor: exactly @size bytes at @p. */
static int udsp_read_lists(const u8 *p, u32 size, const char *name,
			   struct lnet_nidexpr *e, char *err, size_t errlen)
{
	struct lnet_ioc_range_list l;
	u32 off = 0, total = 0, i;
	u64 need;

	for (i = 0; i < e->ne_nlists; i++) {
		if (size - off < UDSP_LIST_SIZE) {
			udsp_err(err, errlen, "%s: list %u is cut off by iud_size %u",
				 name, i, size);
			return -EINVAL;
		}
		memcpy(&l, p + off, sizeof(l));
		off += UDSP_LIST_SIZE;
		if (l.count < 1 || l.count > LNET_UDSP_MAX_RANGES) {
			udsp_err(err, errlen, "%s: list %u has %u ranges: expected 1-%u",
				 name, i, l.count, LNET_UDSP_MAX_RANGES);
			return -EINVAL;
		}
		if (total + l.count > LNET_UDSP_MAX_RANGES) {
			udsp_err(err, errlen, "%s: more than %u ranges in all",
				 name, LNET_UDSP_MAX_RANGES);
			return -EINVAL;
		}
		need = (u64)l.count * UDSP_RANGE_SIZE;
		if (need > size - off) {
			udsp_err(err, errlen, "%s: list %u is cut off by iud_size %u",
				 name, i, size);
			return -EINVAL;
		}
		memcpy(&e->ne_r[total], p + off, (size_t)need);
		off += (u32)need;
		e->ne_count[i] = (u8)l.count;
		total += l.count;
	}
	if (off != size) {
		udsp_err(err, errlen, "%s: iud_size %u: the lists take %u bytes",
			 name, size, off);
		return -EINVAL;
	}
	e->ne_nranges = (u8)total;
	return 0;
}

/*
 * Read descriptor @which at @p (@room bytes left); returns the bytes
 * consumed or -EINVAL.
 */
static int udsp_read_expr(const u8 *p, u32 room, int which,
			  struct lnet_nidexpr *e, char *err, size_t errlen)
{
	const char *name = udsp_descr_name[which];
	struct lnet_ioc_udsp_descr h;
	static const struct lnet_ioc_udsp_descr zero;
	int rc;

	memset(e, 0, sizeof(*e));
	if (room < UDSP_DESCR_SIZE) {
		udsp_err(err, errlen, "%s: descriptor cut off: %u of %u bytes",
			 name, room, UDSP_DESCR_SIZE);
		return -EINVAL;
	}
	memcpy(&h, p, sizeof(h));
	if (h.iud_lnd == LNET_LND_NONE) {
		if (memcmp(&h, &zero, sizeof(h))) {
			udsp_err(err, errlen,
				 "%s: an absent descriptor must be all zero", name);
			return -EINVAL;
		}
		return UDSP_DESCR_SIZE;
	}
	rc = udsp_check_descr(&h, name, room - UDSP_DESCR_SIZE, err, errlen);
	if (rc)
		return rc;
	e->ne_lnd = h.iud_lnd;
	e->ne_kind = h.iud_kind;
	e->ne_nlists = h.iud_nlists;
	rc = udsp_read_lists(p + UDSP_DESCR_SIZE, h.iud_size, name, e, err, errlen);
	if (rc)
		return rc;
	return (int)(UDSP_DESCR_SIZE + h.iud_size);
}

static int udsp_validate_exprs(const struct lnet_udsp_desc *d,
			       char *err, size_t errlen)
{
	const struct lnet_nidexpr *e[3] = { &d->src, &d->dst, &d->rte };
	char why[128];
	int i;

	for (i = 0; i < 3; i++) {
		if (!lnet_nidexpr_present(e[i]))
			continue;
		why[0] = '\0';
		if (lnet_nidexpr_validate(e[i], why, sizeof(why))) {
			udsp_err(err, errlen, "%s: %s", udsp_descr_name[i], why);
			return -EINVAL;
		}
	}
	return 0;
}

int lnet_udsp_demarshal(const void *buf, u32 len, struct lnet_udsp_desc *d,
			char *err, size_t errlen)
{
	struct lnet_nidexpr *e[3] = { &d->src, &d->dst, &d->rte };
	struct lnet_ioc_udsp h;
	const u8 *p = buf;
	u32 off = UDSP_HDR_SIZE;
	int i, rc;

	memset(d, 0, sizeof(*d));
	if (len < UDSP_HDR_SIZE) {
		udsp_err(err, errlen, "%u bytes: a rule needs at least %u",
			 len, UDSP_HDR_SIZE);
		return -EINVAL;
	}
	memcpy(&h, p, sizeof(h));
	rc = udsp_check_header(&h, len, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < 3; i++) {
		rc = udsp_read_expr(p + off, len - off, i, e[i], err, errlen);
		if (rc < 0)
			goto fail;
		off += (u32)rc;
	}
	if (off != len) {
		udsp_err(err, errlen, "%u bytes after the rte descriptor: expected none",
			 len - off);
		rc = -EINVAL;
		goto fail;
	}
	d->idx = h.iou_idx;
	d->action = h.iou_action;
	d->priority = h.iou_priority;
	rc = udsp_validate_exprs(d, err, errlen);
	if (!rc)
		rc = lnet_udsp_check_shape(d, err, errlen);
	if (!rc)
		return 0;
fail:
	memset(d, 0, sizeof(*d));
	return -EINVAL;
}

static int udsp_check_action(const struct lnet_udsp_desc *d, u32 want,
			     const char *why, char *err, size_t errlen)
{
	if (d->action != LNET_UDSP_ACTION_PRIORITY &&
	    d->action != LNET_UDSP_ACTION_PREFERRED_LIST) {
		udsp_err(err, errlen,
			 "action %u: expected 1 (priority) or 2 (preferred list)",
			 d->action);
		return -EINVAL;
	}
	if (d->action != want) {
		udsp_err(err, errlen, "%s", why);
		return -EINVAL;
	}
	if (want == LNET_UDSP_ACTION_PRIORITY &&
	    d->priority == LNET_PRIORITY_UNSET) {
		udsp_err(err, errlen,
			 "priority %u is out of range: expected 0-%u",
			 d->priority, LNET_PRIORITY_UNSET - 1);
		return -EINVAL;
	}
	if (want == LNET_UDSP_ACTION_PREFERRED_LIST && d->priority) {
		udsp_err(err, errlen,
			 "priority %u on a preferred-list rule: it takes none (0)",
			 d->priority);
		return -EINVAL;
	}
	return 0;
}

int lnet_udsp_check_shape(const struct lnet_udsp_desc *d, char *err, size_t errlen)
{
	bool src = lnet_nidexpr_present(&d->src);
	bool dst = lnet_nidexpr_present(&d->dst);
	bool rte = lnet_nidexpr_present(&d->rte);

	if (!src && !dst && !rte) {
		udsp_err(err, errlen, "nothing to match: give --src, --dst or --rte");
		return -EINVAL;
	}
	if (src && dst && rte) {
		udsp_err(err, errlen,
			 "--src, --dst and --rte cannot be combined: use --src with --dst, or --dst with --rte");
		return -EINVAL;
	}
	if (src && rte) {
		udsp_err(err, errlen,
			 "--src and --rte cannot be combined: a router rule is --dst with --rte");
		return -EINVAL;
	}
	if (rte && !dst) {
		udsp_err(err, errlen,
			 "--rte needs --dst: a router rule is --dst with --rte");
		return -EINVAL;
	}
	if (src && dst)
		return udsp_check_action(d, LNET_UDSP_ACTION_PREFERRED_LIST,
			"a priority applies to one descriptor only: --src with --dst makes a preferred-NID rule, which takes no priority",
			err, errlen);
	if (dst && rte)
		return udsp_check_action(d, LNET_UDSP_ACTION_PREFERRED_LIST,
			"a priority applies to one descriptor only: --dst with --rte makes a preferred-router rule, which takes no priority",
			err, errlen);
	return udsp_check_action(d, LNET_UDSP_ACTION_PRIORITY,
		"a preferred list needs two descriptors: --src with --dst, or --dst with --rte; one descriptor alone takes a priority",
		err, errlen);
}

bool lnet_udsp_desc_same_match(const struct lnet_udsp_desc *a,
			       const struct lnet_udsp_desc *b)
{
	return a->action == b->action &&
	       lnet_nidexpr_equal(&a->src, &b->src) &&
	       lnet_nidexpr_equal(&a->dst, &b->dst) &&
	       lnet_nidexpr_equal(&a->rte, &b->rte);
}

/* FNV-1a over the bytes lnet_nidexpr_equal() compares. */
static u32 udsp_hash_bytes(u32 h, const void *buf, size_t len)
{
	const u8 *s = buf;

	while (len--)
		h = (h ^ *s++) * 16777619U;
	return h;
}

static u32 udsp_hash_expr(u32 h, const struct lnet_nidexpr *e)
{
	unsigned int n = e->ne_nranges;

	if (!e->ne_lnd)
		return udsp_hash_bytes(h, &e->ne_lnd, 1);
	if (n > LNET_UDSP_MAX_RANGES)
		n = LNET_UDSP_MAX_RANGES;
	/* the fields before ne_r, not the padding after ne_count */
	h = udsp_hash_bytes(h, e, offsetof(struct lnet_nidexpr, ne_count) +
			    sizeof(e->ne_count));
	return udsp_hash_bytes(h, e->ne_r, n * sizeof(e->ne_r[0]));
}

u32 lnet_udsp_desc_hash(const struct lnet_udsp_desc *d)
{
	u32 h = udsp_hash_bytes(2166136261U, &d->action, sizeof(d->action));

	h = udsp_hash_expr(h, &d->src);
	h = udsp_hash_expr(h, &d->dst);
	return udsp_hash_expr(h, &d->rte);
}
