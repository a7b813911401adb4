// SPDX-License-Identifier: GPL-2.0
/*
 * Call build_id_parse() on FILE, all of it cached, COUNT times, for an
 * instruction count under callgrind:
 *
 *   valgrind --tool=callgrind --toggle-collect=build_id_parse \
 *	./buildid_bench FILE COUNT
 */
#define SHIM_NO_HOOK
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../../lib/buildid.c"

int shim_kmap_depth;
bool shim_in_nmi;

int main(int argc, char **argv)
{
	unsigned char id[BUILD_ID_SIZE_MAX];
	struct vm_area_struct *vma;
	struct shim_mapping m;
	struct page *pages;
	long count, i;
	__u32 size = 0;
	struct stat st;
	void *data;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: %s FILE COUNT\n", argv[0]);
		return 2;
	}
	count = atol(argv[2]);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || !st.st_size) {
		perror(argv[1]);
		return 1;
	}
	data = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	pages = calloc(DIV_ROUND_UP(st.st_size, PAGE_SIZE), sizeof(*pages));
	if (data == MAP_FAILED || !pages) {
		perror(argv[1]);
		return 1;
	}
	vma = shim_mapping(&m, pages, data, st.st_size);

	for (i = 0; i < count; i++)
		if (build_id_parse(vma, id, &size))
			return 1;
	for (i = 0; i < size; i++)
		printf("%02x", id[i]);
	printf("\n");
	return 0;
}
