// SPDX-License-Identifier: GPL-2.0-only
/*
 * libcfg's socket transport and operations against a real lnetd
 * (build/lnetd --foreground on a private socket): round trips, error
 * messages, rules, many clients, and hostile framing the daemon must
 * survive.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "../../libcfg/cfg_priv.h"

static char dir[64];
static char sock[100];
static pid_t lnetd_pid;
static struct cfg_handle *h;
static struct cfg_err err;

/* $LNETD_BIN, else build/lnetd found from this binary (build/[san/]tests/). */
static const char *lnetd_path(void)
{
	static char path[PATH_MAX + 16];
	static const char *const up[] = { "../lnetd", "../../lnetd" };
	char exe[PATH_MAX], dir_of[PATH_MAX];
	struct stat st;
	ssize_t n;
	size_t i;

	if (getenv("LNETD_BIN"))
		return getenv("LNETD_BIN");
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return "build/lnetd";
	exe[n] = '\0';
	for (i = 0; i < sizeof(up) / sizeof(up[0]); i++) {
		memcpy(dir_of, exe, (size_t)n + 1);
		snprintf(path, sizeof(path), "%s/%s", dirname(dir_of), up[i]);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			return path;
	}
	return "build/lnetd";
}

static int raw_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	memcpy(sa.sun_path, path, strlen(path) + 1);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

static int start_lnetd(void **state)
{
	char log[160];
	int i, fd;

	snprintf(dir, sizeof(dir), "/tmp/lnet-transport.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(sock, sizeof(sock), "%s/lnetd.sock", dir);
	snprintf(log, sizeof(log), "%s/lnetd.log", dir);
	lnetd_pid = fork();
	if (lnetd_pid == 0) {
		execl(lnetd_path(), "lnetd", "--foreground", "--socket", sock,
		      "--log", log, (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 200; i++) {
		fd = raw_connect(sock);
		if (fd >= 0) {
			close(fd);
			return cfg_open(sock, &h);
		}
		usleep(25000);
	}
	return -1;
}

static int stop_lnetd(void **state)
{
	struct stat st;
	int status = -1;

	cfg_close(h);
	kill(lnetd_pid, SIGTERM);
	waitpid(lnetd_pid, &status, 0);
	/* a clean stop: exit 0 and the socket removed */
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || stat(sock, &st) == 0)
		return -1;
	unlink(sock);
	snprintf(sock, sizeof(sock), "%s/lnetd.log", dir);
	unlink(sock);
	return rmdir(dir);
}

static void reset_err(void)
{
	memset(&err, 0, sizeof(err));
}

/* lnetd still serves: GET_NET 0 is 0@lo. */
static void assert_lnetd_serves(void)
{
	struct lnet_ioc_ni ni;
	char nid[LNET_NID_STR_MAX];

	assert_int_equal(cfg_ni_get(h, 0, 0, &ni), 0);
	lnet_nid_print(&ni.ni_nid, nid, sizeof(nid));
	assert_string_equal(nid, "0@lo");
}

static void configure(void)
{
	reset_err();
	assert_int_equal(cfg_lnet_configure(h, &err), 0);
}

/* --- round trips -------------------------------------------------------------- */

static void test_configure_get_lo(void **state)
{
	struct lnet_ioc_config c = { .cfg_hdr.ioc_len = sizeof(c) };
	struct lnet_ioc_ni ni;

	assert_string_equal(cfg_target(h), sock);
	assert_int_equal(cfg_ioctl(h, IOC_LIBCFS_CONFIGURE, &c), 0);
	assert_int_equal(c.cfg_hdr.ioc_version, LNET_IOC_VERSION);
	memset(&ni, 0, sizeof(ni));
	ni.ni_hdr.ioc_len = sizeof(ni);
	assert_int_equal(cfg_ioctl(h, IOC_LIBCFS_GET_NET, &ni), 0);
	assert_int_equal(ni.ni_nid.nid_lnd, LNET_LND_LO);
	assert_int_equal(ni.ni_nid.nid_addr_len, 4);
	assert_int_equal(ni.ni_status, LNET_NI_STATUS_UP);
	assert_lnetd_serves();
	assert_int_equal(cfg_ni_get(h, 1, 0, &ni), -ENOENT);
	assert_false(cfg_unreachable(h));
}

static void test_ioc_len_checked_locally(void **state)
{
	struct lnet_ioc_config c = { .cfg_hdr.ioc_len = 4 };

	assert_int_equal(cfg_ioctl(h, IOC_LIBCFS_CONFIGURE, &c), -EINVAL);
	c.cfg_hdr.ioc_len = LNET_IOC_MAX_LEN + 1;
	assert_int_equal(cfg_ioctl(h, IOC_LIBCFS_CONFIGURE, &c), -EINVAL);
	assert_lnetd_serves();
}

/*
 * cfg_lnet_configure_flags(): an unknown flag is refused before anything is
 * sent, naming the value and the one flag there is; the raw request is
 * refused by lnetd too; LNET_CONFIG_F_LARGE_NIDS is taken, LNet up or not.
 */
static void test_configure_flags(void **state)
{
	struct lnet_ioc_config c = { .cfg_hdr.ioc_len = sizeof(c), .cfg_flags = 1U << 3 };

	reset_err();
	assert_int_equal(cfg_lnet_configure_flags(h, 1U << 3, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "cannot configure LNet: flags 0x8: expected 0 or LNET_CONFIG_F_LARGE_NIDS (0x1)");
	assert_int_equal(cfg_ioctl(h, IOC_LIBCFS_CONFIGURE, &c), -EINVAL);
	c.cfg_flags = LNET_CONFIG_F_LARGE_NIDS;
	assert_int_equal(cfg_ioctl(h, IOC_LIBCFS_UNCONFIGURE, &c), -EINVAL);
	reset_err();
	assert_int_equal(cfg_lnet_configure_flags(h, LNET_CONFIG_F_LARGE_NIDS, &err), 0);
	assert_int_equal(cfg_lnet_configure_flags(h, LNET_CONFIG_F_LARGE_NIDS, &err), 0);
	assert_lnetd_serves();
}

static void test_net_messages(void **state)
{
	struct cfg_net n;

	configure();
	cfg_net_init(&n);
	n.net_id = LNET_NET_ID(LNET_LND_TCP, 0);
	assert_int_equal(cfg_parse_ifnames("--if", "lnetnope9", &n, &err), 0);
	reset_err();
	assert_int_equal(cfg_net_add(h, &n, &err), -ENODEV);
	assert_string_equal(err.msg, "interface 'lnetnope9' does not exist");
	cfg_net_fini(&n);
	n.net_id = LNET_NET_ID(LNET_LND_TCP, 1);
	assert_int_equal(cfg_parse_ifnames("--if", "lo", &n, &err), 0);
	reset_err();
	assert_int_equal(cfg_net_add(h, &n, &err), -EADDRNOTAVAIL);
	assert_string_equal(err.msg,
			    "interface 'lo' has no address usable as a NID (loopback and link-local addresses are not NIDs)");
	n.tun.peer_credits = 0;
	assert_int_equal(cfg_net_add(h, &n, &err), -EINVAL);
	assert_string_equal(err.msg, "invalid peer_credits '0': expected an integer 1-1024");
	cfg_net_fini(&n);
	cfg_net_init(&n);
	n.net_id = LNET_NET_ID(LNET_LND_TCP, 3);
	assert_int_equal(cfg_net_del(h, &n, &err), -ENOENT);
	assert_string_equal(err.msg, "net tcp3 is not configured");
	n.net_id = LNET_NET_ID(LNET_LND_LO, 0);
	assert_int_equal(cfg_net_del(h, &n, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "net lo cannot be deleted: 'lnetctl lnet unconfigure' removes 0@lo");
	assert_int_equal(cfg_net_add(h, &n, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "net lo cannot be added: 'lnetctl lnet configure' creates 0@lo");
}

/* @p: initialized, holding the peer of the step before (released here). */
static void peer_of(struct cfg_peer *p, const char *prim, const char *nids)
{
	cfg_peer_fini(p);
	cfg_peer_init(p);
	assert_int_equal(cfg_parse_nid("--prim_nid", prim, &p->prim, &err), 0);
	if (nids)
		assert_int_equal(cfg_parse_nidlist("--nid", nids, p, &err), 0);
}

/* The NIDs of the peer owning @nid, as "a b c", or "" if none. */
static const char *peer_nids(const char *nid)
{
	static char out[512];
	struct lnet_ioc_peer pr;
	struct lnet_nid n;
	char buf[LNET_NID_STR_MAX];
	u32 i;

	out[0] = '\0';
	assert_int_equal(cfg_parse_nid("nid", nid, &n, &err), 0);
	for (i = 0; cfg_peer_ni_get(h, i, &n, &pr) == 0; i++) {
		lnet_nid_print(&pr.pr_nid, buf, sizeof(buf));
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s",
			 i ? " " : "", buf);
	}
	return out;
}

static void test_peer_add_rollback(void **state)
{
	struct cfg_peer p;

	configure();
	cfg_peer_init(&p);
	peer_of(&p, "10.0.0.1@tcp", "10.0.0.[2-3]@tcp");
	assert_int_equal(cfg_peer_add(h, &p, &err), 0);
	assert_string_equal(peer_nids("10.0.0.3@tcp"), "10.0.0.1@tcp 10.0.0.2@tcp 10.0.0.3@tcp");

	/* a new peer whose second NID is taken: the new peer goes away */
	peer_of(&p, "10.0.0.9@tcp", "10.0.0.8@tcp,10.0.0.2@tcp");
	reset_err();
	assert_int_equal(cfg_peer_add(h, &p, &err), -EEXIST);
	assert_string_equal(err.msg, "NID 10.0.0.2@tcp already belongs to peer 10.0.0.1@tcp");
	assert_string_equal(peer_nids("10.0.0.9@tcp"), "");
	assert_string_equal(peer_nids("10.0.0.8@tcp"), "");

	/* an existing peer: only the NIDs this call added go away */
	peer_of(&p, "10.0.0.1@tcp", "10.0.0.4@tcp,10.0.0.5@tcp,10.0.0.3@tcp");
	assert_int_equal(cfg_peer_add(h, &p, &err), -EEXIST);
	assert_string_equal(err.msg, "NID 10.0.0.3@tcp already belongs to peer 10.0.0.1@tcp");
	assert_string_equal(peer_nids("10.0.0.1@tcp"), "10.0.0.1@tcp 10.0.0.2@tcp 10.0.0.3@tcp");

	/* a primary that is another peer's NID */
	peer_of(&p, "10.0.0.2@tcp", "10.0.0.7@tcp");
	assert_int_equal(cfg_peer_add(h, &p, &err), -EEXIST);
	assert_string_equal(err.msg, "NID 10.0.0.2@tcp already belongs to peer 10.0.0.1@tcp");

	peer_of(&p, "0@lo", NULL);
	assert_int_equal(cfg_peer_add(h, &p, &err), -EINVAL);
	assert_string_equal(err.msg, "0@lo cannot be a peer NID");
	peer_of(&p, "10.0.1.1@tcp", "10.0.1.2@tcp");
	p.flags = LNET_PEER_F_NON_MR;
	assert_int_equal(cfg_peer_add(h, &p, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "peer 10.0.1.1@tcp is not multi-rail (non_mr): it has its primary NID only");
	cfg_peer_fini(&p);
}

static void test_peer_del(void **state)
{
	struct cfg_peer p;

	configure();
	cfg_peer_init(&p);
	peer_of(&p, "10.0.2.1@tcp", "10.0.2.2@tcp");
	p.flags = LNET_PEER_F_LOCK_PRIM;
	assert_int_equal(cfg_peer_add(h, &p, &err), 0);
	peer_of(&p, "10.0.2.1@tcp", "10.0.2.7@tcp");
	reset_err();
	assert_int_equal(cfg_peer_del(h, &p, &err), -ENXIO);
	assert_string_equal(err.msg, "NID 10.0.2.7@tcp is not a NID of peer 10.0.2.1@tcp");
	peer_of(&p, "10.0.2.1@tcp", NULL);
	assert_int_equal(cfg_peer_del(h, &p, &err), -EBUSY);
	assert_string_equal(err.msg,
			    "the primary NID of peer 10.0.2.1@tcp is locked (lock_prim): force deletes it");
	assert_string_equal(peer_nids("10.0.2.1@tcp"), "10.0.2.1@tcp 10.0.2.2@tcp");
	p.flags = LNET_PEER_F_FORCE;
	assert_int_equal(cfg_peer_del(h, &p, &err), 0);
	assert_string_equal(peer_nids("10.0.2.1@tcp"), "");
	assert_int_equal(cfg_peer_del(h, &p, &err), -ENOENT);
	assert_string_equal(err.msg, "no peer has NID 10.0.2.1@tcp");
	cfg_peer_fini(&p);
}

/* Each cause the core reports has its errno: the message needs no second question. */
static void test_peer_causes(void **state)
{
	struct cfg_peer p;

	configure();
	cfg_peer_init(&p);
	/* an existing non-MR peer asked for a second NID: EMLINK */
	peer_of(&p, "10.0.3.1@tcp", NULL);
	p.flags = LNET_PEER_F_NON_MR;
	assert_int_equal(cfg_peer_add(h, &p, &err), 0);
	peer_of(&p, "10.0.3.1@tcp", "10.0.3.2@tcp");
	reset_err();
	assert_int_equal(cfg_peer_add(h, &p, &err), -EMLINK);
	assert_string_equal(err.msg,
			    "peer 10.0.3.1@tcp is not multi-rail (non_mr): it has its primary NID only");
	assert_string_equal(peer_nids("10.0.3.1@tcp"), "10.0.3.1@tcp");
	/* flags other than non_mr, lock_prim and force: named, nothing sent */
	peer_of(&p, "10.0.3.5@tcp", NULL);
	p.flags = 1U << 3;
	assert_int_equal(cfg_peer_add(h, &p, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "invalid peer flags '0x8': expected non_mr and lock_prim only");
	assert_string_equal(peer_nids("10.0.3.5@tcp"), "");
	cfg_peer_fini(&p);
}

static void route_of(struct cfg_route *r, const char *net, const char *gw)
{
	struct lnet_nid nid;

	cfg_route_fini(r);
	cfg_route_init(r);
	assert_int_equal(cfg_parse_net("--net", net, &r->net_id, &err), 0);
	assert_int_equal(cfg_parse_nid("--gateway", gw, &nid, &err), 0);
	assert_int_equal(cfg_route_append(r, &nid), 0);
}

/* Before: hops and priority out of range read as "gateway is our own NID". */
static void test_route_checks_named(void **state)
{
	struct cfg_route r;

	configure();
	cfg_route_init(&r);
	route_of(&r, "o2ib", "10.0.4.1@tcp");
	r.hops = 300;
	reset_err();
	assert_int_equal(cfg_route_add(h, &r, &err), -EINVAL);
	assert_string_equal(err.msg, "invalid hop '300': expected -1 (unset) or an integer 1-255");
	r.hops = 0;
	assert_int_equal(cfg_route_add(h, &r, &err), -EINVAL);
	assert_string_equal(err.msg, "invalid hop '0': expected -1 (unset) or an integer 1-255");
	r.hops = LNET_ROUTE_HOPS_UNSET;
	r.priority = 0x80000000U;
	assert_int_equal(cfg_route_add(h, &r, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "invalid priority '2147483648': expected an integer 0-2147483647");
	route_of(&r, "lo", "10.0.4.1@tcp");
	assert_int_equal(cfg_route_add(h, &r, &err), -EINVAL);
	assert_string_equal(err.msg, "net lo cannot be routed: it is this node itself");
	route_of(&r, "o2ib", "0@lo");
	assert_int_equal(cfg_route_add(h, &r, &err), -EINVAL);
	assert_string_equal(err.msg, "0@lo cannot be a gateway");
	cfg_route_fini(&r);
	cfg_route_init(&r);
	assert_int_equal(cfg_parse_net("--net", "o2ib", &r.net_id, &err), 0);
	assert_int_equal(cfg_route_add(h, &r, &err), -EINVAL);
	assert_string_equal(err.msg, "a route needs a gateway NID");
	cfg_route_fini(&r);
	/* nothing reached LNet */
	assert_int_equal(peer_nids("10.0.4.1@tcp")[0], '\0');
	/* routing: 0 or 1, checked by the same function as the core's */
	assert_int_equal(cfg_routing_set(h, 2, &err), -EINVAL);
	assert_string_equal(err.msg, "invalid routing '2': expected 0 or 1");
}

/* --- rules ----------------------------------------------------------------------- */

static void policy_of(struct cfg_policy *p, const char *src, const char *dst,
		      bool has_prio, u32 prio)
{
	cfg_policy_init(p);
	if (src)
		assert_int_equal(cfg_parse_nidexpr("--src", src, &p->d.src, &err), 0);
	if (dst)
		assert_int_equal(cfg_parse_nidexpr("--dst", dst, &p->d.dst, &err), 0);
	assert_int_equal(cfg_policy_finish(p, has_prio, prio, &err), 0);
}

static void assert_rule(u32 idx, const char *src, const char *dst, u32 action, u32 prio)
{
	struct cfg_policy got;
	char buf[LNET_EXPR_STR_MAX];

	cfg_policy_init(&got);
	assert_int_equal(cfg_policy_get(h, idx, &got), 0);
	assert_int_equal(got.d.idx, idx);
	assert_int_equal(got.d.action, action);
	assert_int_equal(got.d.priority, prio);
	assert_int_equal(lnet_nidexpr_present(&got.d.src), src != NULL);
	assert_int_equal(lnet_nidexpr_present(&got.d.dst), dst != NULL);
	if (src) {
		lnet_nidexpr_print(&got.d.src, buf, sizeof(buf));
		assert_string_equal(buf, src);
	}
	if (dst) {
		lnet_nidexpr_print(&got.d.dst, buf, sizeof(buf));
		assert_string_equal(buf, dst);
	}
}

static void test_policy_add_get_del(void **state)
{
	struct cfg_policy p, got;

	configure();
	assert_int_equal(cfg_policy_del(h, -1, &err), 0);
	policy_of(&p, "tcp1", NULL, true, 3);
	assert_int_equal(cfg_policy_add(h, &p, &err), 0);
	assert_int_equal(p.d.idx, 0);
	policy_of(&p, NULL, "10.1.1.[1-9]@tcp", true, 1);
	p.d.idx = 0;
	assert_int_equal(cfg_policy_add(h, &p, &err), 0);
	assert_int_equal(p.d.idx, 0);
	policy_of(&p, "10.0.0.1@tcp", "10.1.1.*@tcp", false, 0);
	assert_int_equal(cfg_policy_add(h, &p, &err), 0);
	assert_int_equal(p.d.idx, 2);

	assert_rule(0, NULL, "10.1.1.[1-9]@tcp", LNET_UDSP_ACTION_PRIORITY, 1);
	assert_rule(1, "tcp1", NULL, LNET_UDSP_ACTION_PRIORITY, 3);
	assert_rule(2, "10.0.0.1@tcp", "10.1.1.*@tcp", LNET_UDSP_ACTION_PREFERRED_LIST, 0);
	memset(&got, 0, sizeof(got));	/* never set up: refused, not written */
	assert_int_equal(cfg_policy_get(h, 0, &got), -EINVAL);
	assert_int_equal(got.size, 0);
	cfg_policy_init(&got);
	assert_int_equal(cfg_policy_get(h, 3, &got), -ENOENT);

	policy_of(&p, "tcp1", NULL, true, 3);
	reset_err();
	assert_int_equal(cfg_policy_add(h, &p, &err), -EALREADY);
	assert_string_equal(err.msg, "an identical rule already exists");
	reset_err();
	assert_int_equal(cfg_policy_del(h, 5, &err), -ENOENT);
	assert_string_equal(err.msg, "no rule at index 5");
	assert_int_equal(cfg_policy_del(h, -2, &err), -EINVAL);
	assert_string_equal(err.msg, "invalid idx '-2': expected -1 (all) or an integer 0-65535");

	assert_int_equal(cfg_policy_del(h, 0, &err), 0);
	assert_rule(0, "tcp1", NULL, LNET_UDSP_ACTION_PRIORITY, 3);
	assert_int_equal(cfg_policy_del(h, -1, &err), 0);
	assert_int_equal(cfg_policy_get(h, 0, &got), -ENOENT);
}

static void test_policy_bad_rule_explained(void **state)
{
	struct cfg_policy p;

	configure();
	cfg_policy_init(&p);
	assert_int_equal(cfg_parse_nidexpr("--src", "tcp", &p.d.src, &err), 0);
	assert_int_equal(cfg_parse_nidexpr("--rte", "10.0.0.1@tcp", &p.d.rte, &err), 0);
	p.d.action = LNET_UDSP_ACTION_PREFERRED_LIST;
	reset_err();
	assert_int_equal(cfg_policy_add(h, &p, &err), -EINVAL);
	assert_string_equal(err.msg,
			    "invalid rule: --src and --rte cannot be combined: a router rule is --dst with --rte");
}

/* --- errors every command shares ------------------------------------------- */

static void test_not_configured(void **state)
{
	struct cfg_net n;

	assert_int_equal(cfg_lnet_unconfigure(h, &err), 0);
	cfg_net_init(&n);
	n.net_id = LNET_NET_ID(LNET_LND_TCP, 0);
	assert_int_equal(cfg_parse_ifnames("--if", "lo", &n, &err), 0);
	reset_err();
	assert_int_equal(cfg_net_add(h, &n, &err), -ENETDOWN);
	assert_string_equal(err.msg, "LNet is not configured: run 'lnetctl lnet configure'");
	cfg_net_fini(&n);
	assert_int_equal(cfg_policy_del(h, -1, &err), -ENETDOWN);
	assert_string_equal(err.msg, "LNet is not configured: run 'lnetctl lnet configure'");
	configure();
}

static void test_unreachable(void **state)
{
	struct cfg_handle *x;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char path[100], want[400];
	int fd;

	snprintf(path, sizeof(path), "%s/none.sock", dir);
	assert_int_equal(cfg_open(path, &x), 0);
	reset_err();
	assert_int_equal(cfg_lnet_configure(x, &err), -ENOENT);
	assert_true(cfg_unreachable(x));
	snprintf(want, sizeof(want), "cannot reach lnetd at %s: No such file or directory", path);
	assert_string_equal(err.msg, want);
	/* a socket file nobody listens on */
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	memcpy(sa.sun_path, path, strlen(path) + 1);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(cfg_lnet_configure(x, &err), -ECONNREFUSED);
	snprintf(want, sizeof(want), "cannot reach lnetd at %s: Connection refused", path);
	assert_string_equal(err.msg, want);
	close(fd);
	unlink(path);
	cfg_close(x);
}

static void test_env_socket(void **state)
{
	struct cfg_handle *x;

	setenv("LNET_SOCKET", sock, 1);
	assert_int_equal(cfg_open(NULL, &x), 0);
	assert_string_equal(cfg_target(x), sock);
	assert_int_equal(cfg_lnet_configure(x, &err), 0);
	cfg_close(x);
	unsetenv("LNET_SOCKET");
	assert_int_equal(cfg_open(NULL, &x), 0);
	assert_string_equal(cfg_target(x), CFG_DEFAULT_SOCKET);
	cfg_close(x);
}

/* --- many clients, hostile clients ------------------------------------------ */

static void test_many_clients(void **state)
{
	struct cfg_handle *x[20];
	struct lnet_ioc_ni ni;
	int i, round;

	configure();
	for (i = 0; i < 20; i++)
		assert_int_equal(cfg_open(sock, &x[i]), 0);
	for (round = 0; round < 3; round++)
		for (i = 0; i < 20; i++)
			assert_int_equal(cfg_ni_get(x[(i * 7 + round) % 20], 0, 0, &ni), 0);
	for (i = 0; i < 20; i++)
		cfg_close(x[i]);
}

/* Send @len bytes raw, then read a reply: rc and len, or -1 on EOF. */
static int raw_request(int fd, const void *req, size_t len, s32 *rc, u32 *rlen)
{
	u32 head[2];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t got = 0;

	assert_int_equal(send(fd, req, len, MSG_NOSIGNAL), (ssize_t)len);
	while (got < sizeof(head)) {
		ssize_t n;

		assert_int_equal(poll(&pfd, 1, 5000), 1);
		n = read(fd, (char *)head + got, sizeof(head) - got);
		if (n <= 0)
			return -1;
		got += n;
	}
	*rc = (s32)head[0];
	*rlen = head[1];
	return 0;
}

/* After a framing error lnetd hangs up: the next read is EOF. */
static void assert_hung_up(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char c;

	assert_int_equal(poll(&pfd, 1, 5000), 1);
	assert_int_equal(read(fd, &c, 1), 0);
}

static void test_bad_ioc_len(void **state)
{
	u32 req[3] = { IOC_LIBCFS_CONFIGURE, LNET_IOC_MAX_LEN + 1, LNET_IOC_VERSION };
	u32 rlen;
	s32 rc;
	int fd;

	fd = raw_connect(sock);
	assert_int_equal(raw_request(fd, req, sizeof(req), &rc, &rlen), 0);
	assert_int_equal(rc, -EINVAL);
	assert_int_equal(rlen, 0);
	assert_hung_up(fd);
	close(fd);
	req[1] = 4;
	fd = raw_connect(sock);
	assert_int_equal(raw_request(fd, req, sizeof(req), &rc, &rlen), 0);
	assert_int_equal(rc, -EINVAL);
	assert_int_equal(rlen, 0);
	assert_hung_up(fd);
	close(fd);
	req[1] = 0xffffffff;
	fd = raw_connect(sock);
	assert_int_equal(raw_request(fd, req, sizeof(req), &rc, &rlen), 0);
	assert_int_equal(rc, -EINVAL);
	close(fd);
	assert_lnetd_serves();
}

static void test_bad_cmd_and_version(void **state)
{
	u32 req[6] = { 0xdeadbeef, 20, LNET_IOC_VERSION, 1, 2, 3 };
	u32 cfg[5] = { IOC_LIBCFS_CONFIGURE, 16, 0x00010000, 0, 0 };
	u32 rlen, back[5];
	s32 rc;
	int fd;

	fd = raw_connect(sock);
	assert_int_equal(raw_request(fd, req, sizeof(req), &rc, &rlen), 0);
	assert_int_equal(rc, -ENOTTY);
	assert_int_equal(rlen, 20);
	assert_int_equal(read(fd, back, 20), 20);
	assert_int_equal(back[0], 20);
	/* the same connection goes on: a wrong ABI version */
	assert_int_equal(raw_request(fd, cfg, sizeof(cfg), &rc, &rlen), 0);
	assert_int_equal(rc, -EPROTO);
	assert_int_equal(rlen, 16);
	assert_int_equal(read(fd, back, 16), 16);
	close(fd);
	assert_lnetd_serves();
}

static void test_short_and_stalled_clients(void **state)
{
	u32 req[3] = { IOC_LIBCFS_GET_NET, sizeof(struct lnet_ioc_ni), LNET_IOC_VERSION };
	u32 ones[3] = { 0xffffffff, 0xffffffff, 0xffffffff };
	char junk[7] = "garbage";
	int stalled, shorty;
	u32 rlen;
	s32 rc;

	/* a header cut short, then a hang-up */
	shorty = raw_connect(sock);
	assert_int_equal(send(shorty, junk, 2, MSG_NOSIGNAL), 2);
	close(shorty);
	/* a client that sends half a request and waits: others go on */
	stalled = raw_connect(sock);
	assert_int_equal(send(stalled, req, sizeof(req), MSG_NOSIGNAL), sizeof(req));
	assert_int_equal(send(stalled, junk, sizeof(junk), MSG_NOSIGNAL), sizeof(junk));
	assert_lnetd_serves();
	close(stalled);
	/* garbage that looks like a huge length */
	shorty = raw_connect(sock);
	assert_int_equal(raw_request(shorty, ones, sizeof(ones), &rc, &rlen), 0);
	assert_int_equal(rc, -EINVAL);
	assert_int_equal(rlen, 0);
	assert_hung_up(shorty);
	close(shorty);
	assert_lnetd_serves();
}

static void test_reconnects_after_hangup(void **state)
{
	struct lnet_ioc_config c = { .cfg_hdr.ioc_len = sizeof(c) };
	struct cfg_handle *x;

	assert_int_equal(cfg_open(sock, &x), 0);
	assert_int_equal(cfg_ioctl(x, IOC_LIBCFS_CONFIGURE, &c), 0);
	c.cfg_hdr.ioc_len = sizeof(c);
	assert_int_equal(cfg_ioctl(x, 0xdeadbeef, &c), -ENOTTY);
	c.cfg_hdr.ioc_len = sizeof(c);
	assert_int_equal(cfg_ioctl(x, IOC_LIBCFS_CONFIGURE, &c), 0);
	cfg_close(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_configure_get_lo),
		cmocka_unit_test(test_ioc_len_checked_locally),
		cmocka_unit_test(test_configure_flags),
		cmocka_unit_test(test_net_messages),
		cmocka_unit_test(test_peer_add_rollback),
		cmocka_unit_test(test_peer_del),
		cmocka_unit_test(test_peer_causes),
		cmocka_unit_test(test_route_checks_named),
		cmocka_unit_test(test_policy_add_get_del),
		cmocka_unit_test(test_policy_bad_rule_explained),
		cmocka_unit_test(test_not_configured),
		cmocka_unit_test(test_unreachable),
		cmocka_unit_test(test_env_socket),
		cmocka_unit_test(test_many_clients),
		cmocka_unit_test(test_bad_ioc_len),
		cmocka_unit_test(test_bad_cmd_and_version),
		cmocka_unit_test(test_short_and_stalled_clients),
		cmocka_unit_test(test_reconnects_after_hangup),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, start_lnetd, stop_lnetd);
}
