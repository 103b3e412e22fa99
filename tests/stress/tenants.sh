#!/usr/bin/env bash
# Four tenants on one `hartpool up` device under multi-threaded TCG, for a
# long time (`make stress`; `make test` runs a short one in e2e's
# t_slices): a spinner whose endless kernels hold every hart, a heap hog
# and a table hog refused at their quotas, and a careful tenant whose
# rounds of new buffers (read as zeros first) and checked kernels must all
# be right while the spinner is killed and replaced and the heap hog killed;
# afterwards heap and tables are back where they started
# (tests/e2e/test_slices.c, "tenants"; docs/sessions.md).
#
#   tests/stress/tenants.sh [--board B]... [--seconds S]
#
#   --board B   a board (repeatable; default qemu-virt, qemu-virt-sbi and
#               qemu-cluster, where it is built)
#   --seconds S the careful tenant runs for S seconds (default 120)
#
# Exit status 0 when every board passed, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/../.."
HP=build/host/hartpool
SLICES=build/host/e2e/test_slices
boards=() seconds=120
while [ $# -gt 0 ]; do
	case "$1" in
	--board) boards+=("$2"); shift 2 ;;
	--seconds) seconds=$2; shift 2 ;;
	*) echo "usage: $0 [--board B]... [--seconds S]" >&2; exit 2 ;;
	esac
done
[ ${#boards[@]} -gt 0 ] || boards=(qemu-virt qemu-virt-sbi qemu-cluster)
dir=$(mktemp -d /tmp/hp-tenants-XXXXXX)
conn=""
cleanup() {
	[ -z "$conn" ] || timeout 60 "$HP" down --connect "$conn" >/dev/null 2>&1
	rm -rf "$dir"
}
trap cleanup EXIT
timeout 120 "$HP" build --board qemu-virt tests/e2e/kernels/leftover.cl -o "$dir/leftover.hpk" >/dev/null ||
	{ echo "tenants: cannot build tests/e2e/kernels/leftover.cl"; exit 1; }
rc=0
for b in "${boards[@]}"; do
	[ -f "board/$b/board.mk" ] || { echo "tenants: no board $b"; rc=1; continue; }
	t0=$(date +%s)
	conn=$(timeout 120 "$HP" up --board "$b" --harts 8 | tail -1) ||
		{ echo "tenants $b: hartpool up failed"; rc=1; conn=""; continue; }
	if timeout $((seconds * 2 + 300)) "$SLICES" --connect "$conn" --leftover "$dir/leftover.hpk" \
		--rounds "$seconds" tenants; then
		echo "tenants $b: passed, $(($(date +%s) - t0)) s"
	else
		echo "tenants $b: FAILED"
		rc=1
	fi
	timeout 60 "$HP" down --connect "$conn" >/dev/null 2>&1
	conn=""
done
exit $rc
