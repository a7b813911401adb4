/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_MMAP3_SYNTH_H
#define __PERF_MMAP3_SYNTH_H

#include <stdbool.h>
#include <linux/types.h>
#include <perf/event.h>
#include "synthetic-events.h"

union perf_event;
struct build_id;
struct machine;
struct perf_sample;
struct perf_tool;

union perf_event *perf_event__new_mmap3(union perf_event *event,
					const struct build_id *bid,
					u16 id_hdr_size);
bool perf_event__mmap3_wanted(union perf_event *event, struct machine *machine);
int perf_event__synthesize_mmap3(struct perf_tool *tool,
				 union perf_event *event,
				 struct perf_sample *sample,
				 struct machine *machine,
				 perf_event__handler_t process);
void machine__set_mmap3_kernel_build_id(struct machine *machine,
					union perf_event *event);

/* A task's mapping of a file, as an MMAP2 or MMAP3 record names it. */
struct mmap3_file {
	__u32		pid;
	__u64		start, len;
	__u32		maj, min;
	__u64		ino, ino_generation;
	const char	*filename;
};

static inline struct mmap3_file mmap3_file__mmap2(const struct perf_record_mmap2 *m)
{
	return (struct mmap3_file){
		.pid = m->pid, .start = m->start, .len = m->len,
		.maj = m->maj, .min = m->min, .ino = m->ino,
		.ino_generation = m->ino_generation, .filename = m->filename,
	};
}

static inline struct mmap3_file mmap3_file__mmap3(const struct perf_record_mmap3 *m)
{
	return (struct mmap3_file){
		.pid = m->pid, .start = m->start, .len = m->len,
		.maj = m->maj, .min = m->min, .ino = m->ino,
		.ino_generation = m->ino_generation, .filename = m->filename,
	};
}

/*
 * Why perf record has no id for a file mapping: perf record writes it
 * into the __reserved_1 byte of an MMAP3 record without an id, which the
 * kernel leaves 0.
 */
enum mmap3_no_id {
	MMAP3_NO_ID__UNSAID,		/* the kernel's word, or not a file */
	MMAP3_NO_ID__NONE_IN_FILE,	/* the file has no GNU build id */
	MMAP3_NO_ID__GONE,		/* no file with the mapping's inode */
	MMAP3_NO_ID__NOT_REGULAR,	/* not a regular file */
	MMAP3_NO_ID__TIMEOUT,		/* the file did not answer in time */
	MMAP3_NO_ID__MAX,
};

const char *mmap3_no_id__str(int why);
int mmap3__read_task_build_id_here(const char *root_dir, const struct mmap3_file *m,
				   struct build_id *bid);
int mmap3__read_task_build_id(const char *root_dir, const struct mmap3_file *m,
			      struct build_id *bid);
int mmap3__task_build_id(const char *root_dir, const struct mmap3_file *m,
			 struct build_id *bid, u64 *seq);
int mmap3__task_build_id_answer(u32 maj, u32 min, u64 ino, u64 seq, struct build_id *bid);
bool mmap3__take_answers(int timeout_ms);

#endif /* __PERF_MMAP3_SYNTH_H */
