# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The test scripts' results, said one way: a line per assertion group,
# "PASS: GROUP: what", "FAIL: GROUP: what" with the reasons indented above
# it, or "SKIP: GROUP: what (why)".  scripts/run-tests counts these lines
# and a person reads them.  Set T_GROUP before the first result (empty:
# "PASS: what", no group); end the script with t_status, its last command:
# non-zero if anything failed.
#
#   pass "what", fail "what", skip "what (why)"
#                     one result line, counted
#   why+=("reason")   a reason the current group fails
#   verdict "what"    PASS if no reason was added since the last verdict;
#                     T_BEFORE_VERDICT, if set, is a command run first (it
#                     may add reasons: sanitizer reports, say)
#   t_count P F WHAT  P passes and F failures counted elsewhere, no line;
#                     "WHAT" listed among the failures if F > 0
#   t_summary         a blank line, "Failures:" and the failures, if any,
#                     then "N passed, N failed, N skipped"
#   t_status          true if nothing failed
#   now_ms            milliseconds since the epoch, for the times a test
#                     bounds
#
# The counters, t_npass, t_nfail, t_nskip, and t_failures (each failure's
# "GROUP: what") are the script's to read.

T_GROUP=${T_GROUP-test}
T_BEFORE_VERDICT=
t_npass=0
t_nfail=0
t_nskip=0
t_failures=()
why=()

pass() {
	t_npass=$((t_npass + 1))
	echo "PASS: ${T_GROUP:+$T_GROUP: }$1"
}
fail() {
	t_nfail=$((t_nfail + 1))
	t_failures+=("${T_GROUP:+$T_GROUP: }$1")
	echo "FAIL: ${T_GROUP:+$T_GROUP: }$1"
}
skip() {
	t_nskip=$((t_nskip + 1))
	echo "SKIP: ${T_GROUP:+$T_GROUP: }$1"
}

verdict() {
	if [ -n "$T_BEFORE_VERDICT" ]; then
		"$T_BEFORE_VERDICT"
	fi
	if [ ${#why[@]} -eq 0 ]; then
		pass "$1"
	else
		printf '  %s\n' "${why[@]}" | head -n 30
		fail "$1"
	fi
	why=()
}

t_count() {
	t_npass=$((t_npass + $1))
	t_nfail=$((t_nfail + $2))
	[ "$2" -eq 0 ] || t_failures+=("${T_GROUP:+$T_GROUP: }$3")
}

t_summary() {
	echo
	if [ "$t_nfail" -gt 0 ]; then
		echo "Failures:"
		printf '  %s\n' "${t_failures[@]}"
	fi
	echo "$t_npass passed, $t_nfail failed, $t_nskip skipped"
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

t_status() {
	[ "$t_nfail" -eq 0 ]
}
