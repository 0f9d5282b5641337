// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the kernel-side UDSP entry point with raw ioctl buffers. Each input
 * is handed, unchanged (its first 4 bytes are ioc_len, whatever they say),
 * to lnet_udsp_demarshal() and to lnet_ioctl(ADD_UDSP) on a small
 * configured instance. A rule that is accepted must marshal back to the
 * same bytes, come back equal through GET_UDSP_SIZE/GET_UDSP, and delete
 * cleanly. Any breach aborts, which libFuzzer reports as a crash.
 *
 * The instance is built once (the first input) and kept: deleting the
 * rule an input added is the whole reset, since the engine flattens every
 * priority and preferred list from the rules left (udsp_apply.c). That it
 * is is checked after every input: a snapshot of everything a rule can
 * touch (nets, NIs, peer nets, peer NIs with their preferred lists,
 * routes, the rule list and its index, the count of live objects) must
 * equal the one taken when the instance was new.
 */
#include <stdint.h>
#include <stdlib.h>

#include "../../kernel/udsp/udsp.h"
#include "../../kernel/builtin/builtin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fake_if_lookup(const char *ifname, struct os_ifaddr *out)
{
	memset(out, 0, sizeof(*out));
	out->addr_len = 4;
	out->up = true;
	out->addr[0] = 10;
	if (!strcmp(ifname, "eth0"))
		out->addr[3] = 1;
	else if (!strcmp(ifname, "eth1"))
		out->addr[3] = 2;
	else
		return -ENODEV;
	return 0;
}

static void must(bool ok)
{
	if (!ok)
		abort();
}

static struct lnet_nid nid4(u32 net_id, u8 a, u8 b, u8 c, u8 d)
{
	u8 addr[4] = { a, b, c, d };
	struct lnet_nid nid;

	lnet_nid_make(&nid, net_id, addr, 4);
	return nid;
}

static struct lnet world;

/*
 * tcp: 10.0.0.1, 10.0.0.2; o2ib: 10.0.0.1; peers on both; one route.
 * Nothing timed runs meanwhile (no health loss, no gateway checks, no
 * discovery), so that only the inputs change the instance.
 */
static void world_init(struct lnet *ln)
{
	u32 tcp = LNET_NET_ID(LNET_LND_TCP, 0), o2ib = LNET_NET_ID(LNET_LND_O2IB, 0);
	struct lnet_nid p = nid4(tcp, 10, 0, 0, 10), q = nid4(o2ib, 10, 0, 0, 10);
	struct lnet_nid gw = nid4(tcp, 10, 0, 0, 100);

	/* the NIs' lifecycle lines: not what is fuzzed */
	if (!os_log_file)
		os_log_file = fopen("/dev/null", "w");
	lnet_init(ln);
	must(!lnet_builtin_register(ln));
	ln->ln_if_lookup = fake_if_lookup;
	os_mutex_lock(&ln->ln_api_mutex);
	must(!lnet_configure(ln));
	must(!lnet_global_set(ln, LNET_GLOBAL_HEALTH_SENSITIVITY, 0));
	must(!lnet_global_set(ln, LNET_GLOBAL_ALIVE_ROUTER_CHECK_INTERVAL, 0));
	must(!lnet_global_set(ln, LNET_GLOBAL_DISCOVERY, 0));
	must(!lnet_ni_add(ln, tcp, "eth0", NULL));
	must(!lnet_ni_add(ln, tcp, "eth1", NULL));
	must(!lnet_ni_add(ln, o2ib, "eth0", NULL));
	must(!lnet_peer_ni_add(ln, &p, &p, 0));
	must(!lnet_peer_ni_add(ln, &p, &q, 0));
	must(!lnet_route_add(ln, LNET_NET_ID(LNET_LND_TCP, 5), &gw, 1, 0));
	os_mutex_unlock(&ln->ln_api_mutex);
}

/* ---- the instance's state, as words -------------------------------------- */

#define SNAP_MAX	1024

struct snap {
	u32 n;
	u32 w[SNAP_MAX];
};

static void snap_u32(struct snap *s, u32 v)
{
	must(s->n < SNAP_MAX);
	s->w[s->n++] = v;
}

static void snap_nid(struct snap *s, const struct lnet_nid *nid)
{
	u32 v[(sizeof(*nid) + 3) / 4] = { 0 };
	u32 i;

	memcpy(v, nid, sizeof(*nid));
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		snap_u32(s, v[i]);
}

static void snap_nids(struct snap *s, const struct lnet_nid *nids, u32 n)
{
	u32 i;

	snap_u32(s, n);
	for (i = 0; i < n; i++)
		snap_nid(s, &nids[i]);
}

/*
 * A peer NI's preferred lists keep the room they once grew to (peer.c,
 * lnet_nid_list_set()): an object each while allocated, whatever they hold.
 */
static s64 snap_peer_rooms(const struct lnet_peer *lp)
{
	const struct lnet_peer_net *lpn;
	const struct lnet_peer_ni *lpni;
	s64 n = 0;

	list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list)
		list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
			n += (lpni->lpni_pref_nids != NULL) + (lpni->lpni_rtr_nids != NULL);
	return n;
}

static void snap_peer(struct snap *s, const struct lnet_peer *lp)
{
	const struct lnet_peer_net *lpn;
	const struct lnet_peer_ni *lpni;

	snap_nid(s, &lp->lp_primary_nid);
	snap_u32(s, lp->lp_nnis);
	list_for_each_entry(lpn, &lp->lp_peer_nets, lpn_list) {
		snap_u32(s, lpn->lpn_net_id);
		snap_u32(s, lpn->lpn_sel_priority);
		list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list) {
			snap_nid(s, &lpni->lpni_nid);
			snap_u32(s, lpni->lpni_sel_priority);
			snap_nids(s, lpni->lpni_pref_nids, lpni->lpni_npref);
			snap_nids(s, lpni->lpni_rtr_nids, lpni->lpni_nrtr);
		}
	}
}

/* Everything a rule can change, and what says nothing was left behind. */
static void snap_take(struct lnet *ln, struct snap *s)
{
	const struct lnet_udsp_set *us = lnet_udsp_of(ln);
	const struct lnet_route *rt;
	const struct lnet_peer *lp;
	const struct lnet_net *net;
	const struct lnet_ni *ni;
	s64 nobjects;

	s->n = 0;
	os_mutex_lock(&ln->ln_api_mutex);
	nobjects = ln->ln_nobjects;
	list_for_each_entry(lp, &ln->ln_peers, lp_list)
		nobjects -= snap_peer_rooms(lp);
	snap_u32(s, us->us_count);
	snap_u32(s, us->us_index != NULL);
	snap_u32(s, (u32)nobjects);
	snap_u32(s, ln->ln_npeer_nis);
	list_for_each_entry(net, &ln->ln_nets, net_list) {
		snap_u32(s, net->net_id);
		snap_u32(s, net->net_sel_priority);
		list_for_each_entry(ni, &net->net_nis, ni_list) {
			snap_nid(s, &ni->ni_nid);
			snap_u32(s, ni->ni_sel_priority);
		}
	}
	list_for_each_entry(lp, &ln->ln_peers, lp_list)
		snap_peer(s, lp);
	list_for_each_entry(rt, &ln->ln_routes, lr_list) {
		snap_u32(s, rt->lr_net);
		snap_nid(s, &rt->lr_gw_nid);
		snap_u32(s, rt->lr_hops);
		snap_u32(s, rt->lr_priority);
	}
	os_mutex_unlock(&ln->ln_api_mutex);
}

/* What demarshal accepts must marshal back into the very same bytes. */
static void check_demarshal(const uint8_t *data, size_t size)
{
	struct lnet_udsp_desc *d = calloc(1, sizeof(*d));
	char err[256];
	u8 *again;

	must(d != NULL);
	if (size > UINT32_MAX ||
	    lnet_udsp_demarshal(data, (u32)size, d, err, sizeof(err))) {
		free(d);
		return;
	}
	must(sizeof(struct lnet_ioc_udsp) + lnet_udsp_bulk_size(d) == size);
	again = malloc(size);
	must(again && lnet_udsp_marshal(d, again, (u32)size) == (int)size);
	/* the version is the framing's to check, not the rule's */
	memcpy(again + 4, data + 4, 4);
	must(!memcmp(again, data, size));
	free(again);
	free(d);
}

/* The rule at @idx must read back as what @data holds. */
static void check_get(struct lnet *ln, s32 idx, const struct lnet_udsp_desc *want)
{
	struct lnet_ioc_udsp h = { .iou_idx = idx };
	struct lnet_udsp_desc *got = calloc(1, sizeof(*got));
	u8 *buf;
	u32 len;

	h.iou_hdr.ioc_len = sizeof(h);
	h.iou_hdr.ioc_version = LNET_IOC_VERSION;
	must(got && !lnet_ioctl(ln, IOC_LIBCFS_GET_UDSP_SIZE, &h, sizeof(h), false));
	len = sizeof(h) + h.iou_bulk_size;
	buf = calloc(1, len);
	must(buf != NULL);
	h.iou_hdr.ioc_len = len;
	h.iou_bulk_size = 0;
	memcpy(buf, &h, sizeof(h));
	must(!lnet_ioctl(ln, IOC_LIBCFS_GET_UDSP, buf, len, false));
	must(!lnet_udsp_demarshal(buf, len, got, NULL, 0));
	must(got->idx == idx && lnet_udsp_desc_same_match(got, want) &&
	     got->priority == want->priority);
	free(buf);
	free(got);
}

/*
 * ADD_UDSP on the instance; an accepted rule reads back, is a duplicate
 * when added again, and is deleted by its idx: the reset. (Not DEL_UDSP
 * of every rule: that also frees the room the rule array and hash grew,
 * see world_warm().)
 */
static void check_ioctl(struct lnet *ln, const uint8_t *data, size_t size)
{
	struct lnet_ioc_udsp del = { .iou_idx = 0 };
	struct lnet_udsp_desc *d = calloc(1, sizeof(*d));
	u8 *buf = malloc(size ? size : 1);
	s32 idx;
	int rc;

	must(d && buf);
	memcpy(buf, data, size);
	rc = lnet_ioctl(ln, IOC_LIBCFS_ADD_UDSP, buf, (u32)size, true);
	must(rc == 0 || rc == -EINVAL || rc == -EPROTO);
	if (!rc) {
		idx = ((struct lnet_ioc_udsp *)buf)->iou_idx;
		must(idx == 0 && lnet_udsp_of(ln)->us_count == 1);
		must(!lnet_udsp_demarshal(data, (u32)size, d, NULL, 0));
		check_get(ln, idx, d);
		/* the same rule again is a duplicate */
		memcpy(buf, data, size);
		must(lnet_ioctl(ln, IOC_LIBCFS_ADD_UDSP, buf, (u32)size, true) ==
		     -EALREADY);
		del.iou_idx = idx;
		del.iou_hdr.ioc_len = sizeof(del);
		del.iou_hdr.ioc_version = LNET_IOC_VERSION;
		must(!lnet_ioctl(ln, IOC_LIBCFS_DEL_UDSP, &del, sizeof(del), true));
	}
	free(buf);
	free(d);
}

/*
 * A first rule, added and deleted, before the initial snapshot: the rule
 * array and hash keep the room they grew for it, which no later input
 * changes (each adds one rule at most).
 */
static void world_warm(struct lnet *ln)
{
	struct lnet_udsp_desc *d = calloc(1, sizeof(*d));
	struct lnet_ioc_udsp del = { .iou_idx = 0 };
	u8 buf[512];
	int len;

	must(d != NULL);
	d->idx = -1;
	d->action = LNET_UDSP_ACTION_PRIORITY;
	d->priority = 1;
	must(!lnet_nidexpr_parse("tcp", &d->src, NULL, 0));
	len = lnet_udsp_marshal(d, buf, sizeof(buf));
	must(len > 0);
	must(!lnet_ioctl(ln, IOC_LIBCFS_ADD_UDSP, buf, (u32)len, true));
	del.iou_hdr.ioc_len = sizeof(del);
	del.iou_hdr.ioc_version = LNET_IOC_VERSION;
	must(!lnet_ioctl(ln, IOC_LIBCFS_DEL_UDSP, &del, sizeof(del), true));
	free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct snap initial, now;
	static bool up;

	if (size > LNET_IOC_MAX_LEN)
		return 0;
	if (!up) {
		world_init(&world);
		world_warm(&world);
		snap_take(&world, &initial);
		up = true;
	}
	check_demarshal(data, size);
	if (size < sizeof(struct lnet_ioc_hdr))
		return 0;
	check_ioctl(&world, data, size);
	/* every input starts from the state the first one found */
	snap_take(&world, &now);
	must(now.n == initial.n &&
	     !memcmp(now.w, initial.w, now.n * sizeof(now.w[0])));
	return 0;
}
