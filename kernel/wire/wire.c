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
 * The opening of an acceptor request or a hello: @magic, then @version,
 * each stored and checked as soon as its 4 bytes are there; then 0 once
 * the whole @full bytes are.
 */
static int get_magic_version(const u8 *buf, size_t len, u32 magic, u32 version,
			     size_t full, u32 *magic_out, u32 *version_out)
{
	if (len < 4)
		return -EMSGSIZE;
	*magic_out = lnet_get_le32(buf);
	if (*magic_out != magic)
		return -EPROTO;
	if (len < 8)
		return -EMSGSIZE;
	*version_out = lnet_get_le32(buf + 4);
	if (*version_out != version)
		return -EPROTO;
	return len < full ? -EMSGSIZE : 0;
}

/* --- acceptor request --------------------------------------------------------- */

int lnet_acceptor_req_encode(const struct lnet_acceptor_req *r, u8 *buf)
{
	memset(buf, 0, LNET_WIRE_ACCEPT_LEN);
	lnet_put_le32(buf, r->acr_magic);
	lnet_put_le32(buf + 4, r->acr_version);
	return put_nid(buf + 8, &r->acr_nid);
}

int lnet_acceptor_req_decode(const u8 *buf, size_t len,
			     struct lnet_acceptor_req *r)
{
	int rc;

	memset(r, 0, sizeof(*r));
	/* a byte-swapped magic (big-endian peer) is refused like any other */
	rc = get_magic_version(buf, len, LNET_PROTO_ACCEPTOR_MAGIC,
			       LNET_PROTO_ACCEPTOR_VERSION, LNET_WIRE_ACCEPT_LEN,
			       &r->acr_magic, &r->acr_version);
	if (rc)
		return rc;
	get_nid(buf + 8, &r->acr_nid);
	return 0;
}

/* --- hello ------------------------------------------------------------------------ */

/*
 * Offsets in the 56-byte hello. kshm_nips is written as given: the hellos
 * we send have none, and a caller sending IPs writes them after these bytes.
 */
#define HELLO_SRC_NID	8
#define HELLO_DST_NID	16
#define HELLO_SRC_PID	24
#define HELLO_DST_PID	28
#define HELLO_SRC_INC	32
#define HELLO_DST_INC	40
#define HELLO_CTYPE	48
#define HELLO_NIPS	52

int lnet_hello_encode(const struct ksock_hello *h, u8 *buf)
{
	int rc;

	memset(buf, 0, LNET_WIRE_HELLO_LEN);
	lnet_put_le32(buf, h->kshm_magic);
	lnet_put_le32(buf + 4, h->kshm_version);
	rc = put_nid(buf + HELLO_SRC_NID, &h->kshm_src_nid);
	if (!rc)
		rc = put_nid(buf + HELLO_DST_NID, &h->kshm_dst_nid);
	lnet_put_le32(buf + HELLO_SRC_PID, h->kshm_src_pid);
	lnet_put_le32(buf + HELLO_DST_PID, h->kshm_dst_pid);
	lnet_put_le64(buf + HELLO_SRC_INC, h->kshm_src_incarnation);
	lnet_put_le64(buf + HELLO_DST_INC, h->kshm_dst_incarnation);
	lnet_put_le32(buf + HELLO_CTYPE, (u32)h->kshm_ctype);
	lnet_put_le32(buf + HELLO_NIPS, h->kshm_nips);
	return rc;
}

/* SOCKLND_CONN_NONE (an acceptor refusing) up to SOCKLND_CONN_BULK_OUT. */
static bool ctype_known(s32 t)
{
	return t >= SOCKLND_CONN_NONE && t <= SOCKLND_CONN_BULK_OUT;
}

int lnet_hello_decode(const u8 *buf, size_t len, struct ksock_hello *h)
{
	int rc;

	memset(h, 0, sizeof(*h));
	/* v1 hellos (LNET_PROTO_TCP_MAGIC) and swapped magics end here too */
	rc = get_magic_version(buf, len, LNET_PROTO_MAGIC, KSOCK_PROTO_V3,
			       LNET_WIRE_HELLO_LEN, &h->kshm_magic, &h->kshm_version);
	if (rc)
		return rc;
	get_nid(buf + HELLO_SRC_NID, &h->kshm_src_nid);
	get_nid(buf + HELLO_DST_NID, &h->kshm_dst_nid);
	h->kshm_src_pid = lnet_get_le32(buf + HELLO_SRC_PID);
	h->kshm_dst_pid = lnet_get_le32(buf + HELLO_DST_PID);
	h->kshm_src_incarnation = lnet_get_le64(buf + HELLO_SRC_INC);
	h->kshm_dst_incarnation = lnet_get_le64(buf + HELLO_DST_INC);
	h->kshm_ctype = (s32)lnet_get_le32(buf + HELLO_CTYPE);
	h->kshm_nips = lnet_get_le32(buf + HELLO_NIPS);
	if (!ctype_known(h->kshm_ctype) ||
	    h->kshm_nips > LNET_WIRE_HELLO_MAX_IPS)
		return -EPROTO;
	return 0;
}

/* --- message header ---------------------------------------------------------------- */

/*
 * Offsets from the start of the 96-byte header: the socket header (24),
 * then the LNet header's fixed part (32) and its 40-byte type union.
 */
#define KSM_CSUM	4
#define KSM_COOKIE0	8
#define KSM_COOKIE1	16
#define HDR_DEST_NID	24
#define HDR_SRC_NID	32
#define HDR_DEST_PID	40
#define HDR_SRC_PID	44
#define HDR_TYPE	48
#define HDR_PAYLOAD_LEN	52
#define HDR_MSG		56

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

/*
 * A NOOP is only the 24-byte socket header on the wire (Lustre sends it to
 * carry zero-copy acks); its LNet part stays zero here and is not sent.
 */
int lnet_msg_hdr_encode(const struct ksock_msg_hdr *k,
			const struct lnet_hdr *h, u8 *buf)
{
	int rc;

	memset(buf, 0, LNET_WIRE_MSG_HDR_LEN);
	lnet_put_le32(buf, k->ksm_type);
	lnet_put_le32(buf + KSM_CSUM, k->ksm_csum);
	lnet_put_le64(buf + KSM_COOKIE0, k->ksm_zc_cookies[0]);
	lnet_put_le64(buf + KSM_COOKIE1, k->ksm_zc_cookies[1]);
	if (k->ksm_type == KSOCK_MSG_NOOP)
		return 0;
	rc = put_nid(buf + HDR_DEST_NID, &h->dest_nid);
	if (!rc)
		rc = put_nid(buf + HDR_SRC_NID, &h->src_nid);
	lnet_put_le32(buf + HDR_DEST_PID, h->dest_pid);
	lnet_put_le32(buf + HDR_SRC_PID, h->src_pid);
	lnet_put_le32(buf + HDR_TYPE, h->type);
	lnet_put_le32(buf + HDR_PAYLOAD_LEN, h->payload_length);
	put_msg_union(buf + HDR_MSG, h);
	return rc;
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

int lnet_msg_hdr_decode(const u8 *buf, size_t len, struct ksock_msg_hdr *k,
			struct lnet_hdr *h)
{
	memset(k, 0, sizeof(*k));
	memset(h, 0, sizeof(*h));
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
		return 0;
	if (len < LNET_WIRE_MSG_HDR_LEN)
		return -EMSGSIZE;
	get_nid(buf + HDR_DEST_NID, &h->dest_nid);
	get_nid(buf + HDR_SRC_NID, &h->src_nid);
	h->dest_pid = lnet_get_le32(buf + HDR_DEST_PID);
	h->src_pid = lnet_get_le32(buf + HDR_SRC_PID);
	h->type = lnet_get_le32(buf + HDR_TYPE);
	h->payload_length = lnet_get_le32(buf + HDR_PAYLOAD_LEN);
	if (hdr_check(h))
		return -EPROTO;
	get_msg_union(buf + HDR_MSG, h);
	return 0;
}

/* --- ping payload ------------------------------------------------------------------ */

int lnet_ping_info_encode(const struct lnet_ping_info *pi, u8 *buf, size_t len)
{
	u64 need = LNET_WIRE_PING_HDR_LEN +
		   (u64)pi->pi_nnis * LNET_WIRE_PING_NI_LEN;
	u8 *p = buf + LNET_WIRE_PING_HDR_LEN;
	int rc;

	if (need > len || need > 0x7fffffff)
		return -ENOSPC;
	lnet_put_le32(buf, pi->pi_magic);
	lnet_put_le32(buf + 4, pi->pi_features);
	lnet_put_le32(buf + 8, pi->pi_pid);
	lnet_put_le32(buf + 12, pi->pi_nnis);
	for (u32 i = 0; i < pi->pi_nnis; i++, p += LNET_WIRE_PING_NI_LEN) {
		rc = put_nid(p, &pi->pi_ni[i].ns_nid);
		if (rc)
			return rc;
		lnet_put_le32(p + 8, pi->pi_ni[i].ns_status);
		lnet_put_le32(p + 12, pi->pi_ni[i].ns_msg_size);
	}
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
 * NIs beyond @max_nis are not stored: pi_nnis (and the result) then say
 * how many were, so a caller never walks past its array.
 */
int lnet_ping_info_decode(const u8 *buf, size_t len, struct lnet_ping_info *pi,
			  u32 max_nis)
{
	const u8 *p = buf + LNET_WIRE_PING_HDR_LEN;
	bool swapped;
	u32 nnis;

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
	pi->pi_nnis = nnis < max_nis ? nnis : max_nis;
	for (u32 i = 0; i < pi->pi_nnis; i++, p += LNET_WIRE_PING_NI_LEN) {
		lnet_nid_from_wire(ping_get64(p, swapped), &pi->pi_ni[i].ns_nid);
		pi->pi_ni[i].ns_status = ping_get32(p + 8, swapped);
		pi->pi_ni[i].ns_msg_size = ping_get32(p + 12, swapped);
	}
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
