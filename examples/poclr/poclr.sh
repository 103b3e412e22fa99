#!/bin/bash
# PoCL-R serving hartpool's OpenCL platform to other machines (docs/poclr.md):
# `pocld` (PoCL's remote server, linked with the system's ICD loader) runs
# where the cluster is and sees hartpool's ICD only; clients run PoCL's
# remote driver and reach each server as one device.
#
#   examples/poclr/poclr.sh build POCL_SRC   # PoCL with the remote client and
#                                            # server, no LLVM, into build/poclr
#   examples/poclr/poclr.sh start [N]        # N servers on 127.0.0.1:7777, 7787, ...
#   examples/poclr/poclr.sh client N CMD...  # CMD as a client of the N servers
#   examples/poclr/poclr.sh stop
#   examples/poclr/poclr.sh demo POCL_SRC    # build, 2 servers, clinfo, saxpy,
#                                            # a dependency across 2 servers, stop
#
# POCL_SRC: a git checkout of PoCL after v7.1 (commit a21676e3f: v7.1's
# client hangs when its stdin is at end of file); pocl-remote-d2d-session.patch
# is applied to it (a buffer moved between two servers carried the wrong
# server's session id, and the client waited for ever). Needs `make icd`,
# cmake and ninja.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/poclr
mkdir -p "$out"

build() {
	local src=${1:?POCL_SRC: a PoCL source tree (git)}
	git -C "$src" apply --check "$top/examples/poclr/pocl-remote-d2d-session.patch" 2>/dev/null &&
		git -C "$src" apply "$top/examples/poclr/pocl-remote-d2d-session.patch"
	cmake -S "$src" -B "$out/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_INSTALL_PREFIX="$out/install" -DENABLE_LLVM=OFF \
		-DENABLE_HOST_CPU_DEVICES=OFF -DENABLE_REMOTE_CLIENT=ON \
		-DENABLE_REMOTE_SERVER=ON -DENABLE_ICD=ON -DENABLE_LOADABLE_DRIVERS=ON \
		-DENABLE_TESTS=OFF -DENABLE_EXAMPLES=OFF -DENABLE_POCLCC=OFF \
		-DENABLE_HWLOC=OFF >"$out/cmake.log"
	ninja -C "$out/build" -j2 install >"$out/build.log"
	echo "poclr: $out/install/bin/pocld and $out/install/etc/OpenCL/vendors/pocl.icd"
}

start() {
	local n=${1:-1} i port w
	for ((i = 0; i < n; i++)); do
		port=$((7777 + 10 * i))
		# pocld's loader sees hartpool's ICD only; pocld opens the device
		# (boots its QEMU) before it listens
		OCL_ICD_VENDORS=$top/build/host/hartpool.icd setsid timeout 3600 \
			"$out/install/bin/pocld" -a 127.0.0.1 -p $port -v err \
			</dev/null >"$out/pocld$i.log" 2>&1 &
		echo $! >"$out/pocld$i.pid"
		for ((w = 0; w < 300; w++)); do
			ss -ltn | grep -q "127.0.0.1:$port " && break
			sleep 0.1
		done
		echo "poclr: server $i on 127.0.0.1:$port"
	done
}

stop() {
	local f
	for f in "$out"/pocld*.pid; do
		[ -f "$f" ] || continue
		kill -- -"$(cat "$f")" 2>/dev/null || true
		rm -f "$f"
	done
}

client() { # N CMD...
	local n=$1 devs="" i
	shift
	for ((i = 0; i < n; i++)); do
		devs="$devs remote"
		export POCL_REMOTE${i}_PARAMETERS="127.0.0.1:$((7777 + 10 * i))/0"
	done
	OCL_ICD_VENDORS=$out/install/etc/OpenCL/vendors/pocl.icd POCL_DEVICES="${devs# }" \
		timeout -k 5 120 "$@" </dev/null
}

case "${1:-}" in
build) build "${2:-}" ;;
start) start "${2:-1}" ;;
stop) stop ;;
client) shift && client "$@" ;;
demo)
	build "${2:-}"
	make -C "$top" -s icd
	cc -O2 "$top/examples/opencl/saxpy.c" -o "$out/saxpy" -lOpenCL
	trap stop EXIT
	start 2
	client 1 clinfo -l
	(cd "$top/examples/opencl" && client 1 "$out/saxpy")
	client 2 "$top/build/host/opencl/multidev"
	;;
*) sed -n '2,19p' "$0" && exit 2 ;;
esac
