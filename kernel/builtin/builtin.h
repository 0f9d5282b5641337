/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The parts every instance is built with, above the core, the policy
 * engine and the LNDs: the UDSP engine and lolnd. Whoever builds an
 * instance (the lnet module, lnetd, tests, benches, fuzzers) calls
 * lnet_builtin_register() right after lnet_init(); the core itself knows
 * neither part.
 */
#ifndef LNET_BUILTIN_H
#define LNET_BUILTIN_H

#include "../core/lnet.h"

/*
 * Register the UDSP engine and lolnd on @ln (before lnet_configure, so
 * that 0@lo comes up in lolnd). 0 or -errno of the first that failed;
 * lnet_fini() releases what was registered either way.
 */
int lnet_builtin_register(struct lnet *ln);

#endif /* LNET_BUILTIN_H */
