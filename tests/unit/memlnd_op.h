/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A PUT+ACK from a memlnd node and its events, for the unit tests that
 * watch single messages (test_health.c, test_discovery_send.c).
 */
#ifndef LNET_TEST_MEMLND_OP_H
#define LNET_TEST_MEMLND_OP_H

#include "memlnd.h"

struct memlnd_op {
	struct memlnd_node *n;
	struct lnet_handle_md h;
	u8 buf[64];
	int nsend, nack, nerr, nfinal;
	int send_status;	/* of the SEND event */
	int status;		/* of the final event */
	bool unlinked;
};

/* The final event: the ACK, or the one event that carries a failure. */
static inline void memlnd_op_event(struct lnet *ln, struct lnet_event *ev)
{
	struct memlnd_op *op = ev->md_user_ptr;

	(void)ln;
	if (ev->type == LNET_EVENT_SEND) {
		op->nsend++;
		op->send_status = ev->status;
	}
	if (ev->type == LNET_EVENT_ACK)
		op->nack++;
	if (ev->status)
		op->nerr++;
	if (ev->type == LNET_EVENT_ACK || (ev->status && ev->type != LNET_EVENT_UNLINK)) {
		op->nfinal++;
		op->status = ev->status;
	}
	if (ev->unlinked)
		op->unlinked = true;
}

/* With @n's lock held: PUT op->buf to @dst, ACK wanted; lnet_put's result. */
static inline int memlnd_op_put_locked(struct memlnd_op *op, struct memlnd_node *n,
				       const char *dst, u32 portal, u64 bits)
{
	struct lnet_nid d = memlnd_nid(dst);
	struct lnet_md md = {
		.length = sizeof(op->buf), .threshold = 1,
		.user_ptr = op, .handler = memlnd_op_event,
	};
	int rc;

	memset(op, 0, sizeof(*op));
	op->n = n;
	md.start = op->buf;
	rc = lnet_md_bind(&n->ln, &md, &op->h);
	if (rc)
		return rc;
	return lnet_put(&n->ln, NULL, op->h, true, &d, LNET_PID_LUSTRE,
			portal, bits, 0, sizeof(op->buf), 0);
}

static inline bool memlnd_op_final(void *arg)
{
	struct memlnd_op *op = arg;
	bool f;

	os_mutex_lock(&op->n->ln.ln_api_mutex);
	f = op->nfinal > 0;
	os_mutex_unlock(&op->n->ln.ln_api_mutex);
	return f;
}

static inline bool memlnd_op_unlinked(void *arg)
{
	struct memlnd_op *op = arg;
	bool u;

	os_mutex_lock(&op->n->ln.ln_api_mutex);
	u = op->unlinked;
	os_mutex_unlock(&op->n->ln.ln_api_mutex);
	return u;
}

/* Wait for the final event and for the MD to go (unlinked if needed):
 * false when either does not come within @ms. */
static inline bool memlnd_op_wait(struct memlnd_op *op, long ms)
{
	if (!memlnd_wait(memlnd_op_final, op, ms))
		return false;
	os_mutex_lock(&op->n->ln.ln_api_mutex);
	if (!op->unlinked)
		lnet_md_unlink(&op->n->ln, op->h);
	os_mutex_unlock(&op->n->ln.ln_api_mutex);
	return memlnd_wait(memlnd_op_unlinked, op, 1000);
}

#endif /* LNET_TEST_MEMLND_OP_H */
