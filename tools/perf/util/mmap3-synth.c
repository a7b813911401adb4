// SPDX-License-Identifier: GPL-2.0
/*
 * MMAP3 records for what was mapped before perf record started: the
 * running tasks' mappings, the kernel and its modules.  perf synthesizes
 * them as MMAP2 and MMAP records; when the kernel emits MMAP3, record
 * turns them into MMAP3 records here, with the build ids read now:
 *
 * - a task's file: through /proc/PID/map_files, which is the file that is
 *   mapped even if its path was since replaced or removed, else through
 *   /proc/PID/root, inside the task's mount namespace, if the inode there
 *   is still the mapped one;
 * - the kernel: /sys/kernel/notes;
 * - a module: /sys/module/NAME/notes/.note.gnu.build-id.
 *
 * A file without a readable id gets an MMAP3 record with build_id_size 0,
 * like the kernel gives one whose id it could not find.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/zalloc.h>
#include <perf/event.h>

#include "build-id.h"
#include "debug.h"
#include "dso.h"
#include "event.h"
#include "machine.h"
#include "map.h"
#include "maps.h"
#include "mmap3-synth.h"
#include "symbol.h"

/*
 * Ids already read, by device and inode: libc is mapped by every task.
 * Only ids found: a read that failed (a task gone, a namespace not
 * entered) may well work for the next task mapping the same file.
 * Synthesis may run on several threads.
 */
struct mmap3_bid_entry {
	struct mmap3_bid_entry	*next;
	u32			maj, min;
	u64			ino;
	struct build_id		bid;
};

#define MMAP3_BID_BUCKETS	256

static struct mmap3_bid_entry *mmap3_bid_cache[MMAP3_BID_BUCKETS];
static pthread_mutex_t mmap3_bid_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned int mmap3_bid_bucket(u32 maj, u32 min, u64 ino)
{
	return (ino ^ (ino >> 8) ^ maj ^ (min << 4)) % MMAP3_BID_BUCKETS;
}

static bool mmap3_bid_cache_find(u32 maj, u32 min, u64 ino, struct build_id *bid)
{
	struct mmap3_bid_entry *e;
	bool found = false;

	pthread_mutex_lock(&mmap3_bid_lock);
	for (e = mmap3_bid_cache[mmap3_bid_bucket(maj, min, ino)]; e; e = e->next) {
		if (e->maj == maj && e->min == min && e->ino == ino) {
			*bid = e->bid;
			found = true;
			break;
		}
	}
	pthread_mutex_unlock(&mmap3_bid_lock);
	return found;
}

static void mmap3_bid_cache_add(u32 maj, u32 min, u64 ino, struct build_id *bid)
{
	struct mmap3_bid_entry *e = zalloc(sizeof(*e));
	unsigned int b = mmap3_bid_bucket(maj, min, ino);

	if (!e)
		return;
	e->maj = maj;
	e->min = min;
	e->ino = ino;
	e->bid = *bid;
	pthread_mutex_lock(&mmap3_bid_lock);
	e->next = mmap3_bid_cache[b];
	mmap3_bid_cache[b] = e;
	pthread_mutex_unlock(&mmap3_bid_lock);
}

/* No id; not build_id__init(bid, NULL, 0): memcpy() from NULL is undefined */
static void mmap3__no_build_id(struct build_id *bid)
{
	memset(bid, 0, sizeof(*bid));
}

/*
 * Has the file at @path @m's inode, or with @dev its device and inode?
 * Then the inode's generation too, where the record and the file system
 * both give one: a file made since may have the inode number of one
 * removed.
 */
static bool mmap3__same_file(const char *path, const struct mmap3_file *m, bool dev)
{
	struct stat st;
	unsigned int gen;
	bool same;
	int fd;

	if (stat(path, &st) || st.st_ino != m->ino ||
	    (dev && (major(st.st_dev) != m->maj || minor(st.st_dev) != m->min)))
		return false;
	if (!dev || !m->ino_generation)
		return true;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	same = ioctl(fd, FS_IOC_GETVERSION, &gen) || gen == (u32)m->ino_generation;
	close(fd);
	return same;
}

static bool mmap3__read_file_build_id(const char *path, const struct mmap3_file *m,
				      bool dev, struct build_id *bid)
{
	if (!mmap3__same_file(path, m, dev) || filename__read_build_id(path, bid) <= 0) {
		mmap3__no_build_id(bid);
		return false;
	}
	return true;
}

/*
 * The id of the file a task maps, or none: only the file with the
 * mapping's inode has a say.  In the order tried:
 * - /proc/PID/map_files: the mapped file itself, whatever is at its path;
 * - the path in the task's mount namespace, /proc/PID/root/PATH, if the
 *   file there has the mapping's inode.  The inode only: stat() gives a
 *   btrfs subvolume's own device, the records the file system's;
 * - the task gone (or a zombie, whose root cannot be read), the path in
 *   perf's own mount namespace, if the file there has the mapping's
 *   device, inode and inode generation: the same file, wherever the task
 *   ran.
 */
void mmap3__read_task_build_id(const char *root_dir, const struct mmap3_file *m,
			       struct build_id *bid)
{
	/* room for the /proc prefix in front of a PATH_MAX file name */
	char path[PATH_MAX + 32];

	mmap3__no_build_id(bid);
	/* anon, [stack], [vdso], ...: no file */
	if (m->filename[0] != '/' || !m->ino)
		return;

	if (mmap3_bid_cache_find(m->maj, m->min, m->ino, bid))
		return;

	snprintf(path, sizeof(path), "%s/proc/%d/map_files/%" PRI_lx64 "-%" PRI_lx64,
		 root_dir, m->pid, m->start, m->start + m->len);
	if (filename__read_build_id(path, bid) <= 0) {
		snprintf(path, sizeof(path), "%s/proc/%d/root%s",
			 root_dir, m->pid, m->filename);
		if (!mmap3__read_file_build_id(path, m, false, bid)) {
			snprintf(path, sizeof(path), "%s%s", root_dir, m->filename);
			if (!mmap3__read_file_build_id(path, m, true, bid))
				return;
		}
	}
	mmap3_bid_cache_add(m->maj, m->min, m->ino, bid);
}

/* "[ext4]" or "/lib/modules/.../ext4.ko.xz" -> "ext4" */
static void mmap3__module_name(struct dso *dso, char *name, size_t size)
{
	const char *s = dso->short_name;
	size_t len;
	char *p;

	if (s[0] == '[') {
		s++;
		len = strcspn(s, "]");
	} else {
		s = strrchr(dso->long_name, '/');
		s = s ? s + 1 : dso->long_name;
		len = strcspn(s, ".");
	}
	snprintf(name, size, "%.*s", (int)len, s);
	for (p = name; *p; p++) {
		if (*p == '-')
			*p = '_';
	}
}

/*
 * The id of a kernel map: the kernel's or a module's.  False for maps that
 * are neither (the x86 entry trampolines): they stay MMAP records.
 */
static bool mmap3__read_kernel_build_id(struct machine *machine,
					struct perf_record_mmap *m,
					struct build_id *bid)
{
	char path[PATH_MAX], name[NAME_MAX];
	struct map *map;

	mmap3__no_build_id(bid);
	map = maps__find(machine__kernel_maps(machine), m->start);
	if (!map || !map->dso)
		return false;

	if (map == machine__kernel_map(machine) &&
	    strstarts(m->filename, machine->mmap_name)) {
		snprintf(path, sizeof(path), "%s/sys/kernel/notes",
			 machine->root_dir);
	} else if (__map__is_kmodule(map)) {
		mmap3__module_name(map->dso, name, sizeof(name));
		snprintf(path, sizeof(path),
			 "%s/sys/module/%s/notes/.note.gnu.build-id",
			 machine->root_dir, name);
	} else {
		return false;
	}

	if (sysfs__read_build_id(path, bid))
		mmap3__no_build_id(bid);
	return true;
}

bool perf_event__mmap3_wanted(union perf_event *event, struct machine *machine)
{
	u8 cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool wanted;

	switch (event->header.type) {
	case PERF_RECORD_MMAP2:
		wanted = cpumode == PERF_RECORD_MISC_USER;
		break;
	case PERF_RECORD_MMAP:
		wanted = cpumode == PERF_RECORD_MISC_KERNEL;
		break;
	default:
		wanted = false;
		break;
	}
	/* some synthesizers pass no machine; guests' files are not here */
	return wanted && machine && machine__is_host(machine);
}

/*
 * A new MMAP3 record with @bid for an MMAP or MMAP2 record @event, which
 * ends in @id_hdr_size bytes of sample id fields; they are kept.  An MMAP
 * record has no inode: those fields stay 0, prot says what its misc says;
 * nor has an MMAP2 record with PERF_RECORD_MISC_MMAP_BUILD_ID, whose inode
 * fields hold its id.  To be freed by the caller; NULL if out of memory or
 * @event is too short.
 */
union perf_event *perf_event__new_mmap3(union perf_event *event,
					const struct build_id *bid,
					u16 id_hdr_size)
{
	struct perf_record_mmap3 *m3;
	const char *filename;
	size_t fixed, len, size;

	if (event->header.type == PERF_RECORD_MMAP2) {
		fixed = offsetof(struct perf_record_mmap2, filename);
		filename = event->mmap2.filename;
	} else {
		fixed = offsetof(struct perf_record_mmap, filename);
		filename = event->mmap.filename;
	}
	if (event->header.size < fixed + id_hdr_size)
		return NULL;

	len = strnlen(filename, event->header.size - fixed - id_hdr_size) + 1;
	size = offsetof(struct perf_record_mmap3, filename) +
	       PERF_ALIGN(len, sizeof(u64)) + id_hdr_size;
	if (size > UINT16_MAX)
		return NULL;
	m3 = zalloc(size);
	if (!m3)
		return NULL;

	m3->header.type = PERF_RECORD_MMAP3;
	m3->header.misc = event->header.misc & ~PERF_RECORD_MISC_MMAP_BUILD_ID;
	m3->header.size = size;
	if (event->header.type == PERF_RECORD_MMAP2) {
		struct perf_record_mmap2 *m2 = &event->mmap2;

		m3->pid = m2->pid;
		m3->tid = m2->tid;
		m3->start = m2->start;
		m3->len = m2->len;
		m3->pgoff = m2->pgoff;
		if (!(event->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
			m3->maj = m2->maj;
			m3->min = m2->min;
			m3->ino = m2->ino;
			m3->ino_generation = m2->ino_generation;
		}
		m3->prot = m2->prot;
		m3->flags = m2->flags;
	} else {
		struct perf_record_mmap *m = &event->mmap;

		m3->pid = m->pid;
		m3->tid = m->tid;
		m3->start = m->start;
		m3->len = m->len;
		m3->pgoff = m->pgoff;
		m3->prot = event->header.misc & PERF_RECORD_MISC_MMAP_DATA ?
			   PROT_READ : PROT_READ | PROT_EXEC;
	}
	if (bid->size <= sizeof(m3->build_id)) {
		m3->build_id_size = bid->size;
		memcpy(m3->build_id, bid->data, bid->size);
	}
	memcpy(m3->filename, filename, len - 1);
	memcpy((void *)m3 + size - id_hdr_size,
	       (void *)event + event->header.size - id_hdr_size, id_hdr_size);

	return (union perf_event *)m3;
}

int perf_event__synthesize_mmap3(struct perf_tool *tool,
				 union perf_event *event,
				 struct perf_sample *sample,
				 struct machine *machine,
				 perf_event__handler_t process)
{
	union perf_event *m3;
	struct build_id bid;
	int err;

	if (event->header.type == PERF_RECORD_MMAP2) {
		struct mmap3_file file = mmap3_file__mmap2(&event->mmap2);

		mmap3__read_task_build_id(machine->root_dir, &file, &bid);
	} else if (!mmap3__read_kernel_build_id(machine, &event->mmap, &bid)) {
		return process(tool, event, sample, machine);
	}

	m3 = perf_event__new_mmap3(event, &bid, machine->id_hdr_size);
	if (!m3)
		return -ENOMEM;
	err = process(tool, m3, sample, machine);
	free(m3);
	return err;
}

/*
 * perf record's pass over its own data keeps the kernel maps it made at
 * start, so kernel MMAP3 records only give their DSO the id.
 */
void machine__set_mmap3_kernel_build_id(struct machine *machine,
					union perf_event *event)
{
	struct perf_record_mmap3 *m = &event->mmap3;
	struct build_id bid;
	struct map *map;

	if (!m->build_id_size || m->build_id_size > BUILD_ID_SIZE)
		return;

	map = maps__find(machine__kernel_maps(machine), m->start);
	if (!map || !map->dso || map->dso->has_build_id)
		return;

	build_id__init(&bid, m->build_id, m->build_id_size);
	dso__set_build_id(map->dso, &bid);
}
