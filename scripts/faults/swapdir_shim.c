// SPDX-License-Identifier: GPL-2.0
/*
 * An LD_PRELOAD shim for scripts/faults/cache-bound: once a process has
 * unlinked a path ending in SWAP_UNLINK (an entry's .build-id link, which
 * perf buildid-cache --remove and --prune unlink before they remove the
 * entry's directory), SWAP_A and SWAP_B are exchanged (renameat2
 * RENAME_EXCHANGE), before that unlink() returns: a directory of the
 * cache on the entry's path and a symbolic link to another directory, as
 * a user who can write that part of a shared cache would swap them at the
 * worst moment.  The swap is written as a line to SWAP_LOG.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

int unlink(const char *path)
{
	static int (*real)(const char *);
	static int swapped;
	const char *end = getenv("SWAP_UNLINK"), *a = getenv("SWAP_A"), *b = getenv("SWAP_B");
	const char *log = getenv("SWAP_LOG");
	size_t len = strlen(path), elen = end ? strlen(end) : 0;
	int ret;
	FILE *fp;

	if (!real)
		real = dlsym(RTLD_NEXT, "unlink");
	ret = real(path);
	if (ret || swapped || !end || !a || !b || len < elen || strcmp(path + len - elen, end))
		return ret;
	swapped = 1;
	if (syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE))
		return ret;
	fp = log ? fopen(log, "a") : NULL;
	if (fp) {
		fprintf(fp, "swapped %s and %s after unlink(%s)\n", a, b, path);
		fclose(fp);
	}
	return ret;
}
