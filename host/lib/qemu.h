/* SPDX-License-Identifier: MIT */
/**
 * @file The QEMU launcher of libhartpool (qemu.c): boots a device by
 * running qemu/hp-qemu with a board's firmware, and keeps track of that
 * QEMU process. hp-qemu keeps the guest RAM in a /dev/shm file and the UART
 * on a Unix socket next to it:
 *   PATH       guest RAM (shm transport)
 *   PATH.sock  the UART (serial transport; the doorbell)
 *   PATH.log   everything the UART sent (console)
 *   PATH.pid   QEMU's pid, for the processes that connect later
 *   PATH.err   what hp-qemu and QEMU print
 * The launcher knows nothing of the mailbox. Like the transports
 * (transport.h), its functions return 0 or an HP_ error with a message in
 * the caller's @p err.
 */
#ifndef HOST_QEMU_H
#define HOST_QEMU_H

#include <hartpool.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/** A device's QEMU, when there is one to know about. */
typedef struct hp_qemu {
	char path[256]; /**< its guest RAM file, or "" (a serial link) */
	pid_t pid;	/**< QEMU's pid if known, else 0 */
	bool spawned;	/**< we started it: our child */
	bool detach;	/**< leave it running when the device is closed */
	/** hp_qemu_check found it gone: why (said again on every check) */
	char gone[160];
} hp_qemu;

/**
 * Boot the firmware of board @p o->board (default qemu-virt) with
 * @p o->harts harts (default 8, or the board's fixed count; at most 512),
 * o->mem_size, o->append, o->boot and o->detach in QEMU; return once the
 * guest RAM file is there (the device may still be booting). The firmware
 * is build/BOARD/hartpool.elf under hp_data_dir() (hartpool_boards.h:
 * an installed share/hartpool, or the source tree), and hp-qemu gets the
 * board's QEMU settings from the board table; o->boot "uboot" boots
 * build/BOARD/sdcard.img
 * (`make image`) through the board's U-Boot instead.
 * HP_INVALID_VALUE for a board not in the table (the message lists them)
 * or not modelled by QEMU, no firmware, a harts count out of range or options
 * hp-qemu refuses (its own message); HP_DEVICE_NOT_AVAILABLE when QEMU
 * exits at start; HP_TIMEOUT when it makes no RAM file in 30 s.
 */
int hp_qemu_boot(hp_qemu *q, const hp_open_options *o, char *err,
		 size_t errlen);

/** The QEMU of a device another process booted, from the guest RAM file
 * @p path (its pid from PATH.pid, 0 if there is none). */
void hp_qemu_attach(hp_qemu *q, const char *path);

/** Is the QEMU still there? 0, or HP_DEVICE_NOT_AVAILABLE saying how it
 * ended (a child of ours is reaped and forgotten). */
int hp_qemu_check(hp_qemu *q, char *err, size_t errlen);

/** Wait up to @p ms for QEMU to end (a child of ours is reaped; another
 * process's QEMU must be gone, not only exiting); true if it did. */
bool hp_qemu_wait_exit(hp_qemu *q, unsigned ms);

/** SIGKILL to QEMU, without waiting. */
void hp_qemu_kill(hp_qemu *q);

/** Wait for our child QEMU to end and reap it. */
void hp_qemu_reap(hp_qemu *q);

/** Remove the guest RAM file and the files next to it. */
void hp_qemu_remove_files(const hp_qemu *q);

/** The UART socket next to the RAM file, connected (one byte on it wakes
 * the device's dispatcher: docs/mailbox.md, doorbell), or -1. */
int hp_qemu_doorbell(const hp_qemu *q);

/** Has process @p pid ended? A killed process counts as soon as it is
 * exiting or a zombie not yet reaped, not only once gone (QEMU, and the
 * host processes that own device queues). */
bool hp_qemu_pid_gone(pid_t pid);

#endif
