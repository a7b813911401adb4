// SPDX-License-Identifier: GPL-2.0
/*
 * MMAP3 records as the MMAP2 records of Linux 5.12 and later perf.
 *
 * Upstream put the build id into MMAP2 instead: with the misc bit
 * PERF_RECORD_MISC_MMAP_BUILD_ID, the 24 bytes of maj, min, ino and
 * ino_generation hold build_id_size, three reserved bytes and the 20 id
 * bytes, and its attr bit 34 (build_id) is the one MMAP3 uses.  Type 21
 * became PERF_RECORD_AUX_OUTPUT_HW_ID, so newer perf misreads MMAP3
 * records; converted, a file keeps its build ids there.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <perf/event.h>

#include "build-id.h"
#include "event.h"
#include "mmap3-convert.h"

#define MMAP2_FIXED_SIZE	offsetof(struct perf_record_mmap2, filename)

/*
 * A new MMAP2 record for a checked MMAP3 one (see perf_event__check_mmap3),
 * to be freed by the caller; NULL if out of memory.  A record without an
 * id keeps the inode instead, as an MMAP2 record always did.
 */
union perf_event *perf_event__mmap3_to_mmap2(union perf_event *event)
{
	struct perf_record_mmap3 *m3 = &event->mmap3;
	size_t rest = m3->header.size - MMAP3_FIXED_SIZE;
	struct perf_record_mmap2 *m2;

	m2 = malloc(MMAP2_FIXED_SIZE + rest);
	if (!m2)
		return NULL;

	m2->header.type = PERF_RECORD_MMAP2;
	m2->header.misc = m3->header.misc;
	m2->header.size = MMAP2_FIXED_SIZE + rest;
	m2->pid = m3->pid;
	m2->tid = m3->tid;
	m2->start = m3->start;
	m2->len = m3->len;
	m2->pgoff = m3->pgoff;
	if (m3->build_id_size && m3->build_id_size <= sizeof(m3->build_id)) {
		m2->build_id_size = m3->build_id_size;
		m2->__reserved_1 = 0;
		m2->__reserved_2 = 0;
		memcpy(m2->build_id, m3->build_id, sizeof(m2->build_id));
		m2->header.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	} else {
		m2->maj = m3->maj;
		m2->min = m3->min;
		m2->ino = m3->ino;
		m2->ino_generation = m3->ino_generation;
	}
	m2->prot = m3->prot;
	m2->flags = m3->flags;
	/* the filename and the sample id fields */
	memcpy(m2->filename, m3->filename, rest);

	return (union perf_event *)m2;
}

/*
 * The id of an MMAP2 record with PERF_RECORD_MISC_MMAP_BUILD_ID.  A size
 * past the id array gives no id.
 */
void perf_record_mmap2__build_id(const struct perf_record_mmap2 *m2,
				 struct build_id *bid)
{
	size_t size = m2->build_id_size;

	build_id__init(bid, m2->build_id, size <= BUILD_ID_SIZE ? size : 0);
}
