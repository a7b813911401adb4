// SPDX-License-Identifier: GPL-2.0
/*
 * One of the bench's generated shared objects: built once per DSO_ID, each
 * build has its own code, so its own build id.
 */
#ifndef DSO_ID
#define DSO_ID 0
#endif

unsigned long bench_work(unsigned long x, int n, volatile char *page);

/* Some arithmetic, then a store to @page (a page fault if it is fresh). */
unsigned long bench_work(unsigned long x, int n, volatile char *page)
{
	int i;

	for (i = 0; i < n; i++)
		x = x * (6364136223846793005UL + 2 * DSO_ID) + 1442695040888963407UL;
	*page = (char)x;
	return x;
}
