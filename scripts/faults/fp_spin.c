// SPDX-License-Identifier: GPL-2.0
/*
 * A workload for the stack-dump test: built with -O0 and the frame
 * pointer, so that its .eh_frame puts the frame of fp_spin() at %rbp + 16
 * once the prologue ran; main() calls fp_spin(), which adds up N million
 * numbers (default 300: a few tenths of a second).
 *
 *   fp_spin [N]
 */
#include <stdlib.h>

__attribute__((noinline)) unsigned long fp_spin(long n)
{
	volatile unsigned long sum = 0;
	long i;

	for (i = 0; i < n * 1000000; i++)
		sum += i;
	return sum;
}

int main(int argc, char **argv)
{
	return fp_spin(argc > 1 ? atol(argv[1]) : 300) == 1;
}
