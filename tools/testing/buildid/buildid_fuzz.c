// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for lib/buildid.c.  Input: one byte that picks after
 * which READ_ONCE the file's pages are overwritten (0: never), one byte
 * whose bit i takes page i out of the page cache, then the file, up to
 * FUZZ_PAGES pages; the rest of its last page is zero, as in the page
 * cache.  Each page is a heap buffer of its own, for ASan.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../../lib/buildid.c"

#define FUZZ_PAGES 8

int shim_kmap_depth;
bool shim_in_nmi;
static int reads, scribble_at;
static unsigned char *pagebuf[FUZZ_PAGES];

void shim_after_read_once(const void *addr, size_t size)
{
	int i;

	if (scribble_at && ++reads == scribble_at)
		for (i = 0; i < FUZZ_PAGES; i++)
			memset(pagebuf[i], 0xff, PAGE_SIZE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct page pages[FUZZ_PAGES];
	struct shim_mapping m;
	struct vm_area_struct *vma;
	unsigned char id[BUILD_ID_SIZE_MAX];
	__u32 id_size = 0xdead;
	unsigned int uncached;
	size_t i, n, len;
	int ret;

	if (size < 2)
		return 0;
	if (!pagebuf[0])
		for (i = 0; i < FUZZ_PAGES; i++)
			pagebuf[i] = malloc(PAGE_SIZE);
	scribble_at = data[0];
	uncached = data[1];
	reads = 0;
	data += 2;
	size -= 2;
	n = size > PAGE_SIZE ? DIV_ROUND_UP(size, PAGE_SIZE) : 1;
	if (n > FUZZ_PAGES)
		n = FUZZ_PAGES;
	vma = shim_mapping_pages(&m, pages, n, size);
	for (i = 0; i < n; i++) {
		len = size - i * PAGE_SIZE < PAGE_SIZE ? size - i * PAGE_SIZE : PAGE_SIZE;
		memset(pagebuf[i], 0, PAGE_SIZE);
		if (i * PAGE_SIZE < size)
			memcpy(pagebuf[i], data + i * PAGE_SIZE, len);
		if (!(uncached & (1u << i)))
			pages[i].data = pagebuf[i];
	}
	memset(id, 0xaa, sizeof(id));

	ret = build_id_parse(vma, id, &id_size);

	if (shim_kmap_depth || !shim_refs_dropped(&m))
		abort();
	if (ret) {
		if (id_size)
			abort();
		for (i = 0; i < BUILD_ID_SIZE_MAX; i++)
			if (id[i])
				abort();
	} else {
		if (id_size < 1 || id_size > BUILD_ID_SIZE_MAX)
			abort();
		for (i = id_size; i < BUILD_ID_SIZE_MAX; i++)
			if (id[i])
				abort();
	}
	return 0;
}
