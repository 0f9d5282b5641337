/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libcfg: the user-space side of LNet configuration.
 *
 *  - the model: struct cfg_net, cfg_peer, cfg_policy, built by both the
 *    argv parser (lnetctl) and the YAML importer;
 *  - value parsers shared by argv and YAML;
 *  - one transport (struct cfg_handle): /dev/lnet when it exists, else
 *    lnetd's Unix socket;
 *  - operations that turn the model into ioctls and back.
 *
 * Nothing here prints or exits: functions return 0 or -errno and, where a
 * user could have caused the failure, fill a struct cfg_err with a message
 * that names the bad value and the allowed form.
 *
 * This is liblnetcfg's public header, installed as <lnet/cfg.h>: it uses
 * <stdint.h> types and includes only libc headers and the uapi headers
 * (installed beside it), never one of kernel/. Whatever it declares is
 * exported (liblnetcfg.map lists the same names); nothing else is.
 */
#ifndef LNET_CFG_H
#define LNET_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "lnet/lnet_nidexpr.h"	/* and so lnet_ioctl.h, lnet_udsp.h */

#ifdef __cplusplus
extern "C" {
#endif

#define CFG_DEFAULT_SOCKET	"/run/lnet/lnetd.sock"
#define CFG_DEV_PATH		"/dev/lnet"
#define CFG_MAX_IFS		32

/* Where a model object came from: a YAML node, or argv (line 0). */
struct cfg_loc {
	unsigned int line;	/* 1-based; 0 = not from a file */
	unsigned int col;	/* 1-based */
};

struct cfg_err {
	char msg[512];
	struct cfg_loc loc;	/* set when the error is tied to a YAML node */
};

/* Fill @err (printf-style); returns @rc so callers can `return cfg_fail(...)`. */
int cfg_fail(struct cfg_err *err, int rc, const struct cfg_loc *loc,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* --- the model --------------------------------------------------------------- */
/*
 * How the model grows without a new soname:
 *
 *  - Every model struct a program allocates (cfg_net, cfg_peer, cfg_route,
 *    cfg_policy) starts with @size, which its cfg_*_init() macro sets to
 *    sizeof the struct as the program was built; use the macro before
 *    anything else, also for a struct a function fills in. A later release
 *    only appends fields, and takes a field that lies past an older
 *    program's @size as its default. Every entry point refuses (-EINVAL)
 *    a @size smaller than the first release's (LNETCFG_0.1, never set up),
 *    and (-E2BIG) a larger one whose bytes past what the library knows are
 *    not zero (a newer program using newer fields); the library, init
 *    included, writes only @size bytes.
 *  - Lists (interfaces, peer NIDs, gateways) are arrays the library owns:
 *    read them as arrays (n->ifnames[i], p->nids[i], r->gws[i]), add with
 *    the parsers or cfg_*_append(), release with cfg_*_fini(); never assign
 *    the pointer or copy a struct that owns one. The limits below are
 *    checks, so a later release can raise them.
 *  - A struct cfg_doc is allocated by the library (cfg_doc_parse(),
 *    cfg_doc_read()) and released by cfg_doc_free(): read its fields, never
 *    allocate one. Its items are pointers, so they grow as above.
 *  - struct cfg_err and struct cfg_loc never change.
 */

struct cfg_net {
	uint32_t size;				/* set by cfg_net_init() */
	uint32_t net_id;
	uint32_t nifs;
	char (*ifnames)[LNET_IFNAME_LEN];	/* nifs names, at most CFG_MAX_IFS */
	struct lnet_ni_tunables tun;	/* lnet_tunables.h; -1 = default */
	struct cfg_loc loc;
	/* 0.2: tcp nets only (LNET_SOCK_TUNABLES), -1 = default */
	struct lnet_sock_tunables lnd_tun;
	/*
	 * 0.2: the zero NID, or the NID of the one NI of @n: the interface's
	 * address must make it (cfg_net_add() fails naming both otherwise).
	 */
	struct lnet_nid nid;
};

struct cfg_peer {
	uint32_t size;			/* set by cfg_peer_init() */
	struct lnet_nid prim;
	uint32_t flags;			/* LNET_PEER_F_NON_MR | LNET_PEER_F_LOCK_PRIM | _FORCE */
	uint32_t nnids;
	struct lnet_nid *nids;		/* nnids, at most LNET_PEER_MAX_NIS */
	struct cfg_loc loc;
};

struct cfg_policy {
	uint32_t size;			/* set by cfg_policy_init() */
	struct lnet_udsp_desc d;
	struct cfg_loc loc;
};

/* The functions behind the init macros: @size is sizeof the caller's struct. */
void cfg_net_init_size(struct cfg_net *n, size_t size);
void cfg_peer_init_size(struct cfg_peer *p, size_t size);
void cfg_policy_init_size(struct cfg_policy *p, size_t size);

#define cfg_net_init(n)		cfg_net_init_size((n), sizeof(*(n)))	/* tunables -1 */
#define cfg_peer_init(p)	cfg_peer_init_size((p), sizeof(*(p)))
#define cfg_policy_init(p)	cfg_policy_init_size((p), sizeof(*(p)))	/* idx -1, no action */

/* Release the lists (the struct stays initialized, with empty lists). */
void cfg_net_fini(struct cfg_net *n);
void cfg_peer_fini(struct cfg_peer *p);

/*
 * Append to a list: 0, -EINVAL (not initialized), -E2BIG (at the limit)
 * or -ENOMEM. The values are taken as they are: the parsers check them.
 */
int cfg_net_append(struct cfg_net *n, const char *ifname);
int cfg_peer_append(struct cfg_peer *p, const struct lnet_nid *nid);

/* --- value parsers (argv and YAML) ---------------------------------------- */
/*
 * Each returns 0 or -EINVAL/-ERANGE and fills @err with a message of the
 * form: invalid <what> '<value>': <allowed form>. @what names the option or
 * key ("--priority", "priority").
 */
/* Decimal digits (a leading '-' for s32), as YAML 1.2 reads an integer. */
int cfg_parse_u32(const char *what, const char *s, uint32_t min, uint32_t max,
		  uint32_t *out, struct cfg_err *err);
int cfg_parse_s32(const char *what, const char *s, int32_t min, int32_t max,
		  int32_t *out, struct cfg_err *err);
/*
 * The same for a command-line word, read as Lustre's lnetctl reads numbers
 * (strtol with base 0): decimal, 0x/0X then hex digits, or 0 then octal
 * digits ("0x10" and "020" are 16). The message is the decimal one's.
 */
int cfg_parse_arg_u32(const char *what, const char *s, uint32_t min, uint32_t max,
		      uint32_t *out, struct cfg_err *err);
int cfg_parse_arg_s32(const char *what, const char *s, int32_t min, int32_t max,
		      int32_t *out, struct cfg_err *err);
int cfg_parse_bool(const char *what, const char *s, bool *out, struct cfg_err *err);
int cfg_parse_net(const char *what, const char *s, uint32_t *net_id, struct cfg_err *err);
int cfg_parse_nid(const char *what, const char *s, struct lnet_nid *nid,
		  struct cfg_err *err);
int cfg_parse_nidexpr(const char *what, const char *s, struct lnet_nidexpr *e,
		      struct cfg_err *err);
/* "eth0,eth1" appended to n->ifnames (names checked: 1..15 chars, no '/'). */
int cfg_parse_ifnames(const char *what, const char *s, struct cfg_net *n,
		      struct cfg_err *err);
/*
 * A CPT list as Lustre writes one: "[0,1]", "[0-3]", "[0,2-3]" or a bare
 * partition "0". Each partition 0..CFG_CPT_MAX; @mask (may be NULL) gets
 * bit N for each partition N below 64. This node has one partition: its
 * callers accept the list and run every NI on partition 0.
 */
#define CFG_CPT_MAX	1023
int cfg_parse_cpts(const char *what, const char *s, uint64_t *mask,
		   struct cfg_err *err);
/* Comma-separated NIDs or NID ranges ("10.0.0.[1-3]@tcp,5@gni") appended to p->nids. */
int cfg_parse_nidlist(const char *what, const char *s, struct cfg_peer *p,
		      struct cfg_err *err);
/*
 * The canonical text of a NID ("10.0.0.1@tcp"), a net ("tcp1") or an
 * expression ("10.0.[0-3].*@o2ib1") in @buf (LNET_NID_STR_MAX,
 * LNET_NET_STR_MAX, LNET_EXPR_STR_MAX bytes are enough); "?" when @len is
 * too small or the value is not valid. Returns @buf.
 */
const char *cfg_nid_str(const struct lnet_nid *nid, char *buf, size_t len);
const char *cfg_net_str(uint32_t net_id, char *buf, size_t len);
const char *cfg_nidexpr_str(const struct lnet_nidexpr *e, char *buf, size_t len);
/*
 * Does @nid match @e? Its net must be one of @e's nets and, unless @e is a
 * net expression, its address must be held by @e's address lists.
 */
bool cfg_nidexpr_match_nid(const struct lnet_nidexpr *e, const struct lnet_nid *nid);
/*
 * The action of a policy whose descriptors are set, as lnetctl and the
 * importer derive it: an explicit priority makes a PRIORITY rule; without
 * one, a src+dst or dst+rte rule is a PREFERRED_LIST rule and a
 * single-descriptor rule gets PRIORITY 0. Then the shape is checked.
 */
int cfg_policy_finish(struct cfg_policy *p, bool has_priority, uint32_t priority,
		      struct cfg_err *err);

/* --- legacy module parameters --------------------------------------------- */
/*
 * The lnet module's networks=, ip2nets= and routes= strings (NULL: not
 * given), as a site wrote them for modprobe (lnetctl convert).
 */
struct cfg_legacy {
	const char *networks;
	const char *ip2nets;
	const char *routes;
};

/*
 * Find the three in the `options lnet ...` lines of a modprobe.d file:
 * @text is cut up in place and @l points into it. Lines of other modules,
 * comments and other lnet parameters are skipped. Errors (-EINVAL): a
 * parameter given twice, an unterminated quote.
 */
int cfg_legacy_modprobe(char *text, struct cfg_legacy *l, struct cfg_err *err);
/*
 * Write the YAML configuration they describe to @out: `net:` (networks),
 * `ip2nets:` and `route:`, in the import layout. Nothing is written when
 * a string is malformed: -EINVAL (-ERANGE: a number out of range) with a
 * message naming the parameter and the part. Also -EINVAL: nothing given,
 * networks and ip2nets both given.
 */
int cfg_legacy_yaml(const struct cfg_legacy *l, FILE *out, struct cfg_err *err);

/* --- transport ------------------------------------------------------------ */

struct cfg_handle;

/*
 * @socket: NULL = automatic: /dev/lnet if it exists, else $LNET_SOCKET,
 * else CFG_DEFAULT_SOCKET. A non-NULL path always means lnetd's socket.
 * The connection is made lazily by the first cfg_ioctl(). Errors: -ENOMEM.
 */
int cfg_open(const char *socket, struct cfg_handle **h);
void cfg_close(struct cfg_handle *h);
/* What cfg_ioctl() talks to, for messages: "/dev/lnet" or the socket path. */
const char *cfg_target(const struct cfg_handle *h);
/*
 * Send @buf (starting with struct lnet_ioc_hdr, ioc_len set; ioc_version is
 * filled in here) and read the reply into it. Returns 0 or -errno: the
 * command's own errors, or -ECONNREFUSED/-ENOENT when lnetd is not there.
 */
int cfg_ioctl(struct cfg_handle *h, unsigned int cmd, void *buf);
/*
 * Ctrl-C for a caller that catches SIGINT: while cfg_ioctl() waits for
 * lnetd's reply, after each signal (and before each read), @stop(@arg)
 * says whether to give up: then the call ends with -EINTR (the request may
 * still complete in lnetd). @stop NULL: never. A wait on /dev/lnet ends
 * when the kernel's does (its own timeout): the module waits past every
 * signal but a fatal one.
 */
void cfg_set_interrupt(struct cfg_handle *h, bool (*stop)(void *arg), void *arg);
/*
 * After a failed cfg_ioctl(): true when the failure was reaching the target
 * (connect, send or receive), false when the command itself returned the
 * error. Tells "no lnetd" (-ENOENT) from a command's -ENOENT.
 */
bool cfg_unreachable(const struct cfg_handle *h);

/* --- operations ----------------------------------------------------------- */
/* Each returns 0 or -errno with a message in @err. */

/* cfg_lnet_configure_flags() with no flag. */
int cfg_lnet_configure(struct cfg_handle *h, struct cfg_err *err);
/*
 * Bring LNet up with @flags, LNET_CONFIG_F_* of lnet_ioctl.h (-EINVAL for
 * another bit, nothing sent): LNET_CONFIG_F_LARGE_NIDS (`lnet configure
 * --large`) makes an interface's IPv6 address come first for the NIs
 * added by interface until the unconfigure, also when LNet was up already.
 */
int cfg_lnet_configure_flags(struct cfg_handle *h, uint32_t flags, struct cfg_err *err);
int cfg_lnet_unconfigure(struct cfg_handle *h, struct cfg_err *err);

/* One NI per interface; a failure deletes the NIs this call added. */
int cfg_net_add(struct cfg_handle *h, const struct cfg_net *n, struct cfg_err *err);
/*
 * The NIs Lustre's ip2nets string @rules ("tcp(eth0) 192.168.0.[2,4];
 * o2ib 10.0.0.*") gives on the interfaces where LNet runs, each with the
 * tunables of @tmpl (NULL: defaults): all added, or none.
 */
int cfg_net_add_ip2nets(struct cfg_handle *h, const char *rules, const struct cfg_net *tmpl,
			struct cfg_err *err);
/*
 * The LND tunables @rows (LNET_NI_LND_ROW() bits) of running NIs changed in
 * place to those of @t (-1 = the default): the NI of @nid, else (NULL)
 * every NI of net @net_id, else (0) every tcp NI. All of them, or none.
 */
int cfg_net_lnd_set(struct cfg_handle *h, uint32_t net_id, const struct lnet_nid *nid,
		    const struct lnet_sock_tunables *t, uint32_t rows, struct cfg_err *err);
/* n->nifs == 0: the whole net; else those NIs. */
int cfg_net_del(struct cfg_handle *h, const struct cfg_net *n, struct cfg_err *err);
/* The index-th NI (of net @net_id, 0 = all): 0, or -ENOENT past the end. */
int cfg_ni_get(struct cfg_handle *h, uint32_t index, uint32_t net_id,
	       struct lnet_ioc_ni *out);

/* Creates the peer (if needed) and adds p->nids; a failure undoes this call. */
int cfg_peer_add(struct cfg_handle *h, const struct cfg_peer *p, struct cfg_err *err);
/* p->nnids == 0: the whole peer; else those NIs. */
int cfg_peer_del(struct cfg_handle *h, const struct cfg_peer *p, struct cfg_err *err);
/* The index-th peer NI (of the peer owning @nid, NULL = all): 0 or -ENOENT. */
int cfg_peer_ni_get(struct cfg_handle *h, uint32_t index, const struct lnet_nid *nid,
		    struct lnet_ioc_peer *out);

/*
 * The health of the local NI (@kind LNET_HEALTH_LOCAL_NI, never 0@lo) or
 * the peer NI (LNET_HEALTH_PEER_NI) @nid, or of every one of the kind when
 * @nid is NULL, to @value (0..LNET_HEALTH_MAX): below the maximum, recovery
 * pings follow as after a failure. -ENOENT: no such NI.
 */
int cfg_health_set(struct cfg_handle *h, uint32_t kind, const struct lnet_nid *nid,
		   uint32_t value, struct cfg_err *err);
/*
 * The state bits of the peer that owns @nid to @state (LNET_PEER_STATE_*,
 * within LNET_PEER_STATE_SETTABLE). -ENOENT: no such peer.
 */
int cfg_peer_state_set(struct cfg_handle *h, const struct lnet_nid *nid, uint32_t state,
		       struct cfg_err *err);

/* On success p->d.idx holds where the rule landed. */
int cfg_policy_add(struct cfg_handle *h, struct cfg_policy *p, struct cfg_err *err);
/* idx -1 = all. */
int cfg_policy_del(struct cfg_handle *h, int32_t idx, struct cfg_err *err);
/* 0, or -ENOENT when there is no rule @idx. */
int cfg_policy_get(struct cfg_handle *h, uint32_t idx, struct cfg_policy *out);

/* --- routes, routing, router buffers, global settings, statistics ----------- */
/* (ops_route.c, ops_global.c) */

struct cfg_route {
	uint32_t size;			/* set by cfg_route_init() */
	uint32_t net_id;			/* the remote net */
	uint32_t ngws;			/* one route per gateway NID */
	struct lnet_nid *gws;		/* ngws, at most LNET_PEER_MAX_NIS */
	int32_t hops;			/* LNET_ROUTE_HOPS_UNSET (-1) or 1-255 */
	uint32_t priority;			/* 0-LNET_ROUTE_PRIORITY_MAX, 0 highest */
	struct cfg_loc loc;
};

void cfg_route_init_size(struct cfg_route *r, size_t size);
#define cfg_route_init(r)	cfg_route_init_size((r), sizeof(*(r)))	/* hops unset */
void cfg_route_fini(struct cfg_route *r);
int cfg_route_append(struct cfg_route *r, const struct lnet_nid *gw);
/* "10.0.0.[1-3]@tcp,10.0.1.1@tcp" appended to r->gws (ranges expanded). */
int cfg_parse_gateways(const char *what, const char *s, struct cfg_route *r,
		       struct cfg_err *err);
/* One route per gateway; a failure deletes what this call added. */
int cfg_route_add(struct cfg_handle *h, const struct cfg_route *r, struct cfg_err *err);
/* The route to r->net_id through each of r->gws. */
int cfg_route_del(struct cfg_handle *h, const struct cfg_route *r, struct cfg_err *err);
/* The index-th route (of net @net_id, 0 = all): 0, or -ENOENT past the end. */
int cfg_route_get(struct cfg_handle *h, uint32_t index, uint32_t net_id,
		  struct lnet_ioc_route *out);

/*
 * The name of router buffer kind @kind (enum lnet_buf_kind: "tiny",
 * "small", "large"), NULL past the last: a function, so that a later
 * release can add kinds.
 */
const char *cfg_buf_name(unsigned int kind);
/*
 * A count of buffers of @kind: 0 (the default) or its range; message names
 * @what. cfg_parse_buffers() reads decimal (YAML), cfg_parse_arg_buffers()
 * a command-line word as cfg_parse_arg_s32() does ("0x800").
 */
int cfg_parse_buffers(const char *what, const char *s, unsigned int kind, int32_t *out,
		      struct cfg_err *err);
int cfg_parse_arg_buffers(const char *what, const char *s, unsigned int kind, int32_t *out,
			  struct cfg_err *err);

int cfg_routing_set(struct cfg_handle *h, uint32_t enable, struct cfg_err *err);
/*
 * counts[k] is the count of kind k, for k < @nkinds: -1 (leave it as it
 * is), 0 (the default) or its range. The kinds from @nkinds on are left
 * as they are; an @nkinds above the kinds this library has is -EINVAL.
 */
int cfg_buffers_set(struct cfg_handle *h, const int32_t *counts, unsigned int nkinds,
		    struct cfg_err *err);

/*
 * The global settings: the rows of LNET_GLOBALS (lnet_tunables.h), in the
 * order `global show` prints them. lnd_timeout is read-only: it is shown
 * (cfg_global_read) but cannot be set.
 */
struct cfg_global_spec {
	const char *name;
	uint32_t id;			/* enum lnet_global */
	uint32_t min, max, def;
};

/*
 * The setting called @name, or the @i-th in `global show` order (NULL past
 * the last): pointers, so that a later release can add fields and rows.
 */
const struct cfg_global_spec *cfg_global_find(const char *name);
const struct cfg_global_spec *cfg_global_spec_at(unsigned int i);

/* One setting (range and cross-checks explained in the message). */
int cfg_global_set(struct cfg_handle *h, const struct cfg_global_spec *s, uint32_t value,
		   struct cfg_err *err);

int cfg_stats_get(struct cfg_handle *h, struct lnet_ioc_stats *st, struct cfg_err *err);
int cfg_stats_reset(struct cfg_handle *h, struct cfg_err *err);

/* Show output as YAML on @out (sec_*.c, show.c). */
int cfg_show_routes(struct cfg_handle *h, uint32_t net_id, const struct lnet_nid *gw,
		    bool verbose, FILE *out, struct cfg_err *err);
int cfg_show_routing(struct cfg_handle *h, FILE *out, struct cfg_err *err);
int cfg_show_global(struct cfg_handle *h, FILE *out, struct cfg_err *err);
int cfg_show_stats(struct cfg_handle *h, FILE *out, struct cfg_err *err);

/* --- ping, discover, selftest (ops_dp.c) ------------------------------------- */

#define CFG_PING_TIMEOUT_DEF	5	/* seconds: ping and discover */
#define CFG_PING_TIMEOUT_MAX	LNET_PING_TIMEOUT_MAX_S
#define CFG_SELFTEST_TIMEOUT_DEF 10	/* seconds per message */
#define CFG_SELFTEST_TIMEOUT_MAX LNET_SELFTEST_MAX_TIMEOUT_S

/*
 * A byte count of the command line: a number as cfg_parse_arg_u32() reads
 * it (decimal, 0x hex, 0 octal), optionally followed by K (x 1024) or M
 * (x 1048576), either case ("65536", "64K", "0x10K", "1M"); @min..@max bytes.
 */
int cfg_parse_size(const char *what, const char *s, uint32_t min, uint32_t max,
		   uint32_t *out, struct cfg_err *err);

/*
 * Ping @nid (IOC_LIBCFS_PING_PEER; @src NULL = any local NID) or, with
 * @discover, discover it (IOC_LIBCFS_DISCOVER; @force: even if already
 * discovered). Fills @out. On failure: "failed to ping|discover NID:
 * reason" in @err.
 */
int cfg_ping(struct cfg_handle *h, const struct lnet_nid *nid, const struct lnet_nid *src,
	     uint32_t timeout_ms, struct lnet_ioc_ping *out, struct cfg_err *err);
int cfg_discover(struct cfg_handle *h, const struct lnet_nid *nid, bool force,
		 uint32_t timeout_ms, struct lnet_ioc_ping *out, struct cfg_err *err);
/* The `ping:` or `discover:` (@key) document of the @n answers; nothing when n == 0. */
int cfg_show_ping(const char *key, const struct lnet_ioc_ping *res, size_t n, FILE *out,
		  struct cfg_err *err);

/* IOC_LNET_SELFTEST: the in fields of @req set by the caller, the out fields filled. */
int cfg_selftest(struct cfg_handle *h, struct lnet_ioc_selftest *req, struct cfg_err *err);
/* The `selftest:` document of a finished run. */
int cfg_show_selftest(const struct lnet_ioc_selftest *req, FILE *out, struct cfg_err *err);

/* --- selftest run: the lnet_selftest console (ops_lst.c, lnet_lst.h) ---------- */

/* --test and --check words (LNET_LST_TESTS, LNET_LST_CHECKS) to values. */
int cfg_lst_test_parse(const char *s, uint32_t *test, struct cfg_err *err);
int cfg_lst_check_parse(const char *s, uint32_t *check, struct cfg_err *err);
/*
 * IOC_LNET_LST step @op (enum lnet_lst_op) with @req's in fields set by
 * the caller. A START that a node refused names the first such node and
 * its status (EHOSTUNREACH).
 */
int cfg_lst(struct cfg_handle *h, struct lnet_ioc_lst *req, uint32_t op, struct cfg_err *err);
/* One node's rates between two reads of its counters. */
struct cfg_lst_rates {
	double seconds;			/* between them, by the node's clock */
	double read_mb_s, write_mb_s;	/* LNet payload received, sent (10^6 B/s) */
	double rpc_s;			/* LNet messages sent and received */
	uint64_t errors;		/* the session's test errors + RPC failures */
};
void cfg_lst_rates(const struct lnet_ioc_lst_node *base, const struct lnet_ioc_lst_node *end,
		   struct cfg_lst_rates *r);
/* The `selftest_run:` document: @start's parameters, the rates @base -> @end. */
int cfg_show_lst(const struct lnet_ioc_lst *start, const struct lnet_ioc_lst *base,
		 const struct lnet_ioc_lst *end, FILE *out, struct cfg_err *err);

/* --- lst's model: session, groups, batches (ops_lst_model.c, lnet_lst.h) ------- */

/* A session, group or batch name of the command line (@what names it) into @name[32]. */
int cfg_lst_name_parse(const char *what, const char *s, char *name, struct cfg_err *err);
/* "active", "busy", "down", "unknown"; a node's status: "ok", "no answer" or strerror. */
const char *cfg_lst_state_str(uint32_t state);
const char *cfg_lst_status_str(uint32_t status);
/*
 * IOC_LNET_LST op @op of the session model with @req's in fields set by
 * the caller: checked first (a bad field named), a refusal in one message
 * naming the session, group, batch or node (the first that failed).
 */
int cfg_lst_op(struct cfg_handle *h, struct lnet_ioc_lst *req, uint32_t op, struct cfg_err *err);
/* The `selftest_session:` document. */
int cfg_show_lst_session(struct cfg_handle *h, FILE *out, struct cfg_err *err);
/* The `selftest_group:` (@batches false) or `selftest_batch:` document; @name NULL: all. */
int cfg_show_lst_objs(struct cfg_handle *h, bool batches, const char *name, FILE *out,
		      struct cfg_err *err);
/* The `selftest_query:` document: @active client tests of batch @batch. */
int cfg_show_lst_query(const char *batch, uint32_t active, FILE *out, struct cfg_err *err);
/* One node's rates between two STATs of lst stat (section 6 of lst's model). */
struct cfg_lst_stat_rates {
	double seconds;				/* by the node's clock */
	double msgs_r, msgs_w;			/* LNet messages received, sent per second */
	double mb_r, mb_w;			/* LNet payload, 10^6 B/s */
	uint64_t errors;			/* test errors, RPC errors, dropped, expired */
};
void cfg_lst_stat_rates(const struct lnet_ioc_lst_node *base, const struct lnet_ioc_lst_node *end,
			struct cfg_lst_stat_rates *r);
/* The `selftest_stat:` document of group @group: rates @base -> @end of each node. */
int cfg_show_lst_stat(const char *group, const struct lnet_ioc_lst *base,
		      const struct lnet_ioc_lst *end, FILE *out, struct cfg_err *err);

/*
 * IOC_LNET_EXPLAIN: the path a send to @dst (from @src; NULL: any NI)
 * would take now, and every candidate the core compared on the way
 * (include/uapi/lnet/lnet_ioctl.h). Fills @out.
 */
int cfg_explain(struct cfg_handle *h, const struct lnet_nid *dst, const struct lnet_nid *src,
		struct lnet_ioc_explain *out, struct cfg_err *err);
/* The explanation as the `explain:` YAML document (@yaml) or as text. */
int cfg_show_explain(const struct lnet_ioc_explain *ex, bool yaml, FILE *out,
		     struct cfg_err *err);
/* The words of an enum lnet_explain_criterion ("peer net priority"...). */
const char *cfg_explain_criterion(uint32_t c);

/*
 * Fault injection (lnetctl fault, lnet_fault.h). The parsers take what
 * lnetctl's options do: a NID pattern ("*", "*@NET" or a NID), message
 * types ("PUT,GET", any case), portals ("4,12", each 0-63), health
 * statuses ("local_error,remote_dropped" or "random"); each returns 0 or
 * -EINVAL with the message naming @what and quoting the value.
 */
int cfg_parse_fault_nid(const char *what, const char *s, struct lnet_fault_nid *out,
			struct cfg_err *err);
int cfg_parse_fault_msgs(const char *what, const char *s, uint32_t *mask, struct cfg_err *err);
int cfg_parse_fault_portals(const char *what, const char *s, uint64_t *mask,
			    struct cfg_err *err);
int cfg_parse_fault_hstatus(const char *what, const char *s, uint32_t *mask,
			    struct cfg_err *err);
/* IOC_LNET_FAULT_ADD of @rule (its in fields), checked first with messages. */
int cfg_fault_add(struct cfg_handle *h, const struct lnet_ioc_fault *rule, struct cfg_err *err);
/*
 * Delete the rules of @type with exactly these patterns, or every one
 * (@src and @dst NULL); *@deleted (may be NULL) gets how many. -ENOENT: none.
 */
int cfg_fault_del(struct cfg_handle *h, uint32_t type, const struct lnet_fault_nid *src,
		  const struct lnet_fault_nid *dst, uint32_t *deleted, struct cfg_err *err);
/* The counters of every rule of @type back to 0. */
int cfg_fault_reset(struct cfg_handle *h, uint32_t type, struct cfg_err *err);
/* The @index-th rule of @type (0 = the oldest): 0, or -ENOENT past the last. */
int cfg_fault_get(struct cfg_handle *h, uint32_t type, uint32_t index,
		  struct lnet_ioc_fault *out);
/* The `fault:` document of every rule of @type; nothing when there is none. */
int cfg_fault_show(struct cfg_handle *h, uint32_t type, FILE *out, struct cfg_err *err);

/* --- YAML documents (import / export / show) ------------------------------- */

/*
 * A whole configuration: what an import file holds, what export writes.
 * The library allocates it (the routing, buffers and global sections are
 * kept inside, out of sight); fields are only ever appended.
 */
struct cfg_doc {
	struct cfg_net **nets;		/* one per local NI, or a whole net */
	size_t nnets;
	struct cfg_peer **peers;
	size_t npeers;
	struct cfg_policy **policies;
	size_t npolicies;
	struct cfg_route **routes;
	size_t nroutes;
};

/* Free @doc and everything it holds; NULL does nothing. */
void cfg_doc_free(struct cfg_doc *doc);
/*
 * Parse and validate a whole YAML document (Lustre's layout: net, peer,
 * udsp, route, routing, buffers, global) before anything is applied; on
 * success *@doc is the new document. Errors carry err->loc.
 */
int cfg_doc_parse(const char *text, size_t len, struct cfg_doc **doc,
		  struct cfg_err *err);
/*
 * Apply @doc (add, or delete with @del): only what differs from the running
 * configuration, so applying a document in force changes nothing and
 * deleting what is absent is no error. On failure everything this call
 * applied is undone and err says what failed (with its YAML location).
 */
int cfg_doc_apply(struct cfg_handle *h, const struct cfg_doc *doc, bool del,
		  struct cfg_err *err);
/*
 * What cfg_doc_apply() would change, one line per change on @out (the
 * grammar is in lnetctl(8), import --dry-run); nothing is changed.
 */
int cfg_doc_plan(struct cfg_handle *h, const struct cfg_doc *doc, bool del, FILE *out,
		 struct cfg_err *err);
/*
 * import --show: the running configuration of the objects @doc names (nets
 * by net and interface, peers by primary NID, routes by net and gateway,
 * rules by what they match, the routing, buffers and global keys listed),
 * as export --backup writes it, on @out. Changes nothing.
 */
int cfg_doc_show(struct cfg_handle *h, const struct cfg_doc *doc, FILE *out,
		 struct cfg_err *err);
/*
 * import --exec: parse a document of `ping:` and `discover:` sections
 * (Lustre's layout: nids: {0: NID, ...}; ping also timeout: ms, source:
 * NID), check all of it, then ping or discover each NID in order, writing
 * the answers as cfg_show_ping() does. The first failure stops it (err:
 * the failure, at the NID's line:column).
 */
int cfg_doc_exec(struct cfg_handle *h, const char *text, size_t len, FILE *out,
		 struct cfg_err *err);
/* The running configuration as a new *@doc (what export --backup writes). */
int cfg_doc_read(struct cfg_handle *h, struct cfg_doc **doc, struct cfg_err *err);

/* Show output as YAML on @out. */
int cfg_show_nets(struct cfg_handle *h, uint32_t net_id, int verbose, FILE *out,
		  struct cfg_err *err);
int cfg_show_peers(struct cfg_handle *h, const struct lnet_nid *nid, int verbose,
		   FILE *out, struct cfg_err *err);
int cfg_show_peer_list(struct cfg_handle *h, FILE *out, struct cfg_err *err);
/* idx -1 = every rule; no rules prints nothing. */
int cfg_show_policies(struct cfg_handle *h, int32_t idx, FILE *out, struct cfg_err *err);
/*
 * The rules that can set a value of @nid (NULL: of net @net_id), in idx
 * order, each as cfg_show_policies() prints it with the value it sets and
 * whether it decides it, then the values the rules give (lnetctl policy
 * show --nid, --net), as the engine finds them (IOC_LNET_UDSP_MATCH).
 */
int cfg_show_policy_match(struct cfg_handle *h, const struct lnet_nid *nid,
			  uint32_t net_id, FILE *out, struct cfg_err *err);
/* export: nets, peers, udsp; @backup = the re-importable form. */
int cfg_export(struct cfg_handle *h, bool backup, FILE *out, struct cfg_err *err);

#ifdef __cplusplus
}
#endif

#endif /* LNET_CFG_H */
