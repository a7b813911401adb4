// SPDX-License-Identifier: GPL-2.0
/*
 * The build ids the kernel could not read, filled by perf record.
 *
 * The kernel reads a mapped file's id only from pages already in the page
 * cache, and never does I/O for it: a file mapped before any of its pages
 * were read (on a network or uncached file system, say), or whose note
 * lies where the program headers do not say (the Go linker's layout),
 * gets an MMAP3 record with build_id_size 0, or on Linux 5.12+ an MMAP2
 * record without PERF_RECORD_MISC_MMAP_BUILD_ID.  perf record reads those
 * ids itself as the records are pushed out of the ring buffer, from the
 * file that was mapped and nothing else (mmap3__read_task_build_id(), once
 * per device and inode).
 *
 * The ring buffer's data pages cannot be written from user space: the ids
 * are found in perf_mmap__push()'s prepare_push, before the span goes out,
 * and the push functions write a copy of each chunk that holds such a
 * record, with the id in it (mmap__fill_patch()).
 *
 * The cost is one header read per record pushed, and a file read per
 * mapping without an id: none at the end of the run.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <perf/event.h>
#include <internal/lib.h>
#include <internal/mmap.h>

#include "build-id.h"
#include "mmap.h"
#include "mmap3-fill.h"
#include "mmap3-synth.h"

/* The ring buffer's data, of which records may wrap around the end. */
struct ring {
	const unsigned char	*data;
	u64			mask;
};

/* Of @len bytes at @pos, how many lie before the end of the ring. */
static size_t ring__first(struct ring *r, u64 pos, size_t len)
{
	size_t room = r->mask + 1 - (pos & r->mask);

	return len < room ? len : room;
}

static void ring__read(struct ring *r, u64 pos, void *buf, size_t len)
{
	size_t off = pos & r->mask, first = ring__first(r, pos, len);

	memcpy(buf, r->data + off, first);
	memcpy(buf + first, r->data, len - first);
}

/*
 * Bytes to write over the span being pushed, at ring positions: an id and
 * its size, a header's misc.  perf record pushes one map at a time.
 */
struct fill_patch {
	u64	pos;
	u8	len;
	u8	bytes[24];
};

static struct {
	struct mmap		*map;
	struct fill_patch	*patches;
	size_t			nr, alloc;
	void			*copy;
	size_t			copy_size;
} fills;

static void fills__add(u64 pos, const void *bytes, size_t len)
{
	struct fill_patch *p;

	if (fills.nr == fills.alloc) {
		size_t alloc = fills.alloc ? 2 * fills.alloc : 16;

		p = realloc(fills.patches, alloc * sizeof(*p));
		if (!p)
			return;	/* no memory: the record keeps no id */
		fills.patches = p;
		fills.alloc = alloc;
	}
	p = &fills.patches[fills.nr++];
	p->pos = pos;
	p->len = len;
	memcpy(p->bytes, bytes, len);
}

/*
 * The record at @pos of @size bytes, into @event: its fixed part and a
 * file name ending inside it.  False if it is not one to fill.
 */
static bool ring__read_mapping(struct ring *r, u64 pos, size_t size,
			       size_t fixed, union perf_event *event)
{
	if (size <= fixed || size > sizeof(*event))
		return false;
	ring__read(r, pos, event, size);
	return memchr((char *)event + fixed, '\0', size - fixed);
}

/* mmap3__read_task_build_id() gives no id for anon memory, [vdso], ... */
static bool fill(union perf_event *event, struct mmap3_file *file,
		 struct build_id *bid)
{
	mmap3__read_task_build_id("", file, bid);
	return bid->size > 0 && bid->size <= sizeof(event->mmap3.build_id);
}

static void fill_mmap3(struct ring *r, u64 pos, size_t size)
{
	union perf_event event;
	struct mmap3_file file;
	struct build_id bid;
	u8 bid_size;

	if (!ring__read_mapping(r, pos, size, offsetof(struct perf_record_mmap3, filename),
				&event) || event.mmap3.build_id_size)
		return;
	file = mmap3_file__mmap3(&event.mmap3);
	if (!fill(&event, &file, &bid))
		return;
	bid_size = bid.size;
	fills__add(pos + offsetof(struct perf_record_mmap3, build_id), bid.data, bid.size);
	fills__add(pos + offsetof(struct perf_record_mmap3, build_id_size), &bid_size, 1);
}

/*
 * Linux 5.12+'s form: the id, its size and padding in place of maj, min,
 * ino and ino_generation, and PERF_RECORD_MISC_MMAP_BUILD_ID.
 */
static void fill_mmap2(struct ring *r, u64 pos, size_t size, u16 misc)
{
	union perf_event event;
	struct mmap3_file file;
	struct build_id bid;
	u8 ids[24] = { 0 };

	if ((misc & PERF_RECORD_MISC_MMAP_BUILD_ID) ||
	    !ring__read_mapping(r, pos, size, offsetof(struct perf_record_mmap2, filename),
				&event))
		return;
	file = mmap3_file__mmap2(&event.mmap2);
	if (!fill(&event, &file, &bid))
		return;
	ids[0] = bid.size;
	memcpy(&ids[4], bid.data, bid.size);
	fills__add(pos + offsetof(struct perf_record_mmap2, maj), ids, sizeof(ids));
	misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	fills__add(pos + offsetof(struct perf_event_header, misc), &misc, sizeof(misc));
}

/*
 * Find the ids of the mapping records @map is about to push out, between
 * map->core.start and map->core.end: perf record's map->prepare_push.  On
 * Linux 5.12+, the MMAP2 records of an event that asked for ids (attr bit
 * 34 with attr.mmap2) only: map->fill_mmap2_ids.
 */
void mmap__fill_build_ids(struct mmap *map)
{
	struct perf_mmap *md = &map->core;
	struct ring r = { .data = md->base + page_size, .mask = md->mask };
	struct perf_event_header h;
	u64 pos;

	fills.map = map;
	fills.nr = 0;
	/* headers are 8-byte aligned: one never wraps */
	for (pos = md->start; pos < md->end; pos += h.size) {
		ring__read(&r, pos, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size > md->end - pos)
			break;
		if (h.type == PERF_RECORD_MMAP3)
			fill_mmap3(&r, pos, h.size);
		else if (h.type == PERF_RECORD_MMAP2 && map->fill_mmap2_ids)
			fill_mmap2(&r, pos, h.size, h.misc);
	}
}

/*
 * The chunk @buf of @size bytes that perf_mmap__push() pushes out of
 * @map's ring buffer (it has just moved map->core.start past it), or a
 * copy of it with the ids found written in.
 */
void *mmap__fill_patch(struct mmap *map, void *buf, size_t size)
{
	u64 start = map->core.start - size;
	bool copied = false;
	size_t i, j;

	if (fills.map != map || !fills.nr)
		return buf;
	for (i = 0; i < fills.nr; i++) {
		struct fill_patch *p = &fills.patches[i];

		for (j = 0; j < p->len; j++) {
			if (p->pos + j < start || p->pos + j >= start + size)
				continue;
			if (!copied) {
				if (fills.copy_size < size) {
					void *copy = realloc(fills.copy, size);

					if (!copy)
						return buf;
					fills.copy = copy;
					fills.copy_size = size;
				}
				memcpy(fills.copy, buf, size);
				copied = true;
			}
			((u8 *)fills.copy)[p->pos + j - start] = p->bytes[j];
		}
	}
	return copied ? fills.copy : buf;
}
