#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install what building and testing need, from Debian's packages (as root).
set -e
PKGS="build-essential pkg-config clang libyaml-dev libnl-3-dev libnl-route-3-dev
libreadline-dev libcmocka-dev bats iproute2 python3 python3-yaml python3-jsonschema
qemu-system-x86 busybox-static cpio kmod linux-headers-amd64 gcc-multilib
mandoc bash-completion tmux tshark"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages:$missing (run as root)" >&2
	exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=600 update -qq
apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing >/dev/null
