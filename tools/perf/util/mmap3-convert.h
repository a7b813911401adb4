/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_MMAP3_CONVERT_H
#define __PERF_MMAP3_CONVERT_H

union perf_event;

union perf_event *perf_event__mmap3_to_mmap2(union perf_event *event);

#endif /* __PERF_MMAP3_CONVERT_H */
