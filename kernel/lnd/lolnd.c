// SPDX-License-Identifier: GPL-2.0-only
/*
 * lolnd: the LND of 0@lo, which also carries messages to our own NIDs.
 * A send is delivered at once, inside lnd_send, through the locked entry
 * points: the receiver's payload is copied from the sender's buffer in
 * lnd_recv (private = the message being sent). It holds nothing between
 * calls, so it has no lnd_shutdown (and the core keeps the lock then).
 */
#include "lolnd.h"

static int lolnd_startup(struct lnet *ln, struct lnet_ni *ni)
{
	ni->ni_lnd_data = ln;
	return 0;
}

static int lolnd_send(struct lnet_ni *ni, struct lnet_msg *msg)
{
	struct lnet *ln = ni->ni_lnd_data;
	int rc;

	rc = lnet_parse_locked(ln, ni, &msg->msg_hdr, &msg->msg_hdr.src_nid, msg);
	if (rc)
		return rc;
	lnet_finalize_locked(ln, msg, 0);
	return 0;
}

static int lolnd_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
		      void *buf, u32 mlen, u32 rlen)
{
	struct lnet_msg *tx = private;

	if (mlen && buf != tx->msg_buf)
		memcpy(buf, tx->msg_buf, mlen);
	if (msg)
		lnet_finalize_locked(ni->ni_lnd_data, msg, 0);
	return 0;
}

static const struct lnet_lnd lnet_lolnd = {
	.lnd_type	= LNET_LND_LO,
	.lnd_startup	= lolnd_startup,
	.lnd_send	= lolnd_send,
	.lnd_recv	= lolnd_recv,
};

int lnet_lolnd_register(struct lnet *ln)
{
	return lnet_lnd_register(ln, &lnet_lolnd);
}
