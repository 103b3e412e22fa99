#!/usr/bin/env bash
# The U-Boot tier of the e2e tests (tests/e2e/e2e.sh run uboot): hartpool
# booted the way a board's SD card boots it, OpenSBI -> U-Boot -> boot.scr ->
# hartpool.bin from build/BOARD/sdcard.img (`make image`), then driven over
# the serial link with all the boot text still in front of it.
#
#   1. `hartpool info --boot uboot` through the library (hp_open_options.boot),
#      with bootargs through U-Boot (QEMU's device tree, which booti hands on);
#      what cannot boot refused with the reason,
#   2. a device kept up by qemu/hp-qemu --boot uboot --timeout: its console
#      must show OpenSBI, U-Boot finding /boot.scr on virtio 0:1, the script
#      loading hartpool.bin, booti, then the firmware serving,
#   3. the kernel library checked over the serial transport through
#      tests/e2e/uart_relay.py, which hands each connection the UART's boot
#      text first (OpenSBI's, U-Boot's, the firmware's banner): the host
#      must find the device's frames after it,
#   4. the same device over shared memory, then stopped.
#
# Environment: HP_UBOOT_BOARD (default qemu-virt-sbi), HP_UBOOT_HARTS (4),
# HP_UBOOT_TIMEOUT (QEMU's time limit in seconds, 600).
set -uo pipefail
cd "$(dirname "$0")/../.."
HP=build/host/hartpool
board=${HP_UBOOT_BOARD:-qemu-virt-sbi}
harts=${HP_UBOOT_HARTS:-4}
limit=${HP_UBOOT_TIMEOUT:-600}

fail() {
	echo "FAIL: $*"
	[ ! -s "${ram:-}.log" ] || { echo "--- device console (last 30 lines):"; tr -cd '\11\12\15\40-\176' <"$ram.log" | tail -30; }
	exit 1
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

img=build/$board/sdcard.img
[ -f "$img" ] || fail "no $img: run make image BOARD=$board"

# 1. Through the library: booted, described, stopped by one command.
t0=$(now)
out=$(timeout 180 "$HP" info --board "$board" --boot uboot --harts 3 --append hartpool.harts=2) ||
	fail "info --board $board --boot uboot: $out"
echo "info --boot uboot (3 harts, hartpool.harts=2 in the bootargs): $(since "$t0") s from start to stopped"
grep -qx "board: $board" <<<"$out" || fail "info: $out"
grep -qx "harts: 2" <<<"$out" || fail "the bootargs did not reach the firmware through U-Boot: $out"

# What cannot boot is refused before QEMU starts, with the reason.
refused() { # WANT ARGS...: hartpool info ARGS fails with WANT in its message
	local want=$1 err
	shift
	err=$("$HP" info "$@" 2>&1 >/dev/null) && fail "info $* booted"
	grep -q "HP_INVALID_VALUE: cannot boot .*$want" <<<"$err" || fail "info $*: $err"
	echo "ok: info $* -> $err"
}
refused "board qemu-virt has no U-Boot to chain" --board qemu-virt --boot uboot
refused "--boot must be direct or uboot" --board "$board" --boot grub
refused "--harts must be 1..128 on board $board" --board "$board" --harts 129

# 2. A device that stays up, under hp-qemu's time limit.
dir=$(mktemp -d /tmp/hp-uboot-XXXXXX)
ram=/dev/shm/hartpool-uboot-$$
qpid="" rpid=""
cleanup() {
	[ -z "$rpid" ] || kill "$rpid" 2>/dev/null
	if [ -n "$qpid" ]; then
		"$HP" down --connect "shm:$ram" >/dev/null 2>&1 || kill "$qpid" 2>/dev/null
		wait "$qpid" 2>/dev/null
	fi
	rm -rf "$dir" "$ram" "$ram".*
}
trap cleanup EXIT
trap 'exit 1' TERM INT
t0=$(now)
qemu/hp-qemu --board "$board" --boot uboot --harts "$harts" --timeout "$limit" \
	--shm "$ram" --serial-socket "$ram.sock" --log "$ram.log" \
	"build/$board/hartpool.elf" </dev/null >"$dir/qemu.out" 2>&1 &
# (no $ram.pid: `down` then only stops the device, and this script reaps
# hp-qemu, its child)
qpid=$!
for _ in $(seq 1200); do
	grep -qa "harts serving" "$ram.log" 2>/dev/null && break
	kill -0 "$qpid" 2>/dev/null || fail "QEMU ended during the boot: $(cat "$dir/qemu.out")"
	sleep 0.1
done
grep -qa "harts serving" "$ram.log" || fail "the firmware did not come up in 120 s"
boot_s=$(since "$t0")
cp "$ram.log" "$dir/boot.txt"

# The boot, in order, as the UART printed it.
line=0
for want in "OpenSBI v" "U-Boot 20" "Hit any key to stop autoboot" "Scanning virtio 0:1" \
	"Found U-Boot script /boot.scr" "hartpool: loading /hartpool.bin from virtio 0:1" \
	"Starting kernel" "hartpool: board $board" "hartpool: $harts harts serving" \
	"hartpool: buffer memory not zero at boot"; do
	n=$(grep -naF "$want" "$dir/boot.txt" | head -1 | cut -d: -f1)
	[ -n "$n" ] || fail "the console lacks '$want'"
	[ "$n" -ge "$line" ] || fail "'$want' (line $n) came before line $line"
	line=$n
done
# Console text never holds the frame markers 0xC0, 0xC1 (frame.h).
! LC_ALL=C grep -qa $'[\xc0\xc1]' "$dir/boot.txt" || fail "the boot text holds a frame marker byte"
echo "OpenSBI -> U-Boot -> boot.scr -> hartpool: $harts harts serving $boot_s s after QEMU started" \
	"($(wc -c <"$dir/boot.txt") bytes of console text, $(wc -l <"$dir/boot.txt") lines)"

# 3. The kernel library over the serial link, the boot text in front.
python3 tests/e2e/uart_relay.py "$dir/uart.sock" "$ram.sock" "$dir/boot.txt" 2>"$dir/relay.log" &
rpid=$!
for _ in $(seq 100); do [ -S "$dir/uart.sock" ] && break; sleep 0.05; done
ser=serial:$dir/uart.sock
t0=$(now)
out=$("$HP" info --connect "$ser") || fail "info over serial after the boot text: $out"
grep -qx "harts: $harts" <<<"$out" || fail "info over serial: $out"
grep -qx "board: $board" <<<"$out" || fail "info over serial: $out"
n=0
for k in "ids --global 33,17 --local 4,4" "wg_count --global 100,7" "sg_ops --global 100,3" \
	"barrier_rotate --global 20,9,7 --local 8,4,2" vadd saxpy sgemm_naive sgemm_tiled \
	reduce_wg reduce_sg scan histogram transpose conv2d bitonic mandelbrot; do
	# shellcheck disable=SC2086 # k is a kernel and its options
	"$HP" run $k --check --connect "$ser" >"$dir/run.out" 2>&1 ||
		fail "run $k --check over serial: $(cat "$dir/run.out")"
	n=$((n + 1))
done
echo "$n kernels checked over the serial link in $(since "$t0") s, each connection after the boot text:"
for _ in $(seq 50); do grep -q "client $((n + 1)):" "$dir/relay.log" && break; sleep 0.1; done
sed 's/^/  /' "$dir/relay.log" | tail -3
grep -q "client $((n + 1)): $(wc -c <"$dir/boot.txt") bytes of boot text first" "$dir/relay.log" ||
	fail "the relay did not hand every connection the boot text: $(cat "$dir/relay.log")"

# 4. Shared memory on the same device, then stop it.
"$HP" run vadd --global 100000 --check --connect "shm:$ram" >/dev/null || fail "vadd over shm"
"$HP" down --connect "shm:$ram" >/dev/null || fail "down"
wait "$qpid"
rc=$?
qpid=""
[ "$rc" = 0 ] || fail "QEMU exited $rc after down, expected 0"
echo "ok: U-Boot boot of $board, the kernel library exact over serial and shm, stopped cleanly"
