# shellcheck shell=bash
# The OpenCL C built-in library (kernels/opencl, docs/opencl-builtins.md).
# Sourced by tests/opencl/opencl.sh (fail, HP).
#
# builtins_compile_rv64 / _rv32: the coverage kernels of
# tests/opencl/kernels/builtins_*.cl, compiled as hp_cl_build compiles
# kernels (clang's built-in declarations, the device's extensions; OpenCL
# C 1.2, 3.0, and 3.0 with the generic address space), linked
# with the library: no _Z (built-in) symbol may stay undefined; then
# internalized, optimized and compiled to an object whose every undefined
# symbol picolibc or libgcc defines.
# builtins_spec_rv64 / _rv32: every overload of the specification's
# tables for the device's features (builtins_spec.py) is in the library.
# builtins_values_rv64 / _rv32: tests/opencl/kernels/builtins_values.cl on
# the device against builtins_values.expect.
# builtins_diff_rv64 / _rv32: builtins_diff.cl on the device, bit for bit
# as PoCL computes it.

BT_CLANG=${BT_CLANG:-clang-19}
BT_LLVM_SUFFIX=${BT_LLVM_SUFFIX:--19}

# bt_setup ABI: the compile flags for rv64imafdc-lp64d / rv32imac-ilp32
bt_setup() {
	local ext="-cl-ext=-all,+cl_khr_byte_addressable_store,+cl_khr_global_int32_base_atomics,+cl_khr_global_int32_extended_atomics,+cl_khr_local_int32_base_atomics,+cl_khr_local_int32_extended_atomics,+cl_khr_subgroups,+__opencl_c_subgroups,+__opencl_c_int64"
	case $1 in
	rv64imafdc-lp64d)
		bt_target=(--target=riscv64-unknown-elf -march=rv64imafdc -mabi=lp64d)
		ext+=",+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics,+cl_khr_fp64,+__opencl_c_fp64"
		bt_mattr=-mattr=+m,+a,+f,+d,+c
		bt_libs=(/usr/lib/picolibc/riscv64-unknown-elf/lib/rv64imafdc/lp64d/libc.a
			"$(riscv64-unknown-elf-gcc -march=rv64imafdc -mabi=lp64d -print-libgcc-file-name)")
		;;
	rv32imac-ilp32)
		bt_target=(--target=riscv32-unknown-elf -march=rv32imac -mabi=ilp32)
		bt_mattr=-mattr=+m,+a,+c
		bt_libs=(/usr/lib/picolibc/riscv64-unknown-elf/lib/rv32imac/ilp32/libc.a
			"$(riscv64-unknown-elf-gcc -march=rv32imac -mabi=ilp32 -print-libgcc-file-name)")
		;;
	esac
	bt_ext=$ext
	bt_lib=build/opencl/$1/hpcl.bc
}

# bt_compile_check ABI: every coverage kernel with CL3.0 and CL1.2
bt_compile_check() {
	local abi=$1 tmp f std names undef
	command -v "$BT_CLANG" >/dev/null || fail "no $BT_CLANG"
	make -s opencl-lib >/dev/null || fail "make opencl-lib"
	bt_setup "$abi"
	[ -f "$bt_lib" ] || fail "no $bt_lib"
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" RETURN
	# what picolibc and libgcc define
	for f in "${bt_libs[@]}"; do
		[ -f "$f" ] || fail "no $f"
		"llvm-nm$BT_LLVM_SUFFIX" --defined-only "$f" 2>/dev/null |
			awk 'NF == 3 && $2 ~ /[TWDRBSV]/ {print $3}'
	done | sort -u >"$tmp/defined"
	for f in tests/opencl/kernels/builtins_math.cl \
		tests/opencl/kernels/builtins_intrel.cl \
		tests/opencl/kernels/builtins_mem.cl \
		tests/opencl/kernels/builtins_values.cl \
		tests/opencl/kernels/builtins_diff.cl; do
		# CL3.0g: with the generic address space, whose overloads are
		# then the only ones clang declares for pointer built-ins
		for std in CL3.0 CL1.2 CL3.0g; do
			local b gas=()
			b=$tmp/$(basename "$f" .cl)-$std
			[ "$std" = CL3.0g ] &&
				gas=(-Xclang -cl-ext=+__opencl_c_generic_address_space)
			"$BT_CLANG" -x cl "-cl-std=${std%g}" -Xclang -finclude-default-header \
				-Xclang -ffake-address-space-map -Xclang "$bt_ext" "${gas[@]}" \
				"${bt_target[@]}" -mcmodel=medany -mno-relax \
				-fno-jump-tables -O2 -S -emit-llvm -o "$b.ll" "$f" \
				2>"$b.err" || { cat "$b.err"; fail "$f ($std, $abi) does not compile"; }
			"llvm-link$BT_LLVM_SUFFIX" "$b.ll" "$bt_lib" -o "$b.bc" ||
				fail "llvm-link $f ($std, $abi)"
			undef=$("llvm-nm$BT_LLVM_SUFFIX" --undefined-only "$b.bc" |
				awk '{print $NF}' | grep '^_Z')
			[ -z "$undef" ] || fail "$f ($std, $abi): built-ins missing from the library:
$undef"
			names=$(sed -n 's/.*__kernel void \([A-Za-z0-9_]*\).*/\1/p' "$f" |
				paste -sd, -)
			"opt$BT_LLVM_SUFFIX" "$bt_mattr" -passes='internalize,default<O2>' \
				"-internalize-public-api-list=$names" "$b.bc" -o "$b.o.bc" ||
				fail "opt $f ($std, $abi)"
			"$BT_CLANG" "${bt_target[@]}" -mcmodel=medany -mno-relax \
				-fno-jump-tables -fPIC -O2 -c "$b.o.bc" -o "$b.o" \
				2>"$b.err" || { cat "$b.err"; fail "codegen $f ($std, $abi)"; }
			undef=$("llvm-nm$BT_LLVM_SUFFIX" --undefined-only "$b.o" |
				awk '{print $NF}' | sort -u | comm -23 - "$tmp/defined" |
				grep -v '^hp_api_ptr$')
			[ -z "$undef" ] || fail "$f ($std, $abi): undefined after linking the library:
$undef"
		done
	done
	echo "builtins compile $abi: ok"
}

t_builtins_compile_rv64() { bt_compile_check rv64imafdc-lp64d; }
t_builtins_compile_rv32() { bt_compile_check rv32imac-ilp32; }

# bt_spec ABI: every built-in overload of the specification's tables for
# the device's features (tests/opencl/builtins_spec.py), OpenCL C 1.2 and
# 3.0, declared by clang's table of built-ins (-fdeclare-opencl-builtins,
# not its header) and linked with the library: none may stay undefined.
bt_spec() {
	local abi=$1 tmp std b undef n gen=()
	command -v "$BT_CLANG" >/dev/null || fail "no $BT_CLANG"
	make -s opencl-lib >/dev/null || fail "make opencl-lib"
	bt_setup "$abi"
	[ -f "$bt_lib" ] || fail "no $bt_lib"
	[ "$abi" = rv64imafdc-lp64d ] && gen=(--fp64 --int64-atomics)
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" RETURN
	for std in CL1.2 CL3.0; do
		local feat=()
		# the features hp_cl_build gives OpenCL C 3.0 (host/clc/compile.c)
		[ $std = CL3.0 ] && feat=(-Xclang
			-cl-ext=+__opencl_c_generic_address_space,+__opencl_c_program_scope_global_variables
			-D__opencl_c_work_group_collective_functions=1
			-D__opencl_c_atomic_order_acq_rel=1 -D__opencl_c_atomic_order_seq_cst=1
			-D__opencl_c_atomic_scope_device=1 -D__opencl_c_atomic_scope_all_devices=1)
		b=$tmp/spec-$std
		python3 tests/opencl/builtins_spec.py --std $std "${gen[@]}" -o "$b.cl" \
			2>"$b.count" || fail "builtins_spec.py $std"
		"$BT_CLANG" -x cl "-cl-std=$std" -Xclang -fdeclare-opencl-builtins \
			-Xclang -finclude-default-header -Xclang -ffake-address-space-map \
			-Xclang "$bt_ext" "${feat[@]}" "${bt_target[@]}" -O0 -c -emit-llvm \
			-o "$b.bc" "$b.cl" 2>"$b.err" ||
			{ head -40 "$b.err"; fail "the specification's overloads ($std, $abi) do not compile"; }
		n=$("llvm-nm$BT_LLVM_SUFFIX" --undefined-only "$b.bc" | awk '{print $NF}' |
			grep -c '^_Z')
		"llvm-link$BT_LLVM_SUFFIX" "$b.bc" "$bt_lib" -o "$b.all.bc" ||
			fail "llvm-link ($std, $abi)"
		undef=$("llvm-nm$BT_LLVM_SUFFIX" --undefined-only "$b.all.bc" |
			awk '{print $NF}' | grep -E '^(_Z|__to_)')
		[ -z "$undef" ] || fail "$std, $abi: $(wc -l <<<"$undef") built-ins of the specification missing from the library:
$(head -40 <<<"$undef")"
		echo "builtins spec $abi $std: $n overloads ($(grep calls "$b.count")), all in the library"
	done
}
t_builtins_spec_rv64() { bt_spec rv64imafdc-lp64d; }
t_builtins_spec_rv32() { bt_spec rv32imac-ilp32; }

# builtins_values on the device (BOARD, extra build options), its buffers
# checked against the expected values (tests/opencl/check_values.py).
bt_values() {
	local board=$1 tmp out
	shift
	[ -x "$HP" ] || fail "no $HP (make hartpool)"
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" RETURN
	"$HP" build --board "$board" "$@" tests/opencl/kernels/builtins_values.cl \
		-o "$tmp/b.hpk" >"$tmp/build.log" 2>&1 ||
		{ cat "$tmp/build.log"; fail "hartpool build builtins_values.cl ($board)"; }
	out=$(timeout 120 "$HP" run --board "$board" --kernel-file "$tmp/b.hpk" \
		builtins_values --global 64 --karg buf:f32:64 --karg buf:i32:72 \
		--print 72 2>&1) || { echo "$out"; fail "hartpool run builtins_values ($board)"; }
	echo "$out" >"$tmp/run.out"
	python3 tests/opencl/check_values.py tests/opencl/kernels/builtins_values.expect \
		"$tmp/run.out" || fail "builtins_values ($board): wrong values"
}
# OpenCL C 1.2 (the default) on rv64, 3.0 (sub-groups too) on rv32
t_builtins_values_rv64() { bt_values qemu-virt; }
t_builtins_values_v() { bt_values qemu-virt-v; }
t_builtins_values_rv32() { bt_values qemu-virt32 -cl-std=CL3.0; }

# builtins_diff.cl (exactly specified built-ins: conversions with rounding
# and saturation, halves, mul_hi, mad_sat, fma, fmod, remainder, sqrt...;
# KERNEL builtins_diff over 2048 work-items, builtins_diff64 the double ones
# over 1024): the ints must be those another implementation computes (PoCL,
# bit for bit; their SHA-256 in builtins_diff.sha256). On a mismatch,
# compare with `tests/opencl/pocl_ref.c FILE KERNEL GLOBAL GLOBAL INTS` to
# see which indices differ.
bt_diff() {
	local board=$1 kernel=$2 tmp got want global n
	[ -x "$HP" ] || fail "no $HP (make hartpool)"
	read -r global n want < <(awk -v k="$kernel" '$1 == k {print $2, $3, $4}' \
		tests/opencl/kernels/builtins_diff.sha256)
	[ -n "$want" ] || fail "no $kernel in builtins_diff.sha256"
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" RETURN
	"$HP" build --board "$board" -cl-std=CL3.0 tests/opencl/kernels/builtins_diff.cl \
		-o "$tmp/d.hpk" >"$tmp/build.log" 2>&1 ||
		{ cat "$tmp/build.log"; fail "hartpool build builtins_diff.cl ($board)"; }
	timeout 300 "$HP" run --board "$board" --kernel-file "$tmp/d.hpk" \
		"$kernel" --global "$global" --karg "buf:f32:$global" \
		--karg "buf:i32:$n" --print "$n" >"$tmp/run.out" 2>&1 ||
		{ tail -5 "$tmp/run.out"; fail "hartpool run $kernel ($board)"; }
	got=$(sed -n "s/^buf1 i32\[$n\]: *//p" "$tmp/run.out" | tr -s ' ' |
		sed 's/ *$//' | tr -d '\n' | sha256sum | cut -d' ' -f1)
	[ "$got" = "$want" ] || fail "$kernel ($board): results differ from PoCL's"
	echo "$kernel $board: $n results as PoCL's"
}
t_builtins_diff_rv64() {
	bt_diff qemu-virt builtins_diff
	bt_diff qemu-virt builtins_diff64
}
t_builtins_diff_rv32() { bt_diff qemu-virt32 builtins_diff; }
