/* SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later */
/* The OS layer on libc: used by lnetd, libcfg, the unit tests and bench. */
#ifndef LNET_OS_USER_H
#define LNET_OS_USER_H

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

static inline void *os_zalloc(size_t size)
{
	return calloc(1, size);
}

static inline void os_free(const void *p)
{
	free((void *)p);
}

static inline void *os_zalloc_pages(size_t size)
{
	size_t n = (size + 4095) & ~(size_t)4095;
	void *p = n ? aligned_alloc(4096, n) : NULL;

	if (p)
		memset(p, 0, n);
	return p;
}

struct os_mutex {
	pthread_mutex_t m;
	bool noio;		/* os_mutex_init_noio(): no socket I/O under it */
};

/* How many no-I/O mutexes this thread holds (os_sock_send/recv/wait check). */
extern __thread int os_noio_held;

static inline void os_mutex_init(struct os_mutex *m)
{
	pthread_mutex_init(&m->m, NULL);
	m->noio = false;
}

static inline void os_mutex_init_noio(struct os_mutex *m)
{
	os_mutex_init(m);
	m->noio = true;
}

static inline void os_mutex_lock(struct os_mutex *m)
{
	pthread_mutex_lock(&m->m);
	os_noio_held += m->noio;
}

static inline void os_mutex_unlock(struct os_mutex *m)
{
	os_noio_held -= m->noio;
	pthread_mutex_unlock(&m->m);
}

static inline void os_mutex_destroy(struct os_mutex *m)
{
	pthread_mutex_destroy(&m->m);
}

/*
 * A condition variable used with an os_mutex (see os.h). Monotonic clock:
 * deadlines are os_now_ns() values.
 */
struct os_cond {
	pthread_cond_t c;
};

void os_cond_init(struct os_cond *c);
void os_cond_destroy(struct os_cond *c);
int os_cond_wait(struct os_cond *c, struct os_mutex *m, u64 deadline_ns);
/* os.h: no signal reaches a wait in lnetd, so the plain wait */
static inline int os_cond_wait_intr(struct os_cond *c, struct os_mutex *m, u64 deadline_ns)
{
	return os_cond_wait(c, m, deadline_ns);
}
void os_cond_broadcast(struct os_cond *c);

struct os_thread {
	pthread_t t;
	int (*fn)(void *arg);
	void *arg;
	bool started;
};

/*
 * Log lines at the kernel's levels (see os.h): os_log() writes the time
 * stamp, the level's name as dmesg -x shows it, then the message.
 * Where it writes: lnetd points it at its log file; NULL = stderr.
 * Lines above os_log_max are dropped: OS_LOG_INFO unless lnetd's
 * --verbose raises it to OS_LOG_DEBUG (as pr_debug is off by default).
 */
enum os_log_level {
	OS_LOG_ERR,
	OS_LOG_WARN,
	OS_LOG_INFO,
	OS_LOG_DEBUG,
};
extern FILE *os_log_file;
extern enum os_log_level os_log_max;
void os_log(enum os_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define os_err(...)	os_log(OS_LOG_ERR, __VA_ARGS__)
#define os_warn(...)	os_log(OS_LOG_WARN, __VA_ARGS__)
#define os_info(...)	os_log(OS_LOG_INFO, __VA_ARGS__)
#define os_debug(...)	os_log(OS_LOG_DEBUG, __VA_ARGS__)

/*
 * One call site's rate limit (os.h, os_warn_ratelimited): at most
 * OS_RATELIMIT_BURST lines per OS_RATELIMIT_INTERVAL_NS. The kernel's
 * interval, but a larger burst than its 10: lnetd's log is its own file,
 * not the ring buffer every driver shares, and a run of distinct refusals
 * (stalled handshakes timing out together) must show whole; a flood is
 * still cut to 20 lines a second. Lock-free: the socket LND's threads
 * share call sites.
 */
#define OS_RATELIMIT_BURST		100
#define OS_RATELIMIT_INTERVAL_NS	(5ULL * 1000000000ULL)
struct os_ratelimit {
	u64 rl_begin_ns;	/* the current interval's start, 0 = none yet */
	u32 rl_printed;		/* lines asked for in this interval */
	u32 rl_missed;		/* of them, dropped */
};
/* May the call site of @rl log now? Logs the count of the dropped first. */
bool os_ratelimit_ok(struct os_ratelimit *rl);
#define os_warn_ratelimited(...)					\
	do {								\
		static struct os_ratelimit os_rl_;			\
									\
		if (os_ratelimit_ok(&os_rl_))				\
			os_warn(__VA_ARGS__);				\
	} while (0)

#define os_htonl(x) htonl(x)
#define os_ntohl(x) ntohl(x)

#endif /* LNET_OS_USER_H */
