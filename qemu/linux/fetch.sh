#!/usr/bin/env bash
# The Linux guest of board qemu-virt-amp (docs/boards/qemu-virt-amp.md):
# Debian 13's riscv64 kernel image, busybox-static and the OpenCL loader
# with clinfo, fetched one by one with `apt-get download` through an apt
# configuration of its own (a sources list for trixie's riscv64 archive in
# the cache, never the machine's), unpacked and cached outside the clone
# (qemu/hp-qemu packs the initramfs of each boot: busybox, qemu/linux/init,
# the guest tools).
#
#   qemu/linux/fetch.sh                 fetch unless cached, print the folder
#   qemu/linux/fetch.sh --print-dir     the cached folder; exit 1 if none
#
# The cache is ${HARTPOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hartpool}/
# linux-riscv64-KVER: the kernel (Image), its config, the modules of the
# device's bell to Linux (modules/: uio and uio_pci_generic, decompressed),
# busybox, and root/: Debian's ocl-icd-libopencl1, clinfo, libc6 and
# libgcc-s1 unpacked. With a folder there, nothing is downloaded: the
# newest cached kernel is used (a folder cached before the modules were
# gets them, from the same kernel package). A fetch runs in a temporary
# folder renamed into place when complete.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
me=qemu/linux/fetch.sh
cache=${HARTPOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hartpool}
die() { echo "$me: $*" >&2; exit 1; }
say() { echo "linux: $*" >&2; }

newest() { # the newest complete cached guest
	local d
	d=$(ls -d "$cache"/linux-riscv64-*/ 2>/dev/null | sort -V | tail -1) || true
	[ -n "$d" ] && [ -f "$d/done-2" ] && echo "${d%/}"
}

if [ "${1:-}" = --print-dir ]; then
	d=$(newest) || die "no Linux guest cached in $cache (run $me)"
	echo "$d"
	exit 0
fi

# the bell's modules from kernel package $2 (a .deb) of version $3 into $1
modules() {
	local x=$1/modules.x m
	rm -rf "$x" && mkdir -p "$x" "$1/modules"
	dpkg-deb --fsys-tarfile "$2" | tar -x -C "$x" "./usr/lib/modules/$3/kernel/drivers/uio" ||
		die "$2 has no drivers/uio modules"
	for m in uio uio_pci_generic; do
		xz -dc "$x/usr/lib/modules/$3/kernel/drivers/uio/$m.ko.xz" >"$1/modules/$m.ko" ||
			die "cannot unpack $m.ko.xz of $2"
	done
	rm -rf "$x"
}

apt_setup() {
	command -v apt-get >/dev/null || die "apt-get is missing: the guest comes from Debian's riscv64 archive"
	command -v dpkg-deb >/dev/null || die "dpkg-deb is missing"
	command -v xz >/dev/null || die "xz is missing (apt-get install xz-utils)"
	mkdir -p "$cache"
	a=$cache/linux-apt
	mkdir -p "$a"/etc/{sources.list.d,preferences.d,apt.conf.d} "$a"/lists/partial "$a"/archives/partial
	echo "deb [arch=riscv64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
		>"$a/etc/sources.list"
	apt=(-o "Dir::Etc=$a/etc" -o "Dir::State::Lists=$a/lists" -o "Dir::Cache=$a"
		-o "Dir::Cache::archives=$a/archives" -o APT::Architecture=riscv64
		-o APT::Architectures=riscv64 -o Dir::State::status=/dev/null
		-o APT::Sandbox::User=root)
}

if d=$(newest); then
	if [ ! -f "$d/done-3" ]; then
		# cached before the bell: the modules from the same kernel
		apt_setup
		kver=$(awk '{print $1}' "$d/version")
		kver=${kver#linux-image-}
		tmp=$(mktemp -d "$cache/linux-modules.tmp.XXXXXX")
		trap 'rm -rf "$tmp"' EXIT
		say "fetching linux-image-$kver for its uio modules (once)"
		(cd "$tmp" && apt-get "${apt[@]}" -qq download "linux-image-$kver" 2>/dev/null) ||
			die "apt-get download linux-image-$kver failed (network?)"
		modules "$tmp" "$(ls "$tmp"/linux-image-*.deb)" "$kver"
		rm -rf "$d/modules" && mv "$tmp/modules" "$d/modules" && touch "$d/done-3"
		rm -rf "$tmp"
		trap - EXIT
	fi
	echo "$d"
	exit 0
fi

apt_setup
say "fetching Debian 13's riscv64 package index (once; cached afterwards)"
apt-get "${apt[@]}" -qq update || die "apt-get update of Debian 13's riscv64 archive failed (network?)"
# the versioned image the meta package names
kpkg=$(apt-cache "${apt[@]}" depends linux-image-riscv64 2>/dev/null |
	awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
[ -n "$kpkg" ] || die "no linux-image-riscv64 in Debian 13's riscv64 index"
kver=${kpkg#linux-image-}
tmp=$(mktemp -d "$cache/linux-riscv64-$kver.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pkgs=(busybox-static ocl-icd-libopencl1 clinfo libc6 libgcc-s1)
say "fetching $kpkg and ${pkgs[*]} (about 120 MB)"
(cd "$tmp" && apt-get "${apt[@]}" -qq download "$kpkg" "${pkgs[@]}" 2>/dev/null) ||
	die "apt-get download $kpkg ${pkgs[*]} failed"
mkdir -p "$tmp/x" "$tmp/root"
dpkg-deb -x "$tmp/$(cd "$tmp" && ls linux-image-*.deb)" "$tmp/x"
cp "$tmp/x/boot/vmlinux-$kver" "$tmp/Image"
cp "$tmp/x/boot/config-$kver" "$tmp/config"
modules "$tmp" "$(ls "$tmp"/linux-image-*.deb)" "$kver"
rm -rf "$tmp/x" "$tmp"/linux-image-*.deb
# the userland: busybox, and the OpenCL loader and clinfo with the C
# library they link (the guest's /usr, merged as Debian's)
for f in "$tmp"/*.deb; do dpkg-deb -x "$f" "$tmp/root"; done
cp "$tmp/root/usr/bin/busybox" "$tmp/busybox"
rm -f "$tmp"/*.deb
echo "$kpkg ${pkgs[*]}" >"$tmp/version"
touch "$tmp/done" "$tmp/done-2" "$tmp/done-3"
dest=$cache/linux-riscv64-$kver
rm -rf "$dest"
mv "$tmp" "$dest"
trap - EXIT
say "cached in $dest"
echo "$dest"
