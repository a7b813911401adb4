// SPDX-License-Identifier: GPL-2.0
/*
 * perf record reads the build ids the kernel could not read from the
 * files the records name, while it records.  Any such file may never
 * answer: a network file system whose server went away, a FUSE daemon
 * that stopped reading its requests.  A task blocked on one cannot be
 * killed, so the reads are done in another process, and perf waits for
 * its answers only as long as it chooses to:
 *
 *   perf record  --requests-->  broker  --one at a time-->  worker
 *
 * The broker gives each file BUILD_ID_READER_TIMEOUT ms.  A worker that
 * does not answer in time is killed, or left to the kernel where it
 * cannot be killed, and the broker starts a new one; the file's answer
 * is "timed out".  The broker is no child of perf record (perf takes
 * SIGCHLD as the end of its workload), holds no descriptor of perf's but
 * its socket, and ends when perf closes that socket.  A stuck worker,
 * stuck in the kernel, keeps nothing of perf's either.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <linux/kernel.h>

#include "build-id-reader.h"
#include "debug.h"
#include "mmap3-synth.h"

struct build_id_request {
	u64			seq;
	struct mmap3_file	m;	/* m.filename points nowhere */
	char			root_dir[PATH_MAX];
	char			filename[PATH_MAX];
};

/* a worker that does not answer: give up every file after this many */
#define BUILD_ID_READER_MAX_STUCK	8

static int reader_fd = -1;
static u64 reader_seq;

/* Close every descriptor but @keep: what perf had open is not ours. */
static void close_all_but(int keep)
{
	int fd, max = sysconf(_SC_OPEN_MAX), null;

	null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
	}
	if (max < 0 || max > 65536)
		max = 65536;
	for (fd = 3; fd < max; fd++) {
		if (fd != keep)
			close(fd);
	}
}

static void worker(int sock)
{
	struct build_id_request req;
	struct build_id_answer a;

	for (;;) {
		ssize_t n = recv(sock, &req, sizeof(req), 0);

		if (n != sizeof(req))
			_exit(0);
		req.root_dir[sizeof(req.root_dir) - 1] = '\0';
		req.filename[sizeof(req.filename) - 1] = '\0';
		req.m.filename = req.filename;
		memset(&a, 0, sizeof(a));
		a.seq = req.seq;
		a.maj = req.m.maj;
		a.min = req.m.min;
		a.ino = req.m.ino;
		a.why = mmap3__read_task_build_id_here(req.root_dir, &req.m, &a.bid);
		if (send(sock, &a, sizeof(a), MSG_NOSIGNAL) != sizeof(a))
			_exit(0);
	}
}

static pid_t worker__start(int *sock, int broker_sock)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		close(broker_sock);
		worker(sv[1]);
		_exit(0);
	}
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return -1;
	}
	*sock = sv[0];
	return pid;
}

static void broker(int sock)
{
	struct build_id_request req;
	struct build_id_answer a;
	int wsock = -1, stuck = 0;
	pid_t wpid = -1;

	/* stuck workers are reaped by the kernel whenever they end */
	signal(SIGCHLD, SIG_IGN);
	signal(SIGINT, SIG_IGN);	/* ^C is for perf record, which ends us */
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);

	for (;;) {
		struct pollfd pfd;
		ssize_t n = recv(sock, &req, sizeof(req), 0);

		if (n != sizeof(req))
			break;
		memset(&a, 0, sizeof(a));
		a.seq = req.seq;
		a.maj = req.m.maj;
		a.min = req.m.min;
		a.ino = req.m.ino;
		a.why = MMAP3_NO_ID__TIMEOUT;
		if (wsock < 0 && stuck < BUILD_ID_READER_MAX_STUCK)
			wpid = worker__start(&wsock, sock);
		if (wsock >= 0 && send(wsock, &req, sizeof(req), MSG_NOSIGNAL) == sizeof(req)) {
			pfd.fd = wsock;
			pfd.events = POLLIN;
			if (poll(&pfd, 1, BUILD_ID_READER_TIMEOUT) == 1 &&
			    recv(wsock, &a, sizeof(a), 0) == sizeof(a))
				goto answer;
			a.why = MMAP3_NO_ID__TIMEOUT;
			/* a worker in uninterruptible sleep dies when it wakes */
			kill(wpid, SIGKILL);
			close(wsock);
			wsock = -1;
			stuck++;
		}
answer:
		if (send(sock, &a, sizeof(a), MSG_NOSIGNAL) != sizeof(a))
			break;
	}
	if (wsock >= 0)
		kill(wpid, SIGKILL);
	_exit(0);
}

/*
 * Start the broker: before perf record sets its SIGCHLD handler, as the
 * middle process, which makes the broker no child of perf's, ends and is
 * waited for here.
 */
int build_id_reader__start(void)
{
	int sv[2], status;
	pid_t pid;

	if (reader_fd >= 0)
		return 0;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -1;
	pid = fork();
	if (pid == 0) {
		close_all_but(sv[1]);
		if (fork() == 0)
			broker(sv[1]);
		_exit(0);
	}
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	reader_fd = sv[0];
	return 0;
}

/* The broker sees the socket close, and ends with its workers. */
void build_id_reader__stop(void)
{
	if (reader_fd >= 0)
		close(reader_fd);
	reader_fd = -1;
}

bool build_id_reader__running(void)
{
	return reader_fd >= 0;
}

/*
 * Ask for the id of @m's file; @seq is the number the answer will carry.
 * Never waits: a request the socket has no room for is not asked.
 */
int build_id_reader__ask(const char *root_dir, const struct mmap3_file *m, u64 *seq)
{
	static struct build_id_request req;

	if (reader_fd < 0)
		return -1;
	memset(&req, 0, sizeof(req));
	req.seq = ++reader_seq;
	req.m = *m;
	req.m.filename = NULL;
	if (strlen(root_dir) >= sizeof(req.root_dir) ||
	    strlen(m->filename) >= sizeof(req.filename))
		return -1;
	strcpy(req.root_dir, root_dir);
	strcpy(req.filename, m->filename);
	if (send(reader_fd, &req, sizeof(req), MSG_DONTWAIT | MSG_NOSIGNAL) != sizeof(req)) {
		pr_debug("build id reader: %s not asked: %s\n", m->filename, strerror(errno));
		if (errno != EAGAIN)
			build_id_reader__stop();
		return -1;
	}
	*seq = req.seq;
	return 0;
}

/* One answer, waiting up to @timeout_ms: 1, 0 if none came, -1 if gone. */
int build_id_reader__answer(struct build_id_answer *a, int timeout_ms)
{
	struct pollfd pfd = { .fd = reader_fd, .events = POLLIN };
	int n;

	if (reader_fd < 0)
		return -1;
	n = poll(&pfd, 1, timeout_ms);
	if (n < 0)
		return errno == EINTR ? 0 : -1;
	if (n == 0)
		return 0;
	if (recv(reader_fd, a, sizeof(*a), MSG_DONTWAIT) != sizeof(*a)) {
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		build_id_reader__stop();
		return -1;
	}
	return 1;
}
