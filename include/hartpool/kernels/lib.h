/* SPDX-License-Identifier: MIT */
/*
 * The argument blocks of every library kernel (docs/kernels.md): in the
 * source tree, the header make generates from kernels/kernels.mk
 * (scripts/gen-kernels: kernels/lib_util.h and every kernels/<name>/args.h,
 * into build/gen/), so that -Iinclude alone finds it, as `hartpool build`
 * does; `make install` installs the generated header in this one's place.
 */
#include "../../../build/gen/hartpool/kernels/lib.h"
