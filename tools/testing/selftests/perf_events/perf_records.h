/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the perf_events selftests: open a side-band event on the
 * calling task and read the records it produced out of its ring buffer.
 */
#ifndef PERF_RECORDS_H
#define PERF_RECORDS_H

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>

#define RB_PAGES	64	/* data pages: far more than a test produces */

struct perf_rb {
	int fd;
	void *base;
	size_t page_size;
	uint64_t tail;		/* how far records were consumed */
};

static inline int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid,
				      int cpu, int group_fd, unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* PERF_RECORD_MMAP2, without PERF_RECORD_MISC_MMAP_BUILD_ID */
struct mmap2_record {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	char filename[];
};

/* A dummy software event: side-band records only, no samples. */
static inline struct perf_event_attr make_sideband_attr(void)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_SOFTWARE,
		.size		= sizeof(attr),
		.config		= PERF_COUNT_SW_DUMMY,
		.sample_type	= PERF_SAMPLE_TID,
		.sample_id_all	= 1,	/* pid/tid trail every record */
		.exclude_kernel	= 1,
		.disabled	= 1,	/* enabled once the buffer is mapped */
		.mmap		= 1,	/* executable mappings */
	};

	return attr;
}

/*
 * Open @attr on the calling task (on @cpu, or any cpu when -1) and map its
 * ring buffer.  Returns 0 or -errno from perf_event_open/mmap.
 */
static inline int perf_rb_open_cpu(struct perf_rb *rb,
				   struct perf_event_attr *attr, int cpu)
{
	rb->page_size = sysconf(_SC_PAGESIZE);
	rb->tail = 0;
	rb->base = NULL;
	rb->fd = sys_perf_event_open(attr, 0, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (rb->fd < 0)
		return -errno;
	rb->base = mmap(NULL, (RB_PAGES + 1) * rb->page_size,
			PROT_READ | PROT_WRITE, MAP_SHARED, rb->fd, 0);
	if (rb->base == MAP_FAILED) {
		int err = -errno;

		rb->base = NULL;
		close(rb->fd);
		rb->fd = -1;
		return err;
	}
	if (ioctl(rb->fd, PERF_EVENT_IOC_ENABLE, 0)) {
		int err = -errno;

		munmap(rb->base, (RB_PAGES + 1) * rb->page_size);
		rb->base = NULL;
		close(rb->fd);
		rb->fd = -1;
		return err;
	}
	return 0;
}

static inline int perf_rb_open(struct perf_rb *rb, struct perf_event_attr *attr)
{
	return perf_rb_open_cpu(rb, attr, -1);
}

static inline void perf_rb_close(struct perf_rb *rb)
{
	if (rb->base && rb->base != MAP_FAILED)
		munmap(rb->base, (RB_PAGES + 1) * rb->page_size);
	if (rb->fd >= 0)
		close(rb->fd);
	rb->fd = -1;
	rb->base = NULL;
}

/*
 * Copy the next record (which may wrap around the end of the buffer) into
 * @buf.  Returns its size, 0 when there is none, -1 on a bad header.
 */
static inline int perf_rb_next(struct perf_rb *rb, void *buf, size_t len)
{
	struct perf_event_mmap_page *pg = rb->base;
	size_t data_size = RB_PAGES * rb->page_size;
	const char *data = (const char *)rb->base + rb->page_size;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	struct perf_event_header hdr;
	size_t i;

	if (rb->tail >= head)
		return 0;
	for (i = 0; i < sizeof(hdr); i++)
		((char *)&hdr)[i] = data[(rb->tail + i) % data_size];
	if (hdr.size < sizeof(hdr) || hdr.size > len || rb->tail + hdr.size > head)
		return -1;
	for (i = 0; i < hdr.size; i++)
		((char *)buf)[i] = data[(rb->tail + i) % data_size];
	rb->tail += hdr.size;
	__atomic_store_n(&pg->data_tail, rb->tail, __ATOMIC_RELEASE);
	return hdr.size;
}

/*
 * The directory the tests write the files they map in: $TMPDIR, or /tmp,
 * as an absolute path (records name a file by its absolute path).
 */
static inline const char *test_dir(void)
{
	static char dir[PATH_MAX];
	const char *env = getenv("TMPDIR");

	if (!env || !*env)
		env = "/tmp";
	if (!realpath(env, dir))
		snprintf(dir, sizeof(dir), "%s", env);	/* writing will fail */
	return dir;
}

/*
 * Why files in @dir can't be mapped executable, or NULL: @dir is on a
 * noexec mount, where mmap(PROT_EXEC) of any file fails with EPERM.  That
 * is the setup, not the kernel under test; any other failure to map is
 * the test's to report.  @how says how to give the test another directory.
 */
static inline const char *noexec_dir(const char *dir, const char *how)
{
	static char why[1024];	/* what the harness keeps of a reason */
	struct statvfs st;

	if (statvfs(dir, &st) || !(st.f_flag & ST_NOEXEC))
		return NULL;
	snprintf(why, sizeof(why),
		 "cannot map files in %.800s executable: noexec mount; %s",
		 dir, how);
	return why;
}

/* noexec_dir() of test_dir() */
static inline const char *test_dir_noexec(void)
{
	return noexec_dir(test_dir(),
			  "set TMPDIR to a directory on a mount that allows exec");
}

#endif
