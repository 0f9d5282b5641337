/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memlnd: an in-memory LND for unit tests. It joins up to MEMLND_NODES
 * struct lnet instances of one process as if they were nodes on one
 * network: each node registers it for LNET_LND_TCP, gets its interfaces
 * from memlnd_if_lookup() ("m<node>e<k>" = 10.(21+k).0.(node+1), as the
 * two-NI topology of the bats tests) and runs one delivery thread that
 * calls the node's UNLOCKED entry points (lnet_parse, lnet_finalize), so
 * no lock of one node is ever held while another node's is taken.
 *
 * lnd_send copies the header and payload into the destination node's
 * queue and queues the completion on the sender's own thread; knobs make
 * sends to or from a NID vanish (drop) or fail with a health status, and
 * take an interface's link down.
 *
 * Header-only: include it in one test file (it has static state).
 */
#ifndef LNET_TEST_MEMLND_H
#define LNET_TEST_MEMLND_H

#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "../../kernel/core/lnet.h"
#include "../../kernel/udsp/udsp.h"
#include "../../kernel/builtin/builtin.h"

#define MEMLND_NODES	4
#define MEMLND_IFS	4	/* interfaces per node: m<n>e0..m<n>e3 */
#define MEMLND_RULES	8

enum memlnd_kind {
	MEMLND_RX,		/* a message arrived for item->rec */
	MEMLND_TX_DONE,		/* our send of item->msg is done */
	MEMLND_RX_DONE,		/* our receive of item->msg is done */
};

struct memlnd_node;

/* One started NI. */
struct memlnd_ni {
	struct memlnd_node *node;
	struct lnet_ni *ni;
	struct lnet_nid nid;
	bool used;
};

struct memlnd_item {
	struct list_head list;
	enum memlnd_kind kind;
	struct memlnd_ni *rec;
	struct lnet_msg *msg;
	int status;
	enum lnet_msg_hstatus hstatus;
	long delay_ms;			/* TX_DONE: wait before finalizing */
	/*
	 * RX: the core may call lnd_recv after lnet_parse returned (a router
	 * waiting for a buffer): the item is freed by whichever of the two,
	 * the thread after lnet_parse or the lnd_recv, comes second.
	 */
	int rx_refs;
	struct lnet_hdr hdr;
	struct lnet_nid from;
	u32 len;
	u8 data[];
};

struct memlnd_node {
	struct lnet ln;			/* first: memlnd_node_of() */
	int idx;
	pthread_mutex_t lock;		/* q, busy, counters */
	pthread_cond_t cond;
	struct list_head q;
	struct memlnd_ni *busy;		/* the item being handled is for it */
	pthread_t thread;
	bool running, stop;
	u32 nnis;
	long owned;			/* sends handed to us, not finalized */
	long sent, delivered, dropped, failed;
};

enum memlnd_dir { MEMLND_ANY, MEMLND_FROM, MEMLND_TO };

/* Sends from and/or to @nid: vanish (drop), or fail with @fail. */
struct memlnd_rule {
	bool used;
	struct lnet_nid nid;
	enum memlnd_dir dir;
	bool drop;
	enum lnet_msg_hstatus fail;
	int count;			/* sends it still applies to; -1 always */
	int hits;
	long delay_ms;			/* a failure is reported this late */
};

static struct {
	pthread_mutex_t lock;		/* everything below */
	struct memlnd_ni recs[MEMLND_NODES * MEMLND_IFS * 2];
	struct memlnd_rule rules[MEMLND_RULES];
	bool link_down[MEMLND_NODES][MEMLND_IFS];
	/* the next corrupt_left payloads of corrupt_len bytes: one byte flipped */
	u32 corrupt_len;
	int corrupt_left;
} memlnd = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Flip byte len/2 + 1 of the next @n payloads of exactly @len bytes. */
static inline void memlnd_corrupt_set(u32 len, int n)
{
	pthread_mutex_lock(&memlnd.lock);
	memlnd.corrupt_len = len;
	memlnd.corrupt_left = n;
	pthread_mutex_unlock(&memlnd.lock);
}

static inline struct memlnd_node *memlnd_node_of(struct lnet *ln)
{
	return (struct memlnd_node *)ln;
}

/* "m<node>e<k>" -> node, k; false for any other name. */
static inline bool memlnd_if_parse(const char *ifname, int *node, int *k)
{
	if (strlen(ifname) != 4 || ifname[0] != 'm' || ifname[2] != 'e')
		return false;
	*node = ifname[1] - '0';
	*k = ifname[3] - '0';
	return *node >= 0 && *node < MEMLND_NODES && *k >= 0 && *k < MEMLND_IFS;
}

static inline int memlnd_if_lookup(const char *ifname, struct os_ifaddr *out)
{
	int node, k;

	if (!memlnd_if_parse(ifname, &node, &k))
		return -ENODEV;
	memset(out, 0, sizeof(*out));
	out->addr_len = 4;
	out->addr[0] = 10;
	out->addr[1] = (u8)(21 + k);
	out->addr[2] = 0;
	out->addr[3] = (u8)(node + 1);
	pthread_mutex_lock(&memlnd.lock);
	out->up = !memlnd.link_down[node][k];
	pthread_mutex_unlock(&memlnd.lock);
	return 0;
}

static inline struct lnet_nid memlnd_nid(const char *s)
{
	struct lnet_nid nid;

	memset(&nid, 0, sizeof(nid));
	if (lnet_nid_parse(s, &nid, NULL, 0))
		abort();
	return nid;
}

/* ---- knobs ------------------------------------------------------------------- */

/* Sends @dir @nid (count: how many; -1 all) vanish or fail with @fail. */
static inline void memlnd_rule_set_dir(const char *nid, enum memlnd_dir dir, bool drop,
				enum lnet_msg_hstatus fail, int count)
{
	int i;

	pthread_mutex_lock(&memlnd.lock);
	for (i = 0; i < MEMLND_RULES; i++) {
		struct memlnd_rule *r = &memlnd.rules[i];

		if (r->used)
			continue;
		r->used = true;
		r->nid = memlnd_nid(nid);
		r->dir = dir;
		r->drop = drop;
		r->fail = fail;
		r->count = count;
		r->hits = 0;
		break;
	}
	pthread_mutex_unlock(&memlnd.lock);
}

static inline void memlnd_rule_set(const char *nid, bool drop,
			    enum lnet_msg_hstatus fail, int count)
{
	memlnd_rule_set_dir(nid, MEMLND_ANY, drop, fail, count);
}

/* Sends from or to @nid fail with @fail, reported @delay_ms late. */
static inline void memlnd_rule_set_delayed(const char *nid, enum lnet_msg_hstatus fail,
				    long delay_ms)
{
	int i;

	memlnd_rule_set_dir(nid, MEMLND_ANY, false, fail, -1);
	pthread_mutex_lock(&memlnd.lock);
	for (i = MEMLND_RULES - 1; i >= 0; i--)
		if (memlnd.rules[i].used) {
			memlnd.rules[i].delay_ms = delay_ms;
			break;
		}
	pthread_mutex_unlock(&memlnd.lock);
}

/* Sends a rule for @nid applied to (all its rules). */
static inline int memlnd_rule_hits(const char *nid)
{
	struct lnet_nid n = memlnd_nid(nid);
	int i, hits = 0;

	pthread_mutex_lock(&memlnd.lock);
	for (i = 0; i < MEMLND_RULES; i++)
		if (memlnd.rules[i].used && lnet_nid_equal(&memlnd.rules[i].nid, &n))
			hits += memlnd.rules[i].hits;
	pthread_mutex_unlock(&memlnd.lock);
	return hits;
}

static inline void memlnd_rules_clear(void)
{
	pthread_mutex_lock(&memlnd.lock);
	memset(memlnd.rules, 0, sizeof(memlnd.rules));
	pthread_mutex_unlock(&memlnd.lock);
}

/* Take interface m<node>e<k> up or down and tell the node's core. */
static inline void memlnd_link_set(struct memlnd_node *n, int k, bool up)
{
	char ifname[8];

	pthread_mutex_lock(&memlnd.lock);
	memlnd.link_down[n->idx][k] = !up;
	pthread_mutex_unlock(&memlnd.lock);
	snprintf(ifname, sizeof(ifname), "m%de%d", n->idx, k);
	lnet_link_event(&n->ln, ifname, up);
}

/* With memlnd.lock held: the rule for a send @src -> @dst, or NULL. */
static inline struct memlnd_rule *memlnd_rule_find(const struct lnet_nid *src,
					    const struct lnet_nid *dst)
{
	int i;

	for (i = 0; i < MEMLND_RULES; i++) {
		struct memlnd_rule *r = &memlnd.rules[i];

		if (!r->used || !r->count)
			continue;
		if ((r->dir != MEMLND_TO && lnet_nid_equal(&r->nid, src)) ||
		    (r->dir != MEMLND_FROM && lnet_nid_equal(&r->nid, dst)))
			return r;
	}
	return NULL;
}

static inline bool memlnd_nid_link_up(const struct lnet_nid *nid)
{
	int node = nid->nid_addr[3] - 1, k = nid->nid_addr[1] - 21;

	if (node < 0 || node >= MEMLND_NODES || k < 0 || k >= MEMLND_IFS)
		return false;
	return !memlnd.link_down[node][k];
}

static inline void memlnd_sleep_ms(long ms);

/* ---- the delivery thread ----------------------------------------------------- */

static inline void memlnd_enqueue(struct memlnd_node *n, struct memlnd_item *it)
{
	pthread_mutex_lock(&n->lock);
	list_add_tail(&it->list, &n->q);
	pthread_cond_broadcast(&n->cond);
	pthread_mutex_unlock(&n->lock);
}

static inline void memlnd_handle(struct memlnd_node *n, struct memlnd_item *it)
{
	switch (it->kind) {
	case MEMLND_RX:
		if (lnet_parse(&n->ln, it->rec->ni, &it->hdr, &it->from, it) == 0)
			__atomic_add_fetch(&n->delivered, 1, __ATOMIC_SEQ_CST);
		else			/* refused: lnd_recv is never called */
			it->rx_refs = 1;
		break;
	case MEMLND_TX_DONE:
		if (it->delay_ms)
			memlnd_sleep_ms(it->delay_ms);
		if (it->status)
			it->msg->msg_health_status = it->hstatus;
		__atomic_sub_fetch(&n->owned, 1, __ATOMIC_SEQ_CST);
		lnet_finalize(&n->ln, it->msg, it->status);
		break;
	case MEMLND_RX_DONE:
		lnet_finalize(&n->ln, it->msg, it->status);
		break;
	}
}

static inline void *memlnd_thread(void *arg)
{
	struct memlnd_node *n = arg;

	pthread_mutex_lock(&n->lock);
	for (;;) {
		struct memlnd_item *it;

		while (list_empty(&n->q) && !n->stop)
			pthread_cond_wait(&n->cond, &n->lock);
		if (list_empty(&n->q))
			break;
		it = list_first_entry(&n->q, struct memlnd_item, list);
		list_del(&it->list);
		n->busy = it->rec;
		pthread_mutex_unlock(&n->lock);
		memlnd_handle(n, it);
		if (it->kind != MEMLND_RX ||
		    __atomic_add_fetch(&it->rx_refs, 1, __ATOMIC_SEQ_CST) == 2)
			free(it);
		pthread_mutex_lock(&n->lock);
		n->busy = NULL;
		pthread_cond_broadcast(&n->cond);
	}
	pthread_mutex_unlock(&n->lock);
	return NULL;
}

/* ---- the LND operations ------------------------------------------------------ */

static inline int memlnd_startup(struct lnet *ln, struct lnet_ni *ni)
{
	struct memlnd_node *n = memlnd_node_of(ln);
	struct memlnd_ni *rec = NULL;
	size_t i;

	pthread_mutex_lock(&memlnd.lock);
	for (i = 0; i < sizeof(memlnd.recs) / sizeof(memlnd.recs[0]); i++)
		if (!memlnd.recs[i].used && !memlnd.recs[i].node) {
			rec = &memlnd.recs[i];
			rec->node = n;
			rec->ni = ni;
			rec->nid = ni->ni_nid;
			rec->used = true;
			break;
		}
	pthread_mutex_unlock(&memlnd.lock);
	if (!rec)
		return -ENOSPC;
	ni->ni_lnd_data = rec;
	pthread_mutex_lock(&n->lock);
	n->nnis++;
	if (!n->running) {
		n->stop = false;
		n->running = pthread_create(&n->thread, NULL, memlnd_thread, n) == 0;
	}
	pthread_mutex_unlock(&n->lock);
	return n->running ? 0 : -ENOMEM;
}

static inline bool memlnd_holds(struct memlnd_node *n, struct memlnd_ni *rec)
{
	struct memlnd_item *it;

	if (n->busy == rec)
		return true;
	list_for_each_entry(it, &n->q, list)
		if (it->rec == rec)
			return true;
	return false;
}

/* Unlocked: drop what arrived for @ni, let the thread finalize our sends. */
static inline void memlnd_shutdown(struct lnet *ln, struct lnet_ni *ni)
{
	struct memlnd_node *n = memlnd_node_of(ln);
	struct memlnd_ni *rec = ni->ni_lnd_data;
	struct memlnd_item *it, *tmp;
	bool last;

	pthread_mutex_lock(&memlnd.lock);
	rec->used = false;		/* no more deliveries to it */
	pthread_mutex_unlock(&memlnd.lock);
	pthread_mutex_lock(&n->lock);
	list_for_each_entry_safe(it, tmp, &n->q, list)
		if (it->kind == MEMLND_RX && it->rec == rec) {
			list_del(&it->list);
			free(it);
			n->dropped++;
		}
	while (memlnd_holds(n, rec))
		pthread_cond_wait(&n->cond, &n->lock);
	last = --n->nnis == 0;
	if (last)
		n->stop = true;
	pthread_cond_broadcast(&n->cond);
	pthread_mutex_unlock(&n->lock);
	if (last && n->running) {
		pthread_join(n->thread, NULL);
		n->running = false;
	}
	pthread_mutex_lock(&memlnd.lock);
	rec->node = NULL;		/* the slot may be reused */
	pthread_mutex_unlock(&memlnd.lock);
	ni->ni_lnd_data = NULL;
}

static inline struct memlnd_item *memlnd_item_new(enum memlnd_kind kind, u32 len)
{
	struct memlnd_item *it = calloc(1, sizeof(*it) + len);

	if (it)
		it->kind = kind;
	return it;
}

/* With memlnd.lock held: copy @msg into the queue of @dst's node. */
static inline bool memlnd_deliver(struct lnet_ni *ni, struct lnet_msg *msg,
			   const struct lnet_nid *dst)
{
	struct memlnd_item *it;
	size_t i;

	if (!memlnd_nid_link_up(dst))
		return false;
	for (i = 0; i < sizeof(memlnd.recs) / sizeof(memlnd.recs[0]); i++) {
		struct memlnd_ni *rec = &memlnd.recs[i];

		if (!rec->used || !lnet_nid_equal(&rec->nid, dst))
			continue;
		it = memlnd_item_new(MEMLND_RX, msg->msg_len);
		if (!it)
			return false;
		it->rec = rec;
		it->hdr = msg->msg_hdr;
		it->from = ni->ni_nid;
		it->len = msg->msg_len;
		if (msg->msg_len)
			memcpy(it->data, msg->msg_buf, msg->msg_len);
		if (memlnd.corrupt_left > 0 && msg->msg_len == memlnd.corrupt_len) {
			memlnd.corrupt_left--;
			it->data[msg->msg_len / 2 + 1] ^= 0x10;
		}
		memlnd_enqueue(rec->node, it);
		return true;
	}
	return false;
}

static inline int memlnd_send(struct lnet_ni *ni, struct lnet_msg *msg)
{
	struct memlnd_ni *rec = ni->ni_lnd_data;
	struct memlnd_node *n = rec->node;
	const struct lnet_nid *dst = &msg->msg_txpeer->lpni_nid;
	struct memlnd_item *done = memlnd_item_new(MEMLND_TX_DONE, 0);
	struct memlnd_rule *r;
	bool deliver = false;

	if (!done)
		return -ENOMEM;
	done->rec = rec;
	done->msg = msg;
	pthread_mutex_lock(&memlnd.lock);
	r = memlnd_rule_find(&ni->ni_nid, dst);
	if (r) {
		r->hits++;
		if (r->count > 0)
			r->count--;
	}
	if (!memlnd_nid_link_up(&ni->ni_nid)) {
		done->status = -ENETDOWN;
		done->hstatus = LNET_MSG_STATUS_LOCAL_ERROR;
	} else if (r && !r->drop) {
		done->status = -EIO;
		done->hstatus = r->fail;
		done->delay_ms = r->delay_ms;
	} else {
		deliver = !r;	/* an unknown NID is a black hole (dead node) */
	}
	__atomic_add_fetch(&n->sent, 1, __ATOMIC_SEQ_CST);
	if (done->status)
		__atomic_add_fetch(&n->failed, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&n->owned, 1, __ATOMIC_SEQ_CST);
	/*
	 * The completion is queued before the copy is delivered, so that the
	 * answer can never overtake it on our queue; it cannot run before we
	 * return since finalize needs the lock our caller holds.
	 */
	memlnd_enqueue(n, done);
	if (deliver)
		memlnd_deliver(ni, msg, dst);
	pthread_mutex_unlock(&memlnd.lock);
	return 0;
}

/* Called inside lnet_parse: copy now, finalize from the thread after. */
static inline int memlnd_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
		       void *buf, u32 mlen, u32 rlen)
{
	struct memlnd_item *rx = private, *done;
	struct memlnd_ni *rec = ni->ni_lnd_data;
	int rc = 0;

	if (msg && mlen > rx->len)
		rc = -EPROTO;
	else if (msg && mlen)
		memcpy(buf, rx->data, mlen);
	if (__atomic_add_fetch(&rx->rx_refs, 1, __ATOMIC_SEQ_CST) == 2)
		free(rx);
	if (!msg || rc)
		return rc;
	done = memlnd_item_new(MEMLND_RX_DONE, 0);
	if (!done)
		return -ENOMEM;
	done->rec = rec;
	done->msg = msg;
	memlnd_enqueue(rec->node, done);
	return 0;
}

static const struct lnet_lnd memlnd_lnd = {
	.lnd_type = LNET_LND_TCP,
	.lnd_startup = memlnd_startup,
	.lnd_shutdown = memlnd_shutdown,
	.lnd_send = memlnd_send,
	.lnd_recv = memlnd_recv,
};

/* ---- nodes ------------------------------------------------------------------- */

/* A configured node @idx with the memlnd registered and no NI yet. */
static inline struct memlnd_node *memlnd_node_new(int idx)
{
	struct memlnd_node *n = calloc(1, sizeof(*n));
	int rc;

	if (!n)
		abort();
	lnet_init(&n->ln);
	if (lnet_builtin_register(&n->ln))
		abort();
	n->ln.ln_if_lookup = memlnd_if_lookup;
	n->idx = idx;
	pthread_mutex_init(&n->lock, NULL);
	pthread_cond_init(&n->cond, NULL);
	INIT_LIST_HEAD(&n->q);
	pthread_mutex_lock(&memlnd.lock);
	memset(memlnd.link_down[idx], 0, sizeof(memlnd.link_down[idx]));
	pthread_mutex_unlock(&memlnd.lock);
	rc = lnet_lnd_register(&n->ln, &memlnd_lnd);
	os_mutex_lock(&n->ln.ln_api_mutex);
	if (!rc)
		rc = lnet_configure(&n->ln);
	/*
	 * Discovery on send puts a ping and a push before a node's first
	 * message to each peer. The tests of message mechanics count
	 * messages, so it is off here; test_discovery_send.c turns it on.
	 */
	n->ln.ln_globals[LNET_GLOBAL_DISCOVERY] = 0;
	os_mutex_unlock(&n->ln.ln_api_mutex);
	if (rc)
		abort();
	return n;
}

/* Does the node's ping target list all its NIs (0@lo too)? */
static inline bool memlnd_ping_target_current(struct memlnd_node *n)
{
	struct lnet_net *net;
	struct lnet_ni *ni;
	u32 count = 0;
	bool ok;

	os_mutex_lock(&n->ln.ln_api_mutex);
	list_for_each_entry(net, &n->ln.ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list)
			count++;
	ok = n->ln.ln_dp.dp_ping_len ==
		LNET_WIRE_PING_HDR_LEN + count * LNET_WIRE_PING_NI_LEN;
	os_mutex_unlock(&n->ln.ln_api_mutex);
	return ok;
}

/*
 * Add NI m<idx>e<k> to net @net ("tcp", "tcp1"), and wait until the ping
 * target shows it (the monitor publishes NI changes within a tick).
 */
static inline int memlnd_ni_add(struct memlnd_node *n, const char *net, int k)
{
	char ifname[8];
	u32 net_id;
	int rc;

	if (lnet_net_parse(net, &net_id, NULL, 0))
		return -EINVAL;
	snprintf(ifname, sizeof(ifname), "m%de%d", n->idx, k);
	os_mutex_lock(&n->ln.ln_api_mutex);
	rc = lnet_ni_add(&n->ln, net_id, ifname, NULL);
	os_mutex_unlock(&n->ln.ln_api_mutex);
	for (k = 0; !rc && k < 200 && !memlnd_ping_target_current(n); k++)
		memlnd_sleep_ms(5);
	return rc;
}

/* True when nothing is queued or being handled on the node. */
static inline bool memlnd_node_idle(struct memlnd_node *n)
{
	bool idle;

	pthread_mutex_lock(&n->lock);
	idle = list_empty(&n->q) && !n->busy;
	pthread_mutex_unlock(&n->lock);
	return idle;
}

static inline void memlnd_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Poll @cond(@arg) every 5 ms for up to @ms: its last value. */
static inline bool memlnd_wait(bool (*cond)(void *), void *arg, long ms)
{
	long waited;

	for (waited = 0; waited < ms; waited += 5) {
		if (cond(arg))
			return true;
		memlnd_sleep_ms(5);
	}
	return cond(arg);
}

/* Unconfigure and free: 0 objects must be left and every send finalized. */
static inline long memlnd_node_free(struct memlnd_node *n)
{
	long left;

	lnet_fini(&n->ln);
	left = n->ln.ln_nobjects + n->owned;
	pthread_mutex_destroy(&n->lock);
	pthread_cond_destroy(&n->cond);
	free(n);
	return left;
}

#endif /* LNET_TEST_MEMLND_H */
