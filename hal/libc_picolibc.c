// SPDX-License-Identifier: MIT
/* picolibc glue: stdout/stderr go to the console, _exit ends the run. */
#include <hal/console.h>
#include <hal/exit.h>
#include <stdio.h>

static int console_put(char c, FILE *f)
{
	(void)f;
	hal_console_putc(c);
	return (unsigned char)c;
}

static FILE console_file =
	FDEV_SETUP_STREAM(console_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdin = &console_file;
FILE *const stdout = &console_file;
FILE *const stderr = &console_file;

void _exit(int status)
{
	hal_exit(status ? (unsigned)status : 0);
}
