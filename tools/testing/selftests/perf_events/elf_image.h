/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ELF images for the build-id tests: mmap3_buildid writes them to files
 * for the kernel to read, the user-space harness of lib/buildid.c
 * (tools/testing/buildid) parses them in memory.
 *
 * An image is an ELF header, a PT_LOAD and a PT_NOTE program header, then
 * the notes, the GNU build-id note last: 64-bit images are ET_DYN for
 * x86-64, 32-bit ones ET_EXEC for i386, with no segment flags or
 * addresses: the parser reads neither.  A struct elf_spec says how to lay
 * an image out or damage it; tests may then damage it further, field by
 * field.
 */
#ifndef ELF_IMAGE_H
#define ELF_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/elf.h>

#ifndef NT_GNU_ABI_TAG
#define NT_GNU_ABI_TAG		1
#endif
#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID		3
#endif

#define ELF_IMAGE_PAGE		4096
#define ELF_IMAGE_ID_MAX	32	/* the largest spec.id_size */
#define ELF_IMAGE_NOTES_MAX	128	/* the notes of any spec */

/* Where the notes of a plain image start: after its two program headers */
#define ELF_IMAGE_NOTE_OFF64	(sizeof(struct elf64_hdr) + 2 * sizeof(struct elf64_phdr))
#define ELF_IMAGE_NOTE_OFF32	(sizeof(struct elf32_hdr) + 2 * sizeof(struct elf32_phdr))

/* How to change a plain, valid image: other layouts, then malformed ones */
enum elf_damage {
	ELF_GOOD,
	ELF_NOTES_BEFORE,	/* other notes, unaligned sizes, precede the id */
	ELF_TWO_PT_NOTES,	/* the id is in the second PT_NOTE */
	ELF_SMALL_FILE,		/* the file ends right after the note */
	ELF_PHDRS_CROSS_PAGE,	/* the PT_NOTE header is on page 1 */
	ELF_NOTE_CROSSES_PAGE,	/* the note straddles page 0 and page 1 */
	ELF_NOTE_PAST_PAGE0,	/* the notes are on page 1 (lld does this) */
	ELF_NO_NOTE,		/* no PT_NOTE at all */
	ELF_BAD_MAGIC,
	ELF_TYPE_REL,		/* e_type ET_REL */
	ELF_BAD_CLASS,		/* EI_CLASS neither 32 nor 64 */
	ELF_PHOFF_HUGE,
	ELF_PHOFF_IN_HEADER,	/* e_phoff inside the ELF header */
	ELF_PHNUM_MAX,		/* e_phnum 65535 */
	ELF_PHDRS_PAST_EOF,	/* the program headers run past the file */
	ELF_NOTE_OFF_OUTSIDE,	/* PT_NOTE p_offset past the file */
	ELF_NOTE_SIZE_WRAP,	/* p_offset + p_filesz wraps */
	ELF_NOTE_PAST_EOF,	/* the file ends inside the id */
	ELF_NAMESZ_HUGE,	/* n_namesz near 0xffffffff */
	ELF_DESCSZ_HUGE,	/* n_descsz near 0xffffffff */
	ELF_NOTE_PAST_SEGMENT,	/* the note is longer than its segment */
	ELF_DESCSZ_ZERO,
	ELF_DESCSZ_21,
	ELF_OWNER_NOT_GNU,	/* "GNX\0" */
	ELF_TYPE_NOT_BUILD_ID,	/* owner "GNU", type NT_GNU_ABI_TAG */
	ELF_TRUNCATED,		/* a file shorter than its ELF header */
};

struct elf_spec {
	int elfclass;		/* ELFCLASS32 or ELFCLASS64 */
	int id_size;		/* bytes of id in the note */
	enum elf_damage damage;
};

/* The id bytes of a test: never zero, distinct per seed. */
static inline void elf_image_id(uint8_t *id, int len, int seed)
{
	int i;

	for (i = 0; i < len; i++)
		id[i] = (uint8_t)(0x21 * (seed + 1) + 5 * i) | 1;
}

/*
 * Write a note at @p: @namesz bytes of @name and @descsz bytes of @desc,
 * each padded to 4.  Returns its length.
 */
static inline size_t elf_image_note(void *p, uint32_t type, const char *name,
				    uint32_t namesz, const void *desc,
				    uint32_t descsz)
{
	struct elf32_note nhdr = {
		.n_namesz = namesz, .n_descsz = descsz, .n_type = type,
	};
	size_t name_len = (namesz + 3) & ~(size_t)3;
	size_t desc_len = (descsz + 3) & ~(size_t)3;
	unsigned char *b = p;

	memcpy(b, &nhdr, sizeof(nhdr));
	memcpy(b + sizeof(nhdr), name, namesz);
	memcpy(b + sizeof(nhdr) + name_len, desc, descsz);
	return sizeof(nhdr) + name_len + desc_len;
}

/*
 * The notes of @spec at @p: returns their length, and in @id_note_off
 * where the build-id note starts.
 */
static inline size_t elf_image_notes(unsigned char *p, const struct elf_spec *spec,
				     const uint8_t *id, size_t *id_note_off)
{
	static const uint32_t abi_tag[4] = { 0, 3, 2, 0 };
	uint32_t type = NT_GNU_BUILD_ID, descsz = spec->id_size;
	const char *owner = "GNU";
	struct elf32_note nhdr;
	size_t off = 0, len;

	switch (spec->damage) {
	case ELF_NOTES_BEFORE:
		/* name and desc sizes that need padding, and a GNU type */
		off += elf_image_note(p + off, NT_GNU_BUILD_ID, "Linux", 6,
				      "\x01\x02\x03\x04\x05", 5);
		off += elf_image_note(p + off, NT_GNU_ABI_TAG, "GNU", 4, abi_tag, 16);
		break;
	case ELF_TWO_PT_NOTES:
		off += elf_image_note(p + off, NT_GNU_ABI_TAG, "GNU", 4, abi_tag, 16);
		break;
	case ELF_DESCSZ_ZERO:
		descsz = 0;
		break;
	case ELF_DESCSZ_21:
		descsz = 21;
		break;
	case ELF_OWNER_NOT_GNU:
		owner = "GNX";
		break;
	case ELF_TYPE_NOT_BUILD_ID:
		type = NT_GNU_ABI_TAG;
		break;
	default:
		break;
	}
	*id_note_off = off;
	len = elf_image_note(p + off, type, owner, 4, id, descsz);

	/* sizes the bytes that follow do not have */
	memcpy(&nhdr, p + off, sizeof(nhdr));
	if (spec->damage == ELF_NAMESZ_HUGE)
		nhdr.n_namesz = 0xfffffffd;
	if (spec->damage == ELF_DESCSZ_HUGE)
		nhdr.n_descsz = 0xfffffffd;
	memcpy(p + off, &nhdr, sizeof(nhdr));
	return off + len;
}

/*
 * Build the image @spec says in @buf, @size bytes (a page at least; two
 * for the layouts on page 1), with the id @id (21 bytes for
 * ELF_DESCSZ_21): the rest of @buf is zero, and the PT_LOAD covers it.
 * Returns the size of the file to write, 0 if the image does not fit.
 */
static inline size_t elf_image(void *buf, size_t size, const struct elf_spec *spec,
			       const uint8_t *id)
{
	int is64 = spec->elfclass == ELFCLASS64;
	size_t ehsize = is64 ? sizeof(struct elf64_hdr) : sizeof(struct elf32_hdr);
	size_t phsize = is64 ? sizeof(struct elf64_phdr) : sizeof(struct elf32_phdr);
	unsigned int i, nph = spec->damage == ELF_TWO_PT_NOTES ? 3 : 2, phnum = nph;
	uint64_t phoff = ehsize, note_off = ehsize + nph * phsize;
	unsigned char notes[ELF_IMAGE_NOTES_MAX], *img = buf;
	size_t notes_len, id_off, file_size = size;
	uint64_t p_offset[2], p_filesz[2];

	if (spec->id_size < 0 || spec->id_size > ELF_IMAGE_ID_MAX)
		return 0;
	if (spec->damage == ELF_NOTE_CROSSES_PAGE)
		note_off = ELF_IMAGE_PAGE - 16;
	if (spec->damage == ELF_NOTE_PAST_PAGE0)
		note_off = ELF_IMAGE_PAGE + 64;
	memset(notes, 0, sizeof(notes));	/* the padding */
	notes_len = elf_image_notes(notes, spec, id, &id_off);
	p_offset[0] = note_off;
	p_filesz[0] = notes_len;

	switch (spec->damage) {
	case ELF_TWO_PT_NOTES:
		/* the ABI tag alone, then the id alone */
		p_filesz[0] = id_off;
		p_offset[1] = note_off + id_off;
		p_filesz[1] = notes_len - id_off;
		break;
	case ELF_SMALL_FILE:
		file_size = note_off + notes_len;
		break;
	case ELF_NO_NOTE:
		phnum = 1;
		break;
	case ELF_PHOFF_HUGE:
		phoff = is64 ? 0xfffffffffffff000ull : 0xfffff000u;
		break;
	case ELF_PHOFF_IN_HEADER:
		phoff = 8;
		break;
	case ELF_PHNUM_MAX:
		phnum = 65535;
		break;
	case ELF_PHDRS_CROSS_PAGE:
		phoff = ELF_IMAGE_PAGE - phsize;
		break;
	case ELF_PHDRS_PAST_EOF:
		/* the PT_NOTE header is written; the file ends inside it */
		phoff = ELF_IMAGE_PAGE;
		file_size = ELF_IMAGE_PAGE + phsize + phsize / 2;
		break;
	case ELF_NOTE_OFF_OUTSIDE:
		p_offset[0] = size + 64;
		break;
	case ELF_NOTE_SIZE_WRAP:
		p_filesz[0] = is64 ? ~0ull - 8 : 0xfffffff8u;
		break;
	case ELF_NOTE_PAST_EOF:
		/* the headers claim the whole note; the file stops short */
		file_size = note_off + notes_len - 8;
		break;
	case ELF_NOTE_PAST_SEGMENT:
		p_filesz[0] = notes_len - 8;
		break;
	default:
		break;
	}

	/* in @buf: the notes, and the program headers but for a huge e_phoff */
	if (note_off + notes_len > size ||
	    (spec->damage != ELF_PHOFF_HUGE && phoff + nph * phsize > size))
		return 0;
	memset(img, 0, size);
	memcpy(img + note_off, notes, notes_len);
	for (i = 0; i < nph && i < phnum && spec->damage != ELF_PHOFF_HUGE; i++) {
		uint32_t type = i ? PT_NOTE : PT_LOAD;
		uint64_t off = i ? p_offset[i - 1] : 0;
		uint64_t len = i ? p_filesz[i - 1] : size;
		uint64_t align = i ? 4 : 0;

		if (is64) {
			struct elf64_phdr ph = {
				.p_type = type, .p_offset = off, .p_filesz = len,
				.p_memsz = len, .p_align = align,
			};

			memcpy(img + phoff + i * phsize, &ph, sizeof(ph));
		} else {
			struct elf32_phdr ph = {
				.p_type = type, .p_offset = off, .p_filesz = len,
				.p_memsz = len, .p_align = align,
			};

			memcpy(img + phoff + i * phsize, &ph, sizeof(ph));
		}
	}

	if (is64) {
		struct elf64_hdr *eh = (struct elf64_hdr *)img;

		eh->e_type = ET_DYN;
		eh->e_machine = EM_X86_64;
		eh->e_version = EV_CURRENT;
		eh->e_phoff = phoff;
		eh->e_ehsize = ehsize;
		eh->e_phentsize = phsize;
		eh->e_phnum = phnum;
	} else {
		struct elf32_hdr *eh = (struct elf32_hdr *)img;

		eh->e_type = ET_EXEC;
		eh->e_machine = EM_386;
		eh->e_version = EV_CURRENT;
		eh->e_phoff = phoff;
		eh->e_ehsize = ehsize;
		eh->e_phentsize = phsize;
		eh->e_phnum = phnum;
	}
	memcpy(img, ELFMAG, SELFMAG);
	img[EI_CLASS] = spec->elfclass;
	img[EI_DATA] = ELFDATA2LSB;
	img[EI_VERSION] = EV_CURRENT;

	switch (spec->damage) {
	case ELF_BAD_MAGIC:
		img[EI_MAG1] = 'X';
		break;
	case ELF_TYPE_REL:
		/* e_type: the same offset in both classes */
		((struct elf32_hdr *)img)->e_type = ET_REL;
		break;
	case ELF_BAD_CLASS:
		img[EI_CLASS] = 3;
		break;
	case ELF_TRUNCATED:
		return 40;
	default:
		break;
	}
	return file_size;
}

/* Program header @i of a plain image, the table right after the ELF header */
static inline struct elf64_phdr *elf_image_phdr64(void *img, int i)
{
	return (struct elf64_phdr *)((char *)img + sizeof(struct elf64_hdr)) + i;
}

static inline struct elf32_phdr *elf_image_phdr32(void *img, int i)
{
	return (struct elf32_phdr *)((char *)img + sizeof(struct elf32_hdr)) + i;
}

/*
 * A plain image of one page, with an id of @id_size bytes: returns its
 * PT_NOTE program header, for tests to damage.
 */
static inline struct elf64_phdr *elf_image64(void *page, const uint8_t *id, int id_size)
{
	struct elf_spec spec = { ELFCLASS64, id_size, ELF_GOOD };

	elf_image(page, ELF_IMAGE_PAGE, &spec, id);
	return elf_image_phdr64(page, 1);
}

static inline struct elf32_phdr *elf_image32(void *page, const uint8_t *id, int id_size)
{
	struct elf_spec spec = { ELFCLASS32, id_size, ELF_GOOD };

	elf_image(page, ELF_IMAGE_PAGE, &spec, id);
	return elf_image_phdr32(page, 1);
}

#endif
