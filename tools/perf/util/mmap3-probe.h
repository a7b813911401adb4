/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_MMAP3_PROBE_H
#define __PERF_MMAP3_PROBE_H

#include <stdbool.h>

bool perf_mmap3__supported(void);

#endif /* __PERF_MMAP3_PROBE_H */
