// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the kernel-side UDSP entry point with raw ioctl buffers. Each input
 * is handed, unchanged (its first 4 bytes are ioc_len, whatever they say),
 * to lnet_udsp_demarshal() and to lnet_ioctl(ADD_UDSP) on a small
 * configured instance. A rule that is accepted must marshal back to the
 * same bytes, come back equal through GET_UDSP_SIZE/GET_UDSP, and delete
 * cleanly; the instance must free every object at the end. Any breach
 * aborts, which libFuzzer reports as a crash.
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

/* tcp: 10.0.0.1, 10.0.0.2; o2ib: 10.0.0.1; peers on both; one route. */
static void world_init(struct lnet *ln)
{
	u32 tcp = LNET_NET_ID(LNET_LND_TCP, 0), o2ib = LNET_NET_ID(LNET_LND_O2IB, 0);
	struct lnet_nid p = nid4(tcp, 10, 0, 0, 10), q = nid4(o2ib, 10, 0, 0, 10);
	struct lnet_nid gw = nid4(tcp, 10, 0, 0, 100);

	/* the NIs' lifecycle lines of every input: not what is fuzzed */
	if (!os_log_file)
		os_log_file = fopen("/dev/null", "w");
	lnet_init(ln);
	must(!lnet_builtin_register(ln));
	ln->ln_if_lookup = fake_if_lookup;
	must(!lnet_configure(ln));
	must(!lnet_ni_add(ln, tcp, "eth0", NULL));
	must(!lnet_ni_add(ln, tcp, "eth1", NULL));
	must(!lnet_ni_add(ln, o2ib, "eth0", NULL));
	must(!lnet_peer_ni_add(ln, &p, &p, 0));
	must(!lnet_peer_ni_add(ln, &p, &q, 0));
	must(!lnet_route_add(ln, LNET_NET_ID(LNET_LND_TCP, 5), &gw, 1, 0));
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

static void check_ioctl(const uint8_t *data, size_t size)
{
	struct lnet_ioc_udsp del = { .iou_idx = -1 };
	struct lnet_udsp_desc *d = calloc(1, sizeof(*d));
	struct lnet *ln = calloc(1, sizeof(*ln));
	u8 *buf = malloc(size ? size : 1);
	s32 idx;
	int rc;

	must(d && ln && buf);
	memcpy(buf, data, size);
	world_init(ln);
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
	}
	del.iou_hdr.ioc_len = sizeof(del);
	del.iou_hdr.ioc_version = LNET_IOC_VERSION;
	must(!lnet_ioctl(ln, IOC_LIBCFS_DEL_UDSP, &del, sizeof(del), true));
	must(lnet_udsp_of(ln)->us_count == 0);
	lnet_fini(ln);
	must(ln->ln_nobjects == 0);
	free(buf);
	free(ln);
	free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > LNET_IOC_MAX_LEN)
		return 0;
	check_demarshal(data, size);
	if (size >= sizeof(struct lnet_ioc_hdr))
		check_ioctl(data, size);
	return 0;
}
