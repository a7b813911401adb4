#!/bin/bash
# MMAP3 records: replaced binaries, conversion, running tasks, damaged files
# SPDX-License-Identifier: GPL-2.0

set -e

err=0
# not /tmp/perf-*: perf reads DSOs there as JIT symbol maps
tmp=$(mktemp -d /tmp/mmap3-records.XXXXXX)
pid=
# records without -B fill $tmp/home/.debug, not the user's
export HOME=$tmp/home
mkdir -p "$HOME"

cleanup() {
	[ -n "$pid" ] && kill "$pid" 2> /dev/null
	rm -rf "$tmp"
	trap - EXIT TERM INT
}

# shellcheck disable=SC2317 # called through the trap
trap_cleanup() {
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

skip() {
	echo "MMAP3 records [Skipped $1]"
	cleanup
	exit 2
}

command -v cc > /dev/null || skip "no cc"
command -v readelf > /dev/null || skip "no readelf"

# One program built twice: other function names, other build ids.
cat > "$tmp/prog.c" <<'C'
#include <stdlib.h>
#include <time.h>
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
__attribute__((noinline)) void FN(double secs)
{
	double end = now() + secs;
	volatile unsigned long n = 0;
	int i;

	while (now() < end)
		for (i = 0; i < 1000000; i++)
			n++;
}
int main(int argc, char **argv)
{
	FN(argc > 1 ? atof(argv[1]) : 0.3);
	return 0;
}
C
cc -O1 -DFN=alpha_spin -Wl,--build-id=sha1 -o "$tmp/v1" "$tmp/prog.c"
cc -O1 -DFN=beta_spin -Wl,--build-id=md5 -o "$tmp/v2" "$tmp/prog.c"
id_of() { readelf -n "$1" | awk '/Build ID/ {print $3}'; }
id1=$(id_of "$tmp/v1")
id2=$(id_of "$tmp/v2")

# Only a kernel that emits MMAP3, with a perf that asks for it, is tested.
perf record -o "$tmp/probe.data" true 2> /dev/null || skip "perf record failed"
perf report -D -i "$tmp/probe.data" 2> /dev/null | grep -q PERF_RECORD_MMAP3 ||
	skip "no MMAP3 records"

mmap3_lines() {
	perf report -D -i "$1" 2> /dev/null | grep "PERF_RECORD_MMAP3" || true
}

# Does perf report of $1 name the functions of both builds (v1 and v2 are
# in the private build-id cache)?
resolves_both_builds() {
	perf --buildid-dir "$tmp/debug" report -i "$1" --stdio --sort dso,sym \
		2> /dev/null > "$1.report"
	grep -q alpha_spin "$1.report" && grep -q beta_spin "$1.report"
}

# The binary is rewritten in place, on the same inode, between two runs.
test_replaced() {
	cp "$tmp/v1" "$tmp/prog"
	perf record -B -o "$tmp/replaced.data" -- \
		sh -c "'$tmp/prog'; cat '$tmp/v2' > '$tmp/prog'; '$tmp/prog'" 2> /dev/null
	mmap3_lines "$tmp/replaced.data" > "$tmp/replaced.mmap3"
	if ! grep -q "build_id $id1\].*$tmp/prog\$" "$tmp/replaced.mmap3" ||
	   ! grep -q "build_id $id2\].*$tmp/prog\$" "$tmp/replaced.mmap3"; then
		echo "binary rewritten in place [Failed - MMAP3 records without $id1 and $id2]"
		err=1
		return
	fi
	perf buildid-list -H -i "$tmp/replaced.data" > "$tmp/replaced.list"
	if [ "$(grep -c " $tmp/prog\$" "$tmp/replaced.list")" != 2 ]; then
		echo "binary rewritten in place [Failed - buildid-list -H does not list both ids]"
		cat "$tmp/replaced.list"
		err=1
		return
	fi
	perf --buildid-dir "$tmp/debug" buildid-cache -a "$tmp/v1,$tmp/v2"
	if ! resolves_both_builds "$tmp/replaced.data"; then
		echo "binary rewritten in place [Failed - samples not resolved against each build]"
		err=1
		return
	fi
	echo "binary rewritten in place [Success]"
}

# For newer perf, MMAP3 records become MMAP2 records with build ids.
test_convert() {
	local n3 n2

	perf inject --convert-mmap3 -i "$tmp/replaced.data" -o "$tmp/converted.data"
	n3=$(grep -c . "$tmp/replaced.mmap3")
	n2=$(perf report -D -i "$tmp/converted.data" 2> /dev/null |
	     grep -c PERF_RECORD_MMAP2 || true)
	if [ -n "$(mmap3_lines "$tmp/converted.data")" ] || [ "$n2" != "$n3" ]; then
		echo "inject --convert-mmap3 [Failed - $n3 MMAP3 records, $n2 MMAP2 ones]"
		err=1
		return
	fi
	if ! perf script -i "$tmp/converted.data" > /dev/null 2>&1; then
		echo "inject --convert-mmap3 [Failed - perf script cannot read the result]"
		err=1
		return
	fi
	# read back: newer perf's MMAP2 records carry the ids, which key the DSOs
	if ! perf report -D -i "$tmp/converted.data" 2> /dev/null |
	     grep "PERF_RECORD_MMAP2.*build_id $id1\].*$tmp/prog\$" > /dev/null; then
		echo "inject --convert-mmap3 [Failed - no MMAP2 record read with $id1]"
		err=1
		return
	fi
	if ! resolves_both_builds "$tmp/converted.data"; then
		echo "inject --convert-mmap3 [Failed - samples not resolved against each build]"
		err=1
		return
	fi
	echo "inject --convert-mmap3 [Success]"
}

# perf of Linux 5.16 and later (Debian's, say) reads the converted ids.
test_convert_newer() {
	local newer=${MMAP3_NEWER_PERF:-/usr/bin/perf} version

	version=$("$newer" --version 2> /dev/null | awk '{print $3}') || true
	if ! printf '5.16\n%s\n' "$version" | sort -V -C || [ -z "$version" ]; then
		echo "newer perf reads converted ids [Skipped no perf 5.16 or later]"
		return
	fi
	"$newer" buildid-list -H -i "$tmp/converted.data" > "$tmp/newer.list" 2>&1 || true
	if ! grep -q "^$id1 *$tmp/prog\$" "$tmp/newer.list" ||
	   ! grep -q "^$id2 *$tmp/prog\$" "$tmp/newer.list"; then
		echo "newer perf reads converted ids [Failed - perf $version lists other ids]"
		cat "$tmp/newer.list"
		err=1
		return
	fi
	echo "newer perf reads converted ids [Success]"
}

# A file recorded with MMAP2 gets MMAP3 records with the files' ids.
test_inject_mmap3() {
	cp "$tmp/v1" "$tmp/prog"
	perf record --no-mmap3 -o "$tmp/mmap2.data" -- "$tmp/prog" 2> /dev/null
	if [ -n "$(mmap3_lines "$tmp/mmap2.data")" ]; then
		echo "inject -b --mmap3 [Failed - record --no-mmap3 wrote MMAP3 records]"
		err=1
		return
	fi
	perf inject -b --mmap3 -i "$tmp/mmap2.data" -o "$tmp/injected.data"
	if ! mmap3_lines "$tmp/injected.data" |
	     grep -q "build_id $id1\].*$tmp/prog\$"; then
		echo "inject -b --mmap3 [Failed - no MMAP3 record with $id1]"
		err=1
		return
	fi
	if ! perf buildid-list -i "$tmp/injected.data" | grep -q "^$id1 $tmp/prog\$"; then
		echo "inject -b --mmap3 [Failed - buildid-list does not list $id1]"
		err=1
		return
	fi
	echo "inject -b --mmap3 [Success]"
}

# Without -B, record caches the hit binaries: never the new build under
# the old build's id.
test_replaced_cache() {
	local link

	cp "$tmp/v1" "$tmp/prog"
	perf --buildid-dir "$tmp/rec-debug" record -o "$tmp/cached.data" -- \
		sh -c "'$tmp/prog'; cat '$tmp/v2' > '$tmp/prog'; '$tmp/prog'" 2> /dev/null
	link="$tmp/rec-debug/.build-id/${id1:0:2}/${id1:2}"
	if [ -e "$link/elf" ] && [ "$(id_of "$link/elf")" != "$id1" ]; then
		echo "cache after a replaced binary [Failed - $id1 holds $(id_of "$link/elf")]"
		err=1
		return
	fi
	link="$tmp/rec-debug/.build-id/${id2:0:2}/${id2:2}"
	if [ "$(id_of "$link/elf")" != "$id2" ]; then
		echo "cache after a replaced binary [Failed - $id2 not cached]"
		err=1
		return
	fi
	echo "cache after a replaced binary [Success]"
}

# A task running before perf record starts gets a synthesized MMAP3.
test_running_task() {
	"$tmp/v1" 60 &
	pid=$!
	sleep 0.5
	perf record -B -p "$pid" -o "$tmp/running.data" -- sleep 0.3 2> /dev/null
	kill "$pid" 2> /dev/null || true
	wait "$pid" 2> /dev/null || true
	pid=
	mmap3_lines "$tmp/running.data" > "$tmp/running.mmap3"
	if ! grep -q "build_id $id1\].*$tmp/v1\$" "$tmp/running.mmap3"; then
		echo "running task [Failed - no MMAP3 with $id1]"
		err=1
		return
	fi
	kid=$(perf buildid-list -k 2> /dev/null || true)
	if [ -n "$kid" ] &&
	   ! grep -q "build_id $kid\].*\[kernel.kallsyms\]" "$tmp/running.mmap3"; then
		echo "running task [Failed - no kernel MMAP3 with $kid]"
		err=1
		return
	fi
	echo "running task and kernel [Success]"
}

# Damaged files: an error naming the offset, never a crash.
test_damaged() {
	local off rc

	off=$(mmap3_lines "$tmp/running.data" | awk '$2 ~ /^0x/ && /v1$/ {print $2; exit}')
	if [ -z "$off" ]; then
		echo "damaged files [Skipped no record to damage]"
		return
	fi
	cp "$tmp/running.data" "$tmp/bad-id.data"
	# build_id_size is byte 72 of the record
	printf '\025' | dd of="$tmp/bad-id.data" bs=1 seek=$((off + 72)) \
		conv=notrunc 2> /dev/null
	head -c $((off + 64)) "$tmp/running.data" > "$tmp/cut.data"
	for f in bad-id cut; do
		rc=0
		perf script --show-mmap-events -i "$tmp/$f.data" > /dev/null \
			2> "$tmp/$f.err" || rc=$?
		# 0: read as if whole; 129..159: killed by a signal
		if [ "$rc" = 0 ] || { [ "$rc" -gt 128 ] && [ "$rc" -lt 160 ]; }; then
			echo "damaged files [Failed - $f: exit status $rc]"
			err=1
			return
		fi
		if ! grep -q "^$off" "$tmp/$f.err"; then
			echo "damaged files [Failed - $f: no error at $off]"
			cat "$tmp/$f.err"
			err=1
			return
		fi
	done
	echo "damaged files [Success]"
}

test_replaced
test_convert
test_convert_newer
test_inject_mmap3
test_replaced_cache
test_running_task
test_damaged

cleanup
exit $err
