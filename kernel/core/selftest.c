// SPDX-License-Identifier: GPL-2.0-only
/*
 * The selftest service and IOC_LNET_SELFTEST.
 *
 * Target side (every configured instance): LNET_SELFTEST_NSINKS match
 * entries on LNET_SELFTEST_PORTAL take PUTs (LNET_SELFTEST_PUT_BITS)
 * into 1 MiB buffers; each has threshold 1, so a PUT unlinks it, and the
 * PUT event checks the bytes against the pattern (a mismatch counts in
 * st_corrupt, shown by `stats show` as selftest_corrupt) and posts it
 * again. One MD holding the pattern answers GETs (LNET_SELFTEST_GET_BITS).
 *
 * Initiator side (lnet_selftest_run): keeps up to `concurrency` messages
 * in flight, each with its own MD and a "slot" that lives until LNet is
 * done with that MD (its event with `unlinked` set): a run that gives up
 * on a message (timeout) leaves the slot behind, so LNet never writes
 * into freed memory. A message's outcome is its first decisive event:
 * an error status (failed), the ACK (ok, or corrupt when the target took
 * fewer bytes than sent), the REPLY (ok when every byte is the pattern,
 * else corrupt). The MD is then unlinked if LNet did not already.
 * A failure is counted by cause (enum lnet_selftest_cause); an end event
 * beyond the first one of a message is counted as a duplicate, which is
 * why a run waits until LNet released every message it did not give up
 * on (sr_live) before it returns: the soak's exactly-once check.
 *
 * Everything runs under ln_api_mutex; a run waits on its own condition
 * (sr_cond) with it released. Not on dp_cond: every finalize broadcasts
 * that, and a run woken per message costs a thread switch per message,
 * which is what small messages at concurrency 1 are made of. What the
 * run must see (an outcome it has to act on, an abort) broadcasts sr_cond.
 */
#include "lnet_priv.h"
#include "selftest.h"

enum lnet_selftest_outcome {
	LNET_ST_NONE,		/* not decided by this event */
	LNET_ST_OK,
	LNET_ST_FAILED,
	LNET_ST_CORRUPT,
};

/* One IOC_LNET_SELFTEST in progress (on the caller's stack). */
struct lnet_selftest_run {
	struct list_head sr_list;		/* on st_runs */
	const struct lnet_ioc_selftest *sr_req;
	u32 sr_started;
	u32 sr_inflight;
	u32 sr_live;				/* slots it owns, not yet freed */
	u64 sr_ok, sr_failed, sr_corrupt;
	u32 sr_failed_by[LNET_SELFTEST_NCAUSES];
	u32 sr_dup;				/* end events beyond the first */
	bool sr_aborted;			/* the service went away */
	struct os_cond sr_cond;			/* the ioctl thread waits here */
};

/* One initiator MD, from lnet_md_bind() to its unlinked event. */
struct lnet_selftest_slot {
	struct list_head sl_list;		/* on st_slots */
	struct lnet_selftest *sl_svc;
	struct lnet_selftest_run *sl_run;	/* NULL once counted */
	struct lnet_selftest_run *sl_owner;	/* NULL once given up on or freed */
	struct lnet_handle_md sl_mdh;
	u8 *sl_buf;				/* GET: the sink; PUT: NULL */
	u32 sl_size;
	u32 sl_check;				/* enum lnet_lst_check */
	u64 sl_deadline_ns;
	bool sl_done;				/* its outcome is counted */
	bool sl_unlinking;			/* lnet_md_unlink() was called */
};

static const struct lnet_nid lnet_selftest_any;	/* match any NID */

/* Do the @len bytes at @buf hold the pattern from byte 0, as far as @check looks? */
static bool lnet_selftest_bytes_ok(const struct lnet_selftest *svc, const u8 *buf,
				   u32 len, u32 check)
{
	const u8 *pat = svc->st_pattern;
	u32 off, end;

	if (check == LNET_LST_CHECK_none)
		return true;
	if (check != LNET_LST_CHECK_simple || len <= 16)
		return !memcmp(buf, pat, len);
	/* both ends of every page, and the message's last 8 bytes */
	for (off = 0; off < len; off += LNET_SELFTEST_PAGE) {
		end = len - off < LNET_SELFTEST_PAGE ? len : off + LNET_SELFTEST_PAGE;
		if (memcmp(buf + off, pat + off, 8) || memcmp(buf + end - 8, pat + end - 8, 8))
			return false;
	}
	return true;
}

/* The check a PUT's hdr_data asks for (LNET_SELFTEST_HDR_CHECK); full if none. */
static u32 lnet_selftest_hdr_check(u64 hdr_data)
{
	u32 mode = (u32)hdr_data;

	if ((u32)(hdr_data >> 32) != LNET_SELFTEST_HDR_MAGIC ||
	    mode < LNET_LST_CHECK_none || mode > LNET_LST_CHECK_full)
		return LNET_LST_CHECK_full;
	return mode;
}

/* Free what is left once no MD of the service remains (after fini). */
static void lnet_selftest_maybe_free(struct lnet_selftest *svc)
{
	unsigned int i;

	if (!svc->st_stopping || svc->st_live_mds || !list_empty(&svc->st_slots))
		return;
	for (i = 0; i < LNET_SELFTEST_NSINKS; i++)
		os_free(svc->st_sinks[i].sk_buf);
	os_free(svc->st_pattern);
	os_free(svc);
}

/* --- target side ------------------------------------------------------------ */

static void lnet_selftest_sink_event(struct lnet *ln, struct lnet_event *ev);

/*
 * A LNET_SELFTEST_MAX_SIZE-byte MD at @start on the selftest portal, taking
 * @op (LNET_MD_OP_PUT: the sinks, or LNET_MD_OP_GET: the source) from
 * anyone under that operation's match bits.
 */
static int lnet_selftest_attach(struct lnet *ln, u32 op, void *start, int threshold,
				void *user_ptr, lnet_handler_t handler,
				struct lnet_handle_md *mdh)
{
	struct lnet_md md = {
		.start = start,
		.length = LNET_SELFTEST_MAX_SIZE,
		.threshold = threshold,
		.options = op | LNET_MD_MANAGE_REMOTE,
		.user_ptr = user_ptr,
		.handler = handler,
	};
	u64 bits = op == LNET_MD_OP_PUT ? LNET_SELFTEST_PUT_BITS : LNET_SELFTEST_GET_BITS;

	return lnet_me_attach_md(ln, LNET_SELFTEST_PORTAL, &lnet_selftest_any,
				 LNET_PID_ANY, bits, 0, true, &md, mdh);
}

static int lnet_selftest_sink_post(struct lnet *ln, struct lnet_selftest_sink *sk)
{
	int rc;

	rc = lnet_selftest_attach(ln, LNET_MD_OP_PUT, sk->sk_buf, 1, sk,
				  lnet_selftest_sink_event, &sk->sk_mdh);
	if (rc)
		return rc;
	sk->sk_posted = true;
	sk->sk_unlinking = false;
	sk->sk_svc->st_live_mds++;
	return 0;
}

static void lnet_selftest_sink_unlink(struct lnet *ln, struct lnet_selftest_sink *sk)
{
	if (!sk->sk_posted || sk->sk_unlinking)
		return;
	sk->sk_unlinking = true;
	lnet_md_unlink(ln, sk->sk_mdh);
}

/* A PUT landed (check it) or the sink went away (post it again). */
static void lnet_selftest_sink_event(struct lnet *ln, struct lnet_event *ev)
{
	struct lnet_selftest_sink *sk = ev->md_user_ptr;
	struct lnet_selftest *svc = sk->sk_svc;

	if (ev->type == LNET_EVENT_PUT && !ev->status &&
	    (ev->mlength != ev->rlength || ev->offset > LNET_SELFTEST_MAX_SIZE - ev->mlength ||
	     !lnet_selftest_bytes_ok(svc, sk->sk_buf + ev->offset, ev->mlength,
				     lnet_selftest_hdr_check(ev->hdr_data))))
		svc->st_corrupt++;
	if (!ev->unlinked) {
		/* threshold 1: used up; make sure it goes so that it can come back */
		if (ev->type == LNET_EVENT_PUT)
			lnet_selftest_sink_unlink(ln, sk);
		return;
	}
	sk->sk_posted = false;
	svc->st_live_mds--;
	if (svc->st_stopping) {
		lnet_selftest_maybe_free(svc);
		return;
	}
	if (lnet_selftest_sink_post(ln, sk))
		os_err("selftest: cannot post a sink again: %u left\n",
		       svc->st_live_mds);
}

/* The GET source only needs to know when it is gone. */
static void lnet_selftest_src_event(struct lnet *ln, struct lnet_event *ev)
{
	struct lnet_selftest *svc = ev->md_user_ptr;

	if (!ev->unlinked)
		return;
	svc->st_src_posted = false;
	svc->st_live_mds--;
	lnet_selftest_maybe_free(svc);
}

static int lnet_selftest_src_post(struct lnet *ln, struct lnet_selftest *svc)
{
	int rc;

	rc = lnet_selftest_attach(ln, LNET_MD_OP_GET, svc->st_pattern,
				  LNET_MD_THRESH_INF, svc, lnet_selftest_src_event,
				  &svc->st_src_mdh);
	if (!rc) {
		svc->st_src_posted = true;
		svc->st_live_mds++;
	}
	return rc;
}

/* --- initiator side: slots ---------------------------------------------------- */

/* @sl's run no longer waits for it (freed, or given up on). */
static void lnet_selftest_disown(struct lnet_selftest_slot *sl)
{
	struct lnet_selftest_run *run = sl->sl_owner;

	if (!run)
		return;
	sl->sl_owner = NULL;
	run->sr_live--;
	if (!run->sr_live)
		os_cond_broadcast(&run->sr_cond);
}

static void lnet_selftest_slot_free(struct lnet_selftest_slot *sl)
{
	struct lnet_selftest *svc = sl->sl_svc;

	lnet_selftest_disown(sl);
	list_del(&sl->sl_list);
	os_free(sl->sl_buf);
	os_free(sl);
	lnet_selftest_maybe_free(svc);
}

/* The cause of a failed end event (LNET_SELFTEST_CAUSES). */
static enum lnet_selftest_cause lnet_selftest_cause(const struct lnet_event *ev)
{
	switch (ev->status) {
	case -ETIMEDOUT:
		return LNET_SELFTEST_FAIL_TIMEOUT;
	case -EHOSTUNREACH:
	case -ENETUNREACH:
		return LNET_SELFTEST_FAIL_UNREACHABLE;
	case 0:			/* an UNLINK event: the MD went away under it */
	case -ESHUTDOWN:
	case -ENETDOWN:
		return LNET_SELFTEST_FAIL_SHUTDOWN;
	default:
		return LNET_SELFTEST_FAIL_NETWORK;
	}
}

/* Count @sl's outcome (@cause when failed); @wake: tell the ioctl thread. */
static void lnet_selftest_count_wake(struct lnet *ln, struct lnet_selftest_slot *sl,
				     enum lnet_selftest_outcome outcome,
				     enum lnet_selftest_cause cause, bool wake)
{
	struct lnet_selftest_run *run = sl->sl_run;

	sl->sl_done = true;
	if (!run)
		return;
	run->sr_inflight--;
	if (outcome == LNET_ST_OK) {
		run->sr_ok++;
	} else if (outcome == LNET_ST_CORRUPT) {
		run->sr_corrupt++;
	} else {
		run->sr_failed++;
		run->sr_failed_by[cause]++;
	}
	sl->sl_run = NULL;
	if (wake)
		os_cond_broadcast(&run->sr_cond);
}

/* @sl failed for @cause without an event (not sent, or given up on). */
static void lnet_selftest_count_failed(struct lnet *ln, struct lnet_selftest_slot *sl,
				       enum lnet_selftest_cause cause)
{
	lnet_selftest_count_wake(ln, sl, LNET_ST_FAILED, cause, true);
}

static enum lnet_selftest_outcome lnet_selftest_judge(const struct lnet_selftest_slot *sl,
						      const struct lnet_event *ev)
{
	if (ev->status || ev->type == LNET_EVENT_UNLINK)
		return LNET_ST_FAILED;
	if (ev->type == LNET_EVENT_ACK)
		return ev->mlength == sl->sl_size ? LNET_ST_OK : LNET_ST_CORRUPT;
	if (ev->type == LNET_EVENT_REPLY)
		return ev->mlength == sl->sl_size &&
		       lnet_selftest_bytes_ok(sl->sl_svc, sl->sl_buf, sl->sl_size,
					      sl->sl_check) ?
		       LNET_ST_OK : LNET_ST_CORRUPT;
	return LNET_ST_NONE;
}

/* Unlink @sl's MD once; its UNLINK (or last) event may free @sl right away. */
static void lnet_selftest_slot_unlink(struct lnet *ln, struct lnet_selftest_slot *sl)
{
	if (sl->sl_unlinking)
		return;
	sl->sl_unlinking = true;
	lnet_md_unlink(ln, sl->sl_mdh);
}

static void lnet_selftest_start(struct lnet *ln, struct lnet_selftest *svc,
				struct lnet_selftest_run *run);

/*
 * A message of @run ended: start the next one from here rather than from
 * the waiting ioctl thread, which saves a thread wake-up per message (what
 * small messages at concurrency 1 are made of). Only from events: a start
 * that fails at once counts without coming back here, so this never
 * recurses.
 */
static void lnet_selftest_refill(struct lnet *ln, struct lnet_selftest *svc,
				 struct lnet_selftest_run *run)
{
	const struct lnet_ioc_selftest *req = run->sr_req;

	if (!run->sr_aborted && run->sr_started < req->sft_count &&
	    run->sr_inflight < req->sft_concurrency)
		lnet_selftest_start(ln, svc, run);
	/* The ioctl thread is needed to finish, or to start what could not. */
	if (run->sr_aborted || run->sr_inflight < req->sft_concurrency)
		os_cond_broadcast(&run->sr_cond);
}

static void lnet_selftest_slot_event(struct lnet *ln, struct lnet_event *ev)
{
	struct lnet_selftest_slot *sl = ev->md_user_ptr;
	enum lnet_selftest_outcome outcome = lnet_selftest_judge(sl, ev);
	struct lnet_selftest *svc = sl->sl_svc;
	struct lnet_selftest_run *run = NULL;

	if (outcome != LNET_ST_NONE && !sl->sl_done) {
		run = sl->sl_run;	/* NULL once fini took the run away */
		lnet_selftest_count_wake(ln, sl, outcome, lnet_selftest_cause(ev), !run);
	} else if (outcome != LNET_ST_NONE && ev->type != LNET_EVENT_UNLINK &&
		   sl->sl_owner) {
		/* a second end of one message (our own unlink's event is not) */
		sl->sl_owner->sr_dup++;
	}
	/*
	 * The next message starts before @sl is freed: freeing the last live
	 * slot first would wake the ioctl thread (sr_live 0) for nothing,
	 * once per message at concurrency 1.
	 */
	if (run)
		lnet_selftest_refill(ln, svc, run);
	if (ev->unlinked)
		lnet_selftest_slot_free(sl);
	else if (outcome != LNET_ST_NONE)
		lnet_selftest_slot_unlink(ln, sl);	/* last use of @sl */
}

/* --- initiator side: the run ------------------------------------------------------ */

static struct lnet_selftest_slot *lnet_selftest_slot_new(struct lnet_selftest *svc,
							 const struct lnet_ioc_selftest *req)
{
	struct lnet_selftest_slot *sl = os_zalloc(sizeof(*sl));
	u32 i;

	if (!sl)
		return NULL;
	sl->sl_svc = svc;
	sl->sl_size = req->sft_size;
	sl->sl_check = req->sft_check ? req->sft_check : LNET_LST_CHECK_full;
	if (req->sft_op != LNET_SELFTEST_OP_GET)
		return sl;
	sl->sl_buf = os_zalloc(req->sft_size ? req->sft_size : 1);
	if (!sl->sl_buf) {
		os_free(sl);
		return NULL;
	}
	/*
	 * Not the pattern anywhere: every byte must come from the REPLY. The
	 * pattern repeats every 256 bytes, so its complement is copied on in
	 * doubling chunks.
	 */
	for (i = 0; i < req->sft_size && i < 256; i++)
		sl->sl_buf[i] = (u8)~lnet_selftest_byte(i);
	for (; i < req->sft_size; i *= 2)
		memcpy(sl->sl_buf + i, sl->sl_buf,
		       i < req->sft_size - i ? i : req->sft_size - i);
	return sl;
}

static int lnet_selftest_send(struct lnet *ln, struct lnet_selftest_slot *sl,
			      const struct lnet_ioc_selftest *req)
{
	const struct lnet_nid *src = lnet_nid_is_zero(&req->sft_src) ? NULL : &req->sft_src;

	if (req->sft_op == LNET_SELFTEST_OP_GET)
		return lnet_get(ln, src, sl->sl_mdh, &req->sft_target, LNET_PID_LUSTRE,
				LNET_SELFTEST_PORTAL, LNET_SELFTEST_GET_BITS, 0,
				req->sft_size);
	return lnet_put(ln, src, sl->sl_mdh, true, &req->sft_target, LNET_PID_LUSTRE,
			LNET_SELFTEST_PORTAL, LNET_SELFTEST_PUT_BITS, 0, req->sft_size,
			LNET_SELFTEST_HDR_CHECK(sl->sl_check));
}

/* Start the next message of @run; a message that cannot start counts failed. */
static void lnet_selftest_start(struct lnet *ln, struct lnet_selftest *svc,
				struct lnet_selftest_run *run)
{
	const struct lnet_ioc_selftest *req = run->sr_req;
	struct lnet_selftest_slot *sl = lnet_selftest_slot_new(svc, req);
	struct lnet_md md = {
		.length = req->sft_size,
		.threshold = 2,			/* the send, then the ACK/REPLY */
		.handler = lnet_selftest_slot_event,
	};

	run->sr_started++;
	if (sl) {
		md.start = sl->sl_buf ? sl->sl_buf : svc->st_pattern;
		md.user_ptr = sl;
	}
	if (!sl || lnet_md_bind(ln, &md, &sl->sl_mdh)) {
		run->sr_failed++;
		run->sr_failed_by[LNET_SELFTEST_FAIL_START]++;
		if (sl)
			os_free(sl->sl_buf);
		os_free(sl);
		return;
	}
	list_add_tail(&sl->sl_list, &svc->st_slots);
	sl->sl_run = run;
	sl->sl_owner = run;
	run->sr_live++;
	sl->sl_deadline_ns = os_now_ns() + (u64)req->sft_timeout_ms * 1000000ULL;
	run->sr_inflight++;
	/* Events may come (and free @sl) before this returns 0. */
	if (lnet_selftest_send(ln, sl, req)) {
		lnet_selftest_count_failed(ln, sl, LNET_SELFTEST_FAIL_START);
		lnet_selftest_slot_unlink(ln, sl);
	}
}

/*
 * Give up on one message of @run past its deadline: not ended yet, it
 * counts as abandoned; ended but not released by LNet, the run stops
 * waiting for it. False when none is past its deadline.
 */
static bool lnet_selftest_expire_one(struct lnet *ln, struct lnet_selftest *svc,
				     struct lnet_selftest_run *run, u64 now)
{
	struct lnet_selftest_slot *sl;

	list_for_each_entry(sl, &svc->st_slots, sl_list) {
		if (sl->sl_owner != run || sl->sl_deadline_ns > now)
			continue;
		lnet_selftest_disown(sl);
		if (!sl->sl_done)
			lnet_selftest_count_failed(ln, sl, LNET_SELFTEST_FAIL_ABANDONED);
		lnet_selftest_slot_unlink(ln, sl);
		return true;
	}
	return false;
}

static u64 lnet_selftest_next_deadline(struct lnet_selftest *svc,
				       const struct lnet_selftest_run *run)
{
	struct lnet_selftest_slot *sl;
	u64 first = OS_NO_DEADLINE;

	list_for_each_entry(sl, &svc->st_slots, sl_list)
		if (sl->sl_owner == run && sl->sl_deadline_ns < first)
			first = sl->sl_deadline_ns;
	return first;
}

/*
 * Keep up to sft_concurrency messages in flight until all were answered
 * and LNet released them (so that a late second end event is counted).
 */
static void lnet_selftest_loop(struct lnet *ln, struct lnet_selftest *svc,
			       struct lnet_selftest_run *run)
{
	const struct lnet_ioc_selftest *req = run->sr_req;
	u64 deadline;

	while (!run->sr_aborted && (run->sr_started < req->sft_count || run->sr_live)) {
		while (!run->sr_aborted && run->sr_started < req->sft_count &&
		       run->sr_inflight < req->sft_concurrency)
			lnet_selftest_start(ln, svc, run);
		if (run->sr_aborted || !run->sr_live)
			continue;
		deadline = lnet_selftest_next_deadline(svc, run);
		os_cond_wait(&run->sr_cond, &ln->ln_api_mutex, deadline);
		while (!run->sr_aborted && lnet_selftest_expire_one(ln, svc, run, os_now_ns()))
			;
	}
}

int lnet_selftest_run(struct lnet *ln, struct lnet_ioc_selftest *req)
{
	struct lnet_selftest *svc = ln->ln_dp.dp_selftest;
	struct lnet_selftest_run run = { .sr_req = req };
	u64 start = os_now_ns();

	if (!svc)
		return -ENETDOWN;
	os_cond_init(&run.sr_cond);
	list_add_tail(&run.sr_list, &svc->st_runs);
	lnet_selftest_loop(ln, svc, &run);
	os_cond_destroy(&run.sr_cond);
	if (run.sr_aborted)
		return -ENETDOWN;	/* fini took @run off the service */
	list_del(&run.sr_list);
	req->sft_ok = run.sr_ok;
	req->sft_failed = run.sr_failed;
	req->sft_corrupt = run.sr_corrupt;
	memcpy(req->sft_failed_by, run.sr_failed_by, sizeof(req->sft_failed_by));
	req->sft_duplicate = run.sr_dup;
	req->sft_elapsed_ns = os_now_ns() - start;
	return 0;
}

/* --- lifetime ------------------------------------------------------------------------ */

int lnet_selftest_init(struct lnet *ln)
{
	struct lnet_selftest *svc = os_zalloc(sizeof(*svc));
	unsigned int i;
	int rc = -ENOMEM;

	if (!svc)
		return -ENOMEM;
	INIT_LIST_HEAD(&svc->st_slots);
	INIT_LIST_HEAD(&svc->st_runs);
	ln->ln_dp.dp_selftest = svc;
	svc->st_pattern = os_zalloc(LNET_SELFTEST_MAX_SIZE);
	if (!svc->st_pattern)
		goto fail;
	for (i = 0; i < LNET_SELFTEST_MAX_SIZE; i++)
		svc->st_pattern[i] = lnet_selftest_byte(i);
	for (i = 0; i < LNET_SELFTEST_NSINKS; i++) {
		struct lnet_selftest_sink *sk = &svc->st_sinks[i];

		sk->sk_svc = svc;
		sk->sk_buf = os_zalloc(LNET_SELFTEST_MAX_SIZE);
		rc = sk->sk_buf ? lnet_selftest_sink_post(ln, sk) : -ENOMEM;
		if (rc)
			goto fail;
	}
	rc = lnet_selftest_src_post(ln, svc);
	if (!rc)
		return 0;
fail:
	lnet_selftest_fini(ln);
	return rc;
}

/* Runs waiting on the service end with -ENETDOWN; their slots stay behind. */
static void lnet_selftest_abort_runs(struct lnet *ln, struct lnet_selftest *svc)
{
	struct lnet_selftest_run *run;
	struct lnet_selftest_slot *sl;

	while (!list_empty(&svc->st_runs)) {
		run = list_first_entry(&svc->st_runs, struct lnet_selftest_run, sr_list);
		run->sr_aborted = true;
		list_del_init(&run->sr_list);
		os_cond_broadcast(&run->sr_cond);
	}
	list_for_each_entry(sl, &svc->st_slots, sl_list) {
		sl->sl_run = NULL;
		sl->sl_owner = NULL;
		sl->sl_done = true;
	}
}

/* Unlink one slot MD not yet unlinked; false when there is none. */
static bool lnet_selftest_unlink_one_slot(struct lnet *ln, struct lnet_selftest *svc)
{
	struct lnet_selftest_slot *sl;

	list_for_each_entry(sl, &svc->st_slots, sl_list)
		if (!sl->sl_unlinking) {
			lnet_selftest_slot_unlink(ln, sl);
			return true;
		}
	return false;
}

/*
 * Unlink every MD of the service; each one's unlinked event frees what
 * it used, and the last one frees the service (maybe right here).
 */
void lnet_selftest_fini(struct lnet *ln)
{
	struct lnet_selftest *svc = ln->ln_dp.dp_selftest;
	unsigned int i;

	if (!svc)
		return;
	ln->ln_dp.dp_selftest = NULL;
	svc->st_stopping = true;
	lnet_selftest_abort_runs(ln, svc);
	/* An event below may free @svc: count what is left first. */
	svc->st_live_mds++;
	for (i = 0; i < LNET_SELFTEST_NSINKS; i++)
		lnet_selftest_sink_unlink(ln, &svc->st_sinks[i]);
	if (svc->st_src_posted)
		lnet_md_unlink(ln, svc->st_src_mdh);
	while (lnet_selftest_unlink_one_slot(ln, svc))
		;
	svc->st_live_mds--;
	lnet_selftest_maybe_free(svc);
}
