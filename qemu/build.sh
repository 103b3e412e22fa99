#!/usr/bin/env bash
# Builds the patched QEMU of board qemu-cluster once and caches it outside
# the clone (docs/qemu.md): Debian's own qemu source package, the version
# of the installed qemu-system-misc, with Debian's patches and then
# qemu/patches/*.patch, configured for riscv64 and riscv32 with TCG plugins.
#
#   qemu/build.sh                        build it unless it is there already
#   qemu/build.sh --print-path [ARCH]    the qemu-system-ARCH binary (riscv64,
#                                        the default, or riscv32); exit 1 and
#                                        say so if it is not built
#   qemu/build.sh --print-dir            where it is (or would be) cached
#
# The cache is ${HARTPOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hartpool}/
# qemu-KEY, KEY a hash of the patches, this script and the source version:
# changing any of them means a new build; older qemu-* folders there can be
# deleted. Concurrent builds of one KEY wait for each other (flock); the
# build runs in a temporary folder beside the cache and is renamed into
# place only when it succeeded. Missing Debian packages are installed
# (scripts/deps.sh qemu), and a deb-src entry for Debian's sources is
# added when there is none (/etc/apt/sources.list.d/hartpool-deb-src.sources).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
me="qemu/build.sh"
pkg=qemu-system-misc

say() { echo "qemu: $*"; }
die() { echo "$me: $*" >&2; exit 1; }

# The source version of the installed qemu-system-misc, e.g.
# 1:7.2+dfsg-7+deb12u18 (the binary may carry a +bN suffix; the source not).
source_version() {
	local v
	v=$(dpkg-query -W -f='${source:Version}' "$pkg" 2>/dev/null) || v=""
	[ -n "$v" ] || die "$pkg is not installed, so there is no Debian QEMU version to patch (apt-get install $pkg, or make deps)"
	echo "$v"
}

# KEY: what the build depends on, hashed.
cache_key() {
	{
		echo "source qemu $1"
		cat "$root/qemu/build.sh"
		for p in "$root"/qemu/patches/*.patch; do
			echo "patch $(basename "$p")"
			cat "$p"
		done
	} | sha256sum | cut -c1-12
}

# On a fresh machine (make test runs this before its own package step) the
# Debian QEMU whose version names the source may not be there yet.
if [ -z "${1:-}" ] &&
	! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
	"$root/scripts/deps.sh" qemu
fi
version=$(source_version)
key=$(cache_key "$version")
base=${HARTPOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hartpool}
dir=$base/qemu-$key

case "${1:-}" in
--print-dir)
	echo "$dir"
	exit 0
	;;
--print-path)
	arch=${2:-riscv64}
	case "$arch" in riscv64|riscv32) ;; *) die "--print-path takes riscv64 or riscv32, not '$arch'" ;; esac
	bin=$dir/bin/qemu-system-$arch
	[ -x "$bin" ] || die "the patched QEMU (Debian's qemu $version + qemu/patches) is not built: no $bin; run 'make qemu-cluster' (qemu/build.sh) first, it takes a few minutes once"
	echo "$bin"
	exit 0
	;;
'') ;;
-h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
*) die "unknown option '$1' (see --help)" ;;
esac

built() { [ -x "$dir/bin/qemu-system-riscv64" ] && [ -x "$dir/bin/qemu-system-riscv32" ]; }
built && exit 0

# ---- build --------------------------------------------------------------
"$root/scripts/deps.sh" qemu

mkdir -p "$base"
exec 9>"$base/qemu-$key.lock"
if ! flock -n 9; then
	say "another build of $dir is running; waiting for it"
	flock 9
fi
built && { say "built meanwhile by the other build: $dir"; exit 0; }
# Left behind by a build that was killed (we hold the lock: none runs).
rm -rf "$base/qemu-$key.tmp."*

tmp=$(mktemp -d "$base/qemu-$key.tmp.XXXXXX")
log=$tmp/build.log
failed_log=$base/qemu-$key.failed.log
trap 'rm -rf "$tmp"' EXIT
: >"$log"
t0=$(date +%s)

# run STEP CMD...: CMD with its output in the log; on failure the log's
# tail, and the whole log kept beside the cache.
run() {
	local step=$1
	shift
	echo "+ $*" >>"$log"
	if ! "$@" >>"$log" 2>&1; then
		cp "$log" "$failed_log"
		echo "$me: $step failed; the last lines of the log ($failed_log):" >&2
		tail -n 40 "$log" | sed 's/^/  | /' >&2
		exit 1
	fi
}

# sudo when not root (as scripts/deps.sh), or nothing to do it with.
as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif command -v sudo >/dev/null; then
		sudo "$@"
	else
		die "not root and no sudo: as root, $1 ${*:2}"
	fi
}

# A deb-src entry for the archive the installed packages come from.
have_source() {
	# (all of it read: grep -q would end the pipe early, and pipefail)
	apt-cache showsrc qemu 2>/dev/null | grep -x "Version: $version" >/dev/null
}
if ! have_source; then
	list=/etc/apt/sources.list.d/hartpool-deb-src.sources
	say "no deb-src entry gives qemu $version: adding $list (Debian's sources, Types: deb-src) and running apt-get update"
	src=/etc/apt/sources.list.d/debian.sources
	if [ -f "$src" ]; then
		entry=$(sed 's/^Types:.*/Types: deb-src/' "$src")
	elif [ -f /etc/apt/sources.list ] && grep -q '^deb ' /etc/apt/sources.list; then
		list=/etc/apt/sources.list.d/hartpool-deb-src.list
		entry=$(sed -n 's/^deb /deb-src /p' /etc/apt/sources.list)
	else
		die "found neither $src nor deb lines in /etc/apt/sources.list to mirror as deb-src: add a deb-src entry for Debian's main archive and run apt-get update"
	fi
	if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null; then
		die "not root and no sudo: as root, write $list with Types: deb-src (as $src) and run apt-get update"
	fi
	printf '# Added by hartpool qemu/build.sh: Debian source packages (apt-get source qemu).\n%s\n' "$entry" |
		as_root tee "$list" >/dev/null
	run "apt-get update" as_root apt-get update -qq
	have_source || die "apt-get update found no qemu $version in the deb-src entries ($list); is that version still in the archive?"
fi

# The source package: downloaded once per version into the cache.
dl=$base/dl/qemu-$version
upstream=${version#*:}
dsc=$dl/qemu_$upstream.dsc
if [ ! -f "$dsc" ]; then
	say "[1/5] downloading Debian's source package qemu $version (apt-get source)"
	mkdir -p "$base/dl"
	dlt=$(mktemp -d "$dl.tmp.XXXXXX")
	(cd "$dlt" && run "apt-get source" apt-get source --download-only -qq "qemu=$version")
	mv -T "$dlt" "$dl" 2>/dev/null || rm -rf "$dlt" # or another build was first
else
	say "[1/5] Debian's source package qemu $version (downloaded before: $dl)"
fi

say "[2/5] unpacking it with Debian's patches (dpkg-source -x), then qemu/patches"
run "dpkg-source -x" dpkg-source -x "$dsc" "$tmp/src"
for p in "$root"/qemu/patches/*.patch; do
	echo "    $(basename "$p")"
	run "applying $(basename "$p")" patch -p1 -d "$tmp/src" --forward --batch -i "$p"
done

# Only what the cluster board needs: the two system emulators with TCG and
# plugins (qemu/hp-qemu --count); no docs, tools, guest agent, GUI or
# optional libraries. Debian's libfdt, as riscv needs one.
say "[3/5] configure (riscv64-softmmu, riscv32-softmmu, plugins)"
mkdir -p "$tmp/build"
(cd "$tmp/build" && run "configure" "$tmp/src/configure" \
	--target-list=riscv64-softmmu,riscv32-softmmu \
	--enable-plugins \
	--without-default-features \
	--enable-fdt=system \
	--disable-docs --disable-tools --disable-guest-agent \
	--disable-debug-info --disable-werror --disable-install-blobs \
	--with-pkgversion="Debian $version + hartpool qemu/patches ($key)")

jobs=$(nproc 2>/dev/null || echo 2)
say "[4/5] compiling with $jobs jobs (about 1,500 steps; a few minutes)"
echo "+ ninja -j$jobs qemu-system-riscv64 qemu-system-riscv32" >>"$log"
(cd "$tmp/build" && ninja -j"$jobs" qemu-system-riscv64 qemu-system-riscv32) >>"$log" 2>&1 &
ninja_pid=$!
while kill -0 "$ninja_pid" 2>/dev/null; do
	for _ in $(seq 30); do
		sleep 1
		kill -0 "$ninja_pid" 2>/dev/null || break
	done
	kill -0 "$ninja_pid" 2>/dev/null || break
	at=$(grep -o '^\[[0-9]*/[0-9]*\]' "$log" | tail -n 1 || true)
	say "      ${at:-[starting]} after $(($(date +%s) - t0)) s"
done
if ! wait "$ninja_pid"; then
	cp "$log" "$failed_log"
	echo "$me: compiling failed; the last lines of the log ($failed_log):" >&2
	tail -n 40 "$log" | sed 's/^/  | /' >&2
	exit 1
fi

say "[5/5] installing into $dir"
out=$tmp/out
mkdir -p "$out/bin" "$out/share"
cp "$tmp/build/qemu-system-riscv64" "$tmp/build/qemu-system-riscv32" "$out/bin/"
# QEMU looks for firmware (-bios default, -L) in ../share/qemu beside the
# binary: Debian's (qemu-system-data), as for its own QEMU.
ln -s /usr/share/qemu "$out/share/qemu"
cp "$log" "$out/build.log"
cat >"$out/README" <<EOF
hartpool's patched QEMU (qemu/build.sh in the hartpool clone at $root)
source:   Debian qemu $version, with Debian's patches
patches:  $(cd "$root/qemu/patches" && echo *.patch)
key:      $key
built:    $(date -u +%Y-%m-%dT%H:%M:%SZ) in $(($(date +%s) - t0)) s
EOF
"$out/bin/qemu-system-riscv64" --version >/dev/null ||
	die "the new qemu-system-riscv64 does not run (log: $out/build.log)"
rm -rf "$dir" # an incomplete one (we hold the lock and it is not built)
mv -T "$out" "$dir"
rm -f "$failed_log"
say "patched QEMU built in $(($(date +%s) - t0)) s: $dir/bin/qemu-system-riscv64, qemu-system-riscv32"
