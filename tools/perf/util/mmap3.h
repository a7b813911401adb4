/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_MMAP3_H
#define __PERF_MMAP3_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

union perf_event;
struct build_id;
struct machine;
struct perf_sample;
struct perf_tool;

int build_id__cmp(const struct build_id *a, const struct build_id *b);

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
