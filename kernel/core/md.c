// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory descriptors: a buffer with options, a threshold of operations and
 * an event handler, known to users by a cookie. A message attached to an
 * MD holds a reference; an MD goes away when it is unlinked (explicitly, or
 * because its threshold reached 0) and no message holds it any longer.
 */
#include "lnet_priv.h"

struct lnet_libmd *lnet_md_lookup(struct lnet *ln, u64 cookie)
{
	struct lnet_libmd *md;

	if (!cookie)
		return NULL;
	list_for_each_entry(md, &ln->ln_dp.dp_mds, md_list)
		if (md->md_cookie == cookie)
			return md;
	return NULL;
}

bool lnet_md_usable(const struct lnet_libmd *md)
{
	return !md->md_unlinking && md->md_threshold != 0;
}

static int lnet_md_check(const struct lnet_md *umd)
{
	if (!umd->start && umd->length)
		return -EINVAL;
	if (umd->length > LNET_MTU && !(umd->options & LNET_MD_TRUNCATE))
		return -EINVAL;
	if (umd->threshold == 0 || umd->threshold < LNET_MD_THRESH_INF)
		return -EINVAL;
	if ((umd->options & LNET_MD_MAX_SIZE) &&
	    (!umd->max_size || umd->max_size > umd->length))
		return -EINVAL;
	return 0;
}

/* A new MD from @umd on dp_mds (checked first); NULL with *@rc set. */
static struct lnet_libmd *lnet_md_create(struct lnet *ln, const struct lnet_md *umd,
					 int *rc)
{
	struct lnet_libmd *md;

	*rc = lnet_md_check(umd);
	if (*rc)
		return NULL;
	md = lnet_obj_alloc(ln, sizeof(*md));
	if (!md) {
		*rc = -ENOMEM;
		return NULL;
	}
	md->md_cookie = ln->ln_dp.dp_md_cookie++;
	md->md_start = umd->start;
	md->md_length = umd->length;
	md->md_max_size = umd->max_size;
	md->md_options = umd->options;
	md->md_threshold = umd->threshold;
	md->md_user_ptr = umd->user_ptr;
	md->md_handler = umd->handler;
	/* recent MDs first: the ones in use are found sooner */
	list_add(&md->md_list, &ln->ln_dp.dp_mds);
	return md;
}

int lnet_md_bind(struct lnet *ln, const struct lnet_md *umd,
		 struct lnet_handle_md *h)
{
	struct lnet_libmd *md;
	int rc;

	if (!ln->ln_configured)
		return -ENETDOWN;
	md = lnet_md_create(ln, umd, &rc);
	if (!md)
		return rc;
	h->cookie = md->md_cookie;
	return 0;
}

int lnet_me_attach_md(struct lnet *ln, u32 portal, const struct lnet_nid *match_id,
		      u32 match_pid, u64 match_bits, u64 ignore_bits, bool tail,
		      const struct lnet_md *umd, struct lnet_handle_md *h)
{
	struct lnet_libmd *md;
	struct lnet_me *me;
	int rc;

	if (!ln->ln_configured)
		return -ENETDOWN;
	if (portal >= LNET_NPORTALS)
		return -EINVAL;
	me = lnet_obj_alloc(ln, sizeof(*me));
	if (!me)
		return -ENOMEM;
	md = lnet_md_create(ln, umd, &rc);
	if (!md) {
		lnet_obj_free(ln, me);
		return rc;
	}
	me->me_portal = portal;
	if (match_id)
		me->me_match_id = *match_id;
	me->me_match_pid = match_pid;
	me->me_match_bits = match_bits;
	me->me_ignore_bits = ignore_bits;
	me->me_md = md;
	md->md_me = me;
	if (tail)
		list_add_tail(&me->me_list, &ln->ln_dp.dp_portals[portal]);
	else
		list_add(&me->me_list, &ln->ln_dp.dp_portals[portal]);
	h->cookie = md->md_cookie;
	return 0;
}

static void lnet_md_free(struct lnet *ln, struct lnet_libmd *md)
{
	if (md->md_me)
		lnet_me_free(ln, md->md_me);
	list_del(&md->md_list);
	lnet_obj_free(ln, md);
}

static void lnet_md_event_fill(struct lnet_libmd *md, struct lnet_event *ev)
{
	ev->md_handle.cookie = md->md_cookie;
	ev->md_user_ptr = md->md_user_ptr;
	ev->md_start = md->md_start;
}

/* The UNLINK event of an explicitly unlinked MD, then it goes. */
static void lnet_md_unlink_final(struct lnet *ln, struct lnet_libmd *md)
{
	struct lnet_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = LNET_EVENT_UNLINK;
	ev.unlinked = true;
	lnet_md_event_fill(md, &ev);
	if (md->md_handler)
		md->md_handler(ln, &ev);
	lnet_md_free(ln, md);
}

int lnet_md_unlink(struct lnet *ln, struct lnet_handle_md h)
{
	struct lnet_libmd *md = lnet_md_lookup(ln, h.cookie);

	if (!md || md->md_unlinking)
		return -ENOENT;
	md->md_unlinking = true;
	if (!md->md_refcount)
		lnet_md_unlink_final(ln, md);
	return 0;
}

void lnet_md_attach_msg(struct lnet_libmd *md, struct lnet_msg *msg)
{
	msg->msg_md = md;
	md->md_refcount++;
	if (md->md_threshold > 0)
		md->md_threshold--;
}

void lnet_md_release(struct lnet *ln, struct lnet_libmd *md)
{
	if (--md->md_refcount)
		return;
	if (md->md_unlinking)
		lnet_md_unlink_final(ln, md);
	else if (!md->md_threshold)
		lnet_md_free(ln, md);
}

void lnet_md_detach_msg(struct lnet *ln, struct lnet_msg *msg)
{
	struct lnet_libmd *md = msg->msg_md;

	if (!md)
		return;
	msg->msg_md = NULL;
	lnet_md_release(ln, md);
}

void lnet_md_deliver(struct lnet *ln, struct lnet_msg *msg, bool last)
{
	if (msg->msg_md)
		lnet_md_deliver_ev(ln, msg->msg_md, &msg->msg_ev, last);
}

void lnet_md_deliver_ev(struct lnet *ln, struct lnet_libmd *md, struct lnet_event *ev,
			bool last)
{
	lnet_md_event_fill(md, ev);
	/* auto-unlink: threshold used up and this message is the last one */
	ev->unlinked = last && md->md_refcount == 1 && !md->md_threshold &&
		       !md->md_unlinking;
	if (md->md_handler)
		md->md_handler(ln, ev);
}

void lnet_mds_destroy(struct lnet *ln)
{
	struct lnet_libmd *md, *tmp;

	list_for_each_entry_safe(md, tmp, &ln->ln_dp.dp_mds, md_list)
		lnet_md_free(ln, md);
}
