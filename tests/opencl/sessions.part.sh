# shellcheck shell=bash
# Sessions through the ICD (docs/sessions.md): OpenCL programs on one
# shared device (`hartpool up`) that are killed while they hold a kernel
# object, buffers and a queue give everything back; afterwards a new
# program builds and runs, and heap and tables are as before. Sourced by
# tests/opencl/opencl.sh (fail, HP). Needs `make icd`.

# The use figures `hartpool info` prints (heap, buffers, objects, rows,
# sessions but its own).
sessions_use() {
	"$HP" info --connect "$1" | grep -E '^(heap_used|buffers|kernel_objects|kernel_rows|code_used|sessions):' |
		sed 's/ (.*//'
}

t_icd_killed_programs() {
	local conn dir out before after i pid
	conn=$("$HP" up --harts 4 | tail -1) || fail "hartpool up"
	trap '"$HP" down --connect "$conn" >/dev/null 2>&1' RETURN
	dir=$(mktemp -d)
	local prog=build/host/opencl/tenant
	[ -x "$prog" ] || fail "$prog missing (make icd)"
	export HARTPOOL_DEVICE=$conn
	icd_env timeout 120 "$prog" build "$dir/square.bin" || fail "tenant build"
	before=$(sessions_use "$conn")
	for i in $(seq 1 50); do
		rm -f "$dir/out"
		OCL_ICD_VENDORS=$PWD/build/host/hartpool.icd \
			timeout 60 "$prog" hold "$dir/square.bin" >"$dir/out" 2>&1 &
		pid=$!
		# Killed once it holds its object, buffers and queue.
		for _ in $(seq 600); do
			grep -q ready "$dir/out" 2>/dev/null && break
			kill -0 $pid 2>/dev/null || break
			sleep 0.1
		done
		grep -q ready "$dir/out" || { cat "$dir/out"; fail "program $i did not get ready"; }
		# The program itself (timeout's child), as a crash or kill -9 would.
		pkill -9 -P $pid
		wait $pid 2>/dev/null
	done
	echo "50 programs killed holding 4 buffers, a kernel object and a queue each"
	out=$(icd_env timeout 120 "$prog" run "$dir/square.bin" 2>&1) || fail "a program after them: $out"
	echo "$out"
	# The keeper and the last program ended every dead session.
	for _ in $(seq 100); do
		after=$(sessions_use "$conn")
		[ "$after" = "$before" ] && break
		sleep 0.2
	done
	echo "before: $(tr '\n' ' ' <<<"$before")"
	echo "after:  $(tr '\n' ' ' <<<"$after")"
	[ "$after" = "$before" ] || fail "heap and tables not as before"
	unset HARTPOOL_DEVICE
	rm -rf "$dir"
}

# Nothing left over: program A fills a 64 MiB cl_mem and exits without
# releasing it; program B's new 64 MiB cl_mem (no host pointer) reads back
# all zeros.
t_icd_zeroed() {
	local conn out prog=build/host/opencl/zeroed
	[ -x "$prog" ] || fail "$prog missing (make icd)"
	conn=$("$HP" up --harts 8 | tail -1) || fail "hartpool up"
	trap '"$HP" down --connect "$conn" >/dev/null 2>&1' RETURN
	export HARTPOOL_DEVICE=$conn
	out=$(icd_env timeout 120 "$prog" fill 64 2>&1) || fail "program A: $out"
	echo "program A: $out"
	out=$(icd_env timeout 120 "$prog" check 64 2>&1) || fail "program B: $out"
	echo "program B: $out"
	unset HARTPOOL_DEVICE
}

# wait_line PATTERN FILE PID: until a line of FILE matches PATTERN (true), or
# PID ended or 120 s passed without one (false).
wait_line() {
	for _ in $(seq 1200); do
		grep -q "$1" "$2" 2>/dev/null && return 0
		kill -0 "$3" 2>/dev/null || break
		sleep 0.1
	done
	grep -q "$1" "$2" 2>/dev/null
}

# Per-session quotas (docs/sessions.md, "Quotas"): a greedy OpenCL program
# allocates until CL_OUT_OF_RESOURCES and holds it all; a second program
# still builds square.cl from source and runs it checked, and `hartpool
# info` answers and shows the hog at its heap quota. Without quotas the hog
# takes the whole heap and the second program's clBuildProgram fails.
t_icd_quota_hog() {
	local conn dir pid max used
	conn=$("$HP" up --harts 4 | tail -1) || fail "hartpool up"
	dir=$(mktemp -d)
	trap '"$HP" down --connect "$conn" >/dev/null 2>&1; rm -rf "$dir"' RETURN
	local hog=build/host/opencl/hog prog=build/host/opencl/tenant
	[ -x "$hog" ] && [ -x "$prog" ] || fail "$hog or $prog missing (make icd)"
	export HARTPOOL_DEVICE=$conn
	OCL_ICD_VENDORS=$PWD/build/host/hartpool.icd timeout 300 "$hog" >"$dir/hog" 2>&1 &
	pid=$!
	wait_line '^full' "$dir/hog" $pid || { cat "$dir/hog"; fail "the hog did not fill its quota"; }
	cat "$dir/hog"
	icd_env timeout 120 "$prog" build "$dir/square.bin" || fail "a build beside the hog"
	out=$(icd_env timeout 120 "$prog" run "$dir/square.bin" 2>&1) || fail "a run beside the hog: $out"
	echo "beside the hog: $out"
	timeout 60 "$HP" info --connect "$conn" >"$dir/info" || fail "hartpool info beside the hog"
	grep -E '^(quotas|session|heap_)' "$dir/info"
	# The hog's session: at its heap quota (less than one 64 KiB step).
	max=$(sed -n 's/^quotas: per session, most (floor) of all: heap \([0-9]*\) .*/\1/p' "$dir/info")
	used=$(grep "pid $(pgrep -P $pid | head -1) " "$dir/info" | sed -n 's/.*; quota: heap \([0-9]*\) of.*/\1/p')
	[ -n "$max" ] && [ -n "$used" ] || fail "info does not show the hog's use against its quota"
	[ "$used" -le "$max" ] && [ $((used + 65536)) -gt "$max" ] ||
		fail "the hog holds $used bytes of a $max quota"
	pkill -9 -P $pid
	wait $pid 2>/dev/null
	unset HARTPOOL_DEVICE
}

# Time slices (docs/sessions.md): an OpenCL program whose four endless
# kernels (512 work-items each, no time limit) would hold every hart, and
# beside it a second program builds square.cl from source and runs it
# checked, while hartpool info shows the first one's kernels still in
# flight. Without preemption the second program waits forever (its own
# 120 s limit fails the test).
t_icd_slices() {
	local conn dir pid cmds
	conn=$("$HP" up --harts 8 | tail -1) || fail "hartpool up"
	dir=$(mktemp -d)
	trap '"$HP" down --connect "$conn" >/dev/null 2>&1; rm -rf "$dir"' RETURN
	local spinner=build/host/opencl/spinner prog=build/host/opencl/tenant
	[ -x "$spinner" ] && [ -x "$prog" ] || fail "$spinner or $prog missing (make icd)"
	export HARTPOOL_DEVICE=$conn
	HARTPOOL_TIMEOUT=0 OCL_ICD_VENDORS=$PWD/build/host/hartpool.icd timeout 300 "$spinner" >"$dir/spin" 2>&1 &
	pid=$!
	wait_line '^spinning' "$dir/spin" $pid || { cat "$dir/spin"; fail "the spinner did not start"; }
	sleep 1
	icd_env timeout 120 "$prog" build "$dir/square.bin" || fail "a build beside the spinner"
	out=$(icd_env timeout 120 "$prog" run "$dir/square.bin" 2>&1) || fail "a run beside the spinner: $out"
	echo "beside the spinner: $out"
	cmds=$(timeout 60 "$HP" info --connect "$conn" | grep "pid $(pgrep -P $pid | head -1) " |
		sed -n 's/.* \([0-9]*\) commands in flight.*/\1/p')
	[ "${cmds:-0}" -ge 4 ] || fail "the spinner's kernels did not run all along (${cmds:-no} in flight)"
	echo "the spinner's $cmds kernels still in flight"
	pkill -9 -P $pid
	wait $pid 2>/dev/null
	unset HARTPOOL_DEVICE
}
