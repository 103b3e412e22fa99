// SPDX-License-Identifier: MIT
/* The platform and its one device: finding and booting the hartpool device
 * (HARTPOOL_DEVICE, the config file, or a QEMU boot), the library-wide lock
 * and the info helpers. */
#include "core.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct _cl_platform_id icd_platform = {.magic = MAGIC_PLATFORM};
struct _cl_device_id icd_device = {.magic = MAGIC_DEVICE};
struct _cl_icd_dispatch *icd_dispatch_table;

void icd_core_init(struct _cl_icd_dispatch *d)
{
	icd_dispatch_table = d;
	icd_platform.dispatch = d;
	icd_device.dispatch = d;
}

static pthread_mutex_t lock_mu;
static pthread_once_t lock_once = PTHREAD_ONCE_INIT;

static void lock_init(void)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&lock_mu, &a);
	pthread_mutexattr_destroy(&a);
}

static __thread unsigned lock_depth;
__thread unsigned icd_lock_gen;

void icd_lock(void)
{
	pthread_once(&lock_once, lock_init);
	pthread_mutex_lock(&lock_mu);
	if (!lock_depth++)
		icd_lock_gen++;
}

void icd_unlock(void)
{
	lock_depth--;
	pthread_mutex_unlock(&lock_mu);
}

cl_ulong icd_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (cl_ulong)ts.tv_sec * 1000000000ull + (cl_ulong)ts.tv_nsec;
}

cl_int icd_info(const void *src, size_t n, size_t size, void *value,
		size_t *ret)
{
	if (value) {
		if (size < n)
			return CL_INVALID_VALUE;
		memcpy(value, src, n);
	}
	if (ret)
		*ret = n;
	return CL_SUCCESS;
}

cl_int icd_err(int hp)
{
	if (hp >= -72 && hp <= 0)
		return hp;
	return CL_OUT_OF_RESOURCES;
}

bool icd_valid_device(cl_device_id d)
{
	return d == &icd_device;
}

/* ---- finding the device ---- */

static char conf_connect[512], conf_board[32], conf_timeout[32];
static unsigned conf_harts;
static bool conf_read;

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
		     s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

/* $XDG_CONFIG_HOME/hartpool/icd.conf: `key = value` lines, # comments. */
static void read_config(void)
{
	if (conf_read)
		return;
	conf_read = true;
	char path[1024];
	const char *x = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	if (x && *x)
		snprintf(path, sizeof(path), "%s/hartpool/icd.conf", x);
	else if (home && *home)
		snprintf(path, sizeof(path), "%s/.config/hartpool/icd.conf",
			 home);
	else
		return;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char line[1024];
	while (fgets(line, sizeof(line), f)) {
		char *s = trim(line), *eq = strchr(s, '=');
		if (!*s || *s == '#' || !eq)
			continue;
		*eq = 0;
		char *k = trim(s), *v = trim(eq + 1);
		if (!strcmp(k, "connect"))
			snprintf(conf_connect, sizeof(conf_connect), "%s", v);
		else if (!strcmp(k, "board"))
			snprintf(conf_board, sizeof(conf_board), "%s", v);
		else if (!strcmp(k, "harts"))
			conf_harts = (unsigned)strtoul(v, NULL, 0);
		else if (!strcmp(k, "timeout"))
			snprintf(conf_timeout, sizeof(conf_timeout), "%s", v);
	}
	fclose(f);
}

static void builtins_list(void)
{
	struct _cl_device_id *d = &icd_device;
	size_t n = 0;
	d->builtins[0] = 0;
	unsigned rows = hp_kernel_count(d->hp);
	for (unsigned i = 0; i < rows; i++) {
		const hp_mbox_kernel *k = hp_kernel_at(d->hp, i);
		if (!k || !k->name[0] || (k->flags & HP_KFLAG_LOADED))
			continue;
		size_t l = strnlen(k->name, sizeof(k->name));
		if (n + l + 2 > sizeof(d->builtins))
			break;
		if (n)
			d->builtins[n++] = ';';
		memcpy(d->builtins + n, k->name, l);
		n += l;
		d->builtins[n] = 0;
	}
}

/* "60", "0.25", "0": seconds, at most the device's longest limit
 * (HP_MBOX_TIMEOUT_MAX_US), into µs; false for anything else (a non-zero
 * limit below 1 µs included). */
static bool parse_seconds(const char *s, uint64_t *us)
{
	uint64_t whole = 0, frac = 0, scale = 1000000;
	bool nonzero = false;
	if (!isdigit((unsigned char)*s))
		return false;
	for (; isdigit((unsigned char)*s); s++) {
		whole = whole * 10 + (uint64_t)(*s - '0');
		nonzero |= *s != '0';
		if (whole > HP_MBOX_TIMEOUT_MAX_US / 1000000u)
			return false;
	}
	if (*s == '.' && !isdigit((unsigned char)*++s))
		return false;
	for (; isdigit((unsigned char)*s); s++) {
		nonzero |= *s != '0';
		if (scale > 1) {
			scale /= 10;
			frac += (uint64_t)(*s - '0') * scale;
		}
	}
	*us = whole * 1000000u + frac;
	return !*s && *us <= HP_MBOX_TIMEOUT_MAX_US && (*us || !nonzero);
}

/* Every kernel's time limit: HARTPOOL_TIMEOUT, else icd.conf's `timeout`,
 * else ICD_TIMEOUT_DEFAULT_S. A value that is not one is said on stderr
 * (whatever HARTPOOL_ICD_DEBUG says) and the device is not opened. */
static cl_int timeout_get(uint64_t *us)
{
	const char *env = getenv("HARTPOOL_TIMEOUT");
	const char *v = env && *env	  ? env
			: conf_timeout[0] ? conf_timeout
					  : NULL;
	*us = ICD_TIMEOUT_DEFAULT_S * 1000000ull;
	static bool said;
	if (!v || parse_seconds(v, us))
		return CL_SUCCESS;
	if (!said)
		fprintf(stderr,
			"hartpool-icd: %s '%s' is not a kernel time limit: "
			"seconds from 0 (none) to %llu, e.g. 60 or 0.5\n",
			v == env ? "HARTPOOL_TIMEOUT" : "icd.conf: timeout =",
			v,
			(unsigned long long)(HP_MBOX_TIMEOUT_MAX_US /
					     1000000u));
	said = true;
	return CL_INVALID_VALUE;
}

cl_ulong icd_max_alloc(void)
{
	cl_ulong heap = icd_device.info.max_mem_alloc_size;
	if (heap <= 2 * ICD_HEAP_RESERVE)
		return heap / 2 & ~(cl_ulong)(HP_MBOX_BUFFER_ALIGN - 1);
	return (heap - ICD_HEAP_RESERVE) &
	       ~(cl_ulong)(HP_MBOX_BUFFER_ALIGN - 1);
}

cl_int icd_device_open(void)
{
	struct _cl_device_id *d = &icd_device;
	if (d->hp)
		return CL_SUCCESS;
	read_config();
	if (timeout_get(&d->timeout_us))
		return CL_DEVICE_NOT_FOUND;
	hp_open_options o = {0};
	const char *env = getenv("HARTPOOL_DEVICE");
	const char *board = getenv("HARTPOOL_BOARD");
	const char *harts = getenv("HARTPOOL_HARTS");
	if (env && *env)
		o.connect = env;
	else if (conf_connect[0])
		o.connect = conf_connect;
	if (!board || !*board)
		board = conf_board[0] ? conf_board : NULL;
	if (!o.connect) {
		o.board = board;
		o.harts = harts && *harts ? (unsigned)strtoul(harts, NULL, 0)
					  : conf_harts;
	}
	int rc = hp_open(&o, &d->hp);
	if (rc) {
		d->hp = NULL;
		if (getenv("HARTPOOL_ICD_DEBUG"))
			fprintf(stderr, "hartpool-icd: %s\n", hp_last_error());
		return rc == HP_DEVICE_NOT_FOUND ? CL_DEVICE_NOT_FOUND
						 : CL_DEVICE_NOT_AVAILABLE;
	}
	d->info = *hp_info(d->hp);
	if (board)
		snprintf(d->board, sizeof(d->board), "%s", board);
	else if (!o.connect)
		snprintf(d->board, sizeof(d->board), "qemu-virt");
	else
		snprintf(d->board, sizeof(d->board), "%s",
			 d->info.address_bits == 64 ? "qemu-virt"
						    : "qemu-virt32");
	builtins_list();
	return CL_SUCCESS;
}

__attribute__((destructor)) static void icd_fini(void)
{
	if (icd_device.hp) {
		hp_close(icd_device.hp);
		icd_device.hp = NULL;
	}
}
