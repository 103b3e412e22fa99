# shellcheck shell=bash
# The boards as data (host/boards, docs/design.md 57): `hartpool build` of
# a C kernel and of an OpenCL C program for every board in board/ (but the
# template), board.mk files that include another's too; a board name that
# is not one is HP_INVALID_VALUE with the boards named, for build, run and
# up. Sourced by tests/opencl/opencl.sh (fail, HP). Needs `make opencl`.

boards_expect_invalid() { # WHAT CMD...: HP_INVALID_VALUE naming the boards
	local what=$1 err rc
	shift
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = 1 ] || fail "$what: exited $rc, expected 1: $err"
	grep -q "HP_INVALID_VALUE" <<<"$err" || fail "$what: not HP_INVALID_VALUE: $err"
	grep -q "qemu-virt-sbi" <<<"$err" && grep -q "milkv-pioneer" <<<"$err" ||
		fail "$what: the boards are not named: $err"
	echo "ok: $what -> $err"
}

t_boards_build() {
	local tmp b n=0 out
	tmp=$(mktemp -d /tmp/hp-boards-build-XXXXXX)
	for b in $(cd board && ls -d */ | tr -d / | grep -v '^template$'); do
		out=$("$HP" build --board "$b" examples/hello.c -o "$tmp/$b-hello.hpk" 2>&1) ||
			{ rm -rf "$tmp"; fail "$b: build examples/hello.c: $out"; }
		out=$("$HP" build --board "$b" examples/opencl/saxpy.cl -o "$tmp/$b-saxpy.hpk" 2>&1) ||
			{ rm -rf "$tmp"; fail "$b: build examples/opencl/saxpy.cl: $out"; }
		[ -s "$tmp/$b-hello.hpk" ] && [ -s "$tmp/$b-saxpy.hpk" ] || fail "$b: no objects"
		echo "ok: $b: hello.c and saxpy.cl built"
		n=$((n + 1))
	done
	rm -rf "$tmp"
	[ "$n" -ge 12 ] || fail "only $n boards"
	boards_expect_invalid "build --board nope (C)" \
		"$HP" build --board nope examples/hello.c -o /tmp/hp-nope.hpk
	boards_expect_invalid "build --board nope (OpenCL C)" \
		"$HP" build --board nope examples/opencl/saxpy.cl -o /tmp/hp-nope.hpk
	boards_expect_invalid "run --board nope" "$HP" run vadd --check --board nope
	boards_expect_invalid "up --board nope" "$HP" up --board nope
	# A board QEMU does not model: no device to boot, said so.
	out=$("$HP" run vadd --board k210 2>&1 >/dev/null)
	[ $? = 1 ] && grep -q "HP_INVALID_VALUE.*QEMU" <<<"$out" || fail "run --board k210: $out"
	echo "ok: run --board k210 -> $out"
}
