// SPDX-License-Identifier: GPL-2.0
/*
 * The demo's workload: burns CPU in a few named functions of its own and in
 * libm and libz, so a profile has user symbols in several DSOs to resolve.
 * Build with -DVARIANT=2 to get the "rebuilt" binary with another build id.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#ifndef VARIANT
#define VARIANT 1
#endif

static volatile double sink;

__attribute__((noinline)) static double spin_math(int n)
{
	double acc = 0;
	int i;

	for (i = 1; i < n; i++)
		acc += sin(i * 0.001) * sqrt(i) + log(i);
	return acc;
}

__attribute__((noinline)) static unsigned long spin_crc(int n)
{
	static unsigned char buf[4096];
	unsigned long crc = crc32(0L, Z_NULL, 0);
	int i;

	memset(buf, VARIANT, sizeof(buf));
	for (i = 0; i < n; i++)
		crc = crc32(crc, buf, sizeof(buf));
	return crc;
}

__attribute__((noinline)) static unsigned long spin_loop(int n)
{
	unsigned long x = VARIANT;
	int i;

	for (i = 0; i < n * 1000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20;
	int r;

	for (r = 0; r < rounds; r++) {
		sink = spin_math(200000);
		sink += spin_crc(200);
		sink += spin_loop(2000);
	}
	printf("workload v%d done (%d rounds)\n", VARIANT, rounds);
	return 0;
}
