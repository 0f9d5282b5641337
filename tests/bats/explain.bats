#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# lnetctl policy explain NID: the core's own selection, traced. For each
# rule shape and for a routed destination, what the explanation says wins
# is where the next messages go (per-NI counters); it creates nothing and
# moves no round robin; bad input is refused clearly.
# lnetd only in make check: it passes on /dev/lnet (a trial run in the VM)
# but costs three minutes of TCG there; multinode.bats carries traffic there.
# bats file_tags=lnetd-only

load helpers
load topo

A0=10.21.0.1@tcp
A1=10.22.0.1@tcp
B0=10.21.0.2@tcp
B1=10.22.0.2@tcp
N=10

setup() {
	topo_init
}

teardown() {
	topo_test_teardown
}

# explain N ARGS...: node N's explanation as YAML in $output (status 0).
explain() {
	local n=$1
	shift
	run on "$n" lnetctl policy explain "$@" -y
	echo "$output"
	[ "$status" -eq 0 ]
	explain_valid
}

# explain_valid: $output validates against policy-explain.schema.yaml.
explain_valid() {
	printf '%s\n' "$output" >"$TD/explain.yaml"
	run /usr/bin/python3 "$TOPO_TOP/tests/tools/yaml-validate.py" \
		"$TOPO_TOP/yaml-schemas/policy-explain.schema.yaml" "$TD/explain.yaml"
	[ "$output" = "$TD/explain.yaml: ok" ] || { echo "$output"; return 1; }
	output=$(cat "$TD/explain.yaml")
}

# chosen KEY: the chosen local NI / peer NI / gateway of $output.
chosen() {
	yaml_get "d['explain']['chosen']['$1']"
}

# results STEP: "NAME=RESULT; ..." of the candidates of the first step STEP.
results() {
	yaml_get "'; '.join('%s=%s' % (c.get('nid') or c.get('gateway') or c.get('net'), c['result']) for c in [s for s in d['explain']['steps'] if s['step'] == '$1'][0]['candidates'])"
}

# PUTs forwarded by R1 and by R2 of topo_routed, onto tcp1
puts_via() {
	echo "$(ni_count 2 sent_stats.put 10.42.0.2@tcp1) $(ni_count 3 sent_stats.put 10.42.0.3@tcp1)"
}

put_n() {
	run on 1 lnetctl selftest put "$@" --count $N --size 4096
	echo "$output"
	[ "$status" -eq 0 ]
	st_is put "$1" 4096 $N $N 0 0
}

@test "explain: a peer NI priority rule: B1 wins on peer NI priority, and the next PUTs all go to B1" {
	topo_2x2 mr
	on 1 lnetctl discover $B0
	on 1 lnetctl policy add --dst $B1 --priority 0
	explain 1 $B0
	[ "$(yaml_get "d['explain']['path']")" = direct ]
	[ "$(yaml_get "d['explain']['peer']")" = $B0 ]
	[ "$(yaml_get "d['explain']['Multi-Rail']")" = True ]
	[ "$(chosen 'peer NI')" = $B1 ]
	[ "$(results 'peer NI')" = "$B0=lost to $B1 on peer NI priority; $B1=chosen" ]
	moves "0 $N" "peer_ni_count 1 send_count $B0 $B1" -- put_n $B0
}

@test "explain: an NI priority rule: A1 wins on NI priority, and the next PUTs all leave by A1" {
	topo_2x2 mr
	on 1 lnetctl discover $B0
	on 1 lnetctl policy add --src $A1 --priority 0
	explain 1 $B0
	[ "$(chosen 'local NI')" = $A1 ]
	[ "$(results 'local NI')" = "$A0=lost to $A1 on NI priority; $A1=chosen" ]
	moves "0 $N" "ni_count 1 send_count $A0 $A1" -- put_n $B0
}

@test "explain: a net priority rule: tcp1 wins on peer net priority, and the next PUTs take tcp1" {
	topo_2x2 nets
	on 1 lnetctl discover $B0
	on 1 lnetctl policy add --dst tcp1 --priority 0
	explain 1 $B0
	[ "$(results 'local net')" = "tcp=lost to tcp1 (peer net tcp1) on peer net priority; tcp1=chosen" ]
	[ "$(chosen 'local NI')" = 10.22.0.1@tcp1 ]
	[ "$(chosen 'peer NI')" = 10.22.0.2@tcp1 ]
	moves "0 $N" "ni_count 1 send_count $A0 10.22.0.1@tcp1" -- put_n $B0
}

@test "explain: a preferred source rule: from A1, B1 prefers it and wins on it; the PUTs go A1 -> B1" {
	topo_2x2 mr
	on 1 lnetctl discover $B0
	on 1 lnetctl policy add --src $A1 --dst $B1
	explain 1 $B0 --source $A1
	[ "$(yaml_get "d['explain']['source']")" = $A1 ]
	[ "$(results 'peer NI')" = "$B0=lost to $B1 on preferred source NI; $B1=chosen" ]
	[ "$(yaml_get "[c['prefers the NI'] for c in d['explain']['steps'][-1]['candidates']]")" = "[False, True]" ]
	moves "0 $N" "peer_ni_count 1 send_count $B0 $B1" -- put_n $B0 --source $A1
}

@test "explain: explaining moves no round robin and makes no peer: two explanations agree, and an unknown NID leaves no peer behind" {
	topo_2x2 mr
	on 1 lnetctl discover $B0
	explain 1 $B0
	first=$output
	explain 1 $B0
	[ "$output" = "$first" ]
	# the next PUT goes where it said
	local ni lpni
	ni=$(chosen 'local NI')
	lpni=$(chosen 'peer NI')
	moves "1" "ni_count 1 send_count $ni" "1" "peer_ni_count 1 send_count $lpni" -- \
		run on 1 lnetctl selftest put $B0 --count 1 --size 0
	# a NID no peer has: the explanation makes the peer a send would, then drops it
	explain 1 10.21.0.9@tcp
	[ "$(yaml_get "d['explain']['peer']")" = "none: a send makes it" ]
	[ "$(yaml_get "d['explain']['discovery first']")" = True ]
	[ "$(chosen 'peer NI')" = 10.21.0.9@tcp ]
	run on 1 lnetctl peer show
	[ "$(yaml_get "[p['primary nid'] for p in d['peer']]")" = "['$B0']" ]
	# ourselves: lolnd
	explain 1 0@lo
	[ "$(yaml_get "d['explain']['path']")" = local ]
	[ "$(chosen 'local NI')" = 0@lo ]
}

@test "explain: routed: the router rule's gateway wins on preferred router, the other shows why; the next PUTs go through it" {
	A=10.41.0.1@tcp
	R1A=10.41.0.2@tcp
	R2A=10.41.0.3@tcp
	B=10.42.0.4@tcp1
	topo_routed
	wait_routed
	on 1 lnetctl discover $B >/dev/null
	on 1 lnetctl policy add --dst $B --rte $R2A
	explain 1 $B
	[ "$(yaml_get "d['explain']['path']")" = routed ]
	[ "$(chosen gateway)" = $R2A ]
	[ "$(chosen 'peer NI')" = $B ]
	[ "$(results route)" = "$R1A=lost to $R2A on preferred router; $R2A=chosen" ]
	# each route's candidate carries the path to its gateway
	[ "$(yaml_get "[c['path to the gateway'][-1]['candidates'][0]['nid'] for c in [s for s in d['explain']['steps'] if s['step'] == 'route'][0]['candidates']]")" = "['$R1A', '$R2A']" ]
	moves "0 $N" puts_via -- put_n $B
	# R2's route down: it is out for that reason, R1 is chosen
	on 3 lnetctl set routing 0
	wait_route_state 1 tcp1 $R2A down
	explain 1 $B
	[ "$(chosen gateway)" = $R1A ]
	[ "$(results route)" = "$R1A=chosen; $R2A=route down or its gateway unreachable" ]
}

@test "explain: the text form, and bad input: a missing or malformed NID, a source that is not ours" {
	topo_2x1
	run on 1 lnetctl policy explain $B0
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "send to $B0 from any NI: path direct" ]
	[ "${lines[1]}" = "peer: none yet (a send makes it); a send discovers it first" ]
	[ "${lines[-1]}" = "chosen: from $A0 to $B0" ]
	run on 1 lnetctl policy explain
	[ "$status" -ne 0 ]
	[[ "$output" == *"NID"* ]]
	run on 1 lnetctl policy explain 10.21.0.300@tcp
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"'10.21.0.300@tcp'"* ]]
	run on 1 lnetctl policy explain $B0 --source 10.1.1.1@tcp
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "lnetctl policy explain: cannot explain a send to $B0: --source 10.1.1.1@tcp is not a NID of this node" ]
}
