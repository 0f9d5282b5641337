/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by libcfg's operations (ops_*.c) and sections (sec_*.c): error
 * messages, the size check of model structs, and the routing and global
 * values a document holds (inside the library only: their arrays follow
 * the uapi enums, which grow).
 */
#ifndef LNET_CFG_OPS_PRIV_H
#define LNET_CFG_OPS_PRIV_H

#include <stddef.h>

#include "cfg_priv.h"
#include "../kernel/core/validate.h"

/*
 * The message for an error every command can return (lnetd unreachable,
 * LNet down, permission, ABI version, memory), else "<doing>: <strerror>".
 * Returns @rc.
 */
int cfg_ioc_fail(struct cfg_handle *h, int rc, struct cfg_err *err,
		 const struct cfg_loc *loc, const char *doing);

/*
 * A model struct's size in the first release (LNETCFG_0.1), through its
 * last field then: the least @size an entry point takes. A field a later
 * release appends lies past it, so an older program's struct lacks it.
 */
#define CFG_SIZE_THROUGH(type, field)	(offsetof(type, field) + sizeof(((type *)0)->field))
#define CFG_NET_SIZE_0_1	CFG_SIZE_THROUGH(struct cfg_net, loc)
#define CFG_PEER_SIZE_0_1	CFG_SIZE_THROUGH(struct cfg_peer, loc)
#define CFG_POLICY_SIZE_0_1	CFG_SIZE_THROUGH(struct cfg_policy, loc)
#define CFG_ROUTE_SIZE_0_1	CFG_SIZE_THROUGH(struct cfg_route, loc)

/* A model struct as this release knows it (model.c). */
struct cfg_model {
	const char *name;			/* "cfg_net", for messages */
	size_t first;				/* CFG_*_SIZE_0_1 */
	size_t known;				/* sizeof in this release */
	void (*init)(void *obj, size_t size);	/* its cfg_*_init_size(): the defaults */
};

extern const struct cfg_model cfg_net_model, cfg_peer_model, cfg_policy_model,
	cfg_route_model;

/*
 * Check @size, the first field of model struct @obj: 0, -EINVAL (smaller
 * than m->first: not set up by its init macro) or -E2BIG (larger than
 * m->known, with bytes past it that are not zero: a newer program using
 * newer fields), with a message naming the type. @err may be NULL. Enough
 * for an entry point that touches only first-release fields (the lists,
 * the parsers, get): those lie within every @size it takes.
 */
int cfg_model_size(const void *obj, const struct cfg_model *m, struct cfg_err *err);
/*
 * What an entry point that reads @obj reads instead: @full (m->known
 * bytes) set up by m->init, then @obj's bytes over it, so a field past an
 * older program's @size has its default, as init gives it. @full's size is
 * m->known; its lists are @obj's (read them, do not free them). 0 or as
 * cfg_model_size().
 */
int cfg_model_read(const void *obj, void *full, const struct cfg_model *m,
		   struct cfg_err *err);
/*
 * Append @item (@size bytes) to the array *@arr of @n items, at most @max:
 * 0, -E2BIG or -ENOMEM. The room is known from @n alone (4, then doubled
 * at each power of two), so a list whose count is lowered stays valid.
 */
int cfg_list_append(void *arr, size_t n, size_t max, const void *item, size_t size);

/*
 * Rules added many to a request (IOC_LNET_ADD_UDSP_BATCH, lnet_udsp.h):
 * init, add each rule (checked as cfg_policy_add() checks it; a full
 * request goes out deferring the re-flatten), then end (the last request,
 * which re-flattens once). Each request is all or nothing; the first
 * failure is in err, pinned to its rule's loc. @applied says that some
 * request went through (its rules are in the list), @sent that one went
 * out deferred (end must re-flatten).
 */
struct cfg_policy_batch {
	struct cfg_handle *h;
	unsigned int cmd;		/* IOC_LNET_ADD_ or DEL_UDSP_BATCH */
	u8 *buf;			/* LNET_IOC_MAX_LEN bytes */
	u32 len, count;			/* bytes and records queued */
	struct cfg_loc *locs;		/* the loc of each record queued */
	bool sent, applied;
};

int cfg_policy_batch_init(struct cfg_policy_batch *b, struct cfg_handle *h);
int cfg_policy_batch_add(struct cfg_policy_batch *b, const struct cfg_policy *p,
			 struct cfg_err *err);
/*
 * The rule at @idx deleted (IOC_LNET_DEL_UDSP_BATCH), idx as the requests
 * queued before it leave the list; @loc names it in an error. Adds and
 * deletions may alternate: the queue goes out (deferred) at each switch.
 */
int cfg_policy_batch_del(struct cfg_policy_batch *b, s32 idx, const struct cfg_loc *loc,
			 struct cfg_err *err);
int cfg_policy_batch_end(struct cfg_policy_batch *b, struct cfg_err *err);
void cfg_policy_batch_fini(struct cfg_policy_batch *b);

/*
 * The running rules from idx @first on, many to a request
 * (IOC_LNET_GET_UDSP_BATCH), each through @fn (its d.idx set; stop with
 * non-zero). 0, @fn's value, or -errno (-EPROTO: a malformed reply).
 */
int cfg_policy_each(struct cfg_handle *h, u32 first,
		    int (*fn)(void *arg, struct cfg_policy *p), void *arg);

/* The routing and buffers sections; @set says which fields were given. */
#define CFG_RTR_ENABLE		(1U << 0)
#define CFG_RTR_BUF(kind)	(2U << (kind))
struct cfg_routing {
	u32 set;
	u32 enable;			/* 0 or 1: asked for (cfg_routing_get) */
	s32 buffers[LNET_NBUF_KINDS];	/* enum lnet_buf_kind; 0 = default */
	struct cfg_loc loc, buffers_loc;
};

/* The names of LNET_LST_TESTS and LNET_LST_CHECKS values ("?" for others). */
const char *cfg_lst_test_name(uint32_t test);
const char *cfg_lst_check_name(uint32_t check);

int cfg_routing_get(struct cfg_handle *h, struct cfg_routing *out, struct cfg_err *err);
/*
 * Partition @cpt's router buffer pools and the routing state
 * (IOC_LNET_GET_RTR_POOLS): 0; -ENOENT, with no message, for a @cpt past
 * the last partition (cpt 0 always exists).
 */
int cfg_rtr_pools_get(struct cfg_handle *h, u32 cpt, struct lnet_ioc_rtr_pools *out,
		      struct cfg_err *err);

struct cfg_global {
	u32 set;				/* bit (1 << id): value[id] given */
	u32 value[__LNET_GLOBAL_MAX];
	struct cfg_loc loc[__LNET_GLOBAL_MAX];
};

/* Every setting, lnd_timeout included. */
int cfg_global_read(struct cfg_handle *h, struct cfg_global *g, struct cfg_err *err);
/*
 * The settings of @g that are set, in an order the cross-checks accept
 * whatever the running values are; a failure restores what this call set.
 */
int cfg_global_apply(struct cfg_handle *h, const struct cfg_global *g, struct cfg_err *err);

/*
 * ops_global.c: the cross-checks among the global settings of a document,
 * whatever order they are applied in (the ones it leaves out count at
 * their defaults; the running values are checked when applying).
 */
/* The rows of LNET_GLOBALS, then a NULL name (cfg_global_spec_at() outside). */
extern const struct cfg_global_spec cfg_global_specs[];

int cfg_global_doc_check(const struct cfg_global *g, struct cfg_err *err);

/*
 * The @index-th interface where LNet runs (IOC_LNET_GET_IF) with its address
 * of length @want_len (0: the default one): 0, -ENOENT past the end.
 */
int cfg_if_get(struct cfg_handle *h, u32 index, u8 want_len, struct lnet_ioc_if *out);
/*
 * The interface that has @nid's address (its first IPv4 or first global
 * IPv6 one, as ADD_NET takes a NID), into @ifname (LNET_IFNAME_LEN bytes):
 * 0, or -ENODEV with the message.
 */
int cfg_if_of_nid(struct cfg_handle *h, const struct lnet_nid *nid,
		  const struct cfg_loc *loc, char *ifname, struct cfg_err *err);

/* The NI whose NID is @nid into *@out: 0, -ENOENT when there is none. */
int cfg_ni_of_nid(struct cfg_handle *h, const struct lnet_nid *nid, struct lnet_ioc_ni *out);

/*
 * One item of a range list at *@pp, "N", "N-M" or "N-M/STEP", each number
 * 0..@max (CPT lists, ip2nets octets), moving past it: 0, or -EINVAL /
 * -ERANGE (M below N, a step of 0, a number past @max).
 */
int cfg_parse_span(const char **pp, u32 max, u32 *lo, u32 *hi, u32 *step);

#endif /* LNET_CFG_OPS_PRIV_H */
