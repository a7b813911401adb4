// SPDX-License-Identifier: GPL-2.0
/*
 * A workload for the stack-dump test: built with -O0 and the frame
 * pointer, so that its .eh_frame puts the frame of fp_spin() at %rbp + 16
 * once the prologue ran; main() calls fp_spin(), which spins for MS
 * milliseconds.
 *
 *   fp_spin MS
 */
#include <stdlib.h>
#include <time.h>

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

__attribute__((noinline)) unsigned long fp_spin(long ms)
{
	struct timespec t0;
	volatile unsigned long n = 0;
	long i;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (i = 0; i < 100000; i++)
			n += i;
	} while (ms_since(&t0) < ms);
	return n;
}

int main(int argc, char **argv)
{
	return fp_spin(argc > 1 ? atol(argv[1]) : 300) == 1;
}
