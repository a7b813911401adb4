// SPDX-License-Identifier: GPL-2.0
/*
 * Test for PERF_RECORD_MMAP3: mmap records that carry the GNU build id of
 * the mapped file, read by the kernel from the page cache at mmap time.
 *
 * Every input file is generated here: well-formed ELF files with known ids
 * and each malformed header the kernel's parser must survive.
 */
#define _GNU_SOURCE
#include <linux/elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sched.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_records.h"

#ifndef PERF_RECORD_MMAP3
#define PERF_RECORD_MMAP3	21
#endif
#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID		3
#endif
#define BUILD_ID_SIZE_MAX	20
#define FILE_SIZE		8192

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

union record {
	struct perf_event_header header;
	struct mmap3_record m3;
	char buf[8192];
};

/* How to damage an otherwise valid ELF file (REVIEW.md B). */
enum damage {
	GOOD,
	NO_NOTE,		/* no PT_NOTE at all */
	BAD_MAGIC,
	TYPE_REL,		/* e_type ET_REL */
	BAD_CLASS,		/* EI_CLASS neither 32 nor 64 */
	PHOFF_HUGE,
	PHOFF_IN_HEADER,	/* e_phoff inside the ELF header */
	PHNUM_MAX,		/* e_phnum 65535 */
	PHDRS_LEAVE_PAGE,	/* the program headers run past page 0 */
	NOTE_OFF_OUTSIDE,	/* PT_NOTE p_offset past the page */
	NOTE_SIZE_WRAP,		/* p_offset + p_filesz wraps */
	NAMESZ_HUGE,		/* n_namesz near 0xffffffff */
	DESCSZ_HUGE,		/* n_descsz near 0xffffffff */
	NOTE_PAST_SEGMENT,	/* the note is longer than its segment */
	DESCSZ_ZERO,
	DESCSZ_21,
	OWNER_NOT_GNU,		/* "GNX\0" */
	NOTE_CROSSES_PAGE,	/* the note straddles page 0 and page 1 */
	TRUNCATED,		/* a file shorter than its ELF header */
};

struct elf_spec {
	int elfclass;		/* ELFCLASS32 or ELFCLASS64 */
	int id_size;		/* bytes of id in the note */
	enum damage damage;
};

/* The id bytes used for a file: distinct per seed, never zero. */
static void make_id(uint8_t *id, int size, int seed)
{
	int i;

	for (i = 0; i < size; i++)
		id[i] = (uint8_t)(0x11 * (seed + 1) + 7 * i) | 1;
}

/* Writes the note at @p; returns its length. */
static size_t put_note(char *p, const char *owner, uint32_t type,
		       uint32_t namesz, uint32_t descsz, const uint8_t *id,
		       int id_len)
{
	struct elf32_note nhdr = { .n_namesz = namesz, .n_descsz = descsz, .n_type = type };

	memcpy(p, &nhdr, sizeof(nhdr));
	memcpy(p + sizeof(nhdr), owner, 4);
	memcpy(p + sizeof(nhdr) + 4, id, id_len);
	return sizeof(nhdr) + 4 + ((id_len + 3) & ~3);
}

/*
 * Build a FILE_SIZE byte image: ELF header, a PT_LOAD and a PT_NOTE program
 * header, then the GNU build-id note, damaged as @spec says.  Returns the
 * size of the file to write.
 */
static size_t make_elf(char *img, const struct elf_spec *spec, const uint8_t *id)
{
	int is64 = spec->elfclass == ELFCLASS64;
	size_t ehsize = is64 ? sizeof(struct elf64_hdr) : sizeof(struct elf32_hdr);
	size_t phsize = is64 ? sizeof(struct elf64_phdr) : sizeof(struct elf32_phdr);
	uint64_t phoff = ehsize, note_off = ehsize + 2 * phsize;
	uint32_t namesz = 4, descsz = spec->id_size, type = NT_GNU_BUILD_ID;
	uint64_t p_offset, p_filesz;
	const char *owner = "GNU";
	unsigned int phnum = 2;
	size_t note_len;

	memset(img, 0, FILE_SIZE);
	if (spec->damage == NOTE_CROSSES_PAGE)
		note_off = 4096 - 16;
	switch (spec->damage) {
	case NAMESZ_HUGE:
		namesz = 0xfffffffd;
		break;
	case DESCSZ_HUGE:
		descsz = 0xfffffffd;
		break;
	case DESCSZ_ZERO:
		descsz = 0;
		break;
	case DESCSZ_21:
		descsz = 21;
		break;
	case OWNER_NOT_GNU:
		owner = "GNX";
		break;
	default:
		break;
	}
	note_len = put_note(img + note_off, owner, type, namesz, descsz, id,
			    spec->damage == DESCSZ_21 ? 21 : spec->id_size);
	p_offset = note_off;
	p_filesz = note_len;

	switch (spec->damage) {
	case NO_NOTE:
		phnum = 1;
		break;
	case PHOFF_HUGE:
		phoff = is64 ? 0xfffffffffffff000ull : 0xfffff000u;
		break;
	case PHOFF_IN_HEADER:
		phoff = 8;
		break;
	case PHNUM_MAX:
		phnum = 65535;
		break;
	case PHDRS_LEAVE_PAGE:
		phoff = 4096 - phsize;
		phnum = 2;
		break;
	case NOTE_OFF_OUTSIDE:
		p_offset = 4096 + 64;
		break;
	case NOTE_SIZE_WRAP:
		p_filesz = is64 ? ~0ull - 8 : 0xfffffff8u;
		break;
	case NOTE_PAST_SEGMENT:
		p_filesz = note_len - 8;
		break;
	default:
		break;
	}

	if (is64) {
		struct elf64_hdr *eh = (struct elf64_hdr *)img;
		struct elf64_phdr ph[2] = {
			{ .p_type = PT_LOAD, .p_flags = PF_R | PF_X,
			  .p_filesz = FILE_SIZE, .p_memsz = FILE_SIZE, .p_align = 4096 },
			{ .p_type = PT_NOTE, .p_flags = PF_R, .p_offset = p_offset,
			  .p_filesz = p_filesz, .p_memsz = p_filesz, .p_align = 4 },
		};

		eh->e_type = ET_DYN;
		eh->e_machine = EM_X86_64;
		eh->e_version = EV_CURRENT;
		eh->e_phoff = phoff;
		eh->e_ehsize = ehsize;
		eh->e_phentsize = phsize;
		eh->e_phnum = phnum;
		if (phoff + sizeof(ph) <= FILE_SIZE)
			memcpy(img + phoff, ph, sizeof(ph));
	} else {
		struct elf32_hdr *eh = (struct elf32_hdr *)img;
		struct elf32_phdr ph[2] = {
			{ .p_type = PT_LOAD, .p_flags = PF_R | PF_X,
			  .p_filesz = FILE_SIZE, .p_memsz = FILE_SIZE, .p_align = 4096 },
			{ .p_type = PT_NOTE, .p_flags = PF_R, .p_offset = p_offset,
			  .p_filesz = p_filesz, .p_memsz = p_filesz, .p_align = 4 },
		};

		eh->e_type = ET_DYN;
		eh->e_machine = EM_386;
		eh->e_version = EV_CURRENT;
		eh->e_phoff = phoff;
		eh->e_ehsize = ehsize;
		eh->e_phentsize = phsize;
		eh->e_phnum = phnum;
		if (phoff + sizeof(ph) <= FILE_SIZE)
			memcpy(img + phoff, ph, sizeof(ph));
	}
	memcpy(img, ELFMAG, SELFMAG);
	img[EI_CLASS] = spec->elfclass;
	img[EI_DATA] = ELFDATA2LSB;
	img[EI_VERSION] = EV_CURRENT;

	switch (spec->damage) {
	case BAD_MAGIC:
		img[1] = 'X';
		break;
	case TYPE_REL:
		((struct elf32_hdr *)img)->e_type = ET_REL;
		break;
	case BAD_CLASS:
		img[EI_CLASS] = 3;
		break;
	case TRUNCATED:
		return 40;
	default:
		break;
	}
	return FILE_SIZE;
}

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

/*
 * Scan the new records of @rb for mmap records of @path.  Returns the number
 * of records of @type (the last one is left in @out), plus 1000 for each
 * mmap record of another type; -1 on a bad record.
 */
static int find_records(struct perf_rb *rb, const char *path, int type,
			union record *out)
{
	union record r;
	int n, found = 0;

	while ((n = perf_rb_next(rb, r.buf, sizeof(r.buf))) > 0) {
		const char *name;

		if (r.header.type == PERF_RECORD_MMAP3)
			name = r.m3.filename;
		else if (r.header.type == PERF_RECORD_MMAP2)
			name = r.buf + 72;
		else if (r.header.type == PERF_RECORD_MMAP)
			name = r.buf + 40;
		else
			continue;
		if (strcmp(name, path))
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

/*
 * Map @path executable and find the records it produced, as find_records().
 * Page 0 is read first, so that it sits in the page cache.  The mapping is
 * left in *@mapp, or unmapped when @mapp is NULL.
 */
static int map_and_find(struct perf_rb *rb, const char *path, int type,
			union record *out, void **mapp)
{
	char buf[64];
	void *map;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	if (pread(fd, buf, sizeof(buf), 0) < 0) {
		close(fd);
		return -1;
	}
	map = mmap(NULL, FILE_SIZE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	if (mapp)
		*mapp = map;
	else
		munmap(map, FILE_SIZE);
	return find_records(rb, path, type, out);
}

/* Does the kernel take attr.mmap3 at all? */
static int kernel_has_mmap3(void)
{
	struct perf_event_attr attr = make_sideband_attr();
	int fd;

	attr.mmap3 = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno != EINVAL;
	close(fd);
	return 1;
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
	char path[64];
};

FIXTURE_VARIANT(mmap3)
{
	struct elf_spec spec;
	int not_elf;		/* a text file instead */
	int want_size;		/* 0: no id expected */
};

#define BAD_ELF(damage) { .spec = { ELFCLASS64, 20, damage }, .want_size = 0 }

FIXTURE_VARIANT_ADD(mmap3, sha1) { .spec = { ELFCLASS64, 20, GOOD }, .want_size = 20 };
FIXTURE_VARIANT_ADD(mmap3, md5) { .spec = { ELFCLASS64, 16, GOOD }, .want_size = 16 };
FIXTURE_VARIANT_ADD(mmap3, odd_size_8) { .spec = { ELFCLASS64, 8, GOOD }, .want_size = 8 };
FIXTURE_VARIANT_ADD(mmap3, elf32_sha1) { .spec = { ELFCLASS32, 20, GOOD }, .want_size = 20 };
FIXTURE_VARIANT_ADD(mmap3, not_elf) { .not_elf = 1, .want_size = 0 };
FIXTURE_VARIANT_ADD(mmap3, no_note) BAD_ELF(NO_NOTE);
FIXTURE_VARIANT_ADD(mmap3, bad_magic) BAD_ELF(BAD_MAGIC);
FIXTURE_VARIANT_ADD(mmap3, type_rel) BAD_ELF(TYPE_REL);
FIXTURE_VARIANT_ADD(mmap3, bad_class) BAD_ELF(BAD_CLASS);
FIXTURE_VARIANT_ADD(mmap3, phoff_huge) BAD_ELF(PHOFF_HUGE);
FIXTURE_VARIANT_ADD(mmap3, phoff_in_header) BAD_ELF(PHOFF_IN_HEADER);
FIXTURE_VARIANT_ADD(mmap3, phnum_65535) BAD_ELF(PHNUM_MAX);
FIXTURE_VARIANT_ADD(mmap3, phdrs_leave_page) BAD_ELF(PHDRS_LEAVE_PAGE);
FIXTURE_VARIANT_ADD(mmap3, note_off_outside) BAD_ELF(NOTE_OFF_OUTSIDE);
FIXTURE_VARIANT_ADD(mmap3, note_size_wrap) BAD_ELF(NOTE_SIZE_WRAP);
FIXTURE_VARIANT_ADD(mmap3, namesz_huge) BAD_ELF(NAMESZ_HUGE);
FIXTURE_VARIANT_ADD(mmap3, descsz_huge) BAD_ELF(DESCSZ_HUGE);
FIXTURE_VARIANT_ADD(mmap3, note_past_segment) BAD_ELF(NOTE_PAST_SEGMENT);
FIXTURE_VARIANT_ADD(mmap3, descsz_zero) BAD_ELF(DESCSZ_ZERO);
FIXTURE_VARIANT_ADD(mmap3, descsz_21) BAD_ELF(DESCSZ_21);
FIXTURE_VARIANT_ADD(mmap3, owner_not_gnu) BAD_ELF(OWNER_NOT_GNU);
FIXTURE_VARIANT_ADD(mmap3, note_crosses_page) BAD_ELF(NOTE_CROSSES_PAGE);
FIXTURE_VARIANT_ADD(mmap3, truncated) BAD_ELF(TRUNCATED);

/*
 * Open an mmap3 event.  Returns why the test must be skipped (the sysctl
 * or the kernel says no), or NULL with *@err the result.
 */
static const char *open_mmap3(struct perf_rb *rb, struct perf_event_attr *attr,
			      int cpu, int *err)
{
	*err = perf_rb_open_cpu(rb, attr, cpu);
	if (*err == -EACCES || *err == -EPERM)
		return "perf_event_open not permitted (perf_event_paranoid?)";
	if (*err == -EINVAL && !kernel_has_mmap3())
		return "kernel without attr.mmap3";
	return NULL;
}

FIXTURE_SETUP(mmap3)
{
	struct perf_event_attr attr = make_sideband_attr();
	const char *skip;
	int err;

	self->rb.fd = -1;
	snprintf(self->path, sizeof(self->path), "/tmp/mmap3_%s.%d",
		 variant->not_elf ? "text" : "elf", getpid());
	attr.mmap3 = 1;
	skip = open_mmap3(&self->rb, &attr, -1, &err);
	if (skip)
		SKIP(return, "%s", skip);
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

	if (variant->not_elf) {
		len = FILE_SIZE;
		memset(img, 'x', len);
		memcpy(img, "#!/bin/sh\necho not an ELF file\n", 31);
	} else {
		make_id(id, BUILD_ID_SIZE_MAX + 1, 1);
		len = make_elf(img, &variant->spec, id);
	}
	ASSERT_EQ(0, write_file(self->path, img, len));
	ASSERT_EQ(0, stat(self->path, &st));

	ASSERT_EQ(1, map_and_find(&self->rb, self->path, PERF_RECORD_MMAP3, &r, &map));
	munmap(map, FILE_SIZE);

	EXPECT_EQ(variant->want_size, r.m3.build_id_size);
	if (variant->want_size)
		EXPECT_EQ(0, memcmp(id, r.m3.build_id, variant->want_size));
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
	char path[64];
	uint8_t id[BUILD_ID_SIZE_MAX];
};

FIXTURE_SETUP(sideband)
{
	static char img[FILE_SIZE];
	struct elf_spec spec = { ELFCLASS64, 20, GOOD };

	self->rb.fd = -1;
	snprintf(self->path, sizeof(self->path), "/tmp/mmap3_sb.%d", getpid());
	make_id(self->id, 20, 2);
	ASSERT_EQ(0, write_file(self->path, img, make_elf(img, &spec, self->id)));
}

FIXTURE_TEARDOWN(sideband)
{
	perf_rb_close(&self->rb);
	unlink(self->path);
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

	attr.mmap3 = 1;
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

/* With mmap2 and mmap3 both set, only MMAP3 is emitted. */
TEST_F(sideband, mmap2_and_mmap3)
{
	struct perf_event_attr attr = make_sideband_attr();
	const char *skip;
	int err;
	union record r;

	attr.mmap2 = 1;
	attr.mmap3 = 1;
	skip = open_mmap3(&self->rb, &attr, -1, &err);
	if (skip)
		SKIP(return, "%s", skip);
	ASSERT_EQ(0, err);
	/* one MMAP3, and no record of another type for the file */
	ASSERT_EQ(1, map_and_find(&self->rb, self->path, PERF_RECORD_MMAP3, &r, NULL));
	EXPECT_EQ(20, r.m3.build_id_size);
	EXPECT_EQ(0, memcmp(self->id, r.m3.build_id, 20));
}

/* Without mmap3 the kernel never emits type 21: old tools can't read it. */
TEST_F(sideband, no_mmap3_no_type_21)
{
	struct perf_event_attr attr = make_sideband_attr();
	union record r;
	int err;

	attr.mmap2 = 1;
	attr.mmap_data = 1;
	err = perf_rb_open(&self->rb, &attr);
	if (err == -EACCES || err == -EPERM)
		SKIP(return, "perf_event_open not permitted (perf_event_paranoid?)");
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
	int status, n, found = 0;
	cpu_set_t cpus;
	pid_t child;

	/* inherited events can't be mapped per task: use one cpu */
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(cpus), &cpus));
	attr.mmap3 = 1;
	attr.inherit = 1;
	skip = open_mmap3(&self->rb, &attr, 0, &err);
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
	struct elf_spec spec = { ELFCLASS64, 20, GOOD };
	static char img[FILE_SIZE];
	uint8_t id2[BUILD_ID_SIZE_MAX];
	union record r;

	attr.mmap3 = 1;
	skip = open_mmap3(&self->rb, &attr, -1, &err);
	if (skip)
		SKIP(return, "%s", skip);
	ASSERT_EQ(0, err);
	ASSERT_EQ(1, map_and_find(&self->rb, self->path, PERF_RECORD_MMAP3, &r, NULL));
	EXPECT_EQ(0, memcmp(self->id, r.m3.build_id, 20));

	make_id(id2, 20, 3);
	ASSERT_NE(0, memcmp(self->id, id2, 20));
	ASSERT_EQ(0, write_file(self->path, img, make_elf(img, &spec, id2)));
	ASSERT_EQ(1, map_and_find(&self->rb, self->path, PERF_RECORD_MMAP3, &r, NULL));
	EXPECT_EQ(20, r.m3.build_id_size);
	EXPECT_EQ(0, memcmp(id2, r.m3.build_id, 20));
}

/*
 * Page 0 not in the page cache: no id, and no error; the parser must not
 * read it in.  Once the page is faulted in, the next mmap finds the id.
 * Needs a file system where a file's pages can be out of the cache: an
 * uncached 9p mount (MMAP3_UNCACHED_DIR), or a disk-backed cwd where
 * POSIX_FADV_DONTNEED can drop them.
 */
TEST_F(sideband, page_not_cached)
{
	struct perf_event_attr attr = make_sideband_attr();
	const char *skip;
	int err;
	struct elf_spec spec = { ELFCLASS64, 20, GOOD };
	const char *dir = getenv("MMAP3_UNCACHED_DIR");
	static char img[FILE_SIZE];
	unsigned char vec[1];
	char path[256];
	union record r;
	void *map, *map2;
	int fd;

	snprintf(path, sizeof(path), "%s/mmap3_cold.%d", dir ? dir : ".", getpid());
	if (write_file(path, img, make_elf(img, &spec, self->id)))
		SKIP(return, "cannot write %s", path);
	if (!dir) {
		fd = open(path, O_RDONLY);
		ASSERT_LE(0, fd);
		fdatasync(fd);
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
		close(fd);
		ASSERT_NE(MAP_FAILED, map);
		ASSERT_EQ(0, mincore(map, 4096, vec));
		munmap(map, 4096);
		if (vec[0] & 1) {
			unlink(path);
			SKIP(return, "page 0 stays cached here (tmpfs?): set MMAP3_UNCACHED_DIR");
		}
	}

	attr.mmap3 = 1;
	skip = open_mmap3(&self->rb, &attr, -1, &err);
	if (skip)
		SKIP(return, "%s", skip);
	ASSERT_EQ(0, err);

	/* one open file, one inode: uncached 9p makes a new one per lookup */
	fd = open(path, O_RDONLY);
	ASSERT_LE(0, fd);
	map = mmap(NULL, FILE_SIZE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	EXPECT_EQ(1, find_records(&self->rb, path, PERF_RECORD_MMAP3, &r));
	EXPECT_EQ(0, r.m3.build_id_size);
	EXPECT_TRUE(all_zero(r.m3.build_id, BUILD_ID_SIZE_MAX));
	EXPECT_NE(0, r.m3.ino);

	/* fault page 0 in through the mapping, then map again */
	EXPECT_EQ(0x7f, __atomic_load_n((unsigned char *)map, __ATOMIC_RELAXED));
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

TEST_HARNESS_MAIN
