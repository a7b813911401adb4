// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for lib/buildid.c.  Input: one byte that picks after
 * which READ_ONCE the page is overwritten (0: never), then the first bytes
 * of the file; the rest of page 0 is zero, as in the page cache.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../../lib/buildid.c"

int shim_kmap_depth;
static int reads, scribble_at;
static unsigned char *page;

void shim_after_read_once(const void *addr, size_t size)
{
	if (scribble_at && ++reads == scribble_at)
		memset(page, 0xff, PAGE_SIZE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shim_mapping m;
	struct vm_area_struct *vma;
	unsigned char id[BUILD_ID_SIZE_MAX];
	__u32 id_size = 0xdead;
	int ret, i;

	if (size < 1)
		return 0;
	if (!page)
		page = malloc(PAGE_SIZE);
	scribble_at = data[0];
	reads = 0;
	data++;
	size--;
	memset(page, 0, PAGE_SIZE);
	memcpy(page, data, size < PAGE_SIZE ? size : PAGE_SIZE);
	vma = shim_mapping(&m, page, size);
	memset(id, 0xaa, sizeof(id));

	ret = build_id_parse(vma, id, &id_size);

	if (shim_kmap_depth || m.pg.refs)
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
