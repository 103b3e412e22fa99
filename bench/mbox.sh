#!/usr/bin/env bash
# Mailbox latency and throughput: `hartpool bench` (empty kernels through
# the real mailbox, host wall time) at 1, 8, 64 and 512 harts over shared
# memory, and over the serial transport: round trips back to back (p50,
# p99, mean), kernels/s with the ring kept full, and round trips after
# 12 ms of quiet (the dispatcher asleep until the host's ring: the UART's
# receive interrupt on qemu-virt). When the patched QEMU of qemu-cluster is
# built (make qemu-cluster), also that board at 8 and 64 harts, whose
# doorbell device rings instead. The "device" column is the p50 of the
# device's own share (reading the packet to writing the completion, device
# timestamps); the rest of a round trip is the host's ring reaching a
# sleeping dispatcher (docs/benchmarks.md, mailbox). Prints a table and writes
# build/bench/results/<date>-mbox-<board>.json.
#
#   bench/mbox.sh [--board B] [--count N] [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
board=qemu-virt count=3000 quick=0
while [ $# -gt 0 ]; do
	case "$1" in
	--board) board=$2; shift 2 ;;
	--count) count=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	*) echo "usage: bench/mbox.sh [--board B] [--count N] [--quick]" >&2; exit 2 ;;
	esac
done
[ "$quick" = 0 ] || count=500
make -s BOARD="$board" hartpool
HP=build/host/hartpool
mkdir -p build/bench/results
out="build/bench/results/$(date -u +%Y%m%dT%H%M%SZ)-mbox-$board.json"
rows=()
printf '%-13s %-8s %-7s %6s %9s %9s %9s %9s %12s %14s\n' board transport harts runs "p50 us" "p99 us" "mean us" "device" "kernels/s" "idle p50/max"

row() { # JSON line -> table row
	python3 -c 'import json,sys; r=json.loads(sys.argv[1]); l=r["latency_us"]
c=r["after_idle_us"]
d=r["device_p50_us"]
print("%-13s %-8s %-7s %6d %9.1f %9.1f %9.1f %9.1f %12.0f %6.0f/%-6.0f" % (r["board"], r["transport"], r["harts"], r["round_trips"], l["p50"], l["p99"], l["mean"], d["queued_to_start"] + d["start_to_end"], r["throughput"]["kernels_per_s"], c["p50"], c["max"]))' "$1"
}
for h in 1 8 64 512; do
	line=$("$HP" bench --board "$board" --harts "$h" --count "$count" --json)
	rows+=("$line")
	row "$line"
done
if [ "$board" = qemu-virt ] && qemu/build.sh --print-path >/dev/null 2>&1; then
	make -s BOARD=qemu-cluster hartpool
	for h in 8 64; do
		line=$("$HP" bench --board qemu-cluster --harts "$h" --count "$count" --json)
		rows+=("$line")
		row "$line"
	done
fi
# Serial: every packet is several framed requests through QEMU's UART.
conn=$("$HP" up --board "$board" --harts 8 | tail -1)
trap '"$HP" down --connect "$conn" >/dev/null 2>&1' EXIT
line=$("$HP" bench --connect "serial:${conn#shm:}.sock" --count $((count / 10)) --json)
rows+=("$line")
row "$line"
{
	echo "{\"bench\":\"mbox\",\"board\":\"$board\",\"date\":\"$(date -u +%FT%TZ)\","
	echo " \"commit\":\"$(git rev-parse --short HEAD 2>/dev/null || echo none)\",\"host_cores\":$(nproc),"
	echo " \"results\":["
	printf '  %s' "${rows[0]}"
	printf ',\n  %s' "${rows[@]:1}"
	echo
	echo "]}"
} >"$out"
echo "results: $out"
