#!/usr/bin/env bash
# Team barriers, software against the barrier unit of board qemu-cluster
# (docs/barrier-unit.md), on one machine: every run twice, once as the
# board is (team barriers in the unit) and once with -append
# hartpool.barrier_unit=0 (team barriers in software).
#
# 1. bench/teambar.c on all harts (64): teams of 2, 4, 8, 16, 64 harts,
#    all at once, R rounds each, checked for early passes, of a software
#    barrier and of the team barrier (the unit, or software with
#    barrier_unit=0) waited on two ways: hal_barrier_wait (software: polls,
#    then sleeps), and the arrive/sleep loop of the kernels' work-group
#    barriers (software: sleeps at once). Instructions per barrier per hart from the plugin (one run,
#    single-threaded TCG with --icount-shift 10, as bench/kbench.sh);
#    wall time per barrier from the device timer, without the plugin,
#    under multi-threaded and single-threaded TCG (median of REPS runs).
# 2. sgemm_tiled and reduce_wg (barriers in every work-group) through
#    `hartpool run --check` with --team-size 4 and 8, and 1 as the control
#    (no team barriers: the two configurations must agree): device time, one
#    device kept up per configuration, a warm-up run then KREPS runs
#    (median); the unit's and the software device are up side by side and
#    used in turn; under the default multi-threaded TCG and single-threaded.
#    hartpool has no option for the TCG mode: QEMU_ACCEL=single in the
#    environment reaches qemu/hp-qemu's board settings (qemu/query.mk sets
#    it with ?=); the script checks QEMU's command line for it.
#
# Prints the tables, writes build/bench/results/<date>-barrier-<board>.json
# (bench/barrier.py). About 2.5 minutes on a 2-core host; --quick ~1.
#
#   bench/barrier.sh [--board B] [--harts N] [--reps N] [--quick] [--out FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
board=qemu-cluster harts=64 reps=3 kreps=5 quick=0 out=""
while [ $# -gt 0 ]; do
	case "$1" in
	--board) board=$2; shift 2 ;;
	--harts) harts=$2; shift 2 ;;
	--reps) reps=$2; kreps=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	--out) out=$2; shift 2 ;;
	*) echo "usage: bench/barrier.sh [--board B] [--harts N] [--reps N] [--quick] [--out FILE]" >&2; exit 2 ;;
	esac
done
# Rounds per teambar run: the plugin and single-threaded runs take ~3 us
# of host time per hart and round; multi-threaded TCG with 64 vCPU threads
# on a few host cores ~10 times that.
rounds_count=1000 rounds_single=1000 rounds_multi=250
if [ "$quick" = 1 ]; then
	reps=1 kreps=2 rounds_count=300 rounds_single=300 rounds_multi=100
fi
make -s BOARD="$board" bench-images hartpool plugin
# Wall times are host time: other work on the host shows in them (the
# result file records the load average).
load0=$(cut -d' ' -f1-3 /proc/loadavg)
HP=build/host/hartpool
mkdir -p build/bench/results
stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=${out:-build/bench/results/$stamp-barrier-$board.json}
tmp=$(mktemp -d)
declare -A conn=()
cleanup() {
	for c in "${conn[@]}"; do "$HP" down --connect "$c" >/dev/null 2>&1 || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT

# config name -> bootargs
cfg_append() { [ "$1" = unit ] || echo "hartpool.barrier_unit=0"; }

# teambar CFG MODE ROUNDS FILE [hp-qemu options...]
teambar() {
	local cfg=$1 rounds=$3 file=$4
	shift 4
	timeout 600 qemu/hp-qemu --board "$board" --harts "$harts" --timeout 500 "$@" \
		--append "teambar.rounds=$rounds $(cfg_append "$cfg")" \
		"build/$board/bench/teambar.elf" </dev/null >"$file" 2>&1 ||
		{ cat "$file" >&2; echo "barrier: teambar failed ($cfg, $2)" >&2; exit 1; }
	grep -q '^bench teambar: OK' "$file" || { cat "$file" >&2; exit 1; }
}

# The two configurations alternate run by run (and both kernel devices stay
# up side by side), so a change in the host's load hits both alike.
echo "teambar: $harts harts, teams of 2..64 (instructions: 1 run, wall: $reps runs each mode)"
for cfg in unit software; do
	teambar "$cfg" count "$rounds_count" "$tmp/teambar-$cfg-count.txt" \
		--icount-shift 10 --count "$tmp/count-$cfg.txt"
done
for r in $(seq "$reps"); do
	for mode in single multi; do
		for cfg in unit software; do
			rounds=$rounds_single
			[ "$mode" = single ] || rounds=$rounds_multi
			teambar "$cfg" "$mode" "$rounds" "$tmp/teambar-$cfg-$mode-$r.txt" --accel "$mode"
		done
	done
done

# Kernels: NAME|ARGS
kernels=("sgemm_tiled|--global 128,128 --local 8,8 --arg k=128"
	"reduce_wg|--global 65536 --local 64")
kargs_json=$(printf '%s\n' "${kernels[@]}" | python3 -c '
import json, sys
print(json.dumps(dict(l.rstrip("\n").split("|", 1) for l in sys.stdin)))')

# up ACCEL CFG -> boots a device kept up, prints its connect string
up() {
	local ap c pid
	ap=$(cfg_append "$2")
	if [ "$1" = single ]; then
		c=$(QEMU_ACCEL=single "$HP" up --board "$board" --harts "$harts" \
			${ap:+--append "$ap"} 2>"$tmp/up.err" | tail -1)
	else
		c=$("$HP" up --board "$board" --harts "$harts" \
			${ap:+--append "$ap"} 2>"$tmp/up.err" | tail -1)
	fi
	[ -n "$c" ] || { cat "$tmp/up.err" >&2; exit 1; }
	# The TCG mode QEMU really got.
	pid=$(cat "${c#shm:}.pid")
	tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "thread=$1" ||
		{ "$HP" down --connect "$c" >/dev/null 2>&1; echo "barrier: QEMU of $c is not in $1-threaded TCG" >&2; exit 1; }
	echo "$c"
}

echo "kernels: $harts harts, team sizes 1 (control) 4 and 8, a warm-up and $kreps runs each"
: >"$tmp/kernels.txt"
for accel in multi single; do
	for cfg in unit software; do
		conn[$cfg]=$(up "$accel" "$cfg")
	done
	for spec in "${kernels[@]}"; do
		name=${spec%%|*}
		read -r -a kargs <<<"${spec#*|}"
		for team in 1 4 8; do
			for r in $(seq 0 "$kreps"); do
				for cfg in unit software; do
					line=$("$HP" run "$name" --connect "${conn[$cfg]}" --team-size "$team" \
						"${kargs[@]}" --check --json) ||
						{ echo "barrier: $name --team-size $team failed ($cfg, $accel): $line" >&2; exit 1; }
					echo "$accel $cfg $team $([ "$r" = 0 ] && echo 1 || echo 0) $line" >>"$tmp/kernels.txt"
				done
			done
		done
	done
	for cfg in unit software; do
		"$HP" down --connect "${conn[$cfg]}" >/dev/null
		unset "conn[$cfg]"
	done
done

host="$(nproc) cores, $(uname -m), load average at the start $load0"
if qb=$(qemu/build.sh --print-path 2>/dev/null); then
	host="$host, $("$qb" --version | head -1) (patched)"
fi
python3 bench/barrier.py "$tmp" "$out" --board "$board" --harts "$harts" \
	--host "$host" --kernel-args "$kargs_json"
