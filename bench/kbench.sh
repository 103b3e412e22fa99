#!/usr/bin/env bash
# Scheduling and scaling, in exact per-hart instructions: one launch per QEMU
# run of bench/kbench.elf under the instruction-count plugin, with harts
# advancing at equal rates (single-threaded TCG, --icount-shift 10: QEMU
# gives each hart a turn every ~98,000 instructions, as equal-speed harts on
# hardware would). A hart's work is the sum of its WORK regions (the chunks
# of work-groups it ran); the parallel time of a barrier-free launch is the
# largest per-hart work, balance = max / mean.
#
#   bench/kbench.sh [--board B] [--quick] [--out FILE]
#
# 1. scheduling on mandelbrot 256x256 (uneven work) at 8 harts: the guided
#    pool vs a static split vs fixed chunks of 1 and 16 groups;
# 2. scaling of mandelbrot, vadd and sgemm_naive over 1..512 harts:
#    parallel time, speed-up and efficiency against 1 hart, local size
#    chosen by the runtime (as OpenMP static chooses its chunks).
# Prints tables, writes JSON (default build/bench/results/<date>-kbench-<board>.json)
# and the plot build/bench/results/scaling-<board>.png (gnuplot).
set -euo pipefail
cd "$(dirname "$0")/.."
board=qemu-virt quick=0 out=""
while [ $# -gt 0 ]; do
	case "$1" in
	--board) board=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	--out) out=$2; shift 2 ;;
	*) echo "usage: bench/kbench.sh [--board B] [--quick] [--out FILE]" >&2; exit 2 ;;
	esac
done
make -s BOARD="$board" bench-images plugin
mkdir -p build/bench/results
stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=${out:-build/bench/results/$stamp-kbench-$board.json}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run HARTS APPEND -> prints the kbalance JSON of that run
run() {
	local log=$tmp/count.txt
	qemu/hp-qemu --board "$board" --harts "$1" --icount-shift 10 --count "$log" \
		--timeout 600 --append "$2" "build/$board/bench/kbench.elf" >"$tmp/console.txt" 2>&1 ||
		{ cat "$tmp/console.txt" >&2; echo "kbench: run failed: $1 harts, $2" >&2; exit 1; }
	grep -q "kbench: .*: OK" "$tmp/console.txt" || { cat "$tmp/console.txt" >&2; exit 1; }
	bench/kbalance.py "$log"
}
field() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

rows=()
echo "scheduling: mandelbrot 256x256, 128 iterations, 8 harts (instructions per hart)"
printf '  %-12s %12s %12s %8s\n' schedule "max (parallel)" "total" balance
for s in "guided 0 1" "static 1 1" "fixed-1 2 1" "fixed-16 2 16"; do
	set -- $s
	j=$(run 8 "kbench.kernel=0 kbench.size=256 kbench.sched=$2 kbench.chunk=$3")
	printf '  %-12s %12s %12s %8.3f\n' "$1" "$(field "$j" max)" "$(field "$j" total)" "$(field "$j" balance)"
	rows+=("{\"bench\":\"schedule\",\"kernel\":\"mandelbrot\",\"size\":256,\"harts\":8,\"schedule\":\"$1\",\"result\":$j}")
done

if [ "$quick" = 1 ]; then hart_counts="1 2 4 8"; else hart_counts="1 2 4 8 16 32 64 128 256 512"; fi
echo
echo "scaling (guided pool): parallel time = largest per-hart work, instructions"
printf '  %-12s %6s %12s %9s %10s\n' kernel harts "max" speedup efficiency
: >"$tmp/plot.dat"
# (kernel, size, schedule: vadd and sgemm static, as the OpenMP peer runs them)
for kspec in "mandelbrot 0 256 0" "vadd 1 1048576 1" "sgemm_naive 2 128 1"; do
	set -- $kspec
	t1=""
	for h in $hart_counts; do
		j=$(run "$h" "kbench.kernel=$2 kbench.size=$3 kbench.local=0 kbench.sched=$4")
		m=$(field "$j" max)
		[ -n "$t1" ] || t1=$m
		sp=$(python3 -c "print('%.2f' % ($t1 / $m))")
		ef=$(python3 -c "print('%.3f' % ($t1 / $m / $h))")
		printf '  %-12s %6s %12s %9s %10s\n' "$1" "$h" "$m" "$sp" "$ef"
		echo "$1 $h $sp $ef" >>"$tmp/plot.dat"
		rows+=("{\"bench\":\"scaling\",\"kernel\":\"$1\",\"size\":$3,\"harts\":$h,\"speedup\":$sp,\"efficiency\":$ef,\"result\":$j}")
	done
done

{
	echo "{\"bench\":\"kbench\",\"board\":\"$board\",\"date\":\"$(date -u +%FT%TZ)\","
	echo " \"commit\":\"$(git rev-parse --short HEAD 2>/dev/null || echo none)\","
	echo " \"method\":\"single-threaded TCG, icount shift 10, plugin per-hart WORK regions\","
	echo " \"results\":["
	printf '  %s' "${rows[0]}"
	printf ',\n  %s' "${rows[@]:1}"
	echo
	echo "]}"
} >"$out"
echo "results: $out"

if command -v gnuplot >/dev/null; then
	png=build/bench/results/scaling-$board.png
	gnuplot <<EOF
set terminal pngcairo size 800,500 noenhanced
set output "$png"
set title "hartpool scaling on $board (parallel time in exact instructions)"
set logscale xy 2
set xlabel "harts"
set ylabel "speed-up over 1 hart"
set key left top
set grid
plot x title "ideal" with lines dashtype 2 lc rgb "gray", \
     "< grep '^mandelbrot ' $tmp/plot.dat" using 2:3 title "mandelbrot 256x256" with linespoints, \
     "< grep '^vadd ' $tmp/plot.dat" using 2:3 title "vadd 1M" with linespoints, \
     "< grep '^sgemm_naive ' $tmp/plot.dat" using 2:3 title "sgemm 128x128x128" with linespoints
EOF
	echo "plot: $png"
fi
