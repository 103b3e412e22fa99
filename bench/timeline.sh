#!/usr/bin/env bash
# Timelines (docs/trace.md): the mixed workload of tests/e2e/test_trace.c
# (two queues, dependent commands across them, a barrier-AND, barrier
# kernels, a work-group spread over a team) traced on BOARD with N harts,
# drawn as build/bench/results/timeline-<board>.png (bench/timeline.py), and
# what tracing costs when it is off: bench/exec_overhead.c's exact
# instruction counts (1 hart, -icount) with the hooks compiled in (tracing
# off) against a build with -DEXEC_TRACE=0 (hooks compiled out), in
# build/trace-off/<board>.
#
# Writes build/bench/results/<date>-timeline-<board>.json: the counts of both
# builds, the trace's records, dropped and bad records, the commands, and
# the workload's wall time with and without the trace (noisy on a busy
# host: a time, not a claim). The trace itself stays in
# build/bench/timeline-<board>.json (open it in ui.perfetto.dev).
#
#   bench/timeline.sh [--board B] [--harts N]
set -euo pipefail
cd "$(dirname "$0")/.."
board=qemu-virt harts=8
while [ $# -gt 0 ]; do
	case "$1" in
	--board) board=$2; shift 2 ;;
	--harts) harts=$2; shift 2 ;;
	*) echo "usage: bench/timeline.sh [--board B] [--harts N]" >&2; exit 2 ;;
	esac
done
make -s -j2 BOARD="$board" hartpool e2e-tests bench-images
defs=$(make -s BOARD="$board" print-BOARD_DEFS)
off=build/trace-off/$board
make -s -j2 BOARD="$board" O="$off" BOARD_DEFS="$defs -DEXEC_TRACE=0" "$off/bench/exec_overhead.elf"

mkdir -p build/bench/results
trace=build/bench/timeline-$board.json
png=build/bench/results/timeline-$board.png
stamp=$(date -u +%Y%m%dT%H%M%SZ)
now() { date +%s.%N; }

t0=$(now)
build/host/e2e/test_trace --board "$board" --harts "$harts" --no-trace "$trace" >build/bench/timeline-notrace.out
t1=$(now)
build/host/e2e/test_trace --board "$board" --harts "$harts" "$trace" >build/bench/timeline.out
t2=$(now)
tests/e2e/trace_check.py "$trace" --cmds build/bench/timeline.out --harts "$harts"
python3 bench/timeline.py "$trace" "$png" \
	--title "hartpool timeline: mixed workload on $board, $harts harts (2 queues, dependent commands, barrier kernels)"

counts() {
	qemu/hp-qemu --board "$board" --harts 1 --icount --timeout 300 "$1" </dev/null |
		sed -n 's/^bench exec: \([a-z_]*\) *\([0-9.]*\) instructions$/\1 \2/p'
}
on=$(counts "build/$board/bench/exec_overhead.elf")
offc=$(counts "$off/bench/exec_overhead.elf")
echo "exec_overhead, hooks compiled in (tracing off) | compiled out:"
paste <(echo "$on") <(echo "$offc") | awk '{printf "  %-12s %10s %10s%s\n", $1, $2, $4, ($2 == $4 ? "" : "  DIFFERS")}'

python3 - "$trace" "$stamp" "$board" "$harts" "$t0" "$t1" "$t2" "$png" <<PY
import json, sys
trace, stamp, board, harts, t0, t1, t2, png = sys.argv[1:]
other = json.load(open(trace))["otherData"]
def parse(s):
    return {l.split()[0]: float(l.split()[1]) for l in s.strip().splitlines()}
res = {
    "bench": "timeline", "board": board, "harts": int(harts), "date": stamp,
    "exec_overhead_hooks_in": parse("""$on"""),
    "exec_overhead_hooks_out": parse("""$offc"""),
    "trace": {k: other[k] for k in ("records", "dropped", "bad_records", "commands",
                                    "records_per_hart", "timer_hz")},
    "workload_wall_s": {"no_trace": round(float(t1) - float(t0), 3),
                        "trace": round(float(t2) - float(t1), 3)},
    "png": png,
}
res["hooks_identical"] = res["exec_overhead_hooks_in"] == res["exec_overhead_hooks_out"]
out = f"build/bench/results/{stamp}-timeline-{board}.json"
json.dump(res, open(out, "w"), indent=1)
print(f"timeline: {out}, {png}")
PY
