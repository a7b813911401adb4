// SPDX-License-Identifier: GPL-2.0
/*
 * Test for attr.build_id (bit 34, named as in Linux 5.12+):
 * mmap records that carry the GNU build id of the mapped file, read by the
 * kernel from the page cache at mmap time.
 *
 * The bit changes the format of the records attr.mmap, attr.mmap_data and
 * attr.mmap2 ask for, never which mappings are reported:
 *  - with attr.mmap2, Linux 5.12's format: PERF_RECORD_MMAP2 with
 *    PERF_RECORD_MISC_MMAP_BUILD_ID and the id in place of the inode
 *    fields, or a plain MMAP2 when there is no id.  These tests run on any
 *    kernel that has the bit, upstream ones too;
 *  - without attr.mmap2, PERF_RECORD_MMAP3 (type 21): the MMAP2 fields and
 *    the id.  These tests skip on Linux 5.12+, where bit 34 only changes
 *    MMAP2 records.
 *
 * Every input file is generated here, by elf_image.h: well-formed ELF
 * files with known ids and each malformed header the kernel's parser must
 * survive.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <linux/magic.h>

#ifndef MFD_HUGETLB
#define MFD_HUGETLB	0x0004U
#endif

#include "../kselftest_harness.h"
#include "elf_image.h"
#include "perf_records.h"

#ifndef PERF_RECORD_MMAP3
#define PERF_RECORD_MMAP3	21
#endif
#ifndef PERF_RECORD_MISC_MMAP_BUILD_ID
#define PERF_RECORD_MISC_MMAP_BUILD_ID	0x4000	/* bit 14 */
#endif
#define BUILD_ID_SIZE_MAX	20
#define FILE_SIZE		8192
#define ALIGN8(x)		(((x) + 7) & ~(size_t)7)

/* The flags word of perf_event_attr: bit 0 is attr.disabled */
#define ATTR_FLAGS_OFFSET	(offsetof(struct perf_event_attr, read_format) + 8)

/* PERF_RECORD_MMAP */
struct mmap_record {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	char filename[];
};

/*
 * PERF_RECORD_MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID in header.misc
 * (attr.mmap2 and bit 34): the id takes the place of maj, min, ino and
 * ino_generation; the record has the size of a plain MMAP2.
 */
struct mmap2_build_id_record {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint8_t build_id_size;
	uint8_t __reserved_1;
	uint16_t __reserved_2;
	uint8_t build_id[BUILD_ID_SIZE_MAX];
	uint32_t prot, flags;
	char filename[];
};

/* PERF_RECORD_MMAP3: the MMAP2 fields, then the id */
struct mmap3_record {
	struct perf_event_header header;
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	uint8_t build_id_size;
	uint8_t __reserved_1;
	uint16_t __reserved_2;
	uint8_t build_id[BUILD_ID_SIZE_MAX];
	char filename[];
};

/* the layouts of the uapi comments, whatever the compiler */
_Static_assert(offsetof(struct mmap_record, filename) == 40, "MMAP");
_Static_assert(offsetof(struct mmap2_record, filename) == 72, "MMAP2");
_Static_assert(offsetof(struct mmap2_build_id_record, build_id_size) == 40 &&
	       offsetof(struct mmap2_build_id_record, build_id) == 44 &&
	       offsetof(struct mmap2_build_id_record, prot) ==
	       offsetof(struct mmap2_record, prot) &&
	       offsetof(struct mmap2_build_id_record, filename) == 72,
	       "MMAP2 with a build id");
_Static_assert(offsetof(struct mmap3_record, prot) ==
	       offsetof(struct mmap2_record, prot) &&
	       offsetof(struct mmap3_record, build_id_size) == 72 &&
	       offsetof(struct mmap3_record, filename) == 96, "MMAP3");

union record {
	struct perf_event_header header;
	struct mmap_record m1;
	struct mmap2_record m2;
	struct mmap2_build_id_record m2b;
	struct mmap3_record m3;
	char buf[8192];
};

static int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);

	if (fd < 0)
		return -1;
	if (write(fd, buf, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* What scan_records() saw */
struct scan {
	int found;	/* mmap records of the file, of the type asked for */
	int other;	/* mmap records of the file, of another type */
	int mmap3;	/* PERF_RECORD_MMAP3 records, of any mapping */
	int any;	/* mmap records of any type, of any mapping */
};

/* The file name of an mmap record, NULL for other records */
static const char *record_name(const union record *r)
{
	switch (r->header.type) {
	case PERF_RECORD_MMAP:
		return r->m1.filename;
	case PERF_RECORD_MMAP2:
		return r->m2.filename;
	case PERF_RECORD_MMAP3:
		return r->m3.filename;
	}
	return NULL;
}

/*
 * Read the new records of @rb and count in @s the mmap records of @path
 * (and of the mapping at @addr, unless 0).  The last one of @type is left
 * in @out.  Returns 0, or -1 on a bad record.
 */
static int scan_records(struct perf_rb *rb, const char *path, uint64_t addr,
			int type, union record *out, struct scan *s)
{
	union record r;
	int n;

	memset(s, 0, sizeof(*s));
	while ((n = perf_rb_next(rb, r.buf, sizeof(r.buf) - 1)) > 0) {
		const char *name;

		r.buf[n] = '\0';	/* a name without its NUL ends here */
		name = record_name(&r);
		if (!name)
			continue;
		s->any++;
		if (r.header.type == PERF_RECORD_MMAP3)
			s->mmap3++;
		if (strcmp(name, path) || (addr && r.m1.addr != addr))
			continue;
		if (r.header.type == type) {
			memcpy(out, &r, r.header.size);
			s->found++;
		} else {
			s->other++;
		}
	}
	return n < 0 ? -1 : 0;
}

/*
 * Scan the new records of @rb for mmap records of @path.  Returns the number
 * of records of @type (the last one is left in @out), plus 1000 for each
 * mmap record of another type; -1 on a bad record.
 */
static int find_records(struct perf_rb *rb, const char *path, int type,
			union record *out)
{
	struct scan s;

	if (scan_records(rb, path, 0, type, out, &s))
		return -1;
	return s.found + 1000 * s.other;
}

/*
 * Map FILE_SIZE bytes of @path with @prot, MAP_PRIVATE.  Page 0 is read
 * first, so that it sits in the page cache.  Returns the mapping, or
 * MAP_FAILED.
 */
static void *map_file(const char *path, int prot)
{
	char buf[64];
	void *map;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return MAP_FAILED;
	if (pread(fd, buf, sizeof(buf), 0) < 0) {
		close(fd);
		return MAP_FAILED;
	}
	map = mmap(NULL, FILE_SIZE, prot, MAP_PRIVATE, fd, 0);
	close(fd);
	return map;
}

/*
 * Map @path executable and find the records it produced, as find_records().
 * The mapping is left in *@mapp, or unmapped when @mapp is NULL.
 */
static int map_and_find(struct perf_rb *rb, const char *path, int type,
			union record *out, void **mapp)
{
	void *map = map_file(path, PROT_READ | PROT_EXEC);

	if (map == MAP_FAILED)
		return -1;
	if (mapp)
		*mapp = map;
	else
		munmap(map, FILE_SIZE);
	return find_records(rb, path, type, out);
}

static int all_zero(const void *p, size_t len)
{
	const uint8_t *b = p;

	while (len--)
		if (*b++)
			return 0;
	return 1;
}

FIXTURE(mmap3)
{
	struct perf_rb rb;
	char path[PATH_MAX + 32];
	const char *skip;	/* why SETUP skipped */
};

FIXTURE_VARIANT(mmap3)
{
	struct elf_spec spec;
	int not_elf;		/* a text file instead */
	int want_id;		/* the id is found (else size 0) */
};

#define GOOD_ELF(class, size, how) { .spec = { class, size, how }, .want_id = 1 }
#define BAD_ELF(class, how) { .spec = { class, 20, how }, .want_id = 0 }

FIXTURE_VARIANT_ADD(mmap3, sha1) GOOD_ELF(ELFCLASS64, 20, ELF_GOOD);
FIXTURE_VARIANT_ADD(mmap3, md5) GOOD_ELF(ELFCLASS64, 16, ELF_GOOD);
FIXTURE_VARIANT_ADD(mmap3, odd_size_8) GOOD_ELF(ELFCLASS64, 8, ELF_GOOD);
FIXTURE_VARIANT_ADD(mmap3, notes_before) GOOD_ELF(ELFCLASS64, 20, ELF_NOTES_BEFORE);
FIXTURE_VARIANT_ADD(mmap3, two_pt_notes) GOOD_ELF(ELFCLASS64, 20, ELF_TWO_PT_NOTES);
FIXTURE_VARIANT_ADD(mmap3, small_file) GOOD_ELF(ELFCLASS64, 20, ELF_SMALL_FILE);
FIXTURE_VARIANT_ADD(mmap3, elf32_sha1) GOOD_ELF(ELFCLASS32, 20, ELF_GOOD);
FIXTURE_VARIANT_ADD(mmap3, elf32_md5) GOOD_ELF(ELFCLASS32, 16, ELF_GOOD);
FIXTURE_VARIANT_ADD(mmap3, elf32_notes_before) GOOD_ELF(ELFCLASS32, 20, ELF_NOTES_BEFORE);
/* notes and headers on page 1, which is cached: a file just written is */
FIXTURE_VARIANT_ADD(mmap3, phdrs_cross_page) GOOD_ELF(ELFCLASS64, 20, ELF_PHDRS_CROSS_PAGE);
FIXTURE_VARIANT_ADD(mmap3, note_crosses_page) GOOD_ELF(ELFCLASS64, 20, ELF_NOTE_CROSSES_PAGE);
FIXTURE_VARIANT_ADD(mmap3, note_past_page0) GOOD_ELF(ELFCLASS64, 20, ELF_NOTE_PAST_PAGE0);
FIXTURE_VARIANT_ADD(mmap3, elf32_note_past_page0) GOOD_ELF(ELFCLASS32, 20, ELF_NOTE_PAST_PAGE0);
FIXTURE_VARIANT_ADD(mmap3, not_elf) { .not_elf = 1, .want_id = 0 };
FIXTURE_VARIANT_ADD(mmap3, no_note) BAD_ELF(ELFCLASS64, ELF_NO_NOTE);
FIXTURE_VARIANT_ADD(mmap3, bad_magic) BAD_ELF(ELFCLASS64, ELF_BAD_MAGIC);
FIXTURE_VARIANT_ADD(mmap3, type_rel) BAD_ELF(ELFCLASS64, ELF_TYPE_REL);
FIXTURE_VARIANT_ADD(mmap3, bad_class) BAD_ELF(ELFCLASS64, ELF_BAD_CLASS);
FIXTURE_VARIANT_ADD(mmap3, phoff_huge) BAD_ELF(ELFCLASS64, ELF_PHOFF_HUGE);
FIXTURE_VARIANT_ADD(mmap3, phoff_in_header) BAD_ELF(ELFCLASS64, ELF_PHOFF_IN_HEADER);
FIXTURE_VARIANT_ADD(mmap3, phnum_65535) BAD_ELF(ELFCLASS64, ELF_PHNUM_MAX);
FIXTURE_VARIANT_ADD(mmap3, phdrs_past_eof) BAD_ELF(ELFCLASS64, ELF_PHDRS_PAST_EOF);
FIXTURE_VARIANT_ADD(mmap3, note_off_outside) BAD_ELF(ELFCLASS64, ELF_NOTE_OFF_OUTSIDE);
FIXTURE_VARIANT_ADD(mmap3, note_size_wrap) BAD_ELF(ELFCLASS64, ELF_NOTE_SIZE_WRAP);
FIXTURE_VARIANT_ADD(mmap3, note_past_eof) BAD_ELF(ELFCLASS64, ELF_NOTE_PAST_EOF);
FIXTURE_VARIANT_ADD(mmap3, namesz_huge) BAD_ELF(ELFCLASS64, ELF_NAMESZ_HUGE);
FIXTURE_VARIANT_ADD(mmap3, descsz_huge) BAD_ELF(ELFCLASS64, ELF_DESCSZ_HUGE);
FIXTURE_VARIANT_ADD(mmap3, note_past_segment) BAD_ELF(ELFCLASS64, ELF_NOTE_PAST_SEGMENT);
FIXTURE_VARIANT_ADD(mmap3, descsz_zero) BAD_ELF(ELFCLASS64, ELF_DESCSZ_ZERO);
FIXTURE_VARIANT_ADD(mmap3, descsz_21) BAD_ELF(ELFCLASS64, ELF_DESCSZ_21);
FIXTURE_VARIANT_ADD(mmap3, owner_not_gnu) BAD_ELF(ELFCLASS64, ELF_OWNER_NOT_GNU);
FIXTURE_VARIANT_ADD(mmap3, type_not_build_id) BAD_ELF(ELFCLASS64, ELF_TYPE_NOT_BUILD_ID);
FIXTURE_VARIANT_ADD(mmap3, truncated) BAD_ELF(ELFCLASS64, ELF_TRUNCATED);
FIXTURE_VARIANT_ADD(mmap3, elf32_phoff_huge) BAD_ELF(ELFCLASS32, ELF_PHOFF_HUGE);
FIXTURE_VARIANT_ADD(mmap3, elf32_phnum_65535) BAD_ELF(ELFCLASS32, ELF_PHNUM_MAX);
FIXTURE_VARIANT_ADD(mmap3, elf32_note_size_wrap) BAD_ELF(ELFCLASS32, ELF_NOTE_SIZE_WRAP);
FIXTURE_VARIANT_ADD(mmap3, elf32_namesz_huge) BAD_ELF(ELFCLASS32, ELF_NAMESZ_HUGE);
FIXTURE_VARIANT_ADD(mmap3, elf32_truncated) BAD_ELF(ELFCLASS32, ELF_TRUNCATED);

#define NOT_PERMITTED "perf_event_open not permitted (perf_event_paranoid?)"

#define NO_BIT_34 "kernel without attr bit 34"

/*
 * Why MMAP3 can't be tested on the running kernel, or NULL.  Decided by
 * what the kernel does, not by its version: bit 34 with attr.mmap (no
 * mmap2) and an executable mapping.  A kernel without the bit refuses it
 * with EINVAL.  Linux 5.12 and later took the bit for attr.build_id, which
 * only changes MMAP2 records: there the mapping gives a PERF_RECORD_MMAP.
 * Anything else, type 21 or no record at all, is left to the test.
 */
static const char *mmap3_unsupported(void)
{
	struct perf_event_attr attr = make_sideband_attr();
	struct perf_rb rb;
	int err, n, type = 0;
	union record r;
	void *map;

	attr.build_id = 1;
	err = perf_rb_open(&rb, &attr);
	if (err == -EACCES || err == -EPERM)
		return NOT_PERMITTED;
	if (err == -EINVAL)
		return NO_BIT_34;
	if (err)
		return NULL;	/* the test itself will report it */
	map = mmap(NULL, 4096, PROT_READ | PROT_EXEC,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		perf_rb_close(&rb);
		return NULL;
	}
	while ((n = perf_rb_next(&rb, r.buf, sizeof(r.buf))) > 0) {
		if (!type && record_name(&r) && r.m1.addr == (uintptr_t)map)
			type = r.header.type;
	}
	munmap(map, 4096);
	perf_rb_close(&rb);
	if (type == PERF_RECORD_MMAP)
		return "attr.build_id gives MMAP2 on this kernel (Linux 5.12+), not MMAP3";
	return NULL;
}

/* The kernel takes bit 34 with attr.mmap, without mmap2 */
static int bit_34_known(void)
{
	struct perf_event_attr attr = make_sideband_attr();
	struct perf_rb rb;

	attr.build_id = 1;
	if (perf_rb_open(&rb, &attr))
		return 0;
	perf_rb_close(&rb);
	return 1;
}

/*
 * Open an event that sets bit 34 in @attr in a format Linux 5.12 and later
 * have as well (with attr.mmap2, or bit 34 alone): these tests hold on
 * upstream kernels too.  Returns why the test must be skipped (the sysctl,
 * or a kernel without the bit), or NULL with *@err the result.  EINVAL
 * from a kernel that takes the bit in another attr is a failure.
 */
static const char *open_bit_34(struct perf_rb *rb, struct perf_event_attr *attr,
			       int *err)
{
	*err = perf_rb_open(rb, attr);
	if (*err == -EACCES || *err == -EPERM)
		return NOT_PERMITTED;
	if (*err == -EINVAL && !bit_34_known())
		return NO_BIT_34;
	return NULL;
}

/*
 * Open @attr, which sets bit 34 in Linux 5.12+'s form, on @rb.  False when
 * the test is skipped, and says why.
 */
static bool open_upstream_form(struct __test_metadata *_metadata,
			       struct perf_rb *rb, struct perf_event_attr *attr)
{
	const char *skip;
	int err;

	skip = open_bit_34(rb, attr, &err);
	if (skip)
		SKIP(return false, "%s", skip);
	ASSERT_EQ(0, err);
	return true;
}

/*
 * Open an mmap3 event.  Returns why the test must be skipped (the sysctl
 * or the kernel says no), or NULL with *@err the result.
 */
static const char *open_mmap3(struct perf_rb *rb, struct perf_event_attr *attr,
			      int cpu, int *err)
{
	const char *skip = mmap3_unsupported();

	*err = -1;
	if (skip)
		return skip;
	*err = perf_rb_open_cpu(rb, attr, cpu);
	if (*err == -EACCES || *err == -EPERM)
		return NOT_PERMITTED;
	return NULL;
}

FIXTURE_SETUP(mmap3)
{
	struct perf_event_attr attr = make_sideband_attr();
	int err;

	self->rb.fd = -1;
	snprintf(self->path, sizeof(self->path), "%s/mmap3_%s.%d", test_dir(),
		 variant->not_elf ? "text" : "elf", getpid());
	self->skip = test_dir_noexec();
	if (self->skip)
		SKIP(return, "%s", self->skip);
	attr.build_id = 1;
	self->skip = open_mmap3(&self->rb, &attr, -1, &err);
	if (self->skip)
		SKIP(return, "%s", self->skip);
	ASSERT_EQ(0, err);
}

FIXTURE_TEARDOWN(mmap3)
{
	perf_rb_close(&self->rb);
	unlink(self->path);
}

/* The record carries the id the file has, or says plainly there is none. */
TEST_F(mmap3, build_id)
{
	static char img[FILE_SIZE];
	uint8_t id[BUILD_ID_SIZE_MAX + 4] = { 0 };
	union record r;
	struct stat st;
	size_t len;
	void *map;
	uint32_t *trailer;
	int want_size;

	/* 5.10's harness runs the body even when SETUP skipped */
	if (self->skip)
		return;
	if (variant->not_elf) {
		len = FILE_SIZE;
		memset(img, 'x', len);
		memcpy(img, "#!/bin/sh\necho not an ELF file\n", 31);
	} else {
		elf_image_id(id, BUILD_ID_SIZE_MAX + 1, 1);
		len = elf_image(img, FILE_SIZE, &variant->spec, id);
	}
	ASSERT_EQ(0, write_file(self->path, img, len));
	ASSERT_EQ(0, stat(self->path, &st));

	ASSERT_EQ(1, map_and_find(&self->rb, self->path, PERF_RECORD_MMAP3, &r, &map));
	munmap(map, FILE_SIZE);

	want_size = variant->want_id ? variant->spec.id_size : 0;
	EXPECT_EQ(want_size, r.m3.build_id_size);
	ASSERT_GE(BUILD_ID_SIZE_MAX, r.m3.build_id_size);
	if (want_size)
		EXPECT_EQ(0, memcmp(id, r.m3.build_id, want_size));
	/* the bytes past the id are zero: all of them when there is none */
	EXPECT_TRUE(all_zero(r.m3.build_id + r.m3.build_id_size,
			     BUILD_ID_SIZE_MAX - r.m3.build_id_size));
	EXPECT_EQ(0, r.m3.__reserved_1);
	EXPECT_EQ(0, r.m3.__reserved_2);

	/* the MMAP2 part is filled whether or not an id was found */
	EXPECT_EQ((uintptr_t)map, r.m3.addr);
	EXPECT_EQ(FILE_SIZE, r.m3.len);
	EXPECT_EQ(0, r.m3.pgoff);
	EXPECT_EQ(st.st_ino, r.m3.ino);
	EXPECT_EQ(major(st.st_dev), r.m3.maj);
	EXPECT_EQ(minor(st.st_dev), r.m3.min);
	EXPECT_EQ(PROT_READ | PROT_EXEC, r.m3.prot);
	EXPECT_EQ(MAP_PRIVATE, r.m3.flags & MAP_TYPE);
	EXPECT_EQ(getpid(), r.m3.pid);

	/* 8-byte aligned, the NUL-terminated name, then sample_id */
	EXPECT_EQ(0, r.header.size % 8);
	EXPECT_GE(r.header.size, sizeof(r.m3) + strlen(self->path) + 1 + 8);
	trailer = (uint32_t *)(r.buf + r.header.size - 8);
	EXPECT_EQ(getpid(), trailer[0]);
	EXPECT_EQ(gettid(), trailer[1]);
}

FIXTURE(sideband)
{
	struct perf_rb rb;
	char path[PATH_MAX + 32];
	uint8_t id[BUILD_ID_SIZE_MAX];
	const char *noexec;	/* why path can't be mapped executable */
};

FIXTURE_SETUP(sideband)
{
	static char img[FILE_SIZE];
	struct elf_spec spec = { ELFCLASS64, 20, ELF_GOOD };

	self->rb.fd = -1;
	snprintf(self->path, sizeof(self->path), "%s/mmap3_sb.%d", test_dir(),
		 getpid());
	/* the tests that map it executable skip; the others run */
	self->noexec = test_dir_noexec();
	elf_image_id(self->id, 20, 2);
	ASSERT_EQ(0, write_file(self->path, img, elf_image(img, FILE_SIZE, &spec, self->id)));
}

FIXTURE_TEARDOWN(sideband)
{
	perf_rb_close(&self->rb);
	unlink(self->path);
}

/* Rewrite @path as @spec says, with a new id of @seed left in @id */
static int rewrite_elf(const char *path, uint8_t *id,
		       const struct elf_spec *spec, int seed)
{
	static char img[FILE_SIZE];

	memset(id, 0, BUILD_ID_SIZE_MAX);
	elf_image_id(id, spec->id_size, seed);
	return write_file(path, img, elf_image(img, FILE_SIZE, spec, id));
}

/* The record formats an event can ask for */
enum mmap_format {
	FMT_MMAP,	/* attr.mmap: PERF_RECORD_MMAP */
	FMT_MMAP2,	/* attr.mmap2: PERF_RECORD_MMAP2 */
	FMT_BUILD_ID,	/* attr.mmap2 and bit 34: MMAP2 with the id */
	FMT_MMAP3,	/* bit 34 without attr.mmap2: PERF_RECORD_MMAP3 */
};

static const char *const format_name[] = {
	[FMT_MMAP]	= "mmap",
	[FMT_MMAP2]	= "mmap2",
	[FMT_BUILD_ID]	= "mmap2+bit34",
	[FMT_MMAP3]	= "mmap3",
};

/* A side-band event of @fmt, for executable mappings */
static struct perf_event_attr format_attr(enum mmap_format fmt)
{
	struct perf_event_attr attr = make_sideband_attr();

	attr.mmap2 = fmt == FMT_MMAP2 || fmt == FMT_BUILD_ID;
	if (fmt == FMT_BUILD_ID || fmt == FMT_MMAP3)
		attr.build_id = 1;
	return attr;
}

/* What one mapping must have given an event of @fmt */
struct want {
	enum mmap_format fmt;
	const char *path;	/* the name in the record */
	void *map;
	int prot;		/* without PROT_EXEC: PERF_RECORD_MISC_MMAP_DATA */
	const struct stat *st;	/* the file's; NULL for anonymous memory */
	const uint8_t *id;
	int id_size;		/* 0: the file has no id */
};

/*
 * Check the new records of @rb: exactly one mmap record for @w's mapping,
 * in @w's format and no other, with every field as @w says.  No type 21
 * at all unless the event asked for MMAP3.
 */
static void __check_mapping(struct __test_metadata *_metadata,
			    struct perf_rb *rb, const struct want *w)
{
	static const int type[] = {
		[FMT_MMAP]	= PERF_RECORD_MMAP,
		[FMT_MMAP2]	= PERF_RECORD_MMAP2,
		[FMT_BUILD_ID]	= PERF_RECORD_MMAP2,
		[FMT_MMAP3]	= PERF_RECORD_MMAP3,
	};
	static const size_t fixed[] = {
		[FMT_MMAP]	= sizeof(struct mmap_record),
		[FMT_MMAP2]	= sizeof(struct mmap2_record),
		[FMT_BUILD_ID]	= sizeof(struct mmap2_build_id_record),
		[FMT_MMAP3]	= sizeof(struct mmap3_record),
	};
	int with_id = w->fmt == FMT_BUILD_ID && w->id_size;
	uint16_t misc = PERF_RECORD_MISC_USER;
	union record r;
	uint32_t *trailer;
	struct scan s;

	if (!(w->prot & PROT_EXEC))
		misc |= PERF_RECORD_MISC_MMAP_DATA;
	if (with_id)
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;

	EXPECT_EQ(0, scan_records(rb, w->path, (uintptr_t)w->map, type[w->fmt],
				  &r, &s));
	EXPECT_EQ(1, s.found);
	EXPECT_EQ(0, s.other);
	if (w->fmt != FMT_MMAP3)
		EXPECT_EQ(0, s.mmap3);
	if (s.found != 1)
		return;

	/* this event's misc and size, whatever the other events asked for */
	EXPECT_EQ(misc, r.header.misc);
	EXPECT_EQ(fixed[w->fmt] + ALIGN8(strlen(w->path) + 1) + 8,
		  r.header.size);
	EXPECT_EQ(getpid(), r.m1.pid);
	EXPECT_EQ(gettid(), r.m1.tid);
	EXPECT_EQ((uintptr_t)w->map, r.m1.addr);
	EXPECT_EQ(FILE_SIZE, r.m1.len);
	/* the file is mapped from 0 (anonymous memory has its own pgoff) */
	if (w->st)
		EXPECT_EQ(0, r.m1.pgoff);
	/* sample_id (PERF_SAMPLE_TID) ends the record */
	trailer = (uint32_t *)(r.buf + r.header.size - 8);
	EXPECT_EQ(getpid(), trailer[0]);
	EXPECT_EQ(gettid(), trailer[1]);
	if (w->fmt == FMT_MMAP)
		return;

	/* prot and flags sit at the same offset in every MMAP2 and MMAP3 */
	EXPECT_EQ(w->prot, r.m2.prot);
	EXPECT_EQ(MAP_PRIVATE, r.m2.flags & MAP_TYPE);

	if (with_id) {
		/* the id in place of the inode fields */
		EXPECT_EQ(w->id_size, r.m2b.build_id_size);
		if (r.m2b.build_id_size <= BUILD_ID_SIZE_MAX)
			EXPECT_TRUE(all_zero(r.m2b.build_id + r.m2b.build_id_size,
					     BUILD_ID_SIZE_MAX -
					     r.m2b.build_id_size));
		EXPECT_EQ(0, memcmp(w->id, r.m2b.build_id, w->id_size));
		EXPECT_EQ(0, r.m2b.__reserved_1);
		EXPECT_EQ(0, r.m2b.__reserved_2);
	} else {
		/* MMAP2 and MMAP3: the inode fields, zero when anonymous */
		EXPECT_EQ(w->st ? major(w->st->st_dev) : 0, r.m2.maj);
		EXPECT_EQ(w->st ? minor(w->st->st_dev) : 0, r.m2.min);
		EXPECT_EQ(w->st ? w->st->st_ino : 0, r.m2.ino);
	}

	if (w->fmt == FMT_MMAP3) {
		EXPECT_EQ(w->id_size, r.m3.build_id_size);
		if (r.m3.build_id_size <= BUILD_ID_SIZE_MAX)
			EXPECT_TRUE(all_zero(r.m3.build_id + r.m3.build_id_size,
					     BUILD_ID_SIZE_MAX -
					     r.m3.build_id_size));
		if (w->id_size)
			EXPECT_EQ(0, memcmp(w->id, r.m3.build_id, w->id_size));
		EXPECT_EQ(0, r.m3.__reserved_1);
		EXPECT_EQ(0, r.m3.__reserved_2);
	}
}

/* __check_mapping(); returns -1 when a check of this mapping failed */
static int check_mapping(struct __test_metadata *_metadata,
			 struct perf_rb *rb, const struct want *w)
{
	int passed = _metadata->passed, failed;

	_metadata->passed = 1;
	__check_mapping(_metadata, rb, w);
	failed = !_metadata->passed;
	_metadata->passed = passed && !failed;
	return failed ? -1 : 0;
}

/*
 * Map @path with @prot and check the one record that the event of @rb, of
 * @fmt, got for it: @path has the id @id of @id_size bytes (0: none).
 */
static void check_file(struct __test_metadata *_metadata, struct perf_rb *rb,
		       const char *path, const uint8_t *id,
		       enum mmap_format fmt, int prot, int id_size)
{
	struct want w = {
		.fmt = fmt, .path = path, .prot = prot,
		.id = id, .id_size = id_size,
	};
	struct stat st;

	ASSERT_EQ(0, stat(path, &st));
	w.st = &st;
	w.map = map_file(path, prot);
	ASSERT_NE(MAP_FAILED, w.map);
	check_mapping(_metadata, rb, &w);
	munmap(w.map, FILE_SIZE);
}

#define MAX_EVENTS	4

/*
 * Open one event per format of @fmts on this task, in that order, map
 * @path (of the 20 byte id @id) once, and check that each ring buffer got
 * the record of its own format: none takes the type, size or misc bits of
 * another.
 */
static void check_events(struct __test_metadata *_metadata, const char *path,
			 const uint8_t *id, const enum mmap_format *fmts, int n)
{
	struct perf_rb rb[MAX_EVENTS];
	char order[64] = "";
	struct stat st;
	void *map;
	int i;

	ASSERT_GE(MAX_EVENTS, n);
	for (i = 0; i < n; i++) {
		struct perf_event_attr attr = format_attr(fmts[i]);

		ASSERT_EQ(0, perf_rb_open(&rb[i], &attr));
		snprintf(order + strlen(order), sizeof(order) - strlen(order),
			 "%s%s", i ? ", " : "", format_name[fmts[i]]);
	}
	ASSERT_EQ(0, stat(path, &st));
	map = map_file(path, PROT_READ | PROT_EXEC);
	ASSERT_NE(MAP_FAILED, map);
	for (i = 0; i < n; i++) {
		struct want w = {
			.fmt = fmts[i], .path = path, .map = map,
			.prot = PROT_READ | PROT_EXEC, .st = &st,
			.id = id, .id_size = 20,
		};

		if (check_mapping(_metadata, &rb[i], &w))
			TH_LOG("the %s event, opened in the order %s",
			       format_name[fmts[i]], order);
	}
	munmap(map, FILE_SIZE);
	for (i = 0; i < n; i++)
		perf_rb_close(&rb[i]);
}

/* check_events() for each order of fmts[k..n-1] after fmts[0..k-1] */
static void check_orders(struct __test_metadata *_metadata, const char *path,
			 const uint8_t *id, enum mmap_format *fmts, int n, int k)
{
	enum mmap_format t;
	int i;

	if (k == n) {
		check_events(_metadata, path, id, fmts, n);
		return;
	}
	for (i = k; i < n; i++) {
		t = fmts[k];
		fmts[k] = fmts[i];
		fmts[i] = t;
		check_orders(_metadata, path, id, fmts, n, k + 1);
		fmts[i] = fmts[k];
		fmts[k] = t;
	}
}

/* An anonymous executable mapping has no file and so no id. */
TEST_F(sideband, anon_exec)
{
	struct perf_event_attr attr = make_sideband_attr();
	const char *skip;
	int err;
	union record r;
	int n, found = 0;
	void *map;

	attr.build_id = 1;
	skip = open_mmap3(&self->rb, &attr, -1, &err);
	if (skip)
		SKIP(return, "%s", skip);
	ASSERT_EQ(0, err);
	map = mmap(NULL, 4096, PROT_READ | PROT_EXEC,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	while ((n = perf_rb_next(&self->rb, r.buf, sizeof(r.buf))) > 0) {
		if (r.header.type != PERF_RECORD_MMAP3 ||
		    r.m3.addr != (uintptr_t)map)
			continue;
		found++;
		EXPECT_STREQ("//anon", r.m3.filename);
		EXPECT_EQ(0, r.m3.build_id_size);
		EXPECT_TRUE(all_zero(r.m3.build_id, BUILD_ID_SIZE_MAX));
		EXPECT_EQ(0, r.m3.ino);
	}
	munmap(map, 4096);
	EXPECT_EQ(1, found);
}

/*
 * With mmap2 and bit 34 both set: Linux 5.12's format, one MMAP2 with
 * PERF_RECORD_MISC_MMAP_BUILD_ID and the id (here 20 bytes, sha1) in
 * place of the inode fields.  No MMAP3.
 */
TEST_F(sideband, mmap2_build_id)
{
	struct perf_event_attr attr = format_attr(FMT_BUILD_ID);

	if (self->noexec)
		SKIP(return, "%s", self->noexec);
	if (!open_upstream_form(_metadata, &self->rb, &attr))
		return;
	check_file(_metadata, &self->rb, self->path, self->id,
		   FMT_BUILD_ID, PROT_READ | PROT_EXEC, 20);
}

/* The same with a 16 byte (md5) id: the rest of the id field is zero. */
TEST_F(sideband, mmap2_build_id_md5)
{
	struct perf_event_attr attr = format_attr(FMT_BUILD_ID);
	struct elf_spec spec = { ELFCLASS64, 16, ELF_GOOD };

	if (self->noexec)
		SKIP(return, "%s", self->noexec);
	if (!open_upstream_form(_metadata, &self->rb, &attr))
		return;
	ASSERT_EQ(0, rewrite_elf(self->path, self->id, &spec, 4));
	check_file(_metadata, &self->rb, self->path, self->id,
		   FMT_BUILD_ID, PROT_READ | PROT_EXEC, 16);
}

/* A file without an id: a plain MMAP2, the inode fields, no misc bit. */
TEST_F(sideband, mmap2_build_id_no_note)
{
	struct perf_event_attr attr = format_attr(FMT_BUILD_ID);
	struct elf_spec spec = { ELFCLASS64, 20, ELF_NO_NOTE };

	if (self->noexec)
		SKIP(return, "%s", self->noexec);
	if (!open_upstream_form(_metadata, &self->rb, &attr))
		return;
	ASSERT_EQ(0, rewrite_elf(self->path, self->id, &spec, 5));
	check_file(_metadata, &self->rb, self->path, self->id,
		   FMT_BUILD_ID, PROT_READ | PROT_EXEC, 0);
}

/* Anonymous memory has no id either: a plain MMAP2 with zero inode fields. */
TEST_F(sideband, mmap2_build_id_anon)
{
	struct perf_event_attr attr = format_attr(FMT_BUILD_ID);
	struct want w = {
		.fmt = FMT_BUILD_ID, .path = "//anon",
		.prot = PROT_READ | PROT_EXEC,
	};

	if (!open_upstream_form(_metadata, &self->rb, &attr))
		return;
	w.map = mmap(NULL, FILE_SIZE, PROT_READ | PROT_EXEC,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, w.map);
	check_mapping(_metadata, &self->rb, &w);
	munmap(w.map, FILE_SIZE);
}

/*
 * mmap_data, mmap2 and bit 34: a non-executable mapping of the file gives
 * an MMAP2 with both PERF_RECORD_MISC_MMAP_DATA and the id.
 */
TEST_F(sideband, mmap2_build_id_data)
{
	struct perf_event_attr attr = format_attr(FMT_BUILD_ID);

	attr.mmap = 0;
	attr.mmap_data = 1;
	if (!open_upstream_form(_metadata, &self->rb, &attr))
		return;
	check_file(_metadata, &self->rb, self->path, self->id,
		   FMT_BUILD_ID, PROT_READ, 20);
}

/*
 * Bit 34 alone (no mmap, mmap_data or mmap2) asks for no mmap record: it
 * only changes the format of those the other bits ask for.  An mmap2 event
 * on the same task shows that the mappings were reported.
 */
TEST_F(sideband, build_id_alone)
{
	struct perf_event_attr attr = make_sideband_attr();
	struct perf_event_attr control = format_attr(FMT_MMAP2);
	struct perf_rb rb_control;
	union record r;
	struct scan s;
	void *map, *data, *anon;

	if (self->noexec)
		SKIP(return, "%s", self->noexec);
	attr.mmap = 0;
	attr.build_id = 1;
	if (!open_upstream_form(_metadata, &self->rb, &attr))
		return;
	control.mmap_data = 1;
	ASSERT_EQ(0, perf_rb_open(&rb_control, &control));

	map = map_file(self->path, PROT_READ | PROT_EXEC);
	ASSERT_NE(MAP_FAILED, map);
	data = map_file(self->path, PROT_READ);
	ASSERT_NE(MAP_FAILED, data);
	anon = mmap(NULL, 4096, PROT_READ | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, anon);

	/* nothing at all, of any type, for any mapping */
	ASSERT_EQ(0, scan_records(&self->rb, self->path, 0, PERF_RECORD_MMAP2,
				  &r, &s));
	EXPECT_EQ(0, s.any);
	EXPECT_EQ(0, s.mmap3);

	/* the control event got both mappings of the file */
	ASSERT_EQ(0, scan_records(&rb_control, self->path, 0,
				  PERF_RECORD_MMAP2, &r, &s));
	EXPECT_EQ(2, s.found);
	EXPECT_EQ(0, s.other);
	EXPECT_EQ(0, s.mmap3);

	munmap(anon, 4096);
	munmap(data, FILE_SIZE);
	munmap(map, FILE_SIZE);
	perf_rb_close(&rb_control);
}

/*
 * mmap_data and bit 34, no mmap2: a non-executable mapping of the file
 * gives an MMAP3 with PERF_RECORD_MISC_MMAP_DATA and the id.
 */
TEST_F(sideband, mmap3_data)
{
	struct perf_event_attr attr = format_attr(FMT_MMAP3);
	const char *skip;
	int err;

	attr.mmap = 0;
	attr.mmap_data = 1;
	skip = open_mmap3(&self->rb, &attr, -1, &err);
	if (skip)
		SKIP(return, "%s", skip);
	ASSERT_EQ(0, err);
	check_file(_metadata, &self->rb, self->path, self->id,
		   FMT_MMAP3, PROT_READ, 20);
}

/*
 * Several events on one task see the same mapping: each gets the record of
 * its own format, in whichever order they were opened.  A plain mmap2
 * event never has PERF_RECORD_MISC_MMAP_BUILD_ID from an mmap2 + bit 34 one.
 */
TEST_F(sideband, two_events_build_id)
{
	enum mmap_format fmts[] = { FMT_BUILD_ID, FMT_MMAP2 };
	struct perf_event_attr attr = format_attr(FMT_BUILD_ID);

	if (self->noexec)
		SKIP(return, "%s", self->noexec);
	if (!open_upstream_form(_metadata, &self->rb, &attr))
		return;
	perf_rb_close(&self->rb);
	check_orders(_metadata, self->path, self->id, fmts, ARRAY_SIZE(fmts), 0);
}

/* mmap, mmap2 and mmap2 + bit 34 events, in every order. */
TEST_F(sideband, three_events_build_id)
{
	enum mmap_format fmts[] = { FMT_MMAP, FMT_MMAP2, FMT_BUILD_ID };
	struct perf_event_attr attr = format_attr(FMT_BUILD_ID);

	if (self->noexec)
		SKIP(return, "%s", self->noexec);
	if (!open_upstream_form(_metadata, &self->rb, &attr))
		return;
	perf_rb_close(&self->rb);
	check_orders(_metadata, self->path, self->id, fmts, ARRAY_SIZE(fmts), 0);
}

/* An MMAP3 event with an mmap, an mmap2 or an mmap2 + bit 34 one. */
TEST_F(sideband, two_events_mmap3)
{
	enum mmap_format pairs[][2] = {
		{ FMT_MMAP3, FMT_MMAP2 },
		{ FMT_MMAP3, FMT_BUILD_ID },
		{ FMT_MMAP3, FMT_MMAP },
	};
	const char *skip = mmap3_unsupported();
	unsigned int i;

	if (self->noexec)
		SKIP(return, "%s", self->noexec);
	if (skip)
		SKIP(return, "%s", skip);
	for (i = 0; i < ARRAY_SIZE(pairs); i++)
		check_orders(_metadata, self->path, self->id, pairs[i], 2, 0);
}

/* mmap2, mmap2 + bit 34 and MMAP3 events, in every order. */
TEST_F(sideband, three_events)
{
	enum mmap_format fmts[] = { FMT_MMAP2, FMT_BUILD_ID, FMT_MMAP3 };
	const char *skip = mmap3_unsupported();

	if (self->noexec)
		SKIP(return, "%s", self->noexec);
	if (skip)
		SKIP(return, "%s", skip);
	check_orders(_metadata, self->path, self->id, fmts, ARRAY_SIZE(fmts), 0);
}

/* Each format there is, in every order. */
TEST_F(sideband, four_events)
{
	enum mmap_format fmts[] = {
		FMT_MMAP, FMT_MMAP2, FMT_BUILD_ID, FMT_MMAP3,
	};
	const char *skip = mmap3_unsupported();

	if (self->noexec)
		SKIP(return, "%s", self->noexec);
	if (skip)
		SKIP(return, "%s", skip);
	check_orders(_metadata, self->path, self->id, fmts, ARRAY_SIZE(fmts), 0);
}

/* Without attr.build_id the kernel never emits type 21: old tools can't read it. */
TEST_F(sideband, no_mmap3_no_type_21)
{
	struct perf_event_attr attr = make_sideband_attr();
	union record r;
	int err;

	if (self->noexec)
		SKIP(return, "%s", self->noexec);
	attr.mmap2 = 1;
	attr.mmap_data = 1;
	err = perf_rb_open(&self->rb, &attr);
	if (err == -EACCES || err == -EPERM)
		SKIP(return, NOT_PERMITTED);
	ASSERT_EQ(0, err);
	ASSERT_EQ(1, map_and_find(&self->rb, self->path, PERF_RECORD_MMAP2, &r, NULL));
	perf_rb_close(&self->rb);

	attr.mmap2 = 0;
	ASSERT_EQ(0, perf_rb_open(&self->rb, &attr));
	ASSERT_EQ(1, map_and_find(&self->rb, self->path, PERF_RECORD_MMAP, &r, NULL));
}

/* A child inherits the event; its mmap is reported with its pid and id. */
TEST_F(sideband, inherit)
{
	struct perf_event_attr attr = make_sideband_attr();
	const char *skip;
	int err;
	union record r;
	int status, n, cpu, found = 0;
	cpu_set_t cpus;
	pid_t child;

	if (self->noexec)
		SKIP(return, "%s", self->noexec);
	/* inherited events can't be mapped per task: stay on one cpu */
	cpu = sched_getcpu();
	ASSERT_LE(0, cpu);
	CPU_ZERO(&cpus);
	CPU_SET(cpu, &cpus);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(cpus), &cpus));
	attr.build_id = 1;
	attr.inherit = 1;
	skip = open_mmap3(&self->rb, &attr, cpu, &err);
	if (skip)
		SKIP(return, "%s", skip);
	ASSERT_EQ(0, err);
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		int fd = open(self->path, O_RDONLY);
		char c;

		if (fd < 0 || pread(fd, &c, 1, 0) != 1 ||
		    mmap(NULL, FILE_SIZE, PROT_READ | PROT_EXEC, MAP_PRIVATE,
			 fd, 0) == MAP_FAILED)
			_exit((perror("child"), 1));
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(0, status);
	while ((n = perf_rb_next(&self->rb, r.buf, sizeof(r.buf))) > 0) {
		if (r.header.type != PERF_RECORD_MMAP3 ||
		    strcmp(r.m3.filename, self->path))
			continue;
		found++;
		EXPECT_EQ(child, r.m3.pid);
		EXPECT_EQ(child, r.m3.tid);
		/* sample_id: the child's pid/tid too */
		EXPECT_EQ(child, *(uint32_t *)(r.buf + r.header.size - 8));
		EXPECT_EQ(20, r.m3.build_id_size);
		EXPECT_EQ(0, memcmp(self->id, r.m3.build_id, 20));
	}
	EXPECT_EQ(1, found);
}

/* A file rewritten between two mmaps reports the id it has each time. */
TEST_F(sideband, rewritten_file)
{
	struct perf_event_attr attr = make_sideband_attr();
	const char *skip;
	int err;
	struct elf_spec spec = { ELFCLASS64, 20, ELF_GOOD };
	static char img[FILE_SIZE];
	uint8_t id2[BUILD_ID_SIZE_MAX];
	union record r;

	if (self->noexec)
		SKIP(return, "%s", self->noexec);
	attr.build_id = 1;
	skip = open_mmap3(&self->rb, &attr, -1, &err);
	if (skip)
		SKIP(return, "%s", skip);
	ASSERT_EQ(0, err);
	ASSERT_EQ(1, map_and_find(&self->rb, self->path, PERF_RECORD_MMAP3, &r, NULL));
	EXPECT_EQ(0, memcmp(self->id, r.m3.build_id, 20));

	elf_image_id(id2, 20, 3);
	ASSERT_NE(0, memcmp(self->id, id2, 20));
	ASSERT_EQ(0, write_file(self->path, img, elf_image(img, FILE_SIZE, &spec, id2)));
	ASSERT_EQ(1, map_and_find(&self->rb, self->path, PERF_RECORD_MMAP3, &r, NULL));
	EXPECT_EQ(20, r.m3.build_id_size);
	EXPECT_EQ(0, memcmp(id2, r.m3.build_id, 20));
}

/* What page_not_cached says to do when its directory is on a noexec mount */
#define UNCACHED_NOEXEC_ENV \
	"set MMAP3_UNCACHED_DIR to a directory on a mount that allows exec"
#define UNCACHED_NOEXEC_CWD \
	"run from a directory on a mount that allows exec, or set MMAP3_UNCACHED_DIR"

/* Is page @i of @map in the page cache? -1 if mincore() fails. */
static int page_cached(void *map, int i)
{
	unsigned char vec[FILE_SIZE / 4096];

	if (mincore(map, FILE_SIZE, vec))
		return -1;
	return vec[i] & 1;
}

/*
 * Pages not in the page cache: no id, and no error; the parser must not
 * read them in.  Once they are faulted in, the next mmap finds the id.
 * Three layouts: the note on page 0; on page 1 (lld); across pages 0 and 1.
 * In the last two, with page 0 alone cached, there is still no id.
 * Needs a file system where a file's pages can be out of the cache: an
 * uncached 9p mount (MMAP3_UNCACHED_DIR), or a disk-backed cwd where
 * POSIX_FADV_DONTNEED can drop them (checked with mincore).
 */
TEST_F(sideband, page_not_cached)
{
	static const struct {
		enum elf_damage layout;
		const char *name;
	} layouts[] = {
		{ ELF_GOOD, "note on page 0" },
		{ ELF_NOTE_PAST_PAGE0, "note on page 1" },
		{ ELF_NOTE_CROSSES_PAGE, "note across pages 0 and 1" },
	};
	struct perf_event_attr attr = make_sideband_attr();
	const char *env = getenv("MMAP3_UNCACHED_DIR");
	static char img[FILE_SIZE];
	char dir[PATH_MAX], path[PATH_MAX + 32];
	const char *skip;
	struct statfs sfs;
	void *map, *map2;
	unsigned int i;
	union record r;
	int fd, err;

	/* records carry the absolute path */
	if (env ? !realpath(env, dir) : !getcwd(dir, sizeof(dir)))
		SKIP(return, "no directory for the uncached file");
	if (!env && !statfs(dir, &sfs) && sfs.f_type == TMPFS_MAGIC)
		SKIP(return, "cwd is tmpfs, pages stay cached: set MMAP3_UNCACHED_DIR");
	skip = noexec_dir(dir, env ? UNCACHED_NOEXEC_ENV : UNCACHED_NOEXEC_CWD);
	if (skip)
		SKIP(return, "%s", skip);

	attr.build_id = 1;
	skip = open_mmap3(&self->rb, &attr, -1, &err);
	if (skip)
		SKIP(return, "%s", skip);
	ASSERT_EQ(0, err);

	for (i = 0; i < ARRAY_SIZE(layouts); i++) {
		struct elf_spec spec = { ELFCLASS64, 20, layouts[i].layout };

		TH_LOG("%s", layouts[i].name);
		snprintf(path, sizeof(path), "%s/mmap3_cold.%d", dir, getpid());
		if (write_file(path, img, elf_image(img, FILE_SIZE, &spec, self->id)))
			SKIP(return, "cannot write %.900s", path);
		/* one open file, one inode: uncached 9p makes a new one per lookup */
		fd = open(path, O_RDONLY);
		ASSERT_LE(0, fd);
		if (!env) {
			fdatasync(fd);
			posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		}
		map = mmap(NULL, FILE_SIZE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
		ASSERT_NE(MAP_FAILED, map);
		/* fault in one page at a time: no read-around (ENOSYS without
		 * CONFIG_ADVISE_SYSCALLS: mincore says below what came in)
		 */
		madvise(map, FILE_SIZE, MADV_RANDOM);
		if (page_cached(map, 0) || page_cached(map, 1)) {
			munmap(map, FILE_SIZE);
			close(fd);
			unlink(path);
			SKIP(return, "pages stay cached in %.900s: set MMAP3_UNCACHED_DIR", dir);
		}
		EXPECT_EQ(1, find_records(&self->rb, path, PERF_RECORD_MMAP3, &r));
		EXPECT_EQ(0, r.m3.build_id_size);
		EXPECT_TRUE(all_zero(r.m3.build_id, BUILD_ID_SIZE_MAX));
		EXPECT_NE(0, r.m3.ino);

		/* page 0 in, through the mapping: enough only for page 0's note */
		EXPECT_EQ(0x7f, __atomic_load_n((unsigned char *)map, __ATOMIC_RELAXED));
		EXPECT_EQ(1, page_cached(map, 0));
		if (layouts[i].layout != ELF_GOOD) {
			if (page_cached(map, 1)) {
				munmap(map, FILE_SIZE);
				close(fd);
				unlink(path);
				SKIP(return, "page 1 came in with page 0 in %.900s", dir);
			}
			map2 = mmap(NULL, FILE_SIZE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
			ASSERT_NE(MAP_FAILED, map2);
			EXPECT_EQ(1, find_records(&self->rb, path, PERF_RECORD_MMAP3, &r));
			EXPECT_EQ(0, r.m3.build_id_size);
			munmap(map2, FILE_SIZE);
			/* then page 1 */
			__atomic_load_n((unsigned char *)map + 4096, __ATOMIC_RELAXED);
			EXPECT_EQ(1, page_cached(map, 1));
		}
		map2 = mmap(NULL, FILE_SIZE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
		ASSERT_NE(MAP_FAILED, map2);
		EXPECT_EQ(1, find_records(&self->rb, path, PERF_RECORD_MMAP3, &r));
		EXPECT_EQ(20, r.m3.build_id_size);
		EXPECT_EQ(0, memcmp(self->id, r.m3.build_id, 20));
		munmap(map2, FILE_SIZE);
		munmap(map, FILE_SIZE);
		close(fd);
		unlink(path);
	}
}

/*
 * The mmap records of the mapping at @addr in @rb, of any file: returns
 * how many are of @type (the last one is left in @out), plus 1000 for each
 * of another type; -1 on a bad record.
 */
static int find_mapping(struct perf_rb *rb, void *addr, int type,
			union record *out)
{
	int n, found = 0;
	union record r;

	while ((n = perf_rb_next(rb, r.buf, sizeof(r.buf) - 1)) > 0) {
		r.buf[n] = '\0';
		if (!record_name(&r) || r.m1.addr != (uintptr_t)addr)
			continue;
		if (r.header.type == type) {
			memcpy(out, &r, r.header.size);
			found++;
		} else {
			found += 1000;
		}
	}
	return n < 0 ? -1 : found;
}

/* The value of @key in /proc/meminfo, -1 if there is none */
static long meminfo_value(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long val = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)) &&
		    sscanf(line + strlen(key), "%ld", &val) == 1)
			break;
	fclose(f);
	return val;
}

#define NR_HUGEPAGES	"/proc/sys/vm/nr_hugepages"

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long val = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &val) != 1)
		val = -1;
	fclose(f);
	return val;
}

static int write_long(const char *path, long val)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = fprintf(f, "%ld\n", val) < 0;
	return fclose(f) || ret ? -1 : 0;
}

/* Huge pages not yet promised to a mapping */
static long hugepages_available(void)
{
	return meminfo_value("HugePages_Free:") - meminfo_value("HugePages_Rsvd:");
}

/*
 * hugetlbfs indexes its page cache by huge page: page cache index 1 of an
 * MFD_HUGETLB memfd is the huge page at 2 MiB (with 2 MiB pages), not the
 * bytes at 4 KiB.  The file is two huge pages; its program headers or its
 * note lie past 4 KiB, and where a lookup of 4 KiB page 1 by that index
 * would land, at the start of huge page 1, sits page 1 of a decoy image
 * with another id.  The record must carry the file's id, never the decoy's.
 */
FIXTURE(hugetlb)
{
	struct perf_rb rb3;	/* MMAP3 */
	struct perf_rb rb2;	/* MMAP2 with the id, Linux 5.12's format */
	size_t hpage;		/* the default huge page size */
	long nr_saved;		/* nr_hugepages to restore; -1: untouched */
	int fd;
	const char *skip;	/* why SETUP skipped */
};

FIXTURE_VARIANT(hugetlb)
{
	struct elf_spec spec;
};

#define HUGE_ELF(class, how) { .spec = { class, 20, how } }

FIXTURE_VARIANT_ADD(hugetlb, note_past_page0) HUGE_ELF(ELFCLASS64, ELF_NOTE_PAST_PAGE0);
FIXTURE_VARIANT_ADD(hugetlb, elf32_note_past_page0) HUGE_ELF(ELFCLASS32, ELF_NOTE_PAST_PAGE0);
FIXTURE_VARIANT_ADD(hugetlb, note_crosses_page) HUGE_ELF(ELFCLASS64, ELF_NOTE_CROSSES_PAGE);
/* the PT_NOTE header on page 1 */
FIXTURE_VARIANT_ADD(hugetlb, phdrs_cross_page) HUGE_ELF(ELFCLASS64, ELF_PHDRS_CROSS_PAGE);

FIXTURE_SETUP(hugetlb)
{
	long nr, avail;

	self->rb3.fd = -1;
	self->rb2.fd = -1;
	self->fd = -1;
	self->nr_saved = -1;
	self->skip = NULL;
	self->hpage = meminfo_value("Hugepagesize:") * 1024;
	if ((long)self->hpage <= 0) {
		self->skip = "no huge pages (CONFIG_HUGETLBFS)";
		SKIP(return, "%s", self->skip);
	}
	/* two huge pages for the file */
	avail = hugepages_available();
	if (avail < 2) {
		nr = read_long(NR_HUGEPAGES);
		if (nr < 0 || write_long(NR_HUGEPAGES, nr + 2 - avail)) {
			self->skip = "cannot reserve huge pages (" NR_HUGEPAGES ")";
			SKIP(return, "%s", self->skip);
		}
		self->nr_saved = nr;
		if (hugepages_available() < 2) {
			self->skip = "no two huge pages free";
			SKIP(return, "%s", self->skip);
		}
	}
	self->fd = memfd_create("mmap3_hugetlb", MFD_HUGETLB | MFD_CLOEXEC);
	if (self->fd < 0) {
		self->skip = "no MFD_HUGETLB memfd";
		SKIP(return, "%s", self->skip);
	}
}

FIXTURE_TEARDOWN(hugetlb)
{
	perf_rb_close(&self->rb3);
	perf_rb_close(&self->rb2);
	if (self->fd >= 0)
		close(self->fd);
	/* the file's pages are free again once it is closed */
	if (self->nr_saved >= 0)
		write_long(NR_HUGEPAGES, self->nr_saved);
}

/* A free spot on page 0 of every image, for the decoy's notes */
#define DECOY_NOTES_OFF	2048

TEST_F(hugetlb, build_id)
{
	static char img[2 * ELF_IMAGE_PAGE], decoy[2 * ELF_IMAGE_PAGE];
	uint8_t id[BUILD_ID_SIZE_MAX], decoy_id[BUILD_ID_SIZE_MAX];
	struct perf_event_attr attr;
	size_t size = 2 * self->hpage;
	const char *mmap3_skip;
	union record r;
	char *map;
	int err;

	/* 5.10's harness runs the body even when SETUP skipped */
	if (self->skip)
		return;
	elf_image_id(id, sizeof(id), 4);
	elf_image_id(decoy_id, sizeof(decoy_id), 5);
	ASSERT_EQ(sizeof(img), elf_image(img, sizeof(img), &variant->spec, id));
	ASSERT_EQ(sizeof(decoy), elf_image(decoy, sizeof(decoy), &variant->spec,
					   decoy_id));
	if (variant->spec.damage == ELF_PHDRS_CROSS_PAGE) {
		/* the decoy's PT_NOTE header, first on its page 1, points
		 * to the decoy's notes, copied to a free spot of page 0
		 */
		struct elf64_phdr *ph = (void *)(decoy + ELF_IMAGE_PAGE);

		ASSERT_EQ(PT_NOTE, ph->p_type);
		memcpy(img + DECOY_NOTES_OFF, decoy + ph->p_offset, ph->p_filesz);
		ph->p_offset = DECOY_NOTES_OFF;
	}

	/* hugetlbfs has no write(): fill the file through a mapping */
	ASSERT_EQ(0, ftruncate(self->fd, size));
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	memcpy(map, img, sizeof(img));
	memcpy(map + self->hpage, decoy + ELF_IMAGE_PAGE, ELF_IMAGE_PAGE);
	munmap(map, size);

	attr = format_attr(FMT_BUILD_ID);
	if (!open_upstream_form(_metadata, &self->rb2, &attr))
		return;
	attr = format_attr(FMT_MMAP3);
	mmap3_skip = open_mmap3(&self->rb3, &attr, -1, &err);
	if (!mmap3_skip)
		ASSERT_EQ(0, err);

	/* shared: a private mapping would reserve two more huge pages */
	map = mmap(NULL, size, PROT_READ | PROT_EXEC, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, map);

	/* MMAP2: the file's id, or (upstream) a plain MMAP2; never the decoy's */
	EXPECT_EQ(1, find_mapping(&self->rb2, map, PERF_RECORD_MMAP2, &r));
	if (r.header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		EXPECT_NE(0, memcmp(decoy_id, r.m2b.build_id, sizeof(decoy_id)));
		EXPECT_EQ(20, r.m2b.build_id_size);
		EXPECT_EQ(0, memcmp(id, r.m2b.build_id, sizeof(id)));
	} else {
		/* this kernel reads every cached page, huge ones too */
		EXPECT_NE(NULL, mmap3_skip);
	}

	/* MMAP3: the file's id */
	if (!mmap3_skip) {
		EXPECT_EQ(1, find_mapping(&self->rb3, map, PERF_RECORD_MMAP3, &r));
		EXPECT_NE(0, memcmp(decoy_id, r.m3.build_id, sizeof(decoy_id)));
		EXPECT_EQ(20, r.m3.build_id_size);
		EXPECT_EQ(0, memcmp(id, r.m3.build_id, sizeof(id)));
	}
	munmap(map, size);
}

/*
 * Open a counter of the calls of the kernel function @func on this task,
 * through the kprobe PMU.  Returns the fd, or -errno.
 */
static int open_kprobe_counter(const char *func)
{
	struct perf_event_attr attr = {
		.size		= sizeof(attr),
		.kprobe_func	= (uintptr_t)func,
	};
	int fd;

	attr.type = read_long("/sys/bus/event_source/devices/kprobe/type");
	if ((int)attr.type < 0)
		return -ENOENT;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* The calls @fd counted since the last call */
static uint64_t kprobe_calls(int fd)
{
	uint64_t n = ~0ull;

	if (read(fd, &n, sizeof(n)) != sizeof(n))
		return ~0ull;
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	return n;
}

/* Map @path executable and unmap it: an mmap record for those who ask */
static void map_once(struct __test_metadata *_metadata, const char *path)
{
	void *map = map_file(path, PROT_READ | PROT_EXEC);

	ASSERT_NE(MAP_FAILED, map);
	munmap(map, FILE_SIZE);
}

/*
 * Only an event that can receive mmap records (attr.mmap, mmap_data or
 * mmap2) with bit 34 makes the kernel parse the files mapped: bit 34
 * alone does not, while its event is open or after (its close uncounts
 * nothing), and a counted event stops it once closed.  Counted with a
 * kprobe on build_id_parse(), while a plain mmap event keeps the mmap
 * hook running.
 */
TEST_F(sideband, build_id_alone_parses_nothing)
{
	struct perf_event_attr plain = make_sideband_attr();
	struct perf_event_attr alone = make_sideband_attr();
	struct perf_event_attr attr = format_attr(FMT_BUILD_ID);
	struct perf_rb rb_plain, rb_alone;
	int kp;

	if (self->noexec)
		SKIP(return, "%s", self->noexec);
	alone.mmap = 0;
	alone.build_id = 1;
	if (!open_upstream_form(_metadata, &rb_alone, &alone))
		return;
	kp = open_kprobe_counter("build_id_parse");
	if (kp < 0) {
		perf_rb_close(&rb_alone);
		SKIP(return, "no kprobe on build_id_parse: %s", strerror(-kp));
	}
	ASSERT_EQ(0, perf_rb_open(&rb_plain, &plain));

	kprobe_calls(kp);
	map_once(_metadata, self->path);
	EXPECT_EQ(0, kprobe_calls(kp));

	/* and once it is gone: its close uncounted nothing it had not counted */
	perf_rb_close(&rb_alone);
	map_once(_metadata, self->path);
	EXPECT_EQ(0, kprobe_calls(kp));

	/* the probe works: with mmap2 the file is parsed, once per mapping */
	ASSERT_EQ(0, perf_rb_open(&self->rb, &attr));
	kprobe_calls(kp);	/* not the ring buffer's own mapping */
	map_once(_metadata, self->path);
	EXPECT_EQ(1, kprobe_calls(kp));
	perf_rb_close(&self->rb);
	map_once(_metadata, self->path);
	EXPECT_EQ(0, kprobe_calls(kp));

	perf_rb_close(&rb_plain);
	close(kp);
}

/* attr.build_id is bit 34 of the flags word, as in Linux 5.12 and later */
TEST(attr_build_id_is_bit_34)
{
	struct perf_event_attr attr = { .mmap2 = 1, .text_poke = 1 };
	__u64 word;

	memcpy(&word, (char *)&attr + ATTR_FLAGS_OFFSET, sizeof(word));
	EXPECT_EQ((1ull << 23) | (1ull << 33), word);
	attr.build_id = 1;
	memcpy(&word, (char *)&attr + ATTR_FLAGS_OFFSET, sizeof(word));
	EXPECT_EQ((1ull << 23) | (1ull << 33) | (1ull << 34), word);
}

TEST_HARNESS_MAIN
