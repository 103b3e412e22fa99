#!/usr/bin/env bash
# Benchmarks of the platform under QEMU: boot time over hart counts (boot),
# independent work on every hart (compute), and the cost of waiting harts,
# spinning vs sleeping (wait, wait_spin), each in the three TCG modes. Each case runs REPS times; the table shows
# the median wall time and, under -icount, the deterministic instruction
# count. Results go to build/bench/results/<date>-<board>.json. Then the executor's
# overheads (exact instructions), the dispatch at 8 to 512 harts
# (bench/dispatch_scale.sh), the demo's wall time (bench/demo.sh), the
# mailbox (bench/mbox.sh), clearing freed memory (bench/zero.sh), time
# slices between sessions (bench/slices.sh), the serial
# link at 115200 and 921600 baud (bench/serial.sh), scheduling
# and scaling (bench/kbench.sh), the OpenMP peer (bench/omp/run.sh), the
# comparison table (bench/compare.py), OpenCL kernels and the ICD
# (bench/opencl.sh) and team barriers, software vs the
# barrier unit of qemu-cluster (bench/barrier.sh); each writes its own
# result file.
#
#   bench/run.sh [--board B] [--reps N] [--quick]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
board=qemu-virt reps=3 quick=0
while [ $# -gt 0 ]; do
	case "$1" in
	--board) board=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	*) echo "usage: bench/run.sh [--board B] [--reps N] [--quick]" >&2; exit 2 ;;
	esac
done
make -s BOARD="$board" bench-images >/dev/null

if [ "$quick" = 1 ]; then hart_counts="1 8 512"; else hart_counts="1 2 8 64 256 512"; fi
mkdir -p build/bench/results
out="build/bench/results/$(date -u +%Y%m%dT%H%M%SZ)-$board.json"
host="$(nproc) cores, $(uname -m), $(qemu-system-riscv64 --version | head -1)"
rows=()

# case IMAGE HARTS MODE -> sets med (s) and line (last line of the output)
run_case() {
	local image=$1 harts=$2 mode=$3 times=() t0 t1 args=()
	case "$mode" in
	icount) args=(--icount) ;;
	*) args=(--accel "$mode") ;;
	esac
	for _ in $(seq "$reps"); do
		t0=$(date +%s.%N)
		line=$(timeout 300 qemu/hp-qemu --board "$board" --harts "$harts" "${args[@]}" \
			"build/$board/bench/$image.elf" </dev/null | tail -n 1)
		t1=$(date +%s.%N)
		times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b-a}')")
	done
	med=$(printf '%s\n' "${times[@]}" | sort -n | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}')
	min=$(printf '%s\n' "${times[@]}" | sort -n | head -1)
	max=$(printf '%s\n' "${times[@]}" | sort -n | tail -1)
}
field() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<"$line"; }

printf '%-10s %6s %-7s %10s %10s %10s %14s\n' bench harts mode "wall med" "wall min" "wall max" "instret"
emit() { # bench harts mode
	local ins=null
	[ "$3" != icount ] || ins=$(field instret)
	printf '%-10s %6s %-7s %9ss %9ss %9ss %14s\n' "$1" "$2" "$3" "$med" "$min" "$max" "$ins"
	rows+=("{\"bench\":\"$1\",\"harts\":$2,\"mode\":\"$3\",\"wall_s\":{\"median\":$med,\"min\":$min,\"max\":$max,\"reps\":$reps},\"instret\":${ins:-null}}")
}

for h in $hart_counts; do
	for mode in single multi icount; do
		run_case boot "$h" "$mode"
		emit boot "$h" "$mode"
	done
done
for h in 1 2 8 64; do
	for mode in single multi icount; do
		run_case compute "$h" "$mode"
		emit compute "$h" "$mode"
	done
done
for h in 8 256; do
	for image in wait wait_spin; do
		for mode in single multi icount; do
			run_case "$image" "$h" "$mode"
			emit "$image" "$h" "$mode"
		done
	done
done

# Executor overheads: exact instruction counts on 1 hart under -icount.
echo
echo "executor overheads ($board, 1 hart, -icount, instructions):"
exec_rows=()
while read -r _ _ name value _; do
	printf '  %-12s %10s\n' "$name" "$value"
	exec_rows+=("\"$name\":$value")
done < <(timeout 300 qemu/hp-qemu --board "$board" --harts 1 --icount \
	"build/$board/bench/exec_overhead.elf" </dev/null | grep -E '^bench exec: [a-z_]+ +[0-9.]+ instructions')
while read -r _ _ name value _; do
	printf '  %-12s %10s  (2 harts, teams of 2)\n' "$name" "$value"
	exec_rows+=("\"$name\":$value")
done < <(timeout 300 qemu/hp-qemu --board "$board" --harts 2 --icount \
	"build/$board/bench/exec_overhead.elf" </dev/null | grep -E '^bench exec: [a-z_]+ +[0-9.]+ instructions')
rows+=("{\"bench\":\"exec_overhead\",\"harts\":1,\"mode\":\"icount\",\"instructions\":{$(IFS=,; echo "${exec_rows[*]}")}}")

{
	echo "{\"board\":\"$board\",\"date\":\"$(date -u +%FT%TZ)\",\"commit\":\"$(git rev-parse --short HEAD 2>/dev/null || echo none)\","
	echo " \"host\":\"$host\",\"results\":["
	printf '  %s' "${rows[0]}"
	printf ',\n  %s' "${rows[@]:1}"
	echo
	echo "]}"
} >"$out"
echo "results: $out"

# ---- dispatch scaling (the launch path): the empty dispatch summed
# over all harts at 8, 64 and 512 harts (-icount), its own result file.
echo
echo "dispatch scaling ($board, exact instructions, all harts):"
bench/dispatch_scale.sh --board "$board"
# ---- end dispatch scaling

# The `make run` demo's wall time at 8 and 512 harts.
echo
echo "demo ($board, wall time):"
bench/demo.sh --board "$board" --reps "$reps"

# The mailbox: round trips and throughput through the host tools.
echo
echo "mailbox ($board, host wall time):"
if [ "$quick" = 1 ]; then bench/mbox.sh --board "$board" --quick; else bench/mbox.sh --board "$board"; fi

# Nothing left over: the heap's clearing in instructions, allocations on
# clean and dirty memory in wall time.
echo
if [ "$quick" = 1 ]; then bench/zero.sh --board "$board" --quick; else bench/zero.sh --board "$board"; fi

# Time slices between sessions: a victim's latency beside hogs, the hog's
# share, the cost of a preemption (bench/slices.sh).
echo
echo "time slices ($board, host wall time):"
if [ "$quick" = 1 ]; then bench/slices.sh --board "$board" --quick; else bench/slices.sh --board "$board"; fi

# The serial link paced to 115200 and 921600 baud: bytes per launch and
# per MiB, launches/s and MiB/s measured beside what the bytes give.
echo
echo "serial link ($board, host wall time, paced like a UART):"
if [ "$quick" = 1 ]; then bench/serial.sh --board "$board" --quick; else bench/serial.sh --board "$board"; fi

# Scheduling and scaling in exact per-hart instructions (plugin), the
# OpenMP peer measured the same way, and the table of ratios.
echo
if [ "$quick" = 1 ]; then bench/kbench.sh --board "$board" --quick; else bench/kbench.sh --board "$board"; fi
echo
echo "OpenMP peer (libgomp under qemu-riscv64):"
if [ "$quick" = 1 ]; then bench/omp/run.sh --quick; else bench/omp/run.sh; fi
echo
echo "hartpool / OpenMP:"
bench/compare.py --board "$board"

# OpenCL C kernels against the built-in ones and their previous entries,
# the ICD's launch path, a build from the cache (bench/opencl.sh).
echo
echo "OpenCL ($board):"
if [ "$quick" = 1 ]; then bench/opencl.sh --board "$board" --quick; else bench/opencl.sh --board "$board"; fi

# One NDRange over 1, 2 and 4 clusters in one process (bench/clusters.sh).
echo
echo "Several devices, one NDRange split by global offset:"
bench/clusters.sh --via devices

# The MPI example over 1, 2 and 4 clusters (bench/clusters.sh), where Open MPI
# is installed (make test installs it).
echo
if command -v mpirun >/dev/null && command -v mpicc >/dev/null; then
	echo "MPI, one rank per cluster:"
	bench/clusters.sh --via mpi
else
	echo "MPI: skipped, Open MPI is not installed (scripts/deps.sh test)"
fi

# Team barriers in software against the barrier unit, on board qemu-cluster
# whatever --board is (it runs on the patched QEMU, which `make test` and
# `make qemu-cluster` build; not built here, so a fresh clone's `make bench`
# does not start a QEMU build).
echo
if qemu/build.sh --print-path >/dev/null 2>&1; then
	echo "team barriers, software vs the barrier unit (qemu-cluster):"
	if [ "$quick" = 1 ]; then bench/barrier.sh --quick; else bench/barrier.sh; fi
else
	echo "team barriers: skipped, the patched QEMU of qemu-cluster is not built" \
		"(make qemu-cluster, then bench/barrier.sh)"
fi
# A timeline of a mixed workload from device timestamps (docs/trace.md):
# build/bench/results/timeline-<board>.png, and the exact overheads with the
# trace hooks compiled in (tracing off) against compiled out.
echo
echo "timeline ($board):"
bench/timeline.sh --board "$board"
