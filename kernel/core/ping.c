// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ping: our ping target (a GET on the reserved portal reads our NIs, 0@lo
 * first, with their status), the push target (a peer PUTs its NIs there
 * after discovering us), and lnet_ping(), which GETs a peer's ping info
 * and waits for it with the lock released.
 */
#include "ping_priv.h"

static const struct lnet_nid lnet_any_nid;

/* ---- operations a caller waits for ----------------------------------------- */

static void lnet_wait_op_event(struct lnet *ln, struct lnet_event *ev)
{
	struct lnet_wait_op *op = ev->md_user_ptr;

	if (!op->done && ev->status) {
		op->done = true;
		op->status = ev->status;
	} else if (!op->done && (ev->type == LNET_EVENT_REPLY ||
				 ev->type == LNET_EVENT_ACK)) {
		op->done = true;
		op->status = 0;
		op->mlength = ev->mlength;
	}
	if (ev->unlinked) {
		op->unlinked = true;
		if (!op->done) {
			op->done = true;
			op->status = -ECANCELED;
		}
		if (op->abandoned) {
			lnet_obj_free(ln, op);
			return;
		}
	}
	if (op->wake_monitor)
		os_cond_broadcast(&ln->ln_dp.dp_monitor_cond);
	os_cond_broadcast(&ln->ln_dp.dp_cond);
}

struct lnet_wait_op *lnet_wait_op_alloc(struct lnet *ln, u32 len)
{
	struct lnet_wait_op *op = lnet_obj_alloc(ln, sizeof(*op) + len);

	if (op)
		op->len = len;
	return op;
}

int lnet_wait_op_bind(struct lnet *ln, struct lnet_wait_op *op, int threshold,
		      struct lnet_handle_md *h)
{
	struct lnet_md md = {
		.start = op->buf,
		.length = op->len,
		.threshold = threshold,
		.user_ptr = op,
		.handler = lnet_wait_op_event,
	};

	return lnet_md_bind(ln, &md, h);
}

int lnet_wait_op_wait(struct lnet *ln, struct lnet_wait_op *op, u64 deadline_ns)
{
	while (!op->done) {
		int rc = os_cond_wait_intr(&ln->ln_dp.dp_cond, &ln->ln_api_mutex,
					   deadline_ns);

		/* timed out or interrupted (Ctrl-C): the caller abandons @op */
		if (rc && !op->done)
			return rc;
	}
	return op->status;
}

void lnet_wait_op_release(struct lnet *ln, struct lnet_wait_op *op,
			  struct lnet_handle_md h)
{
	if (op->unlinked) {
		lnet_obj_free(ln, op);
		return;
	}
	/* Messages may still use the MD: its last event frees @op. */
	op->abandoned = true;
	if (lnet_md_unlink(ln, h) == -ENOENT)
		lnet_obj_free(ln, op);	/* gone, and no event will come */
}

/* ---- our ping info ------------------------------------------------------------ */

struct lnet_ping_info *lnet_ping_info_alloc(u32 nnis)
{
	return os_zalloc(sizeof(struct lnet_ping_info) +
			 (size_t)nnis * sizeof(struct lnet_ping_ni));
}

/*
 * NIs that go in our ping info: live, and with a NID the wire can carry:
 * a nid4 entry, or an IPv6 one in a large entry (lnet_wire.h).
 */
static bool lnet_ni_in_ping_info(const struct lnet_ni *ni)
{
	u64 w;

	return !ni->ni_dying && (lnet_nid_to_wire(&ni->ni_nid, &w) == 0 ||
				 ni->ni_nid.nid_addr_len == 16);
}

static u32 lnet_ping_info_count(struct lnet *ln)
{
	struct lnet_net *net;
	struct lnet_ni *ni;
	u32 n = 0;

	list_for_each_entry(net, &ln->ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list)
			if (lnet_ni_in_ping_info(ni))
				n++;
	return n < LNET_PING_MAX_NIS ? n : LNET_PING_MAX_NIS;
}

static void lnet_ping_info_fill(struct lnet *ln, struct lnet_ping_info *pi,
				u32 max)
{
	struct lnet_net *net;
	struct lnet_ni *ni;

	pi->pi_magic = LNET_PROTO_PING_MAGIC;
	pi->pi_features = LNET_PING_FEAT_BASE | LNET_PING_FEAT_NI_STATUS |
			  LNET_PING_FEAT_MULTI_RAIL;
	/* as Lustre: peers learn that we take part in discovery */
	if (ln->ln_globals[LNET_GLOBAL_DISCOVERY])
		pi->pi_features |= LNET_PING_FEAT_DISCOVERY;
	if (!lnet_routing_advertised(ln))
		pi->pi_features |= LNET_PING_FEAT_RTE_DISABLED;
	pi->pi_pid = LNET_PID_LUSTRE;
	pi->pi_nnis = 0;
	/* ln_nets has the lo net first: 0@lo leads, as Lustre's. */
	list_for_each_entry(net, &ln->ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list) {
			struct lnet_ping_ni *p = &pi->pi_ni[pi->pi_nnis];

			if (!lnet_ni_in_ping_info(ni) || pi->pi_nnis >= max)
				continue;
			p->ns_nid = ni->ni_nid;
			p->ns_status = ni->ni_status == LNET_NI_STATUS_UP &&
				       !lnet_net_silent(ln, net) ?
				LNET_NI_STATUS_UP_WIRE : LNET_NI_STATUS_DOWN_WIRE;
			p->ns_msg_size = 0;
			pi->pi_nnis++;
		}
	/* as Lustre: the primary (the first NI after 0@lo) is a large one */
	if (pi->pi_nnis > 1 && pi->pi_ni[1].ns_nid.nid_addr_len == 16)
		pi->pi_features |= LNET_PING_FEAT_PRIMARY_LARGE;
}

/* Our ping info in wire bytes, in a new buffer: its length or -errno. */
static int lnet_ping_info_build(struct lnet *ln, u8 **out)
{
	u32 n = lnet_ping_info_count(ln), len;
	struct lnet_ping_info *pi;
	u8 *buf;
	int rc = -ENOMEM;

	pi = lnet_ping_info_alloc(n);
	if (!pi)
		return rc;
	lnet_ping_info_fill(ln, pi, n);
	len = lnet_ping_info_wire_len(pi);
	buf = lnet_obj_alloc(ln, len);
	if (!buf)
		goto err_pi;
	rc = lnet_ping_info_encode(pi, buf, len);
	if (rc < 0)
		goto err_buf;
	os_free(pi);
	*out = buf;
	return rc;

err_buf:
	lnet_obj_free(ln, buf);
err_pi:
	os_free(pi);
	return rc;
}

/* ---- the ping and push targets ------------------------------------------------ */

/* The buffer of a target MD is freed with the MD (it may still be read). */
static void lnet_ping_target_event(struct lnet *ln, struct lnet_event *ev)
{
	if (ev->unlinked)
		lnet_obj_free(ln, ev->md_user_ptr);
}

static int lnet_push_target_post(struct lnet *ln, unsigned int slot);

/*
 * Push targets: LNET_PUSH_BUFS buffers, each with room for
 * LNET_PUSHES_PER_BUF pushes of the largest size, written one after the
 * other (local offsets, LNET_MD_MAX_SIZE): two peers pushing at the same
 * moment land in different places, where one buffer at offset 0 would
 * mix their bytes. A buffer that has no room left for another push is
 * used up by the core and goes; its unlink event posts a fresh one
 * behind the other, which takes the pushes meanwhile.
 */
#define LNET_PUSHES_PER_BUF	8

static void lnet_push_target_event(struct lnet *ln, struct lnet_event *ev)
{
	struct lnet_dp *dp = &ln->ln_dp;
	unsigned int i;

	if (ev->type == LNET_EVENT_PUT && !ev->status)
		lnet_push_queue(ln, ev);
	if (!ev->unlinked)
		return;
	lnet_obj_free(ln, ev->md_user_ptr);
	for (i = 0; i < LNET_PUSH_BUFS; i++) {
		if (dp->dp_push_mds[i].cookie != ev->md_handle.cookie)
			continue;
		dp->dp_push_mds[i].cookie = 0;
		if (dp->dp_push_up && lnet_push_target_post(ln, i))
			os_err("cannot post a push target buffer: pushes may be lost\n");
	}
}

/* A fresh push buffer in @slot, behind the other one. */
static int lnet_push_target_post(struct lnet *ln, unsigned int slot)
{
	u32 len = LNET_PUSHES_PER_BUF * LNET_PING_INFO_MAX_LEN;
	u8 *buf = lnet_obj_alloc(ln, len);
	struct lnet_md md = {
		.start = buf,
		.length = len,
		.threshold = LNET_MD_THRESH_INF,
		.max_size = LNET_PING_INFO_MAX_LEN,
		.options = LNET_MD_OP_PUT | LNET_MD_MAX_SIZE | LNET_MD_TRUNCATE,
		.user_ptr = buf,
		.handler = lnet_push_target_event,
	};
	int rc;

	if (!buf)
		return -ENOMEM;
	rc = lnet_me_attach_md(ln, LNET_RESERVED_PORTAL, &lnet_any_nid, LNET_PID_ANY,
			       LNET_PROTO_PING_MATCHBITS, 0, true, &md,
			       &ln->ln_dp.dp_push_mds[slot]);
	if (rc) {
		lnet_obj_free(ln, buf);
		ln->ln_dp.dp_push_mds[slot].cookie = 0;
	}
	return rc;
}

/* The ping target: one GET-only MD holding our ping info. */
static int lnet_ping_target_attach(struct lnet *ln, u8 *buf, u32 len,
				   struct lnet_handle_md *h)
{
	struct lnet_md md = {
		.start = buf,
		.length = len,
		.threshold = LNET_MD_THRESH_INF,
		/* a GET may ask for more than we have */
		.options = LNET_MD_OP_GET | LNET_MD_TRUNCATE | LNET_MD_MANAGE_REMOTE,
		.user_ptr = buf,
		.handler = lnet_ping_target_event,
	};

	/* At the head: a new ping target hides the old one until it goes. */
	return lnet_me_attach_md(ln, LNET_RESERVED_PORTAL, &lnet_any_nid,
				 LNET_PID_ANY, LNET_PROTO_PING_MATCHBITS, 0,
				 false, &md, h);
}

/* Put @buf (@len bytes) up as the ping target, replacing the old one. */
static int lnet_ping_target_set(struct lnet *ln, u8 *buf, u32 len)
{
	struct lnet_dp *dp = &ln->ln_dp;
	struct lnet_handle_md old = dp->dp_ping_md, h;
	int rc;

	rc = lnet_ping_target_attach(ln, buf, len, &h);
	if (rc) {
		lnet_obj_free(ln, buf);
		return rc;
	}
	dp->dp_ping_md = h;
	dp->dp_ping_buf = buf;
	dp->dp_ping_len = len;
	/* The old buffer is freed by its MD's unlink event. */
	if (old.cookie)
		lnet_md_unlink(ln, old);
	return 0;
}

void lnet_ping_target_update(struct lnet *ln)
{
	struct lnet_dp *dp = &ln->ln_dp;
	u8 *buf = NULL;
	int len;

	if (!dp->dp_ping_md.cookie)
		return;		/* not up (or going down) */
	len = lnet_ping_info_build(ln, &buf);
	if (len < 0) {
		os_err("cannot rebuild the ping target: error %d\n", len);
		return;
	}
	if ((u32)len == dp->dp_ping_len && !memcmp(buf, dp->dp_ping_buf, len)) {
		lnet_obj_free(ln, buf);
		return;
	}
	if (lnet_ping_target_set(ln, buf, (u32)len))
		os_err("cannot update the ping target\n");
}

int lnet_ping_target_init(struct lnet *ln)
{
	struct lnet_dp *dp = &ln->ln_dp;
	u8 *buf = NULL;
	unsigned int i;
	int len, rc;

	dp->dp_ping_md.cookie = 0;
	for (i = 0; i < LNET_PUSH_BUFS; i++)
		dp->dp_push_mds[i].cookie = 0;
	len = lnet_ping_info_build(ln, &buf);
	if (len < 0)
		return len;
	rc = lnet_ping_target_set(ln, buf, (u32)len);
	if (rc)
		return rc;
	dp->dp_push_up = true;
	for (i = 0; i < LNET_PUSH_BUFS && !rc; i++)
		rc = lnet_push_target_post(ln, i);
	if (rc)
		lnet_ping_target_fini(ln);
	return rc;
}

void lnet_ping_target_fini(struct lnet *ln)
{
	struct lnet_dp *dp = &ln->ln_dp;
	struct lnet_handle_md ping = dp->dp_ping_md, push;
	unsigned int i;

	dp->dp_ping_md.cookie = 0;
	dp->dp_ping_buf = NULL;
	dp->dp_ping_len = 0;
	dp->dp_push_up = false;		/* their unlink events post no more */
	if (ping.cookie)
		lnet_md_unlink(ln, ping);
	for (i = 0; i < LNET_PUSH_BUFS; i++) {
		push = dp->dp_push_mds[i];
		dp->dp_push_mds[i].cookie = 0;
		if (push.cookie)
			lnet_md_unlink(ln, push);
	}
	lnet_push_flush(ln);
}

/* ---- pinging a peer ------------------------------------------------------------- */

int lnet_ping_get(struct lnet *ln, struct lnet_md *md, const struct lnet_nid *src,
		  const struct lnet_nid *dst, bool *reported)
{
	struct lnet_handle_md h;
	int rc = lnet_md_bind(ln, md, &h);

	if (rc) {
		lnet_obj_free(ln, md->user_ptr);
		return rc;
	}
	rc = lnet_get(ln, src, h, dst, LNET_PID_LUSTRE, LNET_RESERVED_PORTAL,
		      LNET_PROTO_PING_MATCHBITS, 0, md->length);
	if (rc) {
		/* no event will report it: the unlink event frees the op */
		*reported = true;
		if (lnet_md_unlink(ln, h) == -ENOENT)
			lnet_obj_free(ln, md->user_ptr);
	}
	return rc;
}

u64 lnet_ping_deadline(u32 timeout_ms)
{
	u64 ms = timeout_ms ? timeout_ms : LNET_PING_TIMEOUT_DEF_MS;

	return os_now_ns() + ms * 1000000ULL;
}

int lnet_ping_reply_decode(const struct lnet_wait_op *op,
				  struct lnet_ping_info **out)
{
	struct lnet_ping_info *pi = lnet_ping_info_alloc(LNET_PING_MAX_NIS);
	int rc;

	if (!pi)
		return -ENOMEM;
	rc = lnet_ping_info_decode(op->buf, op->mlength, pi, LNET_PING_MAX_NIS);
	if (rc <= 0) {
		os_free(pi);
		return rc == -ENOMEM ? rc : -EPROTO;
	}
	*out = pi;
	return 0;
}

int lnet_ping_fetch(struct lnet *ln, const struct lnet_nid *dst,
		    const struct lnet_nid *src, u64 deadline_ns,
		    struct lnet_ping_info **pi)
{
	struct lnet_wait_op *op;
	struct lnet_handle_md h;
	int rc;

	if (!ln->ln_configured || !ln->ln_dp.dp_ping_md.cookie)
		return -ENETDOWN;
	op = lnet_wait_op_alloc(ln, LNET_PING_INFO_MAX_LEN);
	if (!op)
		return -ENOMEM;
	rc = lnet_wait_op_bind(ln, op, 1, &h);	/* one GET */
	if (rc) {
		lnet_obj_free(ln, op);
		return rc;
	}
	rc = lnet_get(ln, src, h, dst, LNET_PID_LUSTRE, LNET_RESERVED_PORTAL,
		      LNET_PROTO_PING_MATCHBITS, 0, op->len);
	if (!rc)
		rc = lnet_wait_op_wait(ln, op, deadline_ns);
	if (!rc)
		rc = lnet_ping_reply_decode(op, pi);
	lnet_wait_op_release(ln, op, h);
	return rc;
}

void lnet_ping_result_fill(struct lnet *ln, const struct lnet_nid *dst,
			   const struct lnet_ping_info *pi,
			   struct lnet_ping_result *res)
{
	struct lnet_peer *lp = lnet_peer_find(ln, dst);
	u32 i;

	memset(res, 0, sizeof(*res));
	/* As Lustre: what we know of the peer, not what the reply says. */
	res->primary = lp ? lp->lp_primary_nid : *dst;
	res->multi_rail = lp && (lp->lp_state & LNET_PEER_S_MULTI_RAIL);
	for (i = 0; i < pi->pi_nnis && res->nnids < LNET_PING_MAX_NIS; i++) {
		const struct lnet_nid *nid = &pi->pi_ni[i].ns_nid;

		if (lnet_nid_is_zero(nid) || lnet_nid_is_lo(nid))
			continue;
		res->nids[res->nnids++] = *nid;
	}
}

int lnet_ping(struct lnet *ln, const struct lnet_nid *dst, const struct lnet_nid *src,
	      u32 timeout_ms, struct lnet_ping_result *res)
{
	struct lnet_ping_info *pi = NULL;
	struct lnet_nid prim = *dst;
	int rc;

	rc = lnet_ping_fetch(ln, dst, src, lnet_ping_deadline(timeout_ms), &pi);
	if (rc)
		return rc;
	/* Ourselves: this node as its own peer, as a discover makes it. */
	if (!lnet_nid_is_lo(dst) && lnet_ni_find(ln, dst))
		rc = lnet_peer_merge_ping(ln, dst, pi, &prim);
	if (!rc)
		lnet_ping_result_fill(ln, &prim, pi, res);
	os_free(pi);
	return rc;
}
