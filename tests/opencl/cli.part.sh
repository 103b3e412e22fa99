# OpenCL C through the CLI: `hartpool build X.cl`, `hartpool run
# --kernel-file X.cl` on qemu-virt (rv64) and qemu-virt32 (rv32), results
# checked (check_cli.py). Sourced by tests/opencl/opencl.sh.

K=tests/opencl/kernels
CHK=tests/opencl/check_cli.py

# cl_run BOARD ARGS...: hartpool run on a fresh device of BOARD.
cl_run() {
	local board=$1
	shift
	timeout -k 5 120 "$HP" run --board "$board" --harts "${CL_HARTS:-4}" --print 100000 "$@"
}

cl_ids() { # BOARD
	local out
	out=$(cl_run "$1" --kernel-file $K/cli.cl ids --global 13,5 --local 4,2 \
		--offset 3,7 --karg buf:u32:520) || fail "run: $out"
	python3 $CHK ids 13 5 4 2 3 7 <<<"$out" || fail "ids on $1"
}
t_cli_ids_rv64() { cl_ids qemu-virt; }
t_cli_ids_rv32() { cl_ids qemu-virt32; }

cl_group_sum() { # BOARD
	local out
	out=$(cl_run "$1" --kernel-file $K/cli.cl group_sum --global 512 --local 64 \
		--karg buf:i32:512:rand --karg buf:i32:8 --karg local:256) || fail "run: $out"
	python3 $CHK group_sum 512 64 <<<"$out" || fail "group_sum on $1"
}
t_cli_local_barrier_rv64() { cl_group_sum qemu-virt; }
t_cli_local_barrier_v() { cl_group_sum qemu-virt-v; }
t_cli_local_barrier_rv32() { cl_group_sum qemu-virt32; }

cl_count() { # BOARD
	local out
	out=$(cl_run "$1" --kernel-file $K/cli.cl count --global 640 --local 32 \
		--karg buf:i32:2 --karg buf:i32:20) || fail "run: $out"
	python3 $CHK count 640 32 <<<"$out" || fail "count on $1"
}
t_cli_atomics_rv64() { cl_count qemu-virt; }
t_cli_atomics_rv32() { cl_count qemu-virt32; }

cl_sg() { # BOARD
	local out
	out=$(cl_run "$1" --kernel-file $K/subgroups.cl --cl-options -cl-std=CL3.0 sg \
		--global 96 --local 24 --sub-group-size 8 --karg buf:i32:576) || fail "run: $out"
	python3 $CHK sg 96 24 8 <<<"$out" || fail "sg on $1"
}
t_cli_subgroups_rv64() { cl_sg qemu-virt; }
# Fibers with V: vector values live across a yield (docs/vector.md).
t_cli_subgroups_v() { cl_sg qemu-virt-v; }
t_cli_subgroups_rv32() { cl_sg qemu-virt32; }

cl_wg() { # BOARD: work-group collectives, remainder group included
	local out
	out=$(cl_run "$1" --kernel-file $K/workgroup.cl --cl-options -cl-std=CL3.0 wg \
		--global 47 --local 10 --karg buf:i32:376 --karg buf:f32:47) || fail "run: $out"
	python3 $CHK wg 47 10 <<<"$out" || fail "work-group collectives on $1"
}
t_cli_workgroup_rv64() { cl_wg qemu-virt; }
t_cli_workgroup_v() { cl_wg qemu-virt-v; }
t_cli_workgroup_rv32() { cl_wg qemu-virt32; }

cl_atomics20() { # BOARD: OpenCL C 3.0 atomics
	local out
	out=$(cl_run "$1" --kernel-file $K/atomics20.cl --cl-options -cl-std=CL3.0 atomics20 \
		--global 640 --local 32 --karg buf:i32:3 --karg buf:i32:20) || fail "run: $out"
	python3 $CHK atomics20 640 32 <<<"$out" || fail "3.0 atomics on $1"
}
t_cli_atomics20_rv64() { cl_atomics20 qemu-virt; }
t_cli_atomics20_rv32() { cl_atomics20 qemu-virt32; }

cl_mathy() { # BOARD
	local out
	out=$(cl_run "$1" --kernel-file $K/cli.cl mathy --global 40 \
		--karg buf:f32:40 --karg buf:i32:40) || fail "run: $out"
	python3 $CHK mathy 40 <<<"$out" || fail "mathy on $1"
}
t_cli_builtins_rv64() { cl_mathy qemu-virt; }
t_cli_builtins_v() { cl_mathy qemu-virt-v; }
t_cli_builtins_rv32() { cl_mathy qemu-virt32; }

cl_printf() { # BOARD
	local out n
	out=$(cl_run "$1" --kernel-file $K/cli.cl hello --global 64 --karg i32:5) || fail "run: $out"
	n=$(grep -c "hello from [0-4] of 64" <<<"$out")
	[ "$n" = 5 ] || fail "$n printf lines, expected 5: $out"
	for i in 0 1 2 3 4; do
		grep -q "^\[$i\] hello from $i of 64" <<<"$out" || fail "no line of item $i: $out"
	done
	echo "ok: printf on $1"
}
t_cli_printf_rv64() { cl_printf qemu-virt; }
t_cli_printf_rv32() { cl_printf qemu-virt32; }

# Building: an object with its metadata, the errors by name.
t_cli_build_errors() {
	local tmp err
	tmp=$(mktemp -d)
	"$HP" build $K/cli.cl -o "$tmp/cli.hpk" 2>"$tmp/log" || fail "build: $(cat "$tmp/log")"
	[ -s "$tmp/cli.hpk" ] && [ -s "$tmp/cli.elf" ] || fail "no .hpk / .elf"
	grep -q "built 5 kernels" "$tmp/log" || fail "log: $(cat "$tmp/log")"
	printf '__kernel void k(__global int *o) { o[0] = undeclared; }\n' >"$tmp/bad.cl"
	err=$("$HP" build "$tmp/bad.cl" -o "$tmp/bad.hpk" 2>&1) && fail "a bad kernel built"
	grep -q "HP_BUILD_PROGRAM_FAILURE" <<<"$err" || fail "no error name: $err"
	grep -q "bad.cl:1:.*undeclared" <<<"$err" || fail "no compiler message: $err"
	err=$("$HP" build -cl-nonsense $K/cli.cl -o "$tmp/x.hpk" 2>&1) && fail "bad option accepted"
	grep -q "HP_INVALID_BUILD_OPTIONS" <<<"$err" || fail "no error name: $err"
	err=$("$HP" build -cl-std=CL2.0 $K/cli.cl -o "$tmp/x.hpk" 2>&1) && fail "CL2.0 accepted"
	grep -q "HP_INVALID_BUILD_OPTIONS" <<<"$err" || fail "no error name: $err"
	# sub-groups are OpenCL C 3.0
	err=$("$HP" build $K/subgroups.cl -o "$tmp/x.hpk" 2>&1) && fail "sub-groups built as 1.2"
	"$HP" build -cl-std=CL3.0 $K/subgroups.cl -o "$tmp/sg.hpk" 2>/dev/null || fail "sub-groups as 3.0"
	printf '__kernel void k(read_only image2d_t i) { }\n' >"$tmp/img.cl"
	err=$("$HP" build "$tmp/img.cl" -o "$tmp/x.hpk" 2>&1) && fail "an image kernel built"
	grep -qi "image" <<<"$err" || fail "image: $err"
	# an error of LLVM's linker (a program defining a run-time function):
	# a build failure with LLVM's message in the log, not an ended process
	printf 'void __hpcl_run(void) { }\n__kernel void k(__global int *o) { o[0] = 1; }\n' >"$tmp/dup.cl"
	err=$("$HP" build "$tmp/dup.cl" -o "$tmp/x.hpk" 2>&1) && fail "a duplicate definition built"
	grep -q "HP_BUILD_PROGRAM_FAILURE" <<<"$err" || fail "no error name: $err"
	grep -q "error: .*__hpcl_run.*multiply defined" <<<"$err" || fail "no linker message: $err"
	# a failure is said once, with the code the build returns
	[ "$(grep -c "^hartpool: HP_" <<<"$err")" = 1 ] || fail "not said once: $err"
	err=$("$HP" build --board nosuch $K/cli.cl -o "$tmp/x.hpk" 2>&1) && fail "an unknown board built"
	[ "$(grep -c "^hartpool: HP_INVALID_VALUE: .*no board 'nosuch'" <<<"$err")" = 1 ] &&
		! grep -q HP_INVALID_BINARY <<<"$err" || fail "unknown board: $err"
	rm -rf "$tmp"
	echo "ok: build and its errors"
}

# The build cache: a second build of the same input is read from it (the
# same object, ELF and log); other options, another board or a changed
# source are built; HARTPOOL_CACHE=0 neither reads nor writes it; a build
# that fails is not kept.
# A kernel's stack (host/clc/stack.c): a barrier kernel with a 6 KiB
# private array gets a fiber stack that holds it and computes right (with
# the 1 KiB default it faulted at the guard); one without barriers and a
# 20 KiB array runs on the hart's 32 KiB kernel stack; one with a 40 KiB
# array is refused by the build, named, with the numbers.
cl_stack() { # BOARD
	local tmp out want
	tmp=$(mktemp -d)
	"$HP" build --board "$1" $K/stack.cl -o "$tmp/s.hpk" 2>"$tmp/log" &&
		fail "too_deep built on $1"
	grep -q "kernel too_deep needs [0-9]* bytes of stack .* which has 28672" "$tmp/log" ||
		fail "no named error: $(cat "$tmp/log")"
	grep -q "kernel \(deep\|wide\) " "$tmp/log" && fail "deep or wide refused: $(cat "$tmp/log")"
	"$HP" build --board "$1" -DFITS_ONLY $K/stack.cl -o "$tmp/d.hpk" 2>"$tmp/log" ||
		fail "build deep and wide: $(cat "$tmp/log")"
	out=$(cl_run "$1" --kernel-file "$tmp/d.hpk" deep --global 64 --local 16 \
		--karg buf:i32:64 --karg i32:5) || fail "run deep: $out"
	want=$(python3 -c 'print(" ".join(str(sum((i*13+5)%1536+l for i in range(0,1536,7))) for g in range(4) for l in range(16)))')
	grep -q "buf0 i32\[64\]: $want\$" <<<"$out" || fail "deep on $1: $out"
	out=$(cl_run "$1" --kernel-file "$tmp/d.hpk" wide --global 16 \
		--karg buf:i32:16 --karg i32:3) || fail "run wide: $out"
	want=$(python3 -c 'print(" ".join(str(sum((i*17+3)%5120+g for i in range(0,5120,11))) for g in range(16)))')
	grep -q "buf0 i32\[16\]: $want\$" <<<"$out" || fail "wide on $1: $out"
	rm -rf "$tmp"
}
# cl_both BOARD SRC DIR REMARK: SRC built as the build makes it (DIR/new.hpk,
# its log saying REMARK) and with -cl-hartpool-item-calls (DIR/item.hpk, a
# call or a fiber per work-item, no such remark).
cl_both() {
	"$HP" build --board "$1" -cl-std=CL3.0 "$2" -o "$3/new.hpk" 2>"$3/new.log" ||
		fail "build: $(cat "$3/new.log")"
	"$HP" build --board "$1" -cl-std=CL3.0 -cl-hartpool-item-calls "$2" \
		-o "$3/item.hpk" 2>"$3/item.log" || fail "build: $(cat "$3/item.log")"
	grep -q "$4" "$3/new.log" || fail "no '$4': $(cat "$3/new.log")"
	grep -q "${4#kernel * }" "$3/item.log" && fail "'$4' with -cl-hartpool-item-calls"
	return 0
}
# cl_same BOARD DIR KERNEL ARGS...: KERNEL run from both objects gives the
# same output (DIR/new.out).
cl_same() {
	local board=$1 dir=$2 e
	shift 2
	for e in new item; do
		cl_run "$board" --kernel-file "$dir/$e.hpk" "$@" >"$dir/$e.raw" ||
			fail "run ($e, $*): $(cat "$dir/$e.raw")"
		grep -v "^time:" "$dir/$e.raw" >"$dir/$e.out"
	done
	cmp -s "$dir/new.out" "$dir/item.out" ||
		fail "the two entries differ on $*: $(diff "$dir/new.out" "$dir/item.out" | head -5)"
}

# The row loop (host/clc/rowloop.c) against a call per work-item: the
# same bytes out in 1, 2 and 3 dimensions with remainder groups, and the
# ids the OpenCL model's; the build log says which entry each got.
cl_rowloop() { # BOARD
	local tmp r
	tmp=$(mktemp -d)
	cl_both "$1" $K/rowloop.cl "$tmp" "kernel ids3: one loop per row"
	for r in "37 1 1 8 1 1 5 0 0" "13 7 1 4 3 1 3 7 0" "9 5 4 4 2 3 1 2 3"; do
		set -- "$1" $r
		cl_same "$1" "$tmp" ids3 --global $2,$3,$4 --local $5,$6,$7 --offset $8,$9,${10} \
			--karg buf:u32:$((12 * $2 * $3 * $4)) --karg u32:2
		python3 $CHK ids3 ${@:2} 2 <"$tmp/new.out" || fail "ids3 $r on $1"
	done
	rm -rf "$tmp"
}
t_cli_rowloop_rv64() { cl_rowloop qemu-virt; }
t_cli_rowloop_rv32() { cl_rowloop qemu-virt32; }
# With V the code generator vectorises the loops (docs/vector.md).
t_cli_rowloop_v() { cl_rowloop qemu-virt-v; }

# Row loops across work-groups on a V board (hp_kernel.row_spans_groups):
# the kernels that read only global ids get the remark, those that read a
# group id or __local memory do not, and every shape gives the bytes a call
# per work-item gives (1-D with a remainder group and an offset, 2-D with
# rows of groups, 2-D with local Y > 1, which does not span).
t_cli_rowspan_v() {
	local tmp r g n
	tmp=$(mktemp -d)
	cl_both qemu-virt-v $K/rowspan.cl "$tmp" \
		"kernel span_ids: one loop per row, the body inlined, rows across work-groups"
	grep -q "kernel span_axpy: .*rows across work-groups" "$tmp/new.log" ||
		fail "span_axpy does not span: $(cat "$tmp/new.log")"
	grep "kernel nospan_.*rows across" "$tmp/new.log" &&
		fail "a kernel with group ids or __local spans: $(cat "$tmp/new.log")"
	for r in "1000 1 64 1 5 0" "4096 1 16 1 0 0" "37 3 8 1 2 1" "40 6 8 2 0 0"; do
		set -- $r
		n=$(($1 * $2))
		# 2 harts: one worker, chunks of many groups
		CL_HARTS=2 cl_same qemu-virt-v "$tmp" span_ids --global $1,$2 --local $3,$4 \
			--offset $5,$6 --karg buf:u32:$n
		python3 - "$tmp/new.out" $r <<'PY' || fail "span_ids $r: $(head -c 300 "$tmp/new.out")"
import re, sys
gx, gy, lx, ly, ox, oy = map(int, sys.argv[2:])
out = open(sys.argv[1]).read()
got = list(map(int, re.search(r"buf0 u32\[\d+\]: (.*)", out).group(1).split()))
want = [(ox + i + 7 * min(lx, gx - i // lx * lx) + 1000 * (-(-gx // lx)) + 100000 * (oy + j) +
         1000000 * ((j * gx + i) % 7)) % 2**32 for j in range(gy) for i in range(gx)]
sys.exit(got != want)
PY
		cl_same qemu-virt-v "$tmp" nospan_group --global $n --local $3 --karg buf:u32:$n
		cl_same qemu-virt-v "$tmp" nospan_local --global $n --local $3 --karg buf:u32:$n
	done
	for g in 1000 4099; do
		cl_same qemu-virt-v "$tmp" span_axpy --global $g --local 64 \
			--karg buf:f32:$g:rand --karg buf:f32:$g:rand --karg f32:1.5
	done
	rm -rf "$tmp"
}

# Sub-group functions in work-group functions (host/clc/wgsg.c) against
# fibers: every collective the lowering takes, for every type, with
# partial sub-groups, remainder groups, 2-D groups and several sub-group
# sizes; one under a branch that differs between sub-groups stays on
# fibers, named in the build log, and gives the same bytes too; the
# work-group collectives the same way in 1, 2 and 3 dimensions, and async
# copies (with their values); on V boards a region only sub-groups' first
# items run loops over them alone.
cl_sgwg() { # BOARD
	local tmp r
	tmp=$(mktemp -d)
	cl_both "$1" $K/sgwg.cl "$tmp" "kernel sg_all: a work-group function"
	grep -q "kernel sg_div: a fiber per work-item (a sub-group function under a branch" \
		"$tmp/new.log" || fail "sg_div: $(cat "$tmp/new.log")"
	for r in "96 1 24 1 8" "100 1 30 1 4" "12 10 6 5 16" "64 1 64 1 0" "7 3 7 3 2"; do
		set -- "$1" $r
		local sgs=()
		[ "$6" = 0 ] || sgs=(--sub-group-size "$6")
		cl_same "$1" "$tmp" sg_all --global $2,$3 --local $4,$5 "${sgs[@]}" \
			--karg buf:i64:$((40 * $2 * $3)) --karg buf:i32:$(($2 * $3)):rand
		cl_same "$1" "$tmp" sg_div --global $(($2 * $3)) --local $(($4 * $5)) "${sgs[@]}" \
			--karg buf:i32:$(($2 * $3))
		cl_same "$1" "$tmp" sg_first --global $2,$3 --local $4,$5 "${sgs[@]}" --karg buf:i32:1 \
			--karg buf:i32:$((2 * $2 * $3)):rand --karg buf:i32:$(($2 * $3)):rand
	done
	case $1 in *-v) grep -q "kernel sg_first: .*1 region for sub-groups' first items" \
		"$tmp/new.log" || fail "sg_first: $(cat "$tmp/new.log")" ;; esac
	grep -q "kernel wg_all: a work-group function" "$tmp/new.log" ||
		fail "wg_all: $(cat "$tmp/new.log")"
	for r in "47 1 1 10 1 1" "12 6 2 4 3 2" "9 4 3 3 4 3"; do
		set -- "$1" $r
		cl_same "$1" "$tmp" wg_all --global $2,$3,$4 --local $5,$6,$7 \
			--karg buf:i64:$((16 * $2 * $3 * $4)) --karg buf:i32:$(($2 * $3 * $4)):rand
	done
	grep -q "kernel wg_async: a work-group function" "$tmp/new.log" ||
		fail "wg_async: $(cat "$tmp/new.log")"
	for r in "30 4 6 5" "64 1 16 1" "7 9 7 2"; do
		set -- "$1" $r
		local m=$(($4 * $5)) ng=$(((($2 + $4 - 1) / $4) * (($3 + $5 - 1) / $5)))
		cl_same "$1" "$tmp" wg_async --global $2,$3 --local $4,$5 \
			--karg buf:i32:$((3 * m * ng)):rand --karg buf:i32:$((12 * m * ng)) \
			--karg local:$((12 * m)) --karg local:$((4 * m))
		python3 $CHK wg_async ${@:2} <"$tmp/new.out" || fail "wg_async $r on $1"
	done
	rm -rf "$tmp"
}
# cl_khr_subgroup_shuffle, _shuffle_relative and _clustered_reduce
# (kernels/opencl/sgext.cl) on fibers, against the model's values with
# partial sub-groups and remainder groups; the build log names the fibers.
cl_sgext() { # BOARD
	local tmp r out
	tmp=$(mktemp -d)
	"$HP" build --board "$1" -cl-std=CL3.0 $K/sgext.cl -o "$tmp/a.hpk" 2>"$tmp/log" ||
		fail "build: $(cat "$tmp/log")"
	grep -q "kernel sgext: a fiber per work-item (calls _Z" "$tmp/log" ||
		fail "sgext: $(cat "$tmp/log")"
	for r in "20 10 4" "64 32 8" "37 37 16" "48 48 0"; do
		set -- "$1" $r
		local sgs=() n=$4
		[ "$4" != 0 ] || n=$(timeout -k 5 120 "$HP" info --board "$1" --harts 1 --json |
			python3 -c 'import json,sys; print(json.load(sys.stdin)["default_sub_group_size"])') ||
			fail "info on $1"
		[ "$4" = 0 ] || sgs=(--sub-group-size "$4")
		out=$(cl_run "$1" --kernel-file "$tmp/a.hpk" sgext --global $2 --local $3 "${sgs[@]}" \
			--karg buf:i64:$((16 * $2)) --karg buf:i32:$2:rand) || fail "run: $out"
		python3 $CHK sgext $2 $3 $n <<<"$out" || fail "sgext $r on $1"
	done
	rm -rf "$tmp"
}
t_cli_sgext_rv64() { cl_sgext qemu-virt; }
t_cli_sgext_rv32() { cl_sgext qemu-virt32; }
t_cli_sgext_v() { cl_sgext qemu-virt-v; }

t_cli_sgwg_rv64() { cl_sgwg qemu-virt; }
t_cli_sgwg_rv32() { cl_sgwg qemu-virt32; }
t_cli_sgwg_v() { cl_sgwg qemu-virt-v; }

# Work-group functions (host/clc/wgfn.c) against fibers: the same bytes
# out in 1, 2 and 3 dimensions with remainder groups, the model's values,
# and a barrier only some items reach refused on both paths.
cl_wgfn() { # BOARD
	local tmp r e out
	tmp=$(mktemp -d)
	cl_both "$1" $K/wgfn.cl "$tmp" "kernel wg3: a work-group function"
	for r in "37 1 1 8 1 1" "13 7 1 4 3 1" "9 5 4 4 2 3"; do
		set -- "$1" $r
		cl_same "$1" "$tmp" wg3 --global $2,$3,$4 --local $5,$6,$7 \
			--karg buf:u32:$((2 * $2 * $3 * $4)) --karg u32:5
		python3 $CHK wg3 ${@:2} 5 <"$tmp/new.out" || fail "wg3 $r on $1"
	done
	for e in new item; do
		out=$(cl_run "$1" --kernel-file "$tmp/$e.hpk" diverge --global 16 --local 8 \
			--karg buf:u32:16 2>&1) && fail "divergent barriers ran ($e): $out"
		grep -q "HP_KERNEL_FAULT.*same barriers" <<<"$out" || fail "divergent barriers ($e): $out"
	done
	rm -rf "$tmp"
}
t_cli_wgfn_rv64() { cl_wgfn qemu-virt; }
t_cli_wgfn_rv32() { cl_wgfn qemu-virt32; }
t_cli_wgfn_v() { cl_wgfn qemu-virt-v; }

t_cli_stack_rv64() { cl_stack qemu-virt; }
t_cli_stack_rv32() { cl_stack qemu-virt32; }

t_cli_build_cache() {
	local tmp log
	tmp=$(mktemp -d)
	build() { XDG_CACHE_HOME="$tmp/c" "$HP" build "$@" 2>"$tmp/log"; }
	build $K/cli.cl -o "$tmp/a.hpk" || fail "build: $(cat "$tmp/log")"
	grep -q "from the build cache" "$tmp/log" && fail "first build from the cache"
	[ "$(ls "$tmp/c/hartpool/kernels" | grep -c '\.hpk$')" = 1 ] || fail "not kept: $(ls -R "$tmp/c")"
	build $K/cli.cl -o "$tmp/b.hpk" || fail "second build"
	grep -q "built 5 kernels, .* (from the build cache)" "$tmp/log" || fail "not cached: $(cat "$tmp/log")"
	cmp "$tmp/a.hpk" "$tmp/b.hpk" && cmp "$tmp/a.elf" "$tmp/b.elf" || fail "cached object differs"
	build -cl-opt-disable $K/cli.cl -o "$tmp/c.hpk" || fail "other options"
	grep -q "from the build cache" "$tmp/log" && fail "other options from the cache"
	build --board qemu-virt32 $K/cli.cl -o "$tmp/d.hpk" || fail "other board"
	grep -q "from the build cache" "$tmp/log" && fail "other board from the cache"
	{ cat $K/cli.cl; echo "// changed"; } >"$tmp/e.cl"
	build "$tmp/e.cl" -o "$tmp/e.hpk" || fail "changed source"
	grep -q "from the build cache" "$tmp/log" && fail "changed source from the cache"
	[ "$(ls "$tmp/c/hartpool/kernels" | grep -c '\.hpk$')" = 4 ] || fail "not 4 kept"
	HARTPOOL_CACHE=0 XDG_CACHE_HOME="$tmp/n" "$HP" build $K/cli.cl -o "$tmp/f.hpk" 2>"$tmp/log" ||
		fail "HARTPOOL_CACHE=0"
	[ ! -e "$tmp/n" ] || fail "HARTPOOL_CACHE=0 wrote $(ls -R "$tmp/n")"
	printf '__kernel void k(__global int *o) { o[0] = undeclared; }\n' >"$tmp/bad.cl"
	build "$tmp/bad.cl" -o "$tmp/bad.hpk" && fail "a bad kernel built"
	build "$tmp/bad.cl" -o "$tmp/bad.hpk" && fail "a bad kernel built from the cache"
	grep -q "undeclared" "$tmp/log" || fail "no compiler message the second time"
	[ "$(ls "$tmp/c/hartpool/kernels" | grep -c '\.hpk$')" = 4 ] || fail "a failed build kept"
	rm -rf "$tmp"
	echo "ok: the build cache"
}

# -cl-opt-disable: the pipeline's -O0 path (always-inliner only), run and checked.
t_cli_opt_disable() {
	local out
	out=$(cl_run qemu-virt --kernel-file $K/workgroup.cl --cl-options "-cl-std=CL3.0 -cl-opt-disable" \
		wg --global 47 --local 10 --karg buf:i32:376 --karg buf:f32:47) || fail "run: $out"
	python3 $CHK wg 47 10 <<<"$out" || fail "work-group collectives at -O0"
}

# A kernel name over the device table's 31 bytes: run by its OpenCL name.
t_cli_long_name() {
	local out name=a_kernel_name_that_is_longer_than_thirty_one_bytes
	printf '__kernel void %s(__global int *o) { o[get_global_id(0)] = (int)get_global_id(0) * 3; }\n' \
		"$name" >/tmp/hp-long-$$.cl
	out=$(cl_run qemu-virt --kernel-file /tmp/hp-long-$$.cl "$name" --global 8 --karg buf:i32:8) ||
		fail "run: $out"
	rm -f /tmp/hp-long-$$.cl
	grep -q "^buf0 i32\[8\]: 0 3 6 9 12 15 18 21" <<<"$out" || fail "results: $out"
	echo "ok: $name"
}

# Launch errors reach the host by name and the device keeps serving.
t_cli_launch_errors() {
	local err
	err=$(cl_run qemu-virt --kernel-file $K/cli.cl group_sum --global 512 --local 64 \
		--karg buf:i32:512 --karg buf:i32:8 --karg local:40000 2>&1) && fail "40000 B local accepted"
	grep -q "HP_OUT_OF_RESOURCES" <<<"$err" || fail "local: $err"
	printf '__kernel __attribute__((reqd_work_group_size(8,1,1))) void k(__global int *o) { o[get_global_id(0)] = 1; }\n' >/tmp/hp-reqd-$$.cl
	err=$(cl_run qemu-virt --kernel-file /tmp/hp-reqd-$$.cl k --global 64 --local 16 --karg buf:i32:64 2>&1) && fail "local 16 accepted"
	grep -q "HP_INVALID_WORK_GROUP_SIZE" <<<"$err" || fail "reqd: $err"
	cl_run qemu-virt --kernel-file /tmp/hp-reqd-$$.cl k --global 64 --karg buf:i32:64 >/dev/null || fail "reqd chosen size"
	rm -f /tmp/hp-reqd-$$.cl
	echo "ok: launch errors"
}

# Several devices (host/cli/split.c): `run --devices N` deals the range out
# in slabs of whole work-groups, one per device, each launched with its
# global offset; --check compares the whole gathered result.
cl_devices() { timeout -k 5 120 "$HP" "$@"; }

# cl_slabs N DIM GLOBAL < OUT: the report has one line per device, devices
# 0..N-1 in order, on N different devices, whose slabs of dimension DIM
# tile [0, GLOBAL) with no gap or overlap, each launched and OK.
cl_slabs() {
	python3 -c '
import re, sys
n, dim, g = map(int, sys.argv[1:4])
rows = [m.groups() for m in re.finditer(
    r"^device (\d+): \[(\d+), (\d+)\) of dimension (\d+): global (\S+) at offset "
    r"(\S+), (\d+) groups, .*: OK \((\S+)\)$", sys.stdin.read(), re.M)]
assert len(rows) == n, f"{len(rows)} device lines, expected {n}"
at = 0
for k, (dev, lo, hi, d, glob, off, groups, conn) in enumerate(rows):
    lo, hi = int(lo), int(hi)
    assert int(dev) == k and int(d) == dim, f"device {dev} dimension {d}"
    assert lo == at and hi > lo, f"device {k}: [{lo}, {hi}) after {at}"
    assert int(glob.split("x")[dim]) == hi - lo, f"device {k}: global {glob}"
    assert int(off.split(",")[dim]) == lo, f"device {k}: offset {off}"
    assert int(groups) > 0
    at = hi
assert at == g, f"the slabs end at {at}, not {g}"
assert len({r[7] for r in rows}) == n, "devices share a connect string"
' "$@"
}

t_cli_devices2() {
	local out
	out=$(cl_devices run sgemm_naive --devices 2 --harts 2 --check 2>&1) || fail "run: $out"
	grep -q "^run sgemm_naive: global 29x37 on 2 devices, slabs of dimension 1: OK$" <<<"$out" ||
		fail "no summary line: $out"
	# rows [0, 24) and [24, 37): whole 8-row groups, the remainder last
	grep -q "^device 0: \[0, 24) of dimension 1: global 29x24 at offset 0,0, 12 groups" <<<"$out" ||
		fail "device 0's slab: $out"
	grep -q "^device 1: \[24, 37) of dimension 1: global 29x13 at offset 0,24, 8 groups" <<<"$out" ||
		fail "device 1's slab: $out"
	cl_slabs 2 1 37 <<<"$out" || fail "slabs: $out"
	grep -q "^check: OK (1073 values)$" <<<"$out" || fail "not all of C (29 x 37) compared: $out"
	# vadd indexes by linear id (its buffers move with the slab), 1-D
	out=$(cl_devices run vadd --devices 2 --harts 2 --check 2>&1) || fail "vadd: $out"
	cl_slabs 2 0 1000 <<<"$out" || fail "vadd slabs: $out"
	grep -q "^check: OK (1000 values)$" <<<"$out" || fail "vadd: $out"
	echo "ok: sgemm_naive and vadd on 2 devices"
}

t_cli_devices4() {
	local out k
	out=$(cl_devices run sgemm_naive --devices 4 --harts 1 --check 2>&1) || fail "run: $out"
	cl_slabs 4 1 37 <<<"$out" || fail "slabs: $out"
	grep -q "^check: OK (1073 values)$" <<<"$out" || fail "sgemm_naive: $out"
	# transpose is cut along dimension 0 (a column slab of in is a row slab of
	# out), saxpy updates its y in place once per --repeat
	out=$(cl_devices run transpose --devices 4 --harts 1 --check 2>&1) || fail "transpose: $out"
	cl_slabs 4 0 37 <<<"$out" || fail "transpose slabs: $out"
	grep -q "^check: OK (1073 values)$" <<<"$out" || fail "transpose: $out"
	out=$(cl_devices run saxpy --devices 4 --harts 1 --repeat 3 --check --json 2>&1) ||
		fail "saxpy: $out"
	k=$(python3 -c 'import json, sys; r = json.load(sys.stdin)
print(r["check"], r["compared"], [s["range"] for s in r["slabs"]])' <<<"$out") || fail "json: $out"
	[ "$k" = "OK 1000 [[0, 256], [256, 512], [512, 768], [768, 1000]]" ] || fail "saxpy: $k"
	echo "ok: sgemm_naive, transpose and saxpy on 4 devices"
}

t_cli_devices_bad() {
	local conn err rc n missing=shm:/dev/shm/hartpool-missing-$$ bad=/tmp/hp-notadevice-$$
	conn=$(cl_devices up --harts 2 2>/dev/null | tail -1) || fail "hartpool up"
	trap '"$HP" down --connect "$conn" >/dev/null 2>&1; rm -f "$bad"' RETURN
	err=$(cl_devices run vadd --connect "$conn" --connect "$missing" --check 2>&1)
	rc=$?
	[ $rc = 1 ] || fail "exit status $rc with a missing device: $err"
	grep -q "HP_DEVICE_NOT_FOUND: device 1 of 2 (--connect $missing)" <<<"$err" ||
		fail "missing device not named: $err"
	head -c 4096 /dev/urandom >"$bad"
	err=$(cl_devices info --connect "shm:$bad" --connect "$conn" 2>&1)
	rc=$?
	[ $rc = 1 ] || fail "exit status $rc with a file that is no device: $err"
	grep -q "HP_DEVICE_NOT_FOUND: device 0 of 2 (--connect shm:$bad)" <<<"$err" ||
		fail "not a device, not named: $err"
	err=$(cl_devices run vadd --devices 2 --board no-such-board 2>&1) && fail "a board that does not exist"
	grep -q "device 0 of 2 (booting no-such-board)" <<<"$err" || fail "boot failure: $err"
	# the device of the list that was there still serves
	cl_devices info --connect "$conn" | grep -q "^harts: 2$" || fail "$conn after the failures"
	for n in 0 99 x; do
		err=$(cl_devices run vadd --devices $n 2>&1) && fail "--devices $n accepted"
		grep -q "HP_INVALID_VALUE: --devices wants 1..16, not '$n'" <<<"$err" || fail "--devices $n: $err"
	done
	err=$(cl_devices run vadd --devices 3 --connect "$conn" 2>&1) && fail "3 devices, 1 --connect"
	grep -q "HP_INVALID_VALUE: --devices 3 with 1 --connect" <<<"$err" || fail "count: $err"
	err=$(cl_devices kernels --connect "$conn" --connect "$conn" 2>&1) && fail "kernels on 2 devices"
	grep -q "HP_INVALID_VALUE: kernels takes one device" <<<"$err" || fail "kernels: $err"
	err=$(cl_devices run reduce_wg --connect "$conn" --connect "$conn" 2>&1) && fail "reduce_wg split"
	grep -q "HP_INVALID_KERNEL: run: --devices 2: kernel 'reduce_wg' can't be split over devices: it runs as a sequence" <<<"$err" ||
		fail "reduce_wg: $err"
	err=$(cl_devices run histogram --connect "$conn" --connect "$conn" 2>&1) && fail "histogram split"
	grep -q "kernel 'histogram' can't be split over devices: its outputs are not rows" <<<"$err" ||
		fail "histogram: $err"
	err=$(cl_devices run sgemm_naive --connect "$conn" --connect "$conn" --connect "$conn" \
		--global 29,8 --local 8,8 2>&1) && fail "3 devices for 1 group"
	grep -q "only 1 work-groups along dimension 1 (global 8, local 8)" <<<"$err" || fail "groups: $err"
	echo "ok: bad device lists named"
}

t_cli_info_devices() {
	local out
	out=$(cl_devices info --devices 2 --harts 2) || fail "info: $out"
	[ "$(grep -c '^device [01] of 2: shm:' <<<"$out")" = 2 ] || fail "devices: $out"
	[ "$(grep -c '^harts: 2$' <<<"$out")" = 2 ] || fail "harts: $out"
	[ "$(grep '^connect: ' <<<"$out" | sort -u | wc -l)" = 2 ] || fail "one device twice: $out"
	out=$(cl_devices info --devices 2 --harts 2 --json) || fail "info --json: $out"
	python3 -c 'import json, sys; d = json.load(sys.stdin)["devices"]
assert len(d) == 2 and d[0]["connect"] != d[1]["connect"] and d[1]["harts"] == 2' <<<"$out" ||
		fail "json: $out"
	echo "ok: info on 2 devices"
}
