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
#include "build-id-reader.h"
#include "mmap3-synth.h"
#include "symbol.h"

/*
 * What is known of the files tasks map, by device and inode: libc is
 * mapped by every task.  An id found, a file that did not answer in time
 * (it is not asked again), or a question to the build id reader still
 * open.  Any other failure (a task gone, a namespace not entered) is
 * kept only as the answer to its question: the next task mapping the
 * same file may well give its id.  Synthesis may run on several threads.
 */
enum mmap3_bid_state {
	MMAP3_BID__PENDING,
	MMAP3_BID__ANSWERED,
};

struct mmap3_bid_entry {
	struct mmap3_bid_entry	*next;
	u32			maj, min;
	u64			ino;
	enum mmap3_bid_state	state;
	u64			seq;	/* of the question, while PENDING */
	int			why;	/* 0: bid is the id */
	struct build_id		bid;
	char			*name;	/* the first name asked about */
};

#define MMAP3_BID_BUCKETS	256

static struct mmap3_bid_entry *mmap3_bid_cache[MMAP3_BID_BUCKETS];
static pthread_mutex_t mmap3_bid_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned int mmap3_bid_bucket(u32 maj, u32 min, u64 ino)
{
	return (ino ^ (ino >> 8) ^ maj ^ (min << 4)) % MMAP3_BID_BUCKETS;
}

/* Called with mmap3_bid_lock held. */
static struct mmap3_bid_entry *mmap3_bid_cache__find(u32 maj, u32 min, u64 ino)
{
	struct mmap3_bid_entry *e;

	for (e = mmap3_bid_cache[mmap3_bid_bucket(maj, min, ino)]; e; e = e->next) {
		if (e->maj == maj && e->min == min && e->ino == ino)
			return e;
	}
	return NULL;
}

/* Called with mmap3_bid_lock held. */
static struct mmap3_bid_entry *mmap3_bid_cache__get(u32 maj, u32 min, u64 ino)
{
	struct mmap3_bid_entry *e = mmap3_bid_cache__find(maj, min, ino);
	unsigned int b = mmap3_bid_bucket(maj, min, ino);

	if (e)
		return e;
	e = zalloc(sizeof(*e));
	if (!e)
		return NULL;
	e->maj = maj;
	e->min = min;
	e->ino = ino;
	e->state = MMAP3_BID__ANSWERED;
	e->why = MMAP3_NO_ID__GONE;
	e->next = mmap3_bid_cache[b];
	mmap3_bid_cache[b] = e;
	return e;
}

/* Called with mmap3_bid_lock held: is @e's answer one to keep? */
static bool mmap3_bid_entry__final(const struct mmap3_bid_entry *e)
{
	return e->state == MMAP3_BID__ANSWERED &&
	       (e->why == 0 || e->why == MMAP3_NO_ID__TIMEOUT);
}

/* No id; not build_id__init(bid, NULL, 0): memcpy() from NULL is undefined */
static void mmap3__no_build_id(struct build_id *bid)
{
	memset(bid, 0, sizeof(*bid));
}

const char *mmap3_no_id__str(int why)
{
	static const char * const str[] = {
		[MMAP3_NO_ID__UNSAID]		= "no build id",
		[MMAP3_NO_ID__NONE_IN_FILE]	= "no build id in the file",
		[MMAP3_NO_ID__GONE]		= "no file with the mapping's inode found",
		[MMAP3_NO_ID__NOT_REGULAR]	= "not a regular file",
		[MMAP3_NO_ID__TIMEOUT]		= "the file did not answer in time",
	};

	if (why < 0 || why >= MMAP3_NO_ID__MAX)
		why = MMAP3_NO_ID__UNSAID;
	return str[why];
}

/*
 * The id of the file at @path if it is @m's: its inode, or with @dev its
 * device and inode, and then its generation too where the record and the
 * file system both give one (a file made since may have the inode number
 * of one removed).  The file is opened once, without waiting, only if it
 * is a regular file, and what was opened is what is checked and read.
 */
static int mmap3__read_file_build_id(const char *path, const struct mmap3_file *m,
				     bool dev, struct build_id *bid)
{
	struct stat st;
	unsigned int gen;
	int fd, why = MMAP3_NO_ID__GONE;

	mmap3__no_build_id(bid);
	fd = open_regular_file(path, &st);
	if (fd < 0)
		return errno == EINVAL ? MMAP3_NO_ID__NOT_REGULAR : MMAP3_NO_ID__GONE;
	if (st.st_ino != m->ino ||
	    (dev && (major(st.st_dev) != m->maj || minor(st.st_dev) != m->min)))
		goto out;
	if (dev && m->ino_generation && !ioctl(fd, FS_IOC_GETVERSION, &gen) &&
	    gen != (u32)m->ino_generation)
		goto out;
	why = MMAP3_NO_ID__NONE_IN_FILE;
	if (fd__read_build_id(fd, bid) > 0)
		why = 0;
	else
		mmap3__no_build_id(bid);
out:
	close(fd);
	return why;
}

/*
 * The id of the file a task maps, or why there is none (an enum
 * mmap3_no_id): only the file with the mapping's inode has a say.  In
 * the order tried:
 * - /proc/PID/map_files: the mapped file itself, whatever is at its
 *   path, if it still has the mapping's inode (the task may have mapped
 *   another file there since);
 * - the path in the task's mount namespace, /proc/PID/root/PATH, if the
 *   file there has the mapping's inode.  The inode only: stat() gives a
 *   btrfs subvolume's own device, the records the file system's;
 * - the task gone (or a zombie, whose root cannot be read), the path in
 *   perf's own mount namespace, if the file there has the mapping's
 *   device, inode and inode generation: the same file, wherever the task
 *   ran.
 * This reads the files here and now, and may wait as long as they do:
 * mmap3__read_task_build_id() is what perf record calls.
 */
int mmap3__read_task_build_id_here(const char *root_dir, const struct mmap3_file *m,
				   struct build_id *bid)
{
	/* room for the /proc prefix in front of a PATH_MAX file name */
	char path[PATH_MAX + 32];
	int why;

	mmap3__no_build_id(bid);
	snprintf(path, sizeof(path), "%s/proc/%d/map_files/%" PRI_lx64 "-%" PRI_lx64,
		 root_dir, m->pid, m->start, m->start + m->len);
	why = mmap3__read_file_build_id(path, m, false, bid);
	if (why == MMAP3_NO_ID__GONE) {
		snprintf(path, sizeof(path), "%s/proc/%d/root%s",
			 root_dir, m->pid, m->filename);
		why = mmap3__read_file_build_id(path, m, false, bid);
	}
	if (why == MMAP3_NO_ID__GONE) {
		snprintf(path, sizeof(path), "%s%s", root_dir, m->filename);
		why = mmap3__read_file_build_id(path, m, true, bid);
	}
	return why;
}

/* Called with mmap3_bid_lock held: one answer of the reader, kept. */
static void mmap3__take_answer(const struct build_id_answer *a)
{
	struct mmap3_bid_entry *e = mmap3_bid_cache__find(a->maj, a->min, a->ino);

	if (!e || e->state != MMAP3_BID__PENDING || e->seq != a->seq)
		return;
	e->state = MMAP3_BID__ANSWERED;
	e->why = a->why;
	e->bid = a->bid;
	if (a->why == MMAP3_NO_ID__TIMEOUT)
		pr_warning("no build id for %s: it did not answer within %d ms\n",
			   e->name ?: "?", BUILD_ID_READER_TIMEOUT);
}

/*
 * Ask the build id reader about @m's file, unless its answer is known or
 * on its way.  Called with mmap3_bid_lock held.  Returns the entry of the
 * file, or NULL if nothing can be known of it.
 */
static struct mmap3_bid_entry *mmap3__ask(const char *root_dir, const struct mmap3_file *m)
{
	struct mmap3_bid_entry *e = mmap3_bid_cache__get(m->maj, m->min, m->ino);

	if (!e)
		return NULL;
	if (e->state == MMAP3_BID__PENDING || mmap3_bid_entry__final(e))
		return e;
	if (build_id_reader__ask(root_dir, m, &e->seq)) {
		e->state = MMAP3_BID__ANSWERED;
		e->why = MMAP3_NO_ID__TIMEOUT;
		return e;
	}
	if (!e->name)
		e->name = strdup(m->filename);
	e->state = MMAP3_BID__PENDING;
	return e;
}

/*
 * Take the answers the reader has, waiting up to @timeout_ms for the
 * first: false if none came.
 */
bool mmap3__take_answers(int timeout_ms)
{
	struct build_id_answer a;
	bool got = false;

	while (build_id_reader__answer(&a, got ? 0 : timeout_ms) == 1) {
		pthread_mutex_lock(&mmap3_bid_lock);
		mmap3__take_answer(&a);
		pthread_mutex_unlock(&mmap3_bid_lock);
		got = true;
	}
	return got;
}

/*
 * What is known now of @m's file, asking the reader if nobody did: 0 and
 * the id in @bid, an enum mmap3_no_id, or -EAGAIN while the answer is on
 * its way (@seq is then its number).  Never waits.
 */
int mmap3__task_build_id(const char *root_dir, const struct mmap3_file *m,
			 struct build_id *bid, u64 *seq)
{
	struct mmap3_bid_entry *e;
	int why;

	mmap3__no_build_id(bid);
	/* anon, [stack], [vdso], ...: no file */
	if (m->filename[0] != '/' || !m->ino)
		return MMAP3_NO_ID__UNSAID;
	if (!build_id_reader__running())
		return mmap3__read_task_build_id_here(root_dir, m, bid);

	pthread_mutex_lock(&mmap3_bid_lock);
	e = mmap3__ask(root_dir, m);
	if (!e) {
		why = MMAP3_NO_ID__GONE;
	} else if (e->state == MMAP3_BID__PENDING) {
		*seq = e->seq;
		why = -EAGAIN;
	} else {
		*bid = e->bid;
		why = e->why;
	}
	pthread_mutex_unlock(&mmap3_bid_lock);
	return why;
}

/*
 * The answer to question @seq about the file of device @maj:@min and
 * inode @ino, as mmap3__task_build_id(): -EAGAIN while it is not there.
 */
int mmap3__task_build_id_answer(u32 maj, u32 min, u64 ino, u64 seq, struct build_id *bid)
{
	struct mmap3_bid_entry *e;
	int why = -EAGAIN;

	mmap3__no_build_id(bid);
	pthread_mutex_lock(&mmap3_bid_lock);
	e = mmap3_bid_cache__find(maj, min, ino);
	if (!e) {
		why = MMAP3_NO_ID__GONE;
	} else if (e->state != MMAP3_BID__PENDING || e->seq != seq) {
		/* a later question's answer is as good */
		*bid = e->bid;
		why = e->state == MMAP3_BID__PENDING ? -EAGAIN : e->why;
	}
	pthread_mutex_unlock(&mmap3_bid_lock);
	return why;
}

/*
 * The id of the file a task maps, or why there is none: read here when no
 * build id reader runs, else asked of the reader and waited for, at most
 * BUILD_ID_READER_TIMEOUT ms and a second.
 */
int mmap3__read_task_build_id(const char *root_dir, const struct mmap3_file *m,
			      struct build_id *bid)
{
	int waited = 0, why;
	u64 seq = 0;

	why = mmap3__task_build_id(root_dir, m, bid, &seq);
	while (why == -EAGAIN) {
		if (waited > BUILD_ID_READER_TIMEOUT + 1000)
			return MMAP3_NO_ID__TIMEOUT;
		if (!mmap3__take_answers(100))
			waited += 100;
		why = mmap3__task_build_id_answer(m->maj, m->min, m->ino, seq, bid);
	}
	return why;
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
	int err, why = 0;

	if (event->header.type == PERF_RECORD_MMAP2) {
		struct mmap3_file file = mmap3_file__mmap2(&event->mmap2);

		why = mmap3__read_task_build_id(machine->root_dir, &file, &bid);
	} else if (!mmap3__read_kernel_build_id(machine, &event->mmap, &bid)) {
		return process(tool, event, sample, machine);
	}

	m3 = perf_event__new_mmap3(event, &bid, machine->id_hdr_size);
	if (!m3)
		return -ENOMEM;
	/* why there is no id, where the kernel leaves 0: perf record's word */
	if (!m3->mmap3.build_id_size && why > 0)
		m3->mmap3.__reserved_1 = why;
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
