/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page-0 images of ELF files for the build-id harness: an ELF header, a
 * PT_LOAD and a PT_NOTE program header, then the notes.  Tests damage them
 * field by field.
 */
#ifndef BUILDID_IMAGES_H
#define BUILDID_IMAGES_H

#include <linux/elf.h>
#include <string.h>

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID	3
#endif

#define IMG_NOTE_OFF64	(sizeof(struct elf64_hdr) + 2 * sizeof(struct elf64_phdr))
#define IMG_NOTE_OFF32	(sizeof(struct elf32_hdr) + 2 * sizeof(struct elf32_phdr))

/* Append a note at @p; returns its padded length. */
static inline size_t img_put_note(unsigned char *p, uint32_t type,
				  const char *name, uint32_t namesz,
				  const unsigned char *desc, uint32_t descsz)
{
	struct elf32_note nhdr = { .n_namesz = namesz, .n_descsz = descsz, .n_type = type };
	size_t name_len = (namesz + 3) & ~3u, desc_len = (descsz + 3) & ~3u;

	memcpy(p, &nhdr, sizeof(nhdr));
	memcpy(p + sizeof(nhdr), name, namesz);
	memcpy(p + sizeof(nhdr) + name_len, desc, descsz);
	return sizeof(nhdr) + name_len + desc_len;
}

/* The id bytes used in tests: never zero, distinct per seed. */
static inline void img_make_id(unsigned char *id, int len, int seed)
{
	int i;

	for (i = 0; i < len; i++)
		id[i] = (unsigned char)(0x21 * (seed + 1) + 5 * i) | 1;
}

/*
 * A 64-bit ET_DYN image in @page (PAGE_SIZE bytes) with one GNU build-id
 * note of @id_len bytes.  Returns the PT_NOTE header for damaging.
 */
static inline struct elf64_phdr *img_elf64(unsigned char *page,
					   const unsigned char *id, int id_len)
{
	struct elf64_hdr *eh = (struct elf64_hdr *)page;
	struct elf64_phdr *ph = (struct elf64_phdr *)(page + sizeof(*eh));
	size_t len;

	memset(page, 0, 4096);
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_DYN;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 2;
	ph[0].p_type = PT_LOAD;
	ph[0].p_filesz = 4096;
	ph[0].p_memsz = 4096;
	len = img_put_note(page + IMG_NOTE_OFF64, NT_GNU_BUILD_ID, "GNU", 4, id, id_len);
	ph[1].p_type = PT_NOTE;
	ph[1].p_offset = IMG_NOTE_OFF64;
	ph[1].p_filesz = len;
	ph[1].p_memsz = len;
	ph[1].p_align = 4;
	return &ph[1];
}

/* The same as a 32-bit ET_EXEC image. */
static inline struct elf32_phdr *img_elf32(unsigned char *page,
					   const unsigned char *id, int id_len)
{
	struct elf32_hdr *eh = (struct elf32_hdr *)page;
	struct elf32_phdr *ph = (struct elf32_phdr *)(page + sizeof(*eh));
	size_t len;

	memset(page, 0, 4096);
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS32;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = EM_386;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 2;
	ph[0].p_type = PT_LOAD;
	ph[0].p_filesz = 4096;
	ph[0].p_memsz = 4096;
	len = img_put_note(page + IMG_NOTE_OFF32, NT_GNU_BUILD_ID, "GNU", 4, id, id_len);
	ph[1].p_type = PT_NOTE;
	ph[1].p_offset = IMG_NOTE_OFF32;
	ph[1].p_filesz = len;
	ph[1].p_memsz = len;
	ph[1].p_align = 4;
	return &ph[1];
}

#endif
