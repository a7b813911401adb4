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
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/err.h>
#include <linux/list.h>
#include <linux/string.h>
#include <linux/zalloc.h>
#ifdef HAVE_DEBUGINFOD_SUPPORT
#include <elfutils/debuginfod.h>
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

struct store_entry {
	struct dso	*dso;
	char		sbuild_id[SBUILD_ID_SIZE];
	char		*fetched;	/* downloaded file */
	char		*fetched_debug;	/* its downloaded debuginfo */
	bool		fetched_good;	/* fetched has the build id asked for */
	int		err;		/* of the download, a -errno */
	const char	*why;		/* not stored from this machine: why */
	const char	*fetch_why;	/* downloaded, not stored: why */
	bool		asked;		/* debuginfod was asked */
	bool		no_id;		/* hit, but recorded without an id */
	bool		ok;
};

/* Wanted from debuginfod: not stored yet, and with an id to ask for. */
static bool store_entry__wanted(struct store_entry *e)
{
	return !e->ok && !e->no_id;
}

/*
 * buildid.debuginfod = URLS (or upstream perf's buildid-cache.debuginfod),
 * buildid.debuginfod-jobs = N
 */
int build_id_store__config(const char *var, const char *value)
{
	if (!strcmp(var, "buildid.debuginfod") ||
	    !strcmp(var, "buildid-cache.debuginfod")) {
		/* the environment wins, as for every libdebuginfod user */
		if (value && !getenv("DEBUGINFOD_URLS"))
			setenv("DEBUGINFOD_URLS", value, 1);
		return 0;
	}
	if (!strcmp(var, "buildid.debuginfod-jobs")) {
		/* a key without a value is an error, not a crash */
		if (perf_config_int(&store_jobs, var, value))
			return -1;
		if (store_jobs < 1)
			store_jobs = 1;
		return 0;
	}
	return 0;
}

/*
 * @from as @dir/@base: a hard link where the file system allows (the
 * debuginfod client cache is usually on the same one as ~/.debug), else
 * a copy.  Another perf may put its whole file there first: that one
 * will do.
 */
static int cache_dir__add_file(const char *dir, const char *base, const char *from)
{
	char *file;
	int err = 0;

	if (asprintf(&file, "%s/%s", dir, base) < 0)
		return -1;
	if (access(file, F_OK) && link(from, file) && errno != EEXIST &&
	    copyfile(from, file) && access(file, F_OK))
		err = -1;
	free(file);
	return err;
}

/*
 * Put @from, and @debug if not NULL, into the cache directory @dir (NULL:
 * out of memory) of the binary with id @sbuild_id, and link to it.
 * mkdir_p() writes into @dir for a while, hence not const.
 */
static int build_id_cache__add_copy(const char *sbuild_id, char *dir,
				    const char *from, const char *debug)
{
	if (!dir || mkdir_p(dir, 0755) || cache_dir__add_file(dir, "elf", from))
		return -1;
	/* without it, perf report has the stripped binary's symbols only */
	if (debug && cache_dir__add_file(dir, "debug", debug))
		pr_debug("cannot store %s in %s\n", debug, dir);
	return build_id_cache__link(sbuild_id, dir);
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
	return !build_id_cache__add_s(e->sbuild_id, e->dso->long_name, NULL,
				      true, false);
}

/* A module, decompressed if need be, if the file on disk is the one. */
static bool store_module(struct store_entry *e)
{
	struct dso *dso = e->dso;
	char tmp[PATH_MAX] = "";
	const char *path = dso->long_name;
	struct build_id bid;
	char *dir;
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
		/* the decompressed copy, cached under the module's name */
		dir = build_id_cache__cachedir(e->sbuild_id, dso->long_name,
					       NULL, false, false);
		ok = !build_id_cache__add_copy(e->sbuild_id, dir, tmp, NULL);
		free(dir);
	} else {
		ok = !build_id_cache__add_s(e->sbuild_id, path, NULL, false, false);
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
	return !build_id_cache__add_s(e->sbuild_id, dso->long_name, dso->nsinfo,
				      false, false);
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

#ifdef HAVE_DEBUGINFOD_SUPPORT
struct fetch_queue {
	struct store_entry	*entries;
	size_t			nr;
	size_t			next;
	size_t			done;
	size_t			todo;
	bool			progress;
	pthread_mutex_t		lock;
};

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

/*
 * The debuginfo of a user binary just downloaded, where a server has it
 * (Debian's -dbgsym packages, say): optional, so a failure is no FAIL.
 * A server answers with the binary itself when that has the debug info.
 */
static void fetch_debuginfo(debuginfod_client *client, struct store_entry *e)
{
	char *path = NULL;
	int fd;

	if (dso__is_kernel_side(e->dso))
		return;
	fd = debuginfod_find_debuginfo(client, (const unsigned char *)e->sbuild_id,
				       0, &path);
	if (fd < 0) {
		free(path);
		pr_debug("debuginfod: %s: no debuginfo: %s\n", e->sbuild_id,
			 strerror(-fd));
		return;
	}
	close(fd);
	e->fetched_debug = path;
}

/* Download @e's binary: the executable, or a module's debuginfo. */
static void fetch_one(debuginfod_client *client, struct store_entry *e)
{
	char *path = NULL;
	int fd;

	fd = debuginfod_find_executable(client,
					(const unsigned char *)e->sbuild_id,
					0, &path);
	/*
	 * A server indexes a kernel module (ET_REL) as debuginfo only; an
	 * unstripped module has all perf needs.
	 */
	if (fd == -ENOENT && dso__is_kernel_side(e->dso)) {
		free(path);
		path = NULL;
		fd = debuginfod_find_debuginfo(client,
					       (const unsigned char *)e->sbuild_id,
					       0, &path);
	}
	e->asked = true;
	e->fetch_why = NULL;
	zfree(&e->fetched_debug);
	if (fd >= 0) {
		close(fd);
		e->fetched = path;
		e->err = 0;
		/* a server's wrong file is worse than none: checked once, here */
		e->fetched_good = file__has_build_id(path, &e->dso->bid);
		if (e->fetched_good)
			fetch_debuginfo(client, e);
	} else {
		free(path);
		e->err = fd;
		pr_debug("debuginfod: %s: %s\n", e->sbuild_id, strerror(-fd));
	}
}

static void *fetch_worker(void *arg)
{
	struct fetch_queue *q = arg;
	debuginfod_client *client = debuginfod_begin();

	if (!client)
		return NULL;
	for (;;) {
		struct store_entry *e = NULL;

		pthread_mutex_lock(&q->lock);
		while (q->next < q->nr && !store_entry__wanted(&q->entries[q->next]))
			q->next++;
		if (q->next < q->nr)
			e = &q->entries[q->next++];
		pthread_mutex_unlock(&q->lock);
		if (!e)
			break;

		fetch_one(client, e);

		pthread_mutex_lock(&q->lock);
		q->done++;
		if (q->progress)
			fprintf(stderr, "\rdebuginfod: %zu/%zu", q->done, q->todo);
		pthread_mutex_unlock(&q->lock);
	}
	debuginfod_end(client);
	return NULL;
}

/*
 * Failures that say nothing about the server, fetched once more, one at
 * a time.  libdebuginfod 0.188, with other clients on the same cache
 * (threads here, or another perf):
 * - a download that succeeds first leaves an empty "not found" entry at
 *   the file's place, then renames the file over it: a client looking in
 *   between is told ENOENT.  Asked again, it finds the file; a real "not
 *   found" is then answered from the cache, without asking the server;
 * - it closes one of its file descriptors twice (elfutils PR29696): that
 *   may be another download's, which then fails with EBADF, or EIO when
 *   it writes;
 * - it makes its cache directory with a stat() then a mkdir(): EEXIST.
 * And a server under load may reset one of many connections: ECONNRESET.
 */
static bool fetch__worth_again(int err)
{
	return err == -ENOENT || err == -EBADF || err == -EIO || err == -EEXIST ||
	       err == -ECONNRESET;
}

/*
 * Downloads made in parallel that do not have the build id asked for.
 * libdebuginfod 0.188 under threads (elfutils PR29696: a descriptor
 * closed twice) sometimes reports success for a file left empty in its
 * cache, where it would answer every later request with it: remove the
 * entry, and have the download made again, alone.
 */
static void drop_bad_downloads(struct store_entry *entries, size_t nr)
{
	size_t j;

	for (j = 0; j < nr; j++) {
		struct store_entry *e = &entries[j];

		if (!store_entry__wanted(e) || !e->fetched || e->fetched_good)
			continue;
		pr_debug("debuginfod: %s: %s has another build id, fetched again\n",
			 e->sbuild_id, e->fetched);
		unlink(e->fetched);
		zfree(&e->fetched);
		e->err = -EIO;
		e->fetch_why = "the downloaded file has another build id";
	}
}

static void fetch_again(struct store_entry *entries, size_t nr)
{
	debuginfod_client *client = NULL;
	size_t j;

	for (j = 0; j < nr; j++) {
		if (!store_entry__wanted(&entries[j]) || entries[j].fetched ||
		    !fetch__worth_again(entries[j].err))
			continue;
		if (!client)
			client = debuginfod_begin();
		if (!client)
			return;
		fetch_one(client, &entries[j]);
	}
	if (client)
		debuginfod_end(client);
}

/* Ask debuginfod for every binary not found here, store_jobs at a time. */
static void fetch_missing(struct store_entry *entries, size_t nr)
{
	struct fetch_queue q = { .entries = entries, .nr = nr };
	pthread_t threads[64];
	int i, nr_threads;
	size_t j;

	for (j = 0; j < nr; j++)
		q.todo += store_entry__wanted(&entries[j]);
	if (!q.todo || !getenv("DEBUGINFOD_URLS"))
		return;
	q.progress = isatty(STDERR_FILENO);
	pthread_mutex_init(&q.lock, NULL);
	nr_threads = store_jobs;
	if ((size_t)nr_threads > q.todo)
		nr_threads = q.todo;
	if (nr_threads > 64)
		nr_threads = 64;
	for (i = 0; i < nr_threads; i++)
		if (pthread_create(&threads[i], NULL, fetch_worker, &q))
			break;
	nr_threads = i;
	if (!nr_threads)
		fetch_worker(&q);
	for (i = 0; i < nr_threads; i++)
		pthread_join(threads[i], NULL);
	if (q.progress)
		fprintf(stderr, "\r\033[K");
	pthread_mutex_destroy(&q.lock);
	drop_bad_downloads(entries, nr);
	fetch_again(entries, nr);
}

/*
 * The cache directory of a download: under the name the binary was
 * recorded with, as a local one gets, so that ~/.debug and
 * "perf buildid-cache -l" show that name and not the client cache's.  The
 * file need not exist here, so no realpath(): a recorded name is the
 * kernel's d_path() of the mapping, absolute and resolved already.  A
 * name that is not (relative, or with a "." or ".." component that would
 * climb out of ~/.debug) gets the client cache's path instead.
 */
static bool name__is_plain_path(const char *name)
{
	const char *c = name, *end;

	if (*name != '/')
		return false;
	while (*c == '/') {
		c++;
		end = strchrnul(c, '/');
		if (end == c || (end - c == 1 && c[0] == '.') ||
		    (end - c == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		c = end;
	}
	return true;
}

static char *fetched_cachedir(struct store_entry *e)
{
	const char *name = e->dso->long_name;
	char *dir;

	if (!strcmp(name, DSO__NAME_KALLSYMS) || name__is_plain_path(name)) {
		if (asprintf(&dir, "%s%s%s/%s", buildid_dir, *name == '/' ? "" : "/",
			     name, e->sbuild_id) < 0)
			return NULL;
		return dir;
	}
	return build_id_cache__cachedir(e->sbuild_id, e->fetched, NULL, false, false);
}

/* The downloads sit in the debuginfod client cache: link or copy them. */
static void store_fetched(struct store_entry *entries, size_t nr)
{
	size_t j;

	for (j = 0; j < nr; j++) {
		struct store_entry *e = &entries[j];
		char *dir;

		if (!store_entry__wanted(e) || !e->fetched)
			continue;
		drop_bad_debuginfo(e);
		/* a server's wrong file is worse than none, here or in its cache */
		if (!e->fetched_good) {
			pr_debug("debuginfod: %s: %s has another build id, removed\n",
				 e->sbuild_id, e->fetched);
			unlink(e->fetched);
			e->fetch_why = "the downloaded file has another build id";
			continue;
		}
		dir = fetched_cachedir(e);
		e->ok = !build_id_cache__add_copy(e->sbuild_id, dir, e->fetched,
						  e->fetched_debug) ||
			build_id_cache__cached(e->sbuild_id);
		if (!e->ok)
			e->fetch_why = "cannot write the download to the build-id cache";
		free(dir);
	}
}

/* Why debuginfod did not give @e, into @buf. */
static const char *fetch_why(struct store_entry *e, char *buf, size_t size)
{
	if (e->fetch_why)
		return e->fetch_why;
	if (!e->asked)
		return getenv("DEBUGINFOD_URLS") ? "debuginfod not asked" :
		       "no debuginfod server: DEBUGINFOD_URLS is not set";
	switch (e->err) {
	case -ENOENT:
		return "not on any debuginfod server";
	case -ETIME:
	case -ETIMEDOUT:
		return "debuginfod timed out (DEBUGINFOD_TIMEOUT)";
	default:
		snprintf(buf, size, "debuginfod: %s", strerror(-e->err));
		return buf;
	}
}
#else
static void fetch_missing(struct store_entry *entries __maybe_unused,
			  size_t nr __maybe_unused)
{
	pr_warning("perf was built without libdebuginfod: nothing downloaded\n");
}

static void store_fetched(struct store_entry *entries __maybe_unused,
			  size_t nr __maybe_unused)
{
}

static const char *fetch_why(struct store_entry *e __maybe_unused,
			     char *buf __maybe_unused, size_t size __maybe_unused)
{
	return "perf built without libdebuginfod";
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
		}
	}
	up_read(&machine->dsos.lock);
	return err;
}

/*
 * Store every DSO with a build id (with @with_hits, every DSO hit) in the
 * build-id cache; with @debuginfod, download what this machine lacks.
 * Returns how many could not be stored, or a negative errno.
 */
int perf_session__store_build_ids(struct perf_session *session,
				  bool with_hits, bool debuginfod)
{
	struct machine *machine = &session->machines.host;
	struct store_entry *entries = NULL;
	size_t nr = 0, i;
	int fails = 0, err;
	char *urls;

	if (mkdir_p(buildid_dir, 0755) && errno != EEXIST) {
		pr_err("cannot create %s: %s\n", buildid_dir, strerror(errno));
		return -errno;
	}
	err = machine__collect_store(machine, with_hits, &entries, &nr);
	if (err) {
		free(entries);
		return err;
	}

	urls = debuginfod_urls__hide();
	for (i = 0; i < nr; i++)
		if (!entries[i].no_id)
			entries[i].ok = store_local(&entries[i]);
	debuginfod_urls__restore(urls);
	if (debuginfod) {
		fetch_missing(entries, nr);
		urls = debuginfod_urls__hide();
		store_fetched(entries, nr);
		debuginfod_urls__restore(urls);
	}

	for (i = 0; i < nr; i++) {
		struct store_entry *e = &entries[i];
		char buf[128];

		if (e->ok)
			printf("OK %s %s\n", e->sbuild_id, e->dso->long_name);
		else if (debuginfod && !e->no_id)
			printf("FAIL %s %s (%s; %s)\n", e->sbuild_id, e->dso->long_name,
			       e->why, fetch_why(e, buf, sizeof(buf)));
		else
			printf("FAIL %s %s (%s)\n", e->sbuild_id, e->dso->long_name,
			       e->why);
		fails += !e->ok;
		free(e->fetched);
		free(e->fetched_debug);
	}
	free(entries);
	return fails;
}

/* Was @session recorded with MMAP3, i.e. are there ids in its records? */
bool perf_session__has_mmap3(struct perf_session *session)
{
	struct evsel *evsel;

	evlist__for_each_entry(session->evlist, evsel)
		if (evsel->core.attr.mmap3)
			return true;
	return false;
}

/*
 * perf buildid-list --store, perf report --store: read @path, marking the
 * DSOs hit, and store them.  Returns the number of failures, or < 0.
 */
int perf_data__store_build_ids(const char *path, bool force, bool with_hits,
			       bool debuginfod)
{
	struct perf_data data = {
		.path  = path,
		.mode  = PERF_DATA_MODE_READ,
		.force = force,
	};
	struct perf_session *session;
	int err;

	symbol__elf_init();
	session = perf_session__new(&data, false, &build_id__mark_dso_hit_ops);
	if (IS_ERR(session))
		return PTR_ERR(session);
	err = perf_session__process_events(session);
	if (!err)
		err = perf_session__store_build_ids(session, with_hits, debuginfod);
	perf_session__delete(session);
	return err;
}
