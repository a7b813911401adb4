# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A debuginfod fleet on this machine, as network namespaces: the one
# topology the tests, the demo and the bench use.
#
#   build1 ---\
#              central --- analysis
#   build2 ---/
#
# - build1, build2: build servers, each a debuginfod indexing the Debian
#   packages of one directory (-U: .deb and .ddeb; FLEET_SCAN=-F: the
#   ELF files there instead);
# - central: a debuginfod with no files of its own, federating both
#   through its own DEBUGINFOD_URLS;
# - analysis: reaches central only; perf runs there (fleet_exec).
# Each link is a veth pair on a private /30 (10.233.N.0) that exists only
# inside the namespaces.  Every server listens on loopback in its
# namespace, behind scripts/fleet/relay.py on the link address, which delays
# everything it carries by FLEET_DELAY_MS each way (simulated: tc netem is
# refused by this machine's kernel) and logs the requests it forwards.
#
#   fleet_up WORK DIR1 DIR2   start it all (logs in WORK); sets FLEET_URL,
#                             the URL the analysis host uses
#   fleet_exec HOST CMD...    run CMD in a host's namespace
#   fleet_requests HOST       the request lines HOST's server was sent
#   fleet_down                stop every server, delete every namespace
#                             (callers trap it; safe to call twice)
#
# Callers source scripts/lib.sh first (id_of).
#
# FLEET_DELAY_MS (default 20), FLEET_TRICKLE_BPS (central's relay sends to
# the analysis host at that rate: a server that trickles; default off),
# FLEET_SCAN (how the build servers scan their directories: -U, the
# default, or -F).

FLEET_DELAY_MS=${FLEET_DELAY_MS:-20}
FLEET_SCAN=${FLEET_SCAN:--U}
FLEET_TRICKLE_BPS=${FLEET_TRICKLE_BPS:-}
FLEET_PREFIX=mmap3-$$
FLEET_HOSTS=(build1 build2 central analysis)
FLEET_PIDS=()
FLEET_WORK=
export FLEET_URL=
FLEET_PORT=8000		# the relays, on the link addresses
FLEET_SPORT=8002	# the servers, on loopback

fleet_ns() { echo "$FLEET_PREFIX-$1"; }

fleet_exec() {
	local ns
	ns=$(fleet_ns "$1")
	shift
	ip netns exec "$ns" "$@"
}

# fleet_link N HOST: a veth pair central <-> HOST, 10.233.N.1 on central's
# end, 10.233.N.2 on HOST's.
fleet_link() {
	ip link add "to-$2" netns "$(fleet_ns central)" type veth peer name uplink \
		netns "$(fleet_ns "$2")"
	ip -n "$(fleet_ns central)" addr add "10.233.$1.1/30" dev "to-$2"
	ip -n "$(fleet_ns "$2")" addr add "10.233.$1.2/30" dev uplink
	ip -n "$(fleet_ns central)" link set "to-$2" up
	ip -n "$(fleet_ns "$2")" link set uplink up
}

# fleet_bg HOST NAME CMD...: CMD in HOST's namespace, in the background,
# output in WORK/NAME.log.
fleet_bg() {
	local host=$1 name=$2
	shift 2
	fleet_exec "$host" "$@" > "$FLEET_WORK/$name.log" 2>&1 &
	FLEET_PIDS+=("$!")
}

# fleet_serve HOST ADDR [DEBUGINFOD ARGS...]: debuginfod on HOST's
# loopback, and its relay on ADDR; waits until the relay listens.
fleet_serve() {
	local host=$1 addr=$2 _ trickle=()
	shift 2
	fleet_bg "$host" "$host-debuginfod" debuginfod -p "$FLEET_SPORT" \
		-d "$FLEET_WORK/$host.sqlite" "$@"
	if [ "$host" = central ] && [ -n "$FLEET_TRICKLE_BPS" ]; then
		trickle=(--trickle "$FLEET_TRICKLE_BPS")
	fi
	: > "$FLEET_WORK/$host.requests"
	fleet_bg "$host" "$host-relay" "$FLEET_DIR/relay.py" "$addr" "$FLEET_PORT" \
		"$FLEET_SPORT" "$FLEET_DELAY_MS" "$FLEET_WORK/$host.requests" "${trickle[@]}"
	for _ in $(seq 100); do
		grep -q listening "$FLEET_WORK/$host-relay.log" 2> /dev/null && return 0
		sleep 0.1
	done
	echo "fleet: the relay of $host did not start: $(tail -n 3 "$FLEET_WORK/$host-relay.log")" >&2
	return 1
}

fleet_requests() {
	cat "$FLEET_WORK/$1.requests"
}

# fleet_wait HOST ID: until HOST's server serves ID's executable (a scan
# of a package directory takes a moment), up to 120 s.
fleet_wait() {
	local _
	for _ in $(seq 240); do
		if fleet_exec "$1" curl -sf --max-time 10 -o /dev/null \
			"http://127.0.0.1:$FLEET_SPORT/buildid/$2/executable"; then
			return 0
		fi
		sleep 0.5
	done
	echo "fleet: $1 never served $2: $(tail -n 3 "$FLEET_WORK/$1-debuginfod.log")" >&2
	return 1
}

fleet_up() {
	local h
	FLEET_WORK=$1
	FLEET_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	mkdir -p "$FLEET_WORK"
	for h in "${FLEET_HOSTS[@]}"; do
		ip netns add "$(fleet_ns "$h")"
		ip -n "$(fleet_ns "$h")" link set lo up
	done
	fleet_link 1 build1
	fleet_link 2 build2
	fleet_link 3 analysis
	fleet_serve build1 10.233.1.2 "$FLEET_SCAN" "$2" || return 1
	fleet_serve build2 10.233.2.2 "$FLEET_SCAN" "$3" || return 1
	# central: no files, the build servers' through its client cache
	DEBUGINFOD_URLS="http://10.233.1.2:$FLEET_PORT http://10.233.2.2:$FLEET_PORT" \
		DEBUGINFOD_CACHE_PATH=$FLEET_WORK/central-cache \
		fleet_serve central 10.233.3.1 || return 1
	FLEET_URL=http://10.233.3.1:$FLEET_PORT
}

fleet_down() {
	local p h ns
	for p in "${FLEET_PIDS[@]}"; do
		kill "$p" 2> /dev/null || true
	done
	for p in "${FLEET_PIDS[@]}"; do
		wait "$p" 2> /dev/null || true
	done
	FLEET_PIDS=()
	for h in "${FLEET_HOSTS[@]}"; do
		ns=$(fleet_ns "$h")
		[ -e "/run/netns/$ns" ] || continue
		# anything still running there (a perf a test left)
		ip netns pids "$ns" 2> /dev/null | xargs -r kill -9 2> /dev/null || true
		ip netns del "$ns" 2> /dev/null || true
	done
}

# fleet_package NAME VERSION SRC DIR [GCC ARGS...]: build NAME from SRC
# (the GCC ARGS after it: -D..., -l...)
# with debug info, as Debian packages it: DIR/NAME_VERSION_amd64.deb holds
# /usr/bin/NAME stripped (with a .gnu_debuglink), and
# DIR/NAME-dbgsym_VERSION_amd64.ddeb its debuginfo at
# /usr/lib/debug/.build-id/xx/yyyy.debug.  The stripped binary is left at
# DIR/NAME.stripped, the debuginfo at DIR/NAME.debug.  Prints the build id.
fleet_package() {
	local name=$1 version=$2 src=$3 dir=$4 t id dbg
	shift 4
	t=$(mktemp -d "$dir/.pkg.XXXXXX")
	gcc -g -O2 -Wl,--build-id=sha1 -o "$t/$name" "$src" "$@" || return 1
	id=$(id_of "$t/$name")
	[ -n "$id" ] || { echo "fleet: $name has no build id" >&2; return 1; }
	dbg=usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
	mkdir -p "$t/deb/usr/bin" "$t/deb/DEBIAN" "$t/ddeb/${dbg%/*}" "$t/ddeb/DEBIAN"
	objcopy --only-keep-debug "$t/$name" "$t/ddeb/$dbg"
	objcopy --strip-all --add-gnu-debuglink="$t/ddeb/$dbg" "$t/$name" "$t/deb/usr/bin/$name"
	cat > "$t/deb/DEBIAN/control" <<CTL
Package: $name
Version: $version
Architecture: amd64
Maintainer: mmap3 test fleet <root@localhost>
Description: test workload of the mmap3 fleet tests
CTL
	cat > "$t/ddeb/DEBIAN/control" <<CTL
Package: $name-dbgsym
Source: $name
Version: $version
Architecture: amd64
Maintainer: mmap3 test fleet <root@localhost>
Section: debug
Priority: optional
Depends: $name (= $version)
Auto-Built-Package: debug-symbols
Build-Ids: $id
Description: debug symbols for $name
CTL
	dpkg-deb --root-owner-group -Zxz --build "$t/deb" "$dir/${name}_${version}_amd64.deb" > /dev/null &&
	dpkg-deb --root-owner-group -Zxz --build "$t/ddeb" "$dir/$name-dbgsym_${version}_amd64.ddeb" > /dev/null ||
		return 1
	cp "$t/deb/usr/bin/$name" "$dir/$name.stripped"
	cp "$t/ddeb/$dbg" "$dir/$name.debug"
	rm -rf "$t"
	echo "$id"
}
