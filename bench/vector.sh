#!/usr/bin/env bash
# The V-board figures of docs/vector.md in one run (`make bench-vector`):
# bench/opencl.sh --quick on qemu-virt and on qemu-virt-v at VLEN 128, 256
# and 512 (HP_QEMU_VLEN), and the library's reduce_sg, scan and histogram
# (work-group functions on V boards) under the instruction-count plugin, 2
# harts (the dispatcher and one worker), 4,096 elements at local 256
# (16,384 for scan and histogram). Exact worker
# instructions per element; one table on stdout, the runs' JSON and a
# summary in build/bench/results/.
#
#   bench/vector.sh
set -euo pipefail
cd "$(dirname "$0")/.."
make -s BOARD=qemu-virt all plugin opencl-lib build/host/hartpool
make -s BOARD=qemu-virt-v all
mkdir -p build/bench/results
stamp=$(date -u +%Y%m%dT%H%M%SZ)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
hp=build/host/hartpool

# per_elem BOARD VLEN ELEMENTS ARGS... -> the worker's instructions / ELEMENTS
per_elem() {
	local board=$1 vlen=$2 e=$3 log=$tmp/count.txt
	shift 3
	rm -f "$log"
	env ${vlen:+HP_QEMU_VLEN=$vlen} HP_QEMU_COUNT=$log timeout 600 $hp run --board "$board" \
		--harts 2 "$@" --check >"$tmp/run.txt" 2>&1 || { cat "$tmp/run.txt" >&2; exit 1; }
	python3 -c 'import json,sys; print("%.2f" % (json.loads(sys.argv[1])["total"] / int(sys.argv[2])))' \
		"$(bench/kbalance.py "$log")" "$e"
}

runs=("qemu-virt:" "qemu-virt-v:128" "qemu-virt-v:256" "qemu-virt-v:512")
for r in "${runs[@]}"; do
	board=${r%%:*} vlen=${r#*:}
	name=$board${vlen:+-vlen$vlen}
	env ${vlen:+HP_QEMU_VLEN=$vlen} bench/opencl.sh --quick --board "$board" \
		--out "build/bench/results/$stamp-opencl-$name.json" >"$tmp/$name.txt"
	per_elem "$board" "$vlen" 4096 reduce_sg --global 4096 --local 256 >"$tmp/$name.rsg"
	per_elem "$board" "$vlen" 16384 scan --global 16384 --local 256 >"$tmp/$name.scan"
	per_elem "$board" "$vlen" 16384 histogram --global 16384 --local 256 >"$tmp/$name.hist"
done

col() { # FILE KERNEL FIELD -> the field of the kernel's row
	awk -v k="$2" -v f="$3" '$1 == k { print $f; exit }' "$1"
}
printf '%-34s %10s %10s %10s %10s\n' "instructions per element" scalar "V 128" "V 256" "V 512"
line() { # LABEL KERNEL FIELD
	local out=() r
	for r in "${runs[@]}"; do
		board=${r%%:*} vlen=${r#*:}
		out+=("$(col "$tmp/$board${vlen:+-vlen$vlen}.txt" "$2" "$3")")
	done
	printf '%-34s %10s %10s %10s %10s\n' "$1" "${out[@]}"
}
line "vadd, built-in" vadd 3
line "vadd, OpenCL row loop" vadd 4
line "saxpy, built-in" saxpy 3
line "saxpy, OpenCL row loop" saxpy 4
line "sgemm_naive, OpenCL row loop" sgemm_naive 4
line "sgemm_tiled, OpenCL wg function" sgemm_tiled 4
line "reduce, OpenCL wg function" reduce 4
line "reduce_sg, OpenCL wg function" reduce_sg 4
line "reduce_sg, OpenCL fibers" reduce_sg 5
line "scan_sg, OpenCL wg function" scan_sg 4
line "scan_sg, OpenCL fibers" scan_sg 5
line "reduce_wg, OpenCL wg function" reduce_wg 4
line "reduce_wg, OpenCL fibers" reduce_wg 5
line "sgemm_naive, built-in" sgemm_naive 3
line "sgemm_tiled, built-in" sgemm_tiled 3
file_line() { # LABEL SUFFIX: the per_elem figures
	local out=() r
	for r in "${runs[@]}"; do
		board=${r%%:*} vlen=${r#*:}
		out+=("$(cat "$tmp/$board${vlen:+-vlen$vlen}.$2")")
	done
	printf '%-34s %10s %10s %10s %10s\n' "$1" "${out[@]}"
}
file_line "reduce_sg, built-in" rsg
file_line "scan (+ scan_add), built-in" scan
file_line "histogram (4 bytes an item), b-in" hist
echo "results: build/bench/results/$stamp-opencl-*.json"
