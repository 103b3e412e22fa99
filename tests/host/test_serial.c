// SPDX-License-Identifier: MIT
/*
 * The serial link's settings and its pacing arithmetic
 * (host/lib/serial_spec.c, transport.h): the connect string after
 * "serial:" (the device, baud=N, flow=), every standard rate taken and
 * anything else refused with HP_INVALID_VALUE and a message that says why;
 * the time bytes take on a line of a rate (8N1: 10 bits a byte), and a
 * line that is busy until the bytes before are through. No clocks: the
 * arithmetic alone.
 */
#include "check.h"
#include "transport.h"
#include <hartpool/error.h>
#include <string.h>

static hp_serial_spec spec;
static char err[512];

/* Parse @p s; the result code. */
static int parse(const char *s)
{
	err[0] = 0;
	memset(&spec, 0xa5, sizeof(spec));
	return hp_serial_parse(s, &spec, err, sizeof(err));
}

/* Refused with HP_INVALID_VALUE and @p why in the message. */
static void refused(const char *s, const char *why)
{
	CHECK_EQ(parse(s), HP_INVALID_VALUE);
	CHECK_MSG(strstr(err, why) != NULL, "'%s': '%s' lacks '%s'", s, err,
		  why);
}

static void test_parse(void)
{
	CHECK_EQ(parse("/dev/ttyUSB0"), 0);
	CHECK(!strcmp(spec.dev, "/dev/ttyUSB0"));
	CHECK_EQ(spec.baud, 0);
	CHECK(!spec.rtscts);

	CHECK_EQ(parse("/dev/ttyUSB0,baud=921600"), 0);
	CHECK(!strcmp(spec.dev, "/dev/ttyUSB0"));
	CHECK_EQ(spec.baud, 921600);
	CHECK(!spec.rtscts);

	CHECK_EQ(parse("/tmp/hp.sock,baud=115200,flow=rtscts"), 0);
	CHECK(!strcmp(spec.dev, "/tmp/hp.sock"));
	CHECK_EQ(spec.baud, 115200);
	CHECK(spec.rtscts);
	CHECK_EQ(parse("d,flow=rtscts,flow=none,baud=9600,baud=4000000"), 0);
	CHECK(!spec.rtscts);
	CHECK_EQ(spec.baud, 4000000); /* the last one counts */

	/* The standard rates up to 4 Mbaud, and the slow ones, all taken (Linux
	 * has every one of them). */
	static const uint32_t ok[] = {
		9600,	 19200,	  38400,   57600,   115200,  230400,
		460800,	 500000,  576000,  921600,  1000000, 1152000,
		1500000, 2000000, 2500000, 3000000, 3500000, 4000000,
	};
	for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		char s[64];
		snprintf(s, sizeof(s), "/dev/ttyS0,baud=%u", (unsigned)ok[i]);
		CHECK_MSG(parse(s) == 0, "%s: %s", s, err);
		CHECK_EQ(spec.baud, ok[i]);
		CHECK(hp_serial_baud_ok(ok[i]));
	}

	/* Not a standard rate: refused, with the rates there are. */
	refused("/dev/ttyUSB0,baud=12345", "baud=12345: not a standard rate");
	CHECK(strstr(err, "115200") && strstr(err, "921600") &&
	      strstr(err, "4000000"));
	refused("d,baud=0", "baud=0: not a standard rate");
	refused("d,baud=115201", "not a standard rate");
	refused("d,baud=8000000", "not a standard rate");
	refused("d,baud=99999999999999999999999", "not a standard rate");
	CHECK(!hp_serial_baud_ok(0));
	CHECK(!hp_serial_baud_ok(12345));
	CHECK(!hp_serial_baud_ok(UINT32_MAX));

	/* Not a number at all. */
	refused("d,baud=", "baud=: not a number");
	refused("d,baud=fast", "baud=fast: not a number");
	refused("d,baud=-115200", "not a number");
	refused("d,baud=115200x", "not a number");
	refused("d,baud= 9600", "not a number");
	refused("d,baud=0x1c200", "not a number");
	refused("d,baud=921600,flow=none,baud=1e6", "baud=1e6: not a number");

	/* Options that do not exist, and no device. */
	refused("d,speed=9600", "option 'speed=9600' unknown");
	refused("d,flow=xonxoff", "option 'flow=xonxoff' unknown");
	refused("d,BAUD=9600", "option 'BAUD=9600' unknown");
	refused("d,", "option '' unknown");
	refused("d,baud=9600,", "option '' unknown");
	refused(",baud=9600", "names no device");
	refused("", "names no device");
	char lng[300];
	memset(lng, 'a', sizeof(lng) - 1);
	lng[sizeof(lng) - 1] = 0;
	refused(lng, "device path of 299 bytes");

	/* A short message buffer is cut, never overrun. */
	char small[12];
	memset(small, 'x', sizeof(small));
	CHECK_EQ(hp_serial_parse("d,baud=1", &spec, small, 8),
		 HP_INVALID_VALUE);
	CHECK_EQ(strlen(small), 7);
	CHECK_EQ(small[8], 'x');
}

static void test_wire(void)
{
	/* 10 bits a byte: 11,520 bytes a second at 115200. */
	CHECK_EQ(hp_serial_wire_ns(11520, 115200), 1000000000);
	CHECK_EQ(hp_serial_wire_ns(92160, 921600), 1000000000);
	CHECK_EQ(hp_serial_wire_ns(400000, 4000000), 1000000000);
	CHECK_EQ(hp_serial_wire_ns(960, 9600), 1000000000);
	CHECK_EQ(hp_serial_wire_ns(1, 115200), 86805); /* 86,805.6 */
	CHECK_EQ(hp_serial_wire_ns(1, 4000000), 2500);
	CHECK_EQ(hp_serial_wire_ns(0, 115200), 0);
	/* Unlimited. */
	CHECK_EQ(hp_serial_wire_ns(1 << 20, 0), 0);
	/* A MiB at 115200: 91.0 s. */
	CHECK_EQ(hp_serial_wire_ns(1 << 20, 115200), 91022222222);
	/* No overflow where bytes * 1e10 would pass 2^64: 2^40 bytes at
	 * 9600 baud is 1,145,324,612,266.7 s. */
	CHECK((uint64_t)hp_serial_wire_ns(1ull << 40, 9600) ==
	      1145324612266666666ull);
	/* Exact for every byte count against the 128-bit product. */
	for (uint64_t n = 0; n < 5000; n += 7)
		for (uint32_t b = 9600; b <= 4000000; b = b * 3 + 1)
			CHECK((uint64_t)hp_serial_wire_ns(n, b) ==
			      (uint64_t)((unsigned __int128)n * 10000000000u /
					 b));
}

static void test_line(void)
{
	/* A free line takes bytes at once; busy, after what it carries. */
	hp_serial_line l = {0};
	CHECK_EQ(hp_serial_line_take(&l, 115200, 1000, 11520), 1000);
	CHECK_EQ(l.free_ns, 1000000000 + 1000);
	CHECK_EQ(hp_serial_line_take(&l, 115200, 500000000, 5760),
		 1000000000 + 1000);
	CHECK_EQ(l.free_ns, 1500000000 + 1000);
	/* Idle since: the next bytes start when handed over. */
	CHECK_EQ(hp_serial_line_take(&l, 115200, 4000000000u, 1152),
		 4000000000u);
	CHECK_EQ(l.free_ns, 4100000000u);
	/* Nothing to carry: the line is free from now on. */
	CHECK_EQ(hp_serial_line_take(&l, 115200, 5000000000u, 0), 5000000000u);
	CHECK_EQ(l.free_ns, 5000000000u);
	/* Unlimited: never busy. */
	hp_serial_line u = {0};
	CHECK_EQ(hp_serial_line_take(&u, 0, 7, 1 << 20), 7);
	CHECK_EQ(u.free_ns, 7);

	/* A stop-and-wait round trip on the two lines (the request out, then
	 * the reply in) is the sum of both: a 1 KiB read's 22 + 1046 bytes
	 * at 921600 baud take 11,588,541 ns. */
	hp_serial_line tx = {0}, rx = {0};
	hp_serial_line_take(&tx, 921600, 0, 22);
	CHECK_EQ(hp_serial_line_take(&rx, 921600, tx.free_ns, 1046),
		 tx.free_ns);
	CHECK_EQ(rx.free_ns, 238715 + 11349826);
}

int main(void)
{
	test_parse();
	test_wire();
	test_line();
	return check_report("test_serial");
}
