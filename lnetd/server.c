// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetd's socket loop: one epoll set over the listening socket, the signal
 * fd, the workers' completion eventfd and every client connection.
 * Connections are non-blocking and each keeps its own request/reply state,
 * so a slow or hostile client never stalls the others.
 *
 * A complete request runs on a worker thread, not in the loop: lnet_ioctl()
 * may wait for the network for seconds (ping, discover, selftest, with
 * ln_api_mutex released meanwhile), and another client's `net show` must
 * be answered in the meantime. While a worker owns a connection, its fd is
 * out of the epoll set (one request at a time per connection, as the
 * framing of lnetd.h is request/reply); the worker hands it back through
 * the done list and the eventfd, and the loop sends the reply. Workers are
 * started on demand (a request finds no idle one) up to LNETD_MAX_WORKERS
 * and stay until shutdown. See lnetd.h for the framing.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <time.h>

#include "lnetd.h"
#include "../kernel/core/lnet.h"

struct conn {
	struct conn *next, *prev;	/* on the conns list */
	int fd;
	bool may_modify;		/* CAP_NET_ADMIN when accepted (cred.c) */
	bool closing;			/* close once the reply is out */
	uid_t uid;
	pid_t pid;
	struct lnetd_req req;		/* the request being read, or run */
	u8 *out;			/* reply being sent */
	size_t out_len, out_off;
	bool watched;			/* in the epoll set */
	bool busy;			/* a worker runs its request */
	s32 rc;				/* what lnet_ioctl() returned */
	u64 deadline_ms;		/* a request half in or a reply half out:
					 * close then (0: none) */
	struct conn *job_next;		/* on the pool's todo or done list */
};

/*
 * The workers. @lock guards everything here; the loop and the workers
 * each hold it only to move a connection between lists.
 */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* todo not empty, or stop */
	struct conn *todo, **todo_tail;	/* FIFO */
	struct conn *done;		/* finished: back to the loop */
	unsigned int ntodo, nidle, nthreads, nbusy;
	bool stop;
	int efd;			/* eventfd: done is not empty */
	struct lnet *ln;
	pthread_t threads[LNETD_MAX_WORKERS];
} pool = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
	.efd = -1,
};

/* epoll tags for the two fds that are not connections */
static int listen_tag, signal_tag, done_tag;
/* Every open connection, so that shutdown can close them all. */
static struct conn *conns;
static unsigned int nconns, nshow_conns;	/* all, and those that may only show */
/* Held open so that a connection can be accepted (and dropped) at EMFILE. */
static int spare_fd = -1;

void lnetd_log(enum os_log_level level, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	os_log(level, "lnetd: %s", line);
}

static void conn_close(int ep, struct conn *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else
		conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	if (c->watched)
		epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	lnetd_req_reset(&c->req);
	free(c->out);
	nconns--;
	if (!c->may_modify)
		nshow_conns--;
	free(c);
}

static u64 now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000 + (u64)ts.tv_nsec / 1000000;
}

static void conn_arm(struct conn *c)
{
	if (!c->deadline_ms)
		c->deadline_ms = now_ms() + LNETD_CLIENT_TIMEOUT_S * 1000ULL;
}

static int conn_watch(int ep, struct conn *c, u32 events)
{
	struct epoll_event ev = { .events = events, .data.ptr = c };

	if (epoll_ctl(ep, c->watched ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, c->fd, &ev))
		return -1;
	c->watched = true;
	return 0;
}

/* Queue rc + @len bytes of @body and start sending. */
static int conn_reply(int ep, struct conn *c, s32 rc, const void *body, u32 len)
{
	u32 head[2] = { (u32)rc, len };

	c->out = malloc(LNETD_REPLY_HEAD + (size_t)len);
	if (!c->out)
		return -ENOMEM;
	memcpy(c->out, head, LNETD_REPLY_HEAD);
	if (len)
		memcpy(c->out + LNETD_REPLY_HEAD, body, len);
	c->out_len = LNETD_REPLY_HEAD + (size_t)len;
	c->out_off = 0;
	conn_arm(c);
	return conn_watch(ep, c, EPOLLOUT) ? -errno : 0;
}

static void *worker_main(void *arg)
{
	struct conn *c;

	pthread_mutex_lock(&pool.lock);
	for (;;) {
		while (!pool.todo && !pool.stop) {
			pool.nidle++;
			pthread_cond_wait(&pool.cond, &pool.lock);
			pool.nidle--;
		}
		/* Requests not started yet when lnetd stops are not run. */
		if (pool.stop)
			break;
		c = pool.todo;
		pool.todo = c->job_next;
		if (!pool.todo)
			pool.todo_tail = &pool.todo;
		pool.ntodo--;
		pool.nbusy++;
		pthread_mutex_unlock(&pool.lock);
		c->rc = lnet_ioctl(pool.ln, c->req.cmd, c->req.buf, c->req.len,
				   c->may_modify);
		if (c->rc == -EPERM && !c->may_modify)
			lnetd_warn_ratelimited("client pid %d uid %u: request 0x%08x refused: it modifies LNet and the client has no CAP_NET_ADMIN",
				   (int)c->pid, (unsigned int)c->uid, c->req.cmd);
		lnetd_debug("request 0x%08x of pid %d: %d", c->req.cmd, (int)c->pid, c->rc);
		pthread_mutex_lock(&pool.lock);
		pool.nbusy--;
		c->job_next = pool.done;
		pool.done = c;
		if (eventfd_write(pool.efd, 1))
			lnetd_err("cannot wake the socket loop: %s", strerror(errno));
	}
	pthread_mutex_unlock(&pool.lock);
	return NULL;
}

/* One more worker thread: 0 or -errno. */
static int pool_add_thread(void)
{
	sigset_t all, old;
	int rc;

	/* Signals are for the loop's signalfd: workers block them all. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&pool.threads[pool.nthreads], NULL, worker_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		return -rc;
	pool.nthreads++;
	return 0;
}

/*
 * Called with pool.lock held: one more worker when the queue holds more
 * requests than there are idle workers. There is always at least one
 * (pool_start), so when this fails the request waits for a busy one.
 */
static void pool_grow(void)
{
	int rc;

	if (pool.ntodo <= pool.nidle || pool.nthreads >= LNETD_MAX_WORKERS)
		return;
	rc = pool_add_thread();
	if (rc)
		lnetd_err("cannot start worker thread %u: %s", pool.nthreads + 1,
			  strerror(-rc));
}

/*
 * Hand @c's request to a worker: its fd leaves the epoll set until the
 * reply is ready (and nothing may touch @c meanwhile but the worker).
 */
static int conn_dispatch(int ep, struct conn *c)
{
	if (epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL))
		return -errno;
	c->watched = false;
	c->busy = true;
	c->job_next = NULL;
	pthread_mutex_lock(&pool.lock);
	*pool.todo_tail = c;
	pool.todo_tail = &c->job_next;
	pool.ntodo++;
	pool_grow();
	pthread_cond_signal(&pool.cond);
	pthread_mutex_unlock(&pool.lock);
	return 0;
}

/*
 * The head's ioc_len is out of range: answered, and the connection
 * dropped (the stream cannot be resynchronised).
 */
static int conn_refuse_len(int ep, struct conn *c)
{
	lnetd_warn("client pid %d uid %u: ioc_len %u not in %zu-%u, closing",
		   (int)c->pid, (unsigned int)c->uid, c->req.len,
		   sizeof(struct lnet_ioc_hdr), LNET_IOC_MAX_LEN);
	c->closing = true;
	lnetd_req_reset(&c->req);
	return conn_reply(ep, c, -EINVAL, NULL, 0);
}

/* Returns 1 to keep the connection, 0 to close it quietly, -errno on error. */
static int conn_read(int ep, struct conn *c)
{
	for (;;) {
		size_t want;
		u8 *to = lnetd_req_next(&c->req, &want);
		ssize_t n = recv(c->fd, to, want, 0);
		int rc;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 1;
		if (n < 0)
			return 0;
		if (n == 0) {
			if (lnetd_req_started(&c->req))
				lnetd_warn("client pid %d uid %u: closed in the middle of a request",
					   (int)c->pid, (unsigned int)c->uid);
			return 0;
		}
		rc = lnetd_req_got(&c->req, (size_t)n);
		if (rc == 0) {
			conn_arm(c);
			continue;
		}
		c->deadline_ms = 0;
		if (rc == -EINVAL)
			rc = conn_refuse_len(ep, c);
		else if (rc == 1)
			rc = conn_dispatch(ep, c);
		return rc ? rc : 1;
	}
}

/* Returns 1 to keep the connection, 0 to close it. */
static int conn_write(int ep, struct conn *c)
{
	while (c->out_off < c->out_len) {
		ssize_t n = send(c->fd, c->out + c->out_off,
				 c->out_len - c->out_off, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 1;
		if (n < 0)
			return 0;
		c->out_off += n;
	}
	free(c->out);
	c->out = NULL;
	c->deadline_ms = 0;
	if (c->closing)
		return 0;
	return conn_watch(ep, c, EPOLLIN) ? 0 : 1;
}

static void conn_event(int ep, struct conn *c, u32 events)
{
	int rc = 1;

	if (c->out)
		rc = conn_write(ep, c);
	else if (events & EPOLLIN)
		rc = conn_read(ep, c);
	else if (events & (EPOLLHUP | EPOLLERR))
		rc = 0;
	if (rc < 0)
		lnetd_warn("client pid %d uid %u: %s, closing", (int)c->pid,
			   (unsigned int)c->uid, strerror(-rc));
	if (rc <= 0)
		conn_close(ep, c);
}

/*
 * Who connected, and may it modify? Anything unknown leaves it to the
 * commands that only read, except running out of file descriptors while
 * checking: that says nothing of the client, so the caller drops the
 * connection rather than demote an administrator (returns -EMFILE/-ENFILE).
 */
static int conn_peer(struct conn *c)
{
	struct lnetd_peer p = { .uid = (uid_t)-1 };
	struct ucred cred;
	socklen_t len = sizeof(cred);
	int rc;

	if (getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0) {
		p.pid = cred.pid;
		p.uid = cred.uid;
		rc = lnetd_peer_may_modify(c->fd, &p, &c->may_modify);
	} else {
		rc = -errno;
	}
	c->pid = p.pid;
	c->uid = p.uid;
	if (rc == -EMFILE || rc == -ENFILE)
		return rc;
	if (rc)
		lnetd_debug("client pid %d uid %u: may only show (%s)", (int)c->pid,
			   (unsigned int)c->uid, strerror(-rc));
	return 0;
}

/* A connection for @fd, or NULL with errno set. */
static struct conn *conn_new(int fd)
{
	struct conn *c = calloc(1, sizeof(*c));
	int rc;

	if (!c)
		return NULL;
	c->fd = fd;
	rc = conn_peer(c);
	if (rc) {
		free(c);
		errno = -rc;
		return NULL;
	}
	return c;
}

/*
 * Out of file descriptors: the pending connection would keep the listening
 * socket readable forever. Free the spare fd, accept and close it, and
 * take the spare again.
 */
static void drop_one(int listen_fd)
{
	int fd;

	lnetd_warn("out of file descriptors: dropping a new connection");
	if (spare_fd < 0)
		return;
	close(spare_fd);
	fd = accept(listen_fd, NULL, NULL);
	if (fd >= 0)
		close(fd);
	spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static void accept_one(int ep, int listen_fd)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct conn *c;
	int fd;

	fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0 && (errno == EMFILE || errno == ENFILE)) {
		drop_one(listen_fd);
		return;
	}
	if (fd < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			lnetd_warn("accept: %s", strerror(errno));
		return;
	}
	if (nconns >= LNETD_MAX_CONNS) {
		lnetd_warn_ratelimited("%u connections open already, refusing one more", nconns);
		close(fd);
		return;
	}
	c = conn_new(fd);
	if (!c && (errno == EMFILE || errno == ENFILE)) {
		lnetd_warn("out of file descriptors: dropping a new connection");
		close(fd);
		return;
	}
	if (c && !c->may_modify && nshow_conns >= LNETD_MAX_CONNS - LNETD_ADMIN_CONNS) {
		lnetd_warn_ratelimited("client pid %d uid %u: %u connections of clients without CAP_NET_ADMIN open already, refusing one more",
			   (int)c->pid, (unsigned int)c->uid, nshow_conns);
		free(c);
		close(fd);
		return;
	}
	ev.data.ptr = c;
	if (!c || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev)) {
		lnetd_err("cannot serve a new connection: %s", strerror(errno));
		free(c);
		close(fd);
		return;
	}
	c->watched = true;
	c->next = conns;
	if (conns)
		conns->prev = c;
	conns = c;
	nconns++;
	if (!c->may_modify)
		nshow_conns++;
}

/*
 * Close the connections past their deadline (LNETD_CLIENT_TIMEOUT_S);
 * returns the milliseconds until the next one, -1 when none is armed
 * (epoll_wait's timeout).
 */
static int expire_conns(int ep)
{
	u64 now = now_ms(), next = 0;
	struct conn *c, *n;

	for (c = conns; c; c = n) {
		n = c->next;
		if (c->busy || !c->deadline_ms)
			continue;
		if (now < c->deadline_ms) {
			if (!next || c->deadline_ms < next)
				next = c->deadline_ms;
			continue;
		}
		lnetd_warn_ratelimited("client pid %d uid %u: %s not done within %d s, closing",
				       (int)c->pid, (unsigned int)c->uid,
				       c->out ? "reply" : "request", LNETD_CLIENT_TIMEOUT_S);
		conn_close(ep, c);
	}
	return next ? (int)(next - now) : -1;
}

/* Returns true when the signal asks lnetd to stop. */
static bool read_signal(int signal_fd)
{
	struct signalfd_siginfo si;

	if (read(signal_fd, &si, sizeof(si)) != sizeof(si))
		return false;
	lnetd_info("%s received, shutting down", strsignal(si.ssi_signo));
	return true;
}

/* Workers finished requests: send their replies. */
static void take_done(int ep)
{
	struct conn *c, *next;
	eventfd_t n;

	if (eventfd_read(pool.efd, &n))
		return;
	pthread_mutex_lock(&pool.lock);
	c = pool.done;
	pool.done = NULL;
	pthread_mutex_unlock(&pool.lock);
	for (; c; c = next) {
		int rc;

		next = c->job_next;
		c->busy = false;
		rc = conn_reply(ep, c, c->rc, c->req.buf, c->req.len);
		lnetd_req_reset(&c->req);
		if (rc) {
			lnetd_warn("client pid %d uid %u: %s, closing", (int)c->pid,
				   (unsigned int)c->uid, strerror(-rc));
			conn_close(ep, c);
		}
	}
}

/* The eventfd and the first worker (so that a request always has one). */
static int pool_start(struct lnet *ln)
{
	int rc;

	pool.ln = ln;
	pool.todo = NULL;
	pool.todo_tail = &pool.todo;
	pool.done = NULL;
	pool.stop = false;
	pool.efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (pool.efd < 0)
		return -errno;
	pthread_mutex_lock(&pool.lock);
	rc = pool_add_thread();
	pthread_mutex_unlock(&pool.lock);
	if (rc) {
		close(pool.efd);
		pool.efd = -1;
	}
	return rc;
}

/*
 * Stop the workers. Queued requests are dropped with their connections.
 * A running one may be waiting for the network (a ping for up to its
 * timeout): unconfiguring fails the messages it waits for, so it returns
 * at once, and lnetd was going to unconfigure on its way out anyway.
 */
static void pool_stop(struct lnet *ln)
{
	unsigned int i, busy;

	pthread_mutex_lock(&pool.lock);
	pool.stop = true;
	busy = pool.nbusy;
	pthread_cond_broadcast(&pool.cond);
	pthread_mutex_unlock(&pool.lock);
	if (busy) {
		lnetd_info("unconfiguring to end %u running request(s)", busy);
		os_mutex_lock(&ln->ln_api_mutex);
		lnet_unconfigure(ln);
		os_mutex_unlock(&ln->ln_api_mutex);
	}
	for (i = 0; i < pool.nthreads; i++)
		pthread_join(pool.threads[i], NULL);
	pool.nthreads = 0;
	close(pool.efd);
	pool.efd = -1;
}

static int epoll_add_tag(int ep, int fd, int *tag)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = tag };

	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

int lnetd_serve(struct lnet *ln, int listen_fd, int signal_fd)
{
	struct epoll_event evs[32];
	int ep, rc;
	bool stop = false;

	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0)
		return -errno;
	rc = pool_start(ln);
	if (rc) {
		close(ep);
		return rc;
	}
	spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (epoll_add_tag(ep, listen_fd, &listen_tag) ||
	    epoll_add_tag(ep, signal_fd, &signal_tag) ||
	    epoll_add_tag(ep, pool.efd, &done_tag))
		rc = -errno;
	while (!rc && !stop) {
		int i, n = epoll_wait(ep, evs, 32, expire_conns(ep));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			break;
		}
		for (i = 0; i < n; i++) {
			void *p = evs[i].data.ptr;

			if (p == &listen_tag)
				accept_one(ep, listen_fd);
			else if (p == &signal_tag)
				stop |= read_signal(signal_fd);
			else if (p == &done_tag)
				take_done(ep);
			else
				conn_event(ep, p, evs[i].events);
		}
	}
	/* No worker touches a connection after this. */
	pool_stop(ln);
	while (conns)
		conn_close(ep, conns);
	if (spare_fd >= 0)
		close(spare_fd);
	close(ep);
	return rc;
}
