// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The transport: /dev/lnet through ioctl(2), or lnetd's Unix socket.
 *
 * Socket framing (lnetd/lnetd.h is the server side; host byte order):
 *
 *   request   u32 cmd, then the ioctl buffer (ioc_len bytes, starting
 *             with struct lnet_ioc_hdr)
 *   reply     s32 rc (0 or -errno), u32 len (ioc_len, or 0 when lnetd
 *             rejected the framing), then len bytes: the buffer as the
 *             command left it (also when rc is not 0)
 *
 * The connection is made by the first cfg_ioctl() and kept; any I/O
 * failure closes it so that the next call reconnects. So does an
 * interruption (cfg_set_interrupt): the reply still due on it would
 * answer the next request.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>

#include "cfg_priv.h"

struct cfg_handle {
	char *path;		/* the socket, or CFG_DEV_PATH */
	bool dev;		/* ioctl(2) on /dev/lnet */
	int fd;			/* -1 until the first cfg_ioctl() */
	bool unreachable;	/* the last failure was reaching the target */
	bool (*stop)(void *arg);	/* true: stop waiting for a reply */
	void *stop_arg;
};

void cfg_set_interrupt(struct cfg_handle *h, bool (*stop)(void *arg), void *arg)
{
	h->stop = stop;
	h->stop_arg = arg;
}

static bool interrupted(const struct cfg_handle *h)
{
	return h->stop && h->stop(h->stop_arg);
}

int cfg_open(const char *socket, struct cfg_handle **hp)
{
	struct cfg_handle *h = calloc(1, sizeof(*h));

	if (!h)
		return -ENOMEM;
	h->fd = -1;
	if (!socket && access(CFG_DEV_PATH, F_OK) == 0) {
		h->dev = true;
		socket = CFG_DEV_PATH;
	} else if (!socket) {
		socket = getenv("LNET_SOCKET");
		if (!socket || !*socket)
			socket = CFG_DEFAULT_SOCKET;
	}
	h->path = strdup(socket);
	if (!h->path) {
		free(h);
		return -ENOMEM;
	}
	*hp = h;
	return 0;
}

void cfg_close(struct cfg_handle *h)
{
	if (!h)
		return;
	if (h->fd >= 0)
		close(h->fd);
	free(h->path);
	free(h);
}

const char *cfg_target(const struct cfg_handle *h)
{
	return h->path;
}

bool cfg_unreachable(const struct cfg_handle *h)
{
	return h->unreachable;
}

static int connect_target(struct cfg_handle *h)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (h->dev) {
		fd = open(h->path, O_RDONLY | O_CLOEXEC);	/* ioctl needs no write access */
		if (fd < 0)
			return -errno;
		h->fd = fd;
		return 0;
	}
	if (strlen(h->path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, h->path, strlen(h->path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	h->fd = fd;
	return 0;
}

/*
 * Read exactly @len bytes of @h's socket; 0, or -ECONNRESET on EOF, or
 * -errno; -EINTR once interrupted() (a signal alone is waited past).
 */
static int read_full(struct cfg_handle *h, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n;

		if (interrupted(h))	/* also when the signal came before the read */
			return -EINTR;
		n = read(h->fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ECONNRESET;
		p += n;
		len -= n;
	}
	return 0;
}

static int send_request(int fd, unsigned int cmd, void *buf, u32 len)
{
	u32 cmd32 = cmd;
	struct iovec iov[2] = {
		{ .iov_base = &cmd32, .iov_len = sizeof(cmd32) },
		{ .iov_base = buf, .iov_len = len },
	};
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = 2 };
	size_t left = sizeof(cmd32) + len;

	while (left) {
		ssize_t n = sendmsg(fd, &msg, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		left -= n;
		while (n > 0 && msg.msg_iovlen) {
			size_t step = (size_t)n < msg.msg_iov->iov_len ?
				      (size_t)n : msg.msg_iov->iov_len;

			msg.msg_iov->iov_base = (char *)msg.msg_iov->iov_base + step;
			msg.msg_iov->iov_len -= step;
			n -= step;
			if (!msg.msg_iov->iov_len) {
				msg.msg_iov++;
				msg.msg_iovlen--;
			}
		}
	}
	return 0;
}

/*
 * One request/reply on the socket. *@io_failed tells transport failures
 * (the connection is then unusable) from the command's own rc.
 */
static int socket_ioctl(struct cfg_handle *h, unsigned int cmd, void *buf,
			u32 len, bool *io_failed)
{
	u32 head[2];
	int rc;

	*io_failed = true;
	rc = send_request(h->fd, cmd, buf, len);
	if (!rc)
		rc = read_full(h, head, sizeof(head));
	if (rc)
		return rc == -EPIPE ? -ECONNRESET : rc;
	if (head[1] != len && head[1] != 0)
		return -EPROTO;
	if (head[1]) {
		rc = read_full(h, buf, len);
		if (rc)
			return rc;
	}
	*io_failed = false;
	if (!head[1]) {		/* lnetd rejected the framing and hung up */
		close(h->fd);
		h->fd = -1;
	}
	return (s32)head[0];
}

int cfg_ioctl(struct cfg_handle *h, unsigned int cmd, void *buf)
{
	struct lnet_ioc_hdr *hdr = buf;
	bool io_failed = false;
	int rc;

	if (hdr->ioc_len < sizeof(*hdr) || hdr->ioc_len > LNET_IOC_MAX_LEN)
		return -EINVAL;
	hdr->ioc_version = LNET_IOC_VERSION;
	h->unreachable = false;
	if (h->fd < 0) {
		rc = connect_target(h);
		if (rc) {
			h->unreachable = true;
			return rc;
		}
	}
	if (h->dev) {
		rc = ioctl(h->fd, cmd, buf) < 0 ? -errno : 0;
		return rc;
	}
	rc = socket_ioctl(h, cmd, buf, hdr->ioc_len, &io_failed);
	if (io_failed) {
		close(h->fd);
		h->fd = -1;
		h->unreachable = rc != -EINTR;
	}
	return rc;
}
