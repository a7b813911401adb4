// SPDX-License-Identifier: GPL-2.0
/*
 * mmap+munmap of a cached ELF file, timed with no perf event and with a
 * side-band event asking for MMAP, MMAP2 and MMAP3 records.  Rounds
 * interleave the configurations; each prints its median ns per operation.
 *
 *   mmap_bench FILE ITERATIONS ROUNDS
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { NONE, MMAP, MMAP2, MMAP3, NR_CFG };
static const char * const names[NR_CFG] = { "none", "mmap", "mmap2", "mmap3" };

struct ev {
	int fd;
	struct perf_event_mmap_page *pg;
};

static int open_event(int cfg, struct ev *ev)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_SOFTWARE,
		.size		= sizeof(attr),
		.config		= PERF_COUNT_SW_DUMMY,
		.exclude_kernel	= 1,
		.mmap		= 1,
		.mmap2		= cfg == MMAP2,
		.build_id	= cfg == MMAP3,
	};

	ev->fd = -1;
	if (cfg == NONE)
		return 0;
	ev->fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (ev->fd < 0)
		return -1;
	ev->pg = mmap(NULL, 65 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, ev->fd, 0);
	return ev->pg == MAP_FAILED ? -1 : 0;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double run(int fd, struct ev *ev, long iters)
{
	double t0 = now_ns();
	long i;

	for (i = 0; i < iters; i++) {
		void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);

		if (p == MAP_FAILED)
			exit((perror("mmap"), 1));
		munmap(p, 4096);
		/* consume the records, as perf record would */
		if (ev->fd >= 0)
			ev->pg->data_tail = __atomic_load_n(&ev->pg->data_head,
							    __ATOMIC_ACQUIRE);
	}
	return (now_ns() - t0) / iters;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	long iters = argc > 2 ? atol(argv[2]) : 20000;
	int rounds = argc > 3 ? atoi(argv[3]) : 7;
	double t[NR_CFG][64];
	int supported[NR_CFG] = { 1, 1, 1, 1 };
	char buf[64];
	int fd, r, c;

	fd = open(argc > 1 ? argv[1] : "/usr/bin/ls", O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf)) <= 0 || rounds > 64)
		return (perror("open"), 1);
	for (r = 0; r < rounds; r++) {
		for (c = 0; c < NR_CFG; c++) {
			struct ev ev;

			if (!supported[c])
				continue;
			if (open_event(c, &ev)) {
				/* e.g. MMAP3 on a stock kernel */
				fprintf(stderr, "%s: %m\n", names[c]);
				supported[c] = 0;
				continue;
			}
			run(fd, &ev, iters / 10);	/* warm up */
			t[c][r] = run(fd, &ev, iters);
			if (ev.fd >= 0) {
				munmap(ev.pg, 65 * 4096);
				close(ev.fd);
			}
		}
	}
	for (c = 0; c < NR_CFG; c++) {
		if (!supported[c])
			continue;
		qsort(t[c], rounds, sizeof(double), cmp);
		printf("%s %.1f\n", names[c], t[c][rounds / 2]);
	}
	return 0;
}
