// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for perf's reader of Go's function table
 * (tools/perf/util/gopclntab.c, compiled as it is): a table comes from a
 * binary of another host, untrusted.  An input is one byte choosing the
 * ELF's byte order (bit 0) and pointer size (bit 1: 8, else 4), then the
 * table, copied into a buffer of exactly its length, so that a read past
 * the table is a read past the buffer.  Each function's entry and name
 * are read, as perf's loader reads them, the end of text too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gopclntab.h"

static unsigned long read_ok, refused, names;
static volatile size_t sink;	/* what was read, kept */

/* The run must have taken both ways; the script checks this line. */
static void stats(void)
{
	fprintf(stderr, "gopclntab_fuzz: %lu read %lu refused %lu names\n",
		read_ok, refused, names);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int registered;
	struct gopclntab t;
	const char *name;
	uint8_t *copy;
	u64 i;

	if (!registered) {
		atexit(stats);
		registered = 1;
	}
	if (size < 1)
		return 0;
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	if (gopclntab__init(&t, copy, size - 1, data[0] & 1, data[0] & 2 ? 8 : 4)) {
		refused++;
		free(copy);
		return 0;
	}
	read_ok++;
	/* the loader reads them all, and the end of text */
	for (i = 0; i <= t.nfunc && i < 1 << 20; i++) {
		sink += gopclntab__entry(&t, i);
		if (i < t.nfunc) {
			name = gopclntab__name(&t, i);
			if (name) {
				sink += strlen(name);
				names++;
			}
		}
	}
	free(copy);
	return 0;
}
