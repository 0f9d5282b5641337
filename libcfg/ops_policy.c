// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Operations on UDSP rules: the wire form comes from kernel/udsp/udsp_wire.c
 * (the same code the kernel side demarshals with), in heap buffers.
 */
#include <stdlib.h>
#include <string.h>

#include "ops_priv.h"

#define UDSP_HDR_LEN	((u32)sizeof(struct lnet_ioc_udsp))

static int policy_add_fail(struct cfg_handle *h, const struct cfg_loc *loc,
			   int rc, struct cfg_err *err)
{
	if (cfg_unreachable(h))
		return cfg_ioc_fail(h, rc, err, loc, "cannot add rule");
	if (rc == -EALREADY)
		return cfg_fail(err, rc, loc, "an identical rule already exists");
	if (rc == -ENOSPC)
		return cfg_fail(err, rc, loc, "cannot add rule: there are %d rules already",
				LNET_UDSP_MAX_RULES);
	return cfg_ioc_fail(h, rc, err, loc, "cannot add rule");
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
		policy_add_fail(h, &full.loc, rc, err);
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

/* --- many rules per request (IOC_LNET_*_UDSP_BATCH) ------------------------------- */

#define BATCH_HDR_LEN	((u32)sizeof(struct lnet_ioc_udsp_batch))

static void batch_request(struct lnet_ioc_udsp_batch *b, u32 len, u32 flags, s32 idx)
{
	memset(b, 0, sizeof(*b));
	b->iub_hdr.ioc_len = len;
	b->iub_flags = flags;
	b->iub_idx = idx;
}

int cfg_policy_batch_init(struct cfg_policy_batch *b, struct cfg_handle *h)
{
	memset(b, 0, sizeof(*b));
	b->h = h;
	b->buf = malloc(LNET_IOC_MAX_LEN);
	/* a record is at least a header and three descriptor headers */
	b->locs = calloc(LNET_IOC_MAX_LEN / UDSP_HDR_LEN, sizeof(*b->locs));
	if (!b->buf || !b->locs) {
		cfg_policy_batch_fini(b);
		return -ENOMEM;
	}
	b->len = BATCH_HDR_LEN;
	b->cmd = IOC_LNET_ADD_UDSP_BATCH;
	return 0;
}

void cfg_policy_batch_fini(struct cfg_policy_batch *b)
{
	free(b->buf);
	free(b->locs);
	b->buf = NULL;
	b->locs = NULL;
}

/* A DEL batch refused: the record at fault named by its idx. */
static int batch_del_fail(struct cfg_policy_batch *b, const struct lnet_ioc_udsp_batch *req,
			  int rc, struct cfg_err *err)
{
	struct lnet_ioc_udsp u;
	char doing[64];

	if (cfg_unreachable(b->h) || req->iub_done >= req->iub_count)
		return cfg_ioc_fail(b->h, rc, err, NULL, "cannot delete the rules");
	memcpy(&u, b->buf + BATCH_HDR_LEN + (size_t)req->iub_done * UDSP_HDR_LEN, sizeof(u));
	if (rc == -ENOENT)
		return cfg_fail(err, rc, &b->locs[req->iub_done], "no rule at index %d",
				u.iou_idx);
	snprintf(doing, sizeof(doing), "cannot delete rule %d", u.iou_idx);
	return cfg_ioc_fail(b->h, rc, err, &b->locs[req->iub_done], doing);
}

/* Send the records queued; @defer: more follow (re-flatten nothing yet). */
static int batch_send(struct cfg_policy_batch *b, bool defer, struct cfg_err *err)
{
	struct lnet_ioc_udsp_batch *req = (struct lnet_ioc_udsp_batch *)b->buf;
	u32 count = b->count;
	int rc;

	batch_request(req, b->len, defer ? LNET_UDSP_BATCH_F_DEFER : 0, 0);
	req->iub_count = count;
	req->iub_done = count;	/* as is unless the core names a record */
	rc = cfg_ioctl(b->h, b->cmd, req);
	b->len = BATCH_HDR_LEN;
	b->count = 0;
	if (!rc) {
		b->sent = defer;
		b->applied = true;
		return 0;
	}
	if (b->cmd == IOC_LNET_DEL_UDSP_BATCH)
		return batch_del_fail(b, req, rc, err);
	if (!cfg_unreachable(b->h) && req->iub_done < count)
		return policy_add_fail(b->h, &b->locs[req->iub_done], rc, err);
	return cfg_ioc_fail(b->h, rc, err, NULL, "cannot add the rules");
}

/* Room for @len more bytes of requests of @cmd: what is queued goes first. */
static int batch_room(struct cfg_policy_batch *b, unsigned int cmd, u32 len,
		      struct cfg_err *err)
{
	int rc = 0;

	if (b->count && (cmd != b->cmd || len > LNET_IOC_MAX_LEN - b->len))
		rc = batch_send(b, true, err);
	b->cmd = cmd;
	return rc;
}

int cfg_policy_batch_del(struct cfg_policy_batch *b, s32 idx, const struct cfg_loc *loc,
			 struct cfg_err *err)
{
	struct lnet_ioc_udsp u;
	int rc;

	rc = batch_room(b, IOC_LNET_DEL_UDSP_BATCH, UDSP_HDR_LEN, err);
	if (rc)
		return rc;
	udsp_request(&u, idx);
	u.iou_hdr.ioc_version = LNET_IOC_VERSION;
	memcpy(b->buf + b->len, &u, sizeof(u));
	b->len += UDSP_HDR_LEN;
	b->locs[b->count++] = loc ? *loc : (struct cfg_loc){ 0 };
	return 0;
}

int cfg_policy_batch_add(struct cfg_policy_batch *b, const struct cfg_policy *p,
			 struct cfg_err *err)
{
	void *rec = NULL;
	u32 len;
	int rc;

	rc = policy_marshal(p, &rec, err);
	if (rc)
		return rc;
	len = ((struct lnet_ioc_udsp *)rec)->iou_hdr.ioc_len;
	rc = batch_room(b, IOC_LNET_ADD_UDSP_BATCH, len, err);
	if (!rc) {
		memcpy(b->buf + b->len, rec, len);
		b->len += len;
		b->locs[b->count++] = p->loc;
	}
	free(rec);
	return rc;
}

int cfg_policy_batch_end(struct cfg_policy_batch *b, struct cfg_err *err)
{
	if (!b->count && !b->sent)
		return 0;
	return batch_send(b, false, err);
}

/* One GET_UDSP_BATCH from @idx into @req (LNET_IOC_MAX_LEN bytes). */
static int batch_fetch(struct cfg_handle *h, struct lnet_ioc_udsp_batch *req, u32 idx)
{
	batch_request(req, LNET_IOC_MAX_LEN, 0, (s32)idx);
	return cfg_ioctl(h, IOC_LNET_GET_UDSP_BATCH, req);
}

/* Each record of a GET_UDSP_BATCH reply, in turn, through @fn. */
static int batch_each(const struct lnet_ioc_udsp_batch *req, struct cfg_policy *pol,
		      int (*fn)(void *arg, struct cfg_policy *p), void *arg)
{
	const u8 *rec = (const u8 *)(req + 1);
	const u8 *end = rec + req->iub_done;
	struct lnet_ioc_udsp u;
	u32 i;
	int rc;

	if (req->iub_done > LNET_IOC_MAX_LEN - BATCH_HDR_LEN)
		return -EPROTO;
	for (i = 0; i < req->iub_count; i++, rec += u.iou_hdr.ioc_len) {
		if ((size_t)(end - rec) < UDSP_HDR_LEN)
			return -EPROTO;
		memcpy(&u, rec, sizeof(u));
		if (u.iou_hdr.ioc_len < UDSP_HDR_LEN || u.iou_hdr.ioc_len > (size_t)(end - rec) ||
		    lnet_udsp_demarshal(rec, u.iou_hdr.ioc_len, &pol->d, NULL, 0))
			return -EPROTO;
		rc = fn(arg, pol);
		if (rc)
			return rc;
	}
	return 0;
}

int cfg_policy_each(struct cfg_handle *h, u32 first,
		    int (*fn)(void *arg, struct cfg_policy *p), void *arg)
{
	struct lnet_ioc_udsp_batch *req = malloc(LNET_IOC_MAX_LEN);
	struct cfg_policy pol;
	u32 idx = first;
	int rc;

	if (!req)
		return -ENOMEM;
	cfg_policy_init(&pol);
	do {
		rc = batch_fetch(h, req, idx);
		if (!rc)
			rc = batch_each(req, &pol, fn, arg);
		idx += req->iub_count;
	} while (!rc && req->iub_count && idx < req->iub_total);
	free(req);
	return rc;
}
