// SPDX-License-Identifier: MIT
/* The shm transport: QEMU's guest RAM file (memory-backend-file,share=on)
 * mapped into the host process. Device address A is file offset
 * A - dram_base; reads and writes are plain copies with fences, which is
 * what a host core sharing DRAM with the cluster would do too. The devmem
 * transport is the same over /dev/mem on a core beside the cluster (a
 * Linux next to the firmware, docs/boards/qemu-virt-amp.md): device
 * address A is physical address A, from the mailbox to the end of the
 * buffers. */
#define _GNU_SOURCE /* mremap */
#include "host_bell.h"
#include "transport.h"
#include <errno.h>
#include <fcntl.h>
#include <hartpool/error.h>
#include <hartpool/mbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static uint8_t *at(hp_transport *t, uint64_t addr, size_t len)
{
	if (addr < t->map_base || addr - t->map_base > t->map_size ||
	    len > t->map_size - (addr - t->map_base)) {
		snprintf(t->err, sizeof(t->err),
			 "device address 0x%llx (+%zu) is outside the shared "
			 "memory",
			 (unsigned long long)addr, len);
		return NULL;
	}
	return t->map + (addr - t->map_base);
}

static int shm_read(hp_transport *t, uint64_t addr, void *buf, size_t len)
{
	uint8_t *p = at(t, addr, len);
	if (!p)
		return HP_INVALID_VALUE;
	if (p != buf) /* (a mapping at the device's addresses: itself) */
		memcpy(buf, p, len);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return 0;
}

static int shm_write(hp_transport *t, uint64_t addr, const void *buf,
		     size_t len)
{
	uint8_t *p = at(t, addr, len);
	if (!p)
		return HP_INVALID_VALUE;
	/* Everything written before is visible before this (release). */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (p != buf)
		memcpy(p, buf, len);
	return 0;
}

static void shm_close(hp_transport *t)
{
	hp_host_bell_close(t->host_bell);
	if (t->bell >= 0)
		close(t->bell);
	if (t->bell_page)
		munmap(t->bell_page, 4096);
	munmap(t->map, t->map_size);
	free(t);
}

void hp_transport_place(hp_transport *t)
{
	uintptr_t at = (uintptr_t)t->map_base;
	if (!t->map || (uintptr_t)t->map == at || at != t->map_base ||
	    at % 4096 || t->map_size > SIZE_MAX - at)
		return;
	/* Reserve the range (fails if anything is there), then move the
	 * mapping onto the reservation: nothing of ours is replaced. */
	void *r = mmap((void *)at, (size_t)t->map_size, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
			       MAP_FIXED_NOREPLACE,
		       -1, 0);
	if (r == MAP_FAILED)
		return;
	if ((uintptr_t)r != at) { /* a kernel that took it as a hint */
		munmap(r, (size_t)t->map_size);
		return;
	}
	void *m = mremap(t->map, (size_t)t->map_size, (size_t)t->map_size,
			 MREMAP_MAYMOVE | MREMAP_FIXED, r);
	if (m == MAP_FAILED)
		munmap(r, (size_t)t->map_size);
	else
		t->map = m;
}

static const hp_transport_ops shm_ops = {
	.read = shm_read,
	.write = shm_write,
	.close = shm_close,
};

int hp_transport_shm_open(const char *path, uint64_t dram_base,
			  hp_transport **out, char *err, size_t errlen)
{
	*out = NULL;
	int fd = open(path, O_RDWR);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return HP_DEVICE_NOT_FOUND;
	}
	struct stat st;
	if (fstat(fd, &st)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return HP_DEVICE_NOT_FOUND;
	}
	if (!S_ISREG(st.st_mode) ||
	    st.st_size < (off_t)(HP_MBOX_QEMU_OFFSET + 4096)) {
		snprintf(err, errlen,
			 "%s is not a hartpool device's memory (%lld bytes, a "
			 "mailbox needs more than %llu)",
			 path, (long long)st.st_size,
			 (unsigned long long)HP_MBOX_QEMU_OFFSET + 4096);
		close(fd);
		return HP_DEVICE_NOT_FOUND;
	}
	if ((uint64_t)st.st_size > SIZE_MAX) {
		snprintf(err, errlen,
			 "cannot map %s: %lld bytes exceed this host's address "
			 "space",
			 path, (long long)st.st_size);
		close(fd);
		return HP_OUT_OF_RESOURCES;
	}
	/* All of it, however large: the file is sparse, so mapping costs
	 * address space, not memory. */
	void *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
		       MAP_SHARED, fd, 0);
	int e = errno;
	close(fd);
	if (m == MAP_FAILED) {
		snprintf(err, errlen, "cannot map %lld bytes of %s: %s",
			 (long long)st.st_size, path, strerror(e));
		return e == ENOMEM ? HP_OUT_OF_RESOURCES : HP_DEVICE_NOT_FOUND;
	}
	hp_transport *t = calloc(1, sizeof(*t));
	if (!t) {
		munmap(m, (size_t)st.st_size);
		snprintf(err, errlen, "out of host memory (%zu bytes)",
			 sizeof(*t));
		return HP_OUT_OF_RESOURCES;
	}
	t->ops = &shm_ops;
	t->map = m;
	t->map_base = dram_base;
	t->map_size = (uint64_t)st.st_size;
	t->mbox_addr = dram_base + HP_MBOX_QEMU_OFFSET;
	/* Non-blocking: opening fails (ENXIO) if QEMU is gone, and a ring
	 * into a full FIFO finds one already waiting. */
	char bell[4096];
	t->bell = -1;
	if (snprintf(bell, sizeof(bell), "%s.doorbell.in", path) <
	    (int)sizeof(bell))
		t->bell = open(bell, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	*out = t;
	return 0;
}

/* devmem's waits: asleep until the device's bell to this host rings
 * (the firmware rings it after every completion record of our session),
 * where the firmware has one; else the caller's back-off. */
static int devmem_wait(hp_transport *t, uint64_t addr, uint64_t min, size_t len,
		       uint32_t ms)
{
	(void)len;
	const volatile hp_mbox_header *h = (const void *)t->map;
	uint8_t *p = at(t, addr, sizeof(uint64_t));
	if (!p || addr % 8)
		return HP_INVALID_VALUE;
	if (!(h->info.features & HP_DEV_HAS_HOST_BELL))
		return 0;
	return hp_host_bell_wait(t->host_bell, (const volatile uint64_t *)p,
				 min, ms, t->err, sizeof(t->err));
}

static const hp_transport_ops devmem_bell_ops = {
	.read = shm_read,
	.write = shm_write,
	.close = shm_close,
	.wait = devmem_wait,
};

/* Map @p len bytes of @p fd at physical @p addr; NULL (errno) if not. */
static uint8_t *devmem_map(int fd, uint64_t addr, uint64_t len)
{
	if (len > SIZE_MAX || addr > (uint64_t)INT64_MAX) {
		errno = EOVERFLOW;
		return NULL;
	}
	void *m = mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE, MAP_SHARED,
		       fd, (off_t)addr);
	return m == MAP_FAILED ? NULL : m;
}

/* Property @p name of the running kernel's /chosen into @p b (at most
 * @p len bytes); how many bytes it has, 0 if none. */
static size_t chosen(const char *name, void *b, size_t len)
{
	char path[128];
	snprintf(path, sizeof(path), "/proc/device-tree/chosen/%s", name);
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(b, 1, len, f) : 0;
	if (f)
		fclose(f);
	return n;
}

/* A big-endian number of @p cells 32-bit cells in /chosen, 0 if none. */
static uint64_t chosen_uint(const char *name, unsigned cells)
{
	uint8_t b[8];
	size_t n = chosen(name, b, 4u * cells);
	uint64_t v = 0;
	for (size_t i = 0; n == 4u * cells && i < n; i++)
		v = v << 8 | b[i];
	return v;
}

static uint64_t chosen_u64(const char *name)
{
	return chosen_uint(name, 2);
}

/* The device's bell to us, as /chosen names it; NULL if it names none or
 * it cannot be opened (the waits then poll: a kernel without UIO, a
 * process without the right to it). */
static hp_host_bell *host_bell_open(void)
{
	char pci[32] = "";
	size_t n = chosen("hartpool,host-bell", pci, sizeof(pci) - 1);
	if (!n || pci[n - 1] != 0)
		return NULL;
	hp_host_bell *b = NULL;
	char err[256];
	hp_host_bell_open(pci,
			  (uint32_t)chosen_uint("hartpool,host-bell-ack", 1),
			  &b, err, sizeof(err));
	return b;
}

/* spec: "" (the device tree's /chosen/hartpool,mailbox and
 * hartpool,doorbell, else HP_DEVMEM_MBOX and none), or
 * ADDR[,bell=ADDR]; either with wait=poll (*poll) after a comma, or
 * wait=poll alone. */
static int devmem_spec(const char *full, uint64_t *addr, uint64_t *bell,
		       bool *poll, char *err, size_t errlen)
{
	char spec[128];
	size_t n = strlen(full);
	*poll = false;
	if (n >= sizeof(spec)) {
		snprintf(err, errlen, "devmem: '%.40s...' is too long", full);
		return HP_INVALID_VALUE;
	}
	memcpy(spec, full, n + 1);
	static const char opt[] = "wait=poll";
	size_t o = sizeof(opt) - 1;
	if (n >= o && strcmp(spec + n - o, opt) == 0 &&
	    (n == o || spec[n - o - 1] == ',')) {
		*poll = true;
		spec[n == o ? 0 : n - o - 1] = 0;
	}
	if (!*spec) {
		*addr = chosen_u64("hartpool,mailbox");
		*bell = chosen_u64("hartpool,doorbell");
		if (!*addr)
			*addr = HP_DEVMEM_MBOX;
		return 0;
	}
	char *end = NULL;
	errno = 0;
	*addr = strtoull(spec, &end, 0);
	*bell = 0;
	if (!errno && strncmp(end, ",bell=", 6) == 0)
		*bell = strtoull(end + 6, &end, 0);
	if (errno || *end || *addr % 4096 || *bell % 4) {
		snprintf(err, errlen,
			 "devmem: wants the mailbox's physical address "
			 "(4096-aligned) and maybe the doorbell's (e.g. "
			 "devmem:0x%llx,bell=0x2f00008), and maybe wait=poll, "
			 "not '%s'",
			 (unsigned long long)HP_DEVMEM_MBOX, full);
		return HP_INVALID_VALUE;
	}
	return 0;
}

int hp_transport_devmem_open(const char *spec, hp_transport **out, char *err,
			     size_t errlen)
{
	*out = NULL;
	uint64_t addr, bell;
	bool poll;
	int rc = devmem_spec(spec, &addr, &bell, &poll, err, errlen);
	if (rc)
		return rc;
	int fd = open("/dev/mem", O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "/dev/mem: %s", strerror(errno));
		return HP_DEVICE_NOT_FOUND;
	}
	/* The header first: where the buffers end. */
	hp_mbox_header h;
	uint8_t *m = devmem_map(fd, addr, 4096);
	if (m) {
		memcpy(&h, m, sizeof(h));
		munmap(m, 4096);
	}
	uint64_t len = m ? h.buf_base + h.buf_size - addr : 0;
	if (!m || h.magic != HP_MBOX_MAGIC || h.buf_base < addr ||
	    len > (1ull << 40)) {
		snprintf(err, errlen,
			 m ? "no hartpool mailbox at physical 0x%llx"
			   : "cannot map physical 0x%llx of /dev/mem: %s",
			 (unsigned long long)addr, strerror(errno));
		close(fd);
		return HP_DEVICE_NOT_FOUND;
	}
	m = devmem_map(fd, addr, len);
	int e = errno;
	uint8_t *bp = m && bell ? devmem_map(fd, bell & ~4095ull, 4096) : NULL;
	close(fd);
	if (m && bell && !bp) {
		munmap(m, (size_t)len);
		snprintf(err, errlen,
			 "cannot map the doorbell at physical 0x%llx: %s",
			 (unsigned long long)bell, strerror(errno));
		return HP_DEVICE_NOT_FOUND;
	}
	hp_transport *t = m ? calloc(1, sizeof(*t)) : NULL;
	if (!t) {
		if (m)
			munmap(m, (size_t)len);
		snprintf(err, errlen,
			 "cannot map %llu bytes at physical 0x%llx: %s",
			 (unsigned long long)len, (unsigned long long)addr,
			 m ? "out of host memory" : strerror(e));
		return HP_OUT_OF_RESOURCES;
	}
	t->ops = &shm_ops;
	t->map = m;
	t->map_base = addr;
	t->map_size = len;
	t->map_fixed = true;
	t->mbox_addr = addr;
	t->bell = -1;
	if (bp) {
		t->bell_page = bp;
		t->bell_reg = (volatile uint32_t *)(bp + (bell & 4095));
	}
	if (!poll && (t->host_bell = host_bell_open())) {
		t->ops = &devmem_bell_ops;
		t->wait_sleeps = true;
	}
	*out = t;
	return 0;
}
