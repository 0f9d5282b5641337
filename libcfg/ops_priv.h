/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by libcfg's operations (ops_*.c) and sections (sec_*.c): error
 * messages, the size check of model structs, and the routing and global
 * values a document holds (inside the library only: their arrays follow
 * the uapi enums, which grow).
 */
#ifndef LNET_CFG_OPS_PRIV_H
#define LNET_CFG_OPS_PRIV_H

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
 * Check @size, the first field of a model struct of @known bytes in this
 * release: 0, -EINVAL (smaller: not set up by its init macro) or -E2BIG
 * (larger, with bytes past @known that are not zero), with a message
 * naming @type. @err may be NULL. This release is the first, so smaller
 * is never valid; once a struct gains a field, its callers check against
 * the first release's size and default what an older program lacks.
 */
int cfg_model_size(const void *obj, size_t known, const char *type, struct cfg_err *err);
/*
 * Append @item (@size bytes) to the array *@arr of @n items, at most @max:
 * 0, -E2BIG or -ENOMEM. The room is known from @n alone (4, then doubled
 * at each power of two), so a list whose count is lowered stays valid.
 */
int cfg_list_append(void *arr, size_t n, size_t max, const void *item, size_t size);

/* The routing and buffers sections; @set says which fields were given. */
#define CFG_RTR_ENABLE		(1U << 0)
#define CFG_RTR_BUF(kind)	(2U << (kind))
struct cfg_routing {
	u32 set;
	u32 enable;			/* 0 or 1 */
	s32 buffers[LNET_NBUF_KINDS];	/* enum lnet_buf_kind; 0 = default */
	struct cfg_loc loc, buffers_loc;
};

int cfg_routing_get(struct cfg_handle *h, struct cfg_routing *out, struct cfg_err *err);

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

#endif /* LNET_CFG_OPS_PRIV_H */
