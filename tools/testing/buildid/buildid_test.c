// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for lib/buildid.c, compiled in user space against shim.h,
 * one per bad input of the review checklist plus the well-formed cases.
 * The file has NPAGES pages, each a PAGE_SIZE heap buffer of its own, so
 * ASan catches any read outside a page; page 0 is cached, the others only
 * when a test says so.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../../lib/buildid.c"
#include "../selftests/perf_events/elf_image.h"

int shim_kmap_depth;
bool shim_in_nmi;

/* READ_ONCE hook: after @scribble_at reads, overwrite the page with 0xff. */
static int reads, scribble_at;
static unsigned char *page;	/* page 0 */

#define NPAGES 8
static unsigned char *pagebuf[NPAGES];

void shim_after_read_once(const void *addr, size_t size)
{
	reads++;
	if (scribble_at && reads == scribble_at)
		memset(page, 0xff, PAGE_SIZE);
}

static struct page pgs[NPAGES];
static struct shim_mapping sm;
static struct vm_area_struct *vma;

static int tests_run, tests_failed;
static bool failed;	/* the current test */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Record a failed expectation; the test goes on to report them all. */
static bool expect(bool ok, int line, const char *func, const char *what)
{
	if (!ok) {
		printf("%s:%d:%s: expected %s\n", __FILE__, line, func, what);
		failed = true;
	}
	return ok;
}

#define EXPECT(cond) expect(cond, __LINE__, __func__, #cond)

/* A fresh vma mapping a zeroed file @isize long: page 0 cached, no other. */
static void setup(loff_t isize)
{
	int i;

	for (i = 0; i < NPAGES; i++)
		memset(pagebuf[i], 0, PAGE_SIZE);
	vma = shim_mapping_pages(&sm, pgs, NPAGES, isize);
	pgs[0].data = page;
	reads = 0;
	scribble_at = 0;
	shim_in_nmi = false;
}

/* Page @i of the file is now in the page cache (and up to date). */
static void cache(int i)
{
	pgs[i].data = pagebuf[i];
}

/* Write @len bytes at offset @off of the file, across pages. */
static void put(size_t off, const void *src, size_t len)
{
	while (len) {
		size_t in = off % PAGE_SIZE, n = PAGE_SIZE - in;

		if (n > len)
			n = len;
		memcpy(pagebuf[off / PAGE_SIZE] + in, src, n);
		off += n;
		src = (const unsigned char *)src + n;
		len -= n;
	}
}

static bool all_zero(const unsigned char *p, size_t len)
{
	while (len--)
		if (*p++)
			return false;
	return true;
}

/* Parse; check the invariants every call must keep; return the size. */
static int parse(int *ret)
{
	unsigned char id[BUILD_ID_SIZE_MAX];
	__u32 size = 0xdead;

	memset(id, 0xaa, sizeof(id));
	*ret = build_id_parse(vma, id, &size);
	assert(shim_kmap_depth == 0);
	assert(shim_refs_dropped(&sm));
	if (*ret) {
		assert(size == 0);
		assert(all_zero(id, sizeof(id)));
	} else {
		assert(size >= 1 && size <= BUILD_ID_SIZE_MAX);
		assert(all_zero(id + size, sizeof(id) - size));
	}
	return size;
}

/* Expect no id at all from the current page. */
static bool no_id(void)
{
	int ret;

	return parse(&ret) == 0 && ret < 0;
}

/* Expect exactly @len bytes of @want. */
static bool id_is(const unsigned char *want, int len)
{
	unsigned char id[BUILD_ID_SIZE_MAX];
	__u32 size;

	if (build_id_parse(vma, id, &size) || size != (__u32)len)
		return false;
	return !memcmp(id, want, len) && all_zero(id + len, sizeof(id) - len);
}

static unsigned char id20[21], id16[16], id8[8];

/* --- well-formed files ------------------------------------------------ */

static void test_sha1(void)
{
	setup(8192);
	elf_image64(page, id20, 20);
	EXPECT(id_is(id20, 20));
}

static void test_md5(void)
{
	setup(8192);
	elf_image64(page, id16, 16);
	EXPECT(id_is(id16, 16));
}

static void test_odd_size(void)
{
	setup(8192);
	elf_image64(page, id8, 8);
	EXPECT(id_is(id8, 8));
}

static void test_size_may_be_null(void)
{
	unsigned char id[BUILD_ID_SIZE_MAX];

	setup(8192);
	elf_image64(page, id20, 20);
	EXPECT(build_id_parse(vma, id, NULL) == 0);
	EXPECT(!memcmp(id, id20, 20));
}

/* B.12: Elf32 headers and notes, parsed by a 64-bit kernel. */
static void test_elf32(void)
{
	setup(8192);
	elf_image32(page, id20, 20);
	EXPECT(id_is(id20, 20));
	elf_image32(page, id16, 16);
	EXPECT(id_is(id16, 16));
}

/* B.10: other notes first, with names that need padding. */
static void test_note_not_first(void)
{
	struct elf64_phdr *note;
	size_t off = ELF_IMAGE_NOTE_OFF64;

	setup(8192);
	note = elf_image64(page, id20, 20);
	off += elf_image_note(page + off, 1, "GNU", 4, id8, 4);	 /* ABI tag */
	off += elf_image_note(page + off, 3, "Linux", 6, id8, 5);	 /* type 3, not GNU */
	off += elf_image_note(page + off, 3, "GNU", 4, id20, 20);
	note->p_filesz = off - ELF_IMAGE_NOTE_OFF64;
	EXPECT(id_is(id20, 20));
}

/* Two PT_NOTE segments, the id in the second. */
static void test_second_pt_note(void)
{
	struct elf64_hdr *eh = (struct elf64_hdr *)page;
	struct elf64_phdr *ph = (struct elf64_phdr *)(page + sizeof(*eh));

	setup(8192);
	elf_image64(page, id20, 20);
	memset(page + ELF_IMAGE_NOTE_OFF64, 0, 64);
	eh->e_phnum = 3;
	ph[1].p_offset = 512;	/* an ABI tag note only */
	ph[1].p_filesz = elf_image_note(page + 512, 1, "GNU", 4, id8, 4);
	ph[2].p_type = PT_NOTE;
	ph[2].p_offset = 1024;
	ph[2].p_filesz = elf_image_note(page + 1024, 3, "GNU", 4, id16, 16);
	EXPECT(id_is(id16, 16));
}

/* The test binary itself: readelf must agree with the parser. */
static void test_real_binary(void)
{
	unsigned char want[BUILD_ID_SIZE_MAX];
	char exe[4096], cmd[4200], hex[2 * BUILD_ID_SIZE_MAX + 2] = "";
	struct page *pages;
	struct stat st;
	ssize_t len;
	void *data;
	int n = 0, fd;
	FILE *f;

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (!EXPECT(len > 0))
		return;
	exe[len] = 0;
	snprintf(cmd, sizeof(cmd),
		 "readelf -n '%s' 2>/dev/null | sed -n 's/.*Build ID: //p'", exe);
	f = popen(cmd, "r");
	if (!f || fscanf(f, "%41s", hex) != 1) {
		printf("  (no readelf or no build id: nothing compared)\n");
		if (f)
			pclose(f);
		return;
	}
	pclose(f);
	while (n < BUILD_ID_SIZE_MAX && sscanf(hex + 2 * n, "%2hhx", &want[n]) == 1)
		n++;

	/* the whole file cached, as its pages are after the loader ran */
	fd = open(exe, O_RDONLY);
	if (!EXPECT(fd >= 0 && !fstat(fd, &st)))
		return;
	data = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	pages = calloc(DIV_ROUND_UP(st.st_size, PAGE_SIZE), sizeof(*pages));
	if (EXPECT(data != MAP_FAILED && pages)) {
		vma = shim_mapping(&sm, pages, data, st.st_size);
		EXPECT(n > 0 && id_is(want, n));
		EXPECT(shim_refs_dropped(&sm));
		munmap(data, st.st_size);
	}
	free(pages);
	setup(0);
}

/* --- bad inputs ------------------------------------------------------- */

/* B.1: anonymous, brk and stack mappings have no file. */
static void test_no_file(void)
{
	setup(8192);
	elf_image64(page, id20, 20);
	vma->vm_file = NULL;
	EXPECT(no_id());
}

/* B.2: page 0 not cached, or not up to date: no read-in, no id. */
static void test_not_cached(void)
{
	int ret;

	setup(8192);
	elf_image64(page, id20, 20);
	pgs[0].data = NULL;
	EXPECT(parse(&ret) == 0 && ret == -EFAULT);
	pgs[0].data = page;
	pgs[0].uptodate = false;
	EXPECT(parse(&ret) == 0 && ret == -EFAULT);
	EXPECT(pgs[0].refs == 0);	/* the reference was dropped */
}

/* B.3: magic, type and class. */
static void test_bad_ident(void)
{
	struct elf64_hdr *eh = (struct elf64_hdr *)page;

	setup(8192);
	elf_image64(page, id20, 20);
	eh->e_ident[EI_MAG3] = 'X';
	EXPECT(no_id());
	elf_image64(page, id20, 20);
	eh->e_type = ET_REL;
	EXPECT(no_id());
	eh->e_type = ET_CORE;
	EXPECT(no_id());
	elf_image64(page, id20, 20);
	eh->e_ident[EI_CLASS] = ELFCLASSNONE;
	EXPECT(no_id());
	eh->e_ident[EI_CLASS] = 3;
	EXPECT(no_id());
	/* a 64-bit image claiming to be 32-bit must not find garbage */
	eh->e_ident[EI_CLASS] = ELFCLASS32;
	EXPECT(no_id());
}

/* B.4: where the program headers are, and how many. */
static void test_bad_phdrs(void)
{
	struct elf64_hdr *eh = (struct elf64_hdr *)page;
	struct elf32_hdr *eh32 = (struct elf32_hdr *)page;
	int ret;
	static const uint64_t bad_phoff[] = {
		0, 8, 0x1000, 0x1000 - 8, 0xffffffffull, 0xfffffffffffffff8ull,
		0x8000000000000000ull,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad_phoff); i++) {
		setup(8192);
		elf_image64(page, id20, 20);
		eh->e_phoff = bad_phoff[i];
		EXPECT(no_id());
	}
	setup(8192);
	elf_image64(page, id20, 20);
	eh->e_phnum = 65535;
	EXPECT(no_id());
	/* a table of a page at most, and in the file */
	cache(1);
	eh->e_phnum = PAGE_SIZE / sizeof(struct elf64_phdr);
	EXPECT(id_is(id20, 20));
	eh->e_phnum++;
	EXPECT(no_id());
	eh->e_phnum--;
	sm.inode.i_size = sizeof(*eh) + eh->e_phnum * sizeof(struct elf64_phdr) - 1;
	EXPECT(no_id());
	sm.inode.i_size = 8192;
	/* no table, on a page not cached: nothing to read, so not -EFAULT */
	pgs[1].data = NULL;
	eh->e_phoff = PAGE_SIZE;
	eh->e_phnum = 0;
	EXPECT(parse(&ret) == 0 && ret == -EINVAL);
	eh->e_phoff = sizeof(*eh);
	eh->e_phnum = 2;
	eh->e_phentsize = 32;
	EXPECT(no_id());
	/* a huge e_phoff, with the page it names cached */
	eh->e_phentsize = sizeof(struct elf64_phdr);
	eh->e_phoff = 8192;
	EXPECT(no_id());
	eh->e_phoff = 8192 - sizeof(struct elf64_phdr);
	EXPECT(no_id());

	/* 32-bit: phoff + phnum * size wrapping 32 bits */
	setup(8192);
	elf_image32(page, id20, 20);
	eh32->e_phoff = 0xfffffff0;
	EXPECT(no_id());
	eh32->e_phoff = sizeof(*eh32);
	eh32->e_phnum = 65535;
	EXPECT(no_id());
}

/* B.5: the note segment outside the page or the file, or wrapping. */
static void test_bad_note_segment(void)
{
	struct elf64_phdr *note;
	struct elf32_phdr *note32;

	setup(8192);
	note = elf_image64(page, id20, 20);
	note->p_offset = 8192;		/* at the end of the file */
	EXPECT(no_id());
	note->p_offset = ~0ull - 3;
	EXPECT(no_id());
	note->p_offset = ELF_IMAGE_NOTE_OFF64;
	note->p_filesz = ~0ull - 8;	/* offset + size wraps */
	EXPECT(no_id());
	note->p_filesz = 8192;		/* runs past the file */
	EXPECT(no_id());
	note->p_filesz = 8192 - ELF_IMAGE_NOTE_OFF64;	/* up to its end: fine */
	EXPECT(id_is(id20, 20));
	note->p_offset = ELF_IMAGE_NOTE_OFF64 + 1;	/* misaligned */
	note->p_filesz = 36;
	EXPECT(no_id());

	setup(8192);
	note32 = elf_image32(page, id20, 20);
	note32->p_filesz = 0xfffffffc;
	EXPECT(no_id());
	note32->p_offset = 0xfffffff0;
	note32->p_filesz = 0x20;
	EXPECT(no_id());
}

/* B.6: note sizes near 0xffffffff; notes past their segment; termination. */
static void test_bad_note_sizes(void)
{
	static const uint32_t huge[] = { 0xffffffff, 0xfffffffe, 0xfffffffd,
					 0xfffffffc, 0x80000000, 4097 };
	struct elf32_note *n = (struct elf32_note *)(page + ELF_IMAGE_NOTE_OFF64);
	struct elf64_phdr *note;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(huge); i++) {
		setup(8192);
		elf_image64(page, id20, 20);
		n->n_namesz = huge[i];
		EXPECT(no_id());
		elf_image64(page, id20, 20);
		n->n_descsz = huge[i];
		EXPECT(no_id());
	}
	/* the note is longer than its segment */
	setup(8192);
	note = elf_image64(page, id20, 20);
	note->p_filesz -= 8;
	EXPECT(no_id());
	/* a segment of empty notes ends */
	setup(8192);
	note = elf_image64(page, id20, 20);
	memset(page + ELF_IMAGE_NOTE_OFF64, 0, PAGE_SIZE - ELF_IMAGE_NOTE_OFF64);
	note->p_filesz = PAGE_SIZE - ELF_IMAGE_NOTE_OFF64;
	EXPECT(no_id());
}

/* B.7: descriptor size 0 or above 20; owner other than "GNU\0". */
static void test_bad_note_content(void)
{
	struct elf32_note *n = (struct elf32_note *)(page + ELF_IMAGE_NOTE_OFF64);
	char *name = (char *)(n + 1);

	setup(8192);
	elf_image64(page, id20, 0);
	EXPECT(no_id());
	setup(8192);
	elf_image64(page, id20, 21);
	EXPECT(no_id());

	setup(8192);
	elf_image64(page, id20, 20);
	memcpy(name, "GNX", 4);
	EXPECT(no_id());
	memcpy(name, "GNU", 4);
	n->n_namesz = 3;	/* "GNU" without its NUL */
	EXPECT(no_id());
	n->n_namesz = 4;
	name[3] = 'X';		/* "GNUX": the NUL is part of the name */
	EXPECT(no_id());
	name[3] = 0;
	n->n_type = 4;
	EXPECT(no_id());
	n->n_type = 3;
	EXPECT(id_is(id20, 20));
}

/*
 * B.8: a note, a note header or a program header that crosses from page 0
 * into page 1 is read when both pages are cached and up to date, and not
 * otherwise.
 */
static void test_note_crosses_page(void)
{
	struct elf64_hdr *eh = (struct elf64_hdr *)page;
	struct elf64_phdr *note;
	unsigned char buf[64];
	size_t len, at[] = { PAGE_SIZE - 16, PAGE_SIZE - 8, PAGE_SIZE - 4 };
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(at); i++) {
		setup(8192);
		note = elf_image64(page, id20, 20);
		len = elf_image_note(buf, 3, "GNU", 4, id20, 20);
		put(at[i], buf, len);
		note->p_offset = at[i];
		note->p_filesz = len;
		EXPECT(parse(&ret) == 0 && ret == -EFAULT);
		cache(1);
		EXPECT(id_is(id20, 20));
		pgs[1].uptodate = false;
		EXPECT(parse(&ret) == 0 && ret == -EFAULT);
		pgs[1].uptodate = true;
		note->p_filesz = len - 4;	/* the note leaves the segment */
		EXPECT(no_id());
	}

	/* the PT_NOTE program header itself straddles the pages */
	setup(8192);
	note = elf_image64(page, id20, 20);
	memcpy(buf, note, sizeof(*note));
	put(PAGE_SIZE - 24, buf, sizeof(*note));
	eh->e_phoff = PAGE_SIZE - 24 - sizeof(*note);
	memcpy(page + eh->e_phoff, page + sizeof(*eh), sizeof(*note));
	EXPECT(parse(&ret) == 0 && ret == -EFAULT);
	cache(1);
	EXPECT(id_is(id20, 20));
}

/*
 * Notes and program headers on later pages (lld puts PT_NOTE past page 0
 * in some libraries): found when their pages are cached, never read in.
 */
static void test_past_page0(void)
{
	struct elf64_hdr *eh = (struct elf64_hdr *)page;
	struct elf64_phdr *note;
	unsigned char buf[64];
	size_t len, off = 5 * PAGE_SIZE + 0x40;
	int ret;

	/* the note on page 5 */
	setup(6 * PAGE_SIZE);
	note = elf_image64(page, id20, 20);
	len = elf_image_note(buf, 3, "GNU", 4, id20, 20);
	put(off, buf, len);
	memset(page + ELF_IMAGE_NOTE_OFF64, 0, len);
	note->p_offset = off;
	EXPECT(parse(&ret) == 0 && ret == -EFAULT);
	cache(5);
	EXPECT(id_is(id20, 20));
	pgs[5].uptodate = false;
	EXPECT(parse(&ret) == 0 && ret == -EFAULT);
	pgs[5].uptodate = true;
	sm.inode.i_size = off + len - 1;	/* the file ends inside it */
	EXPECT(no_id());

	/* the program headers on page 3, the note on page 5 */
	sm.inode.i_size = 6 * PAGE_SIZE;
	put(3 * PAGE_SIZE, page + eh->e_phoff, 2 * sizeof(*note));
	memset(page + eh->e_phoff, 0, 2 * sizeof(*note));
	eh->e_phoff = 3 * PAGE_SIZE;
	EXPECT(parse(&ret) == 0 && ret == -EFAULT);
	cache(3);
	EXPECT(id_is(id20, 20));
	pgs[5].data = NULL;
	EXPECT(parse(&ret) == 0 && ret == -EFAULT);

	/* 32-bit: the same, note on page 2 */
	setup(3 * PAGE_SIZE);
	elf_image32(page, id20, 20)->p_offset = 2 * PAGE_SIZE;
	put(2 * PAGE_SIZE, page + ELF_IMAGE_NOTE_OFF32, len);
	memset(page + ELF_IMAGE_NOTE_OFF32, 0, len);
	EXPECT(no_id());
	cache(2);
	EXPECT(id_is(id20, 20));
}

/*
 * In NMI context (the bpf stack map) only page 0 is read: a note past it,
 * or a note or program header crossing into page 1, gives no id there,
 * and the id elsewhere; a note on page 0 is found in both.
 */
static void test_nmi_page0_only(void)
{
	static const enum elf_damage layouts[] = {
		ELF_NOTE_PAST_PAGE0, ELF_NOTE_CROSSES_PAGE, ELF_PHDRS_CROSS_PAGE,
	};
	unsigned char img[2 * PAGE_SIZE];
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(layouts); i++) {
		struct elf_spec spec = { ELFCLASS64, 20, layouts[i] };

		setup(2 * PAGE_SIZE);
		cache(1);
		EXPECT(elf_image(img, sizeof(img), &spec, id20) == sizeof(img));
		put(0, img, sizeof(img));
		shim_in_nmi = true;
		EXPECT(parse(&ret) == 0 && ret == -EFAULT);
		shim_in_nmi = false;
		EXPECT(id_is(id20, 20));
	}

	setup(PAGE_SIZE);
	elf_image64(page, id20, 20);
	shim_in_nmi = true;
	EXPECT(id_is(id20, 20));
}

/*
 * hugetlbfs indexes its page cache by huge page: here of 4 pages, 2 of
 * them.  The note on page 1 is in huge page 0; page 1 of a decoy image
 * with another id starts huge page 1, where a lookup of page 1 by its
 * PAGE_SIZE index would land.  The file's id is found, never the decoy's.
 */
static void test_hugetlbfs(void)
{
	static const enum elf_damage layouts[] = {
		ELF_NOTE_PAST_PAGE0, ELF_NOTE_CROSSES_PAGE,
	};
	unsigned char img[2 * PAGE_SIZE], decoy[2 * PAGE_SIZE];
	unsigned char decoy_id[20];
	struct hstate h;
	unsigned int i;
	int n;

	elf_image_id(decoy_id, sizeof(decoy_id), 7);
	for (i = 0; i < ARRAY_SIZE(layouts); i++) {
		struct elf_spec spec = { ELFCLASS64, 20, layouts[i] };

		setup(8 * PAGE_SIZE);
		for (n = 1; n < 8; n++)
			cache(n);
		shim_mapping_huge(vma, &h, 2);
		EXPECT(elf_image(img, sizeof(img), &spec, id20) == sizeof(img));
		EXPECT(elf_image(decoy, sizeof(decoy), &spec, decoy_id) == sizeof(decoy));
		put(0, img, sizeof(img));
		put(4 * PAGE_SIZE, decoy + PAGE_SIZE, PAGE_SIZE);
		EXPECT(id_is(id20, 20));
		/* a huge page is cached whole, or not at all */
		pgs[0].data = NULL;
		EXPECT(no_id());
	}
}

/*
 * However many notes a file claims, a call looks at BUILD_ID_NOTES_MAX
 * bytes of them past page 0 at most: an id behind that many bytes of
 * other notes, all cached, is not found.  The notes in page 0 are not
 * charged: 5.10 read them all, and an id there is always found.
 */
static void test_notes_budget(void)
{
	struct elf64_phdr *note;
	unsigned char buf[64];
	size_t len, off, i;

	for (i = 0; i < 2; i++) {
		setup(NPAGES * PAGE_SIZE);
		note = elf_image64(page, id20, 20);
		for (off = 1; off < NPAGES; off++)
			cache(off);
		/* empty notes (12 bytes each), then the 36-byte id note: */
		/* it ends within the page 0 part and the budget, or past it */
		off = ELF_IMAGE_NOTE_OFF64 +
		      12 * ((PAGE_SIZE + BUILD_ID_NOTES_MAX - 36 - ELF_IMAGE_NOTE_OFF64) / 12 + i);
		len = elf_image_note(buf, 3, "GNU", 4, id20, 20);
		put(off, buf, len);
		note->p_filesz = off + len - ELF_IMAGE_NOTE_OFF64;
		memset(page + ELF_IMAGE_NOTE_OFF64, 0, 36);
		EXPECT(i ? no_id() : id_is(id20, 20));
	}

	/*
	 * A first PT_NOTE of BUILD_ID_NOTES_MAX bytes or more past page 0
	 * does not hide the id in page 0, whatever it used of the budget.
	 */
	for (i = 0; i < 2; i++) {
		setup(NPAGES * PAGE_SIZE);
		note = elf_image64(page, id20, 20);
		for (off = 1; off < NPAGES; off++)
			cache(off);
		note[-1] = (struct elf64_phdr){ .p_type = PT_NOTE, .p_offset = PAGE_SIZE,
						.p_filesz = BUILD_ID_NOTES_MAX + i * PAGE_SIZE };
		EXPECT(id_is(id20, 20));
	}

	/* past page 0, the budget is shared: a first PT_NOTE uses it up */
	for (i = 0; i < 2; i++) {
		setup(NPAGES * PAGE_SIZE);
		note = elf_image64(page, id20, 20);
		for (off = 1; off < NPAGES; off++)
			cache(off);
		len = elf_image_note(buf, 3, "GNU", 4, id20, 20);
		put(6 * PAGE_SIZE, buf, len);
		memset(page + ELF_IMAGE_NOTE_OFF64, 0, 36);
		note->p_offset = 6 * PAGE_SIZE;
		note->p_filesz = len;
		note[-1] = (struct elf64_phdr){ .p_type = PT_NOTE, .p_offset = PAGE_SIZE,
						.p_filesz = BUILD_ID_NOTES_MAX - len + i };
		EXPECT(i ? no_id() : id_is(id20, 20));
	}
}

/*
 * The size is the page cache's owner's: a block device node's own inode
 * has i_size 0, the block device's the device's size.
 */
static void test_size_of_mapping(void)
{
	struct inode node = { .i_size = 0 };

	setup(8192);
	elf_image64(page, id20, 20);
	sm.file.f_inode = &node;
	EXPECT(id_is(id20, 20));
	sm.file.f_inode = &sm.inode;
	sm.inode.i_size = 0;
	EXPECT(no_id());
}

/* B.9: the page changes under the parser after any one of its reads. */
static void test_changing_page(void)
{
	int total, i, ret;

	setup(8192);
	elf_image64(page, id20, 20);
	EXPECT(id_is(id20, 20));
	total = reads;
	EXPECT(total > 0);
	for (i = 1; i <= total; i++) {
		setup(8192);
		elf_image64(page, id20, 20);
		scribble_at = i;
		parse(&ret);	/* must neither crash nor read out of bounds */
	}
	/* each header field is read once: a clean parse has a fixed count */
	setup(8192);
	elf_image64(page, id20, 20);
	EXPECT(id_is(id20, 20) && reads == total);
}

/* B.10: the descriptor sits after the name padded to 4 bytes. */
static void test_desc_offset(void)
{
	struct elf64_phdr *note;
	size_t off = ELF_IMAGE_NOTE_OFF64, len;
	unsigned char other[20];

	elf_image_id(other, 20, 9);
	setup(8192);
	note = elf_image64(page, id20, 20);
	/* an id note with a 5-byte name: must be skipped by its padded size */
	len = elf_image_note(page + off, 3, "GNUXX", 5, other, 20);
	len += elf_image_note(page + off + len, 3, "GNU", 4, id20, 20);
	note->p_filesz = len;
	EXPECT(id_is(id20, 20));
}

/* B.11: files shorter than a header, or than the notes they claim. */
static void test_truncated(void)
{
	static const loff_t sizes[] = { 0, 1, 4, 16, 63, 64, 100, ELF_IMAGE_NOTE_OFF64 + 20 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		setup(sizes[i]);
		elf_image64(page, id20, 20);
		EXPECT(no_id());
	}
	setup(ELF_IMAGE_NOTE_OFF64 + 36);	/* exactly up to the note's end */
	elf_image64(page, id20, 20);
	EXPECT(id_is(id20, 20));

	/* sizes a torn read could give: clamped, never a bad page index */
	setup(-1);
	elf_image64(page, id20, 20);
	EXPECT(no_id());
	setup(LLONG_MAX);
	elf_image64(page, id20, 20);
	EXPECT(id_is(id20, 20));
	elf_image64(page, id20, 20)->p_offset = ((uint64_t)LLONG_MAX & ~0xfffull) - 4096;
	EXPECT(no_id());
}

struct test {
	const char *name;
	void (*fn)(void);
};

#define T(x) { #x, x }
static const struct test tests[] = {
	T(test_sha1), T(test_md5), T(test_odd_size), T(test_size_may_be_null),
	T(test_elf32), T(test_note_not_first), T(test_second_pt_note),
	T(test_real_binary),
	T(test_no_file), T(test_not_cached), T(test_bad_ident),
	T(test_bad_phdrs), T(test_bad_note_segment), T(test_bad_note_sizes),
	T(test_bad_note_content), T(test_note_crosses_page),
	T(test_past_page0), T(test_nmi_page0_only), T(test_hugetlbfs),
	T(test_notes_budget),
	T(test_size_of_mapping),
	T(test_changing_page), T(test_desc_offset), T(test_truncated),
};

/*
 * Seed inputs for buildid_fuzz: a scribble byte, a byte of uncached pages
 * (none), then the file's first @len bytes.
 */
static int write_seed(const char *dir, const char *name, size_t len)
{
	char path[512];
	size_t off, n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fputc(0, f) == EOF || fputc(0, f) == EOF) {
		perror(path);
		return 1;
	}
	for (off = 0; off < len; off += n) {
		n = len - off < PAGE_SIZE ? len - off : PAGE_SIZE;
		if (fwrite(pagebuf[off / PAGE_SIZE], 1, n, f) != n) {
			perror(path);
			fclose(f);
			return 1;
		}
	}
	return fclose(f) != 0;
}

static int write_seeds(const char *dir)
{
	int err = 0;

	setup(8192);
	elf_image64(page, id20, 20);
	err |= write_seed(dir, "elf64-sha1", 256);
	elf_image64(page, id16, 16);
	err |= write_seed(dir, "elf64-md5", 256);
	elf_image32(page, id20, 20);
	err |= write_seed(dir, "elf32-sha1", 256);
	test_note_not_first();
	err |= write_seed(dir, "elf64-notes", 512);
	test_second_pt_note();
	err |= write_seed(dir, "elf64-two-pt-note", 1100);
	test_note_crosses_page();	/* ends with the phdr across pages */
	err |= write_seed(dir, "elf64-phdr-crosses-page", 2 * PAGE_SIZE);
	test_past_page0();		/* ends with a 32-bit note on page 2 */
	err |= write_seed(dir, "elf32-note-page2", 3 * PAGE_SIZE);
	return err;
}

int main(int argc, char **argv)
{
	unsigned int i;

	for (i = 0; i < NPAGES; i++) {
		pagebuf[i] = malloc(PAGE_SIZE);
		assert(pagebuf[i]);
	}
	page = pagebuf[0];
	elf_image_id(id20, 21, 0);
	elf_image_id(id16, 16, 1);
	elf_image_id(id8, 8, 2);
	if (argc == 3 && !strcmp(argv[1], "--seeds"))
		return write_seeds(argv[2]);

	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		failed = false;
		tests[i].fn();
		tests_run++;
		if (failed)
			tests_failed++;
		printf("%s: %s\n", failed ? "FAIL" : "PASS", tests[i].name);
	}
	for (i = 0; i < NPAGES; i++)
		free(pagebuf[i]);
	printf("%d tests run, %d passed, %d failed\n", tests_run,
	       tests_run - tests_failed, tests_failed);
	return tests_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
