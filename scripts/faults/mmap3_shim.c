// SPDX-License-Identifier: GPL-2.0
/*
 * What tools/perf/util/mmap3.c needs from the rest of perf, for the fuzz
 * target mmap3_fuzz.c.  The declarations come from perf's headers, so a
 * changed signature breaks this build.  The check and the print reach
 * only the first group; the rest processes records into perf's machine
 * model, which the fuzz target never calls: reaching it aborts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "build-id.h"
#include "debug.h"
#include "dso.h"
#include "machine.h"
#include "map.h"
#include "maps.h"
#include "thread.h"

int verbose;
bool dump_trace;

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

#define UNREACHED(fn)	do { fprintf(stderr, "%s reached\n", fn); abort(); } while (0)

struct thread *machine__findnew_thread(struct machine *machine, pid_t pid,
				       pid_t tid)
{
	(void)machine;
	(void)pid;
	(void)tid;
	UNREACHED(__func__);
}

int machine__process_kernel_mmap_event(struct machine *machine,
				       struct kernel_mmap *km)
{
	(void)machine;
	(void)km;
	UNREACHED(__func__);
}

struct map *map__new(struct machine *machine, u64 start, u64 len, u64 pgoff,
		     struct dso_id *id, u32 prot, u32 flags, char *filename,
		     struct thread *thread)
{
	(void)machine;
	(void)start;
	(void)len;
	(void)pgoff;
	(void)id;
	(void)prot;
	(void)flags;
	(void)filename;
	(void)thread;
	UNREACHED(__func__);
}

void map__put(struct map *map)
{
	(void)map;
	UNREACHED(__func__);
}

int thread__insert_map(struct thread *thread, struct map *map)
{
	(void)thread;
	(void)map;
	UNREACHED(__func__);
}

void thread__put(struct thread *thread)
{
	(void)thread;
	UNREACHED(__func__);
}
