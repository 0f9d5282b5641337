#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# make install into a temporary DESTDIR: the exact tree, the pkg-config
# file, binaries that run (and talk to each other), a C program built
# against the installed headers and library through pkg-config (shared and
# static), the completion, the schemas and the systemd units; the
# directory variables move each part.

load helpers

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
		printf './usr/include/lnet/%s\n' cfg.h list.h lnet_ioctl.h lnet_tunables.h lnet_udsp.h \
			nid.h os.h os_user.h udsp_wire.h
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
	# the headers include each other by file name, side by side
	run grep -h '^#include "' "$D"/usr/include/lnet/*.h
	[ "$output" = '#include "nid.h"
#include "udsp_wire.h"
#include "lnet_tunables.h"
#include "lnet_udsp.h"
#include "os.h"
#include "lnet_ioctl.h"
#include "os_linux.h"
#include "os_user.h"
#include "list.h"
#include "nid.h"' ]
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
	[ "${lines[0]}" = "usage: lnetd [--socket PATH] [--foreground] [--pidfile FILE] [--log FILE]" ]
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

@test "a C program builds against the installed headers and library with pkg-config" {
	install_to PREFIX=/usr
	cat >"$D/prog.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <lnet/cfg.h>

int main(void)
{
	char buf[LNET_NID_STR_MAX];
	struct lnet_nidexpr e;
	struct cfg_err err;
	struct lnet_nid nid;

	if (cfg_parse_nid("nid", "10.0.0.1@tcp0", &nid, &err))
		return 1;
	lnet_nid_print(&nid, buf, sizeof(buf));
	puts(buf);
	if (cfg_parse_nidexpr("expr", "10.0.[0-3].*@o2ib1", &e, &err))
		return 1;
	printf("%d\n", lnet_nidexpr_match_nid(&e, &nid));
	if (!cfg_parse_nid("nid", "10.0.0.1@eth", &nid, &err))
		return 1;
	puts(err.msg);
	return 0;
}
EOF
	export PKG_CONFIG_PATH=$D/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$D
	local want='10.0.0.1@tcp
0
invalid nid '"'10.0.0.1@eth'"': unknown LND '"'eth'"': expected tcp, o2ib, efa, gni, ptlf, kfi or lo'
	# shared
	cc -std=gnu11 -Wall -Wextra -Werror -o "$D/prog" "$D/prog.c" $(pkg-config --cflags --libs lnetcfg)
	run env LD_LIBRARY_PATH="$D/usr/lib" ldd "$D/prog"
	[[ "$output" == *"liblnetcfg.so.0 => $D/usr/lib/liblnetcfg.so.0 "* ]]
	run env LD_LIBRARY_PATH="$D/usr/lib" "$D/prog"
	[ "$status" -eq 0 ]
	[ "$output" = "$want" ]
	# static: liblnetcfg.a and, through Requires.private, libyaml
	cc -static -std=gnu11 -Wall -Wextra -Werror -o "$D/prog-static" "$D/prog.c" \
		$(pkg-config --static --cflags --libs lnetcfg)
	run "$D/prog-static"
	[ "$status" -eq 0 ]
	[ "$output" = "$want" ]
	# the shared library names itself and what it needs
	run readelf -d "$D/usr/lib/liblnetcfg.so.$VERSION"
	[[ "$output" == *"Library soname: [liblnetcfg.so.0]"* ]]
	[[ "$output" == *"Shared library: [libyaml-0.so.2]"* ]]
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
	[ "$(grep -E '^(Type|ExecStart|PIDFile)=' "$u/lnetd.service")" = "Type=forking
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
