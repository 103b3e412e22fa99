// SPDX-License-Identifier: MIT
/* The platform and its devices: finding, booting and connecting them
 * (HARTPOOL_DEVICES, HARTPOOL_DEVICE, the config file, or a QEMU boot), the
 * library-wide lock and the info helpers. */
#include "core.h"
#include <ctype.h>
#include <errno.h>
#include <hartpool_boards.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct _cl_platform_id icd_platform = {.magic = MAGIC_PLATFORM};
struct _cl_device_id icd_devices[ICD_DEVICES_MAX];
unsigned icd_num_devices;
struct _cl_icd_dispatch *icd_dispatch_table;

void icd_core_init(struct _cl_icd_dispatch *d)
{
	icd_dispatch_table = d;
	icd_platform.dispatch = d;
	for (unsigned i = 0; i < ICD_DEVICES_MAX; i++) {
		icd_devices[i].dispatch = d;
		icd_devices[i].index = i;
	}
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
	for (unsigned i = 0; i < icd_num_devices; i++)
		if (d == &icd_devices[i])
			return true;
	return false;
}

/* ---- finding the device ---- */

static char conf_connect[512], conf_board[32], conf_timeout[32],
	conf_devices[1024];
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
		else if (!strcmp(k, "devices"))
			snprintf(conf_devices, sizeof(conf_devices), "%s", v);
	}
	fclose(f);
}

static void builtins_list(struct _cl_device_id *d)
{
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

cl_ulong icd_max_alloc(cl_device_id d)
{
	cl_ulong heap = d->info.max_mem_alloc_size;
	if (heap <= 2 * ICD_HEAP_RESERVE)
		return heap / 2 & ~(cl_ulong)(HP_MBOX_BUFFER_ALIGN - 1);
	return (heap - ICD_HEAP_RESERVE) &
	       ~(cl_ulong)(HP_MBOX_BUFFER_ALIGN - 1);
}

cl_device_svm_capabilities icd_svm_caps(cl_device_id d)
{
	cl_device_svm_capabilities c = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER;
	if (hp_device_shares_addresses(d->hp))
		c |= CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_ATOMICS;
	return c;
}

cl_ulong icd_ctx_max_alloc(cl_context c)
{
	cl_ulong max = ~(cl_ulong)0;
	for (cl_uint i = 0; i < c->num_devs; i++)
		if (icd_max_alloc(c->devs[i]) < max)
			max = icd_max_alloc(c->devs[i]);
	return max;
}

/* The @p l bytes of a spec at @p from, cut at 511. */
static void spec_copy(char *to, const char *from, size_t l)
{
	l = l < 511 ? l : 511;
	memcpy(to, from, l);
	to[l] = 0;
}

/* One device of the configuration: its spec and, once opened, itself. */
struct dev_slot {
	char spec[512];
	hp_open_options o;
	char board[32];
	int rc;
	char why[512];
	hp_device *hp;
};

/* A spec: "shm:PATH" / "devmem[:ADDR]" / "serial:DEV,..." (a running
 * device) or "boot:BOARD[/HARTS]" (a QEMU boot). False: of no kind known. */
static bool slot_parse(struct dev_slot *s)
{
	if (!strncmp(s->spec, "shm:", 4) || !strncmp(s->spec, "serial:", 7) ||
	    !strcmp(s->spec, "devmem") || !strncmp(s->spec, "devmem:", 7)) {
		s->o.connect = s->spec;
		return true;
	}
	if (strncmp(s->spec, "boot:", 5))
		return false;
	const char *b = s->spec + 5, *slash = strchr(b, '/');
	size_t l = slash ? (size_t)(slash - b) : strlen(b);
	if (!l || l >= sizeof(s->board))
		return false;
	memcpy(s->board, b, l);
	s->board[l] = 0;
	s->o.board = s->board;
	if (slash) {
		char *end;
		unsigned long h = strtoul(slash + 1, &end, 10);
		if (*end || !h || h > 4096)
			return false;
		s->o.harts = (unsigned)h;
	}
	return true;
}

static void slot_open(struct dev_slot *s)
{
	/* Benchmarks count a booted device's instructions (docs/counting.md).
	 */
	if (!s->o.connect)
		s->o.count_file = getenv("HP_QEMU_COUNT");
	s->rc = hp_open(&s->o, &s->hp);
	if (s->rc) {
		s->hp = NULL;
		snprintf(s->why, sizeof(s->why), "%s", hp_last_error());
	}
}

/* The configured specs: HARTPOOL_DEVICES (or icd.conf's `devices =`): N
 * boots of the board, or a list separated by spaces or ';'. Else the one
 * device of HARTPOOL_DEVICE / `connect =`, or a boot of HARTPOOL_BOARD /
 * HARTPOOL_HARTS (`board =`, `harts =`). */
static unsigned slots_get(struct dev_slot *s, const char **from)
{
	const char *list = getenv("HARTPOOL_DEVICES"), *env;
	const char *named = getenv("HARTPOOL_BOARD");
	const char *harts = getenv("HARTPOOL_HARTS");
	if (!named || !*named)
		named = conf_board[0] ? conf_board : NULL;
	const char *board = named ? named : "qemu-virt";
	unsigned h = harts && *harts ? (unsigned)strtoul(harts, NULL, 0)
				     : conf_harts;
	char boot[128];
	if (h)
		snprintf(boot, sizeof(boot), "boot:%s/%u", board, h);
	else
		snprintf(boot, sizeof(boot), "boot:%s", board);
	*from = "HARTPOOL_DEVICES";
	if (!list || !*list) {
		list = conf_devices[0] ? conf_devices : NULL;
		*from = "icd.conf devices";
	}
	unsigned n = 0;
	char *end;
	unsigned long count = list ? strtoul(list, &end, 10) : 0;
	if (list && isdigit((unsigned char)*list) && !*end) {
		for (; n < count && n < ICD_DEVICES_MAX; n++)
			snprintf(s[n].spec, sizeof(s[n].spec), "%s", boot);
		return count > ICD_DEVICES_MAX ? ICD_DEVICES_MAX + 1 : n;
	}
	for (const char *p = list; p && *p;) {
		p += strspn(p, " ;\t");
		size_t l = strcspn(p, " ;\t");
		if (!l)
			break;
		if (n == ICD_DEVICES_MAX)
			return n + 1;
		spec_copy(s[n++].spec, p, l);
		p += l;
	}
	if (list)
		return n;
	*from = "HARTPOOL_DEVICE";
	env = getenv("HARTPOOL_DEVICE");
	if (!env || !*env) {
		env = conf_connect[0] ? conf_connect : NULL;
		*from = env ? "icd.conf connect" : "the default boot";
	}
	spec_copy(s[0].spec, env ? env : boot, strlen(env ? env : boot));
	/* a connected device's board: the one named, if one is */
	if (env && named)
		snprintf(s[0].board, sizeof(s[0].board), "%s", named);
	return 1;
}

/* A device that did not open is named on stderr with why (always: the
 * platform lists the others without it). */
static void slot_said(const struct dev_slot *s, unsigned i, const char *from)
{
	fprintf(stderr,
		"hartpool-icd: device %u of %s ('%s'): %s (%s); not listed\n",
		i, from, s->spec,
		s->rc == HP_INVALID_VALUE ? "HP_INVALID_VALUE"
					  : "CL_DEVICE_NOT_FOUND",
		s->why);
}

static void device_add(struct dev_slot *s, uint64_t timeout_us)
{
	struct _cl_device_id *d = &icd_devices[icd_num_devices++];
	d->hp = s->hp;
	d->timeout_us = timeout_us;
	d->info = *hp_info(d->hp);
	spec_copy(d->spec, s->spec, strlen(s->spec));
	/* a running device's board as it names itself, if the table knows
	 * it (kernels are built for it: a V board's with V) */
	char own[sizeof(d->info.board) + 1];
	snprintf(own, sizeof(own), "%.*s", (int)sizeof(d->info.board),
		 d->info.board);
	if (s->board[0])
		snprintf(d->board, sizeof(d->board), "%s", s->board);
	else if (own[0] && hp_board_find(own))
		snprintf(d->board, sizeof(d->board), "%.*s",
			 (int)sizeof(d->board) - 1, own);
	else
		snprintf(d->board, sizeof(d->board), "%s",
			 d->info.address_bits == 64 ? "qemu-virt"
						    : "qemu-virt32");
	builtins_list(d);
}

cl_int icd_device_open(void)
{
	static bool tried;
	if (icd_num_devices)
		return CL_SUCCESS;
	read_config();
	uint64_t timeout;
	if (timeout_get(&timeout))
		return CL_DEVICE_NOT_FOUND;
	/* one configuration tried once; a lone device again on every call
	 * (it may have been started since) */
	static struct dev_slot s[ICD_DEVICES_MAX];
	memset(s, 0, sizeof(s));
	const char *from;
	unsigned n = slots_get(s, &from);
	if (tried && n > 1)
		return CL_DEVICE_NOT_FOUND;
	tried = true;
	if (!n || n > ICD_DEVICES_MAX) {
		fprintf(stderr,
			"hartpool-icd: %s names %u devices, not 1..%u\n", from,
			n, ICD_DEVICES_MAX);
		return CL_DEVICE_NOT_FOUND;
	}
	/* one after the other, on this thread: a booted QEMU stops with the
	 * thread that booted it (hp_open) */
	for (unsigned i = 0; i < n; i++) {
		if (!slot_parse(&s[i])) {
			s[i].rc = HP_INVALID_VALUE;
			snprintf(s[i].why, sizeof(s[i].why),
				 "of no kind known: shm:PATH, devmem[:ADDR], "
				 "serial:DEV or boot:BOARD[/HARTS]");
		} else
			slot_open(&s[i]);
		if (s[i].hp)
			device_add(&s[i], timeout);
		else if (n > 1 || getenv("HARTPOOL_ICD_DEBUG"))
			slot_said(&s[i], i, from);
	}
	return icd_num_devices ? CL_SUCCESS : CL_DEVICE_NOT_FOUND;
}

__attribute__((destructor)) static void icd_fini(void)
{
	for (unsigned i = 0; i < icd_num_devices; i++) {
		hp_close(icd_devices[i].hp);
		icd_devices[i].hp = NULL;
	}
	icd_num_devices = 0;
}
