#!/bin/bash
# SPDX-License-Identifier: MIT
# `make install` and `make uninstall` (docs/install.md): copies what the
# host tools need into PREFIX (under DESTDIR, if given) and writes the list
# of every file it put there to PREFIX/share/hartpool/manifest.txt, which
# uninstall removes exactly (and then the folders of ours left empty).
#
#   scripts/install.sh install   PREFIX [DESTDIR]    (from the source tree,
#   scripts/install.sh uninstall PREFIX [DESTDIR]     after make built it)
#
# PREFIX/bin/hartpool                 the CLI
# PREFIX/lib/libhartpool.a            for programs of users (one archive;
#                                     its hp_data_dir knows PREFIX)
# PREFIX/lib/pkgconfig/hartpool.pc    cc prog.c $(pkg-config --cflags --libs hartpool)
# PREFIX/lib/libhartpool-icd.so       the OpenCL ICD
# PREFIX/include/                     hartpool.h, hartpool_cl.h,
#                                     hartpool_boards.h, hartpool/*.h
# PREFIX/share/hartpool/              the data (hp_data_dir), in the source
#   boards.txt                        tree's layout: the board table,
#   build/BOARD/hartpool.elf          firmware of each board built,
#   build/opencl/ABI/hpcl.bc          the OpenCL built-in library,
#   include/hartpool/, linker/object.ld   what `hartpool build` compiles
#   qemu/hp-qemu, qemu/build.sh       and links with, the QEMU launcher
# PREFIX/etc/OpenCL/vendors/hartpool.icd   names lib/libhartpool-icd.so
set -euo pipefail

die() { echo "install.sh: $*" >&2; exit 1; }
mode=${1:?install or uninstall}
prefix=${2:?PREFIX}
destdir=${3:-}
case "$prefix" in /*) ;; *) die "PREFIX must be an absolute path, not '$prefix'" ;; esac
root=$destdir$prefix
manifest=share/hartpool/manifest.txt

if [ "$mode" = uninstall ]; then
	[ -f "$root/$manifest" ] || die "nothing of hartpool's in $root (no $manifest)"
	dirs=()
	while IFS= read -r f; do
		rm -f "$root/$f"
		dirs+=("$(dirname "$f")")
	done <"$root/$manifest"
	rm -f "$root/$manifest"
	dirs+=(share/hartpool)
	# Our folders, deepest first, if nothing else is in them.
	for d in $(printf '%s\n' "${dirs[@]}" | sort -u | awk -F/ '{print NF, $0}' | sort -rn | cut -d' ' -f2-); do
		while [ "$d" != . ] && [ "$d" != share ] && [ "$d" != lib ] &&
			[ "$d" != bin ] && [ "$d" != include ] && [ "$d" != etc ]; do
			rmdir "$root/$d" 2>/dev/null || break
			d=$(dirname "$d")
		done
	done
	echo "  UNINSTALL $root"
	exit 0
fi

[ "$mode" = install ] || die "install or uninstall, not '$mode'"
[ -f build/host/boards.txt ] || die "run from the source tree after make (no build/host/boards.txt)"
files=()
# put SRC DEST [MODE]: SRC to PREFIX/DEST.
put() {
	install -D -m "${3:-644}" "$1" "$root/$2"
	files+=("$2")
}
put build/host/hartpool bin/hartpool 755
put build/host/install/libhartpool.a lib/libhartpool.a
mkdir -p "$root/lib/pkgconfig"
printf '%s\n' "prefix=$prefix" 'includedir=${prefix}/include' 'libdir=${prefix}/lib' '' \
	'Name: hartpool' 'Description: drive a hartpool device (libhartpool)' 'Version: 1' \
	'Cflags: -I${includedir}' 'Libs: -L${libdir} -lhartpool -pthread -lm' \
	>"$root/lib/pkgconfig/hartpool.pc"
files+=(lib/pkgconfig/hartpool.pc)
put build/host/libhartpool-icd.so lib/libhartpool-icd.so 755
for h in host/include/*.h; do
	put "$h" "include/${h#host/include/}"
done
# <hartpool/kernels/lib.h>: the header generated from the kernel library's
# list (kernels/kernels.mk, scripts/gen-kernels) when make read its
# makefiles, in the place of the tree's, which includes it from build/gen.
h=hartpool/kernels/lib.h
for f in $(cd include && find hartpool -name '*.h' | sort); do
	[ "$f" != "$h" ] || continue
	put "include/$f" "include/$f"
	put "include/$f" "share/hartpool/include/$f"
done
[ -f "build/gen/$h" ] || die "no build/gen/$h (run make first)"
put "build/gen/$h" "include/$h"
put "build/gen/$h" "share/hartpool/include/$h"
put build/host/boards.txt share/hartpool/boards.txt
n=0
for b in $(awk '{print $1}' build/host/boards.txt | sort -u); do
	[ -f "build/$b/hartpool.elf" ] || continue
	put "build/$b/hartpool.elf" "share/hartpool/build/$b/hartpool.elf"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || die "no firmware built (make BOARD=B first)"
for bc in build/opencl/*/hpcl.bc; do
	[ -f "$bc" ] || die "no OpenCL built-in library (make opencl-lib first)"
	put "$bc" "share/hartpool/$bc"
done
put linker/object.ld share/hartpool/linker/object.ld
put qemu/hp-qemu share/hartpool/qemu/hp-qemu 755
put qemu/query.mk share/hartpool/qemu/query.mk
# qemu-cluster's patched QEMU: build.sh --print-path finds the build cached
# by `make qemu-cluster` (its key hashes build.sh and the patches).
put qemu/build.sh share/hartpool/qemu/build.sh 755
for p in qemu/patches/*.patch; do
	[ -f "$p" ] && put "$p" "share/hartpool/$p"
done
mkdir -p "$root/etc/OpenCL/vendors"
echo "$prefix/lib/libhartpool-icd.so" >"$root/etc/OpenCL/vendors/hartpool.icd"
files+=(etc/OpenCL/vendors/hartpool.icd)
printf '%s\n' "${files[@]}" >"$root/$manifest"
echo "  INSTALL $root: ${#files[@]} files, firmware for $n board(s)"
