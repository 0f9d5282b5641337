// SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later
/*
 * The libc OS layer: logging and time. The interface lookup lives in
 * os_user_if.c so that programs not needing libnl do not pull it in.
 */
#include <time.h>

#include "os.h"

FILE *os_log_file;

/* The names dmesg -x gives the kernel's levels. */
static const char *const os_log_names[] = {
	[OS_LOG_ERR] = "err",
	[OS_LOG_WARN] = "warn",
	[OS_LOG_INFO] = "info",
};

void os_log(enum os_log_level level, const char *fmt, ...)
{
	FILE *f = os_log_file ? os_log_file : stderr;
	struct timespec ts;
	struct tm tm;
	char stamp[32];
	va_list ap;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	/* One fprintf per part under the stream lock: lines do not interleave. */
	flockfile(f);
	fprintf(f, "%s.%06ldZ %s ", stamp, ts.tv_nsec / 1000,
		level <= OS_LOG_INFO ? os_log_names[level] : "info");
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	if (!*fmt || fmt[strlen(fmt) - 1] != '\n')
		fputc('\n', f);
	fflush(f);
	funlockfile(f);
}

u64 os_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}
