/* SPDX-License-Identifier: MIT */
/* Context switch for the host build (x86-64 System V): callee-saved rbx,
 * rbp, r12-r15 on the stack being left, its rsp to *save_sp. */
	.text
	.globl hal_context_switch_raw
	.type hal_context_switch_raw, @function
/* void hal_context_switch_raw(void **save_sp (rdi), void *new_sp (rsi)) */
hal_context_switch_raw:
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, (%rdi)
	movq	%rsi, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret
	.size hal_context_switch_raw, .-hal_context_switch_raw

/* First switch into a new context: r12 = arg, r13 = entry. */
	.globl hal_context_start
	.type hal_context_start, @function
hal_context_start:
	movq	%r12, %rdi
	callq	*%r13
	ud2
	.size hal_context_start, .-hal_context_start
	.section .note.GNU-stack,"",@progbits
