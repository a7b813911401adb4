/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_MMAP3_H
#define __PERF_MMAP3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>
#include <perf/event.h>

/* an MMAP3 record up to its filename */
#define MMAP3_FIXED_SIZE	offsetof(struct perf_record_mmap3, filename)

union perf_event;
struct build_id;
struct evlist;
struct machine;
struct perf_sample;
struct perf_tool;

int build_id__cmp(const struct build_id *a, const struct build_id *b);
bool evlist__has_mmap3(struct evlist *evlist);

int perf_event__check_mmap3(union perf_event *event, u64 file_offset,
			    u16 id_hdr_size);
size_t perf_event__fprintf_mmap3(union perf_event *event, FILE *fp);
int machine__process_mmap3_event(struct machine *machine,
				 union perf_event *event,
				 struct perf_sample *sample);
int perf_event__process_mmap3(struct perf_tool *tool,
			      union perf_event *event,
			      struct perf_sample *sample,
			      struct machine *machine);

#endif /* __PERF_MMAP3_H */
