# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers shared by the scripts.

die() {
	echo "$(basename "$0"): $*" >&2
	exit 1
}

# The four series, in the order they apply, each on the one before:
# patches/NAME/series lists its patches, patches/NAME/cover-letter is its
# cover letter.  scripts/apply marks each one's last commit refs/mmap3/NAME.
SERIES_NAMES=(fixes kernel records store)

# Dies unless each of the four series files is there: series_lines runs
# in a subshell, where a die would go unnoticed.
series_files_check() {
	local s
	for s in "${SERIES_NAMES[@]}"; do
		[ -f "$TOP/patches/$s/series" ] || die "no patches/$s/series"
	done
}

# Every line of the four series files, in order, as "NAME PATCH [FILE...]":
# the series, its patch in patches/NAME/, the overlay files it introduces
# (a last line without its newline, or with a CR, is a line too).
series_lines() {
	local s
	for s in "${SERIES_NAMES[@]}"; do
		{ cat "$TOP/patches/$s/series"; echo; } |
			sed -e 's/\r$//' -e 's/#.*//' -e '/^[[:space:]]*$/d' -e "s|^|$s |"
	done
}

# "fixes N, kernel N, records N, store N": the patches of each series in
# the worktree $1, between the refs/mmap3/NAME scripts/apply made there.
series_counts() {
	local s from=base out=
	for s in "${SERIES_NAMES[@]}"; do
		out+="${out:+, }$s $(git -C "$1" rev-list --count "$from..refs/mmap3/$s")"
		from=refs/mmap3/$s
	done
	echo "$out"
}

# The overlay: new files at their kernel paths, wholly ours.
overlay_files() {
	(cd "$TOP" && git ls-files --cached --others --exclude-standard -- \
		include kernel lib tools Documentation | sort)
}

# The GNU build id of an ELF file, or nothing.
id_of() {
	readelf -n "$1" 2> /dev/null | awk '/Build ID/ {print $3; exit}'
}

# A TCP port on 127.0.0.1 that is free now, for a test server.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# The first line of a sanitizer report in the files given (grep options,
# -A14 say, may come first); false when there is none.
sanitizer_report() {
	grep -h -m1 -E 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$@"
}

# The share of the samples in FUNCTION (a regular expression), in whole
# percent, from perf report --stdio --sort sym on stdin; 0 if not there.
#   hot_share FUNCTION < REPORT
hot_share() {
	# Reads its input to the end: an early exit would kill the writer
	# with SIGPIPE, which set -o pipefail makes the pipeline's status.
	awk -v fn="$1" '!found && $0 ~ fn { sub(/%/, "", $1); printf "%d\n", $1; found = 1 }
		END { if (!found) print 0 }'
}

# The Go toolchains of this machine and of build/newer-cache's debootstrap
# roots (and go in PATH), one per Go version: "VERSION PATH" a line,
# oldest first, so the last line is the newest.
#   go_toolchains
go_toolchains() {
	local g v
	for g in /usr/lib/go-1.*/bin/go "$TOP"/build/newer-cache/*/usr/lib/go-1.*/bin/go \
		"$(command -v go || true)"; do
		[ -x "$g" ] || continue
		v=$(GOTOOLCHAIN=local "$g" version 2> /dev/null | awk '{ print $3 }') || continue
		[[ $v =~ ^go1\.[0-9]+ ]] && echo "$v $g"
	done | sort -t. -k2,2n -k3,3n | awk '!seen[$1]++'
}

# make in the kernel tree KSRC, objects in KOBJ, with ccache and the
# builds' identity (user mmap3, host build).  KMAKE_IN, if set, is a
# command make runs under, given make's command line (scripts/debs/kernel:
# in its bullseye root).
#   kmake [MAKE-ARGS...]
KMAKE_IN=
kmake() {
	${KMAKE_IN:+"$KMAKE_IN"} make -s -C "$KSRC" O="$KOBJ" CC="ccache gcc" HOSTCC="ccache gcc" \
		KBUILD_BUILD_USER=mmap3 KBUILD_BUILD_HOST=build "$@"
}

# The Go linker's layout for the ELF file $1, in place: the GNU build-id
# note in no PT_NOTE (each PT_NOTE header made PT_NULL), so the kernel
# finds no id and perf record must read it.
#   go_layout FILE
go_layout() {
	python3 - "$1" << 'EOF'
import struct
import sys

with open(sys.argv[1], 'r+b') as f:
    ehdr = f.read(64)
    if ehdr[:5] != b'\x7fELF\x02':
        sys.exit('not a 64-bit ELF file')
    phoff, = struct.unpack_from('<Q', ehdr, 32)
    phentsize, phnum = struct.unpack_from('<HH', ehdr, 54)
    notes = 0
    for i in range(phnum):
        f.seek(phoff + i * phentsize)
        if struct.unpack('<I', f.read(4))[0] == 4:     # PT_NOTE
            f.seek(phoff + i * phentsize)
            f.write(struct.pack('<I', 0))              # PT_NULL
            notes += 1
    sys.exit(0 if notes else 'no PT_NOTE')
EOF
}
