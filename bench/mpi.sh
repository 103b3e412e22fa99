#!/usr/bin/env bash
# The MPI example over 1, 2 and 4 clusters of 8 harts (docs/mpi.md), in
# exact instructions: every rank's device runs under the counting plugin
# (HP_QEMU_COUNT, one file per rank), and a cluster's work is the sum of
# its harts' WORK regions (bench/kbalance.py). Per run: the work of each
# cluster, their sum against one cluster's (the overhead of the split), the
# largest (the parallel time), and the bytes MPI moves between hosts for
# the SGEMM (A's rows scattered, B broadcast, C's rows gathered) and the
# reduction (one 8-byte sum per rank).
#
#   bench/mpi.sh [--n N] [--out FILE]      (N: the matrices' size, default 128)
set -euo pipefail
cd "$(dirname "$0")/.."
n=128 out=""
while [ $# -gt 0 ]; do
	case "$1" in
	--n) n=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) echo "usage: bench/mpi.sh [--n N] [--out FILE]" >&2; exit 2 ;;
	esac
done
make -s all plugin icd
mkdir -p bench/results
out=${out:-bench/results/$(date -u +%Y%m%dT%H%M%SZ)-mpi-qemu-virt.json}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mpicc -O2 -Wall -Wextra -Werror examples/mpi/mpi_cl.c -o "$tmp/mpi_cl" -lOpenCL -lm
root=()
[ "$(id -u)" != 0 ] || root=(--allow-run-as-root)

rows=()
printf '%-9s %14s %14s %14s %10s %12s\n' clusters "work, sum" "largest" "split overhead" balance "MPI bytes"
one=0
for p in 1 2 4; do
	# one app context per rank, each with its own count file
	app=()
	for r in $(seq 0 $((p - 1))); do
		[ $r = 0 ] || app+=(:)
		app+=(-np 1 env HP_QEMU_COUNT="$tmp/count-$p-$r.txt" "$tmp/mpi_cl" "$n")
	done
	OCL_ICD_VENDORS="$PWD/build/host/hartpool.icd" HARTPOOL_HARTS=8 HWLOC_COMPONENTS=-opencl \
		timeout -k 10 1200 mpirun "${root[@]}" --oversubscribe "${app[@]}" >"$tmp/run-$p.txt" 2>&1 ||
		{ cat "$tmp/run-$p.txt" >&2; echo "mpi: $p ranks failed" >&2; exit 1; }
	grep -q "sgemm ${n}x${n} over $p ranks: OK" "$tmp/run-$p.txt" &&
		grep -q "over $p ranks: .*, OK" "$tmp/run-$p.txt" ||
		{ cat "$tmp/run-$p.txt" >&2; echo "mpi: wrong results on $p ranks" >&2; exit 1; }
	per=()
	for r in $(seq 0 $((p - 1))); do
		per+=("$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["total"])' \
			"$(bench/kbalance.py "$tmp/count-$p-$r.txt")")")
	done
	sum=0 max=0
	for w in "${per[@]}"; do sum=$((sum + w)); [ "$w" -le "$max" ] || max=$w; done
	[ $p != 1 ] || one=$sum
	# floats: A's other ranks' rows out and C's back, B to every other rank
	bytes=$(( p > 1 ? 4 * (2 * n * n * (p - 1) / p + n * n * (p - 1)) + 8 * (p - 1) : 0 ))
	printf '%-9s %14s %14s %14s %10s %12s\n' "$p" "$sum" "$max" \
		"$(awk -v s="$sum" -v o="$one" 'BEGIN{printf "%.4f", s/o}')" \
		"$(awk -v m="$max" -v s="$sum" -v p="$p" 'BEGIN{printf "%.3f", m*p/s}')" "$bytes"
	rows+=("{\"clusters\":$p,\"work\":[$(IFS=,; echo "${per[*]}")],\"sum\":$sum,\"max\":$max,\"mpi_bytes\":$bytes}")
done
echo "(instructions of the clusters' harts in WORK regions: the SGEMM ${n}x${n} and the sum of $((n * 1000)) ints)"
printf '{"bench":"mpi","board":"qemu-virt","harts_per_cluster":8,"n":%s,"unit":"instructions","rows":[%s]}\n' \
	"$n" "$(IFS=,; echo "${rows[*]}")" >"$out"
echo "results: $out"
