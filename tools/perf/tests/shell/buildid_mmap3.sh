#!/bin/bash
# build ids from MMAP3 records: record -B, buildid-list, --store
# SPDX-License-Identifier: GPL-2.0

set -eE

# shellcheck source=tools/perf/tests/shell/lib/mmap3.sh
. "$(dirname "$0")"/lib/mmap3.sh
mmap3_test_init "MMAP3 build ids" buildid-mmap3

command -v cc > /dev/null || skip "no cc"
command -v readelf > /dev/null || skip "no readelf"

# Two builds of one program, with sha1 and md5 ids.
cat > "$tmp/prog.c" <<'C'
#include <stdlib.h>
static volatile unsigned long sink;
int main(int argc, char **argv)
{
	unsigned long i, n = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000000;

	for (i = 0; i < n; i++)
		sink += i * i;
#ifdef REBUILT
	sink++;	/* other code, another build id */
#endif
	return 0;
}
C
cc -O1 -Wl,--build-id=sha1 -o "$tmp/prog" "$tmp/prog.c"
cc -O1 -Wl,--build-id=md5 -o "$tmp/prog-md5" "$tmp/prog.c"
cc -O1 -Wl,--build-id=0x0123456789abcdef -o "$tmp/prog-id8" "$tmp/prog.c"
cc -O1 -Wl,--build-id=none -o "$tmp/prog-noid" "$tmp/prog.c"
# The Go linker's layout: the GNU note in a section no PT_NOTE covers,
# where no parser of program headers, the kernel's included, finds it.
go_layout() {	# IN OUT
	objcopy -O binary --only-section=.note.gnu.build-id "$1" "$tmp/note.bin" &&
	objcopy --remove-section=.note.gnu.build-id "$1" "$tmp/nonote" &&
	objcopy --add-section .note.gnu.build-id="$tmp/note.bin" "$tmp/nonote" "$2"
}
# lists NAME DATA ID PATH: buildid-list of DATA has the line "ID PATH" (a
# short id padded to the width of a SHA-1 one), or
# a FAIL line for NAME and the list, and a non-zero status.
lists() {
	perf buildid-list -i "$2" | grep -q "^$3  *$4\$" && return 0
	echo "$1 [Failed - buildid-list does not list $3 $4]"
	perf buildid-list -i "$2"
	err=1
	return 1
}
id=$(id_of "$tmp/prog")
id_md5=$(id_of "$tmp/prog-md5")

# Does the kernel emit MMAP3?  The records say.  If not, perf inject -b
# --mmap3 turns what perf record wrote into MMAP3 records, and only what
# needs the kernel's own MMAP3 records is skipped.
perf record -B -o "$tmp/probe.data" true 2> "$tmp/probe.err" || skip "perf record failed"
kernel_mmap3=
if perf report -D -i "$tmp/probe.data" 2> /dev/null | grep -q PERF_RECORD_MMAP3; then
	kernel_mmap3=1
else
	echo "MMAP3 build ids: no MMAP3 from this kernel, perf inject -b --mmap3 makes them"
fi

# mmap3_of NAME IN OUT: OUT is IN where the kernel emitted MMAP3 records,
# else IN with MMAP3 records made by perf inject, whose build-id cache is a
# private one, not ~/.debug.  A FAIL line for NAME if perf inject fails.
mmap3_of() {
	if [ -n "$kernel_mmap3" ]; then
		mv "$2" "$3"
	elif ! perf --buildid-dir "$tmp/inject-debug" inject -b --mmap3 -i "$2" -o "$3" \
	     2> "$tmp/inject.err"; then
		echo "$1 [Failed - perf inject -b --mmap3 -i ${2#"$tmp"/} failed]"
		cat "$tmp/inject.err"
		err=1
		return 1
	fi
}

test_record_b() {
	local name="record -B + buildid-list"

	perf record -B -o "$tmp/recorded.data" "$tmp/prog" 2> /dev/null
	if [ -z "$kernel_mmap3" ]; then
		skipped "$name" "kernel without MMAP3"
		name="record -B, inject -b --mmap3 + buildid-list"
	fi
	mmap3_of "$name" "$tmp/recorded.data" "$tmp/perf.data" || return 0
	perf buildid-list -i "$tmp/perf.data" > "$tmp/list"
	if ! grep -q "^$id $tmp/prog\$" "$tmp/list"; then
		echo "$name [Failed - $id missing]"
		cat "$tmp/list"
		err=1
		return
	fi
	if [ -d "$tmp/home/.debug" ]; then
		echo "$name [Failed - -B filled the cache]"
		err=1
		return
	fi
	echo "$name [Success]"
}

test_md5() {
	perf record -B -o "$tmp/md5-rec.data" "$tmp/prog-md5" 2> /dev/null
	mmap3_of "md5 id in MMAP3" "$tmp/md5-rec.data" "$tmp/md5.data" || return 0
	if ! perf report -D -i "$tmp/md5.data" 2> /dev/null |
	     grep "PERF_RECORD_MMAP3" | grep -q "build_id $id_md5\].*$tmp/prog-md5"; then
		echo "md5 id in MMAP3 [Failed - no record with $id_md5]"
		err=1
		return
	fi
	echo "md5 id in MMAP3 [Success]"
}

test_store() {
	local cache=$tmp/cache link

	perf --buildid-dir "$cache" buildid-list --store -i "$tmp/perf.data" > "$tmp/store" || true
	link=$cache/.build-id/${id:0:2}/${id:2}
	if ! grep -q "^OK $id $tmp/prog (" "$tmp/store"; then
		echo "buildid-list --store [Failed - no OK line]"
		cat "$tmp/store"
		err=1
	elif [ ! -L "$link" ] || ! cmp -s "$link/elf" "$tmp/prog"; then
		echo "buildid-list --store [Failed - $link/elf is not the binary]"
		err=1
	else
		echo "buildid-list --store [Success]"
	fi
}

# cached NAME CACHE ID PATH: buildid-cache -l of CACHE lists "ID PATH".
cached() {
	perf --buildid-dir "$2" buildid-cache -l > "$tmp/cached" 2>&1 || true
	grep -qx "$3 $4" "$tmp/cached" && return 0
	echo "$1 [Failed - buildid-cache -l does not list $3 $4]"
	cat "$tmp/cached"
	err=1
	return 1
}

# Ids shorter than SHA-1's 20 bytes: md5's 16, and the 8 of ld
# --build-id=0x<hex>.  Each goes through buildid-list, --store and its
# .build-id/xx/yyyy link, buildid-cache -l, -a, -r and -P, and report
# finds the symbols in the cache once the binary is gone.
test_short_ids() {
	local bin sid name cache link

	for bin in prog-md5 prog-id8; do
		sid=$(id_of "$tmp/$bin")
		name="$((${#sid} / 2))-byte id: buildid-list, --store, buildid-cache, report"
		cache=$tmp/cache-$bin
		link=$cache/.build-id/${sid:0:2}/${sid:2}
		perf record -B -o "$tmp/$bin-rec.data" "$tmp/$bin" 2> /dev/null
		mmap3_of "$name" "$tmp/$bin-rec.data" "$tmp/$bin.data" || continue
		lists "$name" "$tmp/$bin.data" "$sid" "$tmp/$bin" || continue
		perf --buildid-dir "$cache" buildid-list --store -i "$tmp/$bin.data" \
			> "$tmp/$bin.store" || true
		if ! grep -q "^OK $sid $tmp/$bin (" "$tmp/$bin.store" ||
		   [ ! -L "$link" ] || ! cmp -s "$link/elf" "$tmp/$bin"; then
			echo "$name [Failed - --store: no OK line, or $link/elf is not the binary]"
			cat "$tmp/$bin.store"
			err=1
			continue
		fi
		cached "$name" "$cache" "$sid" "$tmp/$bin" || continue

		perf --buildid-dir "$cache-a" buildid-cache -a "$tmp/$bin"
		cached "$name, -a" "$cache-a" "$sid" "$tmp/$bin" || continue
		perf --buildid-dir "$cache-a" buildid-cache -r "$tmp/$bin"
		if [ -e "$cache-a/.build-id/${sid:0:2}/${sid:2}" ]; then
			echo "$name [Failed - buildid-cache -r left the link]"
			err=1
			continue
		fi
		perf --buildid-dir "$cache-a" buildid-cache -a "$tmp/$bin"
		perf --buildid-dir "$cache-a" buildid-cache -P
		if [ -e "$cache-a/.build-id/${sid:0:2}/${sid:2}" ]; then
			echo "$name [Failed - buildid-cache -P left the link]"
			err=1
			continue
		fi

		mv "$tmp/$bin" "$tmp/$bin.away"
		perf --buildid-dir "$cache" report -i "$tmp/$bin.data" --stdio \
			--sort dso,sym > "$tmp/$bin.report" 2> /dev/null || true
		mv "$tmp/$bin.away" "$tmp/$bin"
		if ! grep -q " $bin  *\[\.\] main\$" "$tmp/$bin.report"; then
			echo "$name [Failed - report does not find main in the cached $bin]"
			grep -v '^#' "$tmp/$bin.report" | head -n 5
			err=1
			continue
		fi
		echo "$name [Success]"
	done
}

# The kernel cannot read the id of a Go-layout binary: perf record reads
# it from the mapped file while the task runs.  One replaced by another
# build while it runs keeps its own id, never the replacement's.
test_fill() {
	local name="id the kernel cannot read, filled by record" go_id v2_id

	if ! command -v objcopy > /dev/null || ! go_layout "$tmp/prog" "$tmp/prog-go" ||
	   [ "$(id_of "$tmp/prog-go")" != "$id" ]; then
		skipped "$name" "no objcopy that moves the note out of PT_NOTE"
		return
	fi
	go_id=$id
	cp "$tmp/prog-go" "$tmp/prog-go.orig"
	cc -O1 -DREBUILT -Wl,--build-id=sha1 -o "$tmp/prog-v2.tmp" "$tmp/prog.c"
	go_layout "$tmp/prog-v2.tmp" "$tmp/prog-v2"
	cp "$tmp/prog-v2" "$tmp/prog-v2b"
	v2_id=$(id_of "$tmp/prog-v2")

	perf record -B -o "$tmp/go-rec.data" "$tmp/prog-go" 2> /dev/null
	mmap3_of "$name" "$tmp/go-rec.data" "$tmp/go.data" || return 0
	lists "$name" "$tmp/go.data" "$go_id" "$tmp/prog-go" || return 0
	# shellcheck disable=SC2016 # sh expands them
	perf record -B -o "$tmp/repl-rec.data" -- sh -c \
		'"$1" 60000000 & sleep 0.3; mv "$2" "$1"; wait' sh "$tmp/prog-go" "$tmp/prog-v2" \
		2> /dev/null
	mmap3_of "$name" "$tmp/repl-rec.data" "$tmp/repl.data" || return 0
	perf buildid-list -i "$tmp/repl.data" > "$tmp/repl.list"
	if grep -q "^$v2_id " "$tmp/repl.list"; then
		echo "$name [Failed - the replacement's id $v2_id is listed]"
		cat "$tmp/repl.list"
		err=1
		return
	fi
	# Without -B, a task gone before perf reads its records, its binary
	# replaced before the end of the run: the end-of-run pass must not
	# take the replacement's id from the path.
	cp "$tmp/prog-go.orig" "$tmp/prog-go"
	# shellcheck disable=SC2016 # sh expands them
	perf record -e page-faults -c 1 -o "$tmp/repl2.data" -- sh -c \
		'"$1" 1; mv "$2" "$1"' sh "$tmp/prog-go" "$tmp/prog-v2b" 2> /dev/null
	mmap3_of "$name" "$tmp/repl2.data" "$tmp/repl2.mmap3" || return 0
	perf buildid-list -i "$tmp/repl2.mmap3" > "$tmp/repl2.list"
	if grep -q "^$v2_id " "$tmp/repl2.list"; then
		echo "$name [Failed - without -B, the replacement's id $v2_id is listed]"
		cat "$tmp/repl2.list"
		err=1
		return
	fi
	echo "$name [Success]"
}

# lld's layout in some libraries: the PT_NOTE past page 0.  A copy of a
# shared object whose note segment (and the section in it) is moved to a
# page of its own at the end of the file, the old bytes zeroed: readelf
# still finds the id, by the section; the kernel, by the PT_NOTE.
lld_layout() {	# IN OUT
	python3 - "$1" "$2" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
assert b[:4] == b"\x7fELF" and b[4] == 2 and b[5] == 1, "not ELF64 little-endian"
phoff, shoff = struct.unpack_from("<QQ", b, 0x20)
phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", b, 0x36)
new = (len(b) + 4095) // 4096 * 4096 + 0x40
for i in range(phnum):
    ph = phoff + i * phentsize
    ptype, _, off, _, _, filesz = struct.unpack_from("<IIQQQQ", b, ph)
    if ptype != 4 or not filesz:
        continue
    seg = bytes(b[off:off + filesz])
    if b"GNU\0" not in seg or b"\x03\0\0\0GNU\0" not in seg:
        continue
    b[off:off + filesz] = bytes(filesz)
    b.extend(bytes(new - len(b)))
    b.extend(seg)
    struct.pack_into("<Q", b, ph + 8, new)
    for j in range(shnum):
        sh = shoff + j * shentsize
        soff, = struct.unpack_from("<Q", b, sh + 0x18)
        if off <= soff < off + filesz:
            struct.pack_into("<Q", b, sh + 0x18, new + soff - off)
    break
else:
    sys.exit("no PT_NOTE with the GNU build id")
open(sys.argv[2], "wb").write(b)
PY
}

# A shared object with lld's layout: buildid-list lists its id.  Whether
# the kernel read it or perf record filled it in, the records do not say:
# the next subtest asks the kernel alone.
test_note_past_page0() {
	local name="shared object with its PT_NOTE past page 0" so_id off

	cat > "$tmp/past.c" <<'C'
volatile unsigned long past_sink;
void past_spin(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		past_sink += i * 3;
}
C
	cat > "$tmp/past-main.c" <<'C'
#include <stdlib.h>
void past_spin(unsigned long n);
int main(int argc, char **argv)
{
	past_spin(argc > 1 ? strtoul(argv[1], NULL, 0) : 20000000);
	return 0;
}
C
	: > "$tmp/lld.err"
	if ! command -v python3 > /dev/null ||
	   ! cc -O1 -shared -fPIC -Wl,--build-id=sha1 -o "$tmp/libpast.tmp" "$tmp/past.c" ||
	   ! lld_layout "$tmp/libpast.tmp" "$tmp/libpast.so" 2> "$tmp/lld.err"; then
		skipped "$name" "no python3, or no PT_NOTE to move: $(cat "$tmp/lld.err")"
		return
	fi
	so_id=$(id_of "$tmp/libpast.so")
	off=$(readelf -lW "$tmp/libpast.so" | awk '$1 == "NOTE" {print $2}' | sort | tail -n 1)
	if [ -z "$so_id" ] || [ "$so_id" != "$(id_of "$tmp/libpast.tmp")" ] ||
	   [ $((off)) -lt 4096 ]; then
		echo "$name [Failed - the rewritten copy: id '$so_id', no PT_NOTE past page 0]"
		readelf -lnW "$tmp/libpast.so"
		err=1
		return
	fi
	cc -O1 -o "$tmp/prog-past" "$tmp/past-main.c" -L"$tmp" -lpast -Wl,-rpath,"$tmp"

	perf record -B -o "$tmp/past-rec.data" "$tmp/prog-past" 2> /dev/null
	mmap3_of "$name" "$tmp/past-rec.data" "$tmp/past.data" || return 0
	lists "$name" "$tmp/past.data" "$so_id" "$tmp/libpast.so" || return 0
	echo "$name [Success]"
}

# The same shared object under an upstream perf (Debian's, 6.1) with
# --buildid-mmap, which fills in nothing: the MMAP2 records with the id
# come from the kernel's parser, which read the note past page 0.
test_kernel_past_page0() {
	local name="kernel reads a PT_NOTE past page 0 (upstream perf --buildid-mmap)"
	local up=${MMAP3_UPSTREAM_PERF:-/usr/bin/perf} so_id

	if [ ! -f "$tmp/libpast.so" ] || [ -z "$kernel_mmap3" ] || [ ! -x "$up" ] ||
	   ! "$up" record --buildid-mmap -o "$tmp/up.data" true > /dev/null 2>&1; then
		skipped "$name" "no libpast.so, no MMAP3 kernel, or no $up with --buildid-mmap"
		return
	fi
	so_id=$(id_of "$tmp/libpast.so")
	"$up" record --buildid-mmap -o "$tmp/up.data" "$tmp/prog-past" 1000 > /dev/null 2>&1
	if ! "$up" report -D -i "$tmp/up.data" 2> /dev/null | grep 'PERF_RECORD_MMAP2' |
	     grep -q "<$so_id>\]: .* $tmp/libpast.so\$"; then
		echo "$name [Failed - no MMAP2 record with $so_id for libpast.so]"
		"$up" report -D -i "$tmp/up.data" 2> /dev/null | grep 'MMAP2.*libpast'
		err=1
		return
	fi
	echo "$name [Success]"
}

# A binary without a build id: listed with "-" (and the reason perf record
# gave, where its records are the kernel's MMAP3), a FAIL line saying so.
test_no_id() {
	local name="no build id: buildid-list, --store" rc=0

	perf record -B -o "$tmp/noid-rec.data" "$tmp/prog-noid" 2> /dev/null
	mmap3_of "$name" "$tmp/noid-rec.data" "$tmp/noid.data" || return 0
	perf buildid-list -i "$tmp/noid.data" > "$tmp/noid.list"
	if ! grep -q "^- *$tmp/prog-noid\( (no build id in the file)\)\?\$" "$tmp/noid.list"; then
		echo "$name [Failed - buildid-list does not list $tmp/prog-noid with -]"
		cat "$tmp/noid.list"
		err=1
		return
	fi
	perf --buildid-dir "$tmp/noid-cache" buildid-list --store -i "$tmp/noid.data" \
		> "$tmp/noid.store" || rc=$?
	if [ "$rc" -eq 0 ] ||
	   ! grep -qx "FAIL - $tmp/prog-noid (no build id)" "$tmp/noid.store"; then
		echo "$name [Failed - exit $rc, no FAIL line with the reason]"
		cat "$tmp/noid.store"
		err=1
		return
	fi
	echo "$name [Success]"
}

# A replaced binary: local store fails, debuginfod has the original.
test_report_store() {
	local cache=$tmp/cache2 srv=$tmp/srv port rc=0

	if ! command -v debuginfod > /dev/null; then
		skipped "report --store via debuginfod" "no debuginfod"
		return
	fi
	mkdir -p "$srv"
	cp "$tmp/prog" "$srv/prog"
	# pipe format, as another host's perf record -o - sends it
	perf record -B -o - "$tmp/prog" > "$tmp/pipe.data" 2> /dev/null
	cc -O1 -DREBUILT -Wl,--build-id=sha1 -o "$tmp/prog" "$tmp/prog.c"
	if [ "$(id_of "$tmp/prog")" = "$id" ]; then
		echo "report --store via debuginfod [Failed - the rebuild kept the id]"
		err=1
		return
	fi
	port=$((20000 + RANDOM % 20000))
	debuginfod -F -p "$port" -d "$tmp/db.sqlite" "$srv" > "$tmp/dfd.log" 2>&1 &
	bg_pid=$!
	for _ in $(seq 60); do
		DEBUGINFOD_URLS=http://127.0.0.1:$port DEBUGINFOD_CACHE_PATH=$tmp/probe-cache \
			debuginfod-find executable "$id" > /dev/null 2>&1 && break
		sleep 1
	done

	perf --buildid-dir "$cache" buildid-list --store -i "$tmp/perf.data" \
		> "$tmp/store2" || rc=$?
	if [ "$rc" -eq 0 ] ||
	   ! grep -qx "FAIL $id $tmp/prog (the file here has another build id)" "$tmp/store2"; then
		echo "report --store via debuginfod [Failed - replaced binary stored, or no reason]"
		cat "$tmp/store2"
		err=1
		return
	fi
	DEBUGINFOD_URLS=http://127.0.0.1:$port DEBUGINFOD_CACHE_PATH=$tmp/dcache \
		perf --buildid-dir "$cache" report --store -i "$tmp/perf.data" \
		> "$tmp/store3" 2> /dev/null || true
	if ! grep -q "^OK $id $tmp/prog (" "$tmp/store3" ||
	   ! cmp -s "$cache/.build-id/${id:0:2}/${id:2}/elf" "$srv/prog"; then
		echo "report --store via debuginfod [Failed - original not fetched]"
		cat "$tmp/store3"
		err=1
		return
	fi
	echo "report --store via debuginfod [Success]"

	# The same from another host's pipe: its perf record -o -, and a
	# perf.data file, on standard input.
	store_stdin "report --store -i - of a pipe" "$port" "$tmp/pipe.data"
	store_stdin "report --store -i - of a perf.data file" "$port" "$tmp/perf.data"
}

# store_stdin NAME PORT DATA: report --store reads DATA through a pipe and
# fetches the original of the replaced $tmp/prog from the server at PORT.
store_stdin() {
	local cache=$tmp/cache-stdin rc=0

	rm -rf "$cache"
	# shellcheck disable=SC2002 # a pipe, not a file, on standard input
	cat "$3" | DEBUGINFOD_URLS=http://127.0.0.1:$2 DEBUGINFOD_CACHE_PATH=$tmp/dcache-stdin \
		perf --buildid-dir "$cache" report --store -i - > "$tmp/store-stdin" \
		2> "$tmp/store-stdin.err" || rc=$?
	if [ "$rc" -ne 0 ] || ! grep -q "^OK $id $tmp/prog (" "$tmp/store-stdin" ||
	   ! cmp -s "$cache/.build-id/${id:0:2}/${id:2}/elf" "$tmp/srv/prog"; then
		echo "$1 [Failed - exit $rc, original not fetched]"
		cat "$tmp/store-stdin" "$tmp/store-stdin.err"
		err=1
		return
	fi
	echo "$1 [Success]"
}

# A server that is not there: FAIL lines, no hang, nothing half-written.
test_report_store_no_server() {
	local cache=$tmp/cache3

	DEBUGINFOD_URLS=http://127.0.0.1:1 DEBUGINFOD_TIMEOUT=5 DEBUGINFOD_CACHE_PATH=$tmp/dcache3 \
		timeout 120 perf --buildid-dir "$cache" report --store -i "$tmp/perf.data" \
		> "$tmp/store4" 2> /dev/null || true
	if ! grep -q "^FAIL $id .*debuginfod: Connection refused: http://127.0.0.1:1)\$" "$tmp/store4"; then
		echo "report --store, server down [Failed - no FAIL line saying the server refused]"
		cat "$tmp/store4"
		err=1
	elif [ -e "$cache/.build-id/${id:0:2}/${id:2}" ]; then
		echo "report --store, server down [Failed - a cache entry appeared]"
		err=1
	else
		echo "report --store, server down [Success]"
	fi
}

test_record_b
test_md5
test_store
test_short_ids
test_no_id
test_fill
test_note_past_page0
test_kernel_past_page0
test_report_store
test_report_store_no_server

mmap3_test_end
