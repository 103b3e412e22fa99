#!/usr/bin/env bash
# What the serial link costs (issue 15): over QEMU's UART socket, against
# the firmware, at 115,200 and 921,600 baud (the socket paced to the rate
# like a UART, 10 bits a byte) and unpaced (what QEMU's UART alone costs).
# build/host/bench/serial_link (bench/serial_link.c) launches the `empty`
# kernel on one work-item one at a time (dispatch, then the wait for its
# completion), then writes a buffer of random bytes and reads it back; the
# host transport counts the bytes on the wire each way.
#
# For each rate: bytes per launch and per MiB written / read (the counts:
# the same from run to run but for a completion poll more or less), then
# launches/s and MiB/s measured (wall time; pacing dominates) beside what
# the counts give at that rate (stop-and-wait: requests and replies take
# turns on the line, so time = (sent + received) * 10 / baud). Prints a
# table and writes bench/results/<date>-serial-<board>.json.
#
# One hart by default: QEMU's UART takes bytes in about 4 times faster
# than with 8 (36 against 9 KiB/s on a 2-core host: each byte is a
# receive interrupt that wakes the dispatcher), so the line shows more.
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
mkdir -p bench/results
out="bench/results/$(date -u +%Y%m%dT%H%M%SZ)-serial-$board.json"

# rate launches bytes: the buffer is smaller at 115200 (a MiB is 91 s of
# line each way there); per MiB is scaled from it.
if [ "$quick" = 1 ]; then
	cases=("115200 10 8192" "921600 20 32768" "0 20 32768")
else
	cases=("115200 50 65536" "921600 200 262144" "0 200 262144")
fi

load0=$(cut -d' ' -f1-3 /proc/loadavg)
conn=$("$HP" up --board "$board" --harts "$harts" | tail -1)
trap '"$HP" down --connect "$conn" >/dev/null 2>&1' EXIT
sock=${conn#shm:}.sock
rows=()
for c in "${cases[@]}"; do
	read -r rate launches bytes <<<"$c"
	spec="serial:$sock"
	[ "$rate" = 0 ] || spec="$spec,baud=$rate"
	rows+=("$("$LINK" --connect "$spec" --launches "$launches" --bytes "$bytes")")
done

python3 - "$out" "$board" "$harts" "$(git rev-parse --short HEAD 2>/dev/null || echo none)" "$(nproc)" "$load0" "${rows[@]}" <<'PY'
import json, sys, time
out, board, harts, commit, cores, load0 = sys.argv[1:7]
runs = [json.loads(r) for r in sys.argv[7:]]
MIB = 1 << 20

def fig(r, name):
    p = r[name]
    n = p["launches"] if name == "launch" else p["bytes"] / MIB
    wire = p["sent"] + p["received"]
    f = {"per": wire / n, "sent": p["sent"] / n, "received": p["received"] / n,
         "requests": p["requests"] / n, "retransmissions": p["retransmissions"],
         "measured": n / p["seconds"]}
    # Stop-and-wait: requests and replies take turns on the line.
    f["computed"] = r["baud"] / 10 / f["per"] if r["baud"] else None
    return f

def num(v, fmt):
    return "%10s" % "-" if v is None else fmt % v

print("%s, %s hart(s), the firmware in QEMU over its UART socket:" % (board, harts))
print("%-8s %-7s %9s %8s %10s %10s %10s %10s %10s" % ("baud", "phase", "wire B", "requests",
      "measured", "computed", "meas/comp", "sent B", "recv B"))
result = []
for r in runs:
    row = {"baud": r["baud"], "launches": r["launch"]["launches"], "buffer_bytes": r["write"]["bytes"]}
    for name, unit in (("launch", "launches/s"), ("write", "MiB/s"), ("read", "MiB/s")):
        f = fig(r, name)
        row[name] = dict(f, unit=unit, per_unit="launch" if name == "launch" else "MiB")
        ratio = f["measured"] / f["computed"] if f["computed"] else None
        prec = "%10.1f" if name == "launch" else "%10.4f"
        print("%-8s %-7s %9.0f %8.2f %s %s %s %10.0f %10.0f%s" % (
            r["baud"] or "unpaced", name, f["per"], f["requests"], prec % f["measured"],
            num(f["computed"], prec), num(ratio, "%10.2f"), f["sent"], f["received"],
            "  (%d sent again)" % f["retransmissions"] if f["retransmissions"] else ""))
    result.append(dict(row, raw=r))
print("(wire B, requests, sent B, recv B: per launch, or per MiB of the buffer; measured and computed:")
print(" launches/s or MiB/s; computed = baud / 10 / wire B; load average %s before, %s after)"
      % (load0.split()[0], open("/proc/loadavg").read().split()[0]))
with open(out, "w") as fh:
    json.dump({"bench": "serial", "board": board, "harts": int(harts), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "commit": commit, "host_cores": int(cores),
               "load_avg": {"before": load0.split(), "after": open("/proc/loadavg").read().split()[:3]},
               "results": result}, fh, indent=1)
    fh.write("\n")
print("results: " + out)
PY
