// SPDX-License-Identifier: GPL-2.0
/* Does the running kernel emit PERF_RECORD_MMAP3? */
#include <fcntl.h>
#include <stdbool.h>
#include <unistd.h>
#include <sys/mman.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include <internal/lib.h>

#include "mmap3-probe.h"
#include "../perf-sys.h"

/*
 * Does the running kernel emit MMAP3?  Asked of its behaviour, not of its
 * version: a dummy event on this task asks for MMAP3, the task maps its
 * own executable, and a record of type 21 must come out.  A kernel that
 * does not know the attr bit refuses the event.
 */
static bool mmap3__probe(void)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_SOFTWARE,
		.size		= sizeof(attr),
		.config		= PERF_COUNT_SW_DUMMY,
		.exclude_kernel	= 1,
		.mmap		= 1,
		.mmap3		= 1,
	};
	struct perf_event_mmap_page *pg;
	size_t len = 2 * page_size;
	bool found = false;
	void *base, *map;
	u64 head, off = 0;
	int fd, file;

	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return false;
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
			found = true;
			break;
		}
		if (!hdr->size)
			break;
		off += hdr->size;
	}
	munmap(base, len);
out_close:
	close(fd);
	return found;
}

bool perf_mmap3__supported(void)
{
	static int supported = -1;

	if (supported < 0)
		supported = mmap3__probe();
	return supported;
}
