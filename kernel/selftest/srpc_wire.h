/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The bytes of Lustre's lnet_selftest (SRPC) on LNet, so that a Lustre
 * console (lst) can drive our node and ours can drive Lustre's
 * (facts: shared/reference/lnet-selftest-protocol.md).
 *
 * Every SRPC request and reply is one SRPC_MSG_LEN-byte message moved by a
 * PUT without ACK: a request to portal 50 (test services) or 51 (framework
 * services) under the service id as match bits, its reply to portal 52
 * under the rpyid the requester chose. Bulk (brw pages, the destination
 * list of a test client) also moves on portal 52, under the bulkid.
 *
 * The message: a 24-byte header (magic, version, type, two reserved u32,
 * session features) then a packed body of SRPC_BODY_LEN bytes whose layout
 * depends on the type; the unused bytes are zero. Integers are in the
 * SENDER's byte order: the receiver tells by the magic. We always send
 * little-endian (as x86 Lustre nodes do) and read both orders.
 *
 * Nothing here knows about LNet state: portable, used by the SRPC layer of
 * the core (kernel/selftest/), by the unit tests (which decode a capture of
 * two real Lustre nodes with it) and by the fuzzers.
 */
#ifndef LNET_SRPC_WIRE_H
#define LNET_SRPC_WIRE_H

#include "../os/os.h"

#define SRPC_MSG_MAGIC			0xeeb0f00dU
#define SRPC_MSG_VERSION		1
#define SRPC_MSG_LEN			160
#define SRPC_HDR_LEN			24
#define SRPC_BODY_LEN			(SRPC_MSG_LEN - SRPC_HDR_LEN)

/* Portals, and the pid every lnet_selftest node runs as. */
#define SRPC_REQUEST_PORTAL		50	/* test services */
#define SRPC_FRAMEWORK_REQUEST_PORTAL	51	/* framework services */
#define SRPC_RDMA_PORTAL		52	/* replies and bulk */
#define SRPC_PID			12345
/* Service ids below this are framework services (portal 51). */
#define SRPC_FRAMEWORK_SERVICE_MAX_ID	10

/* Session features: only LST_FEAT_BULK_LEN (brw by length and offset). */
#define LST_FEAT_BULK_LEN		1U
#define LST_FEATS_MASK			LST_FEAT_BULK_LEN

#define LST_NAME_SIZE			32	/* session name, NUL included */
#define LST_PING_TEST_MAGIC		0xbabeface
#define LST_BRW_MAGIC			0xeeb0eeb1eeb2eeb3ULL
#define LST_BRW_MAX_LEN			(1U << 20)	/* one brw RPC's bulk */
#define LST_PAGE_SIZE			4096	/* the page a CHECK_SIMPLE marks */
#define LST_DEST_LEN			12	/* nid u64, pid u32 per destination */

/*
 * Service ids: X(name, id). JOIN is defined by Lustre but never served.
 */
#define SRPC_SERVICES(X)		\
	X(DEBUG, 0)			\
	X(MAKE_SESSION, 1)		\
	X(REMOVE_SESSION, 2)		\
	X(BATCH, 3)			\
	X(TEST, 4)			\
	X(QUERY_STAT, 5)		\
	X(JOIN, 6)			\
	X(BRW, 11)			\
	X(PING, 12)

enum srpc_service_id {
#define SRPC_SVC_ENUM(name, id) SRPC_SVC_##name = id,
	SRPC_SERVICES(SRPC_SVC_ENUM)
#undef SRPC_SVC_ENUM
};

/*
 * Message types: X(name, value, body bytes, service). A request is even,
 * its reply is request + 1.
 */
#define SRPC_MSG_TYPES(X)				\
	X(MKSN_REQST, 0, 60, MAKE_SESSION)		\
	X(MKSN_REPLY, 1, 56, MAKE_SESSION)		\
	X(RMSN_REQST, 2, 24, REMOVE_SESSION)		\
	X(RMSN_REPLY, 3, 20, REMOVE_SESSION)		\
	X(BATCH_REQST, 4, 44, BATCH)			\
	X(BATCH_REPLY, 5, 28, BATCH)			\
	X(STAT_REQST, 6, 28, QUERY_STAT)		\
	X(STAT_REPLY, 7, 136, QUERY_STAT)		\
	X(TEST_REQST, 8, 70, TEST)			\
	X(TEST_REPLY, 9, 20, TEST)			\
	X(DEBUG_REQST, 10, 28, DEBUG)			\
	X(DEBUG_REPLY, 11, 60, DEBUG)			\
	X(BRW_REQST, 12, 28, BRW)			\
	X(BRW_REPLY, 13, 4, BRW)			\
	X(PING_REQST, 14, 32, PING)			\
	X(PING_REPLY, 15, 12, PING)			\
	X(JOIN_REQST, 16, 56, JOIN)			\
	X(JOIN_REPLY, 17, 56, JOIN)

enum srpc_msg_type {
#define SRPC_TYPE_ENUM(name, val, len, svc) SRPC_MSG_##name = val,
	SRPC_MSG_TYPES(SRPC_TYPE_ENUM)
#undef SRPC_TYPE_ENUM
	SRPC_MSG_NTYPES
};

/* BATCH_REQST opcodes, brw directions and check modes: X(name, value). */
#define LST_BATCH_OPCS(X)	X(RUN, 1) X(STOP, 2) X(QUERY, 3)
#define LST_BRW_OPS(X)		X(READ, 1) X(WRITE, 2)
#define LST_BRW_CHECKS(X)	X(NONE, 1) X(SIMPLE, 2) X(FULL, 3) X(DISCARD, 4)

enum lst_batch_opc {
#define LST_OPC_ENUM(name, v) LST_BATCH_##name = v,
	LST_BATCH_OPCS(LST_OPC_ENUM)
#undef LST_OPC_ENUM
};

enum lst_brw_op {
#define LST_BRW_ENUM(name, v) LST_BRW_##name = v,
	LST_BRW_OPS(LST_BRW_ENUM)
#undef LST_BRW_ENUM
};

enum lst_brw_check {
#define LST_CHECK_ENUM(name, v) LST_BRW_CHECK_##name = v,
	LST_BRW_CHECKS(LST_CHECK_ENUM)
#undef LST_CHECK_ENUM
};

/* Whether check mode @check puts a pattern in the bulk (the others move bytes only). */
static inline bool lst_brw_checks(u32 check)
{
	return check == LST_BRW_CHECK_SIMPLE || check == LST_BRW_CHECK_FULL;
}

/* The session id: the console's nid4 (LST_NID_ANY: none) and its clock (ms). */
#define LST_NID_ANY			(~0ULL)
struct lst_sid {
	u64 ses_nid;
	s64 ses_stamp;
};

/* What STAT_REPLY carries (20 + 36 + 60 bytes on the wire). */
struct sfw_counters {
	u32 running_ms, active_batches, zombie_sessions, brw_errors, ping_errors;
};

struct srpc_counters {
	u32 errors, rpcs_sent, rpcs_rcvd, rpcs_dropped, rpcs_expired;
	u64 bulk_get, bulk_put;
};

struct lnet_counters_common {
	u32 msgs_alloc, msgs_max, errors, send_count, recv_count, route_count,
	    drop_count;
	u64 send_length, recv_length, route_length, drop_length;
};

/*
 * A TEST_REQST's 12-byte parameter: which member depends on the service and
 * on the session features (srpc_test_param_kind()).
 */
enum srpc_test_param_kind {
	SRPC_PARAM_RAW,		/* not a test service: kept as bytes */
	SRPC_PARAM_PING,	/* size u32, flags u32 (lst sends 0, 0) */
	SRPC_PARAM_BULK,	/* no BULK_LEN: opc u32, npg u32, flags u32 */
	SRPC_PARAM_BULK_V1,	/* BULK_LEN: opc u16, flags u16, len u32, offset u32 */
};

union srpc_test_param {
	struct { u32 size, flags; } ping;
	struct { u32 opc, npg, flags; } bulk;
	struct { u16 opc, flags; u32 len, offset; } bulk_v1;
	u8 raw[12];
};

/* The bodies, in host order; field order as on the wire. */
struct srpc_mksn_reqst { u64 rpyid; struct lst_sid sid; u32 force; char name[LST_NAME_SIZE]; };
struct srpc_mksn_reply { u32 status; struct lst_sid sid; u32 timeout; char name[LST_NAME_SIZE]; };
struct srpc_rmsn_reqst { u64 rpyid; struct lst_sid sid; };
struct srpc_sid_reply { u32 status; struct lst_sid sid; };	/* RMSN, TEST */
struct srpc_batch_reqst {
	u64 rpyid; struct lst_sid sid; u64 bid; u32 opc, testidx, arg;
};
struct srpc_batch_reply { u32 status; struct lst_sid sid; u32 active, time; };
struct srpc_stat_reqst { u64 rpyid; struct lst_sid sid; u32 type; };
struct srpc_stat_reply {
	u32 status;
	struct lst_sid sid;
	struct sfw_counters fw;
	struct srpc_counters rpc;
	struct lnet_counters_common lnet;
};
struct srpc_test_reqst {
	u64 rpyid, bulkid;
	struct lst_sid sid;
	u64 bid;
	u32 service, loop, concur;
	u8 is_client, stop_onerr;
	u32 ndest;
	union srpc_test_param param;	/* as srpc_test_param_kind() says */
};
struct srpc_debug_reqst { u64 rpyid; struct lst_sid sid; u32 flags; };
struct srpc_debug_reply {
	u32 status; struct lst_sid sid; u32 timeout, nbatch; char name[LST_NAME_SIZE];
};
struct srpc_brw_reqst { u64 rpyid, bulkid; u32 rw, len, flags; };
struct srpc_status_reply { u32 status; };			/* BRW */
struct srpc_ping_reqst { u64 rpyid; u32 magic, seq; u64 time_sec, time_nsec; };
struct srpc_ping_reply { u32 status, magic, seq; };
/* JOIN (never served; decoded so that a capture or a fuzzer can hold it) */
struct srpc_join_reqst { u64 rpyid; struct lst_sid sid; char group[LST_NAME_SIZE]; };
struct srpc_join_reply {
	u32 status; struct lst_sid sid; u32 timeout; char session[LST_NAME_SIZE];
};

struct srpc_msg {
	u32 type;			/* enum srpc_msg_type */
	u32 version;			/* SRPC_MSG_VERSION when we pack */
	u32 ses_feats;
	bool swabbed;			/* unpacked from the other byte order */
	union {
		struct srpc_mksn_reqst mksn_reqst;
		struct srpc_mksn_reply mksn_reply;
		struct srpc_rmsn_reqst rmsn_reqst;
		struct srpc_sid_reply rmsn_reply;
		struct srpc_batch_reqst bat_reqst;
		struct srpc_batch_reply bat_reply;
		struct srpc_stat_reqst stat_reqst;
		struct srpc_stat_reply stat_reply;
		struct srpc_test_reqst tes_reqst;
		struct srpc_sid_reply tes_reply;
		struct srpc_debug_reqst dbg_reqst;
		struct srpc_debug_reply dbg_reply;
		struct srpc_brw_reqst brw_reqst;
		struct srpc_status_reply brw_reply;
		struct srpc_ping_reqst ping_reqst;
		struct srpc_ping_reply ping_reply;
		struct srpc_join_reqst join_reqst;
		struct srpc_join_reply join_reply;
	} body;
};

/* The name of a message type ("MKSN_REQST"), service, opcode...; "?" if unknown. */
const char *srpc_msg_type_name(u32 type);
const char *srpc_service_name(u32 id);
const char *lst_batch_opc_name(u32 opc);
const char *lst_brw_op_name(u32 rw);
const char *lst_brw_check_name(u32 flags);
/* The body length of @type (0: unknown type), the service it belongs to. */
u32 srpc_msg_body_len(u32 type);
u32 srpc_msg_service(u32 type);
/* The portal requests of service @id go to. */
static inline u32 srpc_service_portal(u32 id)
{
	return id < SRPC_FRAMEWORK_SERVICE_MAX_ID ? SRPC_FRAMEWORK_REQUEST_PORTAL :
	       SRPC_REQUEST_PORTAL;
}
/* Which member of a TEST_REQST's parameter @service uses with @feats. */
enum srpc_test_param_kind srpc_test_param_kind(u32 service, u32 feats);

/*
 * Pack @m into SRPC_MSG_LEN bytes at @buf, little-endian, magic and
 * m->version as given, unused bytes zero. 0, or -EINVAL: unknown type, a
 * name without its NUL, a bool field (is_client, stop_onerr) above 1.
 */
int srpc_msg_pack(const struct srpc_msg *m, u8 *buf);
/*
 * Unpack @len bytes (the whole message: anything but SRPC_MSG_LEN is
 * -EMSGSIZE). -EBADMSG: a magic in neither byte order, an unknown type,
 * a reserved field not zero, a name without its NUL, a bool field above 1.
 * -EPROTO: a version other than SRPC_MSG_VERSION; the rest is unpacked
 * all the same (a server answers it EPROTO under the request's rpyid).
 * Values are not judged here (a server answers those with a status).
 */
int srpc_msg_unpack(const u8 *buf, u32 len, struct srpc_msg *m);

/*
 * A test client's destination list entry @i at @buf, in the byte order of
 * the TEST_REQST that announced it (@swabbed).
 */
void srpc_dest_pack(u8 *buf, u32 i, u64 nid, u32 pid);
void srpc_dest_unpack(const u8 *buf, u32 i, bool swabbed, u64 *nid, u32 *pid);

/*
 * The brw data pattern over the bulk [@off, @off + @len) of a page-aligned
 * buffer @buf (@off: the offset into the first page): CHECK_FULL puts
 * LST_BRW_MAGIC (host order, as Lustre does) in every 8-byte word; SIMPLE
 * only in the first and last word of each page fragment; NONE and DISCARD
 * nothing. Check: 0, or -EBADMSG at the first word that differs.
 */
void lst_brw_fill(u8 *buf, u32 off, u32 len, u32 check);
int lst_brw_check(const u8 *buf, u32 off, u32 len, u32 check);

#endif /* LNET_SRPC_WIRE_H */
