# End-to-end tests of timelines (docs/trace.md): traces written by the
# library and by `hartpool run --trace`, checked for structure by
# tests/e2e/trace_check.py (parses, one track per hart that ran, chunks
# covering every work-group of every command exactly once, time order and
# nesting on every track; no timing). Sourced by tests/e2e/e2e.sh, which
# provides HP, fail, expect_error, up and down.
TRACE=build/host/e2e/test_trace

t_trace() {
	local dir out n
	dir=$(mktemp -d /tmp/hp-trace.XXXXXX)
	# The mixed workload (two queues, cross-queue dependencies, a
	# barrier-AND, barrier kernels, a team) on 8 harts, results checked by
	# the program, its trace by the checker.
	"$TRACE" --harts 8 "$dir/mix.json" >"$dir/mix.out" || { cat "$dir/mix.out"; fail "test_trace 8 harts"; }
	tests/e2e/trace_check.py "$dir/mix.json" --cmds "$dir/mix.out" --harts 8 || fail "trace of the mixed workload"
	n=$(grep -c '^cmd ' "$dir/mix.out")
	[ "$n" = 11 ] || fail "test_trace printed $n commands"
	# One hart (the dispatcher runs the work-groups too), and rv32.
	"$TRACE" --harts 1 "$dir/one.json" >"$dir/one.out" || { cat "$dir/one.out"; fail "test_trace 1 hart"; }
	tests/e2e/trace_check.py "$dir/one.json" --cmds "$dir/one.out" --harts 1 || fail "trace on one hart"
	"$TRACE" --board qemu-virt32 --harts 4 "$dir/rv32.json" >"$dir/rv32.out" || { cat "$dir/rv32.out"; fail "test_trace rv32"; }
	tests/e2e/trace_check.py "$dir/rv32.json" --cmds "$dir/rv32.out" --harts 4 || fail "trace on rv32"
	# A buffer too small: records dropped and counted, the file whole,
	# the results still right.
	"$TRACE" --harts 4 --records 8 "$dir/small.json" >"$dir/small.out" || { cat "$dir/small.out"; fail "test_trace small buffer"; }
	tests/e2e/trace_check.py "$dir/small.json" --harts 4 --dropped || fail "trace with a small buffer"

	# hartpool run --trace, on a device in the background, then over the
	# serial link to the same device.
	up --harts 4
	out=$("$HP" run sgemm_tiled --check --trace "$dir/run.json" --connect "$conn" 2>&1) || fail "run --trace: $out"
	grep -q "^hartpool: trace $dir/run.json: [0-9]* records on [0-9]* harts, 3 commands, 0 dropped, 0 bad" <<<"$out" || fail "run --trace said: $out"
	groups=$(sed -n 's/^run sgemm_tiled: global [0-9x]*, local [0-9x]*, \([0-9]*\) groups: OK$/\1/p' <<<"$out")
	[ -n "$groups" ] || fail "run --trace: no groups in: $out"
	q=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print([e['args']['cmd'] for e in d['traceEvents'] if e.get('cat')=='chunk'][0])" "$dir/run.json")
	echo "cmd $q sgemm_tiled $groups" >"$dir/run.cmds"
	tests/e2e/trace_check.py "$dir/run.json" --cmds "$dir/run.cmds" --harts 4 || fail "run --trace file"
	out=$("$HP" run reduce_wg --check --trace "$dir/serial.json" --connect "serial:${conn#shm:}.sock" 2>&1) || fail "run --trace over serial: $out"
	tests/e2e/trace_check.py "$dir/serial.json" --harts 4 || fail "run --trace over serial: file"
	# A file that cannot be written: the error, the device still serving.
	expect_error HP_INVALID_VALUE "$HP" run vadd --trace /nonexistent/dir/x.json --connect "$conn"
	"$HP" run vadd --check --connect "$conn" >/dev/null || fail "the device after a failed trace"
	down
	rm -rf "$dir"
}
