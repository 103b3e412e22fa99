// SPDX-License-Identifier: MIT
/* The serial agent on the firmware: requests come in on the console UART,
 * whose receive interrupt (through the PLIC) ends hart 0's wfi; replies go
 * out under the console lock, between hal_printf lines. See serial_agent.h.
 * Firmware only (the host tests run the core over an array). */
#include <board.h>
#include <boot/app.h>
#include <hal/console.h>
#include <hal/irq.h>
#include <hal/timer.h>
#include <mailbox/complete.h>
#include <mailbox/dispatch.h>
#include <mailbox/serial_agent.h>
#include <string.h>

static serial_agent agent;

static bool uart_access_ok(uint64_t addr, uint64_t len, bool write)
{
	/* On RV32 a 64-bit address must not be cut to a different one. */
	uint64_t end = addr + len;
	if ((uintptr_t)addr != addr || (uintptr_t)end != end)
		return false;
	return dispatch_access_ok(addr, len, write);
}

/* An aligned 4- or 8-byte access is one load or store, so a hart that
 * polls a ring index never sees half an update (memcpy may copy bytes). */
static void uart_read(uint64_t addr, void *dst, size_t len)
{
	const void *src = (const void *)(uintptr_t)addr;
	if (len == 4 && addr % 4 == 0) {
		uint32_t v = __atomic_load_n((const uint32_t *)src,
					     __ATOMIC_RELAXED);
		memcpy(dst, &v, 4);
#if UINTPTR_MAX > 0xffffffffu
	} else if (len == 8 && addr % 8 == 0) {
		uint64_t v = __atomic_load_n((const uint64_t *)src,
					     __ATOMIC_RELAXED);
		memcpy(dst, &v, 8);
#endif
	} else {
		memcpy(dst, src, len);
	}
}

static void uart_write(uint64_t addr, const void *src, size_t len)
{
	void *dst = (void *)(uintptr_t)addr;
	if (dispatch_link_claim(addr, src, len)) {
		/* a claim: stored by compare-and-swap, or lost */
	} else if (len == 4 && addr % 4 == 0) {
		uint32_t v;
		memcpy(&v, src, 4);
		__atomic_store_n((uint32_t *)dst, v, __ATOMIC_RELAXED);
#if UINTPTR_MAX > 0xffffffffu
	} else if (len == 8 && addr % 8 == 0) {
		uint64_t v;
		memcpy(&v, src, 8);
		__atomic_store_n((uint64_t *)dst, v, __ATOMIC_RELAXED);
#endif
	} else {
		memcpy(dst, src, len);
	}
	/* Before the next request is served: the host's next write (a ring
	 * header after a packet body) must reach other harts after this. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	/* A session the link's host claimed is the link's. */
	dispatch_link_wrote(addr, src, len);
}

static void uart_send(const uint8_t *wire, size_t n)
{
	hal_console_write_locked((const char *)wire, n);
}

static uint64_t uart_now_us(void)
{
	/* Any timebase (some are under 1 MHz), without overflow. */
	uint64_t t = hal_timer_now(), f = hal_timer_freq();
	return t / f * 1000000u + t % f * 1000000u / f;
}

static serial_agent_ops uart_ops = {
	.access_ok = uart_access_ok,
	.read = uart_read,
	.write = uart_write,
	.send = uart_send,
	.mbox_addr = dispatch_mbox_addr,
	.now_us = uart_now_us,
	.watch = mbox_complete_watch,
	.new_host = dispatch_link_new_host,
};

void serial_agent_init(void)
{
	/* A UART that may drop bytes: replies held to the host's window. */
	uart_ops.tx_waits = hal_console_tx_waits();
	serial_agent_setup(&agent, &uart_ops);
	/* Without an interrupt route the dispatcher's doorbell poll
	 * (hartpool.poll_us) still drains the UART. */
	if (boot_uart_irq && hal_irq_enable(boot_uart_irq))
		hal_console_rx_irq_enable();
}

bool serial_agent_poll(void)
{
	bool handled = false;
	int c;
	while ((c = hal_console_getc()) >= 0)
		handled |= serial_agent_feed(&agent, (uint8_t)c);
	/* Nothing more for now: a WAIT whose word came up (a command the
	 * dispatcher or a worker completed since), an ACK due. */
	return serial_agent_idle(&agent) || handled;
}
