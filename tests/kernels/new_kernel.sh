#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A library kernel is one folder and one line (docs/kernels.md): in a copy
# of the tree (tracked and new files, no build/), add kernels/twice/
# (kernel.c, args.h, workload.c) and `kernels-y += twice` to
# kernels/kernels.mk, nothing else; build the firmware and the CLI, and
# check that <hartpool/kernels/lib.h> has its argument block, that the
# firmware has the kernel (`hartpool kernels`), that the CLI has its
# workload (`run --list`) and that `run twice --check` passes
# against its host reference. Then the control: the same kernel made wrong
# must fail its check, so the test can fail.
#
#   tests/kernels/new_kernel.sh [--keep]     (about 2 minutes on 2 cores)
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
jobs=${HP_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
tree=$(mktemp -d "${TMPDIR:-/tmp}/hp-new-kernel.XXXXXX")
[ "${1:-}" = --keep ] || trap 'rm -rf "$tree"' EXIT
fail() {
	echo "new_kernel: FAIL: $*"
	exit 1
}

(cd "$root" && git ls-files --cached --others --exclude-standard -z |
	grep -zv '^build/' | while IFS= read -r -d '' f; do
		[ -e "$f" ] && printf '%s\0' "$f"
	done | tar --null -T - -cf - | tar -C "$tree" -xf -) || fail "cannot copy the tree"
[ ! -e "$tree/kernels/twice" ] || fail "kernels/twice/ is there already"

mkdir "$tree/kernels/twice"
cat >"$tree/kernels/twice/args.h" <<'C'
/* SPDX-License-Identifier: MIT */
/* twice: out[i] = 2 * in[i] + 1 (uint32) for i < n, a 1-D range. */
#ifndef KERNELS_TWICE_ARGS_H
#define KERNELS_TWICE_ARGS_H

#include <stdint.h>

typedef struct {
	uint64_t in, out; /**< uint32_t[n] */
	uint64_t n;
} hp_twice_args;

#endif
C
cat >"$tree/kernels/twice/kernel.c" <<'C'
// SPDX-License-Identifier: MIT
#include "args.h"
#include <hartpool/kernel.h>
#include <stddef.h>

HP_KERNEL(twice, const hp_item *it, const void *args)
{
	const hp_twice_args *a = args;
	size_t i = hp_global_id(it, 0);
	if (i < a->n)
		((uint32_t *)(uintptr_t)a->out)[i] =
			2 * ((const uint32_t *)(uintptr_t)a->in)[i] + 1;
}
HP_REGISTER(twice, .args_size = sizeof(hp_twice_args),
	    HP_BUFFERS(HP_BUF(hp_twice_args, in, uint32_t, ARG,
			      offsetof(hp_twice_args, n)),
		       HP_BUF(hp_twice_args, out, uint32_t, ARG,
			      offsetof(hp_twice_args, n))));
C
cat >"$tree/kernels/twice/workload.c" <<'C'
// SPDX-License-Identifier: MIT
#include "args.h"
#include <host/workloads/lib_common.h>

static int twice_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_twice_args *a = args;
	RANGE(c, 1, 1000, 1, 64, 1);
	NEED_1D(c);
	a->n = wl_dim(c, 0);
	NEED_BUF(c, a->n * sizeof(uint32_t), &a->in);
	NEED_BUF(c, a->n * sizeof(uint32_t), &a->out);
	uint32_t *in = c->host[0];
	for (uint64_t i = 0; i < a->n; i++)
		in[i] = (uint32_t)wl_rnd(c, i, 1);
	*size = sizeof(*a);
	return workload_upload(c, 0);
}

static int twice_check(workload_ctx *c)
{
	uint64_t n = wl_dim(c, 0);
	const uint32_t *in = c->host[0];
	uint32_t *out = c->host[1];
	int rc = workload_download(c, 1, out, n * sizeof(uint32_t));
	for (uint64_t i = 0; !rc && i < n; i++)
		rc = wl_icheck(c, "element", i, out[i], 2 * in[i] + 1);
	c->compared = n;
	return rc;
}

const workload workload_twice = {
	.name = "twice",
	.help = "out = 2 in + 1, uint32 (1000, local 64); exact",
	.prepare = twice_prepare,
	.check = twice_check,
};
C
echo "kernels-y += twice" >>"$tree/kernels/kernels.mk"

cd "$tree" || fail "no tree"
make -s -j"$jobs" hartpool >build.log 2>&1 || { tail -20 build.log; fail "make hartpool"; }
hp=build/host/hartpool
echo '#include <hartpool/kernels/lib.h>
hp_twice_args a;' | gcc -fsyntax-only -Iinclude -x c - ||
	fail "<hartpool/kernels/lib.h> does not collect hp_twice_args"
"$hp" run --list | grep -q '^twice ' || fail "twice is not in run --list"
"$hp" run --list | tail -n +2 | awk '{print $1}' | grep -qx twice ||
	fail "twice is not a workload"
out=$(timeout 120 "$hp" kernels 2>&1) || { echo "$out"; fail "hartpool kernels"; }
echo "$out" | grep -q '^twice ' || { echo "$out"; fail "the firmware has no kernel twice"; }
out=$(timeout 120 "$hp" run twice --check 2>&1) || { echo "$out"; fail "run twice --check"; }
echo "$out" | grep -q '^run twice: global 1000, local 64, 16 groups: OK' ||
	{ echo "$out"; fail "run twice --check said no OK"; }
out=$(timeout 120 "$hp" run twice --global 4097 --check 2>&1) ||
	{ echo "$out"; fail "run twice --global 4097 --check"; }
echo "new_kernel: twice built into the firmware and run as a workload: OK"

# The control: a wrong kernel must fail its check.
sed -i 's/2 \* ((const uint32_t/3 * ((const uint32_t/' kernels/twice/kernel.c
make -s -j"$jobs" hartpool >build2.log 2>&1 || { tail -20 build2.log; fail "make hartpool (wrong kernel)"; }
if out=$(timeout 120 "$hp" run twice --check 2>&1); then
	echo "$out"
	fail "a wrong twice passed its check"
fi
echo "$out" | grep -q 'twice' || { echo "$out"; fail "the wrong kernel's failure does not name it"; }
echo "new_kernel: a wrong twice fails its check: OK"
