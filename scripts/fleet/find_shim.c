// SPDX-License-Identifier: GPL-2.0
/*
 * An LD_PRELOAD shim for scripts/fleet/test: each call of
 * debuginfod_find_executable() or debuginfod_find_debuginfo() appends
 * "<pid> <threads>" to FIND_SHIM_LOG, <threads> the threads of the
 * calling process as the call begins.  libdebuginfod 0.188 closes one of
 * its descriptors twice (elfutils PR29696): the second close is of a
 * descriptor of its own only if no other thread of the process opens any
 * while the call runs.  One thread: none can.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*find_fn)(void *client, const unsigned char *id, int len, char **path);

static void log_call(void)
{
	const char *log = getenv("FIND_SHIM_LOG");
	struct dirent *d;
	int threads = 0, fd;
	char line[64];
	DIR *dp;

	if (!log)
		return;
	dp = opendir("/proc/self/task");
	if (dp) {
		while ((d = readdir(dp)) != NULL)
			threads += d->d_name[0] != '.';
		closedir(dp);
	}
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	snprintf(line, sizeof(line), "%d %d\n", (int)getpid(), threads);
	if (write(fd, line, strlen(line)) < 0)
		perror("find_shim");
	close(fd);
}

static int find(const char *name, void *client, const unsigned char *id, int len,
		char **path)
{
	find_fn real = (find_fn)dlsym(RTLD_NEXT, name);

	log_call();
	return real ? real(client, id, len, path) : -38;	/* -ENOSYS */
}

int debuginfod_find_executable(void *client, const unsigned char *id, int len, char **path)
{
	return find("debuginfod_find_executable", client, id, len, path);
}

int debuginfod_find_debuginfo(void *client, const unsigned char *id, int len, char **path)
{
	return find("debuginfod_find_debuginfo", client, id, len, path);
}
