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
#include "dso.h"
#include "evlist.h"
#include "evsel.h"
#include "machine.h"
#include "map.h"
#include "mmap.h"
#include "mmap3-convert.h"
#include "mmap3-fill.h"
#include "mmap3-synth.h"

/* where an MMAP2 record's build id fields start */
#define MMAP2_ID_AT	offsetof(struct perf_record_mmap2, build_id_size)

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
	int		table;		/* its file for record_ids, or -1 */
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
			u64 seq, u32 type, u16 misc, int table)
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
		.seq = seq, .type = type, .misc = misc, .table = table,
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
		 * maj, min, ino and ino_generation (the union of struct
		 * perf_record_mmap2), and PERF_RECORD_MISC_MMAP_BUILD_ID.
		 */
		u8 ids[offsetof(struct perf_record_mmap2, prot) - MMAP2_ID_AT] = { bid->size };

		memcpy(&ids[offsetof(struct perf_record_mmap2, build_id) - MMAP2_ID_AT],
		       bid->data, bid->size);
		write(MMAP2_ID_AT, ids, sizeof(ids), arg);
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
 * The build-id table of perf record -B, from the ids in the records.
 *
 * With the ids in the mapping records, -B reads no binary at the end of
 * the run; but perf before Linux 5.12 and perf 6.1 read ids only from the
 * perf.data header's build-id table.  So perf record keeps, as the records
 * go out, the files the mapping records name with their ids (each once),
 * their address ranges, and the addresses samples hit, and the end of the
 * run writes into the table the files a sample hit: in any process, so a
 * superset of the DSOs hit, each with the id its records carry.  That
 * costs a header read per record pushed and a sort at the end, never a
 * read of perf.data or of a binary.  A name whose records carry two ids
 * (a file replaced during the run) gets no entry: a wrong id is worse
 * than none.
 */
struct record_id_file {
	char		*name;
	struct build_id	bid;
	u32		maj, min;
	u64		ino, ino_generation;
	bool		has_inode;
	bool		kernel;
	bool		hit;
	u32		next;		/* in its hash chain, index + 1 */
};

struct record_id_range {
	u64	start, end;
	u32	file;
};

#define RECORD_IDS_HASH	1024

static struct {
	bool			on;
	struct evlist		*evlist;
	struct record_id_file	*files;
	size_t			nr_files, alloc_files;
	u32			hash[RECORD_IDS_HASH];
	struct record_id_range	*ranges;
	size_t			nr_ranges, alloc_ranges;
	u64			*ips;
	size_t			nr_ips, alloc_ips;
} record_ids;

/* Grow @*array of @*alloc elements of @size bytes to hold one more. */
static bool record_ids__grow(void *array, size_t *alloc, size_t nr, size_t size)
{
	size_t n = *alloc ? 2 * *alloc : 64;
	void *p;

	if (nr < *alloc)
		return true;
	p = realloc(*(void **)array, n * size);
	if (!p)
		return false;
	*(void **)array = p;
	*alloc = n;
	return true;
}

/* Keep the ids of the mapping records and the addresses samples hit. */
void record_ids__start(struct evlist *evlist)
{
	record_ids.on = true;
	record_ids.evlist = evlist;
}

static u32 record_ids__hash(const char *name, const struct mmap3_file *file)
{
	u32 h = 5381;

	while (*name)
		h = h * 33 + (unsigned char)*name++;
	if (file)
		h ^= file->maj * 31 + file->min * 7 + (u32)file->ino;
	return h % RECORD_IDS_HASH;
}

static bool record_id_file__same(const struct record_id_file *f, const char *name,
				 const struct mmap3_file *file, const struct build_id *bid,
				 bool kernel)
{
	if (f->kernel != kernel || f->has_inode != !!file || strcmp(f->name, name))
		return false;
	if (file)
		return f->maj == file->maj && f->min == file->min && f->ino == file->ino &&
		       f->ino_generation == file->ino_generation;
	return !build_id__cmp(&f->bid, bid);
}

/*
 * The file a mapping record names, by its inode where it has one (@file),
 * else by its id: an index into record_ids.files, or -1 if out of memory.
 */
static int record_ids__file(const char *name, const struct mmap3_file *file,
			    const struct build_id *bid, bool kernel)
{
	u32 h = record_ids__hash(name, file), i;
	struct record_id_file *f;

	for (i = record_ids.hash[h]; i; i = record_ids.files[i - 1].next) {
		f = &record_ids.files[i - 1];
		if (record_id_file__same(f, name, file, bid, kernel)) {
			if (!f->bid.size && bid->size)
				f->bid = *bid;
			return i - 1;
		}
	}
	if (!record_ids__grow(&record_ids.files, &record_ids.alloc_files,
			      record_ids.nr_files, sizeof(*f)))
		return -1;
	f = &record_ids.files[record_ids.nr_files];
	*f = (struct record_id_file){
		.name = strdup(name), .bid = *bid, .kernel = kernel,
		.has_inode = !!file, .next = record_ids.hash[h],
	};
	if (!f->name)
		return -1;
	if (file) {
		f->maj = file->maj;
		f->min = file->min;
		f->ino = file->ino;
		f->ino_generation = file->ino_generation;
	}
	record_ids.hash[h] = ++record_ids.nr_files;
	return record_ids.nr_files - 1;
}

/*
 * A mapping record of @name, at @start for @len bytes, with the id @bid
 * (size 0: none yet), of a file @file (NULL: none named).  Returns the
 * file's index, -1 if not kept.
 */
static int record_ids__mapping(u16 misc, const char *name, u64 start, u64 len,
			       const struct mmap3_file *file, const struct build_id *bid)
{
	u8 cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct record_id_range *r;
	int i;

	if (!record_ids.on ||
	    (cpumode != PERF_RECORD_MISC_USER && cpumode != PERF_RECORD_MISC_KERNEL))
		return -1;
	/* [vdso], [heap]...: no file; the kernel's own is [kernel.kallsyms]_text */
	if (name[0] != '/' && strncmp(name, "[kernel.kallsyms]", 17))
		return -1;
	i = record_ids__file(name, file, bid, cpumode == PERF_RECORD_MISC_KERNEL);
	if (i < 0 || !record_ids__grow(&record_ids.ranges, &record_ids.alloc_ranges,
				       record_ids.nr_ranges, sizeof(*r)))
		return -1;
	r = &record_ids.ranges[record_ids.nr_ranges++];
	r->start = start;
	r->end = start + len < start ? ~0ULL : start + len;
	r->file = i;
	return i;
}

/* The id of the file @i, read by perf record after its record went out. */
static void record_ids__set(int i, const struct build_id *bid)
{
	if (i >= 0 && (size_t)i < record_ids.nr_files && !record_ids.files[i].bid.size)
		record_ids.files[i].bid = *bid;
}

static int u64__cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Sort the addresses kept and drop the repeats. */
static void record_ids__sort_ips(void)
{
	size_t i, n = 0;

	if (!record_ids.nr_ips)		/* and maybe no array yet */
		return;
	qsort(record_ids.ips, record_ids.nr_ips, sizeof(u64), u64__cmp);
	for (i = 0; i < record_ids.nr_ips; i++) {
		if (!n || record_ids.ips[n - 1] != record_ids.ips[i])
			record_ids.ips[n++] = record_ids.ips[i];
	}
	record_ids.nr_ips = n;
}

static void record_ids__ip(u64 ip)
{
	if (record_ids.nr_ips == record_ids.alloc_ips) {
		/* a hot loop's samples have few addresses: sort before growing */
		record_ids__sort_ips();
		if (record_ids.nr_ips > record_ids.alloc_ips / 2 &&
		    !record_ids__grow(&record_ids.ips, &record_ids.alloc_ips,
				      record_ids.nr_ips, sizeof(u64)))
			return;
		if (!record_ids.alloc_ips &&
		    !record_ids__grow(&record_ids.ips, &record_ids.alloc_ips, 0, sizeof(u64)))
			return;
	}
	record_ids.ips[record_ids.nr_ips++] = ip;
}

/* The address of a sample whose first @n u64s are @array, if it has one. */
static bool record_ids__sample_ip(const u64 *array, size_t n, u64 *ip)
{
	struct evlist *evlist = record_ids.evlist;
	struct evsel *evsel = evlist__first(evlist);
	size_t i;
	u64 type;

	if (evlist->core.nr_entries > 1) {
		if (evlist->id_pos < 0 || (size_t)evlist->id_pos >= n)
			return false;
		evsel = perf_evlist__id2evsel(evlist, array[evlist->id_pos]);
		if (!evsel)
			return false;
	}
	type = evsel->core.attr.sample_type;
	i = type & PERF_SAMPLE_IDENTIFIER ? 1 : 0;
	if (!(type & PERF_SAMPLE_IP) || i >= n)
		return false;
	*ip = array[i];
	return true;
}

/* A sample in the ring at @pos, of @size bytes: the address it hit. */
static void record_ids__ring_sample(struct ring *r, u64 pos, size_t size, u16 misc)
{
	u8 cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	u64 array[6], ip;
	size_t n = (size - sizeof(struct perf_event_header)) / sizeof(u64);

	if (cpumode != PERF_RECORD_MISC_USER && cpumode != PERF_RECORD_MISC_KERNEL)
		return;

	if (n > ARRAY_SIZE(array))
		n = ARRAY_SIZE(array);
	ring__read(r, pos + sizeof(struct perf_event_header), array, n * sizeof(u64));
	if (record_ids__sample_ip(array, n, &ip))
		record_ids__ip(ip);
}

/* A mapping record, whole in @event: MMAP3, or MMAP2 with or without an id. */
static int record_ids__event_mapping(const union perf_event *event)
{
	struct mmap3_file file;
	struct build_id bid;

	if (event->header.type == PERF_RECORD_MMAP3) {
		file = mmap3_file__mmap3(&event->mmap3);
		build_id__init(&bid, event->mmap3.build_id,
			       event->mmap3.build_id_size <= BUILD_ID_SIZE ?
			       event->mmap3.build_id_size : 0);
	} else if (event->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		perf_record_mmap2__build_id(&event->mmap2, &bid);
		return record_ids__mapping(event->header.misc, event->mmap2.filename,
					   event->mmap2.start, event->mmap2.len, NULL, &bid);
	} else {
		file = mmap3_file__mmap2(&event->mmap2);
		bid.size = 0;
	}
	return record_ids__mapping(event->header.misc, file.filename, file.start,
				   file.len, &file, &bid);
}

/* A record perf record writes itself (the kernel's, modules', tasks'). */
void record_ids__event(const union perf_event *event)
{
	size_t fixed;

	if (!record_ids.on)
		return;
	if (event->header.type == PERF_RECORD_MMAP3)
		fixed = offsetof(struct perf_record_mmap3, filename);
	else if (event->header.type == PERF_RECORD_MMAP2)
		fixed = offsetof(struct perf_record_mmap2, filename);
	else
		return;
	if (event->header.size > fixed &&
	    memchr((const char *)event + fixed, '\0', event->header.size - fixed))
		record_ids__event_mapping(event);
}

static int record_id_file__cmp(const void *a, const void *b)
{
	const struct record_id_file *f = &record_ids.files[*(const u32 *)a];
	const struct record_id_file *g = &record_ids.files[*(const u32 *)b];

	return strcmp(f->name, g->name);
}

/* Into @machine's DSOs: the file @f, whose id no other file of its name has. */
static bool record_id_file__add_dso(struct record_id_file *f, struct machine *machine)
{
	struct dso *dso;
	bool added = false;

	if (f->kernel && !strncmp(f->name, "[kernel.kallsyms]", 17)) {
		dso = dso__get(machine__kernel_map(machine)->dso);
	} else {
		dso = machine__findnew_dso(machine, f->name);
		if (dso && f->kernel)
			dso->kernel = DSO_SPACE__KERNEL;
	}
	if (!dso)
		return false;
	if (!dso->has_build_id)
		dso__set_build_id(dso, &f->bid);
	if (!dso->hit && !build_id__cmp(&dso->bid, &f->bid)) {
		dso->hit = 1;
		added = true;
	}
	dso__put(dso);
	return added;
}

/*
 * Into @machine's DSOs, for perf_session__write_header(): the files a
 * sample hit with their ids, marked hit; then forget the addresses, for
 * the next file of --switch-output.  Returns how many.
 */
int record_ids__add_dsos(struct machine *machine)
{
	size_t i, j, lo, hi, nr_hit = 0, nr = 0, two = 0;
	u32 *hit;

	if (!record_ids.on)
		return 0;
	record_ids__sort_ips();
	for (i = 0; i < record_ids.nr_ranges; i++) {
		struct record_id_range *r = &record_ids.ranges[i];

		/* the first address at or past the start */
		for (lo = 0, hi = record_ids.nr_ips; lo < hi;) {
			size_t mid = lo + (hi - lo) / 2;

			if (record_ids.ips[mid] < r->start)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < record_ids.nr_ips && record_ids.ips[lo] < r->end)
			record_ids.files[r->file].hit = true;
	}
	hit = calloc(record_ids.nr_files + 1, sizeof(*hit));
	if (!hit)
		return 0;
	for (i = 0; i < record_ids.nr_files; i++) {
		if (record_ids.files[i].hit && record_ids.files[i].bid.size)
			hit[nr_hit++] = i;
		record_ids.files[i].hit = false;
	}
	qsort(hit, nr_hit, sizeof(*hit), record_id_file__cmp);
	/* each run of one name: one id, or no entry */
	for (i = 0; i < nr_hit; i = j) {
		struct record_id_file *f = &record_ids.files[hit[i]];
		bool same = true;

		for (j = i + 1; j < nr_hit && !record_id_file__cmp(&hit[i], &hit[j]); j++)
			same &= !build_id__cmp(&f->bid, &record_ids.files[hit[j]].bid);
		if (!same)
			two++;
		else if (record_id_file__add_dso(f, machine))
			nr++;
	}
	free(hit);
	pr_debug("build-id table: %zu files hit, from the ids in the records", nr);
	if (two)
		pr_debug(" (%zu names left out: their records carry two ids)", two);
	pr_debug("\n");
	record_ids.nr_ips = 0;
	return nr;
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
		 u32 type, u16 misc, int table)
{
	struct build_id bid;
	u64 seq = 0;
	int why;

	why = mmap3__task_build_id("", file, &bid, &seq);
	if (why == -EAGAIN) {
		fills__wait(map, pos, file, seq, type, misc, table);
		return;
	}
	if (!why && (!bid.size || bid.size > BUILD_ID_SIZE))
		return;
	if (!why)
		record_ids__set(table, &bid);
	fill__answer(type, misc, why, &bid, fill__patch, &pos);
}

static void fill_mmap3(struct mmap *map, struct ring *r, u64 pos, size_t size)
{
	union perf_event event;
	struct mmap3_file file;
	int table;

	if (!ring__read_mapping(r, pos, size, offsetof(struct perf_record_mmap3, filename),
				&event))
		return;
	table = record_ids__event_mapping(&event);
	if (event.mmap3.build_id_size)
		return;
	file = mmap3_file__mmap3(&event.mmap3);
	fill(map, pos, &file, PERF_RECORD_MMAP3, event.header.misc, table);
}

static void fill_mmap2(struct mmap *map, struct ring *r, u64 pos, size_t size, u16 misc)
{
	union perf_event event;
	struct mmap3_file file;
	int table;

	if (!ring__read_mapping(r, pos, size, offsetof(struct perf_record_mmap2, filename),
				&event))
		return;
	table = record_ids__event_mapping(&event);
	if ((misc & PERF_RECORD_MISC_MMAP_BUILD_ID) || !map->fill_mmap2_ids)
		return;
	file = mmap3_file__mmap2(&event.mmap2);
	fill(map, pos, &file, PERF_RECORD_MMAP2, misc, table);
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
	if (!why)
		record_ids__set(w->table, &bid);
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
		else if (h.type == PERF_RECORD_MMAP2 && (map->fill_mmap2_ids || record_ids.on))
			fill_mmap2(map, &r, pos, h.size, h.misc);
		else if (h.type == PERF_RECORD_SAMPLE && record_ids.on)
			record_ids__ring_sample(&r, pos, h.size, h.misc);
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
			if (!why && bid.size && bid.size <= BUILD_ID_SIZE)
				record_ids__set(w->table, &bid);
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

