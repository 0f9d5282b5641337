#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-only
# The man pages, the bash completion and the command tables agree: every
# page is mandoc-lint clean and has its sections; every option of every
# command (from `lnetctl __complete tree`, i.e. the tables) is in its
# object's page and offered by the completion; every command is in
# lnetctl.8; every cross reference resolves; the lnet.yaml(5) example
# imports.

load helpers

MAN=$TOP/man

# Only the last test starts an lnetd.
teardown() {
	if [ -n "${NS:-}" ]; then
		lnet_teardown
	fi
}

# The page that documents top-level command $1.
page_of() {
	case $1 in
	udsp) echo "$MAN/lnetctl-policy.8" ;;
	routing|global) echo "$MAN/lnetctl-set.8" ;;
	export) echo "$MAN/lnetctl-import.8" ;;
	discover) echo "$MAN/lnetctl-ping.8" ;;
	help) echo "$MAN/lnetctl.8" ;;
	*) echo "$MAN/lnetctl-$1.8" ;;
	esac
}

# The page as text, one long line per paragraph line, no overstrike.
render() {
	mandoc -T ascii -O width=500 "$1" | col -bx
}

# has_word TEXT WORD: WORD stands alone in TEXT (--net is not --network).
has_word() {
	grep -qE -- "(^|[^-[:alnum:]_])$2([^-[:alnum:]_]|$)" <<<"$1"
}

# The names of the top-level sections of page $1.
sections_of() {
	render "$1" | sed -n 's/^\([A-Z][A-Z ]*[A-Z]\)$/\1/p'
}

# Candidates of _lnetctl for the line "lnetctl $*", one per line.
completions() {
	COMP_WORDS=(lnetctl "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	unset COMP_LINE COMP_POINT
	COMPREPLY=()
	_lnetctl
	printf '%s\n' "${COMPREPLY[@]}"
}

# bats test_tags=parse-only
@test "every man page: mandoc -T lint -W warning prints nothing" {
	local pages=("$MAN"/*.[0-9])
	[ "${#pages[@]}" -ge 11 ]
	for p in "${pages[@]}"; do
		run mandoc -T lint -W warning "$p"
		echo "$p: $output"
		[ "$status" -eq 0 ]
		[ "$output" = "" ]
	done
}

# bats test_tags=parse-only
@test "every section 8 page has NAME SYNOPSIS DESCRIPTION OPTIONS EXIT STATUS EXAMPLES SEE ALSO" {
	local want="NAME SYNOPSIS DESCRIPTION OPTIONS EXIT STATUS EXAMPLES SEE ALSO"
	for p in "$MAN"/*.8; do
		got=$(sections_of "$p" | grep -xE 'NAME|SYNOPSIS|DESCRIPTION|OPTIONS|EXIT STATUS|EXAMPLES|SEE ALSO' |
		      paste -sd ' ')
		echo "$p: $got"
		[ "$got" = "$want" ]
	done
	got=$(sections_of "$MAN/lnet.yaml.5" | paste -sd ' ')
	[ "$got" = "NAME DESCRIPTION EXAMPLES SEE ALSO" ]
}

# bats test_tags=parse-only
@test "every option of every command is in its object's man page" {
	local line cmd opt text missing=
	while read -r line; do
		opt=${line##* }
		[[ $opt == --* ]] || continue
		cmd=${line%% *}
		text=$(render "$(page_of "$cmd")")
		has_word "$text" "$opt" || missing+=" [$line]"
	done < <(lnetctl __complete tree)
	echo "missing from the man pages:$missing"
	[ -z "$missing" ]
}

# bats test_tags=parse-only
@test "every option of every command is offered by the completion" {
	local line words opt missing=
	source "$TOP/completions/lnetctl"
	while read -r line; do
		opt=${line##* }
		[[ $opt == --* ]] || continue
		read -ra words <<<"${line% *}"
		completions "${words[@]}" -- | grep -qxF -- "$opt" || missing+=" [$line]"
	done < <(lnetctl __complete tree)
	echo "not completed:$missing"
	[ -z "$missing" ]
}

# bats test_tags=parse-only
@test "the tree lists the options of the tables (a sample), and no hidden command" {
	run lnetctl __complete tree
	[ "$status" -eq 0 ]
	grep -qxF "net add --peer-buffer-credits" <<<"$output"
	grep -qxF "policy del --all" <<<"$output"
	grep -qxF "udsp add --rte" <<<"$output"
	grep -qxF "route add --gateway" <<<"$output"
	grep -qxF "lnet configure" <<<"$output"
	! grep -q "__complete" <<<"$output"
}

# bats test_tags=parse-only
@test "every command is in lnetctl.8, every sub-command in its object's page" {
	local cmd line text main missing=
	main=$(render "$MAN/lnetctl.8" | sed -n '/^COMMANDS$/,/^[A-Z]/p')
	for cmd in $(lnetctl __complete commands); do
		has_word "$main" "$cmd" || missing+=" [lnetctl.8: $cmd]"
	done
	while read -r line; do
		[[ $line == *--* || $line != *" "* ]] && continue
		text=$(render "$(page_of "${line%% *}")")
		has_word "$text" "${line#* }" || missing+=" [$line]"
	done < <(lnetctl __complete tree)
	echo "missing:$missing"
	[ -z "$missing" ]
}

# bats test_tags=parse-only
@test "every cross reference names a page of man/, every page is in lnetctl.8" {
	local ref missing=
	for ref in $(cat "$MAN"/*.[0-9] | sed -n 's/^\.Xr \([^ ]*\) \([0-9]\).*/\1.\2/p' | sort -u); do
		[ -f "$MAN/$ref" ] || missing+=" $ref"
	done
	for p in "$MAN"/*.[0-9]; do
		ref=$(basename "$p")
		[ "$ref" = lnetctl.8 ] && continue
		grep -qx "\.Xr ${ref%.*} ${ref##*.}.*" "$MAN/lnetctl.8" || missing+=" lnetctl.8:$ref"
	done
	echo "missing:$missing"
	[ -z "$missing" ]
}

@test "the example of lnet.yaml(5) imports, and export --backup gives it back" {
	lnet_setup
	render "$MAN/lnet.yaml.5" | awk '/^EXAMPLES$/ { f = 1; next } /^SEE ALSO$/ { f = 0 } f' |
		sed -e '/^$/d' -e 's/^          //' -e 's/eth0/veth0/' >"$T/example.yaml"
	lnetctl lnet configure
	run lnetctl import "$T/example.yaml"
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	lnetctl export --backup >"$T/backup.yaml"
	python3 - "$T/example.yaml" "$T/backup.yaml" <<'PY'
import sys, yaml
want = yaml.safe_load(open(sys.argv[1]))
got = yaml.safe_load(open(sys.argv[2]))
# what the file said is what runs: every key given has the value given
assert got['global'] == {**got['global'], **want['global']}, got['global']
assert got['buffers']['small'] == want['buffers']['small']
assert [r['gateway'] for r in got['route']] == ['10.0.0.250@tcp', '10.0.0.251@tcp']
assert [p['primary nid'] for p in got['peer']][0] == '10.0.0.10@tcp'
assert [{k: v for k, v in u.items() if k != 'idx'} for u in got['udsp']] == want['udsp']
assert got['net'][0]['local NI(s)'][0]['tunables']['peer_credits'] == 16
PY
}
