#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# completions/lnetctl: _lnetctl called as bash calls it (COMP_WORDS,
# COMP_CWORD, and COMP_LINE/COMP_POINT for the cases that need the line),
# against a private lnetd. The completion runs `lnetctl`, which is the
# helpers' function (the built binary) here.

load helpers

setup() {
	lnet_setup
	source "$TOP/completions/lnetctl"
}

teardown() {
	lnet_teardown
}

# comp WORD...: _lnetctl on "lnetctl WORD..." with the cursor at the end
# of the last WORD; $reply = the candidates, sorted, one space between.
comp() {
	COMP_WORDS=(lnetctl "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	unset COMP_LINE COMP_POINT
	reply_of_lnetctl
}

# complete_line LINE: as bash fills it when the line holds '=' or ':'
# (COMP_WORDBREAKS); the script reads COMP_LINE up to COMP_POINT.
complete_line() {
	COMP_LINE="lnetctl $1"
	COMP_POINT=${#COMP_LINE}
	COMP_WORDS=(lnetctl)
	COMP_CWORD=1
	reply_of_lnetctl
}

reply_of_lnetctl() {
	COMPREPLY=(unchanged)
	_lnetctl
	reply=$(printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | paste -sd ' ')
	echo "reply: '$reply'"
}

configure_two_nets() {
	lnetctl lnet configure
	lnetctl net add --net tcp --if veth0	# 10.11.0.1@tcp
	lnetctl net add --net tcp1 --if veth1	# 10.11.0.2@tcp1
}

# bats test_tags=parse-only
@test "top level: every command, no hidden __complete" {
	comp ""
	[ "$reply" = "convert cpt-of-nid debug discover export fault global help import list-commands lnet net peer ping policy route routing selftest set stats udsp version" ]
}

# bats test_tags=parse-only
@test "top level options: --help --list-commands --socket --version" {
	comp --
	[ "$reply" = "--help --list-commands --socket --version" ]
}

# bats test_tags=parse-only
@test "net : its sub-commands" {
	comp net ""
	[ "$reply" = "add del set show" ]
	comp udsp s
	[ "$reply" = "show" ]
}

# bats test_tags=parse-only
@test "set : every setting" {
	comp set ""
	[ "$reply" = "alive_router_check_interval avoid_asym_router_failure discovery drop_asym_route health_sensitivity large_buffers max_interfaces max_recovery_ping_interval numa_range recovery_interval recovery_limit response_tracking retry_count router_ping_timeout router_sensitivity routing small_buffers tiny_buffers transaction_timeout" ]
	comp set r
	[ "$reply" = "recovery_interval recovery_limit response_tracking retry_count router_ping_timeout router_sensitivity routing" ]
}

# bats test_tags=parse-only
@test "policy add --: every option of the leaf" {
	comp policy add --
	[ "$reply" = "--dst --help --idx --priority --rte --src" ]
}

# bats test_tags=parse-only
@test "--pr: the options with that prefix" {
	comp policy add --pr
	[ "$reply" = "--priority" ]
	comp peer add --
	[ "$reply" = "--help --lock_prim --nid --non_mr --prim_nid" ]
	comp peer add --n
	[ "$reply" = "--nid --non_mr" ]
}

# bats test_tags=parse-only
@test "an option already on the line is not offered again" {
	comp policy add --src tcp --priority 1 --
	[ "$reply" = "--dst --help --idx --rte" ]
}

@test "policy del --idx : the indexes of the two rules" {
	configure_two_nets
	lnetctl policy add --src tcp --priority 1
	lnetctl policy add --dst tcp1 --priority 2
	comp policy del --idx ""
	[ "$reply" = "0 1" ]
	comp udsp show --idx 1
	[ "$reply" = "1" ]
	comp policy del --i ""	# --i is --idx, as the parser reads it
	[ "$reply" = "0 1" ]
}

@test "net show --net : the configured nets, lo left out" {
	configure_two_nets
	comp net show --net ""
	[ "$reply" = "tcp tcp1" ]
	comp net del --net tcp
	[ "$reply" = "tcp tcp1" ]
	complete_line "net show --net=tcp1"
	[ "$reply" = "tcp1" ]
}

@test "--nid, --prim_nid, --src, --dst, --rte, --gateway of the leaf: local and peer NIDs" {
	configure_two_nets
	lnetctl peer add --prim_nid 10.11.0.100@tcp --nid 10.11.0.101@tcp
	local all="10.11.0.100@tcp 10.11.0.101@tcp 10.11.0.1@tcp 10.11.0.2@tcp1"
	for line in "peer show --nid" "peer add --prim_nid" "peer del --nid" \
		    "policy add --src" "policy add --dst" "policy add --rte" \
		    "route add --gateway" "ping --source" "selftest put --source"; do
		comp $line ""
		[ "$reply" = "$all" ]
	done
	comp peer show --prim_nid ""	# not an option of peer show
	[ "$reply" = "" ]
	comp peer del --prim_nid 10.11.0.10
	[ "$reply" = "10.11.0.100@tcp 10.11.0.101@tcp" ]
}

@test "ping, discover and selftest: NIDs as their NID arguments" {
	configure_two_nets
	lnetctl peer add --prim_nid 10.11.0.100@tcp
	local all="10.11.0.100@tcp 10.11.0.1@tcp 10.11.0.2@tcp1"
	comp ping ""
	[ "$reply" = "$all" ]
	comp ping 10.11.0.1@tcp 10.11.0.1
	[ "$reply" = "10.11.0.100@tcp 10.11.0.1@tcp" ]
	comp discover --force ""
	[ "$reply" = "$all" ]
	comp selftest get ""
	[ "$reply" = "$all" ]
	comp selftest get 10.11.0.1@tcp ""	# one NID only
	[ "$reply" = "" ]
	comp selftest ""
	[ "$reply" = "batch get group put run session stat test" ]
	comp selftest put --
	[ "$reply" = "--check --concurrency --count --help --size --source --timeout" ]
	comp selftest run --from ""
	[ "$reply" = "$all" ]
}

@test "IPv6 NIDs: only what follows the last ':' is handed back" {
	configure_two_nets
	lnetctl peer add --prim_nid 2001:db8::5@tcp
	complete_line "peer show --nid 2001:db"
	[ "$reply" = "db8::5@tcp" ]
	complete_line "peer show --nid 2001:db8::"
	[ "$reply" = "5@tcp" ]
}

@test "--socket PATH typed on the line is the LNet asked" {
	if [ "$LNET_TRANSPORT" = dev ]; then
		skip "LNET_TRANSPORT=dev: no lnetd socket, lnetctl uses /dev/lnet"
	fi
	configure_two_nets
	local sock=$LNET_SOCKET
	export LNET_SOCKET=$T/nobody.sock
	comp net show --net ""
	[ "$reply" = "" ]
	comp --socket "$sock" net show --net ""
	[ "$reply" = "tcp tcp1" ]
	complete_line "--socket=$sock net show --net t"
	[ "$reply" = "tcp tcp1" ]
}

@test "no values, and no error, when LNet is down or unreachable" {
	comp net show --net ""	# lnetd runs, LNet not configured
	[ "$reply" = "" ]
	run lnetctl __complete values nids
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	run lnetctl --socket "$T/nobody.sock" __complete values nets
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	comp --socket "$T/nobody.sock" policy del --idx ""
	[ "$reply" = "" ]
}

# bats test_tags=parse-only
@test "import : file names" {
	mkdir "$T/files" "$T/files/dir"
	touch "$T/files/a.yaml" "$T/files/b.yaml"
	cd "$T/files"
	comp import ""
	[ "$reply" = "a.yaml b.yaml dir" ]
	comp import --del a
	[ "$reply" = "a.yaml" ]
	comp export --backup ""
	[ "$reply" = "a.yaml b.yaml dir" ]
	comp import a.yaml ""	# one FILE only
	[ "$reply" = "" ]
}

# bats test_tags=parse-only
@test "help : commands, then sub-commands" {
	comp help ""
	[ "$reply" = "convert cpt-of-nid debug discover export fault global help import list-commands lnet net peer ping policy route routing selftest set stats udsp version" ]
	comp help peer ""
	[ "$reply" = "add del list set show" ]
}

# bats test_tags=parse-only
@test "__complete: usage errors exit 2, hidden from help" {
	run lnetctl __complete
	[ "$status" -eq 2 ]
	run lnetctl __complete values peers
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl __complete: invalid KIND 'peers': expected nets, nids or idx" ]
	run lnetctl __complete options net
	[ "$status" -eq 2 ]
	run lnetctl __complete kind priority
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl __complete: usage: __complete kind --OPTION" ]
	run lnetctl __complete kind --gateway
	[ "$status" -eq 0 ]
	[ "$output" = "nids" ]
	run lnetctl __complete kind --priority
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	run lnetctl __complete options policy add
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf -- '--src\n--dst\n--rte\n--priority\n--idx\n--help')" ]
	run lnetctl --help
	[ "$status" -eq 0 ]
	[[ $output != *__complete* ]]
	run lnetctl nosuch
	[ "$status" -eq 2 ]
	[[ $output != *__complete* ]]
}

# bats test_tags=parse-only
@test "__complete kinds: every option that takes a value says what completes after it" {
	local bad
	run lnetctl __complete kinds
	[ "$status" -eq 0 ]
	# the spellings of tree, each with the kind its row gives
	[ "$(grep -v -- '^--' <<<"$output" | sed 's/ [^ ]*$//')" = \
	  "$(lnetctl __complete tree | grep -- ' --')" ]
	# a VALUE or LEVEL row without .values shows as "unset"
	bad=$(grep -v -E ' (flag|text|nets|nids|idx|files)$' <<<"$output" || :)
	[ -z "$bad" ] || { echo "rows without .values: $bad"; return 1; }
	grep -Fx -- '--socket files' <<<"$output"
	grep -Fx -- '--version flag' <<<"$output"
	grep -Fx -- 'net show --net nets' <<<"$output"
	grep -Fx -- 'net add --credits text' <<<"$output"
	grep -Fx -- 'route add --hop-count text' <<<"$output"
	grep -Fx -- 'udsp del --idx idx' <<<"$output"
	grep -Fx -- 'selftest get --source nids' <<<"$output"
	grep -Fx -- 'peer add --non_mr flag' <<<"$output"
}

# bats test_tags=parse-only
@test "every leaf: bash offers after -- exactly what __complete options lists" {
	local leaf want
	local -a words
	while read -r leaf; do
		read -ra words <<<"$leaf"
		want=$(lnetctl __complete options "${words[@]}" | LC_ALL=C sort | paste -sd ' ')
		comp "${words[@]}" --
		[ "$reply" = "$want" ] || { echo "$leaf: bash '$reply', options '$want'"; return 1; }
	done < <(lnetctl __complete tree | grep -v -- ' --')
}

@test "aliases and prefixes complete as the parser reads them" {
	configure_two_nets
	comp route add --hop-
	[ "$reply" = "--hop-count" ]
	comp route add --ho
	[ "$reply" = "--hop --hop-count" ]
	# --hop-count is --hop: neither spelling again
	comp route add --hop-count 3 --
	[ "$reply" = "--gateway --help --net --priority" ]
	comp route add --ho 3 --
	[ "$reply" = "--gateway --help --net --priority" ]
	# an abbreviated option takes its values
	comp route add --gat ""
	[ "$reply" = "10.11.0.1@tcp 10.11.0.2@tcp1" ]
	complete_line "udsp add --sr=10.11.0.2"
	[ "$reply" = "10.11.0.2@tcp1" ]
	# an ambiguous one takes nothing
	comp route add --p ""
	[ "$reply" = "" ]
	comp udsp ""
	[ "$reply" = "add del explain show" ]
}

# bats test_tags=parse-only
@test "command words are exact: nothing completes below a prefix or another case" {
	comp pol show --
	[ "$reply" = "" ]
	comp policy sh --
	[ "$reply" = "" ]
	comp Policy ""
	[ "$reply" = "" ]
	comp help pol ""
	[ "$reply" = "" ]
}

# bats test_tags=parse-only
@test "__complete line: words or files first, then whole words; the global options" {
	run lnetctl __complete line import ""
	[ "$status" -eq 0 ]
	[ "$output" = "files" ]
	run lnetctl __complete line --socket ""
	[ "$output" = "files" ]
	run lnetctl __complete line --sock=/r
	[ "$output" = "files" ]
	run lnetctl __complete line --so
	[ "$output" = $'words\n--socket' ]
	run lnetctl __complete line --socket /x ne
	[ "$output" = $'words\nnet' ]
	run lnetctl __complete line policy add --pr
	[ "$output" = $'words\n--priority' ]
	run lnetctl __complete line net show --ne=
	[ "$output" = "words" ]
	run lnetctl __complete line
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl __complete: usage: __complete line WORD... (the last one is completed)" ]
}
