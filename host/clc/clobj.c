// SPDX-License-Identifier: MIT
/*
 * Separate compilation (hartpool_cl.h, enum hp_cl_mode): a compile ends
 * with the job's module as a compiled object (the board's bitcode behind
 * an hp_cl_object_header); a link reads its compiled objects and
 * libraries, each for the job's board, into one module (LLVMLinkModules2:
 * a name two of them define is the link's error, in its log) and goes on
 * through the stages after reading, or, with -create-library, ends with
 * that module as a library.
 */
#define _GNU_SOURCE
#include "clobj.h"
#include "fail.h"
#include "job.h"
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Input @p i as a module of the job's context. */
static int object_read(clc_job *j, unsigned i, LLVMModuleRef *m)
{
	const hp_cl_build_options *o = j->o;
	char board[32];
	const char *want = o->board ? o->board : "qemu-virt";
	unsigned kind =
		hp_cl_object_kind(o->objects[i], o->object_sizes[i], board);
	if (!kind)
		return clc_fail(&j->log, HP_INVALID_BINARY,
				"input %u (%zu bytes) is not a compiled object "
				"or library",
				i, o->object_sizes[i]);
	if (strcmp(board, want))
		return clc_fail(&j->log, HP_INVALID_BINARY,
				"input %u was compiled for board %s, the link "
				"is for %s",
				i, board, want);
	LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
		(const char *)o->objects[i] + sizeof(hp_cl_object_header),
		o->object_sizes[i] - sizeof(hp_cl_object_header), "object");
	int bad = LLVMParseBitcodeInContext2(j->ctx, buf, m);
	LLVMDisposeMemoryBuffer(buf);
	return bad ? clc_fail(&j->log, HP_INVALID_BINARY,
			      "input %u's bitcode cannot be read", i)
		   : 0;
}

int clc_stage_link_objects(clc_job *j)
{
	const hp_cl_build_options *o = j->o;
	for (unsigned i = 0; i < o->num_objects; i++) {
		LLVMModuleRef m;
		int rc = object_read(j, i, &m);
		if (rc)
			return rc;
		if (!j->mod) {
			j->mod = m;
			continue;
		}
		/* the module is the linker's after this, linked or not */
		if (LLVMLinkModules2(j->mod, m))
			return clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
					"input %u does not link with the ones "
					"before it (build log)",
					i);
	}
	return 0;
}

int clc_stage_object(clc_job *j, unsigned kind)
{
	LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(j->mod);
	if (!buf)
		return clc_fail(&j->log, HP_OUT_OF_RESOURCES,
				"cannot write the bitcode");
	size_t n = LLVMGetBufferSize(buf);
	hp_cl_object_header h = {.kind = kind, .bc_size = (uint32_t)n};
	memcpy(h.magic, HP_CL_OBJECT_MAGIC, sizeof(h.magic));
	snprintf(h.board, sizeof(h.board), "%s",
		 j->o->board ? j->o->board : "qemu-virt");
	uint8_t *out = malloc(sizeof(h) + n);
	if (!out || n > UINT32_MAX) {
		free(out);
		LLVMDisposeMemoryBuffer(buf);
		return clc_fail(&j->log, HP_OUT_OF_RESOURCES,
				"out of memory for the object");
	}
	memcpy(out, &h, sizeof(h));
	memcpy(out + sizeof(h), LLVMGetBufferStart(buf), n);
	LLVMDisposeMemoryBuffer(buf);
	j->hpk = out;
	j->size = sizeof(h) + n;
	return 0;
}
