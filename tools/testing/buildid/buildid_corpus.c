// SPDX-License-Identifier: GPL-2.0
/*
 * build_id_parse() over a corpus of files, each one's first page taken as
 * the page cache's page 0, as the kernel parser sees a file whose page 0
 * is cached.  Reads one path per line on stdin and prints, per file:
 *
 *   <id in hex, or -> <path>
 *
 * scripts/buildid-corpus compares the ids with readelf's.
 */
#define SHIM_NO_HOOK
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../lib/buildid.c"

int shim_kmap_depth;

static void parse(const char *path)
{
	static unsigned char data[PAGE_SIZE];
	struct shim_mapping m;
	struct vm_area_struct *vma;
	unsigned char id[BUILD_ID_SIZE_MAX];
	__u32 size = 0, i;
	FILE *f = fopen(path, "rb");

	if (!f) {
		perror(path);
		return;
	}
	memset(data, 0, sizeof(data));
	if (fread(data, 1, sizeof(data), f) == 0 || fseek(f, 0, SEEK_END)) {
		fclose(f);
		printf("- %s\n", path);
		return;
	}
	vma = shim_mapping(&m, data, ftell(f));
	fclose(f);
	if (build_id_parse(vma, id, &size) || !size) {
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
