// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Operations on UDSP rules: the wire form comes from kernel/udsp/udsp_wire.c
 * (the same code the kernel side demarshals with), in heap buffers.
 */
#include <stdlib.h>
#include <string.h>

#include "ops_priv.h"

#define UDSP_HDR_LEN	((u32)sizeof(struct lnet_ioc_udsp))

static int policy_add_fail(struct cfg_handle *h, const struct cfg_policy *p,
			   int rc, struct cfg_err *err)
{
	if (cfg_unreachable(h))
		return cfg_ioc_fail(h, rc, err, &p->loc, "cannot add rule");
	if (rc == -EALREADY)
		return cfg_fail(err, rc, &p->loc, "an identical rule already exists");
	if (rc == -ENOSPC)
		return cfg_fail(err, rc, &p->loc, "cannot add rule: there are %d rules already",
				LNET_UDSP_MAX_RULES);
	return cfg_ioc_fail(h, rc, err, &p->loc, "cannot add rule");
}

/*
 * Marshal @p into a new buffer and check it with the demarshaller the
 * kernel side uses, so that a bad rule is explained here rather than
 * answered with a bare EINVAL.
 */
static int policy_marshal(const struct cfg_policy *p, void **bufp,
			  struct cfg_err *err)
{
	u32 len = UDSP_HDR_LEN + lnet_udsp_bulk_size(&p->d);
	struct lnet_udsp_desc check;
	char why[256] = "";
	void *buf;
	int rc;

	if (p->d.idx < -1)
		return cfg_fail(err, -EINVAL, &p->loc,
				"invalid idx '%d': expected -1 (append) or an integer 0-%d",
				p->d.idx, LNET_UDSP_MAX_RULES - 1);
	if (len > UDSP_HDR_LEN + LNET_UDSP_MAX_SIZE)
		return cfg_fail(err, -EINVAL, &p->loc,
				"invalid rule: %u bytes on the wire, at most %u",
				len - UDSP_HDR_LEN, LNET_UDSP_MAX_SIZE);
	buf = calloc(1, len);
	if (!buf)
		return cfg_fail(err, -ENOMEM, &p->loc, "out of memory");
	rc = lnet_udsp_marshal(&p->d, buf, len);
	if (rc >= 0)
		rc = lnet_udsp_demarshal(buf, len, &check, why, sizeof(why));
	else
		snprintf(why, sizeof(why), "does not fit in %u bytes", len);
	if (rc) {
		free(buf);
		return cfg_fail(err, -EINVAL, &p->loc, "invalid rule: %s", why);
	}
	*bufp = buf;
	return 0;
}

int cfg_policy_add(struct cfg_handle *h, struct cfg_policy *p, struct cfg_err *err)
{
	struct lnet_ioc_udsp *u;
	struct cfg_policy full;
	void *buf = NULL;
	int rc;

	rc = cfg_model_read(p, &full, &cfg_policy_model, err);
	if (!rc)
		rc = policy_marshal(&full, &buf, err);
	if (rc)
		return rc;
	rc = cfg_ioctl(h, IOC_LIBCFS_ADD_UDSP, buf);
	u = buf;
	if (rc)
		policy_add_fail(h, &full, rc, err);
	else
		p->d.idx = u->iou_idx;	/* a first-release field: within the caller's size */
	free(buf);
	return rc;
}

static void udsp_request(struct lnet_ioc_udsp *u, s32 idx)
{
	memset(u, 0, sizeof(*u));
	u->iou_hdr.ioc_len = UDSP_HDR_LEN;
	u->iou_idx = idx;
}

int cfg_policy_del(struct cfg_handle *h, s32 idx, struct cfg_err *err)
{
	struct lnet_ioc_udsp u;
	char doing[64];
	int rc;

	if (lnet_udsp_del_check(idx, NULL))	/* validate.c, as the core */
		return cfg_fail(err, -EINVAL, NULL,
				"invalid idx '%d': expected -1 (all) or an integer 0-%d",
				idx, LNET_UDSP_MAX_RULES - 1);
	udsp_request(&u, idx);
	rc = cfg_ioctl(h, IOC_LIBCFS_DEL_UDSP, &u);
	if (!rc)
		return 0;
	if (rc == -ENOENT && !cfg_unreachable(h))
		return cfg_fail(err, rc, NULL, "no rule at index %d", idx);
	if (idx < 0)
		snprintf(doing, sizeof(doing), "cannot delete the rules");
	else
		snprintf(doing, sizeof(doing), "cannot delete rule %d", idx);
	return cfg_ioc_fail(h, rc, err, NULL, doing);
}

/* The rule's bulk size now; -ENOENT when there is no rule @idx. */
static int policy_size(struct cfg_handle *h, u32 idx, u32 *bulk)
{
	struct lnet_ioc_udsp u;
	int rc;

	udsp_request(&u, (s32)idx);
	rc = cfg_ioctl(h, IOC_LIBCFS_GET_UDSP_SIZE, &u);
	if (!rc)
		*bulk = u.iou_bulk_size;
	return rc;
}

/* GET_UDSP with room for @bulk bytes; on -ENOSPC *bulk is the size needed. */
static int policy_fetch(struct cfg_handle *h, u32 idx, u32 *bulk,
			struct cfg_policy *out)
{
	u32 len = UDSP_HDR_LEN + *bulk;
	struct lnet_ioc_udsp *u;
	int rc;

	if (*bulk > LNET_UDSP_MAX_SIZE)
		return -EPROTO;
	u = calloc(1, len);
	if (!u)
		return -ENOMEM;
	udsp_request(u, (s32)idx);
	u->iou_hdr.ioc_len = len;
	rc = cfg_ioctl(h, IOC_LIBCFS_GET_UDSP, u);
	if (rc == -ENOSPC)
		*bulk = u->iou_bulk_size;
	if (!rc && u->iou_bulk_size > *bulk)
		rc = -EPROTO;
	if (!rc) {
		u->iou_hdr.ioc_len = UDSP_HDR_LEN + u->iou_bulk_size;
		cfg_policy_init_size(out, out->size);	/* checked: the caller's own */
		if (lnet_udsp_demarshal(u, u->iou_hdr.ioc_len, &out->d, NULL, 0))
			rc = -EPROTO;
		out->d.idx = (s32)idx;
	}
	free(u);
	return rc;
}

int cfg_policy_get(struct cfg_handle *h, u32 idx, struct cfg_policy *out)
{
	u32 bulk;
	int rc, tries;

	rc = cfg_model_size(out, &cfg_policy_model, NULL);
	if (rc)
		return rc;
	if (idx > (u32)INT32_MAX)
		return -ENOENT;
	rc = policy_size(h, idx, &bulk);
	/* The rule may change between the two calls: retry with the new size. */
	for (tries = 0; !rc && tries < 3; tries++) {
		rc = policy_fetch(h, idx, &bulk, out);
		if (rc != -ENOSPC)
			return rc;
		rc = 0;
	}
	return rc ? rc : -EAGAIN;
}
