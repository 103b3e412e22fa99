#!/usr/bin/env bash
# Runs every test tier and ends with the line "N passed, N failed":
#   1. format check (clang-format), the layering check
#      (scripts/check-layers: no include cycle, no include the wrong way
#      between folders; with the host built, no call cycle and no call the
#      wrong way between host files) with its own test (tests/layers/test.sh),
#      and the product's sizes (scripts/check-sizes),
#   2. host unit tests of the portable code: plain, ASan+UBSan, TSan, the
#      ICD's unit tests over a fake libhartpool (tests/icd/) in the same
#      three builds, and libFuzzer targets for a bounded time,
#   3. on-target tests in QEMU on every board (tests/target/tests.list),
#   4. exact per-hart instruction counts through the TCG plugin
#      (tests/count_check.sh), firmware on every board and user mode,
#   5. end-to-end tests: the hartpool CLI and libhartpool against the
#      firmware in QEMU through the mailbox (tests/e2e/e2e.sh), and a
#      kernel added to a copy of the tree as one folder and one line
#      (tests/kernels/new_kernel.sh),
#   6. stress: long-lived 64-hart devices under multi-threaded TCG, 30
#      `hartpool bench` runs each, no stall allowed (tests/stress/),
#   7. OpenCL: the ICD's programs, the CLI's OpenCL C, PyOpenCL, clinfo,
#      clpeak (tests/opencl/), and the Khronos CTS's fast tier
#      (tests/cts/, docs/conformance.md) when a CTS build is found.
# Environment: HP_TEST_BOARDS (default: every board but the template),
# HP_TEST_JOBS (parallel QEMU runs, default nproc), HP_TEST_TIMEOUT (s, 180),
# HP_FUZZ_SECONDS (per fuzz target, default 10).
# Boards without QEMU_SYSTEM (real hardware QEMU does not model) are
# build-only: tiers 3 and 4 skip them.
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

boards=${HP_TEST_BOARDS:-$(cd board && ls -d */ | tr -d / | grep -v '^template$')}
jobs=${HP_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
tmo=${HP_TEST_TIMEOUT:-180}
out=build/test-results
rm -rf "$out" && mkdir -p "$out"

passed=0 failed=0
failures=()

# report NAME STATUS LOG SECONDS
report() {
	if [ "$2" = 0 ]; then
		passed=$((passed + 1))
		printf 'PASS  %-52s %6ss\n' "$1" "$4"
	else
		failed=$((failed + 1))
		failures+=("$1")
		printf 'FAIL  %-52s %6ss  (log: %s)\n' "$1" "$4" "$3"
		sed 's/^/      | /' "$3" | tail -n 15
	fi
}

# timed NAME LOG CMD...: run a command as one test.
timed() {
	local name=$1 log=$2 t0 rc
	shift 2
	t0=$(date +%s.%N)
	"$@" >"$log" 2>&1
	rc=$?
	report "$name" "$rc" "$log" "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b-a}')"
}

echo "== build"
for b in $boards; do
	timed "build firmware and test images ($b)" "$out/build-$b.log" make -s -j"$jobs" BOARD="$b" target-tests
done
for b in $boards; do
	timed "build hartpool CLI, libhartpool, e2e tests ($b)" "$out/build-host-$b.log" make -s -j"$jobs" BOARD="$b" hartpool e2e-tests
done
for b in $boards; do
	timed "build boot images: make image ($b)" "$out/build-image-$b.log" make -s BOARD="$b" image
done
timed "build TCG plugin" "$out/build-plugin.log" make -s -j"$jobs" plugin plugin-tests
timed "build the ICD and the host tools for qemu-virt-amp's Linux (make icd guest-tools)" "$out/build-guest.log" make -s icd guest-tools
timed "build board/template (stays buildable)" "$out/build-template.log" make -s BOARD=template all
timed "build host unit tests" "$out/build-host.log" make -s -j"$jobs" host-tests
timed "build fuzz targets" "$out/build-fuzz.log" make -s -j"$jobs" fuzz-targets-build
# (the e2e tier builds .cl kernels too: tests/e2e/kernels/)
timed "build OpenCL built-in library" "$out/build-opencl-lib.log" make -s -j"$jobs" opencl-lib

echo "== format"
timed "clang-format check" "$out/format.log" make -s format-check

echo "== layers"
timed "layering check (scripts/check-layers)" "$out/layers.log" scripts/check-layers
timed "layering check finds planted faults (tests/layers)" "$out/layers-test.log" tests/layers/test.sh
timed "sizes: firmware and host files <= 700 lines, functions <= 100 (scripts/check-sizes)" "$out/sizes.log" scripts/check-sizes

echo "== host unit tests"
dtb=build/host/dtb
mkdir -p "$dtb"
gen_dtbs() {
	for n in 1 8 512; do
		mem=128M
		[ "$n" != 512 ] || mem=5G # a size above 4 GiB
		qemu-system-riscv64 -machine virt,dumpdtb="$dtb/virt-$n.dtb" -smp "$n" -m "$mem" -bios none -nographic || return 1
	done
	qemu-system-riscv64 -machine virt,dumpdtb="$dtb/virt-8-args.dtb" -smp 8 -bios none -nographic \
		-kernel "build/qemu-virt/hartpool.elf" -append "quiet hartpool.harts=4" || return 1
	# hart 0 an E51 (rv64imac, no MMU), harts 1-4 U54s, a SiFive UART
	qemu-system-riscv64 -machine sifive_u,dumpdtb="$dtb/sifive_u.dtb" -smp 5 -bios none -nographic || return 1
	# qemu-cluster's machine with its doorbell, when the patched QEMU is built
	local pq
	rm -f "$dtb/cluster-8.dtb"
	if pq=$(qemu/build.sh --print-path 2>/dev/null); then
		"$pq" -chardev null,id=db -machine virt,hp-cluster=on,hp-doorbell=db,dumpdtb="$dtb/cluster-8.dtb" \
			-smp 8 -bios none -nographic
	fi
}
timed "dump QEMU device trees for test_fdt" "$out/dtb.log" gen_dtbs
for t in $(make -s --no-print-directory print-host-tests); do
	for v in plain asan tsan; do
		timed "host $t ($v)" "$out/host-$t-$v.log" timeout "$tmo" "build/host/$v/$t" "$dtb"
	done
done
# The ICD's unit tests: host/icd/ over a fake libhartpool, no device
# (tests/icd/, docs/icd.md); built by `make host-tests`.
for t in $(make -s --no-print-directory print-icd-unit-tests-run); do
	for v in plain asan tsan; do
		timed "icd unit $t ($v)" "$out/icd-unit-$t-$v.log" timeout "$tmo" "build/host/$v/$t"
	done
done

echo "== fuzzing (${fuzz_secs:=${HP_FUZZ_SECONDS:-10}} s per target)"
fuzz_run() { # TARGET: seeds are tests/fuzz/corpus/NAME for fuzz_NAME if there
	# is one, else the QEMU trees, cut to the fuzzer's max length
	local seeds=tests/fuzz/corpus/${1#fuzz_} corpus=build/host/fuzz-corpus/$1
	if [ ! -d "$seeds" ]; then
		seeds=build/host/fuzz-seeds
		mkdir -p "$seeds"
		for f in "$dtb"/*.dtb; do head -c 8192 "$f" >"$seeds/$(basename "$f")"; done
	fi
	mkdir -p "$corpus"
	"build/host/fuzz/$1" -max_total_time="$fuzz_secs" -max_len=8192 -print_final_stats=1 "$corpus" "$seeds"
}
for t in $(make -s --no-print-directory print-fuzz-targets); do
	timed "fuzz $t" "$out/fuzz-$t.log" fuzz_run "$t"
done

echo "== on-target tests"
# One QEMU run: writes "<status> <seconds>" to $res, output to $log.
run_target() {
	local b=$1 image=$2 harts=$3 want=$4 opts=$5 patterns=$6 log=$7 res=$8
	local t0 rc msg="" p n re count
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086 # opts are words
	timeout -k 5 "$tmo" qemu/hp-qemu --board "$b" --harts "$harts" $opts \
		"build/$b/tests/$image.elf" </dev/null >"$log" 2>&1
	rc=$?
	if [ "$rc" != "$want" ]; then
		msg="exit status $rc, expected $want"
	else
		patterns=${patterns//\{harts\}/$harts}
		while [ -n "$patterns" ]; do
			p=${patterns%% && *}
			[ "$p" = "$patterns" ] && patterns="" || patterns=${patterns#* && }
			if [[ "$p" =~ ^([0-9]+)\*(.*)$ ]]; then
				n=${BASH_REMATCH[1]} re=${BASH_REMATCH[2]}
				count=$(grep -cE -- "$re" "$log")
				[ "$count" = "$n" ] || { msg="$count lines match /$re/, expected $n"; break; }
			elif ! grep -qE -- "$p" "$log"; then
				msg="no line matches /$p/"
				break
			fi
		done
	fi
	[ -z "$msg" ] || echo "run_target: $msg" >>"$log"
	echo "$([ -z "$msg" ] && echo 0 || echo 1) $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b-a}')" >"$res"
}

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; echo "${s%"${s##*[![:space:]]}"}"; }

# line_for_board BOARD WORDS: the board words of a tests.list line (after
# its image) admit BOARD: none, BOARD among the plain ones, or only !other.
line_for_board() {
	local w only=0
	for w in $2; do
		case "$w" in
		"!$1") return 1 ;;
		!*) ;;
		"$1") return 0 ;;
		*) only=1 ;;
		esac
	done
	[ "$only" = 0 ]
}

names=() logs=() results=()
i=0
skipped=0
for b in $boards; do
	# A line asks for more harts than the board takes under QEMU (its
	# fixed count, or OpenSBI's limit), names an image the board does not
	# build (tests/target/objects.mk), is not for the board (board words
	# after the image in tests.list), or needs what a board booted with
	# -bios cannot take (a hart count other than its fixed one, bootargs):
	# skipped, and counted as such.
	eval "$(make -s --no-print-directory -f "board/$b/board.mk" -f qemu/query.mk qemu-env)"
	# A board QEMU does not model (no QEMU_SYSTEM in its board.mk: real
	# hardware only) is build-only: built above, never run.
	if [ -z "$QEMU_SYSTEM" ]; then
		echo "($b: build-only, no QEMU_SYSTEM in board/$b/board.mk)"
		continue
	fi
	# The AMP board is qemu-virt-sbi's firmware beside Linux: its on-target
	# runs are qemu-virt-sbi's, the board itself e2e amp's.
	if [ "$QEMU_LOAD" = amp ]; then
		echo "($b: on-target runs are those of the same firmware on qemu-virt-sbi; e2e amp runs the board)"
		continue
	fi
	max=${QEMU_SMP:-$QEMU_MAX_HARTS}
	while IFS='|' read -r image harts want opts patterns; do
		image=$(trim "$image")
		case "$image" in ''|\#*) continue ;; esac
		harts=$(trim "$harts") want=$(trim "$want") opts=$(trim "$opts") patterns=$(trim "$patterns")
		read -r image for_boards <<<"$image"
		if [ "$harts" -gt "$max" ] || [ ! -f "build/$b/tests/$image.elf" ] ||
			! line_for_board "$b" "$for_boards" ||
			{ [ "$QEMU_LOAD" = bios ] && { [ "$harts" != "$max" ] || [[ "$opts" == *--append* ]]; }; }; then
			skipped=$((skipped + 1))
			continue
		fi
		i=$((i + 1))
		names+=("$b $image@$harts${opts:+ $opts}")
		logs+=("$out/target-$i.log")
		results+=("$out/target-$i.res")
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
		run_target "$b" "$image" "$harts" "$want" "$opts" "$patterns" "$out/target-$i.log" "$out/target-$i.res" &
	done <tests/target/tests.list
done
wait
for k in "${!names[@]}"; do
	if [ -f "${results[$k]}" ]; then
		read -r st secs <"${results[$k]}"
	else
		st=1 secs=0
	fi
	report "${names[$k]}" "$st" "${logs[$k]}" "$secs"
done
echo "($skipped on-target runs skipped: more harts than the board takes, an image it does not build, a line for other boards, or bootargs and hart counts a -bios board cannot take)"

echo "== instruction counts (TCG plugin, tests/count_check.sh)"
for b in $boards; do
	# Boards without the count image (S-mode) or with fewer harts than
	# the runs below are not counted here.
	[ -f "build/$b/tests/count.elf" ] || continue
	eval "$(make -s --no-print-directory -f "board/$b/board.mk" -f qemu/query.mk qemu-env)"
	[ -n "$QEMU_SYSTEM" ] || continue # build-only board
	[ -z "$QEMU_SMP" ] || continue
	for h in 1 8 64; do
		timed "plugin count exact ($b, $h harts)" "$out/count-$b-$h.log" tests/count_check.sh firmware "$b" "$h"
	done
	timed "plugin count exact ($b, 8 harts, --icount)" "$out/count-$b-icount.log" tests/count_check.sh firmware "$b" 8 --icount
	timed "plugin count exact ($b, 8 harts, --accel single)" "$out/count-$b-single.log" tests/count_check.sh firmware "$b" 8 --accel single
done
timed "plugin count exact (qemu-riscv64 user mode, 3 threads)" "$out/count-user.log" tests/count_check.sh user

echo "== end-to-end tests (host tools against the firmware in QEMU)"
for t in $(tests/e2e/e2e.sh list); do
	timed "e2e $t" "$out/e2e-$t.log" timeout "$tmo" tests/e2e/e2e.sh run "$t"
done
timed "a new library kernel is one folder and one line (tests/kernels/)" "$out/new-kernel.log" \
	timeout 900 tests/kernels/new_kernel.sh

echo "== stress (long-lived 64-hart devices, multi-threaded TCG: tests/stress/long_lived.sh)"
for b in qemu-virt qemu-virt-sbi qemu-cluster; do
	case " $(echo $boards) " in *" $b "*) ;; *) continue ;; esac
	timed "stress $b: 30 bench runs on one 64-hart device, MTTCG" "$out/stress-$b.log" \
		timeout 900 tests/stress/long_lived.sh --quick --board "$b"
done

echo "== OpenCL"
timed "build OpenCL library and ICD" "$out/build-opencl.log" make -s -j"$jobs" opencl
timed "host calls: no wrong-way call, no call cycle (check-layers --objects)" "$out/layers-calls.log" scripts/check-layers --objects build/host
for t in $(tests/opencl/opencl.sh list); do
	# boards_build builds for every board, install boots three devices
	# under strace (tests/opencl/boards.part.sh, install.part.sh);
	# PyOpenCL's test_clmath builds and runs about 30 math programs
	# (150 s alone on a 2-core host).
	lim=$tmo
	case "$t" in boards_build | install | pyopencl_test_clmath) lim=$((tmo * 3)) ;; esac
	timed "opencl $t" "$out/opencl-$t.log" timeout "$lim" tests/opencl/opencl.sh run "$t"
done

echo "== OpenCL conformance: the Khronos CTS's fast tier on qemu-virt and qemu-virt-v (tests/cts/)"
if tests/cts/run.sh --list-fast >/dev/null 2>&1; then
	for b in qemu-virt qemu-virt-v; do
		# (the vector board when it is tested: HP_TEST_BOARDS)
		[ "$b" = qemu-virt ] || case " $(echo $boards) " in *" $b "*) ;; *) continue ;; esac
		for s in $(python3 tests/cts/cts.py --list-fast --board "$b"); do
			timed "cts $s (fast tier, $b)" "$out/cts-$b-$s.log" \
				tests/cts/run.sh --tier fast --suites "$s" --board "$b" --out build/cts-fast
		done
	done
else
	echo "(no CTS build: CTS_DIR names none; docs/conformance.md)"
fi

echo
if [ "$failed" -gt 0 ]; then
	echo "failed:"
	printf '  %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
