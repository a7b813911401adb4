/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_MMAP3_FILL_H
#define __PERF_MMAP3_FILL_H

#include <stddef.h>

struct mmap;

void mmap__fill_build_ids(struct mmap *map);
void *mmap__fill_patch(struct mmap *map, void *buf, size_t size);

#endif /* __PERF_MMAP3_FILL_H */
