#!/bin/bash
# MMAP3 records: replaced binaries, conversion, running tasks, damaged files
# SPDX-License-Identifier: GPL-2.0

set -eE

# shellcheck source=tools/perf/tests/shell/lib/mmap3.sh
. "$(dirname "$0")"/lib/mmap3.sh
mmap3_test_init "MMAP3 records" mmap3-records

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
id1=$(id_of "$tmp/v1")
id2=$(id_of "$tmp/v2")

# What the kernel puts in mmap records, as perf record asks for it:
# MMAP3 records (this series), or at least build ids (MMAP2 records with
# them on Linux 5.12 and later).  Without MMAP3, the files under test are
# made MMAP3 by perf inject -b --mmap3; only what needs the kernel's own
# MMAP3 records is skipped.
perf record -o "$tmp/probe.data" true 2> /dev/null || skip "perf record failed"
perf report -D -i "$tmp/probe.data" > "$tmp/probe.dump" 2> /dev/null || true
kernel_mmap3=
kernel_ids=
grep -q PERF_RECORD_MMAP3 "$tmp/probe.dump" && kernel_mmap3=1
grep -Eq 'PERF_RECORD_MMAP[23] [0-9]+/[0-9]+: .* build_id [0-9a-f]+\]' "$tmp/probe.dump" &&
	kernel_ids=1
[ -n "$kernel_mmap3" ] ||
	echo "MMAP3 records: no MMAP3 from this kernel, perf inject -b --mmap3 makes them"

# Both builds in the private build-id cache that perf report reads.
perf --buildid-dir "$tmp/debug" buildid-cache -a "$tmp/v1,$tmp/v2"

mmap3_lines() {
	perf report -D -i "$1" 2> /dev/null | grep "PERF_RECORD_MMAP3" || true
}

# inject_mmap3 NAME IN OUT: OUT is IN with MMAP3 records made by perf
# inject; its build-id cache is a private one.  A FAIL line for NAME if not.
inject_mmap3() {
	if ! perf --buildid-dir "$tmp/inject-debug" inject -b --mmap3 -i "$2" -o "$3" \
	     2> "$tmp/inject.err"; then
		echo "$1 [Failed - perf inject -b --mmap3 -i ${2#"$tmp"/} failed]"
		cat "$tmp/inject.err"
		err=1
		return 1
	fi
	if [ -z "$(mmap3_lines "$3")" ]; then
		echo "$1 [Failed - perf inject -b --mmap3 -i ${2#"$tmp"/} wrote no MMAP3 record]"
		err=1
		return 1
	fi
}

# Does perf report of $1 name the functions of both builds (v1 and v2 are
# in the private build-id cache), each in the DSO of its path ($2 for v1,
# $3 for v2)?
resolves_both_builds() {
	perf --buildid-dir "$tmp/debug" report -i "$1" --stdio --sort dso,sym \
		2> /dev/null > "$1.report"
	grep -Eq "^ +[0-9.]+% +${2##*/} +\[\.\] alpha_spin\$" "$1.report" &&
		grep -Eq "^ +[0-9.]+% +${3##*/} +\[\.\] beta_spin\$" "$1.report"
}

# The binary is rewritten in place, on the same inode, between two runs:
# only the kernel can tell the ids of the two builds it mapped.
test_replaced() {
	if [ -z "$kernel_mmap3" ]; then
		skipped "binary rewritten in place" "kernel without MMAP3"
		return
	fi
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
	if ! resolves_both_builds "$tmp/replaced.data" "$tmp/prog" "$tmp/prog"; then
		echo "binary rewritten in place [Failed - samples not resolved against each build]"
		err=1
		return
	fi
	echo "binary rewritten in place [Success]"
}

# The MMAP3 file of both builds that the conversion reads, $builds, with
# the paths of v1 and v2 in it, $path1 and $path2: the kernel's records
# of the binary rewritten in place where there are; else perf inject's of
# a run of two copies, which then swap contents, so that only the ids in
# the records tell the builds apart.
builds=$tmp/replaced.data
path1=$tmp/prog
path2=$tmp/prog
make_builds() {
	[ -z "$kernel_mmap3" ] || return 0
	builds=$tmp/builds.data
	path1=$tmp/prog1
	path2=$tmp/prog2
	cp "$tmp/v1" "$path1"
	cp "$tmp/v2" "$path2"
	if ! perf record -B -o "$tmp/two.data" -- sh -c "'$path1'; '$path2'" 2> /dev/null; then
		echo "inject --convert-mmap3 [Failed - perf record of the two builds failed]"
		err=1
		return 1
	fi
	inject_mmap3 "inject --convert-mmap3" "$tmp/two.data" "$builds" || return
	cat "$tmp/v2" > "$path1"
	cat "$tmp/v1" > "$path2"
}

# For newer perf, MMAP3 records become MMAP2 records with build ids.
test_convert() {
	local n3 n2 n2_in

	make_builds || return 0
	if ! perf inject --convert-mmap3 -i "$builds" -o "$tmp/converted.data" \
	     2> "$tmp/convert.err"; then
		echo "inject --convert-mmap3 [Failed - perf inject exited non-zero]"
		cat "$tmp/convert.err"
		err=1
		return
	fi
	# every MMAP3 record becomes an MMAP2 one, the MMAP2 ones stay
	n3=$(mmap3_lines "$builds" | grep -c . || true)
	n2_in=$(perf report -D -i "$builds" 2> /dev/null | grep -c PERF_RECORD_MMAP2 || true)
	n2=$(perf report -D -i "$tmp/converted.data" 2> /dev/null |
	     grep -c PERF_RECORD_MMAP2 || true)
	if [ -n "$(mmap3_lines "$tmp/converted.data")" ] || [ "$n3" = 0 ] ||
	   [ "$n2" != $((n3 + n2_in)) ]; then
		echo "inject --convert-mmap3 [Failed - $n3 MMAP3 and $n2_in MMAP2 records" \
		     "became $n2 MMAP2 ones]"
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
	     grep "PERF_RECORD_MMAP2.*build_id $id1\].*$path1\$" > /dev/null; then
		echo "inject --convert-mmap3 [Failed - no MMAP2 record read with $id1]"
		err=1
		return
	fi
	if ! resolves_both_builds "$tmp/converted.data" "$path1" "$path2"; then
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
		skipped "newer perf reads converted ids" "no perf 5.16 or later"
		return
	fi
	if [ ! -e "$tmp/converted.data" ]; then
		echo "newer perf reads converted ids [Failed - no converted file to read]"
		err=1
		return
	fi
	"$newer" buildid-list -H -i "$tmp/converted.data" > "$tmp/newer.list" 2>&1 || true
	if ! grep -q "^$id1 *$path1\$" "$tmp/newer.list" ||
	   ! grep -q "^$id2 *$path2\$" "$tmp/newer.list"; then
		echo "newer perf reads converted ids [Failed - perf $version lists other ids]"
		cat "$tmp/newer.list"
		err=1
		return
	fi
	echo "newer perf reads converted ids [Success]"
}

# A file recorded with MMAP2 gets MMAP3 records with the files' ids.
test_inject_mmap3() {
	local line

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
	# newer perf's MMAP2 with an id has no inode: none may be made up of
	# the id bytes that stand in its place
	perf inject --convert-mmap3 -i "$tmp/injected.data" -o "$tmp/newer.data"
	perf inject -b --mmap3 -i "$tmp/newer.data" -o "$tmp/back.data"
	line=$(mmap3_lines "$tmp/back.data" | grep "$tmp/prog\$" | head -n 1)
	case $line in
	*" 00:00 0 0 build_id $id1]"*) ;;
	*)
		echo "inject -b --mmap3 [Failed - MMAP2 with an id gave: ${line:-no MMAP3 record}]"
		err=1
		return ;;
	esac
	echo "inject -b --mmap3 [Success]"
}

# perf data convert --all writes MMAP3 records, build id included, into CTF.
test_data_convert() {
	local out

	if ! command -v babeltrace > /dev/null; then
		skipped "data convert --to-ctf" "no babeltrace to read CTF"
		return
	fi
	if [ ! -f "$tmp/injected.data" ]; then
		echo "data convert --to-ctf [Failed - no MMAP3 file from inject -b --mmap3]"
		err=1
		return
	fi
	if ! out=$(perf data convert --to-ctf "$tmp/ctf" --all -i "$tmp/injected.data" 2>&1); then
		case $out in
		*"No conversion support compiled in"*)
			skipped "data convert --to-ctf" "perf built without libbabeltrace"
			return ;;
		esac
		echo "data convert --to-ctf [Failed - perf data convert: $out]"
		err=1
		return
	fi
	if ! babeltrace "$tmp/ctf" 2> /dev/null | grep "perf_mmap3:" |
	     grep -q "filename = \"$tmp/prog\", build_id = \"$id1\""; then
		echo "data convert --to-ctf [Failed - no perf_mmap3 event of $tmp/prog with $id1]"
		err=1
		return
	fi
	echo "data convert --to-ctf [Success]"
}

# perf diff of two builds of one path pairs them: build ids keep the DSOs
# of one path apart within a session, not across the two.
test_diff() {
	local n

	cp "$tmp/v1" "$tmp/prog"
	perf record -o "$tmp/diff1.data" -- "$tmp/prog" 2> /dev/null
	cp "$tmp/v2" "$tmp/prog"
	perf record -o "$tmp/diff2.data" -- "$tmp/prog" 2> /dev/null
	n=$(perf diff --sort dso "$tmp/diff1.data" "$tmp/diff2.data" 2> /dev/null |
	    awk '$NF == "prog"' | wc -l)
	if [ "$n" != 1 ]; then
		echo "perf diff across builds [Failed - prog on $n lines, not one paired line]"
		err=1
		return
	fi
	echo "perf diff across builds [Success]"
}

# Without -B, record caches the hit binaries: never the new build under
# the old build's id.  Only a kernel that gives the ids of what it mapped
# (MMAP3, or Linux 5.12+ MMAP2) makes two DSOs of the one path.
test_replaced_cache() {
	local link

	if [ -z "$kernel_ids" ]; then
		skipped "cache after a replaced binary" "kernel without build ids in mmap records"
		return
	fi
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

# A task running before perf record starts gets a synthesized MMAP3, and
# so does the kernel; without MMAP3 from the kernel, perf inject makes one
# of the task's synthesized MMAP2 (the kernel's map it leaves as it is).
test_running_task() {
	local kid

	"$tmp/v1" 60 &
	bg_pid=$!
	sleep 0.5
	perf record -B -p "$bg_pid" -o "$tmp/running-rec.data" -- sleep 0.3 2> /dev/null
	kill "$bg_pid" 2> /dev/null || true
	wait "$bg_pid" 2> /dev/null || true
	bg_pid=
	if [ -n "$kernel_mmap3" ]; then
		mv "$tmp/running-rec.data" "$tmp/running.data"
	else
		inject_mmap3 "running task" "$tmp/running-rec.data" "$tmp/running.data" ||
			return 0
	fi
	mmap3_lines "$tmp/running.data" > "$tmp/running.mmap3"
	if ! grep -q "build_id $id1\].*$tmp/v1\$" "$tmp/running.mmap3"; then
		echo "running task [Failed - no MMAP3 with $id1]"
		err=1
		return
	fi
	if [ -z "$kernel_mmap3" ]; then
		echo "running task [Success]"
		skipped "kernel MMAP3 synthesized by record" "kernel without MMAP3"
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
		skipped "damaged files" "no record to damage"
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
test_data_convert
test_diff
test_replaced_cache
test_running_task
test_damaged

mmap3_test_end
