// SPDX-License-Identifier: GPL-2.0-only
/*
 * Who is at the other end of a control connection, and may it modify?
 *
 * Shows are for anyone who can connect (the socket is mode 0666, see
 * main.c); the commands the ioctl table marks as modifying need
 * CAP_NET_ADMIN in lnetd's user namespace, as /dev/lnet asks of its
 * callers. The kernel tells the uid and pid of the connecting process
 * (SO_PEERCRED, as they were at connect()), not its capabilities: those
 * are read from /proc/<pid>/status (CapEff), once, when the connection is
 * accepted.
 *
 * The race, and what we do about it. Between connect() and our reading of
 * /proc the process may exit and its pid go to another process, or exec a
 * set-uid or file-capability program (keeping the socket open for a child
 * to use). So:
 *  - the process is pinned by a pidfd taken from the socket itself
 *    (SO_PEERPIDFD, Linux 6.5: it names the connecting process, not
 *    whatever holds its pid now); /proc/<pid>/status is read, then the
 *    pidfd must still name a live process: a pid is not reused while its
 *    process lives, so the status read was that process's. Older kernels:
 *    pidfd_open(pid) after SO_PEERCRED, which leaves the reuse window
 *    open between connect() and that call (a log line says so, once);
 *  - the status's effective uid must still be SO_PEERCRED's (a set-uid
 *    exec since connect() changes it): else no right to modify;
 *  - the caller must be in lnetd's user namespace (CapEff counts in the
 *    caller's own namespace; a capability in a child namespace is none in
 *    ours), and in lnetd's pid namespace's view (pid 0: not visible).
 * Left open: a file-capability program (no uid change) exec'd between
 * connect() and accept by a process that also handed the socket to a
 * child. Sampling once per connection is like the file descriptor model:
 * a process that drops CAP_NET_ADMIN after connecting keeps the right on
 * that connection (lnetctl connects once per run, after its checks).
 *
 * An lnetd that itself runs without CAP_NET_ADMIN (a user's own, on a
 * socket of theirs) also lets its own uid modify: that uid can ptrace or
 * kill it anyway, so refusing it would protect nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "lnetd.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD		77	/* asm-generic/socket.h, Linux 6.5 */
#endif
#define LNETD_CAP_NET_ADMIN	12	/* linux/capability.h */

/* What /proc/<pid>/status tells of a process. */
struct proc_status {
	uint64_t cap_eff;
	long euid;
};

static int read_status(pid_t pid, struct proc_status *st)
{
	char path[64], line[256];
	bool cap = false, uid = false;
	long r, e;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "CapEff: %" SCNx64, &st->cap_eff) == 1)
			cap = true;
		else if (sscanf(line, "Uid: %ld %ld", &r, &e) == 2) {
			st->euid = e;
			uid = true;
		}
	}
	fclose(f);
	return cap && uid ? 0 : -EIO;
}

/* Both paths name the same namespace (ns files: same device and inode). */
static bool same_ns(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* A pidfd of the process that connected @fd (see above), or -errno. */
static int peer_pidfd(int fd, pid_t pid)
{
	static bool warned;
	socklen_t len = sizeof(int);
	int pidfd;

	if (!getsockopt(fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &len))
		return pidfd;
	if (errno != ENOPROTOOPT && errno != EINVAL)
		return -errno;
	if (!warned)
		lnetd_warn("this kernel has no SO_PEERPIDFD: a client's pid is checked with pidfd_open(), which a pid reused since connect() can fool");
	warned = true;
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	return pidfd < 0 ? -errno : pidfd;
}

/*
 * Does this very process hold CAP_NET_ADMIN? Read once (lnetd never
 * changes its capabilities); a failed read (out of file descriptors, say)
 * is an error, not a "no" that would hand out the right to modify.
 */
static int self_has_net_admin(bool *admin)
{
	static int cached = -1;
	struct proc_status st;
	int rc;

	if (cached < 0) {
		rc = read_status(getpid(), &st);
		if (rc)
			return rc;
		cached = st.cap_eff >> LNETD_CAP_NET_ADMIN & 1;
	}
	*admin = cached;
	return 0;
}

int lnetd_peer_may_modify(int fd, const struct lnetd_peer *p, bool *may)
{
	char ns[64];
	struct proc_status st;
	bool admin;
	int pidfd, rc;

	*may = false;
	if (p->pid <= 0)
		return -ESRCH;		/* in a pid namespace we cannot see */
	if (p->uid == geteuid()) {
		rc = self_has_net_admin(&admin);
		if (rc)
			return rc;
		if (!admin) {
			*may = true;
			return 0;
		}
	}
	pidfd = peer_pidfd(fd, p->pid);
	if (pidfd < 0)
		return pidfd;
	rc = read_status(p->pid, &st);
	/* Still alive after the read: the status was the connecting process's. */
	if (!rc && syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0))
		rc = -errno;
	close(pidfd);
	if (rc)
		return rc;
	if (st.euid != (long)p->uid)
		return -EPERM;
	snprintf(ns, sizeof(ns), "/proc/%d/ns/user", (int)p->pid);
	if (!same_ns(ns, "/proc/self/ns/user"))
		return -EPERM;
	*may = st.cap_eff >> LNETD_CAP_NET_ADMIN & 1;
	return 0;
}
