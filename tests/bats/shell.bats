#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The interactive shell as a person uses it: the real lnetctl on a terminal
# (a private tmux server), keys typed with send-keys, the screen read with
# capture-pane, every wait a poll with a timeout. Then the script mode
# (commands from a pipe).

load helpers
# The shell's line editing, completion, history and keys are lnetctl's;
# each command it runs makes the calls the command line makes, which the
# other suites check on /dev/lnet. So its tests run on lnetd only (under
# TCG their tmux polling took five minutes). Ctrl-C during a ping too: the
# module's wait ends on SIGINT (os_cond_wait_intr), but until lnet.ko has
# the socket LND its tcp pings fail at once, so nothing waits to be cut.

bats_require_minimum_version 1.5.0

setup() {
	lnet_setup
	lnetctl lnet configure
	TM=(tmux -S "$T/tmux.sock")
}

teardown() {
	"${TM[@]}" kill-server 2>/dev/null || true
	lnet_teardown
}

# shell_start [VAR=VALUE...]: lnetctl's shell in a 200x50 terminal, HOME=$T,
# cwd $T; "[exit N]" stays on the screen when it ends. Waits for the prompt.
shell_start() {
	"${TM[@]}" kill-session -t sh 2>/dev/null || true
	"${TM[@]}" new-session -d -x 200 -y 50 -s sh -c "$T" \
		"env HOME=$T ${LNET_SOCKET:+LNET_SOCKET=$LNET_SOCKET} $* $LNETCTL_BIN;"' echo "[exit $?]"; sleep 600'
	wait_screen 'lnetctl> '
}

# screen: what the terminal shows, scrollback included, trailing blank lines cut.
screen() {
	"${TM[@]}" capture-pane -p -J -S - -t sh | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# wait_screen PATTERN: poll (up to 10 s) until the screen holds a line
# matching the bash glob PATTERN (trailing blanks, such as readline's
# padding of a list, may be left out); print the screen when it never does.
wait_screen() {
	local line

	for _ in $(seq 200); do
		while IFS= read -r line; do
			# shellcheck disable=SC2053
			[[ $line == $1 || ${line%"${line##*[! ]}"} == $1 ]] && return 0
		done < <(screen)
		sleep 0.05
	done
	echo "no line matching '$1' on the screen:"
	screen
	return 1
}

# keys KEY...: tmux key names (Tab, Enter, Up, C-d); text TEXT: literal text.
keys() {
	"${TM[@]}" send-keys -t sh "$@"
}

text() {
	"${TM[@]}" send-keys -t sh -l -- "$1"
}

# fresh: an empty screen and scrollback with the prompt on the first line.
fresh() {
	keys C-e C-u C-l
	for _ in $(seq 200); do
		"${TM[@]}" clear-history -t sh
		[ "$(screen)" = "lnetctl> " ] || [ "$(screen)" = "lnetctl>" ] && return 0
		sleep 0.05
	done
	echo "the screen was not cleared:"
	screen
	return 1
}

# cmd LINE: type LINE and Enter on a fresh screen, wait for the next
# prompt; $out = what the command printed (between the two prompts).
cmd() {
	fresh
	text "$1"
	keys Enter
	for _ in $(seq 200); do
		[ "$(screen | grep -c '^lnetctl>')" -ge 2 ] && break
		sleep 0.05
	done
	[ "$(screen | grep -c '^lnetctl>')" -eq 2 ]
	[ "$(screen | head -n 1)" = "lnetctl> $1" ]
	out=$(screen | sed -e 1d -e '$d')
}

# complete TEXT KEY...: type TEXT on a fresh screen, then the KEYs (Tab...).
complete() {
	fresh
	text "$1"
	shift
	keys "$@"
}

# bats test_tags=lnetd-only
@test "shell: the prompt; lnet configure, net show, policy show, route show in one session" {
	lnetctl lnet unconfigure
	shell_start
	[ "$(screen)" = "lnetctl> " ] || [ "$(screen)" = "lnetctl>" ]
	cmd "lnet configure"
	[ "$out" = "" ]
	cmd "net show"
	output=$out
	yaml_is "net:
- net type: lo
  local NI(s):
  - nid: 0@lo
    status: up"
	cmd "policy add --src tcp --priority 3"
	[ "$out" = "" ]
	cmd "policy show"
	output=$out
	yaml_is "udsp:
- idx: 0
  src: tcp
  action:
    priority: 3"
	# Lustre's shell loses its place after a two-level command: each line starts at the root
	cmd "route show"
	[ "$out" = "" ]
	cmd "show"
	[[ "$out" == "lnetctl: unknown command 'show': expected one of lnet, net, "* ]]
	cmd "net show --net lo"
	[[ "$out" == "net:"* ]]
}

# bats test_tags=lnetd-only
@test "shell: a failing command prints its error and the shell goes on" {
	shell_start
	cmd "bogus"
	[[ "$out" == "lnetctl: unknown command 'bogus': expected one of "* ]]
	cmd "net add --net tcp --if nosuch0"
	[[ "$out" == "lnetctl net add: "*"nosuch0"* ]]
	cmd "policy add --src tcp --priority x"
	[ "$out" = "lnetctl policy add: invalid --priority 'x': expected an integer 0-4294967294" ]
	cmd "policy add --src \"tcp"
	[ "$out" = "lnetctl: unterminated quote" ]
	cmd "net add --net tcp --if 'veth0'"
	[ "$out" = "" ]
	cmd "net show --net \"tcp\""
	output=$out
	[ "$(yaml_get "d['net'][0]['local NI(s)'][0]['nid']")" = "10.11.0.1@tcp" ]
}

# bats test_tags=lnetd-only
@test "shell: help, help COMMAND SUBCOMMAND" {
	shell_start
	cmd "help"
	[[ "$out" == "usage: lnetctl [--socket PATH] COMMAND [SUBCOMMAND] [OPTIONS] [ARGS]"* ]]
	[[ "$out" == *$'\n'"In the shell: 'quit', 'exit' or Ctrl-D leaves; Tab completes commands, options,"* ]]
	cmd "help policy add"
	[ "$(head -n 1 <<<"$out")" = "policy add: add a rule (the same descriptors with a new priority update it in place)" ]
	# (the terminal shows the tab as blanks)
	[[ "$out" == *$'\n'" "*"--priority: 0-4294967294, 0 highest"* ]]
	cmd "policy del --help"
	[ "$(head -n 1 <<<"$out")" = "policy del: delete the rule at --idx (later rules move up) or --all rules" ]
	cmd "help nosuch"
	[ "$out" = "lnetctl help: unknown command 'nosuch'" ]
}

# bats test_tags=lnetd-only
@test "shell: Tab completes commands, sub-commands, options, the shell's words and help's words" {
	shell_start
	complete "po" Tab
	wait_screen "lnetctl> policy "
	keys Tab Tab
	wait_screen "add *del *show"
	complete "policy d" Tab
	wait_screen "lnetctl> policy del "
	complete "policy add --pr" Tab
	wait_screen "lnetctl> policy add --priority "
	# each option once: --src is given already
	complete "policy add --src tcp --" Tab Tab
	wait_screen "--dst *--help *--idx *--priority *--rte"
	complete "qu" Tab
	wait_screen "lnetctl> quit "
	complete "help pol" Tab
	wait_screen "lnetctl> help policy "
	complete "help policy a" Tab
	wait_screen "lnetctl> help policy add "
	# nothing for a word that names no command
	complete "nosuch sh" Tab
	text "X"
	wait_screen "lnetctl> nosuch shX"
	# the FILE of import: file names
	touch "$T/conf.yaml"
	complete "import con" Tab
	wait_screen "lnetctl> import conf.yaml "
	# the completed line runs
	complete "net sh" Tab
	wait_screen "lnetctl> net show "
	keys Enter
	wait_screen "- *net type: lo"
}

# bats test_tags=lnetd-only
@test "shell: Tab completes live nets, NIDs and rule indexes" {
	lnetctl net add --net tcp --if veth0
	lnetctl net add --net tcp1 --if veth1
	lnetctl policy add --src tcp --priority 1
	lnetctl policy add --dst tcp1 --priority 2
	shell_start
	complete "net show --net " Tab Tab
	wait_screen "tcp *tcp1"
	complete "policy del --idx " Tab Tab
	wait_screen "0 *1"
	complete "policy add --src 10.11.0.2" Tab
	wait_screen "lnetctl> policy add --src 10.11.0.2@tcp1 "
	# --opt=value and an abbreviated option
	complete "net show --ne=tcp" Tab Tab
	wait_screen "--ne=tcp *--ne=tcp1"
	complete "peer show --nid=10.11.0.1" Tab
	wait_screen "lnetctl> peer show --nid=10.11.0.1@tcp "
	# in the middle of a line: the words before the cursor count
	complete " --priority 5" Home
	text "policy add --dst 10.11.0.1"
	keys Tab
	wait_screen "lnetctl> policy add --dst 10.11.0.1@tcp --priority 5"
	# a rule added in the session is offered at once
	cmd "policy add --src tcp1 --priority 3"
	[ "$out" = "" ]
	complete "policy del --idx " Tab Tab
	wait_screen "0 *1 *2"
}

# tab_list LINE: type LINE on a fresh screen, then Tab; $listed = what
# readline lists (sorted, one space between), or the one word it filled in.
tab_list() {
	local n
	fresh
	text "$1"
	wait_screen "lnetctl> $1"
	keys Tab
	for _ in $(seq 200); do
		n=$(screen | grep -c '^lnetctl>')
		[ "$n" -ge 2 ] && break
		# one candidate: filled in, with the blank after it
		[[ "$(screen | head -n 1)" == "lnetctl> $1"?*" " ]] && break
		sleep 0.05
	done
	if [ "$n" -ge 2 ]; then
		listed=$(screen | sed -e 1d -e '$d' | tr -s ' ' '\n' | sed '/^$/d' | LC_ALL=C sort | paste -sd ' ')
	else
		listed=$(screen | head -n 1 | sed 's/ *$//')
		listed=${listed##* }
	fi
}

# bats test_tags=lnetd-only
@test "shell: Tab after -- lists every option of every leaf, as __complete options does" {
	local leaf want
	shell_start
	while read -r leaf; do
		want=$(lnetctl __complete options $leaf | LC_ALL=C sort | paste -sd ' ')
		tab_list "$leaf --"
		[ "$listed" = "$want" ] || { echo "$leaf: shell '$listed', options '$want'"; return 1; }
	done < <(lnetctl __complete tree | grep -v -- ' --')
}

# bats test_tags=lnetd-only
@test "shell: aliases, option prefixes, and unique prefixes of command words (as Lustre's shell)" {
	lnetctl net add --net tcp --if veth0
	shell_start
	complete "route add --hop-" Tab
	wait_screen "lnetctl> route add --hop-count "
	complete "udsp sh" Tab
	wait_screen "lnetctl> udsp show "
	complete "peer show --ni 10.11" Tab
	wait_screen "lnetctl> peer show --ni 10.11.0.1@tcp "
	# a unique prefix of a command word is that word, Tab below it too
	complete "pol sh --i" Tab
	wait_screen "lnetctl> pol sh --idx "
	cmd "po sh"
	[ "$out" = "" ]
	cmd "ro show"
	[ "$out" = "lnetctl: ambiguous command 'ro': could be route, routing" ]
	cmd "net s"
	[ "$out" = "lnetctl net: ambiguous command 's': could be show, set" ]
	cmd "pox sh"
	[[ "$out" == "lnetctl: unknown command 'pox': expected one of lnet, net, peer, policy, udsp, "* ]]
	cmd "udsp add --dst tcp --prio 3"
	[ "$out" = "" ]
	cmd "udsp show"
	output=$out
	[ "$(yaml_get "[(r['dst'], r['action']['priority']) for r in d['udsp']]")" = "[('tcp', 3)]" ]
	cmd "net add --net tcp1 --if veth1 --peer 8"
	[ "$out" = "lnetctl net add: ambiguous option '--peer': could be --peer-timeout, --peer-credits, --peer-buffer-credits" ]
}

# bats test_tags=lnetd-only
@test "shell: history is saved in ~/.lnetctl_history (0600) and recalled with Up" {
	shell_start
	cmd "net show --net lo"
	cmd "policy show"
	fresh
	text "quit"
	keys Enter
	wait_screen "[[]exit 0]"
	[ "$(cat "$T/.lnetctl_history")" = $'net show --net lo\npolicy show\nquit' ]
	[ "$(stat -c %a "$T/.lnetctl_history")" = 600 ]
	shell_start
	keys Up Up
	wait_screen "lnetctl> policy show"
	keys Up
	wait_screen "lnetctl> net show --net lo"
	keys Enter
	wait_screen "- *net type: lo"
}

# bats test_tags=lnetd-only
@test "shell: LNETCTL_HISTORY names the history file; empty keeps none; 1000 lines kept" {
	seq 1 1005 | sed 's/^/net show --net lo # /' >"$T/hist"
	chmod 644 "$T/hist"
	shell_start LNETCTL_HISTORY="$T/hist"
	keys Up
	wait_screen "lnetctl> net show --net lo # 1005"
	keys C-u
	text "exit"
	keys Enter
	wait_screen "[[]exit 0]"
	[ ! -e "$T/.lnetctl_history" ]
	[ "$(wc -l <"$T/hist")" -eq 1000 ]
	[ "$(head -n 1 "$T/hist")" = "net show --net lo # 7" ]
	[ "$(tail -n 1 "$T/hist")" = "exit" ]
	[ "$(stat -c %a "$T/hist")" = 600 ]
	shell_start LNETCTL_HISTORY=
	cmd "net show --net lo"
	fresh
	keys C-d
	wait_screen "[[]exit 0]"
	[ ! -e "$T/.lnetctl_history" ]
}

# bats test_tags=lnetd-only
@test "shell: Ctrl-D leaves with status 0 and saves the history" {
	shell_start
	cmd "bogus"
	fresh
	keys C-d
	wait_screen "[[]exit 0]"
	[ "$(cat "$T/.lnetctl_history")" = "bogus" ]
}

# bats test_tags=lnetd-only
@test "shell: Ctrl-C drops the line being typed and gives a new prompt" {
	shell_start
	fresh
	text "policy del --all"
	keys C-c
	text "net show --net lo"
	keys Enter
	wait_screen "- *net type: lo"
	[ "$(screen | head -n 2)" = $'lnetctl> policy del --all\nlnetctl> net show --net lo' ]
	[ "$(screen | tail -n 1)" = "lnetctl> " ]
	keys C-d
	wait_screen "[[]exit 0]"
	[ "$(cat "$T/.lnetctl_history")" = "net show --net lo" ]
}

# bats test_tags=lnetd-only
@test "shell: Ctrl-C interrupts a running ping, not the shell" {
	lnetctl net add --net tcp --if veth0
	shell_start
	fresh
	text "ping --timeout 60 10.11.0.9@tcp"
	keys Enter
	sleep 1
	# still waiting for the reply: no new prompt yet
	[ "$(screen | grep -c '^lnetctl>')" -eq 1 ]
	local t0=$SECONDS
	keys C-c
	wait_screen "*lnetctl ping: failed to ping 10.11.0.9@tcp: interrupted"
	wait_screen "lnetctl> "
	[ $((SECONDS - t0)) -le 5 ]
	cmd "net show --net lo"
	[[ "$out" == "net:"* ]]
	keys C-d
	wait_screen "[[]exit 0]"
}

# bats test_tags=lnetd-only
@test "script: unique prefixes of command words as in the shell; on the command line exact words only" {
	run --separate-stderr lnetctl < <(printf 'ne sh --net lo\nro show\n')
	[ "$status" -eq 2 ]
	[[ "$output" == "net:"* ]]
	[ "$stderr" = "<stdin>:2: lnetctl: ambiguous command 'ro': could be route, routing" ]
	run --separate-stderr lnetctl ne sh
	[ "$status" -eq 2 ]
	[[ "$stderr" == "lnetctl: unknown command 'ne': expected one of "* ]]
}

# bats test_tags=lnetd-only
@test "script: the first failing line stops lnetctl with its status and <stdin>:LINE" {
	run --separate-stderr lnetctl < <(printf 'lnet configure\nbogus\nnet show\n')
	[ "$status" -eq 2 ]
	[ "$output" = "" ]
	[[ "$stderr" == "<stdin>:2: lnetctl: unknown command 'bogus': expected one of "* ]]
	run --separate-stderr lnetctl < <(printf '# a comment\n\n   \n  # indented\nnet show --net lo # trailing\nnet add --net tcp --if nosuch0\n')
	[ "$status" -eq 1 ]
	[[ "$output" == "net:"* ]]
	[[ "$stderr" == "<stdin>:6: lnetctl net add: "*"nosuch0"* ]]
	# a script keeps no history
	HOME=$T run --separate-stderr lnetctl < <(printf '# only comments\n\nnet show --net lo\n')
	[ "$status" -eq 0 ]
	[[ "$output" == "net:"* ]]
	[ "$stderr" = "" ]
	[ ! -e "$T/.lnetctl_history" ]
}
