// SPDX-License-Identifier: GPL-2.0-only
/*
 * LNETCTL_BIN of the bats suites in LNET_TRANSPORT=dev mode (see
 * tests/bats/helpers.bash): runs the real lnetctl ($LNET_LNETCTL_REAL) in
 * the test's network namespace ($LNET_NETNS, as made by `ip netns add`),
 * where its veth pair is: the lnet module looks interfaces up in the
 * namespace of the process that calls ioctl(2) on /dev/lnet.
 *
 * `ip netns exec NS lnetctl` does the same, but under QEMU's TCG every
 * dynamically linked exec costs 100+ ms: this is one static exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int enter_netns(const char *name)
{
	char path[PATH_MAX];
	int fd;

	if (strchr(name, '/') ||
	    snprintf(path, sizeof(path), "/run/netns/%s", name) >= (int)sizeof(path)) {
		fprintf(stderr, "lnetctl-netns: invalid LNET_NETNS '%s'\n", name);
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET)) {
		fprintf(stderr, "lnetctl-netns: cannot enter %s: %s\n", path, strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	const char *netns = getenv("LNET_NETNS");
	const char *real = getenv("LNET_LNETCTL_REAL");

	(void)argc;
	if (!real || !*real) {
		fprintf(stderr, "lnetctl-netns: LNET_LNETCTL_REAL is not set\n");
		return 2;
	}
	if (netns && *netns && enter_netns(netns))
		return 2;
	argv[0] = (char *)real;
	execv(real, argv);
	fprintf(stderr, "lnetctl-netns: cannot run %s: %s\n", real, strerror(errno));
	return 127;
}
