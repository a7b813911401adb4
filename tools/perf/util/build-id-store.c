// SPDX-License-Identifier: GPL-2.0
/*
 * Fill the build-id cache (~/.debug) with the binaries a perf.data file
 * names, each checked against the build id recorded for it:
 *
 *   perf buildid-list --store   from this machine's files
 *   perf report --store         the same, then debuginfod for the rest
 *
 * One line per DSO: "OK <id> <name>", or "FAIL <id> <name> (<why>)".  An
 * entry already in the cache is reused.  Downloads run in parallel, a bounded
 * number at a time; libdebuginfod honours DEBUGINFOD_URLS and
 * DEBUGINFOD_TIMEOUT and only ever renames complete files into its cache,
 * and copies into ~/.debug go through a temporary name too.  With each
 * downloaded binary comes its debuginfo, where a server has it: what
 * names the static functions of a stripped binary.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/list.h>
#include <linux/string.h>
#include <linux/zalloc.h>
#ifdef HAVE_DEBUGINFOD_SUPPORT
#include <elfutils/debuginfod.h>
#endif

#ifdef HAVE_LIBELF_SUPPORT
#include <gelf.h>
#endif
#include "build-id.h"
#include "build-id-store.h"
#include "config.h"
#include "copyfile.h"
#include "data.h"
#include "evlist.h"
#include "evsel.h"
#include "debug.h"
#include "dso.h"
#include "machine.h"
#include "map.h"
#include "namespaces.h"
#include "session.h"
#include "symbol.h"
#include "util.h"
#include "vdso.h"

#define STORE_JOBS_DEFAULT	8

static int store_jobs = STORE_JOBS_DEFAULT;
/* buildid.debuginfod-deadline, --store-deadline: seconds, 0 for none */
static int store_deadline_s;
/* without a terminal, a line on stderr this often while waiting, in ms */
#define STORE_BEAT_MS	5000
static char *record_debuginfod;	/* record.debuginfod: "system" or URLs */
/*
 * ^C or a TERM while downloading: the signal, to end cleanly then die
 * of.  Set by a signal handler: read with READ_ONCE().
 */
static sig_atomic_t store_interrupted;

struct store_entry {
	struct dso	*dso;
	char		sbuild_id[SBUILD_ID_SIZE];
	char		*fetched;	/* downloaded file */
	char		*fetched_debug;	/* its downloaded debuginfo */
	u64		fetched_bytes;	/* their sizes */
	bool		fetched_good;	/* fetched has the build id asked for */
	int		err;		/* of the download, a -errno */
	bool		over_maxtime;	/* err came at DEBUGINFOD_MAXTIME */
	bool		interrupted;	/* err came of a signal */
	bool		over_deadline;	/* err came at the store's deadline */
	const char	*why;		/* not stored from this machine: why */
	const char	*fetch_why;	/* downloaded, not stored: why */
	bool		asked;		/* debuginfod was asked */
	bool		no_id;		/* hit, but recorded without an id */
	bool		refused;	/* its name cannot name a cache entry */
	bool		ok;
	bool		reported;	/* its OK or FAIL line is out */
	char		*from;		/* the server it was downloaded from */
};

/* One --store: what its downloads share, under lock once they run. */
struct store_run {
	struct store_entry	*entries;
	size_t			nr;
	size_t			next;		/* the next to download */
	bool			debuginfod;	/* report --store */
	int			fails;
	/* a line redrawn on a terminal; with DEBUGINFOD_PROGRESS, lines */
	bool			progress_tty;
	bool			progress_lines;
	bool			drawn;
	u64			drawn_ms;
	size_t			todo;		/* downloads */
	size_t			done;
	u64			bytes;		/* downloaded, of those done */
	u64			inflight[64];	/* downloaded, of each one under way */
	int			nr_workers;
	u64			start_ms;
	u64			beat_ms;	/* the last line without a terminal */
	u64			moved_ms;	/* the last byte received */
	u64			moved_bytes;
	u64			deadline_ms;	/* 0: none */
	bool			timed_out;	/* a download hit DEBUGINFOD_TIMEOUT */
	pthread_mutex_t		lock;
};

/* DEBUGINFOD_URLS, NULL if unset or empty: libdebuginfod asks no server */
static const char *debuginfod_urls(void)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	return urls && *urls ? urls : NULL;
}

/*
 * The first server of DEBUGINFOD_URLS that is no http:// or https:// URL,
 * into @buf, or NULL: libdebuginfod would take it for a host name
 * ("garbage") or fail on its scheme ("ftp://..."), each answer then
 * saying something else.  With one, no server is asked.
 */
static const char *debuginfod_urls__malformed(char *buf, size_t size)
{
	const char *urls = debuginfod_urls(), *p, *end;

	for (p = urls; p && *p; p = end) {
		size_t len;

		p += strspn(p, " \t\n");
		end = p + strcspn(p, " \t\n");
		len = end - p;
		if (!len)
			break;
		if ((len > 7 && !strncmp(p, "http://", 7)) ||
		    (len > 8 && !strncmp(p, "https://", 8)))
			continue;
		snprintf(buf, size, "%.*s", len > 64 ? 64 : (int)len, p);
		return buf;
	}
	return NULL;
}

/*
 * Wanted from debuginfod: not stored yet, with an id to ask for, and a
 * name the build-id cache can hold.
 */
static bool store_entry__wanted(struct store_entry *e)
{
	return !e->ok && !e->no_id && !e->refused;
}

/*
 * @var = @value into @dst: an int of @min or more, else an error saying
 * @what it takes, and @dst keeps @dflt.
 */
static int config_int_min(const char *var, const char *value, int *dst, int min,
			  int dflt, const char *what)
{
	if (perf_config_int(dst, var, value))
		return -1;
	if (*dst >= min)
		return 0;
	pr_err("bad config value for '%s': %s (%s)\n", var, value, what);
	*dst = dflt;
	return -1;
}

/*
 * buildid.debuginfod = URLS (or upstream perf's buildid-cache.debuginfod),
 * buildid.debuginfod-jobs = N, buildid.debuginfod-deadline = SECONDS, and
 * perf record's record.debuginfod = URLS or "system" (see
 * build_id_store__record_begin())
 */
int build_id_store__config(const char *var, const char *value)
{
	if (!strcmp(var, "record.debuginfod")) {
		free(record_debuginfod);
		record_debuginfod = value ? strdup(value) : NULL;
		return 0;
	}
	if (!strcmp(var, "buildid.debuginfod") ||
	    !strcmp(var, "buildid-cache.debuginfod")) {
		/* the environment wins, as for every libdebuginfod user */
		if (value && !debuginfod_urls())
			setenv("DEBUGINFOD_URLS", value, 1);
		return 0;
	}
	/* a key without a value is an error, not a crash */
	if (!strcmp(var, "buildid.debuginfod-jobs"))
		return config_int_min(var, value, &store_jobs, 1, STORE_JOBS_DEFAULT,
				      "one download at a time or more");
	if (!strcmp(var, "buildid.debuginfod-deadline"))
		return config_int_min(var, value, &store_deadline_s, 0, 0,
				      "seconds, 0 for none");
	return 0;
}

/* perf report --store-deadline: the whole store step's, in seconds */
void build_id_store__set_deadline(int seconds)
{
	store_deadline_s = seconds;
}

/*
 * build_id_cache__add_s() or build_id_cache__add_files() gave @err for
 * @e: true if it is stored.  If not, @e->why says so for an error that
 * trying again will not mend.
 */
static bool store_entry__added(struct store_entry *e, int err)
{
	if (err == -ELOOP || err == -ENOTDIR)
		e->why = "a symbolic link or a file in the way in the build-id cache: not followed";
	else if (err == -EINVAL)
		e->why = "refused as a name in the build-id cache";
	return !err;
}

/* The running kernel, if it is the one recorded: its kallsyms. */
static bool store_kernel(struct store_entry *e)
{
	struct build_id running;

	if (sysfs__read_build_id("/sys/kernel/notes", &running) ||
	    build_id__cmp(&running, &e->dso->bid)) {
		e->why = "not the running kernel";
		return false;
	}
	/* whatever the name recorded: the kernel's is fixed */
	return store_entry__added(e, build_id_cache__add_s(e->sbuild_id,
							   DSO__NAME_KALLSYMS,
							   NULL, true, false));
}

/* A module, decompressed if need be, if the file on disk is the one. */
static bool store_module(struct store_entry *e)
{
	struct dso *dso = e->dso;
	char tmp[PATH_MAX] = "";
	const char *path = dso->long_name;
	struct build_id bid;
	char *realname;
	bool ok = false;

	/* not on this machine: debuginfod may have it */
	if (access(dso->long_name, R_OK)) {
		e->why = "not on this machine";
		return false;
	}
	if (dso__needs_decompress(dso)) {
		if (dso__decompress_kmodule_path(dso, dso->long_name, tmp, sizeof(tmp))) {
			e->why = "cannot decompress the module here";
			return false;
		}
		path = tmp;
	}
	if (filename__read_build_id(path, &bid) <= 0 || build_id__cmp(&bid, &dso->bid)) {
		e->why = "the file here has another build id";
		goto out;
	}
	if (path == tmp) {
		/* the decompressed copy, cached under the module's path */
		realname = realpath(dso->long_name, NULL);
		ok = realname &&
		     store_entry__added(e, build_id_cache__add_files(e->sbuild_id,
								     realname,
								     tmp, NULL));
		free(realname);
	} else {
		ok = store_entry__added(e, build_id_cache__add_s(e->sbuild_id, path,
								 NULL, false,
								 false));
	}
out:
	if (path == tmp)
		unlink(tmp);
	return ok;
}

/* A user binary, read inside the mount namespace it was mapped in. */
static bool store_file(struct store_entry *e)
{
	struct dso *dso = e->dso;
	struct nscookie nsc;
	struct build_id bid;
	int ret;

	nsinfo__mountns_enter(dso->nsinfo, &nsc);
	ret = access(dso->long_name, R_OK) ? -ENOENT :
	      filename__read_build_id(dso->long_name, &bid);
	nsinfo__mountns_exit(&nsc);
	if (ret == -ENOENT) {
		e->why = "not on this machine";
		return false;
	}
	if (ret <= 0 || build_id__cmp(&bid, &dso->bid)) {
		e->why = "the file here has another build id";
		return false;
	}
	return store_entry__added(e, build_id_cache__add_s(e->sbuild_id,
							   dso->long_name,
							   dso->nsinfo, false,
							   false));
}

/* The kernel or one of its modules: not a file mapped by a task. */
static bool dso__is_kernel_side(struct dso *dso)
{
	return dso->kernel || is_kernel_module(dso->long_name,
					       PERF_RECORD_MISC_CPUMODE_UNKNOWN);
}

static bool store_local(struct store_entry *e)
{
	struct dso *dso = e->dso;
	bool (*store)(struct store_entry *e) = store_file;
	int tries;

	if (dso__is_kallsyms(dso) ||
	    (dso->kernel && !is_kernel_module(dso->long_name,
					      PERF_RECORD_MISC_CPUMODE_UNKNOWN)))
		store = store_kernel;
	else if (dso__is_kernel_side(dso))
		store = store_module;

	/*
	 * Another perf storing the same binary at the same time makes ours
	 * fail half way, on a directory or link it has just made.  Each try
	 * gets further (what is there is kept, files appear whole), and what
	 * counts is the entry in the cache.
	 */
	for (tries = 0; tries < 3; tries++) {
		if (build_id_cache__cached(e->sbuild_id))
			return true;
		e->why = NULL;
		if (store(e))
			return true;
		if (e->why)	/* this machine has not got it */
			return false;
	}
	if (build_id_cache__cached(e->sbuild_id))
		return true;
	e->why = "cannot write to the build-id cache";
	return false;
}

static u64 now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

/*
 * Why debuginfod did not give @e, into @buf: the servers asked are named,
 * as DEBUGINFOD_URLS has them (libdebuginfod asks them all at once).
 */
static const char *fetch_why(struct store_entry *e, char *buf, size_t size)
{
#ifdef HAVE_DEBUGINFOD_SUPPORT
	const char *urls = debuginfod_urls() ?: "(none)";
	char bad[80];

	if (e->fetch_why)
		return e->fetch_why;
	if (!e->asked) {
		if (READ_ONCE(store_interrupted))
			return "debuginfod: interrupted";
		if (!debuginfod_urls())
			return "no debuginfod server: DEBUGINFOD_URLS is not set";
		if (debuginfod_urls__malformed(bad, sizeof(bad))) {
			snprintf(buf, size,
				 "no debuginfod server asked: '%s' in DEBUGINFOD_URLS is no http:// or https:// URL",
				 bad);
			return buf;
		}
		return "debuginfod not asked";
	}
	if (e->interrupted)
		return "debuginfod: interrupted";
	if (e->over_deadline) {
		snprintf(buf, size,
			 "debuginfod: not downloaded within the store's deadline (%d s): %s",
			 store_deadline_s, urls);
		return buf;
	}
	switch (e->err) {
	case -ENOENT:
		snprintf(buf, size, "not on any debuginfod server: %s", urls);
		break;
	case -ETIME:
	case -ETIMEDOUT:
		snprintf(buf, size, "%s: %s", e->over_maxtime ?
			 "debuginfod: not downloaded within DEBUGINFOD_MAXTIME" :
			 "debuginfod timed out (DEBUGINFOD_TIMEOUT)", urls);
		break;
	case -EFBIG:
		return "debuginfod: larger than DEBUGINFOD_MAXSIZE";
	default:
		snprintf(buf, size, "debuginfod: %s: %s", strerror(-e->err), urls);
		break;
	}
	return buf;
#else
	return "perf built without libdebuginfod";
#endif
}

/*
 * Does the ELF file @path have a symbol table (@symtab: more than the
 * dynamic symbols, the names of static functions) or DWARF (@debuginfo)?
 * False if it cannot be read.
 */
static bool elf_file__symbols(const char *path, bool *symtab, bool *debuginfo)
{
#ifdef HAVE_LIBELF_SUPPORT
	/* libelf's handles, as void *: the names are the library's */
	void *elf, *scn = NULL;
	size_t shstrndx;
	struct stat st;
	bool opened;
	int fd;

	fd = open_regular_file(path, &st);
	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && !elf_getshdrstrndx(elf, &shstrndx)) {
		bool is64 = gelf_getclass(elf) == ELFCLASS64;

		while ((scn = elf_nextscn(elf, scn)) != NULL) {
			size_t type, name_off;
			const char *name;

			if (is64) {
				__auto_type sh = elf64_getshdr(scn);

				if (!sh)
					break;
				type = sh->sh_type;
				name_off = sh->sh_name;
			} else {
				__auto_type sh = elf32_getshdr(scn);

				if (!sh)
					break;
				type = sh->sh_type;
				name_off = sh->sh_name;
			}
			if (type == SHT_SYMTAB)
				*symtab = true;
			if (type == SHT_NOBITS)
				continue;
			name = elf_strptr(elf, shstrndx, name_off);
			if (name && (!strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info")))
				*debuginfo = true;
		}
	}
	opened = elf;
	elf_end(elf);
	close(fd);
	return opened;
#else
	return false;
#endif
}

/*
 * What the build-id cache now holds of @e, for perf report, into @buf:
 * "kallsyms", "with debuginfo", "symbols from its .symtab, no debuginfo"
 * or "executable only: stripped, ...": perf report then names only its
 * exported functions.  With the server it came from.
 */
/*
 * What the build-id cache holds for @sbuild_id: kallsyms, a symbol table,
 * debuginfo (its own or a separate "debug" file).  False if nothing.
 */
static bool build_id_cache__symbols(const char *sbuild_id, bool *kallsyms,
				    bool *symtab, bool *debuginfo)
{
	char *link = build_id_cache__linkname(sbuild_id, NULL, 0);
	char path[PATH_MAX];
	const char *file;
	bool found = false;

	*kallsyms = *symtab = *debuginfo = false;
	if (!link)
		return false;
	snprintf(path, sizeof(path), "%s/kallsyms", link);
	*kallsyms = found = !access(path, F_OK);
	snprintf(path, sizeof(path), "%s/debug", link);
	*debuginfo = !access(path, F_OK);
	for (file = "elf"; !found && file; file = strcmp(file, "elf") ? NULL : "vdso") {
		snprintf(path, sizeof(path), "%s/%s", link, file);
		found = elf_file__symbols(path, symtab, debuginfo);
	}
	free(link);
	return found;
}

static const char *store_entry__what(struct store_run *run, struct store_entry *e,
				     char *buf, size_t size)
{
	bool kallsyms, symtab, debuginfo;
	char what[256];

	if (!build_id_cache__symbols(e->sbuild_id, &kallsyms, &symtab, &debuginfo))
		return "stored";
	if (kallsyms) {
		snprintf(what, sizeof(what), "kallsyms");
	} else {
		if (debuginfo)
			snprintf(what, sizeof(what), "with debuginfo");
		else if (symtab)
			snprintf(what, sizeof(what), "symbols from its .symtab, no debuginfo");
		else if (run->debuginfod && debuginfod_urls())
			snprintf(what, sizeof(what),
				 "executable only: stripped, and no debuginfo here or on %s",
				 debuginfod_urls());
		else
			snprintf(what, sizeof(what),
				 "executable only: stripped, no debuginfo here");
	}
	if (e->from)
		snprintf(buf, size, "%s; from %s", what, e->from);
	else
		snprintf(buf, size, "%s", what);
	return buf;
}

static void store_run__progress(struct store_run *run, bool now);
static void store_run__progress_clear(struct store_run *run);

/*
 * @e's line, out now: "OK <id> <name> (<what perf report has>)" or
 * "FAIL <id> <name> (<why>)".
 */
static void store_run__report(struct store_run *run, struct store_entry *e)
{
	bool drawn = run->drawn;
	char buf[512];

	store_run__progress_clear(run);
	if (e->ok)
		printf("OK %s %s (%s)\n", e->sbuild_id, e->dso->long_name,
		       store_entry__what(run, e, buf, sizeof(buf)));
	else if (run->debuginfod && !e->no_id && !e->refused)
		printf("FAIL %s %s (%s; %s)\n", e->sbuild_id, e->dso->long_name,
		       e->why, fetch_why(e, buf, sizeof(buf)));
	else
		printf("FAIL %s %s (%s)\n", e->sbuild_id, e->dso->long_name, e->why);
	fflush(stdout);
	run->fails += !e->ok;
	e->reported = true;
	if (drawn || run->progress_lines)
		store_run__progress(run, true);
}

/*
 * "debuginfod: 3/50 done, 1.2 MB": the downloads so far, on a terminal a
 * line redrawn, else (with DEBUGINFOD_PROGRESS) a line per download done.
 * A wait is never silent: without a terminal, a line every STORE_BEAT_MS
 * while downloads are under way, and with no byte for that long, both say
 * ", waiting N s for <servers>".
 */
static void store_run__progress(struct store_run *run, bool now)
{
	u64 bytes = run->bytes, ms = now_ms();
	bool beat = false;
	char waiting[512] = "";
	int i;

	for (i = 0; i < run->nr_workers; i++)
		bytes += run->inflight[i];
	if (bytes != run->moved_bytes) {
		run->moved_bytes = bytes;
		run->moved_ms = ms;
	}
	if (run->done < run->todo && ms - run->moved_ms >= STORE_BEAT_MS)
		snprintf(waiting, sizeof(waiting), ", waiting %llu s for %s",
			 (unsigned long long)(ms - run->moved_ms) / 1000,
			 debuginfod_urls() ?: "(none)");
	if (!run->progress_tty && run->done < run->todo &&
	    ms - run->beat_ms >= STORE_BEAT_MS) {
		run->beat_ms = ms;
		beat = true;
	}
	if (!run->progress_tty) {
		if ((now && run->progress_lines) || beat)
			fprintf(stderr, "debuginfod: %zu/%zu done, %.1f MB%s\n",
				run->done, run->todo, bytes / 1e6, waiting);
		return;
	}
	if (run->done == run->todo || (!now && ms - run->drawn_ms < 100))
		return;
	fprintf(stderr, "\r\033[Kdebuginfod: %zu/%zu done, %.1f MB%s",
		run->done, run->todo, bytes / 1e6, waiting);
	run->drawn_ms = ms;
	run->drawn = true;
}

/* Has the store's deadline passed? */
static bool store_run__late(struct store_run *run)
{
	return run->deadline_ms && now_ms() >= run->deadline_ms;
}

static void store_run__progress_clear(struct store_run *run)
{
	if (run->drawn)
		fputs("\r\033[K", stderr);
	run->drawn = false;
}

#ifdef HAVE_DEBUGINFOD_SUPPORT
struct fetch_worker {
	struct store_run	*run;
	int			idx;	/* in run->inflight */
	struct store_entry	*e;	/* downloading */
};

static void store__signal(int sig)
{
	WRITE_ONCE(store_interrupted, sig);
}

/*
 * libdebuginfod calls it while it waits or downloads: @a of @b bytes
 * once the size is known (before that, @a counts its loops).  Non-zero
 * ends the download, whose temporary file libdebuginfod then removes.
 */
static int fetch_progress(debuginfod_client *client, long a, long b)
{
	struct fetch_worker *w = debuginfod_get_user_data(client);
	struct store_run *run = w->run;

	pthread_mutex_lock(&run->lock);
	if (b > 0 && a >= 0 && w->e)	/* and its files done so far */
		run->inflight[w->idx] = w->e->fetched_bytes + a;
	store_run__progress(run, false);
	pthread_mutex_unlock(&run->lock);
	return READ_ONCE(store_interrupted) != 0 || store_run__late(run);
}

/*
 * A client with our progress function: one progress line for all the
 * downloads, where DEBUGINFOD_PROGRESS would have each thread write its
 * own, and the way to stop a download on a signal.
 */
static debuginfod_client *fetch_client(struct fetch_worker *w)
{
	debuginfod_client *client = debuginfod_begin();

	if (client) {
		debuginfod_set_user_data(client, w);
		debuginfod_set_progressfn(client, fetch_progress);
	}
	return client;
}

static bool file__has_build_id(const char *path, struct build_id *want)
{
	struct build_id bid;

	return filename__read_build_id(path, &bid) > 0 && !build_id__cmp(&bid, want);
}

/* A downloaded debuginfo of another build: out of the client cache too. */
static void drop_bad_debuginfo(struct store_entry *e)
{
	if (!e->fetched_debug || file__has_build_id(e->fetched_debug, &e->dso->bid))
		return;
	pr_debug("debuginfod: %s: %s has another build id, removed\n",
		 e->sbuild_id, e->fetched_debug);
	unlink(e->fetched_debug);
	zfree(&e->fetched_debug);
}

/* The debuginfod client cache, where libdebuginfod's manual says it is. */
static int debuginfod_cache_dir(char *buf, size_t size)
{
	const char *path = getenv("DEBUGINFOD_CACHE_PATH");
	const char *home = getenv("HOME") ?: "/", *xdg = getenv("XDG_CACHE_HOME");

	if (path && *path)
		return snprintf(buf, size, "%s", path);
	snprintf(buf, size, "%s/.debuginfod_client_cache", home);
	if (!access(buf, F_OK))
		return strlen(buf);
	if (xdg && *xdg)
		return snprintf(buf, size, "%s/debuginfod_client", xdg);
	return snprintf(buf, size, "%s/.cache/debuginfod_client", home);
}

/* @e's directory in the client cache, and @name in it if not NULL. */
static bool fetch_cache_path(struct store_entry *e, const char *name,
			     char *buf, size_t size)
{
	int n = debuginfod_cache_dir(buf, size);

	return n > 0 && (size_t)n < size &&
	       (size_t)snprintf(buf + n, size - n, "/%s%s%s", e->sbuild_id,
				name ? "/" : "", name ?: "") < size - n;
}

/*
 * libdebuginfod 0.188 takes a download its progress function ended for a
 * "not found": it leaves an empty file at the download's place, which
 * answers "not found" for 10 minutes (cache_miss_s).  Remove it if the
 * attempt that began at @since made it, so that the next run asks the
 * servers again.
 */
static void fetch_forget(struct store_entry *e, const char *type, time_t since)
{
	char file[PATH_MAX];
	struct stat st;

	if (!fetch_cache_path(e, type, file, sizeof(file)))
		return;
	if (!stat(file, &st) && st.st_size == 0 && st.st_mtime >= since) {
		pr_debug("debuginfod: %s: interrupted, %s removed\n", e->sbuild_id, file);
		unlink(file);
	}
}

/*
 * The executable (@debuginfo: the debuginfo) of @e into *@path.  Returns
 * 0 or a -errno; libdebuginfod says -ETIME both for DEBUGINFOD_TIMEOUT and
 * for DEBUGINFOD_MAXTIME, so the time it took tells which.
 */
static int fetch_file(debuginfod_client *client, struct store_entry *e,
		      bool debuginfo, char **path)
{
	const unsigned char *id = (const unsigned char *)e->sbuild_id;
	struct fetch_worker *w = debuginfod_get_user_data(client);
	const char *maxtime = getenv("DEBUGINFOD_MAXTIME");
	u64 start = now_ms();
	time_t start_s = time(NULL);
	struct stat st;
	int fd;

	*path = NULL;
	fd = debuginfo ? debuginfod_find_debuginfo(client, id, 0, path) :
	     debuginfod_find_executable(client, id, 0, path);
	if (fd < 0) {
		zfree(path);
		e->over_maxtime = fd == -ETIME && maxtime && atoi(maxtime) > 0 &&
				  now_ms() - start >= atoi(maxtime) * 1000ULL;
		/* whatever libdebuginfod says of a download it was told to end */
		e->interrupted = READ_ONCE(store_interrupted);
		e->over_deadline = !e->interrupted && store_run__late(w->run);
		if (e->interrupted)
			fetch_forget(e, debuginfo ? "debuginfo" : "executable",
				     start_s);
		pr_debug("debuginfod: %s: no %s: %s\n", e->sbuild_id,
			 debuginfo ? "debuginfo" : "executable", strerror(-fd));
		return fd;
	}
	if (!fstat(fd, &st))
		e->fetched_bytes += st.st_size;
	close(fd);
	return 0;
}

/*
 * The server that gave @e: the URL of libdebuginfod's last download, up
 * to its "/buildid/" part.
 */
static void fetch_from(debuginfod_client *client, struct store_entry *e)
{
	const char *url = debuginfod_get_url(client), *end;

	zfree(&e->from);
	if (!url)
		return;
	end = strstr(url, "/buildid/");
	e->from = strndup(url, end ? (size_t)(end - url) : strlen(url));
}

/*
 * Download @e's binary: the executable, or a module's debuginfo; then,
 * for a user binary, its debuginfo where a server has it (Debian's
 * -dbgsym packages, say).  That one is optional: no FAIL without it.  A
 * server answers with the binary itself when that has the debug info.
 */
static void fetch_one(debuginfod_client *client, struct store_entry *e)
{
	char *path;

	e->asked = true;
	e->fetch_why = NULL;
	e->interrupted = false;
	e->over_deadline = false;
	e->fetched_bytes = 0;
	zfree(&e->fetched_debug);
	e->err = fetch_file(client, e, false, &path);
	/*
	 * A server indexes a kernel module (ET_REL) as debuginfo only; an
	 * unstripped module has all perf needs.
	 */
	if (e->err == -ENOENT && dso__is_kernel_side(e->dso) && !e->interrupted)
		e->err = fetch_file(client, e, true, &path);
	if (e->err)
		return;
	e->fetched = path;
	fetch_from(client, e);
	/* a server's wrong file is worse than none: checked once, here */
	e->fetched_good = file__has_build_id(path, &e->dso->bid);
	if (e->fetched_good && !dso__is_kernel_side(e->dso) &&
	    !fetch_file(client, e, true, &path))
		e->fetched_debug = path;
}

/*
 * The name a download is cached under: the name the binary was recorded
 * with, as a local one gets, so that ~/.debug and "perf buildid-cache -l"
 * show that name and not the client cache's.  The file need not exist
 * here, so no realpath(): a recorded name is the kernel's d_path() of the
 * mapping, absolute and resolved already.  A name that is not (a module
 * known by its name only, "[nf_tables]") gets the client cache's path
 * instead.  NULL: out of memory.
 */
static char *fetched_cachename(struct store_entry *e)
{
	const char *name = e->dso->long_name;

	if (!strcmp(name, DSO__NAME_KALLSYMS) || build_id_cache__plain_path(name))
		return strdup(name);
	return realpath(e->fetched, NULL);
}

/*
 * The download sits in the debuginfod client cache: link or copy it into
 * the build-id cache, if it has the build id asked for.  If not, it goes:
 * a server's wrong file is worse than none, here or in its cache.
 */
static void store_download(struct store_entry *e)
{
	char *name;

	if (!e->fetched)
		return;
	if (!e->fetched_good) {
		pr_debug("debuginfod: %s: %s has another build id, removed\n",
			 e->sbuild_id, e->fetched);
		unlink(e->fetched);
		zfree(&e->fetched);
		e->err = -EIO;
		e->fetch_why = "the downloaded file has another build id";
		return;
	}
	drop_bad_debuginfo(e);
	name = fetched_cachename(e);
	e->ok = (name && !build_id_cache__add_files(e->sbuild_id, name, e->fetched,
						    e->fetched_debug)) ||
		build_id_cache__cached(e->sbuild_id);
	if (!e->ok) {
		/* see fetch__worth_again() */
		e->fetch_why = "cannot write the download to the build-id cache";
		e->err = -EIO;
	}
	free(name);
}

/*
 * Failures that say nothing about the server, fetched once more, alone,
 * once the others are done.  libdebuginfod 0.188, with other clients on
 * the same cache (threads here, or another perf):
 * - a download that succeeds first leaves an empty "not found" entry at
 *   the file's place, then renames the file over it: a client looking in
 *   between is told ENOENT.  Asked again, it finds the file; a real "not
 *   found" is then answered from the cache, without asking the server;
 * - it closes one of its file descriptors twice (elfutils PR29696): that
 *   may be another download's, which then fails with EBADF, or EIO when
 *   it writes, or reports success for a file left empty in its cache,
 *   which store_download() removed (EIO), or it is the descriptor of
 *   our own write of a download into the build-id cache (EIO too);
 * - it makes its cache directory with a stat() then a mkdir(): EEXIST;
 * - its own retry after a timeout (DEBUGINFOD_RETRY_LIMIT) may answer
 *   "not found" without asking, and leave that in its cache for 10
 *   minutes: fetch_missing() turns it off unless the user set it.
 * And a server under load may refuse or reset one of many connections:
 * ECONNREFUSED (curl's "couldn't connect"), ECONNRESET.  A server that is
 * down refuses at once: trying again costs nothing.  A timeout is not
 * tried again: a stalled server costs one DEBUGINFOD_TIMEOUT a run.
 */
static bool fetch__worth_again(struct store_run *run, struct store_entry *e)
{
	int err = e->err;

	return !e->ok && !READ_ONCE(store_interrupted) && !store_run__late(run) &&
	       (err == -ENOENT || err == -EBADF || err == -EIO || err == -EEXIST ||
		err == -ECONNREFUSED || err == -ECONNRESET);
}

/* @w downloads @e, and stores what came. */
static void fetch_store(struct fetch_worker *w, debuginfod_client *client,
			struct store_entry *e)
{
	w->e = e;
	fetch_one(client, e);
	store_download(e);
}

/* One download ended: count it, and its line, unless it goes again. */
static void fetch_done(struct fetch_worker *w, struct store_entry *e, bool last)
{
	struct store_run *run = w->run;

	pthread_mutex_lock(&run->lock);
	run->inflight[w->idx] = 0;
	run->bytes += e->fetched_bytes;
	/* the servers stall: start no other download, each would wait as long */
	if (e->err == -ETIME && !e->over_maxtime && !e->over_deadline)
		run->timed_out = true;
	if (last || !fetch__worth_again(run, e)) {
		run->done++;
		store_run__report(run, e);
	}
	pthread_mutex_unlock(&run->lock);
}

static void *fetch_worker(void *arg)
{
	struct fetch_worker *w = arg;
	struct store_run *run = w->run;
	debuginfod_client *client = fetch_client(w);

	if (!client)
		return NULL;
	for (;;) {
		struct store_entry *e = NULL;

		pthread_mutex_lock(&run->lock);
		while (run->next < run->nr && !store_entry__wanted(&run->entries[run->next]))
			run->next++;
		if (run->next < run->nr && !READ_ONCE(store_interrupted) &&
		    !run->timed_out && !store_run__late(run))
			e = &run->entries[run->next++];
		pthread_mutex_unlock(&run->lock);
		if (!e)
			break;

		fetch_store(w, client, e);
		fetch_done(w, e, false);
	}
	debuginfod_end(client);
	return NULL;
}

/*
 * A temporary file of libdebuginfod is that of a download under way if
 * it grew within the last FETCH_FRESH_S seconds: its mtime tells.  A
 * download on a loaded machine may stall for seconds; one a killed client
 * left is older than a minute soon after.
 */
#define FETCH_FRESH_S	60

/*
 * Another client of the cache (another perf) downloading @e's file right
 * now: its temporary file, "executable.XXXXXX", is in the id's directory,
 * and growing.  One that a client killed mid-download left there stays
 * for good, and is not waited for.
 */
static bool fetch__other_downloading(struct store_entry *e)
{
	char dir[PATH_MAX];
	struct dirent *d;
	struct stat st;
	bool busy = false;
	time_t now;
	DIR *dp;

	if (!fetch_cache_path(e, NULL, dir, sizeof(dir)))
		return false;
	dp = opendir(dir);
	if (!dp)
		return false;
	now = time(NULL);
	while (!busy && (d = readdir(dp)) != NULL) {
		const char *dot = strrchr(d->d_name, '.');

		if (!dot || strlen(dot + 1) != 6 ||
		    !(strstarts(d->d_name, "executable.") ||
		      strstarts(d->d_name, "debuginfo.")))
			continue;
		busy = !fstatat(dirfd(dp), d->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		       S_ISREG(st.st_mode) && st.st_mtime > now - FETCH_FRESH_S &&
		       st.st_mtime <= now + 1;
	}
	closedir(dp);
	return busy;
}

/*
 * The downloads worth another try (fetch__worth_again()), one at a time.
 */
static void fetch_again(struct store_run *run)
{
	struct fetch_worker w = { .run = run };
	debuginfod_client *client = NULL;
	size_t j;

	for (j = 0; j < run->nr; j++) {
		struct store_entry *e = &run->entries[j];
		bool again;

		if (e->reported || !e->asked)
			continue;
		again = fetch__worth_again(run, e);
		if (!client && again)
			client = fetch_client(&w);
		if (again && client) {
			int waits = 0;

			fetch_store(&w, client, e);
			/*
			 * Still "not found" while another perf downloads it:
			 * the empty entry of the race above, until that one
			 * renames its file.  Up to 30 s while its temporary
			 * file grows, then once more.
			 */
			while (e->err == -ENOENT && waits < 300 &&
			       !READ_ONCE(store_interrupted) && fetch__other_downloading(e)) {
				usleep(100000);
				waits++;
			}
			if (waits && e->err == -ENOENT)
				fetch_store(&w, client, e);
		} else {
			/* counted already; a signal stopped it, if one came */
			e->fetched_bytes = 0;
			e->interrupted |= e->err && READ_ONCE(store_interrupted);
		}
		fetch_done(&w, e, true);
	}
	if (client)
		debuginfod_end(client);
}

/*
 * Ask debuginfod for every binary not found here, store_jobs at a time,
 * each stored and its line printed as its download ends.  SIGINT and
 * SIGTERM end the downloads under way, with no partial file anywhere.
 */
static void fetch_missing(struct store_run *run)
{
	struct fetch_worker workers[ARRAY_SIZE(run->inflight)];
	pthread_t threads[ARRAY_SIZE(run->inflight)];
	struct sigaction sa = { .sa_handler = store__signal, .sa_flags = SA_RESTART };
	struct sigaction old_int, old_term;
	int i, nr_threads;
	char bad[80];
	bool retry;
	size_t j;

	for (j = 0; j < run->nr; j++)
		run->todo += store_entry__wanted(&run->entries[j]);
	if (!run->todo || !debuginfod_urls())
		return;
	if (debuginfod_urls__malformed(bad, sizeof(bad))) {
		pr_err("DEBUGINFOD_URLS: '%s' is no http:// or https:// URL: no server asked\n",
		       bad);
		return;
	}
	nr_threads = store_jobs;
	if ((size_t)nr_threads > run->todo)
		nr_threads = run->todo;
	if (nr_threads > (int)ARRAY_SIZE(threads))
		nr_threads = ARRAY_SIZE(threads);
	run->nr_workers = nr_threads;
	run->start_ms = now_ms();
	run->beat_ms = run->start_ms;
	run->moved_ms = run->start_ms;
	if (store_deadline_s)
		run->deadline_ms = run->start_ms + store_deadline_s * 1000ULL;
	run->progress_tty = isatty(STDERR_FILENO);
	run->progress_lines = !run->progress_tty && getenv("DEBUGINFOD_PROGRESS");
	pthread_mutex_init(&run->lock, NULL);
	WRITE_ONCE(store_interrupted, 0);
	/* see fetch__worth_again(); a value set by the user stays */
	retry = !getenv("DEBUGINFOD_RETRY_LIMIT");
	if (retry)
		setenv("DEBUGINFOD_RETRY_LIMIT", "0", 1);
	sigemptyset(&sa.sa_mask);
	/* a signal ignored (a background job's SIGINT) stays ignored */
	sigaction(SIGINT, NULL, &old_int);
	sigaction(SIGTERM, NULL, &old_term);
	if (old_int.sa_handler != SIG_IGN)
		sigaction(SIGINT, &sa, NULL);
	if (old_term.sa_handler != SIG_IGN)
		sigaction(SIGTERM, &sa, NULL);

	for (i = 0; i < nr_threads; i++) {
		workers[i].run = run;
		workers[i].idx = i;
		if (pthread_create(&threads[i], NULL, fetch_worker, &workers[i]))
			break;
	}
	nr_threads = i;
	if (!nr_threads)
		fetch_worker(&workers[0]);
	for (i = 0; i < nr_threads; i++)
		pthread_join(threads[i], NULL);
	fetch_again(run);
	store_run__progress_clear(run);
	/* those never asked: why */
	for (j = 0; j < run->nr; j++) {
		struct store_entry *e = &run->entries[j];

		if (!store_entry__wanted(e) || e->asked || e->fetch_why)
			continue;
		if (run->timed_out)
			e->fetch_why =
				"debuginfod not asked: the servers timed out on another download";
		else if (store_run__late(run))
			e->fetch_why = "debuginfod not asked: the store's deadline passed";
	}

	if (retry)
		unsetenv("DEBUGINFOD_RETRY_LIMIT");
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	pthread_mutex_destroy(&run->lock);
}
#else
static void fetch_missing(struct store_run *run __maybe_unused)
{
	pr_warning("perf was built without libdebuginfod: nothing downloaded\n");
}
#endif

/*
 * build_id_cache__add_s() asks debuginfod for a debuginfo file of each
 * binary it stores, one at a time, each up to DEBUGINFOD_TIMEOUT (and
 * retried): with a slow server, --store would take that much per binary.
 * Its downloads are the workers' alone, so hide the servers meanwhile.
 */
static char *debuginfod_urls__hide(void)
{
	char *urls = getenv("DEBUGINFOD_URLS");

	if (urls) {
		urls = strdup(urls);
		unsetenv("DEBUGINFOD_URLS");
	}
	return urls;
}

static void debuginfod_urls__restore(char *urls)
{
	if (urls) {
		setenv("DEBUGINFOD_URLS", urls, 1);
		free(urls);
	}
}

/*
 * perf record's end of run stores each binary hit in the build-id cache,
 * and asks debuginfod for the debuginfo of every one it has none of,
 * one at a time, each up to DEBUGINFOD_TIMEOUT: as upstream perf does, it
 * does so only with record.debuginfod set, to URLs or to "system" (those
 * of DEBUGINFOD_URLS).  Only for the while: the workload keeps its
 * environment.  Returns what build_id_store__record_end() restores.
 */
char *build_id_store__record_begin(void)
{
	char *urls = debuginfod_urls__hide();

	if (record_debuginfod && strcmp(record_debuginfod, "system"))
		setenv("DEBUGINFOD_URLS", record_debuginfod, 1);
	else if (record_debuginfod && urls)
		setenv("DEBUGINFOD_URLS", urls, 1);
	return urls;
}

#ifdef HAVE_DEBUGINFOD_SUPPORT
/*
 * The progress function of the build-id cache's debuginfod clients
 * (build_id_cache__find_debug(): perf record's end of run with
 * record.debuginfod, perf buildid-cache --debuginfod), which ask for one
 * debuginfo at a time: never silent (a line on stderr every
 * STORE_BEAT_MS), and bounded by buildid.debuginfod-deadline, counted
 * from the first question.
 */
int build_id_store__debuginfod_wait(struct debuginfod_client *c __maybe_unused,
				    long a __maybe_unused, long b __maybe_unused)
{
	static u64 start_ms, beat_ms;
	u64 ms = now_ms();

	if (!start_ms) {
		start_ms = ms;
		beat_ms = ms;
	}
	if (ms - beat_ms >= STORE_BEAT_MS) {
		beat_ms = ms;
		fprintf(stderr, "debuginfod: waiting %llu s for %s\n",
			(unsigned long long)(ms - start_ms) / 1000,
			debuginfod_urls() ?: "(none)");
	}
	return store_deadline_s && ms - start_ms >= store_deadline_s * 1000ULL;
}
#endif

/* perf record --debuginfod[=URLS]: record.debuginfod's meaning */
void build_id_store__set_record_debuginfod(const char *urls)
{
	free(record_debuginfod);
	record_debuginfod = strdup(urls);
}

/*
 * perf buildid-cache --debuginfod[=URLS], as upstream's: the servers the
 * binaries it adds get their debuginfo from, @urls, or with "system"
 * those of DEBUGINFOD_URLS; without the option (NULL), none.  Through the
 * environment: libdebuginfod takes its servers from nowhere else.
 */
void build_id_store__debuginfod_setup(const char *urls)
{
	if (!urls)
		unsetenv("DEBUGINFOD_URLS");
	else if (strcmp(urls, "system"))
		setenv("DEBUGINFOD_URLS", urls, 1);
}

void build_id_store__record_end(char *urls)
{
	unsetenv("DEBUGINFOD_URLS");
	debuginfod_urls__restore(urls);
}

/*
 * Why samples in @dso (NULL: in no map) resolve to no function, for the
 * coverage summary of perf report: from what the build-id cache, or
 * else the file perf found, holds of it.
 */
const char *dso__unresolved_why(struct dso *dso)
{
	bool kallsyms = false, symtab = false, debuginfo = false;
	char sbuild_id[SBUILD_ID_SIZE];

	if (!dso)
		return "in no mapping: anonymous memory or JIT code";
	if (!dso__wants_build_id(dso))
		return "no file: anonymous memory, the vdso or JIT code";
	if (!dso->has_build_id)
		return "no build id";
	build_id__sprintf(&dso->bid, sbuild_id);
	if (!build_id_cache__symbols(sbuild_id, &kallsyms, &symtab, &debuginfo)) {
		if (dso->symtab_type == DSO_BINARY_TYPE__NOT_FOUND ||
		    !elf_file__symbols(dso->long_name, &symtab, &debuginfo))
			return "not found: not in the build-id cache, not on this machine";
	}
	if (!kallsyms && !symtab && !debuginfo)
		return "executable only: stripped, no debuginfo";
	return "no function symbol at the address";
}

/*
 * The kernel, or a file a task mapped: not anonymous memory, the vdso
 * or a JIT's symbol map.  Without an id, it cannot be found again.
 */
bool dso__wants_build_id(struct dso *dso)
{
	const char *name = dso->long_name;

	if (dso->kernel)
		return true;
	return name[0] == '/' && !is_anon_memory(name) &&
	       !is_no_dso_memory(name) && !dso__is_vdso(dso) &&
	       !strstarts(name, "/tmp/perf-");
}

/*
 * The DSOs to store: those with an id (with @with_hits, those hit), and
 * a FAIL for each one hit that has none.
 */
static int machine__collect_store(struct machine *machine, bool with_hits,
				  struct store_entry **entries, size_t *nr)
{
	struct dso *dso;
	int err = 0;

	down_read(&machine->dsos.lock);
	list_for_each_entry(dso, &machine->dsos.head, node) {
		struct store_entry *e;
		bool no_id = !dso->has_build_id;

		if (no_id ? !dso->hit || !dso__wants_build_id(dso) :
		    (with_hits && !dso->hit) || dso__is_vdso(dso))
			continue;
		e = realloc(*entries, (*nr + 1) * sizeof(**entries));
		if (!e) {
			err = -ENOMEM;
			break;
		}
		*entries = e;
		e = &e[(*nr)++];
		memset(e, 0, sizeof(*e));
		e->dso = dso;
		if (no_id) {
			e->no_id = true;
			e->why = "no build id";
			strcpy(e->sbuild_id, "-");
		} else {
			build_id__sprintf(&dso->bid, e->sbuild_id);
			/* from another machine maybe: a name to check */
			e->why = dso__cache_name_refused(dso, machine);
			e->refused = !!e->why;
		}
	}
	up_read(&machine->dsos.lock);
	return err;
}

/*
 * Store every DSO with a build id (with @with_hits, every DSO hit) in the
 * build-id cache; with @debuginfod, download what this machine lacks.
 * Each line is printed as soon as it is known: what is here first, then
 * each download as it ends (one tried again, after the others).  Returns
 * how many could not be stored, or a negative errno.
 */
int perf_session__store_build_ids(struct perf_session *session,
				  bool with_hits, bool debuginfod)
{
	struct machine *machine = &session->machines.host;
	struct store_run run = { .debuginfod = debuginfod };
	size_t i;
	int err, sig;
	char *urls;

	if (mkdir_p(buildid_dir, 0755) && errno != EEXIST) {
		pr_err("cannot create %s: %s\n", buildid_dir, strerror(errno));
		return -errno;
	}
	err = machine__collect_store(machine, with_hits, &run.entries, &run.nr);
	if (err) {
		free(run.entries);
		return err;
	}

	urls = debuginfod_urls__hide();
	for (i = 0; i < run.nr; i++) {
		struct store_entry *e = &run.entries[i];

		if (!e->no_id && !e->refused)
			e->ok = store_local(e);
		if (e->ok || e->no_id || e->refused || !debuginfod)
			store_run__report(&run, e);
	}
	debuginfod_urls__restore(urls);
	if (debuginfod)
		fetch_missing(&run);

	for (i = 0; i < run.nr; i++) {
		struct store_entry *e = &run.entries[i];

		if (!e->reported)
			store_run__report(&run, e);
		free(e->fetched);
		free(e->fetched_debug);
		free(e->from);
	}
	free(run.entries);
	sig = READ_ONCE(store_interrupted);
	if (sig) {
		/* every line is out, every file whole: die of it as asked */
		pr_err("interrupted\n");
		raise(sig);
	}
	return run.fails;
}

/* Was @session recorded with MMAP3, i.e. are there ids in its records? */
bool perf_session__has_build_id_mmap(struct perf_session *session)
{
	struct evsel *evsel;

	evlist__for_each_entry(session->evlist, evsel)
		if (evsel->core.attr.build_id)
			return true;
	return false;
}

/*
 * perf buildid-list --store, perf report --store: read @data, marking the
 * DSOs hit, and store them.  A file a task mapped in another mount
 * namespace is read there only if @data was recorded on this machine
 * (see machine__new_thread()), or with @data->local_namespaces.  A file
 * damaged part way loses nothing that came before the damage: what was
 * read is stored.  Returns the number of failures, or < 0 if @data could
 * not be read (whole).
 */
int perf_data__store_build_ids(struct perf_data *data, bool with_hits,
			       bool debuginfod)
{
	struct perf_session *session;
	int err, fails;

	symbol__elf_init();
	session = perf_session__new(data, false, &build_id__mark_dso_hit_ops);
	if (IS_ERR(session))
		return PTR_ERR(session);
	err = perf_session__process_events(session);
	if (err)
		pr_err("%s: not read whole: storing the binaries of what was read\n",
		       data->path);
	fails = perf_session__store_build_ids(session, with_hits, debuginfod);
	perf_session__delete(session);
	if (err)
		return err < 0 ? err : -EINVAL;
	/* no build-id cache to store into fails every binary */
	return fails < 0 ? 1 : fails;
}
