// SPDX-License-Identifier: GPL-2.0-only
/*
 * The libc OS layer: condition variables on the monotonic clock, threads
 * and non-secret random numbers.
 */
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>

#include "os.h"

void os_cond_init(struct os_cond *c)
{
	pthread_condattr_t a;

	pthread_condattr_init(&a);
	/* Deadlines are os_now_ns() values: CLOCK_MONOTONIC. */
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&c->c, &a);
	pthread_condattr_destroy(&a);
}

void os_cond_destroy(struct os_cond *c)
{
	pthread_cond_destroy(&c->c);
}

int os_cond_wait(struct os_cond *c, struct os_mutex *m, u64 deadline_ns)
{
	struct timespec ts;

	if (deadline_ns == OS_NO_DEADLINE) {
		pthread_cond_wait(&c->c, &m->m);
		return 0;
	}
	if (os_now_ns() >= deadline_ns)
		return -ETIMEDOUT;
	ts.tv_sec = (time_t)(deadline_ns / 1000000000ULL);
	ts.tv_nsec = (long)(deadline_ns % 1000000000ULL);
	return pthread_cond_timedwait(&c->c, &m->m, &ts) == ETIMEDOUT ?
		-ETIMEDOUT : 0;
}

void os_cond_broadcast(struct os_cond *c)
{
	pthread_cond_broadcast(&c->c);
}

static void *os_thread_main(void *arg)
{
	struct os_thread *t = arg;

	t->fn(t->arg);
	return NULL;
}

int os_thread_start(struct os_thread *t, int (*fn)(void *), void *arg,
		    const char *name)
{
	int rc;

	t->fn = fn;
	t->arg = arg;
	rc = pthread_create(&t->t, NULL, os_thread_main, t);
	if (rc)
		return -rc;
	/* Names longer than 15 bytes are refused by the kernel: cut them. */
	{
		char n[16];

		snprintf(n, sizeof(n), "%s", name);
		pthread_setname_np(t->t, n);
	}
	t->started = true;
	return 0;
}

void os_thread_join(struct os_thread *t)
{
	if (!t->started)
		return;
	pthread_join(t->t, NULL);
	t->started = false;
}

bool os_thread_is_current(const struct os_thread *t)
{
	return t->started && pthread_equal(t->t, pthread_self());
}

u64 os_random_u64(void)
{
	u64 v = 0;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != sizeof(v))
		v = os_now_ns() ^ ((u64)getpid() << 32);
	return v;
}
