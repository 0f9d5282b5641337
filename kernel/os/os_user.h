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

struct os_mutex {
	pthread_mutex_t m;
};

static inline void os_mutex_init(struct os_mutex *m)
{
	pthread_mutex_init(&m->m, NULL);
}

static inline void os_mutex_lock(struct os_mutex *m)
{
	pthread_mutex_lock(&m->m);
}

static inline void os_mutex_unlock(struct os_mutex *m)
{
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
 */
enum os_log_level {
	OS_LOG_ERR,
	OS_LOG_WARN,
	OS_LOG_INFO,
};
extern FILE *os_log_file;
void os_log(enum os_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define os_err(...)	os_log(OS_LOG_ERR, __VA_ARGS__)
#define os_warn(...)	os_log(OS_LOG_WARN, __VA_ARGS__)
#define os_info(...)	os_log(OS_LOG_INFO, __VA_ARGS__)

#define os_htonl(x) htonl(x)
#define os_ntohl(x) ntohl(x)

#endif /* LNET_OS_USER_H */
