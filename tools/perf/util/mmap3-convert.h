/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_MMAP3_CONVERT_H
#define __PERF_MMAP3_CONVERT_H

union perf_event;
struct build_id;
struct perf_record_mmap2;

union perf_event *perf_event__mmap3_to_mmap2(union perf_event *event);
void perf_record_mmap2__build_id(const struct perf_record_mmap2 *m2,
				 struct build_id *bid);

#endif /* __PERF_MMAP3_CONVERT_H */
