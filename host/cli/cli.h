/* SPDX-License-Identifier: MIT */
/**
 * @file The hartpool CLI's plumbing (cli.c): what the command line asked
 * for (cli_opts), the shape of the command table (hartpool.c) with each
 * command's options, the parser and the help generated from that table,
 * and what the commands share (errors, the device, output helpers).
 */
#ifndef HOST_CLI_CLI_H
#define HOST_CLI_CLI_H

#include <hartpool.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** Devices of one run or info (--devices N, --connect given N times). */
#define CLI_MAX_DEVICES 16

/** Every option's value, after parsing (the defaults are in main()). */
typedef struct cli_opts {
	const char *cmd;    /**< the command */
	const char *kernel; /**< its operand (run KERNEL, help COMMAND) */
	const char *connect, *board, *append, *kernel_file, *boot;
	/** Every --connect in order (connect: the first). */
	const char *connects[CLI_MAX_DEVICES];
	unsigned num_connects;
	unsigned devices;	/**< --devices N (0: not given) */
	const char *cl_options; /**< run: build options of a .cl kernel file */
	unsigned harts;
	uint64_t mem_size;
	bool json, check, list;
	hp_ndrange r;
	int work_dim; /**< -1: from the number of sizes */
	unsigned nglobal;
	const char *args[32];
	unsigned num_args;
	const char *kargs[32];
	unsigned num_kargs;
	bool print, gdb;
	unsigned long print_max;
	unsigned long repeat, count;
	uint32_t printf_size;
	const char *trace;	/**< run --trace FILE: a timeline */
	uint32_t trace_records; /**< --trace-records: per hart (0: default) */
	/** up --quota, --quota-min: as bootargs ("hartpool.quota.heap=N
	 * ..."; docs/sessions.md, "Quotas"), "" if none. */
	char quota_args[512]; /* up: bootargs of the sharing options */
} cli_opts;

/** How an option takes its value. */
typedef enum {
	CLI_FLAG,	/**< none */
	CLI_VALUE,	/**< the next argument, always */
	CLI_OPT_NUMBER, /**< the next argument if it is a number */
} cli_arg;

/** One option: its spelling, its value, its help, how it is stored. */
typedef struct cli_option {
	const char *name;  /**< "--global"; NULL ends a table */
	cli_arg takes;	   /**< its value */
	const char *value; /**< the value's name in help ("X[,Y[,Z]]") */
	const char *help;  /**< one line; each "\n" starts another */
	/** Store @p value (NULL for a flag) in @p o; 0, or 1 after
	 * cli_die(). NULL: the command parses its own arguments (build). */
	int (*set)(cli_opts *o, const struct cli_option *opt,
		   const char *value);
	/** Where cli_set_*() store it: offsetof(cli_opts, ...). */
	size_t field;
} cli_option;

/** Options that go together; commands share groups. */
typedef struct cli_group {
	const char *title;	   /**< "device options" */
	const cli_option *options; /**< ends with a NULL name */
} cli_group;

/** A command of the table. */
typedef struct cli_command {
	const char *name;
	const char *operands; /**< after the name in usage lines, or NULL */
	const char *summary;  /**< one line for `hartpool --help` */
	const char *about;    /**< more for `hartpool NAME --help`, or NULL */
	const cli_group *const *groups; /**< its options; NULL-terminated */
	/** Before any device: an exit status, or -1 to go on (NULL: go on). */
	int (*early)(const cli_opts *o);
	/** The command on the device it booted or connected to (kept
	 * running if @p detach); the exit status. NULL: no device. */
	int (*run)(hp_device *d, const cli_opts *o);
	/** The command on @p n devices (2..CLI_MAX_DEVICES: --devices N or
	 * several --connect); NULL: it takes one device. */
	int (*run_devices)(hp_device *const *d, unsigned n, const cli_opts *o);
	bool detach;
	/** Opens the device to end it (hp_open_options.ending). */
	bool ending;
	/** A command that parses its own arguments (argv[0] is its name),
	 * documented by its groups; the exit status. */
	int (*main)(const struct cli_command *self, int argc, char **argv);
} cli_command;

/* ---- parsing and help ---- */

/** The command called @p name in the NULL-terminated @p table, or NULL. */
const cli_command *cli_find(const cli_command *const *table, const char *name);
/**
 * Parse argv into @p o (defaults already there): options anywhere, each
 * one of some command's; the first operand is the command, the second its
 * operand. Then the command must exist and take every option given.
 * Returns -1 with the command in @p cmd, or an exit status: 0 after
 * --help (the command's help if it came first, else the usage), 1 after
 * an error (printed).
 */
int cli_parse(const cli_command *const *table, int argc, char **argv,
	      cli_opts *o, const cli_command **cmd);
/** `hartpool --help`: the commands, then every option group. */
void cli_usage(FILE *f, const cli_command *const *table);
/** `hartpool CMD --help`: its usage line, what it does, its options. */
void cli_help(FILE *f, const cli_command *c);

/** Setters for cli_option.set: a flag (bool), a string, numbers as
 * strtoul/strtoull read them (uint32_t, unsigned long, uint64_t). */
int cli_set_flag(cli_opts *o, const cli_option *opt, const char *value);
int cli_set_str(cli_opts *o, const cli_option *opt, const char *value);
int cli_set_u32(cli_opts *o, const cli_option *opt, const char *value);
int cli_set_ulong(cli_opts *o, const cli_option *opt, const char *value);
int cli_set_u64(cli_opts *o, const cli_option *opt, const char *value);

/* ---- what the commands share ---- */

/** "hartpool: HP_NAME: message" on stderr; returns 1 (the exit status). */
int cli_die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** cli_die() with the library's message (hp_last_error()). */
int cli_lib_fail(int code);

/** Boot the device the options ask for, or connect to it (--gdb: with
 * QEMU's gdb stub); 0, or 1 after cli_die(). */
int cli_open_device(const cli_opts *o, bool detach, bool ending, hp_device **d);
/** How many devices the options name (--devices N, or one per --connect;
 * 1 without either), or 0 after cli_die() when they disagree. */
unsigned cli_device_count(const cli_opts *o);
/** Open the @p n devices of the options into @p d: device k connects to
 * the k-th --connect or boots one like cli_open_device(). 0, or 1 after
 * cli_die() naming the device that failed (its connect string; the ones
 * opened before are closed). */
int cli_open_devices(const cli_opts *o, unsigned n, hp_device **d);
/** How to attach gdb-multiarch, on stderr: the firmware's symbols, and
 * those of kernel object @p kfile loaded at @p addr (if not NULL). */
void cli_gdb_hint(const cli_opts *o, const char *kfile, uint64_t addr);

/** The monotonic clock in microseconds. */
double cli_now_us(void);
/** A progress line on a terminal, at most ten times a second. */
void cli_progress(const char *what, unsigned long done, unsigned long all);
/** A JSON string of at most @p n bytes of @p str (escaped). */
void cli_json_str(const char *str, size_t n);

#endif
