/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_MMAP3_H
#define __PERF_MMAP3_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include <perf/event.h>

/* an MMAP3 record up to its filename */
#define MMAP3_FIXED_SIZE	offsetof(struct perf_record_mmap3, filename)

union perf_event;
struct evlist;

/*
 * The MMAP3 functions that every tool calls are declared beside their
 * MMAP2 twins: perf_event__process_mmap3() and perf_event__fprintf_mmap3()
 * in event.h, machine__process_mmap3_event() in machine.h, and
 * build_id__cmp() in build-id.h.
 */
bool evlist__has_mmap3(struct evlist *evlist);
int perf_event__check_mmap3(union perf_event *event, u64 file_offset,
			    u16 id_hdr_size);

#endif /* __PERF_MMAP3_H */
