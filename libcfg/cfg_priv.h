/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What libcfg's own files include: the public <lnet/cfg.h>, and the
 * internal headers the library is written against but does not install:
 * the OS layer's types and helpers (u32, list_head, os_zalloc), the NID
 * library and the UDSP wire form. cfg.h declares with <stdint.h> types;
 * u32 and friends are typedefs of them, so the definitions match.
 */
#ifndef LNET_CFG_PRIV_H
#define LNET_CFG_PRIV_H

#include "cfg.h"
#include "../kernel/nid/nid.h"
#include "../kernel/udsp/udsp_wire.h"

#endif /* LNET_CFG_PRIV_H */
