// SPDX-License-Identifier: MIT
/*
 * The serial link's connect string ("DEV[,baud=N][,flow=none|rtscts]") and
 * the arithmetic of its line (how long bytes take at a baud rate, 8N1):
 * pure functions (transport.h, serial.h).
 */
#include "serial.h"
#include <hartpool/error.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The rates a link takes: the standard ones up to 4 Mbaud that the host's
 * termios has (a paced socket takes the same, so a run against QEMU
 * rehearses a rate a board can have). */
static const struct {
	uint32_t baud;
	speed_t code;
} rates[] = {
	{9600, B9600},	     {19200, B19200},	{38400, B38400},
	{57600, B57600},     {115200, B115200},
#ifdef B230400
	{230400, B230400},
#endif
#ifdef B460800
	{460800, B460800},
#endif
#ifdef B500000
	{500000, B500000},
#endif
#ifdef B576000
	{576000, B576000},
#endif
#ifdef B921600
	{921600, B921600},
#endif
#ifdef B1000000
	{1000000, B1000000},
#endif
#ifdef B1152000
	{1152000, B1152000},
#endif
#ifdef B1500000
	{1500000, B1500000},
#endif
#ifdef B2000000
	{2000000, B2000000},
#endif
#ifdef B2500000
	{2500000, B2500000},
#endif
#ifdef B3000000
	{3000000, B3000000},
#endif
#ifdef B3500000
	{3500000, B3500000},
#endif
#ifdef B4000000
	{4000000, B4000000},
#endif
};
#define NRATES (sizeof(rates) / sizeof(rates[0]))

bool hp_serial_baud_ok(uint32_t baud)
{
	for (size_t i = 0; i < NRATES; i++)
		if (rates[i].baud == baud)
			return true;
	return false;
}

speed_t hp_serial_baud_code(uint32_t baud)
{
	for (size_t i = 0; i < NRATES; i++)
		if (rates[i].baud == baud)
			return rates[i].code;
	return B0;
}

__attribute__((format(printf, 3, 4))) static int
spec_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return HP_INVALID_VALUE;
}

/* "baud=N": N in decimal, a rate of the table. */
static int parse_baud(const char *v, size_t len, uint32_t *out, char *err,
		      size_t errlen)
{
	uint64_t n = 0;
	bool digits = len > 0;
	for (size_t i = 0; digits && i < len; i++) {
		digits = v[i] >= '0' && v[i] <= '9';
		n = n > UINT32_MAX ? n : n * 10 + (uint64_t)(v[i] - '0');
	}
	if (digits && n <= UINT32_MAX && hp_serial_baud_ok((uint32_t)n)) {
		*out = (uint32_t)n;
		return 0;
	}
	char list[200] = "";
	for (size_t i = 0, at = 0; i < NRATES && at < sizeof(list); i++)
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%u",
				       i ? " " : "", (unsigned)rates[i].baud);
	return spec_fail(err, errlen,
			 "serial link baud=%.*s: %s; the rates are %s (8N1)",
			 (int)(len < 40 ? len : 40), v,
			 digits ? "not a standard rate"
				: "not a number of bits per second",
			 list);
}

int hp_serial_parse(const char *spec, hp_serial_spec *out, char *err,
		    size_t errlen)
{
	static const char usage[] = "serial:DEV[,baud=N][,flow=none|rtscts]";
	memset(out, 0, sizeof(*out));
	const char *comma = strchr(spec, ',');
	size_t n = comma ? (size_t)(comma - spec) : strlen(spec);
	if (!n)
		return spec_fail(err, errlen,
				 "serial link '%s' names no device (%s)", spec,
				 usage);
	if (n >= sizeof(out->dev))
		return spec_fail(err, errlen,
				 "serial device path of %zu bytes (at most "
				 "%zu): %.*s...",
				 n, sizeof(out->dev) - 1, 60, spec);
	memcpy(out->dev, spec, n);
	for (const char *p = comma; p;) {
		const char *item = p + 1, *next = strchr(item, ',');
		size_t len = next ? (size_t)(next - item) : strlen(item);
		int rc = 0;
		if (len >= 5 && !strncmp(item, "baud=", 5))
			rc = parse_baud(item + 5, len - 5, &out->baud, err,
					errlen);
		else if (len == 11 && !strncmp(item, "flow=rtscts", 11))
			out->rtscts = true;
		else if (len == 9 && !strncmp(item, "flow=none", 9))
			out->rtscts = false;
		else
			rc = spec_fail(err, errlen,
				       "serial link option '%.*s' unknown "
				       "(%s)",
				       (int)(len < 40 ? len : 40), item, usage);
		if (rc)
			return rc;
		p = next;
	}
	return 0;
}

uint64_t hp_serial_wire_ns(uint64_t bytes, uint32_t baud)
{
	if (!baud)
		return 0;
	/* bytes * 10 bits * 1e9 / baud, without overflow. */
	const uint64_t bit_ns = HP_SERIAL_BITS_PER_BYTE * 1000000000ull;
	return bytes / baud * bit_ns + bytes % baud * bit_ns / baud;
}

uint64_t hp_serial_line_take(hp_serial_line *l, uint32_t baud, uint64_t now_ns,
			     uint64_t bytes)
{
	uint64_t start = l->free_ns > now_ns ? l->free_ns : now_ns;
	l->free_ns = start + hp_serial_wire_ns(bytes, baud);
	return start;
}
