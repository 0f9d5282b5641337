#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Build every tests/fuzz/fuzz_*.c (or the NAMEs given: nidexpr, socklnd_rx...)
# into a libFuzzer binary (clang, ASan+UBSan) and run each for SECONDS
# (default 60) on a copy of its seed corpus, so the corpus in the tree stays
# small. Fails if any harness finds a crash; the crashing input is kept in
# build/fuzz/crash-<harness>-*. Each harness's rate (inputs per second) is
# printed and kept in build/fuzz/rates; one below MIN_RATE (default 5000)
# gets a warning (a loaded machine runs them slower: not a failure).
#
#   scripts/fuzz.sh [SECONDS [NAME...]]
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-60}
case $secs in
''|*[!0-9]*|0) echo "fuzz.sh: SECONDS '$secs' must be a whole number above 0" >&2; exit 2 ;;
esac
shift $(($# ? 1 : 0))
min_rate=${MIN_RATE:-5000}
if ! command -v clang >/dev/null; then
	echo "fuzz.sh: clang not found (apt-get install clang)" >&2
	exit 1
fi

harnesses=()
if [ $# -eq 0 ]; then
	harnesses=(tests/fuzz/fuzz_*.c)
fi
for name in "$@"; do
	name=$(basename "$name" .c)
	h=tests/fuzz/fuzz_${name#fuzz_}.c
	[ -f "$h" ] || { echo "fuzz.sh: no harness $h" >&2; exit 2; }
	harnesses+=("$h")
done

out=build/fuzz
work=$(mktemp -d /tmp/lnet-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# Everything a harness may need (what the Makefile's libraries hold, and
# lnetd's request framing), compiled once into one archive: the linker
# takes from it what each harness uses.
shopt -s nullglob
srcs=(kernel/os/os_user.c kernel/os/os_user_if.c kernel/os/os_user_thread.c
      kernel/os/os_user_sock*.c kernel/os/os_sock_v4.c kernel/nid/*.c kernel/core/*.c kernel/udsp/*.c
      kernel/wire/*.c kernel/selftest/*.c kernel/lnd/*.c kernel/lnd/socklnd/*.c kernel/builtin/*.c
      libcfg/*.c lnetd/request.c)
shopt -u nullglob
read -r -a nl_cflags <<<"$(pkg-config --cflags libnl-3.0 libnl-route-3.0)"
read -r -a nl_libs <<<"$(pkg-config --libs libnl-3.0 libnl-route-3.0)"
cflags=(-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -DLNET_LOCK_CHECKS
	-std=gnu11 -D_GNU_SOURCE -Iinclude/uapi "${nl_cflags[@]}")

echo "fuzz: building the library (${#srcs[@]} files)"
mkdir -p "$work/obj"
export FUZZ_CFLAGS="${cflags[*]} -fsanitize=fuzzer-no-link"
export FUZZ_OBJ="$work/obj"
# shellcheck disable=SC2016
printf '%s\n' "${srcs[@]}" | xargs -P "$(nproc)" -I{} sh -c \
	'clang $FUZZ_CFLAGS -c "$1" -o "$FUZZ_OBJ/$(echo "$1" | tr / _).o"' sh {}
ar rcs "$work/libfuzz.a" "$work"/obj/*.o

: >"$out/rates"
fail=0
for harness in "${harnesses[@]}"; do
	name=$(basename "$harness" .c)
	seeds=tests/fuzz/corpus/${name#fuzz_}
	bin=$out/$name
	echo "fuzz: building $name"
	clang "${cflags[@]}" -fsanitize=fuzzer "$harness" "$work/libfuzz.a" -o "$bin" \
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
		rate=$(( ${runs:-0} / secs ))
		echo "$name $runs $rate" >>"$out/rates"
		echo "fuzz: $name ok (${runs:-?} runs, $rate inputs/s)"
		if [ "$rate" -lt "$min_rate" ]; then
			echo "fuzz: warning: $name ran $rate inputs/s, below $min_rate" >&2
		fi
	else
		echo "fuzz: $name FAILED:" >&2
		grep -A30 -m1 'ERROR\|==ABORTING\|deadly signal\|runtime error' \
			"$work/$name.log" >&2 || tail -n 40 "$work/$name.log" >&2
		ls "$out"/crash-"$name"-* 2>/dev/null >&2 || true
		fail=1
	fi
done
exit $fail
