// SPDX-License-Identifier: GPL-2.0-only
/*
 * The request framing of lnetd.h without the socket: the fixed head (cmd
 * and struct lnet_ioc_hdr) first, its ioc_len checked before anything
 * else is read, then the rest of the ioctl buffer. server.c does the
 * reads; tests/fuzz/fuzz_lnetd_request.c feeds it byte streams.
 */
#include "lnetd.h"

u8 *lnetd_req_next(struct lnetd_req *r, size_t *want)
{
	if (!r->buf) {
		*want = sizeof(r->head) - r->head_got;
		return r->head + r->head_got;
	}
	*want = r->len - r->got;
	return r->buf + r->got;
}

/* The head is in: check ioc_len, then room for the whole buffer. */
static int lnetd_req_start(struct lnetd_req *r)
{
	struct lnet_ioc_hdr hdr;

	memcpy(&r->cmd, r->head, LNETD_REQ_HEAD);
	memcpy(&hdr, r->head + LNETD_REQ_HEAD, sizeof(hdr));
	r->len = hdr.ioc_len;
	if (hdr.ioc_len < sizeof(hdr) || hdr.ioc_len > LNET_IOC_MAX_LEN)
		return -EINVAL;
	r->buf = malloc(hdr.ioc_len);
	if (!r->buf)
		return -ENOMEM;
	memcpy(r->buf, &hdr, sizeof(hdr));
	r->got = sizeof(hdr);
	return 0;
}

int lnetd_req_got(struct lnetd_req *r, size_t n)
{
	int rc;

	if (!r->buf) {
		r->head_got += n;
		if (r->head_got < sizeof(r->head))
			return 0;
		rc = lnetd_req_start(r);
		if (rc)
			return rc;
	} else {
		r->got += n;
	}
	return r->got == r->len;
}

bool lnetd_req_started(const struct lnetd_req *r)
{
	return r->head_got || r->buf;
}

void lnetd_req_reset(struct lnetd_req *r)
{
	free(r->buf);
	r->buf = NULL;
	r->len = r->got = 0;
	r->head_got = 0;
}
