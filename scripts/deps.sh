#!/usr/bin/env bash
# Installs the Debian packages hartpool needs, saying what and why, and only
# those that are missing. Used by `make run` (firmware), `make test` (test), `make debug` (debug),
# `make bench` (bench), the kernel build pipeline's objects (build) and qemu/build.sh, which builds the patched QEMU of board qemu-cluster (qemu).
#
#   scripts/deps.sh firmware|build|test|bench|debug|qemu
set -euo pipefail

need_firmware=(
	"gcc-riscv64-unknown-elf:RISC-V cross compiler for the firmware"
	"picolibc-riscv64-unknown-elf:C library for the firmware"
	"qemu-system-misc:QEMU system emulators (qemu-system-riscv64/32)"
	"make:the build"
	"gcc:host compiler"
	"libc6-dev:host C library headers"
	"qemu-system-data:QEMU's OpenSBI (-bios default) for the S-mode board"
)
# What the kernel build pipeline of the CLI and the ICD (host/clc) links.
need_build=(
	"llvm-19-dev:LLVM's C API (llvm-c headers, libLLVM-19) for the kernel build pipeline (host/clc)"
	"llvm-spirv-15:the SPIRV-LLVM-Translator, SPIR-V programs to LLVM bitcode (clCreateProgramWithIL)"
)
need_test=(
	"clang-format:the source format check"
	"libasan8:AddressSanitizer runtime for host tests"
	"libubsan1:UndefinedBehaviorSanitizer runtime for host tests"
	"libtsan2:ThreadSanitizer runtime for host tests"
	"git:listing the sources for the format check"
	"clang:libFuzzer targets"
	"libclang-rt-dev:libFuzzer and sanitizer runtimes for clang"
	"qemu-user:qemu-riscv64, for the plugin's user-mode count test"
	"gcc-riscv64-linux-gnu:the riscv64 Linux compiler for that test"
	"libc6-dev-riscv64-cross:its C library (static link)"
	"gdb-multiarch:the debugger test (a breakpoint in a loaded kernel)"
	"python3:the layering check (scripts/check-layers) and the e2e tests' JSON checks"
	"pkgconf:pkg-config, for the install test's program built with pkg-config --libs hartpool"
	"opensbi:OpenSBI firmware (fw_dynamic/fw_jump) for the S-mode boards"
	"u-boot-qemu:U-Boot for QEMU (qemu-riscv64_smode) for the SD-card boot test"
	"u-boot-tools:mkimage, for U-Boot boot scripts and FIT images"
	"mtools:FAT file systems in disk images without root (mformat, mcopy)"
	"device-tree-compiler:dtc, the device trees of the fdt tests and of qemu-virt-amp's domains"
	"cpio:the initramfs of qemu-virt-amp's Linux guest (qemu/linux/fetch.sh)"
	"clang-19:the OpenCL C compiler (OpenCL C to RISC-V; clang-16 cannot)"
	"llvm-19:llvm-link and opt, linking the OpenCL built-in library"
	"ocl-icd-libopencl1:the OpenCL ICD loader the ICD is tested under"
	"ocl-icd-opencl-dev:libOpenCL.so for the OpenCL host test programs"
	"opencl-headers:the OpenCL API headers (CL/cl.h, CL/cl_icd.h)"
	"clinfo:lists OpenCL platforms and devices (an ICD test)"
	"strace:the install test (no file of the source tree touched by installed tools)"
	"clpeak:OpenCL peak benchmarks (an ICD test, reduced)"
	"python3-pyopencl:PyOpenCL, whose example programs run as ICD tests"
	"python-pyopencl-doc:the PyOpenCL example programs and its test_clmath.py"
	"python3-pytest:running PyOpenCL's test_clmath.py"
	"pocl-opencl-icd:PoCL, a reference OpenCL on the host CPU (test oracle)"
	"clang-15:OpenCL C to SPIR-V for the SPIR-V tests (with llvm-spirv-15)"
	"spirv-tools:spirv-as and spirv-val, which the CTS's spirv_new and our SPIR-V tests use"
	"openmpi-bin:mpirun, for the MPI example over several devices (examples/mpi)"
	"libopenmpi-dev:mpicc and the MPI headers for that example"
)
# What qemu/build.sh needs to build Debian's QEMU with qemu/patches.
need_qemu=(
	"qemu-system-misc:the Debian QEMU whose source version gets patched"
	"dpkg-dev:dpkg-source, which unpacks the source with Debian's patches"
	"xz-utils:the source package's .tar.xz files"
	"patch:applying qemu/patches"
	"gcc:the C compiler"
	"libc6-dev:C library headers"
	"python3:QEMU's configure and meson"
	"meson:QEMU's build system"
	"ninja-build:the build runner meson writes for"
	"pkg-config:finding the libraries below"
	"libglib2.0-dev:GLib, which QEMU is built on"
	"libpixman-1-dev:pixman, for QEMU's display core"
	"libfdt-dev:libfdt, the device trees of the RISC-V machines"
	"zlib1g-dev:zlib, required by QEMU"
)
need_debug=(
	"gdb-multiarch:the debugger for RISC-V firmware and kernels"
)
need_bench=(
	"python3:the tables of bench/mbox.sh"
	"qemu-user:qemu-riscv64, which runs the OpenMP peer programs"
	"gcc-riscv64-linux-gnu:the cross compiler for the OpenMP peer"
	"libc6-dev-riscv64-cross:C library headers for the peer"
	"libgomp1-riscv64-cross:GNU OpenMP runtime for the peer"
	"gnuplot-nox:the scaling plot"
)

case "${1:-}" in
firmware) want=("${need_firmware[@]}" "${need_build[@]}") ;;
build) want=("${need_build[@]}") ;;
test) want=("${need_firmware[@]}" "${need_build[@]}" "${need_test[@]}") ;;
debug) want=("${need_firmware[@]}" "${need_debug[@]}") ;;
bench) want=("${need_firmware[@]}" ${need_bench[@]+"${need_bench[@]}"}) ;;
qemu) want=("${need_qemu[@]}") ;;
*) echo "usage: scripts/deps.sh firmware|build|test|bench|debug|qemu" >&2; exit 2 ;;
esac

find_missing() {
	missing=() why=()
	for entry in "${want[@]}"; do
		pkg=${entry%%:*}
		if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
			missing+=("$pkg")
			why+=("  $pkg: ${entry#*:}")
		fi
	done
}
find_missing
[ ${#missing[@]} -eq 0 ] && exit 0
# One install at a time (make -j runs several of these): wait for any
# other, then see what is still missing.
lock=${TMPDIR:-/tmp}/hartpool-deps.lock
if { [ -e "$lock" ] || : >"$lock"; } 2>/dev/null && exec 9<"$lock"; then
	flock 9
fi
find_missing
[ ${#missing[@]} -eq 0 ] && exit 0

echo "hartpool: installing missing Debian packages:"
printf '%s\n' "${why[@]}"
sudo=()
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null; then
		sudo=(sudo)
	else
		echo "hartpool: not root and no sudo; as root run: apt-get install -y ${missing[*]}" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "hartpool: installed ${missing[*]}"
