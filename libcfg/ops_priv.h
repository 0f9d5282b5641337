/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Shared by libcfg's operations (ops_*.c): request setup and error messages. */
#ifndef LNET_CFG_OPS_PRIV_H
#define LNET_CFG_OPS_PRIV_H

#include "cfg.h"
#include "../kernel/core/validate.h"

/*
 * The message for an error every command can return (lnetd unreachable,
 * LNet down, permission, ABI version, memory), else "<doing>: <strerror>".
 * Returns @rc.
 */
int cfg_ioc_fail(struct cfg_handle *h, int rc, struct cfg_err *err,
		 const struct cfg_loc *loc, const char *doing);

/* Canonical text of a NID / net, for messages. */
const char *cfg_nid_str(const struct lnet_nid *nid, char *buf, size_t len);
const char *cfg_net_str(u32 net_id, char *buf, size_t len);

/*
 * ops_global.c: the cross-checks among the global settings of a document,
 * whatever order they are applied in (the ones it leaves out count at
 * their defaults; the running values are checked when applying).
 */
int cfg_global_doc_check(const struct cfg_global *g, struct cfg_err *err);

#endif /* LNET_CFG_OPS_PRIV_H */
