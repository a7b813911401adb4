// SPDX-License-Identifier: GPL-2.0
/*
 * Test for bpf stack maps with BPF_F_STACK_BUILD_ID, whose build ids are
 * read by build_id_parse() (lib/buildid.c): a perf_event bpf program,
 * written here as raw instructions, calls bpf_get_stackid() with
 * BPF_F_USER_STACK on every cpu-clock sample of this process while it
 * spins in a function of its own and in libc's memset().  The frames the
 * map holds must carry the build ids and file offsets that readelf finds
 * in the same files:
 *  - a frame in the spinning function: the build id readelf -n prints for
 *    the test binary, an offset inside the function's bytes in the file
 *    (readelf -s for the symbol, readelf -l for the segment it is in);
 *  - a frame in libc: the build id readelf -n prints for the mapped libc,
 *    an offset inside one of its executable segments;
 *  - every frame with a build id: the id of a file this process maps, an
 *    offset inside that mapping's part of the file; the sampled ip itself
 *    (frame 0), an offset inside an executable segment.
 *
 * Frames past the first come from unwinding by frame pointers, through
 * code built without them: some are garbage.  Those below a mapping get
 * its id and an offset that wraps (see in_gap()); they are counted and
 * shown, not failed, as Linux has done so since build-id stacks came.
 *
 * No libbpf, no clang: bpf(2) and struct bpf_insn only.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>

#include "../kselftest.h"

#define DEPTH		16	/* frames per stack */
#define MAX_STACKS	1024	/* distinct stacks the map holds */
#define MAX_FILES	64	/* distinct files mapped by this process */
#define MAX_MAPS	256
#define MAX_VMAS	1024
#define MAX_SEGS	16
#define BUILD_ID_MAX	20
#define SAMPLE_NS	1000000	/* one sample per ms of cpu time */
#define ROUND_NS	20000000	/* cpu time per workload per round */
#define BUDGET_NS	3000000000LL	/* cpu time of all rounds, at most */
#define MIN_SAMPLES	20	/* samples wanted, within the budget */

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* the counters the program keeps, keys of the array map */
enum { CNT_OK, CNT_ERR, CNT_LAST_ERR, CNT_NR };

/* the tests, in TAP order */
enum { T_SETUP, T_SAMPLES, T_EXE, T_LIBC, T_ALL, T_NR };

static const char * const test_name[T_NR] = {
	[T_SETUP]	= "bpf_setup",
	[T_SAMPLES]	= "samples",
	[T_EXE]		= "exe_frame",
	[T_LIBC]	= "libc_frame",
	[T_ALL]		= "all_frames",
};

struct segment {
	__u64 offset, vaddr, filesz;
	bool exec;
};

/* a file mapped by this process, as readelf sees it */
struct elf_file {
	char path[PATH_MAX];
	unsigned char id[BUILD_ID_MAX];
	int id_size;			/* 0: readelf found no id */
	struct segment seg[MAX_SEGS];
	int nseg;
};

/* a line of /proc/self/maps with a file */
struct mapping {
	__u64 start, end, pgoff;
	bool exec;
	int file;			/* index in files[] */
};

static struct elf_file files[MAX_FILES];
static int nfiles;
static struct mapping maps[MAX_MAPS];
static int nmaps;
/* every line of /proc/self/maps, files or not */
static struct { __u64 start, end; } vmas[MAX_VMAS];
static int nvmas;

/* what a scan of the stack map found */
struct scan {
	int stacks;
	int frames, valid, ip;
	int exe_hits, libc_hits;
	__u64 exe_off, libc_off;	/* the offset of the last hit of each */
	int gap;			/* ip below a mapping, see in_gap() */
	int bad;			/* valid frames readelf disagrees with */
	char why[512];			/* about the first bad frame */
	char exe_seen[256];		/* exe frames outside the function */
	char gap_seen[256];		/* the first gap frame */
};

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			   int group_fd, unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* cpu time of this thread, in ns */
static __s64 cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * The workload in the test binary: the samples land in this function, which
 * calls nothing.  noclone: no .constprop or .isra copy takes the calls
 * under another name than the one readelf -s is asked for.
 */
__attribute__((noinline, noclone, used))
unsigned long bsb_spin(unsigned long n)
{
	unsigned long x = 0;

	while (n--) {
		x += n ^ (x >> 3);
		asm volatile("" : "+r" (x));	/* keep the loop and the call */
	}
	return x;
}

static void spin_exe(__s64 ns)
{
	__s64 end = cpu_ns() + ns;

	while (cpu_ns() < end)
		bsb_spin(20000);
}

/* The workload in libc: memset() of a buffer the compiler can't see. */
static char memset_buf[64 * 1024];

static void spin_libc(__s64 ns)
{
	__s64 end = cpu_ns() + ns;
	size_t size = sizeof(memset_buf);
	char *buf = memset_buf;
	int i = 0;

	while (cpu_ns() < end) {
		asm("" : "+r" (buf), "+r" (size));	/* a real call */
		memset(buf, i++, size);
		asm volatile("" : : "r" (buf) : "memory");	/* used */
	}
}

/*
 * Run "readelf @opt @path" with LC_ALL=C (its output is parsed) and return
 * its standard output, or NULL.  readelf_close() waits for it.
 */
static FILE *readelf_open(const char *opt, const char *path, pid_t *pid)
{
	int fds[2];
	FILE *f;

	if (pipe2(fds, O_CLOEXEC))
		return NULL;
	fflush(stdout);
	*pid = fork();
	if (*pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	if (*pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		setenv("LC_ALL", "C", 1);
		execlp("readelf", "readelf", "-W", opt, path, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	if (!f)
		close(fds[0]);
	return f;
}

/* Returns readelf's exit status, 127 when it could not be run. */
static int readelf_close(FILE *f, pid_t pid)
{
	int status;

	fclose(f);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void id_to_hex(const unsigned char *id, int size, char *out)
{
	int i;

	for (i = 0; i < size; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * size] = '\0';
}

/*
 * readelf -n: the "Build ID:" of @file (0 bytes when there is none) and
 * readelf -l: its PT_LOAD segments.  Returns readelf's exit status.
 */
static int readelf_file(struct elf_file *file)
{
	char line[1024];
	pid_t pid;
	FILE *f;
	int ret;

	file->id_size = 0;
	f = readelf_open("-n", file->path, &pid);
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "Build ID:");
		int n = 0;

		if (!p || file->id_size)
			continue;
		p += strlen("Build ID:");
		while (*p == ' ')
			p++;
		while (n < BUILD_ID_MAX && hexval(p[0]) >= 0 && hexval(p[1]) >= 0) {
			file->id[n++] = hexval(p[0]) << 4 | hexval(p[1]);
			p += 2;
		}
		file->id_size = n;
	}
	ret = readelf_close(f, pid);
	if (ret)
		return ret;

	/* "  LOAD  0xOFFSET 0xVADDR 0xPADDR 0xFILESZ 0xMEMSZ FLAGS 0xALIGN" */
	file->nseg = 0;
	f = readelf_open("-l", file->path, &pid);
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		struct segment *s = &file->seg[file->nseg];
		__u64 paddr, memsz;
		char type[16], *flags, *align;
		int end;

		if (file->nseg == MAX_SEGS ||
		    sscanf(line, "%15s %llx %llx %llx %llx %llx %n", type,
			   &s->offset, &s->vaddr, &paddr, &s->filesz, &memsz,
			   &end) != 6 ||
		    strcmp(type, "LOAD"))
			continue;
		flags = line + end;
		align = strstr(flags, "0x");
		if (align)
			*align = '\0';
		s->exec = strchr(flags, 'E');
		file->nseg++;
	}
	return readelf_close(f, pid);
}

/*
 * readelf -s: the value and size of the function @name in @path.
 * Returns 0 when found.
 */
static int readelf_symbol(const char *path, const char *name,
			  __u64 *value, __u64 *size)
{
	char line[1024], type[32], sym[256], size_str[32];
	int found = -1;
	pid_t pid;
	FILE *f;

	f = readelf_open("-s", path, &pid);
	if (!f)
		return -1;
	/* "   42: 0000000000001230   117 FUNC    GLOBAL DEFAULT   14 name" */
	while (fgets(line, sizeof(line), f)) {
		__u64 v;

		if (sscanf(line, "%*s %llx %31s %31s %*s %*s %*s %255s",
			   &v, size_str, type, sym) != 4 ||
		    strcmp(type, "FUNC") || strcmp(sym, name))
			continue;
		*value = v;
		*size = strtoull(size_str, NULL, 0);
		found = 0;
	}
	if (readelf_close(f, pid))
		return -1;
	return found;
}

/*
 * The file mappings of this process (/proc/self/maps), and for each file
 * its build id and segments as readelf sees them.  Returns 0, 127 when
 * readelf can't be run, or -1 and says why.
 */
static int read_maps(void)
{
	char line[PATH_MAX + 128];
	FILE *f = fopen("/proc/self/maps", "r");
	int i, ret;

	if (!f) {
		ksft_print_msg("cannot open /proc/self/maps: %s\n", strerror(errno));
		return -1;
	}
	nmaps = 0;
	nfiles = 0;
	nvmas = 0;
	while (fgets(line, sizeof(line), f)) {
		struct mapping *m = &maps[nmaps];
		__u64 start, end, pgoff;
		char perms[8], *path;
		int pos;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n",
			   &start, &end, perms, &pgoff, &pos) != 4)
			continue;
		if (nvmas < MAX_VMAS) {
			vmas[nvmas].start = start;
			vmas[nvmas++].end = end;
		}
		path = line + pos;
		path[strcspn(path, "\n")] = '\0';
		if (path[0] != '/' || nmaps == MAX_MAPS)
			continue;
		m->start = start;
		m->end = end;
		m->pgoff = pgoff;
		m->exec = perms[2] == 'x';
		for (i = 0; i < nfiles; i++)
			if (!strcmp(files[i].path, path))
				break;
		if (i == nfiles) {
			if (nfiles == MAX_FILES)
				continue;
			snprintf(files[nfiles++].path, PATH_MAX, "%s", path);
		}
		m->file = i;
		nmaps++;
	}
	fclose(f);
	for (i = 0; i < nfiles; i++) {
		ret = readelf_file(&files[i]);
		if (ret == 127)
			return 127;
		/* not ELF (a locale file, say): no id, no segments */
	}
	return 0;
}

static struct mapping *mapping_of(__u64 addr)
{
	int i;

	for (i = 0; i < nmaps; i++)
		if (addr >= maps[i].start && addr < maps[i].end)
			return &maps[i];
	return NULL;
}

/* the file whose readelf build id is @id (zero-padded to 20 bytes) */
static int file_of_id(const unsigned char *id)
{
	static const unsigned char zero[BUILD_ID_MAX];
	int i;

	for (i = 0; i < nfiles; i++) {
		int n = files[i].id_size;

		if (n && !memcmp(files[i].id, id, n) &&
		    !memcmp(id + n, zero, BUILD_ID_MAX - n))
			return i;
	}
	return -1;
}

/* the segment of @file holding file offset @off, or NULL */
static struct segment *segment_of(struct elf_file *file, __u64 off)
{
	int i;

	for (i = 0; i < file->nseg; i++)
		if (off >= file->seg[i].offset &&
		    off - file->seg[i].offset < file->seg[i].filesz)
			return &file->seg[i];
	return NULL;
}

/* whether a file with a build id is mapped executable */
static bool exec_id_mapped(void)
{
	int i;

	for (i = 0; i < nmaps; i++)
		if (maps[i].exec && files[maps[i].file].id_size)
			return true;
	return false;
}

/* a mapping of @file that maps file offset @off */
static bool offset_mapped(int file, __u64 off)
{
	int i;

	for (i = 0; i < nmaps; i++)
		if (maps[i].file == file && off >= maps[i].pgoff &&
		    off - maps[i].pgoff < maps[i].end - maps[i].start)
			return true;
	return false;
}

/*
 * Whether a frame of @file at @off comes from an ip in the hole below one
 * of the file's mappings: the stack map looks ips up with find_vma(), which
 * gives the first vma ending above the ip, even one starting above it, and
 * computes an offset below the mapping's (it wraps).  Such ips are not in
 * any file: garbage from unwinding code built without frame pointers.
 * Linux does this before our series and after (seen on 6.18 as well).
 */
static bool in_gap(int file, __u64 off, __u64 *ipp)
{
	int i, j;

	for (i = 0; i < nmaps; i++) {
		struct mapping *m = &maps[i];
		__u64 ip = m->start + (off - m->pgoff);	/* mod 2^64 */

		if (m->file != file || ip >= m->start)
			continue;
		for (j = 0; j < nvmas; j++)
			if (vmas[j].end > ip && vmas[j].start < m->start)
				break;
		if (j == nvmas) {
			*ipp = ip;
			return true;
		}
	}
	return false;
}

static bool is_libc(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strncmp(base, "libc.so", 7) || !strncmp(base, "libc-", 5);
}

struct expect {
	int exe;			/* files[] index of the test binary */
	int libc;			/* files[] index of libc, or -1 */
	__u64 fn_start, fn_end;	/* bsb_spin's bytes in the file */
};

static void bad_frame(struct scan *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->bad++) {
		va_start(ap, fmt);
		vsnprintf(s->why, sizeof(s->why), fmt, ap);
		va_end(ap);
	}
}

/* One frame of a stack: check it against readelf, count it in @s. */
static void check_frame(const struct bpf_stack_build_id *fr, int depth,
			const struct expect *e, struct scan *s)
{
	char hex[2 * BUILD_ID_MAX + 1];
	struct segment *seg;
	__u64 ip;
	int file;

	s->frames++;
	if (fr->status == BPF_STACK_BUILD_ID_IP) {
		s->ip++;
		return;
	}
	if (fr->status != BPF_STACK_BUILD_ID_VALID) {
		bad_frame(s, "frame %d: status %d, expected %d (valid) or %d (ip)",
			  depth, fr->status, BPF_STACK_BUILD_ID_VALID,
			  BPF_STACK_BUILD_ID_IP);
		return;
	}
	s->valid++;
	id_to_hex(fr->build_id, BUILD_ID_MAX, hex);
	file = file_of_id(fr->build_id);
	if (file < 0) {
		bad_frame(s,
			  "frame %d: build id %s at offset %#llx: expected the id readelf -n gives for one of the %d files mapped",
			  depth, hex, (__u64)fr->offset, nfiles);
		return;
	}
	if (depth > 0 && !offset_mapped(file, fr->offset) &&
	    in_gap(file, fr->offset, &ip)) {
		if (!s->gap++)
			snprintf(s->gap_seen, sizeof(s->gap_seen),
				 "frame %d: ip %#llx, below a mapping of %s: offset %#llx",
				 depth, ip, files[file].path,
				 (__u64)fr->offset);
		return;
	}
	if (!offset_mapped(file, fr->offset)) {
		bad_frame(s,
			  "frame %d: offset %#llx in %s (id %s): expected an offset that a mapping of the file maps",
			  depth, (__u64)fr->offset, files[file].path, hex);
		return;
	}
	seg = segment_of(&files[file], fr->offset);
	/* frame 0 is the sampled ip itself: code, whatever the unwinder does */
	if (depth == 0 && (!seg || !seg->exec)) {
		bad_frame(s,
			  "frame 0: offset %#llx in %s: expected an offset in an executable PT_LOAD (readelf -l)",
			  (__u64)fr->offset, files[file].path);
		return;
	}
	if (file == e->exe) {
		if (fr->offset >= e->fn_start && fr->offset < e->fn_end) {
			s->exe_hits++;
			s->exe_off = fr->offset;
		} else if (strlen(s->exe_seen) < sizeof(s->exe_seen) - 24) {
			snprintf(s->exe_seen + strlen(s->exe_seen), 24, " %#llx",
				 (__u64)fr->offset);
		}
	}
	if (file == e->libc && seg && seg->exec) {
		s->libc_hits++;
		s->libc_off = fr->offset;
	}
}

/* Read every stack of @map_fd and check each frame. Returns 0 or -errno. */
static int scan_map(int map_fd, const struct expect *e, struct scan *s)
{
	static struct bpf_stack_build_id stack[DEPTH];
	union bpf_attr attr;
	__u32 key, next;
	bool first = true;
	int i;

	memset(s, 0, sizeof(*s));
	for (;;) {
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = map_fd;
		attr.key = first ? 0 : (uintptr_t)&key;
		attr.next_key = (uintptr_t)&next;
		if (sys_bpf(BPF_MAP_GET_NEXT_KEY, &attr))
			return errno == ENOENT ? 0 : -errno;
		first = false;
		key = next;

		memset(&attr, 0, sizeof(attr));
		attr.map_fd = map_fd;
		attr.key = (uintptr_t)&key;
		attr.value = (uintptr_t)stack;
		if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr))
			continue;	/* replaced meanwhile */
		s->stacks++;
		for (i = 0; i < DEPTH; i++) {
			if (stack[i].status == BPF_STACK_BUILD_ID_EMPTY)
				break;
			check_frame(&stack[i], i, e, s);
		}
	}
}

static int map_create(__u32 type, __u32 key_size, __u32 value_size,
		      __u32 max_entries, __u32 flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = key_size;
	attr.value_size = value_size;
	attr.max_entries = max_entries;
	attr.map_flags = flags;
	return sys_bpf(BPF_MAP_CREATE, &attr);
}

static __s64 counter(int cnt_fd, __u32 key)
{
	union bpf_attr attr;
	__s64 val = 0;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = cnt_fd;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)&val;
	if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr))
		return -1;
	return val;
}

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })
#define MOV64_REG(d, s)		INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV64_IMM(d, i)		INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define ADD64_IMM(d, i)		INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define ST_W(d, o, i)		INSN(BPF_ST | BPF_MEM | BPF_W, d, 0, o, i)
#define STX_DW(d, s, o)		INSN(BPF_STX | BPF_MEM | BPF_DW, d, s, o, 0)
#define XADD_DW(d, s, o)	INSN(BPF_STX | BPF_XADD | BPF_DW, d, s, o, 0)
#define JSGE_IMM(d, i, o)	INSN(BPF_JMP | BPF_JSGE | BPF_K, d, 0, o, i)
#define JEQ_IMM(d, i, o)	INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)
#define CALL(f)			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT()			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* r@d = the map of fd @fd: an ld_imm64, the two instructions */
#define LD_MAP_FD(d, fd) \
	INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd)
#define LD_IMM64_HI()		INSN(0, 0, 0, 0, 0)

/*
 * The program, for each sample:
 *	id = bpf_get_stackid(ctx, stack_map, BPF_F_USER_STACK);
 *	counts[id < 0 ? CNT_ERR : CNT_OK] += 1;
 *	if (id < 0)
 *		counts[CNT_LAST_ERR] = id;
 *	return 0;
 */
static int prog_load(int stack_fd, int cnt_fd, char *log, size_t log_size)
{
	const struct bpf_insn insns[] = {
		/* r7 = bpf_get_stackid(r1, stack_map, BPF_F_USER_STACK) */
		LD_MAP_FD(BPF_REG_2, stack_fd), LD_IMM64_HI(),
		MOV64_IMM(BPF_REG_3, BPF_F_USER_STACK),
		CALL(BPF_FUNC_get_stackid),
		MOV64_REG(BPF_REG_7, BPF_REG_0),
		/* key = r7 < 0 ? CNT_ERR : CNT_OK, at fp - 4 */
		ST_W(BPF_REG_10, -4, CNT_OK),
		JSGE_IMM(BPF_REG_7, 0, 1),
		ST_W(BPF_REG_10, -4, CNT_ERR),
		/* counts[key] += 1 */
		LD_MAP_FD(BPF_REG_1, cnt_fd), LD_IMM64_HI(),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(BPF_REG_0, 0, 2),
		MOV64_IMM(BPF_REG_1, 1),
		XADD_DW(BPF_REG_0, BPF_REG_1, 0),
		/* if (r7 < 0) counts[CNT_LAST_ERR] = r7 */
		JSGE_IMM(BPF_REG_7, 0, 8),
		ST_W(BPF_REG_10, -4, CNT_LAST_ERR),
		LD_MAP_FD(BPF_REG_1, cnt_fd), LD_IMM64_HI(),
		MOV64_REG(BPF_REG_2, BPF_REG_10),
		ADD64_IMM(BPF_REG_2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(BPF_REG_0, 0, 1),
		STX_DW(BPF_REG_0, BPF_REG_7, 0),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_PERF_EVENT;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = ARRAY_SIZE(insns);
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)log;
	attr.log_size = log_size;
	attr.log_level = 1;
	log[0] = '\0';
	return sys_bpf(BPF_PROG_LOAD, &attr);
}

static int next_test = T_SETUP;

/* the failures of the tests after the samples: expected, then got */
#define NO_STACKS \
	"expected stacks from bpf_get_stackid, got %lld ok and %lld failed calls (last error %lld), %d stacks in the map"
#define NO_EXE_FRAME \
	"expected a valid frame with build id %s at an offset in [%#llx, %#llx), got none (%d valid frames; offsets seen in the binary:%s)"
#define NO_LIBC_FRAME \
	"expected a valid frame with build id %s in an executable segment of %s, got none (%d valid frames)"

/* The next test passed. */
static void result_pass(void)
{
	ksft_test_result_pass("%s\n", test_name[next_test++]);
}

/* The next test failed: say why, expected against got. */
static void result_fail(const char *fmt, ...)
{
	char why[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	ksft_test_result_fail("%s: %s\n", test_name[next_test++], why);
}

/* The next test can't run here. */
static void result_skip(const char *why)
{
	ksft_test_result_skip("%s: %s\n", test_name[next_test++], why);
}

/* Report every test not reported yet as skipped, then exit. */
static void skip_rest(const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	for (; next_test < T_NR; next_test++)
		ksft_test_result_skip("%s: %s\n", test_name[next_test], why);
	ksft_exit_pass();
}

/* Report every test not reported yet as failed, then exit. */
static void fail_rest(const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	ksft_test_result_fail("%s: %s\n", test_name[next_test++], why);
	for (; next_test < T_NR; next_test++)
		ksft_test_result_skip("%s: %s failed\n", test_name[next_test],
				      test_name[T_SETUP]);
	ksft_exit_fail();
}

/* Map, program and event; skips the whole test when the kernel says no. */
static void setup(int *stack_fd, int *cnt_fd, int *ev_fd)
{
	static char log[65536];
	struct perf_event_attr pe = {
		.type		= PERF_TYPE_SOFTWARE,
		.size		= sizeof(pe),
		.config		= PERF_COUNT_SW_CPU_CLOCK,
		.sample_period	= SAMPLE_NS,
		.disabled	= 1,
		.exclude_kernel	= 1,	/* user-mode samples: paranoid 2 */
		.exclude_hv	= 1,
	};
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	const char *memlock = "";
	int prog_fd;

	/*
	 * Before Linux 5.11 bpf maps count against RLIMIT_MEMLOCK, and a map
	 * over the limit is refused with EPERM, as if bpf() were not allowed.
	 * Later kernels don't look at it, and may run us unable to raise it.
	 */
	if (setrlimit(RLIMIT_MEMLOCK, &unlimited))
		memlock = " (and RLIMIT_MEMLOCK could not be raised)";
	*stack_fd = map_create(BPF_MAP_TYPE_STACK_TRACE, sizeof(__u32),
			       sizeof(struct bpf_stack_build_id) * DEPTH,
			       MAX_STACKS, BPF_F_STACK_BUILD_ID);
	if (*stack_fd < 0) {
		if (errno == EPERM || errno == EACCES)
			skip_rest("bpf(BPF_MAP_CREATE) not permitted: %s%s",
				  strerror(errno), memlock);
		/* the sysctl is there when bpf() is */
		if (access("/proc/sys/kernel/unprivileged_bpf_disabled", F_OK))
			skip_rest("kernel without bpf(): %s", strerror(errno));
		fail_rest("BPF_MAP_CREATE of the stack map: expected a map, got %s",
			  strerror(errno));
	}
	*cnt_fd = map_create(BPF_MAP_TYPE_ARRAY, sizeof(__u32), sizeof(__u64),
			     CNT_NR, 0);
	if (*cnt_fd < 0)
		fail_rest("BPF_MAP_CREATE of the counters: expected a map, got %s",
			  strerror(errno));
	prog_fd = prog_load(*stack_fd, *cnt_fd, log, sizeof(log));
	if (prog_fd < 0) {
		if (errno == EPERM || errno == EACCES)
			skip_rest("bpf(BPF_PROG_LOAD) not permitted: %s", strerror(errno));
		ksft_print_msg("verifier log:\n%s\n", log);
		fail_rest("BPF_PROG_LOAD of a perf_event program: expected a program, got %s",
			  strerror(errno));
	}
	*ev_fd = perf_event_open(&pe, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (*ev_fd < 0) {
		if (errno == EPERM || errno == EACCES)
			skip_rest("perf_event_open not permitted (perf_event_paranoid?): %s",
				  strerror(errno));
		if (errno == ENOENT || errno == EOPNOTSUPP)
			skip_rest("no cpu-clock sampling event: %s", strerror(errno));
		fail_rest("perf_event_open of cpu-clock: expected an event, got %s",
			  strerror(errno));
	}
	if (ioctl(*ev_fd, PERF_EVENT_IOC_SET_BPF, prog_fd))
		fail_rest("PERF_EVENT_IOC_SET_BPF: expected 0, got %s", strerror(errno));
	close(prog_fd);	/* the event holds it */
	result_pass();
}

/*
 * Where bsb_spin() is in the test binary: its file offsets by readelf -s
 * and -l, checked against where it is mapped in this process.  Returns 0;
 * 1 when the binary has no build id to expect (a toolchain that links
 * without one), -1 on a failure; and says why in @why.
 */
static int find_spin(struct expect *e, char *why, size_t len)
{
	__u64 addr = (uintptr_t)bsb_spin;
	struct mapping *m = mapping_of(addr);
	__u64 value, size, runtime_off;
	struct elf_file *exe;
	int i;

	if (!m) {
		snprintf(why, len,
			 "bsb_spin at %#llx: expected in a file mapping of /proc/self/maps, it is in none",
			 addr);
		return -1;
	}
	e->exe = m->file;
	exe = &files[e->exe];
	if (!exe->id_size) {
		snprintf(why, len,
			 "readelf -n %s: no Build ID, none to expect (linked without -Wl,--build-id?)",
			 exe->path);
		return 1;
	}
	if (readelf_symbol(exe->path, "bsb_spin", &value, &size) || !size) {
		snprintf(why, len,
			 "readelf -s %s: expected a FUNC bsb_spin with a size, got none (stripped?)",
			 exe->path);
		return -1;
	}
	for (i = 0; i < exe->nseg; i++) {
		struct segment *s = &exe->seg[i];

		if (value >= s->vaddr && value - s->vaddr < s->filesz)
			break;
	}
	if (i == exe->nseg) {
		snprintf(why, len,
			 "readelf -l %s: expected a PT_LOAD holding bsb_spin's address %#llx, got none",
			 exe->path, value);
		return -1;
	}
	e->fn_start = value - exe->seg[i].vaddr + exe->seg[i].offset;
	e->fn_end = e->fn_start + size;
	runtime_off = addr - m->start + m->pgoff;
	if (runtime_off != e->fn_start) {
		snprintf(why, len,
			 "bsb_spin: file offset %#llx by readelf, %#llx by /proc/self/maps (%#llx in %llx-%llx at %llx)",
			 e->fn_start, runtime_off, addr, m->start, m->end,
			 m->pgoff);
		return -1;
	}
	return 0;
}

int main(void)
{
	char hex[2 * BUILD_ID_MAX + 1], why[1024];
	int stack_fd, cnt_fd, ev_fd, i, ret, rounds = 0;
	__s64 start, ok, err, last_err;
	struct expect e = { .libc = -1 };
	bool exe_known;
	struct scan s;
	int spin;

	ksft_print_header();
	ksft_set_plan(T_NR);
	setup(&stack_fd, &cnt_fd, &ev_fd);

	/* readelf before the samples: it is not the workload */
	ret = read_maps();
	if (ret == 127)
		skip_rest("readelf not found (binutils)");
	if (ret)
		fail_rest("cannot read /proc/self/maps");
	spin = find_spin(&e, why, sizeof(why));
	exe_known = !spin;
	for (i = 0; i < nfiles; i++) {
		if (is_libc(files[i].path) && files[i].id_size)
			e.libc = i;
		id_to_hex(files[i].id, files[i].id_size, hex);
		ksft_print_msg("readelf -n %s: build id %s\n", files[i].path,
			       files[i].id_size ? hex : "(none)");
	}
	if (exe_known)
		ksft_print_msg("bsb_spin: file offsets [%#llx, %#llx) of %s\n",
			       e.fn_start, e.fn_end, files[e.exe].path);
	else
		e.exe = -1;

	/*
	 * Rounds of both workloads until each has a frame and there are
	 * MIN_SAMPLES samples, or until the budget is spent.
	 */
	start = cpu_ns();
	do {
		rounds++;
		ioctl(ev_fd, PERF_EVENT_IOC_ENABLE, 0);
		spin_exe(ROUND_NS);
		spin_libc(ROUND_NS);
		ioctl(ev_fd, PERF_EVENT_IOC_DISABLE, 0);
		ret = scan_map(stack_fd, &e, &s);
		if (ret)
			fail_rest("iterating the stack map: %s", strerror(-ret));
	} while (((exe_known && !s.exe_hits) || (e.libc >= 0 && !s.libc_hits) ||
		  counter(cnt_fd, CNT_OK) + counter(cnt_fd, CNT_ERR) < MIN_SAMPLES) &&
		 cpu_ns() - start < BUDGET_NS);

	ok = counter(cnt_fd, CNT_OK);
	err = counter(cnt_fd, CNT_ERR);
	last_err = counter(cnt_fd, CNT_LAST_ERR);
	ksft_print_msg("%d rounds, %.2f s cpu: %lld samples, %lld failed (last error %lld)\n",
		       rounds, (cpu_ns() - start) / 1e9, ok + err, err, last_err);
	ksft_print_msg("%d stacks, %d frames: %d valid, %d ip\n",
		       s.stacks, s.frames, s.valid, s.ip);
	if (s.gap)
		ksft_print_msg("%d valid frames of ips in no vma, not checked; first: %s\n",
			       s.gap, s.gap_seen);

	/* samples */
	if (ok > 0 && s.stacks > 0)
		result_pass();
	else
		result_fail(NO_STACKS, ok, err, last_err, s.stacks);

	/* exe_frame */
	if (exe_known)
		id_to_hex(files[e.exe].id, files[e.exe].id_size, hex);
	if (exe_known && s.exe_hits)
		ksft_print_msg("%d in bsb_spin, e.g. build id %s offset %#llx: bsb_spin+%#llx\n",
			       s.exe_hits, hex, s.exe_off, s.exe_off - e.fn_start);
	if (spin > 0)
		result_skip(why);
	else if (!exe_known)
		result_fail("%s", why);
	else if (s.exe_hits)
		result_pass();
	else
		result_fail(NO_EXE_FRAME, hex, e.fn_start, e.fn_end, s.valid,
			    s.exe_seen[0] ? s.exe_seen : " none");

	/* libc_frame */
	if (e.libc >= 0)
		id_to_hex(files[e.libc].id, files[e.libc].id_size, hex);
	if (e.libc >= 0 && s.libc_hits)
		ksft_print_msg("%d in libc code, e.g. build id %s offset %#llx\n",
			       s.libc_hits, hex, s.libc_off);
	if (e.libc < 0)
		result_skip("no libc with a build id mapped");
	else if (s.libc_hits)
		result_pass();
	else
		result_fail(NO_LIBC_FRAME, hex, files[e.libc].path, s.valid);

	/* all_frames */
	if (!s.bad && !s.valid && !exec_id_mapped())
		result_skip("no file with a build id mapped executable (readelf -n)");
	else if (s.bad)
		result_fail("%d of %d valid frames disagree with readelf, first: %s",
			    s.bad, s.valid, s.why);
	else if (!s.valid)
		result_fail("expected valid frames, got none of %d", s.frames);
	else
		result_pass();

	close(ev_fd);
	close(cnt_fd);
	close(stack_fd);
	ksft_print_cnts();
	return ksft_get_fail_cnt() ? KSFT_FAIL : KSFT_PASS;
}
