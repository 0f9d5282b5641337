// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hostile ioctl clients for /dev/lnet, run inside the test VM by
 * tests/kernel/ioctl.bats.
 *
 *   ioctl-fuzz frame         one line per framing case: "<case> <ERRNO|OK>"
 *   ioctl-fuzz perm          every command on a zeroed request:
 *                            "<command> <ERRNO|OK>" (run without
 *                            CAP_NET_ADMIN: mutating ones must say EPERM)
 *   ioctl-fuzz fuzz N SEED   N random, truncated and mutated requests;
 *                            prints the counts, exit 1 when a random or
 *                            truncated request succeeded or any request
 *                            failed with an errno the ABI does not list
 *   ioctl-fuzz race N        N requests while a second thread rewrites
 *                            ioc_len (the kernel reads the header twice)
 *
 * Built twice: ioctl-fuzz (native) and ioctl-fuzz32 (-m32, static), which
 * goes through the module's compat_ioctl.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "lnet/lnet_ioctl.h"

/*
 * The ABI has the same layout for 32-bit callers (compat_ioctl): the sizes
 * in the command numbers must not depend on the word size. Built -m32 as
 * ioctl-fuzz32, these fail at compile time if they do.
 */
_Static_assert(sizeof(struct lnet_ioc_config) == 16, "lnet_ioc_config layout");
_Static_assert(sizeof(struct lnet_ioc_ni) == 456, "lnet_ioc_ni layout");
_Static_assert(sizeof(struct lnet_ioc_peer) == 1104, "lnet_ioc_peer layout");
_Static_assert(sizeof(struct lnet_ioc_latency) == 32, "lnet_ioc_latency layout");
_Static_assert(sizeof(struct lnet_ioc_route) == 68, "lnet_ioc_route layout");
_Static_assert(sizeof(struct lnet_ioc_routing) == 40, "lnet_ioc_routing layout");
_Static_assert(sizeof(struct lnet_ioc_stats) == 296, "lnet_ioc_stats layout");
_Static_assert(sizeof(struct lnet_ioc_global) == 24, "lnet_ioc_global layout");
_Static_assert(sizeof(struct lnet_ioc_udsp) == 32, "lnet_ioc_udsp layout");
_Static_assert(sizeof(struct lnet_ioc_udsp_descr) == 16, "lnet_ioc_udsp_descr layout");
_Static_assert(sizeof(struct lnet_ioc_udsp_info) == 692, "lnet_ioc_udsp_info layout");
_Static_assert(sizeof(struct lnet_ioc_udsp_batch) == 32, "lnet_ioc_udsp_batch layout");
_Static_assert(sizeof(struct lnet_ioc_explain_cand) == 96, "lnet_ioc_explain_cand layout");
_Static_assert(sizeof(struct lnet_ioc_explain) == 160 + 96 * LNET_EXPLAIN_MAX_CAND,
	       "lnet_ioc_explain layout");
_Static_assert(sizeof(struct lnet_ioc_udsp_match) == 1776, "lnet_ioc_udsp_match layout");
_Static_assert(sizeof(struct lnet_ioc_fault) == 184, "lnet_ioc_fault layout");

#define DEV "/dev/lnet"
#define BUF_SIZE (LNET_IOC_MAX_LEN + 4096)

struct cmd_info {
	const char *name;
	unsigned int cmd;
	uint32_t size;
};

static const struct cmd_info cmds[] = {
	{ "CONFIGURE", IOC_LIBCFS_CONFIGURE, sizeof(struct lnet_ioc_config) },
	{ "UNCONFIGURE", IOC_LIBCFS_UNCONFIGURE, sizeof(struct lnet_ioc_config) },
	{ "ADD_NET", IOC_LIBCFS_ADD_NET, sizeof(struct lnet_ioc_ni) },
	{ "DEL_NET", IOC_LIBCFS_DEL_NET, sizeof(struct lnet_ioc_ni) },
	{ "GET_NET", IOC_LIBCFS_GET_NET, sizeof(struct lnet_ioc_ni) },
	{ "ADD_PEER_NI", IOC_LIBCFS_ADD_PEER_NI, sizeof(struct lnet_ioc_peer) },
	{ "DEL_PEER_NI", IOC_LIBCFS_DEL_PEER_NI, sizeof(struct lnet_ioc_peer) },
	{ "GET_PEER_NI", IOC_LIBCFS_GET_PEER_NI, sizeof(struct lnet_ioc_peer) },
	{ "SET_PEER_STATE", IOC_LIBCFS_SET_PEER_STATE, sizeof(struct lnet_ioc_peer) },
	{ "ADD_ROUTE", IOC_LIBCFS_ADD_ROUTE, sizeof(struct lnet_ioc_route) },
	{ "DEL_ROUTE", IOC_LIBCFS_DEL_ROUTE, sizeof(struct lnet_ioc_route) },
	{ "GET_ROUTE", IOC_LIBCFS_GET_ROUTE, sizeof(struct lnet_ioc_route) },
	{ "CONFIG_RTR", IOC_LIBCFS_CONFIG_RTR, sizeof(struct lnet_ioc_routing) },
	{ "ADD_BUF", IOC_LIBCFS_ADD_BUF, sizeof(struct lnet_ioc_routing) },
	{ "GET_BUF", IOC_LIBCFS_GET_BUF, sizeof(struct lnet_ioc_routing) },
	{ "GET_LNET_STATS", IOC_LIBCFS_GET_LNET_STATS, sizeof(struct lnet_ioc_stats) },
	{ "RESET_LNET_STATS", IOC_LIBCFS_RESET_LNET_STATS, sizeof(struct lnet_ioc_stats) },
	{ "SET_GLOBAL", IOC_LIBCFS_SET_GLOBAL, sizeof(struct lnet_ioc_global) },
	{ "GET_GLOBAL", IOC_LIBCFS_GET_GLOBAL, sizeof(struct lnet_ioc_global) },
	{ "SET_HEALTH", IOC_LIBCFS_SET_HEALTH, sizeof(struct lnet_ioc_health) },
	{ "ADD_UDSP", IOC_LIBCFS_ADD_UDSP, sizeof(struct lnet_ioc_udsp) },
	{ "DEL_UDSP", IOC_LIBCFS_DEL_UDSP, sizeof(struct lnet_ioc_udsp) },
	{ "GET_UDSP_SIZE", IOC_LIBCFS_GET_UDSP_SIZE, sizeof(struct lnet_ioc_udsp) },
	{ "GET_UDSP", IOC_LIBCFS_GET_UDSP, sizeof(struct lnet_ioc_udsp) },
	{ "GET_CONST_UDSP_INFO", IOC_LIBCFS_GET_CONST_UDSP_INFO,
	  sizeof(struct lnet_ioc_udsp_info) },
	{ "ADD_UDSP_BATCH", IOC_LNET_ADD_UDSP_BATCH, sizeof(struct lnet_ioc_udsp_batch) },
	{ "GET_UDSP_BATCH", IOC_LNET_GET_UDSP_BATCH, sizeof(struct lnet_ioc_udsp_batch) },
	{ "DEL_UDSP_BATCH", IOC_LNET_DEL_UDSP_BATCH, sizeof(struct lnet_ioc_udsp_batch) },
	{ "PING_PEER", IOC_LIBCFS_PING_PEER, sizeof(struct lnet_ioc_ping) },
	{ "DISCOVER", IOC_LIBCFS_DISCOVER, sizeof(struct lnet_ioc_ping) },
	{ "SELFTEST", IOC_LNET_SELFTEST, sizeof(struct lnet_ioc_selftest) },
	{ "LST", IOC_LNET_LST, sizeof(struct lnet_ioc_lst) },
	{ "GET_IF", IOC_LNET_GET_IF, sizeof(struct lnet_ioc_if) },
	{ "SET_NI_LND", IOC_LNET_SET_NI_LND, sizeof(struct lnet_ioc_ni) },
	{ "GET_RTR_POOLS", IOC_LNET_GET_RTR_POOLS, sizeof(struct lnet_ioc_rtr_pools) },
	{ "EXPLAIN", IOC_LNET_EXPLAIN, sizeof(struct lnet_ioc_explain) },
	{ "UDSP_MATCH", IOC_LNET_UDSP_MATCH, sizeof(struct lnet_ioc_udsp_match) },
	{ "FAULT_ADD", IOC_LNET_FAULT_ADD, sizeof(struct lnet_ioc_fault) },
	{ "FAULT_DEL", IOC_LNET_FAULT_DEL, sizeof(struct lnet_ioc_fault) },
	{ "FAULT_RESET", IOC_LNET_FAULT_RESET, sizeof(struct lnet_ioc_fault) },
	{ "FAULT_GET", IOC_LNET_FAULT_GET, sizeof(struct lnet_ioc_fault) },
};
#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

static int dev_open(void)
{
	int fd = open(DEV, O_RDWR);

	if (fd < 0) {
		fprintf(stderr, "ioctl-fuzz: cannot open %s: %s\n", DEV, strerror(errno));
		exit(2);
	}
	return fd;
}

/* ioctl(2) as 0 or -errno. */
static int do_ioctl(int fd, unsigned int cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

static const char *err_name(int rc)
{
	static char other[32];

	switch (-rc) {
	case 0: return "OK";
	case EINVAL: return "EINVAL";
	case EPROTO: return "EPROTO";
	case ENOTTY: return "ENOTTY";
	case EPERM: return "EPERM";
	case ENETDOWN: return "ENETDOWN";
	case ENOMEM: return "ENOMEM";
	case ENODEV: return "ENODEV";
	case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
	case EADDRINUSE: return "EADDRINUSE";
	case EMLINK: return "EMLINK";
	case ENXIO: return "ENXIO";
	case EBUSY: return "EBUSY";
	case EISCONN: return "EISCONN";
	case EEXIST: return "EEXIST";
	case ENOENT: return "ENOENT";
	case ENOSPC: return "ENOSPC";
	case ENODATA: return "ENODATA";
	case EALREADY: return "EALREADY";
	case ESRCH: return "ESRCH";
	case EAFNOSUPPORT: return "EAFNOSUPPORT";
	case EFAULT: return "EFAULT";
	case EHOSTUNREACH: return "EHOSTUNREACH";
	case ETIMEDOUT: return "ETIMEDOUT";
	}
	snprintf(other, sizeof(other), "errno-%d", -rc);
	return other;
}

/*
 * The errnos lnet_ioctl.h and lnet_udsp.h document; EHOSTUNREACH and
 * ETIMEDOUT only for the commands that send (ping, discover, selftest, lst).
 */
static bool err_documented(unsigned int cmd, int rc)
{
	bool sends = cmd == IOC_LIBCFS_PING_PEER || cmd == IOC_LIBCFS_DISCOVER ||
		     cmd == IOC_LNET_SELFTEST || cmd == IOC_LNET_LST;

	if (rc == -EHOSTUNREACH || rc == -ETIMEDOUT)
		return sends;
	return strncmp(err_name(rc), "errno-", 6) != 0;
}

static void hdr_set(void *buf, uint32_t len)
{
	struct lnet_ioc_hdr *h = buf;

	h->ioc_len = len;
	h->ioc_version = LNET_IOC_VERSION;
}

static int config(int fd, unsigned int cmd)
{
	struct lnet_ioc_config c;

	memset(&c, 0, sizeof(c));
	hdr_set(&c, sizeof(c));
	return do_ioctl(fd, cmd, &c);
}

/* --- frame ------------------------------------------------------------- */

/* A request whose ioc_len runs past the end of the mapping. */
static int frame_past_mapping(int fd)
{
	long page = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct lnet_ioc_config *c;
	int rc;

	if (m == MAP_FAILED)
		return -errno;
	munmap(m + page, page);
	c = (void *)(m + page - sizeof(*c));
	memset(c, 0, sizeof(*c));
	hdr_set(c, 4096);
	rc = do_ioctl(fd, IOC_LIBCFS_CONFIGURE, c);
	munmap(m, page);
	return rc;
}

static void frame_case(const char *name, int rc)
{
	printf("%s %s\n", name, err_name(rc));
}

static int cmd_frame(void)
{
	struct lnet_ioc_config c;
	int fd = dev_open();

	memset(&c, 0, sizeof(c));
	hdr_set(&c, 4);
	frame_case("len-4", do_ioctl(fd, IOC_LIBCFS_CONFIGURE, &c));
	hdr_set(&c, 8);
	frame_case("len-8-below-struct", do_ioctl(fd, IOC_LIBCFS_CONFIGURE, &c));
	hdr_set(&c, LNET_IOC_MAX_LEN + 1);
	frame_case("len-max-plus-1", do_ioctl(fd, IOC_LIBCFS_CONFIGURE, &c));
	hdr_set(&c, sizeof(c));
	c.cfg_hdr.ioc_version = LNET_IOC_VERSION + 1;
	frame_case("bad-version", do_ioctl(fd, IOC_LIBCFS_CONFIGURE, &c));
	hdr_set(&c, sizeof(c));
	frame_case("unknown-nr", do_ioctl(fd, _IOWR(LNET_IOC_TYPE, 200, struct lnet_ioc_config), &c));
	frame_case("other-type", do_ioctl(fd, _IOWR('f', 59, struct lnet_ioc_config), &c));
	frame_case("size-not-struct", do_ioctl(fd, _IOWR(LNET_IOC_TYPE, 59, char[12]), &c));
	frame_case("null-pointer", do_ioctl(fd, IOC_LIBCFS_CONFIGURE, NULL));
	frame_case("past-mapping", frame_past_mapping(fd));
	c.cfg_reserved = 1;
	frame_case("reserved-set", do_ioctl(fd, IOC_LIBCFS_CONFIGURE, &c));
	c.cfg_reserved = 0;
	c.cfg_flags = 1U << 1;	/* bit 0 is LNET_CONFIG_F_LARGE_NIDS */
	frame_case("unknown-flag", do_ioctl(fd, IOC_LIBCFS_CONFIGURE, &c));
	close(fd);
	return 0;
}

/* --- perm -------------------------------------------------------------- */

static int cmd_perm(void)
{
	static char buf[BUF_SIZE];
	unsigned int i;
	int fd = dev_open();

	for (i = 0; i < NCMDS; i++) {
		memset(buf, 0, cmds[i].size);
		hdr_set(buf, cmds[i].size);
		printf("%s %s\n", cmds[i].name, err_name(do_ioctl(fd, cmds[i].cmd, buf)));
	}
	close(fd);
	return 0;
}

/* --- fuzz -------------------------------------------------------------- */

static uint64_t rng_state;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

static void rnd_fill(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = (uint8_t)rnd();
}

/* A valid rule "src tcp, priority 1": the base of the UDSP mutations. */
static uint32_t udsp_template(uint8_t *buf)
{
	struct lnet_ioc_udsp *u = (void *)buf;
	struct lnet_ioc_udsp_descr *d = (void *)(u + 1);
	uint32_t *count = (void *)(d + 1);
	struct lnet_ioc_range *r = (void *)(count + 1);
	uint32_t len;

	memset(buf, 0, 256);
	d->iud_lnd = LNET_LND_TCP;
	d->iud_kind = LNET_UDSP_KIND_NET;
	d->iud_nlists = 1;
	d->iud_size = sizeof(*count) + sizeof(*r);
	*count = 1;
	r->lo = 0;
	r->hi = 0;
	r->stride = 1;
	/* dst and rte absent: two zeroed descriptor headers */
	len = sizeof(*u) + sizeof(*d) + d->iud_size + 2 * sizeof(*d);
	u->iou_idx = -1;
	u->iou_action = LNET_UDSP_ACTION_PRIORITY;
	u->iou_priority = 1;
	u->iou_bulk_size = len - sizeof(*u);
	hdr_set(buf, len);
	return len;
}

/* A valid peer NI request: 10.12.0.<n>@tcp on peer 10.12.0.1@tcp. */
static uint32_t peer_template(uint8_t *buf, unsigned int n)
{
	struct lnet_ioc_peer *p = (void *)buf;
	static const uint8_t a1[4] = { 10, 12, 0, 1 };

	memset(p, 0, sizeof(*p));
	p->pr_prim_nid.nid_addr_len = 4;
	p->pr_prim_nid.nid_lnd = LNET_LND_TCP;
	memcpy(p->pr_prim_nid.nid_addr, a1, 4);
	p->pr_nid = p->pr_prim_nid;
	p->pr_nid.nid_addr[3] = (uint8_t)n;
	hdr_set(buf, sizeof(*p));
	return sizeof(*p);
}

struct fuzz_stats {
	unsigned long calls, ok, random_ok, undocumented;
	unsigned long by_errno[256];
};

static void fuzz_count(struct fuzz_stats *st, unsigned int cmd, int rc, bool random)
{
	st->calls++;
	if (!rc) {
		st->ok++;
		if (random)
			st->random_ok++;
		return;
	}
	if (!err_documented(cmd, rc)) {
		st->undocumented++;
		fprintf(stderr, "undocumented errno %d (%s)\n", -rc, strerror(-rc));
	}
	st->by_errno[(-rc) & 0xff]++;
}

/* Random bytes after a header that is right, or truncated. */
static bool fuzz_random(uint8_t *buf, const struct cmd_info *c, uint32_t *len)
{
	uint32_t room = c->size + (rnd() % 2 ? rnd() % 4096 : 0);

	rnd_fill(buf, room);
	if (rnd() % 2)			/* truncated: shorter than the struct */
		*len = rnd() % c->size;
	else
		*len = room;
	hdr_set(buf, *len);
	if (rnd() % 16 == 0)		/* sometimes a lying ioc_len */
		((struct lnet_ioc_hdr *)buf)->ioc_len = rnd();
	return true;
}

/* A valid request with a few bytes changed (never the header). */
static bool fuzz_mutate(uint8_t *buf, const struct cmd_info *c, uint32_t *len)
{
	unsigned int i, flips = 1 + rnd() % 4;

	if (c->cmd == IOC_LIBCFS_ADD_PEER_NI || c->cmd == IOC_LIBCFS_DEL_PEER_NI) {
		*len = peer_template(buf, 2 + rnd() % 8);
	} else if (c->size == sizeof(struct lnet_ioc_udsp)) {
		*len = udsp_template(buf);
	} else {
		memset(buf, 0, c->size);
		*len = c->size;
		hdr_set(buf, *len);
	}
	for (i = 0; i < flips; i++) {
		uint32_t at = sizeof(struct lnet_ioc_hdr) +
			      rnd() % (*len - sizeof(struct lnet_ioc_hdr));

		buf[at] = (uint8_t)rnd();
	}
	return false;
}

static void fuzz_print(const struct fuzz_stats *st)
{
	unsigned int e;

	printf("calls %lu\nok %lu\nrandom-ok %lu\nundocumented %lu\n",
	       st->calls, st->ok, st->random_ok, st->undocumented);
	for (e = 1; e < 256; e++)
		if (st->by_errno[e])
			printf("%s %lu\n", err_name(-(int)e), st->by_errno[e]);
}

static int cmd_fuzz(unsigned long n, unsigned long seed)
{
	static uint8_t buf[BUF_SIZE];
	struct fuzz_stats st;
	unsigned long i;
	int fd = dev_open();

	memset(&st, 0, sizeof(st));
	rng_state = seed * 2654435761u + 1;
	for (i = 0; i < n; i++) {
		const struct cmd_info *c = &cmds[rnd() % NCMDS];
		uint32_t len;
		bool random;

		/* Both states: every 500 calls flip between down and up. */
		if (i % 500 == 0) {
			unsigned int cfg = (i / 500) % 2 ? IOC_LIBCFS_UNCONFIGURE :
					   IOC_LIBCFS_CONFIGURE;

			fuzz_count(&st, cfg, config(fd, cfg), false);
			continue;
		}
		if (rnd() % 4 == 0)
			random = fuzz_mutate(buf, c, &len);
		else
			random = fuzz_random(buf, c, &len);
		fuzz_count(&st, c->cmd, do_ioctl(fd, c->cmd, buf), random);
	}
	config(fd, IOC_LIBCFS_UNCONFIGURE);	/* leave it down: not counted */
	close(fd);
	fuzz_print(&st);
	return st.random_ok || st.undocumented ? 1 : 0;
}

/* --- race -------------------------------------------------------------- */

static struct lnet_ioc_peer *race_buf;
static volatile bool race_stop;

static void *race_flipper(void *arg)
{
	(void)arg;
	while (!race_stop) {
		race_buf->pr_hdr.ioc_len = LNET_IOC_MAX_LEN;
		race_buf->pr_hdr.ioc_len = sizeof(*race_buf);
		race_buf->pr_hdr.ioc_len = 8;
		race_buf->pr_hdr.ioc_len = sizeof(*race_buf);
	}
	return NULL;
}

static int cmd_race(unsigned long n)
{
	unsigned long i, ok = 0, einval = 0, other = 0;
	pthread_t t;
	int fd = dev_open();

	race_buf = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (race_buf == MAP_FAILED)
		return 2;
	config(fd, IOC_LIBCFS_CONFIGURE);
	memset(race_buf, 0, sizeof(*race_buf));
	hdr_set(race_buf, sizeof(*race_buf));
	if (pthread_create(&t, NULL, race_flipper, NULL))
		return 2;
	for (i = 0; i < n; i++) {
		int rc;

		race_buf->pr_index = 0;
		race_buf->pr_hdr.ioc_version = LNET_IOC_VERSION;
		rc = do_ioctl(fd, IOC_LIBCFS_GET_PEER_NI, race_buf);
		if (rc == -EINVAL)
			einval++;
		else if (rc == 0 || rc == -ENOENT)
			ok++;
		else
			other++;
	}
	race_stop = true;
	pthread_join(t, NULL);
	config(fd, IOC_LIBCFS_UNCONFIGURE);
	close(fd);
	printf("calls %lu\nanswered %lu\neinval %lu\nother %lu\n", n, ok, einval, other);
	return other ? 1 : 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: ioctl-fuzz frame | perm | fuzz N SEED | race N\n");
	return 2;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "frame"))
		return cmd_frame();
	if (argc == 2 && !strcmp(argv[1], "perm"))
		return cmd_perm();
	if (argc == 4 && !strcmp(argv[1], "fuzz"))
		return cmd_fuzz(strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "race"))
		return cmd_race(strtoul(argv[2], NULL, 0));
	return usage();
}
