// SPDX-License-Identifier: GPL-2.0
/*
 * Read the GNU build id of a file mapping from the page cache.
 *
 * Callers hold mmap_lock (perf's mmap hook) or run in NMI context (bpf
 * stack maps): only the first page of the file is looked at, and only if
 * it is already in the page cache and up to date.  Nothing here sleeps,
 * faults or starts I/O.
 *
 * The page may change under us (a concurrent write, a shared writable
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
 * Look for a GNU build-id note in the notes at [off, off + len) of @data.
 * The caller has checked that the range lies within the valid bytes of
 * @data.
 */
static int parse_build_id(const void *data, u32 off, u32 len,
			  unsigned char *build_id, __u32 *size)
{
	u32 note_end;

	if (check_add_overflow(off, len, &note_end))
		return -EOVERFLOW;

	while (note_end - off >= sizeof(struct elf32_note)) {
		const struct elf32_note *nhdr = data + off;
		/* read each field once: the page may be changing */
		u32 namesz = READ_ONCE(nhdr->n_namesz);
		u32 descsz = READ_ONCE(nhdr->n_descsz);
		u32 type = READ_ONCE(nhdr->n_type);
		u32 name_off, desc_off, desc_end, next;

		/* both sizes must fit the segment; this also keeps ALIGN() from wrapping */
		if (namesz > note_end || descsz > note_end)
			return -EINVAL;

		name_off = off + sizeof(struct elf32_note);
		if (check_add_overflow(name_off, ALIGN(namesz, 4), &desc_off) ||
		    check_add_overflow(desc_off, descsz, &desc_end) ||
		    check_add_overflow(desc_off, ALIGN(descsz, 4), &next))
			return -EOVERFLOW;
		if (desc_end > note_end)
			return -EINVAL;

		if (type == NT_GNU_BUILD_ID &&
		    namesz == sizeof("GNU") &&
		    !memcmp(data + name_off, "GNU", sizeof("GNU")) &&
		    descsz > 0 && descsz <= BUILD_ID_SIZE_MAX) {
			memcpy(build_id, data + desc_off, descsz);
			memset(build_id + descsz, 0, BUILD_ID_SIZE_MAX - descsz);
			if (size)
				*size = descsz;
			return 0;
		}

		/* next > off: every note is at least a header long */
		off = next;
		if (off > note_end)
			break;
	}
	return -EINVAL;
}

static int get_build_id_32(const void *data, u32 limit,
			   unsigned char *build_id, __u32 *size)
{
	const struct elf32_hdr *ehdr = data;
	u32 phoff = READ_ONCE(ehdr->e_phoff);
	u32 phnum = READ_ONCE(ehdr->e_phnum);
	u32 i;

	if (limit < sizeof(*ehdr) || phoff < sizeof(*ehdr) || phoff >= limit ||
	    !IS_ALIGNED(phoff, 4) ||
	    READ_ONCE(ehdr->e_phentsize) != sizeof(struct elf32_phdr))
		return -EINVAL;
	/* the whole table must be in the page: this also bounds the loop */
	if (phnum > (limit - phoff) / sizeof(struct elf32_phdr))
		return -EINVAL;

	for (i = 0; i < phnum; i++) {
		const struct elf32_phdr *phdr = data + phoff + i * sizeof(*phdr);
		u32 offset, filesz;

		if (READ_ONCE(phdr->p_type) != PT_NOTE)
			continue;
		offset = READ_ONCE(phdr->p_offset);
		filesz = READ_ONCE(phdr->p_filesz);
		/* notes are 4-byte aligned; and the segment must be in the page */
		if (!IS_ALIGNED(offset, 4) || offset >= limit ||
		    filesz > limit - offset)
			continue;
		if (!parse_build_id(data, offset, filesz, build_id, size))
			return 0;
	}
	return -EINVAL;
}

static int get_build_id_64(const void *data, u32 limit,
			   unsigned char *build_id, __u32 *size)
{
	const struct elf64_hdr *ehdr = data;
	u64 phoff = READ_ONCE(ehdr->e_phoff);
	u32 phnum = READ_ONCE(ehdr->e_phnum);
	u32 i;

	if (limit < sizeof(*ehdr) || phoff < sizeof(*ehdr) || phoff >= limit ||
	    !IS_ALIGNED(phoff, 8) ||
	    READ_ONCE(ehdr->e_phentsize) != sizeof(struct elf64_phdr))
		return -EINVAL;
	/* the whole table must be in the page: this also bounds the loop */
	if (phnum > (limit - phoff) / sizeof(struct elf64_phdr))
		return -EINVAL;

	for (i = 0; i < phnum; i++) {
		const struct elf64_phdr *phdr = data + phoff + i * sizeof(*phdr);
		u64 offset, filesz;

		if (READ_ONCE(phdr->p_type) != PT_NOTE)
			continue;
		offset = READ_ONCE(phdr->p_offset);
		filesz = READ_ONCE(phdr->p_filesz);
		/* notes are 4-byte aligned; and the segment must be in the page */
		if (!IS_ALIGNED(offset, 4) || offset >= limit ||
		    filesz > limit - offset)
			continue;
		if (!parse_build_id(data, offset, filesz, build_id, size))
			return 0;
	}
	return -EINVAL;
}

/* @data holds the first @limit bytes of the file, @limit <= PAGE_SIZE */
static int get_build_id(const void *data, u32 limit,
			unsigned char *build_id, __u32 *size)
{
	const unsigned char *ident = data;
	u16 type;

	if (limit < EI_NIDENT || memcmp(ident, ELFMAG, SELFMAG))
		return -EINVAL;

	/* e_type sits at the same offset in both classes */
	type = READ_ONCE(((const struct elf32_hdr *)data)->e_type);
	if (type != ET_EXEC && type != ET_DYN)
		return -EINVAL;

	switch (READ_ONCE(ident[EI_CLASS])) {
	case ELFCLASS32:
		return get_build_id_32(data, limit, build_id, size);
	case ELFCLASS64:
		return get_build_id_64(data, limit, build_id, size);
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
 * Only the first page of the file is read, and only when it is already in
 * the page cache and up to date: this never sleeps, faults or does I/O.
 *
 * Return: 0 on success.  A negative errno when no id was found (no file,
 * page not cached, not ELF, no note, malformed); then @build_id is all
 * zero and *@size is 0.
 */
int build_id_parse(struct vm_area_struct *vma, unsigned char *build_id,
		   __u32 *size)
{
	struct file *file = vma->vm_file;
	struct page *page;
	loff_t isize;
	void *data;
	int ret;

	if (size)
		*size = 0;
	memset(build_id, 0, BUILD_ID_SIZE_MAX);
	if (!file)
		return -EINVAL;

	/* the page cache only: no read-in, no fault */
	page = find_get_page(file->f_mapping, 0);
	if (!page)
		return -EFAULT;
	if (!PageUptodate(page)) {
		ret = -EFAULT;
		goto out;
	}

	/*
	 * Bytes past EOF are zero in the page, but are not the file's.  Not
	 * i_size_read(): on 32-bit SMP it is a seqcount loop, which never
	 * ends when the bpf stack map gets here from NMI in the middle of an
	 * i_size_write() on this cpu.  A torn read only gives a wrong limit,
	 * and the limit never passes the page.
	 */
	isize = READ_ONCE(file_inode(file)->i_size);
	data = kmap_atomic(page);
	ret = get_build_id(data, min_t(loff_t, isize, PAGE_SIZE), build_id,
			   size);
	kunmap_atomic(data);
out:
	put_page(page);
	if (ret) {
		memset(build_id, 0, BUILD_ID_SIZE_MAX);
		if (size)
			*size = 0;
	}
	return ret;
}
