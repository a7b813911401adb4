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
 * known are found in perf_mmap__push()'s prepare_push, before the span
 * goes out, and the push functions write a copy of each chunk that holds
 * such a record, with the id in it (mmap__fill_patch()).
 *
 * The files are read by the build id reader, in another process, so that
 * a file that never answers (a stalled network or FUSE mount) costs its
 * own id and nothing else: the drain of the ring buffers does not wait
 * for it.  An id that is not known when its record goes out is written
 * into the record in perf.data when it comes (mmap3_fill__flush()),
 * where perf.data is a file written in order; else (a pipe, compression,
 * AIO, a switched output) the push waits for it up to
 * FILL_PIPE_WAIT ms.  An MMAP3 record left without an id says why in
 * __reserved_1 (enum mmap3_no_id).
 *
 * The cost is one header read per record pushed, and a file read per
 * mapping without an id: none at the end of the run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <perf/event.h>
#include <internal/lib.h>
#include <internal/mmap.h>

#include "build-id.h"
#include "debug.h"
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

/* How long a push may wait for an id it cannot write in later, in ms. */
#define FILL_PIPE_WAIT	100

/*
 * Bytes to write over the span being pushed, at ring positions: an id and
 * its size, a header's misc.  perf record pushes one map at a time.
 */
struct fill_patch {
	u64	pos;
	u8	len;
	u8	bytes[24];
};

/*
 * A record whose id was asked for and had not come when it was pushed:
 * at ring position @pos of @map until it goes out, then at @file_off in
 * perf.data.
 */
struct fill_wait {
	struct mmap	*map;
	u64		pos;
	s64		file_off;	/* -1 until written */
	u32		maj, min;
	u64		ino, seq;
	u32		type;
	u16		misc;
};

static struct {
	struct mmap		*map;
	struct fill_patch	*patches;
	size_t			nr, alloc;
	struct fill_wait	*waits;
	size_t			nr_waits, alloc_waits;
	void			*copy;
	size_t			copy_size;
	u64			late, lost;
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

static void fills__wait(struct mmap *map, u64 pos, const struct mmap3_file *file,
			u64 seq, u32 type, u16 misc)
{
	struct fill_wait *w;

	if (fills.nr_waits == fills.alloc_waits) {
		size_t alloc = fills.alloc_waits ? 2 * fills.alloc_waits : 16;

		w = realloc(fills.waits, alloc * sizeof(*w));
		if (!w)
			return;
		fills.waits = w;
		fills.alloc_waits = alloc;
	}
	w = &fills.waits[fills.nr_waits++];
	*w = (struct fill_wait){
		.map = map, .pos = pos, .file_off = -1,
		.maj = file->maj, .min = file->min, .ino = file->ino,
		.seq = seq, .type = type, .misc = misc,
	};
}

/*
 * The bytes that give a record of @type (MMAP3, or MMAP2 with @misc) the
 * answer @why, @bid, each passed to @write at its offset in the record.
 */
static void fill__answer(u32 type, u16 misc, int why, const struct build_id *bid,
			 void (*write)(u64 off, const void *bytes, size_t len, void *arg),
			 void *arg)
{
	if (type == PERF_RECORD_MMAP3) {
		u8 b = why ? (u8)why : (u8)bid->size;

		if (why > 0) {
			write(offsetof(struct perf_record_mmap3, __reserved_1), &b, 1, arg);
		} else if (!why) {
			write(offsetof(struct perf_record_mmap3, build_id), bid->data,
			      bid->size, arg);
			write(offsetof(struct perf_record_mmap3, build_id_size), &b, 1, arg);
		}
	} else if (!why) {
		/*
		 * Linux 5.12+'s form: the id, its size and padding in place of
		 * maj, min, ino and ino_generation, and
		 * PERF_RECORD_MISC_MMAP_BUILD_ID.
		 */
		u8 ids[24] = { bid->size };

		memcpy(&ids[4], bid->data, bid->size);
		write(offsetof(struct perf_record_mmap2, maj), ids, sizeof(ids), arg);
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		write(offsetof(struct perf_event_header, misc), &misc, sizeof(misc), arg);
	}
}

static void fill__patch(u64 off, const void *bytes, size_t len, void *arg)
{
	fills__add(*(u64 *)arg + off, bytes, len);
}

struct fill_pwrite {
	int	fd;
	s64	off;
};

static void fill__pwrite(u64 off, const void *bytes, size_t len, void *arg)
{
	struct fill_pwrite *p = arg;

	if (pwrite(p->fd, bytes, len, p->off + off) != (ssize_t)len)
		pr_debug("perf.data: build id not written at %#llx: %s\n",
			 (unsigned long long)(p->off + off), strerror(errno));
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

/* What is known of @file's id now: patched in, or waited for. */
static void fill(struct mmap *map, u64 pos, const struct mmap3_file *file,
		 u32 type, u16 misc)
{
	struct build_id bid;
	u64 seq = 0;
	int why;

	why = mmap3__task_build_id("", file, &bid, &seq);
	if (why == -EAGAIN) {
		fills__wait(map, pos, file, seq, type, misc);
		return;
	}
	if (!why && (!bid.size || bid.size > BUILD_ID_SIZE))
		return;
	fill__answer(type, misc, why, &bid, fill__patch, &pos);
}

static void fill_mmap3(struct mmap *map, struct ring *r, u64 pos, size_t size)
{
	union perf_event event;
	struct mmap3_file file;

	if (!ring__read_mapping(r, pos, size, offsetof(struct perf_record_mmap3, filename),
				&event) || event.mmap3.build_id_size)
		return;
	file = mmap3_file__mmap3(&event.mmap3);
	fill(map, pos, &file, PERF_RECORD_MMAP3, event.header.misc);
}

static void fill_mmap2(struct mmap *map, struct ring *r, u64 pos, size_t size, u16 misc)
{
	union perf_event event;
	struct mmap3_file file;

	if ((misc & PERF_RECORD_MISC_MMAP_BUILD_ID) ||
	    !ring__read_mapping(r, pos, size, offsetof(struct perf_record_mmap2, filename),
				&event))
		return;
	file = mmap3_file__mmap2(&event.mmap2);
	fill(map, pos, &file, PERF_RECORD_MMAP2, misc);
}

/*
 * The answer to @w if it has come: patched into the span being pushed.
 * True if @w is done with.
 */
static bool fill_wait__patch(struct fill_wait *w)
{
	struct build_id bid;
	int why = mmap3__task_build_id_answer(w->maj, w->min, w->ino, w->seq, &bid);

	if (why == -EAGAIN)
		return false;
	if (!why && (!bid.size || bid.size > BUILD_ID_SIZE))
		return true;
	fill__answer(w->type, w->misc, why, &bid, fill__patch, &w->pos);
	return true;
}

/* Patch in the answers come for @map's records still in its ring. */
static size_t fills__patch_waits(struct mmap *map)
{
	size_t i, left = 0;

	for (i = 0; i < fills.nr_waits; i++) {
		struct fill_wait *w = &fills.waits[i];

		if (w->map != map || w->file_off >= 0)
			continue;
		if (fill_wait__patch(w))
			w->map = NULL;
		else
			left++;
	}
	return left;
}

/* Forget the waits done with. */
static void fills__compact(void)
{
	size_t i, n = 0;

	for (i = 0; i < fills.nr_waits; i++) {
		if (fills.waits[i].map)
			fills.waits[n++] = fills.waits[i];
	}
	fills.nr_waits = n;
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
	int waited = 0;
	u64 pos;

	fills.map = map;
	fills.nr = 0;
	/* headers are 8-byte aligned: one never wraps */
	for (pos = md->start; pos < md->end; pos += h.size) {
		ring__read(&r, pos, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size > md->end - pos)
			break;
		if (h.type == PERF_RECORD_MMAP3)
			fill_mmap3(map, &r, pos, h.size);
		else if (h.type == PERF_RECORD_MMAP2 && map->fill_mmap2_ids)
			fill_mmap2(map, &r, pos, h.size, h.misc);
	}
	mmap3__take_answers(0);
	while (fills__patch_waits(map) && !map->fill_later && waited < FILL_PIPE_WAIT) {
		if (!mmap3__take_answers(10))
			waited += 10;
	}
}

/*
 * The chunk @buf of @size bytes that perf_mmap__push() pushes out of
 * @map's ring buffer (it has just moved map->core.start past it), or a
 * copy of it with the ids found written in.  @file_off is where the chunk
 * goes in perf.data, -1 if the ids still to come cannot be written there.
 */
void *mmap__fill_patch(struct mmap *map, void *buf, size_t size, s64 file_off)
{
	u64 start = map->core.start - size;
	bool copied = false;
	size_t i, j;

	for (i = 0; i < fills.nr_waits; i++) {
		struct fill_wait *w = &fills.waits[i];

		if (w->map != map || w->file_off >= 0 ||
		    w->pos < start || w->pos >= start + size)
			continue;
		if (file_off >= 0) {
			w->file_off = file_off + (w->pos - start);
		} else {
			w->map = NULL;	/* gone without its id */
			fills.lost++;
		}
	}
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

/* Does @map have records going out whose ids are still to come? */
bool mmap__fill_waits(struct mmap *map)
{
	size_t i;

	for (i = 0; i < fills.nr_waits; i++) {
		if (fills.waits[i].map == map && fills.waits[i].file_off < 0)
			return true;
	}
	return false;
}

/*
 * Write the ids come since into the records already in perf.data, @fd,
 * waiting up to @timeout_ms for those still to come.  Returns how many
 * are still to come.
 */
size_t mmap3_fill__flush(int fd, int timeout_ms)
{
	int waited = 0;
	size_t i, left;

	mmap3__take_answers(0);
	for (;;) {
		left = 0;
		for (i = 0; i < fills.nr_waits; i++) {
			struct fill_wait *w = &fills.waits[i];
			struct fill_pwrite p = { .fd = fd, .off = w->file_off };
			struct build_id bid;
			int why;

			if (!w->map || w->file_off < 0)
				continue;
			why = mmap3__task_build_id_answer(w->maj, w->min, w->ino, w->seq, &bid);
			if (why == -EAGAIN) {
				left++;
				continue;
			}
			if (why || (bid.size && bid.size <= BUILD_ID_SIZE))
				fill__answer(w->type, w->misc, why, &bid, fill__pwrite, &p);
			w->map = NULL;
			fills.late++;
		}
		fills__compact();
		if (!left || waited >= timeout_ms)
			break;
		if (!mmap3__take_answers(50))
			waited += 50;
	}
	return left;
}
