/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The bytes LNet puts on a TCP connection, as the Lustre socket LND does,
 * so that our nodes talk to Lustre nodes. Every integer is little-endian
 * on the wire whatever the host; the functions below convert between the
 * wire bytes and host-order structures and never read past the lengths
 * given (the decoders are fed by hostile peers and by the fuzzers).
 *
 * A connection, from the side that connects:
 *   1. acceptor request               magic 0xacce7100, version 1 (16 bytes,
 *                                     8-byte NID) or 2 (28 bytes, 20-byte
 *                                     NID: a target that is not nid4), the
 *                                     NID the connector wants to reach
 *   2. hello                          magic 0x45726963, version 3 (56 bytes
 *                                     + 4 * nips, 8-byte NIDs: IPv4
 *                                     sockets) or 4 (80 bytes, 20-byte
 *                                     NIDs, no IPs: IPv6 sockets), NIDs,
 *                                     pids, incarnations, connection kind
 *   3. the acceptor answers with its own hello (no acceptor request).
 *   4. then messages: a 24-byte socket message header (type 0xc1 for an
 *      LNet message, 0xc0 for a no-op), the LNet header, and
 *      payload_length bytes of payload. V3 connections carry the 72-byte
 *      header with 8-byte NIDs (24 + 72 = LNET_WIRE_MSG_HDR_LEN), V4 ones
 *      the 96-byte header with 20-byte NIDs (LNET_WIRE_MSG_HDR16_LEN, 120).
 *
 * The 8-byte NID ("nid4"): (net id << 32) | IPv4 address (host order),
 * net id = (lnd << 16) | netnum; NIDs that do not fit (IPv6) are refused by
 * the nid4 encoders with -EAFNOSUPPORT. The 20-byte NID ("nid16"), never
 * byte-swapped: u8 address length - 4, u8 LND, be16 net number, 16 bytes of
 * address in network order (an IPv4 one in the first 4, zeros after).
 */
#ifndef LNET_WIRE_H
#define LNET_WIRE_H

#include "../os/os.h"
#include "../nid/nid.h"

#define LNET_ACCEPTOR_PORT		988
#define LNET_PROTO_ACCEPTOR_MAGIC	0xacce7100U
#define LNET_PROTO_ACCEPTOR_VERSION	1	/* nid4 target */
#define LNET_PROTO_ACCEPTOR_VERSION_16	2	/* nid16 target */
#define LNET_WIRE_ACCEPT_LEN		16
#define LNET_WIRE_ACCEPT16_LEN		28
#define LNET_WIRE_ACCEPT_MAX_LEN	LNET_WIRE_ACCEPT16_LEN

#define LNET_PROTO_TCP_MAGIC		0xeebc0ded	/* hello v1, refused */
#define LNET_PROTO_MAGIC		0x45726963U	/* "Eric": hello v2/v3 */
#define KSOCK_PROTO_V3			3		/* nid4: IPv4 sockets */
#define KSOCK_PROTO_V4			4		/* nid16: IPv6 sockets */
#define LNET_WIRE_HELLO_LEN		56		/* V3, without the IPs */
#define LNET_WIRE_HELLO_V4_LEN		80		/* V4: never any IPs */
#define LNET_WIRE_HELLO_MAX_LEN		LNET_WIRE_HELLO_V4_LEN
#define LNET_WIRE_HELLO_MAX_IPS		16

/* Connection kinds in a hello (the acceptor answers with the mirror kind). */
enum ksock_conn_type {
	SOCKLND_CONN_NONE	= -1,
	SOCKLND_CONN_ANY	= 0,
	SOCKLND_CONN_CONTROL	= 1,
	SOCKLND_CONN_BULK_IN	= 2,
	SOCKLND_CONN_BULK_OUT	= 3,
};

#define KSOCK_MSG_NOOP			0xc0
#define KSOCK_MSG_LNET			0xc1
#define LNET_WIRE_KSOCK_HDR_LEN		24
#define LNET_WIRE_LNET_HDR_LEN		72
#define LNET_WIRE_MSG_HDR_LEN		96
#define LNET_WIRE_LNET_HDR16_LEN	96		/* with 20-byte NIDs */
#define LNET_WIRE_MSG_HDR16_LEN		120
#define LNET_WIRE_MSG_HDR_MAX_LEN	LNET_WIRE_MSG_HDR16_LEN
#define LNET_WIRE_NID4_LEN		8
#define LNET_WIRE_NID16_LEN		20

/* LNet message types (lnet_hdr.type). */
enum lnet_msg_type {
	LNET_MSG_ACK	= 0,
	LNET_MSG_PUT	= 1,
	LNET_MSG_GET	= 2,
	LNET_MSG_REPLY	= 3,
	LNET_MSG_HELLO	= 4,
};

#define LNET_MTU			(1U << 20)	/* largest payload */
#define LNET_PID_LUSTRE			12345
#define LNET_PID_ANY			0xffffffffU
#define LNET_PID_USERFLAG		0x80000000U

/* The ping payload: header + one status per NI. */
#define LNET_PROTO_PING_MAGIC		0x70696e67U	/* "ping" */
#define LNET_PING_FEAT_BASE		(1U << 0)	/* only this: old peer */
#define LNET_PING_FEAT_NI_STATUS	(1U << 1)	/* ns_status valid */
#define LNET_PING_FEAT_RTE_DISABLED	(1U << 2)	/* routing off */
#define LNET_PING_FEAT_MULTI_RAIL	(1U << 3)	/* multi-rail aware */
#define LNET_PING_FEAT_DISCOVERY	(1U << 4)	/* discovery on */
#define LNET_PING_FEAT_LARGE_ADDR	(1U << 5)	/* large entries follow */
#define LNET_PING_FEAT_PRIMARY_LARGE	(1U << 6)	/* primary: 1st large */
#define LNET_NI_STATUS_UP_WIRE		0x15aac0deU
#define LNET_NI_STATUS_DOWN_WIRE	0xdeadfaceU
#define LNET_WIRE_PING_HDR_LEN		16
#define LNET_WIRE_PING_NI_LEN		16		/* nid4 entry */
#define LNET_WIRE_PING_LARGE_NI_LEN	24		/* large entry, IPv6 */
#define LNET_PING_MAX_NIS		256

/* An MD handle as sent in PUT/GET and echoed back in ACK/REPLY. */
struct lnet_handle_wire {
	u64 wh_interface_cookie;
	u64 wh_object_cookie;
};

/* The 72-byte LNet header in host order; NIDs in our 20-byte form. */
struct lnet_hdr {
	struct lnet_nid dest_nid;
	struct lnet_nid src_nid;
	u32 dest_pid;
	u32 src_pid;
	u32 type;			/* enum lnet_msg_type */
	u32 payload_length;
	union {
		struct {
			struct lnet_handle_wire dst_wmd;
			u64 match_bits;
			u32 mlength;
		} ack;
		struct {
			struct lnet_handle_wire ack_wmd;
			u64 match_bits;
			u64 hdr_data;
			u32 ptl_index;
			u32 offset;
		} put;
		struct {
			struct lnet_handle_wire return_wmd;
			u64 match_bits;
			u32 ptl_index;
			u32 src_offset;
			u32 sink_length;
		} get;
		struct {
			struct lnet_handle_wire dst_wmd;
		} reply;
		struct {
			u64 incarnation;
			u32 type;
		} hello;
	} msg;
};

/* The socket LND's 24-byte message header. */
struct ksock_msg_hdr {
	u32 ksm_type;			/* KSOCK_MSG_LNET / KSOCK_MSG_NOOP */
	u32 ksm_csum;			/* 0: no checksum */
	u64 ksm_zc_cookies[2];		/* 0: no zero-copy acks */
};

struct lnet_acceptor_req {
	u32 acr_magic;
	u32 acr_version;
	struct lnet_nid acr_nid;	/* the NID the connector wants */
};

struct ksock_hello {
	u32 kshm_magic;
	u32 kshm_version;
	struct lnet_nid kshm_src_nid;
	struct lnet_nid kshm_dst_nid;
	u32 kshm_src_pid;
	u32 kshm_dst_pid;
	u64 kshm_src_incarnation;
	u64 kshm_dst_incarnation;
	s32 kshm_ctype;			/* enum ksock_conn_type */
	u32 kshm_nips;			/* IPs that follow (0 in v3 hellos we send) */
};

struct lnet_ping_ni {
	struct lnet_nid ns_nid;
	u32 ns_status;			/* LNET_NI_STATUS_*_WIRE */
	u32 ns_msg_size;		/* 0: not told */
};

/*
 * On the wire, the NIs whose NID fits in 8 bytes come first (pi_nnis
 * there counts only them: nodes that predate large addresses read these
 * and stop), then, with LNET_PING_FEAT_LARGE_ADDR, one "large" entry per
 * other NI: u32 status + the 20-byte NID (24 bytes for IPv6), to the total
 * size that the first entry's ns_msg_size gives. Here pi_ni[] holds every
 * NI and pi_nnis counts them all; with LNET_PING_FEAT_PRIMARY_LARGE the
 * first large entry (the sender's primary NID) is pi_ni[1], right after
 * 0@lo, where a nid4 primary is.
 */
struct lnet_ping_info {
	u32 pi_magic;
	u32 pi_features;		/* LNET_PING_FEAT_* */
	u32 pi_pid;
	u32 pi_nnis;
	struct lnet_ping_ni pi_ni[];	/* pi_nnis of them */
};

/* Little-endian loads and stores on unaligned bytes. */
static inline void lnet_put_le32(u8 *p, u32 v)
{
	p[0] = (u8)v; p[1] = (u8)(v >> 8); p[2] = (u8)(v >> 16); p[3] = (u8)(v >> 24);
}

static inline u32 lnet_get_le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static inline void lnet_put_le64(u8 *p, u64 v)
{
	lnet_put_le32(p, (u32)v);
	lnet_put_le32(p + 4, (u32)(v >> 32));
}

static inline u64 lnet_get_le64(const u8 *p)
{
	return (u64)lnet_get_le32(p) | (u64)lnet_get_le32(p + 4) << 32;
}

/*
 * The 8-byte wire NID. Encode: 0 or -EAFNOSUPPORT (IPv6 or wider address).
 * Decode: a u64 of 0 is the empty NID; otherwise an IPv4-style NID for the
 * IP LNDs, a numeric one for the others (0@lo for lnd LO).
 */
int lnet_nid_to_wire(const struct lnet_nid *nid, u64 *out);
void lnet_nid_from_wire(u64 w, struct lnet_nid *nid);
/* Does @nid travel in the 8-byte form (empty, IPv4, numeric, 0@lo)? */
bool lnet_nid_is_nid4(const struct lnet_nid *nid);

/*
 * The 20-byte wire NID at @p. Encode never fails (the empty NID is 20
 * zero bytes). Decode: 0, or -EPROTO for an address length that is
 * neither 4 nor 16 bytes, or 16 bytes on an LND without IP addresses; a
 * 4-byte address is read as the 8-byte form is (0@lo made canonical).
 */
void lnet_nid16_put(u8 *p, const struct lnet_nid *nid);
int lnet_nid16_get(const u8 *p, struct lnet_nid *nid);

/*
 * Encoders write exactly the fixed length into @buf (which must hold it)
 * and return 0, or -EAFNOSUPPORT for a NID that does not fit.
 * Decoders check magic, version and lengths: 0, -EPROTO (bad magic,
 * version or type, a length that does not fit) or -EMSGSIZE (@len short).
 */
/* The request's length in @version (0: a version we do not know). */
size_t lnet_acceptor_req_size(u32 version);
/* The version a request to @nid goes in: 2 when @nid is not nid4. */
u32 lnet_acceptor_req_version(const struct lnet_nid *nid);
/* Encode in r->acr_version's form (lnet_acceptor_req_size bytes); an
 * unknown version is -EPROTO. Decode knows versions 1 and 2; on -EPROTO
 * for an unknown version, r->acr_version holds it. */
int lnet_acceptor_req_encode(const struct lnet_acceptor_req *r, u8 *buf);
int lnet_acceptor_req_decode(const u8 *buf, size_t len,
			     struct lnet_acceptor_req *r);

/* The fixed part of a hello of @version (0: a version we do not know). */
size_t lnet_hello_size(u32 version);
/*
 * Fixed part only, in h->kshm_version's form (V3 or V4: -EPROTO for any
 * other). Decode refuses kshm_nips > LNET_WIRE_HELLO_MAX_IPS in V3 (the
 * IPs are then read and skipped by the caller: 4 * kshm_nips bytes) and
 * any IP in V4. A version other than 3 and 4 is -EPROTO with kshm_magic
 * and kshm_version stored (the caller answers with its own hello, as
 * Lustre does, so that the peer retries in our version). A byte-swapped
 * magic is -EPROTO.
 */
int lnet_hello_encode(const struct ksock_hello *h, u8 *buf);
int lnet_hello_decode(const u8 *buf, size_t len, struct ksock_hello *h);

/* The 96-byte message header (socket header + LNet header). Decode checks
 * ksm_type is KSOCK_MSG_LNET or KSOCK_MSG_NOOP, the LNet type is known and
 * payload_length <= LNET_MTU (else -EPROTO). */
int lnet_msg_hdr_encode(const struct ksock_msg_hdr *k,
			const struct lnet_hdr *h, u8 *buf);
int lnet_msg_hdr_decode(const u8 *buf, size_t len, struct ksock_msg_hdr *k,
			struct lnet_hdr *h);
/* The same for the 120-byte header of V4 connections (20-byte NIDs): no
 * NID is refused on encode; decode also refuses a bad NID (-EPROTO). */
int lnet_msg_hdr16_encode(const struct ksock_msg_hdr *k,
			  const struct lnet_hdr *h, u8 *buf);
int lnet_msg_hdr16_decode(const u8 *buf, size_t len, struct ksock_msg_hdr *k,
			  struct lnet_hdr *h);
/* The message header's length on a connection of hello @version. */
size_t lnet_msg_hdr_size(u32 version);

/*
 * Ping payload: encode writes the nid4 NIs of @pi in their order, then
 * the others as large entries in theirs, sets LNET_PING_FEAT_LARGE_ADDR
 * when there is one (with it, the first entry's ns_msg_size is the total
 * size) and returns the bytes written (lnet_ping_info_wire_len), or
 * -ENOSPC, or -EPROTO (large entries but no nid4 entry to hold the size).
 * Decode fills @pi (room for @max_nis NIs) and returns pi_nnis, or
 * -EPROTO / -EMSGSIZE (fewer bytes than the declared size). A payload in
 * the other byte order (magic swapped) is decoded too, as Lustre peers may
 * send it. PRIMARY_LARGE is passed through as given (see above).
 */
u32 lnet_ping_info_wire_len(const struct lnet_ping_info *pi);
int lnet_ping_info_encode(const struct lnet_ping_info *pi, u8 *buf, size_t len);
int lnet_ping_info_decode(const u8 *buf, size_t len, struct lnet_ping_info *pi,
			  u32 max_nis);

/* A name for a message type ("PUT"...), "?" when unknown. */
const char *lnet_msg_type_name(u32 type);

#endif /* LNET_WIRE_H */
