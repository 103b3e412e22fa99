#!/usr/bin/env bash
# End-to-end tests: the hartpool CLI and libhartpool against the firmware in
# QEMU, through the real mailbox (shared memory and the serial link).
#
#   tests/e2e/e2e.sh list        the test names
#   tests/e2e/e2e.sh run NAME    run one; exit status 0 = pass
#
# tests/run.sh runs every one of them (after `make hartpool e2e-tests image`
# for every board). Each test checks values, and error cases check the error
# name on stderr and the exit status.
set -uo pipefail
cd "$(dirname "$0")/../.."
HP=build/host/hartpool
MBOX=build/host/e2e/test_mbox
STRESS=build/host/e2e/test_stress
OBJECTS=build/host/e2e/test_objects
EDGES=build/host/e2e/test_edges
SESSIONS=build/host/e2e/test_sessions
SLICES=build/host/e2e/test_slices
QUOTA=build/host/e2e/test_quota
RELAY=build/host/e2e/serial_relay

fail() { echo "FAIL: $*"; exit 1; }

# expect_error HP_NAME cmd...: exits 1 and names the error on stderr.
expect_error() {
	local want=$1 err
	shift
	err=$("$@" 2>&1 >/dev/null)
	local rc=$?
	[ "$rc" = 1 ] || fail "$* exited $rc, expected 1 ($err)"
	grep -q "$want" <<<"$err" || fail "$*: stderr lacks $want: $err"
	echo "ok: $* -> $(head -1 <<<"$err")"
}

# A device in the background for the tests that connect; removed on exit.
conn=""
up() {
	conn=$("$HP" up "$@" | tail -1) || fail "hartpool up failed"
	[[ "$conn" == shm:/dev/shm/hartpool-* ]] || fail "up printed '$conn'"
	trap 'down' EXIT
}
down() {
	relay_down
	[ -z "$conn" ] || "$HP" down --connect "$conn" >/dev/null 2>&1
	conn=""
}

# relay_up SOCK ARGS...: a faulty line in front of the device's UART socket
# SOCK (tests/e2e/serial_relay.c; ARGS: --noise N, bytes of line noise
# before every frame to the device, --drop N, one frame in N corrupted
# each way): the host connects to serial:$rsock. The product has no fault
# injection (docs/testing.md, "Fault injection"). relay_down ends it.
relay="" rsock="" rlog=""
relay_up() {
	local dev=$1 i
	shift
	relay_down
	rsock=$(mktemp -u /tmp/hp-relay-XXXXXX)
	rlog=$rsock.log
	rsock=$rsock.sock
	"$RELAY" --limit 900 "$@" "$rsock" "$dev" 2>"$rlog" &
	relay=$!
	for i in $(seq 200); do
		[ -S "$rsock" ] && return 0
		sleep 0.05
	done
	fail "serial_relay $* did not start: $(cat "$rlog")"
}
# relay_client N: the relay's line about its client N (once it is gone).
relay_client() {
	local i
	for i in $(seq 100); do
		grep -q "client $1:" "$rlog" && break
		sleep 0.05
	done
	grep "client $1:" "$rlog"
}
relay_down() {
	[ -z "$relay" ] || { kill "$relay" 2>/dev/null; wait "$relay" 2>/dev/null; }
	[ -z "$rlog" ] || rm -f "$rlog" "$rsock"
	relay="" rsock="" rlog=""
}

t_info() {
	local out
	out=$("$HP" info --harts 4) || fail "info"
	echo "$out"
	for kv in "harts: 4" "max_work_group_size: 256" \
		"max_work_item_sizes: 256,256,64" "sub_group_sizes: 1,2,4,8,16,32,64" \
		"local_mem_size: 32768" "global_mem_size: 1870659584" \
		"address_bits: 64" "board: qemu-virt"; do
		grep -qx "$kv" <<<"$out" || fail "info lacks '$kv'"
	done
	out=$("$HP" info --board qemu-virt32 --harts 2 --json) || fail "info rv32"
	echo "$out"
	grep -q '"address_bits": 32' <<<"$out" || fail "rv32 address_bits"
	grep -q '"harts": 2' <<<"$out" || fail "rv32 harts"
	# The largest devices serve the mailbox too (the firmware-private
	# tables grow with the harts).
	for b in qemu-virt qemu-virt32; do
		out=$("$HP" info --board "$b" --harts 512) || fail "info $b 512 harts"
		grep -qx "harts: 512" <<<"$out" || fail "$b: 512 harts: $out"
	done
}

# ids: CSV shape and values of one small launch, then many launches
# checked against the independent reference (run ids --check).
t_ids() {
	local csv
	csv=$("$HP" ids --global 5,3 --local 2,2 --offset 10,20) || fail "ids"
	local hdr=gid0,gid1,gid2,lid0,lid1,lid2,wid0,wid1,wid2,gsz0,gsz1,gsz2,lsz0,lsz1,lsz2,elsz0,elsz1,elsz2,ngrp0,ngrp1,ngrp2,goff0,goff1,goff2,glin,llin,dim,sgid,sglid,sgsz,sgmax,nsg,ensg,hart
	[ "$(head -1 <<<"$csv")" = "$hdr" ] || fail "ids header"
	[ "$(wc -l <<<"$csv")" = 16 ] || fail "ids: $(wc -l <<<"$csv") lines, expected 16"
	# Item (4, 2): gid 14,22; local id 0,0 in the last (1x1) group, whose
	# one sub-group has 1 item (the enqueued group's would have 4).
	grep -q '^14,22,0,0,0,0,2,1,0,5,3,1,1,1,1,2,2,1,3,2,1,10,20,0,14,0,2,0,0,1,4,1,1,' <<<"$csv" ||
		fail "ids row of item (4,2): $(sed -n 16p <<<"$csv")"
	local r
	for r in "--global 1" "--global 1000" "--global 37 --local 5" \
		"--global 33,17 --local 4,4" "--global 9,7,5 --local 2,3,4" \
		"--global 100,3 --offset 7,9" "--global 64 --local 16 --sub-group-size 4" \
		"--global 60,4 --reqd-wg-size 12,2,1" "--global 48 --local 16 --uniform" \
		"--global 20,9,7 --team-size 2" "--global 300000"; do
		# shellcheck disable=SC2086
		"$HP" run ids $r --check || fail "run ids $r --check"
	done
	expect_error HP_INVALID_WORK_DIMENSION "$HP" ids --global 4 --work-dim 4
	expect_error HP_INVALID_WORK_DIMENSION "$HP" ids --global 4 --work-dim 0
	expect_error HP_INVALID_WORK_GROUP_SIZE "$HP" ids --global 4 --local 0
	expect_error HP_INVALID_WORK_GROUP_SIZE "$HP" ids --global 10 --local 3 --uniform
	expect_error HP_INVALID_WORK_GROUP_SIZE "$HP" ids --global 60,4 --local 6,2 --reqd-wg-size 12,2,1
	expect_error HP_INVALID_WORK_GROUP_SIZE "$HP" ids --global 100,100 --local 20,20
	expect_error HP_INVALID_WORK_ITEM_SIZE "$HP" ids --global 1000 --local 300
	expect_error HP_INVALID_WORK_ITEM_SIZE "$HP" ids --global 100,100,100 --local 1,1,100
	expect_error HP_INVALID_GLOBAL_OFFSET "$HP" ids --global 4 --offset 18446744073709551615
	expect_error HP_INVALID_VALUE "$HP" ids --global 64 --sub-group-size 3
}

# Every library kernel with a host reference, on non-uniform sizes, on
# both boards.
t_run() {
	local b
	for b in qemu-virt qemu-virt32; do
		"$HP" run wg_count --board "$b" --global 1000,37 --check || fail "wg_count $b"
		"$HP" run barrier_rotate --board "$b" --global 20,9,7 --local 8,4,2 --check || fail "rotate $b"
		"$HP" run barrier_rotate --board "$b" --global 50,3 --team-size 2 --check || fail "rotate team $b"
		"$HP" run churn --board "$b" --global 250 --local 16 --team-size 2 --arg iters=10,rounds=5 --check ||
			fail "churn team $b"
		"$HP" run sg_ops --board "$b" --global 100,3 --check || fail "sg_ops $b"
		"$HP" run sg_ops --board "$b" --global 77 --local 20 --sub-group-size 16 --arg seed=5 --check || fail "sg_ops 16 $b"
		"$HP" run copy --board "$b" --arg size=1000001 --check || fail "copy $b"
		"$HP" run fill --board "$b" --arg size=10002 --arg psize=2 --check || fail "fill $b"
		"$HP" run empty --board "$b" --global 5000 --repeat 50 || fail "empty $b"
	done
	# The queue-test kernels; --repeat on an in-order queue: affine must
	# have been applied exactly 25 times in order, tally counted 25.
	"$HP" run tally --global 333,3 --repeat 25 --arg base=7 --check || fail "tally"
	"$HP" run affine --global 1001 --repeat 25 --arg mul=5 --arg add=3 --check || fail "affine"
	"$HP" run add --global 77,13 --check || fail "add"
	"$HP" run spin --global 64 --arg iters=5000 --check || fail "spin"
	expect_error HP_INVALID_KERNEL "$HP" run no_such_kernel
	expect_error HP_INVALID_VALUE "$HP" run ids --global 4,x
	expect_error HP_INVALID_VALUE "$HP" frobnicate
}

t_mbox() {
	"$MBOX" --harts 8 || fail "test_mbox on 8 harts"
}

t_mbox_rv32() {
	"$MBOX" --board qemu-virt32 --harts 4 --quick || fail "test_mbox on rv32"
}

t_mbox_one_hart() {
	"$MBOX" --harts 1 --quick || fail "test_mbox on 1 hart"
}

# Hostile mailbox stress (tests/e2e/test_stress.c and stress/): 60,000 packets, a
# seeded random mix of valid work with exact results and malformed packets
# over three queues; every valid one exact, every malformed one rejected
# with a named error or harmless, the device's counters consistent. The
# seed is new every run and printed: rerun a failure with --seed.
t_stress() {
	"$STRESS" --harts 8 || fail "test_stress on 8 harts"
}

t_stress_rv32() {
	"$STRESS" --board qemu-virt32 --harts 4 --iterations 20000 || fail "test_stress on rv32"
}

# A host process killed in the middle of its work (holding every queue:
# a queue quota that lets it, docs/sessions.md "Quotas"), then new ones
# connecting to the same running device.
t_reconnect() {
	up --harts 4 --quota queues=16 --quota-min queues=0
	local out=build/host/e2e/hog.out
	"$MBOX" --connect "$conn" --hog >"$out" 2>&1 &
	local pid=$!
	for _ in $(seq 100); do grep -q "hog: holding" "$out" && break; sleep 0.1; done
	grep -q "hog: holding 15 queues" "$out" || fail "hog: $(cat "$out")"
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	echo "killed a host process that held all 16 queues (15 + its service queue) mid-run"
	"$HP" run wg_count --global 300,7 --check --connect "$conn" || fail "run after the kill"
	"$MBOX" --connect "$conn" --quick || fail "test_mbox after the kill"
	"$HP" info --connect "$conn" | grep -q "harts: 4" || fail "info after the kill"
	local path=${conn#shm:} qpid
	qpid=$(cat "$path.pid")
	down
	# Gone, or a zombie (exited; its reaper is not us and may come a
	# second later).
	! kill -0 "$qpid" 2>/dev/null || grep -qE '^State:\s+[ZX]' "/proc/$qpid/status" 2>/dev/null ||
		fail "QEMU $qpid still running after down"
	[ ! -e "$path" ] || fail "$path left behind"
	expect_error HP_DEVICE_NOT_FOUND "$HP" info --connect "shm:$path"
}

# Sessions (docs/sessions.md), in both privilege modes and on rv32: a
# kernel's store into another session's buffer faults and the buffer stays
# intact; packets naming another session's buffer, event or object are
# refused; a closed or killed host's buffers, object, queues and slot come
# back (a killed host's endless kernel is stopped); four tenants, one of
# them hostile and killed mid-run: the others' values right, heap and tables
# back where they started.
t_sessions() {
	local board dir
	for board in qemu-virt qemu-virt-sbi qemu-virt32; do
		dir=$(mktemp -d /tmp/hp-sessions-XXXXXX)
		local isa=$board
		[ "$board" != qemu-virt-sbi ] || isa=qemu-virt # same ISA and ABI
		"$HP" build --board "$isa" examples/hello.c -o "$dir/hello.hpk" >/dev/null ||
			fail "$board: build examples/hello.c"
		"$SESSIONS" --board "$board" --harts 8 --object "$dir/hello.hpk" || fail "test_sessions on $board"
		rm -rf "$dir"
	done
}

# Time slices between sessions (docs/sessions.md), in both privilege modes
# and on rv32: beside a host whose endless kernels hold every hart, another
# host's checked kernels complete and a long checked kernel (preempted
# again and again) gives every value right, with the hog's kernels and the
# long one as teams too (a team stops and goes on as a gang; on qemu-cluster
# at the barrier unit); a new host finds nothing of the last one's local or
# private memory. Then four tenants at once on a
# `hartpool up` device (a spinner, a heap hog, a table hog, a careful
# tenant; two of them killed mid-run), on qemu-virt, qemu-virt-sbi and
# qemu-cluster: the careful tenant's rounds right, its new buffers zero,
# heap and tables back where they started (`make stress`: longer).
slices_object() {
	local isa=$1
	[ "$isa" != qemu-virt-sbi ] && [ "$isa" != qemu-cluster ] || isa=qemu-virt # same ISA and ABI
	"$HP" build --board "$isa" tests/e2e/kernels/leftover.cl -o "$2" >/dev/null ||
		fail "$1: build tests/e2e/kernels/leftover.cl"
}
t_slices() {
	local board dir
	dir=$(mktemp -d /tmp/hp-slices-XXXXXX)
	for board in qemu-virt qemu-virt-sbi qemu-virt32; do
		slices_object "$board" "$dir/$board.hpk"
		timeout 300 "$SLICES" --board "$board" --harts 8 --leftover "$dir/$board.hpk" hog long private ||
			fail "test_slices on $board"
	done
	# Teams as gangs: 9 harts, so teams of two cover every worker (the
	# driver is hart 0) and the victim needs the teams' harts.
	for board in qemu-virt qemu-virt-sbi qemu-virt32 qemu-cluster; do
		[ -f "board/$board/board.mk" ] || continue
		timeout 300 "$SLICES" --board "$board" --harts 9 team teamlong ||
			fail "test_slices team on $board"
	done
	# Vector registers (boards with V): kept through the slices of two
	# hosts' kernels on the same harts, and cleared for a new host.
	for board in qemu-virt-v qemu-virt-sbi-v; do
		[ -f "board/$board/board.mk" ] || continue
		timeout 300 "$SLICES" --board "$board" --harts 8 vregs ||
			fail "test_slices vregs on $board"
	done
	# The largest registers the boards save (BOARD_VLEN_MAX), and lengths
	# the launcher refuses.
	HP_QEMU_VLEN=512 timeout 300 "$SLICES" --board qemu-virt-v --harts 8 vregs ||
		fail "test_slices vregs on qemu-virt-v at VLEN 512"
	HP_QEMU_VLEN=64 expect_error HP_INVALID_VALUE "$HP" info --board qemu-virt-v --harts 2
	HP_QEMU_VLEN=256 expect_error HP_INVALID_VALUE "$HP" info --board qemu-virt --harts 2
	up --harts 2 --slice-us 2500
	"$HP" info --connect "$conn" | grep -qx "time_slice: 2500 us between sessions" ||
		fail "up --slice-us 2500: info does not say it"
	down
	expect_error HP_INVALID_VALUE "$HP" up --slice-us lots
	expect_error HP_INVALID_VALUE "$HP" up --slice-us 10000001
	for board in qemu-virt qemu-virt-sbi qemu-cluster; do
		[ -f "board/$board/board.mk" ] || continue
		slices_object "$board" "$dir/$board.hpk"
		up --board "$board" --harts 8
		timeout 300 "$SLICES" --connect "$conn" --leftover "$dir/$board.hpk" --rounds 6 tenants private ||
			fail "test_slices tenants on $board"
		down
	done
	rm -rf "$dir"
}

# Nothing left over in argument blocks: a kernel reads its whole block
# (the instance slot's copy), and a launch of another session with fewer
# arguments finds only zeros past its own, not the last launch's bytes.
t_zeroed_args() {
	local dir out big=() i
	dir=$(mktemp -d /tmp/hp-zargs-XXXXXX)
	cat >"$dir/argtail.c" <<'EOF'
#include <hartpool/kernel.h>
/* Counts the bytes not zero past its first 8 bytes of arguments. */
HP_KERNEL(argtail, const hp_item *it, const void *args)
{
	const uint8_t *p = args;
	unsigned n = 0;
	for (unsigned i = 8; i < 1536; i++)
		n += p[i] != 0;
	hp_printf(it, "argtail: %u bytes not zero past the arguments\n", n);
}
HP_REGISTER(argtail);
EOF
	"$HP" build "$dir/argtail.c" -o "$dir/argtail.hpk" >/dev/null || fail "build argtail"
	up --harts 8
	for i in $(seq 32); do big+=(--karg u64:0x5a5a5a5a5a5a5a5a); done
	out=$(timeout 120 "$HP" run --connect "$conn" --kernel-file "$dir/argtail.hpk" argtail --global 1 \
		"${big[@]}" --repeat 20) || fail "host A's launches: $out"
	grep -q "argtail: 248 bytes not zero" <<<"$out" || fail "host A's kernel does not see its own arguments: $out"
	out=$(timeout 120 "$HP" run --connect "$conn" --kernel-file "$dir/argtail.hpk" argtail --global 1 \
		--karg u64:0) || fail "host B's launch: $out"
	grep -q "argtail: 0 bytes not zero past the arguments" <<<"$out" ||
		fail "host B's argument block holds host A's bytes: $out"
	echo "ok: host A's 256 bytes of arguments, then host B's 8: B's kernel finds 0 bytes of A's past its own"
	down
}

# Per-session quotas (docs/sessions.md, "Quotas"; tests/e2e/test_quota.c):
# a greedy host is refused at its quota, a second at the floors kept for
# others, and a third process still loads an object, allocates its floor
# and runs a checked kernel while `hartpool info` answers; the tables'
# quotas; a private device has none.
t_quota() {
	local dir
	dir=$(mktemp -d /tmp/hp-quota-XXXXXX)
	"$HP" build examples/hello.c -o "$dir/hello.hpk" >/dev/null || fail "build examples/hello.c"
	up --harts 8
	timeout 300 "$QUOTA" --connect "$conn" --cli "$HP" --object "$dir/hello.hpk" hog || fail "quota hog"
	down
	up --harts 2 --quota objects=2,queues=2,buffers=8,commands=4
	timeout 120 "$QUOTA" --connect "$conn" --object "$dir/hello.hpk" tables || fail "quota tables"
	down
	up --harts 2 --quota rows=1 --quota-min rows=1
	timeout 120 "$QUOTA" --connect "$conn" --object "$dir/hello.hpk" rows || fail "quota rows"
	down
	expect_error HP_INVALID_VALUE "$HP" up --quota heap=lots
	expect_error HP_INVALID_VALUE "$HP" up --quota disks=4
	timeout 300 "$QUOTA" --harts 2 private || fail "quota private"
	rm -rf "$dir"
}

# Several host processes on one device at once: each its own queues and
# buffers, all results exact.
t_two_hosts() {
	up --harts 8
	local pids=() rc=0
	"$HP" run affine --global 4000 --repeat 100 --arg mul=7 --check --connect "$conn" &
	pids+=($!)
	"$HP" run tally --global 5000 --repeat 100 --check --connect "$conn" &
	pids+=($!)
	"$MBOX" --connect "$conn" --quick &
	pids+=($!)
	"$HP" run sg_ops --global 3000 --check --connect "$conn" &
	pids+=($!)
	for p in "${pids[@]}"; do wait "$p" || rc=1; done
	[ "$rc" = 0 ] || fail "one of four concurrent host processes failed"
	echo "four host processes at once on one device: all results exact"
	down
}

# The host tools against a device that speaks another protocol version, and
# one whose QEMU died: a clear error within a bounded time, never a hang.
t_robust() {
	up --harts 2
	local path=${conn#shm:} qpid t0
	# Version mismatch: the header's version word (offset 8) changed.
	dd if="$path" of="$path.version" bs=1 skip=$((0x10000000 + 8)) count=4 status=none
	printf '\x63\x00\x00\x00' | dd of="$path" bs=1 seek=$((0x10000000 + 8)) conv=notrunc status=none
	expect_error "HP_INVALID_VALUE: mailbox protocol version mismatch: the device speaks 99, this host tool" \
		"$HP" info --connect "$conn"
	dd if="$path.version" of="$path" bs=1 seek=$((0x10000000 + 8)) conv=notrunc status=none
	rm -f "$path.version"
	"$HP" info --connect "$conn" | grep -qx "harts: 2" || fail "info after restoring the version"
	# QEMU killed: the RAM file is still there, the device is not.
	qpid=$(cat "$path.pid")
	kill -9 "$qpid"
	t0=$(date +%s)
	expect_error "HP_DEVICE_NOT_FOUND: no device at $conn: the device is gone" \
		timeout 30 "$HP" run wg_count --global 50 --connect "$conn"
	[ $(($(date +%s) - t0)) -le 10 ] || fail "noticing the dead device took over 10 s"
	rm -f "$path" "$path".*
	conn=""
	expect_error HP_DEVICE_NOT_FOUND "$HP" info --connect "shm:/dev/shm/no-such-hartpool"
}

# Fault containment (docs/faults.md): each fault kernel ends with its error,
# naming the cause, and a checked kernel on the same device follows; a hung
# kernel is stopped by its time limit. The M-mode boards (PMP: access
# faults) and the S-mode one under OpenSBI (Sv39: page faults), isolation
# on (the default: kernels in U-mode), then off (M-mode: a CSR read works
# there).
t_faults() {
	local board k want out acc code mis
	for board in qemu-virt qemu-virt32 qemu-virt-sbi; do
		up --board "$board" --harts 4
		acc="access fault" code=0x80001000 mis="store/AMO"
		[ "$board" != qemu-virt-sbi ] || acc="page fault" code=0x80201000
		# QEMU's single-threaded TCG runs an AMO as a load and a store,
		# so a misaligned one traps as a misaligned load; multi-threaded
		# TCG runs it as a host atomic and gives the ISA's cause,
		# store/AMO. (Not OpenSBI's doing: the M-mode boards do the same.)
		tr '\0' ' ' <"/proc/$(cat "${conn#shm:}.pid")/cmdline" | grep -q 'thread=single' &&
			mis="load"
		for k in "fault_illegal:illegal instruction" \
			"fault_load:load $acc at .* address 0x90004000" \
			"fault_store:store/AMO $acc at .* address $code" \
			"fault_misaligned:$mis address misaligned" \
			"fault_ebreak:breakpoint" "fault_stack:store/AMO $acc" \
			"fault_kstack:store/AMO $acc" "fault_csr:illegal instruction" \
			"fault_data:$acc" "fault_mmio:store/AMO $acc at .* address 0x2000000" \
			"fault_exec:instruction $acc" "fault_ecall:ecall\) from U-mode"; do
			want=${k#*:}
			k=${k%%:*}
			out=$(expect_error HP_KERNEL_FAULT "$HP" run "$k" --global 64 --arg victim=37 --connect "$conn") || exit 1
			echo "$out"
			grep -Eq "$want.*, hart [0-9], group \(7,0,0\)" <<<"$out" || fail "$board $k: '$out' lacks '$want'"
			"$HP" run vadd --global 1000 --check --connect "$conn" >/dev/null || fail "$board: vadd after $k"
		done
		# Stack overflows from every position in a work-group: each ends
		# at a guard (1 KiB frames once stepped over 256-byte guards into
		# the firmware heap and stopped the device).
		for v in 0 11 13 30 47 63; do
			out=$(expect_error HP_KERNEL_FAULT "$HP" run fault_stack --global 64 --local 64 --arg victim=$v --connect "$conn") || exit 1
			grep -q "$acc" <<<"$out" || fail "$board fault_stack victim $v: $out"
		done
		"$HP" run vadd --global 1000 --check --connect "$conn" >/dev/null || fail "$board: vadd after stack overflows"
		out=$(expect_error HP_TIMEOUT "$HP" run hang --global 16 --arg victim=3 --timeout-us 200000 --connect "$conn") || exit 1
		echo "$out"
		grep -q "group (3,0,0)" <<<"$out" || fail "$board hang: $out"
		# A limit already past when harts enter the kernel (1 us): the
		# watchdog fires as it is armed, after the return point is set
		# (found by the stress run: it once jumped to a stale one).
		expect_error HP_TIMEOUT "$HP" run tally --global 476 --timeout-us 1 --connect "$conn"
		expect_error HP_TIMEOUT "$HP" run ids --global 20,9,7 --team-size 2 --timeout-us 1 --connect "$conn"
		"$HP" run sgemm_tiled --check --connect "$conn" >/dev/null || fail "$board: sgemm_tiled after hang"
		"$HP" run ids --global 20,9,7 --team-size 2 --timeout-us 5000000 --check --connect "$conn" >/dev/null ||
			fail "$board: team kernel under a time limit"
		down
	done
	# Isolation off: traps are still contained, wild accesses are not.
	up --harts 2 --append hartpool.isolation=0
	expect_error HP_KERNEL_FAULT "$HP" run fault_illegal --global 8 --connect "$conn"
	"$HP" run fault_load --global 8 --connect "$conn" >/dev/null || fail "fault_load with isolation off"
	"$HP" run fault_csr --global 8 --connect "$conn" >/dev/null || fail "fault_csr with isolation off (M-mode)"
	"$HP" run wg_count --global 99,5 --check --connect "$conn" >/dev/null || fail "wg_count, isolation off"
	down
}

# OpenSBI -> hartpool (board qemu-virt-sbi: S-mode, SBI for harts, IPIs,
# timer and exit, the console and PLIC context from the device tree): the
# kernel library with --check over shared memory and over the UART, on 4
# and 64 harts; info names the mode; OpenSBI 1.1's 128-hart limit is
# refused by name before QEMU starts. (The fault suite runs in t_faults.)
t_sbi() {
	local h k out sock all="vadd saxpy sgemm_naive sgemm_tiled reduce_wg reduce_sg scan histogram transpose conv2d bitonic mandelbrot"
	for h in 4 64; do
		up --board qemu-virt-sbi --harts "$h"
		out=$("$HP" info --connect "$conn") || fail "info sbi $h harts"
		grep -qx "harts: $h" <<<"$out" && grep -qx "privilege: S" <<<"$out" &&
			grep -qx "harts_skipped: 0" <<<"$out" || fail "sbi $h harts info: $out"
		for k in $all; do
			"$HP" run "$k" --check --connect "$conn" >/dev/null || fail "sbi $h harts: $k --check over shm"
		done
		"$HP" run barrier_rotate --global 20,9,7 --local 8,4,2 --check --connect "$conn" >/dev/null ||
			fail "sbi $h harts: barrier_rotate"
		"$HP" run sg_ops --global 100,3 --check --connect "$conn" >/dev/null || fail "sbi $h harts: sg_ops"
		"$HP" run scan --global 5000 --local 100 --team-size 2 --check --connect "$conn" >/dev/null ||
			fail "sbi $h harts: team scan"
		sock=${conn#shm:}.sock
		for k in vadd reduce_sg scan histogram sgemm_tiled; do
			"$HP" run "$k" --check --connect "serial:$sock" >/dev/null || fail "sbi $h harts: $k --check over serial"
		done
		echo "ok: qemu-virt-sbi, $h harts: the kernel library checked over shm and serial"
		down
	done
	out=$(expect_error HP_INVALID_VALUE "$HP" info --board qemu-virt-sbi --harts 129) || exit 1
	grep -q "128" <<<"$out" || fail "129 harts under OpenSBI 1.1: $out"
}

# The serial transport through QEMU's UART chardev, with garbage injected
# before every request frame (resynchronisation: the relay of
# tests/e2e/serial_relay.c), and paced to a baud rate.
t_serial() {
	up --harts 4
	local sock=${conn#shm:}.sock line
	"$HP" info --connect "serial:$sock" | grep -qx "harts: 4" || fail "info over serial"
	relay_up "$sock" --noise 24
	"$HP" run sg_ops --global 50,2 --check --connect "serial:$rsock" ||
		fail "sg_ops over serial with garbage"
	line=$(relay_client 1)
	grep -Eq " [1-9][0-9]* bytes of noise;" <<<"$line" || fail "no noise: $line"
	echo "ok: $line"
	relay_up "$sock" --noise 64
	"$HP" run copy --arg size=20000 --check --connect "serial:$rsock" ||
		fail "copy over serial with garbage"
	echo "ok: $(relay_client 1)"
	relay_down
	# A baud rate paces the socket like a UART of that rate (no time is
	# checked); a rate that is not a standard one is refused by name.
	"$HP" run wg_count --global 16,2 --check --connect "serial:$sock,baud=921600" ||
		fail "wg_count over serial at 921600 baud"
	# The window: frames corrupted and replies lost at random,
	# nothing lost or done twice; many launches in flight (a ring's
	# worth and more, every completion's status checked); malformed frames
	# refused with a named error by op, the agent still serving.
	# HP_SERIAL_TRACE logs every frame; the relay counts the frames it
	# corrupted each way.
	local tr
	tr=$(mktemp)
	relay_up "$sock" --drop 5
	HP_SERIAL_TRACE="$tr" "$HP" run vadd --check --connect "serial:$rsock" >/dev/null ||
		fail "vadd over serial with frames lost"
	line=$(relay_client 1)
	grep -q ' out seq [0-9]* new ' "$tr" && grep -q ' out seq [0-9]* again ' "$tr" &&
		grep -q ' in type [0-9]* seq ' "$tr" || fail "serial trace: $(head -5 "$tr")"
	grep -Eq ' [1-9][0-9]* corrupted, .* [1-9][0-9]* corrupted$' <<<"$line" ||
		fail "frames corrupted both ways: $line"
	echo "ok: $line"
	rm -f "$tr"
	relay_up "$sock" --drop 25
	"$HP" bench --connect "serial:$rsock" --count 50 >/dev/null ||
		fail "launches in flight over serial with frames lost"
	echo "ok: $(relay_client 1)"
	relay_down
	timeout 60 python3 tests/e2e/serial_frames.py "$sock" || fail "malformed frames over serial"
	"$HP" run wg_count --global 16,2 --check --connect "serial:$sock" >/dev/null ||
		fail "serial after malformed frames"
	local out
	out=$(expect_error HP_INVALID_VALUE "$HP" info --connect "serial:$sock,baud=12345") || exit 1
	grep -q "baud=12345: not a standard rate; the rates are .* 921600 " <<<"$out" || fail "bad baud: $out"
	expect_error HP_INVALID_VALUE "$HP" info --connect "serial:$sock,baud=fast"
	expect_error HP_INVALID_VALUE "$HP" info --connect "serial:$sock,speed=9600"
	"$HP" run wg_count --global 99,5 --check --connect "$conn" || fail "shm after serial"
	down
}

# The serial link under load, host processes killed mid-command
# (tests/e2e/serial_stress.sh, docs/serial.md): a short run on sifive-u
# (QEMU's SiFive UART drops what its socket does not take: the device holds
# its replies to the host's window) and on qemu-virt; `make stress-serial`
# runs 300 commands.
t_serial_stress() {
	tests/e2e/serial_stress.sh --board sifive-u --count 20 --limit 60 || fail "serial stress on sifive-u"
	tests/e2e/serial_stress.sh --board qemu-virt --count 10 --limit 60 || fail "serial stress on qemu-virt"
}

# The kernel library (docs/kernels.md): every kernel against its host
# reference at its default size (remainder groups), at a uniform size and
# at other non-uniform sizes with and without a local size, on one 8-hart
# device; every kernel on qemu-virt32 (float kernels bit-exact there: no
# fused multiply-add) and on 1 hart.
t_library() {
	local k all="vadd saxpy sgemm_naive sgemm_tiled reduce_wg reduce_sg scan histogram transpose conv2d bitonic mandelbrot"
	lib() { "$HP" run "$@" --check --connect "$conn" || fail "run $* --check ($conn)"; }
	up --harts 8
	for k in $all; do lib "$k"; done
	lib vadd --global 4096 --local 128 --uniform
	lib vadd --global 1001 --local 100
	lib saxpy --global 2048 --local 256 --uniform --arg a=-0.75 --repeat 3
	lib saxpy --global 777
	lib sgemm_naive --global 32,24 --local 8,8 --uniform --arg k=16
	lib sgemm_naive --global 37,29 --local 5,7 --arg k=31
	lib sgemm_tiled --global 48,32 --local 16,16 --uniform --arg k=40
	lib sgemm_tiled --global 33,17 --local 5,3 --arg k=9
	lib sgemm_tiled --global 50,20 --arg k=17
	lib sgemm_tiled --team-size 2
	lib reduce_wg --global 4096 --local 64 --uniform
	lib reduce_wg --global 100000 --local 50
	lib reduce_sg --global 2048 --local 128 --uniform
	lib reduce_sg --global 1001 --local 100 --sub-group-size 16 --repeat 2
	lib reduce_sg --global 999
	lib scan --global 4096 --local 64 --uniform
	lib scan --global 100000 --local 37
	lib scan --global 5000 --local 100 --team-size 2
	lib histogram --global 1024 --local 128 --uniform --arg n=65536
	lib histogram --global 333,3 --arg n=100003 --repeat 2
	lib histogram --team-size 2
	lib transpose --global 64,32 --local 16,16 --uniform
	lib transpose --global 37,29 --local 3,7
	lib transpose --global 100,1
	lib conv2d --global 64,32 --local 8,8 --uniform --arg r=2
	lib conv2d --global 37,29 --local 5,4
	lib conv2d --global 5,3 --arg r=2
	lib bitonic --global 4096 --local 64 --uniform
	lib bitonic --global 3000 --local 100
	lib bitonic --global 1
	lib mandelbrot --global 64,48 --local 8,8 --uniform
	lib mandelbrot --global 13,11 --arg max_iter=1000
	expect_error HP_INVALID_WORK_GROUP_SIZE "$HP" run scan --local 1 --connect "$conn"
	expect_error "launch 1 of 55" "$HP" run bitonic --local 48 --uniform --connect "$conn"
	expect_error HP_INVALID_WORK_DIMENSION "$HP" run vadd --global 10,10 --connect "$conn"
	expect_error HP_INVALID_GLOBAL_OFFSET "$HP" run transpose --global 9,9 --offset 1,1 --connect "$conn"
	down
	up --board qemu-virt32 --harts 8
	for k in $all; do lib "$k"; done
	for k in saxpy sgemm_naive sgemm_tiled conv2d; do lib "$k" --arg exact=1; done
	lib sgemm_tiled --global 40,30 --local 16,16 --arg k=20 --arg exact=1
	lib conv2d --arg r=2 --arg exact=1
	lib scan --global 20000 --local 30
	lib bitonic --global 2000 --local 40
	down
	up --harts 1
	for k in $all; do lib "$k"; done
	down
}

# hp_printf (docs/debugging.md): every line of `hello` checked against what
# its work-item must say, in any order, on both boards (kernels in U-mode);
# then a buffer too small for all of them: the lines that fit are whole and
# right, the rest are counted as dropped on stderr.
t_printf() {
	local board out err want n L kept dropped
	for board in qemu-virt qemu-virt32; do
		up --board "$board" --harts 4
		out=$("$HP" run hello --global 37 --local 5 --connect "$conn") || fail "$board: run hello"
		grep -q "run hello: global 37, local 5, 8 groups: OK" <<<"$out" || fail "$board: hello summary: $out"
		want=$(for ((i = 0; i < 37; i++)); do
			echo "[$i] hello from work-item $i (group $((i / 5)), local $((i % 5))): $i squared is $((i * i))"
		done | sort)
		[ "$(grep '^\[' <<<"$out" | sort)" = "$want" ] || fail "$board: hello lines differ: $out"
		echo "ok: $board: 37 hp_printf lines, each from its work-item"
		err=$("$HP" run hello --global 37 --local 5 --printf-size 1024 --connect "$conn" 2>&1 >/tmp/hp-printf-$$.out) ||
			fail "$board: hello with a small buffer: $err"
		kept=$(grep -c '^\[' /tmp/hp-printf-$$.out)
		dropped=$(sed -n 's/.*printf buffer full: \([0-9]*\) hp_printf() calls dropped.*/\1/p' <<<"$err")
		[ -n "$dropped" ] && [ "$kept" -gt 0 ] && [ $((kept + dropped)) = 37 ] ||
			fail "$board: small buffer: $kept lines kept, '$dropped' dropped: $err"
		[ -z "$(grep '^\[' /tmp/hp-printf-$$.out | grep -vxFf <(echo "$want"))" ] ||
			fail "$board: a kept line is not one of the expected ones"
		rm -f /tmp/hp-printf-$$.out
		echo "ok: $board: 1 KiB buffer: $kept lines kept whole, $dropped reported dropped"
		"$HP" run vadd --check --connect "$conn" >/dev/null || fail "$board: vadd after printf"
		down
	done
}

# Kernel objects (docs/kernel-objects.md): the examples built at test time
# with `hartpool build` for rv64, rv32 and the vector board; run through the CLI with their
# output checked value by value (hp_printf lines included); bad sources
# refused with a clear message; test_objects through the library with the
# same objects (two at once, unload/reload, unload while running, malformed
# objects, writable globals per loaded copy).
t_objects() {
	local board dir out want i
	# (qemu-virt-v: the objects built with clang, docs/vector.md)
	for board in qemu-virt qemu-virt32 qemu-virt-v; do
		dir=$(mktemp -d /tmp/hp-objects-XXXXXX)
		for e in hello saxpy group_sum globals; do
			"$HP" build --board "$board" "examples/$e.c" -o "$dir/$e.hpk" || fail "$board: build examples/$e.c"
		done
		[ -s "$dir/hello.elf" ] || fail "$board: no hello.elf next to hello.hpk (gdb symbols)"
		up --board "$board" --harts 4
		out=$("$HP" run --connect "$conn" --kernel-file "$dir/hello.hpk" hello --global 8 --karg buf:u32:8 --print) ||
			fail "$board: run hello.hpk: $out"
		want=$(for ((i = 0; i < 8; i++)); do echo "[$i] work-item $i of group $i: $i squared is $((i * i))"; done | sort)
		[ "$(grep '^\[' <<<"$out" | sort)" = "$want" ] || fail "$board: hello.hpk printf lines: $out"
		grep -qx "buf0 u32\[8\]: 0 1 4 9 16 25 36 49" <<<"$out" || fail "$board: hello.hpk result: $out"
		echo "ok: $board: hello.hpk built, loaded, 8 printf lines and 8 squares right"
		out=$("$HP" run --connect "$conn" --kernel-file "$dir/saxpy.hpk" saxpy --global 1000 \
			--karg buf:f32:1000:iota --karg buf:f32:1000:1 --karg f32:2.5 --karg u32:1000 --print 1000) ||
			fail "$board: run saxpy.hpk: $out"
		want="buf1 f32[1000]:$(for ((i = 0; i < 1000; i++)); do
			awk -v i=$i 'BEGIN { printf " %g", 2.5 * i + 1 }'
		done)"
		grep -qxF "$want" <<<"$out" || fail "$board: saxpy.hpk result: $out"
		echo "ok: $board: saxpy.hpk: 1000 values right"
		for k in group_sum group_sum_sg; do
			out=$("$HP" run --connect "$conn" --kernel-file "$dir/group_sum.hpk" $k --global 250 --local 50 \
				--karg buf:u32:250:iota --karg buf:u32:5 --print) || fail "$board: run $k: $out"
			grep -qx "buf1 u32\[5\]: 1225 3725 6225 8725 11225" <<<"$out" || fail "$board: $k result: $out"
		done
		echo "ok: $board: group_sum.hpk: barrier + local memory and sub-group sums right (remainder-free groups of 50)"
		out=$("$HP" run --connect "$conn" --kernel-file "$dir/globals.hpk" tally --global 8 --karg buf:u32:8 --print) ||
			fail "$board: run globals.hpk: $out"
		grep -qx "buf0 u32\[8\]: 133 135 137 141 133 135 137 141" <<<"$out" || fail "$board: globals.hpk result: $out"
		echo "ok: $board: globals.hpk: initialised writable globals and pointers between them right"
		expect_error HP_INVALID_KERNEL "$HP" run --connect "$conn" --kernel-file "$dir/hello.hpk" nosuch --global 8
		expect_error HP_INVALID_BINARY "$HP" run --connect "$conn" --kernel-file examples/hello.c hello --global 8
		"$HP" run --connect "$conn" vadd --check >/dev/null || fail "$board: vadd after kernel objects"
		down
		# The library side with the same objects.
		if [ $board = qemu-virt ]; then
			"$OBJECTS" --objects "$dir" --harts 8 || fail "test_objects on $board"
		else
			"$OBJECTS" --objects "$dir" --board $board --harts 4 || fail "test_objects on $board"
		fi
		rm -rf "$dir"
	done
	# Sources a kernel object cannot hold: named errors, no object.
	dir=$(mktemp -d /tmp/hp-objects-XXXXXX)
	printf '#include <hartpool/kernel.h>\nvoid missing(void);\nHP_KERNEL(k, const hp_item *it, const void *a) { (void)it; (void)a; missing(); }\nHP_REGISTER(k);\n' >"$dir/u.c"
	expect_error "linking" "$HP" build "$dir/u.c" -o "$dir/u.hpk"
	printf 'int x(void) { return 1; }\n' >"$dir/n.c"
	expect_error "no kernels" "$HP" build "$dir/n.c" -o "$dir/n.hpk"
	[ ! -e "$dir/u.hpk" ] && [ ! -e "$dir/n.hpk" ] || fail "a refused build left an object"
	rm -rf "$dir"
}

# gdb on a loaded kernel (docs/debugging.md): a device with the gdb stub
# (`hartpool up --gdb`), the command line `run --gdb` prints, a breakpoint
# on a line of examples/hello.c inside the uploaded object: gdb stops there
# with the kernel's own symbols and locals, then detaches; the run ends OK.
t_debug() {
	local dir port c hint out log
	dir=$(mktemp -d /tmp/hp-debug-XXXXXX)
	port=$((20000 + RANDOM % 20000))
	"$HP" build examples/hello.c -o "$dir/hello.hpk" 2>/dev/null || fail "build hello"
	c=$(HP_QEMU_GDB=$port "$HP" up --gdb --harts 2 2>"$dir/up.err" | tail -1) || fail "up --gdb: $(cat "$dir/up.err")"
	conn=$c
	grep -q "gdb-multiarch .*hartpool.elf -ex 'target remote :$port'" "$dir/up.err" || fail "up --gdb hint: $(cat "$dir/up.err")"
	hint=$(HP_QEMU_GDB=$port "$HP" run --connect "$c" --kernel-file "$dir/hello.hpk" hello --global 4 --karg buf:u32:4 --gdb 2>&1 </dev/null >/dev/null | grep add-symbol-file) ||
		fail "run --gdb printed no add-symbol-file"
	local addr
	addr=$(sed -n "s/.*add-symbol-file .*hello.elf -o \(0x[0-9a-f]*\).*/\1/p" <<<"$hint")
	[ -n "$addr" ] || fail "no load address in: $hint"
	log=$dir/gdb.out
	timeout 60 gdb-multiarch -q -batch build/qemu-virt/hartpool.elf -ex 'set confirm off' \
		-ex "target remote :$port" -ex "add-symbol-file $dir/hello.elf -o $addr" -ex 'break hello.c:20' \
		-ex continue -ex bt -ex 'p *it' -ex delete -ex detach >"$log" 2>&1 &
	local gdbpid=$! n=0
	until grep -q "Breakpoint 1 at" "$log" 2>/dev/null; do
		sleep 0.2
		n=$((n + 1))
		[ $n -lt 150 ] || fail "gdb did not set the breakpoint: $(cat "$log")"
	done
	# The object loads at the same address again (the code memory is empty).
	out=$("$HP" run --connect "$c" --kernel-file "$dir/hello.hpk" hello --global 4 --karg buf:u32:4 --print) || fail "run under gdb: $out"
	wait $gdbpid || true
	cat "$log"
	grep -q "hit Breakpoint 1.*hp_kbody_hello .*examples/hello.c:20" "$log" || fail "breakpoint in the loaded kernel not hit"
	grep -q "hp_krow_hello" "$log" || fail "no backtrace through the object's symbols"
	grep -q "global_id = {" "$log" || fail "could not print the work-item"
	grep -qx "buf0 u32\[4\]: 0 1 4 9" <<<"$out" || fail "result under gdb: $out"
	echo "ok: gdb stopped in a loaded kernel at examples/hello.c:20 with its symbols; the run finished OK"
	down
	rm -rf "$dir"
}

# The device's own local size: every kernel of `run --list`
# (but the fault injectors) checked against its host reference with no
# --local at global sizes 1, 7, 1000, 4096 and 65,537, on both boards: the
# size the device chooses must run (a barrier kernel's fibers fit its
# harts). An explicit local size above a kernel's maximum is
# HP_INVALID_WORK_GROUP_SIZE with both numbers; a team holds it.
t_sizes() {
	local b k g ks n=0
	for b in qemu-virt qemu-virt32; do
		up --board "$b" --harts 8
		ks=$("$HP" run --list | awk '{print $1}' | grep -Ev '^(fault_|hang$)')
		[ "$(wc -w <<<"$ks")" -ge 20 ] || fail "run --list: $ks"
		for k in $ks; do
			for g in 1 7 1000 4096 65537; do
				"$HP" run "$k" --global "$g" --check --connect "$conn" >/dev/null ||
					fail "$b: run $k --global $g --check (local chosen by the device)"
				n=$((n + 1))
			done
		done
		local out
		out=$(expect_error HP_INVALID_WORK_GROUP_SIZE "$HP" run sg_ops --global 4096 --local 256 --connect "$conn") || exit 1
		grep -q "local size 256 above the kernel's maximum 128" <<<"$out" || fail "$b: sg_ops --local 256: $out"
		"$HP" kernels --connect "$conn" | grep -E "^ *sg_ops.*max work-group 128" >/dev/null ||
			fail "$b: kernels does not report sg_ops' 128: $("$HP" kernels --connect "$conn" | grep sg_ops)"
		"$HP" run sg_ops --global 4096 --local 128 --check --connect "$conn" >/dev/null || fail "$b: sg_ops local 128"
		"$HP" run sg_ops --global 4096 --local 256 --team-size 2 --check --connect "$conn" >/dev/null ||
			fail "$b: sg_ops local 256 over a team of 2"
		down
	done
	echo "ok: $n launches with the device's own local size checked"
}

# Large NDRanges: `ids` over 1.8 M work-items in 2-D and 3-D
# with remainder groups in every dimension, every work-item function of
# every work-item checked against the independent reference (ndref); a
# range whose buffers cannot be had fails at allocation with the sizes.
t_large() {
	up --harts 8
	local r
	for r in "--global 1501,1201" "--global 1501,1201 --local 16,7" \
		"--global 151,121,101" "--global 151,121,101 --local 8,4,3" \
		"--global 1800001"; do
		# shellcheck disable=SC2086
		"$HP" run ids $r --check --connect "$conn" || fail "run ids $r --check"
	done
	local out
	out=$(expect_error HP_OUT_OF_RESOURCES "$HP" ids --global 100000,100 --connect "$conn") || exit 1
	grep -q "cannot allocate 2720000000 bytes on the device" <<<"$out" ||
		fail "ids too large: the error lacks the size asked: $out"
	"$HP" run ids --global 1000 --check --connect "$conn" >/dev/null || fail "ids after the refused one"
	down
}

# Device memory at its edges (tests/e2e/test_edges.c): the heap of the
# default DRAM (2 GiB: on rv32 up to the last page of the 32-bit space),
# of a small one (the largest buffer filled whole) and of one above 4 GiB;
# the largest buffer as a kernel argument to its last byte, one byte more
# refused with the numbers.
t_edges() {
	"$EDGES" --harts 4 || fail "test_edges qemu-virt (default memory)"
	"$EDGES" --board qemu-virt32 --harts 4 || fail "test_edges qemu-virt32 (default memory)"
	"$EDGES" --harts 2 --mem $((512 << 20)) || fail "test_edges qemu-virt 512 MiB"
	"$EDGES" --board qemu-virt32 --harts 2 --mem $((512 << 20)) || fail "test_edges qemu-virt32 512 MiB"
	"$EDGES" --harts 2 --mem $((5 << 30)) || fail "test_edges qemu-virt 5 GiB"
}

# A device that is not there: --connect to nothing, to a file
# that is not a mailbox and to a device whose QEMU was killed with -9 fails
# at once with HP_DEVICE_NOT_FOUND saying what was tried; a device killed
# while a command waits on it is HP_DEVICE_NOT_AVAILABLE (shm and serial).
t_device_errors() {
	local out c dir t0 ms pid sock
	out=$(expect_error HP_DEVICE_NOT_FOUND "$HP" info --connect shm:/nonexistent) || exit 1
	echo "$out"
	grep -q "no device at shm:/nonexistent: /nonexistent: No such file or directory" <<<"$out" || fail "shm: $out"
	out=$(expect_error HP_DEVICE_NOT_FOUND "$HP" info --connect serial:/nonexistent) || exit 1
	echo "$out"
	grep -q "no device at serial:/nonexistent: /nonexistent: No such file or directory" <<<"$out" || fail "serial: $out"
	dir=$(mktemp -d /tmp/hp-noexist-XXXXXX)
	# Big enough to be mapped, with something else where the header goes.
	truncate -s 300M "$dir/ram"
	printf 'NOTAPOOL' | dd of="$dir/ram" bs=1 seek=$((0x10000000)) conv=notrunc status=none
	out=$(expect_error HP_DEVICE_NOT_FOUND "$HP" info --connect "shm:$dir/ram") || exit 1
	grep -q "no hartpool mailbox there (magic 0x4c4f4f5041544f4e" <<<"$out" || fail "not a mailbox: $out"
	echo small >"$dir/small"
	out=$(expect_error HP_DEVICE_NOT_FOUND "$HP" kernels --connect "shm:$dir/small") || exit 1
	grep -q "is not a hartpool device's memory (6 bytes" <<<"$out" || fail "small file: $out"
	expect_error HP_DEVICE_NOT_FOUND "$HP" run empty --connect "serial:$dir/small"
	rm -rf "$dir"
	out=$(expect_error HP_INVALID_VALUE "$HP" info --connect shm:/nonexistent --mem 1G) || exit 1
	grep -q "mem_size (--mem) is for a device this call boots" <<<"$out" || fail "--mem with --connect: $out"

	# Killed while a command runs: the waiting host is told within seconds.
	up --harts 2
	sock=${conn#shm:}.sock
	"$HP" run spin --global 16 --arg iters=2000000000 --connect "$conn" >/dev/null 2>"$dir.shm.err" &
	pid=$!
	"$HP" run spin --global 16 --arg iters=2000000000 --connect "serial:$sock" \
		>/dev/null 2>"$dir.ser.err" &
	local spid=$!
	sleep 2
	kill -9 "$(cat "${conn#shm:}.pid")"
	# Nothing left to stop: a failure from here on removes its files.
	local dead=${conn#shm:}
	conn=""
	# shellcheck disable=SC2064
	trap "rm -f '$dead' '$dead'.*" EXIT
	t0=$(date +%s%N)
	wait "$pid"
	[ $? = 1 ] || fail "run on a killed device (shm) did not exit 1: $(cat "$dir.shm.err")"
	wait "$spid"
	[ $? = 1 ] || fail "run on a killed device (serial) did not exit 1: $(cat "$dir.ser.err")"
	ms=$((($(date +%s%N) - t0) / 1000000))
	cat "$dir.shm.err" "$dir.ser.err"
	grep -q "HP_DEVICE_NOT_AVAILABLE: the device is gone: QEMU (pid [0-9]*) is not running" "$dir.shm.err" ||
		fail "shm session: $(cat "$dir.shm.err")"
	grep -q "HP_DEVICE_NOT_AVAILABLE: the device is gone: .*sock hung up" "$dir.ser.err" ||
		fail "serial session: $(cat "$dir.ser.err")"
	[ "$ms" -le 5000 ] || fail "noticing the killed device took $ms ms"
	rm -f "$dir.shm.err" "$dir.ser.err"
	echo "ok: a device killed under two waiting hosts: both told HP_DEVICE_NOT_AVAILABLE within $ms ms"
	# Then connecting to what is left of it.
	t0=$(date +%s%N)
	out=$(expect_error HP_DEVICE_NOT_FOUND "$HP" info --connect "shm:$dead") || exit 1
	grep -q "no device at shm:$dead: the device is gone: QEMU (pid [0-9]*) is not running" <<<"$out" || fail "after -9: $out"
	out=$(expect_error HP_DEVICE_NOT_FOUND "$HP" info --connect "serial:$sock") || exit 1
	grep -q "no device at serial:$sock: .*Connection refused" <<<"$out" || fail "serial after -9: $out"
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ "$ms" -le 3000 ] || fail "connecting to the killed device took $ms ms"
	rm -f "$dead" "$dead".*
	trap - EXIT
}

# Device memory chosen at boot: --mem reaches QEMU (-m and the
# RAM file) and the firmware (dram_size, the heap up to the end of DRAM);
# sizes outside the board's QEMU_MEM_MIN..QEMU_MEM_MAX are refused before
# QEMU starts.
t_memsize() {
	local out dram glob alloc path
	# key VALUE... of `hartpool info` text output.
	key() { sed -n "s/^$1: //p" <<<"$out"; }
	out=$("$HP" info --harts 2 --mem 1G) || fail "info --mem 1G"
	echo "$out" | grep -E 'mem|dram'
	dram=$(key dram_size) glob=$(key global_mem_size) alloc=$(key max_mem_alloc_size)
	[ "$dram" = 1073741824 ] || fail "--mem 1G: dram_size '$dram'"
	# The heap runs to the end of DRAM: what the firmware and mailbox keep
	# below it (260 MiB on qemu-virt) is all that is missing.
	[ "$glob" -le "$dram" ] && [ "$glob" -gt $((dram - (512 << 20))) ] ||
		fail "--mem 1G: global_mem_size $glob of $dram"
	[ "$alloc" -gt 0 ] && [ "$alloc" -le "$glob" ] || fail "--mem 1G: max_mem_alloc_size $alloc, global $glob"
	# A device kept up: the RAM file has the size asked, JSON agrees.
	up --harts 2 --mem 3G
	path=${conn#shm:}
	[ "$(stat -c %s "$path")" = 3221225472 ] || fail "RAM file of --mem 3G: $(stat -c %s "$path") bytes"
	out=$("$HP" info --json --connect "$conn") || fail "info --json"
	python3 -c 'import json, sys
d = json.loads(sys.argv[1])
assert d["dram_size"] == 3 << 30, d["dram_size"]
assert 0 < d["max_mem_alloc_size"] <= d["global_mem_size"] <= d["dram_size"], d
assert d["global_mem_size"] > d["dram_size"] - (512 << 20), d' "$out" || fail "info --json with --mem 3G: $out"
	# (Buffers at the end of a heap past 4 GiB: e2e edges.)
	"$HP" run copy --arg size=1000000 --check --connect "$conn" >/dev/null || fail "copy on a 3 GiB device"
	down
	out=$(expect_error HP_INVALID_VALUE "$HP" info --mem 100M) || exit 1
	grep -q "104857600 bytes is outside what board qemu-virt takes: 512M (536870912) to 16G" <<<"$out" || fail "--mem 100M: $out"
	out=$(expect_error HP_INVALID_VALUE "$HP" info --board qemu-virt32 --mem 3G) || exit 1
	grep -q "3221225472 bytes is outside what board qemu-virt32 takes: 512M (536870912) to 2G (2147483648 bytes)" <<<"$out" ||
		fail "rv32 --mem 3G: $out"
	expect_error HP_INVALID_VALUE "$HP" up --mem 17G
	expect_error HP_INVALID_VALUE "$HP" info --mem 2X
	expect_error HP_INVALID_VALUE "$HP" info --mem 1000001
	# rv32: the default 2 GiB, all of the 32-bit space above 0x80000000.
	out=$("$HP" info --board qemu-virt32 --harts 2) || fail "info rv32"
	dram=$(key dram_size) glob=$(key global_mem_size)
	[ "$dram" = 2147483648 ] || fail "rv32 default dram_size '$dram'"
	[ "$glob" -gt $((dram - (512 << 20))) ] && [ "$glob" -lt "$dram" ] || fail "rv32 global_mem_size $glob"
	out=$("$HP" info --board qemu-virt32 --harts 2 --mem 512M) || fail "info rv32 --mem 512M"
	[ "$(key dram_size)" = 536870912 ] || fail "rv32 --mem 512M: $(key dram_size)"
}

# The CLI's own output at the edges: `kernels` and `info --json`
# show each kernel's largest work-group; copy and fill size themselves
# from --global; a launch the device refused prints no made-up local size,
# groups or times.
t_cli_edges() {
	local out json
	up --harts 4
	out=$("$HP" kernels --connect "$conn") || fail "kernels"
	json=$("$HP" info --json --connect "$conn") || fail "info --json"
	python3 -c 'import json, re, sys
d = json.loads(sys.argv[1])
text = {l.split()[0]: l for l in sys.argv[2].splitlines()}
ks = d["kernels"]
assert len(ks) >= 20 and len(ks) == len(text), (len(ks), len(text))
for k in ks:
    for f in ("name", "work_group_size", "max_work_group_size", "reqd_work_group_size",
              "sub_group_size", "local_mem_bytes", "args_size", "barriers", "loaded"):
        assert f in k, (k, f)
    wg = k["work_group_size"]
    assert 1 <= wg <= d["max_work_group_size"], k
    m = re.search(r"max work-group (\d+)", text[k["name"]])
    assert m and int(m.group(1)) == wg, (k, text[k["name"]])
    assert ("no barriers" not in text[k["name"]]) == k["barriers"], k
by = {k["name"]: k for k in ks}
# ids: no barriers, no local memory: the device limit; sg_ops: fibers.
assert by["ids"]["work_group_size"] == d["max_work_group_size"], by["ids"]
assert by["sg_ops"]["work_group_size"] < d["max_work_group_size"], by["sg_ops"]
assert by["sgemm_tiled"]["local_mem_bytes"] > 0 and by["sgemm_tiled"]["barriers"]
print("ok: %d kernels, work-group sizes in text and JSON agree" % len(ks))' "$json" "$out" ||
		fail "kernels / info --json: $out"
	out=$("$HP" run copy --global 7 --check --connect "$conn") || fail "run copy --global 7 --check: $out"
	grep -qx "run copy: global 7, local [0-9]*, [0-9]* groups: OK" <<<"$out" || fail "copy 7: $out"
	grep -qx "check: OK (28672 values)" <<<"$out" || fail "copy 7 checked 7 chunks: $out"
	out=$("$HP" run fill --global 1 --check --connect "$conn") || fail "run fill --global 1 --check: $out"
	grep -qx "check: OK (4096 values)" <<<"$out" || fail "fill 1: $out"
	"$HP" run fill --global 30 --arg size=100000 --arg psize=8 --check --connect "$conn" >/dev/null ||
		fail "fill: --global covering more than size"
	out=$(expect_error HP_INVALID_GLOBAL_WORK_SIZE "$HP" run copy --global 7 --arg size=100000 --connect "$conn") || exit 1
	grep -q "7 work-items move 28672 bytes (one 4096-byte chunk each); size=100000 needs 25" <<<"$out" ||
		fail "copy --global 7 size=100000: $out"
	# Refused by the device: the global size and the error, nothing else.
	out=$("$HP" run sg_ops --global 4096 --local 512 --connect "$conn" 2>/dev/null)
	[ $? = 1 ] || fail "sg_ops --local 512 did not fail"
	grep -q "^run sg_ops: global 4096: HP_INVALID_WORK_[A-Z_]* - ." <<<"$out" || fail "refused launch line: $out"
	! grep -Eq "local 0|0 groups|^time:" <<<"$out" || fail "a refused launch printed a launch: $out"
	out=$("$HP" run sg_ops --global 4096 --local 512 --json --connect "$conn" 2>/dev/null)
	python3 -c 'import json, sys
d = json.loads(sys.argv[1])
assert d["launched"] is False and d["status"].startswith("HP_INVALID_WORK_") and d["detail"], d
assert "local" not in d and "groups" not in d and "device_us" not in d, d' "$out" || fail "refused launch JSON: $out"
	# A launch that ran and faulted keeps its launch line.
	out=$("$HP" run fault_illegal --global 64 --local 8 --arg victim=9 --connect "$conn" 2>/dev/null)
	grep -q "^run fault_illegal: global 64, local 8, 8 groups: HP_KERNEL_FAULT - illegal instruction" <<<"$out" ||
		fail "faulted launch line: $out"
	grep -q "^time: " <<<"$out" || fail "faulted launch has no time line: $out"
	# Large ranges get buffers their size (there was a cap at 2^19
	# work-items); too large for the device: the sizes, at allocation.
	out=$("$HP" ids --global 558571 --connect "$conn" | tail -1) || fail "ids --global 558571"
	[[ "$out" == 558570,0,0,* ]] || fail "ids --global 558571: last row $out"
	out=$(expect_error HP_OUT_OF_RESOURCES "$HP" ids --global 100000,100 --connect "$conn") || exit 1
	grep -q "cannot allocate 2720000000 bytes on the device" <<<"$out" || fail "ids too large: $out"
	# ... unless the range itself is wrong: that error first.
	expect_error HP_INVALID_WORK_GROUP_SIZE "$HP" ids --global 100000,100 --local 20,20 --connect "$conn"
	down
	expect_error HP_INVALID_GLOBAL_WORK_SIZE "$HP" ids --board qemu-virt32 --harts 1 --global 4294967296
}

# OpenSBI -> U-Boot -> boot.scr -> hartpool from the SD-card image of `make
# image`, the kernel library checked over the serial link behind U-Boot's
# boot text (tests/e2e/uboot.sh; docs/images.md).
t_uboot() {
	tests/e2e/uboot.sh
}

# The UART doorbell of qemu-virt: a host that booted the device sends a
# byte on the UART after every packet, and the dispatcher, asleep until an
# interrupt, counts the receive interrupts it took (the header's `rings`,
# in bench --json). 180 packets: the 20 round trips and the 40 after idle
# each ring a sleeping dispatcher.
t_doorbell() {
	local out rings
	out=$("$HP" bench --harts 4 --count 20 --json) || fail "bench"
	echo "$out"
	rings=$(sed -n 's/.*"rings": \([0-9]*\).*/\1/p' <<<"$out")
	[ -n "$rings" ] && [ "$rings" -ge 60 ] ||
		fail "the dispatcher took ${rings:-no} UART rings for 180 packets"
	echo "ok: $rings UART doorbell rings"
}

# C kernels with the vector unit (docs/vector.md): on qemu-virt-v `hartpool
# build` compiles C with clang-19, and examples/saxpy_rvv.c (RVV intrinsics,
# 64 elements a work-item, strip-mined, a short last pass) gives every
# value; an earlier C kernel still builds and runs there; on a board
# without V the example stops at its #error, named.
t_vector_c() {
	local dir out want
	dir=$(mktemp -d /tmp/hp-vc-XXXXXX)
	"$HP" build --board qemu-virt-v examples/saxpy_rvv.c -o "$dir/s.hpk" >/dev/null ||
		fail "build saxpy_rvv for qemu-virt-v"
	out=$("$HP" run --board qemu-virt-v --harts 4 --kernel-file "$dir/s.hpk" saxpy_rvv \
		--global 16 --karg buf:f32:1000:iota --karg buf:f32:1000:1 --karg u64:1000 \
		--karg f32:2.5 --karg u32:64 --print 1000) || fail "run saxpy_rvv: $out"
	want=$(python3 -c 'print(" ".join("%g" % (2.5 * i + 1) for i in range(1000)))')
	grep -q "^buf1 f32\[1000\]: $want\$" <<<"$out" || fail "saxpy_rvv values: $(grep buf1 <<<"$out" | cut -c1-200)"
	"$HP" build --board qemu-virt-v examples/saxpy.c -o "$dir/p.hpk" >/dev/null ||
		fail "build saxpy.c for qemu-virt-v (clang)"
	out=$("$HP" run --board qemu-virt-v --harts 4 --kernel-file "$dir/p.hpk" saxpy --global 1000 \
		--karg buf:f32:1000:iota --karg buf:f32:1000:1 --karg f32:2.5 --karg u32:1000 \
		--print 1000) || fail "run saxpy (clang): $out"
	grep -q "^buf1 f32\[1000\]: $want\$" <<<"$out" || fail "saxpy (clang) values"
	out=$("$HP" build --board qemu-virt examples/saxpy_rvv.c -o "$dir/n.hpk" 2>&1) &&
		fail "saxpy_rvv built for qemu-virt"
	grep -q "needs a board with the vector extension" <<<"$out" || fail "no named refusal: $out"
	echo "ok: saxpy_rvv (RVV intrinsics) and saxpy.c built with clang for qemu-virt-v: 1000 values right"
	rm -rf "$dir"
}

# The library kernels' vector versions (vadd, saxpy: rows across groups;
# reduce_sg: a work-group function of vector sums; sgemm_naive: a row as a
# vector loop over its columns; sgemm_tiled, scan: work-group functions of
# vector rows and prefix sums; scan_add a vector row; histogram a
# work-group function; kernels/lib_rvv.h) give
# what --check wants on qemu-virt-v at VLEN 128, 256 and 512, with
# remainder groups, sub-groups from 2 to 64 lanes (past one register
# group at VLEN 128) and teams, and at 1024, where the harts keep V off,
# through their scalar code; every other library kernel runs there too.
t_vector_lib() {
	local v k
	for v in 128 256 512 1024; do
		for k in "vadd --global 100003 --local 64" "vadd --global 4096 --local 128 --uniform" \
			"saxpy --global 777 --arg a=-0.75" "saxpy --global 65536 --local 256 --repeat 2" \
			"reduce_sg --global 5000 --local 100" "reduce_sg --global 1001 --local 100 --sub-group-size 2" \
			"reduce_sg --global 4096 --local 256 --sub-group-size 64" \
			"reduce_sg --global 2048 --local 128 --team-size 2" "sgemm_tiled" "scan" "histogram" \
			"sgemm_naive --global 100,33 --local 16,4 --arg k=77" "sgemm_naive --arg k=0" \
			"sgemm_tiled --global 70,45 --local 16,16 --arg k=50" \
			"scan --global 100003 --local 256" "scan --global 5000 --local 100 --team-size 2" \
			"histogram --global 64,8 --local 8,4" "histogram --global 5000 --local 100 --team-size 2"; do
			HP_QEMU_VLEN=$v timeout 300 "$HP" run --board qemu-virt-v --harts 4 $k --check \
				>/dev/null || fail "VLEN $v: run $k --check"
		done
	done
	echo "ok: the library's vector kernels checked at VLEN 128, 256, 512 and with V off"
}

# QEMU's real-board models with an E51 monitor hart, and the FPU rule.
. tests/e2e/boards.sh
. tests/e2e/cluster.sh
. tests/e2e/trace.sh

tests="info ids run sizes large edges library mbox mbox_rv32 mbox_one_hart doorbell two_hosts sessions slices zeroed_args quota reconnect robust device_errors memsize cli_edges faults sbi serial serial_stress printf objects debug stress stress_rv32 sifive_u icicle_kit fpu_flags cluster trace vector_c vector_lib amp"
# (once there is a board to boot that way)
[ ! -f board/qemu-virt-sbi/board.mk ] || tests="$tests uboot"
case "${1:-}" in
list) echo "$tests" ;;
run) "t_${2:?test name}" && echo "pass: $2" ;;
*) echo "usage: $0 list | run NAME" >&2; exit 2 ;;
esac
