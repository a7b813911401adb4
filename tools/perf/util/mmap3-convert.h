/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_MMAP3_CONVERT_H
#define __PERF_MMAP3_CONVERT_H

#include <stdio.h>
#include <linux/bits.h>

union perf_event;
struct machine;
struct perf_sample;

/* Linux 5.12: an MMAP2 record with a build id in place of the inode */
#ifndef PERF_RECORD_MISC_MMAP_BUILD_ID
#define PERF_RECORD_MISC_MMAP_BUILD_ID	BIT(14)
#endif

union perf_event *perf_event__mmap3_to_mmap2(union perf_event *event);
union perf_event *perf_event__mmap2_build_id_to_mmap3(union perf_event *event);
int machine__process_mmap2_build_id_event(struct machine *machine,
					  union perf_event *event,
					  struct perf_sample *sample);
size_t perf_event__fprintf_mmap2_build_id(union perf_event *event, FILE *fp);

#endif /* __PERF_MMAP3_CONVERT_H */
