#!/usr/bin/env bash
# `make run` on board qemu-virt-amp (docs/boards/qemu-virt-amp.md): boots
# Linux on HP_QEMU_AMP_LINUX_HARTS (default 2) of HARTS harts and the
# firmware on the rest, runs `hartpool demo` from a Linux process inside
# the guest (the guest tools over /dev/mem), prints what it printed and
# ends the device; the exit status is the demo's.
#
#   qemu/linux/amp-run.sh HARTS
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
hp=$root/build/host/hartpool
total=${1:?usage: amp-run.sh HARTS}
lx=${HP_QEMU_AMP_LINUX_HARTS:-2}
die() { echo "amp-run.sh: $*" >&2; exit 2; }
case "$total" in ''|*[!0-9]*) die "HARTS must be a number, not '$total'" ;; esac
[ "$total" -gt "$lx" ] || die "$total harts leave none for the firmware beside Linux's $lx"
[ -x "$root/build/guest/bin/hartpool" ] || die "no guest tools (make guest-tools)"
add=$(mktemp -d)
conn=""
end() {
	[ -z "$conn" ] || "$hp" down --connect "$conn" >/dev/null 2>&1 || true
	rm -rf "$add"
}
trap end EXIT
cat >"$add/run" <<'RUN'
#!/bin/sh
echo "guest: hartpool demo, from a Linux process (pid $$) on $(nproc) harts"
hartpool demo --connect devmem 2>&1 | sed 's/^/guest| /'
echo "guest: demo ended with status $?"
echo "guest: done"
RUN
chmod 755 "$add/run"
conn=$(HP_QEMU_AMP_INITRD_ADD=$add "$hp" up --board qemu-virt-amp --harts $((total - lx)) | tail -1)
log=${conn#shm:}.linux.log
shown=0
for _ in $(seq 1 1200); do
	if [ -f "$log" ]; then
		n=$(wc -l <"$log")
		[ "$n" -le "$shown" ] || { sed -n "$((shown + 1)),${n}p" "$log" | grep -a '^guest' || true; shown=$n; }
		grep -q '^guest: done' "$log" && break
	fi
	sleep 0.5
done
grep -q '^guest: done' "$log" || die "the guest did not finish: $(tail -3 "$log")"
grep -q '^guest: demo ended with status 0' "$log"
