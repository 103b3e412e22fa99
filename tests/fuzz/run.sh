#!/usr/bin/env bash
# Longer fuzzing than `make test` gives (20 s per target): every libFuzzer
# target for SECONDS (default 300) each, from its seed corpus in
# tests/fuzz/corpus/<name>/ (the device-tree fuzzer from QEMU's trees),
# growing build/host/fuzz-corpus/<target>/. A crash leaves its input in
# build/host/fuzz-crashes/ and makes the run fail.
#
#   tests/fuzz/run.sh [SECONDS]        (make fuzz)
set -uo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-${HP_FUZZ_SECONDS:-300}}
make -s fuzz-targets-build || exit 1
mkdir -p build/host/fuzz-crashes build/host/dtb
rc=0
for t in $(make -s --no-print-directory print-fuzz-targets); do
	seeds=tests/fuzz/corpus/${t#fuzz_}
	if [ ! -d "$seeds" ]; then
		seeds=build/host/fuzz-seeds
		mkdir -p "$seeds"
		for n in 1 8 512; do
			qemu-system-riscv64 -machine virt,dumpdtb="$seeds/virt-$n.dtb" -smp "$n" -bios none -nographic >/dev/null 2>&1
		done
		qemu-system-riscv64 -machine sifive_u,dumpdtb="$seeds/sifive_u.dtb" -smp 5 -bios none -nographic >/dev/null 2>&1
	fi
	corpus=build/host/fuzz-corpus/$t
	mkdir -p "$corpus"
	echo "== $t for $secs s"
	"build/host/fuzz/$t" -max_total_time="$secs" -max_len=8192 -print_final_stats=1 \
		-artifact_prefix=build/host/fuzz-crashes/ "$corpus" "$seeds" 2>&1 | tail -n 3 || rc=1
done
exit $rc
