// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_MMAP3: the MMAP2 record plus the build id the mapped file
 * had when it was mapped.  A DSO met through MMAP3 is told apart by that id, so
 * a binary replaced during the run becomes a second DSO, and its samples
 * resolve against the right contents.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/kernel.h>
#include <perf/event.h>

#include "build-id.h"
#include "debug.h"
#include "dso.h"
#include "event.h"
#include "evlist.h"
#include "evsel.h"
#include "machine.h"
#include "map.h"
#include "maps.h"
#include "mmap3.h"
#include "thread.h"

/* The id of a record; a size past the array (checked on read) means none. */
static void mmap3__build_id(struct perf_record_mmap3 *m, struct build_id *bid)
{
	size_t size = m->build_id_size;

	build_id__init(bid, m->build_id, size <= BUILD_ID_SIZE ? size : 0);
}

/* A total order of build ids; an unknown one (size 0) comes first. */
int build_id__cmp(const struct build_id *a, const struct build_id *b)
{
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return memcmp(a->data, b->data, a->size);
}

/*
 * Type 21 is MMAP3 only for events that set attr bit 34 without attr.mmap2:
 * with mmap2 the bit is Linux 5.12's build_id, and since 5.16 type 21 is
 * PERF_RECORD_AUX_OUTPUT_HW_ID, which other files may hold.
 */
bool evlist__has_mmap3(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		if (evsel->core.attr.mmap3 && !evsel->core.attr.mmap2)
			return true;
	}
	return false;
}

/*
 * A record read from a file is checked before anything looks inside it:
 * its size must hold the fixed part, a NUL-terminated filename shorter
 * than PATH_MAX (padded to 8 bytes, as the kernel writes it) and the
 * sample id fields, and the id size must fit the id array.
 */
int perf_event__check_mmap3(union perf_event *event, u64 file_offset,
			    u16 id_hdr_size)
{
	size_t size = event->header.size;
	size_t min_size = MMAP3_FIXED_SIZE + sizeof(u64) + id_hdr_size;
	const char *end;

	if (size < min_size) {
		pr_err("%#llx: MMAP3 record of %zu bytes, below the minimum %zu\n",
		       (unsigned long long)file_offset, size, min_size);
		return -EINVAL;
	}
	if (event->mmap3.build_id_size > BUILD_ID_SIZE) {
		pr_err("%#llx: MMAP3 record with a build id of %u bytes, above %d\n",
		       (unsigned long long)file_offset, event->mmap3.build_id_size,
		       BUILD_ID_SIZE);
		return -EINVAL;
	}
	/* the sample id fields, if any, follow the filename */
	end = memchr(event->mmap3.filename, '\0',
		     size - MMAP3_FIXED_SIZE - id_hdr_size);
	if (!end) {
		pr_err("%#llx: MMAP3 record without a NUL-terminated filename\n",
		       (unsigned long long)file_offset);
		return -EINVAL;
	}
	if (end - event->mmap3.filename >= PATH_MAX) {
		pr_err("%#llx: MMAP3 record with a filename of %zu bytes, PATH_MAX or more\n",
		       (unsigned long long)file_offset,
		       (size_t)(end - event->mmap3.filename));
		return -EINVAL;
	}
	return 0;
}

size_t perf_event__fprintf_mmap3(union perf_event *event, FILE *fp)
{
	struct perf_record_mmap3 *m = &event->mmap3;
	char sbuild_id[SBUILD_ID_SIZE] = "none";
	struct build_id bid;

	mmap3__build_id(m, &bid);
	if (bid.size)
		build_id__sprintf(&bid, sbuild_id);

	return fprintf(fp, " %d/%d: [%#" PRI_lx64 "(%#" PRI_lx64 ") @ %#" PRI_lx64
		       " %02x:%02x %" PRI_lu64 " %" PRI_lu64 " build_id %s]: %c%c%c%c %s\n",
		       m->pid, m->tid, m->start, m->len, m->pgoff, m->maj, m->min,
		       m->ino, m->ino_generation, sbuild_id,
		       (m->prot & PROT_READ) ? 'r' : '-',
		       (m->prot & PROT_WRITE) ? 'w' : '-',
		       (m->prot & PROT_EXEC) ? 'x' : '-',
		       (m->flags & MAP_SHARED) ? 's' : 'p',
		       m->filename);
}

int machine__process_mmap3_event(struct machine *machine,
				 union perf_event *event,
				 struct perf_sample *sample)
{
	struct perf_record_mmap3 *m = &event->mmap3;
	struct dso_id id = {
		.maj = m->maj,
		.min = m->min,
		.ino = m->ino,
		.ino_generation = m->ino_generation,
	};
	struct thread *thread;
	struct map *map;

	if (dump_trace)
		perf_event__fprintf_mmap3(event, stdout);

	mmap3__build_id(m, &id.build_id);

	if (sample->cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
	    sample->cpumode == PERF_RECORD_MISC_KERNEL) {
		struct kernel_mmap km = {
			.start = m->start,
			.len = m->len,
			.pgoff = m->pgoff,
			.filename = m->filename,
			.bid = &id.build_id,
		};

		if (machine__process_kernel_mmap_event(machine, &km) < 0)
			goto out_problem;
		return 0;
	}

	thread = machine__findnew_thread(machine, m->pid, m->tid);
	if (!thread)
		goto out_problem;

	map = map__new(machine, m->start, m->len, m->pgoff, &id, m->prot,
		       m->flags, m->filename, thread);
	if (!map)
		goto out_problem_thread;
	/*
	 * A user space map with a kernel DSO: a damaged record (a cpumode
	 * turned user, a kernel map's name).  Such a map has no room for the
	 * kmap that maps__insert() would then write to.
	 */
	if (map->dso && map->dso->kernel)
		goto out_problem_map;

	if (thread__insert_map(thread, map))
		goto out_problem_map;
	/* perf record's word on why the file has no id */
	if (!id.build_id.size && m->__reserved_1 && map->dso && !map->dso->has_build_id)
		map->dso->no_build_id_why = m->__reserved_1;

	thread__put(thread);
	map__put(map);
	return 0;

out_problem_map:
	map__put(map);
out_problem_thread:
	thread__put(thread);
out_problem:
	dump_printf("problem processing PERF_RECORD_MMAP3, skipping event.\n");
	return 0;
}

int perf_event__process_mmap3(struct perf_tool *tool __maybe_unused,
			      union perf_event *event,
			      struct perf_sample *sample,
			      struct machine *machine)
{
	return machine__process_mmap3_event(machine, event, sample);
}
