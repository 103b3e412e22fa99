#!/usr/bin/env bash
# One NDRange over 1, 2 and 4 clusters of 8 harts in one host process
# (`hartpool run sgemm_naive --devices N --check`, docs/mailbox.md), in
# exact instructions: every device runs under the counting plugin
# (HP_QEMU_COUNT with %u: one file per device), and a cluster's work is the
# sum of its harts' WORK regions (bench/kbalance.py). Per run: the work of
# each cluster, their sum against one cluster's (the overhead of the
# split), the largest (the parallel time), and the bytes the host moves
# (the inputs to every device, the other devices' output rows gathered).
#
#   bench/devices.sh [--n N] [--out FILE]   (N: the matrices' size, default 128)
set -euo pipefail
cd "$(dirname "$0")/.."
n=128 out=""
while [ $# -gt 0 ]; do
	case "$1" in
	--n) n=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) echo "usage: bench/devices.sh [--n N] [--out FILE]" >&2; exit 2 ;;
	esac
done
make -s all plugin hartpool
mkdir -p bench/results
out=${out:-bench/results/$(date -u +%Y%m%dT%H%M%SZ)-devices-qemu-virt.json}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rows=()
printf '%-9s %14s %14s %14s %10s %12s\n' clusters "work, sum" "largest" "split overhead" balance "host bytes"
one=0
for p in 1 2 4; do
	HP_QEMU_COUNT="$tmp/count-$p-%u.txt" timeout -k 10 1200 build/host/hartpool run sgemm_naive \
		--devices $p --harts 8 --global "$n,$n" --local 8,8 --arg k="$n" --check \
		>"$tmp/run-$p.txt" 2>&1 ||
		{ cat "$tmp/run-$p.txt" >&2; echo "devices: $p devices failed" >&2; exit 1; }
	grep -q "check: OK ($((n * n)) values)" "$tmp/run-$p.txt" ||
		{ cat "$tmp/run-$p.txt" >&2; echo "devices: wrong results on $p devices" >&2; exit 1; }
	per=()
	for r in $(seq 0 $((p - 1))); do
		per+=("$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["total"])' \
			"$(bench/kbalance.py "$tmp/count-$p-$r.txt")")")
	done
	sum=0 max=0
	for w in "${per[@]}"; do sum=$((sum + w)); [ "$w" -le "$max" ] || max=$w; done
	[ $p != 1 ] || one=$sum
	# floats: A and B to every device but the first, C's rows of the
	# others gathered (read from theirs, written to device 0's)
	bytes=$(( p > 1 ? 4 * (2 * n * n * (p - 1) + 2 * n * n * (p - 1) / p) : 0 ))
	printf '%-9s %14s %14s %14s %10s %12s\n' "$p" "$sum" "$max" \
		"$(awk -v s="$sum" -v o="$one" 'BEGIN{printf "%.4f", s/o}')" \
		"$(awk -v m="$max" -v s="$sum" -v p="$p" 'BEGIN{printf "%.3f", m*p/s}')" "$bytes"
	rows+=("{\"clusters\":$p,\"work\":[$(IFS=,; echo "${per[*]}")],\"sum\":$sum,\"max\":$max,\"host_bytes\":$bytes}")
done
echo "(instructions of the clusters' harts in WORK regions: sgemm_naive ${n}x${n}x${n}, 8x8 groups)"
printf '{"bench":"devices","board":"qemu-virt","harts_per_cluster":8,"n":%s,"unit":"instructions","rows":[%s]}\n' \
	"$n" "$(IFS=,; echo "${rows[*]}")" >"$out"
echo "results: $out"
