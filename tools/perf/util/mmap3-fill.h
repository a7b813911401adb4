/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_MMAP3_FILL_H
#define __PERF_MMAP3_FILL_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct evlist;
struct machine;
struct mmap;
union perf_event;

void mmap__fill_build_ids(struct mmap *map);
void *mmap__fill_patch(struct mmap *map, void *buf, size_t size, s64 file_off);
bool mmap__fill_waits(struct mmap *map);
size_t mmap3_fill__flush(int fd, int timeout_ms);

void record_ids__start(struct evlist *evlist);
void record_ids__event(const union perf_event *event);
int record_ids__add_dsos(struct machine *machine);

#endif /* __PERF_MMAP3_FILL_H */
