// SPDX-License-Identifier: GPL-2.0
/*
 * Call build_id_parse() on the first page of FILE, COUNT times, for an
 * instruction count under callgrind:
 *
 *   valgrind --tool=callgrind --toggle-collect=build_id_parse \
 *	./buildid_bench FILE COUNT
 */
#define SHIM_NO_HOOK
#include <stdio.h>
#include <stdlib.h>

#include "../../../lib/buildid.c"

int shim_kmap_depth;

int main(int argc, char **argv)
{
	static unsigned char data[PAGE_SIZE];
	struct shim_mapping m;
	struct vm_area_struct *vma;
	unsigned char id[BUILD_ID_SIZE_MAX];
	long count, i;
	__u32 size = 0;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: %s FILE COUNT\n", argv[0]);
		return 2;
	}
	count = atol(argv[2]);
	f = fopen(argv[1], "rb");
	if (!f || fread(data, 1, sizeof(data), f) == 0) {
		perror(argv[1]);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	vma = shim_mapping(&m, data, ftell(f));
	fclose(f);

	for (i = 0; i < count; i++)
		if (build_id_parse(vma, id, &size))
			return 1;
	for (i = 0; i < size; i++)
		printf("%02x", id[i]);
	printf("\n");
	return 0;
}
