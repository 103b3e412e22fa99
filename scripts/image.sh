#!/usr/bin/env bash
# image.sh: the files a board boots hartpool from, next to its ELF
# (`make image BOARD=B` runs it; docs/images.md says how each is used).
#
#   scripts/image.sh [--board B] FIRMWARE.elf
#
# Always:   hartpool.bin      the raw image (objcopy -O binary)
# For a board with BOARD_IMAGE := booti in its board.mk (the firmware
# starts with a RISC-V Linux-style Image header, for U-Boot's booti):
#           hartpool.uImage   a legacy U-Boot image of hartpool.bin (bootm)
#           boot.cmd          the U-Boot boot script's text
#           boot.scr          the same, made a script image (mkimage -T script)
#           sdcard.img        a 64 MiB disk: an MBR with one bootable FAT32
#                             partition holding hartpool.bin and boot.scr
#
# Environment: CROSS (default riscv64-unknown-elf-), for objcopy and readelf.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
board=qemu-virt elf=""
cross=${CROSS:-riscv64-unknown-elf-}

die() { echo "image.sh: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
	case "$1" in
	--board) board=${2:?}; shift 2 ;;
	-h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option $1 (see --help)" ;;
	*) [ -z "$elf" ] || die "more than one ELF given"; elf=$1; shift ;;
	esac
done
[ -n "$elf" ] || die "no firmware ELF given (see --help)"
[ -f "$elf" ] || die "$elf not found (run make BOARD=$board first)"
[ -f "$root/board/$board/board.mk" ] || die "unknown board '$board'"
# (a make of its own: not a job of the make that may have started us)
eval "$(env -u MAKEFLAGS -u MFLAGS make -s --no-print-directory -C "$root" -f "board/$board/board.mk" -f qemu/query.mk image-env)"

out=$(dirname "$elf")
tmp=$(mktemp -d "$out/.image-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# need TOOL PACKAGE
need() { command -v "$1" >/dev/null || die "$1 not found (Debian package $2)"; }
need "${cross}objcopy" gcc-riscv64-unknown-elf

need "${cross}readelf" gcc-riscv64-unknown-elf
# A raw image is one run of bytes from the lowest loaded address: a part
# loaded far from the rest (data in DRAM behind an image in flash) would
# become a gap of zeroes in it, and would be missing where the image is
# written. Such a part must be given a load address next to the others.
gap=$("${cross}readelf" -lW "$elf" | awk '
	/^Program Headers:/ { ph = 1; n = 0; next }
	ph && $1 == "Type" { next }
	ph && NF == 0 { ph = 0; next }
	ph { type[n] = $1; pa[n] = $4; fs[n] = $5; n++; next }
	/Section to Segment mapping/ { map = 1; next }
	map && $1 ~ /^[0-9]+$/ { k = $1 + 0; $1 = ""; secs[k] = $0 }
	function num(h,  i, v) {	# hex, exact below 2^53
		v = 0; h = tolower(h); sub(/^0x/, "", h)
		for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		return v
	}
	END {
		m = 0
		for (k = 0; k < n; k++)
			if (type[k] == "LOAD" && num(fs[k]) > 0) { idx[m++] = k }
		for (i = 0; i < m; i++)	# sort by load address
			for (j = i + 1; j < m; j++)
				if (num(pa[idx[j]]) < num(pa[idx[i]])) { t = idx[i]; idx[i] = idx[j]; idx[j] = t }
		end = num(pa[idx[0]]) + num(fs[idx[0]])
		for (i = 1; i < m; i++) {
			k = idx[i]
			if (num(pa[k]) - end > 16 * 1048576) {
				printf " the segment of%s (%d bytes to load at %s) lies %d MiB past the rest of the image, which starts at %s", secs[k], num(fs[k]), pa[k], (num(pa[k]) - end) / 1048576, pa[idx[0]]
				exit
			}
			if (num(pa[k]) + num(fs[k]) > end) end = num(pa[k]) + num(fs[k])
		}
	}')
[ -z "$gap" ] || die "$elf cannot be one raw image:$gap; give it a load address after the rest (AT> in the linker script)"
"${cross}objcopy" -O binary "$elf" "$tmp/hartpool.bin"
made=(hartpool.bin)

case "$BOARD_IMAGE" in
'') ;;
booti)
	need mkimage u-boot-tools
	need mformat mtools
	need mcopy mtools
	need python3 python3
	bin=$tmp/hartpool.bin
	size=$(stat -c %s "$bin")
	# The header U-Boot's booti checks (arch/riscv/lib/image.c): the
	# magic "RSC\x05" at 0x38, a non-zero image_size (0x10) that booti
	# copies when it moves the image, from text_offset (0x08) past the
	# start of DRAM.
	le() { od -An -v --endian=little -tu8 -j "$1" -N 8 "$bin" | tr -d ' '; }
	magic=$(od -An -v -tx1 -j 56 -N 4 "$bin" | tr -d ' ')
	[ "$magic" = 52534305 ] ||
		die "$elf has no RISC-V Image header (magic RSC\\x05 at offset 0x38 of the raw image, found $magic): BOARD_IMAGE := booti needs one"
	text_offset=$(le 8) image_size=$(le 16)
	[ "$image_size" -ge "$size" ] ||
		die "the Image header's image_size ($image_size) is below the raw image's $size bytes: booti would cut it"
	# Where hartpool.bin's first byte goes: the lowest loaded address.
	load=$("${cross}readelf" -lW "$elf" | awk '$1 == "LOAD" && $5 !~ /^0x0+$/ { print $4 }' | sort | head -1)
	entry=$("${cross}readelf" -hW "$elf" | awk '/Entry point address/ { print $4 }')
	[ -n "$load" ] && [ -n "$entry" ] || die "cannot read the load address and entry point of $elf"
	load=$(printf '0x%x' "$load") entry=$(printf '0x%x' "$entry")
	[ "$load" = "$entry" ] || die "$elf starts at $entry, not at its first byte $load: the Image header's jump must come first"

	mkimage -A riscv -O linux -T kernel -C none -a "$load" -e "$entry" \
		-n "hartpool $board" -d "$bin" "$tmp/hartpool.uImage" >/dev/null
	cat >"$tmp/boot.cmd" <<EOF
# hartpool's U-Boot boot script ($board; scripts/image.sh, docs/images.md).
# U-Boot's distro boot runs it (as boot.scr) from the first bootable
# partition that has it, with devtype, devnum, distro_bootpart and prefix
# set. It loads hartpool.bin from that partition to the address the
# firmware is linked at, $load (DRAM + text_offset $(printf '0x%x' "$text_offset")),
# where booti needs no move: U-Boot was loaded there but has relocated
# itself to the top of DRAM before running scripts. booti hands the
# firmware U-Boot's own device tree (with QEMU's or the board's bootargs).
if test -z "\${devtype}"; then setenv devtype mmc; setenv devnum 0; setenv distro_bootpart 1; fi
echo "hartpool: loading \${prefix}hartpool.bin from \${devtype} \${devnum}:\${distro_bootpart} to $load"
if load \${devtype} \${devnum}:\${distro_bootpart} $load \${prefix}hartpool.bin; then
	booti $load - \${fdtcontroladdr}
fi
echo "hartpool: booting hartpool.bin failed"
EOF
	mkimage -A riscv -O linux -T script -C none -n "hartpool boot script" \
		-d "$tmp/boot.cmd" "$tmp/boot.scr" >/dev/null

	# The disk: 1 MiB for the MBR (and alignment), then one FAT32
	# partition to the end; the MBR written here, the FAT by mtools at
	# the partition's offset (no root, no loop device).
	img=$tmp/sdcard.img mib=64 first=2048
	sectors=$((mib * 2048 - first))
	truncate -s "${mib}M" "$img"
	python3 - "$img" "$first" "$sectors" <<'EOF'
import struct, sys
img, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
mbr = bytearray(512)
mbr[440:444] = struct.pack("<I", 0x48505431)  # disk signature
# status 0x80 (bootable: U-Boot's `part list -bootable`), CHS fields
# 0xfeffff (use LBA), type 0x0c (FAT32, LBA), first sector, sector count
mbr[446:462] = struct.pack("<B3sB3sII", 0x80, b"\xfe\xff\xff", 0x0C,
                           b"\xfe\xff\xff", first, count)
mbr[510:512] = b"\x55\xaa"
with open(img, "r+b") as f:
    f.write(mbr)
EOF
	part="$img@@$((first * 512))"
	MTOOLS_SKIP_CHECK=1 mformat -i "$part" -T "$sectors" -h 64 -s 32 -H "$first" \
		-F -v HARTPOOL -N 48505431 ::
	MTOOLS_SKIP_CHECK=1 mcopy -i "$part" -m "$bin" "$tmp/boot.scr" ::/
	made+=(hartpool.uImage boot.cmd boot.scr sdcard.img)
	;;
*) die "board $board: BOARD_IMAGE '$BOARD_IMAGE' is not empty or booti (board.mk)" ;;
esac

for f in "${made[@]}"; do mv -f "$tmp/$f" "$out/$f"; done
echo "  IMAGE   $out: ${made[*]}"
