// SPDX-License-Identifier: MIT
/*
 * The link stage of a kernel object and `hartpool build` of C sources:
 *
 * 1. Compile each source with the RISC-V cross compiler for the board
 *    (its -march/-mabi from the board table, hartpool_boards.h; clang-19
 *    on a board with V, whose vector code GCC 12 cannot make),
 * -mcmodel=medany (every reference PC-relative), -mno-relax (no gp-relative
 * accesses: gp is the firmware's), -DHP_KERNEL_OBJECT (API calls through the
 * table).
 * 2. Link at address 0 with linker/object.ld, picolibc and libgcc, keeping
 *    the relocations (--emit-relocs). That ELF is kept next to the object
 *    (NAME.elf) for gdb: `add-symbol-file NAME.elf -o LOAD_ADDRESS`.
 * 3. Convert (package.c).
 */
#define _GNU_SOURCE
#include "objlink.h"
#include "fail.h"
#include "options.h"
#include "package.h"
#include "tools.h"
#include <elf.h>
#include <errno.h>
#include <hartpool/api.h>
#include <hartpool/error.h>
#include <hartpool/frame.h>
#include <hartpool/kernel.h>
#include <hartpool/object.h>
#include <hartpool_cl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int clc_link(clc_log *l, const clc_board *b, const char *const *objs,
	     unsigned n, const char *elfout)
{
	char mlibarch[80], mabi[48], ld[1100];
	snprintf(mlibarch, sizeof(mlibarch), "-march=%s", b->libarch);
	snprintf(mabi, sizeof(mabi), "-mabi=%s", b->abi);
	/* -T itself (not -Wl,-T): picolibc.specs adds its own script
	 * unless the driver sees one. */
	snprintf(ld, sizeof(ld), "%s/linker/object.ld", clc_root());
	if (n > 64)
		return clc_fail(l, HP_INVALID_VALUE, "too many objects");
	const char *lk[96] = {"riscv64-unknown-elf-gcc",
			      mlibarch,
			      mabi,
			      "--specs=picolibc.specs",
			      "-nostartfiles",
			      "-static",
			      "-Wl,--emit-relocs",
			      "-Wl,--no-relax",
			      "-Wl,--no-warn-rwx-segments",
			      "-Wl,--gc-sections",
			      "-Wl,-e,0",
			      "-T",
			      ld,
			      "-o",
			      elfout};
	unsigned k = 15;
	for (unsigned i = 0; i < n; i++)
		lk[k++] = objs[i];
	lk[k++] = "-lm";
	lk[k++] = "-lc";
	lk[k++] = "-lgcc";
	lk[k] = NULL;
	return clc_run(l, (char *const *)lk)
		       ? clc_fail(l, HP_BUILD_PROGRAM_FAILURE,
				  "linking %s failed", elfout)
		       : 0;
}

/* picolibc's headers (Debian's picolibc-riscv64-unknown-elf), for clang. */
#define CLC_PICOLIBC_INC "/usr/lib/picolibc/riscv64-unknown-elf/include"

/* OUT.hpk -> OUT.elf (else OUT.elf appended). */
static void elf_path(const char *out, char *elfout, size_t n)
{
	size_t ol = strlen(out);
	if (ol > 4 && !strcmp(out + ol - 4, ".hpk"))
		snprintf(elfout, n, "%.*s.elf", (int)(ol - 4), out);
	else
		snprintf(elfout, n, "%s.elf", out);
}

int clc_build_c(const char *board, const char *const *srcs, unsigned ns,
		const char *const *extra, unsigned ne, const char *opt,
		const char *out)
{
	clc_log *l = NULL; /* said on stderr */
	clc_board b;
	int rc = clc_board_get(l, board, &b);
	if (rc)
		return rc;
	if (ns > 64 || ne > 64)
		return clc_fail(l, HP_INVALID_VALUE,
				"too many sources or options");
	char tmp[] = "/tmp/hartpool-build-XXXXXX";
	if (!mkdtemp(tmp))
		return clc_fail(l, HP_OUT_OF_RESOURCES, "mkdtemp: %s",
				strerror(errno));
	char march[80], mabi[48], inc[1100], elfout[1100];
	snprintf(march, sizeof(march), "-march=%s", b.arch);
	snprintf(mabi, sizeof(mabi), "-mabi=%s", b.abi);
	snprintf(inc, sizeof(inc), "-I%s/include", clc_root());
	elf_path(out, elfout, sizeof(elfout));

	/* With V, clang: GCC 12 emits no vector code and has no RVV
	 * intrinsics (docs/vector.md). */
	const char *clang = NULL;
	char target[48];
	snprintf(target, sizeof(target), "--target=riscv%u-unknown-elf",
		 b.xlen);
	if (clc_board_vector(&b) && !(clang = hp_cl_compiler()))
		rc = clc_fail(l, HP_COMPILER_NOT_AVAILABLE,
			      "board %s has V: C kernels are built with "
			      "clang-19 (install clang-19; HP_CLANG names "
			      "another)",
			      board);
	static __thread char objs[64][1200];
	const char *objp[64];
	for (unsigned i = 0; i < ns && !rc; i++) {
		snprintf(objs[i], sizeof(objs[i]), "%s/%u.o", tmp, i);
		objp[i] = objs[i];
		const char *cc[160] = {"riscv64-unknown-elf-gcc",
				       march,
				       mabi,
				       "-mcmodel=medany",
				       "-mno-relax",
				       "--specs=picolibc.specs",
				       opt,
				       "-g",
				       "-std=gnu11",
				       "-Wall",
				       "-Wextra",
				       "-ffunction-sections",
				       "-fdata-sections",
				       "-fno-common",
				       "-fno-jump-tables",
				       "-DHP_KERNEL_OBJECT",
				       inc};
		unsigned n = 17;
		if (clang) {
			/* the same flags; picolibc's headers by path (no specs
			 * in clang) */
			cc[0] = clang;
			cc[5] = target;
			/* DWARF 5's ULEB128 relocations are past
			 * binutils 2.40's ld */
			cc[7] = "-gdwarf-4";
			cc[n++] = "-isystem";
			cc[n++] = CLC_PICOLIBC_INC;
		}
		for (unsigned k = 0; k < ne; k++)
			cc[n++] = extra[k];
		cc[n++] = "-c";
		cc[n++] = srcs[i];
		cc[n++] = "-o";
		cc[n++] = objs[i];
		cc[n] = NULL;
		if (clc_run(l, (char *const *)cc))
			rc = clc_fail(l, HP_BUILD_PROGRAM_FAILURE,
				      "compiling %s failed", srcs[i]);
	}
	if (!rc)
		rc = clc_link(l, &b, objp, ns, elfout);
	for (unsigned i = 0; i < ns; i++)
		unlink(objs[i]);
	rmdir(tmp);
	if (rc)
		return rc;
	size_t n;
	uint8_t *e = clc_slurp(elfout, &n);
	if (!e)
		return clc_fail(l, HP_OUT_OF_RESOURCES, "cannot read %s",
				elfout);
	void *hpk;
	size_t hn;
	rc = clc_convert(l, e, n, b.xlen, NULL, &hpk, &hn);
	free(e);
	if (!rc) {
		rc = clc_write(l, out, hpk, hn);
		free(hpk);
	}
	return rc;
}
