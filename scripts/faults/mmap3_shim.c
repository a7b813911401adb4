// SPDX-License-Identifier: GPL-2.0
/*
 * What the MMAP3 functions of tools/perf/util/event.c need from the rest
 * of perf, for the fuzz target mmap3_fuzz.c.  The declarations come from
 * perf's headers, so a changed signature breaks this build.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "build-id.h"
#include "debug.h"

int verbose;

/* Messages are formatted, as perf would, then dropped. */
static int format(const char *fmt, va_list ap)
{
	char buf[4096];

	return vsnprintf(buf, sizeof(buf), fmt, ap);
}

int eprintf(int level, int var, const char *fmt, ...)
{
	va_list ap;
	int ret;

	(void)level;
	(void)var;
	va_start(ap, fmt);
	ret = format(fmt, ap);
	va_end(ap);
	return ret;
}

int dump_printf(const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = format(fmt, ap);
	va_end(ap);
	return ret;
}

/* perf's build_id__init() warns and keeps nothing above BUILD_ID_SIZE */
void build_id__init(struct build_id *bid, const u8 *data, size_t size)
{
	if (size > BUILD_ID_SIZE) {
		fprintf(stderr, "build_id__init: %zu bytes\n", size);
		abort();
	}
	memcpy(bid->data, data, size);
	bid->size = size;
}

/* lower-case hex, NUL-terminated: 2 * size + 1 bytes */
int build_id__sprintf(const struct build_id *build_id, char *bf)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < build_id->size; i++) {
		bf[2 * i] = hex[build_id->data[i] >> 4];
		bf[2 * i + 1] = hex[build_id->data[i] & 0xf];
	}
	bf[2 * i] = '\0';
	return 2 * i;
}
