# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The test scripts' results, said one way: a line per assertion group,
# "PASS: GROUP: what", "FAIL: GROUP: what" with the reasons indented above
# it, or "SKIP: GROUP: what (why)".  scripts/run-tests counts these lines
# and a person reads them.  Set T_GROUP before the first result; end the
# script with t_status, its last command: non-zero if anything failed.
#
#   why+=("reason")   a reason the current group fails
#   verdict "what"    PASS if no reason was added since the last verdict

T_GROUP=${T_GROUP:-test}
t_nfail=0
why=()

pass() { echo "PASS: $T_GROUP: $1"; }
fail() {
	t_nfail=$((t_nfail + 1))
	echo "FAIL: $T_GROUP: $1"
}
skip() { echo "SKIP: $T_GROUP: $1"; }

verdict() {
	if [ ${#why[@]} -eq 0 ]; then
		pass "$1"
	else
		printf '  %s\n' "${why[@]}" | head -n 30
		fail "$1"
	fi
	why=()
}

# Milliseconds since the epoch, for the times a test bounds.
now_ms() { echo $(($(date +%s%N) / 1000000)); }

t_status() {
	[ "$t_nfail" -eq 0 ]
}
