#!/usr/bin/env bash
# Checks the hpcount plugin (docs/counting.md) against code whose instruction
# count is known exactly:
#
#   tests/count_check.sh firmware BOARD HARTS [hp-qemu options]
#       tests/target/count.c under qemu/hp-qemu --count: on every hart the
#       loop and MMIO regions, the sleeping hart's wfi region and the two
#       fault regions must have exactly the deltas count.c documents
#   tests/count_check.sh user
#       tests/count_user.c (three threads) under qemu-riscv64 -plugin, and
#       the bound on kept marker records (marks=5: "dropped 3")
#
# Needs make target-tests, plugin and plugin-tests. Output and the plugin's
# records are kept in build/count-check/. Exit status 0 if all checks hold.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
dir=build/count-check
mkdir -p "$dir"

firmware() {
	local board=$1 harts=$2 name log counts rc k
	shift 2
	name="$board-$harts$(printf '%s' "$*" | tr -c 'a-z0-9' '_')"
	log=$dir/$name.log counts=$dir/$name.counts
	rm -f "$counts"
	rc=0
	qemu/hp-qemu --board "$board" --harts "$harts" --timeout 120 --count "$counts" "$@" \
		"build/$board/tests/count.elf" </dev/null >"$log" 2>&1 || rc=$?
	cat "$log"
	[ "$rc" = 0 ] || { echo "count_check: QEMU exit status $rc"; return 1; }
	k=$(sed -n 's/^count: hart [0-9]* woke \([0-9]*\) times.*/\1/p' "$log")
	[ -n "$k" ] || { echo "count_check: no wake-up count in the output"; return 1; }
	awk -v n="$harts" -v k="$k" -v what="$board, $harts harts${*:+ $*}" '
	$1 == "vcpu" { nv++; insns[$2] = $4 }
	$1 == "mark" { nm++; seen[$2 " " $3]++; at[$2 " " $3] = $4 }
	$1 == "dropped" { printf "FAIL %d marker records dropped\n", $2; bad++ }
	function delta(v, r,  b, e) {
		b = v " " 2 * r; e = v " " 2 * r + 1
		if (seen[b] != 1 || seen[e] != 1) {
			printf "FAIL hart %d region %d: markers seen %d and %d times, not once\n",
				v, r, seen[b], seen[e]
			bad++
			return -1
		}
		return at[e] - at[b]
	}
	function expect(v, r, want, name,  d) {
		d = delta(v, r)
		if (d != want) {
			printf "FAIL hart %d region %d (%s): %d instructions, expected %d\n",
				v, r, name, d, want
			bad++
		}
		return d
	}
	END {
		if (nv != n) { printf "FAIL %d vcpu lines, expected %d\n", nv, n; bad++ }
		for (h = 0; h < n; h++) {
			expect(h, 0, 2000 * (h + 1) + 1, "loop")
			expect(h, 2, 301, "mmio")
		}
		s = expect(n - 1, 1, 5 * k + 1, "sleep in wfi")
		if (k < 1 || k > 3) { printf "FAIL the sleeping hart woke %d times\n", k; bad++ }
		d3 = delta(0, 3); d4 = delta(0, 4)
		if (d4 - d3 != 60) {
			printf "FAIL fault regions: %d and %d instructions, expected a difference of 60\n", d3, d4
			bad++
		}
		if (nm != 4 * n + 6) { printf "FAIL %d marker records, expected %d\n", nm, 4 * n + 6; bad++ }
		for (h = 0; h < n; h++) total += insns[h]
		if (bad) { printf "count_check: %s: %d checks FAILED\n", what, bad; exit 1 }
		printf "count_check: %s: loop regions %d..%d and mmio regions 301 exact on all %d harts; " \
			"hart %d slept in wfi between markers: %d instructions (woke %d times); " \
			"fault regions %d and %d (+60); %d instructions in all\n",
			what, 2001, 2000 * n + 1, n, n - 1, s, k, d3, d4, total
	}' "$counts"
}

user() {
	local counts=$dir/user.counts rc=0
	rm -f "$counts"
	timeout 60 qemu-riscv64 -plugin "build/host/hpcount.so,out=$counts" \
		build/host/riscv64-linux/count_user </dev/null || rc=$?
	[ "$rc" = 0 ] || { echo "count_check: count_user exit status $rc"; return 1; }
	cat "$counts"
	awk '
	$1 == "mark" { seen[$3]++; vcpu[$3] = $2; at[$3] = $4 }
	$1 == "dropped" { printf "FAIL %d marker records dropped\n", $2; bad++ }
	function delta(r,  b, e) {
		b = 2 * r; e = 2 * r + 1
		if (seen[b] != 1 || seen[e] != 1 || vcpu[b] != vcpu[e]) {
			printf "FAIL region %d: markers seen %d and %d times, vCPUs %s and %s\n",
				r, seen[b], seen[e], vcpu[b], vcpu[e]
			bad++
			return -1
		}
		return at[e] - at[b]
	}
	END {
		for (r = 0; r < 3; r++) {
			d = delta(r)
			if (d != 100000 * (r + 1) + 1) {
				printf "FAIL region %d: %d instructions, expected %d\n", r, d, 100000 * (r + 1) + 1
				bad++
			}
		}
		if (vcpu[0] == vcpu[2] || vcpu[0] == vcpu[4] || vcpu[2] == vcpu[4]) {
			printf "FAIL threads share vCPUs: %s %s %s\n", vcpu[0], vcpu[2], vcpu[4]
			bad++
		}
		j = delta(3)
		if (vcpu[6] != vcpu[0] || j < 1 || j > 5000) {
			printf "FAIL pthread_join region: %d instructions on vCPU %s\n", j, vcpu[6]
			bad++
		}
		if (bad) { printf "count_check: user mode: %d checks FAILED\n", bad; exit 1 }
		printf "count_check: user mode: 3 threads on vCPUs %s, %s, %s: 100001, 200001, 300001 exact; " \
			"pthread_join %d instructions\n", vcpu[0], vcpu[2], vcpu[4], j
	}' "$counts" || return 1
	# The record bound: 8 markers run, 5 kept, "dropped 3".
	qemu-riscv64 -plugin "build/host/hpcount.so,out=$counts,marks=5" \
		build/host/riscv64-linux/count_user </dev/null >/dev/null || return 1
	[ "$(grep -c '^mark ' "$counts")" = 5 ] && grep -qx 'dropped 3' "$counts" ||
		{ echo "FAIL marks=5: expected 5 mark lines and 'dropped 3'"; cat "$counts"; return 1; }
	echo "count_check: marks=5 keeps 5 records and reports dropped 3"
}

case "${1:-}" in
firmware) shift; [ $# -ge 2 ] || { echo "usage: $0 firmware BOARD HARTS [hp-qemu options]" >&2; exit 2; }; firmware "$@" ;;
user) user ;;
*) echo "usage: $0 firmware BOARD HARTS [hp-qemu options] | user" >&2; exit 2 ;;
esac
