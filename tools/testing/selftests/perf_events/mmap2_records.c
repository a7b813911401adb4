// SPDX-License-Identifier: GPL-2.0
/*
 * Test for PERF_RECORD_MMAP2: the booted kernel is the one under test, and
 * mapping a file makes an mmap2 event report it with its inode identity.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "../kselftest_harness.h"
#include "perf_records.h"

/* The GNU build id in the notes of @buf, as lowercase hex; 0 if found. */
static int notes_build_id(const unsigned char *buf, size_t len, char *hex)
{
	size_t off = 0;

	while (off + 12 <= len) {
		uint32_t namesz, descsz, type, i;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		off += 12;
		if (namesz > len || descsz > len)
			return -1;
		if (type == 3 && namesz == 4 && !memcmp(buf + off, "GNU", 4) &&
		    off + 4 + descsz <= len) {
			for (i = 0; i < descsz; i++)
				sprintf(hex + 2 * i, "%02x", buf[off + 4 + i]);
			return 0;
		}
		off += ((namesz + 3) & ~3u) + ((descsz + 3) & ~3u);
	}
	return -1;
}

/* Its build id is the one of the vmlinux built, when the caller knows it. */
TEST(build_id_is_ours)
{
	const char *want = getenv("MMAP3_KERNEL_BUILD_ID");
	unsigned char notes[4096];
	char hex[2 * 20 + 1] = "";
	ssize_t len;
	int fd;

	if (!want)
		SKIP(return, "MMAP3_KERNEL_BUILD_ID not set: build id not compared");
	fd = open("/sys/kernel/notes", O_RDONLY);
	ASSERT_LE(0, fd);
	len = read(fd, notes, sizeof(notes));
	close(fd);
	ASSERT_LT(0, len);
	ASSERT_EQ(0, notes_build_id(notes, len, hex));
	EXPECT_STREQ(want, hex);
}

FIXTURE(mmap2)
{
	struct perf_rb rb;
	char path[PATH_MAX + 32];
	int file_fd;
	int skipped;
};

FIXTURE_SETUP(mmap2)
{
	struct perf_event_attr attr = make_sideband_attr();
	char page[8192] = "not an ELF file, just bytes to map";
	const char *noexec = test_dir_noexec();
	int err;

	self->rb.fd = -1;
	self->file_fd = -1;
	self->skipped = !!noexec;
	if (noexec)
		SKIP(return, "%s", noexec);
	snprintf(self->path, sizeof(self->path), "%s/mmap2_records.XXXXXX",
		 test_dir());
	self->file_fd = mkstemp(self->path);
	ASSERT_LE(0, self->file_fd);
	ASSERT_EQ(sizeof(page), write(self->file_fd, page, sizeof(page)));

	attr.mmap2 = 1;
	err = perf_rb_open(&self->rb, &attr);
	self->skipped = err == -EACCES || err == -EPERM;
	if (self->skipped)
		SKIP(return, "perf_event_open not permitted (perf_event_paranoid?)");
	ASSERT_EQ(0, err);
}

FIXTURE_TEARDOWN(mmap2)
{
	perf_rb_close(&self->rb);
	if (self->file_fd >= 0) {
		close(self->file_fd);
		unlink(self->path);
	}
}

/* An executable file mapping yields one MMAP2 with the file's identity. */
TEST_F(mmap2, file_on_tmp)
{
	union {
		struct mmap2_record r;
		char buf[8192];
	} u;
	struct stat st;
	int found = 0, n;
	void *map;

	/* 5.10's harness runs the body even when SETUP skipped */
	if (self->skipped)
		return;
	map = mmap(NULL, 8192, PROT_READ | PROT_EXEC, MAP_PRIVATE,
		   self->file_fd, 4096);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, fstat(self->file_fd, &st));

	while ((n = perf_rb_next(&self->rb, u.buf, sizeof(u.buf))) > 0) {
		uint32_t *trailer;

		/* type 21 (MMAP3) only ever comes with attr.build_id */
		ASSERT_NE(21, u.r.header.type);
		if (u.r.header.type != PERF_RECORD_MMAP2 ||
		    strcmp(u.r.filename, self->path))
			continue;
		found++;
		EXPECT_EQ(0, u.r.header.size % 8);
		EXPECT_EQ((uintptr_t)map, u.r.addr);
		EXPECT_EQ(8192, u.r.len);
		EXPECT_EQ(4096, u.r.pgoff);
		EXPECT_EQ(st.st_ino, u.r.ino);
		EXPECT_EQ(major(st.st_dev), u.r.maj);
		EXPECT_EQ(minor(st.st_dev), u.r.min);
		EXPECT_EQ(PROT_READ | PROT_EXEC, u.r.prot);
		EXPECT_EQ(MAP_PRIVATE, u.r.flags & MAP_TYPE);
		EXPECT_EQ(getpid(), u.r.pid);
		/* sample_id (PERF_SAMPLE_TID) ends the record */
		trailer = (uint32_t *)(u.buf + u.r.header.size - 8);
		EXPECT_EQ(getpid(), trailer[0]);
		EXPECT_EQ(gettid(), trailer[1]);
	}
	ASSERT_LE(0, n);
	munmap(map, 8192);
	EXPECT_EQ(1, found);
}

TEST_HARNESS_MAIN
