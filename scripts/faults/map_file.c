// SPDX-License-Identifier: GPL-2.0
/*
 * A workload for the stuck-file tests: map FILE, without reading a byte of
 * it, then spin for MS milliseconds.  The kernel finds no page of FILE in
 * the page cache, so the mapping's record has no build id and perf record
 * must read the file itself.
 *
 *   map_file FILE MS
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

int main(int argc, char **argv)
{
	struct timespec t0;
	long ms;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: map_file FILE MS\n");
		return 2;
	}
	ms = atol(argv[2]);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0) == MAP_FAILED) {
		perror(argv[1]);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (ms_since(&t0) < ms)
		;
	return 0;
}
