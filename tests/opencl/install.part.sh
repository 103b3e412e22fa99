# shellcheck shell=bash
# `make install` into a scratch prefix, then the installed tools with the
# source tree out of their reach: run from another folder with a bare
# environment, under strace, which must show no file of the source tree
# touched (the data from PREFIX/share/hartpool, hp_data_dir). clinfo sees
# the device through PREFIX/etc/OpenCL/vendors, examples/opencl/saxpy.c
# runs through the installed ICD, `hartpool run vadd --check` passes, a
# copy of the prefix elsewhere finds its own data, a host program built
# with `pkg-config --cflags --libs hartpool` against the prefix alone (one
# -lhartpool) opens a device and checks its kernel; `make uninstall`
# leaves no file of ours (docs/install.md). Sourced by
# tests/opencl/opencl.sh (fail). Needs `make opencl` and the firmware.

# inst_run TMP NAME CMD...: CMD in TMP/work with only PATH and the loader's
# vendor folder set, traced to TMP/NAME.trace; its output on stdout.
inst_run() {
	local tmp=$1 name=$2
	shift 2
	(cd "$tmp/work" && env -i PATH=/usr/bin:/bin HOME="$tmp/work" \
		OCL_ICD_VENDORS="$tmp/prefix/etc/OpenCL/vendors" \
		timeout -k 5 150 strace -f -qq --seccomp-bpf -e trace=%file,execve \
		-o "$tmp/$name.trace" "$@" 2>&1)
}

# inst_untouched TMP NAME: the trace names no path under the source tree.
inst_untouched() {
	local hits
	hits=$(grep -F "\"$src/" "$1/$2.trace" | head -5)
	[ -z "$hits" ] || fail "$2 touched the source tree: $hits"
}

t_install() {
	local tmp src=$PWD out f
	tmp=$(mktemp -d /tmp/hp-install-XXXXXX)
	mkdir -p "$tmp/work"
	make -s install PREFIX="$tmp/prefix" >"$tmp/install.log" 2>&1 ||
		{ cat "$tmp/install.log"; fail "make install"; }
	cat "$tmp/install.log"
	for f in bin/hartpool lib/libhartpool.a lib/pkgconfig/hartpool.pc \
		lib/libhartpool-icd.so include/hartpool.h include/hartpool_boards.h \
		include/hartpool/error.h share/hartpool/boards.txt \
		share/hartpool/build/qemu-virt/hartpool.elf \
		share/hartpool/build/opencl/rv64imafdc-lp64d/hpcl.bc \
		share/hartpool/include/hartpool/kernel.h share/hartpool/linker/object.ld \
		share/hartpool/qemu/hp-qemu etc/OpenCL/vendors/hartpool.icd; do
		[ -f "$tmp/prefix/$f" ] || fail "make install: no $f"
	done
	[ "$(cat "$tmp/prefix/etc/OpenCL/vendors/hartpool.icd")" = "$tmp/prefix/lib/libhartpool-icd.so" ] ||
		fail "hartpool.icd: $(cat "$tmp/prefix/etc/OpenCL/vendors/hartpool.icd")"
	gcc -O2 -Wall -Wextra -Werror examples/opencl/saxpy.c -o "$tmp/work/saxpy" -lOpenCL -lm ||
		fail "compiling examples/opencl/saxpy.c"
	cp examples/opencl/saxpy.cl "$tmp/work/"

	out=$(inst_run "$tmp" clinfo clinfo) || fail "clinfo: $out"
	grep -q "Device Name *hartpool qemu-virt" <<<"$out" || fail "clinfo: no hartpool device: $out"
	inst_untouched "$tmp" clinfo
	echo "ok: clinfo lists the installed ICD's device"

	out=$(inst_run "$tmp" saxpy ./saxpy saxpy.cl) || fail "saxpy: $out"
	grep -q "saxpy of 4096 floats in 64 work-groups: OK" <<<"$out" || fail "saxpy: $out"
	grep -qF "$tmp/prefix/share/hartpool/build/opencl/" "$tmp/saxpy.trace" ||
		fail "saxpy: the built-in library not from the prefix"
	inst_untouched "$tmp" saxpy
	echo "ok: examples/opencl/saxpy.c through the installed ICD"

	out=$(inst_run "$tmp" run "$tmp/prefix/bin/hartpool" run vadd --check) || fail "run vadd: $out"
	grep -q "^check: OK" <<<"$out" || fail "run vadd: $out"
	grep -qF "$tmp/prefix/share/hartpool/build/qemu-virt/hartpool.elf" "$tmp/run.trace" ||
		fail "run: the firmware not from the prefix"
	inst_untouched "$tmp" run
	echo "ok: installed hartpool run vadd --check"

	# A host program of libhartpool's, built from a copy with what
	# pkg-config says of the prefix (no path into the source tree).
	cp examples/host/vadd.c "$tmp/work/"
	f=$(PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" pkg-config --cflags --libs hartpool) ||
		fail "pkg-config hartpool: no hartpool.pc in the prefix"
	! grep -qF "$src" <<<"$f" || fail "pkg-config hartpool names the source tree: $f"
	(cd "$tmp/work" && gcc -O2 -Wall -Werror vadd.c $f -o vadd) ||
		fail "compiling examples/host/vadd.c with pkg-config's flags: $f"
	out=$(inst_run "$tmp" vadd ./vadd) || fail "vadd: $out"
	grep -q "^vadd of 4096 floats: OK" <<<"$out" || fail "vadd: $out"
	inst_untouched "$tmp" vadd
	echo "ok: a program built with pkg-config --cflags --libs hartpool runs a checked kernel"

	# The prefix copied elsewhere: the data found beside the program.
	cp -a "$tmp/prefix" "$tmp/moved"
	out=$(inst_run "$tmp" moved "$tmp/moved/bin/hartpool" build --board qemu-virt32 \
		saxpy.cl -o saxpy.hpk) || fail "moved prefix: build: $out"
	grep -qF "$tmp/moved/share/hartpool/build/opencl/rv32imac-ilp32/hpcl.bc" "$tmp/moved.trace" ||
		fail "moved prefix: not its own data"
	! grep -qF "\"$tmp/prefix/" "$tmp/moved.trace" || fail "moved prefix: used the original prefix"
	inst_untouched "$tmp" moved
	echo "ok: a copy of the prefix uses its own share/hartpool"

	# uninstall: every file of ours gone, another file kept.
	echo keep >"$tmp/prefix/share/other.txt"
	make -s uninstall PREFIX="$tmp/prefix" || fail "make uninstall"
	out=$(cd "$tmp/prefix" && find . -type f)
	[ "$out" = "./share/other.txt" ] || fail "after make uninstall: $out"
	[ ! -e "$tmp/prefix/share/hartpool" ] || fail "share/hartpool left"
	echo "ok: make uninstall removed what install put there"
	rm -rf "$tmp"
}
