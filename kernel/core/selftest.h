/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The selftest service (selftest.c) and IOC_LNET_SELFTEST: every node
 * answers on portal LNET_SELFTEST_PORTAL, PUTs into a pool of sink
 * buffers that are checked against the pattern, GETs from one source MD
 * holding the pattern. lnet_selftest_run() drives the initiator side.
 * Internal to kernel/core (ioctl.c reads the counters).
 */
#ifndef LNET_CORE_SELFTEST_H
#define LNET_CORE_SELFTEST_H

#include "lnet.h"

/* Sinks posted at once: one per connection that may be receiving a PUT. */
#define LNET_SELFTEST_NSINKS	8

/* Byte @i of every selftest message. */
static inline u8 lnet_selftest_byte(u32 i)
{
	return (u8)(i * 31 + 7);
}

struct lnet_selftest_sink {
	struct lnet_selftest *sk_svc;
	u8 *sk_buf;				/* LNET_SELFTEST_MAX_SIZE bytes */
	struct lnet_handle_md sk_mdh;
	bool sk_posted;				/* an ME+MD is attached on it */
	bool sk_unlinking;			/* lnet_md_unlink() was called */
};

/* ln->ln_dp.dp_selftest */
struct lnet_selftest {
	u8 *st_pattern;				/* LNET_SELFTEST_MAX_SIZE bytes */
	struct lnet_selftest_sink st_sinks[LNET_SELFTEST_NSINKS];
	struct lnet_handle_md st_src_mdh;	/* GET source */
	bool st_src_posted;
	u32 st_live_mds;			/* sinks + source not yet unlinked */
	struct list_head st_slots;		/* initiator MDs not yet unlinked */
	struct list_head st_runs;		/* runs waiting (struct lnet_selftest_run) */
	bool st_stopping;			/* lnet_selftest_fini() was called */
	u64 st_corrupt;				/* PUTs received with bad bytes */
};

/*
 * lnet_selftest_init() / lnet_selftest_fini() (lnet_msg.h) set the service
 * up and tear it down: runs waiting then end with -ENETDOWN, and the
 * service is freed with its last MD (after the unlinked events).
 */

/*
 * Run IOC_LNET_SELFTEST (arguments already checked by ioctl.c): fills the
 * out fields of @req. 0, or -ENETDOWN when LNet went down meanwhile,
 * -ENOMEM. Waits on the run's own condition with the lock released.
 */
int lnet_selftest_run(struct lnet *ln, struct lnet_ioc_selftest *req);

static inline u64 lnet_selftest_corrupt(const struct lnet *ln)
{
	const struct lnet_selftest *st = ln->ln_dp.dp_selftest;

	return st ? st->st_corrupt : 0;
}

static inline void lnet_selftest_corrupt_reset(struct lnet *ln)
{
	struct lnet_selftest *st = ln->ln_dp.dp_selftest;

	if (st)
		st->st_corrupt = 0;
}

#endif /* LNET_CORE_SELFTEST_H */
