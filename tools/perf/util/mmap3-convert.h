/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_MMAP3_CONVERT_H
#define __PERF_MMAP3_CONVERT_H

#include <stdio.h>

union perf_event;
struct build_id;
struct machine;
struct perf_record_mmap2;
struct perf_sample;

union perf_event *perf_event__mmap3_to_mmap2(union perf_event *event);
void perf_record_mmap2__build_id(const struct perf_record_mmap2 *m2,
				 struct build_id *bid);
int machine__process_mmap2_build_id_event(struct machine *machine,
					  union perf_event *event,
					  struct perf_sample *sample);
size_t perf_event__fprintf_mmap2_build_id(union perf_event *event, FILE *fp);

#endif /* __PERF_MMAP3_CONVERT_H */
