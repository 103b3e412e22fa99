// SPDX-License-Identifier: MIT
/* The shm transport: QEMU's guest RAM file (memory-backend-file,share=on)
 * mapped into the host process. Device address A is file offset
 * A - dram_base; reads and writes are plain copies with fences, which is
 * what a host core sharing DRAM with the cluster would do too. */
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
	memcpy(p, buf, len);
	return 0;
}

static void shm_close(hp_transport *t)
{
	if (t->bell >= 0)
		close(t->bell);
	munmap(t->map, t->map_size);
	free(t);
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
