// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Lustre socket LND wire format: encoders and decoders between the
 * little-endian bytes on a TCP connection and the host-order structures of
 * lnet_wire.h. Portable (os.h only): built into lnetd and into lnet.ko.
 *
 * Decoders are fed by peers we do not trust. They read nothing beyond
 * @len and look at the bytes in the order a socket delivers them: the
 * magic as soon as 4 bytes are there, then the version, then the rest. So
 * a caller holding only the first bytes of a connection already learns
 * -EPROTO for a stranger, and -EMSGSIZE means "good so far, need more".
 */
#include "lnet_wire.h"

/* --- NIDs ------------------------------------------------------------------ */

/* A 4-byte address in network order as the host-order u32 of the wire. */
static u32 addr4_to_u32(const u8 *a)
{
	return (u32)a[0] << 24 | (u32)a[1] << 16 | (u32)a[2] << 8 | a[3];
}

int lnet_nid_to_wire(const struct lnet_nid *nid, u64 *out)
{
	if (nid->nid_addr_len == 0) {
		*out = 0;
		return 0;
	}
	if (nid->nid_addr_len != 4)
		return -EAFNOSUPPORT;
	*out = (u64)LNET_NET_ID(nid->nid_lnd, nid->nid_netnum) << 32 |
	       addr4_to_u32(nid->nid_addr);
	return 0;
}

/*
 * struct lnet_nid holds an 8-bit LND: a wider one from the wire is cut to
 * its low byte first, so that decode -> encode -> decode is stable (and a
 * value that becomes 0 is the empty NID, as 0 itself).
 */
void lnet_nid_from_wire(u64 w, struct lnet_nid *nid)
{
	u32 net_id, a = (u32)w;
	u8 addr[4] = { (u8)(a >> 24), (u8)(a >> 16), (u8)(a >> 8), (u8)a };

	w &= ~(0xff00ULL << 48);
	net_id = (u32)(w >> 32);
	if (w == 0) {
		memset(nid, 0, sizeof(*nid));
		return;
	}
	/* lo has a single NID whatever number and address a peer wrote */
	if (LNET_NET_LND(net_id) == LNET_LND_LO) {
		memset(addr, 0, sizeof(addr));
		net_id = LNET_NET_ID(LNET_LND_LO, 0);
	}
	lnet_nid_make(nid, net_id, addr, 4);
}

bool lnet_nid_is_nid4(const struct lnet_nid *nid)
{
	return nid->nid_addr_len == 0 || nid->nid_addr_len == 4;
}

void lnet_nid16_put(u8 *p, const struct lnet_nid *nid)
{
	memset(p, 0, LNET_WIRE_NID16_LEN);
	if (nid->nid_addr_len == 0)
		return;
	p[0] = (u8)(nid->nid_addr_len - 4);
	p[1] = nid->nid_lnd;
	p[2] = (u8)(nid->nid_netnum >> 8);
	p[3] = (u8)nid->nid_netnum;
	memcpy(p + 4, nid->nid_addr, nid->nid_addr_len);
}

/*
 * A 4-byte address goes through the 8-byte form's rules, so that both
 * forms give one NID for the same bytes (empty, 0@lo canonical); the 12
 * bytes after it are not looked at (we write them zero).
 */
int lnet_nid16_get(const u8 *p, struct lnet_nid *nid)
{
	u32 net_id = LNET_NET_ID(p[1], (u32)p[2] << 8 | p[3]);

	if (p[0] == 0) {
		lnet_nid_from_wire((u64)net_id << 32 | addr4_to_u32(p + 4), nid);
		return 0;
	}
	memset(nid, 0, sizeof(*nid));
	if (p[0] != 12 || !lnet_lnd_is_ip(p[1]))
		return -EPROTO;
	lnet_nid_make(nid, net_id, p + 4, 16);
	return 0;
}

static int put_nid(u8 *p, const struct lnet_nid *nid)
{
	u64 w;
	int rc = lnet_nid_to_wire(nid, &w);

	if (!rc)
		lnet_put_le64(p, w);
	return rc;
}

static void get_nid(const u8 *p, struct lnet_nid *nid)
{
	lnet_nid_from_wire(lnet_get_le64(p), nid);
}

/*
 * The opening of an acceptor request or a hello: @magic, then the version,
 * each stored and checked as soon as its 4 bytes are there (@size_of
 * gives a known version's length, 0 for an unknown one); then 0 once the
 * whole record is.
 */
static int get_magic_version(const u8 *buf, size_t len, u32 magic,
			     size_t (*size_of)(u32 version),
			     u32 *magic_out, u32 *version_out)
{
	size_t full;

	if (len < 4)
		return -EMSGSIZE;
	*magic_out = lnet_get_le32(buf);
	if (*magic_out != magic)
		return -EPROTO;
	if (len < 8)
		return -EMSGSIZE;
	*version_out = lnet_get_le32(buf + 4);
	full = size_of(*version_out);
	if (!full)
		return -EPROTO;
	return len < full ? -EMSGSIZE : 0;
}

/* --- acceptor request --------------------------------------------------------- */

size_t lnet_acceptor_req_size(u32 version)
{
	if (version == LNET_PROTO_ACCEPTOR_VERSION)
		return LNET_WIRE_ACCEPT_LEN;
	if (version == LNET_PROTO_ACCEPTOR_VERSION_16)
		return LNET_WIRE_ACCEPT16_LEN;
	return 0;
}

u32 lnet_acceptor_req_version(const struct lnet_nid *nid)
{
	return lnet_nid_is_nid4(nid) ? LNET_PROTO_ACCEPTOR_VERSION :
				       LNET_PROTO_ACCEPTOR_VERSION_16;
}

int lnet_acceptor_req_encode(const struct lnet_acceptor_req *r, u8 *buf)
{
	size_t len = lnet_acceptor_req_size(r->acr_version);

	if (!len)
		return -EPROTO;
	memset(buf, 0, len);
	lnet_put_le32(buf, r->acr_magic);
	lnet_put_le32(buf + 4, r->acr_version);
	if (r->acr_version == LNET_PROTO_ACCEPTOR_VERSION_16) {
		lnet_nid16_put(buf + 8, &r->acr_nid);
		return 0;
	}
	return put_nid(buf + 8, &r->acr_nid);
}

int lnet_acceptor_req_decode(const u8 *buf, size_t len,
			     struct lnet_acceptor_req *r)
{
	int rc;

	memset(r, 0, sizeof(*r));
	/* a byte-swapped magic (big-endian peer) is refused like any other */
	rc = get_magic_version(buf, len, LNET_PROTO_ACCEPTOR_MAGIC,
			       lnet_acceptor_req_size, &r->acr_magic, &r->acr_version);
	if (rc)
		return rc;
	if (r->acr_version == LNET_PROTO_ACCEPTOR_VERSION_16)
		return lnet_nid16_get(buf + 8, &r->acr_nid);
	get_nid(buf + 8, &r->acr_nid);
	return 0;
}

/* --- hello ------------------------------------------------------------------------ */

/*
 * Where a hello's fields are: after magic and version come the two NIDs
 * (8 bytes each in V3, 20 in V4), then the same 32 bytes in both.
 * kshm_nips is written as given: the hellos we send have none, and a
 * caller sending IPs (V3 only) writes them after these bytes.
 */
#define HELLO_NIDS	8
#define HELLO_SRC_PID	0	/* from the end of the NIDs */
#define HELLO_DST_PID	4
#define HELLO_SRC_INC	8
#define HELLO_DST_INC	16
#define HELLO_CTYPE	24
#define HELLO_NIPS	28

size_t lnet_hello_size(u32 version)
{
	if (version == KSOCK_PROTO_V3)
		return LNET_WIRE_HELLO_LEN;
	if (version == KSOCK_PROTO_V4)
		return LNET_WIRE_HELLO_V4_LEN;
	return 0;
}

static size_t hello_nid_len(u32 version)
{
	return version == KSOCK_PROTO_V4 ? LNET_WIRE_NID16_LEN : LNET_WIRE_NID4_LEN;
}

int lnet_hello_encode(const struct ksock_hello *h, u8 *buf)
{
	size_t len = lnet_hello_size(h->kshm_version);
	size_t nl = hello_nid_len(h->kshm_version);
	u8 *t = buf + HELLO_NIDS + 2 * nl;
	int rc = 0;

	if (!len)
		return -EPROTO;
	memset(buf, 0, len);
	lnet_put_le32(buf, h->kshm_magic);
	lnet_put_le32(buf + 4, h->kshm_version);
	if (h->kshm_version == KSOCK_PROTO_V4) {
		lnet_nid16_put(buf + HELLO_NIDS, &h->kshm_src_nid);
		lnet_nid16_put(buf + HELLO_NIDS + nl, &h->kshm_dst_nid);
	} else {
		rc = put_nid(buf + HELLO_NIDS, &h->kshm_src_nid);
		if (!rc)
			rc = put_nid(buf + HELLO_NIDS + nl, &h->kshm_dst_nid);
	}
	lnet_put_le32(t + HELLO_SRC_PID, h->kshm_src_pid);
	lnet_put_le32(t + HELLO_DST_PID, h->kshm_dst_pid);
	lnet_put_le64(t + HELLO_SRC_INC, h->kshm_src_incarnation);
	lnet_put_le64(t + HELLO_DST_INC, h->kshm_dst_incarnation);
	lnet_put_le32(t + HELLO_CTYPE, (u32)h->kshm_ctype);
	lnet_put_le32(t + HELLO_NIPS, h->kshm_nips);
	return rc;
}

/* SOCKLND_CONN_NONE (an acceptor refusing) up to SOCKLND_CONN_BULK_OUT. */
static bool ctype_known(s32 t)
{
	return t >= SOCKLND_CONN_NONE && t <= SOCKLND_CONN_BULK_OUT;
}

/* The hello's NIDs in its version's form. */
static int hello_get_nids(const u8 *buf, struct ksock_hello *h)
{
	int rc;

	if (h->kshm_version != KSOCK_PROTO_V4) {
		get_nid(buf + HELLO_NIDS, &h->kshm_src_nid);
		get_nid(buf + HELLO_NIDS + LNET_WIRE_NID4_LEN, &h->kshm_dst_nid);
		return 0;
	}
	rc = lnet_nid16_get(buf + HELLO_NIDS, &h->kshm_src_nid);
	if (!rc)
		rc = lnet_nid16_get(buf + HELLO_NIDS + LNET_WIRE_NID16_LEN,
				    &h->kshm_dst_nid);
	return rc;
}

int lnet_hello_decode(const u8 *buf, size_t len, struct ksock_hello *h)
{
	u32 max_ips;
	const u8 *t;
	int rc;

	memset(h, 0, sizeof(*h));
	/* v1 hellos (LNET_PROTO_TCP_MAGIC) and swapped magics end here too */
	rc = get_magic_version(buf, len, LNET_PROTO_MAGIC, lnet_hello_size,
			       &h->kshm_magic, &h->kshm_version);
	if (rc)
		return rc;
	t = buf + HELLO_NIDS + 2 * hello_nid_len(h->kshm_version);
	h->kshm_src_pid = lnet_get_le32(t + HELLO_SRC_PID);
	h->kshm_dst_pid = lnet_get_le32(t + HELLO_DST_PID);
	h->kshm_src_incarnation = lnet_get_le64(t + HELLO_SRC_INC);
	h->kshm_dst_incarnation = lnet_get_le64(t + HELLO_DST_INC);
	h->kshm_ctype = (s32)lnet_get_le32(t + HELLO_CTYPE);
	h->kshm_nips = lnet_get_le32(t + HELLO_NIPS);
	max_ips = h->kshm_version == KSOCK_PROTO_V4 ? 0 : LNET_WIRE_HELLO_MAX_IPS;
	if (!ctype_known(h->kshm_ctype) || h->kshm_nips > max_ips)
		return -EPROTO;
	return hello_get_nids(buf, h);
}

/* --- message header ---------------------------------------------------------------- */

/*
 * Offsets from the start of the header: the socket header (24), the two
 * NIDs (8 bytes each with nid4, 20 with nid16), then 16 bytes of pids,
 * type and length, and the 40-byte type union.
 */
#define KSM_CSUM	4
#define KSM_COOKIE0	8
#define KSM_COOKIE1	16
#define HDR_DEST_NID	24
#define HDR_DEST_PID	0	/* from the end of the NIDs */
#define HDR_SRC_PID	4
#define HDR_TYPE	8
#define HDR_PAYLOAD_LEN	12
#define HDR_MSG		16

/* PUT and ACK, GET and REPLY: the handle comes first in every union member. */
static void put_wmd(u8 *p, const struct lnet_handle_wire *wh)
{
	lnet_put_le64(p, wh->wh_interface_cookie);
	lnet_put_le64(p + 8, wh->wh_object_cookie);
}

static void get_wmd(const u8 *p, struct lnet_handle_wire *wh)
{
	wh->wh_interface_cookie = lnet_get_le64(p);
	wh->wh_object_cookie = lnet_get_le64(p + 8);
}

static void put_msg_union(u8 *p, const struct lnet_hdr *h)
{
	switch (h->type) {
	case LNET_MSG_ACK:
		put_wmd(p, &h->msg.ack.dst_wmd);
		lnet_put_le64(p + 16, h->msg.ack.match_bits);
		lnet_put_le32(p + 24, h->msg.ack.mlength);
		break;
	case LNET_MSG_PUT:
		put_wmd(p, &h->msg.put.ack_wmd);
		lnet_put_le64(p + 16, h->msg.put.match_bits);
		lnet_put_le64(p + 24, h->msg.put.hdr_data);
		lnet_put_le32(p + 32, h->msg.put.ptl_index);
		lnet_put_le32(p + 36, h->msg.put.offset);
		break;
	case LNET_MSG_GET:
		put_wmd(p, &h->msg.get.return_wmd);
		lnet_put_le64(p + 16, h->msg.get.match_bits);
		lnet_put_le32(p + 24, h->msg.get.ptl_index);
		lnet_put_le32(p + 28, h->msg.get.src_offset);
		lnet_put_le32(p + 32, h->msg.get.sink_length);
		break;
	case LNET_MSG_REPLY:
		put_wmd(p, &h->msg.reply.dst_wmd);
		break;
	case LNET_MSG_HELLO:
		lnet_put_le64(p, h->msg.hello.incarnation);
		lnet_put_le32(p + 8, h->msg.hello.type);
		break;
	}
}

static void get_msg_union(const u8 *p, struct lnet_hdr *h)
{
	switch (h->type) {
	case LNET_MSG_ACK:
		get_wmd(p, &h->msg.ack.dst_wmd);
		h->msg.ack.match_bits = lnet_get_le64(p + 16);
		h->msg.ack.mlength = lnet_get_le32(p + 24);
		break;
	case LNET_MSG_PUT:
		get_wmd(p, &h->msg.put.ack_wmd);
		h->msg.put.match_bits = lnet_get_le64(p + 16);
		h->msg.put.hdr_data = lnet_get_le64(p + 24);
		h->msg.put.ptl_index = lnet_get_le32(p + 32);
		h->msg.put.offset = lnet_get_le32(p + 36);
		break;
	case LNET_MSG_GET:
		get_wmd(p, &h->msg.get.return_wmd);
		h->msg.get.match_bits = lnet_get_le64(p + 16);
		h->msg.get.ptl_index = lnet_get_le32(p + 24);
		h->msg.get.src_offset = lnet_get_le32(p + 28);
		h->msg.get.sink_length = lnet_get_le32(p + 32);
		break;
	case LNET_MSG_REPLY:
		get_wmd(p, &h->msg.reply.dst_wmd);
		break;
	case LNET_MSG_HELLO:
		h->msg.hello.incarnation = lnet_get_le64(p);
		h->msg.hello.type = lnet_get_le32(p + 8);
		break;
	}
}

static void put_ksock_hdr(u8 *buf, const struct ksock_msg_hdr *k)
{
	lnet_put_le32(buf, k->ksm_type);
	lnet_put_le32(buf + KSM_CSUM, k->ksm_csum);
	lnet_put_le64(buf + KSM_COOKIE0, k->ksm_zc_cookies[0]);
	lnet_put_le64(buf + KSM_COOKIE1, k->ksm_zc_cookies[1]);
}

/* The part after the NIDs, at @t. */
static void put_hdr_tail(u8 *t, const struct lnet_hdr *h)
{
	lnet_put_le32(t + HDR_DEST_PID, h->dest_pid);
	lnet_put_le32(t + HDR_SRC_PID, h->src_pid);
	lnet_put_le32(t + HDR_TYPE, h->type);
	lnet_put_le32(t + HDR_PAYLOAD_LEN, h->payload_length);
	put_msg_union(t + HDR_MSG, h);
}

/*
 * A NOOP is only the 24-byte socket header on the wire (Lustre sends it to
 * carry zero-copy acks); its LNet part stays zero here and is not sent.
 */
int lnet_msg_hdr_encode(const struct ksock_msg_hdr *k,
			const struct lnet_hdr *h, u8 *buf)
{
	int rc;

	memset(buf, 0, LNET_WIRE_MSG_HDR_LEN);
	put_ksock_hdr(buf, k);
	if (k->ksm_type == KSOCK_MSG_NOOP)
		return 0;
	rc = put_nid(buf + HDR_DEST_NID, &h->dest_nid);
	if (!rc)
		rc = put_nid(buf + HDR_DEST_NID + LNET_WIRE_NID4_LEN, &h->src_nid);
	put_hdr_tail(buf + HDR_DEST_NID + 2 * LNET_WIRE_NID4_LEN, h);
	return rc;
}

int lnet_msg_hdr16_encode(const struct ksock_msg_hdr *k,
			  const struct lnet_hdr *h, u8 *buf)
{
	memset(buf, 0, LNET_WIRE_MSG_HDR16_LEN);
	put_ksock_hdr(buf, k);
	if (k->ksm_type == KSOCK_MSG_NOOP)
		return 0;
	lnet_nid16_put(buf + HDR_DEST_NID, &h->dest_nid);
	lnet_nid16_put(buf + HDR_DEST_NID + LNET_WIRE_NID16_LEN, &h->src_nid);
	put_hdr_tail(buf + HDR_DEST_NID + 2 * LNET_WIRE_NID16_LEN, h);
	return 0;
}

size_t lnet_msg_hdr_size(u32 version)
{
	return version == KSOCK_PROTO_V4 ? LNET_WIRE_MSG_HDR16_LEN : LNET_WIRE_MSG_HDR_LEN;
}

/* Type and payload length of an LNet header: known type, ACK/GET/HELLO
 * carry no payload (Lustre refuses them too), nothing over LNET_MTU. */
static int hdr_check(const struct lnet_hdr *h)
{
	if (h->type > LNET_MSG_HELLO || h->payload_length > LNET_MTU)
		return -EPROTO;
	if (h->payload_length && (h->type == LNET_MSG_ACK ||
				  h->type == LNET_MSG_GET ||
				  h->type == LNET_MSG_HELLO))
		return -EPROTO;
	return 0;
}

/*
 * The socket header: 1 when it is a NOOP (complete), 0 when an LNet
 * header of @full bytes follows and is there, else -EPROTO / -EMSGSIZE.
 */
static int get_ksock_hdr(const u8 *buf, size_t len, size_t full,
			 struct ksock_msg_hdr *k)
{
	if (len < 4)
		return -EMSGSIZE;
	k->ksm_type = lnet_get_le32(buf);
	if (k->ksm_type != KSOCK_MSG_LNET && k->ksm_type != KSOCK_MSG_NOOP)
		return -EPROTO;
	if (len < LNET_WIRE_KSOCK_HDR_LEN)
		return -EMSGSIZE;
	k->ksm_csum = lnet_get_le32(buf + KSM_CSUM);
	k->ksm_zc_cookies[0] = lnet_get_le64(buf + KSM_COOKIE0);
	k->ksm_zc_cookies[1] = lnet_get_le64(buf + KSM_COOKIE1);
	if (k->ksm_type == KSOCK_MSG_NOOP)
		return 1;
	return len < full ? -EMSGSIZE : 0;
}

/* The part after the NIDs, at @t: -EPROTO for a type or length we refuse. */
static int get_hdr_tail(const u8 *t, struct lnet_hdr *h)
{
	h->dest_pid = lnet_get_le32(t + HDR_DEST_PID);
	h->src_pid = lnet_get_le32(t + HDR_SRC_PID);
	h->type = lnet_get_le32(t + HDR_TYPE);
	h->payload_length = lnet_get_le32(t + HDR_PAYLOAD_LEN);
	if (hdr_check(h))
		return -EPROTO;
	get_msg_union(t + HDR_MSG, h);
	return 0;
}

/* A header of either NID form (@nid_len 8 or 20). */
static int msg_hdr_decode(const u8 *buf, size_t len, size_t nid_len,
			  struct ksock_msg_hdr *k, struct lnet_hdr *h)
{
	const u8 *nids = buf + HDR_DEST_NID;
	int rc;

	memset(k, 0, sizeof(*k));
	memset(h, 0, sizeof(*h));
	rc = get_ksock_hdr(buf, len, LNET_WIRE_KSOCK_HDR_LEN + 2 * nid_len + 56, k);
	if (rc)
		return rc > 0 ? 0 : rc;
	rc = get_hdr_tail(nids + 2 * nid_len, h);
	if (rc || nid_len == LNET_WIRE_NID16_LEN) {
		rc = rc ? rc : lnet_nid16_get(nids, &h->dest_nid);
		rc = rc ? rc : lnet_nid16_get(nids + nid_len, &h->src_nid);
		if (rc)
			memset(h, 0, sizeof(*h));
		return rc;
	}
	get_nid(nids, &h->dest_nid);
	get_nid(nids + nid_len, &h->src_nid);
	return 0;
}

int lnet_msg_hdr_decode(const u8 *buf, size_t len, struct ksock_msg_hdr *k,
			struct lnet_hdr *h)
{
	return msg_hdr_decode(buf, len, LNET_WIRE_NID4_LEN, k, h);
}

int lnet_msg_hdr16_decode(const u8 *buf, size_t len, struct ksock_msg_hdr *k,
			  struct lnet_hdr *h)
{
	return msg_hdr_decode(buf, len, LNET_WIRE_NID16_LEN, k, h);
}

/* --- ping payload ------------------------------------------------------------------ */

/* Large entries: IPv6 NIDs (an IPv4 one always goes in a nid4 entry). */
static bool ping_ni_large(const struct lnet_ping_ni *ni)
{
	return ni->ns_nid.nid_addr_len == 16;
}

static u32 ping_nlarge(const struct lnet_ping_info *pi)
{
	u32 n = 0;

	for (u32 i = 0; i < pi->pi_nnis; i++)
		n += ping_ni_large(&pi->pi_ni[i]);
	return n;
}

static u64 ping_wire_len(u32 n4, u32 nlarge)
{
	return LNET_WIRE_PING_HDR_LEN + (u64)n4 * LNET_WIRE_PING_NI_LEN +
	       (u64)nlarge * LNET_WIRE_PING_LARGE_NI_LEN;
}

u32 lnet_ping_info_wire_len(const struct lnet_ping_info *pi)
{
	u32 nlarge = ping_nlarge(pi);
	u64 len = ping_wire_len(pi->pi_nnis - nlarge, nlarge);

	return len > 0x7fffffff ? 0x7fffffff : (u32)len;
}

/* The nid4 entries at @p, in @pi's order: how many, or -errno. */
static int ping_put_nid4s(const struct lnet_ping_info *pi, u8 *p)
{
	int rc, n = 0;

	for (u32 i = 0; i < pi->pi_nnis; i++) {
		const struct lnet_ping_ni *ni = &pi->pi_ni[i];

		if (ping_ni_large(ni))
			continue;
		rc = put_nid(p, &ni->ns_nid);
		if (rc)
			return rc;
		lnet_put_le32(p + 8, ni->ns_status);
		lnet_put_le32(p + 12, ni->ns_msg_size);
		p += LNET_WIRE_PING_NI_LEN;
		n++;
	}
	return n;
}

static void ping_put_larges(const struct lnet_ping_info *pi, u8 *p)
{
	for (u32 i = 0; i < pi->pi_nnis; i++) {
		const struct lnet_ping_ni *ni = &pi->pi_ni[i];

		if (!ping_ni_large(ni))
			continue;
		lnet_put_le32(p, ni->ns_status);
		lnet_nid16_put(p + 4, &ni->ns_nid);
		p += LNET_WIRE_PING_LARGE_NI_LEN;
	}
}

int lnet_ping_info_encode(const struct lnet_ping_info *pi, u8 *buf, size_t len)
{
	u32 nlarge = ping_nlarge(pi), features = pi->pi_features;
	u64 need = ping_wire_len(pi->pi_nnis - nlarge, nlarge);
	int n4;

	if (need > len || need > 0x7fffffff)
		return -ENOSPC;
	if (nlarge)
		features |= LNET_PING_FEAT_LARGE_ADDR;
	/* the total size lives in the first nid4 entry: there must be one */
	if ((features & LNET_PING_FEAT_LARGE_ADDR) && nlarge == pi->pi_nnis)
		return -EPROTO;
	lnet_put_le32(buf, pi->pi_magic);
	lnet_put_le32(buf + 4, features);
	lnet_put_le32(buf + 8, pi->pi_pid);
	n4 = ping_put_nid4s(pi, buf + LNET_WIRE_PING_HDR_LEN);
	if (n4 < 0)
		return n4;
	lnet_put_le32(buf + 12, (u32)n4);
	if (features & LNET_PING_FEAT_LARGE_ADDR)
		lnet_put_le32(buf + LNET_WIRE_PING_HDR_LEN + 12, (u32)need);
	ping_put_larges(pi, buf + LNET_WIRE_PING_HDR_LEN + n4 * LNET_WIRE_PING_NI_LEN);
	return (int)need;
}

static u32 wire_swab32(u32 v)
{
	return v >> 24 | (v >> 8 & 0xff00) | (v << 8 & 0xff0000) | v << 24;
}

static u32 ping_get32(const u8 *p, bool swapped)
{
	u32 v = lnet_get_le32(p);

	return swapped ? wire_swab32(v) : v;
}

static u64 ping_get64(const u8 *p, bool swapped)
{
	u64 v = lnet_get_le64(p);

	return swapped ? (u64)wire_swab32((u32)v) << 32 | wire_swab32((u32)(v >> 32)) : v;
}

/*
 * Put @ni at index @at of @pi's NIs (those after it move up): with no
 * room left (@max), the last one falls off, or @ni itself when @at is
 * past the end.
 */
static void ping_store(struct lnet_ping_info *pi, u32 max, u32 at,
		       const struct lnet_ping_ni *ni)
{
	u32 n = pi->pi_nnis < max ? pi->pi_nnis + 1 : max;

	if (at >= n)
		return;
	memmove(&pi->pi_ni[at + 1], &pi->pi_ni[at], (n - 1 - at) * sizeof(*ni));
	pi->pi_ni[at] = *ni;
	pi->pi_nnis = n;
}

/*
 * The size the payload declares: the nid4 entries' end, or with
 * LNET_PING_FEAT_LARGE_ADDR the first entry's ns_msg_size (multiple of 4,
 * not below that end). 0 for a lie.
 */
static u32 ping_declared_len(const u8 *buf, u32 features, u32 nnis, bool swapped)
{
	u32 end = LNET_WIRE_PING_HDR_LEN + nnis * LNET_WIRE_PING_NI_LEN, total;

	if (!(features & LNET_PING_FEAT_LARGE_ADDR))
		return end;
	if (!nnis)
		return 0;
	total = ping_get32(buf + LNET_WIRE_PING_HDR_LEN + 12, swapped) & ~3U;
	return total < end ? 0 : total;
}

static void ping_get_nid4s(const u8 *p, u32 nnis, bool swapped,
			   struct lnet_ping_info *pi, u32 max_nis)
{
	struct lnet_ping_ni ni;

	for (u32 i = 0; i < nnis && i < max_nis; i++, p += LNET_WIRE_PING_NI_LEN) {
		lnet_nid_from_wire(ping_get64(p, swapped), &ni.ns_nid);
		ni.ns_status = ping_get32(p + 8, swapped);
		ni.ns_msg_size = ping_get32(p + 12, swapped);
		ping_store(pi, max_nis, pi->pi_nnis, &ni);
	}
}

/* The large entries from @p to @end: 0 or -EPROTO (not 24-byte IPv6 ones). */
static int ping_get_larges(const u8 *p, const u8 *end, bool swapped,
			   struct lnet_ping_info *pi, u32 max_nis)
{
	bool primary = pi->pi_features & LNET_PING_FEAT_PRIMARY_LARGE;
	struct lnet_ping_ni ni = { .ns_msg_size = 0 };
	bool first = true;

	for (; p < end; p += LNET_WIRE_PING_LARGE_NI_LEN) {
		if (end - p < LNET_WIRE_PING_LARGE_NI_LEN || p[4] != 12)
			return -EPROTO;
		ni.ns_status = ping_get32(p, swapped);
		if (lnet_nid16_get(p + 4, &ni.ns_nid))
			return -EPROTO;
		/* the sender's primary goes where a nid4 primary is: after 0@lo */
		ping_store(pi, max_nis, primary && first && pi->pi_nnis ? 1 : pi->pi_nnis, &ni);
		first = false;
	}
	return 0;
}

/*
 * NIs beyond @max_nis are not stored: pi_nnis (and the result) then say
 * how many were, so a caller never walks past its array. With large
 * entries, the first NI's ns_msg_size is set to the size of what was
 * stored (what encoding @pi gives back).
 */
int lnet_ping_info_decode(const u8 *buf, size_t len, struct lnet_ping_info *pi,
			  u32 max_nis)
{
	u32 nnis, total;
	bool swapped;
	int rc;

	memset(pi, 0, sizeof(*pi));
	if (len < 4)
		return -EMSGSIZE;
	pi->pi_magic = lnet_get_le32(buf);
	swapped = pi->pi_magic == wire_swab32(LNET_PROTO_PING_MAGIC);
	if (pi->pi_magic != LNET_PROTO_PING_MAGIC && !swapped)
		return -EPROTO;
	pi->pi_magic = LNET_PROTO_PING_MAGIC;
	if (len < LNET_WIRE_PING_HDR_LEN)
		return -EMSGSIZE;
	pi->pi_features = ping_get32(buf + 4, swapped);
	pi->pi_pid = ping_get32(buf + 8, swapped);
	nnis = ping_get32(buf + 12, swapped);
	if (nnis > LNET_PING_MAX_NIS)
		return -EPROTO;
	if (len < LNET_WIRE_PING_HDR_LEN + (size_t)nnis * LNET_WIRE_PING_NI_LEN)
		return -EMSGSIZE;
	total = ping_declared_len(buf, pi->pi_features, nnis, swapped);
	if (!total)
		return -EPROTO;
	if (len < total)
		return -EMSGSIZE;
	ping_get_nid4s(buf + LNET_WIRE_PING_HDR_LEN, nnis, swapped, pi, max_nis);
	rc = ping_get_larges(buf + LNET_WIRE_PING_HDR_LEN + nnis * LNET_WIRE_PING_NI_LEN,
			     buf + total, swapped, pi, max_nis);
	if (rc) {
		pi->pi_nnis = 0;
		return rc;
	}
	if ((pi->pi_features & LNET_PING_FEAT_LARGE_ADDR) && pi->pi_nnis)
		pi->pi_ni[0].ns_msg_size = lnet_ping_info_wire_len(pi);
	return (int)pi->pi_nnis;
}

const char *lnet_msg_type_name(u32 type)
{
	static const char *const names[] = {
		[LNET_MSG_ACK] = "ACK",
		[LNET_MSG_PUT] = "PUT",
		[LNET_MSG_GET] = "GET",
		[LNET_MSG_REPLY] = "REPLY",
		[LNET_MSG_HELLO] = "HELLO",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "?";
}
