#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The tables of include/uapi/lnet/lnet_tunables.h are the one place a range
# or default is written: the man pages and JSON schemas state what they
# say (tests/tools/check-ranges.py, fed by tests/tools/lnet-tables.c built
# here from the header), and lnetctl's help, argv checks and YAML import
# follow every row. No lnetd: these are all answered before any request.

load helpers
# bats file_tags=parse-only

setup_file() {
	cc -std=gnu11 -Wall -Wextra -Werror -I"$TOP/include/uapi" \
		-o "$BATS_FILE_TMPDIR/lnet-tables" "$TOP/tests/tools/lnet-tables.c"
	"$BATS_FILE_TMPDIR/lnet-tables" >"$BATS_FILE_TMPDIR/table"
}

# check MAN_DIR SCHEMA_DIR: run the checker on the table.
check() {
	run /usr/bin/python3 "$TOP/tests/tools/check-ranges.py" "$BATS_FILE_TMPDIR/table" "$1" "$2"
}

# rows KIND: the table's rows of KIND (tunable, global, buffer) without the kind.
rows() {
	sed -n "s/^$1 //p" "$BATS_FILE_TMPDIR/table"
}

@test "the table has every NI tunable and every settable global (lnd_timeout is read-only)" {
	[ "$(rows tunable | cut -d' ' -f1 | paste -sd' ')" = \
	  "peer_timeout peer_credits peer_buffer_credits credits" ]
	[ "$(rows global | wc -l)" -eq 15 ]
	! rows global | grep -q '^lnd_timeout '
	grep -qx 'global retry_count 0 100 2' "$BATS_FILE_TMPDIR/table"
	grep -qx 'tunable credits credits 1 65536 256' "$BATS_FILE_TMPDIR/table"
	[ "$(rows buffer | cut -d' ' -f1 | paste -sd' ')" = "tiny small large" ]
	grep -qx 'buffer small 1 1048576 16384' "$BATS_FILE_TMPDIR/table"
}

@test "the man pages and the schemas state the table's ranges and defaults" {
	check "$TOP/man" "$TOP/yaml-schemas"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
}

@test "a man page stating another range or default fails the check, naming it" {
	cp -r "$TOP/man" "$BATS_TEST_TMPDIR/man"
	sed -i 's/^\.It Cm max_interfaces Ar 16-16384$/.It Cm max_interfaces Ar 16-8192/' \
		"$BATS_TEST_TMPDIR/man/lnetctl-set.8"
	sed -i 's/^Messages in flight to one peer, 1 to 1024 (default 8)\.$/Messages in flight to one peer, 1 to 1024 (default 16)./' \
		"$BATS_TEST_TMPDIR/man/lnetctl-net.8"
	sed -i 's/^(0 to 16384, default 0) and$/(0 to 16000, default 0) and/' \
		"$BATS_TEST_TMPDIR/man/lnet.yaml.5"
	check "$BATS_TEST_TMPDIR/man" "$TOP/yaml-schemas"
	[ "$status" -eq 1 ]
	[ "$output" = "lnetctl-set.8: max_interfaces: range: states 16-8192, the table says 16-16384
lnetctl-net.8: --peer-credits: default: states 16, the table says 8
lnet.yaml.5: peer_buffer_credits: range: states 0-16000, the table says 0-16384" ]
}

@test "a page that leaves a setting's default out, or documents one the table lacks, fails" {
	cp -r "$TOP/man" "$BATS_TEST_TMPDIR/man"
	sed -i -e 's/^Seconds between pings of an unhealthy NI (default 1)\.$/Seconds between pings of an unhealthy NI./' \
		-e 's/^\.It Cm router_sensitivity Ar 0-100$/.It Cm router_sensitivity Ar 0-100\nOld.\n.It Cm gone_setting Ar 0-1/' \
		"$BATS_TEST_TMPDIR/man/lnetctl-set.8"
	check "$BATS_TEST_TMPDIR/man" "$TOP/yaml-schemas"
	[ "$status" -eq 1 ]
	[ "$output" = "lnetctl-set.8: gone_setting: states a range, but the table has no such setting
lnetctl-set.8: recovery_interval: default: states nothing, the table says 1
lnetctl-set.8: router_sensitivity: default: states nothing, the table says 100" ]
}

@test "a schema stating another range or default fails the check, naming it" {
	cp -r "$TOP/yaml-schemas" "$BATS_TEST_TMPDIR/s"
	sed -i -e 's/credits: {type: integer, minimum: 1, maximum: 65536}/credits: {type: integer, minimum: 1, maximum: 65535}/' \
		-e 's/retry_count: {type: integer, minimum: 0, maximum: 100}/retry_count: {type: integer, minimum: 0, maximum: 100, default: 3}/' \
		"$BATS_TEST_TMPDIR/s/defs.schema.yaml"
	sed -i 's/tiny: {type: integer, minimum: 1, maximum: 1048576}/tiny: {type: integer, minimum: 2, maximum: 1048576}/' \
		"$BATS_TEST_TMPDIR/s/routing-show.schema.yaml"
	check "$TOP/man" "$BATS_TEST_TMPDIR/s"
	[ "$status" -eq 1 ]
	[ "$output" = "defs.schema.yaml tunables: credits: range: states 1-65535, the table says 1-65536
defs.schema.yaml global: retry_count: default: states 3, the table says 2
routing-show.schema.yaml buffers: tiny: range: states 2-1048576, the table says 1-1048576" ]
}

@test "lnetctl help states each row's range (set: and default)" {
	local name opt min max def help
	help=$(lnetctl help set)
	while read -r name min max def; do
		grep -qxF "set $name N: $min-$max (default $def)" <<<"$help" ||
			{ echo "help set lacks $name $min-$max ($def)"; return 1; }
	done < <(rows global)
	help=$(lnetctl net add --help)
	while read -r name opt min max def; do
		grep -qE -- "^	--$opt: .*, $min-$max \(short: -.\)$" <<<"$help" ||
			{ echo "net add --help lacks --$opt $min-$max"; return 1; }
	done < <(rows tunable)
}

@test "lnetctl set and net add refuse one past each end of each row's range (exit 2)" {
	local name opt min max def v
	while read -r name min max def; do
		for v in $((min - 1)) $((max + 1)); do
			run lnetctl set "$name" "$v"
			[ "$status" -eq 2 ]
			[ "$output" = "lnetctl set $name: invalid $name '$v': expected an integer $min-$max" ]
		done
	done < <(rows global)
	while read -r name opt min max def; do
		for v in $((min - 1)) $((max + 1)); do
			run lnetctl net add --net tcp --if veth0 "--$opt" "$v"
			[ "$status" -eq 2 ]
			[ "$output" = "lnetctl net add: invalid --$opt '$v': expected an integer $min-$max" ]
		done
	done < <(rows tunable)
}

@test "import refuses one past the end of each row's range, at the value's place" {
	local name opt min max def
	while read -r name opt min max def; do
		printf 'net:\n  - net type: tcp\n    local NI(s):\n      - interfaces: {0: eth0}\n        tunables: {%s: %d}\n' \
			"$name" $((max + 1)) >"$BATS_TEST_TMPDIR/t.yaml"
		run lnetctl import "$BATS_TEST_TMPDIR/t.yaml"
		[ "$status" -eq 1 ]
		[ "$output" = "$BATS_TEST_TMPDIR/t.yaml:5:$((22 + ${#name})): invalid $name '$((max + 1))': expected an integer $min-$max" ]
	done < <(rows tunable)
	while read -r name min max def; do
		printf 'global:\n  %s: %d\n' "$name" $((max + 1)) >"$BATS_TEST_TMPDIR/g.yaml"
		run lnetctl import "$BATS_TEST_TMPDIR/g.yaml"
		[ "$status" -eq 1 ]
		[ "$output" = "$BATS_TEST_TMPDIR/g.yaml:2:$((5 + ${#name})): invalid $name '$((max + 1))': expected an integer $min-$max" ]
	done < <(rows global)
}

@test "a schema whose key list lacks a row, or names one the table lacks, fails the check" {
	cp -r "$TOP/yaml-schemas" "$BATS_TEST_TMPDIR/s"
	sed -i 's/^      credits: {type: integer, minimum: 0}$/      credit: {type: integer, minimum: 0}/' \
		"$BATS_TEST_TMPDIR/s/defs.schema.yaml"
	sed -i 's/router_sensitivity, lnd_timeout, response_tracking, recovery_limit,$/router_sensitivity, lnd_timeout, response_tracking,/' \
		"$BATS_TEST_TMPDIR/s/global-show.schema.yaml"
	sed -i "s/^      large: {\$ref: '#\/\$defs\/buffer_large'}$/&\n      huge: {type: integer}/" \
		"$BATS_TEST_TMPDIR/s/lnet.schema.yaml"
	check "$TOP/man" "$BATS_TEST_TMPDIR/s"
	[ "$status" -eq 1 ]
	[ "$output" = "defs.schema.yaml shown_tunables: credit: a key the table does not have
defs.schema.yaml shown_tunables: credits: missing, the table has it
global-show.schema.yaml required: recovery_limit: missing, the table has it
lnet.schema.yaml buffers: huge: a key the table does not have" ]
}

@test "every errno the uapi headers document is one the ioctl fuzzer accepts, and no other" {
	# The fuzzer (tests/kernel/ioctl-fuzz.c) fails on an errno the ABI does
	# not document; a new errno in a header must reach its list too.
	documented=$(grep -oh '\bE[A-Z]\{3,\}\b' "$TOP"/include/uapi/lnet/*.h | sort -u | paste -sd' ')
	accepted=$(sed -n 's/^\tcase \(E[A-Z]*\): return "\1";$/\1/p' \
		"$TOP/tests/kernel/ioctl-fuzz.c" | grep -vx EFAULT | sort -u | paste -sd' ')
	echo "documented: $documented"
	echo "accepted:   $accepted"
	[ -n "$documented" ]
	[ "$documented" = "$accepted" ]
}
