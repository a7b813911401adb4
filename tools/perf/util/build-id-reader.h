/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_BUILD_ID_READER_H
#define __PERF_BUILD_ID_READER_H

#include <stdbool.h>
#include <linux/types.h>
#include "build-id.h"

struct mmap3_file;

/* What the reader says of one mapping's file. */
struct build_id_answer {
	u64		seq;
	u32		maj, min;
	u64		ino;
	int		why;	/* 0: @bid is the id, else an enum mmap3_no_id */
	struct build_id	bid;
};

/* How long one file may take before its id is given up, in ms. */
#define BUILD_ID_READER_TIMEOUT	2000

int build_id_reader__start(void);
void build_id_reader__stop(void);
bool build_id_reader__running(void);
int build_id_reader__ask(const char *root_dir, const struct mmap3_file *m, u64 *seq);
int build_id_reader__answer(struct build_id_answer *a, int timeout_ms);

#endif /* __PERF_BUILD_ID_READER_H */
