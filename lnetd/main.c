// SPDX-License-Identifier: GPL-2.0-only
/*
 * lnetd: options, the socket, daemonizing, the pidfile and shutdown.
 * The socket is bound before the daemon forks and the parent returns only
 * once the daemon is ready (pidfile written), so that a script can use the
 * socket as soon as `lnetd` returns. Framing: see lnetd.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "lnetd.h"
#include "../kernel/core/lnet.h"
#include "../kernel/builtin/builtin.h"
#include "../kernel/lnd/socklnd/socklnd.h"
#include "../libcfg/cfg.h"

struct opts {
	char *socket;		/* absolute paths (the daemon runs in /) */
	char *pidfile;
	char *log;
	bool foreground;
	/* the acceptor's: options, else environment, else the table's */
	const char *accept;
	const char *acc[__LNET_ACC_MAX];
};

/* getopt values of the long-only options */
enum { OPT_ACCEPT = 256, OPT_ACC_FIRST };

#define ACC_NAME(id, name, opt, env, min, max, def, help)	[id] = #name,
#define ACC_OPT(id, name, opt, env, min, max, def, help)	[id] = opt,
#define ACC_ENV(id, name, opt, env, min, max, def, help)	[id] = env,
#define ACC_MIN(id, name, opt, env, min, max, def, help)	[id] = min,
#define ACC_MAX(id, name, opt, env, min, max, def, help)	[id] = max,
#define ACC_DEF(id, name, opt, env, min, max, def, help)	[id] = def,
#define ACC_HELP(id, name, opt, env, min, max, def, help)	[id] = help,
static const char *const acc_name[] = { LNET_ACCEPTOR_TUNABLES(ACC_NAME) };
static const char *const acc_opt[] = { LNET_ACCEPTOR_TUNABLES(ACC_OPT) };
static const char *const acc_env[] = { LNET_ACCEPTOR_TUNABLES(ACC_ENV) };
static const long acc_min[] = { LNET_ACCEPTOR_TUNABLES(ACC_MIN) };
static const long acc_max[] = { LNET_ACCEPTOR_TUNABLES(ACC_MAX) };
static const long acc_def[] = { LNET_ACCEPTOR_TUNABLES(ACC_DEF) };
static const char *const acc_help[] = { LNET_ACCEPTOR_TUNABLES(ACC_HELP) };

#define ACCEPT_NAME(id, name, help)	[id] = #name,
#define ACCEPT_HELP(id, name, help)	[id] = help,
static const char *const accept_name[] = { LNET_ACCEPT_MODES(ACCEPT_NAME) };
static const char *const accept_help[] = { LNET_ACCEPT_MODES(ACCEPT_HELP) };

static struct lnet the_lnet;

static void usage(FILE *f)
{
	int i;

	fprintf(f,
		"usage: lnetd [--socket PATH] [--foreground] [--pidfile FILE] [--log FILE] [--verbose]\n"
		"             [--accept MODE] [--accept-port N] [--accept-backlog N] [--accept-timeout S]\n"
		"\n"
		"Host one LNet instance and serve lnetctl on a Unix socket.\n"
		"\n"
		"  -s, --socket PATH   socket to serve (default: $LNET_SOCKET, else %s)\n"
		"  -f, --foreground    do not daemonize; log to stderr unless --log\n"
		"  -p, --pidfile FILE  write the daemon's pid to FILE\n"
		"  -l, --log FILE      append log lines to FILE\n"
		"  -v, --verbose       log debug lines too (each request served)\n"
		"  -h, --help          show this help\n"
		"\n"
		"The socket LND's acceptor, as Lustre's lnet module parameters of these names:\n"
		"  --accept MODE       which connections to take; default $LNET_ACCEPT, else %s:\n", CFG_DEFAULT_SOCKET,
		accept_name[0]);
	for (i = 0; i < __LNET_ACCEPT_MAX; i++)
		fprintf(f, "                        %-6s %s\n", accept_name[i], accept_help[i]);
	for (i = 0; i < __LNET_ACC_MAX; i++)
		fprintf(f, "  --%s N%*s%s:\n%22s%ld-%ld, default $%s, else %ld\n",
			acc_opt[i], (int)(16 - strlen(acc_opt[i])), "", acc_help[i], "",
			acc_min[i], acc_max[i], acc_env[i], acc_def[i]);
	fprintf(f,
		"\n"
		"Exit status: 0 clean shutdown (SIGTERM, SIGINT), 1 error, 2 usage error.\n");
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("lnetd: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* @path made absolute against the current directory. */
static char *absolute(const char *path)
{
	char cwd[PATH_MAX];
	char *abs;

	if (path[0] == '/')
		abs = strdup(path);
	else if (!getcwd(cwd, sizeof(cwd)) || asprintf(&abs, "%s/%s", cwd, path) < 0)
		abs = NULL;
	if (!abs)
		die("cannot resolve '%s': %s", path, strerror(errno));
	return abs;
}

static void parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "pidfile", required_argument, NULL, 'p' },
		{ "log", required_argument, NULL, 'l' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "accept", required_argument, NULL, OPT_ACCEPT },
#define ACC_LONGOPT(id, name, opt, env, min, max, def, help)	\
		{ opt, required_argument, NULL, OPT_ACC_FIRST + id },
		LNET_ACCEPTOR_TUNABLES(ACC_LONGOPT)
		{ NULL, 0, NULL, 0 },
	};
	const char *sock = getenv("LNET_SOCKET");
	int c;

	if (!sock || !*sock)
		sock = CFG_DEFAULT_SOCKET;
	while ((c = getopt_long(argc, argv, "s:fp:l:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 's': sock = optarg; break;
		case 'f': o->foreground = true; break;
		case 'p': o->pidfile = absolute(optarg); break;
		case 'l': o->log = absolute(optarg); break;
		case 'v': os_log_max = OS_LOG_DEBUG; break;
		case 'h': usage(stdout); exit(0);
		case OPT_ACCEPT: o->accept = optarg; break;
		default:
			if (c >= OPT_ACC_FIRST && c < OPT_ACC_FIRST + __LNET_ACC_MAX) {
				o->acc[c - OPT_ACC_FIRST] = optarg;
				break;
			}
			usage(stderr);
			exit(2);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "lnetd: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		exit(2);
	}
	if (!*sock)
		die("invalid --socket '': expected a path");
	o->socket = absolute(sock);
	if (strlen(o->socket) >= sizeof(((struct sockaddr_un *)0)->sun_path))
		die("invalid --socket '%s': at most %zu bytes", o->socket,
		    sizeof(((struct sockaddr_un *)0)->sun_path) - 1);
}

/* mkdir -p of the directory holding @path; new directories get 0755. */
static void make_parent(const char *path)
{
	char dir[PATH_MAX];
	char *p;

	snprintf(dir, sizeof(dir), "%s", path);
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return;
	*p = '\0';
	for (p = dir + 1; ; p++) {
		if (*p && *p != '/')
			continue;
		char save = *p;

		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			die("cannot create directory '%s': %s", dir, strerror(errno));
		*p = save;
		if (!save)
			break;
	}
}

static void fill_addr(struct sockaddr_un *sa, const char *path)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path, path, strlen(path) + 1);
}

/* Refuse to take over a socket some lnetd answers on; remove a stale one. */
static void check_existing(const char *path)
{
	struct sockaddr_un sa;
	struct stat st;
	int fd;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return;
		die("cannot check '%s': %s", path, strerror(errno));
	}
	if (!S_ISSOCK(st.st_mode))
		die("'%s' exists and is not a socket: remove it or choose another --socket",
		    path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die("socket: %s", strerror(errno));
	fill_addr(&sa, path);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
		die("another lnetd is already serving %s", path);
	if (errno != ECONNREFUSED)
		die("cannot check '%s': %s", path, strerror(errno));
	close(fd);
	if (unlink(path) && errno != ENOENT)
		die("cannot remove stale socket '%s': %s", path, strerror(errno));
	lnetd_info("removed stale socket %s", path);
}

/*
 * Bound and listening, mode 0666: anyone on the host may connect and run
 * the commands that only read (as anyone may read /proc/net); those that
 * modify need CAP_NET_ADMIN, checked per connection (cred.c), not by the
 * file mode, which could only tell users and groups apart. The umask
 * around bind keeps the mode exact whatever the caller's umask.
 */
static int open_listener(const char *path)
{
	struct sockaddr_un sa;
	mode_t old;
	int fd, rc;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die("socket: %s", strerror(errno));
	fill_addr(&sa, path);
	old = umask(0111);
	rc = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (rc)
		die("cannot bind %s: %s", path, strerror(errno));
	if (chmod(path, 0666) || listen(fd, 64)) {
		rc = errno;
		unlink(path);
		die("cannot listen on %s: %s", path, strerror(rc));
	}
	return fd;
}

static int write_pidfile(const char *path)
{
	char line[32];
	int fd, len, rc = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	len = snprintf(line, sizeof(line), "%d\n", (int)getpid());
	if (write(fd, line, len) != len)
		rc = errno ? -errno : -EIO;
	if (close(fd) && !rc)
		rc = -errno;
	return rc;
}

/*
 * Double fork. The original process waits until the daemon writes one
 * byte on the pipe (ready) or closes it (failed) and exits accordingly.
 * Returns the write end of the pipe in the daemon.
 */
static int daemonize(void)
{
	int pfd[2];
	pid_t pid;
	char ok;

	if (pipe2(pfd, O_CLOEXEC))
		die("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid > 0) {
		close(pfd[1]);
		waitpid(pid, NULL, 0);
		exit(read(pfd[0], &ok, 1) == 1 ? 0 : 1);
	}
	close(pfd[0]);
	if (setsid() < 0)
		die("setsid: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid > 0)
		_exit(0);
	if (chdir("/"))
		die("chdir /: %s", strerror(errno));
	return pfd[1];
}

static void detach_stdio(void)
{
	int fd = open("/dev/null", O_RDWR);

	if (fd < 0)
		return;
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
}

static void open_log(const char *path)
{
	FILE *f = fopen(path, "ae");

	if (!f)
		die("cannot open log '%s': %s", path, strerror(errno));
	setvbuf(f, NULL, _IOLBF, 0);
	os_log_file = f;
}

static int signal_fd(void)
{
	sigset_t set;
	int fd;

	/* An ignored signal is discarded even when blocked: shells start
	 * background jobs with SIGINT ignored. */
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		die("sigprocmask: %s", strerror(errno));
	fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (fd < 0)
		die("signalfd: %s", strerror(errno));
	return fd;
}

/* Options name the setting with "--", the environment with its variable. */
static void bad_setting(const char *opt, const char *env, bool from_opt,
			const char *v, const char *allowed)
{
	if (from_opt) {
		fprintf(stderr, "lnetd: invalid --%s '%s': expected %s\n", opt, v, allowed);
		exit(2);
	}
	die("invalid %s '%s': expected %s", env, v, allowed);
}

static enum lnet_accept_mode accept_mode(const char *opt)
{
	const char *v = opt ? opt : getenv("LNET_ACCEPT");
	char allowed[64] = "";
	int i;

	if (!v || !*v)
		return (enum lnet_accept_mode)0;
	for (i = 0; i < __LNET_ACCEPT_MAX; i++) {
		if (!strcmp(v, accept_name[i]))
			return (enum lnet_accept_mode)i;
		snprintf(allowed + strlen(allowed), sizeof(allowed) - strlen(allowed),
			 "%s%s", i ? (i + 1 < __LNET_ACCEPT_MAX ? ", " : " or ") : "",
			 accept_name[i]);
	}
	bad_setting("accept", "LNET_ACCEPT", opt != NULL, v, allowed);
	return (enum lnet_accept_mode)0;
}

/* Row @i of LNET_ACCEPTOR_TUNABLES: the option's value, the variable's, the default. */
static long acc_value(const struct opts *o, int i)
{
	const char *v = o->acc[i] ? o->acc[i] : getenv(acc_env[i]);
	char allowed[64], *end;
	long n;

	if (!o->acc[i] && (!v || !*v))
		return acc_def[i];
	errno = 0;
	n = strtol(v, &end, 10);
	if (!*v || errno || *end || n < acc_min[i] || n > acc_max[i]) {
		snprintf(allowed, sizeof(allowed), "an integer %ld-%ld", acc_min[i], acc_max[i]);
		bad_setting(acc_opt[i], acc_env[i], o->acc[i] != NULL, v, allowed);
	}
	return n;
}

/* The acceptor's settings in force, for the log. */
static char acceptor_line[160];

/*
 * The acceptor's settings, checked before anything starts (a bad option
 * is a usage error, a bad variable an error) and given to the socket LND.
 * The line main() logs once the daemon runs tells them, as Lustre's
 * acceptor logs its mode and port when it starts.
 */
static void set_acceptor(const struct opts *o)
{
	enum lnet_accept_mode mode = accept_mode(o->accept);
	long v[__LNET_ACC_MAX];
	size_t used;
	int i;

	used = (size_t)snprintf(acceptor_line, sizeof(acceptor_line), "accept=%s",
				accept_name[mode]);
	for (i = 0; i < __LNET_ACC_MAX; i++) {
		v[i] = acc_value(o, i);
		if (used < sizeof(acceptor_line))
			used += (size_t)snprintf(acceptor_line + used,
						 sizeof(acceptor_line) - used,
						 " %s=%ld", acc_name[i], v[i]);
	}
	lnet_socklnd_set_port((u16)v[LNET_ACC_PORT]);
	lnet_socklnd_set_accept(mode, (u32)v[LNET_ACC_BACKLOG], (u32)v[LNET_ACC_TIMEOUT]);
}

/* lnetd's own LND (lolnd is built in): before any configure. */
static int register_lnds(struct lnet *ln)
{
	int rc;

	os_mutex_lock(&ln->ln_api_mutex);
	rc = lnet_socklnd_register(ln);
	os_mutex_unlock(&ln->ln_api_mutex);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	int lfd, sfd, ready = -1, rc;

	parse_opts(argc, argv, &o);
	if (o.log)
		open_log(o.log);
	set_acceptor(&o);
	signal(SIGPIPE, SIG_IGN);
	make_parent(o.socket);
	check_existing(o.socket);
	lfd = open_listener(o.socket);
	sfd = signal_fd();
	if (!o.foreground)
		ready = daemonize();
	if (o.pidfile && (rc = write_pidfile(o.pidfile))) {
		unlink(o.socket);
		die("cannot write pidfile '%s': %s", o.pidfile, strerror(-rc));
	}
	/* The instance as the lnet module builds it: built-in parts, then LNDs. */
	lnet_init(&the_lnet);
	rc = lnet_builtin_register(&the_lnet);
	if (rc) {
		unlink(o.socket);
		die("cannot register the UDSP engine and lolnd: %s", strerror(-rc));
	}
	rc = register_lnds(&the_lnet);
	if (rc) {
		unlink(o.socket);
		die("cannot register the socket LND: %s", strerror(-rc));
	}
	rc = lnetd_link_start(&the_lnet);
	if (rc) {
		unlink(o.socket);
		die("cannot follow link changes (rtnetlink): %s", strerror(-rc));
	}
	if (ready >= 0)
		detach_stdio();
	lnetd_info("serving %s (pid %d)", o.socket, (int)getpid());
	lnetd_info("socket LND acceptor: %s", acceptor_line);
	if (ready >= 0) {
		if (write(ready, "1", 1) != 1)
			lnetd_err("cannot tell the parent we are ready: %s", strerror(errno));
		close(ready);
	}
	rc = lnetd_serve(&the_lnet, lfd, sfd);
	if (rc)
		lnetd_err("socket loop failed: %s", strerror(-rc));
	/* No thread of ours is left after this; unconfiguring stops the LNDs'. */
	lnetd_link_stop();
	lnet_fini(&the_lnet);
	close(lfd);
	unlink(o.socket);
	if (o.pidfile)
		unlink(o.pidfile);
	/* What the module says at unload: the soak and lnetd.bats read it. */
	if (the_lnet.ln_nobjects)
		lnetd_err("stopped, %lld objects left (leaked)", (long long)the_lnet.ln_nobjects);
	else
		lnetd_info("stopped, 0 objects left");
	free(o.socket);
	free(o.pidfile);
	free(o.log);
	return rc ? 1 : 0;
}
