// SPDX-License-Identifier: GPL-2.0
/*
 * Read the GNU build id of a file mapping from the page cache.
 *
 * Callers hold mmap_lock (perf's mmap hook) or run in NMI context (bpf
 * stack maps): only pages of the file that are already in the page cache
 * and up to date are looked at, one mapped at a time.  Nothing here
 * sleeps, faults or starts I/O.  The ELF header, the program headers and
 * the notes may be on any such page, and a header or note may cross from
 * one page into the next.
 *
 * The pages may change under us (a concurrent write, a shared writable
 * mapping), so every header field is read once into a local, and only
 * the local is checked and used.
 */
#include <linux/buildid.h>
#include <linux/elf.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/pagemap.h>
#include <linux/string.h>

#define NT_GNU_BUILD_ID	3

/*
 * Work is bounded whatever the file claims: program header tables of at
 * most a page, and at most this many bytes of PT_NOTE segments per call,
 * all segments together (a segment is charged in full, or up to what is
 * left).  Real files have a few hundred bytes of notes.
 */
#define BUILD_ID_NOTES_MAX	(16 * 1024)

/*
 * No page has this index: every read is at least a byte long and ends
 * within the size, itself clamped to MAX_LFS_FILESIZE.
 */
#define NO_PAGE		(~(pgoff_t)0)

/* A window onto the cached pages of a file, one page mapped at a time. */
struct buildid_reader {
	struct address_space *mapping;
	u64 limit;		/* the file's size: later bytes are not the file's */
	struct page *page;	/* mapped at @kaddr, or NULL */
	pgoff_t index;		/* @page's index in the file; NO_PAGE if none */
	void *kaddr;
	bool uncached;		/* a read needed a page not cached, or not up to date */
	/* a field that crosses into the next page, copied (u64: aligned) */
	u64 buf[sizeof(struct elf64_hdr) / sizeof(u64)];
};

static void reader_unmap(struct buildid_reader *r)
{
	if (!r->page)
		return;
	kunmap_atomic(r->kaddr);
	put_page(r->page);
	r->page = NULL;
	r->index = NO_PAGE;
}

/* Map page @index of the file if it is cached and up to date. */
static bool reader_map(struct buildid_reader *r, pgoff_t index)
{
	struct page *page;

	if (r->index == index)
		return true;
	reader_unmap(r);

	/* the page cache only: no read-in, no fault */
	page = find_get_page(r->mapping, index);
	if (page && !PageUptodate(page)) {
		put_page(page);
		page = NULL;
	}
	if (!page) {
		r->uncached = true;
		return false;
	}
	r->page = page;
	r->index = index;
	r->kaddr = kmap_atomic(page);
	return true;
}

/* reader_read() when the bytes are not all in the page mapped now */
static noinline const void *reader_read_slow(struct buildid_reader *r,
					     u64 off, u32 len)
{
	u32 in_page = off & (PAGE_SIZE - 1);
	u32 first;

	if (!reader_map(r, off >> PAGE_SHIFT))
		return NULL;
	if (len <= PAGE_SIZE - in_page)
		return r->kaddr + in_page;
	if (len > sizeof(r->buf))
		return NULL;

	/* crosses into the next page: copy both parts */
	first = PAGE_SIZE - in_page;
	memcpy(r->buf, r->kaddr + in_page, first);
	if (!reader_map(r, (off >> PAGE_SHIFT) + 1))
		return NULL;
	memcpy((unsigned char *)r->buf + first, r->kaddr, len - first);
	return r->buf;
}

/*
 * Point to the @len bytes (at least 1) at offset @off of the file, or
 * return NULL when they are not all in the file and in cached pages, or
 * cross a page boundary and are more than sizeof(r->buf).  The bytes stay valid until the
 * next call; fields must still be read once each (READ_ONCE), as a page
 * may change under us.
 */
static __always_inline const void *reader_read(struct buildid_reader *r,
					       u64 off, u32 len)
{
	if (off > r->limit || len > r->limit - off)
		return NULL;
	/* the common case: in the page mapped now */
	if (likely(r->index == off >> PAGE_SHIFT &&
		   len <= PAGE_SIZE - (off & (PAGE_SIZE - 1))))
		return r->kaddr + (off & (PAGE_SIZE - 1));
	return reader_read_slow(r, off, len);
}

/*
 * Look for a GNU build-id note in the notes at [off, off + len) of the
 * file, a range the caller has checked lies within it.  At most *@budget
 * bytes are looked at, and *@budget is reduced by what the range used.
 */
static __always_inline int
parse_build_id(struct buildid_reader *r, u64 off, u64 len, u32 *budget,
	       unsigned char *build_id, __u32 *size)
{
	u64 end;

	len = min_t(u64, len, *budget);
	*budget -= len;
	end = off + len;

	while (end - off >= sizeof(struct elf32_note)) {
		const struct elf32_note *nhdr;
		const void *name, *desc;
		u32 namesz, descsz, type;
		u64 desc_off;

		nhdr = reader_read(r, off, sizeof(*nhdr));
		if (!nhdr)
			return -EFAULT;
		/* read each field once: the page may be changing */
		namesz = READ_ONCE(nhdr->n_namesz);
		descsz = READ_ONCE(nhdr->n_descsz);
		type = READ_ONCE(nhdr->n_type);

		/*
		 * In u64: off is below 2^63 (a file offset), the sizes below
		 * 2^32, so nothing here wraps.
		 */
		desc_off = off + sizeof(*nhdr) + ALIGN((u64)namesz, 4);
		if (desc_off > end || descsz > end - desc_off)
			return -EINVAL;

		if (type == NT_GNU_BUILD_ID && namesz == sizeof("GNU") &&
		    descsz > 0 && descsz <= BUILD_ID_SIZE_MAX) {
			name = reader_read(r, off + sizeof(*nhdr), namesz);
			if (!name)
				return -EFAULT;
			if (!memcmp(name, "GNU", sizeof("GNU"))) {
				desc = reader_read(r, desc_off, descsz);
				if (!desc)
					return -EFAULT;
				/* the rest of build_id was zeroed on entry */
				memcpy(build_id, desc, descsz);
				if (size)
					*size = descsz;
				return 0;
			}
		}

		/* every note is at least a header long: the loop ends */
		off = desc_off + ALIGN((u64)descsz, 4);
		if (off > end)
			break;
	}
	return -EINVAL;
}

/*
 * Is [off, off + len) within the file?  Both come straight from the file,
 * so the sum may wrap.
 */
static bool in_file(const struct buildid_reader *r, u64 off, u64 len)
{
	return off <= r->limit && len <= r->limit - off;
}

static int get_build_id_32(struct buildid_reader *r,
			   const struct elf32_hdr *ehdr,
			   unsigned char *build_id, __u32 *size)
{
	const struct elf32_phdr *table;
	u32 budget = BUILD_ID_NOTES_MAX;
	u32 phoff, phnum, i;

	phoff = READ_ONCE(ehdr->e_phoff);
	phnum = READ_ONCE(ehdr->e_phnum);
	if (READ_ONCE(ehdr->e_phentsize) != sizeof(struct elf32_phdr) ||
	    phoff < sizeof(*ehdr) || !IS_ALIGNED(phoff, 4))
		return -EINVAL;
	/* a table of at most a page, and all of it in the file */
	if (!phnum || phnum > PAGE_SIZE / sizeof(struct elf32_phdr) ||
	    !in_file(r, phoff, phnum * sizeof(struct elf32_phdr)))
		return -EINVAL;

	/* the whole table at once when it is in one page, as it nearly always is */
	table = reader_read(r, phoff, phnum * sizeof(*table));
	for (i = 0; i < phnum; i++) {
		const struct elf32_phdr *phdr;
		u32 offset, filesz;

		if (likely(table)) {
			phdr = &table[i];
		} else {
			phdr = reader_read(r, (u64)phoff + i * sizeof(*phdr),
					   sizeof(*phdr));
			if (!phdr)
				return -EFAULT;
		}
		if (READ_ONCE(phdr->p_type) != PT_NOTE)
			continue;
		offset = READ_ONCE(phdr->p_offset);
		filesz = READ_ONCE(phdr->p_filesz);
		/* notes are 4-byte aligned; and the segment must be in the file */
		if (!IS_ALIGNED(offset, 4) || !in_file(r, offset, filesz))
			continue;
		if (!parse_build_id(r, offset, filesz, &budget, build_id, size))
			return 0;
		/* the notes may have moved the window off the table's page */
		if (i + 1 < phnum)
			table = reader_read(r, phoff, phnum * sizeof(*table));
	}
	return -EINVAL;
}

static int get_build_id_64(struct buildid_reader *r,
			   const struct elf64_hdr *ehdr,
			   unsigned char *build_id, __u32 *size)
{
	const struct elf64_phdr *table;
	u32 budget = BUILD_ID_NOTES_MAX;
	u64 phoff;
	u32 phnum, i;

	phoff = READ_ONCE(ehdr->e_phoff);
	phnum = READ_ONCE(ehdr->e_phnum);
	if (READ_ONCE(ehdr->e_phentsize) != sizeof(struct elf64_phdr) ||
	    phoff < sizeof(*ehdr) || !IS_ALIGNED(phoff, 8))
		return -EINVAL;
	/* a table of at most a page, and all of it in the file */
	if (!phnum || phnum > PAGE_SIZE / sizeof(struct elf64_phdr) ||
	    !in_file(r, phoff, phnum * sizeof(struct elf64_phdr)))
		return -EINVAL;

	/* the whole table at once when it is in one page, as it nearly always is */
	table = reader_read(r, phoff, phnum * sizeof(*table));
	for (i = 0; i < phnum; i++) {
		const struct elf64_phdr *phdr;
		u64 offset, filesz;

		if (likely(table)) {
			phdr = &table[i];
		} else {
			phdr = reader_read(r, (u64)phoff + i * sizeof(*phdr),
					   sizeof(*phdr));
			if (!phdr)
				return -EFAULT;
		}
		if (READ_ONCE(phdr->p_type) != PT_NOTE)
			continue;
		offset = READ_ONCE(phdr->p_offset);
		filesz = READ_ONCE(phdr->p_filesz);
		/* notes are 4-byte aligned; and the segment must be in the file */
		if (!IS_ALIGNED(offset, 4) || !in_file(r, offset, filesz))
			continue;
		if (!parse_build_id(r, offset, filesz, &budget, build_id, size))
			return 0;
		/* the notes may have moved the window off the table's page */
		if (i + 1 < phnum)
			table = reader_read(r, phoff, phnum * sizeof(*table));
	}
	return -EINVAL;
}

static int get_build_id(struct buildid_reader *r, unsigned char *build_id,
			__u32 *size)
{
	const unsigned char *ident;
	u16 type;
	u8 class;

	/*
	 * The larger of the two ELF headers: an Elf32 file shorter than that
	 * has no room for a program header and a note anyway.
	 */
	ident = reader_read(r, 0, sizeof(struct elf64_hdr));
	if (!ident || memcmp(ident, ELFMAG, SELFMAG))
		return -EINVAL;
	/* e_type sits at the same offset in both classes */
	type = READ_ONCE(((const struct elf32_hdr *)ident)->e_type);
	class = READ_ONCE(ident[EI_CLASS]);
	if (type != ET_EXEC && type != ET_DYN)
		return -EINVAL;

	/* the header stays mapped until the next read: its fields come first */
	switch (class) {
	case ELFCLASS32:
		return get_build_id_32(r, (const void *)ident, build_id, size);
	case ELFCLASS64:
		return get_build_id_64(r, (const void *)ident, build_id, size);
	default:
		return -EINVAL;
	}
}

/**
 * build_id_parse - read the GNU build id of the file a vma maps
 * @vma: the mapping
 * @build_id: output, BUILD_ID_SIZE_MAX bytes; the bytes past the id are zeroed
 * @size: output, the id's size in bytes; may be NULL
 *
 * Only pages of the file that are already in the page cache and up to
 * date are read: this never sleeps, faults or does I/O.
 *
 * Return: 0 on success.  A negative errno when no id was found: -EFAULT
 * if a page it read from was not cached or not up to date, -EINVAL
 * otherwise (no file, not ELF, no note, malformed); then @build_id is all
 * zero and *@size is 0.
 */
int build_id_parse(struct vm_area_struct *vma, unsigned char *build_id,
		   __u32 *size)
{
	struct file *file = vma->vm_file;
	struct buildid_reader r;
	loff_t isize;
	int ret;

	if (size)
		*size = 0;
	memset(build_id, 0, BUILD_ID_SIZE_MAX);
	if (!file)
		return -EINVAL;

	/*
	 * Bytes past EOF are zero in the last page, but are not the file's.
	 * Not i_size_read(): on 32-bit SMP it is a seqcount loop, which never
	 * ends when the bpf stack map gets here from NMI in the middle of an
	 * i_size_write() on this cpu.  A torn read only gives a wrong limit:
	 * every read is still of cached pages, and bounded.  The clamp keeps
	 * every page index below NO_PAGE, and within pgoff_t.
	 */
	isize = READ_ONCE(file_inode(file)->i_size);
	r.mapping = file->f_mapping;
	r.limit = clamp_t(loff_t, isize, 0, MAX_LFS_FILESIZE);
	r.kaddr = NULL;
	r.page = NULL;
	r.index = NO_PAGE;
	r.uncached = false;

	/* page 0 first: it holds the ELF header, and nearly always the rest */
	ret = reader_map(&r, 0) ? get_build_id(&r, build_id, size) : -EFAULT;
	reader_unmap(&r);
	if (ret) {
		memset(build_id, 0, BUILD_ID_SIZE_MAX);
		if (size)
			*size = 0;
		if (r.uncached)
			ret = -EFAULT;
	}
	return ret;
}
