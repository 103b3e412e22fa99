#!/usr/bin/env bash
# One job over 1, 2 and 4 clusters of 8 harts, in exact instructions: every
# cluster's device runs under the counting plugin (HP_QEMU_COUNT, one file
# per device), and a cluster's work is the sum of its harts' WORK regions
# (bench/kbalance.py). Per run: the work of each cluster, their sum against
# one cluster's (the overhead of the split), the largest (the parallel
# time), and the bytes moved between the clusters' hosts. The job:
#
#   --via mpi      the MPI example (examples/mpi/mpi_cl.c, docs/mpi.md), one
#                  rank per cluster: the SGEMM (A's rows scattered, B
#                  broadcast, C's rows gathered) and the reduction (one
#                  8-byte sum per rank);
#   --via devices  `hartpool run sgemm_naive --devices N --check` in one
#                  process (docs/mailbox.md): A and B to every device, the
#                  other devices' rows of C gathered through the host.
#
#   bench/clusters.sh --via mpi|devices [--n N] [--out FILE]
#                     (N: the matrices' size, default 128)
set -euo pipefail
cd "$(dirname "$0")/.."
via="" n=128 out=""
usage() { echo "usage: bench/clusters.sh --via mpi|devices [--n N] [--out FILE]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	--via) via=$2; shift 2 ;;
	--n) n=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) usage ;;
	esac
done
case "$via" in mpi | devices) ;; *) usage ;; esac
mkdir -p build/bench/results
out=${out:-build/bench/results/$(date -u +%Y%m%dT%H%M%SZ)-$via-qemu-virt.json}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "$via" = mpi ]; then
	make -s all plugin icd
	mpicc -O2 -Wall -Wextra -Werror examples/mpi/mpi_cl.c -o "$tmp/mpi_cl" -lOpenCL -lm
	root=()
	[ "$(id -u)" != 0 ] || root=(--allow-run-as-root)
	what="the SGEMM ${n}x${n} and the sum of $((n * 1000)) ints"
else
	make -s all plugin hartpool
	what="sgemm_naive ${n}x${n}x${n}, 8x8 groups"
fi

# run_job P: the job on P clusters, count files $tmp/count-P-<cluster>.txt
run_job() {
	local p=$1 r app=()
	if [ "$via" = mpi ]; then
		# one app context per rank, each with its own count file
		for r in $(seq 0 $((p - 1))); do
			[ "$r" = 0 ] || app+=(:)
			app+=(-np 1 env HP_QEMU_COUNT="$tmp/count-$p-$r.txt" "$tmp/mpi_cl" "$n")
		done
		OCL_ICD_VENDORS="$PWD/build/host/hartpool.icd" HARTPOOL_HARTS=8 HWLOC_COMPONENTS=-opencl \
			timeout -k 10 1200 mpirun "${root[@]}" --oversubscribe "${app[@]}" >"$tmp/run-$p.txt" 2>&1 &&
			grep -q "sgemm ${n}x${n} over $p ranks: OK" "$tmp/run-$p.txt" &&
			grep -q "over $p ranks: .*, OK" "$tmp/run-$p.txt"
	else
		HP_QEMU_COUNT="$tmp/count-$p-%u.txt" timeout -k 10 1200 build/host/hartpool run \
			sgemm_naive --devices "$p" --harts 8 --global "$n,$n" --local 8,8 \
			--arg k="$n" --check >"$tmp/run-$p.txt" 2>&1 &&
			grep -q "check: OK ($((n * n)) values)" "$tmp/run-$p.txt"
	fi
}

# bytes P: what the hosts move for P clusters (floats, and MPI's sums)
bytes() {
	local p=$1
	[ "$p" -gt 1 ] || { echo 0; return; }
	if [ "$via" = mpi ]; then
		echo $((4 * (2 * n * n * (p - 1) / p + n * n * (p - 1)) + 8 * (p - 1)))
	else
		echo $((4 * (2 * n * n * (p - 1) + 2 * n * n * (p - 1) / p)))
	fi
}

rows=()
printf '%-9s %14s %14s %14s %10s %12s\n' clusters "work, sum" "largest" "split overhead" balance "$via bytes"
one=0
for p in 1 2 4; do
	run_job $p || { cat "$tmp/run-$p.txt" >&2; echo "clusters: $via on $p clusters failed" >&2; exit 1; }
	per=()
	for r in $(seq 0 $((p - 1))); do
		per+=("$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["total"])' \
			"$(bench/kbalance.py "$tmp/count-$p-$r.txt")")")
	done
	sum=0 max=0
	for w in "${per[@]}"; do sum=$((sum + w)); [ "$w" -le "$max" ] || max=$w; done
	[ $p != 1 ] || one=$sum
	b=$(bytes $p)
	printf '%-9s %14s %14s %14s %10s %12s\n' "$p" "$sum" "$max" \
		"$(awk -v s="$sum" -v o="$one" 'BEGIN{printf "%.4f", s/o}')" \
		"$(awk -v m="$max" -v s="$sum" -v p="$p" 'BEGIN{printf "%.3f", m*p/s}')" "$b"
	key=$([ "$via" = mpi ] && echo mpi_bytes || echo host_bytes)
	rows+=("{\"clusters\":$p,\"work\":[$(IFS=,; echo "${per[*]}")],\"sum\":$sum,\"max\":$max,\"$key\":$b}")
done
echo "(instructions of the clusters' harts in WORK regions: $what)"
printf '{"bench":"%s","board":"qemu-virt","harts_per_cluster":8,"n":%s,"unit":"instructions","rows":[%s]}\n' \
	"$via" "$n" "$(IFS=,; echo "${rows[*]}")" >"$out"
echo "results: $out"
