// SPDX-License-Identifier: GPL-2.0-only
/*
 * os_sock on both families over loopback: listen, connect (from a chosen
 * port, as the socket LND does from privileged ones), accept, the
 * addresses each end sees, bytes both ways, and the IPv4-only calls
 * refusing an IPv6 socket. Needs 127.0.0.1 and ::1 (lo up). And the
 * pollset's wake-ups: one from the thread that waits on it (not asleep
 * then) ends its next wait at once, one from another thread ends a wait
 * in progress, and neither is kept past the wait it ended.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "../../kernel/os/os_sock.h"

static const u8 lo4[4] = { 127, 0, 0, 1 };
static const u8 lo6[16] = { [15] = 1 };

/* Wait for @events on @s for up to a second. */
static void wait_for(struct os_sock *s, unsigned int events)
{
	assert_true(os_sock_wait(s, events, os_now_ns() + 1000000000ULL) & events);
}

/* One connection on @len-byte loopback, from local port @lport (0: any). */
static void check_family(const u8 *lo, u8 len, u16 lport)
{
	struct os_sockaddr a, got;
	struct os_sock *ls, *c, *s;
	struct os_iov iov = { (void *)"hello", 5 };
	u16 port, p2, cport;
	char buf[8];

	os_sockaddr_make(&a, lo, len);
	assert_int_equal(os_sock_listen_at(NULL, &a, 0, 8, &ls), 0);
	assert_int_equal(os_sock_local_addr(ls, &got, &port), 0);
	assert_int_equal(got.sa_len, len);
	assert_memory_equal(got.sa_addr, lo, len);
	assert_true(port != 0);
	assert_int_equal(os_sock_connect_to(&a, lport, &a, port, &c), 0);
	wait_for(c, OS_POLL_OUT);
	assert_int_equal(os_sock_connect_result(c), 0);
	wait_for(ls, OS_POLL_IN);
	assert_int_equal(os_sock_accept_from(ls, &s, &got, &cport), 0);
	assert_int_equal(got.sa_len, len);
	assert_memory_equal(got.sa_addr, lo, len);
	if (lport)
		assert_int_equal(cport, lport);
	assert_int_equal(os_sock_peer_addr(s, &got, &p2), 0);
	assert_int_equal(p2, cport);
	assert_int_equal(os_sock_local_addr(c, &got, &p2), 0);
	assert_int_equal(p2, cport);
	assert_int_equal(os_sock_send(c, &iov, 1), 5);
	wait_for(s, OS_POLL_IN);
	assert_int_equal(os_sock_recv(s, buf, sizeof(buf)), 5);
	assert_memory_equal(buf, "hello", 5);
	/* the 4-byte calls: IPv4 only */
	if (len == 16) {
		u8 a4[4];

		assert_int_equal(os_sock_peer(s, a4, &p2), -EAFNOSUPPORT);
		assert_int_equal(os_sock_local(c, a4, &p2), -EAFNOSUPPORT);
	}
	os_sock_close(s);
	os_sock_close(c);
	os_sock_close(ls);
}

static void test_ipv4(void **state)
{
	check_family(lo4, 4, 0);
}

static void test_ipv6(void **state)
{
	check_family(lo6, 16, 0);
	/* a privileged source port, as socklnd connects (root) */
	check_family(lo6, 16, 1001);
}

/* Families that do not match, lengths that are none. */
/* Milliseconds os_pollset_wait(@ps) took with a @timeout_ms timeout; its result 0. */
static u64 timed_wait_ms(struct os_pollset *ps, int timeout_ms)
{
	struct os_poll_event ev[4];
	u64 t0 = os_now_ns();

	assert_int_equal(os_pollset_wait(ps, ev, 4, timeout_ms), 0);
	return (os_now_ns() - t0) / 1000000ULL;
}

static void *wake_later(void *arg)
{
	usleep(100000);
	os_pollset_wake(arg);
	return NULL;
}

static void test_pollset_wake(void **state)
{
	struct os_pollset *ps;
	pthread_t t;

	(void)state;
	assert_int_equal(os_pollset_create(&ps), 0);
	/* nothing pending: the wait lasts its timeout */
	assert_true(timed_wait_ms(ps, 200) >= 190);
	/* the waiting thread wakes it between two waits: the next one returns at once, once */
	os_pollset_wake(ps);
	assert_true(timed_wait_ms(ps, 2000) < 100);
	assert_true(timed_wait_ms(ps, 200) >= 190);
	/* another thread wakes it during a wait */
	assert_int_equal(pthread_create(&t, NULL, wake_later, ps), 0);
	assert_true(timed_wait_ms(ps, 5000) < 2000);
	assert_int_equal(pthread_join(t, NULL), 0);
	/* another thread's wake-up before the wait is kept for it */
	assert_int_equal(pthread_create(&t, NULL, wake_later, ps), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_true(timed_wait_ms(ps, 2000) < 100);
	assert_true(timed_wait_ms(ps, 200) >= 190);
	os_pollset_destroy(ps);
}

static void test_bad_families(void **state)
{
	struct os_sockaddr a4, a6, bad;
	struct os_sock *s = NULL;

	os_sockaddr_make(&a4, lo4, 4);
	os_sockaddr_make(&a6, lo6, 16);
	os_sockaddr_make(&bad, lo6, 8);
	assert_int_equal(os_sock_connect_to(&a4, 0, &a6, 988, &s), -EAFNOSUPPORT);
	assert_int_equal(os_sock_connect_to(&bad, 0, &bad, 988, &s), -EAFNOSUPPORT);
	assert_int_equal(os_sock_listen_at(NULL, &bad, 0, 1, &s), -EAFNOSUPPORT);
	assert_null(s);
}

/*
 * In a child: @call on one end of a socket pair while holding a mutex
 * made by @init. Its exit status as waitpid() gives it.
 */
static int child_sock_call(void (*init)(struct os_mutex *), int call)
{
	struct os_iov iov = { (void *)"x", 1 };
	struct os_mutex m;
	struct os_sock *s;
	int sv[2], status;
	char c;
	pid_t pid;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		if (os_sock_from_fd(sv[0], &s))
			_exit(3);
		init(&m);
		os_mutex_lock(&m);
		if (call == 0 && os_sock_send(s, &iov, 1) != 1)
			_exit(4);
		if (call == 1 && os_sock_recv(s, &c, 1) != -EAGAIN)
			_exit(4);
		if (call == 2 && os_sock_wait(s, OS_POLL_OUT, os_now_ns() + 1000000000ULL) <= 0)
			_exit(4);
		os_mutex_unlock(&m);
		_exit(os_noio_held == 0 ? 0 : 5);
	}
	close(sv[0]);
	close(sv[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static void init_plain(struct os_mutex *m)
{
	os_mutex_init(m);
}

static void init_noio(struct os_mutex *m)
{
	os_mutex_init_noio(m);
}

/*
 * A socket call under a no-I/O mutex: the sanitized build (LNET_LOCK_CHECKS)
 * aborts; the plain one lets it run. Under a plain mutex both let it run,
 * and the count of no-I/O mutexes held goes back to 0 on unlock.
 */
static void test_noio_mutex(void **state)
{
	struct os_mutex a, b;
	int call, st;

	(void)state;
	os_mutex_init_noio(&a);
	os_mutex_init(&b);
	os_mutex_lock(&a);
	os_mutex_lock(&b);
	assert_int_equal(os_noio_held, 1);
	os_mutex_unlock(&b);
	os_mutex_unlock(&a);
	assert_int_equal(os_noio_held, 0);
	for (call = 0; call < 3; call++) {
		st = child_sock_call(init_plain, call);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		st = child_sock_call(init_noio, call);
#ifdef LNET_LOCK_CHECKS
		assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
#else
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
#endif
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ipv4),
		cmocka_unit_test(test_ipv6),
		cmocka_unit_test(test_bad_families),
		cmocka_unit_test(test_pollset_wake),
		cmocka_unit_test(test_noio_mutex),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
