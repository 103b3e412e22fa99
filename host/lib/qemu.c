// SPDX-License-Identifier: MIT
/*
 * The QEMU launcher of libhartpool (qemu.h): runs qemu/hp-qemu for a board's
 * firmware with its RAM in /dev/shm and its UART on a socket next to it,
 * and watches, stops and cleans up after that process. The limits here are
 * the launcher's own (512 harts, 30 s to start); hp-qemu checks the rest
 * against the board's settings, which it gets from here: the board table
 * make generated from board/B/board.mk (hartpool_boards.h), in its
 * environment (--mem against QEMU_MEM_MIN..QEMU_MEM_MAX, --harts against
 * QEMU_MAX_HARTS and QEMU_SMP, --boot against QEMU_UBOOT). The firmware
 * and hp-qemu are under hp_data_dir(): an installed prefix's
 * share/hartpool, or the source tree (docs/install.md).
 */
#include "qemu.h"
#include "backoff.h"
#include <errno.h>
#include <fcntl.h>
#include <hartpool/mbox.h>
#include <hartpool_boards.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static int qfail(char *err, size_t errlen, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int qfail(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return code;
}

/* State letter and flags of `pid` from /proc/PID/stat (Linux); false if
 * it cannot be read. */
static bool proc_state(pid_t pid, char *state, unsigned long *flags)
{
	char f[64], buf[512];
	snprintf(f, sizeof(f), "/proc/%d/stat", (int)pid);
	FILE *fp = fopen(f, "r");
	if (!fp)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = 0;
	/* pid (comm) state ppid pgrp session tty tpgid flags ...; the name
	 * may hold spaces. */
	const char *p = strrchr(buf, ')');
	return p &&
	       sscanf(p + 1, " %c %*d %*d %*d %*d %*d %lu", state, flags) == 2;
}

bool hp_qemu_pid_gone(pid_t pid)
{
	if (kill(pid, 0) != 0)
		return errno == ESRCH;
	char state;
	unsigned long flags;
	if (!proc_state(pid, &state, &flags))
		return false;
	return state == 'Z' || state == 'X' || (flags & 0x4u /* PF_EXITING */);
}

/* Why QEMU is gone, into q->gone (every later check says it again: the pid
 * is forgotten, so it can no longer be asked). */
static int gone(hp_qemu *q, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int gone(hp_qemu *q, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(q->gone, sizeof(q->gone), fmt, ap);
	va_end(ap);
	q->pid = 0;
	q->spawned = false;
	return qfail(err, errlen, HP_DEVICE_NOT_AVAILABLE, "%s", q->gone);
}

int hp_qemu_check(hp_qemu *q, char *err, size_t errlen)
{
	if (q->gone[0])
		return qfail(err, errlen, HP_DEVICE_NOT_AVAILABLE, "%s",
			     q->gone);
	if (q->spawned) {
		int st;
		pid_t r = waitpid(q->pid, &st, WNOHANG);
		/* ECHILD: reaped by someone else, a SIGCHLD handler of the
		 * program's (Open MPI's ranks have one) */
		if (r < 0 && errno == ECHILD)
			return gone(q, err, errlen,
				    "the device is gone: QEMU (pid %d) exited "
				    "(reaped by another part of this program)",
				    (int)q->pid);
		if (r == q->pid)
			return gone(q, err, errlen,
				    "the device is gone: QEMU exited (%s %d)",
				    WIFEXITED(st) ? "status" : "signal",
				    WIFEXITED(st) ? WEXITSTATUS(st)
						  : WTERMSIG(st));
	} else if (q->pid > 0 && hp_qemu_pid_gone(q->pid)) {
		return gone(q, err, errlen,
			    "the device is gone: QEMU (pid %d) is not running",
			    (int)q->pid);
	}
	return 0;
}

void hp_qemu_attach(hp_qemu *q, const char *path)
{
	q->gone[0] = 0;
	snprintf(q->path, sizeof(q->path), "%s", path);
	char f[300], buf[32] = {0};
	snprintf(f, sizeof(f), "%s.pid", path);
	FILE *fp = fopen(f, "r");
	if (!fp)
		return;
	if (!fgets(buf, sizeof(buf), fp))
		buf[0] = 0;
	fclose(fp);
	q->pid = (pid_t)atoi(buf);
}

void hp_qemu_remove_files(const hp_qemu *q)
{
	static const char *const ext[] = {
		"",	".sock",	".log",		 ".pid",
		".err", ".doorbell.in", ".doorbell.out", ".linux.log"};
	char f[320];
	for (unsigned i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		snprintf(f, sizeof(f), "%s%s", q->path, ext[i]);
		unlink(f);
	}
}

/* The settings hp-qemu takes from the environment (qemu/hp-qemu,
 * HP_QEMU_BOARD_ENV), from board @p b. */
#define BOARD_ENV_N 18
static void board_env(const hp_board_info *b, char env[BOARD_ENV_N][320])
{
	const struct {
		const char *key, *val;
	} v[BOARD_ENV_N] = {
		{"HP_QEMU_BOARD_ENV", "1"},
		{"QEMU_SYSTEM", b->qemu_system},
		{"QEMU_MACHINE", b->qemu_machine},
		{"QEMU_CPU", b->qemu_cpu},
		{"QEMU_MEM", b->qemu_mem},
		{"QEMU_MEM_MIN", b->qemu_mem_min},
		{"QEMU_MEM_MAX", b->qemu_mem_max},
		{"QEMU_BIOS", b->qemu_bios},
		{"QEMU_LOAD", b->qemu_load},
		{"QEMU_SMP", b->qemu_smp},
		{"QEMU_MAX_HARTS", b->qemu_max_harts},
		{"QEMU_MAX_HARTS_WHY", b->qemu_max_harts_why},
		{"QEMU_UBOOT", b->qemu_uboot},
		{"QEMU_UBOOT_MAX_HARTS", b->qemu_uboot_max_harts},
		{"QEMU_EXIT", b->qemu_exit},
		{"QEMU_ACCEL", b->qemu_accel},
		{"QEMU_PATCHED", b->qemu_patched},
		{"QEMU_DOORBELL", b->qemu_doorbell},
	};
	/* QEMU_ACCEL: a board.mk that leaves it out takes the environment's
	 * (docs/qemu.md; QEMU_ACCEL=multi hartpool up ...). */
	const char *accel = getenv("QEMU_ACCEL");
	bool env_accel = accel && *accel && !strcmp(b->qemu_accel, "auto");
	for (unsigned i = 0; i < BOARD_ENV_N; i++) {
		bool a = env_accel && !strcmp(v[i].key, "QEMU_ACCEL");
		snprintf(env[i], 320, "%s=%s", v[i].key, a ? accel : v[i].val);
	}
}

/* Our environment without what board_env() sets, then @p add: the child's,
 * built before fork() (malloc'd; NULL if out of memory). */
static char **child_env(char add[][320], unsigned nadd)
{
	extern char **environ;
	size_t n = 0;
	while (environ[n])
		n++;
	char **e = malloc((n + nadd + 1) * sizeof(*e));
	if (!e)
		return NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "QEMU_", 5) &&
		    strncmp(environ[i], "HP_QEMU_BOARD_ENV=", 18))
			e[k++] = environ[i];
	for (unsigned i = 0; i < nadd; i++)
		e[k++] = add[i];
	e[k] = NULL;
	return e;
}

/* The child: @p argv (hp-qemu) with environment @p envp, stdin from
 * /dev/null and its output in @p errf; it goes when we go, unless detached.
 * Only calls that are safe after fork() in a threaded process. Does not
 * return. */
static void exec_launcher(bool detach, const char *errf,
			  const char *const *argv, char **envp)
{
	if (detach)
		setsid();
	else
		prctl(PR_SET_PDEATHSIG, SIGTERM);
	int in = open("/dev/null", O_RDONLY);
	int out = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (in >= 0)
		dup2(in, 0);
	if (out >= 0) {
		dup2(out, 1);
		dup2(out, 2);
	}
	execve(argv[0], (char *const *)argv, envp);
	_exit(127);
}

/* QEMU @p pid, our child, has exited with @p status before making its RAM
 * file: why, from the first line it printed. */
static int start_failed(hp_qemu *q, int status, const char *board,
			const char *errf, char *err, size_t errlen)
{
	q->pid = 0;
	q->spawned = false;
	char msg[300] = "";
	FILE *ef = fopen(errf, "r");
	if (ef) {
		if (!fgets(msg, sizeof(msg), ef))
			msg[0] = 0;
		fclose(ef);
	}
	msg[strcspn(msg, "\n")] = 0;
	/* Exit status 2: hp-qemu refused its options (a --mem outside the
	 * board's range, ...); nothing to keep. */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2 && msg[0]) {
		hp_qemu_remove_files(q);
		return qfail(err, errlen, HP_INVALID_VALUE,
			     "cannot boot %s: %s", board, msg);
	}
	return qfail(err, errlen, HP_DEVICE_NOT_AVAILABLE,
		     "QEMU did not start (%s %d): %s (see %s)",
		     WIFEXITED(status) ? "status" : "signal",
		     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
		     msg[0] ? msg : "no message", errf);
}

/* The board, its firmware and the hart count, checked before anything
 * starts; fw gets the firmware's path. */
static int boot_check(const char *board, unsigned harts,
		      const hp_board_info **bip, char *fw, size_t fwlen,
		      char *err, size_t errlen)
{
	const hp_board_info *bi = hp_board_find(board);
	if (!bi) {
		char names[512];
		return qfail(err, errlen, HP_INVALID_VALUE,
			     "no board '%s': the boards are %s", board,
			     hp_board_names(names, sizeof(names)));
	}
	if (!bi->qemu_system[0])
		return qfail(err, errlen, HP_INVALID_VALUE,
			     "board '%s' does not boot in QEMU (no QEMU_SYSTEM "
			     "in its board.mk): connect to the board itself",
			     board);
	const char *data = hp_data_dir();
	snprintf(fw, fwlen, "%s/build/%s/hartpool.elf", data, board);
	if (access(fw, R_OK) != 0)
		return qfail(
			err, errlen, HP_INVALID_VALUE,
			"no firmware for board '%s' at %s (`make BOARD=%s` "
			"in the source tree builds it, `make install "
			"BOARD=%s` installs it)",
			board, fw, board, board);
	if (harts > 512)
		return qfail(err, errlen, HP_INVALID_VALUE,
			     "--harts must be 1..512, not %u", harts);
	*bip = bi;
	return 0;
}

/* Benchmarks (hp_open_options.count_file): exact per-hart instruction
 * counts of the device, hp-qemu --count at -icount shift=10
 * (docs/counting.md). A "%u" in the name becomes the process's boot
 * number @p seq (0, 1, ...: one file per device of a process that boots
 * several), into @p buf. */
static unsigned count_args(const char **argv, unsigned na, const char *count,
			   unsigned seq, char *buf, size_t n)
{
	if (!count || !*count)
		return na;
	const char *at = strstr(count, "%u");
	if (at)
		snprintf(buf, n, "%.*s%u%s", (int)(at - count), count, seq,
			 at + 2);
	argv[na++] = "--icount-shift";
	argv[na++] = "10";
	argv[na++] = "--count";
	argv[na++] = at ? buf : count;
	return na;
}

/* The bootargs of a boot, into @p buf: the caller's first (the first of a
 * key counts), then, for a device of this process alone, no per-session
 * quotas (docs/sessions.md, "Quotas"); `hartpool up`'s (detached) is
 * shared. A -bios image gets no bootargs: its firmware's default, shared. */
static void boot_append(const hp_board_info *bi, const hp_open_options *o,
			char *buf, size_t n)
{
	bool bootargs = strcmp(bi->qemu_load, "bios") != 0 ||
			(o->boot && !strcmp(o->boot, "uboot"));
	bool private = !o->detach && bootargs;
	snprintf(buf, n, "%s%s%s", o->append ? o->append : "",
		 o->append && private ? " " : "",
		 private ? "hartpool.shared=0" : "");
}

int hp_qemu_boot(hp_qemu *q, const hp_open_options *o, char *err, size_t errlen)
{
	static unsigned seq;
	const char *board = o->board ? o->board : "qemu-virt";
	unsigned harts = o->harts;
	char fw[512], launcher[512], harts_s[16], mem_s[24], path[256],
		sock[300], log[300], errf[300], count[512];
	const hp_board_info *bi = NULL;
	int rc = boot_check(board, harts, &bi, fw, sizeof(fw), err, errlen);
	if (rc)
		return rc;
	snprintf(launcher, sizeof(launcher), "%s/qemu/hp-qemu", hp_data_dir());
	snprintf(harts_s, sizeof(harts_s), "%u", harts);
	snprintf(mem_s, sizeof(mem_s), "%llu", (unsigned long long)o->mem_size);
	unsigned boot = seq++;
	snprintf(path, sizeof(path), "/dev/shm/hartpool-%d-%u", (int)getpid(),
		 boot);
	snprintf(sock, sizeof(sock), "%s.sock", path);
	snprintf(log, sizeof(log), "%s.log", path);
	snprintf(errf, sizeof(errf), "%s.err", path);
	unlink(path);
	unlink(sock);
	snprintf(q->path, sizeof(q->path), "%s", path);
	const char *argv[24];
	unsigned na = 0;
	argv[na++] = launcher;
	argv[na++] = "--board";
	argv[na++] = board;
	if (harts) { /* else hp-qemu's default: 8, or the board's QEMU_SMP */
		argv[na++] = "--harts";
		argv[na++] = harts_s;
	}
	if (o->boot) {
		argv[na++] = "--boot";
		argv[na++] = o->boot;
	}
	argv[na++] = "--shm";
	argv[na++] = path;
	argv[na++] = "--serial-socket";
	argv[na++] = sock;
	argv[na++] = "--log";
	argv[na++] = log;
	char append[1024];
	boot_append(bi, o, append, sizeof(append));
	if (append[0]) {
		argv[na++] = "--append";
		argv[na++] = append;
	}
	if (o->mem_size) {
		argv[na++] = "--mem";
		argv[na++] = mem_s;
	}
	na = count_args(argv, na, o->count_file, boot, count, sizeof(count));
	argv[na++] = fw;
	argv[na] = NULL;

	char benv[BOARD_ENV_N][320];
	board_env(bi, benv);
	char **envp = child_env(benv, BOARD_ENV_N);
	if (!envp)
		return qfail(err, errlen, HP_OUT_OF_RESOURCES,
			     "cannot start QEMU: out of memory");
	pid_t pid = fork();
	if (pid < 0) {
		free(envp);
		return qfail(err, errlen, HP_OUT_OF_RESOURCES,
			     "cannot start QEMU: fork: %s (host processes or "
			     "memory)",
			     strerror(errno));
	}
	if (pid == 0)
		exec_launcher(o->detach, errf, argv, envp);
	free(envp);
	q->pid = pid;
	q->spawned = true;
	q->gone[0] = 0;
	q->detach = o->detach;
	char pidf[300];
	snprintf(pidf, sizeof(pidf), "%s.pid", path);
	FILE *fp = fopen(pidf, "w");
	if (fp) {
		fprintf(fp, "%d\n", (int)pid);
		fclose(fp);
	}
	/* The RAM file appears once QEMU has started. */
	uint64_t t0 = hp_now_ns();
	for (unsigned n = 0;; hp_backoff(&n)) {
		struct stat st;
		if (stat(path, &st) == 0 &&
		    st.st_size > (off_t)HP_MBOX_QEMU_OFFSET)
			return 0;
		int status;
		if (waitpid(pid, &status, WNOHANG) == pid)
			return start_failed(q, status, board, errf, err,
					    errlen);
		if (hp_now_ns() - t0 > 30000000000ull)
			return qfail(err, errlen, HP_TIMEOUT,
				     "QEMU did not create %s in 30 s", path);
	}
}

/* Has `pid` exited, only waiting to be reaped (state Z in /proc/PID/stat;
 * Linux)? A detached QEMU is not our child, and its reaper may take a
 * second to come (kill(pid, 0) still finds the zombie), but a zombie has
 * released every file, mapping and socket: for `down` it is gone. */
static bool zombie(pid_t pid)
{
	char state;
	unsigned long flags;
	return proc_state(pid, &state, &flags) &&
	       (state == 'Z' || state == 'X');
}

bool hp_qemu_wait_exit(hp_qemu *q, unsigned ms)
{
	uint64_t t0 = hp_now_ns();
	for (unsigned n = 0; hp_now_ns() - t0 < (uint64_t)ms * 1000000u;
	     hp_backoff(&n)) {
		if (q->pid <= 0)
			return true; /* reaped already */
		if (q->spawned) {
			pid_t r = waitpid(q->pid, NULL, WNOHANG);
			if (r == q->pid || (r < 0 && errno == ECHILD)) {
				q->pid = 0; /* ECHILD: reaped elsewhere */
				return true;
			}
		} else if (kill(q->pid, 0) != 0 || zombie(q->pid)) {
			/* Gone, or exited: `down` leaves no QEMU. */
			q->pid = 0;
			return true;
		}
	}
	return false;
}

void hp_qemu_kill(hp_qemu *q)
{
	if (q->pid > 0) /* never kill(0): that is our own process group */
		kill(q->pid, SIGKILL);
}

void hp_qemu_reap(hp_qemu *q)
{
	if (q->pid > 0 && q->spawned && waitpid(q->pid, NULL, 0) == q->pid)
		q->pid = 0;
}

int hp_qemu_doorbell(const hp_qemu *q)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (snprintf(sa.sun_path, sizeof(sa.sun_path), "%s.sock", q->path) >=
	    (int)sizeof(sa.sun_path))
		return -1;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}
