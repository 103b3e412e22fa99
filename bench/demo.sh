#!/usr/bin/env bash
# The `make run` demo's wall time (boot, the dependent kernels with checked
# results, shutdown: `hartpool demo`) at 8 and 512 harts, the median of
# REPS runs. Writes build/bench/results/<date>-demo-<board>.json.
#
#   bench/demo.sh [--board B] [--reps N]
set -euo pipefail
cd "$(dirname "$0")/.."
board=qemu-virt reps=3
while [ $# -gt 0 ]; do
	case "$1" in
	--board) board=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	*) echo "usage: bench/demo.sh [--board B] [--reps N]" >&2; exit 2 ;;
	esac
done
make -s BOARD="$board" hartpool
mkdir -p build/bench/results
out="build/bench/results/$(date -u +%Y%m%dT%H%M%SZ)-demo-$board.json"
rows=()
printf '%-10s %6s %10s %10s %10s\n' board harts "wall med" "wall min" "wall max"
for h in 8 512; do
	times=()
	for _ in $(seq "$reps"); do
		t0=$(date +%s.%N)
		timeout 300 build/host/hartpool demo --board "$board" --harts "$h" >/dev/null
		t1=$(date +%s.%N)
		times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b-a}')")
	done
	sorted=$(printf '%s\n' "${times[@]}" | sort -n)
	med=$(awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}' <<<"$sorted")
	min=$(head -1 <<<"$sorted") max=$(tail -1 <<<"$sorted")
	printf '%-10s %6s %9ss %9ss %9ss\n' "$board" "$h" "$med" "$min" "$max"
	rows+=("{\"harts\":$h,\"wall_s\":{\"median\":$med,\"min\":$min,\"max\":$max,\"reps\":$reps}}")
done
{
	echo "{\"bench\":\"demo\",\"board\":\"$board\",\"date\":\"$(date -u +%FT%TZ)\","
	echo " \"commit\":\"$(git rev-parse --short HEAD 2>/dev/null || echo none)\",\"host_cores\":$(nproc),"
	echo " \"results\":[$(IFS=,; echo "${rows[*]}")]}"
} >"$out"
echo "results: $out"
