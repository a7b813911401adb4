/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_MMAP3_FILL_H
#define __PERF_MMAP3_FILL_H

struct mmap;

void mmap__fill_build_ids(struct mmap *map);

#endif /* __PERF_MMAP3_FILL_H */
