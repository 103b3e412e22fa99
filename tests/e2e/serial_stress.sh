#!/usr/bin/env bash
# Many serial commands against one device, some of their host processes
# killed mid-command (docs/serial.md, "Loss and flow control").
#
#   tests/e2e/serial_stress.sh [--board B] [--count N] [--kill-every K]
#                              [--limit S] [--keep DIR]
#
# Boots the board once (`hartpool up`: sifive-u has 5 harts; multi-threaded
# TCG on a host with 2+ cores), then runs N commands over the serial link
# (serial:PATH.sock), one at a time, each under `timeout S` (default 300):
# `run KERNEL --check` for a few kernels (a small launch; vadd, whose
# --check reads 1,000 floats back; copy, 20 KB each way), `info`, and
# `serial_link` (launches one at a time and streamed, a buffer written and
# read back). Every K-th command (default 5) is a longer one started in the
# background and killed with SIGKILL after a delay from a fixed list (0.1
# to 1.5 s): in turn a copy of 200 KB each way (frames and held replies in
# flight) and a kernel of about 2 s (its WAIT pending on the device); the
# next command, a new host process on the same socket, must be served
# correctly (HELLO resynchronises the link). Any failure, or a command
# still running at its limit (a stall), fails the run; nothing is timed
# against a threshold. Every command's frames are logged through
# HP_SERIAL_TRACE (kept for failures, with --keep DIR for all), so the
# summary can count the frames sent again and the CREDITs. Prints one line
# per command that failed (with the end of its trace) and a summary:
# commands, killed, failures, frames sent and sent again, wall time.
set -uo pipefail
cd "$(dirname "$0")/../.."
HP=build/host/hartpool
LINK=build/host/bench/serial_link
board=sifive-u count=40 every=5 limit=300 keep=""
while [ $# -gt 0 ]; do
	case "$1" in
	--board) board=$2; shift 2 ;;
	--count) count=$2; shift 2 ;;
	--kill-every) every=$2; shift 2 ;;
	--limit) limit=$2; shift 2 ;;
	--keep) keep=$2; shift 2 ;;
	*)
		echo "usage: $0 [--board B] [--count N] [--kill-every K] [--limit S] [--keep DIR]" >&2
		exit 2
		;;
	esac
done
[ -x "$HP" ] && [ -x "$LINK" ] || { echo "FAIL: build $HP and $LINK first (make hartpool build/host/bench/serial_link)"; exit 1; }

dir=$(mktemp -d /tmp/hp-serial-stress-XXXXXX)
conn=""
cleanup() {
	[ -z "$conn" ] || "$HP" down --connect "$conn" >/dev/null 2>&1
	[ -n "$keep" ] && { mkdir -p "$keep" && cp -r "$dir"/. "$keep"/; }
	rm -rf "$dir"
}
trap cleanup EXIT
conn=$(timeout 120 "$HP" up --board "$board" | tail -1) || { echo "FAIL: hartpool up --board $board"; exit 1; }
[[ "$conn" == shm:* ]] || { echo "FAIL: up printed '$conn'"; exit 1; }
ser="serial:${conn#shm:}.sock"

# The commands, in turn (killed ones aside).
cmds=(
	"$HP run vadd --check --connect $ser"
	"$HP run wg_count --global 16,2 --check --connect $ser"
	"$HP run copy --arg size=20000 --check --connect $ser"
	"$HP info --connect $ser"
	"$HP run sg_ops --global 50,2 --check --connect $ser"
	"$LINK --connect $ser --launches 10 --bytes 8192"
)
kill_cmds=(
	"$HP run copy --arg size=200000 --check --connect $ser"
	"$HP run spin --global 16 --arg iters=50000000 --connect $ser"
)
delays=(0.1 0.3 0.6 1.0 1.5 0.2 0.8)

# A failed command's trace, its last frames.
show_trace() {
	[ -f "$1" ] && tail -n 12 "$1" | sed 's/^/    | /'
}

failed=0 killed=0 finished_early=0 frames=0 again=0 credits=0 stalls=0
t0=$(date +%s.%N)
for ((i = 1; i <= count; i++)); do
	tr="$dir/$i.trace" log="$dir/$i.log"
	if ((every > 0 && i % every == 0)); then
		d=${delays[$(((i / every) % ${#delays[@]}))]}
		kill_cmd=${kill_cmds[$(((i / every) % ${#kill_cmds[@]}))]}
		HP_SERIAL_TRACE="$tr" timeout "$limit" $kill_cmd >"$log" 2>&1 &
		pid=$!
		sleep "$d"
		# timeout(1) runs the command as its child: kill that, mid-run.
		child=$(pgrep -P "$pid" | head -1)
		if [ -n "$child" ] && kill -9 "$child" 2>/dev/null; then
			killed=$((killed + 1))
			wait "$pid" 2>/dev/null
			echo "killed: #$i after ${d}s: ${kill_cmd#"$HP "} ($(grep -c ' out seq ' "$tr" 2>/dev/null || echo 0) frames sent)" >>"$dir/summary"
		else
			# It ended before the kill: it must have passed.
			wait "$pid"
			rc=$?
			finished_early=$((finished_early + 1))
			if [ "$rc" != 0 ]; then
				failed=$((failed + 1))
				echo "FAIL: #$i (to be killed, ended first) exit $rc: $(grep -m1 "HP_" "$log" || tail -2 "$log" | tr '\n' ' ')"
				show_trace "$tr"
				cp "$tr" "$dir/failed-$i.trace" 2>/dev/null
			fi
		fi
	else
		cmd=${cmds[$(((i - 1) % ${#cmds[@]}))]}
		HP_SERIAL_TRACE="$tr" timeout -k 5 "$limit" $cmd >"$log" 2>&1
		rc=$?
		if [ "$rc" != 0 ]; then
			failed=$((failed + 1))
			[ "$rc" -lt 124 ] || stalls=$((stalls + 1))
			echo "FAIL: #$i exit $rc$([ "$rc" -lt 124 ] || echo " (still running after ${limit}s: a stall)"): ${cmd#"$HP "}: $(grep -m1 "HP_" "$log" || tail -2 "$log" | tr '\n' ' ')"
			show_trace "$tr"
			cp "$tr" "$dir/failed-$i.trace" 2>/dev/null
		fi
	fi
	if [ -f "$tr" ]; then
		frames=$((frames + $(grep -c ' out seq ' "$tr")))
		again=$((again + $(grep -c ' out seq .* again ' "$tr")))
		credits=$((credits + $(grep -c ' out credit ' "$tr")))
		[ -n "$keep" ] || [ -e "$dir/failed-$i.trace" ] || rm -f "$tr" "$log"
	fi
done
secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')
# The device still serves after all of it.
"$HP" run wg_count --global 99,5 --check --connect "$ser" >/dev/null 2>&1 || { failed=$((failed + 1)); echo "FAIL: the device after the run"; }
"$HP" run wg_count --global 99,5 --check --connect "$conn" >/dev/null 2>&1 || { failed=$((failed + 1)); echo "FAIL: shm after the run"; }
# Nothing a killed host held is left: each one's session ended when the
# next host said HELLO on the link (docs/sessions.md); only info's own
# session is open, no buffer is allocated.
use=$("$HP" info --connect "$conn" 2>&1)
grep -q "^sessions: 1 of " <<<"$use" && grep -qx "buffers: 0 of [0-9]*" <<<"$use" ||
	{ failed=$((failed + 1)); echo "FAIL: killed hosts' sessions left: $(grep -E '^(sessions|session [0-9]|buffers):' <<<"$use" | tr '\n' ' ')"; }
echo "serial stress on $board: $count commands ($killed killed mid-command, $finished_early ended before their kill), $failed failed ($stalls stalls); $frames frames sent, $again of them again, $credits CREDITs; ${secs} s"
[ "$failed" = 0 ]
