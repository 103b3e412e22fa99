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

# Several devices in one platform (HARTPOOL_DEVICES): three boots listed;
# a mixed list reports each device's own ISA and limits; an entry that is
# missing or of no known kind is named on stderr and the others serve
t_icd_clinfo_devices() {
	local out n
	out=$(HARTPOOL_DEVICES=3 HARTPOOL_HARTS=2 icd_env timeout 120 clinfo -l 2>&1) ||
		fail "clinfo -l: $out"
	echo "$out"
	n=$(grep -c 'Device #[0-9]*: hartpool qemu-virt$' <<<"$out")
	[ "$n" = 3 ] || fail "$n devices listed, not 3"
	# the same list from icd.conf's `devices =`
	local conf
	conf=$(mktemp -d)
	mkdir -p "$conf/hartpool"
	printf 'devices = boot:qemu-virt/2; boot:qemu-virt32/2\n' >"$conf/hartpool/icd.conf"
	out=$(XDG_CONFIG_HOME=$conf icd_env timeout 120 clinfo -l 2>&1)
	rm -rf "$conf"
	echo "$out"
	grep -q 'Device #0: hartpool qemu-virt$' <<<"$out" &&
		grep -q 'Device #1: hartpool qemu-virt32$' <<<"$out" ||
		fail "icd.conf's devices = not listed"
	out=$(HARTPOOL_DEVICES="boot:qemu-virt/4 shm:/nonexistent-hp boot:qemu-virt32/2 usb:x" \
		icd_env timeout 120 clinfo 2>&1) || fail "clinfo: $out"
	grep -E "hartpool-icd:|Number of devices|Device Name|Address bits|Max compute units|Double-precision" <<<"$out" | head -12
	grep -q "^hartpool-icd: device 1 of HARTPOOL_DEVICES ('shm:/nonexistent-hp'): CL_DEVICE_NOT_FOUND" \
		<<<"$out" || fail "the missing device is not named"
	grep -q "^hartpool-icd: device 3 of HARTPOOL_DEVICES ('usb:x'): HP_INVALID_VALUE (of no kind known" \
		<<<"$out" || fail "the unknown kind is not named"
	grep -q "^Number of devices *2$" <<<"$out" || fail "not 2 devices listed"
	# each device's own: the rv64 one 4 harts, 64-bit, fp64; the rv32 one 2
	local devs
	devs=$(awk '/^  Device Name/ {d=$NF} /^  Address bits/ {print d, $3}
		/^  Max compute units/ {print d, "cu", $NF}' <<<"$out")
	echo "$devs"
	grep -qx "qemu-virt 64," <<<"$devs" && grep -qx "qemu-virt32 32," <<<"$devs" &&
		grep -qx "qemu-virt cu 4" <<<"$devs" && grep -qx "qemu-virt32 cu 2" <<<"$devs" ||
		fail "the devices do not report their own limits"
}

# One context over two devices: a kernel on device 0, a dependent kernel
# on device 1 reading its output (a cross-queue event), migrations both
# ways, a sub-buffer; on two rv64 boots and on an rv64 and an rv32 one
t_icd_multidev() { HARTPOOL_DEVICES=2 HARTPOOL_HARTS=4 icd_prog multidev; }
t_icd_multidev_mixed() {
	HARTPOOL_DEVICES="boot:qemu-virt/4 boot:qemu-virt32/2" icd_prog multidev
}

icd_prog() {
	local p=build/host/opencl/$1
	[ -x "$p" ] || fail "$p missing (make icd)"
	icd_env timeout 120 "$p" || fail "$1 failed"
}

t_icd_builtin() { icd_prog builtin; }
t_icd_vadd() { icd_prog vadd; }
t_icd_reduce() { icd_prog reduce; }
t_icd_errors() { icd_prog errors; }
# CL_DEVICE_MAX_PARAMETER_SIZE's arguments, a 300-byte kernel name, exact
# source lengths, atomic_uintptr_t by ptrdiff_t
t_icd_limits() { icd_prog limits; }
t_icd_limits_rv32() { HARTPOOL_BOARD=qemu-virt32 icd_prog limits; }
# cl_khr_device_uuid, _extended_versioning, _suggested_local_work_size,
# _expect_assume
t_icd_smallext() { icd_prog smallext; }
# clCompileProgram with headers, clLinkProgram of objects and libraries,
# their binaries, link options and failures
t_icd_separate() { icd_prog separate; }
# the generic address space: helpers, to_*, get_fence, the generic overloads
t_icd_generic() { icd_prog generic; }
t_icd_generic_rv32() { HARTPOOL_BOARD=qemu-virt32 icd_prog generic; }
# program-scope global variables: kept, per program, reset by a rebuild
t_icd_progvar() { icd_prog progvar; }
t_icd_progvar_rv32() { HARTPOOL_BOARD=qemu-virt32 icd_prog progvar; }
t_icd_separate_rv32() { HARTPOOL_BOARD=qemu-virt32 icd_prog separate; }
# shared virtual memory: one pointer on host and device, coarse grain,
# pointers in SVM data, memcpy/fill/migrate/free, buffers on SVM memory;
# fine grain on shm, with host and kernel atomics on one counter
t_icd_svm() { SVM_FINE=1 icd_prog svm; }
t_icd_svm_rv32() { HARTPOOL_BOARD=qemu-virt32 SVM_FINE=1 icd_prog svm; }
# over the serial link: coarse grain (host pages mapped at the pointer)
t_icd_svm_serial() {
	local hp=build/host/hartpool conn
	conn=$("$hp" up --harts 4 | tail -1) || fail "hartpool up failed"
	[[ "$conn" == shm:* ]] || fail "up printed '$conn'"
	HARTPOOL_DEVICES="serial:${conn#shm:}.sock" SVM_FINE=0 icd_env timeout 300 \
		build/host/opencl/svm
	local rc=$?
	"$hp" down --connect "$conn" >/dev/null 2>&1
	[ $rc -eq 0 ] || fail "svm over serial failed"
}

# SPIR-V modules for tests/opencl/programs/spirv.c into $1: clang-15 and
# llvm-spirv-15 from spirv_prog.cl and spirv_link.cl (spir and spir64),
# spirv-as from the
# .spvasm files (written for Physical64; the 32-bit ones by sed)
spirv_make() {
	local d=$1 k=tests/opencl/kernels b
	for b in 32 64; do
		local t=spir; [ $b = 64 ] && t=spir64
		for c in prog link; do
			clang-15 -c -target $t -cl-std=CL2.0 -O0 -fno-discard-value-names \
				-Xclang -finclude-default-header \
				-emit-llvm -o "$d/$c$b.bc" $k/spirv_$c.cl &&
				llvm-spirv-15 "$d/$c$b.bc" -o "$d/$c$b.spv" || return 1
		done
		for m in spec image lower; do
			local env=spv1.0
			[ $m = lower ] && env=spv1.4
			if [ $b = 32 ]; then
				# size_t is uint: one type, no conversion
				sed -e 's/Physical64/Physical32/' -e '/%ulong = OpTypeInt 64 0/d' \
					-e 's/%ulong_/%idx_/g' -e 's/%ulong/%uint/g' \
					-e 's/OpUConvert %uint \(%[a-z0-9_]*\)$/OpCopyObject %uint \1/' \
					$k/spirv_$m.spvasm >"$d/$m$b.spvasm"
			else
				cp $k/spirv_$m.spvasm "$d/$m$b.spvasm"
			fi
			spirv-as --target-env $env "$d/$m$b.spvasm" -o "$d/$m$b.spv" || return 1
		done
	done
}

# clCreateProgramWithIL on rv64 and rv32; the second run's builds come from
# the build cache (its entries are not written again: the same inodes), as
# hartpool build's second build of a module says
icd_spirv() {
	local d
	d=$(mktemp -d)
	spirv_make "$d" || { rm -rf "$d"; fail "cannot make the SPIR-V modules"; }
	local bits=64 board=${HARTPOOL_BOARD:-qemu-virt}
	[ "$board" = qemu-virt32 ] && bits=32
	HP_SPIRV_DIR=$d HARTPOOL_CACHE_DIR=$d/cache icd_prog spirv
	local before after out
	before=$(ls -i "$d/cache" | sort)
	[ -n "$before" ] || { rm -rf "$d"; fail "nothing in the build cache"; }
	HP_SPIRV_DIR=$d HARTPOOL_CACHE_DIR=$d/cache icd_prog spirv
	after=$(ls -i "$d/cache" | sort)
	[ "$before" = "$after" ] || { rm -rf "$d"; fail "the second run built again"; }
	for _ in 1 2; do
		out=$(HARTPOOL_CACHE_DIR=$d/cache $HP build --board "$board" \
			"$d/prog$bits.spv" -o "$d/p.hpk" 2>&1)
	done
	rm -rf "$d"
	grep -q "built 4 kernels, .* (from the build cache)" <<<"$out" ||
		fail "hartpool build's module was not cached: $out"
	echo "ok: SPIR-V programs, from the build cache the second time"
}
t_icd_spirv() { icd_spirv; }
t_icd_spirv_rv32() { HARTPOOL_BOARD=qemu-virt32 icd_spirv; }
# Why a call failed: the sentence of a failed check reaches the context's
# pfn_notify (notify.c checks it names the values), and stderr with
# HARTPOOL_ICD_DEBUG=1 only
t_icd_notify() {
	local out
	out=$(env -u HARTPOOL_ICD_DEBUG OCL_ICD_VENDORS="$PWD/build/host/hartpool.icd" \
		timeout 120 build/host/opencl/notify 2>&1) || fail "notify: $out"
	echo "$out"
	grep -q "^hartpool-icd:" <<<"$out" && fail "debug output without HARTPOOL_ICD_DEBUG"
	grep -q "^notify: OK" <<<"$out" || fail "notify not OK"
}
t_icd_debug() {
	local out
	out=$(HARTPOOL_ICD_DEBUG=1 OCL_ICD_VENDORS="$PWD/build/host/hartpool.icd" \
		timeout 120 build/host/opencl/notify 2>&1 >/dev/null) || fail "notify: $out"
	echo "$out"
	grep -q "^hartpool-icd: .*size 0 is not in 1\.\..*(CL_INVALID_BUFFER_SIZE)" \
		<<<"$out" || fail "no CL_INVALID_BUFFER_SIZE sentence on stderr"
	grep -q "^hartpool-icd: .*local size 3 .*global size 10 .*(CL_INVALID_WORK_GROUP_SIZE)" \
		<<<"$out" || fail "no CL_INVALID_WORK_GROUP_SIZE sentence on stderr"
	# before a context: the debug output only
	grep -q "^hartpool-icd: .*device type 0x0 (CL_INVALID_DEVICE_TYPE)" \
		<<<"$out" || fail "no CL_INVALID_DEVICE_TYPE sentence on stderr"
}
# An out-of-order queue's barrier and marker cover every earlier command:
# 100 rounds of 100 kernel, barrier, slow kernel, barrier-or-marker
t_icd_ooo_barrier() {
	icd_env timeout 400 build/host/opencl/ooo_barrier 100 100 ||
		fail "ooo_barrier failed"
}
# A command that waits for an event of a queue released since (before or
# after it was enqueued) runs
t_icd_released_dep() {
	icd_env timeout 120 build/host/opencl/released_dep 20 ||
		fail "released_dep failed"
}
# clGetExtensionFunctionAddressForPlatform through the loader finds the
# ICD's extension functions (it crashed: no dispatch table entry)
t_icd_extaddr() { icd_env timeout 60 build/host/opencl/extaddr || fail "extaddr failed"; }
# Every function the ICD exports that has a slot in the loader's dispatch
# table (CL/cl_icd.h) is in the ICD's table (host/icd/dispatch.c)
t_icd_dispatch_complete() {
	local missing
	missing=$(python3 - build/host/libhartpool-icd.so <<'PY'
import re, subprocess, sys
hdr = open("/usr/include/CL/cl_icd.h").read()
body = hdr[hdr.index("typedef struct _cl_icd_dispatch"):]
body = body[:body.index("} cl_icd_dispatch;")]
slots = set(re.findall(r"cl_api_(\w+)\s+\1\s*;", body))
out = subprocess.run(["nm", "-D", "--defined-only", sys.argv[1]],
                     capture_output=True, text=True, check=True).stdout
exported = {l.split()[-1] for l in out.splitlines() if l.split()[-1].startswith("cl")}
table = set(re.findall(r"^\t\.(cl\w+) =", open("host/icd/dispatch.c").read(), re.M))
print(" ".join(sorted((slots & exported) - table)))
PY
) || fail "the check failed"
	[ -z "$missing" ] || fail "exported but not in the dispatch table: $missing"
	echo "ok: every exported entry point with a dispatch slot is in the table"
}
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

# Handles and lifetimes: values that are no handle, second releases of
# every object, buffers released while commands need them
t_icd_handles() { icd_prog handles; }
t_icd_handles_rv32() { HARTPOOL_BOARD=qemu-virt32 icd_prog handles; }
# Rectangles and global sizes that wrap (the 32-bit device's size_t too)
t_icd_ranges() { icd_prog ranges; }
t_icd_ranges_rv32() { HARTPOOL_BOARD=qemu-virt32 icd_prog ranges; }
# Programs without kernels, too much __local, failed includes, full tables
t_icd_build() { icd_prog build; }
t_icd_build_rv32() { HARTPOOL_BOARD=qemu-virt32 icd_prog build; }
# CL_DEVICE_MAX_MEM_ALLOC_SIZE allocated next to the ICD's own buffers
# 4,000 buffers of 64 bytes at once (the device's table holds 65,536; it
# held 1,024), a kernel over some of them.
t_icd_manybufs() { icd_prog manybufs; }

t_icd_alloc() { icd_prog alloc; }
t_icd_alloc_rv32() { HARTPOOL_BOARD=qemu-virt32 icd_prog alloc; }

# Kernel time limits. Each runs with its own empty config directory, so
# the user's icd.conf and HARTPOOL_TIMEOUT do not count.
icd_timeout_env() {
	local d rc
	d=$(mktemp -d) || fail "mktemp"
	mkdir -p "$d/hartpool"
	[ -z "${1:-}" ] || printf '# test\n%s\n' "$1" >"$d/hartpool/icd.conf"
	shift
	env -u HARTPOOL_TIMEOUT XDG_CONFIG_HOME="$d" "$@"
	rc=$?
	rm -rf "$d"
	return $rc
}
# HARTPOOL_TIMEOUT stops an endless kernel; 0 is none
t_icd_timeout() {
	icd_timeout_env "" env HARTPOOL_TIMEOUT=1 \
		OCL_ICD_VENDORS="$PWD/build/host/hartpool.icd" \
		timeout 120 build/host/opencl/timeout || fail "HARTPOOL_TIMEOUT=1"
	icd_timeout_env "" env HARTPOOL_TIMEOUT=0 \
		OCL_ICD_VENDORS="$PWD/build/host/hartpool.icd" \
		timeout 120 build/host/opencl/timeout none ||
		fail "HARTPOOL_TIMEOUT=0"
}
t_icd_timeout_rv32() {
	icd_timeout_env "" env HARTPOOL_TIMEOUT=0.5 HARTPOOL_BOARD=qemu-virt32 \
		OCL_ICD_VENDORS="$PWD/build/host/hartpool.icd" \
		timeout 120 build/host/opencl/timeout || fail "rv32"
}
# icd.conf's `timeout =`, and HARTPOOL_TIMEOUT before it (a file that said
# an hour would leave the kernel running past the test's own limit)
t_icd_timeout_conf() {
	icd_timeout_env "timeout = 0.5" env \
		OCL_ICD_VENDORS="$PWD/build/host/hartpool.icd" \
		timeout 120 build/host/opencl/timeout || fail "timeout = 0.5"
	icd_timeout_env "timeout = 3600" env HARTPOOL_TIMEOUT=0.5 \
		OCL_ICD_VENDORS="$PWD/build/host/hartpool.icd" \
		timeout 120 build/host/opencl/timeout ||
		fail "HARTPOOL_TIMEOUT over icd.conf"
}
# Nothing set: the default limit (60 s) stops the endless kernel
t_icd_timeout_default() {
	icd_timeout_env "" env OCL_ICD_VENDORS="$PWD/build/host/hartpool.icd" \
		timeout 240 build/host/opencl/timeout || fail "default limit"
}
# A value that is no time limit: no device, and a message that says why
t_icd_timeout_invalid() {
	local v out
	for v in abc -1 1e3 0x10 3601 1.5s ""; do
		[ -n "$v" ] || continue
		out=$(icd_timeout_env "" env HARTPOOL_TIMEOUT="$v" \
			OCL_ICD_VENDORS="$PWD/build/host/hartpool.icd" \
			timeout 60 build/host/opencl/timeout none 2>&1) &&
			fail "HARTPOOL_TIMEOUT='$v' accepted"
		grep -q "HARTPOOL_TIMEOUT '$v' is not a kernel time limit" \
			<<<"$out" || fail "HARTPOOL_TIMEOUT='$v': $out"
	done
	out=$(icd_timeout_env "timeout = soon" env \
		OCL_ICD_VENDORS="$PWD/build/host/hartpool.icd" \
		timeout 60 build/host/opencl/timeout none 2>&1) &&
		fail "timeout = soon accepted"
	grep -q "icd.conf: timeout = 'soon' is not a kernel time limit" \
		<<<"$out" || fail "timeout = soon: $out"
	echo "invalid time limits refused"
}

# The ICD and the host programs built with ASan+UBSan (make icd-asan); any
# report fails the program
icd_asan() {
	local p d=build/host/asan-icd
	[ -r $d/hartpool.icd ] || fail "$d missing (make icd-asan)"
	for p in "$@"; do
		[ -x $d/opencl/$p ] || fail "$d/opencl/$p missing"
		echo "== $p"
		# intercept_tls_get_addr=0: GCC 12's ASan runtime takes a dynamic
		# TLS block that lands 16 bytes into a page for a glibc 2.19
		# block with a header, and reads the two words before it as
		# the block's range (LSan's log showed 0x196-0x3000001298); its
		# tracer then faulted at exit, in 2 of about 90 runs. glibc
		# 2.25 and later allocates these blocks with malloc, reached
		# from the thread's DTV, so the leak check still sees them.
		icd_timeout_env "" env HARTPOOL_TIMEOUT=1 \
			OCL_ICD_VENDORS="$PWD/$d/hartpool.icd" \
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}intercept_tls_get_addr=0" \
			timeout 170 $d/opencl/$p || fail "$p under ASan"
	done
}
t_icd_asan_handles() { icd_asan handles; }
t_icd_asan_ranges() { icd_asan ranges alloc timeout; }
t_icd_asan_build() { icd_asan build; }
t_icd_asan_multidev() { HARTPOOL_DEVICES=2 HARTPOOL_HARTS=4 icd_asan multidev; }
t_icd_asan_older() { icd_asan errors vadd builtin reduce features; }
