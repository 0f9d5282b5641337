// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz lnetd's request reader (lnetd/request.c, the framing of lnetd.h)
 * with the bytes a client could write on its socket. The first byte of an
 * input says how the socket hands them over (as much as asked for each
 * time, or pieces of 1 byte up to a few KiB); the rest is the stream. The
 * framer must cut it exactly where a plain reading of lnetd.h does: each
 * request its u32 cmd and ioc_len bytes from its struct lnet_ioc_hdr on,
 * an ioc_len out of range refused once its 12-byte head is in (and
 * nothing read after it), a stream that ends early reported as a request
 * begun. Each complete request then goes where lnetd's workers send it,
 * lnet_ioctl(), as a show-only caller (may_modify false: nothing may
 * change, which is checked) on an instance built once. PING_PEER is
 * skipped: it waits on the network. Any breach aborts.
 */
#include <stdint.h>
#include <stdlib.h>

#include "../../lnetd/lnetd.h"
#include "../../kernel/core/lnet.h"
#include "../../kernel/builtin/builtin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HEAD_LEN	(LNETD_REQ_HEAD + sizeof(struct lnet_ioc_hdr))

static void must(bool ok)
{
	if (!ok)
		abort();
}

static int fake_if_lookup(const char *ifname, struct os_ifaddr *out)
{
	memset(out, 0, sizeof(*out));
	out->addr_len = 4;
	out->up = true;
	out->addr[0] = 10;
	if (!strcmp(ifname, "eth0"))
		out->addr[3] = 1;
	else if (!strcmp(ifname, "eth1"))
		out->addr[3] = 2;
	else
		return -ENODEV;
	return 0;
}

static int fake_if_name(u32 index, char *name)
{
	if (index < 1 || index > 2)
		return -ENODEV;
	snprintf(name, LNET_IFNAME_LEN, "eth%u", index - 1);
	return 0;
}

static struct lnet_nid nid4(u32 net_id, u8 d)
{
	u8 addr[4] = { 10, 0, 0, d };
	struct lnet_nid nid;

	lnet_nid_make(&nid, net_id, addr, 4);
	return nid;
}

/* Two NIs, a peer on two nets, a route: something for every show. */
static struct lnet *world(void)
{
	static struct lnet ln;
	static bool up;
	u32 tcp = LNET_NET_ID(LNET_LND_TCP, 0), o2ib = LNET_NET_ID(LNET_LND_O2IB, 0);
	struct lnet_nid p = nid4(tcp, 10), q = nid4(o2ib, 10), gw = nid4(tcp, 100);

	if (up)
		return &ln;
	if (!os_log_file)
		os_log_file = fopen("/dev/null", "w");
	lnet_init(&ln);
	must(!lnet_builtin_register(&ln));
	ln.ln_if_lookup = fake_if_lookup;
	ln.ln_if_name = fake_if_name;
	os_mutex_lock(&ln.ln_api_mutex);
	must(!lnet_configure(&ln));
	/* nothing timed changes the instance between inputs */
	must(!lnet_global_set(&ln, LNET_GLOBAL_HEALTH_SENSITIVITY, 0));
	must(!lnet_global_set(&ln, LNET_GLOBAL_ALIVE_ROUTER_CHECK_INTERVAL, 0));
	must(!lnet_global_set(&ln, LNET_GLOBAL_DISCOVERY, 0));
	must(!lnet_ni_add(&ln, tcp, "eth0", NULL));
	must(!lnet_ni_add(&ln, o2ib, "eth1", NULL));
	must(!lnet_peer_ni_add(&ln, &p, &p, 0));
	must(!lnet_peer_ni_add(&ln, &p, &q, 0));
	must(!lnet_route_add(&ln, LNET_NET_ID(LNET_LND_TCP, 5), &gw, 1, 0));
	os_mutex_unlock(&ln.ln_api_mutex);
	up = true;
	return &ln;
}

/* What lnetd.h says the stream holds from @off on. */
enum expect { EXP_REQUEST, EXP_BAD_LEN, EXP_END, EXP_CUT };

static enum expect expect_at(const u8 *s, size_t left, u32 *cmd, u32 *len)
{
	struct lnet_ioc_hdr hdr;

	if (!left)
		return EXP_END;
	if (left < HEAD_LEN)
		return EXP_CUT;
	memcpy(cmd, s, LNETD_REQ_HEAD);
	memcpy(&hdr, s + LNETD_REQ_HEAD, sizeof(hdr));
	*len = hdr.ioc_len;
	if (hdr.ioc_len < sizeof(hdr) || hdr.ioc_len > LNET_IOC_MAX_LEN)
		return EXP_BAD_LEN;
	return left - LNETD_REQ_HEAD < hdr.ioc_len ? EXP_CUT : EXP_REQUEST;
}

/* The socket: how many bytes the next recv() gives (@seed 0: all asked). */
static size_t piece(u32 *seed, size_t want, size_t left)
{
	static const size_t sizes[] = { 1, 2, 3, 4, 5, 7, 8, 11, 12, 13, 16, 64, 4096 };
	size_t n = want < left ? want : left;
	size_t k;

	if (!*seed)
		return n;
	*seed ^= *seed << 13;
	*seed ^= *seed >> 17;
	*seed ^= *seed << 5;
	k = sizes[*seed % (sizeof(sizes) / sizeof(sizes[0]))];
	return k < n ? k : n;
}

/* A complete request, as a worker runs it for a show-only caller. */
static void dispatch(struct lnet *ln, const struct lnetd_req *r)
{
	struct lnet_ioc_hdr before, after;
	s64 nobjects = ln->ln_nobjects;
	u32 npeer_nis = ln->ln_npeer_nis;
	int rc;

	if (r->cmd == IOC_LIBCFS_PING_PEER)
		return;
	memcpy(&before, r->buf, sizeof(before));
	rc = lnet_ioctl(ln, r->cmd, r->buf, r->len, false);
	memcpy(&after, r->buf, sizeof(after));
	must(rc <= 0 && rc > -4096);
	/* the reply is the same ioc_len bytes; nothing changed */
	must(!memcmp(&before, &after, sizeof(before)));
	os_mutex_lock(&ln->ln_api_mutex);
	must(ln->ln_nobjects == nobjects && ln->ln_npeer_nis == npeer_nis);
	os_mutex_unlock(&ln->ln_api_mutex);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lnet *ln = world();
	struct lnetd_req r = { .buf = NULL };
	const u8 *s = data + 1;
	size_t left, off = 0, want, n;
	u32 seed, cmd = 0, len = 0;
	enum expect e;
	u8 *to;
	int rc = 0;

	if (!size)
		return 0;
	seed = data[0] ? 0x9e3779b9U * data[0] : 0;
	left = size - 1;
	for (;;) {
		size_t start = off;

		e = expect_at(s + off, left - off, &cmd, &len);
		/* one request: read until the framer says what it is */
		do {
			to = lnetd_req_next(&r, &want);
			must(want > 0);
			n = piece(&seed, want, left - off);
			if (!n)
				break;		/* the client closed */
			memcpy(to, s + off, n);
			off += n;
			rc = lnetd_req_got(&r, n);
		} while (rc == 0);
		if (!n) {
			must(e == EXP_END || e == EXP_CUT);
			must(lnetd_req_started(&r) == (e == EXP_CUT));
			break;
		}
		if (rc == -EINVAL) {
			must(e == EXP_BAD_LEN && off - start == HEAD_LEN && r.len == len);
			break;
		}
		must(rc == 1 && e == EXP_REQUEST);
		must(r.cmd == cmd && r.len == len && r.got == len);
		must(off - start == LNETD_REQ_HEAD + len);
		must(!memcmp(r.buf, s + start + LNETD_REQ_HEAD, len));
		dispatch(ln, &r);
		lnetd_req_reset(&r);
	}
	lnetd_req_reset(&r);
	return 0;
}
