// SPDX-License-Identifier: GPL-2.0
/*
 * An unprivileged user steering root's perf record at what it must not
 * open (scripts/faults/steer-fill): its four parts, each run for SECS
 * seconds.
 *
 *   steer map DIR SECS      make x anew in the directory DIR is at the
 *                           start, whatever its name later (a non-ELF
 *                           file, so that its mapping's record has no id
 *                           and perf asks its reader for one), map it
 *                           PROT_EXEC, unmap it, again and again; print
 *                           how many mappings
 *   steer swap A B SECS     swap the names A and B (renameat2
 *                           RENAME_EXCHANGE) again and again: a directory
 *                           and a symlink to another directory, so that a
 *                           path through A is now one, now the other
 *   steer fifo FIFO SECS    open FIFO for writing, blocking, again and
 *                           again: each open that returns is a reader's
 *                           open of FIFO (nothing else reads it); print
 *                           how many
 *   steer watch NODE SECS   count the opens of NODE (a device node) that
 *                           inotify sees, O_PATH ones not among them
 *                           (Linux 6.x): print how many
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static time_t end;

static int running(void)
{
	return time(NULL) < end;
}

static int map_loop(const char *dir)
{
	static const char junk[4096] = "not an ELF file";
	/* the directory itself, whatever its name is when swapped */
	int dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long n = 0;

	struct stat st;

	if (dir_fd < 0) {
		perror(dir);
		return 1;
	}
	/* the other directory, with the FIFO or device: swapped too soon */
	if (!fstatat(dir_fd, "x", &st, AT_SYMLINK_NOFOLLOW) && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "%s: not the directory of regular files\n", dir);
		return 1;
	}
	while (running()) {
		int fd = openat(dir_fd, "x.new", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		void *p;

		if (fd < 0) {
			perror("x.new");
			return 1;
		}
		if (write(fd, junk, sizeof(junk)) != sizeof(junk) ||
		    renameat(dir_fd, "x.new", dir_fd, "x")) {
			perror("x");
			return 1;
		}
		p = mmap(NULL, sizeof(junk), PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
		close(fd);
		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		usleep(2000);
		munmap(p, sizeof(junk));
		n++;
	}
	printf("%ld\n", n);
	return n ? 0 : 1;
}

static int swap_loop(const char *a, const char *b)
{
	long n = 0;

	while (running()) {
		if (syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)) {
			perror("renameat2");
			return 1;
		}
		n++;
	}
	printf("%ld\n", n);
	return 0;
}

static void on_alarm(int sig)
{
	(void)sig;
}

static int fifo_loop(const char *fifo)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	long n = 0;

	/* no SA_RESTART: the alarm ends a blocked open() with EINTR */
	sigaction(SIGALRM, &sa, NULL);
	while (running()) {
		int fd;

		alarm(1);
		fd = open(fifo, O_WRONLY | O_CLOEXEC);
		alarm(0);
		if (fd >= 0) {
			struct stat st;

			/* what a reader opened, not a file put in its place */
			if (fstat(fd, &st) || !S_ISFIFO(st.st_mode)) {
				fprintf(stderr, "%s: no FIFO\n", fifo);
				return 1;
			}
			n++;
			close(fd);
		} else if (errno != EINTR) {
			perror(fifo);
			return 1;
		}
	}
	printf("%ld\n", n);
	return 0;
}

static int watch_loop(const char *node)
{
	char buf[4096] __attribute__((aligned(8)));
	int in = inotify_init1(IN_CLOEXEC);
	long n = 0;

	if (in < 0 || inotify_add_watch(in, node, IN_OPEN) < 0) {
		perror(node);
		return 1;
	}
	while (running()) {
		struct pollfd pfd = { .fd = in, .events = POLLIN };
		ssize_t len;
		char *p;

		if (poll(&pfd, 1, 200) != 1)
			continue;
		len = read(in, buf, sizeof(buf));
		for (p = buf; len > 0 && p < buf + len;) {
			struct inotify_event *e = (struct inotify_event *)p;

			if (e->mask & IN_OPEN)
				n++;
			p += sizeof(*e) + e->len;
		}
	}
	printf("%ld\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: steer map DIR SECS | swap A B SECS | fifo FIFO SECS | watch NODE SECS\n");
		return 2;
	}
	end = time(NULL) + atoi(argv[argc - 1]);
	if (!strcmp(argv[1], "map"))
		return map_loop(argv[2]);
	if (!strcmp(argv[1], "swap") && argc == 5)
		return swap_loop(argv[2], argv[3]);
	if (!strcmp(argv[1], "fifo"))
		return fifo_loop(argv[2]);
	if (!strcmp(argv[1], "watch"))
		return watch_loop(argv[2]);
	fprintf(stderr, "steer: no mode %s\n", argv[1]);
	return 2;
}
