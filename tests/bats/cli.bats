#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# lnetctl as a program: help, exit codes, option parsing, global options,
# the command shell (stdin), two clients at once.

load helpers
lnet_suite

# Every command path, group or leaf.
PATHS=("lnet" "lnet configure" "lnet unconfigure" "net" "net add" "net del"
       "net show" "peer" "peer add" "peer del" "peer show" "peer list"
       "policy" "policy add" "policy del" "policy show" "udsp" "udsp add"
       "udsp del" "udsp show" "debug" "debug nidlist" "import" "export" "help")

# bats test_tags=parse-only
@test "--help, -h and help print the usage and the exit codes, exit 0" {
	run --separate-stderr lnetctl --help
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[[ "${lines[0]}" == "usage: lnetctl [--socket PATH] COMMAND [SUBCOMMAND] [OPTIONS] [ARGS]" ]]
	[[ "$output" == *$'Exit status:\n\t0: success\n\t1: error'* ]]
	[[ "$output" == *$'\t2: usage error'* ]]
	[[ "$output" == *$'\tpolicy add: '* ]]
	[[ "$output" == *$'\tdebug nidlist EXPR [NID]: '* ]]
	usage=$output
	run lnetctl -h
	[ "$status" -eq 0 ]
	[ "$output" = "$usage" ]
	run lnetctl help
	[ "$status" -eq 0 ]
	[ "$output" = "$usage" ]
}

# bats test_tags=parse-only
@test "--help of every group and command exits 0; help CMD [SUB] prints the same" {
	for p in "${PATHS[@]}"; do
		read -ra words <<<"$p"
		run --separate-stderr lnetctl "${words[@]}" --help
		[ "$status" -eq 0 ] || { echo "$p --help: $status"; return 1; }
		[ "$stderr" = "" ]
		[[ "${lines[0]}" == "$p"* ]] || { echo "$p: ${lines[0]}"; return 1; }
		out=$output
		run lnetctl "${words[@]}" -h
		[ "$status" -eq 0 ]
		[ "$output" = "$out" ]
		[ "$p" = help ] && continue
		run lnetctl help "${words[@]}"
		[ "$status" -eq 0 ]
		[ "$output" = "$out" ] || { echo "help $p differs"; return 1; }
	done
}

# bats test_tags=parse-only
@test "command help lists each option as --option: description" {
	run lnetctl net add --help
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "net add: add NIs to a net (created if new): --net NET --if IF[,IF...], --nid NID or --ip2net RULES" ]
	for o in net if nid ip2net cpt peer-timeout peer-credits peer-buffer-credits credits \
		conns-per-peer lnd-timeout tos help; do
		[[ "$output" == *$'\n\t--'"$o: "* ]] || { echo "no --$o:"; return 1; }
	done
	run lnetctl policy add -h
	for o in src dst rte priority idx; do
		[[ "$output" == *$'\n\t--'"$o: "* ]] || { echo "no --$o:"; return 1; }
	done
	run lnetctl help net show
	[[ "$output" == *$'\t--verbose: '* ]]
}

# bats test_tags=parse-only
@test "--version" {
	run lnetctl --version
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^lnetctl\ [0-9]+\.[0-9]+\.[0-9]+\ \(ioctl\ ABI\ 2\.1\)$ ]]
}

# bats test_tags=parse-only
@test "unknown commands are usage errors (exit 2), no help on stdout" {
	run --separate-stderr lnetctl bogus
	[ "$status" -eq 2 ]
	[ "$output" = "" ]
	[ "$stderr" = "lnetctl: unknown command 'bogus': expected one of lnet, net, peer, policy, udsp, route, routing, set, global, stats, ping, discover, selftest, debug, fault, cpt-of-nid, import, export, convert, help, version, list-commands" ]
	run --separate-stderr lnetctl net bogus
	[ "$status" -eq 2 ]
	[ "$output" = "" ]
	[ "$stderr" = "lnetctl net: unknown command 'bogus': expected one of add, del, show, set" ]
	run --separate-stderr lnetctl NET show
	[ "$status" -eq 2 ]
	run --separate-stderr lnetctl net sho
	[ "$status" -eq 2 ]
	[ "$stderr" = "lnetctl net: unknown command 'sho': expected one of add, del, show, set" ]
	run --separate-stderr lnetctl peer
	[ "$status" -eq 2 ]
	[ "$output" = "" ]
	[ "$stderr" = "lnetctl peer: missing command: one of add, del, show, list, set" ]
	run lnetctl net --help extra
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl net: unexpected argument 'extra'" ]
	run lnetctl help net bogus
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl help: unknown command 'net bogus'" ]
	run lnetctl help net add more
	[ "$status" -eq 2 ]
}

# bats test_tags=parse-only
@test "unknown, ambiguous, repeated options and stray words: exit 2, nothing done" {
	run --separate-stderr lnetctl net add --net tcp --if veth0 --bogus 1
	[ "$status" -eq 2 ]
	[ "$output" = "" ]
	[ "$stderr" = "lnetctl net add: unknown option '--bogus'" ]
	run lnetctl net add --net tcp --if veth0 -z
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl net add: unknown option '-z'" ]
	run lnetctl net add --net tcp --if veth0 --peer 8
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl net add: ambiguous option '--peer': could be --peer-timeout, --peer-credits, --peer-buffer-credits" ]
	run lnetctl net add --net tcp --net tcp1 --if veth0
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl net add: option --net given more than once" ]
	run lnetctl net add --net tcp --if veth0 stray
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl net add: unexpected argument 'stray'" ]
	run lnetctl net add --net tcp --if
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl net add: option --if needs a value" ]
	run lnetctl peer list extra
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl peer list: unexpected argument 'extra'" ]
	net_show_lo_only
}

@test "option forms: --opt=value, -o value, -ovalue, unambiguous prefixes" {
	lnetctl net add --ne=tcp --if=veth0 --peer-c=16
	lnetctl net add -n tcp1 -iveth1
	lnetctl policy add --sr tcp --prio=3 --id 0
	lnetctl policy add -d tcp1 -p 4
	run lnetctl net show -v 1
	[ "$(yaml_get "[(n['net type'], n['local NI(s)'][0]['nid'], n['local NI(s)'][0]['tunables']['peer_credits']) for n in d['net'][1:]]")" = \
	  "[('tcp', '10.11.0.1@tcp', 16), ('tcp1', '10.11.0.2@tcp1', 8)]" ]
	run lnetctl policy show
	yaml_is "udsp:
- idx: 0
  src: tcp
  action:
    priority: 3
- idx: 1
  dst: tcp1
  action:
    priority: 4"
}

@test "aliases: udsp is policy, --hop-count is --hop; a prefix of either spelling is the one option" {
	lnetctl net add --net tcp --if veth0
	lnetctl route add --net o2ib --gateway 10.11.0.10@tcp --hop-count 2 --prio 5
	lnetctl route add --net o2ib1 --gateway 10.11.0.10@tcp --ho 3
	lnetctl route add --net o2ib2 --gateway 10.11.0.10@tcp --hop-c=4
	run lnetctl route show -v
	yaml_is 'route:
- {net: o2ib, gateway: 10.11.0.10@tcp, hop: 2, priority: 5, state: down, type: multi-hop}
- {net: o2ib1, gateway: 10.11.0.10@tcp, hop: 3, priority: 0, state: down, type: multi-hop}
- {net: o2ib2, gateway: 10.11.0.10@tcp, hop: 4, priority: 0, state: down, type: multi-hop}'
	# one option under two names: given twice, whichever the spelling
	run --separate-stderr lnetctl route add --net o2ib3 --gateway 10.11.0.10@tcp --hop 1 --hop-count 2
	[ "$status" -eq 2 ]
	[ "$stderr" = "lnetctl route add: option --hop given more than once" ]
	run lnetctl route add --help
	[[ "$output" == *$'\n\t--hop: '*' (alias: --hop-count) (short: -c)'$'\n'* ]]
	lnetctl udsp add --src tcp --prio 2
	lnetctl peer add --prim 10.11.0.100@tcp --ni 10.11.0.101@tcp
	run lnetctl policy show
	yaml_is "udsp:
- idx: 0
  src: tcp
  action:
    priority: 2"
	run lnetctl peer list
	[ "$(yaml_get "d['peer list'][1]['nid']")" = "10.11.0.100@tcp" ]
}

# bats test_tags=parse-only
@test "ambiguous prefixes name every candidate (--help too); exit 2, nothing done" {
	run --separate-stderr lnetctl selftest put --co 3 10.11.0.1@tcp
	[ "$status" -eq 2 ]
	[ "$output" = "" ]
	[ "$stderr" = "lnetctl selftest put: ambiguous option '--co': could be --count, --concurrency" ]
	run lnetctl peer add --prim_nid 10.11.0.100@tcp --n 10.11.0.101@tcp
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl peer add: ambiguous option '--n': could be --nid, --non_mr" ]
	run lnetctl route add --net o2ib --gateway 10.11.0.10@tcp --h 1
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl route add: ambiguous option '--h': could be --hop, --help" ]
	run lnetctl route add --net o2ib --gateway 10.11.0.10@tcp --hop-counts 1
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl route add: unknown option '--hop-counts'" ]
	run lnetctl --so "$T/none.sock" --ver
	[ "$status" -eq 0 ]
	[[ "$output" == "lnetctl "* ]]
	run lnetctl --soc
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl: option --socket needs a value (see 'lnetctl --help')" ]
	run lnetctl peer list
	[ "$output" = "" ]
	run lnetctl route show
	[ "$output" = "" ]
}

# bats test_tags=parse-only
@test "command words are exact at every level: no prefixes, no other case, names or aliases" {
	local roots="lnet, net, peer, policy, udsp, route, routing, set, global, stats, ping, discover, selftest, debug, fault, cpt-of-nid, import, export, convert, help, version, list-commands"
	for w in pol polic Policy POLICY uds routin; do
		run --separate-stderr lnetctl "$w" show
		[ "$status" -eq 2 ]
		[ "$stderr" = "lnetctl: unknown command '$w': expected one of $roots" ]
	done
	for w in sh Show del- a; do
		run --separate-stderr lnetctl udsp "$w"
		[ "$status" -eq 2 ]
		[ "$stderr" = "lnetctl udsp: unknown command '$w': expected one of add, del, show, explain" ]
	done
	run lnetctl set retry
	[ "$status" -eq 2 ]
	[[ "$output" == "lnetctl set: unknown command 'retry': expected one of routing, "* ]]
	run lnetctl help pol
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl help: unknown command 'pol'" ]
	run lnetctl help udsp sh
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl help: unknown command 'udsp sh'" ]
	# an alias is its entry under the name typed
	run lnetctl help udsp add
	[ "${lines[0]}" = "udsp add: add a rule (the same descriptors with a new priority update it in place)" ]
	# lines read from stdin take unique prefixes, as Lustre's shell (shell.bats)
	run --separate-stderr lnetctl <<-'EOF'
	policy show
	pol show
	Pol show
	EOF
	[ "$status" -eq 2 ]
	[ "$stderr" = "<stdin>:3: lnetctl: unknown command 'Pol': expected one of $roots" ]
	run --separate-stderr lnetctl <<<'qui'
	[ "$status" -eq 2 ]
	[ "$stderr" = "<stdin>:1: lnetctl: unknown command 'qui': expected one of $roots" ]
}

# leaves: every "CMD [SUB]" of the tables, aliases included.
leaves() {
	lnetctl __complete tree | grep -v -- ' --'
}

# bats test_tags=parse-only
@test "every option completion offers is one the parser takes and help lists, and only those" {
	local leaf opt help words got want
	while read -r leaf; do
		read -ra words <<<"$leaf"
		help=$(lnetctl "${words[@]}" --help)
		# what help lists: each --option and its (alias: --option)
		# (option names may have digits: --ip2net)
		want=$(grep -oE -- $'^\t--[a-z0-9_-]+:|\\(alias: --[a-z0-9_-]+\\)' <<<"$help" |
		       grep -oE -- '--[a-z0-9_-]+' | LC_ALL=C sort | paste -sd ' ')
		got=$(lnetctl __complete options "${words[@]}" | LC_ALL=C sort | paste -sd ' ')
		[ "$got" = "$want" ] || { echo "$leaf: completion '$got', help '$want'"; return 1; }
		for opt in $got; do
			[ "$opt" = --help ] && continue
			# the option is matched (a bad or missing value at most), then --zz is not
			run --separate-stderr lnetctl "${words[@]}" "$opt=1" --zz
			[ "$status" -eq 2 ] || { echo "$leaf $opt=1: $status"; return 1; }
			[[ $stderr == *"unknown option '--zz'" || $stderr == *"option --"*" takes no value" ]] ||
				{ echo "$leaf $opt: $stderr"; return 1; }
		done
	done < <(leaves)
}

# bats test_tags=parse-only
@test "-- ends the options" {
	run lnetctl debug nidlist -- tcp
	[ "$status" -eq 0 ]
	[ "$output" = "tcp" ]
}

@test "--socket overrides LNET_SOCKET; an absent lnetd is an error (exit 1)" {
	lnetd_only
	lnetctl net add --net tcp --if veth0
	run env LNET_SOCKET=/nonexistent/sock "$LNETCTL_BIN" --socket "$LNET_SOCKET" net show --net tcp
	[ "$status" -eq 0 ]
	[ "$(yaml_get "d['net'][0]['local NI(s)'][0]['nid']")" = "10.11.0.1@tcp" ]
	run --separate-stderr lnetctl --socket "$T/none.sock" net show
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	[ "$stderr" = "lnetctl net show: cannot reach lnetd at $T/none.sock" ]
	run lnetctl --socket= net show
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl: invalid --socket '': expected a path" ]
	run lnetctl --bogus net show
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl: unknown option '--bogus' (see 'lnetctl --help')" ]
	run lnetctl --socket
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl: option --socket needs a value (see 'lnetctl --help')" ]
}

@test "lnet configure and unconfigure are idempotent" {
	run lnetctl lnet configure
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	lnetctl lnet unconfigure
	run lnetctl lnet unconfigure
	[ "$status" -eq 0 ]
	run lnetctl net show
	[ "$status" -eq 1 ]
	[[ "$output" == "lnetctl net show: "* ]]
	run lnetctl lnet configure extra
	[ "$status" -eq 2 ]
}

@test "shell: commands from a pipe, blank lines, comments and quotes" {
	run --separate-stderr lnetctl <<-'EOF'
	# set up one net and a rule
	net add --net tcp --if veth0

	policy add --src "tcp" --priority '3'
	policy show
	EOF
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	yaml_is "udsp:
- idx: 0
  src: tcp
  action:
    priority: 3"
	run lnetctl net show --net tcp
	[ "$(yaml_get "d['net'][0]['local NI(s)'][0]['nid']")" = "10.11.0.1@tcp" ]
}

@test "shell: the first failing line stops the script with its status and <stdin>:LINE" {
	run --separate-stderr lnetctl <<-'EOF'
	net add --net tcp1 --if veth1
	net add --net tcp --if nosuch0
	net add --net tcp2 --if veth1
	EOF
	[ "$status" -eq 1 ]
	[[ "$stderr" == "<stdin>:2: lnetctl net add: "*"nosuch0"* ]]
	run lnetctl net show
	[ "$(yaml_get "[n['net type'] for n in d['net']]")" = "['lo', 'tcp1']" ]
	run --separate-stderr lnetctl <<-'EOF'
	policy show
	policy add --src tcp --priority x
	policy add --src tcp --priority 1
	EOF
	[ "$status" -eq 2 ]
	[ "$stderr" = "<stdin>:2: lnetctl policy add: invalid --priority 'x': expected an integer 0-4294967294" ]
	run lnetctl policy show
	[ "$output" = "" ]
	run --separate-stderr lnetctl <<<'policy add --src "tcp'
	[ "$status" -eq 2 ]
	[ "$stderr" = "<stdin>:1: lnetctl: unterminated quote" ]
	run --separate-stderr lnetctl <<<'bogus'
	[ "$status" -eq 2 ]
	[[ "$stderr" == "<stdin>:1: lnetctl: unknown command 'bogus'"* ]]
}

@test "shell: a script redirected from a file reports FILE:LINE" {
	printf 'policy show\n# a comment\npolicy add --src tcp --priority x\n' >"$T/script"
	run --separate-stderr lnetctl <"$T/script"
	[ "$status" -eq 2 ]
	[ "$stderr" = "$T/script:3: lnetctl policy add: invalid --priority 'x': expected an integer 0-4294967294" ]
	run lnetctl policy show
	[ "$output" = "" ]
}

@test "shell: quit and exit end the script; help works" {
	run lnetctl <<-'EOF'
	help policy del
	quit
	policy add --src tcp --priority 1
	EOF
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "policy del: delete the rule at --idx (later rules move up) or --all rules" ]
	run lnetctl <<-'EOF'
	exit
	policy add --src tcp --priority 1
	EOF
	[ "$status" -eq 0 ]
	run lnetctl policy show
	[ "$output" = "" ]
	run lnetctl <<<'quit now'
	[ "$status" -eq 2 ]
	[ "$output" = "<stdin>:1: lnetctl: quit takes no argument" ]
}

@test "shell: each line starts fresh (no state carried from the previous command)" {
	run --separate-stderr lnetctl <<-'EOF'
	net show --net lo
	show
	EOF
	[ "$status" -eq 2 ]
	[[ "$stderr" == "<stdin>:2: lnetctl: unknown command 'show'"* ]]
}

@test "two lnetctl clients at once: adds in a loop while another shows" {
	lnetctl net add --net tcp --if veth0
	(
		for i in $(seq 1 40); do
			"$LNETCTL_BIN" peer add --prim_nid "10.12.0.$i@tcp" || exit 1
		done
	) &
	adder=$!
	for i in $(seq 1 40); do
		run lnetctl peer show
		[ "$status" -eq 0 ] || { echo "peer show: $output"; return 1; }
		printf '%s\n' "$output" >"$T/show.$i.yaml"
		run lnetctl net show --net tcp
		[ "$status" -eq 0 ] || { echo "net show: $output"; return 1; }
	done
	wait "$adder"
	# every show, taken while peers were being added, is whole YAML (one
	# python for all 40: under TCG its start-up costs seconds)
	python3 -c 'import sys, yaml
for f in sys.argv[1:]:
    yaml.safe_load(open(f))' "$T"/show.*.yaml
	run lnetctl peer list
	[ "$(yaml_get "len(d['peer list'])")" = 40 ]
	[ "$(yaml_get "d['peer list'][39]['nid']")" = "10.12.0.40@tcp" ]
}

# One net, one MR peer, a priority rule and a pair rule.
make_config() {
	lnetctl net add --net tcp --if veth0
	lnetctl peer add --prim_nid 10.11.0.100@tcp --nid 10.11.0.101@tcp
	lnetctl policy add --src tcp --priority 1
	lnetctl policy add --src 10.11.0.1@tcp --dst 10.11.0.100@tcp
}

@test "export FILE writes what export prints; export --backup re-imports to the same state" {
	make_config
	run lnetctl export
	[ "$status" -eq 0 ]
	full=$output
	lnetctl export "$T/full.yaml"
	[ "$(cat "$T/full.yaml")" = "$full" ]
	lnetctl export --backup "$T/backup.yaml"
	run lnetctl export -b -
	[ "$output" = "$(cat "$T/backup.yaml")" ]
	run lnetctl peer show -v 4
	peers=$output
	lnetctl lnet unconfigure
	lnetctl lnet configure
	lnetctl import <"$T/backup.yaml"
	run lnetctl export --backup
	[ "$output" = "$(cat "$T/backup.yaml")" ]
	run lnetctl peer show -v 4
	[ "$output" = "$peers" ]
	lnetctl import --del "$T/backup.yaml"
	run lnetctl policy show
	[ "$output" = "" ]
	run lnetctl peer show
	[ "$output" = "" ]
	lnetctl import - <"$T/backup.yaml"
	run lnetctl export --backup
	[ "$output" = "$(cat "$T/backup.yaml")" ]
}

# bats test_tags=parse-only
@test "import errors print FILE:LINE:COL: message, exit 1, change nothing" {
	make_config
	run lnetctl export --backup
	before=$output
	cat >"$T/bad.yaml" <<-'EOF'
	net:
	  - net type: tcp1
	    local NI(s):
	      - interfaces:
	          0: veth1
	udsp:
	  - src: tcp1
	    action:
	      priority: abc
	EOF
	run --separate-stderr lnetctl import "$T/bad.yaml"
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	[[ "$stderr" == "$T/bad.yaml:9:17: "*"priority 'abc'"* ]]
	run lnetctl export --backup
	[ "$output" = "$before" ]
	# valid, but the second NI cannot be created: the first is rolled back
	run --separate-stderr lnetctl import <<-'EOF'
	net:
	  - net type: tcp1
	    local NI(s):
	      - interfaces:
	          0: veth1
	  - net type: tcp2
	    local NI(s):
	      - interfaces:
	          0: nosuch0
	EOF
	[ "$status" -eq 1 ]
	[ "$stderr" = "<stdin>:8:9: interface 'nosuch0' does not exist" ]
	run lnetctl export --backup
	[ "$output" = "$before" ]
}

# bats test_tags=parse-only
@test "import and export: file and argument errors" {
	run lnetctl import "$T/nonexistent.yaml"
	[ "$status" -eq 1 ]
	[ "$output" = "lnetctl import: cannot open '$T/nonexistent.yaml': No such file or directory" ]
	run lnetctl import a.yaml b.yaml
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl import: unexpected argument 'b.yaml'" ]
	run lnetctl export "$T/nodir/x.yaml"
	[ "$status" -eq 1 ]
	[[ "$output" == "lnetctl export: cannot create '$T/nodir/x.yaml': No such file or directory" ]]
	run lnetctl export --del
	[ "$status" -eq 2 ]
	[ "$output" = "lnetctl export: unknown option '--del'" ]
}

@test "shell: import needs a FILE since stdin holds the commands" {
	lnetctl net add --net tcp --if veth0
	lnetctl export --backup "$T/backup.yaml"
	lnetctl net del --net tcp
	run --separate-stderr lnetctl <<-EOF
	import
	EOF
	[ "$status" -eq 2 ]
	[ "$stderr" = "<stdin>:1: lnetctl import: stdin holds the commands: import needs a FILE" ]
	run lnetctl <<-EOF
	import $T/backup.yaml
	net show --net tcp
	EOF
	[ "$status" -eq 0 ]
	[ "$(yaml_get "d['net'][0]['local NI(s)'][0]['nid']")" = "10.11.0.1@tcp" ]
}
