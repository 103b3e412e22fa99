/* SPDX-License-Identifier: MIT */
/**
 * @file The device's bell to a host beside it (HP_DEV_HAS_HOST_BELL,
 * docs/boards/qemu-virt-amp.md): a PCI function the firmware makes raise
 * its interrupt, handed to user space by Linux's uio_pci_generic. A
 * waiting host sleeps in poll() on /dev/uioN until the interrupt, so
 * neither side spins. Any number of processes may wait on it at once:
 * every interrupt wakes them all, and each looks at its own word.
 */
#ifndef HOST_HOST_BELL_H
#define HOST_HOST_BELL_H

#include <stddef.h>
#include <stdint.h>

typedef struct hp_host_bell hp_host_bell;

/**
 * The bell of PCI function @p pci ("0000:00:1f.0", under uio_pci_generic):
 * its /dev/uioN, and its BAR0 (sysfs resource0) where the host writes 1 at
 * offset @p ack to lower the interrupt. 0, or HP_DEVICE_NOT_FOUND with a
 * message in @p err (no such function, not bound to uio_pci_generic, no
 * access), HP_INVALID_VALUE (a malformed name, @p ack not a 4-aligned
 * offset in the first page).
 */
int hp_host_bell_open(const char *pci, uint32_t ack, hp_host_bell **out,
		      char *err, size_t errlen);
void hp_host_bell_close(hp_host_bell *b);
/**
 * Sleep until the u64 at @p word is >= @p min (it is read after the
 * interrupt is armed, so a ring after the look wakes the sleep) or @p ms
 * milliseconds passed. 0 either way; HP_DEVICE_NOT_AVAILABLE (message in
 * @p err) when the uio device fails.
 */
int hp_host_bell_wait(hp_host_bell *b, const volatile uint64_t *word,
		      uint64_t min, uint32_t ms, char *err, size_t errlen);
/** Its /dev/uioN, for `hartpool info`. */
const char *hp_host_bell_name(const hp_host_bell *b);

#endif
