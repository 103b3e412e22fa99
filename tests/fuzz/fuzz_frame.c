// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the serial transport's frame decoder and agent core
 * (over a 4 KB memory array). The input is used twice:
 *   - as bytes on the line, fed to a decoder and to an agent: every frame
 *     decoded must re-encode and decode to the same frame;
 *   - as requests {u8 type, u8 seq, u16 len, payload}, encoded properly and
 *     fed to an agent, so its checks are reached past the CRC: every reply
 *     must be well-formed (a reply type, the request's seq but for ACKs and
 *     WAIT answers, DATA that decodes); HELLO and BATCH ops, sessions,
 *     windows, duplicates and gaps are all reachable, and so is flow
 *     control (a HELLO asking for a receive window, CREDITs, RESYNCs): the
 *     agent's output, sent in pieces then, must still be whole frames in
 *     order (only one cut off by a new host's HELLO), and never more than
 *     the window unanswered.
 * Memory is touched only in bounds (ASan+UBSan watch, and the callbacks
 * abort on any access the agent did not have checked).
 */
#include <mailbox/serial_agent.h>
#include <stdlib.h>
#include <string.h>

#define MEM_BASE 0x1000u
#define MEM_SIZE 4096u

static uint8_t mem[MEM_SIZE];
static serial_agent agent;
static unsigned replies;

static bool in_bounds(uint64_t addr, uint64_t len)
{
	return addr >= MEM_BASE && addr <= MEM_BASE + MEM_SIZE &&
	       len <= MEM_BASE + MEM_SIZE - addr;
}

static bool access_ok(uint64_t addr, uint64_t len, bool write)
{
	/* The first 256 bytes are read-only, as parts of the mailbox are. */
	return in_bounds(addr, len) && (!write || addr >= MEM_BASE + 256);
}

static void mem_read(uint64_t addr, void *dst, size_t len)
{
	if (!in_bounds(addr, len))
		abort();
	memcpy(dst, mem + (addr - MEM_BASE), len);
}

static void mem_write(uint64_t addr, const void *src, size_t len)
{
	if (!in_bounds(addr, len) || addr < MEM_BASE + 256)
		abort();
	memcpy(mem + (addr - MEM_BASE), src, len);
}

static uint64_t mbox_addr(void)
{
	return MEM_BASE;
}

/* Replies must be whole valid frames of a reply type; all but ACKs
 * (cumulative: the last frame applied) and WAIT answers (later) carry the
 * seq of the frame just taken, unless they waited for the host's window.
 * Without a window each send is one frame; with one, pieces of the stream
 * of frames. */
static bool in_idle;
static hp_frame_dec out;

static void reply(const hp_frame_dec *d)
{
	if (!(d->type & HP_MSG_REPLY))
		abort();
	if (!in_idle && !agent.window && d->type != HP_MSG_ACK &&
	    d->type != HP_MSG_DATA && d->seq != agent.dec.seq)
		abort();
	if (d->type == HP_MSG_DATA &&
	    (hp_zrle_size(hp_frame_payload(d), d->len) == SIZE_MAX ||
	     hp_zrle_size(hp_frame_payload(d), d->len) > HP_SERIAL_DATA_MAX))
		abort();
	replies++;
}

static void send_reply(const uint8_t *wire, size_t n)
{
	bool whole = !agent.window;
	for (size_t i = 0; i < n; i++) {
		enum hp_frame_event ev = hp_frame_feed(&out, wire[i]);
		if (ev == HP_FRAME_OK)
			reply(&out);
		/* (The first byte may cut off a frame held for a host that
		 * a HELLO ended.) */
		if (whole && ev != (i == n - 1 ? HP_FRAME_OK : HP_FRAME_NONE) &&
		    !(i == 0 && ev == HP_FRAME_DROPPED))
			abort();
	}
	/* Nothing but frames, none broken (a frame cut off by a HELLO_ACK
	 * is "aborted"). */
	if (out.stats.bad_crc || out.stats.bad_len || out.stats.overlong ||
	    out.stats.bad_esc)
		abort();
}

/* The window: never more sent than the host has taken and the window. */
static void check_window(void)
{
	if (agent.window && (uint16_t)(agent.sent - agent.taken) > agent.window)
		abort();
}

/* Time moves 1 ms a call: WAITs run out, ACKs fall due. */
static uint64_t now_us(void)
{
	static uint64_t t;
	return t += 1000;
}

static const serial_agent_ops ops = {access_ok,	 mem_read,  mem_write,
				     send_reply, mbox_addr, now_us,
				     NULL,	 false,	    NULL};

static void idle(void)
{
	in_idle = true;
	serial_agent_idle(&agent);
	in_idle = false;
}

/* A decoded frame re-encodes and decodes to itself. */
static void check_frame(const hp_frame_dec *d)
{
	static uint8_t wire[HP_FRAME_WIRE_MAX(HP_FRAME_MAX_PAYLOAD)];
	static hp_frame_dec again;
	if (d->len > HP_FRAME_MAX_PAYLOAD)
		abort();
	size_t n = hp_frame_encode(wire, sizeof(wire), d->type, d->seq,
				   hp_frame_payload(d), d->len);
	hp_frame_dec_init(&again);
	enum hp_frame_event ev = HP_FRAME_NONE;
	for (size_t i = 0; i < n; i++)
		ev = hp_frame_feed(&again, wire[i]);
	if (!n || ev != HP_FRAME_OK || again.type != d->type ||
	    again.seq != d->seq || again.len != d->len ||
	    memcmp(hp_frame_payload(&again), hp_frame_payload(d), d->len))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static hp_frame_dec dec;
	static uint8_t wire[HP_FRAME_WIRE_MAX(HP_FRAME_MAX_PAYLOAD)];

	/* Raw line bytes. */
	hp_frame_dec_init(&dec);
	hp_frame_dec_init(&out);
	serial_agent_setup(&agent, &ops);
	for (size_t i = 0; i < size; i++) {
		if (hp_frame_feed(&dec, data[i]) == HP_FRAME_OK)
			check_frame(&dec);
		serial_agent_feed(&agent, data[i]);
		check_window();
		if (data[i] == HP_FRAME_END)
			idle();
	}
	if (agent.requests > dec.stats.frames)
		abort();

	/* Requests, well framed. */
	hp_frame_dec_init(&out);
	serial_agent_setup(&agent, &ops);
	replies = 0;
	unsigned asked = 0;
	for (size_t i = 0; i + 4 <= size;) {
		size_t len = (data[i + 2] | (size_t)data[i + 3] << 8) %
			     (HP_FRAME_MAX_PAYLOAD + 1);
		if (len > size - i - 4)
			len = size - i - 4;
		size_t n = hp_frame_encode(wire, sizeof(wire), data[i],
					   data[i + 1], data + i + 4, len);
		for (size_t k = 0; k < n; k++)
			if (serial_agent_feed(&agent, wire[k]) != (k == n - 1))
				abort();
		check_window();
		idle();
		asked++;
		i += 4 + len;
	}
	if (agent.requests != asked)
		abort();
	return 0;
}
