#!/usr/bin/env bash
# Long-lived devices under multi-threaded TCG: `hartpool up` a 64-hart
# device per board (QEMU_ACCEL=multi, checked on QEMU's command line), run
# `hartpool bench` against it again and again, each run with a time limit,
# and fail on any run that does not finish (a stall) or fails. A stall is
# reported with what the mailbox shows: per queue the write and read
# indices and the commands read but not complete, whether the dispatcher
# still polls (its heartbeat), and the device's console. docs/testing.md.
#
#   tests/stress/long_lived.sh [--board B]... [--harts N] [--runs N]
#                              [--count N] [--hosts N] [--run-timeout S]
#                              [--keep-going] [--quick]
#
#   --board B        a board to stress (repeatable; default qemu-virt,
#                    qemu-virt-sbi and qemu-cluster)
#   --harts N        harts of each device (default 64)
#   --runs N         bench runs per device (default 300)
#   --count N        bench --count: round trips of one run; the ring-full
#                    phase sends 4x as many (default 200)
#   --hosts N        bench processes at once per run, each its own host
#                    session on the device (default 1)
#   --run-timeout S  a run not finished after S seconds is a stall (default
#                    45: a run takes 1-3 s; the host library's own wait
#                    gives up after 60 s)
#   --keep-going     after a stall, go on with the next runs (default: the
#                    board's device is reported and stopped)
#   --quick          the `make test` tier: 30 runs of --count 100
#
# Exit status 0 when every run on every board succeeded; 1 otherwise.
# Prints one line per board: runs, stalls, failures, wall time.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

boards=() harts=64 runs=300 count=200 hosts=1 run_tmo=45 keep=0
while [ $# -gt 0 ]; do
	case "$1" in
	--board) boards+=("${2:?}"); shift 2 ;;
	--harts) harts=${2:?}; shift 2 ;;
	--runs) runs=${2:?}; shift 2 ;;
	--count) count=${2:?}; shift 2 ;;
	--hosts) hosts=${2:?}; shift 2 ;;
	--run-timeout) run_tmo=${2:?}; shift 2 ;;
	--keep-going) keep=1; shift ;;
	--quick) runs=30 count=100; shift ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "long_lived.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
[ ${#boards[@]} -gt 0 ] || boards=(qemu-virt qemu-virt-sbi qemu-cluster)

hp=build/host/hartpool
[ -x "$hp" ] || { echo "long_lived.sh: no $hp (make hartpool)" >&2; exit 2; }
out=build/stress
mkdir -p "$out"

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}'; }

# What the mailbox in the RAM file PATH shows: the header's counters, then
# every queue a host used: write and read index and how many of the
# packets read have no completion yet; the dispatcher's heartbeat twice,
# a second apart (it moves while the dispatcher polls).
mailbox_state() {
	python3 - "$1" <<'EOF'
import mmap, struct, sys, time
MBOX = 0x10000000  # HP_MBOX_QEMU_OFFSET
with open(sys.argv[1], "r+b") as f:
    m = mmap.mmap(f.fileno(), 0)
def u64(o): return struct.unpack_from("<Q", m, o)[0]
def u32(o): return struct.unpack_from("<I", m, o)[0]
def i32(o): return struct.unpack_from("<i", m, o)[0]
h = MBOX
if u64(h) != 0x4c4f4f5054524148:
    print("  mailbox: no magic"); sys.exit(0)
beat0 = u64(h + 24); time.sleep(1); beat1 = u64(h + 24)
dram, queues = u64(h + 32), u64(h + 40)
nq, ring = u32(h + 72), u32(h + 76)
print("  mailbox: state %u, packets read %u (%u bad), doorbell rings %u, "
      "dispatcher heartbeat %s" % (u32(h + 12), u64(h + 88), u64(h + 96),
      u64(h + 104), "moving" if beat1 != beat0 else "STOPPED"))
for q in range(nq):
    qo = queues - dram + q * 128
    w, owner, r = u64(qo), u64(qo + 8), u64(qo + 64)
    if not w and not r:
        continue
    comp = u64(qo + 88) - dram
    waiting, failed = [], 0
    for i in range(max(0, r - ring), r):
        c = comp + (i % ring) * 256
        if u64(c) != i + 1:
            waiting.append(i)
        elif i32(c + 8) != 0:
            failed += 1
    print("  queue %2u: owner %#x, write %u, read %u, read but not complete "
          "%u%s, failed %u" % (q, owner, w, r, len(waiting),
          " (first %u, last %u)" % (waiting[0], waiting[-1]) if waiting else "",
          failed))
EOF
}

# stress BOARD: one device, $runs runs; prints the board's result line.
stress() {
	local b=$1 t0 c path pid log st=0 stalls=0 fails=0 done_runs=0 i k
	local times=() t1 rc slow=""
	t0=$(now)
	log=$out/$b.log
	: >"$log"
	c=$(QEMU_ACCEL=multi timeout 180 "$hp" up --board "$b" --harts "$harts" 2>>"$log" | tail -n 1)
	if [[ "$c" != shm:* ]]; then
		echo "FAIL $b: hartpool up did not print a connect string (see $log)"
		return 1
	fi
	path=${c#shm:}
	pid=$(cat "$path.pid" 2>/dev/null)
	if ! tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'tcg,thread=multi'; then
		echo "FAIL $b: QEMU (pid $pid) is not running multi-threaded TCG"
		timeout 60 "$hp" down --connect "$c" >/dev/null 2>&1
		return 1
	fi
	echo "$b: $harts harts up in $(since "$t0") s, multi-threaded TCG, $c" >>"$log"
	for ((i = 1; i <= runs; i++)); do
		t1=$(now)
		for ((k = 0; k < hosts; k++)); do
			timeout -k 5 "$run_tmo" "$hp" bench --connect "$c" --count "$count" --json \
				>"$out/$b.run.$k.out" 2>&1 &
		done
		rc=0
		for ((k = 0; k < hosts; k++)); do
			wait -n || { r=$?; [ "$rc" = 124 ] || rc=$r; }
		done
		times+=("$(since "$t1")")
		done_runs=$i
		if [ "$rc" = 0 ]; then
			for ((k = 0; k < hosts; k++)); do
				cat "$out/$b.run.$k.out" >>"$log"
			done
			continue
		fi
		if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
			stalls=$((stalls + 1))
			echo "STALL $b: run $i did not finish in $run_tmo s"
		else
			fails=$((fails + 1))
			echo "FAIL $b: run $i exited with status $rc"
		fi
		for ((k = 0; k < hosts; k++)); do
			sed "s/^/  host $k | /" "$out/$b.run.$k.out" | tail -n 5
		done
		mailbox_state "$path"
		echo "  console (last lines):"
		tail -n 5 "$path.log" 2>/dev/null | sed 's/^/  | /'
		{ echo "run $i: status $rc"; cat "$out/$b.run."*.out; } >>"$log"
		[ "$keep" = 1 ] || [ "$rc" != 124 ] || break
	done
	timeout 60 "$hp" down --connect "$c" >>"$log" 2>&1 || st=1
	[ "$stalls" = 0 ] && [ "$fails" = 0 ] && [ "$done_runs" = "$runs" ] && [ "$st" = 0 ] || st=1
	slow=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END{if (NR) printf "median %.1f s, max %.1f s", a[int((NR+1)/2)], a[NR]}')
	printf '%s %s: %u harts, %u of %u runs (x%u hosts, --count %u), %u stalls, %u failures, %s s in all (run %s)\n' \
		"$([ "$st" = 0 ] && echo PASS || echo FAIL)" "$b" "$harts" "$done_runs" "$runs" "$hosts" \
		"$count" "$stalls" "$fails" "$(since "$t0")" "$slow"
	return "$st"
}

status=0
for b in "${boards[@]}"; do
	stress "$b" || status=1
done
exit "$status"
