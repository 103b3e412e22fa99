#!/usr/bin/env bash
# Linux beside the firmware (board qemu-virt-amp, docs/boards/qemu-virt-amp.md):
# `hartpool bench --json` (empty kernels through the mailbox, wall time)
# from a Linux process inside the guest, waiting on the device's bell
# (devmem) and polling (devmem:wait=poll), ROUNDS times each, alternating;
# then a 1 s wait (a shut gate kernel) in each mode with what it cost
# Linux: bell interrupts, context switches and busy ticks (/proc/stat);
# and `hartpool bench` from the x86 host on the same device. Prints a
# table and writes build/bench/results/<date>-amp-qemu-virt-amp.json.
#
#   bench/amp.sh [--harts N] [--rounds R] [--count N]
set -euo pipefail
cd "$(dirname "$0")/.."
harts=6 rounds=3 count=2000
while [ $# -gt 0 ]; do
	case "$1" in
	--harts) harts=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--count) count=$2; shift 2 ;;
	*) echo "usage: bench/amp.sh [--harts N] [--rounds R] [--count N]" >&2; exit 2 ;;
	esac
done
make -s BOARD=qemu-virt-amp hartpool guest-tools
HP=build/host/hartpool
mkdir -p build/bench/results
out="build/bench/results/$(date -u +%Y%m%dT%H%M%SZ)-amp-qemu-virt-amp.json"
add=$(mktemp -d /tmp/hp-amp-bench-XXXXXX)
conn=""
trap '[ -z "$conn" ] || "$HP" down --connect "$conn" >/dev/null 2>&1; rm -rf "$add"' EXIT
# inside Linux: one JSON line per measurement, "bench:"-prefixed
cat >"$add/run" <<SCRIPT
#!/bin/sh
stat() { awk -v k="\$1" '\$1 == k {print \$2 + \$3 + \$4}' /proc/stat; }
ms() { awk '{printf "%d", \$1 * 1000}' /proc/uptime; } # busybox date has no %N
irq() { awk '/uio_pci_generic/ {n = 0; for (i = 2; i <= NF && \$i ~ /^[0-9]+\$/; i++) n += \$i; print n}' /proc/interrupts; }
for r in \$(seq 1 $rounds); do
	for m in devmem devmem:wait=poll; do
		echo "bench: {\"wait\": \"\$m\", \"bench\": \$(hartpool bench --count $count --json --connect \$m)}"
	done
done
for m in devmem devmem:wait=poll; do
	i=\$(irq) c=\$(awk '/^ctxt/ {print \$2}' /proc/stat) b=\$(stat cpu) t0=\$(ms)
	hartpool run gate --global 1 --arg open=0 --arg iters=250000000 --check --connect \$m >/dev/null
	t1=\$(ms)
	echo "bench: {\"wait\": \"\$m\", \"long_wait_ms\": \$(( t1 - t0 )), \"bell_interrupts\": \$(( \$(irq) - i )), \"context_switches\": \$(( \$(awk '/^ctxt/ {print \$2}' /proc/stat) - c )), \"busy_ticks\": \$(( \$(stat cpu) - b ))}"
done
echo "bench: done"
SCRIPT
chmod +x "$add/run"
t0=$(date +%s%N)
conn=$(HP_QEMU_AMP_INITRD_ADD=$add "$HP" up --board qemu-virt-amp --harts "$harts" | tail -1)
log=${conn#shm:}.linux.log
up_ms=$((($(date +%s%N) - t0) / 1000000))
for i in $(seq 1 900); do
	grep -q "^guest: ready" "$log" 2>/dev/null && break
	sleep 0.2
done
ready_ms=$((($(date +%s%N) - t0) / 1000000))
for i in $(seq 1 1800); do
	grep -q "^bench: done\|^guest: /hp/run ended" "$log" 2>/dev/null && break
	sleep 0.5
done
grep -q "^bench: done" "$log" || { echo "bench/amp.sh: the guest did not finish: $(tail -5 "$log")" >&2; exit 1; }
host=$("$HP" bench --count "$count" --json --connect "$conn")
python3 - "$log" "$host" "$out" "$up_ms" "$ready_ms" "$(git rev-parse --short HEAD 2>/dev/null || echo none)" <<'PY'
import json, sys, time
log, host, out, up_ms, ready_ms, commit = sys.argv[1:]
rows = [json.loads(l[len("bench: "):]) for l in open(log, errors="replace")
        if l.startswith("bench: {")]
host = json.loads(host)
print("%-28s %9s %9s %9s %14s" % ("host", "p50 us", "p99 us", "mean us", "idle p50/max"))
def row(name, b):
    l, c = b["latency_us"], b["after_idle_us"]
    print("%-28s %9.1f %9.1f %9.1f %6.0f/%-6.0f" % (name, l["p50"], l["p99"], l["mean"], c["p50"], c["max"]))
for r in rows:
    if "bench" in r:
        row("guest " + r["wait"], r["bench"])
row("x86 host shm", host)
for r in rows:
    if "long_wait_ms" in r:
        print("guest %s: a %d ms wait: %d bell interrupts, %d context switches, %d busy ticks" %
              (r["wait"], r["long_wait_ms"], r["bell_interrupts"], r["context_switches"], r["busy_ticks"]))
print("boot: hartpool up %s ms, Linux ready %s ms" % (up_ms, ready_ms))
json.dump({"bench": "amp", "board": "qemu-virt-amp", "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           "commit": commit, "guest": rows, "x86_host": host,
           "boot_ms": {"up": int(up_ms), "linux_ready": int(ready_ms)}}, open(out, "w"), indent=1)
print("results:", out)
PY
