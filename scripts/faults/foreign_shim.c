// SPDX-License-Identifier: GPL-2.0
/*
 * An LD_PRELOAD shim for scripts/faults/hostile-server's foreign mode:
 * every write() into a download of libdebuginfod under way (a temporary
 * file "executable.XXXXXX" or "debuginfo.XXXXXX" under
 * DEBUGINFOD_CACHE_PATH) also puts FOREIGN_BYTES bytes of another file
 * right after what it wrote, with pwrite(), as a write of another thread
 * through a descriptor number libdebuginfod 0.188 closed twice and the
 * other one reused would.  The descriptor's offset stays where the write
 * left it, so the next write covers them: the download ends with them,
 * whole before them, its ELF header, notes and sections intact.  Each
 * download so touched is written as a line to FOREIGN_LOG.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

/* the last download touched, not to log it at each write */
static dev_t last_dev;
static ino_t last_ino;

/* Is @fd a temporary file of a download, under DEBUGINFOD_CACHE_PATH? */
static int is_download(int fd, char *path, size_t size)
{
	const char *cache = getenv("DEBUGINFOD_CACHE_PATH");
	char link[64];
	const char *base, *dot;
	ssize_t n;

	if (!cache || !*cache)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, size - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	if (strncmp(path, cache, strlen(cache)) || path[strlen(cache)] != '/')
		return 0;
	base = strrchr(path, '/') + 1;
	dot = strrchr(base, '.');
	return dot && strlen(dot + 1) == 6 &&
	       (!strncmp(base, "executable.", 11) || !strncmp(base, "debuginfo.", 10));
}

ssize_t write(int fd, const void *buf, size_t count)
{
	static ssize_t (*real)(int, const void *, size_t);
	static const char junk[] = "bytes of another download ";
	char path[PATH_MAX], foreign[4096];
	const char *nr = getenv("FOREIGN_BYTES");
	size_t i, bytes = nr ? strtoul(nr, NULL, 10) : 0;
	const char *log = getenv("FOREIGN_LOG");
	struct stat st;
	ssize_t ret;
	off_t at;
	FILE *fp;

	if (!real)
		real = dlsym(RTLD_NEXT, "write");
	ret = real(fd, buf, count);
	if (ret <= 0 || !bytes || fd <= 2 || !is_download(fd, path, sizeof(path)))
		return ret;
	if (bytes > sizeof(foreign))
		bytes = sizeof(foreign);
	for (i = 0; i < bytes; i++)
		foreign[i] = junk[i % (sizeof(junk) - 1)];
	at = lseek(fd, 0, SEEK_CUR);
	if (at < 0 || pwrite(fd, foreign, bytes, at) != (ssize_t)bytes)
		return ret;
	if (fstat(fd, &st) || (st.st_dev == last_dev && st.st_ino == last_ino))
		return ret;
	last_dev = st.st_dev;
	last_ino = st.st_ino;
	fp = log ? fopen(log, "a") : NULL;
	if (fp) {
		fprintf(fp, "foreign bytes into %s (pid %d)\n", path, getpid());
		fclose(fp);
	}
	return ret;
}
