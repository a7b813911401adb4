/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_MMAP3_SYNTH_H
#define __PERF_MMAP3_SYNTH_H

#include <stdbool.h>
#include "synthetic-events.h"

union perf_event;
struct build_id;
struct machine;
struct perf_sample;
struct perf_tool;

union perf_event *perf_event__new_mmap3(union perf_event *event,
					const struct build_id *bid,
					u16 id_hdr_size);
bool perf_event__mmap3_wanted(union perf_event *event, struct machine *machine);
int perf_event__synthesize_mmap3(struct perf_tool *tool,
				 union perf_event *event,
				 struct perf_sample *sample,
				 struct machine *machine,
				 perf_event__handler_t process);
void machine__set_mmap3_kernel_build_id(struct machine *machine,
					union perf_event *event);

#endif /* __PERF_MMAP3_SYNTH_H */
