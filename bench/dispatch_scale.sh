#!/usr/bin/env bash
# The empty dispatch at 8, 64 and 512 harts, in exact instructions summed
# over every hart (bench/dispatch_scale.c, single-threaded TCG under
# -icount, where minstret counts all harts): one work-group, and eight
# work-groups (the same work at every hart count). Prints a table with each
# count's ratio to the 8-hart one and writes
# build/bench/results/<date>-dispatch-scale-<board>.json.
#
#   bench/dispatch_scale.sh [--board B]
set -euo pipefail
cd "$(dirname "$0")/.."
board=qemu-virt
while [ $# -gt 0 ]; do
	case "$1" in
	--board) board=$2; shift 2 ;;
	*) echo "usage: bench/dispatch_scale.sh [--board B]" >&2; exit 2 ;;
	esac
done
make -s BOARD="$board" bench-images
mkdir -p build/bench/results
out="build/bench/results/$(date -u +%Y%m%dT%H%M%SZ)-dispatch-scale-$board.json"
declare -A count
rows=()
for h in 8 64 512; do
	lines=$(timeout 600 qemu/hp-qemu --board "$board" --harts "$h" --icount \
		--timeout 600 "build/$board/bench/dispatch_scale.elf" </dev/null |
		grep '^bench dispatch_scale:') || { echo "dispatch_scale: $h harts failed" >&2; exit 1; }
	while read -r _ _ hh gg ii _; do
		g=${gg#groups=} n=${ii#instructions=}
		count[$h,$g]=$n
		rows+=("{\"harts\":${hh#harts=},\"groups\":$g,\"instructions\":$n}")
	done <<<"$lines"
done
printf '%-8s %-7s %13s %9s\n' groups harts instructions "vs 8"
for g in 1 8; do
	for h in 8 64 512; do
		[ -n "${count[$h,$g]:-}" ] || continue
		base=${count[8,$g]:-${count[64,$g]}}
		printf '%-8s %-7s %13s %9s\n' "$g" "$h" "${count[$h,$g]}" \
			"$(awk -v a="${count[$h,$g]}" -v b="$base" 'BEGIN{printf "%.3f", a/b}')"
	done
done
{
	echo "{\"bench\":\"dispatch_scale\",\"board\":\"$board\",\"date\":\"$(date -u +%FT%TZ)\","
	echo " \"commit\":\"$(git rev-parse --short HEAD 2>/dev/null || echo none)\",\"mode\":\"icount, all harts\","
	echo " \"ratio_512_to_8\":$(awk -v a="${count[512,1]}" -v b="${count[8,1]}" 'BEGIN{printf "%.3f", a/b}'),"
	echo " \"results\":[$(IFS=,; echo "${rows[*]}")]}"
} >"$out"
echo "results: $out"
