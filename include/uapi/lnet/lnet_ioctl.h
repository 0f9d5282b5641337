/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The LNet configuration ABI: one header for the kernel module (/dev/lnet)
 * and for lnetd (the same bytes over a Unix socket).
 *
 * Framing
 * -------
 * Every request buffer starts with struct lnet_ioc_hdr. ioc_len is the total
 * number of bytes of the buffer (header included); ioc_version must be
 * LNET_IOC_VERSION. The size encoded in each ioctl number is the size of
 * the fixed structure of that command; commands with a variable part (ADD_UDSP,
 * GET_UDSP, ADD_UDSP_BATCH, GET_UDSP_BATCH: lnet_udsp.h) carry it after the
 * fixed structure and count it in ioc_len.
 * The kernel copies ioc_len bytes in and, for commands that return data,
 * the same number of bytes back out. ioc_len is at most LNET_IOC_MAX_LEN.
 *
 * All structures use fixed-size types, explicit padding and no pointers.
 * Every field named *reserved* or *pad* must be zero on input (EINVAL
 * otherwise) so that it can be given a meaning later.
 *
 * Errors common to every command (returned as -errno by the kernel side,
 * ioctl(2) returns -1 with errno set):
 *   EINVAL     ioc_len smaller than the command's structure, larger than
 *              LNET_IOC_MAX_LEN, a reserved field not zero, an unknown flag,
 *              a value out of range (each command lists its own).
 *   EPROTO     ioc_version is not LNET_IOC_VERSION.
 *   ENOTTY     unknown command, or the size in the command number is not the
 *              size of the command's structure.
 *   EPERM      a mutating command from a caller without CAP_NET_ADMIN, in
 *              the kernel's or (lnetd, which checks the process that
 *              connected to its socket) lnetd's user namespace.
 *   ENETDOWN   LNet is not configured (every command but CONFIGURE and
 *              UNCONFIGURE). Rules, nets and peers live between CONFIGURE
 *              and UNCONFIGURE; UNCONFIGURE frees all of them.
 *   ENOMEM     out of memory; nothing was changed.
 */
#ifndef _UAPI_LNET_IOCTL_H
#define _UAPI_LNET_IOCTL_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/ioctl.h>
#else
#include <linux/types.h>
#include <sys/ioctl.h>
#endif
#include "lnet_tunables.h"

#define LNET_IOC_VERSION	0x00020001U	/* major 2 (ours), minor 1 */
#define LNET_IOC_MAX_LEN	(128U * 1024U)
#define LNET_IOC_TYPE		'e'

struct lnet_ioc_hdr {
	__u32 ioc_len;		/* total bytes of the request, this header included */
	__u32 ioc_version;	/* LNET_IOC_VERSION */
};

/*
 * NIDs
 * ----
 * A NID is an address on a net. A net is an LND type and a net number
 * (0..65535). The address is 4 bytes (IPv4, or a numeric address for the
 * numeric LNDs, big-endian) or 16 bytes (IPv6), network byte order.
 */
enum lnet_lnd_type {
	LNET_LND_NONE	= 0,	/* "no NID" / descriptor absent */
	LNET_LND_TCP	= 2,	/* socklnd: IPv4 or IPv6 */
	LNET_LND_O2IB	= 5,	/* IPv4 or IPv6 */
	LNET_LND_LO	= 9,	/* only 0@lo */
	LNET_LND_GNI	= 13,	/* numeric */
	LNET_LND_PTLF	= 15,	/* numeric */
	LNET_LND_KFI	= 16,	/* numeric */
	LNET_LND_EFA	= 18,	/* IPv4 or IPv6 */
	__LNET_LND_MAX	= 19,
};

#define LNET_NETNUM_MAX		65535U

struct lnet_nid {
	__u8  nid_addr_len;	/* 0 = no NID, 4 or 16 */
	__u8  nid_lnd;		/* enum lnet_lnd_type */
	__u16 nid_netnum;	/* host byte order */
	__u8  nid_addr[16];	/* network byte order, first nid_addr_len bytes used */
};				/* 20 bytes */

/* A net id: (lnd << 16) | netnum. */
#define LNET_NET_ID(lnd, num)	((__u32)(lnd) << 16 | ((__u32)(num) & 0xffff))
#define LNET_NET_LND(id)	((__u32)(id) >> 16)
#define LNET_NET_NUM(id)	((__u32)(id) & 0xffff)

/* A priority nobody has set: shown to users as -1. */
#define LNET_PRIORITY_UNSET	0xffffffffU
#define LNET_PRIORITY_MAX	4294967294	/* UNSET - 1; decimal for lnetctl's help */

/*
 * IOC_LIBCFS_CONFIGURE (59) / IOC_LIBCFS_UNCONFIGURE (56)
 * Bring LNet up (creates the 0@lo NI) or down (frees every net, NI, peer
 * and UDSP rule). CONFIGURE when up, UNCONFIGURE when down: 0.
 * cfg_flags of CONFIGURE: LNET_CONFIG_F_* (EINVAL for any other bit);
 * of UNCONFIGURE: 0 (EINVAL otherwise).
 *   LNET_CONFIG_F_LARGE_NIDS  use large NIDs (Lustre's `lnet configure
 *       --large`). Every NID here is already a large NID; what the flag
 *       changes is the order in which an interface's addresses give the
 *       NID of an NI added by interface (ADD_NET without ni_nid): its
 *       first global IPv6 address first, else its first IPv4 address
 *       (without the flag: IPv4 first). An interface with one family
 *       gives that one either way, and ADD_NET with ni_nid is not
 *       affected. The flag is set by every CONFIGURE that has it, also
 *       when LNet is already up (as Lustre's configure does; the NIs
 *       already there keep their NIDs), a CONFIGURE without it leaves
 *       it as it is, and UNCONFIGURE clears it. Nothing shows it
 *       (neither does Lustre).
 */
enum lnet_config_flags {
	LNET_CONFIG_F_LARGE_NIDS	= 1U << 0,
	__LNET_CONFIG_F_ALL		= (1U << 1) - 1,
};

struct lnet_ioc_config {
	struct lnet_ioc_hdr cfg_hdr;
	__u32 cfg_flags;			/* LNET_CONFIG_F_* (CONFIGURE only) */
	__u32 cfg_reserved;
};

/*
 * IOC_LIBCFS_ADD_NET (84)
 *   In: ni_net (an existing or new net; not lo), ni_ifname (the interface
 *   whose address gives the NID: its first IPv4 address, else its first
 *   global IPv6 one; the IPv6 one first after a CONFIGURE with
 *   LNET_CONFIG_F_LARGE_NIDS), ni_nid (the zero NID, or the NID the
 *   configuration names: the NI is added only if one of the interface's
 *   two addresses, its first IPv4 or its first global IPv6 one, makes
 *   this NID; the flag plays no part then),
 *   ni_tun (each field -1 = its default, else within its range: the rows
 *   of LNET_NI_TUNABLES in lnet_tunables.h), ni_flags (LNET_NI_F_LND_TUN
 *   or 0), ni_lnd_tun with LNET_NI_F_LND_TUN (the socket LND's tunables,
 *   LNET_SOCK_TUNABLES, each -1 or within its range; only on a tcp net: no
 *   other LND runs here, so libcfg accepts their keys and sends none);
 *   without the flag ni_lnd_tun is not read and every field is its default.
 *   Errors: EINVAL (lo net, bad LND for a socket interface, tunable out of
 *   range, an unknown flag, LNET_NI_F_LND_TUN on a net that is not tcp), ENODEV (no such interface), EADDRNOTAVAIL (the interface has no
 *   usable address: loopback addresses are not NIDs), EEXIST (the net
 *   already has an NI on this interface), EADDRINUSE (the interface's
 *   address on this net is already a NID: another NI's, or a peer's),
 *   ENXIO (ni_nid given, and neither of the interface's addresses makes it).
 *
 * IOC_LIBCFS_DEL_NET (85)
 *   In: ni_net, and ni_ifname (delete the NI on that interface) or an empty
 *   ni_ifname (delete the whole net). Errors: ENOENT (no such net or NI),
 *   EINVAL (lo, or ni_ifname not terminated; lnet_net_del_check() in
 *   kernel/core/validate.c is the state-free part, callers run it first).
 *
 * IOC_LIBCFS_GET_NET (86)
 *   In: ni_index (0, 1, ...: the index-th NI, nets in creation order, 0@lo
 *   first), ni_net (0 = any net, else only that net).
 *   Out: every field (ni_tun with the defaults filled in; on a tcp net
 *   LNET_NI_F_LND_TUN and ni_lnd_tun, the values in force; on other nets
 *   ni_flags 0 and ni_lnd_tun all -1; LNET_NI_F_LND_TIMEOUT_DEF when
 *   the timeout follows the global one). ENOENT past
 *   the last NI. The counters:
 *     ni_send_count / ni_recv_count / ni_drop_count  messages sent,
 *         received, dropped through this NI;
 *     ni_stats[k][t]  the same by kind k (enum lnet_ioc_stats_kind) and
 *         message type t (enum lnet_ioc_msg_type);
 *     ni_hstatus[h]   failed sends by health status h (enum
 *         lnet_ioc_hstatus; index 0 unused): what lowered ni_health;
 *     ni_tx_credits   transmit credits available now (0 when messages
 *         wait), ni_min_tx_credits the lowest the credits have been (below
 *         0: that many messages had to wait), ni_txq_len messages waiting
 *         for a credit now; the maximum is the credits tunable;
 *     ni_ping_count   recovery pings sent; ni_next_ping_s seconds until
 *         the next one (0 = none due);
 *     ni_lat[l]       latency l (enum lnet_ioc_lat_kind) of the messages
 *         sent through this NI.
 *   RESET_LNET_STATS zeroes the counters and the latencies.
 *   ni_lat (and pr_lat) were appended: the struct grew, so the size in
 *   the command numbers of ADD_NET, DEL_NET and GET_NET (GET_PEER_NI,
 *   ADD/DEL_PEER_NI) changed and a caller built before gets ENOTTY.
 *   ni_down_reason (once ni_pad2) says why ni_status is DOWN (enum
 *   lnet_ni_down_reason); on input it must be zero, as ni_pad; ni_flags
 *   has no bit but LNET_NI_F_LND_TUN (DEL_NET and GET_NET ignore it and
 *   ni_lnd_tun).
 */

/* Message types, as on the wire (index of ni_stats / pr_stats). */
enum lnet_ioc_msg_type {
	LNET_IOC_MSG_ACK	= 0,
	LNET_IOC_MSG_PUT	= 1,
	LNET_IOC_MSG_GET	= 2,
	LNET_IOC_MSG_REPLY	= 3,
	LNET_IOC_MSG_HELLO	= 4,
	__LNET_IOC_MSG_MAX	= 5,
};

enum lnet_ioc_stats_kind {
	LNET_IOC_STATS_SENT	= 0,
	LNET_IOC_STATS_RECV	= 1,
	LNET_IOC_STATS_DROP	= 2,
	__LNET_IOC_STATS_MAX	= 3,
};

/*
 * Why a send failed (index of ni_hstatus / pr_hstatus / st_hstatus). The
 * LOCAL_* ones count against the local NI, the others against the peer NI.
 */
enum lnet_ioc_hstatus {
	LNET_IOC_HS_OK			= 0,	/* not counted */
	LNET_IOC_HS_LOCAL_INTERRUPT	= 1,
	LNET_IOC_HS_LOCAL_DROPPED	= 2,
	LNET_IOC_HS_LOCAL_ABORTED	= 3,
	LNET_IOC_HS_LOCAL_NO_ROUTE	= 4,
	LNET_IOC_HS_LOCAL_ERROR		= 5,
	LNET_IOC_HS_LOCAL_TIMEOUT	= 6,
	LNET_IOC_HS_REMOTE_ERROR	= 7,
	LNET_IOC_HS_REMOTE_DROPPED	= 8,
	LNET_IOC_HS_REMOTE_TIMEOUT	= 9,
	LNET_IOC_HS_NETWORK_TIMEOUT	= 10,
	__LNET_IOC_HS_MAX		= 11,
};
/*
 * Latencies (index of ni_lat / pr_lat), each measured from the moment the
 * core hands the message to the LND: PUT_EGRESS until the LND reports the
 * PUT sent, GET_RTT until the GET's REPLY is received, PUT_ACK until the
 * ACK of a PUT that asked for one is received. A message counts on the
 * local NI it left through and on the peer NI it went to (none for a
 * message to this node itself); failed sends and lost answers do not count.
 */
enum lnet_ioc_lat_kind {
	LNET_IOC_LAT_PUT_EGRESS	= 0,
	LNET_IOC_LAT_GET_RTT	= 1,
	LNET_IOC_LAT_PUT_ACK	= 2,
	__LNET_IOC_LAT_MAX	= 3,
};

/* One latency, in nanoseconds; all 0 while lat_samples is 0. */
struct lnet_ioc_latency {
	__u64 lat_samples;
	__u64 lat_min_ns;
	__u64 lat_max_ns;
	__u64 lat_avg_ns;			/* mean, rounded down */
};

#define LNET_IFNAME_LEN		16

enum lnet_ni_status {
	LNET_NI_STATUS_DOWN	= 0,
	LNET_NI_STATUS_UP	= 1,
};

/*
 * ni_down_reason (GET_NET out; zero on input): why ni_status is DOWN.
 * An NI whose LND cannot carry its traffic is down whatever its link:
 * it stays configuration only (kept, shown, exported), and sends through
 * it fail at once. The LND decides (its startup refuses the address
 * family), so the reason goes when an LND learns the family.
 */
enum lnet_ni_down_reason {
	LNET_NI_DOWN_NONE	= 0,	/* up */
	LNET_NI_DOWN_LINK	= 1,	/* the interface is down or has no carrier */
	LNET_NI_DOWN_NO_LND	= 2,	/* no LND of the net's type here (o2ib, gni, kfi...) */
	LNET_NI_DOWN_FAMILY	= 3,	/* its LND refused the address family when it started the NI */
};

/*
 * ni_flags. ni_lnd_tun and ni_flags were reserved words (zero on input),
 * so zero keeps what such a request meant: the LND's defaults.
 */
enum lnet_ni_flags {
	LNET_NI_F_LND_TUN	= 1U << 0,	/* ni_lnd_tun holds values */
	/*
	 * GET_NET out only (an input with it is EINVAL): the NI's timeout is
	 * its default, following the global lnd_timeout (ni_lnd_tun.timeout
	 * is the value in force), so that a caller putting the NI back
	 * (a rollback) can ask for -1 rather than pin today's value.
	 */
	LNET_NI_F_LND_TIMEOUT_DEF = 1U << 1,
};

/*
 * IOC_LNET_SET_NI_LND (141)
 *   Changes LND tunables of running NIs in place (`net set
 *   --conns-per-peer`, `--lnd-timeout`, `--tos`; an import changing them).
 *   In: ni_flags LNET_NI_F_LND_TUN and one LNET_NI_LND_ROW(row) bit per
 *   row of LNET_SOCK_TUNABLES to change (at least one), ni_lnd_tun the
 *   new values of those rows as ADD_NET takes them (-1 = the default;
 *   the other rows are not read), and which NIs: ni_nid one local NI
 *   (its net must be tcp), else (ni_nid zero) every NI of net ni_net,
 *   else (ni_net 0 too) every NI of every tcp net. ni_ifname and every
 *   other field zero. All or nothing: every NI named changes, or none.
 *   The socket LND reads the new timeout at its next send (deadlines of
 *   sends already queued stay), tos at its next connection;
 *   conns_per_peer 0 and -1 resolve by the link speed, as on ADD_NET;
 *   the LND opens connections up to the new count at its next send,
 *   and keeps those above it.
 *   Errors: EINVAL (no row bit, an unknown flag, a value out of its
 *   row's range, a net or NI that is not tcp, a non-zero field besides
 *   those, a malformed NID), ENOENT (ni_nid is not a NID of this node,
 *   ni_net has no NI, or no tcp NI exists).
 */
#define LNET_NI_LND_ROW(row)	(1U << (8 + (row)))
#define LNET_NI_LND_ROWS_ALL	(((1U << __LNET_SOCK_TUN_MAX) - 1) << 8)

struct lnet_ioc_ni {
	struct lnet_ioc_hdr ni_hdr;
	__u32 ni_index;
	__u32 ni_net;
	struct lnet_nid ni_nid;			/* out; ADD_NET: in, zero or the NID */
	char  ni_ifname[LNET_IFNAME_LEN];	/* NUL-terminated */
	struct lnet_ni_tunables ni_tun;
	__u32 ni_status;			/* out: enum lnet_ni_status */
	__u32 ni_health;			/* out: 0..1000 */
	__u32 ni_net_priority;			/* out: UDSP, LNET_PRIORITY_UNSET */
	__u32 ni_nid_priority;			/* out */
	__u32 ni_pad;				/* 8-byte alignment on i386 too */
	__u64 ni_send_count;			/* out */
	__u64 ni_recv_count;			/* out */
	__u64 ni_drop_count;			/* out */
	__u32 ni_tx_credits;			/* out: available now */
	__s32 ni_min_tx_credits;		/* out: low-water mark */
	__u32 ni_txq_len;			/* out: messages waiting for a credit */
	__u32 ni_ping_count;			/* out: recovery pings sent */
	__u32 ni_next_ping_s;			/* out: 0 = no recovery ping due */
	__u32 ni_down_reason;			/* out: enum lnet_ni_down_reason (was ni_pad2) */
	__u64 ni_stats[__LNET_IOC_STATS_MAX][__LNET_IOC_MSG_MAX];	/* out */
	__u64 ni_hstatus[__LNET_IOC_HS_MAX];	/* out */
	struct lnet_sock_tunables ni_lnd_tun;	/* valid with LNET_NI_F_LND_TUN */
	__u32 ni_flags;				/* enum lnet_ni_flags */
	struct lnet_ioc_latency ni_lat[__LNET_IOC_LAT_MAX];	/* out */
};

/*
 * IOC_LIBCFS_ADD_PEER_NI (92)
 *   In: pr_prim_nid; pr_nid (zero = only create the peer), pr_flags
 *   (LNET_PEER_F_NON_MR, LNET_PEER_F_LOCK_PRIM: valid when the peer is
 *   created). Creates the peer if needed (the primary NID is its first NI),
 *   then adds pr_nid to it. A peer whose primary is one of this node's own
 *   NIDs is this node as its own peer (what a discover of ourselves makes,
 *   as in Lustre): it takes only our NIDs.
 *   Errors, one cause each except EINVAL:
 *     EINVAL      what lnet_peer_add_check() (kernel/core/validate.c, no
 *                 state: callers run it first and name the field) refuses:
 *                 zero pr_prim_nid, a flag other than NON_MR and LOCK_PRIM,
 *                 a 0@lo NID, a second NID with NON_MR; or a malformed NID;
 *     EADDRINUSE  pr_nid is one of this node's own NIDs and the peer is
 *                 another node, or the peer is this node and pr_nid is
 *                 not one of ours;
 *     EMLINK      the peer exists and is non-MR: it has its primary NID only;
 *     EEXIST      pr_nid already belongs to a peer, pr_prim_nid is another
 *                 peer's non-primary NID, or (no pr_nid) the peer exists
 *                 with other flags;
 *     ENOSPC      the peer has LNET_PEER_MAX_NIS NIs.
 *
 * IOC_LIBCFS_DEL_PEER_NI (93)
 *   In: pr_prim_nid, pr_nid (zero = the whole peer), pr_flags
 *   (LNET_PEER_F_FORCE: delete a peer whose primary NID is locked).
 *   Deleting the primary NID deletes the peer. Errors: EINVAL (zero
 *   pr_prim_nid, a flag other than FORCE, a malformed NID), ENOENT (no peer
 *   has pr_prim_nid), ENXIO (the peer exists, pr_nid is not one of its NIs),
 *   EBUSY (its primary NID is locked, LNET_PEER_F_LOCK_PRIM, and FORCE was
 *   not given; EPERM stays the caller's lack of the right to modify).
 *
 * IOC_LIBCFS_GET_PEER_NI (94)
 *   In: pr_index (0, 1, ...: the index-th peer NI over all peers, peers in
 *   creation order, each peer's NIs in order), pr_prim_nid (zero = every
 *   peer; else only the peer that owns this NID, primary or not).
 *   Out: the peer (prim NID, flags, pr_peer_nis) and the one peer NI
 *   (pr_nid and the statistics), its UDSP values and lists (at most
 *   LNET_PREF_MAX of each; pr_npref/pr_nrtr give the real counts).
 *   The counters and credits mean what they mean for a local NI (see
 *   GET_NET) for the traffic with this peer NI; pr_max_tx_credits is its
 *   credit limit (the peer_credits of the NI that reaches it), pr_hstatus
 *   counts the failures that lowered pr_health (REMOTE_* and
 *   NETWORK_TIMEOUT), pr_peer_state is the peer's LNET_PEER_S_* bits
 *   (below). pr_rtr_credits / pr_min_rtr_credits: the router buffer
 *   credits of the peer NI (how many of its messages this node would
 *   forward at once: the peer_buffer_credits of the NI that reaches it, or
 *   its peer_credits when that is 0, as in Lustre) and their low-water
 *   mark: a message from the peer NI that this node forwards takes one
 *   until it has been sent on, and below 0 messages wait for one.
 *   pr_refcount: the references held on the peer NI, as Lustre counts
 *   them: 1 for the peer table, plus one per message that is being sent to
 *   it or was received from it and is not yet finalized.
 *   pr_lat: the latencies (enum lnet_ioc_lat_kind) of the messages sent
 *   to this peer NI, appended like ni_lat.
 *   pr_pad and pr_pad2 must be zero.
 *   ENOENT past the last peer NI, or when pr_prim_nid is no peer's NID.
 *
 * IOC_LIBCFS_SET_PEER_STATE (112, Lustre's number for `peer set --state`)
 *   In: pr_prim_nid (any NID of the peer), pr_peer_state (the new state:
 *   LNET_PEER_STATE_SETTABLE bits only, as Lustre numbers them), every
 *   other field zero. Replaces the peer's state bits, as Lustre's tests do
 *   to make a peer look discovered or not, configured or not;
 *   LNET_PEER_STATE_LOCK_PRIMARY sets or clears LNET_PEER_F_LOCK_PRIM.
 *   Clearing DISCOVERED makes the next DISCOVER without FORCE discover the
 *   peer again. Errors: EINVAL (a malformed or zero NID, another bit),
 *   ENOENT (no peer has pr_prim_nid).
 */
#define LNET_PEER_MAX_NIS	128
#define LNET_PREF_MAX		16

enum lnet_peer_flags {
	LNET_PEER_F_NON_MR	= 1U << 0,
	LNET_PEER_F_LOCK_PRIM	= 1U << 1,
	LNET_PEER_F_FORCE	= 1U << 2,	/* DEL only */
	__LNET_PEER_F_ALL	= (1U << 3) - 1,
};

/* pr_peer_state bits (as Lustre numbers them in `peer show -v 3`). */
#define LNET_PEER_STATE_MULTI_RAIL	(1U << 0)	/* discovery saw Multi-Rail */
#define LNET_PEER_STATE_CONFIGURED	(1U << 3)	/* added by the admin */
#define LNET_PEER_STATE_DISCOVERED	(1U << 4)
#define LNET_PEER_STATE_NIDS_UPTODATE	(1U << 8)
/* SET_PEER_STATE only (GET_PEER_NI shows the lock in pr_flags). */
#define LNET_PEER_STATE_LOCK_PRIMARY	(1U << 20)
#define LNET_PEER_STATE_SETTABLE	(LNET_PEER_STATE_MULTI_RAIL | \
					 LNET_PEER_STATE_CONFIGURED | \
					 LNET_PEER_STATE_DISCOVERED | \
					 LNET_PEER_STATE_NIDS_UPTODATE | \
					 LNET_PEER_STATE_LOCK_PRIMARY)

struct lnet_ioc_peer {
	struct lnet_ioc_hdr pr_hdr;
	__u32 pr_index;
	__u32 pr_flags;
	struct lnet_nid pr_prim_nid;
	struct lnet_nid pr_nid;
	__u32 pr_peer_nis;			/* out: NIs of this peer */
	__u32 pr_state;				/* out: enum lnet_ni_status */
	__u32 pr_health;			/* out: 0..1000 */
	__u32 pr_net_priority;			/* out: peer net's UDSP priority */
	__u32 pr_nid_priority;			/* out: peer NI's UDSP priority */
	__u32 pr_max_tx_credits;		/* out */
	__u32 pr_tx_credits;			/* out */
	__u32 pr_npref;				/* out: preferred local NIDs */
	__u32 pr_nrtr;				/* out: preferred routers */
	__u32 pr_pad;
	__u64 pr_send_count;			/* out */
	__u64 pr_recv_count;			/* out */
	__u64 pr_drop_count;			/* out */
	struct lnet_nid pr_pref[LNET_PREF_MAX];	/* out */
	struct lnet_nid pr_rtr[LNET_PREF_MAX];	/* out */
	__s32 pr_min_tx_credits;		/* out: low-water mark */
	__u32 pr_txq_len;			/* out: messages waiting for a credit */
	__u32 pr_ping_count;			/* out: recovery pings sent */
	__u32 pr_next_ping_s;			/* out: 0 = no recovery ping due */
	__u32 pr_peer_state;			/* out: LNET_PEER_STATE_* */
	__u32 pr_pad2;
	__u64 pr_stats[__LNET_IOC_STATS_MAX][__LNET_IOC_MSG_MAX];	/* out */
	__u64 pr_hstatus[__LNET_IOC_HS_MAX];	/* out */
	__s32 pr_rtr_credits;			/* out */
	__s32 pr_min_rtr_credits;		/* out */
	__u32 pr_refcount;			/* out */
	__u32 pr_reserved[1];
	struct lnet_ioc_latency pr_lat[__LNET_IOC_LAT_MAX];	/* out */
};

/*
 * Routes
 * ------
 * A route says that remote net rt_net is reached through the gateway peer
 * rt_gateway. libcfg expands gateway ranges: one route per gateway NID.
 *
 * IOC_LIBCFS_ADD_ROUTE (81)
 *   In: rt_net (not lo), rt_gateway (a NID, not 0@lo, not one of this node's
 *   NIDs), rt_hops (1..LNET_ROUTE_HOPS_MAX, or LNET_ROUTE_HOPS_UNSET),
 *   rt_priority (0..LNET_ROUTE_PRIORITY_MAX, 0 highest). The gateway peer is
 *   created (non-multi-rail) when no peer has that NID yet. UDSP router rules
 *   are flattened again.
 *   Errors, one cause each except EINVAL:
 *     EINVAL      what lnet_route_add_check() (kernel/core/validate.c, no
 *                 state: callers run it first and name the field) refuses:
 *                 rt_net lo or of no known LND, a zero or 0@lo gateway,
 *                 rt_hops or rt_priority out of range; or a malformed NID;
 *     EADDRINUSE  the gateway is one of this node's own NIDs;
 *     EISCONN     rt_net is a local net: it is reached directly, never
 *                 through a gateway;
 *     EHOSTUNREACH the gateway's net is not a local net: no local NI
 *                 could reach it;
 *     EEXIST      a route to rt_net through the gateway's peer exists
 *                 already (by this NID or by another NID of that peer).
 *
 * IOC_LIBCFS_DEL_ROUTE (82)
 *   In: rt_net, rt_gateway. The gateway peer stays. Errors: EINVAL (bad
 *   gateway NID), ENOENT (no such route).
 *
 * IOC_LIBCFS_GET_ROUTE (83)
 *   In: rt_index (0, 1, ...: routes in the order added), rt_net (0 = every
 *   net, else only that net's routes). Out: every field. rt_state is UP when
 *   the gateway's net has a local NI up, the gateway's peer NI is up and,
 *   with gateway checks on (alive_router_check_interval > 0), the last
 *   ping of the gateway was answered within router_ping_timeout with: an
 *   NI up on the gateway's net, routing enabled (no RTE_DISABLED feature)
 *   and, under avoid_asym_router_failure, an NI up on rt_net when the
 *   reply lists one. A route is DOWN until its gateway's first answer.
 *   rt_type is SINGLE_HOP when the gateway's last reply listed an NI on
 *   rt_net, else MULTI_HOP (so MULTI_HOP until a reply, and always with
 *   checks off). ENOENT past the last route.
 */
#define LNET_ROUTE_HOPS_UNSET	(-1)
#define LNET_ROUTE_HOPS_MAX	255
#define LNET_ROUTE_PRIORITY_MAX	2147483647	/* decimal: lnetctl's help stringifies it */

enum lnet_route_type {
	LNET_ROUTE_SINGLE_HOP	= 0,
	LNET_ROUTE_MULTI_HOP	= 1,
};

struct lnet_ioc_route {
	struct lnet_ioc_hdr rt_hdr;
	__u32 rt_index;
	__u32 rt_net;
	struct lnet_nid rt_gateway;
	__s32 rt_hops;				/* -1 = unset */
	__u32 rt_priority;
	__u32 rt_state;				/* out: enum lnet_ni_status */
	__u32 rt_type;				/* out: enum lnet_route_type */
	__u32 rt_reserved[4];
};

/*
 * Routing and router buffers
 * --------------------------
 * IOC_LIBCFS_CONFIG_RTR (87)
 *   In: rtr_enable (0 = this node does not forward, 1 = it routes);
 *   rtr_tiny/small/large must be 0. 1 from DISABLED sizes the pools and
 *   enters STARTING (forwarding, and the enabled state after
 *   alive_router_check_interval + router_ping_timeout); 0 from STARTING
 *   or the enabled state enters STOPPING
 *   (still forwarding what comes; DISABLED once the pools are idle after
 *   that delay, or after three times it). 1 while STARTING or enabled and
 *   0 while STOPPING or DISABLED change nothing and succeed. Errors: EINVAL
 *   (rtr_enable not 0 or 1: lnet_routing_check() in kernel/core/validate.c,
 *   which callers run first), EBUSY (1 while STOPPING; nothing changed).
 *
 * IOC_LIBCFS_ADD_BUF (88)
 *   In: rtr_tiny, rtr_small, rtr_large: the router buffer counts, each
 *   -1 (leave as it is), 0 (the default) or within the range of its row
 *   of LNET_BUFFERS (lnet_tunables.h). The counts are kept whether routing
 *   is enabled or not. rtr_enable must be 0. Errors: EINVAL (a count out
 *   of range; nothing is changed).
 *
 * IOC_LIBCFS_GET_BUF (89)
 *   Out: rtr_enable (what was last asked: 1 while starting or enabled, 0
 *   while stopping or disabled) and the three counts (never 0 or -1).
 *   IOC_LNET_GET_RTR_POOLS gives the state itself.
 */
/*
 * The routing states. The node forwards in every state but DISABLED (so
 * traffic drains while it stops); rtr_enable of GET_BUF is what was last
 * asked: 1 while starting or enabled, 0 while stopping or disabled. The ping
 * feature bit RTE_DISABLED is set in every state but the enabled one, so
 * peers stop choosing this node as a gateway while it drains.
 */
enum lnet_routing_state {
	LNET_ROUTING_DISABLED	= 0,
	LNET_ROUTING_ENABLED	= 1,
	LNET_ROUTING_STOPPING	= 2,
	LNET_ROUTING_STARTING	= 3,
};

/* The names of the buffer numbers before LNET_BUFFERS had rows. */
#define LNET_TINY_BUF_MIN	LNET_BUF_TINY_MIN
#define LNET_SMALL_BUF_MIN	LNET_BUF_SMALL_MIN
#define LNET_LARGE_BUF_MIN	LNET_BUF_LARGE_MIN
#define LNET_TINY_BUF_DEF	LNET_BUF_TINY_DEF
#define LNET_SMALL_BUF_DEF	LNET_BUF_SMALL_DEF
#define LNET_LARGE_BUF_DEF	LNET_BUF_LARGE_DEF
#define LNET_BUF_MAX		LNET_BUF_TINY_MAX	/* every kind's maximum */

struct lnet_ioc_routing {
	struct lnet_ioc_hdr rtr_hdr;
	__u32 rtr_enable;
	__s32 rtr_tiny;
	__s32 rtr_small;
	__s32 rtr_large;
	__u32 rtr_reserved[4];
};

/*
 * IOC_LNET_GET_RTR_POOLS (142)
 *   The router buffer pools of one CPU partition as they are now, for
 *   `lnetctl routing show`. In: rp_cpt, the partition (this core has one:
 *   0). Out: rp_state (enum lnet_routing_state) and, for each buffer kind
 *   (rp_pools[k], k an enum lnet_buf_kind: tiny, small, large):
 *     rpl_npages       pages per buffer (0, 1, LNET_MTU in pages)
 *     rpl_nbuffers     buffers in the pool
 *     rpl_credits      buffers free minus messages waiting for one (below 0
 *                      when messages queue)
 *     rpl_min_credits  the lowest rpl_credits has been
 *   The pools exist only while the node forwards: in state DISABLED
 *   rpl_nbuffers, rpl_credits and rpl_min_credits are 0 (rpl_npages is
 *   still the kind's size). rp_reserved must be zero; the out fields are
 *   ignored on input. Not a mutating command. Errors: ENOENT (rp_cpt past
 *   the last partition).
 */
struct lnet_ioc_rtr_pool {
	__u32 rpl_npages;
	__u32 rpl_nbuffers;
	__s32 rpl_credits;
	__s32 rpl_min_credits;
};

struct lnet_ioc_rtr_pools {
	struct lnet_ioc_hdr rp_hdr;
	__u32 rp_cpt;					/* in */
	__u32 rp_state;					/* out: enum lnet_routing_state */
	struct lnet_ioc_rtr_pool rp_pools[LNET_NBUF_KINDS];	/* out */
	__u32 rp_reserved[4];
};

/*
 * Statistics
 * ----------
 * IOC_LIBCFS_GET_LNET_STATS (91)
 *   Out: st_send_count, st_recv_count, st_drop_count: messages sent,
 *   received and dropped, summed over the local NIs (0@lo included);
 *   st_peer_send_count, st_peer_recv_count, st_peer_drop_count: the same
 *   summed over the peer NIs; st_nis, st_peer_nis, st_routes: how many
 *   local NIs, peer NIs and routes there are now.
 *   The data path's own counters (Lustre's `stats show`):
 *     st_msgs_alloc        messages allocated now; st_msgs_max the most
 *                          there have been at once
 *     st_errors            messages the core could not even start
 *     st_dp_send_count     sends completed successfully, st_dp_send_length
 *                          their payload bytes; st_dp_recv_* the same for
 *                          receives; st_dp_drop_* for dropped messages
 *     st_resend_count      resends after a failure (health)
 *     st_response_timeout_count  ACKs/REPLYs that never came in time
 *     st_failed_resends, st_successful_resends
 *     st_hstatus[h]        failed sends by health status (enum
 *                          lnet_ioc_hstatus; index 0 unused)
 *     st_selftest_corrupt  selftest PUTs this node received whose bytes
 *                          were not the pattern (see IOC_LNET_SELFTEST)
 *     st_rst_alloc         messages waiting now for their ACK or REPLY
 *                          (Lustre's response trackers)
 *     st_route_count, st_route_length  messages this node forwarded
 *                          for others as a router and their payload
 *                          bytes (the low 32 bits, as Lustre's); a
 *                          message for another node that is not forwarded
 *                          (routing disabled, a protocol error) is
 *                          dropped and counted in st_dp_drop_* instead
 *   st_pad must be zero like the reserved fields.
 *
 * IOC_LIBCFS_RESET_LNET_STATS (110)
 *   Sets every message counter to 0: those of every local NI and peer NI
 *   (by type too) and the data path's (st_msgs_max becomes st_msgs_alloc,
 *   which is a count of live messages and stays). The object counts and
 *   the health values and health failure counts of the NIs stay. Output
 *   fields are ignored on input.
 */
struct lnet_ioc_stats {
	struct lnet_ioc_hdr st_hdr;
	__u64 st_send_count;
	__u64 st_recv_count;
	__u64 st_drop_count;
	__u64 st_peer_send_count;
	__u64 st_peer_recv_count;
	__u64 st_peer_drop_count;
	__u32 st_nis;
	__u32 st_peer_nis;
	__u32 st_routes;
	__u32 st_pad;
	__u64 st_msgs_alloc;
	__u64 st_msgs_max;
	__u64 st_errors;
	__u64 st_dp_send_count;
	__u64 st_dp_recv_count;
	__u64 st_dp_drop_count;
	__u64 st_resend_count;
	__u64 st_dp_send_length;
	__u64 st_dp_recv_length;
	__u64 st_dp_drop_length;
	__u64 st_response_timeout_count;
	__u64 st_failed_resends;
	__u64 st_successful_resends;
	__u64 st_hstatus[__LNET_IOC_HS_MAX];
	__u64 st_selftest_corrupt;
	__u32 st_rst_alloc;
	__u32 st_pad2;
	__u64 st_route_count;
	__u64 st_route_length;		/* bytes: 64 bits, as Lustre's */
};

/*
 * Global settings
 * ---------------
 * IOC_LIBCFS_SET_GLOBAL (113) / IOC_LIBCFS_GET_GLOBAL (114)
 *   In: gl_id (enum lnet_global); SET also gl_value. GET returns gl_value.
 *   Ranges and defaults: the rows of LNET_GLOBALS in lnet_tunables.h.
 *   The settings that depend on each other:
 *     retry_count          < transaction_timeout; 0 while
 *                          health_sensitivity is 0
 *     transaction_timeout  > retry_count
 *     health_sensitivity   0 also sets retry_count to 0
 *     lnd_timeout          read-only: max(1, (transaction_timeout - 1) /
 *                          (retry_count + 1))
 *     recovery_limit       0 = recover for ever
 *     max_recovery_ping_interval  the longest wait, in seconds, between
 *                          two recovery pings of one unhealthy NI or peer
 *                          NI (the wait doubles per ping up to it)
 *   Every setting is back to its default after CONFIGURE.
 *   Errors: EINVAL (unknown gl_id, value out of range, a cross-check above
 *   failed, SET of lnd_timeout).
 */
enum lnet_global {
	LNET_GLOBAL_NUMA_RANGE		= 0,
	LNET_GLOBAL_MAX_INTERFACES	= 1,
	LNET_GLOBAL_DISCOVERY		= 2,
	LNET_GLOBAL_DROP_ASYM_ROUTE	= 3,
	LNET_GLOBAL_RETRY_COUNT		= 4,
	LNET_GLOBAL_TRANSACTION_TIMEOUT	= 5,
	LNET_GLOBAL_HEALTH_SENSITIVITY	= 6,
	LNET_GLOBAL_RECOVERY_INTERVAL	= 7,
	LNET_GLOBAL_ROUTER_SENSITIVITY	= 8,
	LNET_GLOBAL_LND_TIMEOUT		= 9,	/* read-only */
	LNET_GLOBAL_RESPONSE_TRACKING	= 10,
	LNET_GLOBAL_RECOVERY_LIMIT	= 11,
	LNET_GLOBAL_MAX_RECOVERY_PING_INTERVAL = 12,
	LNET_GLOBAL_ALIVE_ROUTER_CHECK_INTERVAL = 13,	/* 0: no checks */
	LNET_GLOBAL_ROUTER_PING_TIMEOUT	= 14,
	LNET_GLOBAL_AVOID_ASYM_ROUTER_FAILURE = 15,
	__LNET_GLOBAL_MAX		= 16,
};

struct lnet_ioc_global {
	struct lnet_ioc_hdr gl_hdr;
	__u32 gl_id;
	__u32 gl_value;
	__u32 gl_reserved[2];
};

/*
 * Health
 * ------
 * IOC_LIBCFS_SET_HEALTH (102, Lustre's number for the same request)
 *   In: hl_kind (enum lnet_ioc_health_kind: local NIs or peer NIs),
 *   hl_flags (LNET_HEALTH_F_ALL: every NI of the kind, hl_nid zero; else
 *   the one NI hl_nid), hl_value (0..LNET_HEALTH_MAX).
 *   Sets the health value as failures would have left it (what `net set
 *   --health` and `peer set --health` do, to test how selection and
 *   recovery behave): below LNET_HEALTH_MAX the NI is queued for recovery
 *   pings (the first one recovery_interval later), which raise it back
 *   when answered; LNET_HEALTH_MAX ends its recovery. 0@lo is never a
 *   local NI here: LNET_HEALTH_F_ALL leaves it out, and naming it is
 *   ENOENT (nothing ever lowers it).
 *   Errors: EINVAL (hl_kind or a flag unknown, hl_value above
 *   LNET_HEALTH_MAX, a malformed NID, a non-zero hl_nid with
 *   LNET_HEALTH_F_ALL, a zero one without), ENOENT (hl_nid is not a
 *   local NI, or not a peer NI, of this node).
 */
#define LNET_HEALTH_MAX		1000	/* decimal: lnetctl's help stringifies it */
#define LNET_HEALTH_F_ALL	(1U << 0)

enum lnet_ioc_health_kind {
	LNET_HEALTH_LOCAL_NI	= 0,
	LNET_HEALTH_PEER_NI	= 1,
};

struct lnet_ioc_health {
	struct lnet_ioc_hdr hl_hdr;
	__u32 hl_kind;				/* in: enum lnet_ioc_health_kind */
	__u32 hl_flags;				/* in: LNET_HEALTH_F_* */
	struct lnet_nid hl_nid;			/* in: zero with LNET_HEALTH_F_ALL */
	__u32 hl_value;				/* in: 0..LNET_HEALTH_MAX */
	__u32 hl_reserved[3];
};

/*
 * Ping and discovery
 * ------------------
 * IOC_LIBCFS_PING_PEER (62)
 *   In: ping_nid (the node to ping: any NID of it, 0@lo for this node),
 *   ping_src (the local NID to send from; zero = let selection choose),
 *   ping_timeout_ms (1..LNET_PING_TIMEOUT_MAX_MS), ping_flags 0.
 *   Sends one GET to the node's ping target and waits (without blocking
 *   other commands) for the reply or the timeout. A ping of one of this
 *   node's own NIDs (not 0@lo) also makes this node its own peer, holding
 *   every NID of the reply, as DISCOVER does.
 *   Out: ping_primary (the node's primary NID as this node knows it: the
 *   primary NID of its peer, else ping_nid), ping_multi_rail (1 when the
 *   peer is known to be Multi-Rail: after discovery), ping_nnids and the
 *   first ping_nnids entries of ping_nids: the NIDs the reply lists, in
 *   its order, 0@lo left out (at most LNET_PING_MAX_NIDS; the rest of the
 *   array is zero). Nothing in the peer table changes, so callers that may
 *   only show may ping (DISCOVER and SELFTEST need the right to modify).
 *   Errors: EINVAL (a malformed NID, timeout out of range, a flag),
 *   EADDRNOTAVAIL (ping_src is well formed but not one of this node's
 *   NIDs; 0@lo counts as one), ETIMEDOUT (no reply in time), EHOSTUNREACH (no local
 *   net reaches ping_nid, or the send failed at once), EPROTO (the reply
 *   was not a ping reply).
 *
 * IOC_LIBCFS_DISCOVER (77)
 *   In: ping_nid, ping_timeout_ms as for PING_PEER; ping_src zero;
 *   ping_flags 0 or LNET_PING_F_FORCE. Discovers the node: pings it and
 *   makes its peer hold every NID of the reply (creating the peer and its
 *   peer NIs, UDSP rules applied), then pushes this node's NIDs to it.
 *   One of this node's own NIDs makes this node its own peer (no push),
 *   as Lustre does; 0@lo makes no peer.
 *   Without FORCE a peer already discovered is answered from the peer
 *   table without any traffic; FORCE discovers it again.
 *   Out: as PING_PEER, from the peer after discovery (ping_multi_rail 1
 *   when the reply said Multi-Rail). Errors: those of PING_PEER (EINVAL
 *   also for a non-zero ping_src).
 */
#define LNET_PING_MAX_NIDS		256	/* NIDs one ping reply may list */
#define LNET_PING_TIMEOUT_MAX_S		180	/* decimal: lnetctl's help stringifies it */
#define LNET_PING_TIMEOUT_MAX_MS	(LNET_PING_TIMEOUT_MAX_S * 1000U)
#define LNET_PING_F_FORCE		(1U << 0)	/* DISCOVER only */

struct lnet_ioc_ping {
	struct lnet_ioc_hdr ping_hdr;
	struct lnet_nid ping_nid;		/* in */
	struct lnet_nid ping_src;		/* in: zero = any */
	__u32 ping_timeout_ms;			/* in */
	__u32 ping_flags;			/* in: LNET_PING_F_* */
	struct lnet_nid ping_primary;		/* out */
	__u32 ping_multi_rail;			/* out: 0 or 1 */
	__u32 ping_nnids;			/* out */
	__u32 ping_reserved[4];
	struct lnet_nid ping_nids[LNET_PING_MAX_NIDS];	/* out */
};

/*
 * Selftest
 * --------
 * IOC_LNET_SELFTEST (120)
 *   In: sft_op (LNET_SELFTEST_OP_PUT or _GET), sft_target (any NID of the
 *   node, 0@lo for this node), sft_src (the local NID to send from; zero =
 *   let selection choose), sft_size (payload bytes, 0..LNET_SELFTEST_MAX_SIZE),
 *   sft_count (messages, 1..LNET_SELFTEST_MAX_COUNT), sft_concurrency
 *   (messages in flight at once, 1..LNET_SELFTEST_MAX_CONCURRENCY),
 *   sft_timeout_ms (the longest one message may take from its start to
 *   its ACK or REPLY, 1..LNET_SELFTEST_MAX_TIMEOUT_MS), sft_check (how
 *   the bytes are checked: 0 or LNET_LST_CHECK_full, every byte;
 *   LNET_LST_CHECK_simple, the first and last 8 bytes of every
 *   LNET_SELFTEST_PAGE bytes of the message and its last 8; or
 *   LNET_LST_CHECK_none, only the length).
 *   Every node runs a selftest service on portal 62: PUTs land in buffers
 *   that are checked against the pattern, GETs read the pattern. Byte i
 *   of every message is (__u8)(i * 31 + 7).
 *   PUT sends the pattern with an ACK wanted; the message is ok when the
 *   ACK says the target took all sft_size bytes. The target checks the
 *   bytes as the PUT's hdr_data asks (LNET_SELFTEST_HDR_CHECK(mode); any
 *   other hdr_data: every byte, as before the field existed), but the ACK
 *   cannot carry the verdict: a PUT whose bytes arrived wrong counts in
 *   the target's st_selftest_corrupt (its `stats show`), not here. GET
 *   reads sft_size bytes into a buffer holding none of the pattern; the
 *   message is ok when the bytes checked are the pattern, else corrupt.
 *   A full check costs the target a pass over every byte it received,
 *   between the last byte and the ACK: throughput runs (bench/lnet) use
 *   none, as lnet_selftest's brw tests are run for speed.
 *   Out: sft_ok, sft_failed (an error event, or no answer within
 *   sft_timeout_ms), sft_corrupt (a GET's bytes, or a PUT's ACK for fewer
 *   bytes than sent), sft_ok + sft_failed + sft_corrupt == sft_count;
 *   sft_elapsed_ns from the first send to the last answer.
 *   sft_failed_by[c] splits sft_failed by cause (enum lnet_selftest_cause,
 *   LNET_SELFTEST_CAUSES): the status of the message's end event
 *   (timeout, unreachable, shutdown, network), a message that could not
 *   be sent at all (start), or no end event within sft_timeout_ms
 *   (abandoned); they add up to sft_failed. LNet ends every message with
 *   exactly one event: its ACK or REPLY, or an event with an error
 *   status. sft_duplicate counts end events beyond the first for one
 *   message (a broken promise, always 0 when LNet keeps it); to see them
 *   the run waits, before it returns, until LNet has released every
 *   message it did not abandon. With sft_timeout_ms above LNet's own
 *   transaction timeout, abandoned is 0 too unless a message was lost.
 *   A message that timed out is abandoned (its buffer is freed when LNet
 *   is done with it).
 *   Errors: EINVAL (bad op or check, a malformed NID, a value out of range),
 *   EADDRNOTAVAIL (sft_src is well formed but not one of this node's NIDs,
 *   as for PING_PEER), ENETDOWN (LNet went down during the run). Failed messages
 *   are not errors: they are counted.
 */

/*
 * IOC_LNET_GET_IF (140)
 *   The interfaces an NI could be added on, as ADD_NET sees them (the
 *   kernel: the caller's network namespace; lnetd: its own), so that a
 *   configuration naming a NID (net add --nid) or address ranges (ip2nets)
 *   finds its interfaces where LNet runs. In: if_index (0, 1, ...: the
 *   index-th interface, in the system's order), if_want_len (0, 4 or 16:
 *   which address to report, EINVAL otherwise). Out: if_name, if_status
 *   (enum lnet_ni_status: up with IFF_UP and a carrier), and if_addr of
 *   if_addr_len bytes (4: IPv4, 16: IPv6, 0: none usable; loopback and
 *   link-local addresses never are): with if_want_len 0 its first IPv4
 *   address, else its first global IPv6 one (what ADD_NET gives without
 *   LNET_CONFIG_F_LARGE_NIDS; ip2nets matches these); with 4 or 16 its
 *   first usable address of that length only, so that a NID of either
 *   family finds a dual-stack interface (ADD_NET's ni_nid takes either).
 *   Errors: ENOENT past the last interface. Not a mutating command; LNet
 *   need not be configured (ENETDOWN is never returned).
 */
struct lnet_ioc_if {
	struct lnet_ioc_hdr if_hdr;
	__u32 if_index;
	__u32 if_status;			/* out: enum lnet_ni_status */
	char  if_name[LNET_IFNAME_LEN];		/* out */
	__u8  if_addr_len;			/* out: 0, 4 or 16 */
	__u8  if_want_len;			/* in: 0 (the default), 4 or 16 */
	__u8  if_pad[2];
	__u8  if_addr[16];			/* out: network byte order */
	__u32 if_reserved[3];
};
/* Decimal literals: lnetctl's help stringifies them. */
#define LNET_SELFTEST_MAX_SIZE		1048576
#define LNET_SELFTEST_MAX_COUNT		1000000
#define LNET_SELFTEST_MAX_CONCURRENCY	64
#define LNET_SELFTEST_MAX_TIMEOUT_S	3600
#define LNET_SELFTEST_MAX_TIMEOUT_MS	(LNET_SELFTEST_MAX_TIMEOUT_S * 1000U)

/*
 * Why a selftest message failed (the index of sft_failed_by); the name is
 * the key lnetctl prints under failed_by. X(id, name)
 */
#define LNET_SELFTEST_CAUSES(X)						\
	X(LNET_SELFTEST_FAIL_TIMEOUT, timeout)		/* LNet's timeout */	\
	X(LNET_SELFTEST_FAIL_UNREACHABLE, unreachable)	/* no path to it */	\
	X(LNET_SELFTEST_FAIL_SHUTDOWN, shutdown)	/* LNet or an NI going down */ \
	X(LNET_SELFTEST_FAIL_NETWORK, network)		/* any other error status */ \
	X(LNET_SELFTEST_FAIL_START, start)		/* could not be sent at all */ \
	X(LNET_SELFTEST_FAIL_ABANDONED, abandoned)	/* no end within sft_timeout_ms */

enum lnet_selftest_cause {
#define LNET_SELFTEST_CAUSE_ENUM(id, name) id,
	LNET_SELFTEST_CAUSES(LNET_SELFTEST_CAUSE_ENUM)
#undef LNET_SELFTEST_CAUSE_ENUM
	LNET_SELFTEST_NCAUSES
};

enum lnet_selftest_op {
	LNET_SELFTEST_OP_PUT	= 1,
	LNET_SELFTEST_OP_GET	= 2,
};

/*
 * Data check modes: X(name, value); names as lnetctl takes them (selftest
 * put|get --check; selftest run and test add --check: lnet_lst.h).
 */
#define LNET_LST_CHECKS(X)	X(none, 1) X(simple, 2) X(full, 3)

enum lnet_lst_check {
#define LNET_LST_CHECK_ENUM(n, v) LNET_LST_CHECK_##n = v,
	LNET_LST_CHECKS(LNET_LST_CHECK_ENUM)
#undef LNET_LST_CHECK_ENUM
};

/* A simple check looks at both ends of every piece this long. */
#define LNET_SELFTEST_PAGE		4096
/* A selftest PUT's hdr_data: the check the target is to make. */
#define LNET_SELFTEST_HDR_MAGIC		0x4c535443U	/* "LSTC" */
#define LNET_SELFTEST_HDR_CHECK(mode)	\
	(((__u64)LNET_SELFTEST_HDR_MAGIC << 32) | (__u32)(mode))

struct lnet_ioc_selftest {
	struct lnet_ioc_hdr sft_hdr;
	__u32 sft_op;				/* in: enum lnet_selftest_op */
	__u32 sft_size;				/* in */
	struct lnet_nid sft_target;		/* in */
	struct lnet_nid sft_src;		/* in: zero = any */
	__u32 sft_count;			/* in */
	__u32 sft_concurrency;			/* in */
	__u32 sft_timeout_ms;			/* in */
	__u32 sft_check;			/* in: 0 or enum lnet_lst_check */
	__u64 sft_ok;				/* out */
	__u64 sft_failed;			/* out */
	__u64 sft_corrupt;			/* out */
	__u64 sft_elapsed_ns;			/* out */
	__u32 sft_failed_by[LNET_SELFTEST_NCAUSES];	/* out: enum lnet_selftest_cause */
	__u32 sft_duplicate;			/* out */
	__u32 sft_pad2;				/* one size on i386 and x86_64 */
	__u32 sft_reserved[4];
};

/*
 * IOC_LNET_EXPLAIN (150)
 * The path selection a send to ex_dst (from ex_src, or the zero NID: any
 * NI) would make now, traced as the core makes it: the same selection
 * code runs, with a trace attached and nothing committed (no round-robin
 * sequence moves, no peer is created, no message is sent). Read-only.
 *   In: ex_dst (any NID but the zero one), ex_src (zero, or one of our
 *   NIDs), everything else zero.
 *   Out: ex_path (enum lnet_explain_path), ex_rc (0, or the -errno a send
 *   would fail with: -EHOSTUNREACH when no path exists), ex_flags
 *   (LNET_EXPLAIN_F_*), ex_peer (the peer's primary NID when the peer
 *   exists), ex_ni / ex_lpni / ex_gw (the winners: local NI, the NI the
 *   message is addressed to on the wire, the gateway; zero NIDs where
 *   none), ex_ncand and ex_cand[]: every candidate the selection compared,
 *   in the order it compared them. A candidate's ec_verdict is
 *   LNET_EXPLAIN_C_WON for the one chosen at its step, else the criterion
 *   (enum lnet_explain_criterion) on which it lost to the candidate at
 *   index ec_against (~0: none: it was excluded before any comparison).
 *   ec_parent is the index of the route candidate whose gateway path the
 *   entry belongs to (~0: the path to the destination itself). When more
 *   candidates were compared than fit, the first LNET_EXPLAIN_MAX_CAND are
 *   kept and LNET_EXPLAIN_F_TRUNCATED is set.
 *   Errors: ENETDOWN (LNet down), EINVAL (a malformed or zero ex_dst, an
 *   output field not zero), EADDRNOTAVAIL (ex_src is not one of our NIDs),
 *   ENOMEM.
 */
enum lnet_explain_path {
	LNET_EXPLAIN_PATH_NONE	= 0,	/* no path: ex_rc says why */
	LNET_EXPLAIN_PATH_LOCAL	= 1,	/* to ourselves (lolnd) */
	LNET_EXPLAIN_PATH_DIRECT = 2,	/* on a local net */
	LNET_EXPLAIN_PATH_ROUTED = 3,	/* through a gateway */
};

#define LNET_EXPLAIN_F_NO_PEER		(1U << 0)	/* no peer yet: a send would make it */
#define LNET_EXPLAIN_F_DISCOVER		(1U << 1)	/* a send would discover the peer first */
#define LNET_EXPLAIN_F_MULTI_RAIL	(1U << 2)	/* the peer is Multi-Rail */
#define LNET_EXPLAIN_F_TRUNCATED	(1U << 3)	/* more candidates than ex_cand holds */

enum lnet_explain_kind {
	LNET_EXPLAIN_K_NET	= 1,	/* a local net and the peer's NIs on it */
	LNET_EXPLAIN_K_NI	= 2,	/* a local NI */
	LNET_EXPLAIN_K_PEER_NI	= 3,	/* a peer NI */
	LNET_EXPLAIN_K_ROUTE	= 4,	/* a route to the destination's net */
	LNET_EXPLAIN_K_REMOTE_NET = 5,	/* a remote net of a Multi-Rail peer */
};

/*
 * The criteria, in the order each step applies them: X(name, value, "words").
 * lnetctl prints the words; the core's comparisons return the value.
 */
#define LNET_EXPLAIN_CRITERIA(X)						\
	X(WON,		0,  "chosen")						\
	X(NET_UP,	1,  "local net has an NI up")				\
	X(PNET_HEALTH,	2,  "peer net health")					\
	X(PNET_PRIO,	3,  "peer net priority")				\
	X(NET_HEALTH,	4,  "local net health")					\
	X(NET_PRIO,	5,  "local net priority")				\
	X(PNET_RR,	6,  "peer net round robin")				\
	X(NET_RR,	7,  "local net round robin")				\
	X(NI_UP,	8,  "NI status")					\
	X(NI_HEALTH,	9,  "NI health")					\
	X(NI_PRIO,	10, "NI priority")					\
	X(NI_CREDITS,	11, "NI credits")					\
	X(NI_RR,	12, "NI round robin")					\
	X(LPNI_UP,	13, "peer NI status")					\
	X(LPNI_HEALTH,	14, "peer NI health")					\
	X(LPNI_PRIO,	15, "peer NI priority")					\
	X(LPNI_PREF,	16, "preferred source NI")				\
	X(LPNI_CREDITS,	17, "peer NI credits")					\
	X(LPNI_RR,	18, "peer NI round robin")				\
	X(RT_PREF,	19, "preferred router")					\
	X(RT_PRIO,	20, "route priority")					\
	X(RT_HOPS,	21, "route hops")					\
	X(RT_HEALTH,	22, "gateway NI health")				\
	X(RT_QUEUED,	23, "bytes queued to the gateway")			\
	X(RT_CREDITS,	24, "gateway NI credits")				\
	X(RT_RR,	25, "route round robin")				\
	X(RNET_HEALTH,	26, "remote peer net health")				\
	X(RNET_PRIO,	27, "remote peer net priority")				\
	X(RNET_RR,	28, "remote peer net round robin")			\
	X(TIE,		29, "tie: the earlier candidate stays")			\
	X(FAMILY,	30, "other address family than the NI")		\
	X(ROUTE_DOWN,	31, "route down or its gateway unreachable")		\
	X(NO_ROUTE,	32, "no alive route to the net")			\
	X(SOURCE,	33, "not the source asked for")

#define LNET_EXPLAIN_ENUM_(name, value, words) LNET_EXPLAIN_C_##name = value,
enum lnet_explain_criterion {
	LNET_EXPLAIN_CRITERIA(LNET_EXPLAIN_ENUM_)
	LNET_EXPLAIN_C_COUNT
};
#undef LNET_EXPLAIN_ENUM_

#define LNET_EXPLAIN_MAX_CAND	64
#define LNET_EXPLAIN_NONE	0xffffffffU	/* ec_against / ec_parent: none */

struct lnet_ioc_explain_cand {
	__u32 ec_kind;			/* enum lnet_explain_kind */
	__u32 ec_verdict;		/* enum lnet_explain_criterion */
	__u32 ec_against;		/* index of the winner it lost to, or NONE */
	__u32 ec_parent;		/* index of its route candidate, or NONE */
	struct lnet_nid ec_nid;		/* NI, peer NI, gateway; zero for nets */
	__u32 ec_net;			/* the local net (NET), the NI's net, the route's net */
	__u32 ec_peer_net;		/* NET, REMOTE_NET: the peer net */
	__u32 ec_up;			/* 1: up (NET: an NI up; ROUTE: alive) */
	__u32 ec_health;		/* NET: peer net health; others: their own */
	__u32 ec_health2;		/* NET: the local net's health */
	__u32 ec_priority;		/* NET: peer net priority; others: their own */
	__u32 ec_priority2;		/* NET: the local net's priority; ROUTE: hops */
	__u32 ec_pref;			/* PEER_NI: prefers the NI; ROUTE: preferred router */
	__s32 ec_credits;		/* NI, PEER_NI, ROUTE (the gateway NI's) */
	__u32 ec_seq;			/* round robin: NET: the peer net's */
	__u32 ec_seq2;			/* NET: the local net's */
	__u32 ec_pad[2];		/* zero: ec_queued on 8 bytes everywhere */
	__u64 ec_queued;		/* ROUTE: bytes queued to the gateway NI */
};

struct lnet_ioc_explain {
	struct lnet_ioc_hdr ex_hdr;
	struct lnet_nid ex_dst;			/* in */
	struct lnet_nid ex_src;			/* in: zero = any */
	__u32 ex_path;				/* out: enum lnet_explain_path */
	__s32 ex_rc;				/* out */
	__u32 ex_flags;				/* out: LNET_EXPLAIN_F_* */
	__u32 ex_ncand;				/* out */
	struct lnet_nid ex_peer;		/* out */
	struct lnet_nid ex_ni;			/* out */
	struct lnet_nid ex_lpni;		/* out */
	struct lnet_nid ex_gw;			/* out */
	__u32 ex_reserved[4];
	struct lnet_ioc_explain_cand ex_cand[LNET_EXPLAIN_MAX_CAND];	/* out */
};

#define IOC_LIBCFS_UNCONFIGURE	_IOWR(LNET_IOC_TYPE, 56, struct lnet_ioc_config)
#define IOC_LIBCFS_CONFIGURE	_IOWR(LNET_IOC_TYPE, 59, struct lnet_ioc_config)
#define IOC_LIBCFS_ADD_NET	_IOWR(LNET_IOC_TYPE, 84, struct lnet_ioc_ni)
#define IOC_LIBCFS_DEL_NET	_IOWR(LNET_IOC_TYPE, 85, struct lnet_ioc_ni)
#define IOC_LIBCFS_GET_NET	_IOWR(LNET_IOC_TYPE, 86, struct lnet_ioc_ni)
#define IOC_LIBCFS_ADD_PEER_NI	_IOWR(LNET_IOC_TYPE, 92, struct lnet_ioc_peer)
#define IOC_LIBCFS_DEL_PEER_NI	_IOWR(LNET_IOC_TYPE, 93, struct lnet_ioc_peer)
#define IOC_LIBCFS_GET_PEER_NI	_IOWR(LNET_IOC_TYPE, 94, struct lnet_ioc_peer)
#define IOC_LIBCFS_ADD_ROUTE	_IOWR(LNET_IOC_TYPE, 81, struct lnet_ioc_route)
#define IOC_LIBCFS_DEL_ROUTE	_IOWR(LNET_IOC_TYPE, 82, struct lnet_ioc_route)
#define IOC_LIBCFS_GET_ROUTE	_IOWR(LNET_IOC_TYPE, 83, struct lnet_ioc_route)
#define IOC_LIBCFS_CONFIG_RTR	_IOWR(LNET_IOC_TYPE, 87, struct lnet_ioc_routing)
#define IOC_LIBCFS_ADD_BUF	_IOWR(LNET_IOC_TYPE, 88, struct lnet_ioc_routing)
#define IOC_LIBCFS_GET_BUF	_IOWR(LNET_IOC_TYPE, 89, struct lnet_ioc_routing)
#define IOC_LIBCFS_GET_LNET_STATS _IOWR(LNET_IOC_TYPE, 91, struct lnet_ioc_stats)
#define IOC_LIBCFS_RESET_LNET_STATS _IOWR(LNET_IOC_TYPE, 110, struct lnet_ioc_stats)
#define IOC_LIBCFS_SET_GLOBAL	_IOWR(LNET_IOC_TYPE, 113, struct lnet_ioc_global)
#define IOC_LIBCFS_GET_GLOBAL	_IOWR(LNET_IOC_TYPE, 114, struct lnet_ioc_global)
#define IOC_LIBCFS_SET_HEALTH	_IOWR(LNET_IOC_TYPE, 102, struct lnet_ioc_health)
#define IOC_LIBCFS_SET_PEER_STATE _IOWR(LNET_IOC_TYPE, 112, struct lnet_ioc_peer)
#define IOC_LIBCFS_PING_PEER	_IOWR(LNET_IOC_TYPE, 62, struct lnet_ioc_ping)
#define IOC_LIBCFS_DISCOVER	_IOWR(LNET_IOC_TYPE, 77, struct lnet_ioc_ping)
#define IOC_LNET_SELFTEST	_IOWR(LNET_IOC_TYPE, 120, struct lnet_ioc_selftest)
#define IOC_LNET_GET_IF		_IOWR(LNET_IOC_TYPE, 140, struct lnet_ioc_if)
#define IOC_LNET_SET_NI_LND	_IOWR(LNET_IOC_TYPE, 141, struct lnet_ioc_ni)
#define IOC_LNET_GET_RTR_POOLS	_IOWR(LNET_IOC_TYPE, 142, struct lnet_ioc_rtr_pools)
#define IOC_LNET_EXPLAIN	_IOWR(LNET_IOC_TYPE, 150, struct lnet_ioc_explain)

#include "lnet_udsp.h"
#include "lnet_fault.h"
#include "lnet_lst.h"

#endif /* _UAPI_LNET_IOCTL_H */
