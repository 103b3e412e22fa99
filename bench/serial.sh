#!/usr/bin/env bash
# What the serial link costs: over QEMU's UART socket,
# against the firmware, unpaced (what QEMU's UART alone gives) and at
# 921,600 and 115,200 baud (the socket paced to the rate like a UART, 10
# bits a byte). For each rate:
#   - build/host/bench/serial_link (bench/serial_link.c): `empty` on one
#     work-item launched one at a time (round trips), then as many with the
#     ring kept full (the window full), then a buffer of random bytes
#     written and read back; the host transport counts the bytes on the
#     wire each way;
#   - `hartpool bench --connect serial:...`: round trips p50/p99 and
#     kernels/s with the ring kept full (the mailbox benchmark's serial row).
# Prints bytes per kernel each way and what they give at the rate: a round
# trip's bytes cross the line one after the other ((sent + received) * 10 /
# baud), a full window's both ways at once (baud / 10 / the larger of the
# two per kernel). Writes build/bench/results/<date>-serial-<board>-<harts>h.json.
#
#   bench/serial.sh [--board B] [--harts N] [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
board=qemu-virt harts=1 quick=0
while [ $# -gt 0 ]; do
	case "$1" in
	--board) board=$2; shift 2 ;;
	--harts) harts=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	*) echo "usage: bench/serial.sh [--board B] [--harts N] [--quick]" >&2; exit 2 ;;
	esac
done
make -s BOARD="$board" hartpool build/host/bench/serial_link
HP=build/host/hartpool
LINK=build/host/bench/serial_link
mkdir -p build/bench/results
out="build/bench/results/$(date -u +%Y%m%dT%H%M%SZ)-serial-$board-${harts}h.json"

# rate, launches, buffer bytes, hartpool bench --count (the buffer is
# smaller at 115200: a MiB is 91 s of line there; per MiB is scaled).
if [ "$quick" = 1 ]; then
	cases=("0 100 32768 100" "921600 50 32768 50" "115200 20 8192 20")
else
	cases=("0 1000 262144 1000" "921600 400 262144 300" "115200 100 65536 100")
fi

load0=$(cut -d' ' -f1-3 /proc/loadavg)
conn=$("$HP" up --board "$board" --harts "$harts" | tail -1)
trap '"$HP" down --connect "$conn" >/dev/null 2>&1' EXIT
sock=${conn#shm:}.sock
rows=()
for c in "${cases[@]}"; do
	read -r rate launches bytes count <<<"$c"
	spec="serial:$sock"
	[ "$rate" = 0 ] || spec="$spec,baud=$rate"
	rows+=("$("$LINK" --connect "$spec" --launches "$launches" --bytes "$bytes")")
	rows+=("$("$HP" bench --connect "$spec" --count "$count" --json)")
done

python3 - "$out" "$board" "$harts" "$(git rev-parse --short HEAD 2>/dev/null || echo none)" "$(nproc)" "$load0" "${rows[@]}" <<'PY'
import json, sys, time
out, board, harts, commit, cores, load0 = sys.argv[1:7]
raw = [json.loads(r) for r in sys.argv[7:]]
runs = list(zip(raw[0::2], raw[1::2]))  # (serial_link, hartpool bench)
MIB = 1 << 20

def per(p, n):
    return {"sent": p["sent"] / n, "received": p["received"] / n,
            "requests": p["requests"] / n, "retransmissions": p["retransmissions"],
            "measured": n / p["seconds"]}

print("%s, %s hart(s), the firmware in QEMU over its UART socket:" % (board, harts))
print("%-8s %-22s %9s %9s %8s %10s %10s" % ("baud", "what", "sent B", "recv B", "frames",
      "measured", "from bytes"))
result = []
for link, mb in runs:
    baud = link["baud"]
    row = {"baud": baud, "launches": link["launch"]["launches"],
           "buffer_bytes": link["write"]["bytes"], "mailbox_bench": mb}
    for name, what, unit in (("launch", "round trip, kernels/s", "kernels/s"),
                             ("stream", "window full, kernels/s", "kernels/s"),
                             ("write", "write, MiB/s", "MiB/s"),
                             ("read", "read, MiB/s", "MiB/s")):
        p = link[name]
        n = p["launches"] if name in ("launch", "stream") else p["bytes"] / MIB
        f = per(p, n)
        # A round trip's bytes take turns on the line; a window's (and a
        # buffer's, streamed) cross both ways at once.
        wire = f["sent"] + f["received"] if name == "launch" else max(f["sent"], f["received"])
        f["computed"] = baud / 10 / wire if baud else None
        f["unit"] = unit
        row[name] = f
        prec = "%10.1f" if unit == "kernels/s" else "%10.3f"
        print("%-8s %-22s %9.1f %9.1f %8.2f %s %s%s" % (
            baud or "unpaced", what, f["sent"], f["received"], f["requests"], prec % f["measured"],
            "%10s" % "-" if f["computed"] is None else prec % f["computed"],
            "  (%d sent again)" % f["retransmissions"] if f["retransmissions"] else ""))
    l = mb["latency_us"]
    print("%-8s %-22s p50 %.0f us, p99 %.0f us; %.0f kernels/s window full; after 12 ms idle p50 %.0f us"
          % (baud or "unpaced", "hartpool bench", l["p50"], l["p99"],
             mb["throughput"]["kernels_per_s"], mb["after_idle_us"]["p50"]))
    result.append(dict(row, raw=link))
print("(sent B, recv B, frames: per kernel or per MiB; from bytes: the rate the counted bytes give at")
print(" the baud rate; load average %s before, %s after)" % (load0.split()[0], open("/proc/loadavg").read().split()[0]))
with open(out, "w") as fh:
    json.dump({"bench": "serial", "board": board, "harts": int(harts), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "commit": commit, "host_cores": int(cores),
               "load_avg": {"before": load0.split(), "after": open("/proc/loadavg").read().split()[:3]},
               "results": result}, fh, indent=1)
    fh.write("\n")
print("results: " + out)
PY
