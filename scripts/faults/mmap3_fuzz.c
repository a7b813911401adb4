// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for perf's MMAP3 record checks: the MMAP3 functions of
 * tools/perf/util/event.c, taken out of it as they are by the fuzz script,
 * compiled with perf's own headers and linked with the stubs of
 * mmap3_shim.c.  perf_event__check_mmap3() sees every input, and
 * perf_event__fprintf_mmap3() every record the check accepts, as in
 * perf report -D.
 *
 * An input is one byte choosing the size of the sample id fields after
 * the filename (0 to 56 bytes, as the session's id_hdr_size), then the
 * record.  The record is copied into a buffer of exactly its length with
 * header.size set to that length, as perf's reader hands records over, so
 * a read past the record is a read past the buffer.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <perf/event.h>

#include "event.h"

static FILE *sink;
static unsigned long accepted, rejected;

/* The run must have taken both ways; the script checks this line. */
static void stats(void)
{
	fprintf(stderr, "mmap3_fuzz: %lu records accepted, %lu rejected\n",
		accepted, rejected);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	sink = fopen("/dev/null", "w");
	if (!sink)
		abort();
	atexit(stats);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	union perf_event *event;
	uint16_t id_hdr_size;
	uint8_t *copy;
	size_t len;

	if (size < 1 + sizeof(struct perf_event_header) || size > 1 + UINT16_MAX)
		return -1;
	id_hdr_size = (data[0] % 8) * 8;
	len = size - 1;

	event = malloc(len);
	copy = malloc(len);
	if (!event || !copy)
		abort();
	memcpy(event, data + 1, len);
	event->header.type = PERF_RECORD_MMAP3;
	event->header.size = len;
	memcpy(copy, event, len);

	if (perf_event__check_mmap3(event, 0, id_hdr_size) == 0) {
		/* what the check promises to the code after it */
		if (len < MMAP3_FIXED_SIZE + sizeof(__u64) + id_hdr_size ||
		    event->mmap3.build_id_size > sizeof(event->mmap3.build_id) ||
		    strnlen(event->mmap3.filename, len - MMAP3_FIXED_SIZE - id_hdr_size) ==
		    len - MMAP3_FIXED_SIZE - id_hdr_size) {
			fprintf(stderr, "accepted a record breaking the check's rules\n");
			abort();
		}
		perf_event__fprintf_mmap3(event, sink);
		accepted++;
	} else {
		rejected++;
	}
	/* neither the check nor the print may write to the record */
	if (memcmp(event, copy, len)) {
		fprintf(stderr, "the record was modified\n");
		abort();
	}
	free(copy);
	free(event);
	return 0;
}
