/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fault injection (fault.c): drop and delay rules on the data path, as
 * lnet_fault.h describes them. All of it runs with ln_api_mutex held.
 */
#ifndef LNET_CORE_FAULT_H
#define LNET_CORE_FAULT_H

#include "lnet.h"

/* lnet_init(): empty lists. */
void lnet_fault_init(struct lnet *ln);
/*
 * The send hook, called by lnet_send_msg() once the path is chosen and the
 * header addressed, before any credit is taken. True: a rule took @msg
 * (dropped: finalized already; delayed: held until released); false: send
 * it on.
 */
bool lnet_fault_send(struct lnet *ln, struct lnet_msg *msg);
/* The receive hook of lnet_parse_locked(): true when @hdr is to be dropped. */
bool lnet_fault_recv(struct lnet *ln, struct lnet_ni *ni, const struct lnet_hdr *hdr);
/*
 * The receive hook's second half, once no drop rule took @hdr: true when a
 * delay rule holds it (lnet_parse_resume() follows). Not on lo, whose
 * sender is finalized as soon as the receive is done.
 */
bool lnet_fault_recv_hold(struct lnet *ln, struct lnet_ni *ni, const struct lnet_hdr *hdr,
			  const struct lnet_nid *from, void *private);
/* The LND's connection @private of @ni is gone: forget what it held there. */
void lnet_fault_rx_abandon(struct lnet *ln, struct lnet_ni *ni, void *private);
/* @ni goes down: what was held on it is discarded (the LND still runs). */
void lnet_fault_forget_ni(struct lnet *ln, struct lnet_ni *ni);
/* The monitor, each tick: send on the held messages whose time has come. */
void lnet_fault_tick(struct lnet *ln, u64 now_ns);
/*
 * Unconfigure (lnet_dp_shutdown, before the LNDs go): every held message
 * fails with -ESHUTDOWN, every rule is freed.
 */
void lnet_fault_shutdown(struct lnet *ln);

/* The ioctl handlers (ioctl.c's table) and their reserved-field check. */
bool lnet_fault_reserved_zero(const void *buf);
int lnet_ioc_fault(struct lnet *ln, unsigned int cmd, void *buf, u32 len);

#endif /* LNET_CORE_FAULT_H */
