// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the core's receive path (lnet_parse and what follows it: matching,
 * ACKs and REPLYs, forwarding with router credits and buffers) with the
 * headers a hostile peer could send to a router. The instance is built
 * once (two nets, routing on, tiny router pools so messages wait, a route,
 * a match entry that takes any PUT or GET) and its LND is a fake one that
 * completes nothing until the harness says so.
 *
 * An input is a sequence of 48-byte records: the NI it arrives on, the
 * peer NID it comes from, the header's source, destination, type and
 * payload length from small tables (so they hit our own NIDs, routes and
 * nets), the rest of the header raw, and a byte saying how the LND ends
 * what it holds (now or later, with success or an error). After the last
 * record every header still parked is abandoned, as a dying connection
 * does, and every pending operation completes. Then nothing forwarded may be left, every router
 * pool has all its credits back and no peer NI has forwarded messages
 * waiting. Any breach aborts.
 */
#include <stdint.h>
#include <stdlib.h>

#include "../../kernel/core/lnet_priv.h"
#include "../../kernel/builtin/builtin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REC_LEN		48
#define MAX_PENDING	256

static void must(bool ok)
{
	if (!ok)
		abort();
}

/* What the fake LND holds: a send or receive to finish, a parked header. */
struct pending {
	struct lnet_msg *msg;		/* NULL: a parked header (rx private) */
	bool rx;
};

struct rx_private {
	bool used;			/* lnd_recv took it */
	bool live;
};

static struct {
	struct lnet ln;
	bool up;
	struct pending q[MAX_PENDING];
	u32 nq;
	struct rx_private rx[MAX_PENDING];
	int fail;			/* status the next completions get */
} w;

static int fake_send(struct lnet_ni *ni, struct lnet_msg *msg)
{
	(void)ni;
	if (w.nq == MAX_PENDING)
		return -ENOMEM;
	w.q[w.nq].msg = msg;
	w.q[w.nq++].rx = false;
	return 0;
}

static int fake_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
		     void *buf, u32 mlen, u32 rlen)
{
	struct rx_private *p = private;

	(void)ni;
	(void)rlen;
	must(p && p->live && !p->used);		/* never twice, never after abandon */
	p->used = true;
	if (!msg)
		return 0;
	/*
	 * What an LND writes there: its first and last 64 bytes are enough
	 * for ASan to see a buffer too short (each is one allocation, an MD's
	 * or a router buffer's); all of a 1 MiB one per message took a fifth
	 * of this harness's time.
	 */
	if (mlen) {
		u32 edge = mlen < 64 ? mlen : 64;

		memset(buf, 0x5a, edge);
		memset((u8 *)buf + mlen - edge, 0x5a, edge);
	}
	if (w.nq == MAX_PENDING)
		return -ENOMEM;
	w.q[w.nq].msg = msg;
	w.q[w.nq++].rx = true;
	return 0;
}

static int fake_startup(struct lnet *ln, struct lnet_ni *ni)
{
	(void)ln;
	(void)ni;
	return 0;
}

static void fake_shutdown(struct lnet *ln, struct lnet_ni *ni)
{
	(void)ln;
	(void)ni;
}

static const struct lnet_lnd fake_lnd = {
	.lnd_type = LNET_LND_TCP,
	.lnd_startup = fake_startup,
	.lnd_shutdown = fake_shutdown,
	.lnd_send = fake_send,
	.lnd_recv = fake_recv,
};

static int fake_if_lookup(const char *ifname, struct os_ifaddr *out)
{
	memset(out, 0, sizeof(*out));
	out->addr_len = 4;
	out->up = true;
	out->addr[0] = 10;
	if (!strcmp(ifname, "eth0"))
		out->addr[3] = 1;
	else if (!strcmp(ifname, "eth1"))
		out->addr[1] = 1, out->addr[3] = 1;
	else
		return -ENODEV;
	return 0;
}

static struct lnet_nid nid4(u32 net_id, u8 a, u8 b, u8 c, u8 d)
{
	u8 addr[4] = { a, b, c, d };
	struct lnet_nid nid;

	lnet_nid_make(&nid, net_id, addr, 4);
	return nid;
}

#define TCP(n)	LNET_NET_ID(LNET_LND_TCP, n)

/* The NIDs headers are made of: ours, peers, remote ones, a gateway. */
static struct lnet_nid nid_table(u8 i)
{
	switch (i & 7) {
	case 0: return nid4(TCP(0), 10, 0, 0, 1);	/* our eth0 */
	case 1: return nid4(TCP(1), 10, 1, 0, 1);	/* our eth1 */
	case 2: return nid4(TCP(0), 10, 0, 0, 2);
	case 3: return nid4(TCP(1), 10, 1, 0, 2);
	case 4: return nid4(TCP(5), 10, 5, 0, 9);	/* behind the gateway */
	case 5: return nid4(TCP(6), 10, 6, 0, 9);	/* no route */
	case 6: return nid4(TCP(0), 10, 0, 0, 100);	/* the gateway */
	default: return nid4(LNET_NET_ID(LNET_LND_LO, 0), 0, 0, 0, 0);
	}
}

static void world_init(void)
{
	static u8 sink[65536];
	struct lnet *ln = &w.ln;
	const s32 pools[LNET_NBUF_KINDS] = { 2, 2, 1 };
	struct lnet_md md = {
		.start = sink, .length = sizeof(sink), .threshold = LNET_MD_THRESH_INF,
		.options = LNET_MD_OP_PUT | LNET_MD_OP_GET | LNET_MD_TRUNCATE,
	};
	struct lnet_nid gw = nid_table(6), any = { 0 };
	struct lnet_handle_md h;

	if (!os_log_file)
		os_log_file = fopen("/dev/null", "w");
	lnet_init(ln);
	must(!lnet_builtin_register(ln));
	must(!lnet_lnd_register(ln, &fake_lnd));
	ln->ln_if_lookup = fake_if_lookup;
	os_mutex_lock(&ln->ln_api_mutex);
	must(!lnet_configure(ln));
	must(!lnet_ni_add(ln, TCP(0), "eth0", NULL));
	must(!lnet_ni_add(ln, TCP(1), "eth1", NULL));
	/* nothing timed: no health loss, no gateway checks, no timeouts */
	must(!lnet_global_set(ln, LNET_GLOBAL_HEALTH_SENSITIVITY, 0));
	must(!lnet_global_set(ln, LNET_GLOBAL_ALIVE_ROUTER_CHECK_INTERVAL, 0));
	must(!lnet_global_set(ln, LNET_GLOBAL_TRANSACTION_TIMEOUT, 86400));
	must(!lnet_buffers_set(ln, pools));
	must(!lnet_routing_set(ln, 1));
	lnet_router_tick(ln, os_now_ns() + 86400ULL * 1000000000ULL);
	must(!lnet_route_add(ln, TCP(5), &gw, 1, 0));
	must(!lnet_me_attach_md(ln, 4, &any, LNET_PID_ANY, 0, ~0ULL, true, &md, &h));
	os_mutex_unlock(&ln->ln_api_mutex);
	w.up = true;
}

static void world_fini(void)
{
	lnet_fini(&w.ln);
	must(w.ln.ln_nobjects == 0);
	w.up = false;
}

/* Finish what the LND holds (which may start more), with w.fail. */
static void lnd_progress(void)
{
	struct lnet *ln = &w.ln;

	os_mutex_lock(&ln->ln_api_mutex);
	while (w.nq) {
		struct pending p = w.q[--w.nq];

		if (!p.rx && w.fail)
			p.msg->msg_health_status = LNET_MSG_STATUS_REMOTE_ERROR;
		lnet_finalize_locked(ln, p.msg, w.fail);
	}
	os_mutex_unlock(&ln->ln_api_mutex);
}

/*
 * eth0 or eth1: lolnd is left out, its headers only ever come from its
 * own sends (its private is the message sent, which no wire can forge).
 */
static struct lnet_ni *record_ni(u8 sel)
{
	struct lnet_nid id = nid_table(sel & 1);
	struct lnet_ni *ni;

	os_mutex_lock(&w.ln.ln_api_mutex);
	ni = lnet_ni_find(&w.ln, &id);
	os_mutex_unlock(&w.ln.ln_api_mutex);
	return ni;
}

static void record_hdr(const u8 *r, struct lnet_hdr *hdr)
{
	static const u32 lens[8] = { 0, 1, 4096, 4097, 65536, LNET_MTU, LNET_MTU + 1, 17 };

	memset(hdr, 0, sizeof(*hdr));
	hdr->src_nid = nid_table(r[2]);
	hdr->dest_nid = nid_table(r[3]);
	hdr->type = r[4] % 5;			/* ACK PUT GET REPLY, and HELLO */
	hdr->payload_length = lens[r[5] & 7];
	hdr->src_pid = hdr->dest_pid = LNET_PID_LUSTRE;
	memcpy(&hdr->msg, r + 8, sizeof(hdr->msg) < REC_LEN - 8 ?
	       sizeof(hdr->msg) : REC_LEN - 8);
	if (hdr->type == LNET_MSG_PUT)
		hdr->msg.put.ptl_index &= 7;
	if (hdr->type == LNET_MSG_GET)
		hdr->msg.get.ptl_index &= 7;
}

static void one_record(const u8 *r, u32 idx)
{
	struct rx_private *p = &w.rx[idx];
	struct lnet_ni *ni = record_ni(r[0]);
	struct lnet_nid from = nid_table(r[1]);
	struct lnet_hdr hdr;

	if (!ni)
		return;
	record_hdr(r, &hdr);
	memset(p, 0, sizeof(*p));
	p->live = true;
	if (lnet_parse(&w.ln, ni, &hdr, &from, p))
		p->live = false;		/* refused: lnd_recv never comes */
	w.fail = r[6] & 1 ? -EIO : 0;
	if (r[6] & 2)
		lnd_progress();
}

/* What a closing connection does for every header still parked. */
static void abandon_parked(u32 n)
{
	u32 i, sel;

	for (i = 0; i < n; i++) {
		if (!w.rx[i].live || w.rx[i].used)
			continue;
		for (sel = 0; sel < 2; sel++)
			lnet_parse_abandon(&w.ln, record_ni((u8)sel), &w.rx[i]);
		w.rx[i].live = false;
	}
}

static void check_idle(void)
{
	struct lnet *ln = &w.ln;
	struct lnet_peer *lp;
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_msg *msg;
	u32 k;

	os_mutex_lock(&ln->ln_api_mutex);
	list_for_each_entry(msg, &ln->ln_dp.dp_msgs, msg_all)
		must(!msg->msg_routing);
	for (k = 0; k < LNET_NBUF_KINDS; k++) {
		must(ln->ln_rtr_pools[k].rp_credits ==
		     (s32)ln->ln_rtr_pools[k].rp_nbuffers);
		/* never more buffers than the pool may hold */
		must(ln->ln_rtr_pools[k].rp_allocated <= ln->ln_rtr_pools[k].rp_nbuffers);
	}
	list_for_each_entry(lp, &ln->ln_peers, lp_list)
		list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list)
			list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
				must(list_empty(&lpni->lpni_rtrq));
	os_mutex_unlock(&ln->ln_api_mutex);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u32 n = 0;

	if (!w.up)
		world_init();
	for (; size >= REC_LEN && n < MAX_PENDING; data += REC_LEN, size -= REC_LEN)
		one_record(data, n++);
	/* the connections close with headers still parked, then all ends */
	abandon_parked(n);
	w.fail = 0;
	lnd_progress();
	check_idle();
	/* peers made by traffic pile up: start again now and then */
	if (w.ln.ln_npeer_nis > 64)
		world_fini();
	return 0;
}
