#!/usr/bin/env bash
# What "nothing left over" costs (docs/sessions.md): the heap's clearing in
# exact instructions (bench/zero_clear.c on 1 hart under -icount: an idle
# hart's step with nothing dirty, an allocation on clean and on dirty
# memory, the idle harts' clearing per MiB), then host wall time of
# allocations on clean, just-freed and idle-cleared memory
# (bench/zero_alloc.c on `hartpool up --harts 8`), and the empty dispatch
# (`hartpool bench`) with the idle hook in place. Prints a table and writes
# build/bench/results/<date>-zero-<board>.json.
#
#   bench/zero.sh [--board B] [--reps N] [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
board=qemu-virt reps=5 quick=0
while [ $# -gt 0 ]; do
	case "$1" in
	--board) board=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	*) echo "usage: bench/zero.sh [--board B] [--reps N] [--quick]" >&2; exit 2 ;;
	esac
done
[ "$quick" = 0 ] || reps=3
make -s BOARD="$board" hartpool bench-images build/host/bench/zero_alloc
HP=build/host/hartpool
mkdir -p build/bench/results
out="build/bench/results/$(date -u +%Y%m%dT%H%M%SZ)-zero-$board.json"

echo "heap clearing ($board, 1 hart, -icount, instructions):"
ins=()
while read -r _ _ name value _; do
	printf '  %-12s %10s\n' "$name" "$value"
	ins+=("\"$name\":$value")
done < <(timeout 300 qemu/hp-qemu --board "$board" --harts 1 --icount \
	"build/$board/bench/zero_clear.elf" </dev/null | grep -E '^bench zero: [a-z_0-9]+ +[0-9]+ instructions')
[ "${#ins[@]}" = 5 ] || { echo "zero: zero_clear printed ${#ins[@]} of 5 figures" >&2; exit 1; }

conn=$("$HP" up --board "$board" --harts 8 | tail -1)
trap '"$HP" down --connect "$conn" >/dev/null 2>&1' EXIT
echo
echo "allocation wall time ($board, 8 harts, median of $reps, us):"
printf '  %6s %10s %10s %12s %18s %12s\n' MiB clean dirty "after idle" "clean after wait" "same place"
allocs=()
while read -r _ s c d a k p _; do
	s=${s#*=} c=${c#*=} d=${d#*=} a=${a#*=} k=${k#*=} p=${p#*=}
	printf '  %6s %10s %10s %12s %18s %12s\n' "$s" "$c" "$d" "$a" "$k" "$p"
	allocs+=("{\"mib\":$s,\"clean_us\":$c,\"dirty_us\":$d,\"after_idle_us\":$a,\"clean_after_wait_us\":$k,\"same_place\":\"$p\"}")
done < <(timeout 900 build/host/bench/zero_alloc --connect "$conn" --reps "$reps" --wait 1500 1 16 64)
[ "${#allocs[@]}" = 3 ] || { echo "zero: zero_alloc printed ${#allocs[@]} of 3 rows" >&2; exit 1; }

echo
echo "empty dispatch ($board, 8 harts, hartpool bench):"
disp=$(timeout 300 "$HP" bench --connect "$conn" --count 2000 --json)
python3 -c 'import json,sys; r=json.loads(sys.argv[1]); l=r["latency_us"]
print("  p50 %.1f us, min %.1f us, %d kernels/s" % (l["p50"], l["min"], r["throughput"]["kernels_per_s"]))' "$disp"

{
	echo "{\"board\":\"$board\",\"date\":\"$(date -u +%FT%TZ)\",\"commit\":\"$(git rev-parse --short HEAD 2>/dev/null || echo none)\","
	echo " \"instructions\":{$(IFS=,; echo "${ins[*]}")},"
	echo " \"alloc\":[$(IFS=,; echo "${allocs[*]}")],"
	echo " \"dispatch\":$disp}"
} >"$out"
echo "results: $out"
