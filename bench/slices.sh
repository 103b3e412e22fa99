#!/usr/bin/env bash
# Time slices between sessions (docs/sessions.md): what a victim host's small
# kernel waits beside hogs, what the hog keeps, what a preemption costs. On a
# device of 8 harts (`hartpool up --append hartpool.slice_us=N`) for each
# slice, bench/slices.c measures: a checked vadd of 4096 floats (round trip,
# p50/p99/max over ROUNDS) alone and beside endless `spin` kernels on every
# hart, endless `churn` teams of two (on 9 harts: the teams cover every
# worker), a stream of long finite ones and a flood of short ones; the finite
# hog's kernel time alone and beside back-to-back vadd rounds; two compute
# hosts at once against each alone, traced, the preemptions counted from the
# trace (bench/slices_trace.py). Prints tables and writes
# build/bench/results/<date>-slices-<board>.json.
#
#   bench/slices.sh [--board B] [--rounds N] [--slices "US..."] [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
board=qemu-virt rounds=50 slices="10000 2000" quick=0
while [ $# -gt 0 ]; do
	case "$1" in
	--board) board=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--slices) slices=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	*) echo "usage: bench/slices.sh [--board B] [--rounds N] [--slices \"US...\"] [--quick]" >&2; exit 2 ;;
	esac
done
reps=3
[ "$quick" = 0 ] || { rounds=20 reps=1; }
make -s BOARD="$board" hartpool build/host/bench/slices
HP=build/host/hartpool S=build/host/bench/slices
mkdir -p build/bench/results
out="build/bench/results/$(date -u +%Y%m%dT%H%M%SZ)-slices-$board.json"
tmp=$(mktemp -d)
conn=
down() { [ -z "$conn" ] || timeout 60 "$HP" down --connect "$conn" >/dev/null 2>&1 || true; conn=; }
trap 'down; rm -rf "$tmp"' EXIT
# Iterations of `spin` (512 work-items on 8 harts): the finite hog's
# kernels ~0.3 s, the compute hosts' ~1 s alone under TCG here.
hog_iters=500000 pp_iters=1600000
[ "$quick" = 0 ] || pp_iters=800000

kv() { sed -n "s/.* $1=\(-\?[0-9.]*\).*/\1/p" <<<"$2"; }
rows=()
for us in $slices; do
	conn=$(timeout 120 "$HP" up --board "$board" --harts 8 --append "hartpool.slice_us=$us" | tail -1)
	echo "slice $us us ($board, 8 harts): victim vadd 4096, round trip ms over $rounds rounds"
	printf '  %-8s %8s %8s %8s %8s %12s\n' hog p50 p99 max mean "hog kernels"
	lat=()
	# endless last: its kernels end only when the keeper reaps its session
	for hog in none flood finite endless; do
		l=$(timeout 300 "$S" --connect "$conn" --rounds "$rounds" --iters "$hog_iters" latency "$hog")
		printf '  %-8s %8s %8s %8s %8s %12s\n' "$hog" "$(kv p50_ms "$l")" "$(kv p99_ms "$l")" \
			"$(kv max_ms "$l")" "$(kv mean_ms "$l")" "$(kv hog_kernels "$l")"
		lat+=("\"$hog\":{\"p50_ms\":$(kv p50_ms "$l"),\"p99_ms\":$(kv p99_ms "$l"),\"max_ms\":$(kv max_ms "$l"),\"mean_ms\":$(kv mean_ms "$l"),\"hog_kernels\":$(kv hog_kernels "$l"),\"wall_s\":$(kv wall_s "$l")}")
	done
	# teams stop as gangs: 9 harts, so teams of two cover every worker
	down
	conn=$(timeout 120 "$HP" up --board "$board" --harts 9 --append "hartpool.slice_us=$us" | tail -1)
	l=$(timeout 300 "$S" --connect "$conn" --rounds "$rounds" latency teams)
	printf '  %-8s %8s %8s %8s %8s %12s\n' "teams" "$(kv p50_ms "$l")" "$(kv p99_ms "$l")" \
		"$(kv max_ms "$l")" "$(kv mean_ms "$l")" "(9 harts)"
	lat+=("\"teams\":{\"harts\":9,\"p50_ms\":$(kv p50_ms "$l"),\"p99_ms\":$(kv p99_ms "$l"),\"max_ms\":$(kv max_ms "$l"),\"mean_ms\":$(kv mean_ms "$l"),\"wall_s\":$(kv wall_s "$l")}")
	# a fresh device: no endless kernel left from the case before
	down
	conn=$(timeout 120 "$HP" up --board "$board" --harts 8 --append "hartpool.slice_us=$us" | tail -1)
	s=$(timeout 300 "$S" --connect "$conn" --reps "$reps" --iters "$hog_iters" share)
	echo "  the finite hog (spin 512 x $hog_iters): alone $(kv alone_ms "$s") ms, beside" \
		"back-to-back vadd $(kv shared_ms "$s") ms (kept $(kv kept "$s")); victim $(kv victim_rounds_per_s "$s") rounds/s"
	p=$(timeout 600 "$S" --connect "$conn" --reps "$reps" --iters "$pp_iters" --trace "$tmp/pp$us" pingpong | tail -1)
	t=$(python3 bench/slices_trace.py "$tmp/pp$us".*)
	read -r pre workers gap < <(python3 -c 'import json,sys; t=json.loads(sys.argv[1]); g=t["switch_gap_us"] or {"p50":"null"}
print(t["preemptions"], t["worker_harts"], g["p50"])' "$t")
	over=$(kv overhead_ms "$p")
	per=$(awk -v o="$over" -v n="$pre" -v w="$workers" -v r="$reps" \
		'BEGIN{ if (n > 0) printf "%.1f", o * 1000 * w / (n / r); else print "null" }')
	echo "  two compute hosts (spin 512 x $pp_iters each): alone $(kv alone_ms "$p") ms, both $(kv both_ms "$p") ms," \
		"overhead $over ms; $pre preemptions in $reps traced runs on $workers harts:" \
		"$per us of hart time each; switch gap p50 $gap us"
	rows+=("{\"slice_us\":$us,\"latency\":{$(IFS=,; echo "${lat[*]}")},
   \"share\":{\"iters\":$hog_iters,\"alone_ms\":$(kv alone_ms "$s"),\"shared_ms\":$(kv shared_ms "$s"),\"kept\":$(kv kept "$s"),\"victim_rounds_per_s\":$(kv victim_rounds_per_s "$s")},
   \"pingpong\":{\"iters\":$pp_iters,\"alone_ms\":$(kv alone_ms "$p"),\"both_ms\":$(kv both_ms "$p"),\"overhead_ms\":$over,\"trace\":$t,\"hart_us_per_preemption\":$per}}")
	down
	echo
done
{
	echo "{\"board\":\"$board\",\"date\":\"$(date -u +%FT%TZ)\",\"commit\":\"$(git rev-parse --short HEAD 2>/dev/null || echo none)\","
	echo " \"host\":\"$(nproc) cores, $(uname -m)\",\"harts\":8,\"rounds\":$rounds,\"reps\":$reps,\"slices\":["
	sep=' '
	for r in "${rows[@]}"; do printf '%s %s\n' "$sep" "$r"; sep=' ,'; done
	echo "]}"
} >"$out"
python3 -m json.tool "$out" >/dev/null
echo "results: $out"
