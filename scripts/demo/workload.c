// SPDX-License-Identifier: GPL-2.0
/*
 * The demo's workload: burns CPU in a few named functions of its own, in
 * shared libraries of a Debian base system (libm, libz, liblzma, libbz2,
 * libcrypto) and, given the demo module's debugfs file, in the kernel
 * module, so a profile has symbols in several DSOs to resolve.
 *
 *   workload [ROUNDS [SPIN_FILE]]
 *
 * Each round writes a number of microseconds to SPIN_FILE, which the module
 * spends spinning.  Build with -DVARIANT=2 to get the "rebuilt" binary with
 * another build id.
 */
/* Blowfish's low-level calls are deprecated, and still exported */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <bzlib.h>
#include <fcntl.h>
#include <lzma.h>
#include <math.h>
#include <openssl/blowfish.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#ifndef VARIANT
#define VARIANT 1
#endif

static volatile double sink;
static unsigned char buf[4096];

__attribute__((noinline)) static double spin_math(int n)
{
	double acc = 0;
	int i;

	for (i = 1; i < n; i++)
		acc += sin(i * 0.001) * sqrt(i) + log(i);
	return acc;
}

__attribute__((noinline)) static unsigned long spin_crc(int n)
{
	unsigned long crc = crc32(0L, Z_NULL, 0);
	int i;

	for (i = 0; i < n; i++)
		crc = crc32(crc, buf, sizeof(buf));
	return crc;
}

__attribute__((noinline)) static uint32_t spin_lzma(int n)
{
	uint32_t crc = 0;
	int i;

	for (i = 0; i < n; i++)
		crc = lzma_crc32(buf, sizeof(buf), crc);
	return crc;
}

/* bunzip2 a block of buf compressed once: the work is in BZ2_decompress */
__attribute__((noinline)) static unsigned int spin_bzip2(int n)
{
	static char packed[sizeof(buf) * 2], out[sizeof(buf)];
	static unsigned int packed_len;
	unsigned int len, total = 0;
	int i;

	if (!packed_len) {
		packed_len = sizeof(packed);
		if (BZ2_bzBuffToBuffCompress(packed, &packed_len, (char *)buf,
					     sizeof(buf), 1, 0, 0) != BZ_OK)
			return 0;
	}
	for (i = 0; i < n; i++) {
		len = sizeof(out);
		if (BZ2_bzBuffToBuffDecompress(out, &len, packed, packed_len,
					       0, 0) == BZ_OK)
			total += len;
	}
	return total;
}

/* Blowfish: its block function is libcrypto's own, exported, BF_encrypt */
__attribute__((noinline)) static unsigned int spin_blowfish(int n)
{
	static BF_KEY key;
	BF_LONG data[2] = { VARIANT, 0 };
	int i;

	BF_set_key(&key, 16, buf);
	for (i = 0; i < n * 100; i++)
		BF_encrypt(data, &key);
	return data[0];
}

__attribute__((noinline)) static unsigned long spin_loop(int n)
{
	unsigned long x = VARIANT;
	int i;

	for (i = 0; i < n * 1000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

/* Have the demo module spin for @usecs in the kernel. */
__attribute__((noinline)) static void spin_module(int fd, int usecs)
{
	char s[16];
	int len;

	len = snprintf(s, sizeof(s), "%d\n", usecs);
	if (pwrite(fd, s, len, 0) != len) {
		perror("write to the module's spin file");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20;
	int fd = -1;
	int r;

	if (argc > 2) {
		fd = open(argv[2], O_WRONLY);
		if (fd < 0) {
			perror(argv[2]);
			return 1;
		}
	}
	for (r = 0; r < (int)sizeof(buf); r++)
		buf[r] = (r * 7 + VARIANT) & 0x3f;
	for (r = 0; r < rounds; r++) {
		sink = spin_math(30000);
		sink += spin_crc(400);
		sink += spin_lzma(200);
		sink += spin_bzip2(12);
		sink += spin_blowfish(100);
		sink += spin_loop(3000);
		if (fd >= 0)
			spin_module(fd, 20000);
	}
	printf("workload v%d done (%d rounds)\n", VARIANT, rounds);
	return 0;
}
