// SPDX-License-Identifier: MIT
/* The device's bell to a host beside it, over Linux's UIO (host_bell.h).
 * uio_pci_generic masks the function's interrupt (the PCI command
 * register's INTx disable bit) when it fires and counts it; user space
 * unmasks it by clearing that bit through the function's sysfs config
 * file, and poll() on /dev/uioN returns once the count differs from what
 * this file last read. A wait lowers the device's interrupt (the firmware
 * raised it for an earlier completion), unmasks the line, then looks at
 * its word: a ring after that look finds the line open and wakes the
 * poll. */
#include "host_bell.h"
#include "backoff.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <hartpool/error.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The high byte of the command register, and its INTx disable bit. */
#define PCI_COMMAND_HI 5
#define PCI_INTX_DISABLE_HI 0x04u

struct hp_host_bell {
	int fd;			/* /dev/uioN */
	int cfg;		/* the function's config space (sysfs) */
	volatile uint32_t *ack; /* in the mapped first page of BAR0 */
	void *page;
	char name[32];
};

/* "DDDD:BB:DD.F" of hexadecimal digits: a name safe in a sysfs path. */
static bool pci_name_ok(const char *s)
{
	static const char form[] = "xxxx:xx:xx.x";
	if (strlen(s) != sizeof(form) - 1)
		return false;
	for (size_t i = 0; form[i]; i++)
		if (form[i] == 'x' ? !strchr("0123456789abcdef", s[i]) || !s[i]
				   : s[i] != form[i])
			return false;
	return true;
}

/* The uioN under /sys/bus/pci/devices/PCI/uio, into @p name. */
static bool uio_of(const char *pci, char *name, size_t len)
{
	char path[96];
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/uio", pci);
	DIR *d = opendir(path);
	if (!d)
		return false;
	bool found = false;
	for (struct dirent *e; !found && (e = readdir(d));)
		if (strncmp(e->d_name, "uio", 3) == 0 &&
		    strlen(e->d_name) < len) {
			snprintf(name, len, "%s", e->d_name);
			found = true;
		}
	closedir(d);
	return found;
}

int hp_host_bell_open(const char *pci, uint32_t ack, hp_host_bell **out,
		      char *err, size_t errlen)
{
	*out = NULL;
	if (!pci_name_ok(pci) || ack % 4 || ack >= 4096) {
		snprintf(err, errlen,
			 "host bell: wants a PCI function like 0000:00:1f.0 "
			 "and an acknowledge register in its first page, not "
			 "'%s' at 0x%x",
			 pci, ack);
		return HP_INVALID_VALUE;
	}
	hp_host_bell *b = calloc(1, sizeof(*b));
	if (!b) {
		snprintf(err, errlen, "out of host memory (%zu bytes)",
			 sizeof(*b));
		return HP_OUT_OF_RESOURCES;
	}
	if (!uio_of(pci, b->name, sizeof(b->name))) {
		snprintf(err, errlen,
			 "host bell: PCI function %s has no UIO device "
			 "(uio_pci_generic not bound to it)",
			 pci);
		free(b);
		return HP_DEVICE_NOT_FOUND;
	}
	/* The uio device, the function's config space and its BAR0's
	 * first page; the first that fails is named. */
	char path[128];
	int rfd = -1;
	b->fd = b->cfg = -1;
	snprintf(path, sizeof(path), "/dev/%s", b->name);
	if ((b->fd = open(path, O_RDWR | O_CLOEXEC)) < 0)
		goto fail;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", pci);
	if ((b->cfg = open(path, O_RDWR | O_CLOEXEC)) < 0)
		goto fail;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource0", pci);
	if ((rfd = open(path, O_RDWR | O_SYNC | O_CLOEXEC)) < 0)
		goto fail;
	void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, rfd, 0);
	if (m == MAP_FAILED)
		goto fail;
	close(rfd);
	b->page = m;
	b->ack = (volatile uint32_t *)((uint8_t *)b->page + ack);
	*out = b;
	return 0;
fail:
	snprintf(err, errlen, "host bell: %s: %s", path, strerror(errno));
	if (rfd >= 0)
		close(rfd);
	if (b->cfg >= 0)
		close(b->cfg);
	if (b->fd >= 0)
		close(b->fd);
	free(b);
	return HP_DEVICE_NOT_FOUND;
}

void hp_host_bell_close(hp_host_bell *b)
{
	if (!b)
		return;
	munmap(b->page, 4096);
	close(b->fd);
	close(b->cfg);
	free(b);
}

const char *hp_host_bell_name(const hp_host_bell *b)
{
	return b->name;
}

/* Open the line: clear the INTx disable bit if it is set. False (errno)
 * if the config file refuses. */
static bool unmask(hp_host_bell *b)
{
	uint8_t hi;
	if (pread(b->cfg, &hi, 1, PCI_COMMAND_HI) != 1)
		return false;
	if (!(hi & PCI_INTX_DISABLE_HI))
		return true;
	hi &= (uint8_t)~PCI_INTX_DISABLE_HI;
	return pwrite(b->cfg, &hi, 1, PCI_COMMAND_HI) == 1;
}

int hp_host_bell_wait(hp_host_bell *b, const volatile uint64_t *word,
		      uint64_t min, uint32_t ms, char *err, size_t errlen)
{
	uint64_t end = hp_now_ns() + (uint64_t)ms * 1000000u;
	for (;;) {
		*b->ack = 1;
		if (!unmask(b)) {
			snprintf(err, errlen, "host bell: %s config: %s",
				 b->name, strerror(errno));
			return HP_DEVICE_NOT_AVAILABLE;
		}
		if (__atomic_load_n(word, __ATOMIC_ACQUIRE) >= min)
			return 0;
		uint64_t now = hp_now_ns();
		if (now >= end)
			return 0;
		struct pollfd p = {.fd = b->fd, .events = POLLIN};
		int left = (int)((end - now + 999999) / 1000000);
		int r = poll(&p, 1, left);
		uint32_t count;
		if (r > 0 && read(b->fd, &count, sizeof(count)) < 0 &&
		    errno != EAGAIN && errno != EINTR)
			r = -1;
		if (r < 0 && errno != EINTR) {
			snprintf(err, errlen, "host bell: %s: %s", b->name,
				 strerror(errno));
			return HP_DEVICE_NOT_AVAILABLE;
		}
	}
}
