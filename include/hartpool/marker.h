/* SPDX-License-Identifier: MIT */
/**
 * @file Instruction-count markers. HP_MARKER(ID) emits one RISC-V HINT
 * instruction, `slti x0, x0, ID` (ID a constant 0..2047), which changes no
 * state and costs one instruction. The project's QEMU TCG plugin
 * (qemu/plugin/) recognises it and records, for the hart (vCPU) that
 * executed it, the number of instructions that hart has retired so far.
 * The same markers work in the firmware and in Linux user-mode programs
 * (the OpenMP peer under qemu-riscv64), so both sides are measured the
 * same way. Without the plugin the markers are no-ops.
 *
 * Convention (bench/): region R is bracketed by HP_MARKER(2 * R) and
 * HP_MARKER(2 * R + 1); a region's cost on a hart is the difference of its
 * two counts. IDs 2000..2047 are reserved for the plugin's self-test.
 */
#ifndef HARTPOOL_MARKER_H
#define HARTPOOL_MARKER_H

#if defined(__riscv)
#define HP_MARKER(id)                                                          \
	__asm__ volatile(".insn i 0x13, 2, x0, x0, %0" ::"i"(id) : "memory")
#else
#define HP_MARKER(id) ((void)(id))
#endif

/** Region the executor brackets every chunk of work-groups with (per
 * hart: the instructions it spent running work-groups). */
#define HP_MARK_REGION_WORK 900

#define HP_MARK_BEGIN(region) HP_MARKER(2 * (region))
#define HP_MARK_END(region) HP_MARKER(2 * (region) + 1)

#endif
