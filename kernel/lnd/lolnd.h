/* SPDX-License-Identifier: GPL-2.0-only */
/* lolnd (lolnd.c): the LND of 0@lo and of sends to our own NIDs. */
#ifndef LNET_LOLND_H
#define LNET_LOLND_H

#include "../core/lnet.h"

/*
 * Register lolnd with @ln (before lnet_configure): without it 0@lo is
 * configuration only and a send to one of our NIDs fails. 0 or -errno from
 * lnet_lnd_register().
 */
int lnet_lolnd_register(struct lnet *ln);

#endif /* LNET_LOLND_H */
