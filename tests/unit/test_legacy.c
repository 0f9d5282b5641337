// SPDX-License-Identifier: GPL-2.0-only
/*
 * libcfg/legacy.c: module parameter strings to YAML (the exact text, and
 * that it parses back as an import document), modprobe.d files, and the
 * messages of malformed strings (nothing written then).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../../libcfg/ops_priv.h"

/* cfg_legacy_yaml() of @l into a string; its status in *@rc. */
static char *convert(const struct cfg_legacy *l, int *rc, struct cfg_err *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	memset(err, 0, sizeof(*err));
	*rc = cfg_legacy_yaml(l, f, err);
	fclose(f);
	return buf;
}

static void assert_converts(const struct cfg_legacy *l, const char *want)
{
	struct cfg_err err;
	int rc;
	char *got = convert(l, &rc, &err);

	assert_int_equal(rc, 0);
	assert_string_equal(got, want);
	free(got);
}

/* The strings of @l fail with @rc and exactly @msg, and nothing is written. */
static void assert_fails(const struct cfg_legacy *l, int want, const char *msg)
{
	struct cfg_err err;
	int rc;
	char *got = convert(l, &rc, &err);

	assert_int_equal(rc, want);
	assert_string_equal(err.msg, msg);
	assert_string_equal(got, "");
	free(got);
}

static void test_networks_and_routes(void **state)
{
	struct cfg_legacy l = {
		.networks = " tcp0(eth0, eth1),o2ib1(ib0)[0-1],o2ib2 # the rest",
		.routes = "o2ib 2 10.0.0.[1-2]@tcp:1 10.0.0.5@tcp\n\ntcp3 10.1.0.1@o2ib1;",
	};
	struct cfg_doc *doc = NULL;
	struct cfg_err err = { 0 };
	int rc;
	char *yaml;

	assert_converts(&l,
			"net:\n"
			"-   net type: tcp\n"
			"    local NI(s):\n"
			"    -   interfaces:\n"
			"            0: eth0\n"
			"            1: eth1\n"
			"-   net type: o2ib1\n"
			"    local NI(s):\n"
			"    -   interfaces:\n"
			"            0: ib0\n"
			"        CPT: '[0-1]'\n"
			"-   net type: o2ib2\n"
			"route:\n"
			"-   net: o2ib\n"
			"    gateway: 10.0.0.[1-2]@tcp\n"
			"    hop: 2\n"
			"    priority: 1\n"
			"-   net: o2ib\n"
			"    gateway: 10.0.0.5@tcp\n"
			"    hop: 2\n"
			"    priority: 0\n"
			"-   net: tcp3\n"
			"    gateway: 10.1.0.1@o2ib1\n"
			"    hop: -1\n"
			"    priority: 0\n");
	/* the route section is an import document as it stands */
	l.networks = NULL;
	yaml = convert(&l, &rc, &err);
	assert_int_equal(rc, 0);
	assert_int_equal(cfg_doc_parse(yaml, strlen(yaml), &doc, &err), 0);
	assert_int_equal(doc->nroutes, 3);
	assert_int_equal(doc->routes[0]->ngws, 2);
	assert_int_equal(doc->routes[0]->hops, 2);
	assert_int_equal(doc->routes[0]->priority, 1);
	cfg_doc_free(doc);
	free(yaml);
}

static void test_ip2nets(void **state)
{
	struct cfg_legacy l = {
		.ip2nets = "tcp(eth0) 192.168.0.* 10.0.[1-3].[2-20/2] # lab\n o2ib 10.1.*.*",
	};

	assert_converts(&l,
			"ip2nets:\n"
			"-   net-spec: tcp\n"
			"    interfaces:\n"
			"        0: eth0\n"
			"    ip-range:\n"
			"        0: 192.168.0.*\n"
			"        1: 10.0.[1-3].[2-20/2]\n"
			"-   net-spec: o2ib\n"
			"    ip-range:\n"
			"        0: 10.1.*.*\n");
}

static void test_errors(void **state)
{
	struct cfg_legacy none = { 0 };
	struct cfg_legacy both = { .networks = "tcp", .ip2nets = "tcp 10.*.*.*" };
	struct cfg_legacy l = { 0 };

	assert_fails(&none, -EINVAL, "nothing to convert: no networks, ip2nets or routes");
	assert_fails(&both, -EINVAL, "networks and ip2nets both given: the lnet module takes one or the other");
	l.networks = "tcp(eth0),o2ib(";
	assert_fails(&l, -EINVAL, "networks: in 'o2ib(': '(' without ')': expected NET(IF[,IF...])");
	l.networks = "tcp(bad/name)";
	assert_fails(&l, -EINVAL, "networks: in 'tcp(bad/name)': invalid interface 'bad/name': "
		     "'/' is not allowed in an interface name");
	l.networks = NULL;
	l.routes = "o2ib 256 10.0.0.1@tcp";
	assert_fails(&l, -ERANGE, "routes: in 'o2ib 256 10.0.0.1@tcp': invalid hop '256': expected an integer 1-255");
	l.routes = "o2ib 10.0.0.1@tcp:-1";
	assert_fails(&l, -EINVAL, "routes: in 'o2ib 10.0.0.1@tcp:-1': invalid priority '-1': "
		     "expected an integer 0-2147483647");
	l.routes = "o2ib 10.0.0.1@tcp:7 10.0.0.1@tcp";
	assert_fails(&l, -EINVAL, "routes: in 'o2ib 10.0.0.1@tcp:7 10.0.0.1@tcp': "
		     "the route to o2ib through 10.0.0.1@tcp is given twice");
	l.routes = "# only a comment";
	assert_fails(&l, -EINVAL, "routes: no entry: the string is empty");
}

static void test_modprobe(void **state)
{
	char text[] = "# LNet\n"
		      "options ksocklnd networks=\"not ours\"\n"
		      "options lnet forwarding=enabled networks=\"tcp(eth0)\" \\\n"
		      "\troutes='o2ib 1 10.0.0.1@tcp' check_routers_before_use\n";
	char twice[] = "options lnet ip2nets=a\noptions lnet ip2nets=b\n";
	char quote[] = "options lnet routes=\"o2ib 10.0.0.1@tcp\n";
	struct cfg_legacy l;
	struct cfg_err err = { 0 };

	assert_int_equal(cfg_legacy_modprobe(text, &l, &err), 0);
	assert_string_equal(l.networks, "tcp(eth0)");
	assert_string_equal(l.routes, "o2ib 1 10.0.0.1@tcp");
	assert_null(l.ip2nets);
	assert_int_equal(cfg_legacy_modprobe(twice, &l, &err), -EINVAL);
	assert_string_equal(err.msg, "line 2: ip2nets= given twice");
	assert_int_equal(cfg_legacy_modprobe(quote, &l, &err), -EINVAL);
	assert_string_equal(err.msg, "line 1: unterminated quote in 'routes=o2ib 10.0.0.1@tcp'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_networks_and_routes),
		cmocka_unit_test(test_ip2nets),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_modprobe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
