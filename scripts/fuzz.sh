#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Build every tests/fuzz/fuzz_*.c into a libFuzzer binary (clang, ASan+UBSan)
# and run each for SECONDS (default 60) on a copy of its seed corpus, so the
# corpus in the tree stays small. Fails if any harness finds a crash; the
# crashing input is kept in build/fuzz/crash-<harness>-*.
#
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-60}
case $secs in
''|*[!0-9]*) echo "fuzz.sh: SECONDS '$secs' must be a whole number" >&2; exit 2 ;;
esac
if ! command -v clang >/dev/null; then
	echo "fuzz.sh: clang not found (apt-get install clang)" >&2
	exit 1
fi

out=build/fuzz
work=$(mktemp -d /tmp/lnet-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# Everything a harness may need (what the Makefile's libraries hold); the
# linker keeps what it uses.
shopt -s nullglob
srcs=(kernel/os/os_user.c kernel/os/os_user_if.c kernel/os/os_user_thread.c
      kernel/os/os_user_sock*.c kernel/nid/*.c kernel/core/*.c kernel/udsp/*.c
      kernel/wire/*.c kernel/lnd/*.c kernel/lnd/socklnd/*.c libcfg/*.c)
shopt -u nullglob
read -r -a nl_cflags <<<"$(pkg-config --cflags libnl-3.0 libnl-route-3.0)"
read -r -a nl_libs <<<"$(pkg-config --libs libnl-3.0 libnl-route-3.0)"
cflags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
	-std=gnu11 -D_GNU_SOURCE -Iinclude/uapi "${nl_cflags[@]}")

fail=0
for harness in tests/fuzz/fuzz_*.c; do
	[ -f "$harness" ] || continue
	name=$(basename "$harness" .c)
	seeds=tests/fuzz/corpus/${name#fuzz_}
	bin=$out/$name
	echo "fuzz: building $name"
	clang "${cflags[@]}" "$harness" "${srcs[@]}" -o "$bin" \
		-lyaml "${nl_libs[@]}" -lpthread
	mkdir -p "$work/$name"
	if [ -d "$seeds" ]; then
		cp -r "$seeds"/. "$work/$name"/
	fi
	echo "fuzz: running $name for ${secs}s"
	if "$bin" -max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="$out/crash-$name-" "$work/$name" \
		>"$work/$name.log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log")
		echo "fuzz: $name ok (${runs:-?} runs)"
	else
		echo "fuzz: $name FAILED:" >&2
		grep -A30 -m1 'ERROR\|==ABORTING\|deadly signal' "$work/$name.log" >&2 || \
			tail -n 40 "$work/$name.log" >&2
		ls "$out"/crash-"$name"-* 2>/dev/null >&2 || true
		fail=1
	fi
done
exit $fail
