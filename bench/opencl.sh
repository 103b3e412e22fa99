#!/usr/bin/env bash
# OpenCL C kernels against the built-in kernels of the same names, in exact
# instructions: each run boots its own device under the instruction-count
# plugin (HP_QEMU_COUNT: hp-qemu --count at -icount shift=10) with 2 harts,
# the dispatcher and one worker, so the worker's WORK regions are all of
# the kernel's work; instructions per element = that sum / the elements.
# Three builds of each kernel: the built-in HP_KERNEL, the OpenCL C of
# bench/opencl/kernels.cl as `hartpool build` makes it (the row loop,
# docs/opencl.md), and the same with -cl-hartpool-item-calls (a call per
# work-item, the entry before the row loop). Target: OpenCL
# barrier-free kernels at most 1.05x the built-in's instructions.
#
#   bench/opencl.sh [--board B] [--quick] [--out FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
board=qemu-virt quick=0 out=""
while [ $# -gt 0 ]; do
	case "$1" in
	--board) board=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	--out) out=$2; shift 2 ;;
	*) echo "usage: bench/opencl.sh [--board B] [--quick] [--out FILE]" >&2; exit 2 ;;
	esac
done
make -s BOARD="$board" all plugin opencl-lib build/host/hartpool
hp=build/host/hartpool
mkdir -p build/bench/results
stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=${out:-build/bench/results/$stamp-opencl-$board.json}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

$hp build --board "$board" -cl-std=CL3.0 bench/opencl/kernels.cl -o "$tmp/loop.hpk" 2>"$tmp/loop.log"
$hp build --board "$board" -cl-std=CL3.0 -cl-hartpool-item-calls bench/opencl/kernels.cl \
	-o "$tmp/item.hpk" 2>"$tmp/item.log"
grep -q "kernel vadd: one loop per row" "$tmp/loop.log" ||
	{ cat "$tmp/loop.log" >&2; echo "opencl: vadd did not get the row loop" >&2; exit 1; }

# count ARGS... -> prints the worker's instructions (WORK regions)
count() {
	local log=$tmp/count.txt
	rm -f "$log"
	HP_QEMU_COUNT=$log timeout 600 $hp run --board "$board" --harts "${harts:-2}" "$@" \
		>"$tmp/run.txt" 2>&1 || { cat "$tmp/run.txt" >&2; echo "opencl: run failed: $*" >&2; exit 1; }
	python3 -c 'import json,sys; print(json.loads(sys.argv[1])["total"])' "$(bench/kbalance.py "$log")"
}

if [ "$quick" = 1 ]; then n=16384 s=64; else n=65536 s=128; fi
rows=()
printf '%-12s %10s %12s %12s %12s %8s %8s\n' kernel elements built-in "OpenCL loop" "OpenCL call" "loop/b-in" "target"
for k in vadd saxpy sgemm_naive; do
	case $k in
	vadd)
		e=$n
		bi=(vadd --global "$n" --local 64 --check)
		ka=(--global "$n" --local 64 --karg "buf:f32:$n:rand" --karg "buf:f32:$n:rand"
			--karg "buf:f32:$n" --karg "u64:$n") ;;
	saxpy)
		e=$n
		bi=(saxpy --global "$n" --local 64 --arg a=1.5 --check)
		ka=(--global "$n" --local 64 --karg "buf:f32:$n:rand" --karg "buf:f32:$n:rand"
			--karg "u64:$n" --karg f32:1.5 --karg u32:0) ;;
	sgemm_naive)
		e=$((s * s))
		bi=(sgemm_naive --global "$s,$s" --local 8,8 --arg "k=$s" --check)
		ka=(--global "$s,$s" --local 8,8 --karg "buf:f32:$((s * s)):rand"
			--karg "buf:f32:$((s * s)):rand" --karg "buf:f32:$((s * s))"
			--karg "u64:$((s * s))" --karg "u64:$((s * s))" --karg "u64:$((s * s))"
			--karg "u64:$s" --karg "u64:$s" --karg "u64:$s") ;;
	esac
	b=$(count "${bi[@]}")
	l=$(count "$k" --kernel-file "$tmp/loop.hpk" "${ka[@]}")
	c=$(count "$k" --kernel-file "$tmp/item.hpk" "${ka[@]}")
	r=$(awk -v l="$l" -v b="$b" 'BEGIN{printf "%.3f", l/b}')
	met=$(awk -v r="$r" 'BEGIN{print (r <= 1.05) ? "met" : "missed"}')
	printf '%-12s %10s %12s %12s %12s %8s %8s\n' "$k" "$e" \
		"$(awk -v v="$b" -v e="$e" 'BEGIN{printf "%.2f", v/e}')" \
		"$(awk -v v="$l" -v e="$e" 'BEGIN{printf "%.2f", v/e}')" \
		"$(awk -v v="$c" -v e="$e" 'BEGIN{printf "%.2f", v/e}')" "$r" "≤1.05 $met"
	rows+=("{\"kernel\":\"$k\",\"elements\":$e,\"builtin\":$b,\"opencl_loop\":$l,\"opencl_item_calls\":$c,\"ratio\":$r}")
done
echo "(instructions per element of the worker hart; loop/b-in: the OpenCL row loop over the built-in)"

# Kernels with barriers: the work-group function (loops between barriers)
# against fibers (-cl-hartpool-item-calls) and the built-in.
echo
printf '%-12s %10s %12s %12s %12s %8s %8s\n' kernel elements built-in "OpenCL wg-fn" "OpenCL fiber" "wg/fiber" "wg/b-in"
if [ "$quick" = 1 ]; then t=32 rn=4096; else t=128 rn=65536; fi
for k in sgemm_tiled reduce reduce_sg scan_sg reduce_wg; do
	b=null
	case $k in
	sgemm_tiled)
		e=$((t * t))
		b=$(count sgemm_tiled --global "$t,$t" --local 16,16 --arg "k=$t" --check)
		ka=(--global "$t,$t" --local 16,16 --karg "buf:f32:$((t * t)):rand"
			--karg "buf:f32:$((t * t)):rand" --karg "buf:f32:$((t * t))"
			--karg "u64:$((t * t))" --karg "u64:$((t * t))" --karg "u64:$((t * t))"
			--karg "u64:$t" --karg "u64:$t" --karg "u64:$t") ;;
	reduce)
		e=$rn
		ka=(--global "$rn" --local 256 --karg "buf:i32:$rn:rand" --karg "buf:i32:$((rn / 256))"
			--karg "u64:$rn") ;;
	reduce_sg)
		e=$rn
		ka=(--global "$rn" --local 256 --karg "buf:i32:$rn:rand" --karg "buf:i32:1"
			--karg "u64:$rn") ;;
	scan_sg)
		e=$rn
		ka=(--global "$rn" --local 256 --karg "buf:i32:$rn:rand" --karg "buf:i32:$rn"
			--karg "u64:$rn") ;;
	reduce_wg)
		e=$rn
		ka=(--global "$rn" --local 256 --karg "buf:i32:$rn:rand" --karg "buf:i32:$((rn / 256))"
			--karg "u64:$rn") ;;
	esac
	l=$(count "$k" --kernel-file "$tmp/loop.hpk" "${ka[@]}")
	# 16x16 fibers of 1 KiB do not fit one hart's 256 KiB arena (a team
	# would hold them, but a team's work is not in WORK regions)
	if [ $k = sgemm_tiled ]; then
		c=null r=-
	else
		c=$(count "$k" --kernel-file "$tmp/item.hpk" "${ka[@]}")
		r=$(awk -v l="$l" -v c="$c" 'BEGIN{printf "%.3f", l/c}')
	fi
	rb=$( [ "$b" = null ] && echo - || awk -v l="$l" -v b="$b" 'BEGIN{printf "%.3f", l/b}')
	printf '%-12s %10s %12s %12s %12s %8s %8s\n' "$k" "$e" \
		"$( [ "$b" = null ] && echo - || awk -v v="$b" -v e="$e" 'BEGIN{printf "%.2f", v/e}')" \
		"$(awk -v v="$l" -v e="$e" 'BEGIN{printf "%.2f", v/e}')" \
		"$( [ "$c" = null ] && echo - || awk -v v="$c" -v e="$e" 'BEGIN{printf "%.2f", v/e}')" "$r" "$rb"
	rows+=("{\"kernel\":\"$k\",\"elements\":$e,\"builtin\":$b,\"opencl_wgfn\":$l,\"opencl_fibers\":$c}")
done
echo "(targets: sgemm_tiled wg-fn below OpenCL sgemm_naive and ≤1.1x the built-in; reduce ≤0.4x fibers)"

# A barrier per work-item: (count with 64 rounds - with none) / (64 x items),
# each round a multiply-add per item and a barrier
bn=4096
for e in loop item; do
	c0=$(count barriers --kernel-file "$tmp/$e.hpk" --global $bn --local 256 --karg "buf:u32:$bn" --karg u32:0)
	c1=$(count barriers --kernel-file "$tmp/$e.hpk" --global $bn --local 256 --karg "buf:u32:$bn" --karg u32:64)
	per=$(awk -v a="$c0" -v b="$c1" -v n=$bn 'BEGIN{printf "%.2f", (b-a)/(64*n)}')
	echo "round of 2 instructions of work + a barrier, per work-item ($([ $e = loop ] && echo wg-fn || echo fibers)): $per instructions (target: barrier ≤5)"
	rows+=("{\"kernel\":\"barrier\",\"path\":\"$e\",\"per_item\":$per}")
done
# The ICD's launch path against the mailbox's own figures (wall time, so
# on a shared machine only their ratio means much): empty kernels
# enqueued back to back then one clFinish, and enqueue + clFinish each.
echo
make -s build/host/bench/cl_launch icd
mb=$(timeout 300 $hp bench --board "$board" --json)
mrt=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["latency_us"]["p50"])' "$mb")
mkps=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["throughput"]["kernels_per_s"])' "$mb")
cl=$(OCL_ICD_VENDORS="$PWD/build/host/hartpool.icd" HARTPOOL_BOARD="$board" \
	timeout 600 build/host/bench/cl_launch 2000)
pip=$(sed 's/.*pipelined_us=\([0-9.]*\).*/\1/' <<<"$cl")
ooo=$(sed 's/.*ooo_us=\([0-9.]*\).*/\1/' <<<"$cl")
syn=$(sed 's/.*sync_us=\([0-9.]*\).*/\1/' <<<"$cl")
mper=$(awk -v k="$mkps" 'BEGIN{printf "%.1f", 1e6/k}')
printf 'ICD pipelined empty launch, out-of-order queue: %s us (mailbox %s us per kernel: %sx, target <=1.2x)\n' \
	"$ooo" "$mper" "$(awk -v a="$ooo" -v b="$mper" 'BEGIN{printf "%.2f", a/b}')"
printf 'ICD pipelined empty launch, in-order queue: %s us (each kernel waits for the one before)\n' "$pip"
printf 'ICD launch + clFinish: %s us (mailbox round trip p50 %s us: %sx, target <=1.1x)\n' "$syn" "$mrt" \
	"$(awk -v a="$syn" -v b="$mrt" 'BEGIN{printf "%.2f", a/b}')"
rows+=("{\"kernel\":\"icd_launch\",\"pipelined_us\":$pip,\"ooo_us\":$ooo,\"sync_us\":$syn,\"mailbox_per_kernel_us\":$mper,\"mailbox_round_trip_us\":$mrt}")

# A program built twice: the second is a read of the build cache.
cache=$(mktemp -d)
bt() { local t0 t1; t0=$(date +%s%N); XDG_CACHE_HOME=$cache $hp build --board "$board" \
	examples/opencl/saxpy.cl -o "$tmp/s.hpk" 2>/dev/null; t1=$(date +%s%N); echo $(((t1 - t0) / 1000000)); }
b1=$(bt) b2=$(bt)
rm -rf "$cache"
echo "hartpool build saxpy.cl: first $b1 ms, second $b2 ms (from the cache; target <=50 ms)"
rows+=("{\"kernel\":\"build\",\"first_ms\":$b1,\"second_ms\":$b2}")

host="$(nproc) cores, $(qemu-system-riscv64 --version | head -1)"
printf '{"bench":"opencl","board":"%s","host":"%s","unit":"instructions","rows":[%s]}\n' \
	"$board" "$host" "$(IFS=,; echo "${rows[*]}")" >"$out"
echo "results: $out"
