// SPDX-License-Identifier: MIT
/* Host side of hal/context.h on top of context_x86_64.S, with the fiber
 * annotations AddressSanitizer and ThreadSanitizer need to follow stack
 * switches. */
#define _GNU_SOURCE
#include <hal/context.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define HOST_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define HOST_TSAN 1
#endif

void hal_context_switch_raw(void **save_sp, void *new_sp);
void hal_context_start(void);

/* Every new context starts here (from hal_context_start). */
static void host_context_trampoline(void *p)
{
	hal_context *c = p;
#ifdef HOST_ASAN
	__sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
	c->entry(c->arg);
}

void hal_context_init(hal_context *c, void *lo, size_t size,
		      void (*entry)(void *), void *arg)
{
#ifdef HOST_ASAN
	/* Frames of an earlier context on this stack may have left poison. */
	__asan_unpoison_memory_region(lo, size);
#endif
	/* Layout popped by hal_context_switch_raw: r15 r14 r13 r12 rbx rbp,
	 * then the return address; aligned so hal_context_start's call sees
	 * a 16-byte aligned stack. */
	uintptr_t top = ((uintptr_t)lo + size) & ~(uintptr_t)15;
	uint64_t *f = (uint64_t *)(top - 8 * 8);
	memset(f, 0, 8 * 8);
	c->entry = entry;
	c->arg = arg;
	f[2] = (uint64_t)(uintptr_t)host_context_trampoline; /* r13 */
	f[3] = (uint64_t)(uintptr_t)c;			     /* r12 */
	f[6] = (uint64_t)(uintptr_t)hal_context_start;
	c->sp = f;
	c->stack_lo = lo;
	c->stack_size = size;
#ifdef HOST_TSAN
	if (!c->san_fiber)
		c->san_fiber = __tsan_create_fiber(0);
#endif
}

void hal_context_self(hal_context *c)
{
	memset(c, 0, sizeof(*c));
	pthread_attr_t a;
	if (pthread_getattr_np(pthread_self(), &a) == 0) {
		pthread_attr_getstack(&a, &c->stack_lo, &c->stack_size);
		pthread_attr_destroy(&a);
	}
#ifdef HOST_TSAN
	c->san_fiber = __tsan_get_current_fiber();
#endif
}

void hal_context_switch(hal_context *from, hal_context *to)
{
#ifdef HOST_ASAN
	__sanitizer_start_switch_fiber(&from->san_fake, to->stack_lo,
				       to->stack_size);
#endif
#ifdef HOST_TSAN
	__tsan_switch_to_fiber(to->san_fiber, 0);
#endif
	hal_context_switch_raw(&from->sp, to->sp);
#ifdef HOST_ASAN
	__sanitizer_finish_switch_fiber(from->san_fake, NULL, NULL);
#endif
}
