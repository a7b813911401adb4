# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Debian bullseye roots for the packages: one to build perf in (so it links
# against bullseye's libraries), fresh ones to install the packages in.
#
#   bullseye_tarball NAME VARIANT [PKG,...]
#                          build/debs-cache/NAME.tgz, a debootstrap tarball
#                          of bullseye (made once, then reused); prints it
#   bullseye_unpack TGZ DIR  a root from the tarball, in DIR (made empty)
#   debootstrap_tarball SUITE DIR NAME VARIANT [PKG,...],
#   debootstrap_unpack SUITE TGZ DIR
#                          the same for another suite (trixie's perf)
#   suite_perf_root SUITE CACHE
#                          a root of SUITE with its perf, under CACHE
#   trixie_perf_root CACHE the trixie one (scripts/abi)
#   suite_go_root SUITE CACHE
#                          a root of SUITE with its Go toolchain (golang-go)
#   in_root DIR CMD...     CMD as root in DIR, in private mount and pid
#                          namespaces with /proc, /dev and /sys, so every
#                          mount goes when CMD ends, and the processes of
#                          this machine are not seen there (perf report
#                          would enter the mount namespace of a process
#                          here that has the pid of one in the perf.data);
#                          DEBS_BIND="HOSTDIR:PATH[:ro] ..." adds bind
#                          mounts, PATH inside the root; the environment
#                          is empty but for HOME, PATH, LANG (CMD may start
#                          with env VAR=VALUE)
#   commit_time            the time of this repository's last commit, in
#                          seconds (now, outside a git checkout): the date
#                          the packages carry
#   DEBS_PKG_SH            shell functions for a script run in the root
#                          (put before it): elf_files DIR [FIND-TEST...],
#                          strip_elf (the files on stdin), write_md5sums DIR
#
# The mirror and keyring are those of apt's bullseye entry, which
# scripts/setup-deps derives from the machine's own Debian entry: no host
# name is written here.  Callers source scripts/lib.sh first (die).

DEBS_CACHE=$TOP/build/debs-cache
# the Debian version of the base tree (scripts/fetch-base)
BASE_VERSION=${BASE_VERSION:-5.10.223-1}
BULLSEYE_SOURCES=/etc/apt/sources.list.d/mmap3-bullseye.sources

bullseye_mirror() {
	awk '/^URIs:/ {print $2; exit}' "$BULLSEYE_SOURCES"
}

bullseye_keyring() {
	awk '/^Signed-By:/ {print $2; exit}' "$BULLSEYE_SOURCES"
}

# debootstrap_tarball SUITE DIR NAME VARIANT [PKG,...]: DIR/NAME.tgz
debootstrap_tarball() {
	local suite=$1 dir=$2 name=$3 variant=$4 include=${5:-} tgz work mirror
	tgz=$dir/$name.tgz
	# the package list is part of the name of what is cached
	if [ -f "$tgz" ] && [ "$(cat "$tgz.include" 2>/dev/null)" = "$variant $include" ]; then
		echo "$tgz"
		return
	fi
	[ -f "$BULLSEYE_SOURCES" ] || die "no $BULLSEYE_SOURCES (run scripts/setup-deps)"
	mirror=$(bullseye_mirror)
	[ -n "$mirror" ] || die "no URIs in $BULLSEYE_SOURCES"
	mkdir -p "$dir"
	work=$(mktemp -d "$dir/debootstrap.XXXXXX")
	echo "debs: debootstrap $variant $suite -> ${tgz#"$TOP"/}" >&2
	if ! timeout 1800 debootstrap --variant="$variant" ${include:+--include="$include"} \
		--keyring="$(bullseye_keyring)" --make-tarball="$tgz.new" \
		"$suite" "$work" "$mirror" > "$work.log" 2>&1; then
		tail -n 20 "$work.log" >&2
		rm -rf "$work" "$work.log" "$tgz.new"
		die "debootstrap of $name failed"
	fi
	rm -rf "$work" "$work.log"
	mv "$tgz.new" "$tgz"
	echo "$variant $include" > "$tgz.include"
	echo "$tgz"
}

bullseye_tarball() {
	debootstrap_tarball bullseye "$DEBS_CACHE" "$@"
}

# debootstrap_unpack SUITE TGZ DIR: a root of SUITE from TGZ, in DIR
debootstrap_unpack() {
	local suite=$1 tgz=$2 dir=$3 mirror
	mirror=$(bullseye_mirror)
	rm -rf "$dir"
	mkdir -p "$dir"
	if ! timeout 1800 debootstrap --unpack-tarball="$tgz" --keyring="$(bullseye_keyring)" \
		"$suite" "$dir" "$mirror" > "$dir.log" 2>&1; then
		tail -n 20 "$dir.log" >&2
		die "debootstrap --unpack-tarball into $dir failed"
	fi
	rm -f "$dir.log"
	# apt inside the root uses the same mirror as debootstrap did
	printf 'deb %s %s main\n' "$mirror" "$suite" > "$dir/etc/apt/sources.list"
	# no daemons start inside a root
	printf '#!/bin/sh\nexit 101\n' > "$dir/usr/sbin/policy-rc.d"
	chmod 755 "$dir/usr/sbin/policy-rc.d"
}

bullseye_unpack() {
	debootstrap_unpack bullseye "$@"
}

in_root() {
	local dir=$1
	shift
	# shellcheck disable=SC2016 # the inner shell expands these
	unshare --mount --pid --fork --propagation private -- /bin/bash -euo pipefail -c '
		dir=$1; shift
		mount -t proc proc "$dir/proc"
		mount --rbind /dev "$dir/dev"
		mount --rbind /sys "$dir/sys"
		for b in ${DEBS_BIND:-}; do
			IFS=: read -r host path opt <<< "$b"
			mkdir -p "$dir$path"
			mount --bind "$host" "$dir$path"
			if [ "$opt" = ro ]; then
				mount -o remount,bind,ro "$dir$path"
			fi
		done
		exec chroot "$dir" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
	' in_root "$dir" "$@"
}

# Debian SUITE's perf in a root of its own: the tarball is made once,
# like bullseye's; the root is unpacked again when the tarball changes.
# Both under CACHE (build/newer-cache): SUITE-perf.tgz, SUITE-root.
# Prints the root.
#   suite_perf_root SUITE CACHE
suite_perf_root() {
	suite_root "$1" "$2" perf linux-perf "$1-root"
}

# a root of SUITE with its newest Go toolchain, for scripts/faults/gopclntab
#   suite_go_root SUITE CACHE
suite_go_root() {
	suite_root "$1" "$2" go golang-go "$1-go-root"
}

#   suite_root SUITE CACHE WHAT PKGS ROOTNAME
suite_root() {
	local suite=$1 cache tgz root
	cache=$(realpath -m "$2")
	# || return: errexit is off where a caller tests this (if ! root=$(...))
	tgz=$(debootstrap_tarball "$suite" "$cache" "$suite-$3" minbase "$4") || return 1
	root=$cache/$5
	if [ ! -f "$root/.from" ] || [ "$(cat "$root/.from")" != "$(stat -c %Y "$tgz")" ]; then
		echo "newer: unpacking the $suite root into ${root#"$TOP"/}" >&2
		debootstrap_unpack "$suite" "$tgz" "$root"
		stat -c %Y "$tgz" > "$root/.from"
	fi
	echo "$root"
}

# trixie's (perf 6.12), for scripts/abi
#   trixie_perf_root CACHE
trixie_perf_root() {
	suite_perf_root trixie "$1"
}

commit_time() {
	git -C "$TOP" log -1 --format=%ct 2> /dev/null || date +%s
}

# bullseye's file, strip and md5sum, as dh_strip and dh_md5sums use them
# shellcheck disable=SC2034 # used by the scripts that source this
DEBS_PKG_SH=$(cat <<'EOF'
# the ELF files under $1 passing the find tests after it, one per line
elf_files() {
	d=$1
	shift
	find "$d" -type f "$@" -exec sh -c \
		'for f; do case $(file -b "$f") in ELF*) echo "$f" ;; esac; done' _ {} +
}
# strip the files named on stdin, their build ids kept
strip_elf() {
	xargs -r -d "\n" strip --remove-section=.comment --remove-section=.note --strip-unneeded
}
# DEBIAN/md5sums of the package tree $1
write_md5sums() {
	(cd "$1" && find . -path ./DEBIAN -prune -o -type f -printf "%P\n" | LC_ALL=C sort |
		xargs -d "\n" md5sum > DEBIAN/md5sums)
}
EOF
)

# The packages' version: Debian's base version, then ours, counted in
# commits of this repository (so it only grows along main).
debs_version() {
	local n
	n=$(git -C "$TOP" rev-list --count HEAD 2>/dev/null || echo 0)
	echo "$BASE_VERSION+mmap3.$n"
}

# the project's identity, as in the series' Signed-off-by lines
# shellcheck disable=SC2034 # used by the scripts that source this
DEBS_MAINTAINER="Seed 6c07bd6b maintainers <maintainers@users.noreply.a-seed-6c07bd6b.example>"

# What perf and the kernel need to build as Debian's do (gcc-multilib: perf's
# readers of 32-bit vdsos; openssl: the key Debian's config signs modules
# with), plus libdebuginfod, the documentation tools and ccache.
BUILD_DEPS=libelf-dev,libdw-dev,libdebuginfod-dev,zlib1g-dev,liblzma-dev,libzstd-dev,flex,bison
BUILD_DEPS+=,libcap-dev,libnuma-dev,libunwind-dev,libslang2-dev,libperl-dev,python3-dev
BUILD_DEPS+=,libbabeltrace-dev,libopencsd-dev,systemtap-sdt-dev
BUILD_DEPS+=,asciidoc-base,xmlto,docbook-xsl,docbook-xml
BUILD_DEPS+=,bc,libssl-dev,openssl,cpio,kmod,rsync,xz-utils,ccache,file,dwarves,gcc-multilib

# The bullseye build root, build/debs-root, unpacked again when its tarball
# changes; prints its path.
build_root() {
	local tgz root=$TOP/build/debs-root
	tgz=$(bullseye_tarball bullseye-buildd buildd "$BUILD_DEPS")
	if [ ! -f "$root/.from" ] || [ "$(cat "$root/.from")" != "$(stat -c %Y "$tgz")" ]; then
		echo "debs: unpacking the bullseye build root into ${root#"$TOP"/}" >&2
		bullseye_unpack "$tgz" "$root"
		stat -c %Y "$tgz" > "$root/.from"
	fi
	echo "$root"
}
