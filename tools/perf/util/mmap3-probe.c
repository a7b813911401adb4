// SPDX-License-Identifier: GPL-2.0
/* How does the running kernel put build ids into mmap records? */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <unistd.h>
#include <sys/mman.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include <internal/lib.h>

#include "debug.h"
#include "mmap3-probe.h"
#include "../perf-sys.h"

/*
 * Which records does attr bit 34 give on the running kernel?  Asked of its
 * behaviour, not of its version, as the bit means two things: a dummy
 * event on this task sets it with attr.mmap but not attr.mmap2, the task
 * maps its own executable, and the record that comes out tells.
 *
 * - PERF_RECORD_MMAP3 (type 21): a kernel with this series, where the bit
 *   without attr.mmap2 asks for MMAP3;
 * - PERF_RECORD_MMAP: Linux 5.12 or later, where the bit is attr.build_id
 *   and only changes MMAP2 records: they carry the id with attr.mmap2;
 * - the event refused (EINVAL before 5.12): no ids in mmap records.
 *
 * Probing with EINVAL alone cannot tell the first two apart.
 */
static enum perf_build_id_mmap build_id_mmap__probe(void)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_SOFTWARE,
		.size		= sizeof(attr),
		.config		= PERF_COUNT_SW_DUMMY,
		.exclude_kernel	= 1,
		.mmap		= 1,
		.mmap3		= 1,
	};
	enum perf_build_id_mmap kind = PERF_BUILD_ID_MMAP__NONE;
	struct perf_event_mmap_page *pg;
	size_t len = 2 * page_size;
	void *base, *map;
	u64 head, off = 0;
	int fd, file;

	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		pr_debug("attr bit 34 refused (%d): no build ids in mmap records\n", errno);
		return kind;
	}
	base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		goto out_close;

	file = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (file >= 0) {
		map = mmap(NULL, page_size, PROT_READ | PROT_EXEC, MAP_PRIVATE, file, 0);
		if (map != MAP_FAILED)
			munmap(map, page_size);
		close(file);
	}

	pg = base;
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	while (off + sizeof(struct perf_event_header) <= head &&
	       off + sizeof(struct perf_event_header) <= page_size) {
		struct perf_event_header *hdr = base + page_size + off;

		if (hdr->type == PERF_RECORD_MMAP3) {
			kind = PERF_BUILD_ID_MMAP__MMAP3;
			break;
		}
		if (hdr->type == PERF_RECORD_MMAP) {
			kind = PERF_BUILD_ID_MMAP__MMAP2;
			break;
		}
		if (!hdr->size)
			break;
		off += hdr->size;
	}
	munmap(base, len);
out_close:
	close(fd);
	pr_debug("attr bit 34 gives build ids in %s records\n",
		 perf_build_id_mmap__name(kind));
	return kind;
}

enum perf_build_id_mmap perf_build_id_mmap__probe(void)
{
	static int kind = -1;

	if (kind < 0)
		kind = build_id_mmap__probe();
	return kind;
}

const char *perf_build_id_mmap__name(enum perf_build_id_mmap kind)
{
	switch (kind) {
	case PERF_BUILD_ID_MMAP__MMAP3:
		return "MMAP3";
	case PERF_BUILD_ID_MMAP__MMAP2:
		return "MMAP2";
	case PERF_BUILD_ID_MMAP__NONE:
	default:
		return "no";
	}
}
