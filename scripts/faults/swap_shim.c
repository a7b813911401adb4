// SPDX-License-Identifier: GPL-2.0
/*
 * An LD_PRELOAD shim for scripts/faults/store-race: once a process has
 * asked access() of SWAP_PATH and opened it, SWAP_WITH is renamed over
 * it, before that open returns.  perf --store asks access() of a file of
 * this machine and opens it to check its build id (perf opened it before,
 * reading the perf.data): what it stores after that must be the file it
 * checked, not what has its name now (a FIFO here, that a copy by name
 * would wait on forever).  With SWAP_OPEN=N, the Nth open of SWAP_PATH
 * that succeeds swaps, access() or not: a download of perf --store, which
 * libdebuginfod opens, then perf to check it, then to store it.  The
 * swap is written as a line to SWAP_LOG.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int armed, swapped, opens;

static void swap(const char *path, int fd)
{
	const char *target = getenv("SWAP_PATH"), *with = getenv("SWAP_WITH");
	const char *log = getenv("SWAP_LOG"), *nth = getenv("SWAP_OPEN");
	FILE *fp;

	if (fd < 0 || swapped || !target || !with || strcmp(path, target))
		return;
	if (nth ? ++opens < atoi(nth) : !armed)
		return;
	swapped = 1;
	if (rename(with, target))
		return;
	fp = log ? fopen(log, "a") : NULL;
	if (fp) {
		fprintf(fp, "swapped %s after open (pid %d)\n", target, getpid());
		fclose(fp);
	}
}

/*
 * An open() or openat() (@params, the last named one @flags) that calls
 * the C library's with @args, then swap()s.
 */
#define SHIM(name, params, args)					\
int name params								\
{									\
	static typeof(name) *real;					\
	mode_t mode = 0;						\
	va_list ap;							\
	int fd;								\
									\
	if (!real)							\
		real = dlsym(RTLD_NEXT, #name);				\
	va_start(ap, flags);						\
	if (flags & (O_CREAT | O_TMPFILE))				\
		mode = va_arg(ap, mode_t);				\
	va_end(ap);							\
	fd = real args;							\
	swap(path, fd);							\
	return fd;							\
}

int access(const char *path, int mode)
{
	static int (*real)(const char *, int);
	const char *target = getenv("SWAP_PATH");

	if (!real)
		real = dlsym(RTLD_NEXT, "access");
	if (target && !strcmp(path, target))
		armed = 1;
	return real(path, mode);
}

SHIM(open, (const char *path, int flags, ...), (path, flags, mode))
SHIM(open64, (const char *path, int flags, ...), (path, flags, mode))
SHIM(openat, (int dirfd, const char *path, int flags, ...), (dirfd, path, flags, mode))
SHIM(openat64, (int dirfd, const char *path, int flags, ...), (dirfd, path, flags, mode))
