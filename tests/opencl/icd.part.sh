# shellcheck shell=bash
# The ICD (libhartpool-icd.so) under the Debian OpenCL loader: clinfo on
# qemu-virt and qemu-virt32, the host programs of tests/opencl/programs,
# clpeak. Sourced by tests/opencl/opencl.sh (fail, HP). Needs `make icd`.

icd_env() { OCL_ICD_VENDORS=$PWD/build/host/hartpool.icd "$@"; }

icd_clinfo_check() {
	local out rc
	out=$(icd_env timeout 120 clinfo 2>&1)
	rc=$?
	[ $rc -eq 0 ] || { echo "$out" | tail -20; fail "clinfo exit $rc"; }
	# "Error Correction support" is a property's name, not an error
	local errs
	errs=$(echo "$out" | grep -i error | grep -v "Error Correction support")
	[ -z "$errs" ] || { echo "$errs"; fail "clinfo reported errors"; }
	echo "$out" | grep -q "Platform Name *hartpool" || fail "no hartpool platform"
	echo "$out" | grep -q "Device Name *hartpool $1" || fail "no $1 device"
	echo "$out" | grep -E "Device Name|Max compute units|Address bits|Device Extensions  "
}

t_icd_clinfo() { icd_clinfo_check qemu-virt; }
t_icd_clinfo_rv32() { HARTPOOL_BOARD=qemu-virt32 icd_clinfo_check qemu-virt32; }

icd_prog() {
	local p=build/host/opencl/$1
	[ -x "$p" ] || fail "$p missing (make icd)"
	icd_env timeout 120 "$p" || fail "$1 failed"
}

t_icd_builtin() { icd_prog builtin; }
t_icd_vadd() { icd_prog vadd; }
t_icd_reduce() { icd_prog reduce; }
t_icd_errors() { icd_prog errors; }
t_icd_builtin_rv32() { HARTPOOL_BOARD=qemu-virt32 icd_prog builtin; }
t_icd_reduce_rv32() { HARTPOOL_BOARD=qemu-virt32 icd_prog reduce; }
# OpenCL C 3.0 through the ICD: ids, sub-groups, atomics, work-group
# collectives, struct and vector arguments, printf (its line checked too)
icd_features() {
	local out
	out=$(icd_prog features 2>&1) || fail "features: $out"
	echo "$out"
	grep -q "^features: item 3 of 40" <<<"$out" || fail "no printf line"
	grep -q "^features: OK" <<<"$out" || fail "features not OK"
}
t_icd_features() { icd_features; }
t_icd_features_rv32() { HARTPOOL_BOARD=qemu-virt32 icd_features; }

# clpeak, reduced to what finishes under QEMU: kernel launch latency (its
# empty kernel built and run many times) and host transfer bandwidth. Its
# compute and global-bandwidth tests size their ranges for GPUs (millions of
# work-items times thousands of operations): hours under TCG.
t_icd_clpeak() {
	local out rc
	out=$(icd_env timeout 300 clpeak -p 0 -d 0 --kernel-latency --transfer-bandwidth 2>&1)
	rc=$?
	echo "$out"
	[ $rc -eq 0 ] || fail "clpeak exit $rc"
	echo "$out" | grep -qiE "error|skipped|\(-[0-9]+\)" && fail "clpeak reported errors"
	echo "$out" | grep -qE "Kernel launch latency : [0-9.]+ us" || fail "no kernel latency"
	echo "$out" | grep -qE "enqueueReadBuffer +: [0-9.]+" || fail "no transfer bandwidth"
}
