// SPDX-License-Identifier: GPL-2.0
/*
 * build_id_parse() over a corpus of files, each one whole in the page
 * cache, as the kernel parser sees a file the loader has just read.  Reads
 * one path per line on stdin and prints, per file:
 *
 *   <id in hex, or -> <path>
 *
 * Compare them with readelf -n's, over the files of a system:
 *
 *   find /usr/lib -name '*.so*' -type f | ./buildid_corpus
 */
#define SHIM_NO_HOOK
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../../lib/buildid.c"

int shim_kmap_depth;
bool shim_in_nmi;

static void parse(const char *path)
{
	unsigned char id[BUILD_ID_SIZE_MAX];
	struct vm_area_struct *vma;
	struct shim_mapping m;
	struct page *pages;
	__u32 size = 0, i;
	struct stat st;
	void *data;
	int fd, ret;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return;
	}
	if (fstat(fd, &st) || !st.st_size) {
		close(fd);
		printf("- %s\n", path);
		return;
	}
	/* past EOF, the mapping's last page reads zero, as the page cache's */
	data = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	pages = calloc(DIV_ROUND_UP(st.st_size, PAGE_SIZE), sizeof(*pages));
	if (data == MAP_FAILED || !pages) {
		perror(path);
		exit(1);
	}
	vma = shim_mapping(&m, pages, data, st.st_size);
	ret = build_id_parse(vma, id, &size);
	if (!shim_refs_dropped(&m) || shim_kmap_depth)
		abort();
	munmap(data, st.st_size);
	free(pages);
	if (ret || !size) {
		printf("- %s\n", path);
		return;
	}
	for (i = 0; i < size; i++)
		printf("%02x", id[i]);
	printf(" %s\n", path);
}

int main(void)
{
	char *line = NULL;
	size_t len = 0;
	ssize_t n;

	while ((n = getline(&line, &len, stdin)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		if (*line)
			parse(line);
	}
	free(line);
	return 0;
}
