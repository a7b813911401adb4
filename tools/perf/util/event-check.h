/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_EVENT_CHECK_H
#define __PERF_EVENT_CHECK_H

#include <stdbool.h>
#include <linux/types.h>

union perf_event;

int perf_event__check(union perf_event *event, u64 file_offset,
		      u16 id_hdr_size, bool needs_swap);

#endif /* __PERF_EVENT_CHECK_H */
