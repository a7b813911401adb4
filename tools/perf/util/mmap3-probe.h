/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_MMAP3_PROBE_H
#define __PERF_MMAP3_PROBE_H

/* How the running kernel puts build ids into mmap records, if it does */
enum perf_build_id_mmap {
	PERF_BUILD_ID_MMAP__NONE,	/* it does not: attr bit 34 refused */
	PERF_BUILD_ID_MMAP__MMAP3,	/* PERF_RECORD_MMAP3 (this series) */
	PERF_BUILD_ID_MMAP__MMAP2,	/* MMAP2 with the id (Linux 5.12+) */
};

enum perf_build_id_mmap perf_build_id_mmap__probe(void);
const char *perf_build_id_mmap__name(enum perf_build_id_mmap kind);

#endif /* __PERF_MMAP3_PROBE_H */
