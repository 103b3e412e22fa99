# End-to-end tests of team barriers and the doorbell: the cluster board
# (qemu-cluster: QEMU virt with the barrier unit and the doorbell device of
# docs/barrier-unit.md) and the same on the software board qemu-virt.
# Sourced by tests/e2e/e2e.sh, which provides HP, fail, expect_error, up and
# down.

# team_device BOARD N TEAMS...: on a device of BOARD with N harts, every
# library kernel with --check, the barrier-heavy ones with work-groups
# spread over teams of each size in TEAMS, a team kernel stopped by its
# time limit inside team barriers and the device serving after it; on
# qemu-cluster the barrier unit in use and the doorbell rung by this (not
# the booting) process, elsewhere software team barriers.
team_device() {
	local b=$1 n=$2 out k t rings
	shift 2
	up --board "$b" --harts "$n"
	out=$("$HP" info --connect "$conn") || fail "$b $n: info"
	grep -qx "harts: $n" <<<"$out" || fail "$b $n: info: $out"
	if [ "$b" = qemu-cluster ]; then
		grep -qx "team_barriers: barrier unit" <<<"$out" || fail "$b $n: no barrier unit: $out"
		grep -q "^doorbell: device interrupt" <<<"$out" || fail "$b $n: no doorbell device: $out"
	else
		grep -qx "team_barriers: software" <<<"$out" || fail "$b $n: $out"
	fi
	for k in $("$HP" run --list | awk '{print $1}' | grep -Ev '^(fault_|hang$)'); do
		"$HP" run "$k" --check --connect "$conn" >/dev/null || fail "$b $n: run $k --check"
	done
	for t in "$@"; do
		for k in sgemm_tiled reduce_wg scan histogram barrier_rotate sg_ops; do
			"$HP" run "$k" --team-size "$t" --check --connect "$conn" >/dev/null ||
				fail "$b $n: run $k --team-size $t --check"
		done
		"$HP" run reduce_wg --global 100000 --local 250 --team-size "$t" --check --connect "$conn" >/dev/null ||
			fail "$b $n: reduce_wg 100000/250 in teams of $t"
	done
	if [ $# -gt 0 ]; then
		expect_error HP_TIMEOUT "$HP" run barrier_rotate --global 4000,4 --team-size "$1" \
			--timeout-us 1 --connect "$conn"
		"$HP" run barrier_rotate --global 4000,4 --team-size "$1" --check --connect "$conn" >/dev/null ||
			fail "$b $n: team kernel after a timeout"
	fi
	if [ "$b" = qemu-cluster ]; then
		rings=$("$HP" info --connect "$conn" | sed -n 's/^doorbell: device interrupt, \([0-9]*\) rings served$/\1/p')
		[ -n "$rings" ] && [ "$rings" -gt 0 ] || fail "$b $n: the dispatcher took no doorbell ring"
	fi
	echo "ok: $b $n harts: every library kernel, teams of ${*:-none}${rings:+, $rings doorbell rings}"
	down
}

t_cluster() {
	[ -f board/qemu-cluster/board.mk ] || return 0
	local b
	for b in qemu-cluster qemu-virt; do
		team_device "$b" 2
		team_device "$b" 8 2 4
		team_device "$b" 64 2 4 8 16
	done
	# The same device with software team barriers (hartpool.barrier_unit=0).
	local out
	up --board qemu-cluster --harts 8 --append hartpool.barrier_unit=0
	out=$("$HP" info --connect "$conn") || fail "cluster software: info"
	grep -qx "team_barriers: software" <<<"$out" || fail "cluster software: $out"
	"$HP" run sgemm_tiled --team-size 4 --check --connect "$conn" >/dev/null || fail "cluster software: sgemm_tiled"
	down
	echo "ok: cluster with software team barriers"
}
