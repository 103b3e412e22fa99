#!/usr/bin/env bash
# The OpenMP peer of hartpool's benchmarks (docs/peer.md): builds
# build/omp/epcc and build/omp/kernels (make omp-peer) and runs them under
# qemu-riscv64 at each thread count, with OMP_WAIT_POLICY=passive (idle
# threads sleep in futex, as idle harts sleep in wfi), OMP_PROC_BIND=false
# and OMP_DYNAMIC=false. Each program runs once without the plugin (wall
# time) and, when the instruction-count plugin exists, once more under it
# (instructions per thread between markers). Prints the tables and writes
# JSON (default build/bench/results/<date>-omp.json). Exits 1 if a kernel's
# result was wrong or a program failed.
#
#   bench/omp/run.sh [--threads N[,N...]] [--plugin PATH | --no-plugin]
#                    [--quick] [--reps N] [--out FILE]
#
# Default threads 1,2,4,8; default plugin build/host/hpcount.so (built with
# make when qemu/objects.mk has its rule; wall time only when it is absent).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
threads="1,2,4,8" plugin=build/host/hpcount.so plugin_given=0 quick=0
reps="" out=""
usage() {
	echo "usage: bench/omp/run.sh [--threads N[,N...]] [--plugin PATH | --no-plugin] [--quick] [--reps N] [--out FILE]" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case "$1" in
	--threads) [ $# -ge 2 ] || usage; threads=$2; shift 2 ;;
	--plugin) [ $# -ge 2 ] || usage; plugin=$2; plugin_given=1; shift 2 ;;
	--no-plugin) plugin=""; plugin_given=1; shift ;;
	--quick) quick=1; shift ;;
	--reps) [ $# -ge 2 ] || usage; reps=$2; shift 2 ;;
	--out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
	*) usage ;;
	esac
done
[[ "$threads" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || usage
[ -z "$reps" ] || [[ "$reps" =~ ^[1-9][0-9]*$ ]] || usage

if ! make -s omp-peer; then
	echo "omp: build failed (needs gcc-riscv64-linux-gnu, libc6-dev-riscv64-cross, libgomp1-riscv64-cross)" >&2
	exit 1
fi
command -v qemu-riscv64 >/dev/null || { echo "omp: qemu-riscv64 missing (Debian qemu-user)" >&2; exit 1; }

# The plugin: the given one (must exist), else the project's, (re)built
# when its rule is there.
if [ "$plugin_given" = 0 ] && [ -f qemu/objects.mk ]; then
	make -s "$plugin" >/dev/null 2>&1 || echo "omp: could not build $plugin" >&2
fi
if [ -z "$plugin" ]; then
	echo "omp: --no-plugin: wall time only"
elif [ -f "$plugin" ]; then
	plugin=$(cd "$(dirname "$plugin")" && pwd)/$(basename "$plugin")
	echo "omp: instructions from $plugin"
elif [ "$plugin_given" = 1 ]; then
	echo "omp: no plugin at $plugin" >&2
	exit 1
else
	echo "omp: no plugin at $plugin: wall time only"
	plugin=""
fi

# Sizes: name, program, arguments (the programs take -r REPS first).
if [ "$quick" = 1 ]; then
	epcc_args="-i 64 -N 1024" kreps=${reps:-3} ereps=${reps:-3}
	cases=("vadd kernels vadd 32768" "saxpy kernels saxpy 32768"
		"sgemm kernels sgemm 32" "mandel kernels mandel 64 64 128 64"
		"reduce kernels reduce 32768" "hist kernels hist 32768")
else
	epcc_args="" kreps=${reps:-5} ereps=${reps:-7}
	cases=("vadd kernels vadd 262144" "saxpy kernels saxpy 262144"
		"sgemm kernels sgemm 96" "mandel kernels mandel 256 256 128 64"
		"reduce kernels reduce 262144" "hist kernels hist 262144")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
plugin_src=${plugin#"$PWD/"} # as the tree names it, not the machine
if [ -n "$plugin" ]; then # a private copy: a rebuild meanwhile cannot hit a run
	cp "$plugin" "$work/plugin.so"
	plugin=$work/plugin.so
fi
failed=0
run() { # threads name prog args...
	local t=$1 name=$2 prog=$3
	shift 3
	local env=(env OMP_NUM_THREADS="$t" OMP_WAIT_POLICY=passive OMP_PROC_BIND=false OMP_DYNAMIC=false)
	printf 'omp: %2s threads %-7s' "$t" "$name"
	if ! "${env[@]}" timeout 900 qemu-riscv64 "build/omp/$prog" "$@" >"$work/t$t-$name.out"; then
		echo " FAILED (see above)"
		failed=1
		return
	fi
	if [ -n "$plugin" ] && ! "${env[@]}" timeout 900 qemu-riscv64 -plugin "$plugin,out=$work/t$t-$name.marks" \
		"build/omp/$prog" "$@" >/dev/null; then
		echo " FAILED under the plugin"
		failed=1
		return
	fi
	echo " ok"
}
for t in ${threads//,/ }; do
	# shellcheck disable=SC2086 # epcc_args are words
	run "$t" epcc epcc -r "$ereps" $epcc_args
	for c in "${cases[@]}"; do
		# shellcheck disable=SC2086 # a case is words
		set -- $c
		name=$1 prog=$2
		shift 2
		run "$t" "$name" "$prog" -r "$kreps" "$@"
	done
done

mkdir -p build/bench/results
[ -n "$out" ] || out="build/bench/results/$(date -u +%Y%m%dT%H%M%SZ)-omp.json"
python3 - "$work/meta.json" <<PY
import json, sys
json.dump({"bench": "omp", "date": "$(date -u +%FT%TZ)",
           "commit": "$(git rev-parse --short HEAD 2>/dev/null || echo none)",
           "host": "$(nproc) cores, $(uname -m)",
           "qemu": "$(qemu-riscv64 --version | head -1)",
           "compiler": "$(riscv64-linux-gnu-gcc --version | head -1)",
           "plugin": "$plugin_src" or None, "threads": [$threads],
           "quick": $quick == 1,
           "env": {"OMP_WAIT_POLICY": "passive", "OMP_PROC_BIND": "false",
                   "OMP_DYNAMIC": "false"}}, open(sys.argv[1], "w"))
PY
echo
python3 bench/omp/report.py "$work" "$out" "$work/meta.json" || failed=1
echo "results: $out"
exit "$failed"
