#!/usr/bin/env bash
# The layering check's own test (tests/run.sh, tier "layers").
#
# tests/layers/tree/ is a tiny planted tree with hartpool's folders (never
# compiled: only its #include lines matter). The check must pass on it as it
# is (includes in comments do not count), and fail, naming the file, the
# include and the rule or the circle, on copies with one thing planted:
# a cycle between two modules, a longer cycle through headers, the portable
# core including firmware-only code and board code, the HAL including the
# core, host code including firmware-only code, the kernel compiler
# including the CLI (through the include root of an objects.mk below a
# folder named build), a library kernel's device code including host code
# (its workload.c may), an e2e program including firmware code, a folder
# with no rule. Then the same on a copy of the real
# tree: a planted wrong-way include and a planted cycle are found there too
# (whatever else the real tree has).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
check=$root/scripts/check-layers
tmp=$(mktemp -d /tmp/hp-layers-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
n=0

fail() {
	echo "FAIL: $*"
	exit 1
}

# fresh: a clean copy of the planted tree in $t.
fresh() {
	n=$((n + 1))
	t=$tmp/tree-$n
	cp -r "$root/tests/layers/tree" "$t"
}

# expect STATUS PATTERN...: run the check on $t (with --objects $objs when
# $objs is set); its status must be STATUS and its output must have a line
# matching each (fixed-string) PATTERN.
objs=""
expect() {
	local want=$1 out rc p
	shift
	out=$("$check" ${objs:+--objects "$objs"} "$t" 2>&1)
	rc=$?
	[ "$rc" = "$want" ] || fail "$what: exit status $rc, expected $want:"$'\n'"$out"
	for p in "$@"; do
		grep -qF -- "$p" <<<"$out" || fail "$what: no line with '$p':"$'\n'"$out"
	done
	echo "ok: $what"
	if [ "$want" != 0 ]; then
		mapfile -t lines <<<"$out"
		printf '    | %s\n' "${lines[@]}"
	fi
}

what="the clean planted tree passes"
fresh
expect 0 "check-layers: OK"

what="a cycle between two modules (executor/pool.c includes cmd.h, cmd.c includes pool.h)"
fresh
echo '#include "cmd.h"' >>"$t/executor/pool.c"
expect 1 "include cycle: executor/cmd -> executor/pool -> executor/cmd" \
	'executor/pool -> executor/cmd: executor/pool.c:5: #include "cmd.h"' \
	'executor/cmd -> executor/pool: executor/cmd.c:3: #include "pool.h"'

what="a cycle of three modules through headers"
fresh
echo '#include "wg.h"' >>"$t/executor/pool.h"
echo '#include "kctx.h"' >"$t/executor/wg.h"
echo '#include "pool.h"' >"$t/executor/kctx.h"
expect 1 "include cycle: executor/kctx -> executor/pool -> executor/wg -> executor/kctx" \
	'executor/pool -> executor/wg: executor/pool.h:3: #include "wg.h"'

what="the portable core includes firmware-only code"
fresh
echo '#include <firmware/trap.h>' >>"$t/executor/pool.c"
expect 1 "wrong way: executor/pool.c:5: #include <firmware/trap.h> (firmware/trap.h): executor may not include firmware" \
	"check-layers: FAIL: 1 wrong-way includes, 0 include cycles"

what="the portable core includes the board"
fresh
echo '#include <board.h>' >>"$t/executor/cmd.c"
expect 1 "wrong way: executor/cmd.c:5: #include <board.h> (board/demo/board.h): executor may not include board"

what="the HAL includes the core"
fresh
echo '#include <executor/exec.h>' >>"$t/hal/ipi.c"
expect 1 "wrong way: hal/ipi.c:3: #include <executor/exec.h> (executor/exec.h): hal may not include executor"

what="the HAL interface includes the board"
fresh
echo '#include <board.h>' >>"$t/hal/include/hal/ipi.h"
expect 1 "wrong way: hal/include/hal/ipi.h:4: #include <board.h> (board/demo/board.h): hal/include may not include board"

what="host code includes firmware-only code and the core"
fresh
printf '#include <kernels/fault.c>\n#include "../../executor/exec.h"\n' >>"$t/host/lib/device.c"
expect 1 "wrong way: host/lib/device.c:3: #include <kernels/fault.c> (kernels/fault.c): host/lib may not include kernels/fault.c" \
	'wrong way: host/lib/device.c:4: #include "../../executor/exec.h" (executor/exec.h): host/lib may not include executor'

what="a library kernel's device code includes host code, its arguments the core"
fresh
mkdir -p "$t/kernels/demo"
printf '#include "args.h"\n#include <host/lib/device.c>\n' >"$t/kernels/demo/kernel.c"
echo '#include <executor/exec.h>' >"$t/kernels/demo/args.h"
printf '#include "args.h"\n#include <hartpool.h>\n' >"$t/kernels/demo/workload.c"
expect 1 "wrong way: kernels/demo/kernel.c:2: #include <host/lib/device.c> (host/lib/device.c): kernels may not include host/lib" \
	"wrong way: kernels/demo/args.h:1: #include <executor/exec.h> (executor/exec.h): kernels/*/args.h may not include executor"
out=$("$check" "$t" 2>&1)
[[ $out != *"kernels/demo/workload.c"* ]] || fail "$what: the workload's host includes were refused: $out"

what="a library kernel's workload (host code) includes the core"
fresh
mkdir -p "$t/kernels/demo"
printf '#include <hartpool.h>\n#include <executor/exec.h>\n' >"$t/kernels/demo/workload.c"
expect 1 "wrong way: kernels/demo/workload.c:2: #include <executor/exec.h> (executor/exec.h): kernels/*/workload.c may not include executor"

what="the device library includes the ICD"
fresh
mkdir -p "$t/host/icd"
echo '#include <hartpool.h>' >"$t/host/icd/icd.h"
echo '#include "../icd/icd.h"' >>"$t/host/lib/device.c"
expect 1 'wrong way: host/lib/device.c:3: #include "../icd/icd.h" (host/icd/icd.h): host/lib may not include host/icd'

what="the kernel compiler includes the CLI, through a root of an objects.mk below a folder named build"
fresh
mkdir -p "$t/host/clc/build" "$t/host/cli"
echo '#include <hartpool.h>' >"$t/host/cli/cli.h"
echo 'x-cflags := -Ihost/cli' >"$t/host/clc/build/objects.mk"
printf '#include <hartpool.h>\n#include <cli.h>\n' >"$t/host/clc/job.c"
expect 1 "wrong way: host/clc/job.c:2: #include <cli.h> (host/cli/cli.h): host/clc may not include host/cli"

# Calls: objects built from planted host files (their includes are fine,
# their calls are not), checked with --objects.
compile() { # SRC...: compile each into $objs/<its path>.o
	local f
	for f in "$@"; do
		mkdir -p "$objs/$(dirname "$f")"
		cc -c -o "$objs/$f.o" "$t/$f" || fail "$what: cc $f"
	done
}

what="a call cycle between two files of the device library"
fresh
objs=$tmp/objs-$n
printf 'int lib_b(int);
int lib_a(int x) { return x ? lib_b(x - 1) : 0; }
' >"$t/host/lib/a.c"
printf 'int lib_a(int);
int lib_b(int x) { return x ? lib_a(x - 1) : 1; }
' >"$t/host/lib/b.c"
compile host/lib/a.c host/lib/b.c
expect 1 "call cycle: host/lib/a.c -> host/lib/b.c -> host/lib/a.c" \
	"host/lib/a.c -> host/lib/b.c: lib_b" "host/lib/b.c -> host/lib/a.c: lib_a" "1 call cycles"

what="the device library calls the CLI"
fresh
objs=$tmp/objs-$n
mkdir -p "$t/host/cli"
printf 'int cli_thing(void) { return 1; }
' >"$t/host/cli/x.c"
printf 'int cli_thing(void);
int lib_c(void) { return cli_thing(); }
' >"$t/host/lib/c.c"
compile host/cli/x.c host/lib/c.c
expect 1 "wrong way: host/lib/c.c calls host/cli/x.c (cli_thing): host/lib may not use host/cli"

what="calls that go down only pass"
fresh
objs=$tmp/objs-$n
printf 'int lib_d(void) { return 2; }
' >"$t/host/lib/d.c"
printf 'int lib_d(void);
int cli_main(void) { return lib_d(); }
' >"$t/host/cli/y.c"
compile host/lib/d.c host/cli/y.c
expect 0 "check-layers: OK" "1 calls between files, 0 wrong-way calls, 0 call cycles"
objs=""

what="an e2e program includes firmware code"
fresh
echo '#include <firmware/trap.h>' >>"$t/tests/e2e/test_x.c"
expect 1 "wrong way: tests/e2e/test_x.c:3: #include <firmware/trap.h> (firmware/trap.h): tests/e2e may not include firmware"

what="a folder without a rule"
fresh
mkdir "$t/core"
echo '#include <hartpool/api.h>' >"$t/core/x.c"
expect 1 "check-layers: core/: no layer rule for this folder"

# The real tree, copied (its C sources and the Makefile's include roots).
what="a wrong-way include and a cycle planted in a copy of the real tree"
t=$tmp/real
mkdir "$t"
(cd "$root" && git ls-files --cached --others --exclude-standard '*.c' '*.h' '*.S' Makefile '*objects.mk' |
	while read -r f; do [ -f "$f" ] && echo "$f"; done | xargs cp --parents -t "$t") || fail "copying the tree"
first() { (cd "$t" && find "$1" -maxdepth 1 -name "$2" | sort | head -1); }
core=$(first executor '*.c') fw=$(first firmware '*.c') hdr=$(first executor '*.h')
if [ -z "$core" ] || [ -z "$fw" ] || [ -z "$hdr" ]; then
	fail "no executor/*.c, executor/*.h or firmware/*.c in the tree"
fi
echo "#include <$fw>" >>"$t/$core"
line=$(wc -l <"$t/$core")
printf '#include "%s"\n' "$(basename "$hdr")" >"$t/executor/planted.h"
echo '#include "planted.h"' >>"$t/$hdr"
hmod=${hdr%.h}
expect 1 "wrong way: $core:$line: #include <$fw> ($fw): executor may not include firmware" \
	"include cycle: " "$hmod -> executor/planted" "executor/planted -> $hmod: executor/planted.h:1: #include \"$(basename "$hdr")\""

# scripts/check-sizes: a file over 700 lines, a function over 100 lines,
# and the two that pass (exactly 100 lines; a table of cases marked so).
what="sizes: limits"
sz=$tmp/sizes
mkdir -p "$sz/ok" "$sz/long" "$sz/table" "$sz/file"
body() { awk -v n="$2" -v name="$1" 'BEGIN { print "int " name "(void)"; print "{"; for (i = 0; i < n; i++) print "\tstep();"; print "}" }'; }
body ok 100 >"$sz/ok/a.c"
body long 101 >"$sz/long/a.c"
{ echo '/* check-sizes: a table of cases */'; body table 150; } >"$sz/table/a.c"
for i in 1 2 3 4 5 6 7 8; do body "f$i" 85; done >"$sz/file/a.c"
out=$("$root/scripts/check-sizes" "$sz/ok" "$sz/table") || fail "check-sizes refused 100 lines or a marked table: $out"
out=$("$root/scripts/check-sizes" "$sz/long") && fail "check-sizes let a 101-line function pass"
case $out in *"long() has 101 lines"*) ;; *) fail "check-sizes did not name long(): $out" ;; esac
out=$("$root/scripts/check-sizes" "$sz/file") && fail "check-sizes let a 704-line file pass"
case $out in *"704 lines (at most 700)"*) ;; *) fail "check-sizes did not name the file: $out" ;; esac
n=$((n + 4))

echo "layers self-test: $n planted trees and the real one: every check behaved"
