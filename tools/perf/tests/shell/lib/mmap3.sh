#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What the MMAP3 shell tests share: a private directory and HOME, traps
# that name the command that failed, skips, and the closing verdict.
#
#	. "$(dirname "$0")"/lib/mmap3.sh
#	mmap3_test_init "MMAP3 records" mmap3-records
#	... subtests: err=1 on a failure, skipped NAME WHY when one cannot run
#	mmap3_test_end
#
# bg_pid names a background process cleanup() kills.

# shellcheck disable=SC2034 # err, skips and bg_pid are the caller's
mmap3_test_init() {	# NAME TMPNAME
	mmap3_test=$1
	err=0
	# subtests that could not run here: exit 2 (Skip) unless one failed
	skips=()
	# not /tmp/perf-*: perf reads DSOs there as JIT symbol maps
	tmp=$(mktemp -d "/tmp/$2.XXXXXX")
	bg_pid=
	# what perf records fills $tmp/home/.debug, not the user's
	export HOME=$tmp/home
	mkdir -p "$HOME"

	# set -e ends the script at a command that fails unexpectedly: say which
	errline=
	trap '[ -n "$errline" ] || errline=$LINENO' ERR
	trap 'trap_cleanup "the command at line ${errline:-?} failed"' EXIT
	trap 'trap_cleanup "interrupted"' TERM INT
}

cleanup() {
	[ -z "$bg_pid" ] || kill "$bg_pid" 2> /dev/null || true
	rm -rf "$tmp"
	trap - EXIT TERM INT
}

# shellcheck disable=SC2317 # called through the traps
trap_cleanup() {
	echo "$mmap3_test [Failed - $1]"
	cleanup
	exit 1
}

# The whole test cannot run here.
skip() {
	echo "$mmap3_test [Skipped $1]"
	cleanup
	exit 2
}

# A subtest that cannot run here.
skipped() {
	echo "$1 [Skipped $2]"
	skips+=("$1")
}

id_of() { readelf -n "$1" | awk '/Build ID/ {print $3}'; }

# Exit 1 if a subtest failed, 2 (Skip) if one could not run, else 0.
mmap3_test_end() {
	cleanup
	if [ "$err" != 0 ]; then
		exit 1
	fi
	if [ ${#skips[@]} -gt 0 ]; then
		printf -v list '%s; ' "${skips[@]}"
		echo "$mmap3_test [Skipped subtests: ${list%; }]"
		exit 2
	fi
	exit 0
}
