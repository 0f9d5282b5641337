#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# make install into a temporary DESTDIR: the exact tree, the pkg-config
# file, binaries that run (and talk to each other), the public headers
# (self-contained, only system and uapi headers, no name outside the
# library's prefixes), a C program with its own u8 and list_head built
# against them and the library through pkg-config (shared and static), the
# library's exports (exactly <lnet/cfg.h>, shared and static) and licences (LGPL-2.1-or-later
# all through), the completion, the schemas and the systemd units; the
# directory variables move each part.

load helpers
# make install and the installed files: nothing of the transport.
# bats file_tags=lnetd-only

bats_require_minimum_version 1.5.0

setup() {
	# the test VM mounts the tree read-only, and installing is no
	# business of the transport
	[ "$LNET_TRANSPORT" = dev ] && skip "install.bats tests make install; LNET_TRANSPORT=dev drives /dev/lnet"
	D=$(mktemp -d /tmp/lnet-install.XXXXXX)
	VERSION=$(sed -n 's/^#define LNETCTL_VERSION[^"]*"\(.*\)"/\1/p' "$TOP/lnetctl/main.c")
}

teardown() {
	[ -n "${D:-}" ] || return 0
	[ -f "$D/lnetd.pid" ] && lnetd_stop_pidfile "$D/lnetd.pid"
	rm -rf "$D"
}

install_to() {
	run make -s -C "$TOP" install DESTDIR="$D" "$@"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
}

# The files of a source directory, as installed under DIR: "DIR/name".
listed() {
	local f
	for f in "$TOP"/$2; do echo "$1/${f##*/}"; done
}

@test "make install DESTDIR=... PREFIX=/usr installs exactly this tree" {
	install_to PREFIX=/usr
	{
		printf '%s\n' . ./usr ./usr/bin ./usr/bin/lnetctl ./usr/sbin ./usr/sbin/lnetd \
			./usr/include ./usr/include/lnet ./usr/lib ./usr/lib/liblnetcfg.a \
			./usr/lib/liblnetcfg.so ./usr/lib/liblnetcfg.so.0 \
			"./usr/lib/liblnetcfg.so.$VERSION" ./usr/lib/pkgconfig \
			./usr/lib/pkgconfig/lnetcfg.pc ./usr/lib/systemd ./usr/lib/systemd/system \
			./usr/lib/systemd/system/lnet.service ./usr/lib/systemd/system/lnetd.service \
			./usr/share ./usr/share/bash-completion ./usr/share/bash-completion/completions \
			./usr/share/bash-completion/completions/lnetctl ./usr/share/lnet \
			./usr/share/lnet/yaml-schemas ./usr/share/man ./usr/share/man/man5 \
			./usr/share/man/man8
		echo ./usr/include/lnet/cfg.h
		listed ./usr/include/lnet 'include/uapi/lnet/*.h'
		listed ./usr/share/man/man5 'man/*.5'
		listed ./usr/share/man/man8 'man/*.8'
		listed ./usr/share/lnet/yaml-schemas 'yaml-schemas/*.schema.yaml'
	} | LC_ALL=C sort >"$D.want"
	(cd "$D" && find . | LC_ALL=C sort) >"$D.got"
	diff -u "$D.want" "$D.got"
	rm -f "$D.want" "$D.got"
	# modes, links, and copies that are the sources
	[ "$(stat -c %a "$D/usr/bin/lnetctl")" = 755 ]
	[ "$(stat -c %a "$D/usr/sbin/lnetd")" = 755 ]
	[ "$(stat -c %a "$D/usr/include/lnet/cfg.h")" = 644 ]
	[ "$(readlink "$D/usr/lib/liblnetcfg.so")" = liblnetcfg.so.0 ]
	[ "$(readlink "$D/usr/lib/liblnetcfg.so.0")" = "liblnetcfg.so.$VERSION" ]
	cmp "$TOP/completions/lnetctl" "$D/usr/share/bash-completion/completions/lnetctl"
	cmp "$TOP/yaml-schemas/lnet.schema.yaml" "$D/usr/share/lnet/yaml-schemas/lnet.schema.yaml"
	cmp "$TOP/man/lnetctl.8" "$D/usr/share/man/man8/lnetctl.8"
	cmp "$TOP/include/uapi/lnet/lnet_udsp.h" "$D/usr/include/lnet/lnet_udsp.h"
	cmp "$TOP/include/uapi/lnet/lnet_nidexpr.h" "$D/usr/include/lnet/lnet_nidexpr.h"
	# cfg.h as written but for its includes of uapi headers, now beside it
	diff -u <(sed 's|^#include "lnet/|#include "|' "$TOP/libcfg/cfg.h") "$D/usr/include/lnet/cfg.h"
}

@test "the installed headers include only each other (by file name) and system headers, and stand alone" {
	install_to PREFIX=/usr
	local h inc
	for h in "$D"/usr/include/lnet/*.h; do
		# quoted: a header installed beside it
		while read -r inc; do
			[ -f "$D/usr/include/lnet/$inc" ] || { echo "$h: \"$inc\" is not installed"; return 1; }
		done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$h")
		# angle brackets: libc's or the kernel's uapi
		run grep -vxE 'std(bool|def|int|io)\.h|linux/(types|ioctl)\.h|sys/ioctl\.h' \
			< <(sed -n 's/^#include <\([^>]*\)>.*/\1/p' "$h")
		[ -z "$output" ] || { echo "$h includes <$output>"; return 1; }
		# each compiles by itself, as C99 and as C++11
		printf '#include <lnet/%s>\n' "${h##*/}" >"$D/one.c"
		cc -std=c99 -Wall -Wextra -Wpedantic -Werror -I"$D/usr/include" -fsyntax-only "$D/one.c"
		c++ -x c++ -std=c++11 -Wall -Wextra -Werror -I"$D/usr/include" -fsyntax-only "$D/one.c"
	done
}

@test "<lnet/cfg.h> defines no macro outside LNET_, CFG_, cfg_, IOC_LIBCFS_, IOC_LNET_" {
	install_to PREFIX=/usr
	macros() {	# the macros a file including headers $@ sees
		printf '#include <%s>\n' "$@" | cc -std=c99 -I"$D/usr/include" -E -dM -x c - |
			awk '{ sub(/\(.*/, "", $2); print $2 }' | LC_ALL=C sort -u
	}
	macros stdbool.h stddef.h stdint.h stdio.h linux/types.h linux/ioctl.h sys/ioctl.h >"$D/sys"
	macros lnet/cfg.h | LC_ALL=C comm -13 "$D/sys" - >"$D/ours"
	grep -qx LNET_NID_STR_MAX "$D/ours"
	grep -qx CFG_DEFAULT_SOCKET "$D/ours"
	run grep -vE '^(LNET_|CFG_|cfg_[a-z_]+_init$|IOC_LIBCFS_|IOC_LNET_|_UAPI_LNET_)' "$D/ours"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
}

@test "the pkg-config file has the install paths and the version" {
	install_to PREFIX=/usr
	[ "$(grep -v '^#' "$D/usr/lib/pkgconfig/lnetcfg.pc")" = "prefix=/usr
libdir=/usr/lib
includedir=/usr/include

Name: lnetcfg
Description: LNet configuration library: NIDs and NID expressions, UDSP rules, YAML import/export, lnetd and /dev/lnet transport
Version: $VERSION
Requires.private: yaml-0.1
Libs: -L\${libdir} -llnetcfg
Cflags: -I\${includedir}" ]
	export PKG_CONFIG_PATH=$D/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D
	[ "$(pkg-config --modversion lnetcfg)" = "$VERSION" ]
	[ "$(pkg-config --cflags --libs lnetcfg)" = "-I$D/usr/include -L$D/usr/lib -llnetcfg " ]
	run pkg-config --static --libs lnetcfg
	[[ "$output" == "-L$D/usr/lib -llnetcfg "*"-lyaml " ]]
}

@test "the installed lnetctl and lnetd run and talk to each other" {
	install_to PREFIX=/usr
	run "$D/usr/bin/lnetctl" --version
	[ "$status" -eq 0 ]
	[[ "$output" == "lnetctl $VERSION (ioctl ABI "*")" ]]
	[ "$output" = "$("$TOP/build/lnetctl" --version)" ]
	run "$D/usr/sbin/lnetd" --help
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "usage: lnetd [--socket PATH] [--foreground] [--pidfile FILE] [--log FILE] [--verbose]" ]
	"$D/usr/sbin/lnetd" --socket "$D/s.sock" --pidfile "$D/lnetd.pid" --log "$D/lnetd.log"
	"$D/usr/bin/lnetctl" --socket "$D/s.sock" lnet configure
	run "$D/usr/bin/lnetctl" --socket "$D/s.sock" net show
	[ "$status" -eq 0 ]
	yaml_is 'net:
- net type: lo
  local NI(s):
  - nid: 0@lo
    status: up'
}

@test "a C program with its own u8, u32, struct list_head, list_add and lnet_nid_print builds against the installed headers and library (pkg-config)" {
	install_to PREFIX=/usr
	cat >"$D/prog.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0-only
/* Names that kernel/'s internal headers define, meaning something else here. */
typedef struct { char c; } u8;
struct list_head { int count; };

#include <stdio.h>
#include <lnet/cfg.h>

typedef const char *u32;
static int list_add(struct list_head *l, int n)
{
	return l->count += n;
}

/*
 * A global name that the library uses inside (its NID printer): it must
 * neither clash with the library's (static link) nor replace it (shared).
 */
u32 lnet_nid_print(void);
u32 lnet_nid_print(void)
{
	return "done";
}

int main(void)
{
	char nid_s[LNET_NID_STR_MAX], net_s[LNET_NET_STR_MAX], expr_s[LNET_EXPR_STR_MAX];
	struct list_head l = { 0 };
	struct cfg_policy p;
	struct cfg_err err;
	struct lnet_nid nid;
	uint32_t net;
	u8 one = { 1 };

	if (cfg_parse_nid("nid", "10.0.0.1@tcp0", &nid, &err) ||
	    cfg_parse_net("net", "o2ib03", &net, &err))
		return 1;
	printf("%s %s\n", cfg_nid_str(&nid, nid_s, sizeof(nid_s)),
	       cfg_net_str(net, net_s, sizeof(net_s)));
	/* what lnetctl policy add --src 10.0.[0-3].*@tcp --priority 3 builds */
	cfg_policy_init(&p);
	if (cfg_parse_nidexpr("--src", "10.0.[0-3].*@tcp", &p.d.src, &err) ||
	    cfg_policy_finish(&p, true, 3, &err))
		return 1;
	printf("src %s priority %u%s, %s %s\n",
	       cfg_nidexpr_str(&p.d.src, expr_s, sizeof(expr_s)), (unsigned int)p.d.priority,
	       p.d.action == LNET_UDSP_ACTION_PRIORITY ? " (PRIORITY)" : "",
	       cfg_nidexpr_match_nid(&p.d.src, &nid) ? "matches" : "does not match", nid_s);
	if (!cfg_parse_nid("nid", "10.0.0.1@eth", &nid, &err))
		return 1;
	puts(err.msg);
	/* a router rule without --dst */
	cfg_policy_init(&p);
	if (cfg_parse_nidexpr("--rte", "10.0.0.1@tcp", &p.d.rte, &err) ||
	    !cfg_policy_finish(&p, false, 0, &err))
		return 1;
	puts(err.msg);
	puts(list_add(&l, one.c) == 1 ? lnet_nid_print() : "list_add?");
	return 0;
}
EOF
	export PKG_CONFIG_PATH=$D/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D
	local want="10.0.0.1@tcp o2ib3
src 10.0.[0-3].*@tcp priority 3 (PRIORITY), matches 10.0.0.1@tcp
invalid nid '10.0.0.1@eth': unknown LND 'eth': expected tcp, o2ib, efa, gni, ptlf, kfi or lo
invalid rule (rte): --rte needs --dst: a router rule is --dst with --rte
done"
	# shared
	cc -std=c99 -Wall -Wextra -Werror -o "$D/prog" "$D/prog.c" $(pkg-config --cflags --libs lnetcfg)
	run env LD_LIBRARY_PATH="$D/usr/lib" ldd "$D/prog"
	[[ "$output" == *"liblnetcfg.so.0 => $D/usr/lib/liblnetcfg.so.0 "* ]]
	run env LD_LIBRARY_PATH="$D/usr/lib" "$D/prog"
	[ "$status" -eq 0 ]
	[ "$output" = "$want" ]
	# static: liblnetcfg.a and, through Requires.private, libyaml
	cc -static -std=c99 -Wall -Wextra -Werror -o "$D/prog-static" "$D/prog.c" \
		$(pkg-config --static --cflags --libs lnetcfg)
	run "$D/prog-static"
	[ "$status" -eq 0 ]
	[ "$output" = "$want" ]
	# the shared library names itself and what it needs
	run readelf -d "$D/usr/lib/liblnetcfg.so.$VERSION"
	[[ "$output" == *"Library soname: [liblnetcfg.so.0]"* ]]
	[[ "$output" == *"Shared library: [libyaml-0.so.2]"* ]]
}

@test "liblnetcfg exports exactly the functions and data <lnet/cfg.h> declares: .so in node LNETCFG_0.1, .a too" {
	install_to PREFIX=/usr
	# what the header declares: cfg_NAME( or cfg_NAME[, comments gone
	echo '#include <lnet/cfg.h>' | cc -std=c99 -I"$D/usr/include" -E -P -x c - |
		grep -oE '\<cfg_[a-z0-9_]+ *[([]' | sed 's/ *[([]$//' | LC_ALL=C sort -u >"$D/declared"
	grep -qx cfg_doc_parse "$D/declared"
	grep -qx cfg_global_spec_at "$D/declared"
	grep -qx cfg_buf_name "$D/declared"
	nm -D --defined-only "$D/usr/lib/liblnetcfg.so.$VERSION" | awk '{ print $3 }' >"$D/nm"
	# the version node, then symbols that all belong to it
	[ "$(grep -v @ "$D/nm")" = LNETCFG_0.1 ]
	run grep -v '@@LNETCFG_0\.1$' < <(grep @ "$D/nm")
	[ "$status" -eq 1 ]
	grep @ "$D/nm" | sed 's/@@.*//' | LC_ALL=C sort >"$D/exported"
	diff -u "$D/declared" "$D/exported"
	# the static library: one object, the same names global
	[ "$(ar t "$D/usr/lib/liblnetcfg.a")" = liblnetcfg.o ]
	nm --defined-only --extern-only "$D/usr/lib/liblnetcfg.a" |
		awk 'NF == 3 { print $3 }' | LC_ALL=C sort >"$D/exported"
	diff -u "$D/declared" "$D/exported"
}

@test "every file liblnetcfg is built from, and every header installed, allows LGPL-2.1-or-later; every source file has an SPDX line" {
	install_to PREFIX=/usr
	spdx() {	# the SPDX expression of file $1, from its first lines
		sed -n '1,3s/.*SPDX-License-Identifier: \(.*[^ */]\)[ */]*$/\1/p' "$1" | head -n1
	}
	lgpl_ok() {
		case $(spdx "$1") in
		'LGPL-2.1-or-later'|'GPL-2.0-only OR LGPL-2.1-or-later') return 0 ;;
		esac
		echo "$1: '$(spdx "$1")' does not allow LGPL-2.1-or-later"
		return 1
	}
	local f n=0
	# from the Makefile: the sources, the headers they include, the map
	while read -r f; do
		lgpl_ok "$TOP/$f" || return 1
		n=$((n + 1))
	done < <(make -s -C "$TOP" print-liblnetcfg-files)
	make -s -C "$TOP" print-liblnetcfg-files | grep -qx kernel/nid/nid.c
	make -s -C "$TOP" print-liblnetcfg-files | grep -qx kernel/os/list.h
	make -s -C "$TOP" print-liblnetcfg-files | grep -qx libcfg/liblnetcfg.map
	[ "$n" -gt 30 ]
	for f in "$D"/usr/include/lnet/*.h; do
		lgpl_ok "$f" || return 1
	done
	# the tree: everything but the licence texts, the README and test data
	git -C "$TOP" ls-files --cached --others --exclude-standard >"$D/files"
	[ "$(grep -c '^kernel/.*\.c$' "$D/files")" -gt 30 ]
	while read -r f; do
		[ -e "$TOP/$f" ] || continue	# deleted, not yet committed
		[ -n "$(spdx "$TOP/$f")" ] || { echo "$f: no SPDX-License-Identifier line"; return 1; }
	done < <(grep -vxE 'LICENSE(\..*)?|README\.md|\.gitignore|tests/data/.*|tests/fuzz/corpus/.*' "$D/files")
	[ "$(spdx "$TOP/kernel/core/lnet.c")" = GPL-2.0-only ]
}

@test "the installed completion and schemas work from their places; the man pages are the sources" {
	install_to PREFIX=/usr
	run bash -c "source '$D/usr/share/bash-completion/completions/lnetctl' && complete -p lnetctl"
	[ "$status" -eq 0 ]
	[[ "$output" == "complete -F "*" lnetctl" ]]
	run /usr/bin/python3 "$TOP/tests/tools/yaml-validate.py" \
		"$D/usr/share/lnet/yaml-schemas/lnet.schema.yaml" "$TOP/examples/lnet.yaml"
	[ "$status" -eq 0 ]
	[ "$output" = "$TOP/examples/lnet.yaml: ok" ]
	local m
	for m in "$TOP"/man/*.5 "$TOP"/man/*.8; do
		cmp "$m" "$D/usr/share/man/man${m##*.}/${m##*/}"
	done
}

@test "the systemd units: lnetd (forking, ready when its socket listens) and lnet (configure, import)" {
	install_to PREFIX=/usr
	local u=$D/usr/lib/systemd/system
	[ "$(grep -E '^(Type|EnvironmentFile|ExecStart|PIDFile)=' "$u/lnetd.service")" = "Type=forking
EnvironmentFile=-/etc/default/lnetd
ExecStart=/usr/sbin/lnetd --socket /run/lnet/lnetd.sock --pidfile /run/lnet/lnetd.pid --log /var/log/lnet/lnetd.log
PIDFile=/run/lnet/lnetd.pid" ]
	[ "$(grep -E '^(Wants|After|Type|ExecStart|ExecStop)=' "$u/lnet.service")" = "Wants=lnetd.service network-online.target
After=lnetd.service network-online.target
Type=oneshot
ExecStart=/usr/bin/lnetctl lnet configure
ExecStart=/bin/sh -c 'if [ -e /etc/lnet.conf ]; then exec /usr/bin/lnetctl import /etc/lnet.conf; fi'
ExecStop=/usr/bin/lnetctl lnet unconfigure" ]
	# systemd finds nothing wrong but the binaries not being in /usr here
	if command -v systemd-analyze >/dev/null; then
		run systemd-analyze verify --man=no "$u/lnetd.service" "$u/lnet.service"
		run grep -v 'is not executable: No such file or directory' <<<"$output"
		[ -z "$output" ]
	fi
	# what lnetd.service starts works as the unit expects: the command
	# returns once the socket listens, with the pidfile written
	"$D/usr/sbin/lnetd" --socket "$D/run/lnetd.sock" --pidfile "$D/lnetd.pid" --log "$D/lnetd.log"
	[ -S "$D/run/lnetd.sock" ]
	kill -0 "$(cat "$D/lnetd.pid")"
}

@test "PREFIX, BINDIR, SBINDIR, LIBDIR, INCLUDEDIR, MANDIR, BASHCOMPDIR, SCHEMADIR, UNITDIR move their parts" {
	install_to PREFIX=/opt/lnet BINDIR=/opt/bin SBINDIR=/opt/sbin LIBDIR=/opt/lnet/lib64 \
		INCLUDEDIR=/opt/inc MANDIR=/opt/man BASHCOMPDIR=/etc/bash_completion.d \
		SCHEMADIR=/opt/schemas UNITDIR=/etc/systemd/system
	[ -x "$D/opt/bin/lnetctl" ]
	[ -x "$D/opt/sbin/lnetd" ]
	[ -f "$D/opt/lnet/lib64/liblnetcfg.a" ]
	[ -f "$D/opt/lnet/lib64/pkgconfig/lnetcfg.pc" ]
	[ -f "$D/opt/inc/lnet/cfg.h" ]
	[ -f "$D/opt/man/man8/lnetctl.8" ]
	[ -f "$D/opt/man/man5/lnet.yaml.5" ]
	[ -f "$D/etc/bash_completion.d/lnetctl" ]
	[ -f "$D/opt/schemas/lnet.schema.yaml" ]
	[ -f "$D/etc/systemd/system/lnetd.service" ]
	[ ! -e "$D/usr" ]
	[ "$(sed -n '/^[a-z]*=/p' "$D/opt/lnet/lib64/pkgconfig/lnetcfg.pc")" = "prefix=/opt/lnet
libdir=/opt/lnet/lib64
includedir=/opt/inc" ]
	grep -qx 'ExecStart=/opt/sbin/lnetd --socket /run/lnet/lnetd.sock --pidfile /run/lnet/lnetd.pid --log /var/log/lnet/lnetd.log' \
		"$D/etc/systemd/system/lnetd.service"
	grep -qx 'ExecStart=/opt/bin/lnetctl lnet configure' "$D/etc/systemd/system/lnet.service"
	[ "$("$D/opt/bin/lnetctl" --version)" = "$("$TOP/build/lnetctl" --version)" ]
	# the library's links are relative: they hold wherever LIBDIR is
	[ "$(readlink "$D/opt/lnet/lib64/liblnetcfg.so")" = liblnetcfg.so.0 ]
	PKG_CONFIG_PATH=$D/opt/lnet/lib64/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D \
		pkg-config --cflags --libs lnetcfg >"$D/flags"
	# (libyaml's own -I may follow ours: Requires.private brings its Cflags)
	[[ "$(cat "$D/flags")" == "-I$D/opt/inc "*"-L$D/opt/lnet/lib64 -llnetcfg " ]]
}
