// SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later
/*
 * The libc OS layer: logging and time. The interface lookup lives in
 * os_user_if.c so that programs not needing libnl do not pull it in.
 */
#include <time.h>

#include "os.h"

FILE *os_log_file;
__thread int os_noio_held;
enum os_log_level os_log_max = OS_LOG_INFO;

/* The names dmesg -x gives the kernel's levels. */
static const char *const os_log_names[] = {
	[OS_LOG_ERR] = "err",
	[OS_LOG_WARN] = "warn",
	[OS_LOG_INFO] = "info",
	[OS_LOG_DEBUG] = "debug",
};

void os_log(enum os_log_level level, const char *fmt, ...)
{
	FILE *f = os_log_file ? os_log_file : stderr;
	struct timespec ts;
	struct tm tm;
	char stamp[32];
	va_list ap;

	if (level > os_log_max)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	/* One fprintf per part under the stream lock: lines do not interleave. */
	flockfile(f);
	fprintf(f, "%s.%06ldZ %s ", stamp, ts.tv_nsec / 1000,
		level <= OS_LOG_DEBUG ? os_log_names[level] : "info");
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	if (!*fmt || fmt[strlen(fmt) - 1] != '\n')
		fputc('\n', f);
	fflush(f);
	funlockfile(f);
}

/*
 * A new interval starts once the last is over; of the threads that see
 * it, the one whose exchange succeeds resets the counts and reports the
 * lines dropped in the last one.
 */
static void os_ratelimit_renew(struct os_ratelimit *rl, u64 now)
{
	u64 begin = __atomic_load_n(&rl->rl_begin_ns, __ATOMIC_ACQUIRE);
	u32 missed;

	if (begin && now - begin < OS_RATELIMIT_INTERVAL_NS)
		return;
	if (!__atomic_compare_exchange_n(&rl->rl_begin_ns, &begin, now, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	missed = __atomic_exchange_n(&rl->rl_missed, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&rl->rl_printed, 0, __ATOMIC_RELEASE);
	if (missed)
		os_warn("%u similar lines suppressed\n", missed);
}

bool os_ratelimit_ok(struct os_ratelimit *rl)
{
	os_ratelimit_renew(rl, os_now_ns());
	if (__atomic_add_fetch(&rl->rl_printed, 1, __ATOMIC_RELAXED) <= OS_RATELIMIT_BURST)
		return true;
	__atomic_add_fetch(&rl->rl_missed, 1, __ATOMIC_RELAXED);
	return false;
}

u64 os_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

void os_relax(void)
{
}
