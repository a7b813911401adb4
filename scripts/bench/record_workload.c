// SPDX-License-Identifier: GPL-2.0
/*
 * The workload of the perf record benchmark: a process with several
 * shared libraries (libm, libz, liblzma, libelf) and NDSO generated ones
 * (dlopen()ed from DIR/libbench00.so ...), each with its own build id,
 * that calls into all of them round-robin and every few rounds maps and
 * unmaps one of them again (PROT_EXEC: an MMAP2/MMAP3 record each), so
 * that the profile hits many DSOs and has many mmap records.
 *
 * Every round faults in each of them: each call into a generated DSO
 * stores to a fresh page of an anonymous region (mapped again when all
 * are used; the kernel may lack madvise()), each library reads or writes
 * one, and the kernel writes one (stat()).  For a page-faults event with
 * period 1 that is a sample in each, every round, so every run hits the
 * same DSOs.  The loop runs STACK_PAD bytes below main()'s frame, as in a
 * real program, so that a user stack dump (--call-graph dwarf) has its
 * full size.
 *
 *   record_workload DIR NDSO PERFDATA BYTES STAMP
 *
 * It runs until PERFDATA (the perf.data perf record is writing) has
 * BYTES bytes, then writes the time it stops working (CLOCK_REALTIME,
 * seconds) to STAMP and exits.  With BYTES 0 it does 2 rounds only.
 */
#define _GNU_SOURCE
#include <alloca.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <libelf.h>
#include <lzma.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#define MAX_DSO		256
#define MMAP_EVERY	8	/* rounds between two extra mmaps */
#define PAGES		4096	/* pages of the anonymous region */
#define STACK_PAD	32768

typedef unsigned long (*work_fn)(unsigned long x, int n, volatile char *page);

static char path[MAX_DSO][4096];
static work_fn fn[MAX_DSO];
static int ndso;

/* The next untouched page of the anonymous region: writing it faults. */
static char *fresh(void)
{
	static char *region = MAP_FAILED;
	static long pg = PAGES;

	if (pg == PAGES) {
		region = mmap(region == MAP_FAILED ? NULL : region, PAGES * 4096L,
			      PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
			      (region == MAP_FAILED ? 0 : MAP_FIXED), -1, 0);
		if (region == MAP_FAILED)
			exit((perror("mmap"), 1));
		pg = 0;
	}
	return region + pg++ * 4096;
}

/* A call into each library, each faulting in it (a read or a write). */
static unsigned long __attribute__((noinline)) libs_round(long r)
{
	unsigned long crc = crc32(0, (unsigned char *)fresh(), 64);
	Elf *e;

	crc ^= lzma_crc64((unsigned char *)fresh(), 64, r);
	crc ^= (unsigned long)(modf(r * 0.001, (double *)fresh()) * 1e6);
	e = elf_memory(fresh(), 64);
	elf_end(e);
	snprintf(fresh(), 64, "%ld", r);
	return crc;
}

static void map_again(const char *file)
{
	int fd = open(file, O_RDONLY);
	void *p;

	if (fd < 0)
		return;
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (p != MAP_FAILED)
		munmap(p, 4096);
	close(fd);
}

static unsigned long __attribute__((noinline)) work(const char *perfdata, long long target)
{
	unsigned long x = 1;
	struct stat *st;
	long r;
	int i;

	for (r = 0;; r++) {
		for (i = 0; i < ndso; i++)
			x = fn[i](x, 64, fresh());
		x += libs_round(r);
		if (r % MMAP_EVERY == 0)
			map_again(path[r / MMAP_EVERY % ndso]);
		/* the kernel writes to a fresh page: a fault in the kernel */
		st = (struct stat *)fresh();
		if (target ? stat(perfdata, st) == 0 && st->st_size >= target : r >= 2)
			return x;
	}
}

int main(int argc, char **argv)
{
	struct timespec ts;
	unsigned long x;
	char *pad;
	int i;
	FILE *f;

	if (argc != 6)
		return fprintf(stderr, "usage: %s DIR NDSO PERFDATA BYTES STAMP\n", argv[0]), 2;
	/* the vdso's data page faults on first use: at the start, every run */
	clock_gettime(CLOCK_REALTIME, &ts);
	elf_version(EV_CURRENT);	/* or elf_memory() reads nothing */
	ndso = atoi(argv[2]);
	if (ndso < 1 || ndso > MAX_DSO)
		return fprintf(stderr, "NDSO must be 1..%d\n", MAX_DSO), 2;
	for (i = 0; i < ndso; i++) {
		void *h;

		snprintf(path[i], sizeof(path[i]), "%s/libbench%02d.so", argv[1], i);
		h = dlopen(path[i], RTLD_NOW | RTLD_LOCAL);
		if (!h)
			return fprintf(stderr, "%s\n", dlerror()), 1;
		fn[i] = (work_fn)dlsym(h, "bench_work");
		if (!fn[i])
			return fprintf(stderr, "%s: no bench_work\n", path[i]), 1;
	}
	pad = alloca(STACK_PAD);
	memset(pad, 0, STACK_PAD);
	asm volatile("" : : "r"(pad) : "memory");	/* keep it */
	x = work(argv[3], atoll(argv[4]));
	clock_gettime(CLOCK_REALTIME, &ts);
	f = fopen(argv[5], "w");
	if (!f)
		return perror(argv[5]), 1;
	fprintf(f, "%lld.%09ld\n", (long long)ts.tv_sec, ts.tv_nsec);
	fclose(f);
	return x == 42;
}
