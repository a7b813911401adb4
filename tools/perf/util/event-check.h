/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_EVENT_CHECK_H
#define __PERF_EVENT_CHECK_H

#include <stdbool.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include <perf/event.h>

int __perf_event__check(union perf_event *event, u64 file_offset,
			u16 id_hdr_size, bool needs_swap);
int perf_event__check_build_id(struct perf_record_header_build_id *bev,
			       u64 file_offset);

/*
 * 0: the record may be read; 1: a sound record of a form this perf does
 * not know, to be skipped; -EINVAL: a damaged one (said, with its offset).
 * Samples, most of a file, are only checked to be whole u64s here:
 * evsel__parse_sample() checks them against the attr.  Inline, so that
 * they do not pay a call each.
 */
static inline int perf_event__check(union perf_event *event, u64 file_offset,
				    u16 id_hdr_size, bool needs_swap)
{
	if (event->header.type == PERF_RECORD_SAMPLE &&
	    !(event->header.size % sizeof(u64)))
		return 0;
	return __perf_event__check(event, file_offset, id_hdr_size, needs_swap);
}

#endif /* __PERF_EVENT_CHECK_H */
